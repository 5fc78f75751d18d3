// Rule 3 under a game's history (fano/history.hpp) against a brute force
// written apart from the production code: the unreduced graph of every
// reachable position of the standard game, found by a plain breadth-first
// search, solved by a plain retrograde pass with the game's earlier positions
// made drawn ends.
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <unordered_map>
#include <unordered_set>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/history.hpp"
#include "fano/notation.hpp"
#include "fano/solver.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;

// Every reachable position and its successors, without symmetry.
struct FullGraph {
  std::vector<State> positions;
  std::unordered_map<std::uint64_t, std::uint32_t> index;
  std::vector<std::uint32_t> first;  // successors of i: succ[first[i] .. first[i+1])
  std::vector<std::uint32_t> succ;
  std::vector<std::uint32_t> pred_first, pred;  // predecessors, the same way
  std::vector<bool> ended;                      // a line stands or no move: the game is over
  std::vector<Value> ended_value;

  explicit FullGraph(const Rules& rules) {
    std::deque<std::uint32_t> queue;
    const auto add = [&](State s) {
      const auto [it, fresh] = index.emplace(s.code, std::uint32_t(positions.size()));
      if (fresh) {
        positions.push_back(s);
        queue.push_back(it->second);
      }
      return it->second;
    };
    add(kEmptyBoard);
    std::vector<std::vector<std::uint32_t>> out;
    while (!queue.empty()) {
      const std::uint32_t i = queue.front();
      queue.pop_front();
      const State s = positions[i];
      if (out.size() <= i) out.resize(i + 1);
      if (formed_lines(s)) continue;  // the mover formed a line: over
      for (const Move& m : legal_moves(rules, s)) {
        const std::uint32_t j = add(apply_move(s, m));
        if (out.size() <= i) out.resize(i + 1);
        out[i].push_back(j);
      }
    }
    out.resize(positions.size());
    first.push_back(0);
    ended.resize(positions.size());
    ended_value.resize(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
      succ.insert(succ.end(), out[i].begin(), out[i].end());
      first.push_back(std::uint32_t(succ.size()));
      // RULES.md: a standing line loses for the player who made it (the one
      // who just moved), so the side to move has won; no move loses.
      if (formed_lines(positions[i])) {
        ended[i] = true;
        ended_value[i] = Value::kWin;
      } else if (out[i].empty()) {
        ended[i] = true;
        ended_value[i] = Value::kLoss;
      }
    }
    std::vector<std::uint32_t> count(positions.size() + 1, 0);
    for (const std::uint32_t j : succ) ++count[j + 1];
    for (std::size_t i = 0; i < positions.size(); ++i) count[i + 1] += count[i];
    pred_first = count;
    pred.resize(succ.size());
    for (std::uint32_t i = 0; i < positions.size(); ++i)
      for (std::uint32_t k = first[i]; k < first[i + 1]; ++k) pred[count[succ[k]]++] = i;
  }

  // Values of every position when the positions `drawn` end the game drawn
  // on entry: plain retrograde analysis, one pass per ply.
  std::vector<Outcome> solve(const std::unordered_set<std::uint64_t>& drawn) const {
    const std::size_t n = positions.size();
    std::vector<int> open(n);  // successors not yet known to win for the opponent
    std::vector<bool> blocked(n, false), done(n, false);
    std::vector<Outcome> v(n);
    std::vector<std::uint32_t> level;
    for (std::uint32_t i = 0; i < n; ++i) {
      open[i] = int(first[i + 1] - first[i]);
      for (std::uint32_t k = first[i]; k < first[i + 1]; ++k)
        if (drawn.count(positions[succ[k]].code)) blocked[i] = true;
      if (ended[i]) {
        v[i] = Outcome{ended_value[i], 0};
        done[i] = true;
        level.push_back(i);
      }
    }
    for (int ply = 0; !level.empty(); ++ply) {
      std::vector<std::uint32_t> next;
      for (const std::uint32_t c : level) {
        if (drawn.count(positions[c].code)) continue;  // entering it is a draw
        for (std::uint32_t k = pred_first[c]; k < pred_first[c + 1]; ++k) {
          const std::uint32_t p = pred[k];
          if (done[p]) continue;
          if (v[c].value == Value::kLoss) {
            v[p] = Outcome{Value::kWin, std::uint16_t(ply + 1)};
            done[p] = true;
            next.push_back(p);
          } else if (--open[p] == 0 && !blocked[p]) {
            v[p] = Outcome{Value::kLoss, std::uint16_t(ply + 1)};
            done[p] = true;
            next.push_back(p);
          }
        }
      }
      level = std::move(next);
    }
    return v;  // the rest: draws
  }
};

const FullGraph& graph() {
  static const FullGraph g{Rules(kStandard)};
  return g;
}

const Tablebase& table() {
  // Solved here: tables are not committed.
  static const Tablebase tb =
      Tablebase::from_bytes(encode_solution(solve(kStandard)), "standard (solved)", kStandard);
  return tb;
}

// The brute force's rating of every move of the game's current position:
// the child's value, with every position of the game so far made a drawn end,
// seen by the mover (a repeating move is a draw).
std::vector<Outcome> brute_ratings(const GameRecord& game) {
  std::unordered_set<std::uint64_t> drawn;
  for (const State s : game.positions()) drawn.insert(s.code);
  const std::vector<Outcome> v = graph().solve(drawn);
  std::vector<Outcome> out;
  for (const Move& m : legal_moves(game.rules(), game.current())) {
    const State c = apply_move(game.current(), m);
    out.push_back(drawn.count(c.code) ? Outcome{} : outcome_for_mover(v[graph().index.at(c.code)]));
  }
  return out;
}

// The library's ratings in legal_moves order.
std::vector<Outcome> library_ratings(const GameRecord& game) {
  std::vector<Outcome> out;
  for (const Move& m : legal_moves(game.rules(), game.current())) {
    const auto rated = rate_moves(table(), game);
    for (const RatedMove& r : rated)
      if (r.move == m) out.push_back(r.result);
  }
  return out;
}

TEST(HistoryBruteForce, WithNoHistoryItEqualsTheTable) {
  const FullGraph& g = graph();
  EXPECT_EQ(g.positions.size(), table().header().reachable);
  const std::vector<Outcome> v = g.solve({});
  std::size_t wins = 0, losses = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_EQ(v[i], *table().probe(g.positions[i])) << format_position(g.positions[i]);
    wins += v[i].value == Value::kWin;
    losses += v[i].value == Value::kLoss;
  }
  EXPECT_EQ(wins, table().header().win);
  EXPECT_EQ(losses, table().header().loss);
}

// Whether the history changes any rating of the current position (the
// library's view, used only to pick records worth checking).
bool history_matters(const GameRecord& rec) {
  for (const RatedMove& r : rate_moves(table(), rec))
    if (!(r.result == outcome_for_mover(*table().probe(r.child)))) return true;
  return false;
}

void expect_ratings_match_brute_force(const GameRecord& rec) {
  SCOPED_TRACE(rec.move_list());
  const std::vector<Outcome> brute = brute_ratings(rec), lib = library_ratings(rec);
  ASSERT_EQ(lib.size(), brute.size());
  const auto moves = legal_moves(rec.rules(), rec.current());
  for (std::size_t i = 0; i < brute.size(); ++i)
    EXPECT_EQ(lib[i], brute[i]) << format_move(moves[i]) << ": library " << outcome_text(lib[i])
                                << ", brute force " << outcome_text(brute[i]);
}

// A game of 9 to 48 random plies (fewer if it ends); a careful one avoids
// forming lines when it can, to go deep into the movement phase.
GameRecord random_game(const Rules& rules, std::mt19937& rng, bool careful) {
  GameRecord rec(rules);
  const int length = 9 + int(rng() % 40);
  while (!rec.over() && int(rec.plies()) < length) {
    auto moves = legal_moves(rules, rec.current());
    if (careful) moves = careful_moves(rec.current(), moves);
    rec.play(moves[rng() % moves.size()]);
  }
  return rec;
}

// Seeded random games into the movement phase: four where the history changes
// some rating and two where it changes none, each against the brute force.
TEST(HistoryBruteForce, RandomRecords) {
  const Rules rules(kStandard);
  std::mt19937 rng(20261203);
  int changed = 0, unchanged = 0;
  for (int game = 0; game < 5000 && (changed < 4 || unchanged < 2); ++game) {
    GameRecord rec = random_game(rules, rng, game % 2 == 1);
    if (rec.over()) rec.undo();
    if (rec.current().placement_phase()) continue;
    const bool matters = history_matters(rec);
    if (matters ? changed >= 4 : unchanged >= 2) continue;
    (matters ? changed : unchanged)++;
    expect_ratings_match_brute_force(rec);
  }
  EXPECT_EQ(changed, 4);
  EXPECT_EQ(unchanged, 2);
}

// Records in which the history turns the table's value into another, pinned
// with the brute force's verdict (found by a seeded random search).
TEST(HistoryBruteForce, ConstructedRecords) {
  const Rules rules(kStandard);
  struct Case {
    const char* what;
    const char* moves;
    Outcome table, history;
  };
  const Case cases[] = {
      {"a loss becomes a draw",
       "C7,c6,T2,c5,T4,t4,C5,t6,2-1,6-7,1-6,7-1,7-3,1-2,5-7,5-7,3-2,4-1,4-3,1-5,3-4",
       {Value::kLoss, 3},
       {Value::kDraw, 0}},
      {"a win becomes a draw",
       "C1,c1,T2,t5,C7,t4,T5,c7,2-4,1-6,4-3,6-1",
       {Value::kWin, 4},
       {Value::kDraw, 0}},
      {"a win takes longer",
       "T4,c7,T1,t5,C6,t3,C7,c3,6-4,5-2,1-6,2-5",
       {Value::kWin, 8},
       {Value::kWin, 12}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const GameRecord rec = GameRecord::from_moves(rules, kEmptyBoard, c.moves);
    EXPECT_EQ(*table().probe(rec.current()), c.table);
    // The brute force's value of the position: the best of its ratings.
    const std::vector<Outcome> ratings = brute_ratings(rec);
    ASSERT_FALSE(ratings.empty());
    Outcome best = ratings[0];
    for (const Outcome o : ratings)
      if (better_for_mover(o, best)) best = o;
    EXPECT_EQ(best, c.history) << outcome_text(best);
    const PositionReport r = analyse(table(), rec);
    EXPECT_EQ(r.value, c.history) << outcome_text(r.value);
    EXPECT_EQ(r.table_value, c.table);
    EXPECT_FALSE(r.history_note.empty());
    expect_ratings_match_brute_force(rec);
  }
}

// The engine under the history: when the history gives it a draw where the
// table says loss it steers into a repetition; when winning it never lets one
// happen and wins in exactly the plies the history allows.
TEST(HistoryEngine, PlaysTheHistoryAwareValue) {
  const Rules rules(kStandard);
  std::mt19937 rng(77);
  int wins = 0, saved = 0;
  for (int game = 0; game < 40000 && (wins < 20 || saved < 10); ++game) {
    GameRecord rec = random_game(rules, rng, game % 2 == 1);
    if (rec.over() || rec.current().placement_phase()) continue;
    const Outcome value = game_value(table(), rec);
    const Outcome tv = *table().probe(rec.current());
    const bool win = value.value == Value::kWin,
               save = value.value == Value::kDraw && tv.value == Value::kLoss;
    if (!(win && wins < 20) && !(save && saved < 10)) continue;
    (win ? wins : saved)++;
    SCOPED_TRACE(rec.move_list());
    const GameRecord line = principal_variation(table(), rec, 400);
    const auto end = line.end();
    ASSERT_TRUE(end) << "the engine's game did not end";
    const Colour side = rec.current().to_move();
    if (win) {
      EXPECT_NE(end->reason, EndReason::kRepetition) << line.move_list();
      ASSERT_TRUE(end->loser.has_value());
      EXPECT_EQ(*end->loser, opponent(side));
      EXPECT_EQ(line.plies() - rec.plies(), value.plies);
    } else {
      EXPECT_EQ(end->reason, EndReason::kRepetition) << line.move_list();
    }
  }
  EXPECT_EQ(wins, 20);
  EXPECT_EQ(saved, 10);
}

// Each variant's table, solved once here (tables are not committed).
const Tablebase& table_of(const Variant& v) {
  static std::map<std::string, Tablebase> tables;
  const std::string slug = variant_slug(v);
  if (!tables.count(slug)) tables.emplace(slug, in_memory_tablebase(solve(v), slug));
  return tables.at(slug);
}

class HistoryReport : public ::testing::TestWithParam<Variant> {};

// The variation of a draw is the engine's own line (principal_variation, run
// to the usual bound of 1000 plies with a history of its own), cut after
// max_drawn_pv_plies with pv_continues_drawn, or whole when it ends first at
// the repetition. The values are those of a separate rate_moves, and the game
// at the cut is still a draw under its history.
TEST_P(HistoryReport, DrawnVariationIsTheEnginesLineCutWithContinuesDrawn) {
  const Variant v = GetParam();
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  const AnalysisOptions defaults;
  std::mt19937 rng(20261205);
  int cut = 0, ended = 0;
  for (int game = 0; game < 2000 && cut + ended < 8; ++game) {
    GameRecord rec = random_game(rules, rng, game % 2 == 1);
    if (rec.over() || rec.current().placement_phase()) continue;
    const PositionReport r = analyse(tb, rec);
    if (r.value.value != Value::kDraw) continue;
    SCOPED_TRACE(rec.move_list());
    const std::vector<RatedMove> rated = rate_moves(tb, rec);
    ASSERT_EQ(r.moves.size(), rated.size());
    for (std::size_t i = 0; i < rated.size(); ++i) {
      EXPECT_EQ(r.moves[i].move, rated[i].move);
      EXPECT_EQ(r.moves[i].result, rated[i].result);
    }
    const GameRecord full = principal_variation(tb, rec, 1000);
    const std::vector<Move> line(full.moves().begin() + std::ptrdiff_t(rec.plies()),
                                 full.moves().end());
    ASSERT_LE(r.pv.size(), line.size());
    EXPECT_TRUE(std::equal(r.pv.begin(), r.pv.end(), line.begin()));
    if (line.size() <= defaults.max_drawn_pv_plies && full.over()) {
      ++ended;
      EXPECT_EQ(r.pv.size(), line.size());
      ASSERT_TRUE(r.pv_end);
      EXPECT_EQ(r.pv_end->reason, EndReason::kRepetition);
      EXPECT_FALSE(r.pv_continues_drawn);
    } else {
      ++cut;
      EXPECT_EQ(r.pv.size(), defaults.max_drawn_pv_plies);
      EXPECT_FALSE(r.pv_end);
      EXPECT_TRUE(r.pv_continues_drawn);
      GameRecord at_cut = rec;
      for (const Move& m : r.pv) at_cut.play(m);
      EXPECT_EQ(at_cut.current(), r.pv_positions.back());
      EXPECT_FALSE(at_cut.over());
      EXPECT_EQ(game_value(tb, at_cut).value, Value::kDraw);
      EXPECT_TRUE(report_json(r)["pv_continues_drawn"].get<bool>());
      EXPECT_TRUE(principal_variation_json(r)["continues_drawn"].get<bool>());
      EXPECT_TRUE(principal_variation_json(r)["end"].is_null());
    }
  }
  EXPECT_EQ(cut + ended, 8);
  // In the standard game the engine's drawn lines repeat within 72 plies;
  // in the others most wander for hundreds (results: bench --history).
  if (v == kStandard)
    EXPECT_GT(ended, 0);
  else
    EXPECT_GT(cut, 0);
}

// A set flag or a past deadline stops the analysis with Interrupted; an
// Interrupt that never fires changes nothing.
TEST_P(HistoryReport, AnInterruptStopsTheAnalysis) {
  const Variant v = GetParam();
  const Tablebase& tb = table_of(v);
  const Rules rules(v);
  std::mt19937 rng(11);
  GameRecord rec = random_game(rules, rng, true);
  while (rec.over()) rec.undo();
  const auto expect_stopped = [&](const Interrupt& i, Interrupted::Reason reason) {
    AnalysisOptions o;
    o.interrupt = i;
    try {
      (void)analyse(tb, rec, o);
      ADD_FAILURE() << "analyse was not interrupted";
    } catch (const Interrupted& e) {
      EXPECT_EQ(e.reason(), reason);
    }
    EXPECT_THROW((void)principal_variation(tb, rec, 1000, i), Interrupted);
  };
  auto flag = std::make_shared<std::atomic<bool>>(true);
  expect_stopped(Interrupt::when_set(flag), Interrupted::Reason::kCancelled);
  expect_stopped(Interrupt().until(Interrupt::Clock::now()), Interrupted::Reason::kDeadline);

  flag->store(false);
  AnalysisOptions o;
  o.interrupt = Interrupt::when_set(flag).until(Interrupt::Clock::now() + std::chrono::hours(1));
  const PositionReport a = analyse(tb, rec, o), b = analyse(tb, rec);
  EXPECT_EQ(report_json(a), report_json(b));
}

INSTANTIATE_TEST_SUITE_P(AllVariants, HistoryReport, ::testing::ValuesIn(kAllVariants),
                         variant_param_name);

// A game that never reached the movement phase: its history cannot recur
// (every move adds a piece), so the ratings are the table's.
TEST(HistoryBruteForce, PlacementHistoryGivesTheTablesValues) {
  const Rules rules(kStandard);
  std::mt19937 rng(3);
  for (int game = 0; game < 30; ++game) {
    GameRecord rec(rules);
    const int length = 1 + int(rng() % 7);
    while (!rec.over() && int(rec.plies()) < length)
      rec.play(careful_moves(rec.current(), legal_moves(rules, rec.current()))[0]);
    if (rec.over()) continue;
    for (const RatedMove& r : rate_moves(table(), rec))
      EXPECT_EQ(r.result, outcome_for_mover(*table().probe(r.child))) << rec.move_list();
  }
}

}  // namespace
}  // namespace fano
