// fano selfplay: seeded games between two players (analysis/players.hpp) and
// their statistics, as text, JSON or a row of results/selfplay.md.
#include <cstdio>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

#include "cli.hpp"
#include "commands.hpp"
#include "fano/analysis.hpp"
#include "fano/analysis_json.hpp"
#include "fano/notation.hpp"
#include "fano/selfplay.hpp"

namespace fano::cli {
namespace {

PlayerSpec player_from(const po::variables_map& vm, const std::string& option) {
  try {
    return parse_player(vm[option].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw UsageError("--" + option + ": " + e.what());
  }
}

std::string percent_text(const Proportion& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%llu (%.2f%%, 95%% interval %.2f..%.2f%%)",
                static_cast<unsigned long long>(p.count), 100 * p.rate, 100 * p.low, 100 * p.high);
  return buf;
}

void print_text(const SelfplayReport& r) {
  const SelfplayStats& s = r.stats;
  std::printf("%s\n", selfplay_command(r.variant, r.options).c_str());
  std::printf("White %s against Black %s, %zu games from %s (%s)\n",
              player_name(r.options.white).c_str(), player_name(r.options.black).c_str(), s.games,
              format_position(r.options.start).c_str(), variant_description(r.variant).c_str());
  std::printf("White wins:  %s\n", percent_text(s.white_wins).c_str());
  std::printf("draws:       %s\n", percent_text(s.draws).c_str());
  std::printf("Black wins:  %s\n", percent_text(s.black_wins).c_str());
  std::printf("White score: %.2f%% +- %.2f (draws counted half)\n", 100 * s.white_score,
              100 * s.white_score_half);
  std::printf("game length: mean %.2f, median %.1f, min %u, max %u plies\n", s.mean_plies,
              s.median_plies, s.min_plies, s.max_plies);
  std::printf("branching:   %.2f legal moves per position played from (%llu moves)\n",
              s.mean_branching, static_cast<unsigned long long>(s.moves));
  std::printf("game tree:   10^%.2f (mean over games of the product of the branching factors)\n",
              s.mean_log10_tree);
  std::printf("lost at once: %s of the moves formed a line (%llu avoidable)\n",
              percent_text(s.lost_at_once).c_str(),
              static_cast<unsigned long long>(s.avoidable_at_once));
  std::printf("ends:        %llu by a line, %llu by no legal move, %llu by repetition\n",
              static_cast<unsigned long long>(s.ends[0]),
              static_cast<unsigned long long>(s.ends[1]),
              static_cast<unsigned long long>(s.ends[2]));
  for (const Colour c : {Colour::kWhite, Colour::kBlack})
    if (s.mirrored[int(c)])
      std::printf("mirror (%s): %llu of %llu images were not legal (a random move instead)\n",
                  colour_name(c).c_str(), static_cast<unsigned long long>(s.fallbacks[int(c)]),
                  static_cast<unsigned long long>(s.mirrored[int(c)]));
}

// The levels offered to people, strongest first, one a line: rating,
// interval, label, spec and description.
void print_levels() {
  std::printf("The levels offered to people, strongest first (ratings: results/levels.md):\n");
  for (const PlayerLevel& p : player_levels())
    std::printf("%-13s %-10s rating %4d [%d, %d]  %s\n", std::string(p.label).c_str(),
                std::string(p.name).c_str(), p.rating, p.low, p.high,
                std::string(p.description).c_str());
}

}  // namespace

int cmd_selfplay(const Args& args) {
  po::options_description desc("options");
  add_variant_options(desc);
  add_table_options(desc);
  desc.add_options()("white", po::value<std::string>(),
                     "White's player (one of the players listed above)")(
      "black", po::value<std::string>(), "Black's player")(
      "games,n", po::value<long long>()->default_value(1000), "games to play (1..10000000)")(
      "seed", po::value<unsigned long long>()->default_value(1),
      "seed of the run: game i plays with a generator seeded from (seed, i)")(
      "from", po::value<std::string>(), "start position (default the empty board), no history")(
      "markdown", "print the run's row of results/selfplay.md")(
      "list-players",
      "list the levels offered to people (strongest first, with their measured ratings) and "
      "exit; with --json as GET /api/v2/players gives them");
  add_threads_option(desc);
  add_json_option(desc);
  const auto vm = parse(
      "selfplay",
      "--white PLAYER --black PLAYER [--games N] [--seed S] [--threads N] [--from POSITION] "
      "[--json | --markdown] [variant and table options]\n  fano selfplay --list-players [--json]",
      "Plays seeded games between two players and prints White's wins, draws and Black's wins "
      "with 95% Wilson intervals, the mean and median game length, the mean branching factor, "
      "the share of moves that lose at once (form a line) and mirror fallbacks. The output is "
      "the same for a seed at any thread count. Games end by the rules: a line, no legal move, "
      "or a repeated position (rule 3, a draw), so every game ends.\n\nPlayers:\n"
      "  random: a uniformly random legal move\n"
      "  greedy: random among the moves that do not lose at once (form no line), if any\n"
      "  search:K: depth-K minimax without the table (K = 1..8), random among the best\n"
      "  horizon:H: random among the best moves as seen H plies ahead (H = 1..99): wins and "
      "losses within H plies by the table, anything further looks like a draw\n"
      "  perfect: random among the moves of the best result by the table (rule 3 applies)\n"
      "  perfect:P: with probability P (0..1) a perfect move, else a uniformly random one\n"
      "  nonlosing: random among the moves that do not lose by the table, if any\n"
      "  engine: the play engine's choice (deterministic; see 'fano play --help')\n"
      "  keeping: the engine's rule before its trap model: the fewest replies keeping the "
      "opponent's result\n"
      "  cover: random among the moves onto the space of the opponent's last move, else "
      "any\n"
      "  mirror:MAP: the image of the opponent's last move under MAP, else random (first move: "
      "the centre); MAP is copy, reflect-x, reflect-y, half-turn, rotate-120, rotate-240, "
      "reflect-5 or reflect-3 (README.md)\n"
      "perfect, perfect:P, nonlosing, horizon:H, engine and keeping read the tablebase.\n\n"
      "The levels offered to people (the page's opponents, GET /api/v2/players) are some of "
      "these, each with a name a player understands and its rating measured by bench/levels.py "
      "(results/levels.md): 'fano selfplay --list-players' lists them.",
      desc, nullptr, args);
  if (!vm) return 0;
  if (vm->count("list-players")) {
    if (vm->count("white") || vm->count("black") || vm->count("markdown"))
      throw UsageError("--list-players takes no --white, --black or --markdown");
    if (vm->count("json"))
      print_json(player_levels_json());
    else
      print_levels();
    return 0;
  }
  if (!vm->count("white") || !vm->count("black"))
    throw UsageError("give --white PLAYER and --black PLAYER (or --list-players)");
  if (vm->count("json") && vm->count("markdown"))
    throw UsageError("give at most one of --json and --markdown");
  Variant variant = variant_from(*vm);
  SelfplayOptions options;
  options.white = player_from(*vm, "white");
  options.black = player_from(*vm, "black");
  const long long games = (*vm)["games"].as<long long>();
  if (games < 1 || games > 10000000)
    throw UsageError("--games must be 1..10000000, got " + std::to_string(games));
  options.games = std::size_t(games);
  options.seed = (*vm)["seed"].as<unsigned long long>();
  options.threads = threads_from(*vm);
  std::optional<Tablebase> tb;
  if (needs_table(options.white) || needs_table(options.black)) tb = open_table(*vm, variant);
  if (vm->count("from")) options.start = parse_position((*vm)["from"].as<std::string>(), variant);
  const Rules rules(variant);
  if (tb && !tb->probe(options.start)) throw UnreachablePosition(options.start);
  SelfplayReport report;
  try {
    report = run_selfplay(rules, tb ? &*tb : nullptr, options);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (vm->count("json"))
    print_json(selfplay_json(report));
  else if (vm->count("markdown"))
    std::cout << selfplay_markdown_header() << selfplay_markdown_row(report);
  else
    print_text(report);
  return 0;
}

}  // namespace fano::cli
