// Grading a player against perfect play (see fano/grade.hpp).
#include "fano/grade.hpp"

#include <stdexcept>
#include <string>

#include "fano/analysis.hpp"
#include "fano/notation.hpp"

namespace fano {
namespace {

// The same fields as selfplay's proportions, with the total.
Json proportion_json(const Proportion& p) {
  return Json{
      {"count", p.count}, {"total", p.total}, {"rate", p.rate}, {"low", p.low}, {"high", p.high}};
}

Colour graded_colour(GradeSide side, std::size_t game) {
  switch (side) {
    case GradeSide::kWhite:
      return Colour::kWhite;
    case GradeSide::kBlack:
      return Colour::kBlack;
    case GradeSide::kBoth:
      break;
  }
  return game % 2 == 0 ? Colour::kWhite : Colour::kBlack;
}

}  // namespace

std::string_view grade_side_name(GradeSide side) {
  switch (side) {
    case GradeSide::kWhite:
      return "white";
    case GradeSide::kBlack:
      return "black";
    case GradeSide::kBoth:
      break;
  }
  return "both";
}

GradeReport grade_player(const Rules& rules, const Tablebase& tb, const GradedPlayer& player,
                         const GradeOptions& options) {
  if (game_end(rules, options.start))
    throw std::invalid_argument("the game is already over in the start position");
  GradeReport r;
  r.variant = tb.variant();
  r.options = options;
  r.player = player.spec ? player_name(*player.spec) : player.name;
  std::uint64_t wins = 0, draws = 0, losses = 0, kept = 0;
  for (std::size_t i = 0; i < options.games; ++i) {
    Rng rng = game_rng(options.seed, i);
    GameRecord game(rules, options.start);
    const Colour me = graded_colour(options.side, i);
    while (!game.over()) {
      const State st = game.current();
      if (st.to_move() != me) {
        game.play(choose_player_move(options.opponent, &tb, game, rng).move);
        continue;
      }
      // The graded move, judged among every legal move under the history.
      const Move move =
          player.spec ? choose_player_move(*player.spec, &tb, game, rng).move : player.choose(game);
      const std::vector<RatedMove> rated = rate_moves(tb, game);
      const RatedMove* chosen = nullptr;
      for (const RatedMove& m : rated)
        if (m.move == move) chosen = &m;
      if (!chosen)
        throw std::invalid_argument("game " + std::to_string(i) + ", ply " +
                                    std::to_string(game.plies()) + ": the player's move " +
                                    format_move(move) + " is not legal in " + format_position(st));
      const Outcome before = rated.front().result, after = chosen->result;
      const int phase = rules.placement_phase(st) ? 0 : 1;
      ++r.moves[phase];
      if (before.value == Value::kWin) {
        ++r.winning_moves;
        r.missed_wins += after.value != Value::kWin;
      }
      if (after.value == before.value) {
        ++kept;
      } else {
        ++r.blunders[phase];
        if (r.blunder_list.size() < options.max_blunders)
          r.blunder_list.push_back({i, game.plies(), st, game.move_list(), move, before, after});
      }
      game.play(move);
    }
    const auto end = game.end();
    std::optional<Colour> winner;
    if (end && end->loser) winner = opponent(*end->loser);
    r.winners.push_back(winner);
    r.colours.push_back(me);
    if (!winner)
      ++draws;
    else if (*winner == me)
      ++wins;
    else
      ++losses;
  }
  const std::uint64_t n = options.games;
  r.wins = wilson(wins, n);
  r.draws = wilson(draws, n);
  r.losses = wilson(losses, n);
  r.score = n ? (double(wins) + double(draws) / 2) / double(n) : 0;
  r.kept = wilson(kept, r.moves[0] + r.moves[1]);
  return r;
}

Json grade_json(const GradeReport& r) {
  Json blunders = Json::array();
  for (const Blunder& b : r.blunder_list)
    blunders.push_back({{"game", b.game},
                        {"ply", b.ply},
                        {"position", format_position(b.position)},
                        {"moves", b.moves},
                        {"move", format_move(b.move)},
                        {"value", value_name(b.before.value)},
                        {"plies", plies_json(b.before)},
                        {"result", value_name(b.after.value)},
                        {"result_plies", plies_json(b.after)}});
  Json games = Json::array();
  for (std::size_t i = 0; i < r.winners.size(); ++i) {
    const auto& w = r.winners[i];
    games.push_back({{"colour", colour_name(r.colours[i])},
                     {"result", !w                   ? "draw"
                                : *w == r.colours[i] ? "win"
                                                     : "loss"}});
  }
  return Json{
      {"variant", variant_slug(r.variant)},
      {"player", r.player},
      {"opponent", player_name(r.options.opponent)},
      {"side", grade_side_name(r.options.side)},
      {"games", r.options.games},
      {"seed", r.options.seed},
      {"results",
       {{"wins", proportion_json(r.wins)},
        {"draws", proportion_json(r.draws)},
        {"losses", proportion_json(r.losses)},
        {"score", r.score}}},
      {"moves",
       {{"total", r.moves[0] + r.moves[1]}, {"placement", r.moves[0]}, {"movement", r.moves[1]}}},
      {"kept", proportion_json(r.kept)},
      {"blunders",
       {{"total", r.blunders[0] + r.blunders[1]},
        {"placement", r.blunders[0]},
        {"movement", r.blunders[1]}}},
      {"missed_wins", {{"count", r.missed_wins}, {"of", r.winning_moves}}},
      {"blunder_positions", std::move(blunders)},
      {"games_list", std::move(games)}};
}

}  // namespace fano
