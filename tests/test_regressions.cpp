// Regression tests for faults found by the fuzz targets (fuzz/). Each test
// names the target, the reproducer and what went wrong.
#include <gtest/gtest.h>
#include <sys/file.h>

#include <cstddef>
#include <cstring>

#include "fano/notation.hpp"
#include "fano/table_files.hpp"
#include "fano/table_writer.hpp"
#include "fano/tablebase.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;
using Bytes = std::vector<std::uint8_t>;

// A small well-formed table (three classes) to patch.
Bytes tiny_table() {
  const std::vector<std::uint64_t> codes{0, 0x41, (1ull << kSideBit) | 0x40};
  const std::vector<Outcome> outcomes{{Value::kDraw, 0}, {Value::kWin, 3}, {Value::kLoss, 2}};
  return encode_tablebase(kStandard, TablebaseCounts{3, 3, 0, 1, 1, 1}, codes, outcomes);
}

// Sets the header's class count and recomputes the checksum, as a deliberate
// (or unlucky) writer would.
Bytes with_class_count(Bytes b, std::uint64_t count) {
  std::memcpy(b.data() + offsetof(TablebaseHeader, canonical), &count, 8);
  reseal(b);
  return b;
}

// fuzz_tablebase, fuzz/corpus/tablebase/regress_oom_canonical: a 132-byte file
// with a valid checksum whose header announces 268,435,459 classes. The reader
// reserved 8 bytes per announced class before decoding any (2 GB here; up to
// 2^64 * 8 for larger counts: std::length_error or std::bad_alloc, which the
// tool reported as "out of memory", exit 1, without naming the file). Fixed in
// tablebase.cpp: a count above 2^24 (more than any variant's positions) is
// refused as damage before any buffer is sized.
TEST(FuzzRegression, HugeClassCountIsRefusedBeforeAllocating) {
  const fs::path artifact =
      fs::path(FANO_SOURCE_DIR) / "fuzz/corpus/tablebase/regress_oom_canonical";
  const Bytes found = read_bytes(artifact);
  ASSERT_EQ(found.size(), 132u) << artifact;
  try {
    Tablebase::from_bytes(found, "found.fanotb");
    ADD_FAILURE() << "accepted";
  } catch (const TablebaseError& e) {
    EXPECT_EQ(e.kind(), TablebaseErrorKind::kCorrupt) << e.what();
  }
  // The same fault for any absurd count, in process.
  const Bytes tiny = tiny_table();
  ASSERT_NO_THROW(Tablebase::from_bytes(tiny, "tiny.fanotb"));
  for (std::uint64_t count : {(1ull << 24) + 1, 268435459ull, 1ull << 30, 1ull << 40, 1ull << 61,
                              (1ull << 63) + 5, ~0ull}) {
    try {
      Tablebase::from_bytes(with_class_count(tiny, count), "tiny.fanotb");
      ADD_FAILURE() << count << ": accepted";
    } catch (const TablebaseError& e) {
      EXPECT_EQ(e.kind(), TablebaseErrorKind::kCorrupt) << count << ": " << e.what();
    }
  }
  // Through the tool: a one-line refusal naming the file, exit 16.
  const RunResult r = run_fano({"query", "--tb", artifact.string(), "--position=-/-/-/-/-/-/- w"});
  EXPECT_FALSE(r.crashed());
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kCorrupt)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(artifact.string()), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// Found in review of issue 6: a move list that repeats a position went on as if
// the game continued, although rule 3 ends it drawn at the repetition.
constexpr const char* kRepeating = "T2,t7,T1,t1,C2,c4,C7,c3,7-3,1-4,3-7,4-1";  // ply 12 = ply 8

TEST(ReviewRegression, PlayMovesStopsAtARepetition) {
  const Rules rules(kStandard);
  int repeats = -2;
  play_moves(rules, kEmptyBoard, kRepeating, nullptr, &repeats);
  EXPECT_EQ(repeats, 8);
  play_moves(rules, kEmptyBoard, "T2,t7,T1,t1,C2,c4,C7,c3,7-3,1-4,3-7", nullptr, &repeats);
  EXPECT_EQ(repeats, -1);
  try {
    play_moves(rules, kEmptyBoard, std::string(kRepeating) + ",7-3");
    ADD_FAILURE() << "a move after a repetition was accepted";
  } catch (const NotationError& e) {
    EXPECT_NE(std::string(e.what()).find("move 13"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("repetition"), std::string::npos) << e.what();
  }
}

TEST(ReviewRegression, QueryReportsADrawByRepetition) {
  // The full cap-2 projective table; these moves are legal there too.
  const fs::path table = fs::path(FANO_SOURCE_DIR) / "fuzz/corpus/tablebase/full_cap2_projective";
  const RunResult r = run_fano({"query", "--tb", table.string(), "--json", "--moves", kRepeating});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = parse_json(r.out);
  EXPECT_EQ(j["game_over"]["reason"], "repetition") << r.out;
  EXPECT_EQ(j["game_over"]["loser"], nullptr) << r.out;
  EXPECT_NE(j["game_over"]["text"].get<std::string>().find("draw by repetition"), std::string::npos)
      << r.out;
  EXPECT_EQ(j["value"], "draw") << r.out;
  EXPECT_EQ(j["plies"], nullptr) << r.out;
  EXPECT_TRUE(j["moves"].empty()) << r.out;
}

// Found in review of issue 6: a table with a valid checksum but without a
// reachable successor made query exit 1 without naming the file.
TEST(ReviewRegression, MissingSuccessorIsDamageNamingTheFile) {
  const fs::path table = fs::path(FANO_SOURCE_DIR) / "fuzz/corpus/tablebase/tiny_cap2_board";
  const RunResult r = run_fano({"query", "--tb", table.string(), "--position=-/-/-/-/-/-/- w"});
  EXPECT_FALSE(r.crashed());
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kCorrupt)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(table.string()), std::string::npos) << r.err;
}

}  // namespace
}  // namespace fano

namespace fano {
namespace {

// Found in review of issue 6: a killed solve left "X.tmp.<pid>" behind for
// good. The writer now removes such files whose lock is free (their writer is
// gone: issue 16 replaced the PID check, wrong across PID namespaces and never
// true of "X.tmp.1", by flock), and leaves a live writer's locked file alone.
TEST(ReviewRegression, StaleTemporaryFilesAreRemoved) {
  TempDir dir;
  const fs::path target = dir / "t.fanotb";
  const fs::path dead = dir / "t.fanotb.tmp.999999999";   // no writer holds it
  const fs::path pid1 = dir / "t.fanotb.tmp.1";           // PID 1 lives, but holds no lock
  const fs::path live = dir / "t.fanotb.tmp.2";           // locked below: a live writer's
  const fs::path other = dir / "u.fanotb.tmp.999999999";  // another table's: not ours to touch
  for (const fs::path& p : {dead, pid1, live, other}) write_bytes(p, {1, 2, 3});
  const int held = ::open(live.c_str(), O_RDONLY);
  ASSERT_EQ(::flock(held, LOCK_EX | LOCK_NB), 0);
  const std::vector<std::uint8_t> bytes{4, 5, 6};
  write_file_atomically(target.string(), bytes);
  ::close(held);
  EXPECT_EQ(read_bytes(target), bytes);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(pid1));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
}

}  // namespace
}  // namespace fano
