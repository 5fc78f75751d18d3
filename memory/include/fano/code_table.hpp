// An open-addressing hash set of state codes, split into kShards independent
// shards by the top bits of the hash: the solver's search inserts into all
// of them, one thread per shard, and the analysis layer's plain breadth-first
// search over every position (game_facts.cpp) uses one Shard alone. A slot
// holds only a 32-bit word: a value that names its code, and 5 bits of the
// code's hash as a tag. The caller keeps the codes (the search keeps them by
// id, which it needs anyway) and reads a value's code back with key_of(value),
// only where the tag agrees (see kValueBits). Not thread-safe: a shard has one
// owner at a time.
//
// Why shards: when two threads insert into one shared table, every new key
// written by one core evicts that cache line from the other, and on the
// project's 2-core VM a child's insert then took 1.7 times as long as on one
// thread, so the insert pass did not scale at all. With one owner per shard
// at a time, a shard's lines stay in its owner's cache and an insert needs no
// atomic operation.
//
// Why values only: with the code beside its value a slot took 12 bytes, and
// the table was the largest part of the search's peak, beside a copy of the
// same codes by id made after the search. With 4-byte slots it is a third of
// that and the codes by id are the only copy (results/cold-solve.md). The
// tag gives back most of what reading the codes by id costs.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "fano/buffer.hpp"

namespace fano::detail {

class CodeTable {
 public:
  static constexpr int kShardBits = 4;
  static constexpr unsigned kShards = 1u << kShardBits;

  // Fibonacci hashing: the top bits of a multiplicative hash choose the shard,
  // the bits below them the slot.
  static std::uint64_t hash(std::uint64_t code) { return code * 0x9E3779B97F4A7C15ull; }
  static unsigned shard_of(std::uint64_t code) { return unsigned(hash(code) >> (64 - kShardBits)); }

  // Values are below 2^kValueBits - 1. A slot holds its value and, in the
  // bits above, a tag: 5 bits of its code's hash, the ones just below those
  // that choose the slot. A probe reads a slot's code (key_of, a load from
  // the caller's codes at random) only when the tags agree, so a slot of
  // another code is passed over at the cost of the slot's own load (31 in 32
  // of them).
  static constexpr int kValueBits = 27;
  static constexpr std::uint32_t kValueMask = (std::uint32_t(1) << kValueBits) - 1;
  // Never a slot's contents: marks a free slot (a value would be kValueMask).
  static constexpr std::uint32_t kFree = ~std::uint32_t(0);

  // One shard: a plain (not thread-safe) table; its owner is the only thread
  // touching it until the next phase. key_of(value) is the code of a stored
  // value; it must stay the same while the value is in the table.
  class Shard {
   public:
    explicit Shard(std::size_t min_capacity = 64) { reset(min_capacity); }

    std::size_t capacity() const { return capacity_; }
    std::size_t size() const { return size_; }

    // Returns the slot whose value's code is `code` (which must belong to this
    // shard), claiming a free one if there is none (then `inserted` is set,
    // and the caller stores the new code's value there before the next call).
    // Slots stay valid until the next reserve().
    template <class KeyOf>
    std::uint32_t insert(std::uint64_t code, KeyOf&& key_of, bool& inserted) {
      const std::uint32_t tag = tag_of(code);
      for (std::size_t i = slot_of(code);; i = next(i)) {
        const std::uint32_t v = values_[i];
        if (v == kFree) {
          ++size_;
          inserted = true;
          return std::uint32_t(i);
        }
        if ((v & ~kValueMask) == tag && key_of(v & kValueMask) == code) {
          inserted = false;
          return std::uint32_t(i);
        }
      }
    }

    // Asks the cache for code's first slot (insert() soon after reads it).
    void prefetch(std::uint64_t code) const { __builtin_prefetch(values_.data() + slot_of(code)); }

    // The value in a slot that holds one.
    std::uint32_t value(std::uint32_t slot) const { return values_[slot] & kValueMask; }
    // Stores `value` (< kValueMask) in a slot insert() returned for `code`.
    void set_value(std::uint32_t slot, std::uint64_t code, std::uint32_t value) {
      assert(value < kValueMask);
      values_[slot] = tag_of(code) | value;
    }

    // Makes room for at least `needed` codes at load factor <= 15/16; when
    // that takes a rebuild, the new capacity is `wanted` slots if that is
    // more. The old slots are not read: each_value(f) calls f(value, code)
    // for every value held (the search walks its ids of the shard in order,
    // so the codes are read in order too).
    //
    // The capacity is any number of slots, not a power of two: a slot is
    // the hash's top bits scaled to the capacity (a multiply and a shift),
    // so a table sized for its codes at a load of 3/4 takes 5.3 bytes a
    // code, where rounding up to a power of two left the search's table at
    // loads of 0.34 to 0.45 (9 to 11.6 bytes a class, results/solve-memory.md).
    template <class EachValue>
    void reserve(std::size_t needed, std::size_t wanted, EachValue&& each_value) {
      if (16 * needed <= 15 * capacity()) return;
      const std::size_t held = size_;
      free_buffer(values_);  // first, so that the new array may take its place
      reset(std::max(needed + needed / 15 + 1, wanted));
      each_value([&](std::uint32_t v, std::uint64_t code) {
        std::size_t i = slot_of(code);
        while (values_[i] != kFree) i = next(i);
        values_[i] = tag_of(code) | v;
      });
      size_ = held;
    }
    // The same, doubling: for a table that grows a code at a time.
    template <class EachValue>
    void reserve(std::size_t needed, EachValue&& each_value) {
      reserve(needed, 2 * needed, each_value);
    }

   private:
    // The hash's 32 bits below the shard's choose the slot (scaled to the
    // capacity); the 5 bits below those are the tag, so that codes which
    // meet in a slot have tags that differ as often as random ones would.
    std::uint32_t slot_bits(std::uint64_t code) const {
      return std::uint32_t((hash(code) << kShardBits) >> 32);
    }
    std::size_t slot_of(std::uint64_t code) const {
      return std::size_t((std::uint64_t(slot_bits(code)) * capacity_) >> 32);
    }
    std::size_t next(std::size_t i) const { return ++i == capacity_ ? 0 : i; }
    std::uint32_t tag_of(std::uint64_t code) const {
      const std::uint64_t below_slot = (hash(code) << kShardBits) << 32;
      return std::uint32_t(below_slot >> (64 - (32 - kValueBits))) << kValueBits;
    }
    void reset(std::size_t min_capacity) {
      // A shard's slot is a 32-bit word (see insert()).
      if (min_capacity > kMaxCapacity) throw std::length_error("a hash table shard too large");
      capacity_ = std::max<std::size_t>(min_capacity, 64);
      values_ = UninitVector<std::uint32_t>(capacity_);
      std::fill(values_.begin(), values_.end(), kFree);
      size_ = 0;
    }
    static constexpr std::size_t kMaxCapacity = std::size_t(1) << 31;

    UninitVector<std::uint32_t> values_;
    std::size_t capacity_ = 0, size_ = 0;
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
