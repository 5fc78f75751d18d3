// The successor graph of a variant's reachable symmetry classes (internal).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "fano/buffer.hpp"
#include "fano/solver.hpp"
#include "segmented.hpp"

namespace fano::detail {

// A degree byte's mark for a class where a line stands (degrees are lower).
inline constexpr std::uint8_t kLineStands = 0xff;

// Indexed by id, the breadth-first discovery order, which depends on thread
// timing; positions and id_of give the classes in code order (rank_classes).
struct MoveGraph {
  CodeArray code_of;                      // canonical codes by id (until ranked)
  UninitVector<std::uint64_t> positions;  // canonical codes, ascending (once ranked)
  UninitVector<std::uint32_t> id_of;      // id_of[i]: the id of positions[i]
  // The same with RankedIds::kCodesLater, in segments (made from the sorted
  // keys' segments as they are freed: no contiguous array of a large game's
  // classes is needed while the successor lists hold most of the memory).
  EdgeArray ids_in_code_order;
  // Inside rank_classes, until the keys are decoded: positions holds each
  // class's number, shifted up by id_bits, with its id below.
  int id_bits = 0;
  // By id: the number of moves, or kLineStands where a line stands (the game
  // is over, no move is made). A byte rather than row starts of 4: the
  // stages after the search walk the successor lists in id order, so the
  // degrees give the rows (results/solve-memory.md).
  UninitVector<std::uint8_t> degree;
  // One entry per legal move, as ids: id i's successors follow id i - 1's.
  EdgeArray out_edges;
  // With SolveOptions::encode_sections: the codes section's varint deltas of
  // the classes in code order (sections.hpp), to be compressed.
  UninitVector<std::uint8_t> code_deltas;
  // With RankedIds::kCodesLater, until decode_positions: where each slice of
  // kSlice classes starts in code_deltas, and its first class number.
  std::vector<std::size_t> slice_at;
  std::vector<std::uint64_t> slice_number;
};

// Breadth-first enumeration of the reachable classes (code_of); with_edges
// also builds the successor lists and the degrees (no move is made from a
// position where a line stands).
MoveGraph build_move_graph(const Rules& rules, const Symmetry& sym, const SolveOptions& options,
                           bool with_edges);

// Where the ranking leaves each class's id: nowhere, or in id_of; with
// kCodesLater the codes too wait: the ranking keeps the ids in ids_in_code_order and the
// classes as code_deltas only (decode_positions makes them positions).
enum class RankedIds { kNone, kById, kCodesLater };

// The classes in code order: positions (but see kCodesLater), with kById
// also id_of (kCodesLater: ids_in_code_order), with with_deltas also
// code_deltas; frees code_of.
// The same for any numbering of the ids, so for any thread count.
void rank_classes(MoveGraph& g, const Rules& rules, RankedIds with_ids, bool with_deltas);

// After rank_classes(..., kCodesLater) of n classes: positions from
// code_deltas (which stay).
void decode_positions(MoveGraph& g, const Rules& rules, std::size_t n);

}  // namespace fano::detail
