#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "commands.hpp"
#include "engine.hpp"
#include "fano/notation.hpp"
#include "fano/tablebase.hpp"
#include "svg.hpp"

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
  const auto vm =
      parse("query", "[--tb FILE] [--json] [--svg FILE] (POSITION | --moves \"C4,t3,...\")",
            "Shows the position, its value for the side to move with plies to the "
            "end, and every legal move with the result it gives its player, best "
            "first (fastest wins, then draws, then slowest losses).",
            desc, &pos, args);
  if (!vm) return 0;
  Variant v = variant_from(*vm);
  require_one_position(*vm, "query");
  const Tablebase tb = open_table(*vm, v);
  const Rules rules(v);
  int repeats_ply = -1;
  const State st = position_from(*vm, rules, "query", &repeats_ply);
  auto outcome = tb.probe(st);
  if (!outcome) throw unreachable_error(st);
  std::string over = describe_game_over(rules, st);
  if (over.empty() && repeats_ply >= 0) {
    // Rule 3: the game given by --moves has just repeated a position.
    over = "draw by repetition: this position occurred after ply " + std::to_string(repeats_ply);
    outcome = Outcome{Value::kDraw, 0};
  }
  // Best first; empty when the game is over (the ranking lives in engine.cpp).
  const std::vector<RatedMove> rows =
      repeats_ply >= 0 ? std::vector<RatedMove>{} : rate_moves(tb, rules, st);
  if (vm->count("svg"))
    write_text_atomically((*vm)["svg"].as<std::string>(),
                          board_svg(st, svg_options_for(rules, st, &tb)));
  if (vm->count("json")) {
    std::ostringstream o;
    o << "{\"position\":" << json_string(format_position(st))
      << ",\"to_move\":" << json_string(colour_name(st.to_move()))
      << ",\"value\":" << json_string(value_name(outcome->value))
      << ",\"plies\":" << json_outcome_plies(*outcome)
      << ",\"game_over\":" << (over.empty() ? "null" : json_string(over)) << ",\"moves\":[";
    for (size_t i = 0; i < rows.size(); ++i)
      o << (i ? "," : "") << "{\"move\":" << json_string(format_move(rows[i].move))
        << ",\"position\":" << json_string(format_position(rows[i].child))
        << ",\"result\":" << json_string(value_name(rows[i].result.value))
        << ",\"plies\":" << json_outcome_plies(rows[i].result) << "}";
    o << "]}";
    std::cout << o.str() << "\n";
    return 0;
  }
  std::cout << format_position(st) << "\n\n" << render_board(st, v.stack_cap) << "\n";
  std::cout << "value for " << colour_name(st.to_move()) << " (to move): " << outcome_text(*outcome)
            << (outcome->value == Value::kDraw ? "" : " plies") << "\n";
  if (!over.empty()) {
    std::cout << "game over: " << over << "\n";
    return 0;
  }
  std::cout << "moves (" << rows.size() << "), best first:\n";
  for (const RatedMove& r : rows)
    std::cout << "  " << format_move(r.move) << "  " << outcome_text(r.result)
              << (r.result.value == Value::kDraw ? "" : " plies") << "\n";
  return 0;
}

}  // namespace fano::cli
