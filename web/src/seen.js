// @ts-check
// What is in sight and who plays, read from the state (never written here):
// the players, the game against the computer, an open puzzle, and so whether
// values show at all. Every view asks here before it shows a value.
import { ratedMove } from "./results.js";
import { S, shownPosition } from "./state.js";

/** @typedef {import("./types").Colour} Colour @typedef {import("./types").RatedMove} RatedMove */

/** @param {Colour} c */
export function sideName(c) { return c === "white" ? "White" : "Black"; }
// The players a side can be: a human, or one of the levels the API offers
// (GET /api/v2/players: fano/players.hpp's player_levels, strongest first), set
// by setPlayers. "engine" is the trap-setting perfect engine (its move is in every answer).
/** @type {import("./types").PlayerLevel[]} */
export var PLAYERS = [{ name: "human", label: "human" }];
/** @param {import("./types").PlayerLevel[]} levels */
export function setPlayers(levels) { PLAYERS = [{ name: "human", label: "human" }].concat(levels); }
/** @param {Colour} c */
export function isComputer(c) { return S.players[c] !== "human"; }
/** @param {Colour} c */
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
  var m = S.match;
  return !!m && S.start === m.start && S.variant === m.variant;
}
/** The end of the game shown (its last move's position), or null while it goes on. */
export function gameEnd() {
  var last = S.all && S.all[S.line.length];
  return last && last.game_over ? last.game_over : null;
}
/** Values are hidden: a game against the computer is on, not over, and Hints are off. */
export function matchHides() {
  return matchOn() && !!S.match && !S.match.hints && !gameEnd();
}
// A drawing puzzle is played for this many of the player's moves (its trap may
// lie deeper than a game played to its end would show in a puzzle's time).
export var PUZZLE_DRAW_MOVES = 3;
/**
 * The open puzzle's course up to the position shown, read from the API's
 * answers (the page derives no value): each of the player's moves is right
 * when its result is the value of the position it was played in. state:
 * "play" (the player's turn), "reply" (the computer answers), "solved" (the
 * win completed, or the draw kept for PUZZLE_DRAW_MOVES moves), "failed" (a
 * wrong try: `ply` is its ply, `move` the move), "shown" (the solution shown).
 * Null when no puzzle is open.
 * @returns {{state: "play" | "reply" | "solved" | "failed" | "shown", ply: number, move: string, mine: number} | null}
 */
export function puzzleCourse() {
  var p = S.puzzle;
  if (!p || S.start !== p.position || !S.answers || !S.answers.length) return null;
  if (S.puzzleShown) return { state: "shown", ply: 0, move: "", mine: 0 };
  var mine = 0;
  for (var i = 0; i < S.pos; i++) {
    var a = S.answers[i], players = a.to_move === p.to_move;
    if (players) {
      var m = ratedMove(a, S.line[i]);
      mine++;
      if (!m || m.result !== a.value) return { state: "failed", ply: i + 1, move: S.line[i], mine: mine };
    }
    // the game over after a right move or the computer's forced answer (a win completed), or the draw kept long enough
    var after = S.answers[i + 1];
    if ((after && after.game_over) || (players && p.value !== "win" && mine >= PUZZLE_DRAW_MOVES))
      return { state: "solved", ply: i + 1, move: S.line[i], mine: mine };
  }
  return { state: shownPosition().to_move === p.to_move ? "play" : "reply", ply: S.pos, move: "", mine: mine };
}
// Whether an open puzzle hides the values, the moves' results, the lines and
// "why?": while it is played (until it is solved, failed or its solution shown).
export function puzzleHides() {
  var c = puzzleCourse();
  return !!c && (c.state === "play" || c.state === "reply");
}
/** The side the computer plays in a puzzle being played (null when none is). @returns {import("./types").Colour | null} */
export function puzzleComputer() {
  return puzzleHides() && S.puzzle ? other(S.puzzle.to_move) : null;
}
/** The computer's turn in an open puzzle: it answers with the engine's move. */
export function puzzleReplyDue() {
  var c = puzzleCourse();
  return !!c && c.state === "reply" && !!S.data && !!S.data.engine_move && !S.data.game_over;
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
/** The legal moves of the piece on `space`. @param {number} space @returns {RatedMove[]} */
export function movesFrom(space) { return shownPosition().moves.filter(function (m) { return m.from === space; }); }
/** Whether the side to move still places pieces (a placement has no from). @returns {boolean} */
export function placing() { return shownPosition().moves.some(function (m) { return m.from == null; }); }
/** The legal placements of `shape`. @param {import("./types").Shape} shape @returns {RatedMove[]} */
export function placementsOf(shape) { return shownPosition().moves.filter(function (m) { return m.from == null && m.shape === shape; }); }
