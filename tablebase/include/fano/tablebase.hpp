// The tablebase: its format and the reader. The layout is documented in
// tablebase/FORMAT.md; this header is its authoritative definition. The
// writer is fano/table_writer.hpp (solver layer); files are opened and written
// through fano/table_files.hpp (io layer). Nothing here touches the file
// system or starts a thread, so it builds for WebAssembly too.
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
#include "fano/errors.hpp"
#include "fano/state.hpp"
#include "fano/symmetry.hpp"
#include "fano/value.hpp"

namespace fano {

inline constexpr char kTablebaseMagic[8] = {'F', 'A', 'N', 'O', 'T', 'B', '\x1a', '\n'};
// Version 2: classes under the rules' full symmetry group (move-graph
// symmetries times the shape swap, symmetry_order 12 or 336), the rulebook's
// lines and material. Version 3: the same layout, the rules' lines and
// material in the reserved bytes; written only for rules other than the
// rulebook's lines and material, so the four named variants' files stay
// version 2, byte for byte. Version 1 (move-graph symmetries only) is refused.
inline constexpr std::uint32_t kTablebaseVersion = 3;
inline constexpr std::uint32_t kTablebaseRulebookVersion = 2;

// Fixed little-endian header at offset 0, followed by the two compressed
// sections (codes, then outcomes) and nothing else.
struct TablebaseHeader {
  char magic[8];                 // kTablebaseMagic
  std::uint32_t version;         // kTablebaseVersion
  std::uint32_t header_size;     // sizeof(TablebaseHeader)
  std::uint8_t stack_cap;        // 2 or 3
  std::uint8_t adjacency;        // 0 board, 1 projective
  std::uint16_t symmetry_order;  // order of the group the classes are taken under (12 or 336)
  std::uint8_t lines;            // version 3: 0 colour or shape, 1 colour only; version 2: 0
  std::uint8_t circles;          // version 3: circles per player (1..3); version 2: 0 (two)
  std::uint8_t triangles;        // version 3: triangles per player (1..3); version 2: 0 (two)
  std::uint8_t reserved;         // zero
  std::uint64_t reachable, placement, movement, canonical;  // position counts
  std::uint64_t win, loss, draw;                            // over all reachable positions
  std::uint64_t codes_bytes;                                // size of the compressed codes section
  std::uint64_t outcomes_bytes;  // size of the compressed outcomes section
  std::uint64_t checksum;        // FNV-1a 64 of header (this field zero) + sections
};
static_assert(sizeof(TablebaseHeader) == 104, "the on-disk header is 104 bytes");

// The rules a header names (every option of fano/rules_options.hpp has its
// field above), or nullopt for a field out of range or a version 3 header
// naming the rulebook's lines and material.
std::optional<Variant> header_variant(const TablebaseHeader& h);

// Why a file was refused or could not be written: one of the table kinds of
// the shared error table (fano/errors.hpp: kMissing .. kIo), whose row gives
// the CLI's exit code, the HTTP status and Python's `kind`.
using TablebaseErrorKind = ErrorKind;

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

// The largest class count any rules can have: below 2^24 with at most two
// pieces of a kind (9,018,802 classes for stack cap 3, either side to move),
// below 2^28 with three (the reader takes the bound of the header's rules);
// a header announcing more is damage.
inline constexpr std::uint64_t kMaxTablebaseClasses = std::uint64_t(1) << 28;
// No table file is larger: every class a 10-byte varint and an outcome byte,
// each section at zstd's worst-case bound (ZSTD_COMPRESSBOUND above 128 KiB),
// plus the header.
inline constexpr std::uint64_t kMaxTablebaseBytes =
    sizeof(TablebaseHeader) + (10 * kMaxTablebaseClasses + 10) +
    ((10 * kMaxTablebaseClasses + 10) >> 8) + kMaxTablebaseClasses + (kMaxTablebaseClasses >> 8);

// The bounds for the rules a header names: 2^24 classes (and the file size
// that allows) unless the header is version 3 with three pieces of a kind.
std::uint64_t max_tablebase_classes(const TablebaseHeader& h);
std::uint64_t max_tablebase_bytes(const TablebaseHeader& h);

// One byte per stored outcome: 0 draw, 1 + p a win in p plies (p <= 126),
// 128 + p a loss in p plies (p <= 127). outcome_byte throws
// std::runtime_error for plies out of that range. Inline: the table writer
// calls it once per class.
namespace detail {
[[noreturn]] void throw_outcome_too_long(Outcome o);
}
inline std::uint8_t outcome_byte(Outcome o) {
  // Without a branch on the value: from one class to the next it is a coin flip.
  const bool win = o.value == Value::kWin, draw = o.value == Value::kDraw;
  if (o.plies > 127 - unsigned(win) && !draw) [[unlikely]]
    detail::throw_outcome_too_long(o);
  const unsigned base = win ? 1u : 128u;
  return std::uint8_t((base + o.plies) & (0u - unsigned(!draw)));
}
Outcome outcome_from_byte(std::uint8_t b);

// The header of a table of `classes` classes with these counts, its section
// sizes and checksum zero (the writer fills them in).
TablebaseHeader tablebase_header(const Variant& variant, const TablebaseCounts& counts,
                                 std::uint64_t classes);

// The checks that need only the header and the file's size: magic, version,
// header size and that the sections announced fill the file exactly. Throws
// TablebaseError naming `name`.
void check_tablebase_header(const TablebaseHeader& h, std::uint64_t file_size,
                            const std::string& name);

// A read-only, checked tablebase held in memory. probe() is thread-safe.
class Tablebase {
 public:
  // Checks and decodes a table file's bytes (size, magic, version, checksum,
  // sections, and the variant if one is expected); `name` is used in
  // messages. Throws TablebaseError naming it and the problem. A build
  // without zstd's decoder (FANO_HAVE_ZSTD off) refuses every file (kIo).
  static Tablebase from_bytes(std::span<const std::uint8_t> bytes, const std::string& name,
                              std::optional<Variant> expected = std::nullopt);
  // A table built in memory from a solve's classes (canonical codes strictly
  // ascending, one outcome each; else std::invalid_argument): no encoding, no
  // decoder. Its header has section sizes and checksum zero.
  static Tablebase from_classes(const Variant& variant, const TablebaseCounts& counts,
                                std::span<const std::uint64_t> canonical_codes,
                                std::span<const Outcome> outcomes, const std::string& name);
  // The same, keeping the codes' array rather than copying it (a solve's
  // positions: in the page the largest solve's copy was 228 MiB more memory).
  static Tablebase from_classes(const Variant& variant, const TablebaseCounts& counts,
                                UninitVector<std::uint64_t>&& canonical_codes,
                                std::span<const Outcome> outcomes, const std::string& name);

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
  const Symmetry& symmetry() const { return *symmetry_; }

 private:
  // The variant's shared Symmetry (symmetry_of): built once a process, not
  // once a table (`fano serve` opens 72).
  Tablebase(Variant v) : variant_(v), symmetry_(&symmetry_of(v)) {}
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
  const Symmetry* symmetry_;
  UninitVector<std::uint64_t> codes_;
  UninitVector<std::uint8_t> outcomes_;
  // Probe index: the classes of bucket b are codes_[first_[b] .. first_[b + 1]).
  std::array<std::uint16_t, 256> digit_{};
  std::size_t radix_ = 0;
  UninitVector<std::uint32_t> first_;
};

// The checksum a whole file (header and sections) must carry in its header:
// FNV-1a 64 over the header with the checksum field zero, then the sections.
// Requires file.size() >= sizeof(TablebaseHeader).
std::uint64_t tablebase_checksum(std::span<const std::uint8_t> file);
// The same from a header (its checksum field ignored) and the sections.
std::uint64_t tablebase_checksum(TablebaseHeader h, std::span<const std::uint8_t> sections);

// FNV-1a 64-bit hash, continuing from `h`.
std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t h = 0xcbf29ce484222325ull);

}  // namespace fano
