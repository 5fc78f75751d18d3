// The reading picker and the rules text, from GET /api/v2/rules.
// @ts-check
import { markTops } from "./board.js";
import { boardSvg } from "./api.js";
import { setReadings } from "./ctrl.js";
import { $, S } from "./state.js";

/** @typedef {import("./types").Reading} Reading */

// The named variants, then (static mode) the other readings of the rules:
// the line rule and the pieces each player has (README, "Rules").
/** @param {Reading[]} list */
export function populateVariants(list) {
  setReadings(list);
  var sel = $("variant");
  sel.innerHTML = "";
  var named = list.filter(function (v) { return v.named; });
  /** @type {[string | null, Reading[]][]} */
  var groups = [[list.length > named.length ? "Named variants" : null, named]];
  // the other readings, grouped under the named variant whose cap and adjacency they share
  named.forEach(function (n) {
    var mine = list.filter(function (v) { return !v.named && v.slug.indexOf(n.slug + "-") === 0; });
    if (mine.length) groups.push([n.name + ": other rules", mine]);
  });
  groups.forEach(function (g) {
    /** @type {HTMLSelectElement | HTMLOptGroupElement} */
    var parent = sel;
    if (g[0]) {
      var group = document.createElement("optgroup");
      group.label = g[0];
      sel.appendChild(group);
      parent = group;
    }
    g[1].forEach(function (v) {
      var o = document.createElement("option");
      o.value = v.name;
      o.textContent = v.name;
      if (v.description) o.title = v.description;
      parent.appendChild(o);
    });
  });
}
export function renderRulesInPlay() {
  var v = S.variantInfo && S.variantInfo[S.variant];
  $("rules-now").textContent = v && v.description ? "Rules in play (" + v.name + "): " + v.description + "." : "";
  $("rules-text").textContent = v && v.rules_text ? v.rules_text.join(" ") : "";
}

// The legend's stack: the engine's own picture of a black triangle stacked on
// a white circle (space 1 after C1, t1), cut down to that space, its top piece
// marked as the board marks it.
export function loadLegendStack() {
  var box = $("legend-stack");
  if (box.childNodes.length) return Promise.resolve();
  return boardSvg("standard", ["C1", "t1"], null).then(function (text) {
    if (box.childNodes.length) return;
    /** @type {Element} */
    var svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    var space = svg.querySelector('circle.space[data-space="1"]');
    if (!space) return;
    var x = parseFloat(space.getAttribute("cx") || "0"), y = parseFloat(space.getAttribute("cy") || "0");
    // only the stack, its space and the lines through it
    svg.querySelectorAll("text, title, .best, .supply, .space:not([data-space='1']), .piece:not([data-space='1'])")
      .forEach(function (e) { e.remove(); });
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("viewBox", (x - 30) + " " + (y - 30) + " 60 60");
    svg = document.importNode(svg, true);
    markTops(svg);
    box.appendChild(svg);
  }, function () { /* the legend's words say it without the picture */ });
}
