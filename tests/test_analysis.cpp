// The analysis library (fano::analysis): the strategy checker (fano/strategy.hpp) against a brute
// force written separately, rules that hold and fail by construction, refutation lines replayed as
// game records, and `fano strategy` end to end.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/notation.hpp"
#include "fano/puzzles.hpp"
#include "fano/solver.hpp"
#include "fano/stats.hpp"
#include "fano/strategy.hpp"
#include "fano/strategy_size.hpp"
#include "fano/verify.hpp"
#include "support.hpp"

namespace fano {
namespace {

const Tablebase& table_of(const Variant& v) {
  static std::map<std::string, Tablebase> tables;
  const std::string slug = variant_slug(v);
  if (!tables.count(slug)) tables.emplace(slug, in_memory_tablebase(solve(v), slug));
  return tables.at(slug);
}

Variant rules_named(const std::string& name) { return *variant_from_name(name); }

// The brute force: the same question answered without a queue. Distances from
// the start by relaxation sweeps over an ordered map until nothing changes
// (the rule's moves asked once per position and kept); the game's end by
// game_end (rules 1 and 2 of the game record); a cycle by peeling positions
// with no successor left until none can be peeled.
struct Brute {
  Value target = Value::kDraw;
  bool holds = true;
  std::optional<std::size_t> shortest_loss;  // plies to the follower's nearest loss
  bool cycle = false;                        // a line can repeat a position
};

Brute brute_force(const Tablebase& tb, const StrategyRule& rule, State start, Colour follower) {
  const Rules rules(tb.variant());
  Brute b;
  const Outcome o = *tb.probe(start);
  b.target = follower == start.to_move() ? o.value
             : o.value == Value::kWin    ? Value::kLoss
             : o.value == Value::kLoss   ? Value::kWin
                                         : Value::kDraw;
  if (b.target == Value::kLoss) return b;
  std::map<std::uint64_t, std::size_t> dist{{start.code, 0}};
  std::map<std::uint64_t, std::vector<State>> succ;
  for (bool changed = true; changed;) {
    changed = false;
    const auto snapshot = dist;
    for (const auto& [code, d] : snapshot) {
      const State st{code};
      if (game_end(rules, st)) continue;
      if (!succ.count(code)) {
        std::vector<State> next;
        const std::vector<Move> moves =
            st.to_move() == follower ? rule.allowed(GameRecord(rules, st)) : legal_moves(rules, st);
        for (const Move& m : moves) next.push_back(apply_move(st, m));
        succ[code] = next;
      }
      for (const State c : succ[code]) {
        const auto it = dist.find(c.code);
        if (it == dist.end() || it->second > d + 1) {
          dist[c.code] = d + 1;
          changed = true;
        }
      }
    }
  }
  for (const auto& [code, d] : dist) {
    const auto end = game_end(rules, State{code});
    if (end && end->loser == follower && (!b.shortest_loss || d < *b.shortest_loss))
      b.shortest_loss = d;
  }
  if (b.target == Value::kWin) {
    std::set<std::uint64_t> left;
    for (const auto& [code, d] : dist) left.insert(code);
    for (bool peeled = true; peeled;) {
      peeled = false;
      for (auto it = left.begin(); it != left.end();) {
        bool any = false;
        if (succ.count(*it))
          for (const State c : succ[*it]) any = any || left.count(c.code);
        if (!any) {
          it = left.erase(it);
          peeled = true;
        } else {
          ++it;
        }
      }
    }
    b.cycle = !left.empty();
  }
  b.holds = !b.shortest_loss && !b.cycle;
  return b;
}

// The shortest line (at most max_plies) that ends the game with the
// follower's loss, or with a repetition when `repetition_fails`, by iterative
// deepening over game records: every line tried is a real game (rule 3 by
// GameRecord). Only for the smallest readings.
std::optional<std::size_t> shortest_line_by_games(const Rules& rules, const StrategyRule& rule,
                                                  State start, Colour follower,
                                                  bool repetition_fails, std::size_t max_plies) {
  GameRecord game(rules, start);
  std::function<bool(std::size_t)> search = [&](std::size_t left) -> bool {
    if (const auto end = game.end())
      return end->loser == follower || (repetition_fails && end->reason == EndReason::kRepetition);
    if (left == 0) return false;
    const std::vector<Move> moves = game.current().to_move() == follower
                                        ? rule.allowed(GameRecord(rules, game.current()))
                                        : legal_moves(rules, game.current());
    for (const Move& m : moves) {
      game.play(m);
      const bool found = search(left - 1);
      game.undo();
      if (found) return true;
    }
    return false;
  };
  for (std::size_t n = 0; n <= max_plies; ++n)
    if (search(n)) return n;
  return std::nullopt;
}

// A refutation replayed: the line is legal, the follower's moves are the
// rule's in each position alone, the game goes on until its last move and
// then ends with her loss, or a repetition when she had a win to keep; and
// `fano verify --lines`'s checker reads it the same.
void expect_refutation_replays(const Tablebase& tb, const StrategyRule& rule,
                               const StrategyCheck& c) {
  ASSERT_TRUE(c.refutation);
  const StrategyRefutation& r = *c.refutation;
  const Rules rules(tb.variant());
  GameRecord game(rules, c.start);
  for (const Move& m : r.moves) {
    ASSERT_FALSE(game.over()) << "the line goes on after the game ended: " << game.move_list();
    if (game.current().to_move() == c.follower) {
      const std::vector<Move> allowed = rule.allowed(GameRecord(rules, game.current()));
      EXPECT_NE(std::find(allowed.begin(), allowed.end(), m), allowed.end())
          << format_move(m) << " is not allowed by " << rule.name << " in "
          << format_position(game.current());
    }
    game.play(m);
  }
  const auto end = game.end();
  ASSERT_TRUE(end) << game.move_list();
  if (end->reason == EndReason::kRepetition)
    EXPECT_EQ(c.target, Value::kWin) << game.move_list();
  else
    EXPECT_EQ(end->loser, c.follower) << game.move_list();
  EXPECT_EQ(end->reason, r.end.reason);
  if (c.start == kEmptyBoard) {
    const verify::RecordChecker checker(tb);
    const auto rec = checker.check_line(game.move_list(), 1);
    ASSERT_TRUE(rec);
    EXPECT_TRUE(rec->legal);
    ASSERT_TRUE(rec->ended_at);
    EXPECT_EQ(std::size_t(*rec->ended_at), r.moves.size());
    ASSERT_TRUE(rec->end);
    EXPECT_EQ(rec->end->reason, end->reason);
    EXPECT_EQ(rec->end->loser, end->loser);
  }
}

struct Case {
  std::string rules;
  std::string player;
};

class StrategyAgainstBruteForce : public ::testing::TestWithParam<Case> {};

// Both sides, from the empty board: the same verdict as the brute force, a
// refutation exactly as short as its shortest loss (or, for a win to keep
// with no loss reachable, a repetition), replayed as a game.
TEST_P(StrategyAgainstBruteForce, VerdictAndShortestLine) {
  const Variant v = rules_named(GetParam().rules);
  const Tablebase& tb = table_of(v);
  const StrategyRule rule = player_rule(parse_player(GetParam().player), &tb);
  for (const Colour side : {Colour::kWhite, Colour::kBlack}) {
    SCOPED_TRACE(colour_name(side));
    const StrategyCheck c = check_strategy(tb, rule, kEmptyBoard, side);
    const Brute b = brute_force(tb, rule, kEmptyBoard, side);
    EXPECT_EQ(c.target, b.target);
    EXPECT_EQ(c.holds, b.holds);
    if (c.holds) continue;
    expect_refutation_replays(tb, rule, c);
    if (b.shortest_loss) {
      EXPECT_EQ(c.refutation->moves.size(), *b.shortest_loss);
      EXPECT_NE(c.refutation->end.reason, EndReason::kRepetition);
    } else {
      EXPECT_EQ(c.refutation->end.reason, EndReason::kRepetition);
    }
  }
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* r :
       {"standard-1c1t", "cap3-board-1c1t", "cap2-projective-2c1t", "standard-2c1t"})
    for (const char* p :
         {"random", "greedy", "search:1", "search:2", "search:3", "perfect", "nonlosing", "engine"})
      out.push_back({r, p});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Readings, StrategyAgainstBruteForce, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string s = info.param.rules + "_" + info.param.player;
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

// On the smallest reading the refutation's length is also that of the
// shortest real game (iterative deepening over game records) in which the
// follower obeys the rule and loses, or repeats when she had a win.
TEST(Strategy, ShortestLineIsTheShortestGame) {
  const Variant v = rules_named("standard-1c1t");
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  int refuted = 0;
  for (const char* p : {"random", "greedy", "search:1", "search:2", "nonlosing"}) {
    const StrategyRule rule = player_rule(parse_player(p), &tb);
    const StrategyCheck c = check_strategy(tb, rule, kEmptyBoard, Colour::kBlack);
    ASSERT_EQ(c.target, Value::kWin);
    ASSERT_FALSE(c.holds) << p;
    ++refuted;
    const auto n = shortest_line_by_games(rules, rule, kEmptyBoard, Colour::kBlack, true,
                                          c.refutation->moves.size());
    ASSERT_TRUE(n) << p;
    EXPECT_EQ(*n, c.refutation->moves.size()) << p;
  }
  EXPECT_EQ(refuted, 5);
}

// Perfect play holds for both sides of every small reading, from the start and
// from positions of random games (a win kept without a repetition, a draw
// never lost).
TEST(Strategy, PerfectPlayHoldsFromAnyPosition) {
  for (const auto& [name, games, plies] :
       {std::tuple{"standard-1c1t", 12, 30}, std::tuple{"cap3-board-1c1t", 12, 30},
        std::tuple{"standard-colour-2c1t", 2, 12}}) {
    const Variant v = rules_named(name);
    const Tablebase& tb = table_of(v);
    const StrategyRule rule = player_rule(parse_player("perfect"), &tb);
    const std::vector<State> sample = testing::sample_positions(v, games, 7, plies, plies);
    int checked = 0;
    for (const State st : sample) {
      for (const Colour side : {Colour::kWhite, Colour::kBlack}) {
        const StrategyCheck c = check_strategy(tb, rule, st, side);
        EXPECT_TRUE(c.holds) << name << " " << format_position(st) << " " << colour_name(side);
        checked += c.target != Value::kLoss;
      }
    }
    EXPECT_GT(checked, 10) << name;
  }
}

// A rule that allows one losing first move beside perfect play fails, with a
// line that starts with that move and lasts exactly as long as the table's
// loss (the opponent wins fastest, the follower's perfect moves lose slowest).
TEST(Strategy, AllowingALosingMoveFailsByTheTablesDepth) {
  const Variant v = rules_named("standard-2c1t");
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  for (const Move& bad : legal_moves(rules, kEmptyBoard)) {
    const Outcome result = outcome_for_mover(*tb.probe(apply_move(kEmptyBoard, bad)));
    if (result.value != Value::kLoss) continue;
    const StrategyRule perfect = player_rule(parse_player("perfect"), &tb);
    StrategyRule rule{"perfect and " + format_move(bad), [&](const GameRecord& g) {
                        std::vector<Move> moves = perfect.allowed(g);
                        if (g.current() == kEmptyBoard) moves.push_back(bad);
                        return moves;
                      }};
    const StrategyCheck c = check_strategy(tb, rule, kEmptyBoard, Colour::kWhite);
    EXPECT_EQ(c.target, Value::kDraw);
    ASSERT_FALSE(c.holds) << format_move(bad);
    EXPECT_EQ(c.refutation->moves.front(), bad);
    EXPECT_EQ(c.refutation->moves.size(), result.plies) << format_move(bad);
    expect_refutation_replays(tb, rule, c);
  }
}

// Keeping a draw is not keeping a win: nonlosing holds for both sides where the
// game is a draw, and fails by a repetition for the side that has a win.
TEST(Strategy, NonlosingKeepsDrawsButLetsAWinRepeat) {
  const Tablebase& draw = table_of(rules_named("standard-2c1t"));
  const StrategyRule rule = player_rule(parse_player("nonlosing"), &draw);
  for (const Colour side : {Colour::kWhite, Colour::kBlack})
    EXPECT_TRUE(check_strategy(draw, rule, kEmptyBoard, side).holds);
  const Tablebase& win = table_of(rules_named("standard-1c1t"));
  const StrategyRule rule2 = player_rule(parse_player("nonlosing"), &win);
  const StrategyCheck c = check_strategy(win, rule2, kEmptyBoard, Colour::kBlack);
  ASSERT_FALSE(c.holds);
  EXPECT_EQ(c.refutation->end.reason, EndReason::kRepetition);
  expect_refutation_replays(win, rule2, c);
}

// search_allowed_moves (alpha-beta) is the selfplay player's search_best_moves
// (plain minimax), with and without a game's history.
TEST(Strategy, SearchAllowedMovesAreSearchBestMoves) {
  const Rules rules(kStandard);
  std::mt19937 rng(46);
  int compared = 0;
  for (int game = 0; game < 12; ++game) {
    GameRecord g(rules);
    for (int ply = 0; ply < 40 && !g.over(); ++ply) {
      for (int depth = 1; depth <= 4; ++depth) {
        EXPECT_EQ(search_allowed_moves(g, depth), search_best_moves(g, depth))
            << g.move_list() << " depth " << depth;
        EXPECT_EQ(search_allowed_moves(GameRecord(rules, g.current()), depth),
                  search_best_moves(GameRecord(rules, g.current()), depth));
        ++compared;
      }
      const std::vector<Move> moves =
          testing::careful_moves(g.current(), legal_moves(rules, g.current()));
      g.play(moves[rng() % moves.size()]);
    }
  }
  EXPECT_GT(compared, 400);
}

TEST(Strategy, RulesThatAreNotRulesOfThePositionAreRefused) {
  const Tablebase& tb = table_of(rules_named("standard-1c1t"));
  EXPECT_THROW(player_rule(parse_player("cover"), &tb), std::invalid_argument);
  EXPECT_THROW(player_rule(parse_player("mirror:copy"), &tb), std::invalid_argument);
  EXPECT_THROW(player_rule(parse_player("perfect"), nullptr), std::invalid_argument);
  const StrategyRule none{"none", [](const GameRecord&) { return std::vector<Move>{}; }};
  EXPECT_THROW(check_strategy(tb, none, kEmptyBoard, Colour::kBlack), std::invalid_argument);
  const StrategyRule illegal{"illegal", [](const GameRecord&) {
                               return std::vector<Move>{Move{3, 4, Piece::kBlackCircle}};
                             }};
  EXPECT_THROW(check_strategy(tb, illegal, kEmptyBoard, Colour::kBlack), std::invalid_argument);
}

// The lookahead: the checks stop at the first depth that holds, each earlier
// one refuted; a side with a lost game needs no lookahead (search:1 holds).
TEST(Strategy, LookaheadStopsAtTheFirstDepthThatHolds) {
  const Tablebase& tb = table_of(rules_named("standard-1c1t"));
  const LookaheadResult black = lookahead_needed(tb, kEmptyBoard, Colour::kBlack, 6);
  ASSERT_TRUE(black.needed);
  ASSERT_EQ(black.checks.size(), std::size_t(*black.needed));
  for (std::size_t k = 0; k + 1 < black.checks.size(); ++k) {
    EXPECT_FALSE(black.checks[k].holds);
    EXPECT_EQ(black.checks[k].rule, "search:" + std::to_string(k + 1));
  }
  EXPECT_TRUE(black.checks.back().holds);
  const LookaheadResult white = lookahead_needed(tb, kEmptyBoard, Colour::kWhite, 6);
  EXPECT_EQ(white.target, Value::kLoss);
  EXPECT_EQ(white.needed, 1);
  // A budget below the holding check's search leaves it undecided, and stops there.
  const std::uint64_t budget = black.checks.back().positions - 1;
  const LookaheadResult cut = lookahead_needed(tb, kEmptyBoard, Colour::kBlack, 6, {}, budget);
  EXPECT_FALSE(cut.needed);
  ASSERT_FALSE(cut.checks.empty());
  EXPECT_FALSE(cut.checks.back().decided);
  EXPECT_FALSE(cut.checks.back().refutation);
  EXPECT_LE(cut.checks.size(), black.checks.size());
}

// Every position reachable from the empty board where the game goes on, each
// visited once, by a walk of every legal move (not the table's classes).
template <typename Visit>
void for_each_ongoing_position(const Rules& rules, Visit visit) {
  std::set<std::uint64_t> seen{kEmptyBoard.code};
  std::vector<State> todo{kEmptyBoard};
  while (!todo.empty()) {
    const State st = todo.back();
    todo.pop_back();
    if (game_end(rules, st)) continue;
    for (const Move& m : legal_moves(rules, st))
      if (seen.insert(apply_move(st, m).code).second) todo.push_back(apply_move(st, m));
    visit(st);
  }
}

// The decision counts, position by position from a breadth-first search of
// every reachable position (not the table's classes and orbits), with every
// move rated by rate_moves.
TEST(Strategy, DecisionStatsCountEveryReachablePosition) {
  for (const char* name : {"standard-2c1t", "cap3-board-1c1t", "cap2-projective-colour-2c1t"}) {
    const Variant v = rules_named(name);
    const Tablebase& tb = table_of(v);
    const Rules rules(v);
    DecisionStats want;
    for_each_ongoing_position(rules, [&](State st) {
      const std::vector<RatedMove> rated = rate_moves(tb, rules, st);
      const Value value = rated.front().result.value;
      ++want.decisions;
      want.moves += rated.size();
      int keeping = 0;
      for (const RatedMove& m : rated) {
        want.lose_at_once +=
            game_end(rules, m.child) && m.result.value == Value::kLoss && m.result.plies == 1;
        keeping += m.result.value == value;
      }
      if (value != Value::kLoss) {
        ++want.to_keep;
        want.one_way += keeping == 1;
      }
    });
    const DecisionStats got = decision_stats(tb);
    EXPECT_EQ(got.decisions, want.decisions) << name;
    EXPECT_EQ(got.to_keep, want.to_keep) << name;
    EXPECT_EQ(got.one_way, want.one_way) << name;
    EXPECT_EQ(got.moves, want.moves) << name;
    EXPECT_EQ(got.lose_at_once, want.lose_at_once) << name;
    EXPECT_GT(want.one_way, 0u) << name;
  }
}

// Traps, position by position from a breadth-first search of every
// reachable position: the count of won or drawn positions where a move that
// the depth-K look scores as no loss loses by the table; each ranked trap's
// move loses as said, the ranking puts the slowest losses first.
TEST(Strategy, TrapsCountEveryReachablePosition) {
  for (const char* name : {"standard-2c1t", "cap3-board-2c1t"}) {
    const Variant v = rules_named(name);
    const Tablebase& tb = table_of(v);
    const Rules rules(v);
    for (const int depth : {1, 2}) {
      std::uint64_t to_keep = 0, traps = 0;
      for_each_ongoing_position(rules, [&](State st) {
        if (tb.probe(st)->value == Value::kLoss) return;
        ++to_keep;
        const std::vector<Move> moves = legal_moves(rules, st);
        const std::vector<int> scores = search_move_scores(GameRecord(rules, st), depth);
        bool trap = false;
        for (std::size_t i = 0; i < moves.size(); ++i)
          trap =
              trap || (scores[i] >= 0 && tb.probe(apply_move(st, moves[i]))->value == Value::kWin);
        traps += trap;
      });
      const TrapReport r = find_traps(tb, depth, 50);
      EXPECT_EQ(r.to_keep, to_keep) << name << " depth " << depth;
      EXPECT_EQ(r.traps, traps) << name << " depth " << depth;
      EXPECT_GT(traps, 0u);
      ASSERT_FALSE(r.ranked.empty());
      for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        const Trap& t = r.ranked[i];
        if (i > 0) {
          EXPECT_LE(t.result.plies, r.ranked[i - 1].result.plies);
        }
        const std::vector<RatedMove> rated = rate_moves(tb, rules, t.position);
        const auto it = std::find_if(rated.begin(), rated.end(),
                                     [&](const RatedMove& m) { return m.move == t.move; });
        ASSERT_NE(it, rated.end());
        EXPECT_EQ(it->result.value, Value::kLoss);
        EXPECT_EQ(it->result.plies, t.result.plies);
        EXPECT_EQ(rated.front().result.value, t.value.value);
        EXPECT_EQ(
            std::count_if(rated.begin(), rated.end(),
                          [&](const RatedMove& m) { return m.result.value == t.value.value; }),
            t.keeping);
      }
    }
  }
}

// Every reachable position of `tb` where the game goes on, each with the
// moves whose table result for the mover is not a loss (none where she is
// lost), from the stored classes' images.
std::vector<std::pair<State, std::vector<Move>>> every_nonlosing_move(const Tablebase& tb) {
  const Rules rules(tb.variant());
  std::set<std::uint64_t> codes;
  for (std::size_t i = 0; i < tb.size(); ++i)
    tb.symmetry().for_each_image(tb.position_at(i), [&](std::uint64_t c) { codes.insert(c); });
  std::vector<std::pair<State, std::vector<Move>>> out;
  for (const std::uint64_t code : codes) {
    const State st{code};
    if (game_end(rules, st)) continue;
    std::vector<Move> keep;
    for_each_move(rules, st, [&](const Move& m, State child) {
      if (outcome_for_mover(*tb.probe(child)).value != Value::kLoss) keep.push_back(m);
    });
    if (!keep.empty()) out.emplace_back(st, keep);
  }
  return out;
}

// The moves the table's keeping move plays for `follower` from the start,
// opponent anything, as a table.
FixedStrategy keeping_strategy(const Tablebase& tb, Colour follower) {
  const Rules rules(tb.variant());
  return fix_strategy(rules, kEmptyBoard, follower,
                      [&](State st) { return keeping_move(tb, GameRecord(rules, st)); });
}

std::string table_text(const std::vector<std::pair<State, std::vector<Move>>>& entries) {
  std::string text;
  for (const auto& [st, moves] : entries) text += allowed_line(st, moves) + "\n";
  return text;
}

// A file of every non-losing move of every position, read back, is the
// nonlosing player: it holds for both sides of a drawn reading and searches
// exactly the positions that player's check searches; the brute force agrees.
TEST(StrategyTable, EveryNonlosingMoveHoldsAsTheNonlosingPlayer) {
  const Variant v = rules_named("standard-2c1t");
  const Tablebase& tb = table_of(v);
  const AllowedTable table = parse_allowed_lines(table_text(every_nonlosing_move(tb)), v);
  const StrategyRule rule = table_rule(table, "file");
  const StrategyRule nonlosing = player_rule(parse_player("nonlosing"), &tb);
  for (const Colour side : {Colour::kWhite, Colour::kBlack}) {
    const StrategyCheck c = check_strategy(tb, rule, kEmptyBoard, side);
    const StrategyCheck n = check_strategy(tb, nonlosing, kEmptyBoard, side);
    EXPECT_EQ(c.target, Value::kDraw);
    EXPECT_TRUE(c.holds);
    EXPECT_EQ(c.positions, n.positions);
    EXPECT_EQ(c.follower_positions, n.follower_positions);
    EXPECT_TRUE(brute_force(tb, rule, kEmptyBoard, side).holds);
  }
}

// The table's keeping moves, one a position, hold; replacing one of them by
// a move that forms a line fails by a line that reaches that position by a
// shortest way and ends with that move and the follower's loss.
TEST(StrategyTable, OneKeepingMoveReplacedByALosingOneFailsWithThatLoss) {
  const Variant v = rules_named("standard-2c1t");
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  for (const Colour side : {Colour::kWhite, Colour::kBlack}) {
    const FixedStrategy s = keeping_strategy(tb, side);
    ASSERT_FALSE(s.decisions.empty());
    std::vector<std::pair<State, std::vector<Move>>> entries;
    for (const auto& [st, m] : s.decisions) entries.push_back({st, {m}});
    {
      const AllowedTable table = parse_allowed_lines(table_text(entries), v);
      EXPECT_TRUE(check_strategy(tb, table_rule(table, "keeping"), kEmptyBoard, side).holds);
    }
    // The last decision (the deepest) with a move that forms a line.
    std::size_t at = entries.size();
    Move bad{};
    for (std::size_t i = entries.size(); i-- > 0 && at == entries.size();)
      for_each_move(rules, entries[i].first, [&](const Move& m, State child) {
        if (at == entries.size() && formed_lines(rules, child)) at = i, bad = m;
      });
    ASSERT_LT(at, entries.size());
    entries[at].second = {bad};
    const AllowedTable table = parse_allowed_lines(table_text(entries), v);
    const StrategyRule rule = table_rule(table, "one bad");
    const StrategyCheck c = check_strategy(tb, rule, kEmptyBoard, side);
    ASSERT_FALSE(c.holds);
    const StrategyRefutation& r = *c.refutation;
    EXPECT_FALSE(r.uncovered);
    EXPECT_EQ(r.moves.back(), bad);
    ASSERT_GE(r.positions.size(), 2u);
    EXPECT_EQ(r.positions[r.positions.size() - 2], entries[at].first);
    EXPECT_EQ(r.end.loser, side);
    // Shortest: as short as the brute force's nearest loss.
    EXPECT_EQ(brute_force(tb, rule, kEmptyBoard, side).shortest_loss, r.moves.size());
    expect_refutation_replays(tb, rule, c);
  }
}

// A position the file lacks fails the rule where the follower first reaches
// it: the line ends there, the JSON names it, and the line is a shortest way
// there (the brute force's distance with that position taken for a loss).
TEST(StrategyTable, APositionMissingFromTheFileFailsNamingIt) {
  const Variant v = rules_named("standard-2c1t");
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  const FixedStrategy s = keeping_strategy(tb, Colour::kBlack);
  ASSERT_GT(s.decisions.size(), 100u);
  const State missing = s.decisions[s.decisions.size() / 2].first;
  AllowedTable table;
  for (const auto& [st, m] : s.decisions)
    if (st != missing) add_allowed(table, rules, st, {m});
  const StrategyCheck c =
      check_strategy(tb, table_rule(table, "missing one"), kEmptyBoard, Colour::kBlack);
  ASSERT_FALSE(c.holds);
  ASSERT_TRUE(c.refutation->uncovered);
  EXPECT_EQ(c.refutation->positions.back(), missing);
  std::string line;
  for (const Move& m : c.refutation->moves) line += format_move(m) + " ";
  EXPECT_EQ(play_moves(rules, kEmptyBoard, line), missing);
  // No shorter way: a breadth-first walk of the complete strategy reaches it
  // first at this distance.
  std::map<std::uint64_t, std::size_t> dist{{kEmptyBoard.code, 0}};
  std::vector<State> queue{kEmptyBoard};
  const AllowedTable full = strategy_table(tb, s);
  for (std::size_t k = 0; k < queue.size() && !dist.count(missing.code); ++k) {
    const State st = queue[k];
    if (game_end(rules, st)) continue;
    const std::vector<Move> moves =
        st.to_move() == Colour::kBlack ? full.moves.at(st.code) : legal_moves(rules, st);
    for (const Move& m : moves)
      if (dist.emplace(apply_move(st, m).code, dist[st.code] + 1).second)
        queue.push_back(apply_move(st, m));
  }
  EXPECT_EQ(dist.at(missing.code), c.refutation->moves.size());
  const nlohmann::json j = testing::parse_json(json_text(strategy_check_json(c)));
  EXPECT_EQ(j["refutation"]["uncovered"], format_position(missing));
  EXPECT_TRUE(j["refutation"]["end"].is_null());
}

// A bad file is refused by the number of its first bad line, saying what is
// wrong there.
TEST(StrategyTable, BadFilesAreRefusedNamingTheLine) {
  const Variant v = rules_named("standard-2c1t");
  const std::string good = R"({"position": "-/-/-/-/-/-/- w", "moves": ["C1", "T2"]})";
  EXPECT_EQ(parse_allowed_lines(good + "\n\n", v).moves.size(), 1u);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"position": "Cc/-/-/-/-/-/- w", "moves": ["T1"]})", "already holds 2 pieces"},
      {R"({"position": "C/-/-/-/-/-/- b", "moves": ["1-2"]})", "movement phase"},
      {R"({"position": "C/-/-/-/-/-/- b", "moves": ["c9"]})", "not a space"},
      {R"({"position": "C/-/-/-/-/-/- b", "moves": []})", "no move"},
      {R"({"position": "C/-/-/-/-/-/- b", "moves": ["c2", "c2"]})", "twice"},
      {R"({"position": "C/-/-/-/-/-/- b"})", R"(no "moves")"},
      {R"({"moves": ["c2"]})", R"(no "position")"},
      {R"({"position": "C/-/-/-/-/-/- b", "move": ["c2"]})", R"(unknown field "move")"},
      {R"(["C/-/-/-/-/-/- b", ["c2"]])", "not {"},
      {R"({"position": "C/-/-/-/-/-/- b", "moves": ["c2"], "x": 1})", "unknown field"},
      {R"({"position": "C/-/-/-/-/-/- b", "moves": [2]})", "not a string"},
      {R"({"position": "X/-/-/-/-/-/- b", "moves": ["c2"]})", "X"},
      {R"({"position": "C/-/-/-/-/-/- b", "moves": ["c2"])", "not JSON (it ends too soon)"},
      {R"({"position" "C/-/-/-/-/-/- b"})", "not JSON (at character 29)"},
      {good, "given twice"},
  };
  for (const auto& [line, says] : bad) {
    SCOPED_TRACE(line);
    try {
      parse_allowed_lines(good + "\n\n" + line + "\n", v);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("line 3: ", 0), 0u) << what;
      EXPECT_NE(what.find(says), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_EQ(what.find("json.exception"), std::string::npos) << what;
    }
  }
  // A file of blank lines allows nothing anywhere: refused, not a rule that fails at once.
  EXPECT_THROW(
      {
        try {
          parse_allowed_lines("\n \n", v);
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("no position in the file"), std::string::npos);
          throw;
        }
      },
      std::invalid_argument);
}

// The canonical code of a position as the least of its images, written here
// apart from Symmetry::canonical.
std::uint64_t least_image(const Tablebase& tb, State st) {
  std::uint64_t least = st.code;
  tb.symmetry().for_each_image(st, [&](std::uint64_t c) { least = std::min(least, c); });
  return least;
}

// The smallest strategy found holds by the checker and by the brute force,
// is counted as the checker counts it (its decisions are the follower's
// positions the checker asks the table about, its positions the checker's),
// its classes by least images; it is no larger than the greedy start, and
// the baseline is the checker's count for the keeping player.
TEST(StrategySize, SmallestHoldsAndIsCountedAsTheCheckerCounts) {
  const Variant v = rules_named("standard-2c1t");
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  for (const Colour side : {Colour::kWhite, Colour::kBlack}) {
    SCOPED_TRACE(colour_name(side));
    const SmallStrategy s = smallest_strategy(tb, side, 3, 2);
    // Checked as an --allowed file: written as text and read back.
    std::string text;
    for (const auto& [st, m] : s.strategy.decisions) text += allowed_line(st, {m}) + "\n";
    const AllowedTable table = parse_allowed_lines(text, v);
    EXPECT_EQ(table.moves.size(), s.strategy.decisions.size());
    const StrategyRule rule = table_rule(table, "smallest");
    const StrategyCheck c = check_strategy(tb, rule, kEmptyBoard, side);
    EXPECT_TRUE(c.holds);
    EXPECT_TRUE(brute_force(tb, rule, kEmptyBoard, side).holds);
    EXPECT_EQ(c.follower_positions, s.smallest.decisions());
    EXPECT_EQ(c.positions, s.smallest.reached);
    std::set<std::uint64_t> placement, movement;
    std::uint64_t in_placement = 0;
    for (const auto& [st, m] : s.strategy.decisions) {
      const bool p = st.pieces_on_board() < 2 * (v.circles + v.triangles);
      in_placement += p;
      (p ? placement : movement).insert(least_image(tb, st));
    }
    EXPECT_EQ(s.smallest.placement, in_placement);
    EXPECT_EQ(s.smallest.placement_classes, placement.size());
    EXPECT_EQ(s.smallest.movement_classes, movement.size());
    EXPECT_LE(s.smallest.classes(), s.greedy.classes());
    EXPECT_LT(s.smallest.decisions(), s.baseline.decisions());
    const StrategyCheck keeping =
        check_strategy(tb, player_rule(parse_player("keeping"), &tb), kEmptyBoard, side);
    EXPECT_TRUE(keeping.holds);
    EXPECT_EQ(keeping.follower_positions, s.baseline.decisions());
    EXPECT_EQ(keeping.positions, s.baseline.reached);
    // The same strategy on every run: no threads, a seeded generator.
    const SmallStrategy again = smallest_strategy(tb, side, 3, 2);
    EXPECT_EQ(again.strategy.decisions, s.strategy.decisions);
  }
  for (const Colour side : {Colour::kWhite, Colour::kBlack})  // a won game: Black's
    EXPECT_THROW(smallest_strategy(table_of(rules_named("standard-1c1t")), side, 1),
                 std::invalid_argument);
}

// A rule list picks the first of the moves its filters leave: search:K's are
// search_best_moves', no-centre and corner's the first placements off the
// centre and on a corner; an unknown rule is refused.
TEST(StrategySize, RuleListMovesAreTheirFiltersFirst) {
  const Variant v = rules_named("standard-2c1t");
  const Rules rules(v);
  EXPECT_EQ(format_move(rule_list_move(rules, kEmptyBoard, {})), "C1");
  EXPECT_EQ(format_move(rule_list_move(rules, kEmptyBoard, {"no-centre"})), "C1");
  EXPECT_EQ(format_move(rule_list_move(rules, kEmptyBoard, {"corner"})), "C3");
  for (const char* bad : {"centre", "search:", "search:0", "search:9", "search:x", "search:3x"})
    EXPECT_THROW(rule_list_move(rules, kEmptyBoard, {bad}), std::invalid_argument) << bad;
  const Tablebase& tb = table_of(v);
  const FixedStrategy s = keeping_strategy(tb, Colour::kBlack);
  for (std::size_t i = 0; i < s.decisions.size(); i += 97) {
    const State st = s.decisions[i].first;
    for (const int depth : {1, 2})
      EXPECT_EQ(rule_list_move(rules, st, {"search:" + std::to_string(depth)}),
                search_best_moves(GameRecord(rules, st), depth).front())
          << format_position(st);
  }
}

// A rule list with its exceptions holds, plays the list's move wherever that
// does not lose by the table, and its exceptions are exactly the positions
// where the list's move loses.
TEST(StrategySize, RuleListExceptionsAreWhereTheListLoses) {
  const Variant v = rules_named("standard-2c1t");
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  const SmallStrategy s = smallest_strategy(tb, Colour::kWhite, 2);
  const RuleListResult r = rule_list_with_exceptions(tb, s.strategy, {"search:2", "quiet"});
  const AllowedTable table = strategy_table(tb, r.strategy);
  EXPECT_TRUE(check_strategy(tb, table_rule(table, "list"), kEmptyBoard, Colour::kWhite).holds);
  std::uint64_t placement = 0, movement = 0;
  for (const auto& [st, m] : r.strategy.decisions) {
    const Move listed = rule_list_move(rules, st, {"search:2", "quiet"});
    const bool loses = outcome_for_mover(*tb.probe(apply_move(st, listed))).value == Value::kLoss;
    if (loses) {
      (rules.placement_phase(st) ? placement : movement) += 1;
    } else {
      EXPECT_EQ(m, listed) << format_position(st);
    }
  }
  EXPECT_EQ(r.placement_exceptions, placement);
  EXPECT_EQ(r.movement_exceptions, movement);
  std::uint64_t losing[2] = {0, 0};  // placement, movement
  for (const auto& [st, m] : s.strategy.decisions) {
    const Move listed = rule_list_move(rules, st, {"search:2", "quiet"});
    if (outcome_for_mover(*tb.probe(apply_move(st, listed))).value == Value::kLoss)
      ++losing[rules.placement_phase(st) ? 0 : 1];
  }
  EXPECT_EQ(r.placement_losing_in_smallest, losing[0]);
  EXPECT_EQ(r.movement_losing_in_smallest, losing[1]);
  EXPECT_GT(placement + movement, 0u);
  EXPECT_EQ(r.size.decisions(), r.strategy.decisions.size());
}

// The openings with a single drawing move, against a walk written apart: the
// positions at each ply that both sides' drawing moves reach (rated by
// rate_moves), those with exactly one; one listed a class; each listed line
// replays to its position, whose other moves all lose.
TEST(StrategySize, SingleDrawOpeningsAgreeWithAWalkOfDrawingMoves) {
  const Tablebase& tb = table_of(kStandard);
  const Rules rules(kStandard);
  const int plies = 6;
  const SingleDrawReport r = single_draw_openings(tb, plies);
  std::set<std::uint64_t> layer{kEmptyBoard.code};
  for (int ply = 0; ply < plies; ++ply) {
    std::set<std::uint64_t> next;
    std::uint64_t single = 0;
    for (const std::uint64_t code : layer) {
      const std::vector<RatedMove> moves = rate_moves(tb, rules, State{code});
      const auto draws = std::count_if(moves.begin(), moves.end(), [](const RatedMove& m) {
        return m.result.value == Value::kDraw;
      });
      single += draws == 1;
      for (const RatedMove& m : moves)
        if (m.result.value == Value::kDraw) next.insert(m.child.code);
    }
    EXPECT_EQ(r.drawn_by_ply[std::size_t(ply)], layer.size()) << ply;
    EXPECT_EQ(r.single_by_ply[std::size_t(ply)], single) << ply;
    layer = std::move(next);
  }
  std::uint64_t classes = 0;
  for (const std::uint64_t n : r.single_classes_by_ply) classes += n;
  ASSERT_EQ(r.openings.size(), classes);
  std::set<std::uint64_t> distinct;
  for (const SingleDrawOpening& o : r.openings) distinct.insert(least_image(tb, o.position));
  EXPECT_EQ(distinct.size(), classes);
  ASSERT_FALSE(r.openings.empty());
  for (std::size_t i = 0; i < r.openings.size(); i += 50) {
    const SingleDrawOpening& o = r.openings[i];
    std::string line;
    for (const Move& m : o.line) line += format_move(m) + " ";
    EXPECT_EQ(play_moves(rules, kEmptyBoard, line), o.position);
    EXPECT_EQ(outcome_for_mover(*tb.probe(apply_move(o.position, o.move))).value, Value::kDraw);
    EXPECT_EQ(o.others.size() + 1, legal_moves(rules, o.position).size());
    for (const auto& [m, result] : o.others) EXPECT_EQ(result.value, Value::kLoss);
  }
  EXPECT_LE(r.openings.front().line.size(), r.openings.back().line.size());
}

// `fano strategy --json` prints the library's verdicts: the same refutation
// moves as a check in process, and a one-line error for a bad player.
TEST(StrategyCommand, JsonIsTheLibrarysVerdict) {
  testing::TempDir dir;
  const std::string table = (dir / "t.fanotb").string();
  ASSERT_EQ(testing::run_fano({"solve", "--rules", "standard-2c1t", "--out", table}).exit_code, 0);
  const auto r = testing::run_fano({"strategy", "--tb", table, "--player", "greedy", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = testing::parse_json(r.out);
  ASSERT_EQ(j["results"].size(), 2u);
  const Tablebase& tb = table_of(rules_named("standard-2c1t"));
  const StrategyRule rule = player_rule(parse_player("greedy"), &tb);
  for (int i = 0; i < 2; ++i) {
    const StrategyCheck c = check_strategy(tb, rule, kEmptyBoard, Colour(i));
    EXPECT_EQ(j["results"][i], testing::parse_json(json_text(strategy_check_json(c))));
  }
  const auto bad = testing::run_fano({"strategy", "--tb", table, "--player", "mirror:copy"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("not a rule of the position alone"), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  const auto badpos =
      testing::run_fano({"strategy", "--tb", table, "--player", "greedy", "-/-/-/X/-/-/- w"});
  EXPECT_NE(badpos.exit_code, 0);
  EXPECT_EQ(std::count(badpos.err.begin(), badpos.err.end(), '\n'), 1) << badpos.err;
  const auto help = testing::run_fano({"strategy", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("\nexamples:\n  fano strategy"), std::string::npos) << help.out;
  const auto both = testing::run_fano({"strategy", "--tb", table});
  EXPECT_EQ(both.exit_code, 2);
  const auto lookahead = testing::run_fano(
      {"strategy", "--tb", table, "--lookahead", "2", "--side", "white", "--json"});
  ASSERT_EQ(lookahead.exit_code, 0) << lookahead.err;
  const nlohmann::json l = testing::parse_json(lookahead.out);
  ASSERT_EQ(l["results"].size(), 1u);
  EXPECT_EQ(l["results"][0]["side"], "white");
  EXPECT_EQ(l["results"][0]["checks"].size(), 2u);
}

// `fano strategy --allowed FILE` checks a file as the library checks the same
// table: holds for the keeping moves, the uncovered position named when one
// is missing, and a bad file refused in one line naming its line.
TEST(StrategyCommand, AllowedFileIsTheLibrarysVerdict) {
  testing::TempDir dir;
  const std::string table = (dir / "t.fanotb").string();
  ASSERT_EQ(testing::run_fano({"solve", "--rules", "standard-2c1t", "--out", table}).exit_code, 0);
  const Tablebase& tb = table_of(rules_named("standard-2c1t"));
  const FixedStrategy s = keeping_strategy(tb, Colour::kWhite);
  std::string text;
  for (const auto& [st, m] : s.decisions) text += allowed_line(st, {m}) + "\n";
  const std::string file = (dir / "rule.jsonl").string();
  testing::write_text(file, text);
  const auto r = testing::run_fano(
      {"strategy", "--tb", table, "--allowed", file, "--side", "white", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const AllowedTable t = parse_allowed_lines(text, tb.variant());
  const StrategyCheck c =
      check_strategy(tb, table_rule(t, "allowed:" + file), kEmptyBoard, Colour::kWhite);
  EXPECT_TRUE(c.holds);
  EXPECT_EQ(testing::parse_json(r.out)["results"][0],
            testing::parse_json(json_text(strategy_check_json(c))));
  // Without its first line (the empty board) the rule fails at once.
  testing::write_text(file, text.substr(text.find('\n') + 1));
  const auto missing =
      testing::run_fano({"strategy", "--tb", table, "--allowed", file, "--side", "white"});
  EXPECT_EQ(missing.exit_code, 0) << missing.err;
  EXPECT_NE(missing.out.find("no move given for -/-/-/-/-/-/- w"), std::string::npos)
      << missing.out;
  testing::write_text(file, text.substr(0, text.find('\n') + 1) +
                                R"({"position": "C/-/-/-/-/-/- b", "moves": ["c9"]})" + "\n");
  const auto bad = testing::run_fano({"strategy", "--tb", table, "--allowed", file});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--allowed " + file + ": line 2: "), std::string::npos) << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  const auto none =
      testing::run_fano({"strategy", "--tb", table, "--allowed", (dir / "none.jsonl").string()});
  EXPECT_NE(none.exit_code, 0);
  EXPECT_EQ(std::count(none.err.begin(), none.err.end(), '\n'), 1) << none.err;
}

// `fano strategy --size --json` prints the library's sizes and the checker's
// verdict on the strategy it writes with --allowed-out; bad options are
// refused in one line.
TEST(StrategyCommand, SizeIsTheLibrarysSearch) {
  testing::TempDir dir;
  const std::string table = (dir / "t.fanotb").string();
  ASSERT_EQ(testing::run_fano({"solve", "--rules", "standard-2c1t", "--out", table}).exit_code, 0);
  const Tablebase& tb = table_of(rules_named("standard-2c1t"));
  const std::string file = (dir / "black.jsonl").string();
  const auto r = testing::run_fano({"strategy", "--tb", table, "--size", "--side", "black",
                                    "--passes", "2", "--restarts", "1", "--rule-list",
                                    "search:2,quiet", "--allowed-out", file, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = testing::parse_json(r.out)["results"][0];
  const SmallStrategy s = smallest_strategy(tb, Colour::kBlack, 2, 1);
  EXPECT_EQ(j["smallest"], testing::parse_json(json_text(strategy_size_json(s.smallest))));
  EXPECT_EQ(j["baseline"], testing::parse_json(json_text(strategy_size_json(s.baseline))));
  EXPECT_TRUE(j["check"]["holds"].get<bool>());
  const RuleListResult list = rule_list_with_exceptions(tb, s.strategy, {"search:2", "quiet"});
  EXPECT_EQ(j["rule_lists"][0], testing::parse_json(json_text(rule_list_json(list))));
  std::string text;
  for (const auto& [st, m] : s.strategy.decisions) text += allowed_line(st, {m}) + "\n";
  EXPECT_EQ(testing::read_text(file), text);
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--size", "--allowed-out", file},  // both sides
        {"--size", "--rule-list", "search:2,centre"},
        {"--size", "--passes", "-1"},
        {"--rule-list", "search:2", "--player", "greedy"},
        {"--single-draw", "0"}}) {
    std::vector<std::string> args{"strategy", "--tb", table};
    args.insert(args.end(), bad.begin(), bad.end());
    const auto e = testing::run_fano(args);
    EXPECT_EQ(e.exit_code, 2) << bad.back();
    EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << e.err;
  }
  const std::string won = (dir / "won.fanotb").string();
  ASSERT_EQ(testing::run_fano({"solve", "--rules", "standard-1c1t", "--out", won}).exit_code, 0);
  for (const char* what : {"--size", "--single-draw"}) {
    std::vector<std::string> args{"strategy", "--tb", won, what};
    if (std::string(what) == "--single-draw") args.push_back("4");
    const auto e = testing::run_fano(args);
    EXPECT_EQ(e.exit_code, 2) << what;
    EXPECT_NE(e.err.find("not a draw"), std::string::npos) << e.err;
  }
}

// ---------------------------------------------------------------------------
// Puzzles and statistics listed once a table, in steps an interrupt ends

// An Interrupt whose deadline has passed: every poll throws.
Interrupt expired_interrupt() {
  Interrupt i;
  i.until(Interrupt::Clock::now() - std::chrono::seconds(1));
  return i;
}

// A listing stopped at every poll goes on from where it stopped, one step a
// call, and ends with what one uninterrupted listing finds: the same counts
// of every grade and the same draw for every seed.
TEST(Puzzles, AListingStoppedAtEveryPollGoesOnFromWhereItStopped) {
  const Solution sol = solve(kStandard);
  const Tablebase tb = in_memory_tablebase(sol);
  PuzzleIndex whole(tb), stepped(tb);
  whole.list();
  const std::size_t steps = (tb.size() + PuzzleIndex::kListStep - 1) / PuzzleIndex::kListStep;
  ASSERT_GT(steps, 2u);
  std::size_t calls = 0;
  while (!stepped.listed()) {
    ++calls;
    try {
      stepped.list(expired_interrupt());
    } catch (const Interrupted&) {
      EXPECT_EQ(stepped.classes_listed(), calls * PuzzleIndex::kListStep);
    }
  }
  EXPECT_EQ(calls, steps);
  EXPECT_GT(whole.count(), 0u);
  for (const std::optional<PuzzleGrade> grade :
       {std::optional<PuzzleGrade>(), std::optional(PuzzleGrade::kEasy),
        std::optional(PuzzleGrade::kMedium), std::optional(PuzzleGrade::kHard)}) {
    EXPECT_EQ(stepped.count(grade), whole.count(grade));
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      const std::optional<Puzzle> a = whole.draw(seed, grade), b = stepped.draw(seed, grade);
      ASSERT_EQ(a.has_value(), b.has_value());
      if (a) {
        EXPECT_EQ(format_position(a->position), format_position(b->position));
        if (grade) EXPECT_EQ(a->grade, *grade);
      }
    }
  }
  std::size_t counted = 0;
  for (const PuzzleGrade g : kPuzzleGrades) counted += whole.count(g);
  EXPECT_EQ(counted, whole.count());
}

// The statistics the same way: stopped at every poll, they end as one
// uninterrupted count, whose sums are the header's totals.
TEST(TableStats, ACountStoppedAtEveryPollEndsAsOneCountWhole) {
  const Solution sol = solve(kCap3Board);
  const Tablebase tb = in_memory_tablebase(sol);
  TableStatsCount whole(tb), stepped(tb);
  whole.count();
  int calls = 0;
  while (!stepped.done()) {
    ++calls;
    try {
      stepped.count(expired_interrupt());
    } catch (const Interrupted&) {
    }
  }
  EXPECT_GT(calls, 2);
  EXPECT_EQ(table_stats_json(tb, stepped.stats()), table_stats_json(tb, whole.stats()));
  std::uint64_t wins = 0, losses = 0;
  for (const auto& [plies, n] : whole.stats().by_plies) wins += n[0], losses += n[1];
  EXPECT_EQ(wins, tb.header().win);
  EXPECT_EQ(losses, tb.header().loss);
  // The longest wins: the first classes (in table order) of the longest win, at most kLongestWins.
  int longest = -1;
  for (std::size_t i = 0; i < tb.size(); ++i)
    if (tb.outcome_at(i).value == Value::kWin)
      longest = std::max(longest, int(tb.outcome_at(i).plies));
  EXPECT_EQ(whole.stats().longest_win, longest);
  std::vector<std::string> first;
  for (std::size_t i = 0; i < tb.size() && first.size() < kLongestWins; ++i)
    if (tb.outcome_at(i) == Outcome{Value::kWin, std::uint16_t(longest)})
      first.push_back(format_position(tb.position_at(i)));
  std::vector<std::string> reported;
  for (const PositionReport& r : whole.stats().longest_wins)
    reported.push_back(format_position(r.position));
  EXPECT_EQ(reported, first);
  EXPECT_FALSE(first.empty());
}

}  // namespace
}  // namespace fano
