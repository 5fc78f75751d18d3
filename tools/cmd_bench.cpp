// fano bench: timings of every stage on this machine (never part of the tests).
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis.hpp"
#include "fano/parallel.hpp"
#include "fano/perft.hpp"
#include "fano/reference_solver.hpp"
#include "fano/solver.hpp"
#include "fano/table_files.hpp"
#include "fano/tablebase.hpp"

namespace fano::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct SolveTiming {
  Variant variant;
  int threads;
  // Best of the runs; write = encode (the file's bytes, after the solve,
  // which built the codes section beside its analysis) + file (written
  // atomically, fsync included), each stage's best taken separately.
  double enumerate, graph, retrograde, encode, file, write, total;
  std::uint64_t reachable, classes, bytes;
};

// One solve, encode and write of best's variant on best's thread count; each
// stage's time replaces best's where it is shorter.
void time_solve(SolveTiming& best, const std::string& path) {
  const auto t0 = Clock::now();
  SolveOptions opts;
  opts.threads = best.threads;
  opts.encode_sections = true;  // as fano solve does
  const Solution sol = solve(best.variant, opts);
  const auto tw = Clock::now();
  const auto bytes = encode_solution(sol, best.threads);
  const double encode = seconds_since(tw);
  write_file_atomically(path, bytes);
  const double write = seconds_since(tw), total = seconds_since(t0);
  best.encode = std::min(best.encode, encode);
  best.file = std::min(best.file, write - encode);
  best.enumerate = std::min(best.enumerate, sol.times.enumerate);
  best.graph = std::min(best.graph, sol.times.graph);
  best.retrograde = std::min(best.retrograde, sol.times.retrograde);
  best.write = std::min(best.write, write);
  best.total = std::min(best.total, total);
  best.reachable = sol.stats.reachable;
  best.classes = sol.stats.canonical;
  best.bytes = bytes.size();
}

// A cold solve as users run it: this binary started as a child process,
// `fano solve --out path --threads N`, timed from the spawn to reaping, with
// the child's peak resident memory and page faults from wait4. Start-up (the
// dynamic loader, static initialisation) and the first touch of every page
// are in it, which the in-process rounds above never see after the first.
// posix_spawn (vfork-like) rather than fork: a fork of this process, which
// keeps the arena of every solve above, copied its page tables first and
// added that copy to each figure.
struct ColdSolve {
  double wall_ms;
  long peak_kb, minor_faults;
};
ColdSolve run_cold_solve(const std::string& path, int threads,
                         const std::string& rules = "standard") {
  const std::string threads_arg = std::to_string(threads);
  const char* argv[] = {"fano",       "solve",     "--rules",           rules.c_str(), "--out",
                        path.c_str(), "--threads", threads_arg.c_str(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const auto t0 = Clock::now();
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr,
                                    const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("bench: could not start fano solve");
  int status = 0;
  rusage usage{};
  if (::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("bench: the child `fano solve` failed");
  return {seconds_since(t0) * 1e3, usage.ru_maxrss, usage.ru_minflt};
}

// This thread's CPU time in milliseconds: other processes on the same cores
// (builds, tests) inflate the wall time of a short analysis, not this.
double thread_cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

// Milliseconds of rate_moves (every move's exact value under the game's
// history) at the end of seeded random games into the movement phase, and of
// a full report (with the principal variation) on the same positions.
int bench_history(const po::variables_map& vm) {
  const int games = vm["games"].as<int>();
  if (games < 1 || games > 1000000) throw UsageError("--games must be 1..1000000");
  Json out = Json::array();
  for (const Variant& v : kAllVariants) {
    const Tablebase tb = open_tablebase(default_tablebase_path(v), v);
    const Rules rules(v);
    std::mt19937 rng(20261203);
    std::vector<double> rate_ms, report_ms, report_cpu_ms;
    std::size_t changed = 0;
    while (int(rate_ms.size()) < games) {
      GameRecord game(rules);
      const int length = 9 + int(rng() % 60);
      while (!game.over() && int(game.plies()) < length) {
        const auto moves = legal_moves(rules, game.current());
        game.play(moves[rng() % moves.size()]);
      }
      if (game.over() || game.rules().placement_phase(game.current())) continue;
      auto t0 = Clock::now();
      const auto rated = rate_moves(tb, game);
      rate_ms.push_back(seconds_since(t0) * 1e3);
      t0 = Clock::now();
      const double c0 = thread_cpu_ms();
      const PositionReport r = analyse(tb, game);
      report_ms.push_back(seconds_since(t0) * 1e3);
      report_cpu_ms.push_back(thread_cpu_ms() - c0);
      changed += !(r.value == r.table_value);
    }
    const auto stats = [](std::vector<double> ms) {
      std::sort(ms.begin(), ms.end());
      return Json{{"median_ms", ms[ms.size() / 2]},
                  {"p99_ms", ms[std::min(ms.size() - 1, ms.size() * 99 / 100)]},
                  {"max_ms", ms.back()}};
    };
    out.push_back({{"variant", variant_slug(v)},
                   {"positions", rate_ms.size()},
                   {"history_changes_value", changed},
                   {"rate_moves", stats(rate_ms)},
                   {"report", stats(report_ms)},
                   {"report_thread_cpu", stats(report_cpu_ms)}});
  }
  if (vm.count("json")) {
    print_json(Json{{"history", out}});
    return 0;
  }
  std::cout << "| variant | positions | value changed | rate moves: median / p99 / max | "
               "report with PV: median / p99 / max | the report's thread CPU: median / p99 / "
               "max |\n|---|---|---|---|---|---|\n";
  char line[320];
  for (const Json& row : out) {
    const Json &a = row["rate_moves"], &b = row["report"], &c = row["report_thread_cpu"];
    std::snprintf(line, sizeof line,
                  "| %s | %zu | %zu | %.2f / %.2f / %.2f ms | %.2f / %.2f / %.2f ms | %.2f / %.2f "
                  "/ %.2f ms |\n",
                  row["variant"].get<std::string>().c_str(), row["positions"].get<std::size_t>(),
                  row["history_changes_value"].get<std::size_t>(), a["median_ms"].get<double>(),
                  a["p99_ms"].get<double>(), a["max_ms"].get<double>(),
                  b["median_ms"].get<double>(), b["p99_ms"].get<double>(),
                  b["max_ms"].get<double>(), c["median_ms"].get<double>(),
                  c["p99_ms"].get<double>(), c["max_ms"].get<double>());
    std::cout << line;
  }
  return 0;
}

// What the options of `fano bench` ask for (the history mode aside).
struct BenchOptions {
  int runs, probes, cold_runs, reference_runs, large_runs;
  std::string dir;  // empty: a temporary folder
  bool json;
};

// The folder tables are written to: --dir, else a temporary folder removed on
// the way out.
class BenchFolder {
 public:
  explicit BenchFolder(const std::string& dir) {
    if (!dir.empty()) {
      path_ = dir;
      return;
    }
    std::error_code ec;
    const auto base = std::filesystem::temp_directory_path(ec);
    if (ec) throw std::runtime_error("bench: no temporary folder: " + ec.message());
    temp_ = path_ = (base / ("fano-bench-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(path_, ec);
    if (ec) throw std::runtime_error("bench: cannot create " + path_ + ": " + ec.message());
  }
  ~BenchFolder() {
    std::error_code ec;
    if (!temp_.empty()) std::filesystem::remove_all(temp_, ec);
  }
  BenchFolder(const BenchFolder&) = delete;
  BenchFolder& operator=(const BenchFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_, temp_;
};

// Medians of the whole-process runs on one thread count.
struct ColdFigures {
  int threads;
  double wall_ms;
  long peak_kb, minor_faults;
};

// A whole-process solve of one of the largest readings, all cores: medians,
// and its peak memory per stored class.
struct LargeSolve {
  std::string rules;
  std::uint64_t classes = 0;
  double wall_ms = 0;
  long peak_kb = 0;
  double bytes_per_class() const { return double(peak_kb) * 1024 / double(classes); }
};

// The two largest readings (cap 3 on the printed board, three pieces of a
// kind), whose peak memory bounds what a machine or a browser must offer.
constexpr const char* kLargestReadings[] = {"cap3-board-colour-3c3t", "cap3-board-3c3t"};

// Everything `fano bench` measures, printed as text or JSON.
struct BenchReport {
  int cores = 0, runs = 0, probes = 0, cold_runs = 0, reference_runs = 0, large_runs = 0;
  std::vector<ColdFigures> cold;
  std::uint64_t standard_classes = 0;  // to give the cold solve's peak per class
  std::vector<LargeSolve> large;
  // The median over the rounds of (1 thread's wall / all cores' wall), the
  // two runs of a round made one after the other under the same load.
  double cold_pair_scaling = 0;
  std::vector<SolveTiming> solves;  // per variant: 1 thread, then all cores
  std::uint64_t moves = 0, perft_nodes = 0;
  double movegen_s = 1e9, perft_s = 1e9;
  double open_s = 1e9, probe_median_ns = 0, probe_p99_ns = 0, probe_mean_batch_ns = 0;
  double reference_s = 0;

  double bits_per_position() const {
    return 8.0 * double(solves[0].bytes) / double(solves[0].reachable);
  }
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Whole processes, 1 thread and all cores in turn; medians, and the median
// of each round's ratio (a VM's speed drifts between rounds, so the ratio of
// the two medians mixes runs made under different loads). Run first, while
// this process is small.
void measure_cold_solves(BenchReport& rep, const std::string& dir) {
  if (rep.cold_runs == 0) return;
  progress("bench: " + std::to_string(rep.cold_runs) +
           " whole-process runs of fano solve per thread count");
  const std::string path = (std::filesystem::path(dir) / "cold.fanotb").string();
  std::vector<std::vector<ColdSolve>> runs_by(2);
  std::vector<double> pair_scaling;
  for (int r = 0; r < rep.cold_runs; ++r) {
    for (int k = 0; k < 2; ++k) runs_by[k].push_back(run_cold_solve(path, k == 0 ? 1 : rep.cores));
    pair_scaling.push_back(runs_by[0].back().wall_ms / runs_by[1].back().wall_ms);
  }
  for (int k = 0; k < 2; ++k) {
    std::vector<double> wall, peak, faults;
    for (const ColdSolve& c : runs_by[k]) {
      wall.push_back(c.wall_ms);
      peak.push_back(double(c.peak_kb));
      faults.push_back(double(c.minor_faults));
    }
    rep.cold.push_back(
        {k == 0 ? 1 : rep.cores, median_of(wall), long(median_of(peak)), long(median_of(faults))});
  }
  rep.cold_pair_scaling = median_of(pair_scaling);
}

// The largest readings as whole processes on all cores (the same child as
// the cold solves), each --large-runs times; the classes from the table made.
void measure_large_solves(BenchReport& rep, const std::string& dir) {
  if (rep.large_runs == 0) return;
  for (const char* rules : kLargestReadings) {
    progress(std::string("bench: ") + std::to_string(rep.large_runs) +
             " whole-process run(s) of fano solve --rules " + rules);
    const std::string path = (std::filesystem::path(dir) / "large.fanotb").string();
    std::vector<double> wall, peak;
    for (int r = 0; r < rep.large_runs; ++r) {
      const ColdSolve c = run_cold_solve(path, rep.cores, rules);
      wall.push_back(c.wall_ms);
      peak.push_back(double(c.peak_kb));
    }
    const std::uint64_t classes = open_tablebase(path).size();
    std::filesystem::remove(path);
    rep.large.push_back({rules, classes, median_of(wall), long(median_of(peak))});
  }
}

// Round after round of every variant on 1 thread and on all cores, so that the
// ratios compare runs made under the same load (a VM's speed drifts from one
// minute to the next).
std::vector<SolveTiming> measure_solves(const std::string& dir, int runs, int cores) {
  std::vector<SolveTiming> solves;
  for (const Variant& v : {kStandard, kCap3Projective, kCap3Board})
    for (int t : {1, cores}) solves.push_back({v, t, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 0, 0, 0});
  for (int r = 0; r < runs; ++r) {
    progress("bench: solving every variant with 1 and " + std::to_string(cores) +
             " thread(s), round " + std::to_string(r + 1) + " of " + std::to_string(runs));
    for (SolveTiming& s : solves) time_solve(s, default_tablebase_path(s.variant, dir));
  }
  return solves;
}

// Move generation (every legal move of every reachable class of the standard
// game, one thread) and perft to depth 9; the best of `runs`.
void measure_move_generation(BenchReport& rep) {
  const Rules rules(kStandard);
  const Symmetry sym(kStandard.adjacency);
  const auto classes = enumerate_reachable(rules, sym);
  for (int r = 0; r < rep.runs; ++r) {
    const auto t0 = Clock::now();
    std::uint64_t m = 0;
    for (std::uint64_t c : classes)
      for_each_move(rules, State{c}, [&](const Move&, State) { ++m; });
    rep.movegen_s = std::min(rep.movegen_s, seconds_since(t0));
    rep.moves = m;
  }
  for (int r = 0; r < rep.runs; ++r) {
    const auto t0 = Clock::now();
    rep.perft_nodes = perft(rules, 9, false).back().cumulative;
    rep.perft_s = std::min(rep.perft_s, seconds_since(t0));
  }
}

// Opening the standard table written by measure_solves, and probing random
// members of random classes one by one (median, p99) and in a loop (mean).
void measure_probes(BenchReport& rep, const std::string& dir) {
  const std::string path = default_tablebase_path(kStandard, dir);
  for (int r = 0; r < rep.runs; ++r) {
    const auto t0 = Clock::now();
    const Tablebase tb = open_tablebase(path, kStandard);
    rep.open_s = std::min(rep.open_s, seconds_since(t0));
  }
  const Tablebase tb = open_tablebase(path, kStandard);
  const Symmetry sym(kStandard.adjacency);
  std::mt19937_64 rng(20261202);
  std::vector<State> sample(static_cast<std::size_t>(rep.probes));
  for (State& s : sample) {
    const State c = tb.position_at(rng() % tb.size());
    s = apply(c, sym.group()[rng() % sym.group().size()]);
  }
  std::vector<double> ns(sample.size());
  std::uint64_t found = 0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const auto t0 = Clock::now();
    const auto o = tb.probe(sample[i]);
    const auto t1 = Clock::now();
    found += o.has_value();
    ns[i] = std::chrono::duration<double, std::nano>(t1 - t0).count();
  }
  std::sort(ns.begin(), ns.end());
  rep.probe_median_ns = ns[ns.size() / 2];
  rep.probe_p99_ns = ns[std::min(ns.size() - 1, ns.size() * 99 / 100)];
  const auto t0 = Clock::now();
  for (const State& s : sample) found += tb.probe(s).has_value();
  rep.probe_mean_batch_ns = seconds_since(t0) * 1e9 / double(sample.size());
  if (found != 2 * sample.size())
    throw std::runtime_error("bench: a reachable position was not found");
}

// The yardstick: the plain reference solver on the standard game (it must
// count the solver's reachable set).
void measure_reference(BenchReport& rep) {
  if (rep.reference_runs == 0) return;
  rep.reference_s = 1e9;
  for (int r = 0; r < rep.reference_runs; ++r) {
    progress("bench: plain reference solver, standard game");
    const auto t0 = Clock::now();
    const auto ref = reference::solve_reference(kStandard);
    rep.reference_s = std::min(rep.reference_s, seconds_since(t0));
    if (ref.codes.size() != rep.solves[0].reachable)
      throw std::runtime_error("bench: the reference solver counts another reachable set");
  }
}

Json report_json(const BenchReport& rep) {
  Json rows = Json::array();
  for (const auto& s : rep.solves)
    rows.push_back({{"variant", variant_slug(s.variant)},
                    {"threads", s.threads},
                    {"enumerate", s.enumerate},
                    {"graph", s.graph},
                    {"retrograde", s.retrograde},
                    {"encode", s.encode},
                    {"file", s.file},
                    {"write", s.write},
                    {"total", s.total},
                    {"reachable", s.reachable},
                    {"bytes", s.bytes}});
  Json cold = Json::array();
  for (const auto& c : rep.cold)
    cold.push_back(
        {{"variant", "standard"},
         {"threads", c.threads},
         {"runs", rep.cold_runs},
         {"median_wall_ms", c.wall_ms},
         {"median_peak_rss_kb", c.peak_kb},
         {"peak_bytes_per_class", double(c.peak_kb) * 1024 / double(rep.standard_classes)},
         {"median_minor_faults", c.minor_faults}});
  Json large = Json::array();
  for (const auto& l : rep.large)
    large.push_back({{"rules", l.rules},
                     {"threads", rep.cores},
                     {"runs", rep.large_runs},
                     {"classes", l.classes},
                     {"median_wall_ms", l.wall_ms},
                     {"median_peak_rss_kb", l.peak_kb},
                     {"peak_bytes_per_class", l.bytes_per_class()}});
  const bool ref = rep.reference_runs > 0;
  return Json{
      {"cores", rep.cores},
      {"solves", std::move(rows)},
      {"movegen_moves_per_s", double(rep.moves) / rep.movegen_s},
      {"perft9_positions_per_s", double(rep.perft_nodes) / rep.perft_s},
      {"perft9_s", rep.perft_s},
      {"open_ms", rep.open_s * 1e3},
      {"probe_median_ns", rep.probe_median_ns},
      {"probe_p99_ns", rep.probe_p99_ns},
      {"probe_mean_batch_ns", rep.probe_mean_batch_ns},
      {"bits_per_position", rep.bits_per_position()},
      {"reference_s", ref ? Json(rep.reference_s) : Json(nullptr)},
      {"speedup_1_thread", ref ? Json(rep.reference_s / rep.solves[0].total) : Json(nullptr)},
      {"speedup_all_cores", ref ? Json(rep.reference_s / rep.solves[1].total) : Json(nullptr)},
      {"thread_scaling", rep.solves[0].total / rep.solves[1].total},
      // The reference against the whole `fano solve` process a user runs.
      {"speedup_cold_1_thread", ref && rep.cold.size() == 2
                                    ? Json(rep.reference_s * 1e3 / rep.cold[0].wall_ms)
                                    : Json(nullptr)},
      {"speedup_cold_all_cores", ref && rep.cold.size() == 2
                                     ? Json(rep.reference_s * 1e3 / rep.cold[1].wall_ms)
                                     : Json(nullptr)},
      {"cold_solve", std::move(cold)},
      {"largest_solves", std::move(large)},
      {"cold_thread_scaling", rep.cold.size() == 2 ? Json(rep.cold_pair_scaling) : Json(nullptr)}};
}

void print_report(const BenchReport& rep) {
  char line[256];
  std::cout << "machine: " << rep.cores << " cores; best of " << rep.runs << " runs\n\n"
            << "| variant | threads | enumerate | graph | retrograde | encode | file | total |\n"
            << "|---|---|---|---|---|---|---|---|\n";
  for (const auto& s : rep.solves) {
    std::snprintf(line, sizeof line,
                  "| %s | %d | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.1f ms |\n",
                  variant_slug(s.variant).c_str(), s.threads, s.enumerate * 1e3, s.graph * 1e3,
                  s.retrograde * 1e3, s.encode * 1e3, s.file * 1e3, s.total * 1e3);
    std::cout << line;
  }
  std::snprintf(
      line, sizeof line,
      "\nmove generation: %.1f M moves/s (1 thread)\nperft 9: %.1f ms, %.1f M positions/s\n"
      "open: %.2f ms\nprobe: median %.0f ns, p99 %.0f ns, mean in a loop %.0f ns (%d probes)\n"
      "table: %llu bytes, %.3f bits per reachable position\n",
      double(rep.moves) / rep.movegen_s / 1e6, rep.perft_s * 1e3,
      double(rep.perft_nodes) / rep.perft_s / 1e6, rep.open_s * 1e3, rep.probe_median_ns,
      rep.probe_p99_ns, rep.probe_mean_batch_ns, rep.probes,
      static_cast<unsigned long long>(rep.solves[0].bytes), rep.bits_per_position());
  std::cout << line;
  std::snprintf(line, sizeof line, "standard solve, 1 thread / %d: %.2fx\n", rep.cores,
                rep.solves[0].total / rep.solves[1].total);
  std::cout << line;
  for (const auto& c : rep.cold) {
    std::snprintf(line, sizeof line,
                  "cold `fano solve --out FILE`, whole process, %d thread(s), median of %d: "
                  "%.1f ms, peak %.1f MB (%.0f bytes per class), %ld page faults\n",
                  c.threads, rep.cold_runs, c.wall_ms, double(c.peak_kb) / 1024,
                  double(c.peak_kb) * 1024 / double(rep.standard_classes), c.minor_faults);
    std::cout << line;
  }
  for (const auto& l : rep.large) {
    std::snprintf(line, sizeof line,
                  "`fano solve --rules %s`, whole process, %d thread(s), median of %d: %.0f ms, "
                  "%llu classes, peak %.1f MB (%.1f bytes per class)\n",
                  l.rules.c_str(), rep.cores, rep.large_runs, l.wall_ms,
                  static_cast<unsigned long long>(l.classes), double(l.peak_kb) / 1024,
                  l.bytes_per_class());
    std::cout << line;
  }
  if (rep.cold.size() == 2) {
    std::snprintf(line, sizeof line,
                  "cold standard solve, 1 thread / %d: %.2fx (the median of %d rounds' ratios; "
                  "the medians' ratio %.2fx)\n",
                  rep.cores, rep.cold_pair_scaling, rep.cold_runs,
                  rep.cold[0].wall_ms / rep.cold[1].wall_ms);
    std::cout << line;
  }
  if (rep.reference_runs > 0) {
    std::snprintf(line, sizeof line,
                  "plain reference solver (standard): %.0f ms; the solver end to end is %.1fx "
                  "faster on 1 thread, %.1fx on %d\n",
                  rep.reference_s * 1e3, rep.reference_s / rep.solves[0].total,
                  rep.reference_s / rep.solves[1].total, rep.cores);
    std::cout << line;
    // As whole processes: the reference ran in this process, so a cold
    // figure also counts a process's start, which the reference's lacks.
    if (rep.cold.size() == 2) {
      std::snprintf(line, sizeof line,
                    "the reference against the cold whole process: %.1fx on 1 thread, %.1fx on "
                    "%d\n",
                    rep.reference_s * 1e3 / rep.cold[0].wall_ms,
                    rep.reference_s * 1e3 / rep.cold[1].wall_ms, rep.cores);
      std::cout << line;
    }
  }
}

// The options, checked; nullopt after --help.
std::optional<std::pair<po::variables_map, BenchOptions>> parse_bench(const Args& args) {
  po::options_description desc("options");
  desc.add_options()("runs", po::value<int>()->default_value(5),
                     "rounds of solves (the best of each is kept)")(
      "probes", po::value<int>()->default_value(1000000), "random reachable positions probed")(
      "dir", po::value<std::string>(),
      "folder for the tables written (default: a temporary folder, removed at the end)")(
      "cold-runs", po::value<int>()->default_value(9),
      "whole-process runs of `fano solve --out FILE` per thread count (0: skip them)")(
      "reference-runs", po::value<int>()->default_value(1),
      "runs of the plain reference solver (0: skip it)")(
      "large-runs", po::value<int>()->default_value(1),
      "whole-process runs of each of the two largest readings on all cores (0: skip them)")(
      "history", "only the history-aware analysis (rule 3) at the end of random games")(
      "games", po::value<int>()->default_value(2000), "random games per variant for --history");
  add_json_option(desc);
  auto vm =
      parse("bench",
            "[--runs N] [--probes N] [--dir DIR] [--cold-runs N] [--reference-runs N] "
            "[--large-runs N] [--json] | "
            "--history "
            "[--games N]",
            "Measures on this machine: each solve stage for the standard game and "
            "the stack-cap-3 variants with 1 thread and all cores, move generation "
            "speed, tablebase open time, probe latency (median and 99th percentile) "
            "and table size in bits per reachable position; the plain reference solver "
            "(reference/: unordered_map search, queue retrograde, no symmetry) on the "
            "standard game and the ratio of its time to the solver's; the whole process of a cold "
            "`fano solve --out FILE` (this binary as a child, 1 thread and all cores: median wall "
            "time, peak memory and page faults), and of the two largest readings, "
            "cap3-board-colour-3c3t and cap3-board-3c3t (all cores: wall time, peak memory "
            "and peak memory per stored class). Rounds of every solve on 1 thread "
            "and on all cores, interleaved so that both see the same load; the best of --runs.",
            desc, nullptr, args);
  if (!vm) return std::nullopt;
  BenchOptions o{(*vm)["runs"].as<int>(),
                 (*vm)["probes"].as<int>(),
                 (*vm)["cold-runs"].as<int>(),
                 (*vm)["reference-runs"].as<int>(),
                 (*vm)["large-runs"].as<int>(),
                 vm->count("dir") ? (*vm)["dir"].as<std::string>() : std::string(),
                 vm->count("json") > 0};
  if (o.runs < 1 || o.runs > 100) throw UsageError("--runs must be 1..100");
  if (o.probes < 1 || o.probes > 100000000) throw UsageError("--probes must be 1..100000000");
  if (o.cold_runs < 0 || o.cold_runs > 100) throw UsageError("--cold-runs must be 0..100");
  if (o.reference_runs < 0 || o.reference_runs > 100)
    throw UsageError("--reference-runs must be 0..100");
  if (o.large_runs < 0 || o.large_runs > 100) throw UsageError("--large-runs must be 0..100");
  return std::pair{std::move(*vm), std::move(o)};
}

}  // namespace

int cmd_bench(const Args& args) {
  const auto parsed = parse_bench(args);
  if (!parsed) return 0;
  const auto& [vm, opts] = *parsed;
  if (vm.count("history")) return bench_history(vm);
  const BenchFolder folder(opts.dir);
  BenchReport rep;
  rep.cores = par::default_concurrency();
  rep.runs = opts.runs;
  rep.probes = opts.probes;
  rep.cold_runs = opts.cold_runs;
  rep.reference_runs = opts.reference_runs;
  rep.large_runs = opts.large_runs;
  measure_cold_solves(rep, folder.path());
  measure_large_solves(rep, folder.path());
  rep.solves = measure_solves(folder.path(), opts.runs, rep.cores);
  rep.standard_classes = rep.solves[0].classes;
  measure_move_generation(rep);
  measure_probes(rep, folder.path());
  measure_reference(rep);
  if (opts.json)
    print_json(report_json(rep));
  else
    print_report(rep);
  return 0;
}

}  // namespace fano::cli
