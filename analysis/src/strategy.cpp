#include "fano/strategy.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <stdexcept>
#include <unordered_map>

#include "fano/analysis.hpp"
#include "fano/history.hpp"
#include "fano/json.hpp"
#include "fano/notation.hpp"

namespace fano {
namespace {

// The depth-limited negamax of search_move_scores (players.cpp), with
// alpha-beta cut-offs: the same value whenever it lies inside (alpha, beta),
// a bound on the same side otherwise. `seen` holds the movement-phase
// positions of the game and of the search path (rule 3: a draw).
int alphabeta(const Rules& rules, std::vector<State>& seen, State st, int depth, int ply, int alpha,
              int beta) {
  if (formed_lines(rules, st)) return kSearchWin - ply;
  std::array<State, 64> children;
  std::size_t n = 0;
  for_each_move(rules, st, [&](const Move&, State child) {
    assert(n < children.size());
    children[n++] = child;
  });
  if (n == 0) return -(kSearchWin - ply);
  const bool movement = !rules.placement_phase(st);
  if (movement && std::find(seen.begin(), seen.end(), st) != seen.end()) return 0;
  if (depth == 0) return 0;
  if (movement) seen.push_back(st);
  int best = -2 * kSearchWin;
  for (std::size_t i = 0; i < n; ++i) {
    const int v = -alphabeta(rules, seen, children[i], depth - 1, ply + 1, -beta, -alpha);
    best = std::max(best, v);
    alpha = std::max(alpha, v);
    if (alpha >= beta) break;
  }
  if (movement) seen.pop_back();
  return best;
}

std::vector<Move> every_legal_move(const GameRecord& game) {
  return legal_moves(game.rules(), game.current());
}

// The table's value of `start` for `follower`.
Value target_value(const Tablebase& tb, const Rules& rules, State start, Colour follower) {
  const Outcome o = probe_or_unreachable(tb, rules, start);
  if (follower == start.to_move() || o.value == Value::kDraw) return o.value;
  return o.value == Value::kWin ? Value::kLoss : Value::kWin;
}

// The reached positions, numbered in breadth-first order (so in order of
// distance from the start), with the way each was first reached.
struct Reached {
  std::unordered_map<std::uint64_t, std::uint32_t> id;
  std::vector<State> state;
  std::vector<std::uint32_t> parent;
  std::vector<Move> move;
  std::vector<std::uint32_t> depth;

  std::uint32_t add(State s, std::uint32_t from, Move m, std::uint32_t d) {
    const auto [it, fresh] = id.emplace(s.code, std::uint32_t(state.size()));
    if (fresh) {
      state.push_back(s);
      parent.push_back(from);
      move.push_back(m);
      depth.push_back(d);
    }
    return it->second;
  }
  // The moves from the start to position `i`.
  std::vector<Move> line_to(std::uint32_t i) const {
    std::vector<Move> out;
    for (; i != 0; i = parent[i]) out.push_back(move[i]);
    std::reverse(out.begin(), out.end());
    return out;
  }
};

// The line replayed as a game: its end and whether the follower's moves stay
// allowed with the line's history.
StrategyRefutation replay(const Rules& rules, const StrategyRule& rule, State start,
                          Colour follower, const std::vector<Move>& moves, bool uncovered) {
  StrategyRefutation r;
  GameRecord game(rules, start);
  for (const Move& m : moves) {
    if (game.current().to_move() == follower) {
      const std::vector<Move> allowed = rule.allowed(game);
      if (std::find(allowed.begin(), allowed.end(), m) == allowed.end())
        r.allowed_with_history = false;
    }
    game.play(m);
  }
  r.moves = moves;
  r.positions.assign(game.positions().begin() + 1, game.positions().end());
  r.uncovered = uncovered;
  if (uncovered) return r;
  const auto end = game.end();
  if (!end) throw std::logic_error("strategy check: a refutation line that does not end");
  r.end = *end;
  return r;
}

// With a win to secure and no loss reachable: the shortest line that repeats
// a position, or nullopt when the reached graph (the rule's moves for the
// follower, every move for the opponent) has no cycle. `edges` are the
// reached positions' moves, by position, as ids.
std::optional<std::vector<Move>> shortest_repetition(
    const Reached& r, const std::vector<std::vector<std::pair<std::uint32_t, Move>>>& edges) {
  const std::size_t n = r.state.size();
  // Kahn's peeling from both ends leaves the positions on a cycle (and those
  // between two cycles); none left means no line can repeat.
  std::vector<std::uint32_t> in(n, 0), out(n, 0);
  std::vector<std::vector<std::uint32_t>> back(n);
  for (std::size_t u = 0; u < n; ++u)
    for (const auto& [v, m] : edges[u]) ++in[v], ++out[u], back[v].push_back(std::uint32_t(u));
  std::vector<bool> gone(n, false);
  std::vector<std::uint32_t> stack;
  for (std::size_t u = 0; u < n; ++u)
    if (in[u] == 0 || out[u] == 0) stack.push_back(std::uint32_t(u)), gone[u] = true;
  while (!stack.empty()) {
    const std::uint32_t u = stack.back();
    stack.pop_back();
    for (const auto& [v, m] : edges[u])
      if (!gone[v] && --in[v] == 0) gone[v] = true, stack.push_back(v);
    for (const std::uint32_t w : back[u])
      if (!gone[w] && --out[w] == 0) gone[w] = true, stack.push_back(w);
  }
  std::optional<std::vector<Move>> best;
  std::size_t best_len = SIZE_MAX;
  std::vector<std::uint32_t> dist(n, UINT32_MAX), via(n);
  std::vector<Move> via_move(n);
  std::vector<std::uint32_t> touched;
  // Ids are in order of distance: a position further than the best line's
  // length less the shortest cycle (4 plies: each side moves a piece and
  // back) cannot improve it.
  for (std::uint32_t y = 0; y < n; ++y) {
    if (gone[y]) continue;
    if (std::size_t(r.depth[y]) + 4 >= best_len) break;
    const std::size_t budget = best_len - r.depth[y];  // cycles shorter than this improve
    for (const std::uint32_t t : touched) dist[t] = UINT32_MAX;
    touched.clear();
    std::vector<std::uint32_t> frontier{y};
    dist[y] = 0;
    touched.push_back(y);
    std::optional<std::pair<std::uint32_t, Move>> closing;  // the move back to y
    for (std::uint32_t d = 0; !frontier.empty() && !closing && d + 1 < budget; ++d) {
      std::vector<std::uint32_t> next;
      for (const std::uint32_t u : frontier) {
        for (const auto& [v, m] : edges[u]) {
          if (gone[v]) continue;
          if (v == y) {
            closing = {u, m};
            break;
          }
          if (dist[v] != UINT32_MAX) continue;
          dist[v] = d + 1, via[v] = u, via_move[v] = m;
          touched.push_back(v);
          next.push_back(v);
        }
        if (closing) break;
      }
      frontier.swap(next);
    }
    if (!closing) continue;
    std::vector<Move> cycle{closing->second};
    for (std::uint32_t u = closing->first; u != y; u = via[u]) cycle.push_back(via_move[u]);
    std::reverse(cycle.begin(), cycle.end());
    std::vector<Move> line = r.line_to(y);
    line.insert(line.end(), cycle.begin(), cycle.end());
    best_len = line.size();
    best = std::move(line);
  }
  return best;
}

}  // namespace

void add_allowed(AllowedTable& table, const Rules& rules, State position,
                 const std::vector<Move>& moves) {
  const std::string where = format_position(position);
  if (game_end(rules, position))
    throw std::invalid_argument("the game is over in " + where + ": there is no move to allow");
  if (moves.empty()) throw std::invalid_argument("no move allowed in " + where);
  const std::vector<Move> legal = legal_moves(rules, position);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (std::find(legal.begin(), legal.end(), moves[i]) == legal.end())
      throw std::invalid_argument(format_move(moves[i]) + " is not a legal move in " + where);
    if (std::find(moves.begin(), moves.begin() + std::ptrdiff_t(i), moves[i]) !=
        moves.begin() + std::ptrdiff_t(i))
      throw std::invalid_argument(format_move(moves[i]) + " is given twice for " + where);
  }
  if (!table.moves.emplace(position.code, moves).second)
    throw std::invalid_argument(where + " is given twice");
}

namespace {

// A line's JSON object, its keys each given once: the parser alone would keep
// the last of two "position" keys and say nothing.
Json parse_allowed_object(std::string_view line) {
  std::vector<std::string> keys;
  const Json::parser_callback_t once = [&keys](int depth, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::key && depth == 1) {
      const std::string key = parsed.get<std::string>();
      if (std::find(keys.begin(), keys.end(), key) != keys.end())
        throw std::invalid_argument("the field " + quote(key) + " is given twice");
      keys.push_back(key);
    }
    return true;
  };
  try {
    return Json::parse(line, once);
  } catch (const Json::parse_error& e) {
    throw std::invalid_argument("not JSON (" +
                                (e.byte > line.size() ? std::string("it ends too soon")
                                                      : "at character " + std::to_string(e.byte)) +
                                ")");
  } catch (const Json::exception&) {
    throw std::invalid_argument("not JSON");
  }
}

// One line's position and moves added to the table.
void add_allowed_object(AllowedTable& table, const Rules& rules, std::string_view line) {
  // The parser reads a NUL as the end of its input: the bytes after one would
  // be dropped unseen.
  if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos)
    throw std::invalid_argument("a NUL byte at character " + std::to_string(nul + 1) +
                                " (a line is one JSON object and nothing else)");
  const Json j = parse_allowed_object(line);
  if (!j.is_object())
    throw std::invalid_argument(R"(not {"position": "...", "moves": ["...", ...]})");
  for (const auto& [key, value] : j.items())
    if (key != "position" && key != "moves")
      throw std::invalid_argument("unknown field " + quote(key) +
                                  R"( (the fields are "position" and "moves"))");
  if (!j.contains("position") || !j["position"].is_string())
    throw std::invalid_argument(R"(no "position": a position in notation, as a string)");
  if (!j.contains("moves") || !j["moves"].is_array())
    throw std::invalid_argument(R"(no "moves": a list of moves, e.g. ["C1", "T2"])");
  const State st = parse_position(j["position"].get<std::string>(), rules.variant);
  std::vector<Move> moves;
  for (const Json& m : j["moves"]) {
    if (!m.is_string()) throw std::invalid_argument("a move is not a string: " + quote(m.dump()));
    const std::string token = m.get<std::string>();
    if (game_end(rules, st))
      throw std::invalid_argument("the game is over in " + format_position(st) +
                                  ": there is no move to allow");
    moves.push_back(resolve_move(rules, st, parse_move_text(token), token));
  }
  add_allowed(table, rules, st, moves);
}

}  // namespace

AllowedLinesReader::AllowedLinesReader(const Variant& variant) : rules_(variant) {}

void AllowedLinesReader::add(std::string_view line) {
  ++lines_;
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
  try {
    add_allowed_object(table_, rules_, line);
  } catch (const std::exception& e) {
    throw std::invalid_argument("line " + std::to_string(lines_) + ": " + e.what());
  }
}

AllowedTable AllowedLinesReader::finish() && {
  if (table_.moves.empty())
    throw std::invalid_argument("no position in the file: it allows no move anywhere");
  return std::move(table_);
}

AllowedTable parse_allowed_lines(std::string_view text, const Variant& variant) {
  AllowedLinesReader reader(variant);
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    reader.add(text.substr(0, eol));
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
  }
  return std::move(reader).finish();
}

std::string allowed_line(State position, const std::vector<Move>& moves) {
  Json j = Json::array();
  for (const Move& m : moves) j.push_back(format_move(m));
  return Json{{"position", format_position(position)}, {"moves", std::move(j)}}.dump();
}

StrategyRule table_rule(const AllowedTable& table, std::string name) {
  StrategyRule rule{std::move(name), {}, true};
  rule.allowed = [&table](const GameRecord& g) {
    const auto it = table.moves.find(g.current().code);
    return it == table.moves.end() ? std::vector<Move>{} : it->second;
  };
  return rule;
}

std::vector<Move> search_allowed_moves(const GameRecord& game, int depth) {
  const Rules& rules = game.rules();
  std::vector<State> seen;
  for (const State s : game.positions())
    if (!rules.placement_phase(s)) seen.push_back(s);
  std::vector<Move> out;
  int best = -3 * kSearchWin;
  for_each_move(rules, game.current(), [&](const Move& m, State child) {
    // The child's value is needed exactly only when the move scores at least
    // the best so far: a window closed just above -best.
    const int score = -alphabeta(rules, seen, child, depth - 1, 1, -3 * kSearchWin, -best + 1);
    if (score > best) best = score, out.clear();
    if (score == best) out.push_back(m);
  });
  return out;
}

StrategyRule player_rule(const PlayerSpec& player, const Tablebase* tb) {
  if (needs_table(player) && !tb)
    throw std::invalid_argument(player_name(player) + " needs a tablebase");
  StrategyRule rule{player_name(player), {}};
  switch (player.kind) {
    case PlayerKind::kRandom:
      rule.allowed = every_legal_move;
      break;
    case PlayerKind::kGreedy:
      rule.allowed = [](const GameRecord& g) { return greedy_moves(g.rules(), g.current()); };
      break;
    case PlayerKind::kSearch:
      rule.allowed = [depth = player.depth](const GameRecord& g) {
        return search_allowed_moves(g, depth);
      };
      break;
    case PlayerKind::kPerfect:
      rule.allowed = [tb](const GameRecord& g) { return perfect_moves(*tb, g); };
      break;
    case PlayerKind::kPerfectP:
      if (player.probability == 1)
        rule.allowed = [tb](const GameRecord& g) { return perfect_moves(*tb, g); };
      else
        rule.allowed = every_legal_move;
      break;
    case PlayerKind::kHorizon:
      rule.allowed = [tb, horizon = player.depth](const GameRecord& g) {
        return horizon_moves(*tb, g, horizon);
      };
      break;
    case PlayerKind::kNonlosing:
      rule.allowed = [tb](const GameRecord& g) { return nonlosing_moves(*tb, g); };
      break;
    case PlayerKind::kEngine:
      rule.allowed = [tb](const GameRecord& g) { return std::vector<Move>{choose_move(*tb, g)}; };
      break;
    case PlayerKind::kKeeping:
      rule.allowed = [tb](const GameRecord& g) { return std::vector<Move>{keeping_move(*tb, g)}; };
      break;
    case PlayerKind::kCover:
    case PlayerKind::kMirror:
      throw std::invalid_argument(player_name(player) +
                                  " answers the opponent's last move: it is not a rule of the "
                                  "position alone, so it cannot be checked");
  }
  return rule;
}

StrategyCheck check_strategy(const Tablebase& tb, const StrategyRule& rule, State start,
                             Colour follower, const Interrupt& interrupt,
                             std::uint64_t max_positions) {
  const Rules rules(tb.variant());
  StrategyCheck out;
  out.variant = tb.variant();
  out.start = start;
  out.follower = follower;
  out.rule = rule.name;
  out.target = target_value(tb, rules, start, follower);
  if (out.target == Value::kLoss) return out;  // nothing can do worse
  const bool need_win = out.target == Value::kWin;

  Reached r;
  r.add(start, 0, Move{}, 0);
  std::vector<std::vector<std::pair<std::uint32_t, Move>>> edges;  // kept for a win only
  std::optional<std::uint32_t> lost;
  bool uncovered = false;  // `lost` is a position the partial rule does not cover
  // The follower has lost in `st`: she formed a line, or has no move.
  const auto follower_lost = [&](State st) {
    if (formed_lines(rules, st)) return opponent(st.to_move()) == follower;
    return st.to_move() == follower && !has_legal_move(rules, st);
  };
  if (follower_lost(start)) lost = 0;
  // Ids are handed out in breadth-first order, so scanning them in order is
  // the search itself. A loss is recognised as it is first reached: every
  // position reached before it is at most as far, and none was a loss, so
  // the first one is at the least distance and the rest of its layer need
  // not be expanded.
  for (std::uint32_t u = 0; u < r.state.size() && !lost; ++u) {
    if ((u & 4095) == 0) interrupt.poll();
    if (max_positions > 0 && r.state.size() > max_positions) {
      out.positions = r.state.size();
      out.holds = false;
      out.decided = false;
      return out;
    }
    const State st = r.state[u];
    if (need_win) edges.emplace_back();
    if (formed_lines(rules, st)) continue;  // the opponent lost (the follower's loss stops earlier)
    const std::vector<Move> legal = legal_moves(rules, st);
    if (legal.empty()) continue;
    std::vector<Move> moves = legal;
    if (st.to_move() == follower) {
      ++out.follower_positions;
      moves = rule.allowed(GameRecord(rules, st));
      // Positions are expanded in order of distance, and every loss up to
      // this distance was recognised when reached: this is a shortest failure.
      if (moves.empty() && rule.partial) {
        lost = u, uncovered = true;
        break;
      }
      if (moves.empty())
        throw std::invalid_argument("rule " + rule.name + " allows no move in " +
                                    format_position(st));
      for (const Move& m : moves)
        if (std::find(legal.begin(), legal.end(), m) == legal.end())
          throw std::invalid_argument("rule " + rule.name + " allows " + format_move(m) +
                                      ", not a legal move in " + format_position(st));
    }
    for (const Move& m : moves) {
      const std::size_t before = r.state.size();
      const State child = apply_move(st, m);
      const std::uint32_t v = r.add(child, u, m, r.depth[u] + 1);
      if (need_win) edges.back().emplace_back(v, m);
      if (r.state.size() > before && follower_lost(child)) {
        lost = v;
        break;
      }
    }
  }
  out.positions = r.state.size();
  std::optional<std::vector<Move>> line;
  if (lost)
    line = r.line_to(*lost);
  else if (need_win)
    line = shortest_repetition(r, edges);
  if (!line) return out;
  out.holds = false;
  out.refutation = replay(rules, rule, start, follower, *line, uncovered);
  return out;
}

LookaheadResult lookahead_needed(const Tablebase& tb, State start, Colour side, int max_depth,
                                 const Interrupt& interrupt, std::uint64_t max_positions) {
  LookaheadResult out;
  out.side = side;
  for (int k = 1; k <= max_depth; ++k) {
    const StrategyRule rule = player_rule(PlayerSpec{PlayerKind::kSearch, k}, nullptr);
    out.checks.push_back(check_strategy(tb, rule, start, side, interrupt, max_positions));
    out.target = out.checks.back().target;
    if (!out.checks.back().decided) break;
    if (out.checks.back().holds) {
      out.needed = k;
      break;
    }
  }
  return out;
}

DecisionStats decision_stats(const Tablebase& tb, const Interrupt& interrupt) {
  const Rules rules(tb.variant());
  DecisionStats out;
  for (std::size_t i = 0; i < tb.size(); ++i) {
    if ((i & 4095) == 0) interrupt.poll();
    const State st = tb.position_at(i);
    if (formed_lines(rules, st)) continue;
    const Outcome value = tb.outcome_at(i);
    std::uint64_t moves = 0, at_once = 0, keeping = 0;
    for_each_move(rules, st, [&](const Move&, State child) {
      ++moves;
      if (formed_lines(rules, child)) ++at_once;
      if (value.value != Value::kLoss &&
          outcome_for_mover(probe_reachable(tb, child)).value == value.value)
        ++keeping;
    });
    if (moves == 0) continue;
    const std::uint64_t weight = std::uint64_t(tb.symmetry().orbit_size(st));
    out.decisions += weight;
    out.moves += weight * moves;
    out.lose_at_once += weight * at_once;
    if (value.value != Value::kLoss) {
      out.to_keep += weight;
      if (keeping == 1) out.one_way += weight;
    }
  }
  return out;
}

TrapReport find_traps(const Tablebase& tb, int depth, std::size_t limit,
                      const Interrupt& interrupt) {
  const Rules rules(tb.variant());
  TrapReport out;
  out.depth = depth;
  std::vector<Trap> all;
  for (std::size_t i = 0; i < tb.size(); ++i) {
    if ((i & 1023) == 0) interrupt.poll();
    const State st = tb.position_at(i);
    const Outcome value = tb.outcome_at(i);
    if (value.value == Value::kLoss || formed_lines(rules, st) || !has_legal_move(rules, st))
      continue;
    const std::uint64_t weight = std::uint64_t(tb.symmetry().orbit_size(st));
    out.to_keep += weight;
    const std::vector<int> scores = search_move_scores(GameRecord(rules, st), depth);
    Trap t{st, value, {}, {}, 0, 0, 0};
    bool trapped = false;
    std::size_t m = 0;
    for_each_move(rules, st, [&](const Move& move, State child) {
      const Outcome result = outcome_for_mover(probe_reachable(tb, child));
      ++t.moves;
      t.keeping += result.value == value.value;
      if (scores[m++] < 0) return;
      ++t.looks_safe;
      if (result.value == Value::kLoss && (!trapped || result.plies > t.result.plies)) {
        t.move = move, t.result = result;
        trapped = true;
      }
    });
    if (!trapped) continue;
    out.traps += weight;
    all.push_back(t);
  }
  std::stable_sort(all.begin(), all.end(), [](const Trap& a, const Trap& b) {
    if (a.result.plies != b.result.plies) return a.result.plies > b.result.plies;
    if (a.keeping != b.keeping) return a.keeping < b.keeping;
    return a.looks_safe > b.looks_safe;
  });
  if (all.size() > limit) all.resize(limit);
  out.ranked = std::move(all);
  return out;
}

}  // namespace fano
