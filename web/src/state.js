// The page's state (one object, S), its DOM shorthand and its status line.
// @ts-check

export var SVGNS = "http://www.w3.org/2000/svg";
export var ENGINE = (/** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="fano-engine"]')) || { content: "" }).content || "http";
export var PV_SHOWN = 40;       // plies of a principal variation shown before "continues"
// ms the engine "thinks" before its move is played (?delay=N sets it: the tests and the bench)
export var ENGINE_DELAY = (function () {
  var m = /[?&]delay=(\d{1,5})\b/.exec(location.search);
  return m ? +m[1] : 700;
})();
/**
 * @typedef {import("./types").State} State
 * @typedef {import("./types").PageStats} PageStats
 */
/** The page's one state object: written by the controller (ctrl.js) alone; every view reads it.
 *  @type {State} */
export var S = {
  variants: [],
  variantInfo: {},
  variant: "",
  line: [],
  pos: 0,
  answers: [],
  all: [],
  data: null,
  svgText: "",
  svg: null,
  spaces: {},
  focusSpace: null,
  selection: null,
  busy: false,
  thinking: false,
  token: 0,
  start: null,
  seed: 1,
  paused: false,
  flipped: false,
  edit: null,
  editToken: 0,
  // both sides the player's (exploring, the values in sight); "Play the computer" starts a game
  players: { white: "human", black: "human" },
  match: null,
  review: null,
  endHidden: "",
  puzzle: null,
  puzzleShown: false,
  playersBeforePuzzle: null,
  analysis: null,
  engineTimer: null,
  games: {},
  engine: null,
  lastError: ""
};
/** The two sides, White first. @type {import("./types").Colour[]} */
export var COLOURS = ["white", "black"];
/** The two shapes of the supply. @type {import("./types").Shape[]} */
export var SHAPES = ["circle", "triangle"];
/** A side's player picker. @param {import("./types").Colour} c @returns {HTMLSelectElement} */
export function playerPicker(c) { return c === "white" ? $("white-player") : $("black-player"); }
/** The position shown: every panel is drawn once a position is (the controller shows one first).
 *  @returns {import("./types").PositionAnswer} */
export function shownPosition() {
  if (!S.data) throw new Error("no position shown yet");
  return S.data;
}
/** The page's measurements, read by bench/static-explorer.py and the browser tests (not the
 *  game's state: the engine's loader and the controller note their times here). @type {PageStats} */
export var STATS = { solve: {}, firstAnalysed: null, engineLoaded: null, shows: [], replies: [] };
window.fanoStats = STATS;
/** The element with this id, of its kind when types.d.ts PageElements names it (index.html has every id).
 *  @type {import("./types").ById} */
export var $ = /** @type {import("./types").ById} */ (/** @type {unknown} */ (function (/** @type {string} */ id) {
  return document.getElementById(id);
}));

// A non-button element used as one: focusable, named, Enter and Space act.
/** @template {Element} E @param {E} node @param {string} name @param {(e: Event) => void} act @returns {E} */
export function actionable(node, name, act) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", name);
  node.addEventListener("click", act);
  node.addEventListener("keydown", function (/** @type {Event} */ e) {
    if (!(e instanceof KeyboardEvent)) return;
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); act(e); }
  });
  return node;
}

// A list item that acts when clicked: the list stays a list (its items keep
// the listitem role) and the item's text is wrapped in one focusable control
// named `name`, so that a control inside the item (a "why?" button) is not
// nested in another. Returns the control.
/** @param {HTMLLIElement} li @param {string} name @param {(e: Event) => void} act @returns {HTMLSpanElement} */
export function listAction(li, name, act) {
  var control = document.createElement("span");
  control.className = "act";
  while (li.firstChild) control.appendChild(li.firstChild);
  li.appendChild(control);
  control.setAttribute("tabindex", "0");
  control.setAttribute("role", "button");
  control.setAttribute("aria-label", name);
  li.addEventListener("click", act);
  control.addEventListener("keydown", function (e) {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); act(e); }
  });
  return control;
}
/** @type {Record<string, string>} */
export var PIECE_NAME = { C: "white circle", T: "white triangle", c: "black circle", t: "black triangle" };
// "space 4: white triangle on black circle" (the stack top first) from the API's position.
/** @param {number} space */
export function spaceLabel(space) {
  var stacks = (S.data ? S.data.position : "").split(" ")[0].split("/");
  var st = stacks[space - 1] || "-";
  if (st === "-") return "space " + space + ": empty";
  return "space " + space + ": " + st.split("").reverse().map(function (c) { return PIECE_NAME[c]; }).join(" on ");
}
/** The page is ready (the tests wait for it), or busy. @param {boolean} v */
export function setReady(v) { document.body.setAttribute("data-ready", v ? "1" : "0"); }
/** The status line says `msg`: an error (kind true or "error"), the page at work ("busy"), or news.
 *  @param {string} msg @param {boolean | "error" | "busy"} [kind] */
export function status(msg, kind) {
  var el = $("status");
  el.textContent = cutLong(msg || "");
  el.className = kind === true ? "error" : (kind || "");
}
// A count as the page shows it, with thousands separators ("1,639,939"): the
// one format of every number of things on the page.
/** @param {number} n @returns {string} */
export function count(n) {
  // grouped by hand: the first toLocaleString of a page loads the locale data (about 100 ms)
  return String(Math.trunc(Number(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
// A message with every fragment longer than 80 characters (a link's part, a
// move list the engine echoes) cut there with an ellipsis.
/** @param {string} msg @returns {string} */
export function cutLong(msg) {
  return msg.replace(/\S{81,}/g, function (w) { return trimmed(w); });
}
// A fragment of text (a link's part, an engine's echo of it) cut for a message.
/** @param {string} s @param {number} [n] @returns {string} */
export function trimmed(s, n) {
  n = n || 80;
  return s.length > n ? s.slice(0, n) + "\u2026" : s;
}
/** A failure's words (an Error's message, else the thing thrown as text). @param {unknown} e */
export function errText(e) {
  var m = e && typeof e === "object" && "message" in e ? e.message : null;
  return m ? String(m) : String(e);
}
