// @ts-check
// ---- results: the API's words, as the page shows them -------------------------
// A value ("win", "draw", "loss") with its plies, as the API gives them: a
// position's value for its side to move, or a move's result for its mover.
/** @param {import("./types").Value | null | undefined} value @param {number | null | undefined} plies */
export function valueText(value, plies) {
  if (value === "draw" || value == null) return "draw";
  return plies == null ? value : value + " in " + plies;
}
/**
 * A move's result for its mover (or a position's value for its side to move), with its words.
 * @typedef {{cat: import("./types").Value, text: string, plies: number | null}} Result
 */
/**
 * A move's result for its mover, as the API gives it, with its words.
 * @param {import("./types").RatedMove} m
 * @returns {Result}
 */
export function resultOf(m) { return { cat: m.result, text: valueText(m.result, m.plies), plies: m.plies }; }
/**
 * The rated move `move` of an answer (the move of ply N is in the answer of
 * ply N - 1), or null.
 * @param {import("./types").PositionAnswer} answer @param {string} move
 * @returns {import("./types").RatedMove | null}
 */
export function ratedMove(answer, move) {
  /** @type {import("./types").RatedMove | null} */
  var found = null;
  (answer && answer.moves || []).forEach(function (m) { if (!found && m.move === move) found = m; });
  return found;
}
// Plies are numbered from the start of the game: ply N is the Nth move played.
/** @param {number} n */
export function plyLabel(n) { return n + "."; }

// A move is a blunder when its result for its mover is not the value of the
// position it was played in (that value is the best move's result).
/** @param {import("./types").PositionAnswer | null | undefined} before @param {import("./types").RatedMove | null} entry */
export function isBlunderMove(before, entry) { return !!before && !!entry && entry.result !== before.value; }
