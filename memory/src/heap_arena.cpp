#include "fano/heap_arena.hpp"

#include <algorithm>
#include <iterator>
#include <new>

namespace fano::detail {

char* HeapArena::carve(std::size_t size) noexcept {
  for (auto it = free_.begin(); it != free_.end(); ++it)
    if (it->second >= size) {
      const auto [at, length] = *it;
      const auto hint = free_.erase(it);
      if (length > size) free_.emplace_hint(hint, at + size, length - size);
      stats_.free -= size;
      return reinterpret_cast<char*>(at);
    }
  return nullptr;
}

void* HeapArena::allocate(std::size_t bytes) {
  const std::size_t size = round_up(std::max<std::size_t>(bytes, 1));
  std::lock_guard lock(mutex_);
  char* block = carve(size);
  if (block == nullptr) {
    // None fits: the range at the end of the memory grows by what it lacks
    // (a stage's large array then costs only its excess over the hole
    // below it), else a new stretch is taken, a grain more for alignment.
    if (!grow_in_place(size)) {
      char* raw = static_cast<char*>(grow_(size + kGrain));
      if (raw == nullptr) throw std::bad_alloc();
      add_stretch(raw, size + kGrain);
    }
    block = carve(size);
  }
  stats_.live += size;
  stats_.peak_live = std::max(stats_.peak_live, stats_.live);
  return block;
}

bool HeapArena::grow_in_place(std::size_t size) {
  if (free_.empty()) return false;
  const auto last = std::prev(free_.end());
  // Only where nothing else took memory since (the small-block heap shares
  // sbrk): else the growth would land above the other user's and be a
  // stretch too short for the block, and a whole one more would follow.
  if (last->first + last->second != end_ || grow_(0) != reinterpret_cast<void*>(end_)) return false;
  const std::size_t lacking = size - last->second;
  char* more = static_cast<char*>(grow_(lacking));
  if (more == nullptr) throw std::bad_alloc();
  const bool contiguous = reinterpret_cast<std::uintptr_t>(more) == end_;
  add_stretch(more, lacking);  // merges with `last` when contiguous
  return contiguous;
}

// Every free range starts on a grain (blocks are whole grains carved from
// the start of a range): a stretch that does not loses its first bytes.
void HeapArena::add_stretch(char* raw, std::size_t length) noexcept {
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t end = start + length;
  // Where it continues the last free range, the two merge (that range
  // starts on a grain); else its start is rounded up to a grain.
  const bool continues =
      !free_.empty() && std::prev(free_.end())->first + std::prev(free_.end())->second == start;
  const std::uintptr_t aligned =
      continues ? start : (start + kGrain - 1) & ~std::uintptr_t(kGrain - 1);
  stats_.taken += length;
  end_ = end;
  if (end <= aligned) return;
  stats_.free += end - aligned;
  add_free(aligned, end - aligned);
}

void HeapArena::add_free(std::uintptr_t at, std::size_t length) noexcept {
  auto next = free_.lower_bound(at);
  if (next != free_.begin()) {
    const auto prev = std::prev(next);
    if (prev->first + prev->second == at)
      at = prev->first, length += prev->second, free_.erase(prev);
  }
  if (next != free_.end() && at + length == next->first) length += next->second, free_.erase(next);
  try {
    free_.emplace(at, length);
  } catch (...) {  // no memory for the map node: the range is lost to this process
  }
}

void HeapArena::release(void* block, std::size_t bytes) noexcept {
  if (block == nullptr) return;
  const std::size_t size = round_up(std::max<std::size_t>(bytes, 1));
  std::lock_guard lock(mutex_);
  add_free(reinterpret_cast<std::uintptr_t>(block), size);
  stats_.live -= size;
  stats_.free += size;
}

HeapArena::Stats HeapArena::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void HeapArena::reset_peak() {
  std::lock_guard lock(mutex_);
  stats_.peak_live = stats_.live;
}

}  // namespace fano::detail
