#include "engine.hpp"

#include <algorithm>
#include <stdexcept>

#include "fano/notation.hpp"

namespace fano {
namespace {

Outcome probe_child(const Tablebase& tb, State child) {
  const auto c = tb.probe(child);
  if (!c)
    throw TablebaseError(TablebaseErrorKind::kCorrupt,
                         tb.name() + ": lacks the reachable position " + format_position(child) +
                             " (damaged table; 'fano verify' checks it)");
  return *c;
}

}  // namespace

int keeping_replies(const Tablebase& tb, const Rules& rules, State child) {
  if (game_over(rules, child) != GameOver::kNone) return 0;
  const Outcome best = probe_child(tb, child);
  int n = 0;
  for_each_move(rules, child, [&](const Move&, State grandchild) {
    n += outcome_for_mover(probe_child(tb, grandchild)) == best;
  });
  return n;
}

std::vector<RatedMove> rate_moves(const Tablebase& tb, const Rules& rules, State st) {
  std::vector<RatedMove> rows;
  if (game_over(rules, st) != GameOver::kNone) return rows;
  for_each_move(rules, st, [&](const Move& m, State child) {
    rows.push_back({m, child, outcome_for_mover(probe_child(tb, child)), 0});
  });
  for (RatedMove& r : rows) r.keeping_replies = keeping_replies(tb, rules, r.child);
  std::stable_sort(rows.begin(), rows.end(), [](const RatedMove& a, const RatedMove& b) {
    return better_for_mover(a.result, b.result);
  });
  return rows;
}

std::size_t choose_index(const std::vector<RatedMove>& rated) {
  if (rated.empty()) throw std::logic_error("choose_index: no legal move");
  // rated is best first and stable, so the best group is a prefix in move order.
  std::size_t best = 0;
  for (std::size_t i = 1; i < rated.size() && rated[i].result == rated[0].result; ++i)
    if (rated[i].keeping_replies < rated[best].keeping_replies) best = i;
  return best;
}

Move choose_move(const Tablebase& tb, const Rules& rules, State st) {
  const std::vector<RatedMove> rated = rate_moves(tb, rules, st);
  return rated[choose_index(rated)].move;
}

std::string outcome_text(Outcome o) {
  if (o.value == Value::kDraw) return "draw";
  return std::string(value_name(o.value)) + " in " + std::to_string(o.plies);
}

}  // namespace fano
