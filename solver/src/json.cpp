#include "fano/solver_json.hpp"

namespace fano {

Json solution_json(const Solution& sol) {
  Json o = variant_json(sol.variant);
  const SolveStats& s = sol.stats;
  o.update(position_counts_json(s));
  const auto start = sol.lookup(kEmptyBoard);
  o["start"] = start ? outcome_json(*start) : Json(nullptr);
  return o;
}

}  // namespace fano
