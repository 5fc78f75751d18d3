// The tablebase writer: a solved variant's classes and outcomes as the bytes
// of a table file (tablebase/FORMAT.md), compressed with zstd, built in
// parallel slices (the same bytes for any thread count).
// ZSTD_initStaticCCtx and the size estimates (exported by libzstd, stable since 1.4).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "fano/numbering.hpp"
#include "fano/parallel.hpp"
#include "fano/rules.hpp"
#include "fano/solver.hpp"
#include "fano/table_writer.hpp"
#include "sections.hpp"

namespace fano {
namespace {

// zstd levels per section: the codes compress best for their time at 6, the
// outcomes are smallest at 1 short of the slow levels (the measurements:
// results/design-measurements.md).
constexpr int kCodesZstdLevel = 6, kOutcomesZstdLevel = 1;

// One zstd frame of `raw`. The compression context's workspace is one of the
// solver's buffers (huge pages, see fano/buffer.hpp): zstd zeroes its tables
// for every frame, megabytes at level 6, and from malloc they were faulted in
// 4 KiB at a time (results/design-measurements.md). It is freed after the
// frame, so its pages serve the next stage. The context is the same as
// zstd's own for this level and size, so are the bytes.
UninitVector<std::uint8_t> compress(std::span<const std::uint8_t> raw, int level) {
  UninitVector<std::uint8_t> workspace(
      ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(level, raw.size(), 0)));
  ZSTD_CCtx* cctx = ZSTD_initStaticCCtx(workspace.data(), workspace.size());
  if (cctx == nullptr) throw std::bad_alloc();
  UninitVector<std::uint8_t> out(ZSTD_compressBound(raw.size()));
  const size_t n = ZSTD_compressCCtx(cctx, out.data(), out.size(), raw.data(), raw.size(), level);
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

}  // namespace

namespace detail {
CodesSection codes_section_from_deltas(const Variant& variant, std::size_t classes,
                                       std::span<const std::uint8_t> deltas) {
  return {variant, classes, compress(deltas, kCodesZstdLevel)};
}
}  // namespace detail

CodesSection encode_codes_section(const Variant& variant, std::span<const std::uint64_t> codes) {
  const Numbering digits(variant.stack_cap);
  const std::size_t n = codes.size(), slices = (n + detail::kSlice - 1) / detail::kSlice;
  UninitVector<std::uint64_t> numbers(n);  // class numbers (< 2^39)
  par::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    for (std::size_t i = c * detail::kSlice, e = std::min(n, i + detail::kSlice); i < e; ++i) {
      const State st{codes[i]};
      if (i > 0 && codes[i] <= codes[i - 1])
        throw std::invalid_argument("codes must be strictly ascending");
      if (!digits.valid(st)) throw std::invalid_argument("invalid state code");
      numbers[i] = digits.number(st);
    }
  });
  UninitVector<std::uint8_t> deltas =
      detail::class_number_deltas(n, [&](std::size_t i) { return numbers[i]; });
  free_buffer(numbers);  // freed before the compression's workspace is taken
  return detail::codes_section_from_deltas(variant, n, deltas);
}

namespace {

// The outcomes section before compression: the byte of every class where no
// line stands, in order. line(i) says whether one stands at class i (asked
// twice per class, from several threads). Half the classes have a standing
// line, at random, so both passes are written without a branch on it.
template <class Line>
UninitVector<std::uint8_t> raw_outcomes_section(std::span<const Outcome> outcomes, Line&& line) {
  const std::size_t n = outcomes.size(), slices = (n + detail::kSlice - 1) / detail::kSlice;
  const auto at = detail::slice_offsets(n, [&](std::size_t, std::size_t first, std::size_t end) {
    std::size_t bytes = 0;
    for (std::size_t i = first; i < end; ++i) bytes += !line(i);
    return bytes;
  });
  UninitVector<std::uint8_t> raw(at[slices]);
  par::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    // Every class's byte is written and kept where no line stands.
    std::array<std::uint8_t, detail::kSlice> bytes;
    std::size_t k = 0;
    for (std::size_t i = c * detail::kSlice, e = std::min(n, i + detail::kSlice); i < e; ++i)
      bytes[k] = outcome_byte(outcomes[i]), k += !line(i);
    std::copy_n(bytes.begin(), k, raw.data() + at[c]);
  });
  return raw;
}

// The file: the header, the codes section (codes_section, else built from
// codes) and the outcomes section (outcomes_section, else compressed from
// raw_outcomes); what is to be compressed is compressed at once.
std::vector<std::uint8_t> assemble_tablebase(const Variant& variant, const TablebaseCounts& counts,
                                             std::span<const std::uint64_t> codes,
                                             const CodesSection* codes_section,
                                             std::span<const std::uint8_t> raw_outcomes,
                                             const OutcomesSection* outcomes_section = nullptr) {
  CodesSection built;
  UninitVector<std::uint8_t> compressed;
  par::parallel_invoke(
      [&] {
        if (!codes_section) built = encode_codes_section(variant, codes);
      },
      [&] {
        if (!outcomes_section) compressed = compress(raw_outcomes, kOutcomesZstdLevel);
      });
  const UninitVector<std::uint8_t>& codes_z = codes_section ? codes_section->bytes : built.bytes;
  const UninitVector<std::uint8_t>& outcomes_z =
      outcomes_section ? outcomes_section->bytes : compressed;

  TablebaseHeader h = tablebase_header(variant, counts, codes.size());
  h.codes_bytes = codes_z.size();
  h.outcomes_bytes = outcomes_z.size();
  // The header is stored as its in-memory image, which is the little-endian
  // layout on every machine this project builds for.
  static_assert(std::endian::native == std::endian::little, "the format is little-endian");
  std::vector<std::uint8_t> file(sizeof h + codes_z.size() + outcomes_z.size());
  std::copy(codes_z.begin(), codes_z.end(), file.begin() + sizeof h);
  std::copy(outcomes_z.begin(), outcomes_z.end(), file.begin() + sizeof h + codes_z.size());
  h.checksum = tablebase_checksum(h, std::span(file).subspan(sizeof h));
  std::memcpy(file.data(), &h, sizeof h);
  return file;
}

// A section given to the writer must have been built for this variant and
// this many classes (what: the section's contents, for the message).
template <class Section>
void check_section(const Variant& variant, std::size_t classes, const Section* section,
                   const char* what) {
  if (section && (section->classes != classes || !(section->variant == variant)))
    throw std::invalid_argument(std::string("the ") + what + " section was built for other " +
                                what);
}

// The classes won in 0 plies of a solution's outcomes (see
// outcomes_section_of_solution).
auto won_now_in(std::span<const Outcome> outcomes) {
  // Both parts read (&, not &&): whether a class is won is a coin flip.
  return [outcomes](std::size_t i) {
    return (outcomes[i].value == Value::kWin) & (outcomes[i].plies == 0);
  };
}

}  // namespace

std::vector<std::uint8_t> encode_tablebase(const Variant& variant, const TablebaseCounts& counts,
                                           std::span<const std::uint64_t> codes,
                                           std::span<const Outcome> outcomes,
                                           const CodesSection* codes_section) {
  if (codes.size() != outcomes.size())
    throw std::invalid_argument("codes and outcomes differ in size");
  check_section(variant, codes.size(), codes_section, "codes");
  // Where a line stands, by the rules; such a class must be won in 0 plies.
  const std::size_t n = codes.size(), slices = (n + detail::kSlice - 1) / detail::kSlice;
  const Rules rules(variant);
  UninitVector<std::uint8_t> stands(n);
  par::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    bool wrong = false;
    for (std::size_t i = c * detail::kSlice, e = std::min(n, i + detail::kSlice); i < e; ++i) {
      const bool line = formed_lines(rules, State{codes[i]}) != 0;
      stands[i] = line;
      wrong |= line & (outcomes[i] != Outcome{Value::kWin, 0});
    }
    if (wrong) throw std::invalid_argument("a position with a standing line must be a win in 0");
  });
  const auto raw = raw_outcomes_section(outcomes, [&](std::size_t i) { return stands[i] != 0; });
  free_buffer(stands);
  return assemble_tablebase(variant, counts, codes, codes_section, raw);
}

namespace detail {
OutcomesSection outcomes_section_of_solution(const Variant& variant,
                                             std::span<const Outcome> outcomes) {
  const auto raw = raw_outcomes_section(outcomes, won_now_in(outcomes));
  return {variant, outcomes.size(), compress(raw, kOutcomesZstdLevel)};
}
}  // namespace detail

std::vector<std::uint8_t> encode_solution(const Solution& s, int threads) {
  par::task_arena arena(threads > 0 ? threads : par::default_concurrency());
  return arena.execute([&] {
    const CodesSection* codes_section = s.codes_section ? &*s.codes_section : nullptr;
    check_section(s.variant, s.positions.size(), codes_section, "codes");
    const OutcomesSection* outcomes_section = s.outcomes_section ? &*s.outcomes_section : nullptr;
    check_section(s.variant, s.outcomes.size(), outcomes_section, "outcomes");
    const auto raw = outcomes_section ? UninitVector<std::uint8_t>()
                                      : raw_outcomes_section(s.outcomes, won_now_in(s.outcomes));
    return assemble_tablebase(s.variant, tablebase_counts(s), s.positions, codes_section, raw,
                              outcomes_section);
  });
}

}  // namespace fano
