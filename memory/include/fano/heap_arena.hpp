// The large blocks where there is no mmap (WebAssembly): carved from memory
// the arena takes from the system in one growing stretch (sbrk), lowest free
// range first, freed ranges merged with their neighbours and handed out
// again, as the mmap arena does with its address space (buffer.cpp).
//
// Why not operator new: a WebAssembly memory never shrinks, so the page's
// peak is the heap's high-water mark, not what is live at once. Under
// dlmalloc (best fit) a large solve's blocks that outlive a stage stayed
// scattered over the memory, and the next stage's large arrays found no hole
// to fit and grew the memory past them; lowest first keeps the long-lived
// blocks at the bottom (lower_buffer moves them down), so the holes merge
// above them, as in the native arena (results/solve-memory.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>

namespace fano::detail {

// The free ranges of an arena, by start (an address or an offset): merged
// with their neighbours, handed out lowest first. The one bookkeeping of both
// arenas: HeapArena's and the mmap arena's chunks (buffer.cpp).
class FreeRanges {
 public:
  using Map = std::map<std::uintptr_t, std::size_t>;  // start -> length

  // The start of the lowest range of at least `size` bytes, whose first
  // `size` bytes are taken; false when none is that long.
  bool take_lowest(std::size_t size, std::uintptr_t& at);
  // The start of the lowest range of at least `size` bytes (nothing taken);
  // false when none is that long.
  bool lowest(std::size_t size, std::uintptr_t& at) const noexcept;
  // [at, at + length) joined with the free ranges it touches, which are
  // removed: the joined range, not yet added (the caller adds it, or not).
  std::pair<std::uintptr_t, std::size_t> join_neighbours(std::uintptr_t at,
                                                         std::size_t length) noexcept;
  // Adds a range that touches none (one from join_neighbours); a range the
  // map has no memory to hold is lost to this process.
  void add(std::uintptr_t at, std::size_t length) noexcept;

  // The range that holds `at` (at or below it, the last such; end() if none
  // starts at or below it).
  Map::const_iterator holding(std::uintptr_t at) const noexcept {
    auto it = ranges_.upper_bound(at);
    return it == ranges_.begin() ? ranges_.end() : std::prev(it);
  }
  bool empty() const noexcept { return ranges_.empty(); }
  // The highest range (not empty()).
  const Map::value_type& last() const noexcept { return *ranges_.rbegin(); }
  Map::const_iterator begin() const noexcept { return ranges_.begin(); }
  Map::const_iterator end() const noexcept { return ranges_.end(); }

 private:
  Map ranges_;
};

class HeapArena {
 public:
  // Returns `bytes` more bytes of memory, or nullptr when the system refuses;
  // grow(0) returns where the next bytes would start. Successive stretches
  // need not be contiguous (another user of the same source may take memory
  // in between); where they are, they merge.
  using Grow = void* (*)(std::size_t bytes);
  // Blocks are multiples of this many bytes at addresses aligned to it.
  static constexpr std::size_t kGrain = 4096;

  explicit HeapArena(Grow grow) noexcept : grow_(grow) {}
  HeapArena(const HeapArena&) = delete;
  HeapArena& operator=(const HeapArena&) = delete;

  // A block of at least `bytes`, aligned to kGrain: the lowest free range
  // that fits, else the free range ending where the memory ends grown in
  // place, else new memory. Throws std::bad_alloc when the system refuses.
  void* allocate(std::size_t bytes);
  // Returns a block from allocate(bytes) (the same `bytes`).
  void release(void* block, std::size_t bytes) noexcept;
  // Whether allocate(bytes) would return a block below `limit` (from a free
  // range, without growing the memory).
  bool fits_below(std::size_t bytes, const void* limit) const;

  struct Stats {
    std::size_t live = 0;       // bytes in blocks not yet freed
    std::size_t peak_live = 0;  // the most live at once
    std::size_t taken = 0;      // bytes taken from the system (never given back)
    std::size_t free = 0;       // of those, bytes in free ranges
  };
  Stats stats() const;
  // Starts a new peak of live bytes (at the bytes live now).
  void reset_peak();

  static std::size_t round_up(std::size_t bytes) noexcept {
    return (bytes + kGrain - 1) & ~(kGrain - 1);
  }

 private:
  char* carve(std::size_t size);  // from the lowest free range that fits, or nullptr
  void add_stretch(char* raw, std::size_t length) noexcept;  // memory just taken
  bool grow_in_place(std::size_t size);                      // extends the range that ends at end_

  Grow grow_;
  mutable std::mutex mutex_;
  FreeRanges free_;         // by address
  std::uintptr_t end_ = 0;  // where the last stretch taken ends
  Stats stats_;
};

}  // namespace fano::detail
