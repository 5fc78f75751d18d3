// @ts-check
import { el } from "./board.js";
import { goTo } from "./play.js";
import { RANK, moverResult } from "./results.js";
import { $, S, actionable } from "./state.js";

// ---- the value history ---------------------------------------------------------
// The value of answer a (a position of the game) for White: {cat, plies}.
export function whiteValue(a) {
  if (a.game_over) {
    if (!a.game_over.loser) return { cat: "draw", plies: null };
    return { cat: a.game_over.loser === "white" ? "loss" : "win", plies: 0 };
  }
  var cat = a.category || "draw";
  if (a.to_move === "black" && cat !== "draw") cat = cat === "win" ? "loss" : "win";
  return { cat: cat, plies: cat === "draw" ? null : a.plies };
}
// Move i of the line (from answer i) made its mover's result worse than the position's value.
export function isBlunder(i) {
  var before = S.all[i], entry = null;
  if (!before) return false;
  before.moves.forEach(function (m) { if (m.move === S.line[i]) entry = m; });
  return !!entry && RANK[moverResult(entry).cat] < RANK[before.category || "draw"];
}
export function renderChart() {
  var box = $("chart");
  box.innerHTML = "";
  var n = S.all.length - 1, W = 600, H = 170, X0 = 30, X1 = 585, YM = 85, YA = 68;
  var vals = S.all.map(whiteValue);
  var maxPlies = 1;
  vals.forEach(function (v) { if (v.plies != null && v.plies > maxPlies) maxPlies = v.plies; });
  var xOf = function (i) { return n ? X0 + (X1 - X0) * i / n : (X0 + X1) / 2; };
  // a faster result lies further from the middle line
  var yOf = function (v) {
    if (v.cat === "draw") return YM;
    var m = 0.35 + 0.65 * (1 - v.plies / (maxPlies + 1));
    return YM - (v.cat === "win" ? 1 : -1) * YA * m;
  };
  var svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "group", "aria-label": "value for White after each ply" }, box);
  var ink = getComputedStyle(document.body).color;
  el("line", { x1: X0, x2: X1, y1: YM, y2: YM, stroke: ink, "stroke-opacity": 0.35, "stroke-dasharray": "4 4" }, svg);
  // the picture is scaled to the box's width: its words are sized so that they
  // show at least 13 px high at any width (a phone's box is half the picture's width)
  var shown = box.getBoundingClientRect().width || W;
  var fs = Math.max(13, Math.ceil(13 * W / shown));
  /** @type {[string, number][]} */ ([["White wins", Math.max(fs, YM - YA - 4)], ["draw", YM - 4], ["Black wins", YM + YA + 12]]).forEach(function (l) {
    var t = el("text", { x: 2, y: l[1], "font-size": fs, fill: ink }, svg);
    t.textContent = l[0];
  });
  el("polyline", { points: vals.map(function (v, i) { return xOf(i) + "," + yOf(v); }).join(" "),
                   fill: "none", stroke: ink, "stroke-opacity": 0.5, "stroke-width": 1.5 }, svg);
  var COL = { win: "#17692f", draw: "#555b66", loss: "#b0281a" };
  vals.forEach(function (v, i) {
    var x = xOf(i), y = yOf(v), blunder = i > 0 && isBlunder(i - 1);
    var text = v.cat === "draw" ? "draw" : v.cat + " in " + v.plies;
    var g = el("g", { "class": "pt" + (blunder ? " blunder" : "") + (i === S.pos ? " current" : ""),
                      "data-ply": i, "data-value": text }, svg);
    if (blunder) el("circle", { cx: x, cy: y, r: 10, fill: "none", stroke: "#b0281a", "stroke-width": 2.5 }, g);
    if (i === S.pos) el("circle", { cx: x, cy: y, r: 13, fill: "none", stroke: "#f0b400", "stroke-width": 3 }, g);
    // shapes as well as colours: up for White winning, down for Black, a square for a draw
    if (v.cat === "draw") el("rect", { x: x - 4.5, y: y - 4.5, width: 9, height: 9, fill: COL.draw }, g);
    else el("polygon", { points: v.cat === "win" ? (x + "," + (y - 7) + " " + (x - 6) + "," + (y + 5) + " " + (x + 6) + "," + (y + 5))
                                                 : (x + "," + (y + 7) + " " + (x - 6) + "," + (y - 5) + " " + (x + 6) + "," + (y - 5)),
                         fill: COL[v.cat] }, g);
    el("circle", { cx: x, cy: y, r: 12, fill: "transparent" }, g);
    var label = "ply " + i + (i ? " (after " + S.line[i - 1] + ")" : " (start)") + ": White " + text + (blunder ? ", after a blunder" : "");
    var t = el("title", {}, g);
    t.textContent = label;
    actionable(g, label, function () { goTo(i); });
  });
}
