// A parallel least-significant-digit radix sort of 64-bit keys (internal to
// the solver).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "fano/buffer.hpp"
#include "fano/parallel.hpp"
#include "segmented.hpp"

namespace fano::detail {

// Returns keys sorted ascending by their bits [low_bit, 64), stably, so keys
// equal in those bits keep their order: the result is unique and does not
// depend on the thread count. Each pass counts 10-bit digits per chunk, turns
// the counts into chunk-and-digit offsets, then scatters the chunks in
// parallel. Only the digits below the highest set bit of any key are sorted
// on, so a 30-bit class number costs three passes (a third of a comparison
// sort's time here: results/design-measurements.md). high_bit, if the caller
// knows it, is one past the highest bit set in any key: the sort then skips
// its pass to find it. 10-bit digits rather than 11: the same three passes for
// a 30-bit number and four for 39 bits, with half as many open destinations
// per scatter and a prefix sum half as long (faster: results/cold-solve.md).
//
// keys is a vector of std::uint64_t or a Segmented array of them
// (segmented.hpp); the first pass reads it and then empties it (freeing its
// memory), so no more than two arrays of the keys are alive at once however
// they came: the ranking sorts the codes by id in their segments. The passes
// between the first and the last write into segments of the same size, which
// fit the holes the first pass's freed source leaves in the buffers' arena
// (a contiguous array went on top of the arena: results/cold-solve.md).
template <class Keys>
UninitVector<std::uint64_t> radix_sorted(Keys& keys, int low_bit, int high_bit = -1) {
  assert(low_bit >= 0 && low_bit < 64 && high_bit <= 64);
  constexpr int kDigitBits = 10;
  constexpr std::size_t kBuckets = std::size_t(1) << kDigitBits;
  constexpr std::size_t kChunk = std::size_t(1) << 13;  // small enough to balance 2 threads
  // A chunk of `from` in one stretch of memory (a segment holds whole chunks).
  const auto chunk = [](auto& from, std::size_t c) {
    if constexpr (requires { from.data(); })
      return from.data() + c * kChunk;
    else {
      static_assert(std::remove_cvref_t<decltype(from)>::kSegment % kChunk == 0);
      return from.at(c * kChunk);
    }
  };
  const std::size_t n = keys.size();
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  if (high_bit < 0) {
    std::uint64_t any = 0;
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::uint64_t* k = chunk(keys, c);
      for (std::size_t i = 0, e = std::min(kChunk, n - c * kChunk); i < e; ++i) any |= k[i];
    }
    high_bit = std::bit_width(any);
  }
  UninitVector<std::uint64_t> sorted;
  if (n < 2 || high_bit <= low_bit) {  // in order already
    sorted.resize(n);
    for (std::size_t c = 0; c < chunks; ++c)
      std::copy_n(chunk(keys, c), std::min(kChunk, n - c * kChunk), sorted.data() + c * kChunk);
    free_buffer(keys);
    return sorted;
  }
  // A solver buffer, not a std::vector: 4 KiB a chunk (68 KiB for the
  // standard game) from malloc was a fresh mapping of 4 KiB pages faulted in
  // and zeroed, where the arena has pages faulted in already; each pass
  // fills its counts before reading them.
  UninitVector<std::array<std::uint32_t, kBuckets>> offsets(chunks);
  CodeArray between;  // the other passes' destination
  // One pass on digit `shift` from `from` into `to`.
  const auto pass = [&](int shift, auto& from, auto& to) {
    const auto digit = [shift](std::uint64_t k) {
      return std::size_t(k >> shift) & (kBuckets - 1);
    };
    par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
      auto& count = offsets[c];
      count.fill(0);
      const std::uint64_t* k = chunk(from, c);
      for (std::size_t i = 0, e = std::min(kChunk, n - c * kChunk); i < e; ++i)
        ++count[digit(k[i])];
    });
    std::uint32_t at = 0;  // digit-major, then chunk order: stable
    for (std::size_t d = 0; d < kBuckets; ++d)
      for (std::size_t c = 0; c < chunks; ++c) {
        const std::uint32_t here = offsets[c][d];
        offsets[c][d] = at;
        at += here;
      }
    to.resize(n);
    par::parallel_for(std::size_t(0), chunks, [&](std::size_t c) {
      auto& next = offsets[c];
      const std::uint64_t* k = chunk(from, c);
      for (std::size_t i = 0, e = std::min(kChunk, n - c * kChunk); i < e; ++i)
        to[next[digit(k[i])]++] = k[i];
    });
  };
  // The passes alternate between the two destinations so that the last one
  // writes the contiguous result.
  const int passes = (high_bit - low_bit + kDigitBits - 1) / kDigitBits;
  for (int p = 0; p < passes; ++p) {
    const int shift = low_bit + p * kDigitBits;
    const bool into_sorted = (passes - 1 - p) % 2 == 0;
    if (p == 0) {
      if (into_sorted)
        pass(shift, keys, sorted);
      else
        pass(shift, keys, between);
      free_buffer(keys);
    } else if (into_sorted) {
      pass(shift, between, sorted);
    } else {
      pass(shift, sorted, between);
    }
  }
  return sorted;
}

}  // namespace fano::detail
