// The table's sections (internal to the solver), built by the table writer
// and by a solve. The codes section before compression: the differences
// between successive class numbers, the first from 0, as LEB128 varints
// (tablebase/FORMAT.md); the writer numbers the codes it is given, the
// search has the sorted class numbers in hand when it ranks the classes (so a
// solve never numbers its classes twice).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fano/buffer.hpp"
#include "fano/parallel.hpp"
#include "fano/table_writer.hpp"
#include "fano/value.hpp"

namespace fano::detail {

// Sections are built in fixed slices of classes in parallel (each slice's
// byte count first, then its bytes at their offsets), so the bytes are the
// same for any thread count.
inline constexpr std::size_t kSlice = std::size_t(1) << 14;

// Where each slice of n classes starts in a section: bytes_in(c, first, end)
// counts slice c's bytes (classes [first, end)), on all slices in parallel;
// returns at[c] = the bytes before slice c (at[slices] = the section's size).
template <class BytesIn>
std::vector<std::size_t> slice_offsets(std::size_t n, BytesIn&& bytes_in) {
  const std::size_t slices = (n + kSlice - 1) / kSlice;
  std::vector<std::size_t> at(slices + 1, 0);
  par::parallel_for(std::size_t(0), slices, [&](std::size_t c) {
    at[c + 1] = bytes_in(c, c * kSlice, std::min(n, (c + 1) * kSlice));
  });
  for (std::size_t c = 0; c < slices; ++c) at[c + 1] += at[c];
  return at;
}

// The varint deltas of n ascending class numbers, number_at(i) for i in
// [0, n) (called from several threads, more than once per i); with slice_at,
// where each slice of kSlice classes starts in them (and their size last).
template <class NumberAt>
UninitVector<std::uint8_t> class_number_deltas(std::size_t n, NumberAt&& number_at,
                                               std::vector<std::size_t>* slice_at = nullptr) {
  const auto varint_bytes = [](std::uint64_t d) {
    return std::size_t(1) + (std::bit_width(d) - 1 + (d == 0)) / 7;
  };
  const auto at = slice_offsets(n, [&](std::size_t, std::size_t first, std::size_t end) {
    std::uint64_t prev = first == 0 ? 0 : number_at(first - 1);
    std::size_t bytes = 0;
    for (std::size_t i = first; i < end; ++i) {
      const std::uint64_t number = number_at(i);
      bytes += varint_bytes(number - prev), prev = number;
    }
    return bytes;
  });
  UninitVector<std::uint8_t> deltas(at.back());
  par::parallel_for(std::size_t(0), at.size() - 1, [&](std::size_t c) {
    std::uint8_t* out = deltas.data() + at[c];
    const std::size_t first = c * kSlice, end = std::min(n, first + kSlice);
    std::uint64_t prev = first == 0 ? 0 : number_at(first - 1);
    for (std::size_t i = first; i < end; ++i) {
      const std::uint64_t number = number_at(i);
      std::uint64_t d = number - prev;
      prev = number;
      do {
        *out++ = std::uint8_t((d & 0x7f) | (d > 0x7f ? 0x80 : 0));
        d >>= 7;
      } while (d);
    }
  });
  if (slice_at) *slice_at = at;
  return deltas;
}

// The codes section of `classes` classes from their varint deltas (compressed
// here; needs the table writer, a build with zstd). Runs in the caller's arena.
CodesSection codes_section_from_deltas(const Variant& variant, std::size_t classes,
                                       std::span<const std::uint8_t> deltas);

// The outcomes section of a solution's outcomes (in code order), compressed:
// in a solution the classes won in 0 plies are exactly those where a line
// stands (the analysis decides those first; a class without a line and
// without a move is lost in 0; the levels decide the rest in 1 ply or more),
// so the rules are not asked again for every class. Runs in the caller's arena.
OutcomesSection outcomes_section_of_solution(const Variant& variant,
                                             std::span<const Outcome> outcomes);

}  // namespace fano::detail
