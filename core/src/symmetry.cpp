#include "fano/symmetry.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <mutex>
#include <numeric>
#include <optional>

// The byte-shuffle kernels. SSSE3 is compiled in when the build passes its
// flag to this file (FANO_SSSE3, every x86-64 CPU since 2006; emscripten maps
// it to WebAssembly SIMD); the AVX2 kernels are compiled for x86-64 with a
// target attribute and chosen at run time, so the binary runs on any CPU.
#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif
#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define FANO_WASM_KERNELS 1
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__SSSE3__) && !defined(__EMSCRIPTEN__) && \
    defined(FANO_AVX2_KERNELS)
#include <immintrin.h>
#define FANO_AVX2_TARGET __attribute__((target("avx2")))
#if defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>  // glibc 2.33 and later
#define FANO_HAVE_GLIBC_X86_H 1
#endif
#endif
#endif

namespace fano {
namespace {

#if defined(__SSSE3__)
__m128i load(const std::uint8_t* bytes) {
  return _mm_load_si128(reinterpret_cast<const __m128i*>(bytes));
}
// The code in the low eight bytes, the shape-swapped code in the high eight.
__m128i source(State st) {
  return _mm_set_epi64x(static_cast<long long>(swap_shapes(st).code),
                        static_cast<long long>(st.code));
}
std::uint64_t low_half(__m128i x) { return static_cast<std::uint64_t>(_mm_cvtsi128_si64(x)); }
std::uint64_t high_half(__m128i x) {
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)));
}
#endif

#if defined(FANO_AVX2_TARGET)
// Whether the running CPU (and its operating system) lets AVX2 run. glibc's
// loader has already asked the CPU, so its answer is read rather than
// __builtin_cpu_supports's: that linked libgcc's feature probe into the
// program, several `cpuid` instructions at every start, and each traps to
// the hypervisor on a virtual machine (results/cold-solve.md).
bool cpu_has_avx2() {
#if defined(FANO_HAVE_GLIBC_X86_H)
  return CPU_FEATURE_ACTIVE(AVX2);
#else
  return __builtin_cpu_supports("avx2");
#endif
}

// Four images per shuffle (two consecutive pair controls, one per 128-bit
// lane) and a running minimum of 64-bit lanes. Codes are below 2^57, so the
// signed compare orders them as unsigned numbers. Two running minima over
// alternate quads halve the chain of dependent compares and blends, which
// bounds the 84 quads of the projective group.
FANO_AVX2_TARGET std::uint64_t canonical_avx2(State st, const std::uint8_t* controls,
                                              std::size_t quads) {
  const __m256i v = _mm256_broadcastsi128_si256(source(st));
  const __m256i* control = reinterpret_cast<const __m256i*>(controls);
  __m256i best = _mm256_set1_epi64x(static_cast<long long>(st.code)), other = best;
  std::size_t q = 0;
  for (; q + 2 <= quads; q += 2) {
    const __m256i a = _mm256_shuffle_epi8(v, _mm256_loadu_si256(control + q));
    const __m256i b = _mm256_shuffle_epi8(v, _mm256_loadu_si256(control + q + 1));
    best = _mm256_blendv_epi8(best, a, _mm256_cmpgt_epi64(best, a));
    other = _mm256_blendv_epi8(other, b, _mm256_cmpgt_epi64(other, b));
  }
  if (q < quads) {
    const __m256i a = _mm256_shuffle_epi8(v, _mm256_loadu_si256(control + q));
    best = _mm256_blendv_epi8(best, a, _mm256_cmpgt_epi64(best, a));
  }
  best = _mm256_blendv_epi8(best, other, _mm256_cmpgt_epi64(best, other));
  __m128i m = _mm256_castsi256_si128(best);
  const __m128i upper = _mm256_extracti128_si256(best, 1);
  m = _mm_blendv_epi8(m, upper, _mm_cmpgt_epi64(m, upper));
  const __m128i high = _mm_unpackhi_epi64(m, m);
  m = _mm_blendv_epi8(m, high, _mm_cmpgt_epi64(m, high));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(m));
}

FANO_AVX2_TARGET void canonicalise_avx2(std::uint64_t* codes, std::size_t n,
                                        const std::uint8_t* controls, std::size_t quads) {
  for (std::size_t i = 0; i < n; ++i) codes[i] = canonical_avx2(State{codes[i]}, controls, quads);
}

// The images equal to st among the quads' four lanes each (padding included).
FANO_AVX2_TARGET int fixed_images_avx2(State st, const std::uint8_t* controls, std::size_t quads) {
  const __m256i v = _mm256_broadcastsi128_si256(source(st));
  const __m256i* control = reinterpret_cast<const __m256i*>(controls);
  const __m256i self = _mm256_set1_epi64x(static_cast<long long>(st.code));
  int fixed = 0;
  for (std::size_t q = 0; q < quads; ++q) {
    const __m256i img = _mm256_shuffle_epi8(v, _mm256_loadu_si256(control + q));
    fixed += std::popcount(
        unsigned(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(img, self)))));
  }
  return fixed;
}
#endif

#if defined(FANO_WASM_KERNELS)
// WebAssembly's own SIMD for the least image: emscripten's SSSE3 shuffle masks
// each control byte again (a v128.and per shuffle) and the images' minimum
// was taken in scalar code, two lane extractions and two compares per
// shuffle; here both halves stay in one vector, whose two running minima are
// kept by a 64-bit compare and a select (codes are below 2^57, so the signed
// compare orders them). The controls' zeroing bytes (0x80) are out of the
// swizzle's range, so it zeroes them itself.
std::uint64_t canonical_wasm(State st, const std::uint8_t* controls, std::size_t pairs) {
  const v128_t v = wasm_i64x2_make(static_cast<std::int64_t>(st.code),
                                   static_cast<std::int64_t>(swap_shapes(st).code));
  v128_t best = wasm_i64x2_splat(static_cast<std::int64_t>(st.code)), other = best;
  std::size_t k = 0;
  for (; k + 2 <= pairs; k += 2) {
    const v128_t a = wasm_i8x16_swizzle(v, wasm_v128_load(controls + 16 * k));
    const v128_t b = wasm_i8x16_swizzle(v, wasm_v128_load(controls + 16 * (k + 1)));
    best = wasm_v128_bitselect(a, best, wasm_i64x2_gt(best, a));
    other = wasm_v128_bitselect(b, other, wasm_i64x2_gt(other, b));
  }
  if (k < pairs) {
    const v128_t a = wasm_i8x16_swizzle(v, wasm_v128_load(controls + 16 * k));
    best = wasm_v128_bitselect(a, best, wasm_i64x2_gt(best, a));
  }
  best = wasm_v128_bitselect(other, best, wasm_i64x2_gt(best, other));
  const std::uint64_t lo = static_cast<std::uint64_t>(wasm_i64x2_extract_lane(best, 0));
  const std::uint64_t hi = static_cast<std::uint64_t>(wasm_i64x2_extract_lane(best, 1));
  return lo < hi ? lo : hi;
}
#endif

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
#if defined(FANO_AVX2_TARGET)
  avx2_ = cpu_has_avx2();
#endif
}

void Symmetry::canonicalise(std::uint64_t* codes, std::size_t n) const {
#if defined(FANO_AVX2_TARGET)
  if (avx2_) return canonicalise_avx2(codes, n, shuffles_.front().bytes, shuffles_.size() / 2);
#endif
#if defined(FANO_WASM_KERNELS)
  const std::uint8_t* const controls = shuffles_.front().bytes;
  const std::size_t pairs = group_.size() / 2;
  for (std::size_t i = 0; i < n; ++i) codes[i] = canonical_wasm(State{codes[i]}, controls, pairs);
  return;
#endif
  for (std::size_t i = 0; i < n; ++i) codes[i] = canonical(State{codes[i]}).code;
}

State Symmetry::canonical(State st) const {
#if defined(FANO_AVX2_TARGET)
  if (avx2_) return State{canonical_avx2(st, shuffles_.front().bytes, shuffles_.size() / 2)};
#endif
#if defined(FANO_WASM_KERNELS)
  return State{canonical_wasm(st, shuffles_.front().bytes, group_.size() / 2)};
#endif
#if defined(__SSSE3__)
  // Two running minima (the low and the high image of each shuffle) halve the
  // chain of dependent comparisons.
  std::uint64_t lo = st.code, hi = st.code;
  const __m128i v = source(st);
  for (std::size_t k = 0; k < group_.size() / 2; ++k) {
    const __m128i img = _mm_shuffle_epi8(v, load(shuffles_[k].bytes));
    const std::uint64_t a = low_half(img), b = high_half(img);
    lo = a < lo ? a : lo;
    hi = b < hi ? b : hi;
  }
  return State{lo < hi ? lo : hi};
#else
  std::uint64_t best = st.code;
  for (const SymmetryElement& g : group_) {
    const std::uint64_t img = apply(st, g).code;
    best = img < best ? img : best;
  }
  return State{best};
#endif
}

int Symmetry::images(State st, std::uint64_t* out) const {
#if defined(__SSSE3__)
  const __m128i v = source(st);
  for (std::size_t k = 0; k < group_.size() / 2; ++k) {
    const __m128i img = _mm_shuffle_epi8(v, load(shuffles_[k].bytes));
    *out++ = low_half(img);
    *out++ = high_half(img);
  }
#else
  for (const SymmetryElement& g : group_) *out++ = apply(st, g).code;
#endif
  return order();
}

const Symmetry& symmetry_of(const Variant& rules) {
  assert(is_valid_rules(rules));
  // The group depends on the adjacency and on whether the shapes may swap
  // (rule_symmetries), so four Symmetry values serve every rules value. Each
  // is built on first use only: building all of them cost a fresh `fano
  // solve` about a millisecond and 50 page faults for a group it never reads.
  static std::array<std::once_flag, 4> once;
  static std::array<std::optional<Symmetry>, 4> built;
  const std::size_t index = std::size_t(int(rules.adjacency) * 2 + int(rules.shapes_alike()));
  std::call_once(once[index], [&] { built[index].emplace(rules); });
  return *built[index];
}

int Symmetry::orbit_size(State st) const {
  // Orbit-stabiliser: |orbit| = |group| / |elements fixing st|.
  int fixed = 0;
#if defined(FANO_AVX2_TARGET)
  if (avx2_) {
    // Four images per shuffle compared with st lane by lane, less the
    // padding's identity images (see Shuffle).
    fixed = fixed_images_avx2(st, shuffles_.front().bytes, shuffles_.size() / 2) - padding_;
    return order() / fixed;
  }
#endif
#if defined(__SSSE3__)
  // Both images of a shuffle compared with st at once, byte by byte.
  const __m128i v = source(st), self = _mm_set1_epi64x(static_cast<long long>(st.code));
  for (std::size_t k = 0; k < group_.size() / 2; ++k) {
    const unsigned same = unsigned(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_shuffle_epi8(v, load(shuffles_[k].bytes)), self)));
    fixed += int((same & 0xff) == 0xff) + int((same >> 8) == 0xff);
  }
#else
  for (const SymmetryElement& g : group_) fixed += apply(st, g).code == st.code;
#endif
  return order() / fixed;
}

}  // namespace fano
