#include "fano/solver_json.hpp"

namespace fano {

Json solution_json(const Solution& sol) {
  Json o = variant_json(sol.variant);
  const SolveStats& s = sol.stats;
  o["reachable"] = s.reachable;
  o["placement"] = s.placement;
  o["movement"] = s.movement;
  o["canonical"] = s.canonical;
  o["win"] = s.win;
  o["loss"] = s.loss;
  o["draw"] = s.draw;
  const auto start = sol.lookup(kEmptyBoard);
  o["start"] = start ? outcome_json(*start) : Json(nullptr);
  return o;
}

}  // namespace fano
