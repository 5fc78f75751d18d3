// The tablebase reader: the format's checks, decoding a file's bytes (with
// zstd's decoder, where the build has it) and probing. No file system, no
// threads: it builds for WebAssembly too (where tables are built in memory).
#include "fano/tablebase.hpp"

#if FANO_HAVE_ZSTD
#include <zstd.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstring>
#include <utility>

#include "fano/numbering.hpp"
#include "fano/rules.hpp"

namespace fano {
namespace {

[[noreturn]] void refuse(TablebaseErrorKind kind, const std::string& name, const std::string& why) {
  throw TablebaseError(kind, name + ": " + why);
}

#if FANO_HAVE_ZSTD
UninitVector<std::uint8_t> decompress_exact(std::span<const std::uint8_t> frame,
                                            std::uint64_t expect, const std::string& name,
                                            const char* section) {
  const unsigned long long size = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size != expect)
    refuse(TablebaseErrorKind::kCorrupt, name,
           std::string("the ") + section + " section is damaged");
  UninitVector<std::uint8_t> out(size);
  const size_t n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
  if (ZSTD_isError(n) || n != size)
    refuse(TablebaseErrorKind::kCorrupt, name,
           std::string("the ") + section + " section does not decompress");
  return out;
}
#endif

}  // namespace

void detail::throw_outcome_too_long(Outcome o) {
  throw std::runtime_error(std::string(o.value == Value::kWin ? "win" : "loss") +
                           " too long for the format: " + std::to_string(o.plies));
}

Outcome outcome_from_byte(std::uint8_t b) {
  if (b == 0) return Outcome{Value::kDraw, 0};
  if (b < 128) return Outcome{Value::kWin, std::uint16_t(b - 1)};
  return Outcome{Value::kLoss, std::uint16_t(b - 128)};
}

std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t h) {
  for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

std::uint64_t tablebase_checksum(TablebaseHeader h, std::span<const std::uint8_t> sections) {
  h.checksum = 0;
  std::array<std::uint8_t, sizeof h> raw;
  std::memcpy(raw.data(), &h, sizeof h);
  return fnv1a64(sections, fnv1a64(raw));
}

std::uint64_t max_tablebase_classes(const TablebaseHeader& h) {
  const bool three = h.version == kTablebaseVersion && std::max(h.circles, h.triangles) >= 3;
  return three ? kMaxTablebaseClasses : std::uint64_t(1) << 24;
}

std::uint64_t max_tablebase_bytes(const TablebaseHeader& h) {
  const std::uint64_t n = max_tablebase_classes(h);
  return sizeof(TablebaseHeader) + (10 * n + 10) + ((10 * n + 10) >> 8) + n + (n >> 8);
}

TablebaseHeader tablebase_header(const Variant& variant, const TablebaseCounts& counts,
                                 std::uint64_t classes) {
  TablebaseHeader h{};
  std::memcpy(h.magic, kTablebaseMagic, sizeof h.magic);
  h.header_size = sizeof(TablebaseHeader);
  h.stack_cap = std::uint8_t(variant.stack_cap);
  h.adjacency = std::uint8_t(variant.adjacency);
  if (variant.rulebook_material_and_lines()) {
    h.version = kTablebaseRulebookVersion;  // the bytes of every earlier table
  } else {
    h.version = kTablebaseVersion;
    h.lines = std::uint8_t(variant.lines);
    h.circles = std::uint8_t(variant.circles);
    h.triangles = std::uint8_t(variant.triangles);
  }
  h.symmetry_order = std::uint16_t(rule_symmetries(variant).size());
  h.reachable = counts.reachable, h.placement = counts.placement, h.movement = counts.movement;
  h.canonical = classes;
  h.win = counts.win, h.loss = counts.loss, h.draw = counts.draw;
  return h;
}

std::optional<Variant> header_variant(const TablebaseHeader& h) {
  Variant v{h.stack_cap, Adjacency(h.adjacency)};
  if (h.version == kTablebaseVersion) {
    v.lines = Lines(h.lines), v.circles = h.circles, v.triangles = h.triangles;
    // Version 3 is written only for other rules than the rulebook's lines and material.
    if (v.rulebook_material_and_lines() || h.lines > 1) return std::nullopt;
  } else if (h.lines != 0 || h.circles != 0 || h.triangles != 0) {
    return std::nullopt;
  }
  if (h.reserved != 0 || h.adjacency > 1 || !is_valid_rules(v)) return std::nullopt;
  return v;
}

// The checks that need only the header and the file's size: magic, version,
// header size and that the sections announced fill the file exactly.
void check_tablebase_header(const TablebaseHeader& h, std::uint64_t file_size,
                            const std::string& name) {
  if (file_size == 0) refuse(TablebaseErrorKind::kTruncated, name, "is empty");
  if (file_size < sizeof h)
    refuse(TablebaseErrorKind::kTruncated, name,
           "is truncated: " + std::to_string(file_size) + " bytes, shorter than the " +
               std::to_string(sizeof h) + "-byte header");
  if (std::memcmp(h.magic, kTablebaseMagic, sizeof h.magic) != 0)
    refuse(TablebaseErrorKind::kBadMagic, name, "is not a Fano tablebase (wrong magic number)");
  if (h.version != kTablebaseVersion && h.version != kTablebaseRulebookVersion)
    refuse(TablebaseErrorKind::kBadVersion, name,
           "has format version " + std::to_string(h.version) +
               "; this program reads versions 2 and " + std::to_string(kTablebaseVersion) +
               (h.version < kTablebaseRulebookVersion
                    ? " (older tables lack the shape-swap symmetry: run 'fano solve' again)"
                    : ""));
  if (h.header_size != sizeof h)
    refuse(TablebaseErrorKind::kCorrupt, name, "has a damaged header (header size)");
  const std::uint64_t payload = file_size - sizeof h;
  if (h.codes_bytes > payload || h.outcomes_bytes > payload - h.codes_bytes)
    refuse(TablebaseErrorKind::kTruncated, name,
           "is truncated: " + std::to_string(file_size) + " bytes, the header announces " +
               std::to_string(sizeof h + h.codes_bytes + h.outcomes_bytes));
  if (h.codes_bytes + h.outcomes_bytes != payload)
    refuse(TablebaseErrorKind::kCorrupt, name,
           "has trailing bytes after its sections (" +
               std::to_string(payload - h.codes_bytes - h.outcomes_bytes) + " bytes)");
}

Tablebase Tablebase::from_bytes(std::span<const std::uint8_t> bytes, const std::string& name,
                                std::optional<Variant> expected) {
  TablebaseHeader h{};
  if (!bytes.empty()) std::memcpy(&h, bytes.data(), std::min(bytes.size(), sizeof h));
  check_tablebase_header(h, bytes.size(), name);
  if (tablebase_checksum(h, bytes.subspan(sizeof h)) != h.checksum)
    refuse(TablebaseErrorKind::kChecksum, name, "checksum mismatch: the file is damaged");
  const std::optional<Variant> named = header_variant(h);
  if (!named) refuse(TablebaseErrorKind::kCorrupt, name, "names an unknown variant");
  const Variant v = *named;
  if (expected && *expected != v)
    refuse(TablebaseErrorKind::kWrongVariant, name,
           "holds the " + variant_description(v) + " variant, not the requested " +
               variant_description(*expected));
  Tablebase tb(v);
  tb.header_ = h;
  tb.name_ = name;
  if (h.symmetry_order != tb.symmetry_->order())
    refuse(TablebaseErrorKind::kCorrupt, name, "was built with another symmetry group");
  // At most one entry per position, and no variant has 2^24 positions (9,018,802
  // for stack cap 3, either side to move): a larger count is damage, refused
  // before it sizes a buffer (found by fuzz/fuzz_tablebase).
  if (h.canonical > max_tablebase_classes(h))
    refuse(TablebaseErrorKind::kCorrupt, name, "has a damaged header (impossible position count)");
#if FANO_HAVE_ZSTD
  const auto codes_frame = bytes.subspan(sizeof h, h.codes_bytes);
  const auto outcomes_frame = bytes.subspan(sizeof h + h.codes_bytes, h.outcomes_bytes);
  const unsigned long long delta_size =
      ZSTD_getFrameContentSize(codes_frame.data(), codes_frame.size());
  // Every class takes one varint byte at least, at most ten.
  if (delta_size > 10 * h.canonical + 10 || delta_size < h.canonical)
    refuse(TablebaseErrorKind::kCorrupt, name, "the codes section is damaged");
  const auto deltas = decompress_exact(codes_frame, delta_size, name, "codes");
  // The outcomes section omits the classes with a standing line (a win in 0
  // plies, implied by the code). Its size is read from its frame's header
  // (not counted from the codes' lines), and checked against the classes
  // without a line in the outcomes pass below.
  const unsigned long long stored_size =
      ZSTD_getFrameContentSize(outcomes_frame.data(), outcomes_frame.size());
  if (stored_size > h.canonical)
    refuse(TablebaseErrorKind::kCorrupt, name, "the outcomes section is damaged");
  auto stored = decompress_exact(outcomes_frame, stored_size, name, "outcomes");
  const std::size_t stored_n = stored.size();
  stored.push_back(0);  // padding: read (never used) where the classes outnumber the entries
  const Numbering digits(v.stack_cap);
  const Rules rules(v);
  tb.codes_.resize(h.canonical);
  tb.outcomes_.resize(h.canonical);
  std::uint64_t* codes = tb.codes_.data();
  std::uint8_t* outcomes = tb.outcomes_.data();
  const std::uint8_t win_now = outcome_byte(Outcome{Value::kWin, 0});
  std::uint64_t number = 0;
  Numbering::Cursor cursor;
  std::size_t count = 0, next_stored = 0;
  const std::uint8_t* in = deltas.data();
  const std::uint8_t* const in_end = in + deltas.size();
  while (in < in_end) {
    std::uint64_t d = 0;
    for (int shift = 0;; shift += 7) {
      if (in == in_end || shift > 63)
        refuse(TablebaseErrorKind::kCorrupt, name, "the codes section is damaged");
      const std::uint8_t b = *in++;
      d |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    if ((count > 0 && d == 0) || number + d < number || count >= h.canonical ||
        !digits.advance(cursor, d))
      refuse(TablebaseErrorKind::kCorrupt, name, "the codes section is damaged");
    number += d;
    codes[count++] = cursor.state.code;
  }
  if (count != h.canonical)
    refuse(TablebaseErrorKind::kCorrupt, name,
           "the codes section holds the wrong number of positions");
  // The outcomes, in a pass of its own: the line tests of successive classes
  // do not wait on each other there (in the decoding loop each waited on the
  // cursor's carry chain, a third of the time to open the standard table),
  // and there is no branch on their data-dependent result. The index is
  // clamped to the padding byte; a count past the end is refused below.
  for (std::size_t i = 0; i < count; ++i) {
    const bool line = formed_lines(rules, State{codes[i]}) != 0;
    const std::uint8_t next = stored[std::min(next_stored, stored_n)];
    outcomes[i] = line ? win_now : next;
    next_stored += !line;
  }
  if (next_stored != stored_n)
    refuse(TablebaseErrorKind::kCorrupt, name, "the outcomes section is damaged");
#else
  refuse(TablebaseErrorKind::kIo, name,
         "cannot be decoded: this build has no zstd decoder (build the table in memory)");
#endif
  tb.build_index();
  return tb;
}

Tablebase Tablebase::from_classes(const Variant& variant, const TablebaseCounts& counts,
                                  std::span<const std::uint64_t> canonical_codes,
                                  std::span<const Outcome> outcomes, const std::string& name) {
  return from_classes(variant, counts,
                      UninitVector<std::uint64_t>(canonical_codes.begin(), canonical_codes.end()),
                      outcomes, name);
}

Tablebase Tablebase::from_classes(const Variant& variant, const TablebaseCounts& counts,
                                  UninitVector<std::uint64_t>&& canonical_codes,
                                  std::span<const Outcome> outcomes, const std::string& name) {
  if (canonical_codes.size() != outcomes.size())
    throw std::invalid_argument("codes and outcomes differ in size");
  for (std::size_t i = 1; i < canonical_codes.size(); ++i)
    if (canonical_codes[i] <= canonical_codes[i - 1])
      throw std::invalid_argument("codes must be strictly ascending");
  Tablebase tb(variant);
  tb.header_ = tablebase_header(variant, counts, canonical_codes.size());
  tb.name_ = name;
  tb.codes_ = std::move(canonical_codes);
  tb.outcomes_.resize(outcomes.size());
  std::transform(outcomes.begin(), outcomes.end(), tb.outcomes_.begin(), outcome_byte);
  tb.build_index();
  return tb;
}

void Tablebase::build_index() {
  radix_ = 0;
  for (int b = 0; b < 256; ++b) {
    const StackInfo& in = kStackInfo[b];
    // Invalid bytes never occur in a stored code; a probed one maps to 0 and misses.
    digit_[b] = in.valid && in.height <= variant_.stack_cap ? std::uint16_t(radix_++) : 0;
  }
  const std::size_t buckets = 2 * radix_ * radix_ * radix_;
  first_.assign(buckets + 1, 0);
  for (std::uint64_t c : codes_) ++first_[bucket_of(c) + 1];
  for (std::size_t b = 0; b < buckets; ++b) first_[b + 1] += first_[b];
}

std::optional<Outcome> Tablebase::probe(State st) const {
  const std::uint64_t c = symmetry_->canonical(st).code;
  const std::size_t b = bucket_of(c);
  const auto begin = codes_.begin() + first_[b], end = codes_.begin() + first_[b + 1];
  const auto it = std::lower_bound(begin, end, c);
  if (it == end || *it != c) return std::nullopt;
  return outcome_from_byte(outcomes_[size_t(it - codes_.begin())]);
}

std::uint64_t tablebase_checksum(std::span<const std::uint8_t> file) {
  assert(file.size() >= sizeof(TablebaseHeader));
  TablebaseHeader h;
  std::memcpy(&h, file.data(), sizeof h);
  return tablebase_checksum(h, file.subspan(sizeof h));
}

Outcome Tablebase::outcome_at(std::size_t i) const { return outcome_from_byte(outcomes_[i]); }

}  // namespace fano
