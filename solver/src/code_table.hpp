// A concurrent open-addressing hash set of state codes with a 32-bit value per
// slot (internal to the solver).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <vector>

#include "fano/buffer.hpp"

namespace fano::detail {

class CodeTable {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);  // never a state code (bit 63 is 0)

  explicit CodeTable(std::size_t min_capacity = 1024) { reset(min_capacity); }

  std::size_t capacity() const { return mask_ + 1; }

  // Returns the slot of code, claiming a free one if it is new (then
  // `inserted` is set). Safe to call concurrently with itself; slots stay
  // valid until the next reserve().
  std::uint32_t insert(std::uint64_t code, bool& inserted) {
    inserted = false;
    for (std::size_t i = slot_of(code);; i = (i + 1) & mask_) {
      std::atomic_ref<std::uint64_t> key(keys_[i]);
      std::uint64_t cur = key.load(std::memory_order_relaxed);
      if (cur == kEmpty) {
        if (key.compare_exchange_strong(cur, code, std::memory_order_relaxed)) {
          inserted = true;
          return std::uint32_t(i);
        }
      }
      if (cur == code) return std::uint32_t(i);
    }
  }

  // Not concurrent with insert().
  std::uint64_t key(std::uint32_t slot) const { return keys_[slot]; }
  std::uint32_t& value(std::uint32_t slot) { return values_[slot]; }
  std::uint32_t value(std::uint32_t slot) const { return values_[slot]; }

  // Rebuilds with room for at least `needed` keys at load factor <= 15/16,
  // keeping keys and values. Not concurrent with anything. Callers pass an
  // upper bound (every child of a layer counted as new, though most are
  // not), so the real load stays near 1/2 while the table stays small enough
  // for the caches: 2 MiB of keys for the standard game.
  void reserve(std::size_t needed) {
    if (16 * needed <= 15 * capacity()) return;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> old;
    for (std::size_t i = 0; i < capacity(); ++i)
      if (keys_[i] != kEmpty) old.emplace_back(keys_[i], values_[i]);
    reset(needed + needed / 15 + 1);
    for (const auto& [k, v] : old) {
      std::size_t i = slot_of(k);
      while (keys_[i] != kEmpty) i = (i + 1) & mask_;
      keys_[i] = k;
      values_[i] = v;
    }
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
    keys_ = UninitVector<std::uint64_t>(cap);
    std::fill(keys_.begin(), keys_.end(), kEmpty);
    values_ = UninitVector<std::uint32_t>(cap);  // a slot's value is set when its key is
  }

  // Plain words, accessed through std::atomic_ref while insert() may run
  // concurrently (so the table can be filled without a constructor loop).
  UninitVector<std::uint64_t> keys_;
  UninitVector<std::uint32_t> values_;
  std::size_t mask_ = 0;
  int shift_ = 64;
};

}  // namespace fano::detail
