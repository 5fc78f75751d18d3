// @ts-check
import { apiJson, getPos, gp, vpath } from "./engine.js";
import { sideName } from "./panels.js";
import { moverResult } from "./results.js";
import { $, PV_SHOWN, S, count, errText } from "./state.js";

// ---- "why does this lose?": the best line after a move ------------------------
export function showRefutation(m) {
  var box = $("refutation");
  if (box.getAttribute("data-for") === m.move && box.textContent) return;
  var token = S.token, base = S.line.slice(0, S.pos), r = moverResult(m), mover = S.data.to_move;
  var after = base.concat([m.move]);
  Promise.all([getPos(after), apiJson(vpath("mainline"), gp(after))]).then(function (both) {
    var pos = both[0], pv = both[1];
    if (token !== S.token) return;
    // a move that ends the game (a line formed): its end is the refutation
    if (pos.game_over) pv = { mainline: [], end: pos.game_over };
    box.innerHTML = "";
    box.setAttribute("data-for", m.move);
    var head = document.createElement("div");
    head.textContent = "After " + m.move + " (" + r.text + " for " + sideName(mover) + "), best play: ";
    box.appendChild(head);
    var line = pv.mainline || [], shown = line.slice(0, PV_SHOWN);
    shown.forEach(function (x) {
      var sp = document.createElement("span");
      sp.className = "refm";
      sp.setAttribute("data-move", x.move);
      sp.textContent = x.move + " ";
      box.appendChild(sp);
    });
    var end = document.createElement("div");
    end.className = "ref-end";
    end.textContent = (line.length > shown.length ? "\u2026 " + count(line.length - shown.length) + " more, " : "") +
                      (pv.end && pv.end.text ? "\u2192 " + pv.end.text : "\u2026 continues drawn");
    box.appendChild(end);
  }, function (e) { if (token === S.token) box.textContent = "(no line: " + errText(e) + ")"; });
}
