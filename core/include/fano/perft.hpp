// Depth counts from the empty board ("perft").
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "fano/rules.hpp"

namespace fano {

struct PerftRow {
  int depth;
  std::uint64_t positions;   // distinct positions at exactly this depth
  std::uint64_t cumulative;  // sum of `positions` over depths 1..depth
};

// Counts distinct positions reachable in exactly d plies for d = 1..max_depth.
// With expand_ended == false no move is made from a position where the game
// has ended (a line stands); with true such positions are expanded as well.
// Runs in parallel; the result does not depend on the thread count.
std::vector<PerftRow> perft(const Rules& rules, int max_depth, bool expand_ended,
                            const std::function<void(const PerftRow&)>& on_row = {});

// Returns the distinct children of a sorted set of positions, sorted.
// Parents with a standing line are skipped unless expand_ended.
std::vector<std::uint64_t> expand_layer(const Rules& rules, const std::vector<std::uint64_t>& layer,
                                        bool expand_ended);

}  // namespace fano
