// @ts-check
import { apiJson } from "./engine.js";
import { go } from "./navigate.js";
import { applyAnalysis, sideName } from "./panels.js";
import { goTo } from "./play.js";
import { ratedMove, valueText } from "./results.js";
import { $, S, errText, setReady, status } from "./state.js";

// ---- puzzles: exactly one move keeps the value (the API finds them in the table) ----
var SOLVED_KEY = "fano-puzzles-solved";

// The puzzles solved in this browser ("variant:seed"), kept in its storage.
function solvedList() {
  try { return JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]"); } catch (e) { return []; }
}
function noteSolved(p) {
  var list = solvedList(), key = S.variant + ":" + p.seed;
  if (list.indexOf(key) >= 0) return;
  list.push(key);
  try { localStorage.setItem(SOLVED_KEY, JSON.stringify(list)); } catch (e) { /* storage refused: not counted */ }
}

// Whether an open puzzle hides the values, the moves' results, the lines and
// "why?": until it is solved or its solution shown.
export function puzzleHides() {
  var p = S.puzzle;
  if (!p || S.start !== p.position || S.puzzleShown) return false;
  return !(S.pos >= 1 && S.line[0] === p.solution);
}

export function loadPuzzle(seed, line, at, how) {
  return apiJson("/api/v2/" + encodeURIComponent(S.variant) + "/puzzle", { seed: String(seed) }).then(function (p) {
    S.puzzle = p;
    S.puzzleShown = false;
    // a puzzle is solved, not played against the computer: both sides are the player's
    ["white", "black"].forEach(function (c) { S.players[c] = "human"; $(c + "-player").value = "human"; });
    return go(S.variant, line || [], at || 0, how || "push", { start: p.position, loadPrefix: true });
  }, function (e) { status("No puzzle: " + errText(e), true); setReady(true); return false; });
}
export function renderPuzzle() {
  applyAnalysis();
  var box = $("puzzle-info"), p = S.puzzle;
  var active = p && S.start === p.position;
  $("puzzle-solution").disabled = !active;
  box.innerHTML = "";
  box.removeAttribute("data-result");
  if (!active) return;
  var goal = p.value === "win" ? "the only move that keeps the win (" + valueText("win", p.plies) + ")"
                               : "the only move that does not lose";
  var d = document.createElement("div");
  d.textContent = "Puzzle " + p.seed + " (" + p.difficulty + "): " + sideName(p.to_move) + " to move: find " + goal +
                  ". " + p.tempting + " other move" + (p.tempting === 1 ? " looks" : "s look") + " safe.";
  box.appendChild(d);
  if (S.pos >= 1) {
    var mv = S.line[0], entry = ratedMove(S.answers[0], mv);
    var ok = mv === p.solution;
    if (ok) noteSolved(p);
    var v = document.createElement("div");
    v.className = "verdict";
    box.setAttribute("data-result", ok ? "solved" : "wrong");
    // a wrong try says so without the answer (its value stays hidden until the solution is shown)
    v.textContent = ok ? "Solved: " + mv + " is the only move that " + (p.value === "win" ? "keeps the win." : "saves the draw.")
                       : "Not " + mv + (S.puzzleShown ? ": it gives " + (entry ? valueText(entry.result, entry.plies) : "the value away") : "") +
                         ". Try again, or show the solution.";
    box.appendChild(v);
    if (!ok) {
      var again = document.createElement("button");
      again.type = "button";
      again.id = "puzzle-again";
      again.textContent = "Try again";
      again.addEventListener("click", function () { goTo(0); });
      box.appendChild(again);
    }
  }
  var count = document.createElement("div");
  count.id = "puzzles-solved";
  var n = solvedList().length;
  count.textContent = "Puzzles solved in this browser: " + n + ".";
  box.appendChild(count);
  if (S.puzzleShown) {
    var sol = document.createElement("div");
    sol.id = "puzzle-answer";
    sol.setAttribute("data-solution", p.solution);
    sol.textContent = "Solution: " + p.solution;
    box.appendChild(sol);
  }
}
