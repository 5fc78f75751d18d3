// JSON of a solve (`fano solve --json`): the variant, its counts and the start's value.
#pragma once

#include "fano/json.hpp"
#include "fano/perft.hpp"
#include "fano/solver.hpp"

namespace fano {

// {"stack_cap", "adjacency", "reachable", "placement", "movement", "canonical",
//  "win", "loss", "draw", "start": {"value", "plies"}}. Timing is the caller's.
Json solution_json(const Solution& sol);

// One object per depth: {"depth", "positions", "cumulative", "within", "paths",
// "ended_positions", "ended_paths"} (paths null when saturated).
Json perft_json(std::span<const PerftRow> rows);

}  // namespace fano
