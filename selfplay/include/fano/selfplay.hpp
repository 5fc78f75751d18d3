// Self-play runs (`fano selfplay`): many seeded games between two players
// (players.hpp), played in parallel and summarised in game order, so that a
// run's report is the same for any thread count.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fano/game.hpp"
#include "fano/json.hpp"
#include "fano/players.hpp"
#include "fano/tablebase.hpp"

namespace fano {

struct SelfplayOptions {
  PlayerSpec white, black;
  std::size_t games = 1000;
  std::uint64_t seed = 1;
  int threads = 0;            // 0: all cores
  State start = kEmptyBoard;  // a bare position (no history); the game must not be over
};

// One game, summarised.
struct GameSummary {
  std::optional<Colour> winner;  // nullopt for a draw (rule 3)
  EndReason end = EndReason::kRepetition;
  std::uint32_t plies = 0;
  std::uint64_t legal_moves = 0;  // summed over the positions in which a move was made
  double log10_tree = 0;  // sum of log10(legal moves) over those positions: the game's share
                          // of a game-tree size estimate (the product of its branching factors)
  std::uint32_t lost_at_once = 0;           // moves that formed a line (0 or 1: that ends the game)
  std::uint32_t avoidable_at_once = 0;      // of those, moves made while another formed no line
  std::array<std::uint32_t, 2> mirrored{};  // by colour: mirroring moves due
  std::array<std::uint32_t, 2> fallbacks{};  // by colour: of those, images that were not legal
};

// The summary of a finished game (`game` over); counts computed from the record.
// `mirrored`/`fallbacks` are not in the record and are taken as given.
GameSummary summarise_game(const GameRecord& game);

// Plays game `index` of a run to its end (rules 1-3: a finite game graph, so
// repetition ends every game). Requires a table for perfect and engine players.
GameRecord play_selfplay_game(const Rules& rules, const Tablebase* tb,
                              const SelfplayOptions& options, std::size_t index,
                              GameSummary* summary = nullptr);

// A proportion with its 95% Wilson score interval.
struct Proportion {
  std::uint64_t count = 0, total = 0;
  double rate = 0, low = 0, high = 0;
};
Proportion wilson(std::uint64_t count, std::uint64_t total);

struct SelfplayStats {
  std::size_t games = 0;
  Proportion white_wins, draws, black_wins;  // White's wins are Black's losses
  double white_score = 0;                    // (wins + draws / 2) / games, Ai Ai's "White win %"
  double white_score_half = 0;  // half-width of its 95% interval (normal approximation)
  double mean_plies = 0, median_plies = 0;
  std::uint32_t min_plies = 0, max_plies = 0;
  std::uint64_t moves = 0;     // plies played in all games
  double mean_branching = 0;   // legal moves per position in which a move was made
  double mean_log10_tree = 0;  // mean over games of log10(product of the branching factors)
  Proportion lost_at_once;     // moves that formed a line, of all moves
  std::uint64_t avoidable_at_once = 0;
  std::array<std::uint64_t, 3> ends{};                   // by EndReason: line, no move, repetition
  std::array<std::uint64_t, 2> mirrored{}, fallbacks{};  // by colour
};
SelfplayStats selfplay_stats(const std::vector<GameSummary>& games);

struct SelfplayReport {
  Variant variant;
  SelfplayOptions options;
  std::vector<GameSummary> games;  // in game order
  SelfplayStats stats;
};

// Plays options.games games (game i with game_rng(seed, i)) in parallel and
// summarises them in game order. Throws std::invalid_argument when the start
// position's game is already over or a player needs a missing table.
SelfplayReport run_selfplay(const Rules& rules, const Tablebase* tb,
                            const SelfplayOptions& options);

// The command that reproduces a run: "fano selfplay --white W --black B
// --games N --seed S" (with --from and the variant options when not the default).
std::string selfplay_command(const Variant& variant, const SelfplayOptions& options);

// {"variant", "white", "black", "games", "seed", "from", "command", "white_wins": {count,
//  rate, low, high}, "draws", "black_wins", "white_score", "white_score_half", "plies":
//  {mean, median, min, max}, "moves", "branching", "log10_tree", "lost_at_once",
//  "avoidable_at_once", "ends": {line, no_move, repetition}, "mirror": {white, black: {moves,
//  fallbacks}}}.
Json selfplay_json(const SelfplayReport& report);

// The results table (results/selfplay.md): the header (two lines) and a run's row.
std::string selfplay_markdown_header();
std::string selfplay_markdown_row(const SelfplayReport& report);

}  // namespace fano
