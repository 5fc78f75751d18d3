#include "fano/strategy_size.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "fano/game.hpp"
#include "fano/history.hpp"
#include "fano/notation.hpp"
#include "fano/players.hpp"

namespace fano {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

bool game_goes_on(const Rules& rules, State st) {
  return !formed_lines(rules, st) && has_legal_move(rules, st);
}

// The table's result of `m` in `st` for the mover.
Outcome result_of(const Tablebase& tb, State st, const Move& m) {
  return outcome_for_mover(probe_reachable(tb, apply_move(st, m)));
}

// The game between symmetry classes, for the follower: a follower class's
// edges are its non-losing moves' classes, an opponent class's edges every
// move's class (each class once); an ended class has none.
struct ClassGraph {
  const Tablebase& tb;
  Rules rules;
  Colour follower;
  std::vector<std::uint32_t> first;  // edges of class i: edge[first[i] .. first[i + 1])
  std::vector<std::uint32_t> edge;
  std::vector<std::uint8_t> kind;  // 0 ended, 1 the follower's, 2 the opponent's

  ClassGraph(const Tablebase& t, Colour f, const Interrupt& interrupt)
      : tb(t), rules(t.variant()), follower(f) {
    const std::size_t n = tb.size();
    first.assign(n + 1, 0);
    kind.assign(n, 0);
    std::vector<std::uint32_t> children;
    for (std::size_t i = 0; i < n; ++i) {
      if ((i & 4095) == 0) interrupt.poll();
      first[i] = std::uint32_t(edge.size());
      const State st = tb.position_at(i);
      if (!game_goes_on(rules, st)) continue;
      const bool mine = st.to_move() == follower;
      kind[i] = mine ? 1 : 2;
      children.clear();
      for_each_move(rules, st, [&](const Move&, State child) {
        const std::uint32_t c = index_of(child);
        if (mine && outcome_for_mover(tb.outcome_at(c)).value == Value::kLoss) return;
        children.push_back(c);
      });
      // Each class once, in the order first met (the order of the moves).
      for (std::size_t k = 0; k < children.size(); ++k)
        if (std::find(children.begin(), children.begin() + std::ptrdiff_t(k), children[k]) ==
            children.begin() + std::ptrdiff_t(k))
          edge.push_back(children[k]);
    }
    first[n] = std::uint32_t(edge.size());
  }
  std::uint32_t index_of(State st) const {
    const std::uint64_t code = tb.symmetry().canonical(st).code;
    std::size_t lo = 0, hi = tb.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (tb.position_at(mid).code < code)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo == tb.size() || tb.position_at(lo).code != code)
      throw std::logic_error("strategy size: a position missing from the table");
    return std::uint32_t(lo);
  }
};

// The classes a class choice reaches (choice[i]: the chosen edge's class of
// follower class i). Counts the follower's classes; stops early once they
// exceed `bound`. `mark`/`stamp` avoid clearing a bitmap per call.
struct Reach {
  std::vector<std::uint32_t> mark, order;
  std::uint32_t stamp = 0;
  std::uint64_t follower = 0;

  explicit Reach(std::size_t n) : mark(n, 0) {}
  std::uint64_t run(const ClassGraph& g, const std::vector<std::uint32_t>& choice,
                    std::uint32_t start, std::uint64_t bound) {
    ++stamp;
    order.clear();
    follower = 0;
    order.push_back(start);
    mark[start] = stamp;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::uint32_t u = order[k];
      if (g.kind[u] == 1) {
        if (++follower > bound) return follower;
        const std::uint32_t v = choice[u];
        if (mark[v] != stamp) mark[v] = stamp, order.push_back(v);
      } else if (g.kind[u] == 2) {
        for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e) {
          const std::uint32_t v = g.edge[e];
          if (mark[v] != stamp) mark[v] = stamp, order.push_back(v);
        }
      }
    }
    return follower;
  }
};

// A change of one follower class's move, evaluated from the current reach
// alone. In the graph the current choice reaches, class u's one edge leads
// to its choice, so the classes reached only through u are exactly u's
// strict descendants in the dominator tree (every path to them passes u):
// moving u elsewhere loses them, and the classes the new move reaches anew
// (new ones, or lost ones reached again) are found by a walk that stops at
// every class still reached. The change helps exactly when that walk meets
// fewer follower classes than u's descendants hold.
struct Delta {
  const ClassGraph& g;
  std::vector<std::uint32_t> idom, post_number, pre, post, follower_below;
  std::vector<std::uint32_t> mark, queue;
  std::uint32_t stamp = 0;
  const Reach* base = nullptr;

  explicit Delta(const ClassGraph& graph)
      : g(graph),
        idom(graph.kind.size()),
        post_number(graph.kind.size()),
        pre(graph.kind.size()),
        post(graph.kind.size()),
        follower_below(graph.kind.size()),
        mark(graph.kind.size(), 0) {}

  bool reached(std::uint32_t x) const { return base->mark[x] == base->stamp; }
  // A strict descendant of u in the dominator tree (x reached).
  bool below(std::uint32_t u, std::uint32_t x) const {
    return pre[u] < pre[x] && post[x] < post[u];
  }

  // The dominator tree of the reach (Cooper, Harvey and Kennedy's iteration
  // over a depth-first postorder), numbered for `below`, with the follower
  // classes of each subtree.
  void build(const Reach& r, const std::vector<std::uint32_t>& choice, std::uint32_t start) {
    base = &r;
    const auto successors = [&](std::uint32_t u, auto&& f) {
      if (g.kind[u] == 1)
        f(choice[u]);
      else if (g.kind[u] == 2)
        for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e) f(g.edge[e]);
    };
    // Postorder by an explicit stack (the reach can be deep).
    std::vector<std::uint32_t> postorder;
    postorder.reserve(r.order.size());
    ++stamp;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{start, 0}};
    mark[start] = stamp;
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      std::uint32_t child = kNone;
      if (g.kind[u] == 1 && next == 0) {
        child = choice[u];
        next = 1;
      } else if (g.kind[u] == 2) {
        while (g.first[u] + next < g.first[u + 1] && child == kNone) {
          const std::uint32_t v = g.edge[g.first[u] + next++];
          if (mark[v] != stamp) child = v;
        }
      }
      if (child != kNone && mark[child] != stamp) {
        mark[child] = stamp;
        stack.emplace_back(child, 0);
        continue;
      }
      if (child != kNone) continue;
      post_number[u] = std::uint32_t(postorder.size());
      postorder.push_back(u);
      stack.pop_back();
    }
    // Predecessors within the reach.
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> preds;
    for (const std::uint32_t u : postorder)
      successors(u, [&](std::uint32_t v) { preds[v].push_back(u); });
    for (const std::uint32_t u : postorder) idom[u] = kNone;
    idom[start] = start;
    const auto intersect = [&](std::uint32_t a, std::uint32_t b) {
      while (a != b) {
        while (post_number[a] < post_number[b]) a = idom[a];
        while (post_number[b] < post_number[a]) b = idom[b];
      }
      return a;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t k = postorder.size(); k-- > 0;) {
        const std::uint32_t u = postorder[k];
        if (u == start) continue;
        std::uint32_t d = kNone;
        for (const std::uint32_t p : preds[u])
          if (idom[p] != kNone) d = d == kNone ? p : intersect(p, d);
        if (d != idom[u]) idom[u] = d, changed = true;
      }
    }
    // Pre- and postorder numbers of the dominator tree, follower classes below.
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> children;
    for (const std::uint32_t u : postorder)
      if (u != start) children[idom[u]].push_back(u);
    std::uint32_t clock = 0;
    std::vector<std::pair<std::uint32_t, std::size_t>> walk{{start, 0}};
    pre[start] = clock++;
    while (!walk.empty()) {
      auto& [u, i] = walk.back();
      const auto it = children.find(u);
      if (it != children.end() && i < it->second.size()) {
        const std::uint32_t c = it->second[i++];
        pre[c] = clock++;
        walk.emplace_back(c, 0);
        continue;
      }
      post[u] = clock++;
      std::uint32_t f = g.kind[u] == 1;
      if (it != children.end())
        for (const std::uint32_t c : it->second) f += follower_below[c];
      follower_below[u] = f;
      walk.pop_back();
    }
  }

  // Whether moving follower class u to `to` reaches fewer follower classes;
  // `changes` (when it does) are the new classes' moves into classes
  // reached, as the greedy walk prefers them.
  bool improves(const std::vector<std::uint32_t>& choice, std::uint32_t u, std::uint32_t to,
                std::vector<std::pair<std::uint32_t, std::uint32_t>>& changes) {
    changes.clear();
    const std::uint32_t lost = follower_below[u] - 1;  // u itself stays
    if (lost == 0) return false;
    ++stamp;
    // Still reached after the change: reached, and not only through u.
    const auto kept = [&](std::uint32_t x) { return reached(x) && !below(u, x); };
    const auto present = [&](std::uint32_t x) { return kept(x) || mark[x] == stamp; };
    queue.clear();
    const auto visit = [&](std::uint32_t x) {
      if (!present(x)) mark[x] = stamp, queue.push_back(x);
    };
    visit(to);
    std::uint32_t found = 0;
    for (std::size_t k = 0; k < queue.size(); ++k) {
      const std::uint32_t x = queue[k];
      if (g.kind[x] == 1) {
        if (++found >= lost) return false;
        // A new class prefers a move into a class reached now or before
        // (one reached only through u is then reached again, and counted).
        std::uint32_t v = choice[x];
        if (!reached(x) && !present(v) && !reached(v))
          for (std::uint32_t e = g.first[x]; e < g.first[x + 1]; ++e)
            if (present(g.edge[e]) || reached(g.edge[e])) {
              v = g.edge[e];
              changes.emplace_back(x, v);
              break;
            }
        visit(v);
      } else if (g.kind[x] == 2) {
        for (std::uint32_t e = g.first[x]; e < g.first[x + 1]; ++e) visit(g.edge[e]);
      }
    }
    return true;
  }
};

// The number of follower classes in the tree the cheapest follower choices
// leave within `horizon` plies (a class at the horizon counts one): an
// estimate of a subtree's size that ignores shared positions.
std::vector<double> subtree_estimate(const ClassGraph& g, int horizon) {
  const std::size_t n = g.kind.size();
  std::vector<double> h(n), next(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = g.kind[i] == 1 ? 1.0 : 0.0;
  for (int k = 0; k < horizon; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      if (g.kind[i] == 0) {
        next[i] = 0;
        continue;
      }
      double s = g.kind[i] == 1 ? std::numeric_limits<double>::infinity() : 0.0;
      for (std::uint32_t e = g.first[i]; e < g.first[i + 1]; ++e)
        s = g.kind[i] == 1 ? std::min(s, h[g.edge[e]]) : s + h[g.edge[e]];
      next[i] = (g.kind[i] == 1 ? 1.0 : 0.0) + s;
    }
    h.swap(next);
  }
  return h;
}

// A class choice played in positions: the first move into the chosen class.
MoveChoice class_choice(const ClassGraph& g, const std::vector<std::uint32_t>& choice) {
  return [&g, &choice](State st) {
    const std::uint32_t target = choice[g.index_of(st)];
    std::optional<Move> out;
    for_each_move(g.rules, st, [&](const Move& m, State child) {
      if (!out && g.index_of(child) == target) out = m;
    });
    if (!out) throw std::logic_error("strategy size: no move into the chosen class");
    return *out;
  };
}

// Positions and their symmetry classes, placement and movement phase apart.
struct PhaseCounts {
  std::uint64_t placement = 0, movement = 0, placement_classes = 0, movement_classes = 0;
};

PhaseCounts count_by_phase(const Tablebase& tb, const std::vector<State>& positions) {
  const Rules rules(tb.variant());
  PhaseCounts out;
  std::unordered_set<std::uint64_t> placement, movement;
  for (const State st : positions) {
    const std::uint64_t canon = tb.symmetry().canonical(st).code;
    if (rules.placement_phase(st))
      ++out.placement, placement.insert(canon);
    else
      ++out.movement, movement.insert(canon);
  }
  out.placement_classes = placement.size();
  out.movement_classes = movement.size();
  return out;
}

}  // namespace

FixedStrategy fix_strategy(const Rules& rules, State start, Colour follower,
                           const MoveChoice& choose, const Interrupt& interrupt) {
  FixedStrategy out{start, follower, {}, 0};
  std::unordered_set<std::uint64_t> seen{start.code};
  std::vector<State> queue{start};
  for (std::size_t k = 0; k < queue.size(); ++k) {
    if ((k & 4095) == 0) interrupt.poll();
    const State st = queue[k];
    if (!game_goes_on(rules, st)) continue;
    const auto push = [&](State child) {
      if (seen.insert(child.code).second) queue.push_back(child);
    };
    if (st.to_move() == follower) {
      const Move m = choose(st);
      out.decisions.emplace_back(st, m);
      push(apply_move(st, m));
    } else {
      for_each_move(rules, st, [&](const Move&, State child) { push(child); });
    }
  }
  out.reached = queue.size();
  return out;
}

StrategySize strategy_size(const Tablebase& tb, const FixedStrategy& strategy) {
  StrategySize s;
  s.reached = strategy.reached;
  std::vector<State> decisions;
  for (const auto& [st, m] : strategy.decisions) decisions.push_back(st);
  const PhaseCounts c = count_by_phase(tb, decisions);
  s.placement = c.placement, s.movement = c.movement;
  s.placement_classes = c.placement_classes, s.movement_classes = c.movement_classes;
  return s;
}

AllowedTable strategy_table(const Tablebase& tb, const FixedStrategy& strategy) {
  const Rules rules(tb.variant());
  AllowedTable t;
  for (const auto& [st, m] : strategy.decisions) add_allowed(t, rules, st, {m});
  return t;
}

SmallStrategy smallest_strategy(const Tablebase& tb, Colour follower, int passes, int restarts,
                                int horizon, const Interrupt& interrupt,
                                const SearchRound& on_round) {
  const Rules rules(tb.variant());
  // A side with a win to keep needs more than never losing (a strategy that
  // only avoids losses may be held to a repetition): drawn games only.
  if (probe_reachable(tb, kEmptyBoard).value != Value::kDraw)
    throw std::invalid_argument(
        "the game is not a draw: the smallest strategy is searched for "
        "a draw to keep");
  SmallStrategy out;
  out.follower = follower;
  out.baseline = strategy_size(
      tb, fix_strategy(
              rules, kEmptyBoard, follower,
              [&](State st) { return keeping_move(tb, GameRecord(rules, st)); }, interrupt));

  const ClassGraph g(tb, follower, interrupt);
  const std::size_t n = g.kind.size();
  const std::uint32_t start = g.index_of(kEmptyBoard);
  const std::vector<double> h = subtree_estimate(g, horizon);
  // Every follower class starts at its option of the least estimate, then
  // the classes the greedy walk reaches take an option into a class already
  // reached where there is one.
  std::vector<std::uint32_t> choice(n, kNone);
  for (std::size_t i = 0; i < n; ++i) {
    if (g.kind[i] != 1 || g.first[i] == g.first[i + 1]) continue;
    std::uint32_t best = g.edge[g.first[i]];
    for (std::uint32_t e = g.first[i]; e < g.first[i + 1]; ++e)
      if (h[g.edge[e]] < h[best]) best = g.edge[e];
    choice[i] = best;
  }
  {
    std::vector<bool> seen(n, false);
    std::vector<std::uint32_t> queue{start};
    seen[start] = true;
    for (std::size_t k = 0; k < queue.size(); ++k) {
      const std::uint32_t u = queue[k];
      if (g.kind[u] == 1) {
        if (choice[u] == kNone) throw std::logic_error("strategy size: a lost follower class");
        for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e) {
          const std::uint32_t v = g.edge[e];
          if (seen[v] && (!seen[choice[u]] || h[v] < h[choice[u]])) choice[u] = v;
        }
        if (!seen[choice[u]]) seen[choice[u]] = true, queue.push_back(choice[u]);
      } else if (g.kind[u] == 2) {
        for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e)
          if (!seen[g.edge[e]]) seen[g.edge[e]] = true, queue.push_back(g.edge[e]);
      }
    }
  }
  out.greedy = strategy_size(
      tb, fix_strategy(rules, kEmptyBoard, follower, class_choice(g, choice), interrupt));

  // Local search: first improvement, follower classes in breadth-first order,
  // until a pass gains nothing (or `passes` passes).
  Reach reach(n);
  Delta delta(g);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> changes;
  const auto improve = [&](std::vector<std::uint32_t>& ch) {
    std::uint64_t best = reach.run(g, ch, start, std::numeric_limits<std::uint64_t>::max());
    delta.build(reach, ch, start);
    for (int pass = 0; pass < passes; ++pass) {
      ++out.passes;
      bool gained = false;
      const std::vector<std::uint32_t> order = reach.order;
      for (const std::uint32_t u : order) {
        if (g.kind[u] != 1 || reach.mark[u] != reach.stamp) continue;  // no longer reached
        interrupt.poll();
        for (std::uint32_t e = g.first[u]; e < g.first[u + 1]; ++e) {
          const std::uint32_t v = g.edge[e];
          if (v == ch[u]) continue;
          ++out.trials;
          if (!delta.improves(ch, u, v, changes)) continue;
          ch[u] = v;
          for (const auto& [w, x] : changes) ch[w] = x;
          const std::uint64_t count =
              reach.run(g, ch, start, std::numeric_limits<std::uint64_t>::max());
          if (count >= best) throw std::logic_error("strategy size: a change that did not help");
          best = count;
          ++out.improvements;
          gained = true;
          delta.build(reach, ch, start);
        }
      }
      if (!gained) break;
    }
    return best;
  };
  std::uint64_t best = improve(choice);
  // Iterated local search: a few reached follower classes moved to a random
  // non-losing option, improved again, kept when no worse. A fixed seed and
  // the generator's own integers (not a distribution's): the same choices on
  // every platform.
  std::mt19937_64 rng(1);
  for (int r = 0; r < restarts; ++r) {
    ++out.restarts;
    std::vector<std::uint32_t> mine;
    reach.run(g, choice, start, std::numeric_limits<std::uint64_t>::max());
    for (const std::uint32_t u : reach.order)
      if (g.kind[u] == 1 && g.first[u + 1] - g.first[u] > 1) mine.push_back(u);
    if (mine.empty()) break;
    std::vector<std::uint32_t> next = choice;
    const std::size_t kicks = std::max<std::size_t>(1, mine.size() / 100);
    for (std::size_t k = 0; k < kicks; ++k) {
      const std::uint32_t u = mine[std::size_t(rng() % mine.size())];
      next[u] = g.edge[g.first[u] + std::uint32_t(rng() % (g.first[u + 1] - g.first[u]))];
    }
    const std::uint64_t count = improve(next);
    if (count <= best) best = count, choice = std::move(next);
    if (on_round) on_round(r + 1, best);
  }
  out.strategy = fix_strategy(rules, kEmptyBoard, follower, class_choice(g, choice), interrupt);
  out.smallest = strategy_size(tb, out.strategy);
  return out;
}

Move rule_list_move(const Rules& rules, State st, const std::vector<std::string>& list) {
  std::vector<Move> moves;
  std::vector<State> children;
  for_each_move(rules, st, [&](const Move& m, State child) {
    moves.push_back(m);
    children.push_back(child);
  });
  if (moves.empty()) throw std::invalid_argument("rule list: no legal move");
  std::vector<std::size_t> left(moves.size());
  for (std::size_t i = 0; i < left.size(); ++i) left[i] = i;
  for (const std::string& name : list) {
    std::vector<int> score(moves.size(), 0);
    if (name.rfind("search:", 0) == 0) {
      const std::string digits = name.substr(7);
      if (digits.empty() || digits.size() > 2 ||
          digits.find_first_not_of("0123456789") != std::string::npos || std::stoi(digits) < 1 ||
          std::stoi(digits) > kMaxSearchDepth)
        throw std::invalid_argument("rule list: " + quote(name) + ": the depth must be 1.." +
                                    std::to_string(kMaxSearchDepth));
      const int depth = std::stoi(digits);
      score = search_move_scores(GameRecord(rules, st), depth);
    } else if (name == "no-centre") {
      for (std::size_t i = 0; i < moves.size(); ++i) score[i] = moves[i].to == 6 ? -1 : 0;
    } else if (name == "quiet") {
      for (std::size_t i = 0; i < moves.size(); ++i) {
        const TopMasks t = top_masks(children[i]);
        const SpaceMask kinds[4] = {t.white, SpaceMask(t.occupied & ~t.white), t.circle,
                                    SpaceMask(t.occupied & ~t.circle)};
        int open = 0;
        for (const SpaceMask line : kLineMasks) {
          if (std::popcount(unsigned(line & t.occupied)) != 2) continue;
          for (const SpaceMask k : kinds)
            if (std::popcount(unsigned(line & k)) == 2) {
              ++open;
              break;
            }
        }
        score[i] = -open;
      }
    } else if (name == "corner") {
      for (std::size_t i = 0; i < moves.size(); ++i)
        score[i] = -std::popcount(unsigned(rules.neighbours[std::size_t(moves[i].to)]));
    } else {
      throw std::invalid_argument("rule list: unknown rule " + quote(name) +
                                  " (search:K, no-centre, quiet, corner)");
    }
    int top = std::numeric_limits<int>::min();
    for (const std::size_t i : left) top = std::max(top, score[i]);
    std::erase_if(left, [&](std::size_t i) { return score[i] != top; });
  }
  return moves[left.front()];
}

RuleListResult rule_list_with_exceptions(const Tablebase& tb, const FixedStrategy& smallest,
                                         const std::vector<std::string>& list,
                                         const Interrupt& interrupt) {
  const Rules rules(tb.variant());
  std::unordered_map<std::uint64_t, Move> stored;
  for (const auto& [st, m] : smallest.decisions) stored.emplace(st.code, m);
  std::unordered_set<std::uint64_t> exceptions;
  RuleListResult out;
  out.list = list;
  out.strategy = fix_strategy(
      rules, smallest.start, smallest.follower,
      [&](State st) {
        const Move m = rule_list_move(rules, st, list);
        if (result_of(tb, st, m).value != Value::kLoss) return m;
        exceptions.insert(st.code);
        const auto it = stored.find(st.code);
        return it != stored.end() ? it->second : keeping_move(tb, GameRecord(rules, st));
      },
      interrupt);
  out.size = strategy_size(tb, out.strategy);
  std::vector<State> excepted;
  for (const std::uint64_t code : exceptions) excepted.push_back(State{code});
  const PhaseCounts c = count_by_phase(tb, excepted);
  out.placement_exceptions = c.placement, out.movement_exceptions = c.movement;
  out.placement_exception_classes = c.placement_classes;
  out.movement_exception_classes = c.movement_classes;
  for (const auto& [st, m] : smallest.decisions) {
    if (result_of(tb, st, rule_list_move(rules, st, list)).value != Value::kLoss) continue;
    ++(rules.placement_phase(st) ? out.placement_losing_in_smallest
                                 : out.movement_losing_in_smallest);
  }
  return out;
}

SingleDrawReport single_draw_openings(const Tablebase& tb, int plies, const Interrupt& interrupt) {
  const Rules rules(tb.variant());
  SingleDrawReport out;
  out.plies = plies;
  if (probe_reachable(tb, kEmptyBoard).value != Value::kDraw)
    throw std::invalid_argument("the game is not a draw: there is no draw to keep");
  struct Node {
    State st;
    std::uint32_t parent;
    Move move;
  };
  std::vector<Node> nodes{{kEmptyBoard, kNone, Move{}}};
  std::unordered_set<std::uint64_t> seen{kEmptyBoard.code};
  std::size_t layer_begin = 0;
  for (int ply = 0; ply < plies; ++ply) {
    const std::size_t layer_end = nodes.size();
    std::uint64_t drawn = 0, single = 0;
    std::unordered_set<std::uint64_t> classes;
    for (std::size_t k = layer_begin; k < layer_end; ++k) {
      if ((k & 1023) == 0) interrupt.poll();
      const State st = nodes[k].st;
      if (!game_goes_on(rules, st)) continue;
      ++drawn;
      std::vector<std::pair<Move, Outcome>> rated;
      for_each_move(rules, st, [&](const Move& m, State child) {
        rated.emplace_back(m, outcome_for_mover(probe_reachable(tb, child)));
      });
      std::vector<Move> drawing;
      for (const auto& [m, o] : rated)
        if (o.value == Value::kDraw) drawing.push_back(m);
      for (const Move& m : drawing) {
        const State child = apply_move(st, m);
        if (seen.insert(child.code).second) nodes.push_back({child, std::uint32_t(k), m});
      }
      if (drawing.size() != 1) continue;
      ++single;
      // One opening a class: its symmetric images teach nothing more.
      if (!classes.insert(tb.symmetry().canonical(st).code).second) continue;
      SingleDrawOpening o;
      o.position = st;
      o.move = drawing.front();
      for (const auto& r : rated)
        if (!(r.first == o.move)) o.others.push_back(r);
      for (std::uint32_t i = std::uint32_t(k); nodes[i].parent != kNone; i = nodes[i].parent)
        o.line.push_back(nodes[i].move);
      std::reverse(o.line.begin(), o.line.end());
      out.openings.push_back(std::move(o));
    }
    out.drawn_by_ply.push_back(drawn);
    out.single_by_ply.push_back(single);
    out.single_classes_by_ply.push_back(classes.size());
    layer_begin = layer_end;
  }
  return out;
}

}  // namespace fano
