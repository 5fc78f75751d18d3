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
//
// The rules also treat the two shapes alike (RULES.md: each player has two
// circles and two triangles; a stack never holds two identical pieces; a line
// of one colour or of one shape loses), so exchanging circles and triangles
// for both colours at once maps legal moves to legal moves, a line of one
// shape to a line of the other shape, and fixes the empty board, hence the
// reachable set. The full group used to reduce positions is the move-graph
// symmetries times this shape swap: 12 elements on the board, 336 projective.
//
// The group is derived from the rules (rule_symmetries(const Variant&)): the
// shape swap belongs to it exactly when each player has as many circles as
// triangles. With unequal counts the swap maps the game to another one (the
// supply of a 2-circle game becomes 2 triangles), so it is left out. With
// colour-only lines the swap is still sound when the counts are equal: shapes
// then matter only to the stacking rule (a stack never holds two identical
// pieces) and to the supply, and the swap, applied to both colours at once,
// maps identical pieces to identical pieces and each supply count to an equal
// one, while a line of one colour stays a line of that colour; the empty
// board is fixed, so the reachable set maps onto itself. Without the swap the
// group is 6 (board) or 168 (projective) elements.
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
  for (int s = 0; s < kSpaces; ++s) out |= std::uint64_t(st.stack(s)) << (kStackBits * perm[s]);
  return State{out};
}

// Per stack byte, the shape bits (bit 0 of each occupied slot) as a mask:
// slot i is occupied when the height (bits 7..6) exceeds i. Side bit untouched.
constexpr std::uint64_t shape_bits(std::uint64_t code) {
  constexpr std::uint64_t kOnes = 0x0001010101010101ull;  // bit 0 of stack bytes 0..6
  const std::uint64_t hi = (code >> 7) & kOnes, lo = (code >> 6) & kOnes;
  return (hi | lo) | hi << 2 | (hi & lo) << 4;
}

// Exchanges circles and triangles of both colours (the side to move stays).
constexpr State swap_shapes(State st) { return State{st.code ^ shape_bits(st.code)}; }

// An element of a variant's rule symmetry group: relabel the spaces by perm,
// then, when swap is set, exchange the shapes (the two commute).
struct SymmetryElement {
  Permutation perm{};
  bool swap = false;

  constexpr bool operator==(const SymmetryElement&) const = default;
  // (written out: the WebAssembly build's standard library has no <=> for std::array,
  // so a defaulted one would be deleted there)
  constexpr bool operator<(const SymmetryElement& o) const {
    return perm != o.perm ? perm < o.perm : swap < o.swap;
  }
};

constexpr State apply(State st, const SymmetryElement& g) {
  const State p = permute(st, g.perm);
  return g.swap ? swap_shapes(p) : p;
}

// The rules' symmetry group: every move-graph symmetry without the shape swap
// (identity first), then, when the rules treat the shapes alike
// (Variant::shapes_alike), each again with it: 12 or 336 elements, else 6 or
// 168. The Adjacency overload is the rulebook's material (with the swap).
std::vector<SymmetryElement> rule_symmetries(const Variant& rules);
std::vector<SymmetryElement> rule_symmetries(Adjacency adjacency);

// The largest group order of any rules (168 collineations times the swap).
inline constexpr int kMaxSymmetries = 336;

class Symmetry;
// The Symmetry of a rules value, built once per rules value for the program's
// life (thread-safe); requires valid rules (is_valid_rules).
const Symmetry& symmetry_of(const Variant& rules);

// Canonical forms under a variant's rule symmetry group (rule_symmetries).
class Symmetry {
 public:
  explicit Symmetry(const Variant& rules);
  explicit Symmetry(Adjacency adjacency);

  // The least code among the images of st under the group. The byte-shuffle
  // kernels (SSSE3, and AVX2 where the running CPU has it) live in
  // symmetry.cpp, compiled with their flags privately: no header of the
  // project needs a SIMD flag, and one binary runs on any x86-64 CPU.
  State canonical(State st) const;
  // Replaces codes[0 .. n) by their canonical codes (canonical() of each, in
  // one call: a search canonicalises every child of a position together).
  void canonicalise(std::uint64_t* codes, std::size_t n) const;
  // Writes the image of st under each group element, in group order, to
  // out[0 .. order()); returns order(). Requires room for kMaxSymmetries.
  int images(State st, std::uint64_t* out) const;
  // Calls f(code) for the image of st under each group element, in group order.
  template <class F>
  void for_each_image(State st, F&& f) const {
    std::array<std::uint64_t, kMaxSymmetries> buffer;
    const int n = images(st, buffer.data());
    for (int i = 0; i < n; ++i) f(buffer[std::size_t(i)]);
  }
  // The number of distinct positions symmetric to st (st included).
  int orbit_size(State st) const;
  // The elements in the order of for_each_image.
  const std::vector<SymmetryElement>& group() const { return group_; }
  int order() const { return int(group_.size()); }

 private:
  std::vector<SymmetryElement> group_;
  // pshufb controls, one per pair of consecutive group elements (the order is
  // even; 6 and 168 without the shape swap, 12 and 336 with it): the source register holds the code
  // in its low eight bytes and the shape-swapped code in its high eight, so one shuffle computes
  // two images, the first element's in the low half and the second's in the high half. With AVX2,
  // two consecutive controls form one 32-byte control for four elements: an order that is not a
  // multiple of four (6) gets one more control of two identity images (padding_ of them), harmless
  // to the least image and subtracted by orbit_size. Unused without SSSE3.
  struct alignas(16) Shuffle {
    std::uint8_t bytes[16];
  };
  // Whether canonical() and orbit_size() run the AVX2 kernels (the CPU has
  // AVX2 and the build compiled them).
  bool avx2_ = false;
  std::vector<Shuffle> shuffles_;
  int padding_ = 0;  // identity images after the group's own (see Shuffle)
};

}  // namespace fano
