#include <charconv>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis_json.hpp"
#include "fano/files.hpp"
#include "fano/notation.hpp"
#include "fano/strategy.hpp"
#include "fano/strategy_size.hpp"

namespace fano::cli {
namespace {

// --restarts at most: a round of the standard game takes about a second
// (more on a loaded machine), so the bound is hours, not the decades an
// unchecked int allowed.
constexpr int kMaxRestarts = 10000;

// "1 ply", "7 plies".
std::string counted(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

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
  } else if (c.refutation->uncovered) {
    const StrategyRefutation& r = *c.refutation;
    const State at = r.positions.empty() ? c.start : r.positions.back();
    std::cout << "fails; reaches a position the rule does not cover in "
              << counted(r.moves.size(), "ply", "plies") << ": "
              << (r.moves.empty() ? "(the start)" : moves_text(r.moves)) << "\n  no move given for "
              << format_position(at) << "\n";
  } else {
    const StrategyRefutation& r = *c.refutation;
    std::cout << "fails; a shortest refutation in " << counted(r.moves.size(), "ply", "plies")
              << ": " << moves_text(r.moves) << "\n  " << describe_end(r.end, r.positions.back())
              << "\n";
    if (!r.allowed_with_history)
      std::cout << "  (with the line's history the rule would not allow every one of these "
                   "moves)\n";
  }
  if (c.target != Value::kLoss)
    std::cout << "  " << counted(c.positions, "position", "positions") << " searched, "
              << c.follower_positions << " of the follower's decisions\n";
}

void print_size_line(const std::string& what, const StrategySize& s) {
  std::cout << "  " << what << ": " << s.decisions() << " decisions (" << s.classes()
            << " classes): placement " << s.placement << " (" << s.placement_classes
            << "), movement " << s.movement << " (" << s.movement_classes << "); " << s.reached
            << " positions reached\n";
}

// --rule-list, each a comma-separated list, its names checked before the search.
std::vector<std::vector<std::string>> rule_lists_from(const po::variables_map& vm,
                                                      const Variant& variant) {
  std::vector<std::vector<std::string>> lists;
  if (!vm.count("rule-list")) return lists;
  for (const std::string& text : vm["rule-list"].as<std::vector<std::string>>()) {
    std::vector<std::string> list;
    for (std::size_t from = 0; from <= text.size();) {
      const std::size_t comma = std::min(text.find(',', from), text.size());
      list.push_back(text.substr(from, comma - from));
      from = comma + 1;
    }
    try {
      rule_list_move(Rules(variant), kEmptyBoard, list);
    } catch (const std::exception& e) {
      throw UsageError(std::string("--rule-list: ") + e.what());
    }
    lists.push_back(std::move(list));
  }
  return lists;
}

// The search for one side. Its rounds are reported on stderr once it has
// run a second, then at most once a second: a quick search says nothing.
SmallStrategy search_smallest(const po::variables_map& vm, const Tablebase& tb, Colour c) {
  const int restarts = vm["restarts"].as<int>();
  const auto t0 = std::chrono::steady_clock::now();
  double shown = 0;
  const auto on_round = [&](int round, std::uint64_t classes) {
    const double t = seconds_since(t0);
    if (t - shown < 1) return;
    shown = t;
    progress(colour_name(c) + ": round " + std::to_string(round) + " of " +
             std::to_string(restarts) + ", " + std::to_string(classes) + " follower classes, " +
             seconds_text(t));
  };
  try {
    return smallest_strategy(tb, c, vm["passes"].as<int>(), restarts, 12, {}, on_round);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--size: ") + e.what());
  }
}

void print_size_text(const SmallStrategy& s, const StrategyCheck& check,
                     const std::vector<RuleListResult>& rules) {
  std::cout << colour_name(s.follower) << ":\n";
  print_size_line("the table's keeping move", s.baseline);
  print_size_line("greedy", s.greedy);
  print_size_line("smallest found", s.smallest);
  std::cout << "  (" << s.restarts << " restarts, " << s.passes << " local-search passes, "
            << s.improvements << " of " << s.trials
            << " changes kept); the checker: " << (check.holds ? "holds" : "FAILS") << "\n";
  for (const RuleListResult& r : rules) {
    std::string name;
    for (const std::string& x : r.list) name += (name.empty() ? "" : ",") + x;
    std::cout << "  rule list " << name << ": " << r.placement_exceptions + r.movement_exceptions
              << " exceptions (placement " << r.placement_exceptions << ", movement "
              << r.movement_exceptions << ") in " << r.size.decisions() << " decisions\n";
  }
}

// --size: the smallest never-lose strategy of each side, checked.
int run_size(const po::variables_map& vm, const Tablebase& tb, const std::vector<Colour>& sides) {
  const Variant variant = tb.variant();
  const std::vector<std::vector<std::string>> lists = rule_lists_from(vm, variant);
  if (vm.count("allowed-out") && sides.size() != 1)
    throw UsageError("--allowed-out needs one --side (white or black)");
  const bool json = vm.count("json") > 0;
  Json out = Json::array();
  if (!json) std::cout << variant_slug(variant) << ": the smallest never-lose strategies found\n";
  for (const Colour c : sides) {
    const SmallStrategy s = search_smallest(vm, tb, c);
    // The independent check: the strategy written as a table, asked of the checker.
    const AllowedTable table = strategy_table(tb, s.strategy);
    const StrategyCheck check = check_strategy(tb, table_rule(table, "smallest"), kEmptyBoard, c);
    std::vector<RuleListResult> rules;
    for (const auto& list : lists) rules.push_back(rule_list_with_exceptions(tb, s.strategy, list));
    if (vm.count("allowed-out")) {
      AtomicFileWriter file(output_path_from(vm, "allowed-out", false));
      for (const auto& [st, m] : s.strategy.decisions) file.write(allowed_line(st, {m}) + "\n");
      file.commit();
    }
    if (!json) {
      print_size_text(s, check, rules);
      continue;
    }
    Json j = small_strategy_json(s);
    j["check"] = strategy_check_json(check);
    Json r = Json::array();
    for (const RuleListResult& x : rules) r.push_back(rule_list_json(x));
    j["rule_lists"] = std::move(r);
    out.push_back(std::move(j));
  }
  if (json) print_json(Json{{"rules", variant_slug(variant)}, {"results", std::move(out)}});
  return 0;
}

// --limit and --max-positions: a count, or "none" for no bound (spelt out:
// a negative number is refused, not read as a huge one).
std::optional<std::uint64_t> count_or_none(const po::variables_map& vm, const std::string& option,
                                           std::uint64_t least) {
  const std::string text = vm[option].as<std::string>();
  if (text == "none") return std::nullopt;
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || n < least)
    throw UsageError("--" + option + " must be a whole number from " + std::to_string(least) +
                     " or none (no bound), got " + quote(text));
  return n;
}

po::options_description strategy_options() {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  desc.add_options()("position,p", po::value<std::string>(),
                     "the start, in notation (default: the empty board)")(
      "player", po::value<std::string>(),
      "the rule checked: random, greedy, search:K, perfect, perfect:P, nonlosing, engine or "
      "keeping")(
      "allowed", po::value<std::string>(),
      "instead of --player: the rule as a file of allowed moves, one JSON object a line, "
      "{\"position\": \"-/-/-/C/-/-/- b\", \"moves\": [\"c3\", \"t5\"]} (exact positions; a "
      "position the follower reaches that the file lacks is a failure of the rule; - reads "
      "standard input). Read a line at a time, each at most 64 KiB: the first bad line is "
      "named at once, and memory is one line beside the positions read")(
      "side", po::value<std::string>()->default_value("both"),
      "the follower: white, black or both")(
      "lookahead", po::value<int>(),
      "instead of --player: search:1, search:2, ... up to search:K for each side, stopping at "
      "the first that holds")(
      "max-positions", po::value<std::string>()->default_value("none"),
      "stop a check undecided once it has reached more positions than this (1 or more; none: "
      "no bound)")(
      "decisions",
      "instead of --player: over every reachable position where the game goes on, how many have "
      "exactly one move that keeps the value, and how many moves lose at once")(
      "traps", po::value<int>(),
      "instead of --player: positions with a win or a draw where a move that a depth-K look "
      "calls safe (no loss seen within K plies) loses, the deepest first")(
      "limit", po::value<std::string>()->default_value("20"),
      "with --traps and --single-draw: how many to list (0 or more; none: all)")(
      "size",
      "instead of --player: the smallest never-lose strategy the search finds for each side (one "
      "move in every position she can face): its size beside the table's keeping move's, "
      "checked by the strategy checker")(
      "passes", po::value<int>()->default_value(20),
      "with --size: local-search passes at most, each round (0: the greedy strategy)")(
      "restarts", po::value<int>()->default_value(0),
      ("with --size: rounds of iterated local search after the first (a seeded random change, "
       "the local search again, kept when no larger), 0.." +
       std::to_string(kMaxRestarts) + "; progress on stderr")
          .c_str())(
      "rule-list", po::value<std::vector<std::string>>(),
      "with --size (repeatable): a rule list, e.g. search:3,no-centre,quiet (rules search:K, "
      "no-centre, quiet, corner, applied in order), and how many exceptions it needs beside the "
      "smallest strategy")(
      "allowed-out", po::value<std::string>(),
      "with --size and one --side: write the smallest strategy there as an --allowed file")(
      "single-draw", po::value<int>(),
      "instead of --player: the positions within N plies of the start, both sides keeping the "
      "draw, where the side to move has a single move that keeps it")("json", "print JSON");
  return desc;
}

// The options that go together, each in its range (before the table opens).
void check_options(const po::variables_map& vm) {
  if (vm.count("player") + vm.count("allowed") + vm.count("lookahead") + vm.count("decisions") +
          vm.count("traps") + vm.count("size") + vm.count("single-draw") !=
      1)
    throw UsageError(
        "give one of --player RULE, --allowed FILE, --lookahead K, --decisions, --traps K, "
        "--size and --single-draw N");
  if (!vm.count("size") && (vm.count("rule-list") || vm.count("allowed-out")))
    throw UsageError("--rule-list and --allowed-out go with --size");
  if (vm.count("single-draw") &&
      (vm["single-draw"].as<int>() < 1 || vm["single-draw"].as<int>() > 64))
    throw UsageError("--single-draw must be 1..64");
  if (vm["passes"].as<int>() < 0) throw UsageError("--passes must be 0 or more");
  if (vm["restarts"].as<int>() < 0 || vm["restarts"].as<int>() > kMaxRestarts)
    throw UsageError("--restarts must be 0.." + std::to_string(kMaxRestarts));
  if (vm.count("traps") && (vm["traps"].as<int>() < 1 || vm["traps"].as<int>() > kMaxSearchDepth))
    throw UsageError("--traps must be 1.." + std::to_string(kMaxSearchDepth));
  if (vm.count("lookahead") &&
      (vm["lookahead"].as<int>() < 1 || vm["lookahead"].as<int>() > kMaxSearchDepth))
    throw UsageError("--lookahead must be 1.." + std::to_string(kMaxSearchDepth) + ", got " +
                     std::to_string(vm["lookahead"].as<int>()));
  count_or_none(vm, "limit", 0);
  count_or_none(vm, "max-positions", 1);
}

std::vector<Colour> sides_from(const po::variables_map& vm) {
  const std::string side = vm["side"].as<std::string>();
  std::vector<Colour> sides;
  if (side == "white" || side == "both") sides.push_back(Colour::kWhite);
  if (side == "black" || side == "both") sides.push_back(Colour::kBlack);
  if (sides.empty()) throw UsageError("--side must be white, black or both, got " + quote(side));
  return sides;
}

// The --allowed file, streamed: each line is judged as it is read, so the
// first bad line stops the read however much follows (a 200 MB file, an
// endless pipe, /dev/urandom), and a line is at most kMaxLineBytes.
AllowedTable read_allowed(const std::string& path, const Variant& variant) {
  LineReader in(path);
  AllowedLinesReader reader(variant);
  try {
    for (std::string line; in.next(line);) reader.add(line);
    return std::move(reader).finish();
  } catch (const std::invalid_argument& e) {
    throw UsageError("--allowed " + quote(path) + ": " + e.what());
  }
}

void print_checks(const StrategyRule& rule, const Tablebase& tb, State start,
                  const std::vector<Colour>& sides, std::optional<std::uint64_t> max_positions,
                  bool json) {
  Json out = Json::array();
  if (!json) std::cout << variant_slug(tb.variant()) << ", from " << format_position(start) << "\n";
  for (const Colour c : sides) {
    const StrategyCheck check = check_strategy(tb, rule, start, c, {}, max_positions.value_or(0));
    if (json)
      out.push_back(strategy_check_json(check));
    else
      print_check(check);
  }
  if (json) print_json(Json{{"rules", variant_slug(tb.variant())}, {"results", std::move(out)}});
}

State start_from(const po::variables_map& vm, const Variant& variant) {
  return vm.count("position") ? parse_position(vm["position"].as<std::string>(), variant)
                              : kEmptyBoard;
}

// --player RULE: a built-in player checked.
int run_player(const po::variables_map& vm, const Tablebase& tb, const std::vector<Colour>& sides,
               const PlayerSpec& player) {
  StrategyRule rule;
  try {
    rule = player_rule(player, &tb);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--player: ") + e.what());
  }
  print_checks(rule, tb, start_from(vm, tb.variant()), sides, count_or_none(vm, "max-positions", 1),
               vm.count("json") > 0);
  return 0;
}

// --allowed FILE: a table of allowed moves checked.
int run_allowed(const po::variables_map& vm, const Tablebase& tb,
                const std::vector<Colour>& sides) {
  // After the table opens: its rules are the file's (--tb alone names them).
  const std::string path = vm["allowed"].as<std::string>();
  const AllowedTable allowed = read_allowed(path, tb.variant());
  const StrategyRule rule = table_rule(allowed, "allowed:" + path);
  print_checks(rule, tb, start_from(vm, tb.variant()), sides, count_or_none(vm, "max-positions", 1),
               vm.count("json") > 0);
  return 0;
}

// --lookahead K: search:1, search:2, ... until one holds.
int run_lookahead(const po::variables_map& vm, const Tablebase& tb,
                  const std::vector<Colour>& sides) {
  const Variant variant = tb.variant();
  const int max_depth = vm["lookahead"].as<int>();
  const State start = start_from(vm, variant);
  const std::uint64_t max_positions = count_or_none(vm, "max-positions", 1).value_or(0);
  const bool json = vm.count("json") > 0;
  Json out = Json::array();
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
  if (json) print_json(Json{{"rules", variant_slug(variant)}, {"results", std::move(out)}});
  return 0;
}

// --traps K: moves that look safe K plies deep and lose.
int run_traps(const po::variables_map& vm, const Tablebase& tb) {
  const Variant variant = tb.variant();
  const std::optional<std::uint64_t> limit = count_or_none(vm, "limit", 0);
  const TrapReport r = find_traps(tb, vm["traps"].as<int>(), std::size_t(limit.value_or(SIZE_MAX)));
  if (vm.count("json")) {
    print_json(Json{{"rules", variant_slug(variant)}, {"traps", trap_report_json(r)}});
    return 0;
  }
  std::cout << variant_slug(variant) << ": " << r.traps << " of " << r.to_keep
            << " won or drawn positions hold a move that looks safe " << r.depth
            << " plies deep and loses\n";
  for (const Trap& t : r.ranked)
    std::cout << "  " << format_position(t.position) << " (" << outcome_text(t.value)
              << "): " << format_move(t.move) << " loses in " << t.result.plies << "; " << t.keeping
              << " of " << t.moves << " moves keep the value, " << t.looks_safe << " look safe\n";
  return 0;
}

// --single-draw N: the openings with a single drawing move.
int run_single_draw(const po::variables_map& vm, const Tablebase& tb) {
  const Variant variant = tb.variant();
  SingleDrawReport r;
  try {
    r = single_draw_openings(tb, vm["single-draw"].as<int>());
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--single-draw: ") + e.what());
  }
  const std::size_t limit = std::size_t(count_or_none(vm, "limit", 0).value_or(SIZE_MAX));
  if (vm.count("json")) {
    print_json(Json{{"rules", variant_slug(variant)}, {"single_draw", single_draw_json(r, limit)}});
    return 0;
  }
  std::cout << variant_slug(variant) << ": positions with a single drawing move, both sides "
            << "keeping the draw (one line a class, shallowest first)\n";
  for (std::size_t p = 0; p < r.drawn_by_ply.size(); ++p)
    std::cout << "  ply " << p << ": " << r.single_by_ply[p] << " of " << r.drawn_by_ply[p]
              << " drawn positions (" << r.single_classes_by_ply[p] << " classes)\n";
  for (std::size_t i = 0; i < r.openings.size() && i < limit; ++i) {
    const SingleDrawOpening& o = r.openings[i];
    std::cout << "  " << (o.line.empty() ? "(the start)" : moves_text(o.line)) << ": only "
              << format_move(o.move) << " draws;";
    const char* sep = " ";
    for (const auto& [m, result] : o.others) {
      std::cout << sep << format_move(m) << " " << outcome_text(result);
      sep = ", ";
    }
    std::cout << "\n";
  }
  return 0;
}

// --decisions: how often a single move keeps the value, how often a move loses at once.
int run_decisions(const po::variables_map& vm, const Tablebase& tb) {
  const Variant variant = tb.variant();
  const DecisionStats d = decision_stats(tb);
  if (vm.count("json")) {
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

}  // namespace

int cmd_strategy(const Args& args) {
  po::options_description desc = strategy_options();
  po::positional_options_description pos;
  pos.add("position", 1);
  const auto vm = parse(
      "strategy",
      "(--player RULE | --allowed FILE | --lookahead K | --decisions | --traps K | --size | "
      "--single-draw N) [--side SIDE] [POSITION] [--json]",
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
  check_options(*vm);
  const std::vector<Colour> sides = sides_from(*vm);
  std::optional<PlayerSpec> player;
  if (vm->count("player")) {
    try {
      player = parse_player((*vm)["player"].as<std::string>());  // before the table is read
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--player: ") + e.what());
    }
  }
  Variant variant = variant_from(*vm);
  const Tablebase tb = open_table(*vm, variant);
  if (player) return run_player(*vm, tb, sides, *player);
  if (vm->count("allowed")) return run_allowed(*vm, tb, sides);
  if (vm->count("lookahead")) return run_lookahead(*vm, tb, sides);
  if (vm->count("traps")) return run_traps(*vm, tb);
  if (vm->count("single-draw")) return run_single_draw(*vm, tb);
  if (vm->count("size")) return run_size(*vm, tb, sides);
  return run_decisions(*vm, tb);
}

}  // namespace fano::cli
