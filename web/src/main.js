// @ts-check
import { applyFlip, render, renderOverlay, renderSupply } from "./board.js";
import { renderChart } from "./chart.js";
import { addPanel } from "./registry.js";
import { describeLevel, endMatch, hideGameEnd, matchHides, matchOn, onPlayDialogClose, rematch,
         renderGameEnd, toggleHints } from "./match.js";
import { openReview, renderReview } from "./review.js";
import { renderSolutionSays } from "./intro.js";
import { renderRulesInPlay } from "./readings.js";
import { checkPosition, editorText, explorePosition } from "./editor.js";
import { listPlayers, listVariants, workerEngine } from "./engine.js";
import { go } from "./navigate.js";
import { renderLegal, renderPlayed, renderPv, renderValue } from "./panels.js";
import { PLAYERS, clearEngine, computerMove, goTo, isComputer, onMoveInput, playMove, redo, redrawSelection, renderControls,
         scheduleEngine, setPlayers, undo } from "./play.js";
import { loadPuzzle, puzzleHides, renderPuzzle } from "./puzzles.js";
import { loadLegendStack, populateVariants } from "./readings.js";
import { fromHash } from "./route.js";
import { wireIntro } from "./intro.js";
import { $, ENGINE, S, errText, setReady, status } from "./state.js";
import { loadStats } from "./stats.js";

// ---- the panels, each a function of the state, in the order render() draws them ----
addPanel("board marks", renderOverlay);
addPanel("supply", renderSupply);
addPanel("value", renderValue);
addPanel("legal moves", renderLegal);
addPanel("moves played", renderPlayed);
addPanel("principal variation", renderPv);
addPanel("value history", renderChart);
addPanel("puzzle", renderPuzzle);
addPanel("statistics", function () { if ($("stats").open) loadStats(); });
addPanel("refutation", function () { $("refutation").textContent = ""; });
addPanel("controls", renderControls);
addPanel("rules in play", renderRulesInPlay);
addPanel("what the solution says", renderSolutionSays);
addPanel("game end", renderGameEnd);
addPanel("review", renderReview);
addPanel("review button", function () {
  $("review-open").disabled = !S.line.length || matchHides() || puzzleHides();
});

// ---- wiring -------------------------------------------------------------------
window.addEventListener("error", function (e) { status("Error: " + (e.message || e), true); setReady(true); });
window.addEventListener("unhandledrejection", function (e) {
  e.preventDefault();
  status("Error: " + errText(e.reason), true);
  setReady(true);
});
$("undo").addEventListener("click", undo);
$("play-dialog").addEventListener("close", onPlayDialogClose);
$("play-level").addEventListener("change", describeLevel);
$("hints").addEventListener("click", function () {
  if (!matchOn()) return;
  toggleHints();
  if (S.data) render();
});
$("rematch").addEventListener("click", rematch);
$("game-end-review").addEventListener("click", function () { openReview(); });
$("game-end-hide").addEventListener("click", hideGameEnd);
$("review-open").addEventListener("click", function () { openReview(); });
$("puzzle-new").addEventListener("click", function () {
  if (S.busy) return;
  loadPuzzle(1 + Math.floor(Math.random() * 1000000), [], 0, "push", $("puzzle-grade").value);
});
$("puzzle-solution").addEventListener("click", function () { S.puzzleShown = true; renderPuzzle(); if (S.data) renderValue(); });
$("stats").addEventListener("toggle", function () { if ($("stats").open && S.data) loadStats(); });
$("legend").addEventListener("toggle", function () { if ($("legend").open) loadLegendStack(); });
$("position-input").addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); explorePosition(); } });
$("position-input").addEventListener("input", function () { checkPosition(); });
$("position-explore").addEventListener("click", explorePosition);
$("position-empty").addEventListener("click", function () { $("position-input").value = "-/-/-/-/-/-/- w"; explorePosition(); });
$("position-side").addEventListener("click", function () {
  var parts = editorText().split(/[ _]/);
  $("position-input").value = parts[0] + " " + (parts[1] === "b" ? "w" : "b");
  checkPosition();
});
$("editor").addEventListener("toggle", function () {
  if ($("editor").open && !$("position-input").value && S.data) $("position-input").value = S.data.position;
});
document.querySelectorAll("#palette button[data-edit]").forEach(function (b) {
  b.addEventListener("click", function () {
    S.edit = S.edit === b.getAttribute("data-edit") ? null : b.getAttribute("data-edit");
    document.querySelectorAll("#palette button[data-edit]").forEach(function (x) {
      x.setAttribute("aria-pressed", x.getAttribute("data-edit") === S.edit ? "true" : "false");
    });
  });
});
$("nav-start").addEventListener("click", function () { goTo(0); });
$("nav-back").addEventListener("click", function () { if (S.pos > 0) goTo(S.pos - 1); });
$("nav-forward").addEventListener("click", function () { if (S.pos < S.line.length) goTo(S.pos + 1); });
$("nav-end").addEventListener("click", function () { goTo(S.line.length); });
$("flip").addEventListener("click", function () { S.flipped = !S.flipped; if (S.svg) applyFlip(); });
$("redo").addEventListener("click", redo);
$("play-best").addEventListener("click", function () {
  // the engine's move for the side to move (also the engine's own turn after Undo); never a puzzle's answer
  if (S.busy || S.thinking || !S.data || !S.data.engine_move || puzzleHides()) return;
  playMove(S.data.engine_move);
});
$("move-input").addEventListener("keydown", onMoveInput);
$("variant").addEventListener("change", function () {
  var v = $("variant").value;
  if (S.busy) { $("variant").value = S.variant; return; }
  // the game of the variant left is kept: choosing it again (or Back) returns to it
  S.games[S.variant] = { line: S.line, pos: S.pos, start: S.start };
  var g = S.games[v] || { line: [], pos: 0, start: null };
  endMatch();
  go(v, g.line, g.pos, "push", { loadPrefix: true, start: g.start });
});
// The side pickers: a human, or a level the engine offers (listPlayers).
export function fillPlayers(levels) {
  setPlayers(levels);
  ["white", "black"].forEach(function (c) {
    var sel = $(c + "-player");
    sel.innerHTML = "";
    PLAYERS.forEach(function (p) {
      var o = document.createElement("option");
      o.value = p.name;
      o.textContent = p.label;
      sel.appendChild(o);
    });
    sel.value = S.players[c];
  });
}
["white", "black"].forEach(function (c) {
  var sel = $(c + "-player");
  sel.addEventListener("change", function () {
    S.players[c] = sel.value;
    // the players set by hand: the game against the computer (its side and level) is over
    if (matchOn()) endMatch();
    if (!S.busy && S.data) { renderValue(); if (isComputer(S.data.to_move)) scheduleEngine(); else clearEngine(); }
  });
});
$("pause").addEventListener("click", function () {
  S.paused = !S.paused;
  $("pause").setAttribute("aria-pressed", S.paused ? "true" : "false");
  $("pause").textContent = S.paused ? "Resume" : "Pause";
  if (S.data && !S.busy) { if (S.paused) { clearEngine(); status("Paused."); } else scheduleEngine(); }
});
$("step").addEventListener("click", function () {
  // one move of the side to move's computer player (the engine's for a human side)
  if (S.busy || S.thinking || !S.data || S.data.game_over || puzzleHides()) return;
  clearEngine();
  var d = S.data;
  (isComputer(d.to_move) ? computerMove() : Promise.resolve(d.engine_move)).then(function (mv) {
    if (d === S.data && !S.busy) playMove(mv);
  }, function (e) { status("The computer player cannot move: " + errText(e), true); });
});
document.addEventListener("keydown", function (e) {
  var target = /** @type {HTMLElement | null} */ (e.target);
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT")) return;
  if (e.key === "ArrowLeft") { if (S.pos > 0) goTo(S.pos - 1); }
  else if (e.key === "ArrowRight") { if (S.pos < S.line.length) goTo(S.pos + 1); }
  else if (e.key === "Home") { e.preventDefault(); goTo(0); }
  else if (e.key === "End") { e.preventDefault(); goTo(S.line.length); }
  else if (e.key === "Escape") { S.selection = null; if (S.data) redrawSelection(); }
});
// The value history's words are sized for the chart's width: drawn again when
// that width changes (the window's, or the chart shown after it was hidden).
var chartWidth = 0;
if (typeof ResizeObserver !== "undefined") {
  new ResizeObserver(function (entries) {
    var w = Math.round(entries[0].contentRect.width);
    // (while the page is busy, the answer on its way draws the chart for the width it finds)
    if (w === chartWidth || !w || !S.data || S.busy) return;
    chartWidth = w;
    renderChart();
  }).observe($("chart"));
}
window.addEventListener("popstate", function () { fromHash("none"); });
window.addEventListener("hashchange", function () { fromHash("none"); });

export function start() {
  var ready = ENGINE === "wasm"
    ? (status("Loading the engine\u2026", "busy"), workerEngine().then(function (e) {
        S.engine = e;
        document.body.setAttribute("data-engine-thread", e.where);
      }))
    : Promise.resolve();
  ready = ready.then(function () { S.stats.engineLoaded = performance.now(); });
  if (ENGINE === "wasm") {
    $("api-link").hidden = true;
    if ("serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
      navigator.serviceWorker.register("sw.js").catch(function () { /* offline copies are optional */ });
    }
  }
  ready.then(function () { return Promise.all([listVariants(), listPlayers()]); }).then(function (both) {
    fillPlayers(both[1]);
    populateVariants(both[0]);
    return fromHash("replace");
  }).catch(function (e) {
    status("Error: " + errText(e), true);
    setReady(true);
  });
}
$("skip-moves").addEventListener("click", function () {
  // the heading takes the focus this once (a Tab stop nowhere else)
  var h = $("moves-played-title");
  h.setAttribute("tabindex", "-1");
  h.addEventListener("blur", function () { h.removeAttribute("tabindex"); }, { once: true });
  h.focus();
});
wireIntro();
start();
