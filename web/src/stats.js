// @ts-check
import { stats } from "./api.js";
import { go } from "./ctrl.js";
import { valueText } from "./results.js";
import { $, S, count, errText } from "./state.js";

// ---- statistics of the variant's table ------------------------------------------
export function loadStats() {
  var body = $("stats-body"), variant = S.variant;
  if (body.getAttribute("data-variant") === variant) return;
  body.textContent = "Counting\u2026";
  stats(variant).then(function (st) {
    if (variant !== S.variant) return;
    body.innerHTML = "";
    body.setAttribute("data-variant", variant);
    var p = document.createElement("p");
    p.textContent = count(st.positions.reachable) + " positions reachable: " +
      count(st.positions.win) + " won, " + count(st.positions.draw) + " drawn, " +
      count(st.positions.loss) + " lost for the side to move (" + count(st.classes) +
      " up to symmetry). Won and lost positions by plies to the end:";
    body.appendChild(p);
    var wrap = document.createElement("div");
    wrap.className = "plies-table";
    wrap.setAttribute("tabindex", "0");
    wrap.setAttribute("aria-label", "positions won and lost by plies to the end");
    var t = document.createElement("table");
    t.innerHTML = "<thead><tr><th>plies</th><th>won</th><th>lost</th></tr></thead>";
    var tb = document.createElement("tbody");
    st.by_plies.forEach(function (r) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-plies", String(r.plies));
      [r.plies, r.win, r.loss].forEach(function (x) { var td = document.createElement("td"); td.textContent = count(x); tr.appendChild(td); });
      tb.appendChild(tr);
    });
    t.appendChild(tb);
    wrap.appendChild(t);
    body.appendChild(wrap);
    var h = document.createElement("p");
    h.textContent = "The longest wins (click one to explore it):";
    body.appendChild(h);
    st.longest_wins.forEach(function (w) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "longest";
      b.setAttribute("data-position", w.position);
      b.textContent = w.position + ": " + valueText(w.value, w.plies) + ": " + w.line.join(" ");
      b.addEventListener("click", function () { go(S.variant, [], 0, "push", { start: w.position }); });
      body.appendChild(b);
    });
  }, function (e) { body.textContent = "(no statistics: " + errText(e) + ")"; });
}
