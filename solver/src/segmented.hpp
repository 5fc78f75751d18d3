// An array in segments (internal to the solver).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "fano/buffer.hpp"

namespace fano::detail {

// An array in fixed segments of 2^Bits entries, so that growing it layer by
// layer never copies it (a vector's growth held the old and the new block at
// once, the largest moment of the standard game's search), so that a
// segment finds room in the holes other stages leave in the buffers' arena,
// where a block of megabytes would go on top (results/cold-solve.md), and so
// that a new segment's pages are first touched by whichever thread writes
// them, not by the one that grows the array.
template <class T, int Bits>
class Segmented {
 public:
  static constexpr int kBits = Bits;
  static constexpr std::size_t kSegment = std::size_t(1) << kBits;

  std::size_t size() const { return size_; }
  // Grows to n entries (the new ones unwritten).
  void resize(std::size_t n) {
    while (segments_.size() << kBits < n) segments_.emplace_back(kSegment);
    size_ = n;
  }
  // Sized for n entries with no segment allocated: allocate_segment(k)
  // allocates each one when it is first written, so that an array made
  // from another as that one is read and freed takes the memory it frees,
  // not as much again (in WebAssembly a memory never shrinks).
  void resize_unallocated(std::size_t n) {
    segments_.clear();
    segments_.resize(segments_of(n));
    size_ = n;
  }
  // Segment k's memory, if it has none yet (after resize_unallocated; distinct
  // segments from distinct threads).
  void allocate_segment(std::size_t k) {
    if (segments_[k].empty()) segments_[k] = UninitVector<T>(kSegment);
  }
  T& operator[](std::size_t k) { return segments_[k >> kBits][k & (kSegment - 1)]; }
  T operator[](std::size_t k) const { return segments_[k >> kBits][k & (kSegment - 1)]; }
  // Entries k, k + 1, ... up to the end of k's segment (k < size()).
  const T* at(std::size_t k) const { return segments_[k >> kBits].data() + (k & (kSegment - 1)); }
  T* at(std::size_t k) { return segments_[k >> kBits].data() + (k & (kSegment - 1)); }
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
  template <class F>
  void for_each_stretch(std::size_t first, std::size_t end, F&& f) {
    while (first < end) {
      const std::size_t in = first & (kSegment - 1);
      const std::size_t count = std::min(end - first, kSegment - in);
      f(first, segments_[first >> kBits].data() + in, count);
      first += count;
    }
  }
  // Shrinks to n entries, freeing the segments past them.
  void shrink(std::size_t n) {
    segments_.resize(std::min(segments_.size(), segments_of(n)));
    size_ = std::min(size_, n);
  }
  static constexpr std::size_t segments_of(std::size_t n) { return (n + kSegment - 1) >> kBits; }
  // Frees segment k's memory while the others stay (a pass that reads the
  // array once gives back what it has read; the array is then only emptied).
  void release_segment(std::size_t k) noexcept { free_buffer(segments_[k]); }
  // Moves each segment down to the lowest free range of the buffers' arena
  // that holds it, where that is below it (lower_buffer), the highest
  // segment first: the holes the array leaves merge above the rest.
  void lower() {
    std::vector<std::pair<std::uintptr_t, std::size_t>> by_address;
    for (std::size_t k = 0; k < segments_.size(); ++k)
      if (!segments_[k].empty())
        by_address.emplace_back(reinterpret_cast<std::uintptr_t>(segments_[k].data()), k);
    std::sort(by_address.begin(), by_address.end(), std::greater<>());
    for (const auto& [at, k] : by_address) lower_buffer(segments_[k]);
  }
  void swap(Segmented& other) noexcept {
    segments_.swap(other.segments_);
    std::swap(size_, other.size_);
  }

 private:
  std::vector<UninitVector<T>> segments_;
  std::size_t size_ = 0;
};

// The successor and predecessor lists: 128 KiB segments.
using EdgeArray = Segmented<std::uint32_t, 15>;
// The canonical codes by id, and the radix sort's passes between its first
// and its last: 128 KiB segments too.
using CodeArray = Segmented<std::uint64_t, 14>;

}  // namespace fano::detail
