// Game helpers shared by the tests: the four variants for parameterised
// suites and their test names, and seeded random playouts.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "fano/notation.hpp"
#include "fano/rules.hpp"

namespace fano::testing {

// A test name for a variant parameter: its slug with '-' made '_'.
inline std::string variant_param_name(const ::testing::TestParamInfo<Variant>& info) {
  std::string s = variant_slug(info.param);
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

// The moves of `moves` that do not form a line, or all of them when every move
// does: a careful playout picks among these to go deep into the movement phase.
inline std::vector<Move> careful_moves(State st, const std::vector<Move>& moves) {
  std::vector<Move> safe;
  for (const Move& m : moves)
    if (!formed_lines(apply_move(st, m))) safe.push_back(m);
  return safe.empty() ? moves : safe;
}

// Every position visited by a random playout from the empty board (the empty
// board included), stopping when the game is over or after max_plies. A
// careful playout avoids moves that form a line whenever it can, so that it
// reaches deep into the movement phase; a uniform one mostly ends early.
inline std::vector<State> playout(const Rules& rules, std::mt19937& rng, int max_plies,
                                  bool careful) {
  std::vector<State> out{kEmptyBoard};
  State st = kEmptyBoard;
  for (int ply = 0; ply < max_plies && game_over(rules, st) == GameOver::kNone; ++ply) {
    std::vector<Move> moves = legal_moves(rules, st);
    if (careful) moves = careful_moves(st, moves);
    st = apply_move(st, moves[rng() % moves.size()]);
    out.push_back(st);
  }
  return out;
}

// Distinct positions from `games` seeded playouts of up to max_plies moves,
// alternately careful and uniform, keeping only the positions at most
// kept_plies moves into each game (the later ones still draw from rng).
inline std::vector<State> sample_positions(const Variant& v, int games, unsigned seed,
                                           int max_plies = 60, int kept_plies = 60) {
  const Rules rules(v);
  std::mt19937 rng(seed);
  std::unordered_set<std::uint64_t> seen;
  std::vector<State> out;
  for (int g = 0; g < games; ++g) {
    const std::vector<State> game = playout(rules, rng, max_plies, g % 2 == 0);
    for (int ply = 0; ply < int(game.size()) && ply <= kept_plies; ++ply)
      if (seen.insert(game[ply].code).second) out.push_back(game[ply]);
  }
  return out;
}

}  // namespace fano::testing
