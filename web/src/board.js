// @ts-check
import { boardDrawn, dragMove, keepFocus, onShape, onSpace } from "./ctrl.js";
import { editSpace } from "./editor.js";
import { renderPanels } from "./registry.js";
import { ratedMove, resultOf } from "./results.js";
import { analysisShown, movesFrom, placementsOf } from "./seen.js";
import { $, COLOURS, S, SHAPES, SVGNS, actionable, shownPosition, spaceLabel } from "./state.js";

/**
 * A mark on a space: where the piece picked (or the shape) may go, or a piece that may move, with its result.
 * @typedef {{space: number, r: import("./results.js").Result, move?: string, piece?: boolean}} Mark
 * @typedef {import("./types").Point} Point
 */

// ---- rendering --------------------------------------------------------------
// The board: the engine's picture of the position shown (S.svgText, the
// controller's), with its spaces made controls.
export function renderBoardPanel() {
  if (!S.svgText) return;
  renderBoard(S.svgText);
  if (draft && (draft.on !== S.svgText || !$("editor").open)) draft = null;
  // (the page's words of the last position analysed are not the draft's: out of sight meanwhile)
  document.body.toggleAttribute("data-draft", !!draft);
  var shown = S.variant + "|" + (S.start || "") + "|" + S.line.slice(0, S.pos).join(",");
  // one move on from the position drawn before: that move, played out briefly
  if (lastShown && S.pos > 0 && lastShown === S.variant + "|" + (S.start || "") + "|" + S.line.slice(0, S.pos - 1).join(","))
    animateMove(S.line[S.pos - 1]);
  lastShown = shown;
}
/** The game's moves drawn last (the board panel's own memory, to animate the next move). @type {string | null} */
var lastShown = null;
/** The editor's text the engine does not analyse (no game reaches it, or it is not legal), drawn on the board
 *  over the picture it was edited on (the board panel's own memory). @type {{stacks: string[], text: string, on: string} | null} */
var draft = null;
// An edit the engine will not analyse still shows on the board at once: its
// stacks drawn as the engine draws pieces (the picture's own geometry: 16
// apart up and to the right, bottom to top), the old picture's marks and supply
// taken away; the editor's one-line check says why it is not a position to explore.
/** @param {string | null} text the editor's text ("stacks side"), or null: no draft */
export function showDraft(text) {
  var stacks = text ? text.split(/[ _]/)[0].split("/") : [];
  draft = stacks.length === 7 && stacks.every(function (st) { return /^(-|[CTct]+)$/.test(st); })
    ? { stacks: stacks, text: /** @type {string} */ (text), on: S.svgText } : null;
  renderPanels(["board", "board marks"]);
}
/** @param {string[]} stacks @param {string} text */
function drawDraft(stacks, text) {
  const svg = S.svg;
  if (!svg) return;
  svg.setAttribute("data-draft", text);
  svg.querySelectorAll(".piece, .supply, .supply-label, .line-highlight, #overlay > :not(.hit)").forEach(function (e) { e.remove(); });
  var tm = svg.querySelector("text.to-move"), pos = svg.querySelector("text.position"), t = svg.querySelector("title");
  if (tm) tm.textContent = "Edited (see the check)";
  if (pos) pos.textContent = text;
  if (t) t.textContent = text;
  var below = svg.querySelector("#overlay");
  stacks.forEach(function (st, i) {
    var c = S.spaces[String(i + 1)];
    if (!c || st === "-") return;
    for (var k = 0; k < st.length; ++k) {
      var off = (k - (st.length - 1) / 2) * 16, p = { x: c.x + off, y: c.y - off }, letter = st[k];
      var white = letter === "C" || letter === "T", circle = letter === "C" || letter === "c";
      var attrs = { "class": "piece draft " + (white ? "white" : "black") + (circle ? " circle" : " triangle"),
                    "data-space": i + 1, fill: white ? "#ffffff" : "#000000", stroke: white ? "#000000" : "#9a9a9a",
                    "stroke-width": white ? 2 : 1.5 };
      var h = 15.6 * Math.sqrt(3) / 2;
      var e = circle ? el("circle", Object.assign({ cx: p.x, cy: p.y, r: 12 }, attrs))
                     : el("polygon", Object.assign({ points: p.x + "," + (p.y - 15.6) + " " + (p.x - h) + "," + (p.y + 7.8) + " " +
                                                             (p.x + h) + "," + (p.y + 7.8) }, attrs));
      svg.insertBefore(e, below);
    }
  });
  markTops(svg);
}
// The piece of the last move slides from its space (a movement) or grows in
// place (a placement), for 0.2 s; never with reduced motion, nor on a turned board.
/** @param {string} mv */
function animateMove(mv) {
  if (S.flipped || !window.matchMedia || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  var entry = ratedMove(S.answers[S.pos - 1], mv);
  if (!entry || !S.spaces[entry.to] || !S.svg) return;
  var pieces = S.svg.querySelectorAll('.piece[data-space="' + entry.to + '"]');
  var top = /** @type {SVGGraphicsElement | undefined} */ (pieces[pieces.length - 1]);
  if (!top || typeof top.animate !== "function") return;
  var to = S.spaces[entry.to], from = entry.from != null ? S.spaces[entry.from] : null;
  var frames = from ? [{ transform: "translate(" + (from.x - to.x) + "px, " + (from.y - to.y) + "px)" }, { transform: "none" }]
                    : [{ opacity: 0 }, { opacity: 1 }];
  top.animate(frames, { duration: 200, easing: "ease-out" });
}

/** The engine's picture of the position (SVG text) drawn as the board. @param {string} svgText */
export function renderBoard(svgText) {
  var board = $("board");
  var doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  /** @type {Element} */
  var svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg") throw new Error("bad SVG from the engine");
  svg = document.importNode(svg, true);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  // the picture's caption names the side to move; a finished game has none
  var tm = svg.querySelector("text.to-move");
  if (tm && shownPosition().game_over) tm.textContent = "Game over";
  board.innerHTML = "";
  board.appendChild(svg);
  /** @type {Record<string, Point>} */
  var spaces = {};
  markTops(svg);
  svg.querySelectorAll("circle.space").forEach(function (c) {
    spaces[c.getAttribute("data-space") || ""] = { x: parseFloat(c.getAttribute("cx") || "0"), y: parseFloat(c.getAttribute("cy") || "0") };
  });
  // The picture's supply beside the board picks a shape as the buttons below it do
  // (a newcomer clicks the pieces in sight).
  svg.querySelectorAll(".supply").forEach(function (p) {
    var colour = /** @type {import("./types").Colour} */ (p.classList.contains("white") ? "white" : "black");
    var shape = /** @type {import("./types").Shape} */ (p.classList.contains("circle") ? "circle" : "triangle");
    p.addEventListener("click", function () { onShape(shape, colour, shapeOptions(shape, colour).length > 0); });
  });
  boardDrawn(/** @type {SVGSVGElement} */ (svg), spaces);
}

// The top piece of each stack (the picture draws each stack bottom to top)
// glows: only it counts and moves. Also the legend's stack.
/** @param {Element} svg */
export function markTops(svg) {
  /** @type {Record<string, Element>} */
  var last = {};
  /** @type {Record<string, number>} */
  var count = {};
  svg.querySelectorAll(".piece").forEach(function (p) {
    var sp = p.getAttribute("data-space") || "";
    last[sp] = p;
    count[sp] = (count[sp] || 0) + 1;
  });
  Object.keys(last).forEach(function (sp) { if (count[sp] > 1) last[sp].classList.add("top-piece"); });
}

/**
 * An SVG element with these attributes, appended to parent if given.
 * @param {string} name @param {Record<string, string | number>} attrs @param {Element} [parent]
 * @returns {SVGElement & {style: CSSStyleDeclaration}}
 */
export function el(name, attrs, parent) {
  var e = /** @type {SVGElement} */ (document.createElementNS(SVGNS, name));
  for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(e);
  return e;
}
// The best result of some of the legal moves: the API lists them best first.
/** @param {import("./types").RatedMove[]} list */
export function bestOf(list) { return list.length ? resultOf(list[0]) : null; }

export function renderOverlay() {
  if (!S.svg) return;
  var svg = S.svg;
  var old = svg.querySelector("#overlay");
  if (old) old.remove();
  var g = el("g", { id: "overlay" }, svg);
  var d = shownPosition();
  var sel = S.selection;
  /** @type {Mark[]} */
  var markers = [];
  drawLastMove(g);
  if (sel && sel.kind === "piece") {
    movesFrom(sel.from).forEach(function (m) { markers.push({ space: m.to, r: resultOf(m), move: m.move }); });
    var p = S.spaces[sel.from];
    if (p) el("circle", { cx: p.x, cy: p.y, r: 22, fill: "none", stroke: "#f0b400", "stroke-width": 4, "class": "selection", "pointer-events": "none" }, g);
  } else if (sel && sel.kind === "shape") {
    placementsOf(sel.shape).forEach(function (m) { markers.push({ space: m.to, r: resultOf(m), move: m.move }); });
  } else if (!d.game_over) {
    /** @type {Record<number, boolean>} */
    var froms = {};
    d.moves.forEach(function (m) { if (m.from != null) froms[m.from] = true; });
    Object.keys(froms).forEach(function (f) {
      var best = bestOf(movesFrom(+f));
      if (best) markers.push({ space: +f, r: best, piece: true });
    });
  }
  var valued = analysisShown();
  markers.forEach(function (mk) {
    var p = S.spaces[mk.space];
    if (!p) return;
    if (!valued) { neutralMark(g, mk, p); return; }
    var colour = mk.r.cat === "win" ? "#17692f" : mk.r.cat === "loss" ? "#b0281a" : "#555b66";
    var mg = el("g", { "class": "marker", "data-space": mk.space, "data-result": mk.r.text, "pointer-events": "none" }, g);
    if (mk.piece) el("circle", { cx: p.x, cy: p.y, r: 19, fill: "none", stroke: colour, "stroke-width": 4, "stroke-dasharray": "5 3" }, mg);
    else el("circle", { cx: p.x, cy: p.y, r: 17, fill: colour, "fill-opacity": 0.35, stroke: colour, "stroke-width": 3 }, mg);
    var label = mk.r.cat === "draw" ? "=" : (mk.r.cat === "win" ? "+" : "-") + (mk.r.plies || "");
    var t = el("text", { x: p.x + 20, y: p.y - 16, "font-family": "sans-serif", "font-size": 14, "font-weight": "bold",
                         fill: colour, stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, mg);
    t.textContent = label;
    var title = el("title", {}, mg);
    title.textContent = (mk.move ? mk.move + ": " : "") + mk.r.text;
  });
  Object.keys(S.spaces).forEach(function (s) {
    var p = S.spaces[s];
    var h = el("circle", { "class": "hit", "data-space": s, cx: p.x, cy: p.y, r: 30, fill: "transparent", "pointer-events": "all" }, g);
    h.style.cursor = "pointer";
    actionable(h, spaceLabel(+s) + (S.selection && S.selection.kind === "piece" && S.selection.from === +s ? " (selected)" : ""),
               function (ev) {
                 ev.preventDefault();
                 if (ev.type === "keydown") keepFocus(+s);
                 // the editor's piece in hand: the click edits the position; else it plays
                 if (S.edit && $("editor").open) editSpace(+s).then(showDraft); else onSpace(+s);
               });
  });
  if (S.focusSpace) {  // keep the keyboard's place across a redraw
    var f = /** @type {SVGElement | null} */ (g.querySelector('.hit[data-space="' + S.focusSpace + '"]'));
    if (f) f.focus();
    keepFocus(null);
  }
  if (draft) drawDraft(draft.stacks, draft.text);
  // the space numbers drawn last: no ring, mark or piece of the overlay ever covers one
  svg.querySelectorAll("text.label").forEach(function (t) { svg.appendChild(t); });
  applyFlip();
}

// A mark that says where a move goes (or which piece may move) and nothing of
// its result: while values are hidden (a game against the computer, a puzzle).
/** @param {Element} g @param {{space: number, move?: string, piece?: boolean}} mk @param {{x: number, y: number}} p */
function neutralMark(g, mk, p) {
  var mg = el("g", { "class": "marker dest", "data-space": mk.space, "pointer-events": "none" }, g);
  if (mk.piece) el("circle", { cx: p.x, cy: p.y, r: 19, fill: "none", stroke: "#555b66", "stroke-width": 3, "stroke-dasharray": "5 3" }, mg);
  else el("circle", { cx: p.x, cy: p.y, r: 8, fill: "#1f5fbf", "fill-opacity": 0.75, stroke: "#ffffff", "stroke-width": 2 }, mg);
  var title = el("title", {}, mg);
  title.textContent = mk.piece ? "space " + mk.space + ": this piece can move" : (mk.move || "") + ": a legal move";
}

// The last move: a ring around the space of a placement, an arrow for a movement.
/** @param {Element} g */
export function drawLastMove(g) {
  if (!S.pos) return;
  var mv = S.line[S.pos - 1], entry = ratedMove(S.answers[S.pos - 1], mv);
  if (!entry) return;
  var colour = "#1f5fbf";
  var lg = el("g", { "class": "last-move", "data-move": mv, "pointer-events": "none" }, g);
  var to = S.spaces[entry.to];
  if (entry.from == null) {
    el("circle", { cx: to.x, cy: to.y, r: 27, fill: "none", stroke: colour, "stroke-width": 4 }, lg);
  } else {
    var from = S.spaces[entry.from];
    var defs = el("defs", {}, lg);
    var mk = el("marker", { id: "last-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }, mk);
    var dx = to.x - from.x, dy = to.y - from.y, len = Math.sqrt(dx * dx + dy * dy) || 1;
    var ux = dx / len, uy = dy / len;
    el("line", { x1: from.x + ux * 22, y1: from.y + uy * 22, x2: to.x - ux * 24, y2: to.y - uy * 24,
                 stroke: colour, "stroke-width": 5, "stroke-linecap": "round", "marker-end": "url(#last-arrow)" }, lg);
    el("circle", { cx: to.x, cy: to.y, r: 27, fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": "4 3" }, lg);
  }
  var t = el("title", {}, lg);
  t.textContent = "last move: " + mv;
}

// Flipped: the picture turned half a turn, its words kept upright.
export function applyFlip() {
  if (!S.svg) return;
  var svg = S.svg;
  svg.style.transform = S.flipped ? "rotate(180deg)" : "";
  // the board turns; each piece and each label turns back about its own centre,
  // so that triangles still point up and the writing reads (the view changes, not the pieces)
  svg.querySelectorAll("text, .piece, .supply").forEach(function (t) {
    if (!S.flipped) { t.removeAttribute("transform"); return; }
    var b = /** @type {SVGGraphicsElement} */ (t).getBBox();
    t.setAttribute("transform", "rotate(180 " + (b.x + b.width / 2) + " " + (b.y + b.height / 2) + ")");
  });
  $("flip").setAttribute("aria-pressed", S.flipped ? "true" : "false");
}

/** A supply piece's picture (SVG text). @param {import("./types").Shape} shape @param {import("./types").Colour} colour */
export function pieceIcon(shape, colour) {
  var fill = colour === "white" ? "#ffffff" : "#000000";
  var stroke = colour === "white" ? "#000000" : "#9a9a9a";
  var s = '<svg viewBox="0 0 24 24" aria-hidden="true">';
  if (shape === "circle") s += '<circle cx="12" cy="12" r="9" fill="' + fill + '" stroke="' + stroke + '" stroke-width="2"/>';
  else s += '<polygon points="12,2 22,20 2,20" fill="' + fill + '" stroke="' + stroke + '" stroke-width="2"/>';
  return s + "</svg>";
}

// The placements a supply piece offers: its shape's, when it is the side to move's.
/** @param {import("./types").Shape} shape @param {import("./types").Colour} colour */
function shapeOptions(shape, colour) {
  var d = shownPosition();
  return colour === d.to_move && !d.game_over ? placementsOf(shape) : [];
}

export function renderSupply() {
  var box = $("supply");
  // the keyboard's place is kept across the redraw (Enter on a piece redraws the supply)
  var had = /** @type {HTMLElement | null} */ (document.activeElement);
  var keep = had && box.contains(had) ? [had.getAttribute("data-colour"), had.getAttribute("data-shape")] : null;
  box.innerHTML = "";
  /** @type {HTMLButtonElement | null} */
  var toFocus = null;
  var d = shownPosition();
  COLOURS.forEach(function (colour) {
    var row = document.createElement("div");
    row.className = "supply-row";
    var who = document.createElement("span");
    who.className = "who";
    who.textContent = colour;
    row.appendChild(who);
    SHAPES.forEach(function (shape) {
      var n = (d.supply && d.supply[colour] && d.supply[colour][shape]) || 0;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "supply-piece";
      b.setAttribute("data-shape", shape);
      b.setAttribute("data-colour", colour);
      b.setAttribute("data-count", String(n));
      b.title = colour + " " + shape + " (" + n + " left)";
      b.innerHTML = pieceIcon(shape, colour) + "<span>&times;" + n + "</span>";
      var opts = shapeOptions(shape, colour);
      if (opts.length) {
        b.classList.add("selectable");
        if (analysisShown()) {  // an open puzzle, a game against the computer: no result
          var best = resultOf(opts[0]);  // the API lists the moves best first
          b.setAttribute("data-result", best.text);
          b.title += ", best: " + best.text;
        }
        if (S.selection && S.selection.kind === "shape" && S.selection.shape === shape) b.classList.add("selected");
      }
      b.setAttribute("aria-label", b.title + (b.classList.contains("selected") ? ", selected" : ""));
      b.addEventListener("click", function () { onShape(shape, colour, opts.length > 0); });
      row.appendChild(b);
      if (keep && keep[0] === colour && keep[1] === shape) toFocus = b;
    });
    box.appendChild(row);
  });
  // the picture's supply shows the shape picked too
  if (S.svg) S.svg.querySelectorAll(".supply").forEach(function (p) {
    var sel = S.selection;
    p.classList.toggle("selected", !!sel && sel.kind === "shape" && p.classList.contains(d.to_move) &&
                                   p.classList.contains(sel.shape));
  });
  var focusOn = /** @type {HTMLButtonElement | null} */ (toFocus);
  if (focusOn) focusOn.focus();
}

// Drag a piece from its space to another: the same move as a click on each.
// (A click on one space, then another, plays it too; a drag that ends where it
// began is a click.)
export function wireDrag() {
  var board = $("board");
  /** @type {number | null} */
  var from = null;
  board.addEventListener("pointerdown", function (/** @type {PointerEvent} */ e) {
    var hit = e.target instanceof Element ? e.target.closest(".hit") : null;
    from = hit ? +(hit.getAttribute("data-space") || 0) : null;
  });
  board.addEventListener("pointerup", function (/** @type {PointerEvent} */ e) {
    var start = from;
    from = null;
    if (start == null || (S.edit && $("editor").open)) return;
    // (a touch's pointer is captured by the element it began on: the space under it is found by position)
    var under = document.elementFromPoint(e.clientX, e.clientY);
    var hit = under ? under.closest(".hit") : null;
    var to = hit ? +(hit.getAttribute("data-space") || 0) : null;
    if (to && to !== start) dragMove(start, to);
  });
}
