// Puzzles of a table: positions (bare, no history) in which exactly one move
// keeps the side to move's value (the only winning move, or the only move
// that does not lose) and at least one move is tempting, graded by their
// trap (docs/api.md, "Puzzles"). Every front end asks here: the HTTP API's
// puzzle route, and any other that draws puzzles. Portable.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/interrupt.hpp"
#include "fano/rules.hpp"
#include "fano/tablebase.hpp"

namespace fano {

enum class PuzzleGrade : std::uint8_t { kEasy, kMedium, kHard };
inline constexpr std::array<PuzzleGrade, 3> kPuzzleGrades{PuzzleGrade::kEasy, PuzzleGrade::kMedium,
                                                          PuzzleGrade::kHard};
std::string_view grade_name(PuzzleGrade grade);  // "easy", "medium", "hard"
std::optional<PuzzleGrade> grade_from_name(std::string_view name);

// What makes a puzzle's trap hard: the tempting moves are those that give
// the value away yet a 1- or 2-ply look calls safe (a 2-ply look sees a move
// that forms a line and a reply that leaves the mover without a move, that
// is a loss in 1 or 2 plies); the depth of the trap is the longest a
// tempting move hides its cost: its loss's plies, or for a move that throws
// a win away for a draw, the plies of the win it misses.
struct PuzzleTrap {
  int tempting = 0;
  int depth = 0;  // plies
};
PuzzleTrap puzzle_trap(const Outcome& value, const std::vector<RatedMove>& moves);

// The grade's boundaries (docs/api.md states them): easy, a trap at most
// kEasyDepth plies deep with at most kEasyTempting tempting moves; hard, a
// trap at least kHardDepth plies deep or at least kHardTempting tempting
// moves; medium, the rest.
inline constexpr int kEasyDepth = 5, kEasyTempting = 2, kHardDepth = 12, kHardTempting = 4;
PuzzleGrade puzzle_grade(const PuzzleTrap& trap);

struct Puzzle {
  State position;
  Outcome value;          // for the side to move, kept by the solution alone
  std::size_t moves = 0;  // legal moves
  PuzzleTrap trap;
  PuzzleGrade grade = PuzzleGrade::kEasy;
  Move solution;
};

// The table's class at `index` as a puzzle, or nullopt when it is none.
std::optional<Puzzle> puzzle_at(const Tablebase& tb, const Rules& rules, std::size_t index);

// A puzzle drawn the quick way: classes drawn with game_rng(seed, 0), the
// first that is a puzzle (of the grade, if one is asked) within `attempts`
// draws, else nullopt (then PuzzleIndex::draw answers). Polls `interrupt`
// every few hundred draws.
inline constexpr int kPuzzleSampleAttempts = 2000;
std::optional<Puzzle> sample_puzzle(const Tablebase& tb, std::uint64_t seed,
                                    std::optional<PuzzleGrade> grade,
                                    int attempts = kPuzzleSampleAttempts,
                                    const Interrupt& interrupt = {});

// Every puzzle of a table, by grade: listed once a table (a few microseconds
// a class), in steps that an interrupt may end and a later call resumes, so
// that a request's deadline bounds each step and the listing is never lost.
// Not thread-safe: the caller serialises the calls (one listing a table).
class PuzzleIndex {
 public:
  static constexpr std::size_t kListStep = 4096;  // about 10 ms
  explicit PuzzleIndex(const Tablebase& table);
  // Lists the classes from where the last call stopped until every class is
  // listed, polling `interrupt` between steps of kListStep classes, one step
  // at least (Interrupted leaves what is listed so far, kept for the next call).
  void list(const Interrupt& interrupt = {});
  bool listed() const { return next_ == table_->size(); }
  std::size_t classes_listed() const { return next_; }
  // Puzzles of the grade (nullopt: of any grade) listed so far.
  std::size_t count(std::optional<PuzzleGrade> grade = std::nullopt) const;
  // The seed's puzzle among every puzzle of the grade (nullopt: of any
  // grade), drawn with game_rng(seed, 0); nullopt when there is none.
  // Requires listed().
  std::optional<Puzzle> draw(std::uint64_t seed, std::optional<PuzzleGrade> grade) const;

 private:
  const Tablebase* table_;
  Rules rules_;
  std::size_t next_ = 0;
  std::vector<std::uint32_t> all_;  // class indices, ascending
  std::array<std::vector<std::uint32_t>, 3> by_grade_;
};

}  // namespace fano
