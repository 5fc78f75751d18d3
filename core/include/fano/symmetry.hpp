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

#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

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
  for (int s = 0; s < kSpaces; ++s) out |= std::uint64_t(st.stack(s)) << (kStackBits * perm[s]);
  return State{out};
}

// Canonical forms under a variant's move-graph symmetry group.
class Symmetry {
 public:
  explicit Symmetry(Adjacency adjacency);

  // The least code among the images of st under the group.
  State canonical(State st) const {
    std::uint64_t best = st.code;
    for_each_image(st, [&](std::uint64_t img) { best = img < best ? img : best; });
    return State{best};
  }
  // Calls f(code) for the image of st under each group element, in group order.
  template <class F>
  void for_each_image(State st, F&& f) const {
#if defined(__SSSE3__)
    // One byte shuffle per group element: byte perm[s] of the image is byte s.
    const __m128i v = _mm_cvtsi64_si128(static_cast<long long>(st.code));
    for (const Shuffle& m : shuffles_) {
      const __m128i control = _mm_load_si128(reinterpret_cast<const __m128i*>(m.bytes));
      f(static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_shuffle_epi8(v, control))));
    }
#else
    for (const Permutation& p : group_) f(permute(st, p).code);
#endif
  }
  // The number of distinct positions symmetric to st (st included).
  int orbit_size(State st) const;
  const std::vector<Permutation>& group() const { return group_; }
  int order() const { return int(group_.size()); }

 private:
  std::vector<Permutation> group_;
  // pshufb controls, one per group element (unused without SSSE3).
  struct alignas(16) Shuffle {
    std::uint8_t bytes[16];
  };
  std::vector<Shuffle> shuffles_;
};

}  // namespace fano
