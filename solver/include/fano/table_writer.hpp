// The tablebase writer: a solved variant as the bytes of a table file
// (tablebase/FORMAT.md). Needs zstd's encoder; built where the solver has it
// (not in the WebAssembly build, which keeps its tables in memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fano/board.hpp"
#include "fano/buffer.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

// A table's codes section (the canonical codes, delta-coded and compressed).
// It depends only on the list of classes, so a solver can build it while its
// analysis runs.
struct CodesSection {
  Variant variant;
  std::size_t classes = 0;           // codes it holds
  UninitVector<std::uint8_t> bytes;  // as stored in the file
};

// A table's outcomes section (one byte per class where no line stands,
// compressed), built by a solve beside its codes section.
struct OutcomesSection {
  Variant variant;
  std::size_t classes = 0;           // classes whose outcomes it holds
  UninitVector<std::uint8_t> bytes;  // as stored in the file
};

// Builds the codes section of canonical_codes (strictly ascending valid codes
// of the variant, else std::invalid_argument). Runs in the caller's arena.
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

}  // namespace fano
