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

Json perft_json(std::span<const PerftRow> rows) {
  Json out = Json::array();
  const auto saturated = [](std::uint64_t n) {
    return n == kPathsOverflow ? Json(nullptr) : Json(n);
  };
  for (const PerftRow& r : rows)
    out.push_back({{"depth", r.depth},
                   {"positions", r.positions},
                   {"cumulative", r.cumulative},
                   {"within", r.within},
                   {"paths", saturated(r.paths)},
                   {"ended_positions", r.ended_positions},
                   {"ended_paths", saturated(r.ended_paths)}});
  return out;
}

}  // namespace fano
