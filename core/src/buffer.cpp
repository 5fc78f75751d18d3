#include "fano/buffer.hpp"

#include <sys/mman.h>

#include <cassert>
#include <cstdint>
#include <map>
#include <mutex>

namespace fano::detail {
namespace {

constexpr std::size_t kHugePage = std::size_t(1) << 21;
// Freed blocks are kept for reuse while they total at most this much: a
// solve frees and re-requests the same sizes layer after layer, and a bench
// or a server solves again, so each page is faulted in once.
constexpr std::size_t kCacheBytes = std::size_t(256) << 20;

std::size_t rounded(std::size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }

struct Cache {
  std::mutex mutex;
  std::multimap<std::size_t, void*> free_blocks;  // by rounded size
  std::size_t bytes = 0;
};
// Never destroyed: blocks may be freed by static destructors after main.
Cache& cache() {
  static Cache* c = new Cache;
  return *c;
}

}  // namespace

void* allocate_large(std::size_t bytes) {
  assert(bytes >= kLargeBuffer);
  const std::size_t size = rounded(bytes);
  {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    if (auto it = c.free_blocks.find(size); it != c.free_blocks.end()) {
      void* block = it->second;
      c.free_blocks.erase(it);
      c.bytes -= size;
      return block;
    }
  }
  // Map one huge page more than needed and trim both ends to a 2 MiB boundary.
  void* raw =
      mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~std::uintptr_t(kHugePage - 1);
  if (aligned > start) munmap(raw, aligned - start);
  if (const std::uintptr_t tail = start + size + kHugePage - (aligned + size); tail > 0)
    munmap(reinterpret_cast<void*>(aligned + size), tail);
  void* block = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(block, size, MADV_HUGEPAGE);  // advice only: refused where THP is off
#endif
  return block;
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
  munmap(block, size);
}

}  // namespace fano::detail
