#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis_json.hpp"
#include "fano/notation.hpp"
#include "fano/strategy.hpp"

namespace fano::cli {
namespace {

void print_check(const StrategyCheck& c) {
  std::cout << colour_name(c.follower) << " (value " << value_name(c.target) << ") following "
            << c.rule << ": ";
  if (!c.decided) {
    std::cout << "undecided: stopped after " << c.positions << " positions (--max-positions)\n";
    return;
  }
  if (c.holds) {
    std::cout << (c.target == Value::kLoss ? "holds (a loss is always secured)"
                                           : "holds against every opponent")
              << "\n";
  } else {
    const StrategyRefutation& r = *c.refutation;
    std::cout << "fails; a shortest refutation in " << r.moves.size()
              << " plies: " << moves_text(r.moves) << "\n  "
              << describe_end(r.end, r.positions.back()) << "\n";
    if (!r.allowed_with_history)
      std::cout << "  (with the line's history the rule would not allow every one of these "
                   "moves)\n";
  }
  if (c.target != Value::kLoss)
    std::cout << "  " << c.positions << " positions searched, " << c.follower_positions
              << " of the follower's decisions\n";
}

}  // namespace

int cmd_strategy(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  po::positional_options_description pos;
  desc.add_options()("position,p", po::value<std::string>(),
                     "the start, in notation (default: the empty board)")(
      "player", po::value<std::string>(),
      "the rule checked: random, greedy, search:K, perfect, perfect:P, nonlosing, engine or "
      "keeping")("side", po::value<std::string>()->default_value("both"),
                 "the follower: white, black or both")(
      "lookahead", po::value<int>(),
      "instead of --player: search:1, search:2, ... up to search:K for each side, stopping at "
      "the first that holds")(
      "max-positions", po::value<std::uint64_t>()->default_value(0),
      "stop a check undecided once it has reached more positions than this (0: no bound)")(
      "decisions",
      "instead of --player: over every reachable position where the game goes on, how many have "
      "exactly one move that keeps the value, and how many moves lose at once")(
      "traps", po::value<int>(),
      "instead of --player: positions with a win or a draw where a move that a depth-K look "
      "calls safe (no loss seen within K plies) loses, the deepest first")(
      "limit", po::value<std::size_t>()->default_value(20), "with --traps: how many to list")(
      "json", "print JSON");
  pos.add("position", 1);
  const auto vm = parse(
      "strategy",
      "(--player RULE | --lookahead K | --decisions | --traps K) [--side SIDE] [POSITION] [--json]",
      "Decides exactly whether a player's rule secures at least the table's value of the start "
      "for the side that follows it, against every opponent, and when it does not prints a "
      "shortest line in which she obeys the rule and does worse (loses, or repeats a position "
      "when the value was a win: rule 3 ends that game drawn). Where the rule allows several "
      "moves the follower may play any of them. The rule is asked about each position alone; "
      "a refutation is also replayed with its own history and the output says when the rule "
      "would then not allow one of its moves. search:K is the depth-K minimax of 'fano "
      "selfplay' (no table: a line formed wins, no move loses, a repeated position and the "
      "depth limit score 0; faster wins and slower losses first).",
      desc, &pos, args);
  if (!vm) return 0;
  if (vm->count("player") + vm->count("lookahead") + vm->count("decisions") + vm->count("traps") !=
      1)
    throw UsageError("give one of --player RULE, --lookahead K, --decisions and --traps K");
  if (vm->count("traps") &&
      ((*vm)["traps"].as<int>() < 1 || (*vm)["traps"].as<int>() > kMaxSearchDepth))
    throw UsageError("--traps must be 1.." + std::to_string(kMaxSearchDepth));
  Variant variant = variant_from(*vm);
  const std::string side = (*vm)["side"].as<std::string>();
  std::vector<Colour> sides;
  if (side == "white" || side == "both") sides.push_back(Colour::kWhite);
  if (side == "black" || side == "both") sides.push_back(Colour::kBlack);
  if (sides.empty()) throw UsageError("--side must be white, black or both, got '" + side + "'");
  std::optional<PlayerSpec> player;
  int max_depth = 0;
  if (vm->count("player")) {
    try {
      player = parse_player((*vm)["player"].as<std::string>());
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--player: ") + e.what());
    }
  } else if (vm->count("lookahead")) {
    max_depth = (*vm)["lookahead"].as<int>();
    if (max_depth < 1 || max_depth > kMaxSearchDepth)
      throw UsageError("--lookahead must be 1.." + std::to_string(kMaxSearchDepth) + ", got " +
                       std::to_string(max_depth));
  }
  const Tablebase tb = open_table(*vm, variant);
  if (vm->count("traps")) {
    const TrapReport r = find_traps(tb, (*vm)["traps"].as<int>(), (*vm)["limit"].as<std::size_t>());
    if (vm->count("json")) {
      print_json(Json{{"rules", variant_slug(variant)}, {"traps", trap_report_json(r)}});
      return 0;
    }
    std::cout << variant_slug(variant) << ": " << r.traps << " of " << r.to_keep
              << " won or drawn positions hold a move that looks safe " << r.depth
              << " plies deep and loses\n";
    for (const Trap& t : r.ranked)
      std::cout << "  " << format_position(t.position) << " (" << outcome_text(t.value)
                << "): " << format_move(t.move) << " loses in " << t.result.plies << "; "
                << t.keeping << " of " << t.moves << " moves keep the value, " << t.looks_safe
                << " look safe\n";
    return 0;
  }
  if (vm->count("decisions")) {
    const DecisionStats d = decision_stats(tb);
    if (vm->count("json")) {
      print_json(Json{{"rules", variant_slug(variant)}, {"decisions", decision_stats_json(d)}});
      return 0;
    }
    const auto share = [](std::uint64_t a, std::uint64_t b) {
      return b ? std::to_string(100.0 * double(a) / double(b)).substr(0, 5) + "%" : "-";
    };
    std::cout << variant_slug(variant) << ": " << d.decisions
              << " positions with a move to make; of the " << d.to_keep << " won or drawn, "
              << d.one_way << " (" << share(d.one_way, d.to_keep)
              << ") have exactly one move that keeps the value\n"
              << d.moves << " moves in all, " << d.lose_at_once << " ("
              << share(d.lose_at_once, d.moves) << ") form a line and lose at once\n";
    return 0;
  }
  const State start = vm->count("position")
                          ? parse_position((*vm)["position"].as<std::string>(), variant)
                          : kEmptyBoard;
  const bool json = vm->count("json") > 0;
  const std::uint64_t max_positions = (*vm)["max-positions"].as<std::uint64_t>();
  Json out = Json::array();
  if (player) {
    StrategyRule rule;
    try {
      rule = player_rule(*player, &tb);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--player: ") + e.what());
    }
    if (!json) std::cout << variant_slug(variant) << ", from " << format_position(start) << "\n";
    for (const Colour c : sides) {
      const StrategyCheck check = check_strategy(tb, rule, start, c, {}, max_positions);
      if (json)
        out.push_back(strategy_check_json(check));
      else
        print_check(check);
    }
  } else {
    if (!json) std::cout << variant_slug(variant) << ", from " << format_position(start) << "\n";
    for (const Colour c : sides) {
      const LookaheadResult r = lookahead_needed(tb, start, c, max_depth, {}, max_positions);
      if (json) {
        out.push_back(lookahead_json(r, max_depth));
        continue;
      }
      std::cout << colour_name(c) << " (value " << value_name(r.target) << "): lookahead needed "
                << (r.needed                   ? "search:" + std::to_string(*r.needed)
                    : !r.checks.back().decided ? "undecided"
                                               : "more than search:" + std::to_string(max_depth))
                << "\n";
      for (const StrategyCheck& check : r.checks) {
        std::cout << "  ";
        print_check(check);
      }
    }
  }
  if (json) print_json(Json{{"rules", variant_slug(variant)}, {"results", std::move(out)}});
  return 0;
}

}  // namespace fano::cli
