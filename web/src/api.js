// @ts-check
// Every URL the page asks for is built here and nowhere else (the one
// vocabulary, /api/v2, docs/api.md), and each answer is typed
// (web/src/types.d.ts): the JSON boundary of the page.
import { apiJson, apiText } from "./transport.js";

/**
 * @typedef {import("./types").PositionAnswer} PositionAnswer
 * @typedef {import("./types").PlayerLevel} PlayerLevel
 * @typedef {import("./types").PuzzleAnswer} PuzzleAnswer
 * @typedef {import("./types").StatsAnswer} StatsAnswer
 * @typedef {import("./types").ReviewAnswer} ReviewAnswer
 * @typedef {import("./types").RulesCatalog} RulesCatalog
 * @typedef {Record<string, string>} Params
 */

// ---- the JSON boundary: each answer (unknown until here) checked for the fields
// that name its kind, then typed as its route's answer (types.d.ts) ----
/** The answer `j` as an object with every field of `keys`, else an error naming the route and the field.
 *  @param {unknown} j @param {string} route @param {string[]} keys @returns {object} */
function withFields(j, route, keys) {
  if (!j || typeof j !== "object") throw new Error("the " + route + " route answered no JSON object");
  var missing = keys.filter(function (k) { return !(k in j); });
  if (missing.length) throw new Error("the " + route + " route's answer has no " + missing.join(", "));
  return j;
}
/** @param {unknown} j @returns {PositionAnswer} */
function asPosition(j) {
  return /** @type {PositionAnswer} */ (withFields(j, "position", ["position", "to_move", "value", "moves", "pv"]));
}
/** @param {unknown} j @returns {import("./types").PlayerMoveAnswer} */
function asPlayerMove(j) { return /** @type {import("./types").PlayerMoveAnswer} */ (withFields(j, "player", ["move"])); }
/** @param {unknown} j @returns {PuzzleAnswer} */
function asPuzzle(j) {
  return /** @type {PuzzleAnswer} */ (withFields(j, "puzzle", ["seed", "position", "to_move", "value", "solution"]));
}
/** @param {unknown} j @returns {StatsAnswer} */
function asStats(j) { return /** @type {StatsAnswer} */ (withFields(j, "stats", ["positions", "by_plies", "longest_wins"])); }
/** @param {unknown} j @returns {RulesCatalog} */
function asRules(j) { return /** @type {RulesCatalog} */ (withFields(j, "rules", ["options", "readings"])); }
/** A list of levels, or {players: [...]}: the list either way.
 *  @param {unknown} j @returns {PlayerLevel[]} */
function asPlayers(j) {
  if (Array.isArray(j)) return j;
  return /** @type {{players: PlayerLevel[]}} */ (withFields(j, "players", ["players"])).players;
}
/** @param {unknown} j @returns {ReviewAnswer} */
function asReview(j) { return /** @type {ReviewAnswer} */ (withFields(j, "review", ["end", "mistakes", "plies"])); }

/** A reading's route: "" its positions, else "svg", "player", "puzzle", "stats", "review".
 *  @param {string} variant @param {string} kind @returns {string} */
export function routePath(variant, kind) {
  return "/api/v2/" + encodeURIComponent(variant) + (kind ? "/" + kind : "");
}
/** A game's parameters: its moves from the empty board, or from `start` when given.
 *  @param {string[]} moves @param {string | null} start @returns {Params} */
export function gameParams(moves, start) {
  /** @type {Params} */
  var p = { moves: moves.join(",") };
  if (start) p.position = start;
  return p;
}
/** The report of the position after `moves` (fano query --json's).
 *  @param {string} variant @param {string[]} moves @param {string | null} start
 *  @returns {Promise<PositionAnswer>} */
export function position(variant, moves, start) {
  return apiJson(routePath(variant, ""), gameParams(moves, start)).then(asPosition);
}
/** The report of a position given in the notation (the editor's check).
 *  @param {string} variant @param {string} text @returns {Promise<PositionAnswer>} */
export function positionOf(variant, text) {
  return apiJson(routePath(variant, ""), { position: text }).then(asPosition);
}
/** The engine's picture of the board after `moves` (SVG text).
 *  @param {string} variant @param {string[]} moves @param {string | null} start @returns {Promise<string>} */
export function boardSvg(variant, moves, start) {
  return apiText(routePath(variant, "svg"), gameParams(moves, start));
}
/** A computer player's move after `moves` (seeded: the same move for the same seed).
 *  @param {string} variant @param {string[]} moves @param {string | null} start
 *  @param {string} player @param {number} seed @returns {Promise<string>} */
export function playerMove(variant, moves, start, player, seed) {
  var p = gameParams(moves, start);
  p.player = player;
  p.seed = String(seed);
  return apiJson(routePath(variant, "player"), p).then(asPlayerMove).then(function (j) { return j.move; });
}
/** A puzzle of the reading (of a grade when given).
 *  @param {string} variant @param {number} seed @param {string} grade @returns {Promise<PuzzleAnswer>} */
export function puzzle(variant, seed, grade) {
  /** @type {Params} */
  var q = { seed: String(seed) };
  if (grade) q.grade = grade;
  return apiJson(routePath(variant, "puzzle"), q).then(asPuzzle);
}
/** @param {string} variant @returns {Promise<StatsAnswer>} */
export function stats(variant) { return apiJson(routePath(variant, "stats"), {}).then(asStats); }
/** The rules options and every reading. @returns {Promise<RulesCatalog>} */
export function rules() { return apiJson("/api/v2/rules", {}).then(asRules); }
/** The levels a person may choose a computer opponent from, strongest first
 *  (a list, or {players: [...]} before the levels were measured).
 *  @returns {Promise<PlayerLevel[]>} */
export function players() {
  return apiJson("/api/v2/players", {}).then(asPlayers);
}
/** The review of a game: each side's mistakes, the first decisive one, the best moves and refutations.
 *  @param {string} variant @param {string[]} moves @param {string | null} start @returns {Promise<ReviewAnswer>} */
export function review(variant, moves, start) {
  return apiJson(routePath(variant, "review"), gameParams(moves, start)).then(asReview);
}
/** The URL fetched to learn whether the server holds a reading's table (503 while it solves it).
 *  @param {string} variant @returns {string} */
export function tableProbeUrl(variant) { return routePath(variant, "") + "?moves="; }
