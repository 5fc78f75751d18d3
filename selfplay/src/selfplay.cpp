#include "fano/selfplay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "fano/notation.hpp"
#include "fano/parallel.hpp"
#include "fano/rules_options.hpp"

namespace fano {
namespace {

constexpr double kZ95 = 1.959963984540054;  // the 97.5% point of the standard normal

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", 100 * x);
  return buf;
}

std::string fixed(double x, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

// "41.20 [39.05, 43.38]" (percent, 95% interval).
std::string proportion_text(const Proportion& p) {
  return percent(p.rate) + " [" + percent(p.low) + ", " + percent(p.high) + "]";
}

Json proportion_json(const Proportion& p) {
  return Json{{"count", p.count}, {"rate", p.rate}, {"low", p.low}, {"high", p.high}};
}

}  // namespace

GameSummary summarise_game(const GameRecord& game) {
  GameSummary s;
  const auto end = game.end();
  if (!end) throw std::logic_error("summarise_game: the game is not over");
  s.end = end->reason;
  if (end->loser) s.winner = opponent(*end->loser);
  s.plies = std::uint32_t(game.plies());
  const Rules& rules = game.rules();
  for (std::size_t p = 0; p < game.plies(); ++p) {
    const std::size_t n = legal_moves(rules, game.positions()[p]).size();
    s.legal_moves += n;
    s.log10_tree += std::log10(double(n));
  }
  if (end->reason == EndReason::kLine && game.plies() > 0) {
    s.lost_at_once = 1;
    const State before = game.positions()[game.plies() - 1];
    bool other = false;
    for_each_move(rules, before,
                  [&](const Move&, State child) { other |= !formed_lines(rules, child); });
    s.avoidable_at_once = other;
  }
  return s;
}

GameRecord play_selfplay_game(const Rules& rules, const Tablebase* tb,
                              const SelfplayOptions& options, std::size_t index,
                              GameSummary* summary) {
  Rng rng = game_rng(options.seed, index);
  GameRecord game(rules, options.start);
  std::array<std::uint32_t, 2> mirrored{}, fallbacks{};
  while (!game.over()) {
    const Colour me = game.current().to_move();
    const PlayerSpec& player = me == Colour::kWhite ? options.white : options.black;
    const PlayerMove m = choose_player_move(player, tb, game, rng);
    mirrored[int(me)] += m.mirrored;
    fallbacks[int(me)] += m.fallback;
    game.play(m.move);
  }
  if (summary) {
    *summary = summarise_game(game);
    summary->mirrored = mirrored;
    summary->fallbacks = fallbacks;
  }
  return game;
}

Proportion wilson(std::uint64_t count, std::uint64_t total) {
  Proportion p{count, total, 0, 0, 0};
  if (total == 0) return p;
  const double n = double(total), r = double(count) / n, z2 = kZ95 * kZ95;
  const double centre = (r + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ95 / (1 + z2 / n) * std::sqrt(r * (1 - r) / n + z2 / (4 * n * n));
  p.rate = r;
  p.low = std::max(0.0, centre - half);
  p.high = std::min(1.0, centre + half);
  return p;
}

SelfplayStats selfplay_stats(const std::vector<GameSummary>& games) {
  SelfplayStats s;
  s.games = games.size();
  if (games.empty()) return s;
  std::uint64_t white = 0, black = 0, draws = 0, legal = 0, lost = 0;
  double log10_tree = 0;
  std::vector<std::uint32_t> plies;
  for (const GameSummary& g : games) {
    if (!g.winner)
      ++draws;
    else if (*g.winner == Colour::kWhite)
      ++white;
    else
      ++black;
    plies.push_back(g.plies);
    s.moves += g.plies;
    legal += g.legal_moves;
    log10_tree += g.log10_tree;
    lost += g.lost_at_once;
    s.avoidable_at_once += g.avoidable_at_once;
    ++s.ends[std::size_t(g.end)];
    for (int c = 0; c < 2; ++c) s.mirrored[c] += g.mirrored[c], s.fallbacks[c] += g.fallbacks[c];
  }
  const std::uint64_t n = games.size();
  s.white_wins = wilson(white, n);
  s.draws = wilson(draws, n);
  s.black_wins = wilson(black, n);
  s.white_score = (double(white) + 0.5 * double(draws)) / double(n);
  // Per-game scores 1, 1/2, 0: their variance, over n for the mean's.
  const double second = (double(white) + 0.25 * double(draws)) / double(n);
  const double var = std::max(0.0, second - s.white_score * s.white_score);
  s.white_score_half = kZ95 * std::sqrt(var / double(n));
  std::sort(plies.begin(), plies.end());
  s.min_plies = plies.front();
  s.max_plies = plies.back();
  s.mean_plies = double(s.moves) / double(n);
  s.median_plies = n % 2 ? plies[n / 2] : (double(plies[n / 2 - 1]) + double(plies[n / 2])) / 2;
  s.mean_branching = s.moves ? double(legal) / double(s.moves) : 0;
  s.mean_log10_tree = log10_tree / double(n);
  s.lost_at_once = wilson(lost, s.moves);
  return s;
}

SelfplayReport run_selfplay(const Rules& rules, const Tablebase* tb,
                            const SelfplayOptions& options) {
  for (const PlayerSpec* p : {&options.white, &options.black})
    if (needs_table(*p) && !tb)
      throw std::invalid_argument("player " + player_name(*p) + " needs a tablebase");
  if (const auto end = game_end(rules, options.start))
    throw std::invalid_argument("the game is already over in the start position " +
                                format_position(options.start) + " (" +
                                describe_end(*end, options.start) + ")");
  SelfplayReport r{rules.variant, options, std::vector<GameSummary>(options.games), {}};
  const auto body = [&] {
    par::parallel_for(par::blocked_range<std::size_t>(0, options.games, 1),
                      [&](const par::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i != range.end(); ++i)
                          play_selfplay_game(rules, tb, options, i, &r.games[i]);
                      });
  };
  if (options.threads > 0)
    par::task_arena(options.threads).execute(body);
  else
    body();
  r.stats = selfplay_stats(r.games);
  return r;
}

std::string selfplay_command(const Variant& variant, const SelfplayOptions& o) {
  std::string cmd = "fano selfplay --white " + player_name(o.white) + " --black " +
                    player_name(o.black) + " --games " + std::to_string(o.games) + " --seed " +
                    std::to_string(o.seed);
  if (!(o.start == kEmptyBoard)) cmd += " --from '" + format_position(o.start) + "'";
  if (!variant.rulebook_material_and_lines()) {
    cmd += " --rules " + variant_slug(variant);
    return cmd;
  }
  // One flag per option that differs from the rulebook's game, spelled as
  // the command reads it (fano/rules_options.hpp).
  for (const RulesOption& option : rules_options())
    if (const int code = option.get(variant); code != option.default_code)
      cmd += " --" + std::string(option.flag) + " " + std::string(option.text_of(code));
  return cmd;
}

Json selfplay_json(const SelfplayReport& r) {
  const SelfplayStats& s = r.stats;
  Json mirror = Json::object();
  for (const Colour c : {Colour::kWhite, Colour::kBlack})
    mirror[colour_name(c)] = {{"moves", s.mirrored[int(c)]}, {"fallbacks", s.fallbacks[int(c)]}};
  return Json{
      {"variant", variant_json(r.variant)},
      {"white", player_name(r.options.white)},
      {"black", player_name(r.options.black)},
      {"games", s.games},
      {"seed", r.options.seed},
      {"from", format_position(r.options.start)},
      {"command", selfplay_command(r.variant, r.options)},
      {"white_wins", proportion_json(s.white_wins)},
      {"draws", proportion_json(s.draws)},
      {"black_wins", proportion_json(s.black_wins)},
      {"white_score", s.white_score},
      {"white_score_half", s.white_score_half},
      {"plies",
       {{"mean", s.mean_plies},
        {"median", s.median_plies},
        {"min", s.min_plies},
        {"max", s.max_plies}}},
      {"moves", s.moves},
      {"branching", s.mean_branching},
      {"log10_tree", s.mean_log10_tree},
      {"lost_at_once", proportion_json(s.lost_at_once)},
      {"avoidable_at_once", s.avoidable_at_once},
      {"ends", {{"line", s.ends[0]}, {"no_move", s.ends[1]}, {"repetition", s.ends[2]}}},
      {"mirror", std::move(mirror)},
  };
}

std::string selfplay_markdown_header() {
  return "| White | Black | games | White wins % | draws % | Black wins % | White score % | "
         "plies: mean / median | branching | log10 tree | lost at once % of moves | mirror "
         "fallbacks | "
         "command |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
}

std::string selfplay_markdown_row(const SelfplayReport& r) {
  const SelfplayStats& s = r.stats;
  std::string fallbacks;
  for (const Colour c : {Colour::kWhite, Colour::kBlack})
    if (s.mirrored[int(c)])
      fallbacks += (fallbacks.empty() ? "" : "; ") + std::to_string(s.fallbacks[int(c)]) + " of " +
                   std::to_string(s.mirrored[int(c)]);
  if (fallbacks.empty()) fallbacks = "-";
  return "| " + player_name(r.options.white) + " | " + player_name(r.options.black) + " | " +
         std::to_string(s.games) + " | " + proportion_text(s.white_wins) + " | " +
         proportion_text(s.draws) + " | " + proportion_text(s.black_wins) + " | " +
         percent(s.white_score) + " ± " + percent(s.white_score_half) + " | " +
         fixed(s.mean_plies, 2) + " / " + fixed(s.median_plies, 1) + " | " +
         fixed(s.mean_branching, 2) + " | " + fixed(s.mean_log10_tree, 2) + " | " +
         percent(s.lost_at_once.rate) + " | " + fallbacks + " | `" +
         selfplay_command(r.variant, r.options) + "` |\n";
}

}  // namespace fano
