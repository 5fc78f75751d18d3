// A plain reference solver, the fixed yardstick of `fano bench` and an
// independent check of the real solver in the tests: a breadth-first search
// over every reachable position (no symmetry) with a std::unordered_map, and
// a queue retrograde analysis over per-position predecessor lists. Written for
// clarity, not speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "fano/board.hpp"
#include "fano/state.hpp"
#include "fano/value.hpp"

namespace fano::reference {

struct ReferenceSolution {
  std::vector<std::uint64_t> codes;  // every reachable position, in breadth-first order
  std::unordered_map<std::uint64_t, std::uint32_t> index;  // code -> position in codes
  std::vector<Outcome> outcomes;                           // outcomes[i] belongs to codes[i]
  std::uint64_t placement = 0, movement = 0, win = 0, loss = 0, draw = 0;
  bool complete = true;  // false: more than the limit reachable, nothing solved
};

// Solves the variant position by position (RULES.md: no move from a position
// where a line stands; a line is a win in 0 for the side to move, no move a
// loss in 0; the winner fastest, the loser slowest; the rest draws), over
// every position reachable from `start`. Every successor of such a position
// is reachable from it too, so each value is the game's value, from any start.
// With `limit`, a search that finds more positions stops and returns an
// incomplete solution (complete false, no outcomes).
ReferenceSolution solve_reference(const Variant& variant, State start = kEmptyBoard,
                                  std::size_t limit = SIZE_MAX);

}  // namespace fano::reference
