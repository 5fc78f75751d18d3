// The successor graph of a variant's reachable symmetry classes (internal).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "fano/buffer.hpp"
#include "fano/solver.hpp"

namespace fano::detail {

// An array of ids in fixed segments, so that growing it layer by layer never
// copies it (a vector's growth held the old and the new block at once, the
// largest moment of the standard game's search), and so that a segment finds
// room in the holes other stages leave in the buffers' arena, where a block
// of megabytes would go on top (results/cold-solve.md).
class EdgeArray {
 public:
  static constexpr int kBits = 15;  // 128 KiB segments
  static constexpr std::size_t kSegment = std::size_t(1) << kBits;

  std::size_t size() const { return size_; }
  // Grows to n entries (the new ones unwritten).
  void resize(std::size_t n) {
    while (segments_.size() << kBits < n) segments_.emplace_back(kSegment);
    size_ = n;
  }
  std::uint32_t& operator[](std::size_t k) { return segments_[k >> kBits][k & (kSegment - 1)]; }
  std::uint32_t operator[](std::size_t k) const {
    return segments_[k >> kBits][k & (kSegment - 1)];
  }
  // Entries k, k + 1, ... up to the end of k's segment (k < size()).
  const std::uint32_t* at(std::size_t k) const {
    return segments_[k >> kBits].data() + (k & (kSegment - 1));
  }
  // f(k, p, count): entries k .. k + count - 1 of [first, end) are at p,
  // one segment's stretch after another (for loops that walk the array in
  // order without the two-level index per entry).
  template <class F>
  void for_each_stretch(std::size_t first, std::size_t end, F&& f) const {
    while (first < end) {
      const std::size_t in = first & (kSegment - 1);
      const std::size_t count = std::min(end - first, kSegment - in);
      f(first, segments_[first >> kBits].data() + in, count);
      first += count;
    }
  }
  void swap(EdgeArray& other) noexcept {
    segments_.swap(other.segments_);
    std::swap(size_, other.size_);
  }

 private:
  std::vector<UninitVector<std::uint32_t>> segments_;
  std::size_t size_ = 0;
};

// Indexed by id, the breadth-first discovery order, which depends on thread
// timing; positions and id_of give the classes in code order (rank_classes).
struct MoveGraph {
  UninitVector<std::uint64_t> code_of;     // canonical codes by id (until ranked)
  UninitVector<std::uint64_t> positions;   // canonical codes, ascending (once ranked)
  UninitVector<std::uint32_t> id_of;       // id_of[i]: the id of positions[i]
  UninitVector<std::uint8_t> line_formed;  // 1 where a line stands (game over, not expanded)
  UninitVector<std::uint32_t>
      out_begin;        // successors of id i: out_edges[out_begin[i] .. out_begin[i+1])
  EdgeArray out_edges;  // one entry per legal move, as ids
  // With SolveOptions::encode_sections: the codes section's varint deltas of
  // the classes in code order (sections.hpp), to be compressed.
  UninitVector<std::uint8_t> code_deltas;
};

// Breadth-first enumeration of the reachable classes (code_of); with_edges
// also builds the successor lists and line_formed (no move is made from a
// position where a line stands).
MoveGraph build_move_graph(const Rules& rules, const Symmetry& sym, const SolveOptions& options,
                           bool with_edges);

// The classes in code order: positions, with with_ids also id_of, with
// with_deltas also code_deltas; frees code_of. The same for any numbering of
// the ids, so for any thread count.
void rank_classes(MoveGraph& g, const Rules& rules, bool with_ids, bool with_deltas);

}  // namespace fano::detail
