// The tablebase file: format, writer and reader. The layout is documented in
// tablebase/FORMAT.md; this header is its authoritative definition.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fano/board.hpp"
#include "fano/buffer.hpp"
#include "fano/files.hpp"
#include "fano/state.hpp"
#include "fano/symmetry.hpp"
#include "fano/value.hpp"

namespace fano {

inline constexpr char kTablebaseMagic[8] = {'F', 'A', 'N', 'O', 'T', 'B', '\x1a', '\n'};
// Version 2: classes under the rules' full symmetry group (move-graph
// symmetries times the shape swap, symmetry_order 12 or 336). Version 1
// (move-graph symmetries only) is refused.
inline constexpr std::uint32_t kTablebaseVersion = 2;

// Fixed little-endian header at offset 0, followed by the two compressed
// sections (codes, then outcomes) and nothing else.
struct TablebaseHeader {
  char magic[8];                 // kTablebaseMagic
  std::uint32_t version;         // kTablebaseVersion
  std::uint32_t header_size;     // sizeof(TablebaseHeader)
  std::uint8_t stack_cap;        // 2 or 3
  std::uint8_t adjacency;        // 0 board, 1 projective
  std::uint16_t symmetry_order;  // order of the group the classes are taken under (12 or 336)
  std::uint32_t reserved;        // zero
  std::uint64_t reachable, placement, movement, canonical;  // position counts
  std::uint64_t win, loss, draw;                            // over all reachable positions
  std::uint64_t codes_bytes;                                // size of the compressed codes section
  std::uint64_t outcomes_bytes;  // size of the compressed outcomes section
  std::uint64_t checksum;        // FNV-1a 64 of header (this field zero) + sections
};
static_assert(sizeof(TablebaseHeader) == 104, "the on-disk header is 104 bytes");

// Why a file was refused or could not be written (the CLI maps each kind to
// its own exit code).
enum class TablebaseErrorKind {
  kMissing,       // no such file
  kNotAFile,      // a directory or special file
  kTruncated,     // shorter than its header announces
  kBadMagic,      // not a tablebase
  kBadVersion,    // a format version this reader does not read
  kChecksum,      // damaged
  kCorrupt,       // checksum right but contents inconsistent
  kWrongVariant,  // a table of another variant
  kIo,            // a read or write failed
};

class TablebaseError : public std::runtime_error {
 public:
  TablebaseError(TablebaseErrorKind kind, const std::string& what)
      : std::runtime_error(what), kind_(kind) {}
  TablebaseErrorKind kind() const { return kind_; }

 private:
  TablebaseErrorKind kind_;
};

// The counts stored in the header.
struct TablebaseCounts {
  std::uint64_t reachable = 0, placement = 0, movement = 0, win = 0, loss = 0, draw = 0;
};

// A table's codes section (the canonical codes, delta-coded and compressed).
// It depends only on the list of classes, so a solver can build it while its
// analysis runs.
struct CodesSection {
  Variant variant;
  std::size_t classes = 0;           // codes it holds
  UninitVector<std::uint8_t> bytes;  // as stored in the file
};

// Builds the codes section of canonical_codes (strictly ascending valid codes
// of the variant, else std::invalid_argument).
CodesSection encode_codes_section(const Variant& variant,
                                  std::span<const std::uint64_t> canonical_codes);

// Serialises a solved variant: one entry per symmetry class (canonical codes
// ascending). Deterministic: the same input gives the same bytes. A given
// codes_section must come from encode_codes_section of the same codes (its
// variant and count are checked); without one it is built here.
std::vector<std::uint8_t> encode_tablebase(const Variant& variant, const TablebaseCounts& counts,
                                           std::span<const std::uint64_t> canonical_codes,
                                           std::span<const Outcome> outcomes,
                                           const CodesSection* codes_section = nullptr);

// Writes a table's bytes to path atomically (AtomicFileWriter of
// fano/files.hpp: over a regular file or a missing one, never creating
// folders). Throws TablebaseError (kNotAFile for a directory or special file,
// else kIo) naming the destination and the cause.
void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes);

// Creates the tables folder `dir` (default_table_dir() when empty) and its
// parents when missing. Throws TablebaseError (kIo) naming the cause.
void create_table_dir(const std::string& dir = "");

// A read-only, checked tablebase held in memory. probe() is thread-safe.
class Tablebase {
 public:
  // Opens and checks a file (size, magic, version, checksum, sections, and the
  // variant if one is expected); the header is read and checked against the
  // file's size before the rest is read. Throws TablebaseError naming file and problem.
  static Tablebase open(const std::string& path, std::optional<Variant> expected = std::nullopt);
  // The same checks on bytes already in memory; `name` is used in messages.
  static Tablebase from_bytes(std::span<const std::uint8_t> bytes, const std::string& name,
                              std::optional<Variant> expected = std::nullopt);

  const TablebaseHeader& header() const { return header_; }
  // The file name (or the name given to from_bytes), for messages.
  const std::string& name() const { return name_; }
  Variant variant() const { return variant_; }
  // The outcome of any position (symmetry is applied here), or nullopt when the
  // position is not reachable from the empty board.
  std::optional<Outcome> probe(State st) const;
  // Stored classes, for whole-table checks.
  std::size_t size() const { return codes_.size(); }
  State position_at(std::size_t i) const { return State{codes_[i]}; }
  Outcome outcome_at(std::size_t i) const;
  const Symmetry& symmetry() const { return symmetry_; }

 private:
  Tablebase(Variant v) : variant_(v), symmetry_(v.adjacency) {}
  // The bucket of a code: side to move and the stacks of spaces 7, 6 and 5 as
  // digits (ranks among valid stacks); buckets are monotone in the code.
  // 9,826 buckets for stack cap 2 (about 14 classes each), 137,842 for cap 3.
  std::size_t bucket_of(std::uint64_t code) const {
    const std::size_t side = std::size_t(code >> kSideBit & 1);
    return ((side * radix_ + digit_[std::uint8_t(code >> 48)]) * radix_ +
            digit_[std::uint8_t(code >> 40)]) *
               radix_ +
           digit_[std::uint8_t(code >> 32)];
  }
  void build_index();
  TablebaseHeader header_{};
  std::string name_;
  Variant variant_;
  Symmetry symmetry_;
  std::vector<std::uint64_t> codes_;
  std::vector<std::uint8_t> outcomes_;
  // Probe index: the classes of bucket b are codes_[first_[b] .. first_[b + 1]).
  std::array<std::uint16_t, 256> digit_{};
  std::size_t radix_ = 0;
  std::vector<std::uint32_t> first_;
};

// Where tables are looked for when no folder is given, and why.
struct TableDir {
  std::string path;
  std::string source;  // "FANO_TABLES", "source tree" or "installed"
};
// $FANO_TABLES if set; else, when the running program lives in this project's
// build tree, the source tree's tables/; else <prefix>/share/fano/tables next
// to the installed program (<prefix>/bin/..).
TableDir default_table_dir();

// Default location of a variant's table: DIR/<slug>.fanotb, DIR defaulting to
// default_table_dir().
std::string default_tablebase_path(const Variant& variant, const std::string& dir = "");

// The checksum a whole file (header and sections) must carry in its header:
// FNV-1a 64 over the header with the checksum field zero, then the sections.
// Requires file.size() >= sizeof(TablebaseHeader).
std::uint64_t tablebase_checksum(std::span<const std::uint8_t> file);

// FNV-1a 64-bit hash, continuing from `h`.
std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t h = 0xcbf29ce484222325ull);

}  // namespace fano
