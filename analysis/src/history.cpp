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
//
// 4. Any larger set of positions gives the same values: a position outside the
//    region keeps its table value, so re-solving it (with its outside children
//    at their table values, which are exact) finds that value again. And only
//    what the roots reach matters: the retrograde pass over the region
//    positions reachable from the roots by moves inside the region (children
//    outside it at their table values) is exact for the roots. So a history
//    that grows by a position x (a line played ply by ply) keeps its region
//    and adds the proof ancestors of x when x is decisive, searched up to the
//    positions already in the region or earlier: the result contains the
//    region searched afresh (whose ancestors through x are now ancestors of
//    the seed x). Asked about roots with fewer pieces than the region was
//    searched for, it is searched again from every seed.
#include "fano/history.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "fano/notation.hpp"

namespace fano {

Outcome probe_reachable(const Tablebase& tb, State st) {
  const auto o = tb.probe(st);
  if (!o)
    throw TablebaseError(TablebaseErrorKind::kCorrupt,
                         tb.name() + ": lacks the reachable position " + format_position(st) +
                             " (damaged table; 'fano verify' checks it)");
  return *o;
}

namespace {

bool is_proof_edge(Outcome parent, Outcome child) {
  if (parent.value == Value::kWin)
    return child.value == Value::kLoss && child.plies + 1 == parent.plies;
  return parent.value == Value::kLoss;  // every move of a lost position
}

// Table values by position, each probed once: a lookup here costs a fraction
// of a probe's canonicalisation (336 images in the projective variants). The
// backward search of the region meets most positions several times (as a
// parent of several region positions), the engine's line meets the same
// replies again, so both ask here.
class ProbeMemo {
 public:
  explicit ProbeMemo(const Tablebase& tb) : tb_(&tb), keys_(1024, kEmpty), values_(1024) {}

  // tb.probe(st): nullopt for a position the table lacks (no game reaches it).
  std::optional<Outcome> lookup(State st) {
    std::size_t i = slot(st.code);
    for (; keys_[i] != kEmpty; i = (i + 1) & (keys_.size() - 1))
      if (keys_[i] == st.code) return values_[i];
    const std::optional<Outcome> o = tb_->probe(st);
    keys_[i] = st.code, values_[i] = o;
    if (2 * ++size_ > keys_.size()) grow();
    return o;
  }
  // probe_reachable(tb, st).
  Outcome operator()(State st) {
    const std::optional<Outcome> o = lookup(st);
    return o ? *o : probe_reachable(*tb_, st);  // throws the table's error
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);  // never a state code
  std::size_t slot(std::uint64_t code) const {
    return std::size_t((code * 0x9E3779B97F4A7C15ull) >> 32) & (keys_.size() - 1);
  }
  void grow() {
    std::vector<std::uint64_t> keys(2 * keys_.size(), kEmpty);
    std::vector<std::optional<Outcome>> values(keys.size());
    keys.swap(keys_), values.swap(values_);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (keys[k] == kEmpty) continue;
      std::size_t i = slot(keys[k]);
      while (keys_[i] != kEmpty) i = (i + 1) & (keys_.size() - 1);
      keys_[i] = keys[k], values_[i] = values[k];
    }
  }

  const Tablebase* tb_;
  std::vector<std::uint64_t> keys_;
  std::vector<std::optional<Outcome>> values_;
  std::size_t size_ = 0;
};

}  // namespace

struct GameHistory::Impl {
  Impl(const Tablebase& table, const Rules& r) : tb(&table), rules(r), probe(table) {}
  const Tablebase* tb;
  Rules rules;
  ProbeMemo probe;
  std::unordered_set<std::uint64_t> earlier;
  std::vector<State> decisive;  // earlier positions with a decisive table value, once each

  // The region (see above), searched from decisive[0, seeds_done) for roots
  // of at least min_pieces pieces.
  int min_pieces = kPieceKinds * kMaxCopiesPerKind + 1;  // above any root: nothing searched yet
  std::size_t seeds_done = 0;
  struct Node {
    State position;
    Outcome table;
    bool expanded = false;  // its moves are in child_code/child_table
    std::uint32_t first = 0, count = 0;
  };
  std::vector<Node> nodes;
  std::unordered_map<std::uint64_t, std::uint32_t> index;  // code -> node
  std::vector<std::uint64_t> child_code;                   // every expanded node's moves
  std::vector<Outcome> child_table;                        // their table values

  // Per question, by node: its place among the positions solved (when
  // stamp[node] == question).
  std::vector<std::uint32_t> stamp, local;
  std::uint32_t question = 0;

  void reset_region(int pieces) {
    min_pieces = pieces;
    seeds_done = 0;
    nodes.clear(), index.clear(), child_code.clear(), child_table.clear();
    stamp.clear(), local.clear();
  }

  // Adds the proof ancestors of the seed y to the region.
  void search_from(State y) {
    std::vector<std::pair<State, Outcome>> frontier{{y, probe(y)}};
    while (!frontier.empty()) {
      // (Named copies: a lambda may not capture structured bindings before C++20's
      // P1091, which clang 14, emscripten's compiler, lacks.)
      const State y = frontier.back().first;
      const Outcome vy = frontier.back().second;
      frontier.pop_back();
      for_each_unmove(rules, y, [&](State z) {
        if (z.pieces_on_board() < min_pieces || earlier.count(z.code) || index.count(z.code))
          return;
        const auto vz = probe.lookup(z);
        if (!vz || vz->value == Value::kDraw || !is_proof_edge(*vz, vy)) return;
        if (game_over(rules, z) != GameOver::kNone) return;  // not a real move
        index.emplace(z.code, std::uint32_t(nodes.size()));
        nodes.push_back(Node{z, *vz});
        frontier.push_back({z, *vz});
      });
    }
  }

  void expand(Node& node) {
    node.first = std::uint32_t(child_code.size());
    for_each_move(rules, node.position, [&](const Move&, State c) {
      const auto it = index.find(c.code);
      child_code.push_back(c.code);
      child_table.push_back(it != index.end() ? nodes[it->second].table : probe(c));
    });
    node.count = std::uint32_t(child_code.size()) - node.first;
    node.expanded = true;
  }

  // The retrograde pass over the region positions the roots reach: level L
  // holds the events "a child of x was decided at L plies"; a position is
  // decided one level after its deciding child, so levels give plies, the
  // first win found is the fastest and a loss (all children won by the
  // opponent, no draw among them) the slowest. Returns the values by local
  // number (undecided: the default, a draw) and the nodes solved.
  std::vector<Outcome> solve(std::span<const State> roots, std::vector<std::uint32_t>& solved) {
    if (++question == 0) std::fill(stamp.begin(), stamp.end(), 0), question = 1;
    stamp.resize(nodes.size(), 0);
    local.resize(nodes.size());
    solved.clear();
    const auto reach = [&](std::uint32_t node) {
      if (stamp[node] != question) {
        stamp[node] = question;
        local[node] = std::uint32_t(solved.size());
        solved.push_back(node);
      }
      return local[node];
    };
    for (const State r : roots)
      if (const auto it = index.find(r.code); it != index.end() && !earlier.count(r.code))
        reach(it->second);

    std::vector<std::vector<std::uint32_t>> parents;
    std::vector<std::uint32_t> remaining;
    std::vector<bool> has_draw;
    struct Event {
      std::uint32_t x;
      Value child;  // the decided child's value for its side to move
    };
    std::vector<std::vector<Event>> levels;
    const auto push = [&](std::size_t level, Event e) {
      if (levels.size() <= level) levels.resize(level + 1);
      levels[level].push_back(e);
    };
    // solved grows as the loop finds children inside the region.
    for (std::uint32_t x = 0; x < solved.size(); ++x) {
      if (!nodes[solved[x]].expanded) expand(nodes[solved[x]]);
      const Node& node = nodes[solved[x]];
      remaining.push_back(0);
      has_draw.push_back(false);
      for (std::uint32_t k = node.first; k < node.first + node.count; ++k) {
        if (earlier.count(child_code[k])) {
          has_draw[x] = true;
          continue;
        }
        if (const auto it = index.find(child_code[k]); it != index.end()) {
          const std::uint32_t c = reach(it->second);
          if (parents.size() <= c) parents.resize(c + 1);
          parents[c].push_back(x);
          ++remaining[x];
        } else if (const Outcome o = child_table[k]; o.value == Value::kDraw) {
          has_draw[x] = true;
        } else {
          ++remaining[x];
          push(o.plies, Event{x, o.value});
        }
      }
    }
    const std::size_t n = solved.size();
    parents.resize(n);
    std::vector<bool> decided(n, false);
    std::vector<Outcome> value(n);
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
    return value;
  }
};

GameHistory::GameHistory(const Tablebase& tb, const Rules& rules, std::span<const State> positions)
    : impl_(std::make_unique<Impl>(tb, rules)) {
  for (const State s : positions) push(s);
}
GameHistory::GameHistory(GameHistory&&) noexcept = default;
GameHistory& GameHistory::operator=(GameHistory&&) noexcept = default;
GameHistory::~GameHistory() = default;

bool GameHistory::contains(State s) const { return impl_->earlier.count(s.code) != 0; }

Outcome GameHistory::table_value(State s) { return impl_->probe(s); }

void GameHistory::push(State s) {
  Impl& h = *impl_;
  if (!h.earlier.insert(s.code).second) return;
  if (h.probe(s).value != Value::kDraw) h.decisive.push_back(s);
}

std::vector<Outcome> GameHistory::values(std::span<const State> roots, HistoryStats* stats) {
  Impl& h = *impl_;
  int min_pieces = h.rules.total_pieces();
  for (const State r : roots) min_pieces = std::min(min_pieces, r.pieces_on_board());
  // The earlier positions that can matter: decisive, and not behind the roots
  // in the placement phase (pieces only ever increase). A region searched
  // for fewer pieces holds this one (a larger region gives the same values).
  if (min_pieces < h.min_pieces) h.reset_region(min_pieces);
  for (; h.seeds_done < h.decisive.size(); ++h.seeds_done)
    if (h.decisive[h.seeds_done].pieces_on_board() >= h.min_pieces)
      h.search_from(h.decisive[h.seeds_done]);

  std::vector<std::uint32_t> solved;
  const std::vector<Outcome> value =
      h.nodes.empty() ? std::vector<Outcome>{} : h.solve(roots, solved);
  if (stats) {
    std::size_t seeds = 0;
    for (const State s : h.decisive) seeds += s.pieces_on_board() >= min_pieces;
    *stats = HistoryStats{seeds, h.nodes.size(), solved.size()};
  }

  std::vector<Outcome> out;
  out.reserve(roots.size());
  for (const State r : roots) {
    if (h.earlier.count(r.code)) {
      out.push_back(Outcome{});
      continue;
    }
    const auto it = h.index.find(r.code);
    out.push_back(it == h.index.end() ? h.probe(r) : value[h.local[it->second]]);
  }
  return out;
}

std::vector<Outcome> values_given_history(const Tablebase& tb, const Rules& rules,
                                          std::span<const State> earlier_positions,
                                          std::span<const State> roots, HistoryStats* stats) {
  return GameHistory(tb, rules, earlier_positions).values(roots, stats);
}

}  // namespace fano
