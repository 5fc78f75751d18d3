// The tablebase file: write-then-read gives back exactly what was solved, and
// damaged, foreign or missing files are refused with the right kind of error
// and a message naming the file.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fano/notation.hpp"
#include "fano/solver.hpp"
#include "fano/symmetry.hpp"
#include "fano/table_files.hpp"
#include "fano/table_writer.hpp"
#include "fano/tablebase.hpp"
#include "fano/tablebase_json.hpp"
#include "support.hpp"

namespace fano {
namespace {

using namespace fano::testing;
using Bytes = std::vector<std::uint8_t>;

// Header field offsets (tablebase/FORMAT.md).
constexpr size_t kVersionAt = 8, kHeaderSizeAt = 12, kStackCapAt = 16, kSymmetryOrderAt = 18,
                 kCanonicalAt = 48, kCodesBytesAt = 80, kOutcomesBytesAt = 88, kChecksumAt = 96,
                 kHeaderBytes = 104;

struct Solved {
  Solution sol;
  Bytes bytes;
};

// One solve and encoding per variant per test process.
const Solved& solved(const Variant& v) {
  static std::map<std::string, Solved> cache;
  const std::string key = variant_slug(v);
  auto it = cache.find(key);
  if (it == cache.end()) {
    Solved s{solve(v), {}};
    s.bytes = encode_solution(s.sol);
    it = cache.emplace(key, std::move(s)).first;
  }
  return it->second;
}

template <class T>
T get(const Bytes& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

template <class T>
void put(Bytes& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

std::string kind_name(TablebaseErrorKind k) { return std::to_string(int(k)); }

// Expects `load` to throw a TablebaseError of kind `kind` whose one-line
// message names `name`. Returns the message.
template <class F>
std::string expect_refused(F&& load, TablebaseErrorKind kind, const std::string& name) {
  try {
    load();
  } catch (const TablebaseError& e) {
    const std::string what = e.what();
    EXPECT_EQ(kind_name(e.kind()), kind_name(kind)) << what;
    EXPECT_NE(what.find(name), std::string::npos) << "message does not name the file: " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "message is not one line: " << what;
    return what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw something else than a TablebaseError: " << e.what();
    return "";
  }
  ADD_FAILURE() << name << " was accepted, expected error kind " << kind_name(kind);
  return "";
}

std::string expect_bytes_refused(const Bytes& b, TablebaseErrorKind kind,
                                 std::optional<Variant> expected = std::nullopt) {
  const std::string name = "damaged-table.fanotb";
  return expect_refused([&] { (void)Tablebase::from_bytes(b, name, expected); }, kind, name);
}

std::string expect_file_refused(const fs::path& p, TablebaseErrorKind kind,
                                std::optional<Variant> expected = std::nullopt) {
  return expect_refused([&] { (void)open_tablebase(p.string(), expected); }, kind, p.string());
}

// Every stored class probes to exactly the solved outcome.
void expect_same_as_solved(const Tablebase& tb, const Solution& sol) {
  EXPECT_EQ(tb.variant(), sol.variant);
  ASSERT_EQ(tb.size(), sol.positions.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < sol.positions.size(); ++i) {
    const State st{sol.positions[i]};
    if (tb.position_at(i) != st || tb.outcome_at(i) != sol.outcomes[i] ||
        tb.probe(st) != std::optional(sol.outcomes[i])) {
      if (++bad <= 10) ADD_FAILURE() << "class " << i << " " << format_position(st) << " differs";
    }
  }
  EXPECT_EQ(bad, 0u);
  // Non-canonical members of classes give the same answers.
  const Symmetry& sym = tb.symmetry();
  for (std::size_t i = 0; i < sol.positions.size(); i += 97)
    for (const SymmetryElement& e : sym.group())
      ASSERT_EQ(tb.probe(apply(State{sol.positions[i]}, e)), std::optional(sol.outcomes[i]));
}

void expect_header_matches(const TablebaseHeader& h, const Solution& sol, size_t file_size) {
  EXPECT_EQ(std::memcmp(h.magic, kTablebaseMagic, 8), 0);
  EXPECT_EQ(h.version, sol.variant.rulebook_material_and_lines() ? kTablebaseRulebookVersion
                                                                 : kTablebaseVersion);
  EXPECT_EQ(h.header_size, kHeaderBytes);
  EXPECT_EQ(h.stack_cap, sol.variant.stack_cap);
  EXPECT_EQ(h.adjacency, std::uint8_t(sol.variant.adjacency));
  EXPECT_EQ(h.symmetry_order, Symmetry(sol.variant).order());
  EXPECT_EQ(h.reachable, sol.stats.reachable);
  EXPECT_EQ(h.placement, sol.stats.placement);
  EXPECT_EQ(h.movement, sol.stats.movement);
  EXPECT_EQ(h.canonical, sol.positions.size());
  EXPECT_EQ(h.win, sol.stats.win);
  EXPECT_EQ(h.loss, sol.stats.loss);
  EXPECT_EQ(h.draw, sol.stats.draw);
  EXPECT_EQ(kHeaderBytes + h.codes_bytes + h.outcomes_bytes, file_size);
}

// ---------------------------------------------------------------------------
// Write, then read.

TEST(TablebaseRoundTrip, StandardFromBytes) {
  const Solved& s = solved(kStandard);
  const Tablebase tb = Tablebase::from_bytes(s.bytes, "standard in memory");
  expect_header_matches(tb.header(), s.sol, s.bytes.size());
  expect_same_as_solved(tb, s.sol);
  // A legal position that no game reaches (see test_solver) is not found.
  EXPECT_FALSE(tb.probe(parse_position("C/T/c/C/t/-/c w", kStandard)).has_value());
  EXPECT_EQ(tb.probe(kEmptyBoard), (std::optional<Outcome>{Outcome{Value::kDraw, 0}}));
}

// Rules other than the rulebook's lines and material: a version-3 file names
// them in its header and reads back as them; a version-3 header naming the
// rulebook's lines and material, or a version-2 header naming other
// material, is damage.
TEST(TablebaseRoundTrip, OtherRulesInVersionThree) {
  for (const char* name : {"standard-colour", "cap3-projective-2c1t", "standard-colour-3c3t"}) {
    SCOPED_TRACE(name);
    const Variant v = *variant_from_name(name);
    const Solved& s = solved(v);
    const Tablebase tb = Tablebase::from_bytes(s.bytes, name);
    expect_header_matches(tb.header(), s.sol, s.bytes.size());
    expect_same_as_solved(tb, s.sol);
    EXPECT_EQ(tb.header().version, 3u);
    EXPECT_EQ(tb.header().circles, v.circles);
    EXPECT_EQ(tb.header().symmetry_order, v.circles == v.triangles
                                              ? 12 * (v.adjacency == Adjacency::kBoard ? 1 : 28)
                                              : 6 * (v.adjacency == Adjacency::kBoard ? 1 : 28));
    Bytes rulebook = s.bytes;
    rulebook[20] = 0, rulebook[21] = 2, rulebook[22] = 2;
    reseal(rulebook);
    EXPECT_THROW(Tablebase::from_bytes(rulebook, name), TablebaseError);
    Bytes old = s.bytes;
    put<std::uint32_t>(old, kVersionAt, 2);
    reseal(old);
    EXPECT_THROW(Tablebase::from_bytes(old, name), TablebaseError);
    EXPECT_THROW(Tablebase::from_bytes(s.bytes, name, kStandard), TablebaseError);
  }
}

// Every rules option has its field in the header: each reading's header names
// that reading again, and its JSON prints the reading's options.
TEST(TablebaseRoundTrip, EveryReadingsOptionsThroughTheHeader) {
  for (const Variant& v : every_rules()) {
    const TablebaseHeader h = tablebase_header(v, TablebaseCounts{}, 0);
    EXPECT_EQ(header_variant(h), v) << variant_slug(v);
    const Json j = header_json(h);
    const Json fields = variant_json(v);
    for (const auto& [key, value] : fields.items()) EXPECT_EQ(j[key], value) << key;
  }
  TablebaseHeader bad = tablebase_header(kStandard, TablebaseCounts{}, 0);
  bad.reserved = 1;
  EXPECT_EQ(header_variant(bad), std::nullopt);
}

TEST(TablebaseRoundTrip, StandardThroughAFile) {
  const Solved& s = solved(kStandard);
  TempDir dir;
  const fs::path path = dir / "nested/folders/standard.fanotb";
  // The writer creates no folder: a missing one is refused, then made.
  expect_refused([&] { write_file_atomically(path.string(), s.bytes); }, TablebaseErrorKind::kIo,
                 path.string());
  EXPECT_FALSE(fs::exists(dir / "nested"));
  create_table_dir(path.parent_path().string());
  write_file_atomically(path.string(), s.bytes);
  EXPECT_EQ(read_bytes(path), s.bytes);
  // Nothing but the table is left in its folder (no temporary file).
  std::vector<fs::path> entries(fs::directory_iterator(path.parent_path()), {});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].filename(), "standard.fanotb");
  expect_same_as_solved(open_tablebase(path.string()), s.sol);
  const Tablebase checked = open_tablebase(path.string(), kStandard);
  expect_header_matches(checked.header(), s.sol, s.bytes.size());

  // Writing again replaces the file whole.
  const Solved& p = solved(kCap2Projective);
  write_file_atomically(path.string(), p.bytes);
  EXPECT_EQ(read_bytes(path), p.bytes);
  expect_same_as_solved(open_tablebase(path.string()), p.sol);
  entries.assign(fs::directory_iterator(path.parent_path()), {});
  EXPECT_EQ(entries.size(), 1u);
}

TEST(TablebaseRoundTrip, ProjectiveVariants) {
  for (const Variant& v : {kCap2Projective, kCap3Projective}) {
    const Solved& s = solved(v);
    const Tablebase tb = Tablebase::from_bytes(s.bytes, variant_slug(v), v);
    expect_header_matches(tb.header(), s.sol, s.bytes.size());
    expect_same_as_solved(tb, s.sol);
  }
}

// A table built in memory (no encoding, no decoder: the WebAssembly build's
// tables) answers every probe as the decoded file does, with the same counts.
class TablebaseInMemory : public ::testing::TestWithParam<Variant> {};

TEST_P(TablebaseInMemory, AnswersAsTheDecodedFile) {
  const Solved& s = solved(GetParam());
  const Tablebase file = Tablebase::from_bytes(s.bytes, "file", GetParam());
  const Tablebase memory = in_memory_tablebase(s.sol, "memory");
  EXPECT_EQ(memory.name(), "memory");
  EXPECT_EQ(memory.variant(), file.variant());
  ASSERT_EQ(memory.size(), file.size());
  EXPECT_EQ(memory.header().reachable, file.header().reachable);
  EXPECT_EQ(memory.header().placement, file.header().placement);
  EXPECT_EQ(memory.header().movement, file.header().movement);
  EXPECT_EQ(memory.header().canonical, file.header().canonical);
  EXPECT_EQ(memory.header().win, file.header().win);
  EXPECT_EQ(memory.header().loss, file.header().loss);
  EXPECT_EQ(memory.header().draw, file.header().draw);
  EXPECT_EQ(memory.header().symmetry_order, file.header().symmetry_order);
  for (std::size_t i = 0; i < file.size(); ++i) {
    ASSERT_EQ(memory.position_at(i), file.position_at(i)) << i;
    ASSERT_EQ(memory.outcome_at(i), file.outcome_at(i)) << i;
    ASSERT_EQ(memory.probe(file.position_at(i)), file.probe(file.position_at(i))) << i;
  }
  // A legal position that no game of the standard game reaches misses in both.
  if (GetParam() == kStandard) {
    EXPECT_FALSE(memory.probe(parse_position("C/T/c/C/t/-/c w", kStandard)).has_value());
  }
}

TEST_P(TablebaseInMemory, RefusesCodesOutOfOrder) {
  const Solved& s = solved(GetParam());
  std::vector<std::uint64_t> codes(s.sol.positions.begin(), s.sol.positions.end());
  std::swap(codes[1], codes[2]);
  EXPECT_THROW(Tablebase::from_classes(s.sol.variant, tablebase_counts(s.sol), codes,
                                       s.sol.outcomes, "swapped"),
               std::invalid_argument);
  codes.pop_back();
  EXPECT_THROW(Tablebase::from_classes(s.sol.variant, tablebase_counts(s.sol), codes,
                                       s.sol.outcomes, "short"),
               std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, TablebaseInMemory, ::testing::ValuesIn(kAllVariants),
                         testing::variant_param_name);

// The outcome byte against the format's table (tablebase/FORMAT.md), written
// out here: 0 a draw, 1 + p a win in p plies, 128 + p a loss in p plies; it
// reads back as the same outcome, and the plies the byte cannot hold throw.
TEST(TablebaseOutcomeByte, FollowsTheFormatAndRefusesLongResults) {
  EXPECT_EQ(outcome_byte(Outcome{Value::kDraw, 0}), 0);
  for (int p = 0; p <= 126; ++p) {
    const Outcome win{Value::kWin, std::uint16_t(p)};
    EXPECT_EQ(outcome_byte(win), 1 + p);
    EXPECT_EQ(outcome_from_byte(std::uint8_t(1 + p)), win);
  }
  for (int p = 0; p <= 127; ++p) {
    const Outcome loss{Value::kLoss, std::uint16_t(p)};
    EXPECT_EQ(outcome_byte(loss), 128 + p);
    EXPECT_EQ(outcome_from_byte(std::uint8_t(128 + p)), loss);
  }
  EXPECT_EQ(outcome_from_byte(0), (Outcome{Value::kDraw, 0}));
  for (const Outcome too_long : {Outcome{Value::kWin, 127}, Outcome{Value::kWin, 500},
                                 Outcome{Value::kLoss, 128}, Outcome{Value::kLoss, 65535}}) {
    try {
      outcome_byte(too_long);
      ADD_FAILURE() << "no error for " << int(too_long.value) << " in " << too_long.plies;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(
          std::string(e.what()).find("too long for the format: " + std::to_string(too_long.plies)),
          std::string::npos)
          << e.what();
    }
  }
}

TEST(TablebaseRoundTrip, EncodingIsDeterministic) {
  const Solved& s = solved(kCap2Projective);
  EXPECT_TRUE(encode_solution(s.sol) == s.bytes);
}

// A codes section built ahead gives the same file; one built from other codes
// (another variant's, or a prefix) is refused rather than stored.
TEST(TablebaseRoundTrip, CodesSectionBuiltAheadIsTheSameAndChecked) {
  const Solved& s = solved(kCap2Projective);
  const CodesSection codes = encode_codes_section(s.sol.variant, s.sol.positions);
  EXPECT_EQ(codes.classes, s.sol.positions.size());
  const auto counts = tablebase_counts(s.sol);
  EXPECT_TRUE(encode_tablebase(s.sol.variant, counts, s.sol.positions, s.sol.outcomes, &codes) ==
              s.bytes);
  const Solved& other = solved(kCap3Projective);
  const CodesSection wrong = encode_codes_section(other.sol.variant, other.sol.positions);
  EXPECT_THROW(encode_tablebase(s.sol.variant, counts, s.sol.positions, s.sol.outcomes, &wrong),
               std::invalid_argument);
  const std::span<const std::uint64_t> prefix(s.sol.positions.data(), 100);
  const CodesSection short_one = encode_codes_section(s.sol.variant, prefix);
  EXPECT_THROW(encode_tablebase(s.sol.variant, counts, s.sol.positions, s.sol.outcomes, &short_one),
               std::invalid_argument);
  // The section checks its codes like the encoder does.
  std::vector<std::uint64_t> unsorted(s.sol.positions.begin(), s.sol.positions.begin() + 10);
  std::swap(unsorted[3], unsorted[4]);
  EXPECT_THROW(encode_codes_section(s.sol.variant, unsorted), std::invalid_argument);
}

// ---------------------------------------------------------------------------
// Refusals. The small projective cap-2 table keeps these fast.

TEST(TablebaseRefuse, TruncatedAtSeveralOffsets) {
  const Bytes& good = solved(kCap2Projective).bytes;
  const auto codes = get<std::uint64_t>(good, kCodesBytesAt);
  TempDir dir;
  for (const size_t size :
       {size_t(0), size_t(1), size_t(8), size_t(50), kHeaderBytes - 1, kHeaderBytes,
        kHeaderBytes + 1, size_t(kHeaderBytes + codes / 2), size_t(kHeaderBytes + codes),
        size_t(kHeaderBytes + codes + 1), good.size() / 2, good.size() - 1}) {
    SCOPED_TRACE("truncated to " + std::to_string(size) + " bytes");
    const Bytes cut(good.begin(), good.begin() + std::ptrdiff_t(size));
    const std::string what = expect_bytes_refused(cut, TablebaseErrorKind::kTruncated);
    EXPECT_NE(what.find(size == 0 ? "empty" : "truncated"), std::string::npos) << what;
    const fs::path file = dir / ("cut-" + std::to_string(size) + ".fanotb");
    write_bytes(file, cut);
    expect_file_refused(file, TablebaseErrorKind::kTruncated);
  }
}

// Every single flipped bit of the file is refused; the kind depends on where.
TEST(TablebaseRefuse, EverySingleBitFlip) {
  const Bytes& good = solved(kCap2Projective).bytes;
  ASSERT_LT(good.size(), 100000u) << "keep this test fast";
  std::map<int, int> kinds;
  for (size_t at = 0; at < good.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes b = good;
      b[at] ^= std::uint8_t(1u << bit);
      std::optional<TablebaseErrorKind> got;
      try {
        (void)Tablebase::from_bytes(b, "flipped.fanotb");
      } catch (const TablebaseError& e) {
        got = e.kind();
      }
      ASSERT_TRUE(got.has_value()) << "bit " << bit << " of byte " << at << " flipped: accepted";
      ++kinds[int(*got)];
      // In the identifying fields and the section sizes the specific kind is
      // expected, though a reader that checks the checksum first may say so.
      auto either = [&](TablebaseErrorKind a, TablebaseErrorKind b) {
        return *got == a || *got == b || *got == TablebaseErrorKind::kChecksum;
      };
      if (at < kVersionAt) {
        ASSERT_TRUE(either(TablebaseErrorKind::kBadMagic, TablebaseErrorKind::kBadMagic))
            << "byte " << at << ": kind " << int(*got);
      } else if (at < kHeaderSizeAt) {
        ASSERT_TRUE(either(TablebaseErrorKind::kBadVersion, TablebaseErrorKind::kBadVersion))
            << "byte " << at << ": kind " << int(*got);
      } else if (at < kStackCapAt) {
        ASSERT_TRUE(either(TablebaseErrorKind::kCorrupt, TablebaseErrorKind::kCorrupt))
            << "byte " << at << ": kind " << int(*got);
      } else if (at >= kCodesBytesAt && at < kChecksumAt) {
        // A section size: larger than the file is truncation, smaller leaves
        // bytes over.
        ASSERT_TRUE(either(TablebaseErrorKind::kTruncated, TablebaseErrorKind::kCorrupt))
            << "byte " << at << ": kind " << int(*got);
      } else {
        ASSERT_EQ(*got, TablebaseErrorKind::kChecksum) << "byte " << at << " bit " << bit;
      }
    }
  }
  EXPECT_GT(kinds[int(TablebaseErrorKind::kChecksum)], int(good.size()) * 7);
}

TEST(TablebaseRefuse, FlippedBitInHeaderPayloadAndChecksumOnDisk) {
  const Bytes& good = solved(kCap2Projective).bytes;
  TempDir dir;
  const std::vector<std::pair<std::string, size_t>> places = {{"header", 24 /* reachable */},
                                                              {"payload", kHeaderBytes + 5},
                                                              {"payload-end", good.size() - 1},
                                                              {"checksum", kChecksumAt + 3}};
  for (const auto& [what, at] : places) {
    SCOPED_TRACE(what);
    Bytes b = good;
    b[at] ^= 0x10;
    const fs::path file = dir / (what + ".fanotb");
    write_bytes(file, b);
    const std::string msg = expect_file_refused(file, TablebaseErrorKind::kChecksum);
    EXPECT_NE(msg.find("checksum"), std::string::npos) << msg;
  }
}

TEST(TablebaseRefuse, WrongMagic) {
  TempDir dir;
  Bytes b = solved(kCap2Projective).bytes;
  std::memcpy(b.data(), "NOTFANO!", 8);
  reseal(b);
  expect_bytes_refused(b, TablebaseErrorKind::kBadMagic);
  // A text file long enough to hold a header.
  const fs::path text = dir / "notes.txt";
  const std::string words(300, 'x');
  write_bytes(text, Bytes(words.begin(), words.end()));
  const std::string msg = expect_file_refused(text, TablebaseErrorKind::kBadMagic);
  EXPECT_NE(msg.find("magic"), std::string::npos) << msg;
}

TEST(TablebaseRefuse, FutureVersion) {
  TempDir dir;
  Bytes b = solved(kCap2Projective).bytes;
  put<std::uint32_t>(b, kVersionAt, kTablebaseVersion + 1);
  reseal(b);
  const fs::path file = dir / "future.fanotb";
  write_bytes(file, b);
  const std::string msg = expect_file_refused(file, TablebaseErrorKind::kBadVersion);
  EXPECT_NE(msg.find("version " + std::to_string(kTablebaseVersion + 1)), std::string::npos) << msg;
}

// A version-1 table (classes under the move-graph symmetries only, before the
// shape swap) is refused with a message naming both versions.
TEST(TablebaseRefuse, VersionOneTable) {
  TempDir dir;
  Bytes b = solved(kStandard).bytes;
  put<std::uint32_t>(b, kVersionAt, 1);
  put<std::uint16_t>(b, kSymmetryOrderAt, 6);
  reseal(b);
  const fs::path file = dir / "old.fanotb";
  write_bytes(file, b);
  const std::string msg = expect_file_refused(file, TablebaseErrorKind::kBadVersion);
  EXPECT_NE(msg.find("format version 1;"), std::string::npos) << msg;
  EXPECT_NE(msg.find("reads versions 2 and 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fano solve"), std::string::npos) << msg;
  EXPECT_EQ(kTablebaseRulebookVersion, 2u);
  EXPECT_EQ(kTablebaseVersion, 3u);
}

// Bytes this process has read through read(2) and pread(2) so far (Linux).
std::uint64_t bytes_read_so_far() {
  std::ifstream io("/proc/self/io");
  std::string key;
  std::uint64_t value = 0;
  while (io >> key >> value)
    if (key == "rchar:") return value;
  return 0;
}

// The header is checked before the rest of the file is read: large sparse
// files (made with truncate) whose header is bad, or announces another size,
// or sections no table can have, are refused after reading a few bytes.
TEST(TablebaseRefuse, LargeFileRefusedFromItsHeader) {
  TempDir dir;
  constexpr std::uint64_t kGiB = std::uint64_t(1) << 30;
  const Bytes& good = solved(kCap2Projective).bytes;
  struct Case {
    std::string name;
    Bytes head;  // written at offset 0, then the file is extended to 1 GiB
    TablebaseErrorKind kind;
  };
  Bytes announced_small(good.begin(), good.begin() + kHeaderBytes);  // a real header
  Bytes announced_huge = announced_small;
  put<std::uint64_t>(announced_huge, kCodesBytesAt, kGiB - kHeaderBytes - 100);
  put<std::uint64_t>(announced_huge, kOutcomesBytesAt, 100);  // the exact size of the file
  Bytes too_short = announced_small;
  put<std::uint64_t>(too_short, kCodesBytesAt, 2 * kGiB);
  const std::vector<Case> cases = {
      {"zeros", {}, TablebaseErrorKind::kBadMagic},
      {"old",
       [&] {
         Bytes b = announced_small;
         put<std::uint32_t>(b, kVersionAt, 1);
         return b;
       }(),
       TablebaseErrorKind::kBadVersion},
      {"trailing", announced_small, TablebaseErrorKind::kCorrupt},
      {"short", too_short, TablebaseErrorKind::kTruncated},
      {"huge-sections", announced_huge, TablebaseErrorKind::kCorrupt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path file = dir / (c.name + ".fanotb");
    write_bytes(file, c.head);
    fs::resize_file(file, kGiB);  // sparse: no disk space used
    ASSERT_EQ(fs::file_size(file), kGiB);
    const std::uint64_t before = bytes_read_so_far();
    expect_file_refused(file, c.kind);
    const std::uint64_t read = bytes_read_so_far() - before;
    EXPECT_LT(read, std::uint64_t(1) << 20) << "read " << read << " bytes of a 1 GiB file";
    fs::remove(file);
  }
}

TEST(TablebaseRefuse, EmptyFile) {
  TempDir dir;
  const fs::path file = dir / "empty.fanotb";
  write_bytes(file, {});
  const std::string msg = expect_file_refused(file, TablebaseErrorKind::kTruncated);
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
}

TEST(TablebaseRefuse, Directory) {
  TempDir dir;
  const fs::path sub = dir / "standard.fanotb";
  fs::create_directory(sub);
  expect_file_refused(sub, TablebaseErrorKind::kNotAFile);
  // The writer refuses to replace a directory, too.
  const Bytes& b = solved(kCap2Projective).bytes;
  expect_refused([&] { write_file_atomically(sub.string(), b); }, TablebaseErrorKind::kNotAFile,
                 sub.string());
  EXPECT_TRUE(fs::is_directory(sub));
}

TEST(TablebaseRefuse, MissingFile) {
  TempDir dir;
  const fs::path file = dir / "no-such.fanotb";
  const std::string msg = expect_file_refused(file, TablebaseErrorKind::kMissing);
  EXPECT_NE(msg.find("fano solve"), std::string::npos) << "should say how to create it: " << msg;
}

TEST(TablebaseRefuse, WrongVariant) {
  TempDir dir;
  const fs::path file = dir / "projective.fanotb";
  write_file_atomically(file.string(), solved(kCap2Projective).bytes);
  const std::string msg = expect_file_refused(file, TablebaseErrorKind::kWrongVariant, kStandard);
  EXPECT_NE(msg.find("projective"), std::string::npos) << msg;
  expect_file_refused(file, TablebaseErrorKind::kWrongVariant, kCap3Projective);
  expect_bytes_refused(solved(kCap2Projective).bytes, TablebaseErrorKind::kWrongVariant,
                       Variant{2, Adjacency::kBoard});
  EXPECT_NO_THROW((void)open_tablebase(file.string(), kCap2Projective));
}

// Damage that the checksum does not catch (the checksum was recomputed after
// it): the contents are still checked.
TEST(TablebaseRefuse, DamageBehindAValidChecksum) {
  const Bytes& good = solved(kCap2Projective).bytes;
  const auto codes = get<std::uint64_t>(good, kCodesBytesAt);
  {
    SCOPED_TRACE("unknown stack cap");
    Bytes b = good;
    b[kStackCapAt] = 4;
    reseal(b);
    expect_bytes_refused(b, TablebaseErrorKind::kCorrupt);
  }
  {
    SCOPED_TRACE("another symmetry order");
    Bytes b = good;
    put<std::uint16_t>(b, kSymmetryOrderAt, 168);  // the version-1 group
    reseal(b);
    expect_bytes_refused(b, TablebaseErrorKind::kCorrupt);
  }
  {
    SCOPED_TRACE("header size");
    Bytes b = good;
    put<std::uint32_t>(b, kHeaderSizeAt, 96);
    reseal(b);
    expect_bytes_refused(b, TablebaseErrorKind::kCorrupt);
  }
  for (const std::int64_t delta :
       {std::int64_t(-1), std::int64_t(1), std::int64_t(1000), std::int64_t(1) << 40}) {
    SCOPED_TRACE("class count off by " + std::to_string(delta));
    Bytes b = good;
    put<std::uint64_t>(b, kCanonicalAt, get<std::uint64_t>(b, kCanonicalAt) + std::uint64_t(delta));
    reseal(b);
    expect_bytes_refused(b, TablebaseErrorKind::kCorrupt);
  }
  {
    SCOPED_TRACE("garbage codes section");
    Bytes b = good;
    for (size_t i = kHeaderBytes; i < kHeaderBytes + codes; ++i) b[i] = std::uint8_t(i * 37);
    reseal(b);
    expect_bytes_refused(b, TablebaseErrorKind::kCorrupt);
  }
  {
    SCOPED_TRACE("garbage outcomes section");
    Bytes b = good;
    for (size_t i = kHeaderBytes + codes; i < b.size(); ++i) b[i] = std::uint8_t(i * 41);
    reseal(b);
    expect_bytes_refused(b, TablebaseErrorKind::kCorrupt);
  }
  {
    SCOPED_TRACE("sections swapped in size");
    Bytes b = good;
    put<std::uint64_t>(b, kCodesBytesAt, get<std::uint64_t>(good, kOutcomesBytesAt));
    put<std::uint64_t>(b, kOutcomesBytesAt, codes);
    reseal(b);
    expect_bytes_refused(b, TablebaseErrorKind::kCorrupt);
  }
  {
    SCOPED_TRACE("trailing bytes");
    Bytes b = good;
    b.push_back(0);
    reseal(b);
    expect_bytes_refused(b, TablebaseErrorKind::kCorrupt);
  }
}

}  // namespace
}  // namespace fano

namespace fano {
namespace {

// The table with its codes section replaced by `deltas` (varint class-number
// gaps, as FORMAT.md lays them out), recompressed and re-sealed.
Bytes with_code_deltas(const Bytes& good, const Bytes& deltas) {
  const auto codes = get<std::uint64_t>(good, kCodesBytesAt);
  Bytes frame(ZSTD_compressBound(deltas.size()));
  frame.resize(ZSTD_compress(frame.data(), frame.size(), deltas.data(), deltas.size(), 3));
  Bytes b(kHeaderBytes + frame.size() + (good.size() - kHeaderBytes - codes));
  std::copy_n(good.begin(), kHeaderBytes, b.begin());
  std::copy(frame.begin(), frame.end(), b.begin() + kHeaderBytes);
  std::copy(good.begin() + std::ptrdiff_t(kHeaderBytes + codes), good.end(),
            b.begin() + std::ptrdiff_t(kHeaderBytes + frame.size()));
  put<std::uint64_t>(b, kCodesBytesAt, frame.size());
  reseal(b);
  return b;
}

Bytes code_deltas(const Bytes& good) {
  const auto codes = get<std::uint64_t>(good, kCodesBytesAt);
  const std::uint8_t* frame = good.data() + kHeaderBytes;
  Bytes deltas(ZSTD_getFrameContentSize(frame, codes));
  EXPECT_EQ(ZSTD_decompress(deltas.data(), deltas.size(), frame, codes), deltas.size());
  return deltas;
}

}  // namespace

// Two entries for one class behind a valid checksum: the class numbers must
// strictly increase (a zero gap after the first entry is a duplicate). The
// count of entries stays right, so only the order check can catch it.
TEST(TablebaseRefuse, DuplicateClassNumberBehindAValidChecksum) {
  const Bytes& good = solved(kStandard).bytes;
  const Bytes deltas = code_deltas(good);
  // The unchanged deltas re-encode to a table the reader accepts.
  EXPECT_NO_THROW(Tablebase::from_bytes(with_code_deltas(good, deltas), "resealed"));
  // Insert a zero gap after the first entry and drop the last entry's gap, so
  // the entry count is unchanged but the second entry repeats the first.
  std::size_t first_end = 0;
  while (deltas[first_end] & 0x80) ++first_end;
  ++first_end;
  std::size_t last_start = deltas.size() - 1;
  while (last_start > 0 && (deltas[last_start - 1] & 0x80)) --last_start;
  Bytes dup(deltas.begin(), deltas.begin() + std::ptrdiff_t(first_end));
  dup.push_back(0);
  dup.insert(dup.end(), deltas.begin() + std::ptrdiff_t(first_end),
             deltas.begin() + std::ptrdiff_t(last_start));
  const std::string msg =
      expect_bytes_refused(with_code_deltas(good, dup), TablebaseErrorKind::kCorrupt);
  EXPECT_NE(msg.find("codes section"), std::string::npos) << msg;
}

}  // namespace fano

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
TEST(TablebaseRefuse, HugeClassCountIsRefusedBeforeAllocating) {
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

// A table with a valid checksum but without a
// reachable successor made query exit 1 without naming the file.
TEST(TablebaseRefuse, MissingSuccessorIsDamageNamingTheFile) {
  const fs::path table = fs::path(FANO_SOURCE_DIR) / "fuzz/corpus/tablebase/tiny_cap2_board";
  const RunResult r = run_fano({"query", "--tb", table.string(), "--position=-/-/-/-/-/-/- w"});
  EXPECT_FALSE(r.crashed());
  EXPECT_EQ(r.exit_code, exit_code_of(TablebaseErrorKind::kCorrupt)) << r.err;
  EXPECT_EQ(r.err_lines(), 1) << r.err;
  EXPECT_NE(r.err.find(table.string()), std::string::npos) << r.err;
}

}  // namespace
}  // namespace fano
