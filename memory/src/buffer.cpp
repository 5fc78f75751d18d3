#include "fano/buffer.hpp"

// Huge pages and the arena need mmap (Linux and other POSIX systems);
// elsewhere (WebAssembly) a large block is plain aligned memory.
#if defined(__unix__) && !defined(__EMSCRIPTEN__)
#define FANO_BUFFER_MMAP 1
#include <sys/mman.h>
#else
#define FANO_BUFFER_MMAP 0
#endif
#if defined(__EMSCRIPTEN__)
#include <unistd.h>  // sbrk
#endif

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <vector>

#include "fano/heap_arena.hpp"

namespace fano::detail {
#if FANO_BUFFER_MMAP
namespace {

constexpr std::size_t kHugePage = std::size_t(1) << 21;
// Blocks are whole 4 KiB pages at page offsets in a chunk.
constexpr std::size_t kPage = std::size_t(1) << 12;
// Address space reserved per chunk. Only what is touched costs memory, so a
// chunk is large enough that the standard game's whole solve, stage after
// stage, lives in one, and a freed block's pages are handed to the next
// request of any size instead of new pages being faulted in.
constexpr std::size_t kChunkBytes = std::size_t(256) << 20;
// Chunks that fall empty are kept while they total at most this much: a
// bench or a server solves again, and each page is then faulted in once.
constexpr std::size_t kKeepBytes = std::size_t(256) << 20;
// Freed pages go back to the system once the arena is this large: a large
// solve's stages free hundreds of megabytes in blocks scattered between the
// live ones (the segments of arrays that grew side by side), which later
// stages' blocks do not all fill, and the process's peak was the arena's
// high-water mark rather than what was live at once
// (results/solve-memory.md). Below it (the standard game's whole solve takes
// 8 MiB) the pages are kept, as each costs a fault and zeroing when it is
// touched again (at 32 MiB, a solve of cap3-board-2c3t peaked a quarter
// lower, 210 MB, but its search and analysis took 30 to 70 % longer).
constexpr std::size_t kReleasingArena = std::size_t(256) << 20;
// The smallest free range whose pages are given back.
constexpr std::size_t kReleaseBytes = std::size_t(64) << 10;
// While pages are given back, the freed pages not yet given back total at
// most this much; past it they all go back at once. Each madvise ends with a
// flush of the TLB, which on more than one thread interrupts every other CPU
// the process runs on: given back block by block (a large solve frees a
// thousand segments of 64 to 128 KiB, most beside one another), those
// interrupts and the faults that zeroed the pages again for the next stage's
// blocks were a tenth of a 2-thread solve's samples. Held back, neighbours
// go back in one call, and a block freed and taken again soon (the next
// segment of an array built as another is freed) keeps its pages. The peak
// rises by at most this much (at 8 MiB cap3-board-2c3t's peak on 2 threads
// rose by 2 to 6 MB, at 4 not at all; the calls saved were alike:
// results/solve-memory.md).
constexpr std::size_t kHeldBackBytes = std::size_t(4) << 20;

std::size_t round_up(std::size_t bytes, std::size_t to) { return (bytes + to - 1) & ~(to - 1); }

// A process whose arena was large has finished its large work once this
// little is live: the pages still free then go back, and the arena keeps
// its freed pages again (a long-lived process's next small solves).
constexpr std::size_t kSettledBytes = std::size_t(16) << 20;

// Gives back the whole pages (of `grain` bytes: kPage, or kHugePage so that
// no huge page is split) of [at, at + length) in a chunk at base when the
// range is large enough (see kReleaseBytes); returns where the pages given
// back start (at + length if none were).
std::size_t release_pages(char* base, std::size_t at, std::size_t length,
                          std::size_t grain = kPage) noexcept {
  if (length < kReleaseBytes) return at + length;
  const std::size_t first = round_up(at, grain), end = (at + length) & ~(grain - 1);
  if (end <= first) return at + length;
  madvise(base + first, end - first, MADV_DONTNEED);
  return first;
}

// `size` bytes (a multiple of 2 MiB) on a 2 MiB boundary, huge pages requested.
// Nothing is touched: the kernel supplies a page (a 2 MiB one where it can)
// when it is first written.
char* map_huge(std::size_t size) {
  // Map one huge page more than needed and trim both ends to a 2 MiB boundary.
  void* raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~std::uintptr_t(kHugePage - 1);
  if (aligned > start) munmap(raw, aligned - start);
  if (const std::uintptr_t tail = start + size + kHugePage - (aligned + size); tail > 0)
    munmap(reinterpret_cast<void*>(aligned + size), tail);
  char* block = reinterpret_cast<char*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(block, size, MADV_HUGEPAGE);  // advice only: refused where THP is off
#endif
  return block;
}

// A reserved stretch of address space, handed out from the bottom: below
// `top` the free ranges (merged with their neighbours), above it nothing has
// been handed out yet.
struct Chunk {
  char* base = nullptr;
  std::size_t size = 0, top = 0;
  std::size_t reached = 0;  // the highest top so far (what has been touched)
  FreeRanges free;          // by offset, all below top
  // While pages are given back: the parts of the free ranges freed since
  // they last went back (their pages are still the process's), by offset.
  std::map<std::size_t, std::size_t> held;
};

// Adds [at, at + length) (overlapping none) to `ranges`, joined with its
// neighbours; throws std::bad_alloc, `ranges` unchanged, when the map has no
// memory for the node.
void add_range(std::map<std::size_t, std::size_t>& ranges, std::size_t at, std::size_t length) {
  const auto next = ranges.lower_bound(at);
  const bool joins_next = next != ranges.end() && at + length == next->first;
  if (next != ranges.begin())
    if (const auto prev = std::prev(next); prev->first + prev->second == at) {
      prev->second += length + (joins_next ? next->second : 0);
      if (joins_next) ranges.erase(next);
      return;
    }
  ranges.emplace_hint(next, at, length + (joins_next ? next->second : 0));
  if (joins_next) ranges.erase(next);
}

// Removes [at, at + length) from `ranges` (the parts of ranges it covers);
// returns the bytes removed.
std::size_t remove_range(std::map<std::size_t, std::size_t>& ranges, std::size_t at,
                         std::size_t length) noexcept {
  if (ranges.empty()) return 0;
  const std::size_t end = at + length;
  std::size_t removed = 0;
  auto it = ranges.upper_bound(at);
  if (it != ranges.begin()) --it;
  while (it != ranges.end() && it->first < end) {
    const std::size_t first = it->first, last = it->first + it->second;
    if (last <= at) {
      ++it;
      continue;
    }
    const std::size_t cut_from = std::max(first, at), cut_to = std::min(last, end);
    removed += cut_to - cut_from;
    it = ranges.erase(it);
    // (the parts left, past `end` or before `at`; one the map has no memory
    // for is no longer counted as held, its pages kept until its range goes)
    const auto keep = [&](std::size_t from, std::size_t to) noexcept {
      if (from == to) return;
      try {
        ranges.emplace(from, to - from);
      } catch (...) {
        removed += to - from;
      }
    };
    keep(first, cut_from);
    keep(cut_to, last);  // past `end`: the loop stops
  }
  return removed;
}

struct Arena {
  std::mutex mutex;
  std::vector<Chunk> chunks;
  std::size_t kept = 0;      // bytes of empty chunks kept mapped
  bool large = false;        // freed pages go back (see kReleasingArena)
  int releasing_scopes = 0;  // BufferReleaseScopes alive
  std::size_t held = 0;      // bytes in the chunks' held ranges
  BufferStats stats;

  // The lowest free range that fits, else the first chunk with room at its
  // top, else a new chunk. Lowest first rather than smallest first: the
  // blocks that outlive a stage settle at the bottom and the holes merge
  // above them, so a later stage's large block (zstd's 3.5 MiB) finds them in
  // one piece below the pages already touched; the standard game's solve
  // stays in four huge pages (results/cold-solve.md).
  char* allocate(std::size_t size) {
    for (Chunk& c : chunks)
      if (std::uintptr_t at = 0; c.free.take_lowest(size, at)) {
        held -= remove_range(c.held, at, size);  // its pages are live again
        return c.base + at;
      }
    for (Chunk& c : chunks)
      if (c.size - c.top >= size) {
        if (c.top == 0) kept -= c.size;
        c.top += size;
        return c.base + c.top - size;
      }
    Chunk c;
    c.size = std::max(kChunkBytes, round_up(size, kHugePage));
    c.base = map_huge(c.size);
    c.top = size;
    try {
      chunks.push_back(std::move(c));
    } catch (...) {
      munmap(c.base, c.size);
      throw;
    }
    return chunks.back().base;
  }

  // The pages the chunks hold now (touched and not given back), up to each
  // chunk's highest block: the arena's size that kReleasingArena bounds.
  std::size_t touched() const noexcept {
    std::size_t bytes = 0;
    for (const Chunk& c : chunks) bytes += c.reached;
    return bytes;
  }

  // A freed block's pages go back to the system while the arena is large or
  // a BufferReleaseScope is alive, in batches (see kHeldBackBytes); the
  // pages between a chunk's top and its highest top so far count as held
  // then too.
  void release(char* block, std::size_t size) noexcept {
    const bool releasing = large || releasing_scopes > 0;
    const auto chunk = std::find_if(chunks.begin(), chunks.end(), [&](const Chunk& c) {
      return c.base <= block && block < c.base + c.size;
    });
    assert(chunk != chunks.end());
    Chunk& c = *chunk;
    // Merged with the free ranges on either side.
    const std::size_t offset = std::size_t(block - c.base);
    const auto [at, length] = c.free.join_neighbours(offset, size);
    if (at + length == c.top) {
      // Handed out again from the top; what was held there is now above it.
      held -= remove_range(c.held, at, length);
      c.top = at;
    } else {
      c.free.add(at, length);
      if (releasing) {
        try {
          add_range(c.held, offset, size);
          held += size;
        } catch (...) {  // no memory for the map node: its pages go back now
          release_pages(c.base, offset, size);
        }
      }
    }
    if (c.top == 0) {
      if (kept + c.size <= kKeepBytes) {
        kept += c.size;
      } else {
        munmap(c.base, c.size);
        chunks.erase(chunk);
      }
    }
    if (releasing && held_back() > kHeldBackBytes) give_back_held();
  }

  // The freed pages still the process's while pages are given back: the
  // held ranges and each chunk's pages above its top.
  std::size_t held_back() const noexcept {
    std::size_t bytes = held;
    for (const Chunk& c : chunks) bytes += c.reached - std::min(c.reached, c.top);
    return bytes;
  }

  // The held pages back to the system: each free range that holds some,
  // whole, in one madvise (its other pages went back before, and asking for
  // them again costs a walk of empty page tables, where a call of its own
  // for each held piece costs a TLB flush). Whole 4 KiB pages in a large
  // arena; within a BufferReleaseScope only whole huge pages: a huge page
  // split by a release of 64 KiB came back as 4 KiB pages, and the random
  // accesses of the predecessor lists and the levels to arrays on such
  // pages made those stages five times as slow.
  void give_back_held() noexcept {
    const std::size_t grain = large ? kPage : kHugePage;
    for (Chunk& c : chunks) {
      if (c.reached > c.top)
        c.reached = std::min(c.reached, release_pages(c.base, c.top, c.reached - c.top, grain));
      std::size_t done = 0;  // where the last free range given back ends
      for (const auto& [at, length] : c.held) {
        if (at < done) continue;
        const auto f = c.free.holding(at);
        assert(f != c.free.end() && at + length <= f->first + f->second);
        done = f->first + f->second;
        const std::size_t first = round_up(f->first, grain), end = done & ~(grain - 1);
        if (first < end) madvise(c.base + first, end - first, MADV_DONTNEED);
      }
      c.held.clear();
    }
    held = 0;
  }

  // Every page no live block holds back to the system.
  void release_free_pages() noexcept {
    for (auto it = chunks.begin(); it != chunks.end();) {
      Chunk& c = *it;
      if (c.top == 0) {  // empty: unmapped whole
        munmap(c.base, c.size);
        kept -= c.size;
        it = chunks.erase(it);
        continue;
      }
      // The pages above the top and in the free ranges are given back; the
      // mapping stays, and a later block there is faulted in afresh.
      if (c.reached > c.top) madvise(c.base + c.top, c.reached - c.top, MADV_DONTNEED);
      c.reached = c.top;
      for (const auto& [at, length] : c.free) madvise(c.base + at, length, MADV_DONTNEED);
      c.held.clear();
      ++it;
    }
    held = 0;
  }
};

// Never destroyed: blocks may be freed by static destructors after main.
Arena& arena() {
  static Arena* a = new Arena;
  return *a;
}

}  // namespace

void* allocate_large(std::size_t bytes) {
  assert(bytes >= kLargeBuffer);
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  const std::size_t size = round_up(bytes, kPage);
  char* block = a.allocate(size);
  a.stats.live += size;
  a.stats.peak_live = std::max(a.stats.peak_live, a.stats.live);
  std::size_t reached = 0, top = 0;
  for (Chunk& c : a.chunks) reached += c.reached = std::max(c.reached, c.top), top += c.top;
  a.stats.reached = std::max(a.stats.reached, reached);
  a.stats.peak_top = std::max(a.stats.peak_top, top);
  return block;
}

// Not known without allocating: lower_buffer allocates and compares.
bool fits_below(std::size_t, const void*) { return true; }

void free_large(void* block, std::size_t bytes) noexcept {
  if (block == nullptr) return;
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  // While the large work lasts, not for the rest of the process's life: a
  // long-lived process (Python, a server) that has made a large table goes
  // on to small solves whose pages must stay, or each of their stages faults
  // and zeroes them again. When the large work is done (little is live),
  // every page still free goes back at once, so that what it freed is not
  // kept either.
  if (!a.large && a.stats.live >= kSettledBytes && a.touched() >= kReleasingArena) a.large = true;
  a.release(static_cast<char*>(block), round_up(bytes, kPage));
  a.stats.live -= round_up(bytes, kPage);
  if (a.large && a.stats.live < kSettledBytes) {
    a.release_free_pages();
    a.large = false;
  }
}

BufferStats arena_stats() {
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  return a.stats;
}

void arena_reset_peak() {
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  a.stats.peak_live = a.stats.live;
  a.stats.peak_top = 0;
  for (const Chunk& c : a.chunks) a.stats.peak_top += c.top;
}

void arena_releasing(int change) {
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  a.releasing_scopes += change;
}

void arena_release_free_pages() {
  Arena& a = arena();
  std::lock_guard lock(a.mutex);
  a.release_free_pages();
}

#else

// No mmap: in WebAssembly the large blocks come from a HeapArena over sbrk
// (fano/heap_arena.hpp: the memory never shrinks, so its peak is what the
// allocator's layout makes of the live blocks); elsewhere from operator new.
#if defined(__EMSCRIPTEN__)
namespace {
void* grow_heap(std::size_t bytes) {
  if (bytes > std::size_t(INTPTR_MAX)) return nullptr;
  void* more = sbrk(static_cast<std::intptr_t>(bytes));
  return more == reinterpret_cast<void*>(-1) ? nullptr : more;
}

// Never destroyed: blocks may be freed by static destructors after main.
HeapArena& heap_arena() {
  static HeapArena* a = new HeapArena(grow_heap);
  return *a;
}
}  // namespace

void* allocate_large(std::size_t bytes) { return heap_arena().allocate(bytes); }

bool fits_below(std::size_t bytes, const void* limit) {
  return heap_arena().fits_below(bytes, limit);
}

void free_large(void* block, std::size_t bytes) noexcept { heap_arena().release(block, bytes); }

BufferStats arena_stats() {
  const HeapArena::Stats s = heap_arena().stats();
  // The memory taken is never given back: what was reached is what is held.
  return {s.live, s.peak_live, s.taken, s.taken};
}

void arena_reset_peak() { heap_arena().reset_peak(); }

#else

BufferStats arena_stats() { return {}; }

void arena_reset_peak() {}

// Cache-line aligned (the solver's prefetches and atomics assume no sharing).
constexpr std::align_val_t kBlockAlignment{64};

void* allocate_large(std::size_t bytes) { return ::operator new(bytes, kBlockAlignment); }

void free_large(void* block, std::size_t) noexcept { ::operator delete(block, kBlockAlignment); }

bool fits_below(std::size_t, const void*) { return true; }

#endif

void arena_releasing(int) {}

void arena_release_free_pages() {}

#endif
}  // namespace fano::detail

namespace fano {
BufferStats buffer_stats() { return detail::arena_stats(); }
void reset_buffer_peak() { detail::arena_reset_peak(); }
void release_free_buffer_pages() { detail::arena_release_free_pages(); }
BufferReleaseScope::BufferReleaseScope() {
  detail::arena_release_free_pages();
  detail::arena_releasing(1);
}
BufferReleaseScope::~BufferReleaseScope() { detail::arena_releasing(-1); }
}  // namespace fano
