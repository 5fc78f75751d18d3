// The successor graph of a variant's reachable symmetry classes (internal).
#pragma once

#include <cstdint>
#include <vector>

#include "fano/buffer.hpp"
#include "fano/solver.hpp"

namespace fano::detail {

// Indexed by id, the breadth-first discovery order, which depends on thread
// timing; positions and id_of give the classes in code order.
struct MoveGraph {
  UninitVector<std::uint64_t> positions;   // canonical codes, ascending
  UninitVector<std::uint32_t> id_of;       // id_of[i]: the id of positions[i]
  UninitVector<std::uint8_t> line_formed;  // 1 where a line stands (game over, not expanded)
  UninitVector<std::uint16_t> orbit;       // positions in the class (for the statistics)
  UninitVector<std::uint32_t>
      out_begin;  // successors of id i: out_edges[out_begin[i] .. out_begin[i+1])
  UninitVector<std::uint32_t> out_edges;  // one entry per legal move, as ids
};

// Breadth-first enumeration of the reachable classes; with_edges also builds
// the successor lists (no move is made from a position where a line stands).
MoveGraph build_move_graph(const Rules& rules, const Symmetry& sym, const SolveOptions& options,
                           bool with_edges);

}  // namespace fano::detail
