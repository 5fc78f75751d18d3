#include "fano/buffer.hpp"

// Huge pages and the block cache need mmap (Linux and other POSIX systems);
// elsewhere (WebAssembly) a large block is plain aligned memory.
#if defined(__unix__) && !defined(__EMSCRIPTEN__)
#define FANO_BUFFER_MMAP 1
#include <sys/mman.h>
#else
#define FANO_BUFFER_MMAP 0
#endif

#include <bit>
#include <cassert>
#include <cstdint>
#include <map>
#include <mutex>

namespace fano::detail {
#if FANO_BUFFER_MMAP
namespace {

constexpr std::size_t kHugePage = std::size_t(1) << 21;
// Freed blocks are kept for reuse while they total at most this much: a
// solve frees and re-requests the same sizes layer after layer, and a bench
// or a server solves again, so each page is faulted in once.
constexpr std::size_t kCacheBytes = std::size_t(256) << 20;

// From 2 MiB up a block is a whole number of huge pages of its own; below, a
// power of two (so that a freed block is found again) carved from a shared
// huge page at an offset that is a multiple of its size, so a few KiB of data
// do not cost a 2 MiB page each, yet still sit on huge pages.
std::size_t rounded(std::size_t bytes) {
  return bytes >= kHugePage ? (bytes + kHugePage - 1) & ~(kHugePage - 1) : std::bit_ceil(bytes);
}

struct Cache {
  std::mutex mutex;
  std::multimap<std::size_t, void*> free_blocks;  // by rounded size
  std::size_t bytes = 0;
  char* carving = nullptr;  // the huge page small blocks are carved from
  std::size_t carved = 0;   // bytes of it handed out
};
// Never destroyed: blocks may be freed by static destructors after main.
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

// `size` bytes (a multiple of 2 MiB) on a 2 MiB boundary, huge pages requested.
char* map_huge(std::size_t size) {
  // Map one huge page more than needed and trim both ends to a 2 MiB boundary.
  void* raw =
      mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
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

}  // namespace

void* allocate_large(std::size_t bytes) {
  assert(bytes >= kLargeBuffer);
  const std::size_t size = rounded(bytes);
  Cache& c = cache();
  std::lock_guard lock(c.mutex);
  if (auto it = c.free_blocks.find(size); it != c.free_blocks.end()) {
    void* block = it->second;
    c.free_blocks.erase(it);
    c.bytes -= size;
    return block;
  }
  if (size >= kHugePage) return map_huge(size);
  // Carve: the offset is rounded up to the block's size, which divides 2 MiB.
  std::size_t at = (c.carved + size - 1) & ~(size - 1);
  if (c.carving == nullptr || at + size > kHugePage) {
    c.carving = map_huge(kHugePage);  // the rest of the previous page stays unused
    at = 0;
  }
  c.carved = at + size;
  return c.carving + at;
}

void free_large(void* block, std::size_t bytes) noexcept {
  if (block == nullptr) return;
  const std::size_t size = rounded(bytes);
  {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    if (c.bytes + size <= kCacheBytes) {
      try {
        c.free_blocks.emplace(size, block);
        c.bytes += size;
        return;
      } catch (...) {  // no memory for the map node: unmap instead
      }
    }
  }
  munmap(block, size);  // page-aligned (a carved block too: the kernel splits its huge page)
}

#else

// Cache-line aligned (the solver's prefetches and atomics assume no sharing).
constexpr std::align_val_t kBlockAlignment{64};

void* allocate_large(std::size_t bytes) { return ::operator new(bytes, kBlockAlignment); }

void free_large(void* block, std::size_t) noexcept { ::operator delete(block, kBlockAlignment); }

#endif
}  // namespace fano::detail
