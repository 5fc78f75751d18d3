// fano selfplay and its players (analysis/players.hpp, selfplay.hpp): each
// player checked against an independent statement of its definition, the
// statistics recomputed from the games, determinism across thread counts, the
// command's errors, and every number of results/selfplay.md recomputed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/grade.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/selfplay.hpp"
#include "fano/symmetry.hpp"
#include "fano/table_files.hpp"
#include "support.hpp"

namespace fano {
namespace {

using testing::RunResult;
using testing::TempDir;

// One table for the whole suite, solved into a temporary folder.
class Selfplay : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    const RunResult r =
        testing::run_fano({"solve", "--out", (dir_->path() / "standard.fanotb").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    tb_ = new Tablebase(open_tablebase((dir_->path() / "standard.fanotb").string(), kStandard));
  }
  static void TearDownTestSuite() {
    delete tb_;
    delete dir_;
  }
  static const Tablebase& tb() { return *tb_; }
  static std::string table_dir() { return dir_->path().string(); }

  static inline TempDir* dir_ = nullptr;
  static inline Tablebase* tb_ = nullptr;
};

const Rules kRules(kStandard);

std::vector<PlayerSpec> every_player() {
  std::vector<PlayerSpec> out;
  for (const char* name : {"random", "greedy", "search:1", "search:2", "search:3", "perfect",
                           "engine", "keeping", "cover", "nonlosing", "perfect:0", "perfect:0.8",
                           "perfect:1", "perfect:0.125", "horizon:2", "horizon:8"})
    out.push_back(parse_player(name));
  for (const MirrorMap m : kAllMirrorMaps) out.push_back({PlayerKind::kMirror, 0, m});
  return out;
}

// Lines of three tops of one colour or one shape, read from the stacks directly.
bool line_stands(State st) {
  for (const auto& line : kLineSpaces) {
    if (st.empty(line[0]) || st.empty(line[1]) || st.empty(line[2])) continue;
    const Piece a = st.top(line[0]), b = st.top(line[1]), c = st.top(line[2]);
    if ((colour_of(a) == colour_of(b) && colour_of(b) == colour_of(c)) ||
        (shape_of(a) == shape_of(b) && shape_of(b) == shape_of(c)))
      return true;
  }
  return false;
}

// Plain minimax on game records: GameRecord applies rules 1-3 by itself.
int plain_minimax(const GameRecord& game, int depth, int ply) {
  if (const auto end = game.end()) {
    if (end->reason == EndReason::kRepetition) return 0;
    return *end->loser == game.current().to_move() ? -(kSearchWin - ply) : kSearchWin - ply;
  }
  if (depth == 0) return 0;
  int best = -1000000;
  for (const Move& m : legal_moves(game.rules(), game.current())) {
    GameRecord next = game;
    next.play(m);
    best = std::max(best, -plain_minimax(next, depth - 1, ply + 1));
  }
  return best;
}

// Games of every pairing (a few each), as records, for the per-move checks.
std::vector<GameRecord> sample_games(const Tablebase& tb, int per_pair) {
  std::vector<GameRecord> out;
  const auto players = every_player();
  for (std::size_t w = 0; w < players.size(); ++w)
    for (std::size_t b = 0; b < players.size(); b += 3) {
      SelfplayOptions o{players[w], players[(b + w) % players.size()], 1, 77 + w, 1};
      for (int i = 0; i < per_pair; ++i) out.push_back(play_selfplay_game(kRules, &tb, o, i));
    }
  return out;
}

TEST(Players, ParseAndName) {
  for (const PlayerSpec& p : every_player()) EXPECT_EQ(parse_player(player_name(p)), p);
  EXPECT_EQ(parse_player("search:8").depth, 8);
  EXPECT_EQ(parse_player("horizon:12"), (PlayerSpec{PlayerKind::kHorizon, 12}));
  EXPECT_EQ(player_name(parse_player("horizon:99")), "horizon:99");
  EXPECT_EQ(parse_player("perfect:0.80").probability, 0.8);
  EXPECT_EQ(player_name(parse_player("perfect:0.80")), "perfect:0.8");
  for (const char* bad : {"",
                          "Random",
                          "perfect:1e-1",
                          "search:",
                          "search:0",
                          "search:9",
                          "search:2x",
                          "mirror:",
                          "mirror:flip",
                          "perfect ",
                          "perfect:",
                          "perfect:1.5",
                          "perfect:-0.1",
                          "perfect:x",
                          "perfect:0.5x",
                          "perfect:nan",
                          "Nonlosing",
                          "horizon:",
                          "horizon:0",
                          "horizon:100",
                          "horizon:3x",
                          "horizon:-1"})
    EXPECT_THROW(parse_player(bad), std::invalid_argument) << bad;
}

TEST(Players, RngIsSeededPerGameAndUniform) {
  Rng a = game_rng(1, 0), b = game_rng(1, 0), c = game_rng(1, 1), d = game_rng(2, 0);
  const std::uint64_t x = a.next();
  EXPECT_EQ(x, b.next());
  EXPECT_NE(x, c.next());
  EXPECT_NE(x, d.next());
  Rng r(5);
  std::array<int, 7> counts{};
  for (int i = 0; i < 70000; ++i) ++counts[r.below(7)];
  for (const int n : counts) EXPECT_NEAR(n, 10000, 500);
}

// The maps, recomputed from coordinates of the printed board: corners 6 top,
// 5 bottom-left, 3 bottom-right, centre 7 at the origin, midpoints 1 (6-5),
// 2 (5-3), 4 (3-6).
TEST(Players, MirrorMapsAreTheGeometricMapsOfThePrintedBoard) {
  const double r3 = std::sqrt(3.0);
  const std::array<std::pair<double, double>, 7> xy{{{-r3 / 4, 0.25},  // 1
                                                     {0, -0.5},        // 2
                                                     {r3 / 2, -0.5},   // 3
                                                     {r3 / 4, 0.25},   // 4
                                                     {-r3 / 2, -0.5},  // 5
                                                     {0, 1},           // 6
                                                     {0, 0}}};         // 7
  // Rotation by a (anticlockwise), then an optional reflection in the line at angle b.
  struct Geo {
    MirrorMap map;
    bool reflect;
    double angle;  // rotation angle, or the mirror axis' angle
  };
  const double pi = std::acos(-1.0);
  const std::vector<Geo> geos{{MirrorMap::kCopy, false, 0},
                              {MirrorMap::kReflectX, true, 0},
                              {MirrorMap::kReflectY, true, pi / 2},
                              {MirrorMap::kHalfTurn, false, pi},
                              {MirrorMap::kRotate120, false, 2 * pi / 3},
                              {MirrorMap::kRotate240, false, 4 * pi / 3},
                              {MirrorMap::kReflect5, true, pi / 2 + 2 * pi / 3},
                              {MirrorMap::kReflect3, true, pi / 2 - 2 * pi / 3}};
  const auto symmetries = move_graph_symmetries(Adjacency::kBoard);
  ASSERT_EQ(symmetries.size(), 6u);
  std::set<Permutation> found;
  for (const Geo& g : geos) {
    Permutation perm{};
    bool whole = true;
    for (int s = 0; s < kSpaces; ++s) {
      const auto [x, y] = xy[s];
      double u, v;
      if (g.reflect) {
        const double c = std::cos(2 * g.angle), d = std::sin(2 * g.angle);
        u = c * x + d * y, v = d * x - c * y;
      } else {
        const double c = std::cos(g.angle), d = std::sin(g.angle);
        u = c * x - d * y, v = d * x + c * y;
      }
      int image = -1;
      for (int t = 0; t < kSpaces; ++t)
        if (std::hypot(u - xy[t].first, v - xy[t].second) < 1e-9) image = t;
      EXPECT_EQ(mirror_image(g.map, s), image) << mirror_map_name(g.map) << " of " << s + 1;
      whole &= image >= 0;
      perm[s] = std::uint8_t(std::max(image, 0));
    }
    const bool symmetric =
        std::find(symmetries.begin(), symmetries.end(), perm) != symmetries.end();
    const bool expected = g.map != MirrorMap::kReflectX && g.map != MirrorMap::kHalfTurn;
    EXPECT_EQ(whole, expected) << mirror_map_name(g.map);
    EXPECT_EQ(symmetric, expected) << mirror_map_name(g.map);
    if (symmetric) found.insert(perm);
  }
  EXPECT_EQ(found.size(), 6u) << "the six maps that are symmetries are the whole group";
}

TEST_F(Selfplay, EveryPlayersMovesAreLegal) {
  std::size_t moves = 0;
  for (const GameRecord& game : sample_games(tb(), 3)) {
    ASSERT_TRUE(game.over());
    for (std::size_t p = 0; p < game.plies(); ++p) {
      const auto legal = legal_moves(kRules, game.positions()[p]);
      EXPECT_NE(std::find(legal.begin(), legal.end(), game.moves()[p]), legal.end());
      EXPECT_EQ(apply_move(game.positions()[p], game.moves()[p]), game.positions()[p + 1]);
      if (p + 1 < game.plies()) {
        EXPECT_FALSE(game_end(kRules, game.positions()[p + 1])) << "played on after the end";
      }
      ++moves;
    }
  }
  EXPECT_GT(moves, 2000u);
}

// At every position of sampled games: the player's move against its definition.
TEST_F(Selfplay, PlayersFollowTheirDefinitions) {
  std::size_t checked_perfect = 0, checked_greedy = 0, checked_cover = 0, checked_mirror = 0;
  std::size_t checked_nonlosing = 0, best_at_half = 0, draws_at_half = 0;
  int fallbacks = 0;
  Rng rng(99);
  for (const GameRecord& full : sample_games(tb(), 2)) {
    GameRecord game(kRules, full.start());
    for (std::size_t p = 0; p < full.plies(); ++p) {
      const State st = game.current();
      const auto legal = legal_moves(kRules, st);
      // perfect: a move of the best result under the history (rate_moves).
      {
        const Move m = choose_player_move(parse_player("perfect"), &tb(), game, rng).move;
        const auto rated = rate_moves(tb(), game);
        const auto it = std::find_if(rated.begin(), rated.end(),
                                     [&](const RatedMove& r) { return r.move == m; });
        ASSERT_NE(it, rated.end());
        EXPECT_EQ(it->result, rated.front().result) << format_position(st) << " " << format_move(m);
        ++checked_perfect;
      }
      // nonlosing: over 40 draws, exactly the moves whose result is not a
      // loss (every move when each loses); perfect:1 only best moves,
      // perfect:0 any move, perfect:0.5 a best move about half the time
      // more often than uniform play would.
      {
        const auto rated = rate_moves(tb(), game);
        const auto result_of = [&](const Move& m) {
          return std::find_if(rated.begin(), rated.end(),
                              [&](const RatedMove& r) { return r.move == m; })
              ->result;
        };
        std::set<std::string> expected, seen;
        for (const Move& m : legal)
          if (result_of(m).value != Value::kLoss) expected.insert(format_move(m));
        if (expected.empty())
          for (const Move& m : legal) expected.insert(format_move(m));
        for (int k = 0; k < 40; ++k)
          seen.insert(
              format_move(choose_player_move(parse_player("nonlosing"), &tb(), game, rng).move));
        for (const std::string& m : seen) EXPECT_TRUE(expected.count(m)) << m;
        if (expected.size() <= 4) {
          EXPECT_EQ(seen, expected) << format_position(st);
        }
        ++checked_nonlosing;
        EXPECT_EQ(result_of(choose_player_move(parse_player("perfect:1"), &tb(), game, rng).move),
                  rated.front().result);
        const Move any = choose_player_move(parse_player("perfect:0"), &tb(), game, rng).move;
        EXPECT_NE(std::find(legal.begin(), legal.end(), any), legal.end());
        const bool all_best = std::all_of(rated.begin(), rated.end(), [&](const RatedMove& r) {
          return r.result == rated.front().result;
        });
        if (!all_best) {
          ++draws_at_half;
          best_at_half +=
              result_of(choose_player_move(parse_player("perfect:0.5"), &tb(), game, rng).move) ==
              rated.front().result;
        }
      }
      // greedy: never a move that forms a line when another move forms none.
      {
        bool safe_exists = false;
        for (const Move& m : legal) safe_exists |= !line_stands(apply_move(st, m));
        const Move m = choose_player_move(parse_player("greedy"), nullptr, game, rng).move;
        EXPECT_NE(std::find(legal.begin(), legal.end(), m), legal.end());
        if (safe_exists) {
          EXPECT_FALSE(line_stands(apply_move(st, m))) << format_position(st);
        }
        ++checked_greedy;
      }
      // cover: onto the space of the opponent's last piece whenever a legal move goes there.
      if (game.plies() > 0) {
        const int target = game.moves().back().to;
        const bool can_cover =
            std::any_of(legal.begin(), legal.end(), [&](const Move& m) { return m.to == target; });
        std::set<std::string> seen;
        for (int k = 0; k < 40; ++k)
          seen.insert(
              format_move(choose_player_move(parse_player("cover"), nullptr, game, rng).move));
        std::set<std::string> expected;
        for (const Move& m : legal)
          if (!can_cover || m.to == target) expected.insert(format_move(m));
        if (expected.size() <= 4) {
          EXPECT_EQ(seen, expected) << format_position(st);
        }
        for (const std::string& m : seen) EXPECT_TRUE(expected.count(m)) << m;
        ++checked_cover;
      }
      // mirror: the image of the last move when it is legal.
      if (game.plies() > 0) {
        const Move last = game.moves().back();
        for (const MirrorMap map : kAllMirrorMaps) {
          const int to = mirror_image(map, last.to);
          const int from = last.is_placement() ? -1 : mirror_image(map, last.from);
          std::optional<Move> image;
          for (const Move& m : legal)
            if (to >= 0 && m.to == to &&
                (last.is_placement() ? m.is_placement() && shape_of(m.piece) == shape_of(last.piece)
                                     : from >= 0 && m.from == from))
              image = m;
          const PlayerMove pm =
              choose_player_move(PlayerSpec{PlayerKind::kMirror, 0, map}, nullptr, game, rng);
          EXPECT_TRUE(pm.mirrored);
          EXPECT_EQ(pm.fallback, !image.has_value());
          if (image) {
            EXPECT_EQ(pm.move, *image);
          }
          fallbacks += pm.fallback;
          ++checked_mirror;
        }
      }
      game.play(full.moves()[p]);
    }
  }
  EXPECT_GT(checked_perfect, 500u);
  EXPECT_GT(checked_nonlosing, 500u);
  // perfect:0.5 where some moves are not best: at least half its moves are best.
  EXPECT_GT(draws_at_half, 200u);
  EXPECT_GE(2 * best_at_half, draws_at_half);
  EXPECT_LT(best_at_half, draws_at_half);
  EXPECT_GT(checked_greedy, 500u);
  EXPECT_GT(checked_cover, 400u);
  EXPECT_GT(checked_mirror, 3000u);
  EXPECT_GT(fallbacks, 100);
}

TEST_F(Selfplay, MirrorOpensOnTheCentreAndCopiesAPlacement) {
  GameRecord game(kRules);
  Rng rng(3);
  const PlayerMove first = choose_player_move(parse_player("mirror:copy"), nullptr, game, rng);
  EXPECT_FALSE(first.mirrored);
  EXPECT_TRUE(first.move.is_placement());
  EXPECT_EQ(first.move.to, 6);
  game.play("T4");
  const PlayerMove reply = choose_player_move(parse_player("mirror:reflect-y"), nullptr, game, rng);
  EXPECT_EQ(format_move(reply.move), "t1");  // reflect-y: 4 -> 1, the same shape
  const PlayerMove copy = choose_player_move(parse_player("mirror:copy"), nullptr, game, rng);
  EXPECT_EQ(format_move(copy.move), "t4");
  const PlayerMove rot = choose_player_move(parse_player("mirror:rotate-120"), nullptr, game, rng);
  EXPECT_EQ(format_move(rot.move), "t1");  // 4 -> 1 under the turn by 120 degrees
  const PlayerMove half = choose_player_move(parse_player("mirror:half-turn"), nullptr, game, rng);
  EXPECT_TRUE(half.fallback);  // 4 has no image on the board
}

TEST_F(Selfplay, SearchMatchesAPlainMinimax) {
  std::size_t compared = 0, nonzero = 0;
  const auto games = sample_games(tb(), 1);
  for (std::size_t g = 0; g < games.size(); g += 4) {
    const GameRecord& full = games[g];
    GameRecord game(kRules, full.start());
    for (std::size_t p = 0; p < full.plies(); ++p) {
      if (p % 3 == 0 || p + 2 >= full.plies()) {
        const auto moves = legal_moves(kRules, game.current());
        for (int depth = 1; depth <= 3; ++depth) {
          const std::vector<int> scores = search_move_scores(game, depth);
          ASSERT_EQ(scores.size(), moves.size());
          for (std::size_t i = 0; i < moves.size(); ++i) {
            GameRecord next = game;
            next.play(moves[i]);
            EXPECT_EQ(scores[i], -plain_minimax(next, depth - 1, 1))
                << format_position(game.current()) << " " << format_move(moves[i]) << " depth "
                << depth;
            nonzero += scores[i] != 0;
            ++compared;
          }
          // The player picks among the best-scored moves.
          const auto best = search_best_moves(game, depth);
          const int top = *std::max_element(scores.begin(), scores.end());
          for (std::size_t i = 0; i < moves.size(); ++i)
            EXPECT_EQ(std::find(best.begin(), best.end(), moves[i]) != best.end(),
                      scores[i] == top);
        }
      }
      game.play(full.moves()[p]);
    }
  }
  EXPECT_GT(compared, 3000u);
  EXPECT_GT(nonzero, 300u);
}

// A search that reaches an earlier position of the game scores it a draw.
TEST_F(Selfplay, SearchSeesRepetitions) {
  std::size_t repeats = 0;
  for (const GameRecord& full : sample_games(tb(), 2)) {
    if (!full.end() || full.end()->reason != EndReason::kRepetition) continue;
    GameRecord game(kRules, full.start());
    for (std::size_t p = 0; p + 1 < full.plies(); ++p) game.play(full.moves()[p]);
    const auto moves = legal_moves(kRules, game.current());
    const auto scores = search_move_scores(game, 1);
    for (std::size_t i = 0; i < moves.size(); ++i)
      if (moves[i] == full.moves().back()) {
        EXPECT_EQ(scores[i], 0);
        ++repeats;
      }
  }
  EXPECT_GT(repeats, 5u);
}

// The statistics of a run, recomputed from its games' records.
TEST_F(Selfplay, StatisticsAreRecomputedFromTheGames) {
  for (const auto& [w, b] : std::vector<std::pair<const char*, const char*>>{
           {"random", "random"}, {"greedy", "perfect"}, {"mirror:reflect-y", "search:2"}}) {
    SelfplayOptions o{parse_player(w), parse_player(b), 150, 4242, 2};
    const SelfplayReport r = run_selfplay(kRules, &tb(), o);
    std::uint64_t white = 0, black = 0, draws = 0, moves = 0, legal = 0, lines = 0;
    std::uint64_t mirrored = 0, fallbacks = 0;
    double log_tree = 0;
    std::vector<double> lengths;
    for (std::size_t i = 0; i < o.games; ++i) {
      GameSummary s;
      const GameRecord game = play_selfplay_game(kRules, &tb(), o, i, &s);
      // The winner from the final position, by hand.
      const State last = game.current();
      if (line_stands(last)) {
        ++(last.to_move() == Colour::kWhite ? white : black);
        ++lines;
      } else if (legal_moves(kRules, last).empty()) {
        ++(last.to_move() == Colour::kWhite ? black : white);
      } else {
        ++draws;
        EXPECT_GE(game.repeated_ply(), 0);
      }
      moves += game.plies();
      lengths.push_back(double(game.plies()));
      for (std::size_t p = 0; p < game.plies(); ++p) {
        const auto n = legal_moves(kRules, game.positions()[p]).size();
        legal += n;
        log_tree += std::log10(double(n));
      }
      mirrored += s.mirrored[0] + s.mirrored[1];
      fallbacks += s.fallbacks[0] + s.fallbacks[1];
      // The summary run_selfplay kept is the one of this replay.
      EXPECT_EQ(r.games[i].plies, game.plies());
    }
    const SelfplayStats& st = r.stats;
    EXPECT_EQ(st.games, o.games);
    EXPECT_EQ(st.white_wins.count, white);
    EXPECT_EQ(st.black_wins.count, black);
    EXPECT_EQ(st.draws.count, draws);
    EXPECT_EQ(st.moves, moves);
    EXPECT_EQ(st.lost_at_once.count, lines);
    EXPECT_DOUBLE_EQ(st.mean_plies, double(moves) / double(o.games));
    std::sort(lengths.begin(), lengths.end());
    EXPECT_DOUBLE_EQ(st.median_plies, (lengths[74] + lengths[75]) / 2);
    EXPECT_DOUBLE_EQ(st.mean_branching, double(legal) / double(moves));
    EXPECT_NEAR(st.mean_log10_tree, log_tree / double(o.games), 1e-9);
    EXPECT_DOUBLE_EQ(st.white_score, (double(white) + 0.5 * double(draws)) / double(o.games));
    EXPECT_EQ(st.mirrored[0] + st.mirrored[1], mirrored);
    EXPECT_EQ(st.fallbacks[0] + st.fallbacks[1], fallbacks);
  }
}

// Wilson intervals against values computed by hand from the formula.
TEST(SelfplayStats, WilsonInterval) {
  const Proportion p = wilson(20, 100);
  EXPECT_NEAR(p.low, 0.13337, 1e-5);
  EXPECT_NEAR(p.high, 0.28883, 1e-5);
  const Proportion zero = wilson(0, 2000);
  EXPECT_NEAR(zero.low, 0, 1e-15);
  EXPECT_NEAR(zero.high, 0.00192, 1e-5);
  const Proportion all = wilson(1, 1);
  EXPECT_NEAR(all.low, 0.2065, 5e-5);
  EXPECT_EQ(all.high, 1);
}

TEST_F(Selfplay, DeterministicAtAnyThreadCount) {
  for (const auto& [w, b] : std::vector<std::pair<const char*, const char*>>{
           {"random", "perfect"}, {"search:2", "engine"}, {"cover", "mirror:copy"}}) {
    std::string first;
    for (const int threads : {1, 2, 3, 0}) {
      SelfplayOptions o{parse_player(w), parse_player(b), 120, 7, threads};
      const std::string text = json_text(selfplay_json(run_selfplay(kRules, &tb(), o)));
      if (first.empty()) first = text;
      EXPECT_EQ(text, first) << w << " " << b << " threads " << threads;
    }
  }
  // The tool: the same bytes with 1 and 2 threads.
  const std::string tb_path = table_dir() + "/standard.fanotb";
  const auto run = [&](const std::string& threads) {
    return testing::run_fano({"selfplay", "--white", "greedy", "--black", "engine", "--games",
                              "300", "--seed", "5", "--threads", threads, "--tb", tb_path,
                              "--json"});
  };
  const RunResult one = run("1"), two = run("2");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  const nlohmann::json j = testing::parse_json(one.out);
  EXPECT_EQ(j["games"], 300);
  EXPECT_EQ(j["white_wins"]["count"].get<int>() + j["draws"]["count"].get<int>() +
                j["black_wins"]["count"].get<int>(),
            300);
  EXPECT_EQ(j["white_wins"]["count"], 0) << "the engine never loses";
}

// A built-in player graded as White (Black) plays the very games of a
// selfplay run with the same seed, and each graded move is judged as a
// separate rating of the game so far judges it.
TEST_F(Selfplay, GradePlaysSelfplaysGamesAndJudgesEachMove) {
  const PlayerSpec player = parse_player("perfect:0.6"), opponent = parse_player("random");
  for (const GradeSide side : {GradeSide::kWhite, GradeSide::kBlack}) {
    GradeOptions g;
    g.opponent = opponent;
    g.games = 40;
    g.seed = 13;
    g.side = side;
    const GradeReport r = grade_player(kRules, tb(), GradedPlayer{player, {}, ""}, g);
    const bool white = side == GradeSide::kWhite;
    SelfplayOptions o{white ? player : opponent, white ? opponent : player, 40, 13, 1};
    std::uint64_t kept = 0, moves = 0, blunders = 0, missed = 0;
    for (std::size_t i = 0; i < g.games; ++i) {
      const GameRecord game = play_selfplay_game(kRules, &tb(), o, i);
      const auto end = game.end();
      ASSERT_TRUE(end);
      std::optional<Colour> winner;
      if (end->loser) winner = fano::opponent(*end->loser);
      EXPECT_EQ(r.winners[i], winner) << i;
      // Each of the graded player's moves, rated again from the record.
      GameRecord replay(kRules);
      for (const Move& m : game.moves()) {
        if (replay.current().to_move() == (white ? Colour::kWhite : Colour::kBlack)) {
          const auto rated = rate_moves(tb(), replay);
          const Value best = rated.front().result.value;
          for (const RatedMove& x : rated)
            if (x.move == m) {
              ++moves;
              kept += x.result.value == best;
              blunders += x.result.value != best;
              missed += best == Value::kWin && x.result.value != Value::kWin;
            }
        }
        replay.play(m);
      }
    }
    EXPECT_EQ(r.moves[0] + r.moves[1], moves);
    EXPECT_EQ(r.kept.count, kept);
    EXPECT_EQ(r.blunders[0] + r.blunders[1], blunders);
    EXPECT_EQ(r.missed_wins, missed);
    EXPECT_GT(blunders, 0u);
    const SelfplayReport run = run_selfplay(kRules, &tb(), o);
    EXPECT_EQ(r.wins.count, white ? run.stats.white_wins.count : run.stats.black_wins.count);
    EXPECT_EQ(r.draws.count, run.stats.draws.count);
  }
}

TEST_F(Selfplay, FromAPosition) {
  const std::string tb_path = table_dir() + "/standard.fanotb";
  const RunResult r =
      testing::run_fano({"selfplay", "--white", "perfect", "--black", "random", "--from",
                         "-/-/-/-/-/-/C b", "--games", "50", "--tb", tb_path, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = testing::parse_json(r.out);
  EXPECT_EQ(j["from"], "-/-/-/-/-/-/C b");
  // C7 loses for White in 13 plies against perfect Black; against random Black, White
  // (perfect) cannot lose more games than it wins here only if Black errs: just check the total.
  EXPECT_EQ(j["white_wins"]["count"].get<int>() + j["draws"]["count"].get<int>() +
                j["black_wins"]["count"].get<int>(),
            50);
  EXPECT_NE(j["command"].get<std::string>().find("--from '-/-/-/-/-/-/C b'"), std::string::npos);
}

TEST_F(Selfplay, BadInput) {
  const std::string tb_path = table_dir() + "/standard.fanotb";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--white", "random"},
           {"--white", "rand", "--black", "random"},
           {"--white", "search:0", "--black", "random"},
           {"--white", "random", "--black", "mirror:flip"},
           {"--white", "random", "--black", "random", "--games", "0"},
           {"--white", "random", "--black", "random", "--threads", "-1"},
           {"--white", "random", "--black", "random", "--from", "C/T/c/C/t/T/t b"},
           {"--white", "random", "--black", "random", "--from", "x"},
           {"--white", "random", "--black", "random", "--json", "--markdown"},
           {"--white", "horizon:0", "--black", "random"},
           {"--list-players", "--white", "random"},
           {"--list-players", "--markdown"}}) {
    std::vector<std::string> full{"selfplay"};
    full.insert(full.end(), args.begin(), args.end());
    const RunResult r = testing::run_fano(full);
    EXPECT_EQ(r.exit_code, 2) << testing::command_line(full) << "\n" << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  const RunResult missing = testing::run_fano({"selfplay", "--white", "perfect", "--black",
                                               "random", "--tb", table_dir() + "/none.fanotb"});
  EXPECT_EQ(missing.exit_code, testing::exit_code_of(TablebaseErrorKind::kMissing)) << missing.err;
  EXPECT_EQ(missing.err_lines(), 1);
}

// The cells of a markdown row, trimmed.
std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> out;
  std::size_t b = 1;
  while (b < line.size()) {
    const std::size_t e = line.find(" | ", b);
    const std::string cell = line.substr(b, (e == std::string::npos ? line.size() - 1 : e) - b);
    out.push_back(cell.substr(cell.find_first_not_of(' ')));
    if (e == std::string::npos) break;
    b = e + 2;
  }
  return out;
}

// "41.20 [39.05, 43.38]" -> {41.20, 39.05, 43.38}.
std::array<double, 3> interval(const std::string& cell) {
  std::array<double, 3> v{-1, -1, -1};
  std::sscanf(cell.c_str(), "%lf [%lf, %lf]", &v[0], &v[1], &v[2]);
  return v;
}

// results/selfplay.md: every row of its tables is re-run with its own command
// (the row's last cell) and must come out the same; the maps table and the
// arithmetic on Ai Ai's figures are recomputed.
TEST_F(Selfplay, ResultsFileIsReproduced) {
  const std::string path = std::string(FANO_SOURCE_DIR) + "/results/selfplay.md";
  const std::string text = testing::read_text(path);
  ASSERT_FALSE(text.empty()) << "cannot read " << path;
  std::istringstream in(text);
  std::string line;
  std::size_t rows = 0;
  std::map<std::string, std::string> rerun;               // command -> its row, each run once
  std::map<std::string, std::vector<std::string>> cells;  // command -> the row's cells
  const std::string header = selfplay_markdown_header();
  EXPECT_NE(text.find(header), std::string::npos) << "the tables' header is not the tool's";
  const std::regex command_cell("\\| `fano selfplay ([^`]*)` \\|$");
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.rfind("|---", 0) == 0) continue;
    if (header.find(line) != std::string::npos) continue;
    std::smatch m;
    // The maps table's header and the players table (no numbers).
    if (line.rfind("| map ", 0) == 0 || line.rfind("| player ", 0) == 0 ||
        line.rfind("| `", 0) == 0)
      continue;
    if (line.find("`fano selfplay") == std::string::npos) {
      // The maps table: "| name | images of 1..7 | symmetry |".
      const std::regex map_row("^\\| ([a-z0-9-]+) \\| ([0-9-]( [0-9-]){6}) \\| (yes|no) \\|$");
      std::smatch mm;
      ASSERT_TRUE(std::regex_match(line, mm, map_row)) << "a table row without a command: " << line;
      const PlayerSpec p = parse_player("mirror:" + mm[1].str());
      std::string images;
      bool whole = true;
      for (int s = 0; s < kSpaces; ++s) {
        const int im = mirror_image(p.map, s);
        images += (s ? " " : "") + (im < 0 ? std::string("-") : std::to_string(im + 1));
        whole &= im >= 0;
      }
      EXPECT_EQ(mm[2].str(), images) << line;
      EXPECT_EQ(mm[4].str() == "yes", whole) << line;
      continue;
    }
    ASSERT_TRUE(std::regex_search(line, m, command_cell)) << line;
    const std::string args = m[1].str();
    if (!rerun.count(args)) {
      std::string out;
      const std::string cmd = "FANO_QUIET=1 FANO_TABLES=" + testing::shell_quote(table_dir()) +
                              " " + testing::shell_quote(FANO_BIN) + " selfplay " + args +
                              " --markdown 2>&1";
      const auto status = testing::run_shell(cmd, out);
      ASSERT_TRUE(status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << cmd << "\n" << out;
      ASSERT_EQ(out.rfind(header, 0), 0u) << out;
      rerun[args] = out.substr(header.size());
    }
    EXPECT_EQ(line + "\n", rerun[args]) << "results/selfplay.md is out of date (run "
                                           "results/selfplay.sh)";
    cells[args] = split_row(line);
    ++rows;
  }
  EXPECT_GE(rows, 40u);
  // The trap table's claims: against each fallible opponent, as each colour,
  // engine and keeping never lose and win more than perfect with disjoint
  // intervals; the engine wins more than keeping as White and draws fewer as Black.
  const auto run = [&](const std::string& w,
                       const std::string& b) -> const std::vector<std::string>& {
    const std::string key = "--white " + w + " --black " + b + " --games 2000 --seed 1";
    EXPECT_TRUE(cells.count(key)) << "no row for " << key;
    return cells[key];
  };
  const auto [wins_w, draws_w] = std::pair{3, 4};  // cells: White wins, draws, Black wins
  for (const std::string o : {"greedy", "search:2", "search:3"}) {
    for (const bool engine_white : {true, false}) {
      const auto& perfect = engine_white ? run("perfect", o) : run(o, "perfect");
      const int wins = engine_white ? wins_w : wins_w + 2,
                losses = engine_white ? wins_w + 2 : wins_w;
      for (const std::string p : {"keeping", "engine"}) {
        const auto& row = engine_white ? run(p, o) : run(o, p);
        if (row.size() < 7 || perfect.size() < 7) continue;
        EXPECT_EQ(interval(row[std::size_t(losses)])[0], 0) << p << " lost against " << o;
        EXPECT_GT(interval(row[std::size_t(wins)])[1], interval(perfect[std::size_t(wins)])[2])
            << p << " against " << o << (engine_white ? " as White" : " as Black");
      }
      const auto& engine = engine_white ? run("engine", o) : run(o, "engine");
      const auto& keeping = engine_white ? run("keeping", o) : run(o, "keeping");
      if (engine.size() < 7 || keeping.size() < 7) continue;
      if (engine_white)
        EXPECT_GT(interval(engine[std::size_t(wins)])[0], interval(keeping[std::size_t(wins)])[0])
            << o;
      else
        EXPECT_LT(interval(engine[std::size_t(draws_w)])[0],
                  interval(keeping[std::size_t(draws_w)])[0])
            << o;
    }
  }
  // Ai Ai's complexity against its branching factor and game length.
  char buf[160];
  std::snprintf(buf, sizeof buf, "8.05^23.77 = 10^%.2f", 23.77 * std::log10(8.05));
  EXPECT_NE(text.find(buf), std::string::npos) << buf;
  std::snprintf(buf, sizeof buf, "8.05^%.2f", 19.90 / std::log10(8.05));
  EXPECT_NE(text.find(buf), std::string::npos) << buf;
  std::snprintf(buf, sizeof buf, "%.2f^23.77", std::pow(10.0, 19.90 / 23.77));
  EXPECT_NE(text.find(buf), std::string::npos) << buf;
}

// results/levels.json: the ratings of the levels offered to people.
nlohmann::json levels_results() {
  return testing::parse_json(
      testing::read_text(std::string(FANO_SOURCE_DIR) + "/results/levels.json"));
}

// The output of a shell command and whether it exited 0.
std::pair<std::string, bool> shell_output(const std::string& cmd) {
  std::string out;
  const auto status = testing::run_shell(cmd, out);
  return {out, status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0};
}

// player_levels() is the measured list: the offered players of
// results/levels.json in its order (strongest first) with its ratings and
// intervals, labels and descriptions; the generated C++ data is what
// bench/levels.py writes from the JSON, and results/levels.md is what it lays
// out from the JSON (the fit recomputed from the runs' counts).
TEST(Levels, ListIsTheMeasuredOrderAndRatings) {
  const nlohmann::json d = levels_results();
  std::vector<nlohmann::json> offered;
  int greedy = -1, previous = 1 << 30;
  for (const nlohmann::json& r : d["ratings"]) {
    EXPECT_LE(r["rating"].get<int>(), previous) << "not strongest first: " << r;
    previous = r["rating"].get<int>();
    if (r["offered"].get<bool>()) offered.push_back(r);
    if (r["name"] == "greedy") greedy = r["rating"].get<int>();
  }
  const std::span<const PlayerLevel> levels = player_levels();
  ASSERT_EQ(offered.size(), levels.size()) << "run bench/levels.py: the levels changed";
  ASSERT_GE(levels.size(), 4u);
  ASSERT_LE(levels.size(), 6u);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const PlayerLevel& l = levels[i];
    const nlohmann::json& r = offered[i];
    EXPECT_EQ(r["name"], std::string(l.name)) << "the order differs from results/levels.json";
    EXPECT_EQ(r["label"], std::string(l.label));
    EXPECT_EQ(r["description"], std::string(l.description));
    EXPECT_EQ(r["rating"].get<int>(), l.rating) << l.name;
    EXPECT_EQ(r["interval"], nlohmann::json::array({l.low, l.high})) << l.name;
    EXPECT_LT(l.low, l.rating);
    EXPECT_GT(l.high, l.rating);
    if (i > 0) {
      EXPECT_GT(levels[i - 1].rating, l.rating) << "two levels of one strength";
    }
  }
  // The weakest level is not measurably worse than greedy.
  ASSERT_GE(greedy, 0);
  EXPECT_GE(levels.back().high, greedy);
  EXPECT_EQ(d["anchor"], (nlohmann::json{{"name", "greedy"}, {"rating", 1000}}));
  // The readings the page offers by default: the four named ones.
  std::vector<std::string> readings;
  for (const Variant& v : kAllVariants) readings.push_back(variant_slug(v));
  EXPECT_EQ(d["variants"].get<std::vector<std::string>>(), readings);
  const std::string script =
      testing::shell_quote(std::string(FANO_SOURCE_DIR) + "/bench/levels.py");
  const std::string json =
      testing::shell_quote(std::string(FANO_SOURCE_DIR) + "/results/levels.json");
  const auto [page, rendered] = shell_output("python3 " + script + " --render " + json + " 2>&1");
  ASSERT_TRUE(rendered) << page;
  EXPECT_EQ(page, testing::read_text(std::string(FANO_SOURCE_DIR) + "/results/levels.md"))
      << "results/levels.md is not what bench/levels.py lays out from results/levels.json";
  const auto [data, written] = shell_output("python3 " + script + " --inc " + json + " 2>&1");
  ASSERT_TRUE(written) << data;
  EXPECT_EQ(data,
            testing::read_text(std::string(FANO_SOURCE_DIR) + "/analysis/src/level_ratings.inc"))
      << "analysis/src/level_ratings.inc is not bench/levels.py's from results/levels.json";
}

// A slice of the tournament (every 25th run, all readings) played again from
// the command each run recorded: the same counts (the seed decides the games).
TEST_F(Selfplay, LevelsTournamentIsReproducedFromItsSeed) {
  const nlohmann::json d = levels_results();
  for (const nlohmann::json& v : d["variants"]) {
    const std::string slug = v;
    if (slug == "standard") continue;
    const RunResult r = testing::run_fano(
        {"solve", "--rules", slug, "--out", table_dir() + "/" + slug + ".fanotb"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const nlohmann::json& runs = d["runs"];
  const std::size_t players = d["ratings"].size();
  EXPECT_EQ(runs.size(), d["variants"].size() * players * (players - 1));
  std::size_t checked = 0;
  for (std::size_t i = 0; i < runs.size(); i += 25) {
    const nlohmann::json& run = runs[i];
    std::string command = run["command"];
    ASSERT_EQ(command.rfind("fano selfplay ", 0), 0u) << command;
    EXPECT_NE(command.find("--white " + run["white"].get<std::string>() + " --black " +
                           run["black"].get<std::string>()),
              std::string::npos)
        << command;
    const auto [out, ok] =
        shell_output("FANO_QUIET=1 FANO_TABLES=" + testing::shell_quote(table_dir()) + " " +
                     testing::shell_quote(FANO_BIN) + command.substr(4) + " --threads 2 --json");
    ASSERT_TRUE(ok) << command << "\n" << out;
    const nlohmann::json j = testing::parse_json(out);
    EXPECT_EQ(j["white_wins"]["count"], run["white_wins"]) << command;
    EXPECT_EQ(j["draws"]["count"], run["draws"]) << command;
    EXPECT_EQ(j["black_wins"]["count"], run["black_wins"]) << command;
    ++checked;
  }
  EXPECT_GE(checked, 10u);
}

// fano selfplay --list-players: the one list, as text (one level a line,
// strongest first) and as the API's JSON.
TEST(Levels, ListPlayersPrintsTheList) {
  const RunResult json = testing::run_fano({"selfplay", "--list-players", "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(testing::parse_json(json.out), testing::parse_json(json_text(player_levels_json())));
  const RunResult text = testing::run_fano({"selfplay", "--list-players"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  std::size_t at = 0;
  for (const PlayerLevel& l : player_levels()) {
    const std::size_t line = text.out.find("\n" + std::string(l.label) + " ", at);
    ASSERT_NE(line, std::string::npos) << l.label << " missing or out of order:\n" << text.out;
    const std::size_t end = text.out.find('\n', line + 1);
    const std::string row = text.out.substr(line + 1, end - line - 1);
    EXPECT_NE(row.find(" " + std::string(l.name) + " "), std::string::npos) << row;
    EXPECT_NE(row.find("rating " + std::to_string(l.rating) + " [" + std::to_string(l.low) + ", " +
                       std::to_string(l.high) + "]"),
              std::string::npos)
        << row;
    at = end;
  }
}

}  // namespace
}  // namespace fano
