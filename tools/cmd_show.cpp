// fano show: the board of a position as text, and as an SVG picture.
#include <iostream>
#include <optional>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis.hpp"
#include "fano/files.hpp"
#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/svg.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

int cmd_show(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  po::positional_options_description pos;
  add_position_options(desc, pos);
  desc.add_options()("svg", po::value<std::string>()->value_name("FILE"),
                     "write an SVG picture of the printed board to FILE (written atomically; - for "
                     "stdout, then the picture alone)")(
      "best",
      "mark the best moves (needs the tablebase): movements as arrows from-to, "
      "placements as a dashed outline of the shape around the space")(
      "all-moves",
      "mark every legal move (needs the tablebase), coloured by its result for the mover: "
      "win green, draw blue, loss red");
  const auto vm = parse(
      "show", "(POSITION | --moves \"C4,t3,...\") [--svg FILE] [--best | --all-moves] [--tb FILE]",
      "Shows a position on the printed board: as text on stdout and, with --svg, as an SVG "
      "picture (the triangle with corners 6 top, 5 bottom-left and 3 bottom-right, its medians, "
      "the circle through 1, 2 and 4, every stack drawn bottom to top, white pieces white and "
      "black pieces black, and the side to move). Each piece is one SVG element of class "
      "\"piece\". With --best, --all-moves or --tb the tablebase is required; without them the "
      "default table is read when present, and a position no game reaches is refused as by "
      "'fano query'.",
      desc, &pos, args);
  if (!vm) return 0;
  Variant v = variant_from(*vm);
  require_one_position(*vm, "show");
  if (vm->count("svg"))
    check_output_is_not_input(output_path_from(*vm, "svg"), "--svg", table_path_from(*vm, v),
                              "the tablebase");
  std::optional<Tablebase> tb;
  const bool all_moves = vm->count("all-moves") > 0;
  if (all_moves && vm->count("best")) throw UsageError("give --best or --all-moves, not both");
  if (vm->count("best") || all_moves || vm->count("tb")) {
    tb.emplace(open_table(*vm, v));
  } else {
    // The default table when there is one, to say what 'query' says of an
    // unreachable position; without it the board is drawn from the rules alone.
    try {
      tb.emplace(open_table(*vm, v));
    } catch (const TablebaseError&) {
    }
  }
  const Rules rules(v);
  const GameRecord game = game_from(*vm, rules, "show");
  const State st = game.current();
  if (tb) probe_or_unreachable(*tb, rules, st);
  const SvgOptions options =
      tb && (vm->count("best") || all_moves)
          ? svg_options_for(
                analyse(*tb, game, {.principal_variation = false, .engine_choice = false}),
                all_moves)
          : svg_options_for(game);
  const std::string svg = vm->count("svg") ? output_path_from(*vm, "svg") : "";
  if (svg == "-") {  // the picture alone on stdout
    write_stdout(board_svg(st, options));
    return 0;
  }
  // The destination is checked before anything is printed.
  std::optional<AtomicFileWriter> file;
  if (!svg.empty()) file.emplace(svg);
  std::cout << format_position(st) << "\n\n" << render_board(st, v);
  for (const std::string& note : options.notes) std::cout << note << "\n";
  if (file) {
    file->write(board_svg(st, options));
    file->commit();
    std::cout << "svg: " << svg << "\n";
  }
  return 0;
}

}  // namespace fano::cli
