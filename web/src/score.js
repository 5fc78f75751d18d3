// @ts-check
// The puzzles' score in this browser's storage: each puzzle counted once, by
// its first ending (solved, or failed: a wrong try or its solution shown); a
// retry after that is practice. One entry a puzzle, "variant:seed" (":grade
// asked" when one was), then "=" and the puzzle's grade (entries kept before
// grades have none: counted in the totals only).
var KEYS = { solved: "fano-puzzles-solved", failed: "fano-puzzles-failed" };
export var GRADES = ["easy", "medium", "hard"];

/** @param {"solved" | "failed"} kind @returns {string[]} */
function entries(kind) {
  try { return JSON.parse(localStorage.getItem(KEYS[kind]) || "[]"); } catch (e) { return []; }
}
/** A puzzle's key in the score. @param {string} variant @param {import("./types").PuzzleAnswer} p */
export function puzzleKey(variant, p) { return variant + ":" + p.seed + (p.asked ? ":" + p.asked : ""); }
/** How the puzzle was first ended in this browser, or null. @param {string} key @returns {"solved" | "failed" | null} */
export function scoredAs(key) {
  /** @param {string} e */
  var is = function (e) { return String(e).split("=")[0] === key; };
  if (entries("solved").some(is)) return "solved";
  if (entries("failed").some(is)) return "failed";
  return null;
}
/** Counts the puzzle's first ending (a later one is not counted).
 *  @param {string} key @param {string} grade @param {"solved" | "failed"} kind */
export function noteEnding(key, grade, kind) {
  if (scoredAs(key)) return;
  var list = entries(kind);
  list.push(key + "=" + grade);
  try { localStorage.setItem(KEYS[kind], JSON.stringify(list)); } catch (e) { /* storage refused: not counted */ }
}
/** The puzzles solved or failed in this browser: in all, and by grade.
 *  @param {"solved" | "failed"} kind @returns {{all: number, by: Record<string, number>}} */
export function scoreOf(kind) {
  /** @type {Record<string, number>} */
  var by = { easy: 0, medium: 0, hard: 0 };
  var list = entries(kind);
  list.forEach(function (e) {
    var g = String(e).split("=")[1];
    if (g && by[g] != null) by[g]++;
  });
  return { all: list.length, by: by };
}
