// Symmetries of the Fano plane and of a variant's move graph.
//
// A collineation is a permutation of the seven spaces mapping lines to lines;
// there are 168 (the group PGL(3,2)). Relabelling the board by one of them
// preserves every line, so it preserves who has lost by a line, but it need
// not preserve adjacency: on the printed board a piece at the centre has six
// neighbours and one at a corner three, so a collineation moving the centre to
// a corner changes which moves exist and can change a position's value. Only
// the subgroup that maps the variant's edge set onto itself is sound for
// reducing positions (6 elements on the board, all 168 when projective).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "fano/board.hpp"
#include "fano/state.hpp"

namespace fano {

// perm[s] is the image of space s (0-based).
using Permutation = std::array<std::uint8_t, kSpaces>;

// Every permutation of the spaces that maps each line onto a line, in
// lexicographic order (the identity first). Derived from kLineSpaces.
const std::vector<Permutation>& collineations();

// The collineations that also map the variant's edges onto edges.
std::vector<Permutation> move_graph_symmetries(Adjacency adjacency);

// Relabels the board: the stack on space s moves to space perm[s].
constexpr State permute(State st, const Permutation& perm) {
  std::uint64_t out = st.code & (std::uint64_t(1) << kSideBit);
  for (int s = 0; s < kSpaces; ++s)
    out |= std::uint64_t(st.stack(s)) << (kStackBits * perm[s]);
  return State{out};
}

// Canonical forms under a variant's move-graph symmetry group.
class Symmetry {
 public:
  explicit Symmetry(Adjacency adjacency);

  // The least code among the images of st under the group.
  State canonical(State st) const {
    State best = st;
    for (const Permutation& p : group_) {
      const State img = permute(st, p);
      if (img.code < best.code) best = img;
    }
    return best;
  }
  // The number of distinct positions symmetric to st (st included).
  int orbit_size(State st) const;
  const std::vector<Permutation>& group() const { return group_; }
  int order() const { return int(group_.size()); }

 private:
  std::vector<Permutation> group_;
};

}  // namespace fano
