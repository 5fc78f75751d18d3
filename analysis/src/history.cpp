// Values under a game's history.
//
// Let G be the game graph the table solves (no history) and S the positions
// that occurred earlier in the game. Rule 3 ends the game drawn when a move
// enters a position of S, or any position visited again later.
//
// 1. The value of x in the real game equals its value in G_S, the graph G in
//    which every position of S is a drawn end (solved by the usual retrograde
//    analysis: wins fastest, losses slowest, the rest drawn). Positions first
//    visited after x need no special treatment: a winning strategy of G_S
//    moves from "win in d" to "loss in d-1" and the loser can only move to
//    "win in fewer than d", so along any game it allows, the plies to the end
//    strictly decrease and no position can occur twice; the side that holds a
//    draw in G_S keeps to drawn positions (or enters S), and a game that goes
//    on among them ends drawn by repetition sooner or later. So rule 3 on new
//    positions changes no result, and G_S is the whole story.
//
// 2. G_S never gives a side more than G does. A win in k of G_S is a strategy
//    tree that avoids S (entering S is a draw, and the loser may not be able
//    to enter it either), so it is a strategy tree of G: the position wins in
//    G in at most k plies. The same holds for a loss. Hence a draw of the table
//    stays a draw, and a decisive position either keeps its side's result
//    (the win or the loss possibly longer) or becomes a draw.
//
// 3. Which decisive positions can change at all? Call an edge x -> y a proof
//    edge when x is a win in d and y a loss in d-1 (an optimal winning move),
//    or x is a loss (every move of a lost position). The table's winning
//    strategies use proof edges only, and along them the plies strictly
//    decrease. If no path of proof edges leads from x to a position of S, the
//    table's strategy tree from x avoids S, so it still wins (or still loses)
//    in exactly the table's plies (by 2, it cannot do better). Only the draws
//    of S are harmless anyway: a proof never passes through a draw, and a
//    drawn end where there was a draw changes nothing.
//
// So: the region to recompute is the set of positions from which a path of
// proof edges reaches a decisive position of S, found by a backward search
// from those positions; every position outside it keeps the table's value.
// A retrograde pass over the region, with its outside children at their table
// values and the positions of S as drawn ends, gives the exact values. In the
// placement phase no earlier position can be reached again (every move adds a
// piece), so a game with no movement-phase history has the table's values.
#include "fano/history.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "fano/notation.hpp"

namespace fano {
namespace {

bool is_proof_edge(Outcome parent, Outcome child) {
  if (parent.value == Value::kWin)
    return child.value == Value::kLoss && child.plies + 1 == parent.plies;
  return parent.value == Value::kLoss;  // every move of a lost position
}

// The positions to recompute (see above), with their table values.
struct Region {
  std::unordered_map<std::uint64_t, std::uint32_t> index;
  std::vector<State> positions;
  std::vector<Outcome> table;
};

Region proof_ancestors(const Tablebase& tb, const Rules& rules,
                       const std::unordered_set<std::uint64_t>& earlier,
                       const std::vector<State>& seeds, int min_pieces) {
  Region r;
  std::vector<std::pair<State, Outcome>> frontier;
  for (const State h : seeds) frontier.push_back({h, probe_reachable(tb, h)});
  while (!frontier.empty()) {
    // (Named copies: a lambda may not capture structured bindings before C++20's
    // P1091, which clang 14, emscripten's compiler, lacks.)
    const State y = frontier.back().first;
    const Outcome vy = frontier.back().second;
    frontier.pop_back();
    for_each_unmove(rules, y, [&](State z) {
      if (z.pieces_on_board() < min_pieces || earlier.count(z.code) || r.index.count(z.code))
        return;
      const auto vz = tb.probe(z);
      if (!vz || vz->value == Value::kDraw || !is_proof_edge(*vz, vy)) return;
      if (game_over(rules, z) != GameOver::kNone) return;  // not a real move
      r.index.emplace(z.code, std::uint32_t(r.positions.size()));
      r.positions.push_back(z);
      r.table.push_back(*vz);
      frontier.push_back({z, *vz});
    });
  }
  return r;
}

// The retrograde pass over the region: level L holds the events "a child of x
// was decided at L plies"; a position is decided one level after its deciding
// child, so levels give plies, the first win found is the fastest and a loss
// (all children won by the opponent, no draw among them) the slowest.
std::vector<Outcome> solve_region(const Tablebase& tb, const Rules& rules,
                                  const std::unordered_set<std::uint64_t>& earlier,
                                  const Region& region) {
  const std::size_t n = region.positions.size();
  std::vector<std::vector<std::uint32_t>> parents(n);
  std::vector<std::uint32_t> remaining(n, 0);
  std::vector<bool> has_draw(n, false), decided(n, false);
  std::vector<Outcome> value(n);
  struct Event {
    std::uint32_t x;
    Value child;  // the decided child's value for its side to move
  };
  std::vector<std::vector<Event>> levels;
  const auto push = [&](std::size_t level, Event e) {
    if (levels.size() <= level) levels.resize(level + 1);
    levels[level].push_back(e);
  };
  for (std::uint32_t x = 0; x < n; ++x) {
    for_each_move(rules, region.positions[x], [&](const Move&, State c) {
      if (earlier.count(c.code)) {
        has_draw[x] = true;
        return;
      }
      const auto it = region.index.find(c.code);
      ++remaining[x];
      if (it != region.index.end()) {
        parents[it->second].push_back(x);
        return;
      }
      const Outcome o = probe_reachable(tb, c);
      if (o.value == Value::kDraw) {
        has_draw[x] = true;
        --remaining[x];
      } else {
        push(o.plies, Event{x, o.value});
      }
    });
  }
  for (std::size_t level = 0; level < levels.size(); ++level) {
    for (std::size_t i = 0; i < levels[level].size(); ++i) {
      const Event e = levels[level][i];
      if (decided[e.x]) continue;
      bool now = false;
      if (e.child == Value::kLoss) {
        value[e.x] = Outcome{Value::kWin, std::uint16_t(level + 1)};
        now = true;
      } else if (--remaining[e.x] == 0 && !has_draw[e.x]) {
        value[e.x] = Outcome{Value::kLoss, std::uint16_t(level + 1)};
        now = true;
      }
      if (!now) continue;
      decided[e.x] = true;
      for (const std::uint32_t p : parents[e.x]) push(level + 1, Event{p, value[e.x].value});
    }
  }
  return value;  // undecided positions hold the default, a draw
}

}  // namespace

Outcome probe_reachable(const Tablebase& tb, State st) {
  const auto o = tb.probe(st);
  if (!o)
    throw TablebaseError(TablebaseErrorKind::kCorrupt,
                         tb.name() + ": lacks the reachable position " + format_position(st) +
                             " (damaged table; 'fano verify' checks it)");
  return *o;
}

std::vector<Outcome> values_given_history(const Tablebase& tb, const Rules& rules,
                                          std::span<const State> earlier_positions,
                                          std::span<const State> roots, HistoryStats* stats) {
  std::unordered_set<std::uint64_t> earlier;
  for (const State s : earlier_positions) earlier.insert(s.code);
  int min_pieces = kTotalPieces;
  for (const State r : roots) min_pieces = std::min(min_pieces, r.pieces_on_board());
  // The earlier positions that can matter: decisive, and not behind the roots
  // in the placement phase (pieces only ever increase).
  std::vector<State> seeds;
  for (const State s : earlier_positions)
    if (s.pieces_on_board() >= min_pieces && probe_reachable(tb, s).value != Value::kDraw)
      seeds.push_back(s);
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());

  const Region region =
      seeds.empty() ? Region{} : proof_ancestors(tb, rules, earlier, seeds, min_pieces);
  const std::vector<Outcome> solved =
      region.positions.empty() ? std::vector<Outcome>{} : solve_region(tb, rules, earlier, region);
  if (stats) *stats = HistoryStats{seeds.size(), region.positions.size()};

  std::vector<Outcome> out;
  out.reserve(roots.size());
  for (const State r : roots) {
    if (earlier.count(r.code)) {
      out.push_back(Outcome{});
      continue;
    }
    const auto it = region.index.find(r.code);
    out.push_back(it == region.index.end() ? probe_reachable(tb, r) : solved[it->second]);
  }
  return out;
}

}  // namespace fano
