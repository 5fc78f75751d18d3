
#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/files.hpp"
#include "fano/notation.hpp"
#include "fano/parallel.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"
#include "fano/verify.hpp"
#include "fano/verify_json.hpp"

namespace fano::cli {
namespace {

std::string finding_text(const verify::Finding& f) {
  std::string out(verify::category_name(f.category));
  if (f.position) out += ": position " + *f.position;
  return out + ": " + f.problem;
}

int run_tablebase(const po::variables_map& vm, const Tablebase& tb, const std::string& path) {
  const bool json = vm.count("json") > 0;
  verify::TablebaseOptions opts;
  opts.progress = progress;
  progress("verify: " + path + " (" + variant_description(tb.variant()) + ", " +
           std::to_string(tb.size()) + " classes)");
  const verify::TablebaseReport r = verify::verify_tablebase(tb, opts);
  using verify::Category;
  if (vm.count("markdown")) {
    std::cout << verify::markdown_table_header() << verify::markdown_row(r);
  } else if (json) {
    print_json(verify::tablebase_report_json(r, path));
  } else {
    std::cout << "tablebase: " << path << " (" << variant_description(r.variant) << ", "
              << r.classes << " classes)\n";
    std::cout << "  checksum       ok (checked when the file was opened)\n";
    for (int c = 0; c < verify::kCategories; ++c) {
      std::string name(verify::category_name(Category(c)));
      name.resize(15, ' ');
      const auto& cr = r.categories[c];
      std::cout << "  " << name;
      if (!cr.errors)
        std::cout << "ok: " << cr.summary << "\n";
      else
        std::cout << "FAILED: " << cr.errors << " error" << (cr.errors == 1 ? "" : "s")
                  << "; first: " << (cr.first ? finding_text(*cr.first) : std::string("?")) << "\n";
    }
    std::cout << "empty board: " << (r.start ? outcome_text(*r.start) : std::string("not stored"))
              << "; first moves that lose:";
    bool any = false;
    for (const auto& f : r.first_moves)
      if (f.result.value == Value::kLoss) {
        std::cout << (any ? ", " : " ") << format_move(f.move) << " (" << outcome_text(f.result)
                  << ")";
        any = true;
      }
    std::cout << (any ? "" : " none") << "\n";
    if (r.longest_win)
      std::cout << "longest forced win: " << r.longest_win->plies << " plies, e.g. "
                << r.longest_win_position << "\n";
    std::cout << "result: " << (r.errors ? std::to_string(r.errors) + " errors" : "no errors")
              << " in " << seconds_text(r.seconds) << "\n";
  }
  if (r.first_error) {
    print_error("verify", path + ": " + finding_text(*r.first_error));
    return kExitCheckFailed;
  }
  return 0;
}

int run_perft(const po::variables_map& vm, const Variant& v, const std::string& path) {
  const bool json = vm.count("json") > 0;
  const auto t0 = std::chrono::steady_clock::now();
  verify::PerftTable table;
  try {
    // Read as it arrives: binary or endless input is refused at its first bad line.
    LineReader in(path);
    verify::PerftTableParser parser;
    for (std::string line; in.next(line);) parser.add_line(line, int(in.line_number()));
    table = parser.finish();
  } catch (const verify::InputError& e) {
    throw UsageError(path + ": " + e.what());
  }
  const auto checks = verify::check_perft(Rules(v), table, progress);
  size_t matches = 0;
  const verify::PerftCheck* first_bad = nullptr;
  for (const auto& c : checks) {
    if (c.match())
      ++matches;
    else if (!first_bad)
      first_bad = &c;
  }
  const std::string kind(perft_reading_name(table.reading));
  const std::string rule = table.expand_ended ? "expand-ended" : "stop-at-end";
  if (json) {
    print_json(verify::perft_report_json(table, checks, v, path, seconds_since(t0)));
  } else {
    std::cout << "perft table: " << path << " (" << kind << " counts, " << rule << "), "
              << variant_description(v) << "\n";
    for (const auto& c : checks) {
      std::cout << "  depth " << c.depth << " (" << perft_reading_name(c.reading) << "): ";
      if (c.match()) {
        std::cout << c.published << " match\n";
      } else {
        std::cout << "published " << c.published << ", computed " << c.computed << " (difference "
                  << (c.published > c.computed ? '+' : '-')
                  << (c.published > c.computed ? c.published - c.computed
                                               : c.computed - c.published)
                  << ")\n";
      }
    }
    std::cout << "result: " << matches << " of " << checks.size() << " depths match\n";
  }
  if (first_bad) {
    print_error("verify", path + " line " + std::to_string(first_bad->line) + ": depth " +
                              std::to_string(first_bad->depth) + " published " +
                              std::to_string(first_bad->published) + ", computed " +
                              std::to_string(first_bad->computed) + " (" +
                              std::string(perft_reading_name(first_bad->reading)) + ", " + rule +
                              ")");
    return kExitCheckFailed;
  }
  return 0;
}

void print_record(const verify::RecordReport& r) {
  std::cout << "line " << r.line << ": " << r.record << "\n";
  if (r.illegal)
    std::cout << "  illegal: ply " << r.illegal->ply << " " << r.illegal->move << ": "
              << r.illegal->reason << "\n";
  else
    std::cout << "  legal\n";
  if (r.ended_at)
    std::cout << "  game over after ply " << *r.ended_at << ": " << r.game_over << "\n";
  std::cout << "  final position " << r.final_position << ": "
            << (r.value ? outcome_text(*r.value) : std::string("unknown"))
            << " for the side to move\n";
  if (r.first_mistake)
    std::cout << "  first mistake: ply " << r.first_mistake->ply << " " << r.first_mistake->move
              << " (" << outcome_text(r.first_mistake->before) << " -> "
              << outcome_text(r.first_mistake->after) << " for the mover)\n";
  else
    std::cout << "  no mistake\n";
  if (r.winning_moves) std::cout << "  winning moves: " << *r.winning_moves << "\n";
  if (r.claim)
    std::cout << "  claim " << verify::claim_text(*r.claim) << ": "
              << (*r.claim_holds ? "holds" : "fails") << "\n";
}

// Each record is checked and printed as its line arrives, so that memory stays
// bounded and a bad line stops the run where it is (the report printed so far
// ends there). The report's head waits for the first record: an input with
// none is an error, with nothing on stdout.
int run_lines(const po::variables_map& vm, const Tablebase& tb, const std::string& path) {
  const bool json = vm.count("json") > 0;
  const auto t0 = std::chrono::steady_clock::now();
  LineReader in(path);
  const verify::RecordChecker checker(tb);
  size_t records = 0, illegal = 0, failed = 0;
  std::string first_problem;
  for (std::string line; in.next(line);) {
    std::optional<verify::RecordReport> rec;
    try {
      rec = checker.check_line(line, int(in.line_number()));
    } catch (const verify::InputError& e) {
      throw UsageError(path + ": " + e.what());
    }
    if (!rec) continue;
    const verify::RecordReport& r = *rec;
    if (records++ == 0)
      std::cout << (json ? verify::records_report_json_head(tb.variant(), path)
                         : "game records: " + path + " (" + variant_description(tb.variant()) +
                               ")\n");
    else if (json)
      std::cout << ",";
    if (!r.legal) {
      ++illegal;
      if (first_problem.empty())
        first_problem = "line " + std::to_string(r.line) + ": ply " +
                        std::to_string(r.illegal->ply) + " " + r.illegal->move +
                        " is illegal: " + r.illegal->reason;
    }
    if (r.claim_holds && !*r.claim_holds) {
      ++failed;
      if (first_problem.empty())
        first_problem = "line " + std::to_string(r.line) + ": claim '" +
                        verify::claim_text(*r.claim) + "' fails: the final position is " +
                        (r.value ? outcome_text(*r.value) : std::string("unknown"));
    }
    if (json)
      std::cout << json_text(verify::record_json(r, tb.variant()));
    else
      print_record(r);
  }
  if (records == 0)
    throw UsageError(in.name() + ": no game record (every line is blank or a comment)");
  if (json)
    std::cout << verify::records_report_json_tail(records, illegal, failed, seconds_since(t0))
              << "\n";
  else
    std::cout << "result: " << records << " records, " << illegal << " illegal, " << failed
              << " failed claims\n";
  if (!first_problem.empty()) {
    print_error("verify", path + " " + first_problem);
    return kExitCheckFailed;
  }
  return 0;
}

}  // namespace

int cmd_verify(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  desc.add_options()(
      "perft", po::value<std::string>(),
      "check a published table of depth counts: 'depth count' lines (depth 0..64) and one "
      "header line naming the reading, 'exact', 'cumulative', 'within' or 'paths' (see 'fano "
      "perft --help'), and 'expand-ended' or 'stop-at-end' ('#' comments allowed); a depth-0 "
      "row is compared with the empty board (1)")(
      "lines", po::value<std::string>(),
      "check game records, one per line: moves separated by commas or spaces, optionally "
      "followed by '# claim: win|draw|loss [PLIES]' about the side to move at the end, and "
      "after ';' 'winning-moves N' and 'first-change PLY VALUE [PLIES] VALUE [PLIES]' (or "
      "'first-change none')")("markdown",
                              "print the variant's row of the results table (results/variants.md)");
  add_threads_option(desc);
  add_json_option(desc);
  const auto vm = parse(
      "verify", "[--tb FILE] [--json | --markdown] [variant options] | --perft FILE | --lines FILE",
      "Without --perft or --lines: checks a tablebase using only the reader and the rules "
      "engine: its header, its symmetry group, that it stores exactly the classes reachable "
      "from the empty board (an independent search), that every successor is stored, that every "
      "entry follows from its successors' entries (Bellman condition) and that the header "
      "counts match. The checksum is checked when the file is opened (a damaged file exits "
      "10..18). --perft compares published depth counts with perft(); --lines replays game "
      "records against the tablebase. Exit code 4 when a check fails; the first error is "
      "named, with its position in notation.",
      desc, nullptr, args);
  if (!vm) return 0;
  Variant v = variant_from(*vm);
  const bool rules_given = variant_given(*vm);
  const int threads = threads_from(*vm);
  if (vm->count("perft") && vm->count("lines"))
    throw UsageError("give at most one of --perft and --lines (see 'fano verify --help')");
  if (vm->count("markdown") && (vm->count("json") || vm->count("perft") || vm->count("lines")))
    throw UsageError(
        "--markdown goes with a tablebase check alone, not with --json, --perft or --lines");
  par::task_arena arena(threads > 0 ? threads : par::default_concurrency());
  return arena.execute([&]() -> int {
    if (vm->count("perft")) return run_perft(*vm, v, (*vm)["perft"].as<std::string>());
    // The records' file is checked before the table is read (a directory is refused).
    if (vm->count("lines") && (*vm)["lines"].as<std::string>() != "-")
      check_readable_file((*vm)["lines"].as<std::string>(), false);
    // With --tb and no variant flags, the table's own variant is used.
    const std::string path = table_path_from(*vm, v);
    const Tablebase tb =
        open_tablebase(path, rules_given || !vm->count("tb") ? std::optional(v) : std::nullopt);
    if (vm->count("lines")) return run_lines(*vm, tb, (*vm)["lines"].as<std::string>());
    return run_tablebase(*vm, tb, path);
  });
}

}  // namespace fano::cli
