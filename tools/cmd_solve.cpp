#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/solver.hpp"
#include "fano/solver_json.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {

int cmd_solve(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  desc.add_options()("out,o", po::value<std::string>(),
                     "tablebase file to write (default: DIR/<variant>.fanotb, see --tables)")(
      "tables", po::value<std::string>(),
      "folder of the default tables (default: see 'fano info')");
  add_threads_option(desc);
  add_json_option(desc);
  const auto vm = parse("solve", "[variant options] [--out FILE] [--threads N] [--json]",
                        "Enumerates every reachable position, reduces it by the variant's "
                        "symmetries, runs the retrograde analysis (win/loss/draw and plies to "
                        "the end) and writes the tablebase atomically.",
                        desc, nullptr, args);
  if (!vm) return 0;
  const Variant v = variant_from(*vm);
  const int threads = threads_from(*vm);
  // Only the default tables folder is created; an explicit path's folder must exist.
  const bool explicit_path = vm->count("out") || vm->count("tables");
  const std::string out =
      vm->count("out")
          ? output_path_from(*vm, "out", false)
          : default_tablebase_path(v, vm->count("tables") ? (*vm)["tables"].as<std::string>() : "");
  if (out == "-") throw UsageError("--out - is not supported: a tablebase is written to a file");
  if (!explicit_path) create_table_dir();
  TableFileWriter file(out);  // refuses a missing folder now, not after the solve
  const auto t0 = std::chrono::steady_clock::now();
  SolveOptions opts;
  opts.threads = threads;
  opts.encode_sections = true;  // the table is written below
  opts.progress = progress;
  const Solution sol = solve(v, opts);

  const auto tw = std::chrono::steady_clock::now();
  const auto bytes = encode_solution(sol, threads);
  file.write_and_commit(bytes);
  const double write_s = seconds_since(tw), total_s = seconds_since(t0);
  progress("write: " + std::to_string(bytes.size()) + " bytes to " + out);

  const Outcome start = *sol.lookup(kEmptyBoard);
  const auto& s = sol.stats;
  if (vm->count("json")) {
    Json o = solution_json(sol);
    o["tablebase"] = out;
    o["tablebase_bytes"] = bytes.size();
    o["seconds"] = {{"enumerate", sol.times.enumerate},
                    {"graph", sol.times.graph},
                    {"retrograde", sol.times.retrograde},
                    {"write", write_s},
                    {"total", total_s}};
    // Where the search's, the graph's and the retrograde's seconds went
    // (benchmarks: bench/solve-stages.py).
    Json steps = Json::object();
    for (const auto& [name, step] : {std::pair{"search", sol.times.search},
                                     {"rank", sol.times.rank},
                                     {"predecessors", sol.times.predecessors},
                                     {"ended", sol.times.ended},
                                     {"levels", sol.times.levels},
                                     {"outcomes", sol.times.outcomes},
                                     {"sections", sol.times.sections}})
      steps[name] = {{"seconds", step.seconds}, {"cpu_seconds", step.cpu_seconds}};
    o["steps"] = steps;
    print_json(o);
    return 0;
  }
  std::cout << "variant: " << variant_description(v) << "\n"
            << "value of the empty board (White to move): " << value_name(start.value);
  if (start.value != Value::kDraw)
    std::cout << " in " << start.plies << (start.plies == 1 ? " ply" : " plies");
  std::cout << "\nreachable positions: " << s.reachable << " (placement " << s.placement
            << ", movement " << s.movement << ")\n"
            << "symmetry classes stored: " << s.canonical << "\n"
            << "win " << s.win << ", loss " << s.loss << ", draw " << s.draw << " (side to move)\n"
            << "times: enumerate " << seconds_text(sol.times.enumerate) << ", graph "
            << seconds_text(sol.times.graph) << ", retrograde "
            << seconds_text(sol.times.retrograde) << ", write " << seconds_text(write_s)
            << ", total " << seconds_text(total_s) << "\n"
            << "tablebase: " << out << " (" << bytes.size() << " bytes)\n";
  return 0;
}

}  // namespace fano::cli
