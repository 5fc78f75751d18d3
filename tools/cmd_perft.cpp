#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/perft.hpp"

namespace fano::cli {

int cmd_perft(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  desc.add_options()("depth,d", po::value<int>()->required(), "deepest depth to count (1..64)")(
      "expand-ended",
      "keep expanding positions where the game has ended (default: stop there, as the rules do)")(
      "json", "print JSON");
  const auto vm = parse("perft", "--depth N [--expand-ended] [--json] [variant options]",
                        "For each depth d = 1..N, the number of distinct positions at exactly "
                        "depth d from the empty board and the cumulative sum over 1..d.",
                        desc, nullptr, args);
  if (!vm) return 0;
  const Variant v = variant_from(*vm);
  const int depth = (*vm)["depth"].as<int>();
  if (depth < 1 || depth > 64)
    throw UsageError("--depth must be between 1 and 64, got " + std::to_string(depth));
  const bool expand = vm->count("expand-ended") > 0;
  const bool json = vm->count("json") > 0;
  const auto t0 = std::chrono::steady_clock::now();
  if (!json)
    std::cout << "depth  positions  cumulative   (" << (expand ? "expand-ended" : "stop-at-end")
              << ")\n";
  const auto rows = perft(Rules(v), depth, expand, [&](const PerftRow& r) {
    if (!json)
      std::cout << r.depth << " " << r.positions << " " << r.cumulative << std::endl;
    else
      progress("perft: depth " + std::to_string(r.depth) + " " + std::to_string(r.positions));
  });
  if (json) {
    Json o = variant_json(v);
    o["expand_ended"] = expand;
    o["depths"] = perft_json(rows);
    o["seconds"] = seconds_since(t0);
    print_json(o);
  }
  return 0;
}

}  // namespace fano::cli
