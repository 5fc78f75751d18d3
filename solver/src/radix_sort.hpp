// A parallel least-significant-digit radix sort of 64-bit keys (internal to
// the solver).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <mutex>
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

// Sorts a[0, n) ascending by the bits [low_bit, high_bit) of its keys on
// one thread, between a and tmp (n entries each): 11-bit digits, a pass
// skipped where every key has the same digit. Returns where the sorted keys
// are (a or tmp).
inline std::uint64_t* radix_sort_between(std::uint64_t* a, std::uint64_t* tmp, std::size_t n,
                                         int low_bit, int high_bit) {
  constexpr int kDigitBits = 11;
  constexpr std::size_t kDigits = std::size_t(1) << kDigitBits;
  std::array<std::uint32_t, kDigits> count;
  std::uint64_t* from = a;
  std::uint64_t* to = tmp;
  for (int shift = low_bit; shift < high_bit; shift += kDigitBits) {
    const int bits = std::min(kDigitBits, high_bit - shift);
    const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
    count.fill(0);
    for (std::size_t i = 0; i < n; ++i) ++count[(from[i] >> shift) & mask];
    if (count[(from[0] >> shift) & mask] == n) continue;  // one digit: in order already
    std::uint32_t at = 0;
    for (std::size_t d = 0; d <= mask; ++d) {
      const std::uint32_t here = count[d];
      count[d] = at;
      at += here;
    }
    for (std::size_t i = 0; i < n; ++i) to[count[(from[i] >> shift) & mask]++] = from[i];
    std::swap(from, to);
  }
  return from;
}

// The same order as radix_sorted for keys that are distinct in the bits
// [low_bit, high_bit) (any sort gives it then), for large arrays: at most
// one array of the keys and a few blocks are alive at once, where the
// passes of radix_sorted hold two (16 bytes a key; the ranking's was the
// largest moment of the largest solves: results/solve-memory.md).
//
// A count of the keys' top 16 bits splits them into buckets of nearly equal
// size (consecutive digits); one pass moves the keys into blocks of their
// bucket, one thread's blocks apart from another's, freeing each segment of
// `keys` once read; then each bucket's blocks are gathered into a thread's
// spare array, freed as they are read, the bucket is sorted there and
// copied into its place in the result, a segmented array whose segments are
// allocated as the buckets reach them. The blocks are 64 KiB, the smallest a
// large arena gives back to the system (buffer.cpp), so the
// result's pages replace theirs; in WebAssembly the result's segments take
// the blocks' memory (a contiguous result found no hole of its size there).
// Natively, where freed pages go back to the system, the result is one
// array and each bucket is gathered and sorted in its place, with no copy
// out of a spare array (the segmented result's copy and its faults cost the
// ranking half as much again: results/solve-memory.md).
template <bool kSegmentedResult = kFreedMemoryKept>
std::conditional_t<kSegmentedResult, CodeArray, UninitVector<std::uint64_t>> bucket_sorted(
    CodeArray& keys, int low_bit, int high_bit) {
  constexpr int kTopBits = 16;
  constexpr std::size_t kTop = std::size_t(1) << kTopBits;
  constexpr std::size_t kBlock = std::size_t(1) << 13;  // keys: 64 KiB
  const std::size_t n = keys.size();
  const std::size_t segments = CodeArray::segments_of(n);
  const int shift = std::max(low_bit, high_bit - kTopBits);
  const auto top = [shift](std::uint64_t k) { return std::size_t(k >> shift) & (kTop - 1); };
  const auto segment_keys = [&](std::size_t s) {
    return std::pair{keys.at(s * CodeArray::kSegment),
                     std::min(CodeArray::kSegment, n - s * CodeArray::kSegment)};
  };
  // The top digits' counts.
  // Buffers, not std::vectors (here and below): in WebAssembly malloc's
  // memory comes from the same growing stretch as the arena's, and a few
  // hundred KiB taken between two of the arena's stretches split its free
  // memory for the rest of the solve.
  par::enumerable_thread_specific<UninitVector<std::uint32_t>> counts;
  par::parallel_for(std::size_t(0), segments, [&](std::size_t s) {
    auto& count = counts.local();
    if (count.empty()) count.assign(kTop, 0);
    const auto [k, m] = segment_keys(s);
    for (std::size_t i = 0; i < m; ++i) ++count[top(k[i])];
  });
  UninitVector<std::uint32_t> count(kTop, 0);
  for (const auto& c : counts)
    if (!c.empty())
      for (std::size_t d = 0; d < kTop; ++d) count[d] += c[d];
  // Buckets of about kBlock * 8 keys each, at most 256 (a thread's last
  // block of each bucket is partly empty: half a block a bucket and thread).
  const std::size_t target = std::max(n / 256, kBlock * 8);
  UninitVector<std::uint16_t> bucket_of(kTop);
  std::vector<std::size_t> bucket_at{0};  // where each bucket starts in the result
  for (std::size_t d = 0, in = 0; d < kTop; ++d) {
    bucket_of[d] = std::uint16_t(bucket_at.size() - 1);
    in += count[d];
    if (in >= target) bucket_at.push_back(bucket_at.back() + in), in = 0;
  }
  if (bucket_at.back() < n) bucket_at.push_back(n);
  const std::size_t buckets = bucket_at.size() - 1;
  // A thread's blocks of each bucket; the last one's end.
  struct Blocks {
    std::vector<std::vector<UninitVector<std::uint64_t>>> of;
    std::vector<std::uint64_t*> next, end;
  };
  par::enumerable_thread_specific<Blocks> blocks;
  par::parallel_for(std::size_t(0), segments, [&](std::size_t s) {
    Blocks& b = blocks.local();
    if (b.of.empty()) b.of.resize(buckets), b.next.assign(buckets, nullptr), b.end = b.next;
    const auto [k, m] = segment_keys(s);
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t d = bucket_of[top(k[i])];
      if (b.next[d] == b.end[d]) {
        b.of[d].emplace_back(kBlock);
        b.next[d] = b.of[d].back().data(), b.end[d] = b.next[d] + kBlock;
      }
      *b.next[d]++ = k[i];
    }
    keys.release_segment(s);
  });
  free_buffer(keys);
  std::vector<Blocks*> all;
  for (Blocks& b : blocks)
    if (!b.of.empty()) all.push_back(&b);
  std::size_t largest = 0;
  for (std::size_t d = 0; d < buckets; ++d)
    largest = std::max(largest, bucket_at[d + 1] - bucket_at[d]);
  // Each bucket is gathered and sorted in a thread's two spare arrays (its
  // blocks freed as they are read), then copied into the result's segments,
  // each allocated when a bucket first reaches it: the result takes the
  // blocks' memory as they are freed instead of a second array of the keys
  // beside them (in WebAssembly that array was the largest solve's peak,
  // 228 MiB that no hole held: results/solve-memory.md). Natively the
  // bucket is gathered into its place in the result and sorted there, with
  // one spare array.
  std::conditional_t<kSegmentedResult, CodeArray, UninitVector<std::uint64_t>> sorted;
  if constexpr (kSegmentedResult)
    sorted.resize_unallocated(n);
  else
    sorted.resize(n);
  std::mutex allocating;
  struct Spare {
    UninitVector<std::uint64_t> keys, tmp;
  };
  par::enumerable_thread_specific<Spare> spares;
  par::parallel_for(std::size_t(0), buckets, [&](std::size_t d) {
    Spare& spare = spares.local();
    if (spare.tmp.empty()) {
      spare.tmp.resize(largest);
      if constexpr (kSegmentedResult) spare.keys.resize(largest);
    }
    const std::size_t first = bucket_at[d];
    std::uint64_t* const gathered = kSegmentedResult ? spare.keys.data() : &sorted[first];
    std::size_t filled = 0;
    for (Blocks* b : all) {
      auto& list = b->of[d];
      for (std::size_t j = 0; j < list.size(); ++j) {
        const std::size_t m =
            j + 1 < list.size() ? kBlock : std::size_t(b->next[d] - list[j].data());
        std::copy_n(list[j].data(), m, gathered + filled);
        filled += m;
        free_buffer(list[j]);
      }
    }
    assert(filled == bucket_at[d + 1] - first);
    if (filled == 0) return;
    const std::uint64_t* in =
        radix_sort_between(gathered, spare.tmp.data(), filled, low_bit, high_bit);
    if constexpr (kSegmentedResult) {
      {
        const std::lock_guard lock(allocating);
        for (std::size_t k = first >> CodeArray::kBits;
             k <= (first + filled - 1) >> CodeArray::kBits; ++k)
          sorted.allocate_segment(k);
      }
      sorted.for_each_stretch(first, first + filled,
                              [&](std::size_t at, std::uint64_t* out, std::size_t m) {
                                std::copy_n(in + (at - first), m, out);
                              });
    } else if (in != gathered) {
      std::copy_n(in, filled, gathered);
    }
  });
  return sorted;
}

}  // namespace fano::detail
