#include "fano/review.hpp"

#include <algorithm>
#include <utility>

#include "fano/history.hpp"
#include "fano/notation.hpp"

namespace fano {
namespace {

std::string side(Colour c) { return c == Colour::kWhite ? "White" : "Black"; }

std::string plies_words(int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

// The moves that keep `before`, the engine's choice first, then the others
// best first (rated is best first, so they are a prefix of it).
std::vector<Move> keeping_moves(const Tablebase& tb, const Rules& rules,
                                const std::vector<RatedMove>& rated, Outcome before) {
  std::vector<Move> best{rated[choose_index(tb, rules, rated)].move};
  for (const RatedMove& m : rated)
    if (m.result == before && !(m.move == best.front())) best.push_back(m.move);
  return best;
}

// What a mistake did, in the engine's words ("gives the draw away", ...).
std::string mistake_kind(Outcome before, Outcome after) {
  if (before.value == Value::kWin)
    return after.value == Value::kWin ? "wins more slowly" : "throws the win away";
  if (before.value == Value::kDraw) return "gives the draw away";
  return "loses faster";
}

// What the move played leads to: "it loses in 17 plies" (the move's result, as
// `fano query` rates it), then how the opponent answers or how the game ends.
std::string consequence(const ReviewedPly& p, const GameRecord& after_move, Colour mover) {
  std::string what;
  switch (p.after.value) {
    case Value::kWin:
      what = "it wins in " + plies_words(p.after.plies);
      break;
    case Value::kDraw:
      what = "it only draws";
      break;
    case Value::kLoss:
      what = p.after.plies == 1 && after_move.over() ? "it loses at once"
                                                     : "it loses in " + plies_words(p.after.plies);
      break;
  }
  if (const auto end = after_move.end())
    return what + " (" + describe_end(*end, after_move.current()) + ")";
  if (!p.refutation.empty())
    what += " (" + side(opponent(mover)) + " answers " + format_move(p.refutation.front()) + ")";
  return what;
}

// What the engine's choice would have kept: "C5 keeps the draw".
std::string keeping_words(const ReviewedPly& p) {
  const std::string best = format_move(p.best.front());
  switch (p.before.value) {
    case Value::kWin:
      return best + " wins in " + plies_words(p.before.plies);
    case Value::kDraw:
      return best + " keeps the draw";
    case Value::kLoss:
      break;
  }
  return best + " holds out for " + plies_words(p.before.plies);
}

// "3. T5 ?? gives the draw away: it loses in 17 plies (Black answers t7); C5
// keeps the draw": "??" when the result changed class, "?" when a win is
// slower or a loss sooner.
std::string mistake_text(const ReviewedPly& p, const GameRecord& after_move, Colour mover) {
  const bool changed = p.before.value != p.after.value;
  return std::to_string(p.ply) + ". " + format_move(p.move) + (changed ? " ?? " : " ? ") +
         mistake_kind(p.before, p.after) + ": " + consequence(p, after_move, mover) + "; " +
         keeping_words(p);
}

// The line that refutes the move played (the engine for both sides from the
// game after it, history included), at most `max_plies` moves.
void refute(const Tablebase& tb, const GameRecord& after_move, const ReviewOptions& options,
            ReviewedPly& p) {
  const GameRecord line =
      principal_variation(tb, after_move, options.max_refutation_plies, options.interrupt);
  p.refutation.assign(line.moves().begin() + std::ptrdiff_t(after_move.plies()),
                      line.moves().end());
  p.refutation_end = line.end();
  if (p.refutation.empty()) return;  // the move ended the game: its text says how
  if (p.refutation_end)
    p.refutation_close = " (" + describe_end(*p.refutation_end, line.current()) + ")";
  else
    p.refutation_close = p.after.value == Value::kDraw ? " ... and the game is drawn" : " ...";
}

}  // namespace

GameReview review_game(const Tablebase& tb, const GameRecord& game, const ReviewOptions& options) {
  const Rules& rules = game.rules();
  probe_or_unreachable(tb, rules, game.start());
  GameReview review{GameRecord(rules, game.start()), {}, std::nullopt, {}, std::nullopt, {}};
  GameRecord& prefix = review.game;
  // One history along the game: each ply asks only about the position it adds.
  GameHistory history(tb, rules, prefix.positions());
  for (std::size_t i = 0; i < game.plies(); ++i) {
    options.interrupt.poll();
    const std::vector<RatedMove> rated = rate_moves(tb, prefix, history);
    const Move played = game.moves()[i];
    const auto row = std::find_if(rated.begin(), rated.end(),
                                  [&](const RatedMove& m) { return m.move == played; });
    ReviewedPly p;
    p.ply = i + 1;
    p.move = played;
    p.position = prefix.current();
    p.before = rated.front().result;
    p.after = row->result;
    p.repeats = row->repeats;
    p.mistake = !(p.after == p.before);
    const Colour mover = p.position.to_move();
    if (p.mistake) {
      ++review.mistakes[std::size_t(mover)];
      p.decisive = !review.first_decisive && p.before.value != p.after.value;
      if (p.decisive) review.first_decisive = p.ply;
      p.best = keeping_moves(tb, rules, rated, p.before);
    }
    prefix.play(played);
    history.push(prefix.current());
    if (p.mistake) {
      refute(tb, prefix, options, p);
      p.text = mistake_text(p, prefix, mover);
    }
    review.plies.push_back(std::move(p));
  }
  review.end = prefix.end();
  if (review.end)
    review.end_value = review.end->reason == EndReason::kRepetition
                           ? Outcome{}
                           : probe_or_unreachable(tb, rules, prefix.current());
  else
    review.end_value = rate_moves(tb, prefix, history).front().result;
  return review;
}

std::string review_end_text(const GameReview& r) {
  const State st = r.game.current();
  if (r.end) return describe_end(*r.end, st);
  const std::string mover = side(st.to_move());
  const Outcome v = r.end_value;
  const std::string value = v.value == Value::kDraw  ? "draw"
                            : v.value == Value::kWin ? mover + " wins in " + plies_words(v.plies)
                                                     : mover + " loses in " + plies_words(v.plies);
  return mover + " to move; " + value + " with best play";
}

}  // namespace fano
