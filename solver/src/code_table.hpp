// An open-addressing hash set of state codes with a 32-bit value per slot,
// split into kShards independent shards by the top bits of the hash (internal
// to the solver).
//
// Why shards: when two threads insert into one shared table, every new key
// written by one core evicts that cache line from the other, and on the
// project's 2-core VM a child's insert then took 1.7 times as long as on one
// thread, so the insert pass did not scale at all. With one owner per shard
// at a time, a shard's lines stay in its owner's cache and an insert needs no
// atomic operation.
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <utility>
#include <vector>

#include "fano/buffer.hpp"

namespace fano::detail {

class CodeTable {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);  // never a state code (bit 63 is 0)
  static constexpr int kShardBits = 4;
  static constexpr unsigned kShards = 1u << kShardBits;

  // Fibonacci hashing: the top bits of a multiplicative hash choose the shard,
  // the bits below them the slot.
  static std::uint64_t hash(std::uint64_t code) { return code * 0x9E3779B97F4A7C15ull; }
  static unsigned shard_of(std::uint64_t code) { return unsigned(hash(code) >> (64 - kShardBits)); }

  // One shard: a plain (not thread-safe) table; its owner is the only thread
  // touching it until the next phase.
  class Shard {
   public:
    explicit Shard(std::size_t min_capacity = 64) { reset(min_capacity); }

    std::size_t capacity() const { return mask_ + 1; }
    std::size_t size() const { return size_; }

    // Returns the slot of code (which must belong to this shard), claiming a
    // free one if it is new (then `inserted` is set). Slots stay valid until
    // the next reserve().
    std::uint32_t insert(std::uint64_t code, bool& inserted) {
      assert(code != kEmpty);
      for (std::size_t i = slot_of(code);; i = (i + 1) & mask_) {
        if (keys_[i] == code) {
          inserted = false;
          return std::uint32_t(i);
        }
        if (keys_[i] == kEmpty) {
          keys_[i] = code;
          ++size_;
          inserted = true;
          return std::uint32_t(i);
        }
      }
    }

    // Asks the cache for code's first slot, key and value (insert() soon after
    // finds the key there, and its caller reads the value).
    void prefetch(std::uint64_t code) const {
      const std::size_t i = slot_of(code);
      __builtin_prefetch(keys_.data() + i);
      __builtin_prefetch(values_.data() + i);
    }

    std::uint64_t key(std::uint32_t slot) const { return keys_[slot]; }
    // f(key, value) for every key, in slot order.
    template <class F>
    void for_each(F&& f) const {
      for (std::size_t i = 0; i < capacity(); ++i)
        if (keys_[i] != kEmpty) f(keys_[i], values_[i]);
    }
    std::uint32_t& value(std::uint32_t slot) { return values_[slot]; }

    // Rebuilds with room for at least `needed` keys at load factor <= 15/16,
    // keeping keys and values. Callers pass an upper bound (every candidate
    // of a layer counted as new, though most are not), so the real load stays
    // near 1/2 while the shards stay small enough for the caches: 2 MiB of
    // keys in all for the standard game.
    void reserve(std::size_t needed) {
      if (16 * needed <= 15 * capacity()) return;
      // Straight from the old arrays into the new ones.
      UninitVector<std::uint64_t> old_keys;
      UninitVector<std::uint32_t> old_values;
      old_keys.swap(keys_), old_values.swap(values_);
      const std::size_t held = size_;
      reset(needed + needed / 15 + 1);
      for (std::size_t j = 0; j < old_keys.size(); ++j) {
        const std::uint64_t k = old_keys[j];
        if (k == kEmpty) continue;
        std::size_t i = slot_of(k);
        while (keys_[i] != kEmpty) i = (i + 1) & mask_;
        keys_[i] = k;
        values_[i] = old_values[j];
      }
      size_ = held;
    }

   private:
    std::size_t slot_of(std::uint64_t code) const {
      return std::size_t((hash(code) << kShardBits) >> shift_);
    }
    void reset(std::size_t min_capacity) {
      const std::size_t cap = std::bit_ceil(std::max<std::size_t>(min_capacity, 64));
      mask_ = cap - 1;
      shift_ = 64 - std::countr_zero(cap);
      keys_ = UninitVector<std::uint64_t>(cap);
      std::fill(keys_.begin(), keys_.end(), kEmpty);
      values_ = UninitVector<std::uint32_t>(cap);  // a slot's value is set when its key is
      size_ = 0;
    }

    UninitVector<std::uint64_t> keys_;
    UninitVector<std::uint32_t> values_;
    std::size_t mask_ = 0, size_ = 0;
    int shift_ = 64;
  };

  // min_capacity is spread over the shards.
  explicit CodeTable(std::size_t min_capacity) {
    shards_.reserve(kShards);
    for (unsigned s = 0; s < kShards; ++s) shards_.emplace_back(min_capacity / kShards);
  }

  Shard& shard(unsigned s) { return shards_[s]; }

 private:
  std::vector<Shard> shards_;
};

}  // namespace fano::detail
