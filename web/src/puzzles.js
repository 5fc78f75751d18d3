// @ts-check
import { goTo } from "./ctrl.js";
import { applyAnalysis } from "./panels.js";
import { ratedMove, valueText } from "./results.js";
import { sideName } from "./seen.js";
import { $, S, count } from "./state.js";

// ---- puzzles: exactly one move keeps the value (the API finds them in the table) ----
var SOLVED_KEY = "fano-puzzles-solved";
export var GRADES = ["easy", "medium", "hard"];

// The puzzles solved in this browser, kept in its storage: one entry a puzzle,
// "variant:seed" (":grade asked" when one was), then "=" and the puzzle's grade
// (entries kept before grades have none: counted in the total only).
function solvedList() {
  try { return JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]"); } catch (e) { return []; }
}
function noteSolved(p) {
  var list = solvedList(), key = S.variant + ":" + p.seed + (p.asked ? ":" + p.asked : "");
  if (list.some(function (e) { return String(e).split("=")[0] === key; })) return;
  list.push(key + "=" + p.difficulty);
  try { localStorage.setItem(SOLVED_KEY, JSON.stringify(list)); } catch (e) { /* storage refused: not counted */ }
}
/** The puzzles solved in this browser by grade. @returns {Record<string, number>} */
export function solvedByGrade() {
  /** @type {Record<string, number>} */
  var n = { easy: 0, medium: 0, hard: 0 };
  solvedList().forEach(function (e) {
    var g = String(e).split("=")[1];
    if (g && n[g] != null) n[g]++;
  });
  return n;
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
                  ". " + count(p.tempting) + " other move" + (p.tempting === 1 ? " looks" : "s look") +
                  " safe at a glance; telling " + (p.tempting === 1 ? "it" : "them") + " from the solution takes a look " +
                  count(p.trap_plies) + " plies ahead.";
  box.appendChild(d);
  if (S.pos >= 1) {
    var mv = S.line[0], entry = ratedMove(S.answers[0], mv);
    var ok = mv === p.solution;
    if (ok) noteSolved(p);
    var v = document.createElement("div");
    v.className = "verdict";
    box.setAttribute("data-result", ok ? "solved" : "wrong");
    // a try that ends the game at once (it forms a line) says why, in the engine's words
    var ended = !ok && S.answers[1] ? S.answers[1].game_over : null;
    // a wrong try says so without the answer (its value stays hidden until the solution is shown)
    v.textContent = ok ? "Solved: " + mv + " is the only move that " + (p.value === "win" ? "keeps the win." : "saves the draw.")
                       : "Not " + mv + (S.puzzleShown ? ": it gives " + (entry ? valueText(entry.result, entry.plies) : "the value away") : "") +
                         ". " + (ended ? ended.text + ". " : "") + "Try again, or show the solution.";
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
  var solved = document.createElement("div");
  solved.id = "puzzles-solved";
  var n = solvedList().length, by = solvedByGrade();
  solved.textContent = "Puzzles solved in this browser: " + count(n) + ".";
  box.appendChild(solved);
  var grades = document.createElement("div");
  grades.id = "puzzles-by-grade";
  grades.textContent = "By grade: " + GRADES.map(function (g) { return g + " " + count(by[g]); }).join(", ") + ".";
  box.appendChild(grades);
  if (S.puzzleShown) {
    var sol = document.createElement("div");
    sol.id = "puzzle-answer";
    sol.setAttribute("data-solution", p.solution);
    sol.textContent = "Solution: " + p.solution;
    box.appendChild(sol);
  }
}
