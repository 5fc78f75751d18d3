// Verification against the exact solution, using only the tablebase reader and
// the rules engine (never the solver's code path):
//  - a whole tablebase: header, symmetry group, the stored set against an
//    independent search of the reachable set, every successor stored, every
//    entry re-derived from its successors (the Bellman condition), and the
//    header counts;
//  - a published table of depth counts (perft) against core's perft();
//  - game records with claims about their final positions.
// The functions here run in the calling thread's TBB arena; wrap a call in a
// fano::par::task_arena (fano/parallel.hpp) to limit the threads.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fano/game.hpp"
#include "fano/perft.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano::verify {

using Progress = std::function<void(const std::string&)>;

// A malformed input file (perft table or game records); what() is one line
// starting with "line N: " and naming the offending token.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------
// Tablebase verification

// The checks, in the order they are reported; the first error of the first
// failing category is the one named on exit.
enum class Category : int {
  kHeader = 0,    // header fields agree with the sections
  kSymmetry,      // the reduction group is a group of automorphisms of lines and edges
  kReachableSet,  // stored classes == classes reachable from the empty board
  kSuccessors,    // every successor of a stored, unfinished class is stored
  kValues,        // every entry satisfies the Bellman condition
  kCounts,        // header counts == stored classes weighted by orbit size
};
inline constexpr int kCategories = 6;
std::string_view category_name(Category c);  // "header", "symmetry", ...

struct Finding {
  Category category = Category::kHeader;
  std::optional<std::string> position;  // in notation, when the error is about one
  std::string problem;
};

struct CategoryResult {
  std::uint64_t errors = 0;
  std::optional<Finding> first;
  std::string summary;  // one line: what was checked, or what failed
};

struct FirstMove {
  Move move;
  Outcome result;  // for White, who makes it
};

struct TablebaseReport {
  Variant variant;
  std::uint64_t classes = 0;  // stored symmetry classes
  std::uint64_t errors = 0;   // over all categories
  bool checksum_ok = true;    // the reader checked it when the table was opened
  std::array<CategoryResult, kCategories> categories;
  std::optional<Finding> first_error;
  TablebaseCounts recount;  // from the stored classes, each weighted by its orbit size
  std::optional<Outcome> start;
  std::vector<FirstMove> first_moves;  // every first move from the empty board, in move order
  std::optional<Outcome> longest_win;  // the longest forced win stored
  std::string longest_win_position;    // the first stored class with it
  double seconds = 0;

  const CategoryResult& result(Category c) const { return categories[int(c)]; }
  bool ok(Category c) const { return result(c).errors == 0; }
};

struct TablebaseOptions {
  Progress progress;  // progress lines; may be empty
  // false: the quick whole-table check (`fano serve --verify-tables`): the
  // stored set is not compared with a search of the reachable set; the
  // reachable-set category checks only that the empty board is stored. The
  // other checks run as in full: with the successors' check, every reachable
  // class is then stored, and every stored value follows from the rules (the
  // Bellman condition holds for exactly one table over a closed set). What
  // it cannot see is a class stored that no game reaches (answered with its
  // value rather than as unreachable) or not in canonical form.
  bool search_reachable = true;
};

// Runs every check on an opened table. Never throws for a wrong table: errors
// are counted in the report.
TablebaseReport verify_tablebase(const Tablebase& tb, const TablebaseOptions& options = {});

// The results table for results/variants.md: the header (two lines) and one
// row per variant, from a verified table.
std::string markdown_table_header();
std::string markdown_row(const TablebaseReport& report);

// ---------------------------------------------------------------------------
// Published depth counts

struct PerftTable {
  PerftReading reading = PerftReading::kExact;  // what a count means (fano/perft.hpp)
  bool expand_ended = false;                    // positions where the game ended were expanded
  struct Row {
    int depth;
    std::uint64_t count;
    int line;  // 1-based line number in the file
  };
  std::vector<Row> rows;  // in file order, depths distinct
};

// Parses "depth count" lines (depth 0..64), one header line naming the reading
// ('exact', 'cumulative', 'within' or 'paths') and 'expand-ended' or
// 'stop-at-end', '#' comments and blank lines. A line holding a control
// character (other than a tab or a carriage return) is not text: refused.
// Throws InputError.
PerftTable parse_perft_table(std::string_view text);

// The same, a line at a time: an input read as it arrives is refused at its
// first bad line, and memory stays bounded (at most 65 rows are kept).
class PerftTableParser {
 public:
  // One line without its '\n', numbered from 1. Throws InputError.
  void add_line(std::string_view line, int number);
  // The table read. Throws InputError when it lacks the header or any row.
  PerftTable finish() const;

 private:
  PerftTable table_;
  int header_line_ = 0;
  std::array<int, 65> depth_line_{};  // the line of each depth given, 0 if none
};

struct PerftCheck {
  int depth;
  int line;
  std::uint64_t published, computed;
  // The reading compared with: the table's, except that a depth-0 row is always
  // compared with the one position at depth 0, the empty board ('exact': a sum
  // over depths 1..0 would be empty).
  PerftReading reading = PerftReading::kExact;
  bool match() const { return published == computed; }
};

// Computes perft() to the deepest listed depth and compares row by row.
std::vector<PerftCheck> check_perft(const Rules& rules, const PerftTable& table,
                                    const Progress& progress = {});

// ---------------------------------------------------------------------------
// Game records

struct ClaimedChange {
  int ply = 0;       // 0: no move of the record changes the mover's value
  Outcome from, to;  // the mover's best result before the move, and what it gives
};

struct Claim {
  Value value = Value::kDraw;
  std::optional<int> plies;
  std::optional<int> winning_moves;           // moves keeping the side to move's win at the end
  std::optional<ClaimedChange> first_change;  // the record's first mistake, or none
};

// "win 5", "draw", "win 2; winning-moves 1; first-change 3 draw loss 13": a claim as written.
std::string claim_text(const Claim& c);

struct IllegalMove {
  int ply;  // 1-based
  std::string move;
  std::string reason;
};

struct Mistake {
  int ply;
  std::string move;
  Value from, to;         // the mover's best result before the move, and what the move gives
  Outcome before, after;  // the same with plies
};

struct RecordReport {
  int line = 0;        // 1-based line number in the file
  std::string record;  // the moves as written
  bool legal = true;
  std::optional<IllegalMove> illegal;
  std::optional<int> ended_at;  // the ply after which the game was over
  std::optional<GameEnd> end;   // how the game ended (rules 1-3), if it did
  std::string game_over;        // why, in words, or ""
  std::string final_position;   // after the last legal move
  std::optional<Outcome>
      value;  // of the final position for the side to move, under the record's history
  std::optional<Outcome> table_value;  // the table's value of the final position (no history)
  std::optional<Mistake> first_mistake;
  // Moves of the side to move at the end that keep her win (under the history);
  // 0 when the final position is not won, unset when the game is over there.
  std::optional<int> winning_moves;
  std::optional<Claim> claim;
  std::optional<bool> claim_holds;  // set when a claim was made (false for an illegal record)
};

// Reads one record per line: moves in either notation separated by commas or
// spaces, optionally followed by "# claim: win|draw|loss [PLIES]" and, each
// after a ';', "winning-moves N" and "first-change PLY VALUE [PLIES] VALUE
// [PLIES]" (or "first-change none"). Lines with no moves are skipped. Throws
// InputError for a malformed claim, or a line holding a control character
// (other than a tab or a carriage return): binary data, not records.
std::vector<RecordReport> verify_lines(const Tablebase& tb, std::string_view text);

// The same, a line at a time, for an input checked as it is read.
class RecordChecker {
 public:
  explicit RecordChecker(const Tablebase& tb);
  // The report of one line (without its '\n', numbered from 1), or nullopt
  // for a line with no moves. Throws InputError as verify_lines.
  std::optional<RecordReport> check_line(std::string_view line, int number) const;

 private:
  const Tablebase& tb_;
  Rules rules_;
};

}  // namespace fano::verify
