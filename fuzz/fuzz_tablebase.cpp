// libFuzzer target: the tablebase reader (Tablebase::from_bytes).
//
// Each input is read twice: as it is, and with its header checksum recomputed
// so that the checks behind the checksum (variant, symmetry order, the zstd
// sections, the code list) are reached too.
//
// Contract checked: from_bytes either returns a table or throws TablebaseError
// (anything else escapes and is reported as a crash); a returned table can be
// probed without fault.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "fano/tablebase.hpp"

namespace {

void exercise(const fano::Tablebase& tb) {
  (void)tb.probe(fano::kEmptyBoard);
  const std::size_t n = tb.size();
  for (std::size_t i = 0; i < n && i < 64; ++i) {
    (void)tb.probe(tb.position_at(i));
    (void)tb.outcome_at(i);
  }
  if (n) (void)tb.probe(tb.position_at(n - 1));
}

void read(std::span<const std::uint8_t> bytes) {
  try {
    exercise(fano::Tablebase::from_bytes(bytes, "fuzz.fanotb"));
  } catch (const fano::TablebaseError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  read(std::span(data, size));
  if (size < sizeof(fano::TablebaseHeader)) return 0;
  // The same bytes with a correct checksum.
  std::vector<std::uint8_t> fixed(data, data + size);
  const std::uint64_t sum = fano::tablebase_checksum(fixed);
  std::memcpy(fixed.data() + offsetof(fano::TablebaseHeader, checksum), &sum, sizeof sum);
  read(fixed);
  return 0;
}
