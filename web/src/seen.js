// @ts-check
// What is in sight and who plays, read from the state (never written here):
// the players, the game against the computer, an open puzzle, and so whether
// values show at all. Every view asks here before it shows a value.
import { S } from "./state.js";

export function sideName(c) { return c === "white" ? "White" : "Black"; }
// The players a side can be: a human, or one of the levels the API offers
// (GET /api/v2/players: fano/players.hpp's player_levels, strongest first), set
// by setPlayers. "engine" is the trap-setting perfect engine (its move is in every answer).
/** @type {import("./types").PlayerLevel[]} */
export var PLAYERS = [{ name: "human", label: "human" }];
export function setPlayers(levels) { PLAYERS = [{ name: "human", label: "human" }].concat(levels); }
export function isComputer(c) { return S.players[c] !== "human"; }
export function playerName(c) {
  var n = S.players[c];
  PLAYERS.forEach(function (p) { if (p.name === n) n = p.label; });
  return n;
}
export function someHuman() { return S.players.white === "human" || S.players.black === "human"; }
/** @param {import("./types").Colour} c @returns {import("./types").Colour} */
export function other(c) { return c === "white" ? "black" : "white"; }
/** Whether the game against the computer is on its board (not a puzzle, an edited position, another game). */
export function matchOn() {
  var m = /** @type {import("./types").Match | null} */ (S.match);
  return !!m && S.start === m.start && S.variant === m.variant;
}
/** The end of the game shown (its last move's position), or null while it goes on. */
export function gameEnd() {
  var last = S.all && S.all[S.line.length];
  return last && last.game_over ? last.game_over : null;
}
/** Values are hidden: a game against the computer is on, not over, and Hints are off. */
export function matchHides() {
  return matchOn() && !S.match.hints && !gameEnd();
}
// Whether an open puzzle hides the values, the moves' results, the lines and
// "why?": until it is solved or its solution shown.
export function puzzleHides() {
  var p = S.puzzle;
  if (!p || S.start !== p.position || S.puzzleShown) return false;
  return !(S.pos >= 1 && S.line[0] === p.solution);
}
// Whether the analysis (values, results, lines) is in sight: as asked, else
// hidden while a computer plays a side (a game) and shown when exploring.
export function analysisShown() {
  if (puzzleHides()) return false;
  // a game against the computer: hidden while it is on, unless the player asked for hints
  if (matchOn()) return !matchHides();
  if (S.analysis != null) return S.analysis;
  return !(S.players.white !== "human" || S.players.black !== "human");
}
export function movesFrom(space) { return S.data.moves.filter(function (m) { return m.from === space; }); }
export function placementsOf(shape) { return S.data.moves.filter(function (m) { return m.from == null && m.shape === shape; }); }
