#include "fano/heap_arena.hpp"

#include <algorithm>
#include <iterator>
#include <new>

namespace fano::detail {

bool FreeRanges::take_lowest(std::size_t size, std::uintptr_t& at) {
  for (auto it = ranges_.begin(); it != ranges_.end(); ++it)
    if (it->second >= size) {
      at = it->first;
      // (the rest added before the range goes: a failure leaves the map as it was)
      if (it->second > size) ranges_.emplace_hint(std::next(it), at + size, it->second - size);
      ranges_.erase(it);
      return true;
    }
  return false;
}

bool FreeRanges::lowest(std::size_t size, std::uintptr_t& at) const noexcept {
  for (const auto& [start, length] : ranges_)
    if (length >= size) {
      at = start;
      return true;
    }
  return false;
}

std::pair<std::uintptr_t, std::size_t> FreeRanges::join_neighbours(std::uintptr_t at,
                                                                   std::size_t length) noexcept {
  auto next = ranges_.lower_bound(at);
  if (next != ranges_.begin()) {
    const auto prev = std::prev(next);
    if (prev->first + prev->second == at)
      at = prev->first, length += prev->second, ranges_.erase(prev);
  }
  if (next != ranges_.end() && at + length == next->first)
    length += next->second, ranges_.erase(next);
  return {at, length};
}

void FreeRanges::add(std::uintptr_t at, std::size_t length) noexcept {
  try {
    ranges_.emplace(at, length);
  } catch (...) {  // no memory for the map node: the range is lost to this process
  }
}

char* HeapArena::carve(std::size_t size) {
  std::uintptr_t at = 0;
  if (!free_.take_lowest(size, at)) return nullptr;
  stats_.free -= size;
  return reinterpret_cast<char*>(at);
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
  const auto& last = free_.last();
  // Only where nothing else took memory since (the small-block heap shares
  // sbrk): else the growth would land above the other user's and be a
  // stretch too short for the block, and a whole one more would follow.
  if (last.first + last.second != end_ || grow_(0) != reinterpret_cast<void*>(end_)) return false;
  const std::size_t lacking = size - last.second;
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
  const bool continues = !free_.empty() && free_.last().first + free_.last().second == start;
  const std::uintptr_t aligned =
      continues ? start : (start + kGrain - 1) & ~std::uintptr_t(kGrain - 1);
  stats_.taken += length;
  end_ = end;
  if (end <= aligned) return;
  stats_.free += end - aligned;
  const auto [joined_at, joined_length] = free_.join_neighbours(aligned, end - aligned);
  free_.add(joined_at, joined_length);
}

void HeapArena::release(void* block, std::size_t bytes) noexcept {
  if (block == nullptr) return;
  const std::size_t size = round_up(std::max<std::size_t>(bytes, 1));
  std::lock_guard lock(mutex_);
  const auto [at, length] = free_.join_neighbours(reinterpret_cast<std::uintptr_t>(block), size);
  free_.add(at, length);
  stats_.live -= size;
  stats_.free += size;
}

bool HeapArena::fits_below(std::size_t bytes, const void* limit) const {
  std::lock_guard lock(mutex_);
  std::uintptr_t at = 0;
  return free_.lowest(round_up(std::max<std::size_t>(bytes, 1)), at) &&
         at < reinterpret_cast<std::uintptr_t>(limit);
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
