// @ts-check
import { apiJson } from "./engine.js";
import { go } from "./navigate.js";
import { sideName } from "./panels.js";
import { moverResult, valueText } from "./results.js";
import { $, S, errText, setReady, status } from "./state.js";

// ---- puzzles: exactly one move keeps the value (the API finds them in the table) ----
export function loadPuzzle(seed, line, at, how) {
  return apiJson("/api/v2/" + encodeURIComponent(S.variant) + "/puzzle", { seed: String(seed) }).then(function (p) {
    S.puzzle = p;
    S.puzzleShown = false;
    return go(S.variant, line || [], at || 0, how || "push", { start: p.position, loadPrefix: true });
  }, function (e) { status("No puzzle: " + errText(e), true); setReady(true); return false; });
}
export function renderPuzzle() {
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
    var mv = S.line[0], entry = null;
    S.answers[0].moves.forEach(function (m) { if (m.move === mv) entry = m; });
    var ok = mv === p.solution;
    var v = document.createElement("div");
    v.className = "verdict";
    box.setAttribute("data-result", ok ? "solved" : "wrong");
    v.textContent = ok ? "Solved: " + mv + " is the only move that " + (p.value === "win" ? "keeps the win." : "saves the draw.")
                       : "Not " + mv + ": it gives " + (entry ? moverResult(entry).text : "the value away") +
                         ". Go back (Start) and try again, or show the solution.";
    box.appendChild(v);
  }
  if (S.puzzleShown) {
    var sol = document.createElement("div");
    sol.id = "puzzle-answer";
    sol.setAttribute("data-solution", p.solution);
    sol.textContent = "Solution: " + p.solution;
    box.appendChild(sol);
  }
}
