// Buffers for large arrays, the solver's and the table reader's (they live in
// the probe layer, the lowest that needs them): not zeroed on construction, and, from
// kLargeBuffer bytes up, carved from an arena of address space on transparent
// huge pages (requested), where a freed block's pages serve the next request.
//
// Why: with 4 KiB pages the kernel's page zeroing and faulting took longer
// than the solve's own work; a 2 MiB huge page costs one fault for 512 small
// ones where the kernel grants them (THP "madvise" mode, Debian's default); elsewhere the
// buffers behave as ordinary memory. Faults also serialise threads on the
// process's memory map lock. One arena rather than a block per request: a
// block of its own rounded a few hundred KiB up to a 2 MiB page, and a cache
// of freed blocks by size kept every stage's memory after the stage, several
// times the live data; in the arena the next stage reuses the pages the last
// one freed (results/cold-solve.md). A table read from a file takes its codes,
// its outcomes and its index from here too: from malloc most of a `fano
// query`'s page faults were theirs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace fano {

// Requests of at least this many bytes bypass operator new.
inline constexpr std::size_t kLargeBuffer = std::size_t(1) << 14;

namespace detail {
// A block of at least `bytes` (>= kLargeBuffer), 4 KiB-aligned, from the
// arena: the lowest free range that fits, else fresh address space (its
// contents are arbitrary). Throws std::bad_alloc when the system refuses.
// Thread-safe.
void* allocate_large(std::size_t bytes);
// Returns a block from allocate_large(bytes) (same `bytes`).
void free_large(void* block, std::size_t bytes) noexcept;
// False when allocate_large(bytes) is known to return no block below
// `limit` (the WebAssembly arena: without growing the memory); true
// otherwise (the mmap arena: not known without allocating).
bool fits_below(std::size_t bytes, const void* limit);
}  // namespace detail

// What the large blocks have used so far in this process, in bytes (whole
// pages). All zero where large blocks are plain heap memory (WebAssembly).
struct BufferStats {
  std::size_t live = 0;       // in blocks not yet freed
  std::size_t peak_live = 0;  // the most live at once
  std::size_t reached = 0;    // the most address space handed out at once (pages touched)
  std::size_t peak_top = 0;   // the most address space handed out at once since the last reset
};
BufferStats buffer_stats();
// Starts a new peak: peak_live becomes the bytes live now, and peak_top the
// address space handed out now.
void reset_buffer_peak();
// Returns to the system the pages no live block holds (kept for the next
// solve otherwise): for a process that solves once and then serves for long
// (`fano serve` solving its missing tables at start). Thread-safe.
void release_free_buffer_pages();
// While one is alive, the pages of freed blocks go back to the system, as
// they do anyway once the arena has handed out 256 MiB: held back until they
// total 4 MiB, then together (one call a free range); it starts by
// releasing the free pages held. For a solve's stages after its search
// (above a million classes), which free and allocate a few large arrays
// each: their peak is then what is live, not the arena's high-water mark
// (results/solve-memory.md). Thread-safe.
class BufferReleaseScope {
 public:
  BufferReleaseScope();
  ~BufferReleaseScope();
  BufferReleaseScope(const BufferReleaseScope&) = delete;
  BufferReleaseScope& operator=(const BufferReleaseScope&) = delete;
};

// A std::allocator that default-initialises: vector<T>(n) and resize(n) leave
// trivial elements unwritten (callers write every element before reading it).
template <class T>
struct BufferAllocator {
  using value_type = T;
  BufferAllocator() = default;
  template <class U>
  BufferAllocator(const BufferAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kLargeBuffer) return static_cast<T*>(detail::allocate_large(bytes));
    return static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T))));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kLargeBuffer)
      detail::free_large(p, bytes);
    else
      ::operator delete(p, std::align_val_t(alignof(T)));
  }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialisation: no zeroing
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const BufferAllocator<U>&) const noexcept {
    return true;
  }
};

// A vector whose growth does not zero trivial elements (see BufferAllocator).
template <class T>
using UninitVector = std::vector<T, BufferAllocator<T>>;

// Empties v and gives its memory back (clear() and `v = {}` keep the capacity),
// so that the next stage of a solve reuses it.
template <class V>
void free_buffer(V& v) noexcept {
  V().swap(v);
}

// Whether the memory of a freed block stays the process's: in WebAssembly a
// memory never shrinks, so the holes between live blocks count in its peak
// as much as the blocks do. There the solver moves the arrays that outlive
// a stage down (lower_buffer) before the next stage allocates, so that the
// free memory is one range above them; natively the pages of free ranges
// go back to the system (BufferReleaseScope), and moving would only cost
// time.
#if defined(__EMSCRIPTEN__)
inline constexpr bool kFreedMemoryKept = true;
#else
inline constexpr bool kFreedMemoryKept = false;
#endif

// Moves v's elements to the lowest free range of the arena that holds them
// when that is below their block (large blocks are handed out lowest range
// first): the blocks that outlive a stage go down into the holes it left, so
// that the next stage's large block finds room below the pages already
// touched instead of on top of them.
template <class T>
void lower_buffer(UninitVector<T>& v) {
  if (v.size() * sizeof(T) < kLargeBuffer || !detail::fits_below(v.size() * sizeof(T), v.data()))
    return;
  UninitVector<T> moved;
  moved.reserve(v.size());
  if (reinterpret_cast<std::uintptr_t>(moved.data()) >= reinterpret_cast<std::uintptr_t>(v.data()))
    return;
  moved.insert(moved.end(), v.begin(), v.end());
  v.swap(moved);
}

}  // namespace fano
