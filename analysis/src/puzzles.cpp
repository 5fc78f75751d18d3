#include "fano/puzzles.hpp"

#include <algorithm>
#include <stdexcept>

#include "fano/players.hpp"

namespace fano {

std::string_view grade_name(PuzzleGrade grade) {
  switch (grade) {
    case PuzzleGrade::kEasy:
      return "easy";
    case PuzzleGrade::kMedium:
      return "medium";
    case PuzzleGrade::kHard:
      return "hard";
  }
  return "easy";
}

std::optional<PuzzleGrade> grade_from_name(std::string_view name) {
  for (const PuzzleGrade g : kPuzzleGrades)
    if (grade_name(g) == name) return g;
  return std::nullopt;
}

namespace {
bool shallow_look_sees(const RatedMove& m) {
  return m.result.value == Value::kLoss && m.result.plies <= 2;
}
}  // namespace

PuzzleTrap puzzle_trap(const Outcome& value, const std::vector<RatedMove>& moves) {
  PuzzleTrap t;
  for (const RatedMove& m : moves) {
    if (m.result.value == value.value || shallow_look_sees(m)) continue;
    ++t.tempting;
    t.depth =
        std::max(t.depth, m.result.value == Value::kLoss ? int(m.result.plies) : int(value.plies));
  }
  return t;
}

PuzzleGrade puzzle_grade(const PuzzleTrap& t) {
  if (t.depth <= kEasyDepth && t.tempting <= kEasyTempting) return PuzzleGrade::kEasy;
  if (t.depth >= kHardDepth || t.tempting >= kHardTempting) return PuzzleGrade::kHard;
  return PuzzleGrade::kMedium;
}

std::optional<Puzzle> puzzle_at(const Tablebase& tb, const Rules& rules, std::size_t index) {
  const Outcome value = tb.outcome_at(index);
  if (value.value == Value::kLoss) return std::nullopt;  // no move keeps a loss
  const State st = tb.position_at(index);
  const std::vector<RatedMove> moves = rate_moves(tb, rules, st);
  if (moves.size() < 3) return std::nullopt;
  int keeping = 0;
  for (const RatedMove& m : moves) keeping += m.result.value == value.value;
  if (keeping != 1) return std::nullopt;
  const PuzzleTrap trap = puzzle_trap(value, moves);
  if (trap.tempting == 0) return std::nullopt;
  // rate_moves lists the best first: the one move that keeps the value.
  return Puzzle{st, value, moves.size(), trap, puzzle_grade(trap), moves.front().move};
}

std::optional<Puzzle> sample_puzzle(const Tablebase& tb, std::uint64_t seed,
                                    std::optional<PuzzleGrade> grade, int attempts,
                                    const Interrupt& interrupt) {
  const Rules rules(tb.variant());
  Rng rng = game_rng(seed, 0);
  for (int attempt = 0; attempt < attempts; ++attempt) {
    if (attempt % 256 == 255) interrupt.poll();
    const std::optional<Puzzle> p = puzzle_at(tb, rules, std::size_t(rng.below(tb.size())));
    if (p && (!grade || p->grade == *grade)) return p;
  }
  return std::nullopt;
}

PuzzleIndex::PuzzleIndex(const Tablebase& table) : table_(&table), rules_(table.variant()) {}

void PuzzleIndex::list(const Interrupt& interrupt) {
  const std::size_t n = table_->size();
  // One step at least a call, so that every request moves the listing on
  // however short its deadline.
  while (next_ < n) {
    const std::size_t end = std::min(n, next_ + kListStep);
    for (std::size_t i = next_; i < end; ++i)
      if (const std::optional<Puzzle> p = puzzle_at(*table_, rules_, i)) {
        all_.push_back(std::uint32_t(i));
        by_grade_[std::size_t(p->grade)].push_back(std::uint32_t(i));
      }
    next_ = end;
    if (next_ < n) interrupt.poll();
  }
}

std::size_t PuzzleIndex::count(std::optional<PuzzleGrade> grade) const {
  return grade ? by_grade_[std::size_t(*grade)].size() : all_.size();
}

std::optional<Puzzle> PuzzleIndex::draw(std::uint64_t seed,
                                        std::optional<PuzzleGrade> grade) const {
  if (!listed()) throw std::logic_error("PuzzleIndex::draw before the table is listed");
  const std::vector<std::uint32_t>& among = grade ? by_grade_[std::size_t(*grade)] : all_;
  if (among.empty()) return std::nullopt;
  Rng rng = game_rng(seed, 0);
  return puzzle_at(*table_, rules_, among[std::size_t(rng.below(among.size()))]);
}

}  // namespace fano
