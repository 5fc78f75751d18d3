// @ts-check
// The page's start: its panels registered in the order render() draws them,
// each control wired to a controller action (ctrl.js), and the engine loaded.
import { renderBoardPanel, renderOverlay, renderSupply, wireDrag } from "./board.js";
import { renderChart, watchChartWidth } from "./chart.js";
import { renderControls } from "./controls.js";
import { back, changeVariant, clearSelection, flipBoard, goTo, hideGameEnd, nextPuzzle, onMoveInput, openReview,
         pickEditPiece, playBest, redo, rematch, setEngine, setLevels, setPlayer, showPuzzleSolution, step, switchHints,
         togglePause, undo } from "./ctrl.js";
import { checkPosition, editorText, explorePosition } from "./editor.js";
import { listPlayers, listVariants, workerEngine } from "./engine.js";
import { renderSolutionSays, wireIntro } from "./intro.js";
import { describeLevel, onPlayDialogClose, renderGameEnd } from "./match.js";
import { renderLegal, renderPlayed, renderPv, renderValue } from "./panels.js";
import { renderPuzzle } from "./puzzles.js";
import { loadLegendStack, populateVariants, renderRulesInPlay } from "./readings.js";
import { addPanel } from "./registry.js";
import { copyRecord, downloadRecord, loadRecord } from "./record.js";
import { renderReview } from "./review.js";
import { fromHash } from "./route.js";
import { PLAYERS, isComputer, matchHides, matchOn, puzzleHides } from "./seen.js";
import { $, COLOURS, ENGINE, S, STATS, errText, playerPicker, setReady, shownPosition, status } from "./state.js";
import { loadStats } from "./stats.js";
import { hasFirstAnswers } from "./transport.js";

// ---- the panels, each a function of the state, in the order render() draws them ----
addPanel("board", renderBoardPanel);
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
$("hints").addEventListener("click", function () { if (matchOn()) switchHints(); });
$("rematch").addEventListener("click", rematch);
$("game-end-review").addEventListener("click", function () { openReview(); });
$("game-end-hide").addEventListener("click", hideGameEnd);
$("review-open").addEventListener("click", function () { openReview(); });
$("record-copy").addEventListener("click", copyRecord);
$("record-download").addEventListener("click", downloadRecord);
$("record-load").addEventListener("click", loadRecord);
// Enter makes a new line of the record; Ctrl+Enter (or the Load button) loads it
$("record-input").addEventListener("keydown", function (e) {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); loadRecord(); }
});
$("puzzle-new").addEventListener("click", nextPuzzle);
$("puzzle-solution").addEventListener("click", showPuzzleSolution);
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
    var inHand = pickEditPiece(b.getAttribute("data-edit") || "");
    document.querySelectorAll("#palette button[data-edit]").forEach(function (x) {
      x.setAttribute("aria-pressed", x.getAttribute("data-edit") === inHand ? "true" : "false");
    });
  });
});
$("nav-start").addEventListener("click", function () { goTo(0); });
$("nav-back").addEventListener("click", back);
$("nav-forward").addEventListener("click", function () { if (S.pos < S.line.length) goTo(S.pos + 1); });
$("nav-end").addEventListener("click", function () { goTo(S.line.length); });
$("flip").addEventListener("click", flipBoard);
$("redo").addEventListener("click", redo);
$("play-best").addEventListener("click", function () {
  // never a puzzle's answer, nor a hint in a game against the computer
  if (!puzzleHides() && !matchHides()) playBest();
});
$("move-input").addEventListener("keydown", onMoveInput);
$("variant").addEventListener("change", function () {
  var v = $("variant").value;
  if (S.busy) { $("variant").value = S.variant; return; }
  changeVariant(v);
});
// The side pickers: a human, or a level the engine offers (listPlayers).
/** @param {import("./types").PlayerLevel[]} levels */
export function fillPlayers(levels) {
  setLevels(levels);
  COLOURS.forEach(function (c) {
    var sel = playerPicker(c);
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
COLOURS.forEach(function (c) {
  var sel = playerPicker(c);
  sel.addEventListener("change", function () {
    setPlayer(c, sel.value);
  });
});
$("pause").addEventListener("click", togglePause);
$("step").addEventListener("click", function () {
  if (!puzzleHides() && (!matchHides() || isComputer(shownPosition().to_move))) step();
});
document.addEventListener("keydown", function (e) {
  var target = /** @type {HTMLElement | null} */ (e.target);
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
  if (e.key === "ArrowLeft") back();
  else if (e.key === "ArrowRight") { if (S.pos < S.line.length) goTo(S.pos + 1); }
  else if (e.key === "Home") { e.preventDefault(); goTo(0); }
  else if (e.key === "End") { e.preventDefault(); goTo(S.line.length); }
  else if (e.key === "Escape") clearSelection();
});
watchChartWidth();
window.addEventListener("popstate", function () { fromHash("none"); });
window.addEventListener("hashchange", function () { fromHash("none"); });

export function start() {
  var ready = ENGINE === "wasm"
    ? (status("Loading the engine\u2026", "busy"), workerEngine().then(function (e) {
        setEngine(e);
        document.body.setAttribute("data-engine-thread", e.where);
      }))
    : Promise.resolve();
  ready = ready.then(function () { STATS.engineLoaded = performance.now(); });
  if (ENGINE === "wasm") $("api-link").hidden = true;
  // (the static page carries the engine's answers to these two: listed while the engine loads)
  var lists = (hasFirstAnswers() ? Promise.resolve() : ready).then(function () {
    return Promise.all([listVariants(), listPlayers()]);
  }).then(function (both) {
    fillPlayers(both[1]);
    populateVariants(both[0]);
  });
  Promise.all([ready, lists]).then(function () {
    return fromHash("replace");
  }).then(function () {
    // the offline copy once the first position is shown: its worker fetches and
    // compiles the engine again, which would otherwise compete with the page's first solve
    if (ENGINE === "wasm" && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
      navigator.serviceWorker.register("sw.js").catch(function () { /* offline copies are optional */ });
    }
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
wireDrag();
start();
