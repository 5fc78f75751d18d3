// fano export: the whole table as text rows (tablebase library's export.hpp).
#include <string>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/export.hpp"
#include "fano/files.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

int cmd_export(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  desc.add_options()("format", po::value<std::string>()->default_value("csv"), "csv or jsonl")(
      "classes", "one row per stored symmetry class, with its orbit size")(
      "zstd", "compress the output with zstd")(
      "out", po::value<std::string>()->default_value("-"),
      "output file (written atomically: a temporary in the same folder, renamed at the end; "
      "the folder must exist), or - for stdout");
  const auto vm = parse(
      "export", "[--tb FILE] [--format csv|jsonl] [--classes] [--zstd] [--out FILE|-]",
      "Writes every reachable position of the table, or with --classes every stored symmetry "
      "class, one row each in ascending position code (the 64-bit state code: side to move, "
      "then the stacks of spaces 7 down to 1), the same bytes on every run. Columns: position, "
      "to_move (white/black), phase (placement/movement), pieces (on the board), value "
      "(win/draw/loss for the side to move), plies (empty in CSV, null in JSON lines for a "
      "draw) and, with --classes, orbit (the reachable positions in the class). CSV has a "
      "header line.",
      desc, nullptr, args);
  if (!vm) return 0;
  const std::string format_name = (*vm)["format"].as<std::string>();
  if (format_name != "csv" && format_name != "jsonl")
    throw UsageError("--format must be csv or jsonl, not '" + format_name + "'");
  const ExportFormat format = format_name == "csv" ? ExportFormat::kCsv : ExportFormat::kJsonl;
  const bool classes = vm->count("classes") > 0;
  Variant v = variant_from(*vm);
  const std::string out_path = output_path_from(*vm, "out");
  check_output_is_not_input(out_path, "--out", table_path_from(*vm, v), "the tablebase");
  const Tablebase tb = open_table(*vm, v);
  const auto t0 = std::chrono::steady_clock::now();
  const ExportResult r =
      export_table(tb, out_path, format, classes, vm->count("zstd") > 0,
                   [&](std::uint64_t done, std::uint64_t total) {
                     progress("export: " + std::to_string(done) + " / " + std::to_string(total) +
                              " rows, " + seconds_text(seconds_since(t0)));
                   });
  progress("export: " + std::to_string(r.rows) + " rows, " + std::to_string(r.bytes) +
           " bytes of text in " + seconds_text(seconds_since(t0)));
  return 0;
}

}  // namespace fano::cli
