// @ts-check
import { matchOn } from "./seen.js";
import { $, S } from "./state.js";

// ---- the URL: #variant=..&moves=..&at=.. ------------------------------------
/** The URL's fragment naming the game. @param {string} variant @param {string[]} line @param {number} pos */
export function hashOf(variant, line, pos) {
  /** @type {string[]} */
  var parts = [];
  if (variant !== "standard") parts.push("variant=" + variant);
  if (S.start) parts.push("position=" + S.start.replace(/ /g, "_"));
  if (S.seed !== 1) parts.push("seed=" + S.seed);
  if (S.puzzle && S.start === S.puzzle.position) {
    parts.push("puzzle=" + S.puzzle.seed);
    if (S.puzzle.asked) parts.push("grade=" + S.puzzle.asked);
  }
  // a game against the computer: its link opens the same game, in play, with hints off
  if (matchOn() && S.match) parts.push("play=" + S.match.human, "level=" + encodeURIComponent(S.match.level));
  if (line.length) parts.push("moves=" + line.join(","));
  if (pos < line.length) parts.push("at=" + pos);
  return parts.length ? "#" + parts.join("&") : "";
}
/** The URL says the game shown: a new history entry ("push"), this one replaced ("replace"), or as it is ("none").
 *  @param {import("./types").HistoryWay} how */
export function writeHash(how) {
  var h = hashOf(S.variant, S.line, S.pos);
  var target = location.pathname + location.search + h;
  if (how === "push" && location.hash !== h) history.pushState(null, "", target || location.pathname);
  else if (how !== "none" && location.hash !== h) history.replaceState(null, "", target || location.pathname);
  $("share").value = location.href;
}
/**
 * What a link names: the reading, the moves and the ply shown, the start, the seed, a puzzle and its
 * grade; and the parts of it the page could not read.
 * @typedef {{variant: string, line: string[], at: number, start: string | null, seed: number,
 *            puzzle?: number, grade: string, play: "white" | "black" | null, level: string,
 *            problems: string[]}} Link
 */
/** @returns {Link} */
export function parseHash() {
  var h = location.hash.replace(/^#/, "");
  /** @type {{variant: string, line: string[], at: number | null, start: string | null, seed: number,
   *            puzzle?: number, grade: string, play: "white" | "black" | null, level: string, problems: string[]}} */
  var out = { variant: "standard", line: [], at: null, start: null, seed: 1, grade: "", play: null, level: "", problems: [] };
  // A part the page cannot read is left out and said (the rest of the link still counts).
  h.split("&").forEach(function (kv) {
    if (!kv) return;
    var i = kv.indexOf("=");
    var k = i < 0 ? kv : kv.slice(0, i);
    var v = "";
    try {
      v = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1));
    } catch (e) {
      out.problems.push("'" + kv + "' is not valid URL text");
      return;
    }
    if ((k === "at" && !/^\d+$/.test(v)) || ((k === "seed" || k === "puzzle") && !/^\d{1,15}$/.test(v)))
      out.problems.push("'" + k + "=" + v + "' is not a number the page uses");
    else if (k === "grade" && ["easy", "medium", "hard"].indexOf(v) < 0)
      out.problems.push("'grade=" + v + "' is not a grade (easy, medium or hard)");
    else if (k === "play" && v !== "white" && v !== "black")
      out.problems.push("'play=" + v + "' is not a side (white or black)");
    else if (["variant", "moves", "at", "position", "seed", "puzzle", "grade", "play", "level"].indexOf(k) < 0)
      out.problems.push("'" + k + "' is not a part of a link the page knows");
    if (k === "variant" && v) out.variant = v;
    if (k === "moves") out.line = v.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
    if (k === "at" && /^\d+$/.test(v)) out.at = +v;
    if (k === "position" && v) out.start = v.replace(/_/g, " ");
    if (k === "seed" && /^\d{1,15}$/.test(v)) out.seed = +v;
    if (k === "puzzle" && /^\d{1,15}$/.test(v)) out.puzzle = +v;
    if (k === "grade" && ["easy", "medium", "hard"].indexOf(v) >= 0) out.grade = v;
    if (k === "play" && (v === "white" || v === "black")) out.play = v;
    if (k === "level") out.level = v;
  });
  if (out.at == null || out.at > out.line.length) out.at = out.line.length;
  return /** @type {Link} */ (out);  // (its ply is a number now)
}
