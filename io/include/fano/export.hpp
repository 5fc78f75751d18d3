// Exporting a tablebase as text (`fano export`): every reachable position, or
// every stored symmetry class with its orbit size, one row each, in ascending
// code order, as CSV or JSON lines; and a streamed output (stdout or an atomic
// file, optionally zstd-compressed).
//
// Columns: position (notation), to_move (white/black), phase
// (placement/movement), pieces (on the board), value (win/draw/loss for the
// side to move), plies (empty in CSV, null in JSON for a draw), for classes
// orbit (the number of reachable positions in the class), then code (the
// position's 64-bit code, as Python's Position.code; up to 2^57, so beyond
// the integers a JavaScript number holds exactly).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fano/files.hpp"
#include "fano/state.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

enum class ExportFormat { kCsv, kJsonl };

struct ExportRow {
  State position;
  Outcome outcome;
  std::uint32_t orbit = 0;  // classes only
  bool placement = false;   // pieces are still to be placed (under the table's rules)
};

// The column names in order (the words of schema/fano.schema.json's
// export_row; Python's Tablebase.to_pandas() names its columns from here).
std::vector<std::string_view> export_columns(bool classes);
// The CSV header line ("position,to_move,...\n"), or "" for JSON lines.
std::string export_header(ExportFormat format, bool classes);
// Appends one row (with its '\n'); `classes` adds the orbit column.
void append_export_row(std::string& out, ExportFormat format, const ExportRow& row, bool classes);

// Calls f with every reachable position of the table (the union of the stored
// classes' orbits, each position once) in ascending code order, in chunks of
// about max_chunk rows (one chunk per range of the two most significant code
// bytes; a range larger than max_chunk is one chunk), so that memory stays
// bounded by the chunk, not the table's reachable count.
void for_each_reachable(const Tablebase& tb,
                        const std::function<void(std::span<const ExportRow>)>& f,
                        std::size_t max_chunk = std::size_t(1) << 20);
// Calls f with every stored class (its canonical position, outcome and orbit
// size) in ascending code order, in chunks of at most max_chunk rows.
void for_each_class(const Tablebase& tb, const std::function<void(std::span<const ExportRow>)>& f,
                    std::size_t max_chunk = std::size_t(1) << 16);

// A byte stream to stdout (path "" or "-") or to a file written atomically
// (AtomicFileWriter), optionally zstd-compressed (one streaming frame,
// ZSTD_compressStream2). finish() ends the frame and, for a file, publishes
// it; destroyed unfinished, a file output leaves nothing under its path.
// Throws FileError (output) when a write fails.
class ExportSink {
 public:
  ExportSink(const std::string& path, bool zstd, int zstd_level = 3);
  ~ExportSink();
  ExportSink(const ExportSink&) = delete;
  ExportSink& operator=(const ExportSink&) = delete;
  void write(std::string_view bytes);
  void finish();
  // Bytes handed to write() so far (before compression).
  std::uint64_t bytes_in() const { return bytes_in_; }

 private:
  void emit(const void* data, std::size_t size);
  std::optional<AtomicFileWriter> file_;
  struct Zstd;
  std::unique_ptr<Zstd> zstd_;
  std::uint64_t bytes_in_ = 0;
};

// The whole table as `fano export` writes it (every reachable position in
// ascending code, or every stored class, with the header row) to `path`
// ("-": standard output) through an ExportSink; `progress(rows, total)`
// after each chunk. The command and the Python module both export this way,
// so their bytes are the same. Throws as ExportSink, and std::runtime_error
// when the rows do not add up to the table's header (a damaged table is not
// published).
struct ExportResult {
  std::uint64_t rows = 0;
  std::uint64_t bytes = 0;  // of text, before compression
};
ExportResult export_table(const Tablebase& tb, const std::string& path, ExportFormat format,
                          bool classes, bool zstd,
                          const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

}  // namespace fano
