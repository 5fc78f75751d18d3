#include "fano/reference_solver.hpp"

#include <deque>

#include "fano/rules.hpp"

namespace fano::reference {

ReferenceSolution solve_reference(const Variant& variant, State start, std::size_t limit) {
  const Rules rules(variant);
  ReferenceSolution sol;
  // Breadth-first search; children[i] lists the successors of position i.
  std::vector<std::vector<std::uint32_t>> children;
  std::deque<std::uint32_t> queue;
  auto add = [&](std::uint64_t code) {
    const auto [it, fresh] = sol.index.emplace(code, std::uint32_t(sol.codes.size()));
    if (fresh) {
      sol.codes.push_back(code);
      children.emplace_back();
      queue.push_back(it->second);
    }
    return it->second;
  };
  add(start.code);
  while (!queue.empty()) {
    if (sol.codes.size() > limit) {
      sol.complete = false;
      return sol;
    }
    const std::uint32_t i = queue.front();
    queue.pop_front();
    const State st{sol.codes[i]};
    if (formed_lines(rules, st)) continue;  // the game has ended here
    for_each_move(rules, st, [&](const Move&, State child) {
      const std::uint32_t j = add(child.code);
      children[i].push_back(j);
    });
  }
  const std::size_t n = sol.codes.size();
  std::vector<std::vector<std::uint32_t>> parents(n);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j : children[i]) parents[j].push_back(i);

  // Queue retrograde: the ended games first; a position is won when a
  // successor is lost (the first found, in ply order, is the fastest), lost
  // when every successor is won (the last found is the slowest).
  std::vector<bool> decided(n, false);
  std::vector<std::uint32_t> undecided(n);
  sol.outcomes.assign(n, Outcome{Value::kDraw, 0});
  std::deque<std::uint32_t> done;
  for (std::uint32_t i = 0; i < n; ++i) {
    undecided[i] = std::uint32_t(children[i].size());
    if (formed_lines(rules, State{sol.codes[i]}))
      sol.outcomes[i] = Outcome{Value::kWin, 0};
    else if (children[i].empty())
      sol.outcomes[i] = Outcome{Value::kLoss, 0};
    else
      continue;
    decided[i] = true;
    done.push_back(i);
  }
  while (!done.empty()) {
    const std::uint32_t j = done.front();
    done.pop_front();
    const Outcome child = sol.outcomes[j];
    for (std::uint32_t i : parents[j]) {
      if (decided[i]) continue;
      if (child.value == Value::kLoss) {
        sol.outcomes[i] = Outcome{Value::kWin, std::uint16_t(child.plies + 1)};
      } else if (--undecided[i] == 0) {
        sol.outcomes[i] = Outcome{Value::kLoss, std::uint16_t(child.plies + 1)};
      } else {
        continue;
      }
      decided[i] = true;
      done.push_back(i);
    }
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    (rules.placement_phase(State{sol.codes[i]}) ? sol.placement : sol.movement)++;
    const Value v = sol.outcomes[i].value;
    (v == Value::kWin ? sol.win : v == Value::kLoss ? sol.loss : sol.draw)++;
  }
  return sol;
}

}  // namespace fano::reference
