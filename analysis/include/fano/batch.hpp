// Answers for `fano query --batch`: one input line (a position, or "moves:"
// and a move list from the empty board, rule 3 applied) gives one JSON line.
// And the array answers of the Python module's vectorised calls (codes in,
// arrays out), one block of entries per call so a front end may run
// disjoint blocks on threads (this layer has none).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fano/rules.hpp"
#include "fano/symmetry.hpp"
#include "fano/tablebase.hpp"

namespace fano {

struct BatchLine {
  std::string_view text;  // without its '\n'
  std::size_t number;     // 1-based line number in the input
};

// True for a line with nothing but white space (skipped: no answer).
bool blank_batch_line(std::string_view text);

// Appends the answer to one line and '\n': report_json(analyse(...)) of the
// position, or with value_only {"position":"...","value":"win","plies":5}
// (plies null for a draw); for a bad line {"line":N,"input":"...","error":"..."}.
// Returns false for a bad line. Thread-safe (the table is only probed).
bool answer_batch_line(const Tablebase& tb, const Rules& rules, const BatchLine& line,
                       bool value_only, std::string& out);
// The same for a good line; a bad one throws what refused it (NotationError,
// UnreachablePosition, ...) and appends nothing, so that a front end reports
// it by its kind.
void answer_batch_item(const Tablebase& tb, const Rules& rules, std::string_view text,
                       bool value_only, std::string& out);

// Answers each non-blank line in order; returns the number of bad lines.
std::size_t answer_batch_lines(const Tablebase& tb, const Rules& rules,
                               std::span<const BatchLine> lines, bool value_only, std::string& out);

// The same for the lines of `text` ('\n'-separated, a '\r' before it
// dropped; a last line without '\n' counts), numbered from first_line.
std::size_t answer_batch_text(const Tablebase& tb, const Rules& rules, std::string_view text,
                              std::size_t first_line, bool value_only, std::string& out);

// ---- arrays of codes

// The byte of a value in arrays (Value's numbering: 0 loss, 1 draw, 2 win),
// and this where an entry has no value.
inline constexpr std::uint8_t kNoValue = 255;

// The outputs of probe_codes for the same entries as its codes.
struct ProbeArrays {
  std::span<std::uint8_t> value;   // Value's byte, kNoValue where not valid
  std::span<std::uint16_t> plies;  // 0 for a draw or an entry that is not valid
  std::span<bool> valid;           // a position of the table's variant that a game reaches
};

// A probe index over a table's classes for arrays of codes: an open-addressed
// hash table of the canonical codes with their outcomes in the same 16-byte
// slot, so one probe touches one cache line, and probe() fetches the slots
// of a group of entries before reading any (the table's own probe runs a
// binary search whose dependent loads miss the cache one after another).
// 32 to 64 bytes per stored class (16-byte slots, a power of two at least
// twice the classes); built in one pass over the table on first use.
class CodeIndex {
 public:
  explicit CodeIndex(const Tablebase& tb);

  // Probes every code: the answers of tb.probe() after is_valid_position();
  // never throws for an entry (a malformed code, one that is not a position
  // of the table's variant, or an unreachable one is not valid). The spans
  // of `out` hold codes.size() entries each.
  void probe(std::span<const std::uint64_t> codes, const ProbeArrays& out) const;

 private:
  struct Slot {
    std::uint64_t code;  // kEmpty where no class is stored
    std::uint16_t plies;
    std::uint8_t value;
  };
  static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);  // no code is that large
  std::size_t home(std::uint64_t code) const {
    return std::size_t((code * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  Variant variant_;
  Symmetry symmetry_;        // the table's
  std::vector<Slot> slots_;  // a power of two, at most about half full
  int shift_ = 64;
};

// out[i] = the canonical code of codes[i] under the variant's rule symmetries
// (sym is symmetry_of(variant)), for every entry up to the first one
// that is not a valid position of the variant (is_valid_position): its index
// is returned (entries from it on are unspecified), else nullopt.
std::optional<std::size_t> canonical_codes(const Symmetry& sym, const Variant& variant,
                                           std::span<const std::uint64_t> codes,
                                           std::span<std::uint64_t> out);

// out[i] = the code of parse_position(texts[i], variant), up to the first
// text that does not parse: its index is returned, else nullopt (the reason
// is parse_position's NotationError for that text).
std::optional<std::size_t> parse_positions(std::span<const std::string_view> texts,
                                           const Variant& variant, std::span<std::uint64_t> out);

// Why `code` is not a valid position of the variant (as Position.from_code
// says: bits above the side to move, a malformed stack, then the notation's
// checks), or "" when it is one.
std::string code_error(std::uint64_t code, const Variant& variant);

}  // namespace fano
