// The value, the legal moves, the moves played and the principal variation.
// @ts-check
import { go, goTo, humanPlay } from "./ctrl.js";
import { isBlunderMove, plyLabel, ratedMove, resultOf, valueText } from "./results.js";
import { analysisShown, gameEnd, isComputer, matchOn, placing, playerName, puzzleHides, sideName } from "./seen.js";
import { $, PV_SHOWN, S, actionable, count, listAction, shownPosition } from "./state.js";
import { showRefutation } from "./why.js";

export function applyAnalysis() {
  var shown = analysisShown();
  document.body.setAttribute("data-analysis", shown ? "shown" : "hidden");
  var b = $("analysis-toggle");
  b.textContent = shown ? "Hide analysis" : "Show analysis";
  b.setAttribute("aria-pressed", shown ? "true" : "false");
  // a puzzle being played hides the analysis whatever is asked: the button says so, disabled
  var puzzling = puzzleHides();
  b.disabled = puzzling;
  $("analysis-why").hidden = !puzzling;
  if (puzzling) b.setAttribute("aria-describedby", "analysis-why");
  else b.removeAttribute("aria-describedby");
  // during a game against the computer its Hints switch stands in for the analysis button
  var playing = matchOn() && !gameEnd();
  b.hidden = playing;
  var h = $("hints");
  h.hidden = !playing;
  var hints = playing && !!S.match && S.match.hints;
  h.setAttribute("aria-checked", hints ? "true" : "false");
  h.textContent = hints ? "Hints: on" : "Hints: off";
}
export function renderValue() {
  applyAnalysis();
  var d = shownPosition();
  var v = $("value"), tm = $("to-move"), cap = $("caption");
  if (d.game_over) {
    v.textContent = d.game_over.text;
    v.className = "over";
    tm.textContent = "Game over";
    cap.textContent = "Game over: " + d.game_over.text;
    cap.className = "over";
  } else if (!analysisShown()) {
    // no value anywhere: not in the panel's text, nor in its class
    v.textContent = "";
    v.className = "";
    tm.textContent = sideName(d.to_move) + " to move";
    var mover = isComputer(d.to_move) ? " (" + playerName(d.to_move) + ")" : matchOn() ? " (you)" + howToMove() : "";
    cap.textContent = sideName(d.to_move) + " to move" + mover;
    cap.className = "";
  } else {
    v.textContent = valueText(d.value, d.plies);
    v.className = d.value || "";
    tm.textContent = sideName(d.to_move) + " to move" + (d.history_note ? " (" + d.history_note + ")" : "");
    var who = isComputer(d.to_move) ? " (" + playerName(d.to_move) + ")" : "";
    cap.textContent = sideName(d.to_move) + " to move" + who +
      (analysisShown() ? ": " + valueText(d.value, d.plies) : "");
    cap.className = "";
  }
}

// What a click does on the person's turn of a game against the computer: a
// newcomer's first click on a space did nothing they could see when two
// shapes could go there.
function howToMove() {
  return placing() ? ": pick a circle or a triangle, then a space" : ": pick a piece, then where it goes";
}

/** A result in words, as a span its class colours. @param {import("./results.js").Result} r */
export function resSpan(r) {
  var s = document.createElement("span");
  s.className = "res " + r.cat;
  s.textContent = r.text;
  return s;
}

export function renderLegal() {
  var ul = $("legal-moves");
  ul.innerHTML = "";
  if (!analysisShown()) return;  // the list rates every move: out of the page while values are hidden
  var d = shownPosition();
  d.moves.forEach(function (m) {
    var r = resultOf(m);
    var li = document.createElement("li");
    li.setAttribute("data-move", m.move);
    li.setAttribute("data-result", r.text);
    li.title = m.position + (m.repeats ? " (repeats)" : "");
    li.appendChild(document.createTextNode(m.move + " "));
    li.appendChild(resSpan(r));
    var name = "play " + m.move + ": " + r.text + " for the mover";
    if (m.trap && m.trap.choices) {
      var tr = document.createElement("span");
      tr.className = "trap";
      tr.setAttribute("data-trap", m.trap.errors + "/" + m.trap.choices);
      tr.textContent = " " + count(m.trap.errors) + "/" + count(m.trap.choices) + " replies lose";
      tr.title = "of the opponent's " + m.trap.choices + " replies that form no line, " + m.trap.errors + " lose";
      li.appendChild(tr);
      name += ", " + count(m.trap.errors) + " of " + count(m.trap.choices) + " replies lose";
    }
    listAction(li, name, function () { humanPlay(m.move); });
    var why = document.createElement("button");
    why.type = "button";
    why.className = "why";
    why.textContent = "why?";
    why.setAttribute("aria-label", "why " + m.move + " is " + r.text + ": the best line after it");
    why.addEventListener("click", function (e) { e.stopPropagation(); showRefutation(m); });
    why.addEventListener("keydown", function (e) { e.stopPropagation(); });
    why.addEventListener("focus", function () { showRefutation(m); });
    li.addEventListener("mouseenter", function () { showRefutation(m); });
    li.appendChild(why);
    ul.appendChild(li);
  });
  if (!d.moves.length) {
    var li = document.createElement("li");
    li.textContent = d.game_over ? "none (game over)" : "none";
    li.className = "empty";
    li.style.cursor = "default";
    ul.appendChild(li);
  }
}

export function renderPlayed() {
  var ol = $("moves-played");
  ol.innerHTML = "";
  S.line.forEach(function (mv, i) {
    var li = document.createElement("li");
    li.setAttribute("data-move", mv);
    li.setAttribute("data-ply", String(i + 1));
    var before = S.answers[i];
    li.appendChild(document.createTextNode(plyLabel(i + 1) + " " + mv + " "));
    if (i >= S.pos) {
      li.classList.add("future");
      li.setAttribute("data-future", "1");
    } else if (before && analysisShown()) {  // an open puzzle's tries, a game against the computer: no result
      var entry = ratedMove(before, mv);
      if (entry) {
        var r = resultOf(entry);
        li.setAttribute("data-result", r.text);
        li.appendChild(resSpan(r));
        if (isBlunderMove(before, entry)) {
          li.classList.add("blunder");
          li.setAttribute("data-blunder", "1");
          var b = document.createElement("span");
          b.className = "blunder-mark";
          b.textContent = " ?? ";
          b.title = "blunder: position was " + valueText(before.value, before.plies) + " for the mover";
          li.appendChild(b);
        }
      }
    }
    if (i === S.pos - 1) li.classList.add("current");
    li.title = "go to the position after this move";
    listAction(li, "go to ply " + (i + 1) + ", " + mv + (li.getAttribute("data-result") ? ": " +
               li.getAttribute("data-result") + " for the mover" : "") + (li.getAttribute("data-blunder") ? ", a blunder" : ""),
               function () { goTo(i + 1); });
    ol.appendChild(li);
  });
}

// The principal variation of the position shown (its answer's pv, pv_end and
// pv_continues_drawn), each move numbered by its ply in the game.
export function renderPv() {
  var box = $("pv"), d = shownPosition();
  box.innerHTML = "";
  if (!analysisShown()) return;
  var line = d.pv || [], end = d.pv_end;
  if (!line.length) box.appendChild(document.createTextNode("(no moves) "));
  var shown = line.slice(0, PV_SHOWN);
  shown.forEach(function (mv, i) {
    var ply = S.pos + i + 1;
    var sp = document.createElement("span");
    sp.className = "pvm";
    sp.setAttribute("data-move", mv);
    sp.setAttribute("data-ply", String(ply));
    sp.textContent = plyLabel(ply) + "\u00a0" + mv;
    sp.title = "play up to here";
    actionable(sp, "play the principal variation up to ply " + ply + ", " + mv, function () {
      if (S.busy || S.thinking) return;
      var extra = shown.slice(0, i + 1);
      go(S.variant, S.line.slice(0, S.pos).concat(extra), S.pos + extra.length, "push");
    });
    box.appendChild(sp);
    box.appendChild(document.createTextNode(" "));
  });
  var e = document.createElement("div");
  e.className = "pv-end";
  // pv_continues_drawn: the engine cut a drawn line (no repetition yet) at its bound.
  var stopped = d.pv_continues_drawn ? "; the line stops after " + line.length +
    " moves with no repetition yet, and best play keeps the draw" : "";
  if (line.length > shown.length) {
    e.setAttribute("data-cut", "1");
    var more = line.length - shown.length;
    e.textContent = "\u2026 continues " + (d.value === "draw" ? "drawn " : "") + "for " + more +
                    " more move" + (more === 1 ? "" : "s") +
                    (end && end.text ? " \u2192 " + end.text : " (not shown)") + stopped;
  } else if (end && end.text) {
    e.textContent = "\u2192 " + end.text;
  } else if (line.length) {
    e.textContent = "\u2026 continues drawn" + stopped;
  }
  if (e.textContent) box.appendChild(e);
}
