// Enumeration of every reachable position and the retrograde analysis.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fano/buffer.hpp"
#include "fano/rules.hpp"
#include "fano/symmetry.hpp"
#include "fano/table_writer.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

struct SolveOptions {
  int threads = 0;  // 0: all cores
  // Also build the table's two sections (Solution::codes_section and
  // outcomes_section, compressed at the end of the solve, the codes beside
  // the rest), for callers that write the table.
  bool encode_sections = false;
  // Called with a stage name and a progress line; for stderr reporting.
  std::function<void(const std::string&)> progress;
  // Polled between the stages, the enumeration's rounds and the retrograde
  // levels: a caller that must end a solve early (a server stopping) throws
  // from it, and the exception leaves solve() with the solve's buffers freed.
  std::function<void()> check_stop;
  // Above 2^20 classes the predecessor lists are built by targets in ranges,
  // as many as the game's size asks for (results/solve-memory.md) when 0;
  // otherwise by targets at any size, in this many. The lists are the same
  // either way: the tests force it on small readings to check it.
  int predecessor_ranges = 0;
};

// Seconds per stage; they do not overlap, so they add up to at most the
// solve's time.
struct StageTimes {
  double enumerate = 0;   // the search
  double graph = 0;       // the predecessor lists and the ended games
  double retrograde = 0;  // the levels (the ranking, or above 2^20 classes the
                          // codes section, beside them), the outcomes, the
                          // statistics and the table's sections
  // The steps inside graph and retrograde, each part of one of them (a
  // benchmark's view of where a class's time goes: results/solve-memory.md),
  // in wall seconds and the process's CPU seconds (every thread's, so on a
  // shared machine the work is seen apart from the waiting).
  struct Step {
    double seconds = 0, cpu_seconds = 0;
  };
  Step search;        // the search (as enumerate)
  Step rank;          // the ranking on its own (above 2^20 classes; below, it
                      // runs beside the levels and is part of levels)
  Step predecessors;  // the predecessor lists
  Step ended;         // the ended games (level 0)
  Step levels;        // the levels 1, 2, ... (and what runs beside them)
  Step outcomes;      // the outcomes in code order, and the codes decoded
  Step sections;      // the statistics and the table's sections
};

// Counts over all reachable positions (each symmetry class weighted by its size).
struct SolveStats {
  std::uint64_t reachable = 0, placement = 0, movement = 0, canonical = 0;
  std::uint64_t win = 0, loss = 0, draw = 0;
};

// A solved variant: one entry per reachable symmetry class, keyed by the
// class's canonical code, sorted ascending.
struct Solution {
  Variant variant;
  // Buffers that skip zeroing and keep their pages for the next solve (see
  // fano/buffer.hpp); otherwise used as std::vector.
  UninitVector<std::uint64_t> positions;  // canonical codes, ascending
  UninitVector<Outcome> outcomes;         // outcomes[i] belongs to positions[i]
  SolveStats stats;
  StageTimes times;
  // With SolveOptions::encode_sections (encode_solution then only assembles).
  std::optional<CodesSection> codes_section;
  std::optional<OutcomesSection> outcomes_section;

  // Index of a canonical code in `positions`, or nullopt when not reachable.
  std::optional<std::size_t> index_of(std::uint64_t canonical_code) const;
  // The outcome of any position (canonicalised here), or nullopt when unreachable.
  std::optional<Outcome> lookup(State st) const;
};

// Every reachable position's canonical code under the variant's symmetry
// group, sorted ascending. No move is made from a position where the game has
// ended; such positions are included.
std::vector<std::uint64_t> enumerate_reachable(const Rules& rules, const Symmetry& sym,
                                               const SolveOptions& options = {});

// Solves the variant: enumeration, successor graph, parallel retrograde
// analysis. The result is the same for any thread count.
Solution solve(const Variant& variant, const SolveOptions& options = {});

// The header counts of a solution, and its tablebase bytes (tablebase/FORMAT.md),
// encoded on `threads` worker threads (0: all cores), reusing codes_section and
// outcomes_section when present; the bytes do not depend on either.
// encode_solution needs the table writer (a build with zstd).
TablebaseCounts tablebase_counts(const Solution& solution);
std::vector<std::uint8_t> encode_solution(const Solution& solution, int threads = 0);

// The solution as a table in memory (Tablebase::from_classes): probed like a
// table file, without encoding or decoding. `name` is used in messages.
Tablebase in_memory_tablebase(const Solution& solution, const std::string& name = "in memory");
// The same, taking the solution's positions (not copied) and freeing its
// outcomes: a caller that keeps only the table needs no second array of the
// codes beside the first.
Tablebase in_memory_tablebase(Solution&& solution, const std::string& name = "in memory");

}  // namespace fano
