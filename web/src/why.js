// @ts-check
import { getPos } from "./engine.js";
import { plyLabel, valueText } from "./results.js";
import { sideName } from "./seen.js";
import { $, PV_SHOWN, S, count, errText, shownPosition } from "./state.js";

// ---- "why does this lose?": the best line after a move ------------------------
// The position after the move (its answer carries its principal variation),
// each move of the line numbered by its ply in the game.
/** @param {import("./types").RatedMove} m */
export function showRefutation(m) {
  var box = $("refutation");
  if (box.getAttribute("data-for") === m.move && box.textContent) return;
  var token = S.token, base = S.line.slice(0, S.pos), mover = shownPosition().to_move;
  var after = base.concat([m.move]);
  getPos(after).then(function (pos) {
    if (token !== S.token) return;
    // a move that ends the game (a line formed): its end is the refutation
    var line = pos.game_over ? [] : pos.pv || [], end = pos.game_over || pos.pv_end;
    box.innerHTML = "";
    box.setAttribute("data-for", m.move);
    var head = document.createElement("div");
    head.textContent = "After " + plyLabel(after.length) + " " + m.move + " (" + valueText(m.result, m.plies) +
                       " for " + sideName(mover) + "), best play: ";
    box.appendChild(head);
    var shown = line.slice(0, PV_SHOWN);
    shown.forEach(function (x, i) {
      var sp = document.createElement("span");
      sp.className = "refm";
      sp.setAttribute("data-move", x);
      sp.setAttribute("data-ply", String(after.length + i + 1));
      sp.textContent = plyLabel(after.length + i + 1) + "\u00a0" + x + " ";
      box.appendChild(sp);
    });
    var tail = document.createElement("div");
    tail.className = "ref-end";
    tail.textContent = (line.length > shown.length ? "\u2026 " + count(line.length - shown.length) + " more, " : "") +
                       (end && end.text ? "\u2192 " + end.text : "\u2026 continues drawn");
    box.appendChild(tail);
  }, function (e) { if (token === S.token) box.textContent = "(no line: " + errText(e) + ")"; });
}
