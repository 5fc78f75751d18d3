// Depth counts from the empty board ("perft") under each reading of a depth
// table: distinct positions at exactly depth d, their sum over depths, the
// distinct positions within d plies, move sequences (paths), and ended games.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "fano/rules.hpp"

namespace fano {

// A path count that no longer fits 64 bits is stored as this (saturated).
inline constexpr std::uint64_t kPathsOverflow = std::numeric_limits<std::uint64_t>::max();

struct PerftRow {
  int depth;
  std::uint64_t positions;   // distinct positions at exactly this depth
  std::uint64_t cumulative;  // sum of `positions` over depths 1..depth
  std::uint64_t within = 0;  // distinct positions at depths 0..depth (each counted once)
  std::uint64_t paths = 0;   // move sequences of `depth` plies (classic perft leaves); may saturate
  std::uint64_t ended_positions = 0;  // positions at exactly this depth where the game is over
  std::uint64_t ended_paths = 0;      // sequences of `depth` plies ending where the game is over
};

// The row of depth 0: the empty board alone (cumulative 0: the sum over 1..0 is empty).
PerftRow perft_root();

// What a published depth count may mean.
enum class PerftReading { kExact, kCumulative, kWithin, kPaths };
std::string_view perft_reading_name(PerftReading r);  // "exact", "cumulative", "within", "paths"
std::optional<PerftReading> parse_perft_reading(std::string_view word);
std::uint64_t perft_count(const PerftRow& row, PerftReading r);

// Counts for d = 1..max_depth. With expand_ended == false no move is made from
// a position where the game has ended (a line stands); with true such
// positions are expanded as well (a position with no legal move has no
// children either way). Runs in parallel; the result does not depend on the
// thread count.
std::vector<PerftRow> perft(const Rules& rules, int max_depth, bool expand_ended,
                            const std::function<void(const PerftRow&)>& on_row = {});

// Returns the distinct children of a sorted set of positions, sorted.
// Parents with a standing line are skipped unless expand_ended.
std::vector<std::uint64_t> expand_layer(const Rules& rules, const std::vector<std::uint64_t>& layer,
                                        bool expand_ended);

// A hypothesis about published tables: the positions (the empty board not
// counted) visited by a depth-first search to depth n that keeps one visited
// set without the remaining depth, so a position first met near the horizon is
// never expanded again when met closer to the root. Children in move order.
// Element n-1 is the count for depth n. Serial and deterministic.
std::vector<std::uint64_t> dfs_visited_counts(const Rules& rules, int max_depth, bool expand_ended);

}  // namespace fano
