// @ts-check
import { nextPuzzle, retryPuzzle } from "./ctrl.js";
import { applyAnalysis } from "./panels.js";
import { ratedMove, valueText } from "./results.js";
import { GRADES, puzzleKey, scoreOf, scoredAs } from "./score.js";
import { PUZZLE_DRAW_MOVES, puzzleCourse, sideName } from "./seen.js";
import { $, S, count } from "./state.js";

// ---- puzzles: exactly one move keeps the value (the API finds them in the table),
// played out: the player's moves, each keeping the value, against the engine's defence ----

/** A button of the puzzle's box. @param {string} id @param {string} text @param {() => void} act */
function button(id, text, act) {
  var b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  b.addEventListener("click", act);
  return b;
}

/** The puzzle's end last brought into view ("" while it is played). */
var endShown = "";

export function renderPuzzle() {
  applyAnalysis();
  var box = $("puzzle-info"), p = S.puzzle, c = puzzleCourse();
  $("puzzle-solution").disabled = !c || (c.state !== "play" && c.state !== "reply");
  box.innerHTML = "";
  box.removeAttribute("data-result");
  if (!c || !p) return;
  var goal = p.value === "win" ? "win: play the only move that keeps it, then each move that keeps it until the game is won"
                               : "keep the draw: play the only move that does not lose, then " +
                                 (PUZZLE_DRAW_MOVES - 1) + " more moves that do not lose (" + PUZZLE_DRAW_MOVES + " of your moves in all)";
  var d = document.createElement("div");
  d.textContent = "Puzzle " + p.seed + " (" + p.difficulty + "): " + sideName(p.to_move) + " to move and " + goal +
                  "; the computer answers with its best defence. " + count(p.tempting) + " other move" +
                  (p.tempting === 1 ? " looks" : "s look") + " safe at a glance; telling " +
                  (p.tempting === 1 ? "it" : "them") + " from the solution takes a look " + count(p.trap_plies) +
                  (p.trap_plies === 1 ? " ply" : " plies") + " ahead.";
  box.appendChild(d);
  box.setAttribute("data-result", c.state);
  var v = document.createElement("div");
  v.className = "verdict";
  v.id = "puzzle-verdict";
  var first = scoredAs(puzzleKey(S.variant, p));
  var counted = first === "failed" && c.state === "solved" ? " (a retry: this puzzle counts as failed)" : "";
  if (c.state === "play") {
    v.textContent = c.mine === 0 ? "Your move." : "Right. Your move (" + count(c.mine) + " played).";
  } else if (c.state === "reply") {
    v.textContent = "Right: the computer answers.";
  } else if (c.state === "solved") {
    v.textContent = "Solved" + counted + ": " + (p.value === "win" ? "the win is completed" :
                    "the draw kept for " + count(c.mine) + " moves") +
                    (S.data && S.data.game_over ? " (" + S.data.game_over.text + ")." : ".");
  } else if (c.state === "failed") {
    // the wrong try, its result, and the line that refutes it (the API's principal variation after it)
    var before = S.answers[c.ply - 1], after = S.answers[c.ply], entry = ratedMove(before, c.move);
    var gives = !entry ? "gives the value away" : entry.result === "draw" ? "only draws" :
                "loses (" + valueText(entry.result, entry.plies) + ")";
    v.textContent = "Failed: " + c.move + " " + gives + "; another move keeps the " +
                    (before.value === "win" ? valueText(before.value, before.plies) : "draw") + ". " +
                    (after.game_over ? after.game_over.text + "." : "");
    if (!after.game_over && after.pv.length) {
      var ref = document.createElement("div");
      ref.id = "puzzle-refutation";
      ref.setAttribute("data-pv", after.pv.join(","));
      ref.textContent = "The refutation: " + after.pv.join(" ") + (after.pv_end ? " (" + after.pv_end.text + ")" : "") + ".";
      v.appendChild(ref);
    }
  } else {
    v.textContent = "The solution shown: this puzzle counts as failed.";
  }
  box.appendChild(v);
  // a wrong try or a puzzle solved: its verdict (far below the board) brought into view, once, and focused
  var ended = c.state === "failed" || c.state === "solved" ? p.seed + "|" + S.line.slice(0, S.pos).join(",") : "";
  if (ended && ended !== endShown) {
    v.tabIndex = -1;
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    setTimeout(function () {
      v.scrollIntoView({ block: "center", behavior: still ? "auto" : "smooth" });
      v.focus({ preventScroll: true });
    }, 0);
  }
  endShown = ended;
  if (c.state === "solved" || c.state === "failed" || c.state === "shown") {
    var row = document.createElement("div");
    row.className = "controls";
    row.appendChild(button("puzzle-again", "Retry", retryPuzzle));
    row.appendChild(button("puzzle-next", "Next puzzle", nextPuzzle));
    box.appendChild(row);
  }
  var solved = scoreOf("solved"), failed = scoreOf("failed");
  var score = document.createElement("div");
  score.id = "puzzles-solved";
  score.textContent = "Puzzles in this browser: " + count(solved.all) + " solved, " + count(failed.all) + " failed.";
  box.appendChild(score);
  var grades = document.createElement("div");
  grades.id = "puzzles-by-grade";
  grades.textContent = "By grade (solved / failed): " + GRADES.map(function (g) {
    return g + " " + count(solved.by[g]) + " / " + count(failed.by[g]);
  }).join(", ") + ".";
  box.appendChild(grades);
  if (S.puzzleShown) {
    var sol = document.createElement("div");
    sol.id = "puzzle-answer";
    sol.setAttribute("data-solution", p.solution);
    sol.textContent = "Solution: " + p.solution;
    box.appendChild(sol);
  }
}
