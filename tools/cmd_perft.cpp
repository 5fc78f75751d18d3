#include <iomanip>
#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/perft.hpp"
#include "fano/solver_json.hpp"

namespace fano::cli {
namespace {

std::string count_text(std::uint64_t n) {
  return n == kPathsOverflow ? std::string("overflow") : std::to_string(n);
}

}  // namespace

int cmd_perft(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  desc.add_options()("depth,d", po::value<int>()->required(), "deepest depth to count (1..64)")(
      "expand-ended",
      "keep expanding positions where the game has ended (default: stop there, as the rules do)")(
      "dfs-visited",
      "also count the positions a depth-first search to each depth visits when it keeps a "
      "visited set without the remaining depth (a hypothesis about published tables; serial)");
  add_json_option(desc);
  const auto vm = parse(
      "perft", "--depth N [--expand-ended] [--dfs-visited] [--json] [variant options]",
      "For each depth d = 0..N from the empty board: exact (distinct positions at exactly depth "
      "d), cumulative (the sum of exact over depths 1..d), within (distinct positions within d "
      "plies, each counted once however many depths reach it, the empty board included), paths "
      "(move sequences of d plies: classic perft, leaves of the game tree), ended (positions at "
      "depth d where the game is over) and ended_paths (sequences of d plies ending there: with "
      "stop-at-end, the games of exactly d plies).",
      desc, nullptr, args);
  if (!vm) return 0;
  const Variant v = variant_from(*vm);
  const int depth = (*vm)["depth"].as<int>();
  if (depth < 1 || depth > 64)
    throw UsageError("--depth must be between 1 and 64, got " + std::to_string(depth));
  const bool expand = vm->count("expand-ended") > 0;
  const bool json = vm->count("json") > 0;
  const bool dfs = vm->count("dfs-visited") > 0;
  const auto t0 = std::chrono::steady_clock::now();
  const Rules rules(v);
  const auto rows = perft(rules, depth, expand, [&](const PerftRow& r) {
    progress("perft: depth " + std::to_string(r.depth) + " " + std::to_string(r.positions));
  });
  std::vector<std::uint64_t> visited;
  if (dfs) visited = dfs_visited_counts(rules, depth, expand);
  if (json) {
    Json o = variant_json(v);
    o["expand_ended"] = expand;
    o["root"] = perft_json(std::vector<PerftRow>{perft_root()})[0];
    o["depths"] = perft_json(rows);
    if (dfs) o["dfs_visited"] = visited;
    o["seconds"] = seconds_since(t0);
    print_json(o);
    return 0;
  }
  std::cout << "(" << (expand ? "expand-ended" : "stop-at-end") << ")\n";
  std::cout << "depth       exact  cumulative      within                paths       ended"
               "          ended_paths"
            << (dfs ? "  dfs_visited" : "") << "\n";
  std::vector<PerftRow> all{perft_root()};
  all.insert(all.end(), rows.begin(), rows.end());
  for (const PerftRow& r : all) {
    std::cout << std::setw(5) << r.depth << std::setw(12) << r.positions << std::setw(12)
              << r.cumulative << std::setw(12) << r.within << std::setw(21) << count_text(r.paths)
              << std::setw(12) << r.ended_positions << std::setw(21) << count_text(r.ended_paths);
    if (dfs) std::cout << std::setw(13) << (r.depth ? visited[size_t(r.depth - 1)] : 0);
    std::cout << "\n";
  }
  return 0;
}

}  // namespace fano::cli
