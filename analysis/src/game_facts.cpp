#include "fano/game_facts.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "fano/analysis.hpp"
#include "fano/board.hpp"
#include "fano/code_table.hpp"
#include "fano/geometry.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"
#include "fano/symmetry.hpp"

namespace fano {
namespace {

// The positions a breadth-first search reached, in the order reached, each
// with the index of the position it was first reached from and the move
// that reached it; index finds a code's position. A flat table of 32-bit
// indices (the solver's, fano/code_table.hpp) rather than a node map, whose
// allocations per position dominated the search (results/cold-solve.md).
struct Reached {
  std::vector<std::uint64_t> codes;
  std::vector<std::uint32_t> parent;
  std::vector<Move> move;
  detail::CodeTable::Shard index{std::size_t(1) << 16};

  // Adds code (first reached from position `from` by m) unless it was
  // reached before; returns whether it was new.
  bool add(std::uint64_t code, std::uint32_t from, Move m) {
    const auto key_of = [this](std::uint32_t i) { return codes[i]; };
    index.reserve(codes.size() + 1, [&](auto&& f) {
      for (std::uint32_t i = 0; i < codes.size(); ++i) f(i, codes[i]);
    });
    bool fresh = false;
    const std::uint32_t slot = index.insert(code, key_of, fresh);
    if (!fresh) return false;
    if (codes.size() >= detail::CodeTable::kValueMask)
      throw std::length_error("more reachable positions than a search one by one can number");
    index.set_value(slot, code, std::uint32_t(codes.size()));
    codes.push_back(code), parent.push_back(from), move.push_back(m);
    return true;
  }
  // The moves from the empty board to position i, along first discoveries.
  std::vector<Move> path_to(std::uint32_t i) const {
    std::vector<Move> moves;
    for (; i != 0; i = parent[i]) moves.push_back(move[i]);
    std::reverse(moves.begin(), moves.end());
    return moves;
  }
};

// Breadth-first over the reachable positions (no move from an ended game),
// children in the rules' move order. visit(state, depth, index) is called
// once per position in BFS order and returns false to stop. A layer is a stretch of
// consecutive positions.
template <class Visit>
Reached bfs(const Rules& rules, Visit&& visit) {
  Reached r;
  r.add(kEmptyBoard.code, 0, Move{});
  for (std::size_t begin = 0, end = 1, depth = 0; begin < end;
       begin = end, end = r.codes.size(), ++depth) {
    for (std::size_t i = begin; i < end; ++i) {
      const State st{r.codes[i]};
      if (!visit(st, int(depth), std::uint32_t(i))) return r;
      if (game_over(rules, st) != GameOver::kNone) continue;
      for_each_move(rules, st,
                    [&](const Move& m, State child) { r.add(child.code, std::uint32_t(i), m); });
    }
  }
  return r;
}

Json moves_json(const std::vector<Move>& moves) {
  Json a = Json::array();
  for (const Move& m : moves) a.push_back(format_move(m));
  return a;
}

std::string action_name(bool placement, int a, int b) {
  return placement
             ? std::string(a == int(Shape::kCircle) ? "Round" : "Triangle") + std::to_string(b + 1)
             : std::to_string(a + 1) + "-" + std::to_string(b + 1);
}

}  // namespace

GameFacts game_facts(const Rules& rules) {
  GameFacts f;
  f.variant = rules.variant;
  // placed[shape][space], moved[from][to]; coloured[colour][action index]
  std::array<std::array<bool, kSpaces>, 2> placed{};
  std::array<std::array<bool, kSpaces>, kSpaces> moved{};
  std::array<std::array<bool, 2 * kSpaces + kSpaces * kSpaces>, 2> coloured{};
  // The ended positions at the shallowest depth of each kind, by index.
  std::vector<std::uint32_t> placement_ends, no_move_ends;
  int placement_depth = -1, no_move_depth = -1;
  const Reached reached = bfs(rules, [&](State st, int depth, std::uint32_t i) {
    ++f.reachable;
    const GameOver over = game_over(rules, st);
    if (over == GameOver::kLine && depth <= rules.total_pieces()) {
      // A line formed by one of the placements.
      if (placement_depth < 0) placement_depth = depth;
      if (depth == placement_depth) placement_ends.push_back(i);
    }
    if (over == GameOver::kNoMove) {
      if (no_move_depth < 0) no_move_depth = depth;
      if (depth == no_move_depth) no_move_ends.push_back(i);
    }
    if (over != GameOver::kNone) return true;
    const int colour = int(st.to_move());
    for_each_move(rules, st, [&](const Move& m, State) {
      const int shape = int(shape_of(m.piece));
      if (m.is_placement()) {
        placed[shape][m.to] = true;
        coloured[colour][shape * kSpaces + m.to] = true;
      } else {
        moved[m.from][m.to] = true;
        coloured[colour][2 * kSpaces + m.from * kSpaces + m.to] = true;
      }
    });
    return true;
  });
  ActionCount& a = f.actions;
  for (int shape = 0; shape < 2; ++shape)
    for (int s = 0; s < kSpaces; ++s) {
      ++a.placements_by_rules;
      if (placed[shape][s])
        ++a.placements_occurring;
      else
        a.never_occurring.push_back(action_name(true, shape, s));
    }
  for (int from = 0; from < kSpaces; ++from)
    for (int to = 0; to < kSpaces; ++to) {
      if (!(rules.neighbours[from] >> to & 1)) continue;
      ++a.movements_by_rules;
      if (moved[from][to])
        ++a.movements_occurring;
      else
        a.never_occurring.push_back(action_name(false, from, to));
    }
  for (const auto& c : coloured) a.coloured_occurring += int(std::count(c.begin(), c.end(), true));
  const auto shortest = [&](const std::vector<std::uint32_t>& ends, int depth, GameOver how) {
    std::optional<ShortestGame> g;
    if (depth < 0) return g;
    g = ShortestGame{depth, ends.size(), reached.path_to(ends.front()), how};
    return g;
  };
  f.shortest_placement_end = shortest(placement_ends, placement_depth, GameOver::kLine);
  f.shortest_no_move = shortest(no_move_ends, no_move_depth, GameOver::kNoMove);
  return f;
}

std::vector<Move> shortest_path_to(const Rules& rules, State target) {
  bool found = false;
  std::uint32_t at = 0;
  const Reached reached = bfs(rules, [&](State st, int, std::uint32_t i) {
    at = i;
    return !(found = st == target);
  });
  if (!found) throw UnreachablePosition(target);
  return reached.path_to(at);
}

LongestWin longest_forced_win(const Tablebase& tb) {
  std::optional<std::size_t> best;
  int plies = -1;
  for (std::size_t i = 0; i < tb.size(); ++i) {
    const Outcome o = tb.outcome_at(i);
    if (o.value == Value::kWin && o.plies > plies) plies = o.plies, best = i;
  }
  if (!best) throw std::runtime_error(tb.name() + ": the table holds no forced win");
  const Rules rules(tb.variant());
  LongestWin w{tb.outcome_at(*best), tb.position_at(*best), {}, {}, std::nullopt};
  w.reach = shortest_path_to(rules, w.position);
  const GameRecord bare(rules, w.position);
  w.line = principal_variation(tb, bare).moves();
  GameRecord game(rules);
  for (const Move& m : w.reach) game.play(m);
  w.value_after_reach = game_value(tb, game);
  return w;
}

std::vector<BoardTransform> printed_board_transforms(Adjacency adjacency) {
  const auto group = move_graph_symmetries(adjacency);
  std::vector<BoardTransform> out;
  const std::array<std::pair<const char*, PlaneMap>, 3> kinds{
      {{"reflection (X axis)", PlaneMap::kReflectX},
       {"reflection (Y axis)", PlaneMap::kReflectY},
       {"rotation (half turn)", PlaneMap::kHalfTurn}}};
  for (const auto& [name, map] : kinds) {
    BoardTransform t{name, std::nullopt, false};
    Permutation perm{};
    bool all = true;
    const auto images = space_images(map);
    for (int s = 0; s < kSpaces; ++s) {
      all = all && images[s].has_value();
      perm[s] = std::uint8_t(images[s].value_or(0));
    }
    if (all) {
      t.perm = perm;
      t.symmetry = std::find(group.begin(), group.end(), perm) != group.end();
    }
    out.push_back(t);
  }
  return out;
}

Json board_transforms_json(const std::vector<BoardTransform>& t) {
  Json a = Json::array();
  for (const BoardTransform& b : t) {
    Json perm = nullptr;
    if (b.perm) {
      perm = Json::array();
      for (std::uint8_t s : *b.perm) perm.push_back(int(s) + 1);
    }
    a.push_back({{"name", b.name},
                 {"maps_spaces_to_spaces", b.perm.has_value()},
                 {"image_of_spaces_1_to_7", perm},
                 {"symmetry", b.symmetry}});
  }
  return a;
}

Json game_facts_json(const GameFacts& f) {
  Json o = variant_json(f.variant);
  o["reachable"] = f.reachable;
  const ActionCount& a = f.actions;
  o["actions"] = {{"placements_by_rules", a.placements_by_rules},
                  {"movements_by_rules", a.movements_by_rules},
                  {"by_rules", a.placements_by_rules + a.movements_by_rules},
                  {"placements_occurring", a.placements_occurring},
                  {"movements_occurring", a.movements_occurring},
                  {"occurring", a.placements_occurring + a.movements_occurring},
                  {"coloured_occurring", a.coloured_occurring},
                  {"never_occurring", a.never_occurring}};
  const auto game = [](const std::optional<ShortestGame>& g) -> Json {
    if (!g) return nullptr;
    return {{"plies", g->plies}, {"positions", g->positions}, {"line", moves_json(g->line)}};
  };
  o["shortest_placement_end"] = game(f.shortest_placement_end);
  o["shortest_no_move"] = game(f.shortest_no_move);
  return o;
}

Json longest_win_json(const LongestWin& w) {
  return {{"plies", w.value.plies},
          {"position", format_position(w.position)},
          {"reach", moves_json(w.reach)},
          {"line", moves_json(w.line)},
          {"value_after_reach",
           w.value_after_reach ? outcome_json(*w.value_after_reach) : Json(nullptr)}};
}

namespace {

// Whether White forces Black's loss within `depth` plies from `game`, Black
// restricted to cover_moves. A plain AND-OR search: no table, no symmetry.
bool white_forces(GameRecord& game, int depth) {
  if (const auto end = game.end()) return end->loser == Colour::kBlack;
  if (depth == 0) return false;
  const bool white = game.current().to_move() == Colour::kWhite;
  const std::vector<Move> moves =
      white ? legal_moves(game.rules(), game.current()) : cover_moves(game);
  for (const Move& m : moves) {
    game.play(m);
    const bool won = white_forces(game, depth - 1);
    game.undo();
    if (won == white) return white;
  }
  return !white;
}

// The smallest depth <= limit within which White forces the win, or -1.
int fastest(GameRecord& game, int limit) {
  for (int d = 0; d <= limit; ++d)
    if (white_forces(game, d)) return d;
  return -1;
}

}  // namespace

std::optional<CoverWin> fastest_win_against_cover(const Rules& rules, int max_plies) {
  GameRecord game(rules);
  int left = fastest(game, max_plies);
  if (left < 0) return std::nullopt;
  CoverWin out{left, {}};
  while (!game.over()) {
    assert(left > 0);
    const bool white = game.current().to_move() == Colour::kWhite;
    std::optional<Move> pick;
    int pick_left = white ? left : -1;
    for (const Move& m : white ? legal_moves(rules, game.current()) : cover_moves(game)) {
      game.play(m);
      const int d = fastest(game, left - 1);
      game.undo();
      if (white && d == left - 1) {  // the first move that keeps the win on schedule
        pick = m;
        break;
      }
      if (!white && d > pick_left) pick = m, pick_left = d;  // Black resists longest
    }
    assert(pick);
    game.play(*pick);
    out.line.push_back(*pick);
    left = white ? left - 1 : pick_left;
  }
  return out;
}

Json cover_win_json(const CoverWin& w) {
  return {{"plies", w.plies}, {"line", moves_json(w.line)}};
}

}  // namespace fano
