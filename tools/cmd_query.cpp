// fano query: a position's report (analysis library) printed as text or JSON.
#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/notation.hpp"
#include "fano/render.hpp"
#include "fano/svg.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

int cmd_query(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  po::positional_options_description pos;
  add_position_options(desc, pos);
  desc.add_options()("json", "print JSON")(
      "svg", po::value<std::string>()->value_name("FILE"),
      "also write an SVG picture of the position with its best moves "
      "marked to FILE (as 'fano show --svg FILE --best')");
  const auto vm = parse(
      "query", "[--tb FILE] [--json] [--svg FILE] (POSITION | --moves \"C4,t3,...\")",
      "Shows the position, its value for the side to move with plies to the end, every legal "
      "move with the result it gives its player, best first (fastest wins, then draws, then "
      "slowest losses), the engine's choice and the principal variation (best play to the end "
      "of the game, or to the repetition that ends a draw). With --moves the game's history "
      "applies: a move into an earlier position is a draw (rule 3).\n\n"
      "examples:\n  fano query \"-/-/-/-/-/-/- w\"\n  fano query --moves C4,t3 --json\n"
      "  fano query --stack-cap 3 \"C/-/-/-/-/-/- b\"",
      desc, &pos, args);
  if (!vm) return 0;
  Variant v = variant_from(*vm);
  require_one_position(*vm, "query");
  const Tablebase tb = open_table(*vm, v);
  const Rules rules(v);
  const GameRecord game = game_from(*vm, rules, "query");
  const PositionReport r = analyse(tb, game);
  if (vm->count("svg"))
    write_text_atomically((*vm)["svg"].as<std::string>(),
                          board_svg(r.position, svg_options_for(r)));
  if (vm->count("json")) {
    print_json(report_json(r));
    return 0;
  }
  const State st = r.position;
  std::cout << format_position(st) << "\n\n" << render_board(st, v.stack_cap) << "\n";
  std::cout << "value for " << colour_name(st.to_move()) << " (to move): " << outcome_text(r.value)
            << (r.value.value == Value::kDraw ? "" : " plies") << "\n";
  if (!r.history_note.empty()) std::cout << "history: " << r.history_note << "\n";
  if (r.game_over) {
    std::cout << "game over: " << describe_end(*r.game_over, st) << "\n";
    return 0;
  }
  std::cout << "moves (" << r.moves.size() << "), best first:\n";
  for (const RatedMove& m : r.moves)
    std::cout << "  " << format_move(m.move) << "  " << outcome_text(m.result)
              << (m.result.value == Value::kDraw ? "" : " plies")
              << (m.repeats ? " (repeats an earlier position)" : "") << "\n";
  if (r.engine_choice) std::cout << "engine: " << format_move(r.moves[*r.engine_choice].move) << "\n";
  std::cout << "principal variation:";
  for (const Move& m : r.pv) std::cout << " " << format_move(m);
  if (r.pv_end)
    std::cout << " (" << describe_end(*r.pv_end, r.pv_positions.empty() ? st : r.pv_positions.back())
              << ")";
  std::cout << "\n";
  return 0;
}

}  // namespace fano::cli
