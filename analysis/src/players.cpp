#include "fano/players.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "fano/analysis.hpp"
#include "fano/geometry.hpp"
#include "fano/notation.hpp"

namespace fano {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The maps' images of the spaces (0-based, -1 off the board), from the printed
// board's geometry (MirrorMap lists the maps in PlaneMap's order).
const std::array<std::array<int, kSpaces>, kPlaneMaps>& map_images() {
  static const auto images = [] {
    std::array<std::array<int, kSpaces>, kPlaneMaps> out{};
    for (int m = 0; m < kPlaneMaps; ++m) {
      const auto img = space_images(PlaneMap(m));
      for (int s = 0; s < kSpaces; ++s) out[m][s] = img[s].value_or(-1);
    }
    return out;
  }();
  return images;
}

constexpr std::array<std::string_view, 8> kMapNames{"copy",      "reflect-x",  "reflect-y",
                                                    "half-turn", "rotate-120", "rotate-240",
                                                    "reflect-5", "reflect-3"};

// The shortest decimal (at most 17 significant digits) that strtod reads back as x.
std::string shortest_decimal(double x) {
  char buf[32];
  for (int digits = 1;; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (digits >= 17 || std::strtod(buf, nullptr) == x) return buf;
  }
}

template <class T>
const T& pick(const std::vector<T>& items, Rng& rng) {
  return items[std::size_t(rng.below(items.size()))];
}

// Negamax of `st` for its side to move (see search_move_scores). `seen` holds
// the game's earlier positions and the search path, movement phase only (no
// placement-phase position can occur twice).
int negamax(const Rules& rules, std::vector<State>& seen, State st, int depth, int ply) {
  if (formed_lines(rules, st)) return kSearchWin - ply;
  if (!has_legal_move(rules, st)) return -(kSearchWin - ply);
  if (!rules.placement_phase(st) && std::find(seen.begin(), seen.end(), st) != seen.end()) return 0;
  if (depth == 0) return 0;
  const bool movement = !rules.placement_phase(st);
  if (movement) seen.push_back(st);
  int best = -2 * kSearchWin;
  for_each_move(rules, st, [&](const Move&, State child) {
    best = std::max(best, -negamax(rules, seen, child, depth - 1, ply + 1));
  });
  if (movement) seen.pop_back();
  return best;
}

}  // namespace

std::uint64_t Rng::next() {
  const std::uint64_t out = splitmix64(state_);
  state_ += 0x9e3779b97f4a7c15ull;
  return out;
}

std::uint64_t Rng::below(std::uint64_t n) {
  // Rejects the lowest 2^64 mod n values, so that the remainder is unbiased.
  const std::uint64_t threshold = (0 - n) % n;
  std::uint64_t x = next();
  while (x < threshold) x = next();
  return x % n;
}

Rng game_rng(std::uint64_t seed, std::uint64_t index) {
  return Rng(splitmix64(splitmix64(seed) ^ index));
}

std::string_view mirror_map_name(MirrorMap map) { return kMapNames[std::size_t(map)]; }

int mirror_image(MirrorMap map, int space) { return map_images()[std::size_t(map)][space]; }

PlayerSpec parse_player(std::string_view text) {
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("player " + quote(text) + ": " + why);
  };
  if (text == "random") return {PlayerKind::kRandom};
  if (text == "greedy") return {PlayerKind::kGreedy};
  if (text == "perfect") return {PlayerKind::kPerfect};
  if (text == "engine") return {PlayerKind::kEngine};
  if (text == "keeping") return {PlayerKind::kKeeping};
  if (text == "cover") return {PlayerKind::kCover};
  if (text == "nonlosing") return {PlayerKind::kNonlosing};
  if (text.starts_with("perfect:")) {
    // One grammar, plain decimals: 0 or 1, or either with a point and 1 to 4
    // digits. No sign, exponent, hex, nan or inf (strtod's other forms), so
    // every P is read exactly as written and player_name echoes it back in a
    // form this reads (no 1e-400 shown as perfect:0).
    const std::string_view p_text = text.substr(8);
    const std::size_t point = p_text.find('.');
    const std::string_view whole = p_text.substr(0, point);
    const std::string_view fraction =
        point == std::string_view::npos ? std::string_view() : p_text.substr(point + 1);
    const auto digits = [](std::string_view d) {
      return d.find_first_not_of("0123456789") == std::string_view::npos;
    };
    const bool decimal = (whole == "0" || whole == "1") && digits(fraction) &&
                         (point == std::string_view::npos || !fraction.empty()) &&
                         fraction.size() <= 4;
    // strtod, not from_chars: WebAssembly's libc++ has no floating-point from_chars.
    const double p = decimal ? std::strtod(std::string(p_text).c_str(), nullptr) : -1;
    if (!decimal || p > 1)
      fail(
          "P of perfect:P must be a decimal from 0 to 1 with at most 4 digits after the point "
          "(0, 0.5, 0.125, 1)");
    PlayerSpec spec{PlayerKind::kPerfectP};
    spec.probability = p;
    return spec;
  }
  if (text.starts_with("search:")) {
    const std::string_view k = text.substr(7);
    int depth = 0;
    const auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), depth);
    if (k.empty() || ec != std::errc() || end != k.data() + k.size() || depth < 1 ||
        depth > kMaxSearchDepth)
      fail("the depth K of search:K must be 1.." + std::to_string(kMaxSearchDepth));
    return {PlayerKind::kSearch, depth};
  }
  if (text.starts_with("mirror:")) {
    const std::string_view name = text.substr(7);
    for (const MirrorMap m : kAllMirrorMaps)
      if (name == mirror_map_name(m)) return {PlayerKind::kMirror, 0, m};
    std::string maps;
    for (const MirrorMap m : kAllMirrorMaps)
      maps += (maps.empty() ? "" : ", ") + std::string(mirror_map_name(m));
    fail("unknown map (one of " + maps + ")");
  }
  fail(
      "unknown player (random, greedy, search:K, perfect, perfect:P, nonlosing, engine, keeping, "
      "cover or mirror:MAP)");
  return {};
}

std::string player_name(const PlayerSpec& p) {
  switch (p.kind) {
    case PlayerKind::kRandom:
      return "random";
    case PlayerKind::kGreedy:
      return "greedy";
    case PlayerKind::kSearch:
      return "search:" + std::to_string(p.depth);
    case PlayerKind::kPerfect:
      return "perfect";
    case PlayerKind::kEngine:
      return "engine";
    case PlayerKind::kKeeping:
      return "keeping";
    case PlayerKind::kCover:
      return "cover";
    case PlayerKind::kMirror:
      return "mirror:" + std::string(mirror_map_name(p.map));
    case PlayerKind::kNonlosing:
      return "nonlosing";
    case PlayerKind::kPerfectP:
      return "perfect:" + shortest_decimal(p.probability);
  }
  return "?";
}

std::span<const PlayerLevel> player_levels() {
  // The search depths the HTTP API allows (it refuses deeper ones: seconds in a browser).
  static constexpr PlayerLevel kLevels[] = {
      {"engine", "engine: perfect, sets traps"},
      {"perfect", "perfect (any best move)"},
      {"perfect:0.8", "perfect 80% of moves"},
      {"nonlosing", "random non-losing"},
      {"perfect:0.5", "perfect 50% of moves"},
      {"search:3", "search 3 plies"},
      {"search:2", "search 2 plies"},
      {"search:1", "search 1 ply"},
      {"greedy", "greedy (avoids forming a line)"},
      {"random", "random"},
  };
  return kLevels;
}

bool needs_table(const PlayerSpec& p) {
  return p.kind == PlayerKind::kPerfect || p.kind == PlayerKind::kEngine ||
         p.kind == PlayerKind::kKeeping || p.kind == PlayerKind::kNonlosing ||
         p.kind == PlayerKind::kPerfectP;
}

std::vector<Move> greedy_moves(const Rules& rules, State st) {
  std::vector<Move> safe, all;
  for_each_move(rules, st, [&](const Move& m, State child) {
    all.push_back(m);
    if (!formed_lines(rules, child)) safe.push_back(m);
  });
  return safe.empty() ? all : safe;
}

std::vector<int> search_move_scores(const GameRecord& game, int depth) {
  const Rules& rules = game.rules();
  std::vector<State> seen;
  for (const State s : game.positions())
    if (!rules.placement_phase(s)) seen.push_back(s);
  std::vector<int> scores;
  for_each_move(rules, game.current(), [&](const Move&, State child) {
    scores.push_back(-negamax(rules, seen, child, depth - 1, 1));
  });
  return scores;
}

std::vector<Move> search_best_moves(const GameRecord& game, int depth) {
  const std::vector<Move> moves = legal_moves(game.rules(), game.current());
  const std::vector<int> scores = search_move_scores(game, depth);
  const int best = *std::max_element(scores.begin(), scores.end());
  std::vector<Move> out;
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (scores[i] == best) out.push_back(moves[i]);
  return out;
}

std::vector<Move> perfect_moves(const Tablebase& tb, const GameRecord& game) {
  const std::vector<RatedMove> rated = rate_moves(tb, game);
  std::vector<Move> out;
  for (const RatedMove& r : rated)
    if (r.result == rated.front().result) out.push_back(r.move);
  // Back into the rules' move order, so that the choice does not depend on the sort.
  const std::vector<Move> order = legal_moves(game.rules(), game.current());
  std::vector<Move> sorted;
  for (const Move& m : order)
    if (std::find(out.begin(), out.end(), m) != out.end()) sorted.push_back(m);
  return sorted;
}

std::vector<Move> nonlosing_moves(const Tablebase& tb, const GameRecord& game) {
  const std::vector<RatedMove> rated = rate_moves(tb, game);
  std::vector<Move> keep;
  for (const Move& m : legal_moves(game.rules(), game.current())) {
    const auto r =
        std::find_if(rated.begin(), rated.end(), [&](const RatedMove& x) { return x.move == m; });
    if (r != rated.end() && r->result.value != Value::kLoss) keep.push_back(m);
  }
  return keep.empty() ? legal_moves(game.rules(), game.current()) : keep;
}

Move keeping_move(const Tablebase& tb, const GameRecord& game) {
  const std::vector<RatedMove> rated = rate_moves(tb, game);
  std::size_t best = 0;
  int best_keeping = -1;
  for (std::size_t i = 0; i < rated.size() && rated[i].result == rated[0].result; ++i) {
    const int k = rated[i].repeats ? 0 : keeping_replies(tb, game.rules(), rated[i].child);
    if (best_keeping < 0 || k < best_keeping) best = i, best_keeping = k;
  }
  return rated[best].move;
}

std::vector<Move> cover_moves(const GameRecord& game) {
  std::vector<Move> all = legal_moves(game.rules(), game.current());
  if (game.plies() == 0) return all;
  const int target = game.moves().back().to;
  std::vector<Move> out;
  for (const Move& m : all)
    if (m.to == target) out.push_back(m);
  return out.empty() ? all : out;
}

std::optional<Move> mirror_move(MirrorMap map, const GameRecord& game) {
  if (game.plies() == 0) return std::nullopt;
  const Move last = game.moves().back();
  const int to = mirror_image(map, last.to);
  const int from = last.is_placement() ? Move::kFromSupply : mirror_image(map, last.from);
  if (to < 0 || (!last.is_placement() && from < 0)) return std::nullopt;
  const State st = game.current();
  for (const Move& m : legal_moves(game.rules(), st))
    if (m.to == to && m.from == from &&
        (!last.is_placement() || shape_of(m.piece) == shape_of(last.piece)))
      return m;
  return std::nullopt;
}

std::vector<Move> mirror_moves(MirrorMap map, const GameRecord& game, bool& mirrored,
                               bool& fallback) {
  std::vector<Move> all = legal_moves(game.rules(), game.current());
  mirrored = game.plies() > 0;
  fallback = false;
  if (!mirrored) {
    std::vector<Move> centre;
    for (const Move& m : all)
      if (m.to == kSpaces - 1) centre.push_back(m);
    return centre.empty() ? all : centre;
  }
  if (const auto m = mirror_move(map, game)) return {*m};
  fallback = true;
  return all;
}

PlayerMove choose_player_move(const PlayerSpec& p, const Tablebase* tb, const GameRecord& game,
                              Rng& rng) {
  const Rules& rules = game.rules();
  const State st = game.current();
  if (needs_table(p) && !tb) throw std::invalid_argument(player_name(p) + " needs a tablebase");
  PlayerMove out;
  switch (p.kind) {
    case PlayerKind::kRandom:
      out.move = pick(legal_moves(rules, st), rng);
      break;
    case PlayerKind::kGreedy:
      out.move = pick(greedy_moves(rules, st), rng);
      break;
    case PlayerKind::kSearch:
      out.move = pick(search_best_moves(game, p.depth), rng);
      break;
    case PlayerKind::kPerfect:
      out.move = pick(perfect_moves(*tb, game), rng);
      break;
    case PlayerKind::kEngine:
      out.move = choose_move(*tb, game);
      break;
    case PlayerKind::kKeeping:
      out.move = keeping_move(*tb, game);
      break;
    case PlayerKind::kCover:
      out.move = pick(cover_moves(game), rng);
      break;
    case PlayerKind::kMirror:
      out.move = pick(mirror_moves(p.map, game, out.mirrored, out.fallback), rng);
      break;
    case PlayerKind::kNonlosing:
      out.move = pick(nonlosing_moves(*tb, game), rng);
      break;
    case PlayerKind::kPerfectP: {
      // A draw in [0, 1) in steps of 2^-53: the same on every platform.
      const double u = double(rng.next() >> 11) / double(std::uint64_t(1) << 53);
      out.move = u < p.probability ? pick(perfect_moves(*tb, game), rng)
                                   : pick(legal_moves(rules, st), rng);
      break;
    }
  }
  return out;
}

}  // namespace fano
