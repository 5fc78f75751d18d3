// @ts-check
// The page's panels: each a function of the state (S), registered once
// (main.js) in the order render() draws them. Adding a panel is one module
// and one line there. This module imports nothing: any module may redraw.

/** @type {{name: string, draw: () => void}[]} */
var PANELS = [];
/** @param {string} name @param {() => void} draw */
export function addPanel(name, draw) { PANELS.push({ name: name, draw: draw }); }
/** Draws every panel from the state, in order (only those named, when names are given).
 *  @param {string[]} [names] */
export function renderPanels(names) {
  PANELS.forEach(function (p) {
    if (names && names.indexOf(p.name) < 0) return;
    var t = performance.now();
    p.draw();
    drawMs[p.name] = performance.now() - t;
  });
}
/** The ms each panel took when last drawn (bench/static-explorer.py reads them). @type {Record<string, number>} */
var drawMs = {};
/** @returns {Record<string, number>} a copy of the panels' last drawing times */
export function lastDrawTimes() { return Object.assign({}, drawMs); }
/** The names of the panels, in order (for the tests). @returns {string[]} */
export function panelNames() { return PANELS.map(function (p) { return p.name; }); }
