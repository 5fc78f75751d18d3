// @ts-check
import { el } from "./board.js";
import { goTo } from "./ctrl.js";
import { isBlunderMove, ratedMove, valueText } from "./results.js";
import { analysisShown } from "./seen.js";
import { $, S, actionable } from "./state.js";

// ---- the results by ply ---------------------------------------------------------
// Point i of the line, as the API gives it: for the start (i = 0) its value
// for the side to move; for ply i (the ith move played) that move's result
// for its mover, from the answer of the position it was played in.
/**
 * A point of the value history: whose result, which, in how many plies, by which move (none at the start).
 * @typedef {{side: import("./types").Colour, cat: import("./types").Value, plies: number | null, move: string | null}} ChartPoint
 */
/** @param {number} i @returns {ChartPoint} */
export function chartPoint(i) {
  var before = i > 0 ? S.all[i - 1] : null, entry = before ? ratedMove(before, S.line[i - 1]) : null;
  if (entry && before) return { side: before.to_move, cat: entry.result, plies: entry.plies, move: entry.move };
  var a = S.all[i];
  return { side: a.to_move, cat: a.value, plies: a.plies, move: null };
}
// Move i of the line (from answer i) made its mover's result worse than the position's value.
/** @param {number} i */
export function isBlunder(i) {
  return isBlunderMove(S.all[i], S.all[i] ? ratedMove(S.all[i], S.line[i]) : null);
}
// The chart box's width as last laid out (a ResizeObserver keeps it): reading
// it from the box while drawing would force a layout of the whole page on every move.
var shownWidth = 0;
/** Draws the chart again when its box's width changes (the window's, or the chart shown after it was hidden). */
export function watchChartWidth() {
  if (typeof ResizeObserver === "undefined") return;
  new ResizeObserver(function (entries) {
    var w = Math.round(entries[0].contentRect.width);
    // (while the page is busy, the answer on its way draws the chart for the width it finds)
    if (w === shownWidth || !w) return;
    shownWidth = w;
    if (S.data && !S.busy) renderChart();
  }).observe($("chart"));
}
export function renderChart() {
  var box = $("chart");
  box.innerHTML = "";
  if (!analysisShown()) return;  // each point is a value
  var n = S.all.length - 1, W = 600, H = 170, X0 = 30, X1 = 585, YM = 85, YA = 68;
  var vals = S.all.map(function (_, i) { return chartPoint(i); });
  var maxPlies = 1;
  vals.forEach(function (v) { if (v.plies != null && v.plies > maxPlies) maxPlies = v.plies; });
  /** @param {number} i */
  var xOf = function (i) { return n ? X0 + (X1 - X0) * i / n : (X0 + X1) / 2; };
  // White's wins above the middle line, Black's below (the point's side won or
  // lost); a faster result lies further from the middle line
  /** @param {ChartPoint} v */
  var whiteWins = function (v) { return (v.side === "white") === (v.cat === "win"); };
  /** @param {ChartPoint} v */
  var yOf = function (v) {
    if (v.cat === "draw") return YM;
    var m = 0.35 + 0.65 * (1 - (v.plies || 0) / (maxPlies + 1));
    return YM - (whiteWins(v) ? 1 : -1) * YA * m;
  };
  var svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "group",
                        "aria-label": "each ply's result for its mover (White's wins above the line)" }, box);
  var ink = "currentColor";  // the page's text colour, light or dark
  el("line", { x1: X0, x2: X1, y1: YM, y2: YM, stroke: ink, "stroke-opacity": 0.35, "stroke-dasharray": "4 4" }, svg);
  // the picture is scaled to the box's width: its words are sized so that they
  // show at least 13 px high at any width (a phone's box is half the picture's width)
  var shown = shownWidth || W;
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
    var text = valueText(v.cat, v.plies), who = v.side === "white" ? "White" : "Black";
    var g = el("g", { "class": "pt" + (blunder ? " blunder" : "") + (i === S.pos ? " current" : ""),
                      "data-ply": i, "data-value": text, "data-side": v.side }, svg);
    if (blunder) el("circle", { cx: x, cy: y, r: 10, fill: "none", stroke: "#b0281a", "stroke-width": 2.5 }, g);
    if (i === S.pos) el("circle", { cx: x, cy: y, r: 13, fill: "none", stroke: "#f0b400", "stroke-width": 3 }, g);
    // shapes as well as colours: up for White winning, down for Black, a square for a draw
    if (v.cat === "draw") el("rect", { x: x - 4.5, y: y - 4.5, width: 9, height: 9, fill: COL.draw }, g);
    else el("polygon", { points: whiteWins(v) ? (x + "," + (y - 7) + " " + (x - 6) + "," + (y + 5) + " " + (x + 6) + "," + (y + 5))
                                                 : (x + "," + (y + 7) + " " + (x - 6) + "," + (y - 5) + " " + (x + 6) + "," + (y - 5)),
                         fill: whiteWins(v) ? COL.win : COL.loss }, g);
    el("circle", { cx: x, cy: y, r: 12, fill: "transparent" }, g);
    var label = (v.move ? "ply " + i + ", " + v.move + ": " + text + " for " + who
                        : "start: " + who + " to move, " + text) + (blunder ? ", a blunder" : "");
    var t = el("title", {}, g);
    t.textContent = label;
    actionable(g, label, function () { goTo(i); });
  });
}
