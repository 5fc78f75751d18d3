// fano.Position: positions and moves (core's notation and rules).

#include <string>
#include <vector>

#include "common.hpp"
#include "fano/game.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"
#include "fano/rules.hpp"
#include "fano/svg.hpp"

namespace fano::python {

// ---------------------------------------------------------------- positions

Position parse(const std::string& text, const Variant& v) { return {parse_position(text, v), v}; }

// A code checked as parse_position checks text: each stack byte well formed,
// no stray bits, then the notation's checks (stack cap, counts, side to move).
Position from_code(std::uint64_t code, const Variant& v) {
  if (const std::string why = code_error(code, v); !why.empty()) throw NotationError(why);
  return {State{code}, v};
}

std::string position_repr(const Position& p) {
  std::string r = "Position('" + format_position(p.state) + "'";
  if (!(p.variant == kStandard)) r += ", variant=" + variant_repr(p.variant);
  return r + ")";
}

std::vector<std::string> legal_move_strings(const Position& p) {
  const Rules rules = p.rules();
  std::vector<std::string> out;
  if (game_end(rules, p.state)) return out;  // no move is played once the game is over
  for (const Move& m : legal_moves(rules, p.state)) out.push_back(format_move(m));
  return out;
}

Position play(const Position& p, const MovesArg& moves) {
  const GameRecord g = GameRecord::from_moves(p.rules(), p.state, moves_text(moves));
  return {g.current(), p.variant};
}

py::object game_over_dict(const Position& p) {
  const auto end = game_end(p.rules(), p.state);
  if (!end) return py::none();
  return to_python(game_end_json(*end, p.state));
}

py::class_<Position> bind_position(py::module_& m) {
  return py::class_<Position>(m, "Position",
                              "A position of a variant: the seven stacks and the side to move. "
                              "Immutable and hashable; play() returns a new Position.")
      .def(py::init([](const std::string& text, const VariantArg& v) { return parse(text, v); }),
           py::arg("text"), standard_variant_arg(),
           "Position(text, variant=STANDARD): as Position.parse.")
      .def_static(
          "parse", [](const std::string& text, const VariantArg& v) { return parse(text, v); },
          py::arg("text"), standard_variant_arg(),
          "Parses and checks a position in notation ('-/-/-/-/-/-/- w') against the "
          "variant (stack cap, stacking rule, piece counts, side to move). Raises "
          "ValueError naming the problem.")
      .def_static(
          "empty",
          [](const VariantArg& v) {
            return Position{kEmptyBoard, v};
          },
          standard_variant_arg(), "The empty board, White to move.")
      .def_static(
          "from_code",
          [](const py::handle& code, const VariantArg& v) {
            return from_code(code_arg(code, "code", "an int"), v);
          },
          py::arg("code"), standard_variant_arg(),
          "The position with this 64-bit code (see `code`); ValueError when the code is "
          "not a valid position of the variant.")
      .def("__str__", [](const Position& p) { return format_position(p.state); })
      .def("__repr__", &position_repr)
      .def("__eq__",
           [](const Position& a, const py::object& b) {
             if (!py::isinstance<Position>(b)) return false;
             const Position& o = b.cast<const Position&>();
             return a.state == o.state && a.variant == o.variant;
           })
      .def("__hash__",
           [](const Position& p) {
             return py::hash(py::make_tuple(p.state.code, variant_slug(p.variant)));
           })
      .def_property_readonly(
          "to_move", [](const Position& p) { return colour_name(p.state.to_move()); },
          "'white' or 'black'.")
      .def_property_readonly(
          "code", [](const Position& p) { return p.state.code; },
          "The compact 64-bit code (core/include/fano/state.hpp): one per position.")
      .def_property_readonly(
          "variant", [](const Position& p) { return p.variant; }, "The position's Variant.")
      .def_property_readonly(
          "pieces_on_board", [](const Position& p) { return p.state.pieces_on_board(); },
          "Pieces on the board (placement ends when all the rules' pieces are placed: 8 in the "
          "rulebook).")
      .def_property_readonly(
          "placement_phase", [](const Position& p) { return p.state.placement_phase(p.variant); },
          "True while pieces are still being placed.");
}

// What a Position does: its moves, the game end, pickling.
void bind_moves(py::class_<Position>& position) {
  position
      .def("legal_moves", &legal_move_strings,
           "The legal moves in notation, in the rules' order (placements by shape, circle "
           "first, then space; movements by from-space then to-space). Empty when the game is "
           "over.")
      .def(
          "_repr_svg_",
          [](const Position& p) {
            SvgOptions options = svg_options_for(GameRecord(p.rules(), p.state));
            options.variant = p.variant;
            return board_svg(p.state, options);
          },
          "The board as an SVG picture (the one 'fano show --svg' draws without a table), "
          "for Jupyter.")
      .def(py::pickle(
          [](const Position& p) { return py::make_tuple(format_position(p.state), p.variant); },
          [](const py::tuple& t) { return parse(t[0].cast<std::string>(), t[1].cast<Variant>()); }))
      .def("play", &play, py::arg("moves"),
           "The Position after a move ('C4', '7-5'), or a sequence of moves ('C4,t3' or "
           "['C4', 't3']). "
           "Raises ValueError for an illegal move or one played after the game has ended "
           "(a line, no move, or a repetition within the sequence).")
      .def("game_over", &game_over_dict,
           "None, or why the game is over here: {'reason': 'line'|'no_move', 'line': [1, 2, "
           "4] or None, 'loser': 'white'|'black', 'text': ...}. A Position has no history, "
           "so 'repetition' (rule 3) comes only from Tablebase.analyse(moves=...).")
      .def(
          "is_terminal", [](const Position& p) { return game_end(p.rules(), p.state).has_value(); },
          "True when the game is over here (game_over() is not None), as pyspiel's "
          "State.is_terminal().")
      .def(
          "returns",
          [](const Position& p) {
            const auto end = game_end(p.rules(), p.state);
            if (!end || !end->loser) return py::make_tuple(0, 0);
            return *end->loser == Colour::kWhite ? py::make_tuple(-1, 1) : py::make_tuple(1, -1);
          },
          "(white, black) as pyspiel's State.returns(): (-1, 1) or (1, -1) when the game is "
          "over here, (0, 0) otherwise.");
}

}  // namespace fano::python
