// @ts-check
// The review of the game shown: each side's mistakes in the engine's words
// (GET /api/v2/{variant}/review, one C++ function behind every front end),
// the first decisive one marked, a jump to the position it was made in, the
// best move there and the line that refutes it. The page computes nothing.
import { focusBoard, gameKey, goTo } from "./ctrl.js";
import { plyLabel } from "./results.js";
import { $, COLOURS, S } from "./state.js";

/** @typedef {import("./types").ReviewAnswer} ReviewAnswer @typedef {import("./types").ReviewPly} ReviewPly */



/** A line of moves numbered by ply, from ply `first`. @param {string[]} moves @param {number} first */
function numbered(moves, first) {
  return moves.map(function (m, i) { return plyLabel(first + i) + "\u00a0" + m; }).join(" ");
}

/** The review panel: shown while the review of the game shown is asked for or in hand. */
export function renderReview() {
  var box = $("review"), body = $("review-body");
  var rv = S.review;
  box.hidden = !rv || rv.key !== gameKey();
  if (!rv || box.hidden) return;
  body.setAttribute("data-state", rv.state);
  if (rv.state !== "shown") {
    body.textContent = rv.state === "loading" ? "Reviewing the game\u2026" : rv.message;
    return;
  }
  if (!rv.answer) return;
  var r = rv.answer;
  body.innerHTML = "";
  var sum = document.createElement("p");
  sum.id = "review-summary";
  var you = S.match ? " (you played " + (S.match.human === "white" ? "White" : "Black") + ")" : "";
  sum.textContent = r.end.text + ". Mistakes: White " + r.mistakes.white + ", Black " + r.mistakes.black + you + "." +
    (rv.hintsUsed ? " Hints were used in this game." : "");
  body.appendChild(sum);
  COLOURS.forEach(function (side) {
    var mine = r.plies.filter(function (p) { return p.mover === side && p.mistake; });
    var h = document.createElement("h3");
    h.textContent = (side === "white" ? "White" : "Black") + "'s mistakes";
    body.appendChild(h);
    if (!mine.length) {
      var none = document.createElement("p");
      none.textContent = "None: every move kept its result.";
      body.appendChild(none);
      return;
    }
    var ol = document.createElement("ol");
    ol.className = "review-list";
    ol.setAttribute("data-side", side);
    mine.forEach(function (p) { ol.appendChild(mistakeItem(p)); });
    body.appendChild(ol);
  });
}

/** One mistake: its words, the first decisive one marked, a jump to it, the best move and the refutation.
 *  @param {ReviewPly} p */
function mistakeItem(p) {
  var li = document.createElement("li");
  li.setAttribute("data-ply", String(p.ply));
  li.setAttribute("data-move", p.move);
  if (p.decisive) {
    li.setAttribute("data-decisive", "1");
    li.className = "decisive";
    var mark = document.createElement("strong");
    mark.textContent = "The first decisive mistake: ";
    li.appendChild(mark);
  }
  li.appendChild(document.createTextNode(p.text || ""));
  var best = document.createElement("div");
  best.className = "review-best";
  best.setAttribute("data-best", (p.best || []).join(","));
  best.textContent = "Best instead: " + (p.best && p.best.length ? p.best.join(", ") : "none");
  li.appendChild(best);
  var ref = document.createElement("div");
  ref.className = "review-refutation";
  ref.setAttribute("data-refutation", (p.refutation || []).join(","));
  ref.textContent = "After " + plyLabel(p.ply) + " " + p.move + ": " + (p.refutation && p.refutation.length
    ? numbered(p.refutation, p.ply + 1) + (p.refutation_close || "") : "the game is over");
  li.appendChild(ref);
  var jump = document.createElement("button");
  jump.type = "button";
  jump.className = "review-jump";
  jump.textContent = "Go to ply " + p.ply;
  jump.setAttribute("aria-label", "go to the position where " + plyLabel(p.ply) + " " + p.move + " was played");
  jump.addEventListener("click", function () {
    // the panels are drawn again: the keyboard's place stays on this mistake's jump (else the board)
    goTo(p.ply - 1).then(function () {
      var again = /** @type {HTMLElement | null} */ (document.querySelector('#review-body li[data-ply="' + p.ply + '"] .review-jump'));
      if (again) again.focus();
      else focusBoard(p.move);
    });
  });
  li.appendChild(jump);
  return li;
}
