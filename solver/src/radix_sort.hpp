// A parallel least-significant-digit radix sort of 64-bit keys (internal to
// the solver).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <vector>

#include "fano/buffer.hpp"
#include "fano/parallel.hpp"

namespace fano::detail {

// Sorts keys ascending by their bits [low_bit, 64), stably, so keys equal in
// those bits keep their order: the result is unique and does not depend on the
// thread count. Each pass counts 10-bit digits per chunk, turns the counts into
// chunk-and-digit offsets, then scatters the chunks in parallel. Only the
// digits below the highest set bit of any key are sorted on, so a 30-bit class
// number costs three passes (a third of a comparison sort's time here:
// results/design-measurements.md). high_bit, if the caller knows it, is one
// past the highest bit set in any key: the sort then skips its pass to find it.
// 10-bit digits rather than 11: the same three passes for a 30-bit number and
// four for 39 bits, with half as many open destinations per scatter and a
// prefix sum half as long (12% faster: results/cold-solve.md).
template <class Keys>  // a vector of std::uint64_t
void radix_sort(Keys& keys, int low_bit, int high_bit = -1) {
  assert(low_bit >= 0 && low_bit < 64 && high_bit <= 64);
  constexpr int kDigitBits = 10;
  constexpr std::size_t kBuckets = std::size_t(1) << kDigitBits;
  constexpr std::size_t kChunk = std::size_t(1) << 13;  // small enough to balance 2 threads
  const std::size_t n = keys.size();
  if (n < 2) return;
  if (high_bit < 0) {
    std::uint64_t any = 0;
    for (const std::uint64_t k : keys) any |= k;
    high_bit = std::bit_width(any);
  }
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  Keys other(n);
  // A solver buffer, not a std::vector: 4 KiB a chunk (68 KiB for the
  // standard game) from malloc was a fresh mapping of 4 KiB pages faulted in
  // and zeroed, where the arena has pages faulted in already; each pass
  // fills its counts before reading them.
  UninitVector<std::array<std::uint32_t, kBuckets>> offsets(chunks);
  for (int shift = low_bit; shift < high_bit; shift += kDigitBits) {
    const auto digit = [shift](std::uint64_t k) {
      return std::size_t(k >> shift) & (kBuckets - 1);
    };
    par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
      auto& count = offsets[c];
      count.fill(0);
      for (std::size_t i = c * kChunk, e = std::min(n, i + kChunk); i < e; ++i)
        ++count[digit(keys[i])];
    });
    std::uint32_t at = 0;  // digit-major, then chunk order: stable
    for (std::size_t d = 0; d < kBuckets; ++d)
      for (std::size_t c = 0; c < chunks; ++c) {
        const std::uint32_t here = offsets[c][d];
        offsets[c][d] = at;
        at += here;
      }
    par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
      auto& next = offsets[c];
      for (std::size_t i = c * kChunk, e = std::min(n, i + kChunk); i < e; ++i)
        other[next[digit(keys[i])]++] = keys[i];
    });
    keys.swap(other);
  }
}

}  // namespace fano::detail
