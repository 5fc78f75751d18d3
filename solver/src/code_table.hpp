// A concurrent open-addressing hash table from state codes to 32-bit values,
// used to deduplicate positions during enumeration and to index them after.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

namespace fano::detail {

class CodeTable {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);  // never a state code (bit 63 is zero)

  explicit CodeTable(std::size_t min_capacity = 1024) { reset(min_capacity); }

  std::size_t capacity() const { return mask_ + 1; }

  // Inserts code; returns true if it was not there. Safe to call concurrently.
  bool insert(std::uint64_t code) {
    for (std::size_t i = slot_of(code);; i = (i + 1) & mask_) {
      std::uint64_t cur = keys_[i].load(std::memory_order_relaxed);
      if (cur == code) return false;
      if (cur == kEmpty) {
        if (keys_[i].compare_exchange_strong(cur, code, std::memory_order_relaxed)) return true;
        if (cur == code) return false;
      }
    }
  }

  // Slot holding code, or capacity() when absent. Not concurrent with insert.
  std::size_t find(std::uint64_t code) const {
    for (std::size_t i = slot_of(code);; i = (i + 1) & mask_) {
      const std::uint64_t cur = keys_[i].load(std::memory_order_relaxed);
      if (cur == code) return i;
      if (cur == kEmpty) return capacity();
    }
  }

  std::uint32_t& value(std::size_t slot) { return values_[slot]; }
  std::uint32_t value(std::size_t slot) const { return values_[slot]; }

  // Rebuilds with room for at least `needed` keys at load factor <= 1/2,
  // keeping the present keys. Not concurrent with anything.
  void reserve(std::size_t needed) {
    if (2 * needed <= capacity()) return;
    std::vector<std::uint64_t> old;
    for (std::size_t i = 0; i < capacity(); ++i) {
      const std::uint64_t k = keys_[i].load(std::memory_order_relaxed);
      if (k != kEmpty) old.push_back(k);
    }
    reset(2 * needed);
    for (std::uint64_t k : old) insert(k);
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
    keys_ = std::make_unique<std::atomic<std::uint64_t>[]>(cap);
    for (std::size_t i = 0; i < cap; ++i) keys_[i].store(kEmpty, std::memory_order_relaxed);
    values_.assign(cap, 0);
  }

  std::unique_ptr<std::atomic<std::uint64_t>[]> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace fano::detail
