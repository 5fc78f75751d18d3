// The review of a game: every move played judged against perfect play under
// the game's history (rule 3), the mistakes of each side, the first one that
// changed the result, the moves that kept it and the line that refutes each
// mistake, with a sentence a newcomer reads. Computed here once; `fano
// review`, the HTTP API's review route, Python and the page print its JSON
// (review_json, fano/analysis_json.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fano/analysis.hpp"
#include "fano/game.hpp"
#include "fano/interrupt.hpp"
#include "fano/tablebase.hpp"
#include "fano/value.hpp"

namespace fano {

// One move of the game, judged.
struct ReviewedPly {
  std::size_t ply = 0;  // 1-based: the ply-th move of the game
  Move move;
  State position;  // before the move
  // The mover's value of `position` under the game's history (what `fano
  // query` says of the game up to here), and the result of the move played
  // for its mover (that move's row in the same report).
  Outcome before;
  Outcome after;
  bool repeats = false;  // the move recreated an earlier position (a draw, rule 3)
  // `after` is worse for the mover than `before`: a worse result, the same
  // win more slowly or the same loss sooner.
  bool mistake = false;
  // The first mistake of the game that changed the result's class (win to
  // draw or loss, draw to loss); at most one ply of a review.
  bool decisive = false;
  // Set for a mistake only (empty otherwise):
  std::vector<Move> best;  // the moves that keep `before`: the engine's choice, then best first
  std::vector<Move> refutation;           // the principal variation after the move played
  std::optional<GameEnd> refutation_end;  // how it ends (unset when cut at its bound)
  // The words after the refutation's moves in every front end: " (how it ends)",
  // " ... and the game is drawn" (a drawn line cut at its bound) or " ..." (cut).
  std::string refutation_close;
  std::string text;  // the mistake in one sentence
};

struct GameReview {
  GameRecord game;
  std::vector<ReviewedPly> plies;               // one per move, in order
  std::optional<std::size_t> first_decisive{};  // the decisive ply's number
  std::array<int, 2> mistakes{};                // by the mover's colour (index: Colour)
  // How the game stands after its last move: over (`end`), or the value of
  // the side to move under the game's history.
  std::optional<GameEnd> end;
  Outcome end_value;  // for the side to move (a draw after a repetition)
};

struct ReviewOptions {
  std::size_t max_refutation_plies = 40;
  // Polled once a ply of the game and of each refutation (throws Interrupted).
  Interrupt interrupt{};
};

// The review of `game` from its start (a bare position at ply 0, then the
// history of every position reached, as `fano query --moves` judges each
// prefix). Throws UnreachablePosition when no game reaches the start.
GameReview review_game(const Tablebase& tb, const GameRecord& game,
                       const ReviewOptions& options = {});

// "White to move; draw with best play", or the game-over text: the end in words.
std::string review_end_text(const GameReview& review);

}  // namespace fano
