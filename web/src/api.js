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
  return apiJson(routePath(variant, ""), gameParams(moves, start));
}
/** The report of a position given in the notation (the editor's check).
 *  @param {string} variant @param {string} text @returns {Promise<PositionAnswer>} */
export function positionOf(variant, text) {
  return apiJson(routePath(variant, ""), { position: text });
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
  return apiJson(routePath(variant, "player"), p).then(function (/** @type {import("./types").PlayerMoveAnswer} */ j) {
    return j.move;
  });
}
/** A puzzle of the reading (of a grade when given).
 *  @param {string} variant @param {number} seed @param {string} grade @returns {Promise<PuzzleAnswer>} */
export function puzzle(variant, seed, grade) {
  /** @type {Params} */
  var q = { seed: String(seed) };
  if (grade) q.grade = grade;
  return apiJson(routePath(variant, "puzzle"), q);
}
/** @param {string} variant @returns {Promise<StatsAnswer>} */
export function stats(variant) { return apiJson(routePath(variant, "stats"), {}); }
/** The rules options and every reading. @returns {Promise<RulesCatalog>} */
export function rules() { return apiJson("/api/v2/rules", {}); }
/** The levels a person may choose a computer opponent from, strongest first
 *  (a list, or {players: [...]} before the levels were measured).
 *  @returns {Promise<PlayerLevel[]>} */
export function players() {
  return apiJson("/api/v2/players", {}).then(function (/** @type {import("./types").PlayersAnswer} */ j) {
    return Array.isArray(j) ? j : j.players;
  });
}
/** The review of a game: each side's mistakes, the first decisive one, the best moves and refutations.
 *  @param {string} variant @param {string[]} moves @param {string | null} start @returns {Promise<ReviewAnswer>} */
export function review(variant, moves, start) {
  return apiJson(routePath(variant, "review"), gameParams(moves, start));
}
/** The URL fetched to learn whether the server holds a reading's table (503 while it solves it).
 *  @param {string} variant @returns {string} */
export function tableProbeUrl(variant) { return routePath(variant, "") + "?moves="; }
