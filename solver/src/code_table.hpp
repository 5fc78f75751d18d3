// A concurrent open-addressing hash table that numbers state codes in the
// order they are first inserted (internal to the solver).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

namespace fano::detail {

class CodeTable {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);  // never a state code (bit 63 is 0)
  static constexpr std::uint32_t kPending = ~std::uint32_t(0);

  explicit CodeTable(std::size_t min_capacity = 1024) { reset(min_capacity); }

  std::size_t capacity() const { return mask_ + 1; }
  std::uint32_t size() const { return next_id_.load(std::memory_order_relaxed); }

  // Returns the id of code, giving it the next free id if it is new (then
  // `inserted` is set). Safe to call concurrently; ids are 0, 1, 2, ... in
  // insertion order, so which class gets which id depends on thread timing.
  std::uint32_t insert(std::uint64_t code, bool& inserted) {
    inserted = false;
    for (std::size_t i = slot_of(code);; i = (i + 1) & mask_) {
      std::uint64_t cur = keys_[i].load(std::memory_order_acquire);
      if (cur == kEmpty) {
        if (keys_[i].compare_exchange_strong(cur, code, std::memory_order_acq_rel)) {
          const std::uint32_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
          ids_[i].store(id, std::memory_order_release);
          inserted = true;
          return id;
        }
      }
      if (cur == code) {
        // Another thread may have claimed the slot an instant ago.
        std::uint32_t id;
        while ((id = ids_[i].load(std::memory_order_acquire)) == kPending) {
        }
        return id;
      }
    }
  }

  // The id of a code that is in the table. Not concurrent with insert.
  std::uint32_t find(std::uint64_t code) const {
    for (std::size_t i = slot_of(code);; i = (i + 1) & mask_)
      if (keys_[i].load(std::memory_order_relaxed) == code)
        return ids_[i].load(std::memory_order_relaxed);
  }

  // Rebuilds with room for at least `needed` keys at load factor <= 1/2,
  // keeping keys and ids. Not concurrent with anything.
  void reserve(std::size_t needed) {
    if (2 * needed <= capacity()) return;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> old;
    old.reserve(size());
    for (std::size_t i = 0; i < capacity(); ++i) {
      const std::uint64_t k = keys_[i].load(std::memory_order_relaxed);
      if (k != kEmpty) old.emplace_back(k, ids_[i].load(std::memory_order_relaxed));
    }
    reset(2 * needed);
    for (const auto& [k, id] : old) {
      std::size_t i = slot_of(k);
      while (keys_[i].load(std::memory_order_relaxed) != kEmpty) i = (i + 1) & mask_;
      keys_[i].store(k, std::memory_order_relaxed);
      ids_[i].store(id, std::memory_order_relaxed);
    }
    next_id_.store(std::uint32_t(old.size()), std::memory_order_relaxed);
  }

 private:
  std::size_t slot_of(std::uint64_t code) const {
    // Fibonacci hashing: the top bits of a multiplicative hash.
    return std::size_t((code * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void reset(std::size_t min_capacity) {
    const std::size_t cap = std::bit_ceil(std::max<std::size_t>(min_capacity, 64));
    mask_ = cap - 1;
    shift_ = 64 - std::countr_zero(cap);
    keys_ = std::vector<std::atomic<std::uint64_t>>(cap);
    ids_ = std::vector<std::atomic<std::uint32_t>>(cap);
    for (std::size_t i = 0; i < cap; ++i) {
      keys_[i].store(kEmpty, std::memory_order_relaxed);
      ids_[i].store(kPending, std::memory_order_relaxed);
    }
    next_id_.store(0, std::memory_order_relaxed);
  }

  std::vector<std::atomic<std::uint64_t>> keys_;
  std::vector<std::atomic<std::uint32_t>> ids_;
  std::atomic<std::uint32_t> next_id_{0};
  std::size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace fano::detail
