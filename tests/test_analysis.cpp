// The analysis library (fano::analysis): the strategy checker
// (fano/strategy.hpp) against a brute force written separately, rules that
// hold and fail by construction, refutation lines replayed as game records,
// and `fano strategy` end to end; the review of a game, the levels offered to
// people, puzzles and statistics.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/puzzles.hpp"
#include "fano/review.hpp"
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
// GoogleTest prints a case (the listing, a failure) as "standard-1c1t search:2".
void PrintTo(const Case& c, std::ostream* os) { *os << c.rules << " " << c.player; }

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
      {R"({"position": "C/-/-/-/-/-/- b", "move": ["c2"]})", "unknown field 'move'"},
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
  EXPECT_NE(bad.err.find("--allowed '" + file + "': line 2: "), std::string::npos) << bad.err;
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
// The review of a game (fano/review.hpp)

// A seeded random game: uniform among the legal moves, or careful (no move
// that forms a line while another exists), which goes deep into the
// movement phase and often ends by a repetition.
GameRecord random_game(const Rules& rules, std::mt19937& rng, bool careful, std::size_t max_plies) {
  GameRecord g(rules);
  while (!g.over() && g.plies() < max_plies) {
    std::vector<Move> moves = legal_moves(rules, g.current());
    if (careful) moves = testing::careful_moves(g.current(), moves);
    g.play(moves[rng() % moves.size()]);
  }
  return g;
}

// The first `n` moves of `game` as a game of their own (its history with them).
GameRecord first_plies(const GameRecord& game, std::size_t n) {
  GameRecord g(game.rules(), game.start());
  for (std::size_t i = 0; i < n; ++i) g.play(game.moves()[i]);
  return g;
}

bool in_placement(const Rules& rules, const GameRecord& game, std::size_t upto) {
  for (std::size_t i = 0; i <= upto; ++i)
    if (!rules.placement_phase(game.positions()[i])) return false;
  return true;
}

// Checks a review against the game walked move by move as `fano query
// --moves` answers each prefix (analyse(), a fresh history for every
// question), against the bare table where no earlier position can come back
// (the placement phase), and its refutations by replaying them; returns the
// mistakes checked by kind ("gives the draw away", ...).
void expect_review_is_the_walk(const Tablebase& tb, const GameRecord& game,
                               std::map<std::string, int>& kinds) {
  const Rules& rules = game.rules();
  const GameReview r = review_game(tb, game);
  EXPECT_EQ(r.game.moves(), game.moves());
  EXPECT_EQ(r.plies.size(), game.plies());
  AnalysisOptions no_line;
  no_line.principal_variation = false;
  std::optional<std::size_t> decisive;
  std::array<int, 2> mistakes{};
  for (std::size_t i = 0; i < r.plies.size(); ++i) {
    const ReviewedPly& p = r.plies[i];
    SCOPED_TRACE("ply " + std::to_string(i + 1) + " of " + game.move_list());
    const GameRecord before_game = first_plies(game, i);
    const PositionReport report = analyse(tb, before_game, no_line);
    EXPECT_EQ(p.ply, i + 1);
    EXPECT_EQ(p.move, game.moves()[i]);
    EXPECT_EQ(p.position, game.positions()[i]);
    EXPECT_EQ(p.before, report.value);
    const auto row = std::find_if(report.moves.begin(), report.moves.end(),
                                  [&](const RatedMove& m) { return m.move == p.move; });
    EXPECT_EQ(p.after, row->result);
    EXPECT_EQ(p.repeats, row->repeats);
    if (in_placement(rules, game, i)) {
      // No position can repeat yet: the bare table decides.
      EXPECT_EQ(p.after, outcome_for_mover(*tb.probe(game.positions()[i + 1])));
      Outcome best = p.after;
      for (const Move& m : legal_moves(rules, p.position)) {
        const Outcome o = outcome_for_mover(*tb.probe(apply_move(p.position, m)));
        if (better_for_mover(o, best)) best = o;
      }
      EXPECT_EQ(p.before, best);
    }
    const bool mistake = !(p.after == p.before);
    EXPECT_EQ(p.mistake, mistake);
    EXPECT_TRUE(!better_for_mover(p.after, p.before));
    const bool first_change = mistake && !decisive && p.before.value != p.after.value;
    EXPECT_EQ(p.decisive, first_change);
    if (first_change) decisive = p.ply;
    if (!mistake) {
      EXPECT_TRUE(p.best.empty() && p.refutation.empty() && p.text.empty());
      continue;
    }
    ++mistakes[std::size_t(p.position.to_move())];
    // The best moves are exactly those of the value before, the engine's first.
    std::set<std::string> keeping, listed;
    for (const RatedMove& m : report.moves)
      if (m.result == report.value) keeping.insert(format_move(m.move));
    for (const Move& m : p.best) listed.insert(format_move(m));
    EXPECT_EQ(listed, keeping);
    EXPECT_EQ(listed.size(), p.best.size());
    EXPECT_EQ(p.best.front(), report.moves[*report.engine_choice].move);
    // The refutation is the query's principal variation after the move, cut
    // at 40 plies, and replays legally to the end it names.
    GameRecord after = first_plies(game, i + 1);
    AnalysisOptions line;
    line.max_pv_plies = 40;
    const PositionReport next = analyse(tb, after, line);
    EXPECT_EQ(p.refutation, next.pv);
    EXPECT_LE(p.refutation.size(), 40u);
    for (const Move& m : p.refutation) after.play(format_move(m));
    EXPECT_EQ(p.refutation_end.has_value(), after.over());
    if (p.refutation_end) {
      EXPECT_EQ(p.refutation_end->reason, after.end()->reason);
    }
    // The words after the line: how it ends, else that it is drawn (a drawn
    // line cut at its bound), else that it goes on.
    const std::string close = p.refutation.empty() ? ""
                              : after.over()
                                  ? " (" + describe_end(*after.end(), after.current()) + ")"
                              : p.after.value == Value::kDraw ? " ... and the game is drawn"
                                                              : " ...";
    EXPECT_EQ(p.refutation_close, close);
    // Its text in the engine's words, with the move, its mark and the best move.
    const std::string head = std::to_string(p.ply) + ". " + format_move(p.move) +
                             (p.before.value == p.after.value ? " ? " : " ?? ");
    EXPECT_EQ(p.text.rfind(head, 0), 0u) << p.text;
    const char* kind = p.before.value == Value::kDraw   ? "gives the draw away"
                       : p.before.value == Value::kLoss ? "loses faster"
                       : p.after.value == Value::kWin   ? "wins more slowly"
                                                        : "throws the win away";
    EXPECT_NE(p.text.find(kind), std::string::npos) << p.text;
    ++kinds[kind];
    EXPECT_NE(p.text.find("; " + format_move(p.best.front()) + " "), std::string::npos) << p.text;
  }
  EXPECT_EQ(r.first_decisive, decisive);
  EXPECT_EQ(r.mistakes, mistakes);
  EXPECT_EQ(r.end.has_value(), game.over());
  EXPECT_EQ(r.end_value, analyse(tb, game, no_line).value);
}

class ReviewOfRandomGames : public ::testing::TestWithParam<std::string> {};

// Seeded random games of several readings, uniform and careful, up to 120
// plies: every ply of the review is the move-by-move walk. The sample holds
// games ending by a line and by a repetition (careful games), and one ending
// with no move when the reading has one within the tries.
TEST_P(ReviewOfRandomGames, EachPlyIsTheMoveByMoveWalk) {
  const Variant v = rules_named(GetParam());
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  std::mt19937 rng(20261207);
  std::map<EndReason, int> ends;
  std::map<std::string, int> kinds;
  for (int g = 0; g < 24; ++g) {
    const GameRecord game = random_game(rules, rng, g % 2 == 1, 300);
    if (const auto end = game.end()) ++ends[end->reason];
    expect_review_is_the_walk(tb, game, kinds);
  }
  EXPECT_GT(ends[EndReason::kLine], 0);
  EXPECT_GT(ends[EndReason::kRepetition], 0);
  EXPECT_GT(kinds["gives the draw away"], 0);
  EXPECT_GT(kinds["throws the win away"] + kinds["wins more slowly"] + kinds["loses faster"], 0);
  // A game that ends with the side to move left without a move: a few
  // thousand uniform games find one, except on the projective plane.
  bool no_move = false;
  for (int tries = 0; tries < 3000 && !no_move; ++tries) {
    const GameRecord game = random_game(rules, rng, false, 200);
    no_move = game.end() && game.end()->reason == EndReason::kNoMove;
    if (no_move) expect_review_is_the_walk(tb, game, kinds);
  }
  EXPECT_EQ(no_move, GetParam() != "projective");
}

INSTANTIATE_TEST_SUITE_P(Readings, ReviewOfRandomGames,
                         ::testing::Values("standard", "projective", "standard-colour",
                                           "standard-2c1t"),
                         [](const auto& info) {
                           std::string s = info.param;
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

// The engine against itself makes no mistake, from the empty board and from
// positions of random games (a bare start): the review names none.
TEST(Review, AGameOfBestMovesHasNoMistakes) {
  const Tablebase& tb = table_of(kStandard);
  const Rules rules(kStandard);
  std::mt19937 rng(7);
  std::vector<State> starts{kEmptyBoard};
  for (int g = 0; g < 4; ++g) {
    const GameRecord game = random_game(rules, rng, true, 8 + 5 * g);
    if (!game.over()) starts.push_back(game.current());
  }
  for (const State start : starts) {
    const EngineGame played = engine_game(tb, GameRecord(rules, start), 60);
    ASSERT_GT(played.game.plies(), 0u);
    const GameReview r = review_game(tb, played.game);
    EXPECT_EQ(r.mistakes, (std::array<int, 2>{0, 0})) << played.game.move_list();
    EXPECT_FALSE(r.first_decisive);
    for (std::size_t i = 0; i < r.plies.size(); ++i) {
      EXPECT_FALSE(r.plies[i].mistake);
      EXPECT_EQ(r.plies[i].after, played.results[i]);
    }
    const Json j = review_json(r);
    EXPECT_EQ(j["mistakes"], (Json{{"white", 0}, {"black", 0}}));
    EXPECT_TRUE(j["first_decisive"].is_null());
    for (const Json& p : j["plies"]) EXPECT_TRUE(p["best"].is_null() && p["text"].is_null());
  }
}

// The centre loses at once for White (a piece on space 7 loses in 13 plies):
// the review's one mistake, decisive, told in words with the engine's move.
TEST(Review, TheCentreGivesTheDrawAway) {
  const Tablebase& tb = table_of(kStandard);
  const Rules rules(kStandard);
  const GameRecord game = GameRecord::from_moves(rules, kEmptyBoard, "C7");
  const GameReview r = review_game(tb, game);
  ASSERT_EQ(r.plies.size(), 1u);
  const ReviewedPly& p = r.plies[0];
  EXPECT_EQ(p.before, (Outcome{Value::kDraw, 0}));
  EXPECT_EQ(p.after, (Outcome{Value::kLoss, 13}));
  EXPECT_TRUE(p.mistake && p.decisive);
  EXPECT_EQ(r.first_decisive, std::optional<std::size_t>(1));
  EXPECT_EQ(p.best.size(), 12u);  // twelve of the fourteen first moves keep the draw
  EXPECT_EQ(p.best.front(), choose_move(tb, GameRecord(rules)));
  EXPECT_EQ(p.text, "1. C7 ?? gives the draw away: it loses in 13 plies (Black answers " +
                        format_move(p.refutation.front()) + "); " + format_move(p.best.front()) +
                        " keeps the draw");
  ASSERT_TRUE(p.refutation_end);
  EXPECT_EQ(p.refutation.size(), 12u);
  EXPECT_EQ(p.refutation_end->loser, Colour::kWhite);
  const Json j = review_json(r);
  EXPECT_EQ(j["end"]["text"], "Black to move; Black wins in 12 plies with best play");
  EXPECT_EQ(j["end"]["over"], false);
  EXPECT_EQ(j["plies"][0]["mark"], "??");
  EXPECT_EQ(j["plies"][0]["after"], (Json{{"result", "loss"}, {"plies", 13}}));
}

// A review is the review of the moves given from their start: a bare start
// position is judged without history, an unreachable one is refused.
TEST(Review, FromAPositionAndRefusals) {
  const Tablebase& tb = table_of(kStandard);
  const Rules rules(kStandard);
  std::mt19937 rng(11);
  const GameRecord whole = random_game(rules, rng, true, 7);
  ASSERT_EQ(whole.plies(), 7u);
  ASSERT_TRUE(rules.placement_phase(whole.positions()[6]));
  GameRecord tail(rules, whole.positions()[2]);
  for (std::size_t i = 2; i < 7; ++i) tail.play(whole.moves()[i]);
  const GameReview a = review_game(tb, whole), b = review_game(tb, tail);
  ASSERT_EQ(b.plies.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    // In the placement phase the history changes nothing: the same judgement.
    EXPECT_EQ(b.plies[i].before, a.plies[i + 2].before);
    EXPECT_EQ(b.plies[i].after, a.plies[i + 2].after);
    EXPECT_EQ(b.plies[i].ply, i + 1);
  }
  EXPECT_EQ(review_json(b)["start"], format_position(whole.positions()[2]));
  EXPECT_EQ(review_game(tb, GameRecord(rules, whole.current())).plies.size(), 0u);
  // Legal, but no game reaches it: a line stands, and stood before Black's last move.
  const State unreachable = parse_position("C/T/c/C/t/-/c w", kStandard);
  EXPECT_THROW(review_game(tb, GameRecord(rules, unreachable)), UnreachablePosition);
  // The walk stops when asked to, between plies.
  ReviewOptions stop;
  stop.interrupt = Interrupt().until(Interrupt::Clock::now());
  EXPECT_THROW(review_game(tb, whole, stop), Interrupted);
}

// Whether playing `m` in `st` ends the game by a line, by the rules' own end
// test (not a player's filter): the mover lost at once.
bool forms_line(const Rules& rules, State st, const Move& m) {
  const std::optional<GameEnd> end = game_end(rules, apply_move(st, m));
  return end && end->reason == EndReason::kLine;
}

// The levels offered to people err as people do, never by forming a line
// when another move exists: over every reachable position of small readings
// (each level's whole set of candidate moves, as its strategy rule states it,
// and the move it picks with a few seeds).
TEST(PeopleLevels, NoLevelFormsALineWhenAnotherMoveExists) {
  for (const char* name : {"standard-2c1t", "cap3-board-2c1t", "cap2-projective-colour-2c1t"}) {
    const Variant v = rules_named(name);
    const Tablebase& tb = table_of(v);
    const Rules rules(v);
    std::vector<StrategyRule> levels;
    for (const PlayerLevel& level : player_levels())
      levels.push_back(player_rule(parse_player(level.name), &tb));
    std::uint64_t tempting = 0;  // positions with a line-forming move and another move
    for_each_ongoing_position(rules, [&](State st) {
      const std::vector<Move> moves = legal_moves(rules, st);
      const auto lines = std::count_if(moves.begin(), moves.end(),
                                       [&](const Move& m) { return forms_line(rules, st, m); });
      if (lines == 0 || lines == std::ptrdiff_t(moves.size())) return;
      ++tempting;
      const GameRecord game(rules, st);
      for (const StrategyRule& level : levels) {
        for (const Move& m : level.allowed(game))
          ASSERT_FALSE(forms_line(rules, st, m)) << name << " " << level.name << " may play "
                                                 << format_move(m) << " in " << format_position(st);
        for (std::uint64_t seed = 0; seed < 2; ++seed) {
          Rng rng = game_rng(seed, st.code);
          const Move m = choose_player_move(parse_player(level.name), &tb, game, rng).move;
          ASSERT_FALSE(forms_line(rules, st, m)) << name << " " << level.name;
        }
      }
    });
    EXPECT_GT(tempting, 100u) << name;  // the check met many such positions
  }
}

// The same in the standard game, along games with their history (rule 3):
// every level against random play, each of its moves checked.
TEST(PeopleLevels, NoLevelFormsALineInGamesOfTheStandardGame) {
  const Tablebase& tb = table_of(kStandard);
  const Rules rules(kStandard);
  std::uint64_t checked = 0;
  for (const PlayerLevel& level : player_levels()) {
    const PlayerSpec spec = parse_player(level.name);
    for (std::uint64_t i = 0; i < 60; ++i) {
      Rng rng = game_rng(7, i);
      GameRecord game(rules, kEmptyBoard);
      const Colour side = i % 2 ? Colour::kBlack : Colour::kWhite;
      while (!game.over()) {
        const State st = game.current();
        if (st.to_move() != side) {
          game.play(choose_player_move(PlayerSpec{PlayerKind::kRandom}, &tb, game, rng).move);
          continue;
        }
        const std::vector<Move> moves = legal_moves(rules, st);
        const bool other = std::any_of(moves.begin(), moves.end(),
                                       [&](const Move& m) { return !forms_line(rules, st, m); });
        const Move m = choose_player_move(spec, &tb, game, rng).move;
        if (other) {
          ASSERT_FALSE(forms_line(rules, st, m)) << level.name << " after " << game.move_list();
          ++checked;
        }
        game.play(m);
      }
    }
  }
  EXPECT_GT(checked, 1000u);
}

// horizon:H sees by the table what a depth-H search sees by searching: the
// same best moves as search:K for K = H (a plain minimax's scores, compared
// on positions of games with their history).
TEST(PeopleLevels, HorizonIsASearchOfThatDepth) {
  const Tablebase& tb = table_of(kStandard);
  const Rules rules(kStandard);
  std::size_t positions = 0, differ_from_greedy = 0;
  for (std::uint64_t i = 0; i < 40; ++i) {
    Rng rng = game_rng(11, i);
    GameRecord game(rules, kEmptyBoard);
    while (!game.over()) {
      for (const int h : {1, 2, 3}) {
        const std::vector<Move> horizon = horizon_moves(tb, game, h);
        ASSERT_EQ(horizon, search_best_moves(game, h))
            << "horizon:" << h << " after " << game.move_list();
        differ_from_greedy += h == 3 && horizon != greedy_moves(rules, game.current());
      }
      ++positions;
      game.play(choose_player_move(PlayerSpec{PlayerKind::kGreedy}, &tb, game, rng).move);
    }
  }
  EXPECT_GT(positions, 400u);
  EXPECT_GT(differ_from_greedy, 20u);  // the horizon matters, it is not greedy's filter
}

// horizon_score: wins and losses within the horizon, faster wins and slower
// losses higher; anything further scores as a draw.
TEST(PeopleLevels, HorizonScoresWhatItSees) {
  EXPECT_EQ(horizon_score({Value::kWin, 3}, 3), kSearchWin - 3);
  EXPECT_EQ(horizon_score({Value::kWin, 4}, 3), 0);
  EXPECT_EQ(horizon_score({Value::kLoss, 1}, 1), -(kSearchWin - 1));
  EXPECT_EQ(horizon_score({Value::kLoss, 2}, 1), 0);
  EXPECT_EQ(horizon_score({Value::kDraw, 0}, 99), 0);
  EXPECT_GT(horizon_score({Value::kLoss, 5}, 9), horizon_score({Value::kLoss, 1}, 9));
}

// A line is one JSON object and nothing else, each field given once: bytes
// after a NUL are not dropped unseen, and a second "position" is not a
// silent replacement of the first.
TEST(StrategyTable, ALineIsOneObjectWithEachFieldOnce) {
  const Variant v = rules_named("standard-2c1t");
  const std::string good = R"({"position": "-/-/-/-/-/-/- w", "moves": ["C1"]})";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {good + std::string(1, '\0') + "garbage", "a NUL byte at character 49"},
      {good + std::string(1, '\0'), "a NUL byte"},
      {R"({"position": "C/-/-/-/-/-/- b", "position": "-/-/-/-/-/-/- w", "moves": ["C1"]})",
       "the field 'position' is given twice"},
      {R"({"position": "-/-/-/-/-/-/- w", "moves": ["C1"], "moves": ["T2"]})",
       "the field 'moves' is given twice"},
  };
  for (const auto& [line, says] : bad) {
    SCOPED_TRACE(escape_text(line));
    try {
      parse_allowed_lines(line + "\n", v);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("line 1: ", 0), 0u) << what;
      EXPECT_NE(what.find(says), std::string::npos) << what;
    }
  }
  // The same keys inside a value are not the line's fields.
  EXPECT_EQ(parse_allowed_lines(good + "\n", v).moves.size(), 1u);
}

// What a bad line echoes is quoted by core's quote(): cut to a bounded length
// with its size said, control characters written out.
TEST(StrategyTable, EchoedInputIsQuotedAndCut) {
  const Variant v = rules_named("standard-2c1t");
  const std::string huge(60000, 'x');
  for (const std::string& line :
       {R"({"position": ")" + huge + R"(", "moves": ["C1"]})",
        R"({"position": "-/-/-/-/-/-/- w", "moves": [")" + huge + R"("]})",
        R"({"position": "-/-/-/-/-/-/- w", "moves": [[")" + huge + R"("]]})",
        R"({")" + huge + R"(": 1})", std::string(R"({"\u001b[2J\u0007": 1})")}) {
    try {
      parse_allowed_lines(line, v);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_LT(what.size(), 400u) << what;
      EXPECT_EQ(what.find('\x1b'), std::string::npos) << escape_text(what);
      EXPECT_EQ(what.find('\x07'), std::string::npos) << escape_text(what);
      if (line.size() > 1000) {
        EXPECT_NE(what.find("...' ("), std::string::npos) << what;
      } else {
        EXPECT_NE(what.find("'\\x1b[2J\\x07'"), std::string::npos) << what;
      }
    }
  }
}

// Fed a line at a time, the reader names a bad line when it is given, before
// any later line exists (the CLI streams a file through it).
TEST(StrategyTable, ReaderRefusesABadLineWhenFed) {
  AllowedLinesReader reader(rules_named("standard-2c1t"));
  reader.add(R"({"position": "-/-/-/-/-/-/- w", "moves": ["C1"]})");
  reader.add("   ");
  try {
    reader.add(R"({"position": "-/-/-/-/-/-/- w", "moves": ["T1"]})");
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("line 3: ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("given twice"), std::string::npos) << e.what();
  }
  EXPECT_THROW(AllowedLinesReader(rules_named("standard-2c1t")).finish(), std::invalid_argument);
}

// P of perfect:P has one grammar: 0 or 1, or either with a point and 1 to 4
// digits; every other spelling strtod would read (signs, exponents, hex, nan,
// inf) is refused, and the name echoes an accepted P in a form read back.
TEST(Players, PerfectPIsAPlainDecimalFromZeroToOne) {
  const std::vector<std::pair<std::string, double>> good = {
      {"0", 0},         {"1", 1},      {"0.5", 0.5},     {"0.80", 0.8}, {"1.0", 1},
      {"0.0001", 1e-4}, {"1.0000", 1}, {"0.125", 0.125}, {"0.0", 0},    {"0.9999", 0.9999}};
  for (const auto& [p, value] : good) {
    SCOPED_TRACE(p);
    const PlayerSpec spec = parse_player("perfect:" + p);
    EXPECT_EQ(spec.probability, value);
    const PlayerSpec again = parse_player(player_name(spec));
    EXPECT_EQ(again.probability, value) << player_name(spec);
  }
  for (const std::string p :
       {"1e-400", "-0",     "-1e-400", "0x1p-1", "1e309",   "nan",  "inf",  "-inf",
        "1.5",    "1.0001", ".5",      "0.",     "0.00001", "+0.5", " 0.5", "0.5 ",
        "0,5",    "",       "00.5",    "2",      "1e-1",    "0.5x"}) {
    SCOPED_TRACE(p);
    try {
      parse_player("perfect:" + p);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("a decimal from 0 to 1"), std::string::npos) << e.what();
    }
  }
}

// Under 1 GiB of address space (the sanitizer build bounds time only).
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kAllowedMemoryBound = "";
#else
constexpr const char* kAllowedMemoryBound = "ulimit -v 1048576; ";
#endif

// --allowed is read a line at a time: an endless or huge input stops at its
// first bad line with exit 2, in bounded memory (read whole, /dev/urandom and
// an endless pipe ran out of memory with exit 1).
TEST(StrategyCommand, AllowedStopsAtTheFirstBadLineOfAnEndlessInput) {
  testing::TempDir dir;
  const std::string table = (dir / "t.fanotb").string();
  ASSERT_EQ(testing::run_fano({"solve", "--rules", "standard-2c1t", "--out", table}).exit_code, 0);
  const std::string fano = "timeout 120 " + testing::shell_quote(FANO_BIN) + " strategy --tb " +
                           testing::shell_quote(table) + " --allowed ";
  const auto run = [&](const std::string& cmd) {
    testing::RunResult r;
    const std::optional<int> status =
        testing::run_shell(std::string(kAllowedMemoryBound) + cmd + " 2>&1", r.out);
    if (status && WIFEXITED(*status)) r.exit_code = WEXITSTATUS(*status);
    return r;
  };
  const std::string line = R"({"position": "-/-/-/-/-/-/- w", "moves": ["C1"]})";
  const testing::RunResult endless = run("yes " + testing::shell_quote(line) + " | " + fano + "-");
  EXPECT_EQ(endless.exit_code, 2) << endless.out;
  EXPECT_NE(endless.out.find("--allowed '-': line 2: -/-/-/-/-/-/- w is given twice"),
            std::string::npos)
      << endless.out;
  const testing::RunResult random = run(fano + "/dev/urandom");
  EXPECT_EQ(random.exit_code, 2) << random.out;
  EXPECT_NE(random.out.find("line 1"), std::string::npos) << random.out;
  EXPECT_LT(random.out.size(), 500u) << random.out;
  // A large file whose second line is bad: refused at line 2, the rest unread.
  const std::string file = (dir / "big.jsonl").string();
  {
    std::ofstream out(file, std::ios::binary);
    out << line << "\n{\"position\": 1}\n";
    const std::string filler(1 << 20, 'x');
    for (int i = 0; i < 64; ++i) out << filler << "\n";
  }
  const testing::RunResult big = run(fano + testing::shell_quote(file));
  EXPECT_EQ(big.exit_code, 2) << big.out;
  EXPECT_NE(big.out.find(": line 2: no \"position\""), std::string::npos) << big.out;
  // Bytes after a NUL are refused, not dropped.
  testing::write_text(file, line + std::string(1, '\0') + "garbage\n");
  const testing::RunResult nul = run(fano + testing::shell_quote(file));
  EXPECT_EQ(nul.exit_code, 2) << nul.out;
  EXPECT_NE(nul.out.find("line 1: a NUL byte at character 49"), std::string::npos) << nul.out;
}

// --limit and --max-positions take a count or "none"; a negative number is
// refused (it was read as 2^64 - 1: no bound); --restarts is bounded.
TEST(StrategyCommand, CountsAreNonNegativeOrNone) {
  testing::TempDir dir;
  const std::string table = (dir / "t.fanotb").string();
  ASSERT_EQ(testing::run_fano({"solve", "--rules", "standard-2c1t", "--out", table}).exit_code, 0);
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--traps", "2", "--limit", "-1"},
        {"--single-draw", "4", "--limit", "-1"},
        {"--single-draw", "4", "--limit", "1x"},
        {"--player", "greedy", "--max-positions", "-1"},
        {"--player", "greedy", "--max-positions", "0"},
        {"--player", "greedy", "--max-positions", "18446744073709551616"},
        {"--size", "--restarts", "1000000000"},
        {"--size", "--restarts", "10001"}}) {
    std::vector<std::string> args{"strategy", "--tb", table};
    args.insert(args.end(), bad.begin(), bad.end());
    const auto e = testing::run_fano(args);
    EXPECT_EQ(e.exit_code, 2) << testing::command_line(args) << ": " << e.err;
    EXPECT_EQ(e.err_lines(), 1) << e.err;
  }
  // "none" lists every trap; a count lists that many.
  const auto all =
      testing::run_fano({"strategy", "--tb", table, "--traps", "2", "--limit", "none", "--json"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const auto one =
      testing::run_fano({"strategy", "--tb", table, "--traps", "2", "--limit", "1", "--json"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const nlohmann::json a = testing::parse_json(all.out)["traps"];
  const nlohmann::json o = testing::parse_json(one.out)["traps"];
  const TrapReport lib = find_traps(table_of(rules_named("standard-2c1t")), 2, SIZE_MAX);
  ASSERT_GT(lib.ranked.size(), 1u);
  EXPECT_EQ(a["ranked"].size(), lib.ranked.size());
  EXPECT_EQ(o["ranked"].size(), 1u);
  const auto bounded = testing::run_fano(
      {"strategy", "--tb", table, "--player", "random", "--max-positions", "5", "--json"});
  ASSERT_EQ(bounded.exit_code, 0) << bounded.err;
  EXPECT_FALSE(testing::parse_json(bounded.out)["results"][0]["decided"].get<bool>());
}

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
        if (grade) {
          EXPECT_EQ(a->grade, *grade);
        }
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
