// Tests of the memory library: the arena's blocks and vectors (growth,
// reuse, accounting, pages given back) and the sharded hash set of codes
// against std::unordered_map.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "fano/buffer.hpp"
#include "fano/code_table.hpp"
#include "fano/heap_arena.hpp"

namespace fano {
namespace {

// The solver's buffers: growth across the large-block threshold keeps every
// value (a vector moving from operator new to the arena and between arena
// blocks), and large blocks are page-aligned (the solver's prefetches and
// atomics assume cache-line alignment at least).
TEST(Buffer, GrowsAcrossTheLargeBlockSizeAndKeepsValues) {
  UninitVector<std::uint32_t> v;
  std::mt19937 rng(15);
  std::vector<std::uint32_t> expect;
  while (v.size() * sizeof(std::uint32_t) < 3 * kLargeBuffer + (std::size_t(5) << 20)) {
    const std::uint32_t x = std::uint32_t(rng());
    v.push_back(x), expect.push_back(x);
  }
  EXPECT_TRUE(std::equal(v.begin(), v.end(), expect.begin(), expect.end()));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.data()) % 4096, 0u);
  UninitVector<std::uint64_t> medium(kLargeBuffer / sizeof(std::uint64_t) + 1, 5);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(medium.data()) % 4096, 0u);
  EXPECT_EQ(std::count(medium.begin(), medium.end(), 5u), std::ptrdiff_t(medium.size()));
  UninitVector<std::uint8_t> small(100, 7);  // explicit values are still written
  EXPECT_EQ(std::count(small.begin(), small.end(), 7), 100);
}

// A freed block's memory comes back for a request of the same or a smaller
// size, whole and writable, and live blocks never overlap.
TEST(Buffer, FreedBlocksAreReusedAndWritable) {
  const std::size_t n = (std::size_t(3) << 20) / sizeof(std::uint64_t);
  const std::uint64_t* first = nullptr;
  {
    UninitVector<std::uint64_t> a(n);
    std::fill(a.begin(), a.end(), 1);
    first = a.data();
  }
  UninitVector<std::uint64_t> b(n), c(n);
  EXPECT_TRUE(b.data() == first || c.data() == first);
  for (std::size_t i = 0; i < n; ++i) b[i] = i, c[i] = ~i;
  const bool apart = b.data() + n <= c.data() || c.data() + n <= b.data();
  EXPECT_TRUE(apart);
  for (std::size_t i = 0; i < n; i += 4099) {
    ASSERT_EQ(b[i], i);
    ASSERT_EQ(c[i], ~i);
  }
  const std::uint64_t* b_at = b.data();
  free_buffer(b);
  EXPECT_EQ(b.capacity(), 0u);
  UninitVector<std::uint32_t> smaller(n / 3);  // fits in b's freed range
  EXPECT_EQ(static_cast<const void*>(smaller.data()), static_cast<const void*>(b_at));
}

// The arena's accounting: live bytes rise and fall with the blocks (in whole
// pages), the peak keeps the most live at once, and a block freed and taken
// again adds nothing to the address space handed out.
TEST(Buffer, StatisticsFollowTheLiveBlocks) {
  const BufferStats before = buffer_stats();
  const std::size_t bytes = (std::size_t(1) << 20) + 100;  // 257 pages
  const std::size_t pages = (bytes + 4095) / 4096 * 4096;
  std::size_t reached = 0;
  {
    UninitVector<std::uint8_t> a(bytes), b(bytes);
    const BufferStats during = buffer_stats();
    EXPECT_EQ(during.live, before.live + 2 * pages);
    EXPECT_GE(during.peak_live, during.live);
    reached = during.reached;
  }
  EXPECT_EQ(buffer_stats().live, before.live);
  {
    UninitVector<std::uint8_t> again(pages);
    EXPECT_EQ(buffer_stats().reached, reached);
  }
  EXPECT_GE(buffer_stats().peak_live, before.live + 2 * pages);
}

// The resident memory of this process in KiB (VmRSS), or -1 where /proc has none.
long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

// Freed blocks keep their pages for the next solve; release_free_buffer_pages
// gives them back (fano serve after its start-up solves), and a block made
// afterwards still works.
TEST(Buffer, FreePagesAreGivenBackOnRequest) {
  if (resident_kib() < 0) GTEST_SKIP() << "no /proc/self/status";
  const std::size_t bytes = std::size_t(64) << 20;
  {
    UninitVector<std::uint8_t> big(bytes);
    std::fill(big.begin(), big.end(), std::uint8_t(1));
  }
  const long kept = resident_kib();
  release_free_buffer_pages();
  const long released = resident_kib();
  EXPECT_GE(kept - released, 32 * 1024) << kept << " KiB before, " << released << " after";
  UninitVector<std::uint8_t> again(bytes);
  std::fill(again.begin(), again.end(), std::uint8_t(2));
  EXPECT_EQ(std::count(again.begin(), again.end(), std::uint8_t(2)), std::ptrdiff_t(bytes));
}

// While a BufferReleaseScope is alive (a large solve's stages after its
// search), a freed block's pages go back to the system at once however small
// the arena, and a block made in the hole afterwards still works.
TEST(Buffer, AReleaseScopeGivesFreedPagesBackAtOnce) {
  if (resident_kib() < 0) GTEST_SKIP() << "no /proc/self/status";
  const std::size_t bytes = std::size_t(32) << 20;
  UninitVector<std::uint8_t> hole(bytes);
  std::fill(hole.begin(), hole.end(), std::uint8_t(1));
  UninitVector<std::uint8_t> above(std::size_t(1) << 20);
  std::fill(above.begin(), above.end(), std::uint8_t(3));
  const BufferReleaseScope releasing;
  const long before = resident_kib();
  free_buffer(hole);
  const long after = resident_kib();
  EXPECT_GE(before - after, 24 * 1024) << before << " KiB before, " << after << " after";
  UninitVector<std::uint8_t> again(bytes);
  std::fill(again.begin(), again.end(), std::uint8_t(2));
  EXPECT_EQ(std::count(again.begin(), again.end(), std::uint8_t(2)), std::ptrdiff_t(bytes));
  EXPECT_EQ(std::count(above.begin(), above.end(), std::uint8_t(3)), std::ptrdiff_t(above.size()));
}

// Within a BufferReleaseScope the pages of blocks freed one after another
// are held back until they add up to more than 4 MiB, then go back
// together: a block of 4 MiB freed alone keeps its pages, the resident
// memory never exceeds the live blocks by more than the bound (and a huge
// page at each end of a free range), and what was freed beyond it is given
// back.
TEST(Buffer, AReleaseScopeGivesFreedPagesBackInBatchesOfAFewMiB) {
  if (resident_kib() < 0) GTEST_SKIP() << "no /proc/self/status";
  constexpr long kMiB = 1024;  // in KiB
  const BufferReleaseScope releasing;
  std::vector<UninitVector<std::uint8_t>> blocks;
  for (int b = 0; b < 16; ++b) {
    blocks.emplace_back(std::size_t(4) << 20);
    std::fill(blocks.back().begin(), blocks.back().end(), std::uint8_t(b));
  }
  UninitVector<std::uint8_t> above(std::size_t(1) << 20);
  std::fill(above.begin(), above.end(), std::uint8_t(0xab));
  const long start = resident_kib();
  free_buffer(blocks[0]);
  EXPECT_LT(start - resident_kib(), kMiB / 2) << "a block freed alone went back at once";
  for (int b = 1; b < 16; ++b) {
    free_buffer(blocks[b]);
    const long now = resident_kib(), freed = (b + 1) * 4 * kMiB;
    EXPECT_LE(now, start - freed + 8 * kMiB) << "after " << b + 1 << " blocks of 4 MiB freed";
  }
  EXPECT_GE(start - resident_kib(), 52 * kMiB);
  EXPECT_EQ(std::count(above.begin(), above.end(), std::uint8_t(0xab)),
            std::ptrdiff_t(above.size()));
}

// Once the arena is large (a large solve), a freed block's pages go back to
// the system at once, without release_free_buffer_pages: the process's peak
// then follows the bytes live at once, not the arena's high-water mark. The
// block freed below lies under a live one, so it is a hole, not the top.
TEST(Buffer, ALargeArenaGivesFreedPagesBackAtOnce) {
  if (resident_kib() < 0) GTEST_SKIP() << "no /proc/self/status";
  UninitVector<std::uint8_t> large(std::size_t(256) << 20);  // address space only
  const std::size_t bytes = std::size_t(64) << 20;
  UninitVector<std::uint8_t> hole(bytes);
  std::fill(hole.begin(), hole.end(), std::uint8_t(1));
  UninitVector<std::uint8_t> above(std::size_t(1) << 20);
  std::fill(above.begin(), above.end(), std::uint8_t(3));
  const long before = resident_kib();
  free_buffer(hole);
  const long after = resident_kib();
  EXPECT_GE(before - after, 48 * 1024) << before << " KiB before, " << after << " after";
  UninitVector<std::uint8_t> again(bytes);
  std::fill(again.begin(), again.end(), std::uint8_t(2));
  EXPECT_EQ(std::count(again.begin(), again.end(), std::uint8_t(2)), std::ptrdiff_t(bytes));
  EXPECT_EQ(std::count(above.begin(), above.end(), std::uint8_t(3)), std::ptrdiff_t(above.size()));
}

// A long-lived process after a large solve: once the large arena is freed its
// pages go back to the system (what it freed is not kept), and the small
// blocks of later solves keep their pages again (they are not faulted in and
// zeroed afresh by every stage, as they were while the arena's largest size
// ever reached, not its size now, decided).
TEST(Buffer, AfterALargeArenaIsFreedSmallBlocksKeepTheirPages) {
  if (resident_kib() < 0) GTEST_SKIP() << "no /proc/self/status";
  const std::size_t touched = std::size_t(64) << 20;
  {
    UninitVector<std::uint8_t> large(std::size_t(320) << 20);
    std::fill_n(large.begin(), touched, std::uint8_t(1));
    const long held = resident_kib();
    free_buffer(large);
    const long freed = resident_kib();
    EXPECT_GE(held - freed, 48 * 1024) << held << " KiB before, " << freed << " after";
  }
  const std::size_t small = std::size_t(4) << 20;
  for (int solve = 0; solve < 3; ++solve) {
    UninitVector<std::uint8_t> block(small);
    std::fill(block.begin(), block.end(), std::uint8_t(solve));
    const long held = resident_kib();
    free_buffer(block);
    const long kept = resident_kib();
    EXPECT_LT(held - kept, 1024) << "solve " << solve << ": " << held << " KiB before, " << kept
                                 << " after";
  }
}

// The heap arena (WebAssembly's large blocks) over a fake system memory: a
// bump pointer in a static region that another user may also advance (the
// small-block heap shares sbrk with it).
struct FakeHeap {
  static constexpr std::size_t kBytes = std::size_t(64) << 20;
  static inline std::vector<char> region = std::vector<char>(kBytes);
  static inline std::size_t brk = 0;
  static void* grow(std::size_t bytes) {
    if (bytes > kBytes - brk) return nullptr;  // grow(0): where the next bytes start
    brk += bytes;
    return region.data() + brk - bytes;
  }
  static void reset() { brk = 0; }
};

bool disjoint(const char* a, std::size_t a_bytes, const char* b, std::size_t b_bytes) {
  return a + a_bytes <= b || b + b_bytes <= a;
}

// Freed blocks merge with their free neighbours and come back lowest first,
// whole, for a request of up to their merged size: no memory is taken then.
TEST(HeapArena, FreedNeighboursMergeAndAreReusedLowestFirst) {
  FakeHeap::reset();
  detail::HeapArena arena(FakeHeap::grow);
  const std::size_t mib = std::size_t(1) << 20;
  char* a = static_cast<char*>(arena.allocate(mib));
  char* b = static_cast<char*>(arena.allocate(mib));
  char* c = static_cast<char*>(arena.allocate(mib));
  char* d = static_cast<char*>(arena.allocate(mib));
  for (char* p : {a, b, c, d}) EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 4096, 0u);
  EXPECT_EQ(b, a + mib);  // one stretch, blocks side by side
  const std::size_t taken = arena.stats().taken;
  arena.release(c, mib);
  arena.release(a, mib);
  arena.release(b, mib);  // a, b and c merge into one range of 3 MiB
  char* e = static_cast<char*>(arena.allocate(3 * mib - 100));
  EXPECT_EQ(e, a);
  EXPECT_EQ(arena.stats().taken, taken);
  arena.release(e, 3 * mib - 100);
  char* f = static_cast<char*>(arena.allocate(mib / 2));  // the lowest range, not the tightest
  EXPECT_EQ(f, a);
  EXPECT_EQ(arena.stats().live, mib + mib / 2);
  EXPECT_EQ(arena.stats().peak_live, 4 * mib);
  EXPECT_EQ(arena.stats().taken, taken);
}

// A request no free range holds grows the range at the end of the memory by
// what it lacks, rather than taking a whole block above it.
TEST(HeapArena, TheLastFreeRangeGrowsInPlace) {
  FakeHeap::reset();
  detail::HeapArena arena(FakeHeap::grow);
  const std::size_t mib = std::size_t(1) << 20;
  char* a = static_cast<char*>(arena.allocate(mib));
  char* b = static_cast<char*>(arena.allocate(2 * mib));
  const std::size_t taken = arena.stats().taken;
  arena.release(b, 2 * mib);
  char* c = static_cast<char*>(arena.allocate(5 * mib));
  EXPECT_EQ(c, b);
  EXPECT_EQ(arena.stats().taken, taken + 3 * mib);
  std::fill(a, a + mib, 'a');
  std::fill(c, c + 5 * mib, 'c');
  EXPECT_EQ(std::count(a, a + mib, 'a'), std::ptrdiff_t(mib));
  EXPECT_EQ(arena.stats().live, 6 * mib);
}

// fits_below tells, without taking anything, whether a block would come from a
// free range below an address: lower_buffer moves an array only then, since a
// block from grown memory is never lower and the growth is never given back.
TEST(HeapArena, FitsBelowAnswersWithoutTakingMemory) {
  FakeHeap::reset();
  detail::HeapArena arena(FakeHeap::grow);
  const std::size_t mib = std::size_t(1) << 20;
  char* a = static_cast<char*>(arena.allocate(2 * mib));
  char* b = static_cast<char*>(arena.allocate(mib));
  char* c = static_cast<char*>(arena.allocate(mib));
  arena.release(a, 2 * mib);
  const auto before = arena.stats();
  EXPECT_TRUE(arena.fits_below(2 * mib, b));       // a's range, below b
  EXPECT_TRUE(arena.fits_below(mib + 1, c));       // a's range, below c too
  EXPECT_FALSE(arena.fits_below(2 * mib + 1, c));  // only grown memory holds it
  EXPECT_FALSE(arena.fits_below(mib, a));          // the lowest fit is a itself
  const auto after = arena.stats();
  EXPECT_EQ(after.taken, before.taken);
  EXPECT_EQ(after.live, before.live);
  EXPECT_EQ(after.free, before.free);
  EXPECT_EQ(arena.allocate(2 * mib), a);  // nothing was taken by the questions
}

// Memory taken by another user between two growths is never handed out, the
// blocks stay aligned and apart, and a refused growth is std::bad_alloc with
// the arena still usable.
TEST(HeapArena, ForeignMemoryAndRefusalsAreRespected) {
  FakeHeap::reset();
  detail::HeapArena arena(FakeHeap::grow);
  const std::size_t kib = 1024;
  char* a = static_cast<char*>(arena.allocate(300 * kib));
  arena.release(a, 300 * kib);
  FakeHeap::grow(1000);  // the small-block heap takes memory above the arena's
  const char* foreign = FakeHeap::region.data() + FakeHeap::brk - 1000;
  char* b = static_cast<char*>(arena.allocate(700 * kib));
  char* c = static_cast<char*>(arena.allocate(100 * kib));
  EXPECT_EQ(c, a);  // the freed range below, not new memory
  for (char* p : {b, c}) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 4096, 0u);
    EXPECT_TRUE(disjoint(p, 100 * kib, foreign, 1000));
  }
  EXPECT_TRUE(disjoint(b, 700 * kib, foreign, 1000));
  EXPECT_TRUE(disjoint(b, 700 * kib, c, 100 * kib));
  const std::size_t live = arena.stats().live;
  EXPECT_THROW(arena.allocate(FakeHeap::kBytes), std::bad_alloc);
  EXPECT_EQ(arena.stats().live, live);
  char* d = static_cast<char*>(arena.allocate(100 * kib));
  EXPECT_TRUE(disjoint(d, 100 * kib, b, 700 * kib) && disjoint(d, 100 * kib, c, 100 * kib));
}

// The solver's sharded hash set against std::unordered_map: every code gets
// one slot in its own shard, found again by a later insert, with the value
// set for it, across the rehashes of reserve() (each shard starts at 64 slots
// here and grows to hold 200,000 codes with many repeats). A value is the
// code's index in a list kept beside the table, as the search keeps its codes
// by id.
TEST(CodeTable, ShardsAgreeWithAMapAcrossRehashes) {
  std::mt19937_64 rng(20261204);
  detail::CodeTable table(0);
  using Table = detail::CodeTable;
  std::vector<std::uint64_t> code_of;  // value -> code
  const auto key_of = [&](std::uint32_t v) { return code_of.at(v); };
  std::array<std::vector<std::uint32_t>, Table::kShards> values_of;  // each shard's values
  std::unordered_map<std::uint64_t, std::uint32_t> want;             // code -> value
  for (int round = 0; round < 20; ++round) {
    // A batch of codes (below bit 63, like state codes), a third of them repeats.
    std::vector<std::uint64_t> batch;
    for (int i = 0; i < 10000; ++i)
      batch.push_back(!code_of.empty() && rng() % 3 == 0 ? code_of[rng() % code_of.size()]
                                                         : rng() >> 1);
    std::array<std::size_t, Table::kShards> candidates{};
    for (const std::uint64_t c : batch) ++candidates[Table::shard_of(c)];
    for (unsigned s = 0; s < Table::kShards; ++s)
      table.shard(s).reserve(table.shard(s).size() + candidates[s], [&](auto&& f) {
        for (const std::uint32_t v : values_of[s]) f(v, code_of[v]);
      });
    for (const std::uint64_t c : batch) {
      Table::Shard& shard = table.shard(Table::shard_of(c));
      bool inserted = false;
      const std::uint32_t slot = shard.insert(c, key_of, inserted);
      const auto it = want.find(c);
      ASSERT_EQ(inserted, it == want.end()) << "code " << c;
      if (inserted) {
        shard.set_value(slot, c, std::uint32_t(code_of.size()));
        values_of[Table::shard_of(c)].push_back(std::uint32_t(code_of.size()));
        want.emplace(c, std::uint32_t(code_of.size()));
        code_of.push_back(c);
      } else {
        EXPECT_EQ(shard.value(slot), it->second);
        EXPECT_EQ(code_of[shard.value(slot)], c);
      }
    }
  }
  std::size_t held = 0;
  for (unsigned s = 0; s < Table::kShards; ++s) held += table.shard(s).size();
  EXPECT_EQ(held, want.size());
  EXPECT_GT(want.size(), 100000u);
  for (const auto& [c, v] : want) {
    Table::Shard& shard = table.shard(Table::shard_of(c));
    bool inserted = true;
    const std::uint32_t slot = shard.insert(c, key_of, inserted);
    EXPECT_FALSE(inserted);
    EXPECT_EQ(shard.value(slot), v);
  }
}

}  // namespace
}  // namespace fano
