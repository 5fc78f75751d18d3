#include "fano/analysis.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "fano/history.hpp"
#include "fano/notation.hpp"

namespace fano {
namespace {

void sort_best_first(std::vector<RatedMove>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const RatedMove& a, const RatedMove& b) {
    return better_for_mover(a.result, b.result);
  });
}

// Why the game's history changes the table's value: the earlier position best
// play returns to (a draw by rule 3), or the earlier positions that now end
// the game drawn and so close the table's fastest win or slowest loss.
std::string history_note(const Tablebase& tb, const PositionReport& r, const GameRecord& game,
                         const GameRecord& line) {
  std::string note = "the table says " + outcome_text(r.table_value) +
                     ", but the game's history changes it to " + outcome_text(r.value);
  const auto end = line.end();
  if (end && end->reason == EndReason::kRepetition && end->repeated_ply >= 0 &&
      std::size_t(end->repeated_ply) < game.plies()) {
    const std::size_t k = line.plies() - game.plies();
    return note + ": best play returns in " + std::to_string(k) + (k == 1 ? " ply" : " plies") +
           " to the position after ply " + std::to_string(end->repeated_ply) + " (" +
           format_position(game.positions()[std::size_t(end->repeated_ply)]) +
           "), which ends the game drawn (rule 3)";
  }
  std::string plies;
  for (std::size_t p = 0; p < game.positions().size(); ++p) {
    const State s = game.positions()[p];
    if (game.rules().placement_phase(s) || probe_reachable(tb, s).value == Value::kDraw) continue;
    if (!plies.empty()) plies += ", ";
    plies += std::to_string(p);
  }
  return note + ": the positions after plies " + plies +
         " may not occur again (a repetition is a draw), which closes the table's way";
}

}  // namespace

UnreachablePosition::UnreachablePosition(State st)
    : std::runtime_error("position '" + format_position(st) + "' is legal but no game reaches it"),
      position_(st) {}

namespace {

// Why no game reaches `st`, from the positions one move before it.
std::string unreachable_reason(const Tablebase& tb, const Rules& rules, State st) {
  std::size_t parents = 0, ended = 0, line = 0, not_reached = 0;
  for_each_unmove(rules, st, [&](State parent) {
    ++parents;
    if (game_over(rules, parent) != GameOver::kNone) {
      ++ended;
      line += formed_lines(rules, parent) != 0;
    } else if (!tb.probe(parent)) {
      ++not_reached;
    }
  });
  if (parents == 0) return "no legal move leads to it";
  const std::string each =
      parents == 1 ? "the one position" : "each of the " + std::to_string(parents) + " positions";
  if (line == parents) return "a line stands in " + each + " a move leads to it from";
  if (ended == parents) return "the game is already over in " + each + " a move leads to it from";
  if (not_reached == parents) return "no game reaches " + each + " a move leads to it from";
  if (ended + not_reached == parents)
    return "of the " + std::to_string(parents) + " positions a move leads to it from, " +
           std::to_string(ended) + " already end the game and no game reaches the other " +
           std::to_string(not_reached);
  return "";  // a parent is reached and goes on: the table lacks a position it should hold
}

}  // namespace

UnreachablePosition::UnreachablePosition(const Tablebase& tb, const Rules& rules, State st)
    : std::runtime_error([&] {
        const std::string reason = unreachable_reason(tb, rules, st);
        return "position '" + format_position(st) + "' is legal but no game reaches it" +
               (reason.empty() ? "" : ": " + reason);
      }()),
      position_(st) {}

const char* const kEngineChoiceRule =
    "The engine plays a move with the best result for it (fastest win, else a draw, else the "
    "slowest loss). Among moves of equal result (same win/draw/loss and plies) it sets the "
    "likeliest trap for a fallible opponent who plays uniformly at random among her moves that "
    "do not lose at once (form no line), or among all her moves when each does: it picks the "
    "move that maximises the share of those moves that worsen the opponent's result (a move "
    "that repeats a position ends the game drawn and sets no trap). Remaining ties go to the "
    "move that leaves the opponent the fewest replies keeping her result, then to the first in "
    "move order (placements by shape, circle first, then space; movements by from-space then "
    "to-space). The choice is deterministic.";

int keeping_replies(const Tablebase& tb, const Rules& rules, State child) {
  if (game_over(rules, child) != GameOver::kNone) return 0;
  const Outcome best = probe_reachable(tb, child);
  int n = 0;
  for_each_move(rules, child, [&](const Move&, State grandchild) {
    n += outcome_for_mover(probe_reachable(tb, grandchild)) == best;
  });
  return n;
}

std::vector<RatedMove> rate_moves(const Tablebase& tb, const Rules& rules, State st) {
  std::vector<RatedMove> rows;
  if (game_over(rules, st) != GameOver::kNone) return rows;
  for_each_move(rules, st, [&](const Move& m, State child) {
    rows.push_back({m, child, outcome_for_mover(probe_reachable(tb, child)), false});
  });
  sort_best_first(rows);
  return rows;
}

std::vector<RatedMove> rate_moves(const Tablebase& tb, const GameRecord& game,
                                  GameHistory& history) {
  // A bare position is rated as the table rates it (no history at all).
  if (game.plies() == 0) return rate_moves(tb, game.rules(), game.current());
  std::vector<RatedMove> rows;
  if (game.over()) return rows;
  // After the move, every position of the game so far (the current one too) is earlier.
  std::vector<State> children;
  for_each_move(game.rules(), game.current(), [&](const Move& m, State child) {
    rows.push_back({m, child, Outcome{}, history.contains(child)});
    children.push_back(child);
  });
  const std::vector<Outcome> values = history.values(children);
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (!rows[i].repeats) rows[i].result = outcome_for_mover(values[i]);
  sort_best_first(rows);
  return rows;
}

std::vector<RatedMove> rate_moves(const Tablebase& tb, const GameRecord& game) {
  if (game.plies() == 0) return rate_moves(tb, game.rules(), game.current());
  GameHistory history(tb, game.rules(), game.positions());
  return rate_moves(tb, game, history);
}

Outcome probe_or_unreachable(const Tablebase& tb, const Rules& rules, State st) {
  const auto o = tb.probe(st);
  if (!o) throw UnreachablePosition(tb, rules, st);
  return *o;
}

Outcome game_value(const Tablebase& tb, const GameRecord& game) {
  const Outcome table = probe_or_unreachable(tb, game.rules(), game.current());
  if (const auto end = game.end()) return end->reason == EndReason::kRepetition ? Outcome{} : table;
  return rate_moves(tb, game).front().result;
}

namespace {

// trap_chance and keeping_replies of `child` from one probe of each reply.
struct ReplyCounts {
  TrapChance trap;
  int keeping = 0;
};
template <class Probe>
ReplyCounts reply_counts(const Rules& rules, State child, Probe&& probe) {
  if (game_over(rules, child) != GameOver::kNone) return {};
  const Outcome best = probe(child);
  TrapChance all, safe;
  int keeping = 0;
  for_each_move(rules, child, [&](const Move&, State grandchild) {
    const bool errs = !(outcome_for_mover(probe(grandchild)) == best);
    keeping += !errs;
    ++all.choices, all.errors += errs;
    if (!formed_lines(rules, grandchild)) ++safe.choices, safe.errors += errs;
  });
  return {safe.choices ? safe : all, keeping};
}

template <class Probe>
std::size_t choose_index(const Rules& rules, const std::vector<RatedMove>& rated, Probe&& probe) {
  assert(!rated.empty());
  if (rated.empty()) throw std::logic_error("choose_index: no legal move");
  // rated is best first and stable, so the best group is a prefix in move order.
  std::size_t group = 1;
  while (group < rated.size() && rated[group].result == rated[0].result) ++group;
  if (group == 1) return 0;  // no tie to break
  std::size_t best = 0;
  TrapChance best_chance;
  int best_keeping = -1;
  for (std::size_t i = 0; i < group; ++i) {
    // A repeating move ends the game drawn at once: the opponent can err no more.
    const ReplyCounts counts = rated[i].repeats ? ReplyCounts{{}, std::numeric_limits<int>::max()}
                                                : reply_counts(rules, rated[i].child, probe);
    const TrapChance c = counts.trap;
    const int k = counts.keeping;
    // c.errors / c.choices against best_chance's, as integers (0/0 counts as 0).
    const long lhs = long(c.errors) * std::max(best_chance.choices, 1);
    const long rhs = long(best_chance.errors) * std::max(c.choices, 1);
    if (best_keeping < 0 || lhs > rhs || (lhs == rhs && k < best_keeping))
      best = i, best_chance = c, best_keeping = k;
  }
  return best;
}

}  // namespace

TrapChance trap_chance(const Tablebase& tb, const Rules& rules, State child) {
  return reply_counts(rules, child, [&](State s) { return probe_reachable(tb, s); }).trap;
}

std::size_t choose_index(const Tablebase& tb, const Rules& rules,
                         const std::vector<RatedMove>& rated) {
  return choose_index(rules, rated, [&](State s) { return probe_reachable(tb, s); });
}

Move choose_move(const Tablebase& tb, const GameRecord& game) {
  const std::vector<RatedMove> rated = rate_moves(tb, game);
  return rated[choose_index(tb, game.rules(), rated)].move;
}

std::string value_sentence(const PositionReport& r) {
  return "value for " + colour_name(r.position.to_move()) +
         " (to move): " + outcome_phrase(r.value);
}

namespace {

// The engine's moves for both sides from `game` on, until the game ends or
// max_plies moves were made, with one history kept along the line (each ply
// asks only about the position it adds). `first` is rate_moves of `game`
// when the caller has it, `history` the history of `game` that computed it
// (its region searched already), else one is made here.
GameRecord engine_line(const Tablebase& tb, GameRecord line, std::size_t max_plies,
                       std::vector<Outcome>* results, std::vector<RatedMove> first = {},
                       const Interrupt& interrupt = {}, GameHistory* given = nullptr) {
  std::optional<GameHistory> own;
  if (!given) own.emplace(tb, line.rules(), line.positions());
  GameHistory& history = given ? *given : *own;
  // The engine's tie-breaks probe every reply of each best move; the next
  // ply's moves are the replies of the move played, and along a long line (a
  // draw runs to the bound on its plies) other positions come back too.
  const auto probe = [&](State s) { return history.table_value(s); };
  for (std::size_t i = 0; i < max_plies && !line.over(); ++i) {
    interrupt.poll();
    const std::vector<RatedMove> rated =
        i == 0 && !first.empty() ? std::move(first) : rate_moves(tb, line, history);
    const RatedMove& m = rated[choose_index(line.rules(), rated, probe)];
    if (results) results->push_back(m.result);
    line.play(m.move);
    history.push(line.current());
  }
  return line;
}

}  // namespace

EngineGame engine_game(const Tablebase& tb, GameRecord game, std::size_t max_plies) {
  EngineGame g{GameRecord(game.rules()), game.plies(), {}};
  g.game = engine_line(tb, std::move(game), max_plies, &g.results);
  return g;
}

GameRecord principal_variation(const Tablebase& tb, const GameRecord& game, std::size_t max_plies,
                               const Interrupt& interrupt) {
  return engine_line(tb, game, max_plies, nullptr, {}, interrupt);
}

PositionReport analyse(const Tablebase& tb, const GameRecord& game,
                       const AnalysisOptions& options) {
  const Rules& rules = game.rules();
  const State st = game.current();
  const Outcome table = probe_or_unreachable(tb, rules, st);
  PositionReport r;
  r.variant = rules.variant;
  r.position = st;
  r.table_value = table;
  r.value = table;
  r.game_over = game.end();
  if (r.game_over) {
    if (r.game_over->reason == EndReason::kRepetition) r.value = Outcome{};
    // The variation of a finished game is empty and ends where the game did.
    if (options.principal_variation) r.pv_end = r.game_over;
    return r;
  }
  options.interrupt.poll();
  // One history for the ratings and the variation: its region is searched once.
  GameHistory history(tb, rules, game.positions());
  r.moves = rate_moves(tb, game, history);
  if (!r.moves.empty()) r.value = r.moves.front().result;
  const auto table_value = [&](State s) { return history.table_value(s); };
  // Each drawing move's trap: its replies are probed once through the
  // history's cache, which the engine's tie-breaks and the variation share.
  for (RatedMove& m : r.moves)
    if (m.result.value == Value::kDraw && !m.repeats)
      m.trap = reply_counts(rules, m.child, table_value).trap;
  if (options.engine_choice) r.engine_choice = choose_index(rules, r.moves, table_value);
  const bool history_matters = !(r.value == r.table_value);
  if (options.principal_variation || history_matters) {
    // Every move of a drawn variation keeps the draw (each is a best move).
    const bool drawn = r.value.value == Value::kDraw;
    const std::size_t bound =
        drawn ? std::min(options.max_pv_plies, options.max_drawn_pv_plies) : options.max_pv_plies;
    const GameRecord line =
        engine_line(tb, game, bound, nullptr, r.moves, options.interrupt, &history);
    if (history_matters) r.history_note = history_note(tb, r, game, line);
    if (options.principal_variation) {
      r.pv.assign(line.moves().begin() + std::ptrdiff_t(game.plies()), line.moves().end());
      r.pv_positions.assign(line.positions().begin() + std::ptrdiff_t(game.plies()) + 1,
                            line.positions().end());
      r.pv_end = line.end();
      r.pv_continues_drawn = drawn && !r.pv_end;
    }
  }
  return r;
}

PositionReport analyse(const Tablebase& tb, State st, const AnalysisOptions& options) {
  return analyse(tb, GameRecord(Rules(tb.variant()), st), options);
}

}  // namespace fano
