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
 * @typedef {import("./types").PositionAnswer} PositionAnswer
 * @typedef {import("./types").Reading} Reading
 */
/** The page's one state object. @type {any} */
export var S = {
  variants: [],      // names the engine can play, in order
  variant: null,
  line: [],          // the game's moves, including those after the cursor (greyed, redo-able)
  pos: 0,            // moves of `line` played on the board
  answers: [],       // API answers for the prefixes 0..pos
  data: null,        // answers[pos]
  selection: null,   // {kind:"shape", shape} | {kind:"piece", from}
  busy: false,
  thinking: false,   // the engine is about to move: the player waits
  token: 0,
  start: null,       // the game's start position (the editor's, #position=); null: the empty board
  seed: 1,           // the computer players' seed (#seed=)
  paused: false,     // computer players wait for Step
  edit: null,        // the editor's piece for a click on a space ("C", "T", "c", "t", "-": take off)
  editToken: 0,
  // a new visitor plays White against the computer at a friendly level (both one click to change)
  // both sides the player's (exploring, the values in sight); "Play the computer" starts a game
  players: { white: "human", black: "human" },
  match: null,       // the game against the computer (match.js), or null
  review: null,      // the review of the game shown (review.js), or null
  /** the players before a puzzle made both sides the player's, for New game */
  playersBeforePuzzle: null,
  analysis: null,    // the analysis panels: true shown, false hidden, null: hidden while a computer plays
  engineTimer: null,
  games: {},         // variant -> {line, pos}: a game kept when the variant changes
  cache: new Map(),
  engine: null,      // the WebAssembly engine (static mode): {where, call}
  stats: { solve: {}, firstAnalysed: null, engineLoaded: null, shows: [], replies: [] }  // read by bench/static-explorer.py
};
window.fanoStats = S.stats;
/** The element with this id (any: each caller knows its element's kind). @type {(id: string) => any} */
export var $ = function (id) { return document.getElementById(id); };

// A non-button element used as one: focusable, named, Enter and Space act.
export function actionable(node, name, act) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", name);
  node.addEventListener("click", act);
  node.addEventListener("keydown", function (e) {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); act(e); }
  });
  return node;
}

// A list item that acts when clicked: the list stays a list (its items keep
// the listitem role) and the item's text is wrapped in one focusable control
// named `name`, so that a control inside the item (a "why?" button) is not
// nested in another. Returns the control.
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
export var PIECE_NAME = { C: "white circle", T: "white triangle", c: "black circle", t: "black triangle" };
// "space 4: white triangle on black circle" (the stack top first) from the API's position.
export function spaceLabel(space) {
  var stacks = S.data.position.split(" ")[0].split("/");
  var st = stacks[space - 1] || "-";
  if (st === "-") return "space " + space + ": empty";
  return "space " + space + ": " + st.split("").reverse().map(function (c) { return PIECE_NAME[c]; }).join(" on ");
}
export function setReady(v) { document.body.setAttribute("data-ready", v ? "1" : "0"); }
export function status(msg, kind) {  // kind: undefined | "error" | "busy"
  var el = $("status");
  el.textContent = cutLong(msg || "");
  el.className = kind === true ? "error" : (kind || "");
}
// A count as the page shows it, with thousands separators ("1,639,939"): the
// one format of every number of things on the page.
/** @param {number} n @returns {string} */
export function count(n) { return Number(n).toLocaleString("en"); }
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
export function errText(e) { return e && e.message ? e.message : String(e); }
