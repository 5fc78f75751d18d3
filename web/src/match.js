// @ts-check
// A game against the computer: the player chooses a side and a level (both
// remembered in the browser), the page asks before it discards a game in
// progress, no value shows while the game is on unless the player switches
// Hints on (remembered for that game), and at the end the result and its
// reason sit on the board with Rematch (colours swapped) and Review.
import { go } from "./navigate.js";
import { PLAYERS } from "./play.js";
import { $, S } from "./state.js";

/** @typedef {"white" | "black"} Colour */
/**
 * The game against the computer in play.
 * @typedef {{human: Colour, level: string, hints: boolean, hintsUsed: boolean, start: string | null, variant: string}} Match
 */

var PREFS_KEY = "fano-play-computer";

/** The side and level chosen last in this browser. @returns {{side: string, level: string}} */
export function playPrefs() {
  try {
    var p = JSON.parse(localStorage.getItem(PREFS_KEY) || "{}");
    return { side: typeof p.side === "string" ? p.side : "white", level: typeof p.level === "string" ? p.level : "" };
  } catch (e) { return { side: "white", level: "" }; }
}
/** @param {string} side @param {string} level */
function savePrefs(side, level) {
  try { localStorage.setItem(PREFS_KEY, JSON.stringify({ side: side, level: level })); } catch (e) { /* not remembered */ }
}
/** @param {Colour} c @returns {Colour} */
export function other(c) { return c === "white" ? "black" : "white"; }

/** Whether the game against the computer is on its board (not a puzzle, an edited position, another game). */
export function matchOn() {
  var m = /** @type {Match | null} */ (S.match);
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
/** A game in progress: moves played and no end yet. */
function inProgress() { return S.line.length > 0 && !gameEnd(); }

/** The level's words for a person: its label, and its rating when measured. @param {import("./types").PlayerLevel} p */
function levelText(p) {
  return p.label + (p.rating != null ? " (rating " + Math.round(p.rating) + ")" : "");
}
/** The dialog: side and level (the last ones chosen), and a warning when a game would be discarded. */
export function openPlayDialog() {
  if (S.busy) return;
  var prefs = playPrefs();
  var sel = $("play-level");
  sel.innerHTML = "";
  var levels = PLAYERS.filter(function (p) { return p.name !== "human"; });
  levels.forEach(function (p) {
    var o = document.createElement("option");
    o.value = p.name;
    o.textContent = levelText(p);
    sel.appendChild(o);
  });
  // the level chosen last, else the weakest offered (the list is strongest first)
  var known = levels.some(function (p) { return p.name === prefs.level; });
  sel.value = known ? prefs.level : (levels.length ? levels[levels.length - 1].name : "");
  describeLevel();
  document.querySelectorAll('#play-form input[name="side"]').forEach(function (el) {
    var r = /** @type {HTMLInputElement} */ (el);
    r.checked = r.value === prefs.side;
  });
  if (!document.querySelector('#play-form input[name="side"]:checked'))
    /** @type {HTMLInputElement} */ ($("play-side-white")).checked = true;
  var discard = inProgress();
  $("play-discard").hidden = !discard;
  if (discard) $("play-discard").textContent = "The game in progress (" + S.line.length + " move" +
    (S.line.length === 1 ? "" : "s") + ") will be discarded.";
  $("play-start").textContent = discard ? "Discard it and play" : "Play";
  var dlg = /** @type {HTMLDialogElement} */ ($("play-dialog"));
  dlg.showModal();
}
export function describeLevel() {
  var name = $("play-level").value;
  var p = PLAYERS.filter(function (x) { return x.name === name; })[0];
  $("play-level-about").textContent = p && p.description ? p.label + ": " + p.description + "." : "";
}
/** The dialog's answer: a new game against the computer, or nothing. */
export function onPlayDialogClose() {
  var dlg = /** @type {HTMLDialogElement} */ ($("play-dialog"));
  if (dlg.returnValue !== "start") return;
  var checked = /** @type {HTMLInputElement | null} */ (document.querySelector('#play-form input[name="side"]:checked'));
  var side = checked ? checked.value : "white";
  var level = $("play-level").value;
  savePrefs(side, level);
  /** @type {Colour} */
  var human = side === "random" ? (Math.random() < 0.5 ? "white" : "black") : (side === "black" ? "black" : "white");
  startMatch(human, level);
}
/** A new game against `level`, the player with `human`, from the empty board. @param {Colour} human @param {string} level */
export function startMatch(human, level) {
  S.match = { human: human, level: level, hints: false, hintsUsed: false, start: null, variant: S.variant };
  S.players[human] = "human";
  S.players[other(human)] = level;
  $(human + "-player").value = "human";
  $(other(human) + "-player").value = level;
  S.playersBeforePuzzle = null;
  S.review = null;
  // a new seed each game: the levels that choose at random play another game
  S.seed = 1 + Math.floor(Math.random() * 1e9);
  return go(S.variant, [], 0, "push", { start: null, engine: true });
}
/** Rematch: the same level, the colours swapped (the rulebook: after a draw, play again swapping colours). */
export function rematch() {
  var m = /** @type {Match | null} */ (S.match);
  if (!m || S.busy) return;
  startMatch(other(m.human), m.level);
}
/** The game against the computer ends: the board is the player's again on both sides. */
export function endMatch() { S.match = null; }
/** Hints on or off for this game (once on, the review says hints were used). */
export function toggleHints() {
  var m = /** @type {Match | null} */ (S.match);
  if (!m) return;
  m.hints = !m.hints;
  if (m.hints) m.hintsUsed = true;
}
/** Who won, in the player's words: "You win", "The computer wins", "Draw" (or the colours outside a match). */
export function endHeadline() {
  var end = gameEnd();
  if (!end) return "";
  if (!end.loser) return "Draw";
  var winner = other(end.loser);
  if (matchOn()) return winner === S.match.human ? "You win" : "The computer wins";
  return (winner === "white" ? "White" : "Black") + " wins";
}
/** The end of the game on the board: who won and why, Rematch (a game against the computer) and Review. */
export function renderGameEnd() {
  var box = $("game-end"), end = S.data && S.data.game_over;
  var key = S.variant + "|" + (S.start || "") + "|" + S.line.join(",");
  if (!end || S.endHidden === key) { box.hidden = true; return; }
  box.hidden = false;
  box.setAttribute("data-loser", end.loser || "");
  $("game-end-result").textContent = endHeadline();
  $("game-end-reason").textContent = end.text + ".";
  $("rematch").hidden = !matchOn();
}
/** Hides the end's note until the game changes (to see the board under it). */
export function hideGameEnd() {
  S.endHidden = S.variant + "|" + (S.start || "") + "|" + S.line.join(",");
  $("game-end").hidden = true;
}
