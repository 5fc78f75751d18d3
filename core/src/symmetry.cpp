#include "fano/symmetry.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <numeric>

namespace fano {
namespace {

bool maps_lines_to_lines(const Permutation& p) {
  for (SpaceMask lm : kLineMasks) {
    SpaceMask img = 0;
    for (int s = 0; s < kSpaces; ++s)
      if (lm >> s & 1) img |= SpaceMask(1u << p[s]);
    if (std::find(kLineMasks.begin(), kLineMasks.end(), img) == kLineMasks.end()) return false;
  }
  return true;
}

}  // namespace

const std::vector<Permutation>& collineations() {
  static const std::vector<Permutation> group = [] {
    std::vector<Permutation> out;
    std::vector<int> images(kSpaces);
    std::iota(images.begin(), images.end(), 0);
    do {
      Permutation p;
      std::copy(images.begin(), images.end(), p.begin());
      if (maps_lines_to_lines(p)) out.push_back(p);
    } while (std::next_permutation(images.begin(), images.end()));
    return out;
  }();
  return group;
}

std::vector<Permutation> move_graph_symmetries(Adjacency adjacency) {
  const auto nb = neighbour_masks(adjacency);
  std::vector<Permutation> out;
  for (const Permutation& p : collineations()) {
    bool ok = true;
    for (int a = 0; a < kSpaces && ok; ++a)
      for (int b = 0; b < kSpaces && ok; ++b)
        if ((nb[a] >> b & 1) != (nb[p[a]] >> p[b] & 1)) ok = false;
    if (ok) out.push_back(p);
  }
  return out;
}

std::vector<SymmetryElement> rule_symmetries(const Variant& rules) {
  const std::vector<Permutation> spatial = move_graph_symmetries(rules.adjacency);
  std::vector<SymmetryElement> out;
  for (bool swap : {false, true}) {
    if (swap && !rules.shapes_alike()) break;
    for (const Permutation& p : spatial) out.push_back(SymmetryElement{p, swap});
  }
  return out;
}

std::vector<SymmetryElement> rule_symmetries(Adjacency adjacency) {
  return rule_symmetries(Variant{2, adjacency});
}

Symmetry::Symmetry(Adjacency adjacency) : Symmetry(Variant{2, adjacency}) {}

Symmetry::Symmetry(const Variant& rules) : group_(rule_symmetries(rules)) {
#if defined(__SSSE3__)
  static_assert(kSideBit / 8 == 7, "the side to move is the eighth byte of a code");
  assert(group_.size() % 2 == 0);  // pairs (6, 12, 168, 336)
  // Pairs of pairs with AVX2: pad with identity images to a multiple of four.
  std::vector<SymmetryElement> elements = group_;
  while (elements.size() % 4 != 0) elements.push_back(group_.front()), ++padding_;
  for (std::size_t e = 0; e < elements.size(); e += 2) {
    Shuffle control;
    std::fill(std::begin(control.bytes), std::end(control.bytes), std::uint8_t(0x80));  // zero
    for (int half = 0; half < 2; ++half) {
      // Output byte perm[s] of this half is stack byte s of the code, or of the
      // swapped code (source bytes 8..15); the side-to-move byte stays.
      const SymmetryElement& g = elements[e + std::size_t(half)];
      const std::uint8_t from = g.swap ? 8 : 0;
      for (int s = 0; s < kSpaces; ++s)
        control.bytes[8 * half + g.perm[s]] = std::uint8_t(from + s);
      control.bytes[8 * half + 7] = std::uint8_t(from + 7);
    }
    shuffles_.push_back(control);
  }
#endif
}

const Symmetry& symmetry_of(const Variant& rules) {
  assert(is_valid_rules(rules));
  // Every valid rules value: cap, adjacency, lines, circles, triangles.
  static const std::vector<Symmetry> all = [] {
    std::vector<Symmetry> out;
    for (int cap = 2; cap <= 3; ++cap)
      for (int adj = 0; adj < 2; ++adj)
        for (int lines = 0; lines < 2; ++lines)
          for (int c = 1; c <= 3; ++c)
            for (int t = 1; t <= 3; ++t)
              out.emplace_back(Variant{cap, Adjacency(adj), Lines(lines), c, t});
    return out;
  }();
  const int index =
      ((((rules.stack_cap - 2) * 2 + int(rules.adjacency)) * 2 + int(rules.lines)) * 3 +
       rules.circles - 1) *
          3 +
      rules.triangles - 1;
  return all[std::size_t(index)];
}

int Symmetry::orbit_size(State st) const {
  // Orbit-stabiliser: |orbit| = |group| / |elements fixing st|.
  int fixed = 0;
#if defined(__AVX2__)
  // Four images per shuffle (see canonical) compared with st lane by lane.
  const __m256i self = _mm256_set1_epi64x(static_cast<long long>(st.code));
  for_each_quad(st, [&](__m256i img) {
    fixed += std::popcount(
        unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(img, self)))));
  });
#elif defined(__SSSE3__)
  // Both images of a shuffle compared with st at once, byte by byte.
  const __m128i v = source(st), self = _mm_set1_epi64x(static_cast<long long>(st.code));
  for (std::size_t k = 0; k < group_.size() / 2; ++k) {
    const Shuffle& m = shuffles_[k];
    const unsigned same =
        unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_shuffle_epi8(v, m.load()), self)));
    fixed += int((same & 0xff) == 0xff) + int((same >> 8) == 0xff);
  }
#else
  for_each_image(st, [&](std::uint64_t img) { fixed += img == st.code; });
#endif
#if defined(__AVX2__)
  fixed -= padding_;  // the padding's identity images (see Shuffle)
#endif
  return order() / fixed;
}

}  // namespace fano
