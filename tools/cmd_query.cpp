// fano query: a position's report (analysis library) printed as text or JSON.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <span>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/batch.hpp"
#include "fano/export.hpp"
#include "fano/files.hpp"
#include "fano/notation.hpp"
#include "fano/parallel.hpp"
#include "fano/render.hpp"
#include "fano/svg.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {
namespace {

// --batch: reads the input in big blocks, answers each block's lines in
// parallel (slices of lines, each into its own buffer) and writes the answers
// in input order. Returns the number of bad lines.
std::size_t run_batch(const Tablebase& tb, const Rules& rules, const std::string& path,
                      bool value_only) {
  const bool from_stdin = path == "-";
  const int fd = from_stdin ? 0 : ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw UsageError("cannot read " + path + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() {
      if (fd > 0) ::close(fd);
    }
  } closer{from_stdin ? -1 : fd};
  ExportSink out("-", false);
  constexpr std::size_t kBlock = std::size_t(8) << 20;   // bytes read at a time
  constexpr std::size_t kSlice = std::size_t(64) << 10;  // bytes per parallel task
  std::string data;  // an unfinished line from the previous block, then the block
  std::vector<std::string_view> slices;
  std::vector<std::string> answers;
  std::size_t line_number = 0, bad = 0;
  bool eof = false;
  while (!eof) {
    const std::size_t keep = data.size();
    data.resize(keep + kBlock);
    ssize_t n;
    do n = ::read(fd, data.data() + keep, kBlock);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw UsageError("cannot read " + path + ": " + std::strerror(errno));
    data.resize(keep + std::size_t(n));
    eof = n == 0;
    // Complete lines (at the end of input, the last line too), cut into
    // slices of about kSlice bytes at line ends; each slice's first line
    // number comes from counting the newlines before it.
    const std::size_t end = eof ? data.size() : data.rfind('\n') + 1;  // npos + 1 == 0
    const std::string_view block(data.data(), end);
    slices.clear();
    for (std::size_t pos = 0; pos < end;) {
      std::size_t stop = block.find('\n', std::min(pos + kSlice, end - 1));
      stop = stop == std::string_view::npos ? end : stop + 1;
      slices.push_back(block.substr(pos, stop - pos));
      pos = stop;
    }
    const std::size_t slice_count = slices.size();
    answers.resize(slice_count);
    std::vector<std::size_t> first(slice_count + 1, 0), slice_bad(slice_count, 0);
    par::parallel_for(std::size_t(0), slice_count, [&](std::size_t k) {
      first[k + 1] = std::size_t(std::count(slices[k].begin(), slices[k].end(), '\n')) +
                     (slices[k].back() != '\n');
    });
    first[0] = line_number + 1;
    for (std::size_t k = 0; k < slice_count; ++k) first[k + 1] += first[k];
    line_number = first[slice_count] - 1;
    par::parallel_for(std::size_t(0), slice_count, [&](std::size_t k) {
      answers[k].clear();
      slice_bad[k] = answer_batch_text(tb, rules, slices[k], first[k], value_only, answers[k]);
    });
    for (std::size_t k = 0; k < slice_count; ++k) {
      out.write(answers[k]);
      bad += slice_bad[k];
    }
    data.erase(0, end);
    // An unfinished line longer than any item: refused by its number, so that
    // memory stays bounded (as every line input, fano/files.hpp).
    if (!eof && data.size() > kMaxLineBytes)
      throw FileError(FileProblem::kTooLong, false,
                      (from_stdin ? std::string("standard input") : path) + ": line " +
                          std::to_string(line_number + 1) + " is longer than " +
                          std::to_string(kMaxLineBytes) + " bytes");
  }
  out.finish();
  return bad;
}

}  // namespace

int cmd_query(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  po::positional_options_description pos;
  add_position_options(desc, pos);
  add_json_option(desc);
  desc.add_options()(
      "svg", po::value<std::string>()->value_name("FILE"),
      "also write an SVG picture of the position with its best moves "
      "marked to FILE (as 'fano show --svg FILE --best'; - for stdout, then the picture alone)")(
      "all-moves",
      "with --svg: mark every move, coloured by its result (as 'fano show --all-moves')")(
      "batch", po::value<std::string>()->implicit_value("-")->value_name("FILE"),
      "answer one position (or 'moves:' and a move list) per line of FILE (- or none: stdin), "
      "one JSON line each in input order")(
      "value-only", "with --batch: just {\"position\", \"value\", \"plies\"} per line (fast)");
  const auto vm = parse(
      "query",
      "[--tb FILE] [--json] [--svg FILE] (POSITION | --moves \"C4,t3,...\")\n"
      "       fano query [--tb FILE] --batch [FILE|-] [--value-only]",
      "Shows the position, its value for the side to move with plies to the end, every legal "
      "move with the result it gives its player, best first (fastest wins, then draws, then "
      "slowest losses), the engine's choice and the principal variation (best play to the end "
      "of the game, or to the repetition that ends a draw; a drawn line is cut after 100 "
      "plies, 'continues drawn'). With --moves the game's history "
      "applies: a move into an earlier position is a draw (rule 3).\n\n"
      "--batch reads one item a line: a position, or 'moves:' followed by a move list from "
      "the empty board (rule 3 applies, as with --moves); blank lines are skipped, every other "
      "line is answered by one JSON line on stdout, in input order: the --json report, or "
      "with --value-only {\"position\", \"value\", \"plies\"}. A bad line is answered by "
      "{\"line\": N, \"input\": \"...\", \"error\": \"...\"} and the rest go on; the exit "
      "code is 0 when every line was answered, else 2.",
      desc, &pos, args);
  if (!vm) return 0;
  Variant v = variant_from(*vm);
  if (vm->count("batch")) {
    // "--batch FILE" leaves FILE as the positional argument.
    std::string input = (*vm)["batch"].as<std::string>();
    if (vm->count("moves") || vm->count("json") || vm->count("svg") ||
        (vm->count("position") && input != "-"))
      throw UsageError("--batch takes no position, --moves, --json or --svg");
    if (vm->count("position")) input = (*vm)["position"].as<std::string>();
    const Tablebase tb = open_table(*vm, v);
    const Rules rules(v);
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t bad = run_batch(tb, rules, input, vm->count("value-only") > 0);
    progress("query --batch: " + std::to_string(bad) + " bad lines, " +
             seconds_text(seconds_since(t0)));
    return bad == 0 ? 0 : kExitUsage;
  }
  if (vm->count("value-only")) throw UsageError("--value-only needs --batch");
  if (vm->count("all-moves") && !vm->count("svg")) throw UsageError("--all-moves needs --svg");
  require_one_position(*vm, "query");
  if (vm->count("svg"))
    check_output_is_not_input(output_path_from(*vm, "svg"), "--svg", table_path_from(*vm, v),
                              "the tablebase");
  const Tablebase tb = open_table(*vm, v);
  const Rules rules(v);
  const GameRecord game = game_from(*vm, rules, "query");
  const PositionReport r = analyse(tb, game);
  if (vm->count("svg")) {
    const std::string svg = output_path_from(*vm, "svg");
    if (svg == "-" && vm->count("json"))
      throw UsageError("--svg - and --json both write to stdout: give --svg a file");
    write_output(svg, board_svg(r.position, svg_options_for(r, vm->count("all-moves") > 0)));
    if (svg == "-") return 0;  // the picture alone on stdout
  }
  if (vm->count("json")) {
    print_json(report_json(r));
    return 0;
  }
  const State st = r.position;
  std::cout << format_position(st) << "\n\n" << render_board(st, v) << "\n";
  std::cout << value_sentence(r) << "\n";
  if (!r.history_note.empty()) std::cout << "history: " << r.history_note << "\n";
  if (r.game_over) {
    std::cout << "game over: " << describe_end(*r.game_over, st) << "\n";
    return 0;
  }
  std::cout << "moves (" << r.moves.size() << "), best first:\n";
  for (const RatedMove& m : r.moves)
    std::cout << "  " << format_move(m.move) << "  " << outcome_phrase(m.result)
              << (m.repeats ? " (repeats an earlier position)" : "") << "\n";
  if (r.engine_choice)
    std::cout << "engine: " << format_move(r.moves[*r.engine_choice].move) << "\n";
  std::cout << "principal variation:";
  for (const Move& m : r.pv) std::cout << " " << format_move(m);
  if (r.pv_end)
    std::cout << " ("
              << describe_end(*r.pv_end, r.pv_positions.empty() ? st : r.pv_positions.back())
              << ")";
  if (r.pv_continues_drawn) std::cout << " ... (continues drawn)";
  std::cout << "\n";
  return 0;
}

}  // namespace fano::cli
