// The Python module `fano`: positions, moves, tablebases, analysis and the
// solver from Python. A thin front end: every answer comes from the libraries
// (core's rules and notation, the tablebase reader, analyse() and
// report_json(), solve()); nothing here re-implements a rule. The bindings
// are split by topic (common.hpp lists the files); this file only assembles
// the module.
#include "common.hpp"
#include "fano/version.hpp"

PYBIND11_MODULE(fano, m) {
  using namespace fano::python;

  m.doc() =
      "Fano330-R-Morris: positions, moves, the solved tablebases and perfect play.\n\n"
      "Positions are written as in the fano command: seven stacks for spaces 1..7, each\n"
      "bottom to top (C white circle, T white triangle, c black circle, t black triangle,\n"
      "- empty), then w or b: '-/-/-/-/-/-/- w' is the empty board. Moves: 'C4', 'T4'\n"
      "(placements, the mover's colour), '7-5' (movements).\n\n"
      "Values are for the side to move: 'win', 'draw' or 'loss', with the plies until the\n"
      "game is over under perfect play (None for a draw). One scale throughout: the array\n"
      "calls give a value as its index in VALUES = ('loss', 'draw', 'win') (0, 1, 2; 255\n"
      "where an entry is not valid) and plies 0 where the scalar calls say None.";
  m.attr("__version__") = fano::kVersion;
  // numpy is imported by the first array call, not here (require_numpy).
  m.attr("VALUES") = py::make_tuple("loss", "draw", "win");
  // Classes and functions say they come from `fano` (pickle finds them there)
  // also when this extension is fano.fano inside the pip-installed package.
  const py::object real_name = m.attr("__name__");
  m.attr("__name__") = "fano";

  bind_errors(m);
  bind_variant(m);
  py::class_<Position> position = bind_position(m);
  bind_moves(position);
  bind_arrays(m);
  py::class_<PyTablebase> tb = bind_tablebase(m);
  bind_probes(tb);
  bind_analysis(tb);
  bind_table_arrays(tb);
  bind_pandas(tb);
  bind_files(m);
  bind_games(m);
  add_text_signatures(m);
  m.attr("__name__") = real_name;
}
