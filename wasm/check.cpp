// The layering's proof: the portable layers (rules, table reader, serial
// solver, analysis) solve every variant in memory and answer a seeded sample
// of games. Built natively (the parallel solver) and with emscripten (the
// serial one, run under node); ctest requires the two outputs to be
// byte-identical (tests/CMakeLists.txt, wasm/compare.cmake).
//
// Output, one line each: per variant its counts, a hash of every class's
// canonical code and outcome, the empty board's value, then for each sampled
// game the `fano query --json` report of its current position under its
// history (a game of random moves, seeded, 0 to 60 plies), and the HTTP
// API's answers (fano/api.hpp, what the explorer shows) for the same game:
// the position, its main line and its picture.
#include <cstdint>
#include <cstdio>
#include <string>

#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/api.hpp"
#include "fano/game.hpp"
#include "fano/notation.hpp"
#include "fano/rules.hpp"
#include "fano/solver.hpp"
#include "fano/tablebase.hpp"

namespace {

using namespace fano;

// SplitMix64: the sample is the same on every build.
struct SplitMix64 {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

// FNV-1a over every class's code (8 bytes, little-endian) and outcome byte.
std::uint64_t classes_hash(const Solution& sol) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](std::uint8_t b) { h = (h ^ b) * 0x100000001b3ull; };
  for (std::size_t i = 0; i < sol.positions.size(); ++i) {
    for (int k = 0; k < 8; ++k) mix(std::uint8_t(sol.positions[i] >> (8 * k)));
    mix(outcome_byte(sol.outcomes[i]));
  }
  return h;
}

void print(const std::string& line) { std::fputs((line + "\n").c_str(), stdout); }

void check_variant(const Variant& variant, int games, std::uint64_t seed) {
  const Solution sol = solve(variant);
  const Tablebase tb = in_memory_tablebase(sol, variant_slug(variant));
  const SolveStats& s = sol.stats;
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(classes_hash(sol)));
  const Outcome start = *tb.probe(kEmptyBoard);
  print(variant_slug(variant) + " reachable " + std::to_string(s.reachable) + " classes " +
        std::to_string(s.canonical) + " win " + std::to_string(s.win) + " loss " +
        std::to_string(s.loss) + " draw " + std::to_string(s.draw) + " hash " + hash + " start " +
        std::string(value_name(start.value)) + " " + std::to_string(start.plies));
  const server::Api api({{tb, "in memory"}}, "check", 0);
  const std::string route = "/api/v2/" + variant_short_name(variant);
  const Rules rules(variant);
  SplitMix64 rng{seed};
  for (int g = 0; g < games; ++g) {
    GameRecord game(rules);
    const auto plies = rng.below(61);
    while (game.plies() < plies && !game.over()) {
      const auto moves = legal_moves(rules, game.current());
      game.play(moves[rng.below(moves.size())]);
    }
    print(report_json(analyse(tb, game)).dump());
    std::string moves;
    for (const Move& m : game.moves()) {
      if (!moves.empty()) moves += ',';
      moves += format_move(m);
    }
    for (const char* what : {"", "/mainline", "/svg"}) {
      server::Request req;
      req.path = route + what;
      req.params.emplace("moves", moves);
      const server::Response r = api.handle(req);
      print(std::to_string(r.status) + " " + r.content_type + " " + r.body);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int games = argc > 1 ? std::stoi(argv[1]) : 20;
  try {
    std::uint64_t seed = 1;
    for (const Variant& v : kAllVariants) check_variant(v, games, seed++);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fano_portable_check: %s\n", e.what());
    return 1;
  }
  return 0;
}
