// @ts-check
// A game against the computer: the player chooses a side and a level (both
// remembered in the browser), the page asks before it discards a game in
// progress, no value shows while the game is on unless the player switches
// Hints on (remembered for that game), and at the end the result and its
// reason sit on the board with Rematch (colours swapped) and Review.
import { startMatch } from "./ctrl.js";
import { PLAYERS, gameEnd, matchOn, other } from "./seen.js";
import { $, S } from "./state.js";


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
  /** @type {import("./types").Colour} */
  var human = side === "random" ? (Math.random() < 0.5 ? "white" : "black") : (side === "black" ? "black" : "white");
  startMatch(human, level);
}
/** Who won, in the player's words: "You win", "The computer wins", "Draw" (or the colours outside a match). */
export function endHeadline() {
  var end = gameEnd();
  if (!end) return "";
  if (!end.loser) return "Draw";
  var winner = other(end.loser);
  if (matchOn() && S.match) return winner === S.match.human ? "You win" : "The computer wins";
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
