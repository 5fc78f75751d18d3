// JSON of the analysis reports: what `fano query --json`, the HTTP API and the
// Python module return (one serialisation, used by all of them).
#pragma once

#include "fano/analysis.hpp"
#include "fano/json.hpp"
#include "fano/players.hpp"
#include "fano/puzzles.hpp"
#include "fano/review.hpp"
#include "fano/stats.hpp"
#include "fano/strategy.hpp"
#include "fano/strategy_size.hpp"

namespace fano {

// {"position", "to_move", "value", "plies", "table_value", "table_plies",
//  "game_over": null | {reason, line, loser, text}, "moves": [rated_move_json...]
//  best first, "engine_move", "pv": [moves], "pv_end": null | {reason, line,
//  loser, text}, "pv_continues_drawn", "history_note"}.
// Results are for the player making the move; value and plies for the side to move.
Json report_json(const PositionReport& report);

// An engine game (`fano play --engine-vs-engine --json`): {"variant", "start",
//  "moves": [{"ply", "move", "mover", "result", "plies", "position"}...] (the
//  engine's moves; result and plies for the mover), "move_list" (every move,
//  the given ones first), "end": null (stopped at --max-plies) | {reason, line,
//  loser, text}, "winner": "white" | "black" | null}.
Json engine_game_json(const EngineGame& game);

// One rated move: {"move", "from": 1..7 | null (a placement), "to": 1..7,
// "shape": "circle" | "triangle" (a placement) | null, "position", "result",
// "plies", "repeats", "trap": {"errors", "choices"} | null}. The trap is the
// move's RatedMove::trap: analyse() sets it for a drawing move that does not
// repeat, so in a report it is null exactly for the other moves.
Json rated_move_json(const RatedMove& m);

// The principal variation of a report as move objects: {"position",
// "to_move", "value", "plies", "mainline": [{"move", "position", "result",
// "plies"}...], "end": null (cut at its bound) | {reason, line, loser, text},
// "winner"}. Each move's result is for its mover, as everywhere: along best
// play the first mover's result is the report's value and each next one the
// previous seen from the other side one ply later (a draw stays a draw).
// The HTTP API's v2 /mainline and Python's mainline() return it.
Json principal_variation_json(const PositionReport& report);

// The review of a game (`fano review --json`, the HTTP API's review route,
// Python's review()): {"variant" (the slug) and the rules' fields of
// variant_json, "start", "moves_played", "end": {"over", "text", "winner",
// "to_move", "value", "plies", "game_over": null | {reason, line, loser,
// text}}, "mistakes": {"white", "black"}, "first_decisive": ply | null,
// "plies": [{"ply", "mover", "move", "position" (before the move),
// "position_after", "before": {"result", "plies"}, "after": {"result",
// "plies"}, "repeats", "mistake", "decisive", "mark": "??" | "?" | null,
// "best", "refutation", "refutation_end", "text"}...]}. before is the
// mover's value before the move, after the move's result for the mover;
// best, refutation and text are null unless the ply is a mistake.
Json review_json(const GameReview& review);
// The levels offered to people (player_levels), strongest first: {"players":
// [{"name", "label", "rating", "interval": [low, high], "description"}...]}.
// GET /api/v2/players, `fano selfplay --list-players --json` and Python's
// fano.player_levels() (the list) give it.
Json player_levels_json();

// A move's result seen by the opponent in the position it reaches: a win in
// n for the mover is a loss in n - 1 for the opponent.
Outcome after_move(Outcome mover);

// A strategy check (`fano strategy --json`): {"rules", "variant", "start", "follower", "rule",
// "target", "holds", "decided",
//  "refutation": null | {"plies", "moves", "positions", "end", "allowed_with_history",
//                        "uncovered": null | the position a partial table does not cover
//                        (where the line ends; "end" is then null)},
//  "positions", "follower_positions"}.
Json strategy_check_json(const StrategyCheck& check);
// {"side", "target", "needed": K | null, "max_depth", "checks": [strategy_check_json...]}.
Json lookahead_json(const LookaheadResult& result, int max_depth);
// {"placement", "movement", "decisions", "placement_classes", "movement_classes", "classes",
//  "reached"}.
Json strategy_size_json(const StrategySize& size);
// {"follower", "baseline", "greedy", "smallest": strategy_size_json, "passes", "restarts",
// "trials",
//  "improvements"}.
Json small_strategy_json(const SmallStrategy& s);
// {"list": [...], "size": strategy_size_json, "placement_exceptions", "movement_exceptions",
//  "placement_exception_classes", "movement_exception_classes",
//  "placement_losing_in_smallest", "movement_losing_in_smallest"}.
Json rule_list_json(const RuleListResult& r);
// {"plies", "drawn_by_ply", "single_by_ply", "single_classes_by_ply", "openings": [{"ply",
//  "line", "position", "to_move", "move", "others": [{"move", "result", "plies"}]}] (the first
//  `limit`)}.
Json single_draw_json(const SingleDrawReport& r, std::size_t limit);

// {"decisions", "to_keep", "one_way", "moves", "lose_at_once"}.
Json decision_stats_json(const DecisionStats& stats);

// {"depth", "to_keep", "traps", "ranked": [{"position", "to_move", "value",
//  "plies", "move", "loses_in", "keeping", "moves", "looks_safe"}...]}.
Json trap_report_json(const TrapReport& report);

// A puzzle drawn with `seed` (the HTTP API's /puzzle): {"variant", "seed",
// "position", "to_move", "value", "plies", "moves", "tempting", "trap_plies",
// "difficulty", "solution"}.
Json puzzle_json(const Variant& variant, std::uint64_t seed, const Puzzle& puzzle);
// A table's statistics (the HTTP API's /stats): {"variant", "classes",
// "positions": {reachable, win, draw, loss}, "draw_classes", "by_plies":
// [{"plies", "win", "loss"}...], "longest_wins": [{"position", "value",
// "plies", "line"}...]}.
Json table_stats_json(const Tablebase& table, const TableStats& stats);

}  // namespace fano
