// @ts-check
import { movesFrom, renderOverlay, renderSupply } from "./board.js";
import { editSpace } from "./editor.js";
import { playerMove, position } from "./api.js";
import { reason } from "./engine.js";
import { matchHides } from "./match.js";
import { go } from "./navigate.js";
import { puzzleHides } from "./puzzles.js";
import { sideName } from "./panels.js";
import { $, ENGINE_DELAY, S, errText, status } from "./state.js";

// ---- interaction ------------------------------------------------------------
export function playMove(moveStr, opts) {
  if (S.busy || !S.data) return Promise.resolve(false);
  var next = S.line[S.pos] === moveStr ? S.line.slice() : S.line.slice(0, S.pos).concat([moveStr]);
  return go(S.variant, next, S.pos + 1, "push", { engine: true });
}
export function humanPlay(moveStr) {
  if (S.busy || !S.data) return;
  if (S.data.game_over) { status("The game is over: " + S.data.game_over.text, true); return; }
  if (S.thinking || isComputer(S.data.to_move)) {
    status("Wait: the engine plays " + sideName(S.data.to_move) + ".", true);
    return;
  }
  var ok = S.data.moves.some(function (m) { return m.move === moveStr; });
  if (!ok) { explain(moveStr); return; }
  playMove(moveStr);
}
// Why a move is not legal, in the engine's words (the API refuses it).
export function explain(candidates) {
  if (!Array.isArray(candidates)) candidates = [candidates];
  var base = S.line.slice(0, S.pos);
  var token = S.token;
  return Promise.all(candidates.map(function (c) {
    return position(S.variant, base.concat([c]), S.start).then(function () { return null; },
      function (e) { return e.answered ? reason(e) : null; });
  })).then(function (reasons) {
    if (token !== S.token) return;
    var seen = [];
    reasons.forEach(function (r) {
      if (!r) return;
      r = r.replace(/^move '[^']*': /, "");
      if (seen.indexOf(r) < 0) seen.push(r);
    });
    var what = candidates.length === 1 ? candidates[0] : "that";
    status("Not legal: " + (candidates.length === 1 ? what + ": " : "") + (seen.join("; ") || "no legal move there"), true);
  });
}

export function goTo(n) {
  if (S.busy) return;
  go(S.variant, S.line, n, "push");
}
export function someHuman() { return S.players.white === "human" || S.players.black === "human"; }
export function undo() {
  if (S.busy || S.pos === 0) return;
  var n = S.pos - 1;
  // against the engine: back to the player's own turn (the engine's reply goes too)
  while (n > 0 && someHuman() && isComputer(S.answers[n].to_move)) n--;
  go(S.variant, S.line, n, "push");
}
export function redo() {
  if (S.busy || S.pos >= S.line.length) return;
  var n = S.pos + 1;
  // against the engine: forward to the player's own turn (the engine's reply comes back too), as Undo took both
  while (n < S.line.length && someHuman() && S.all[n] && isComputer(S.all[n].to_move)) n++;
  go(S.variant, S.line, n, "push");
}

export var SHAPE_LETTER = { circle: "c", triangle: "t" };
export function placementText(shape, space) {
  var l = SHAPE_LETTER[shape];
  return (S.data.to_move === "white" ? l.toUpperCase() : l) + space;
}
export function onShape(shape, colour, selectable) {
  if (S.busy || !S.data) return;
  if (!selectable) {
    if (S.data.game_over) status("The game is over: " + S.data.game_over.text, true);
    else if (colour !== S.data.to_move) status("Not your piece: " + sideName(S.data.to_move) + " is to move.", true);
    else explain([1, 2, 3, 4, 5, 6, 7].map(function (s) { return placementText(shape, s); }));
    return;
  }
  if (S.selection && S.selection.kind === "shape" && S.selection.shape === shape) S.selection = null;
  else S.selection = { kind: "shape", shape: shape };
  status("");
  renderOverlay();
  renderSupply();
}

export function onSpace(space) {
  if (S.busy || !S.data) return;
  if (S.edit && $("editor").open) { editSpace(space); return; }
  var d = S.data;
  if (d.game_over) { status("The game is over: " + d.game_over.text, true); return; }
  if (S.thinking || isComputer(d.to_move)) {
    status("Wait: the engine plays " + sideName(d.to_move) + ".", true);
    return;
  }
  var sel = S.selection;
  /** @type {import("./types").RatedMove | null} */
  var match = null;
  if (sel && sel.kind === "shape") {
    d.moves.forEach(function (m) { if (!match && m.from == null && m.shape === sel.shape && m.to === space) match = m; });
    if (!match) { S.selection = null; redrawSelection(); explain(placementText(sel.shape, space)); return; }
  } else if (sel && sel.kind === "piece" && sel.from !== space) {
    d.moves.forEach(function (m) { if (!match && m.from === sel.from && m.to === space) match = m; });
    if (!match && !movesFrom(space).length) { S.selection = null; redrawSelection(); explain(sel.from + "-" + space); return; }
  }
  if (match) { humanPlay(match.move); return; }
  status("");
  if (sel && sel.kind === "piece" && sel.from === space) {
    S.selection = null;
  } else if (movesFrom(space).length) {
    S.selection = { kind: "piece", from: space };
  } else {
    var placing = d.moves.some(function (m) { return m.from == null; });
    var pl = d.moves.filter(function (m) { return m.from == null && m.to === space; });
    S.selection = null;
    if (placing && pl.length === 1) { humanPlay(pl[0].move); return; }
    if (placing && pl.length > 1) status("Pick a shape from the supply first.");
    else if (placing) explain(["circle", "triangle"].map(function (sh) { return placementText(sh, space); }));
    else explain([1, 2, 3, 4, 5, 6, 7].filter(function (t) { return t !== space; }).map(function (t) { return space + "-" + t; }));
  }
  redrawSelection();
}
// The game's buttons: each enabled when it can act.
export function renderControls() {
  $("nav-start").disabled = $("nav-back").disabled = S.pos === 0;
  $("nav-forward").disabled = $("nav-end").disabled = S.pos >= S.line.length;
  $("undo").disabled = S.pos === 0;
  $("redo").disabled = S.pos >= S.line.length;
  // the engine's move is an open puzzle's answer, and a hint in a game against the computer
  $("play-best").disabled = $("step").disabled = !S.data.engine_move || puzzleHides() || matchHides();
  renderPause();
  $("variant").value = S.variant;
}
// Pause acts only while the computer is thinking (and Resume while paused).
export function renderPause() { $("pause").disabled = !(S.thinking || S.paused); }
export function redrawSelection() { renderOverlay(); renderSupply(); }

export function onMoveInput(ev) {
  if (ev.key !== "Enter") return;
  ev.preventDefault();
  var inp = $("move-input");
  var txt = inp.value.trim();
  if (!txt || !S.data) return;
  /** @type {import("./types").RatedMove | null} */
  var m = null;
  S.data.moves.forEach(function (x) { if (!m && x.move === txt) m = x; });
  if (!m) {
    /** @type {import("./types").RatedMove | null} */
    var other = null;
    S.data.moves.forEach(function (x) { if (!other && x.move.toLowerCase() === txt.toLowerCase()) other = x; });
    if (other) status("Not legal: " + txt + " names " + (S.data.to_move === "white" ? "Black" : "White") + "'s piece; " +
                      sideName(S.data.to_move) + " is to move (" + other.move + ").", true);
    else explain(txt);
    return;
  }
  inp.value = "";
  humanPlay(m.move);
}

// The players a side can be: a human, or one of the levels the API offers
// (GET /api/v2/players: fano/players.hpp's player_levels, strongest first), set
// by setPlayers. "engine" is the trap-setting perfect engine (its move is in every answer).
/** @type {import("./types").PlayerLevel[]} */
export var PLAYERS = [{ name: "human", label: "human" }];
export function setPlayers(levels) { PLAYERS = [{ name: "human", label: "human" }].concat(levels); }
export function isComputer(c) { return S.players[c] !== "human"; }
export function playerName(c) {
  var n = S.players[c];
  PLAYERS.forEach(function (p) { if (p.name === n) n = p.label; });
  return n;
}
// The move of the side to move's computer player: the engine's from the answer, the
// others' from /api/v2/{variant}/player (seeded: the same game for the same seed).
export function computerMove() {
  var d = S.data, who = S.players[d.to_move];
  if (who === "engine") return Promise.resolve(d.engine_move);
  return playerMove(S.variant, S.line.slice(0, S.pos), S.start, who, S.seed);
}
/** The computer is thinking (its move on the way), or not. @param {boolean} v */
export function setThinking(v) {
  S.thinking = v;
  if (v) document.body.setAttribute("data-thinking", "1");
  else document.body.removeAttribute("data-thinking");
  renderPause();
}
export function clearEngine() {
  if (S.engineTimer) { clearTimeout(S.engineTimer); S.engineTimer = null; }
  if (S.thinking) setThinking(false);
}
export function scheduleEngine() {
  clearEngine();
  var d = S.data;
  if (!d || d.game_over || !d.engine_move || !isComputer(d.to_move)) return;
  if (S.paused) { status("Paused: Step plays " + sideName(d.to_move) + "'s move (" + playerName(d.to_move) + ")."); return; }
  var token = S.token;
  setThinking(true);
  status("The computer (" + sideName(d.to_move) + ", " + playerName(d.to_move) + ") is thinking\u2026", "busy");
  var asked = performance.now();
  S.engineTimer = setTimeout(function () {
    S.engineTimer = null;
    if (token !== S.token || S.busy) { setThinking(false); return; }
    computerMove().then(function (mv) {
      setThinking(false);
      if (token !== S.token || S.busy || !isComputer(S.data.to_move)) return;
      var moved = performance.now();
      playMove(mv).then(function (ok) {
        if (!ok) return;
        // read by bench/static-explorer.py: the computer's move (the route) and its position shown, past the delay
        S.stats.replies.push({ move_ms: moved - asked - ENGINE_DELAY, shown_ms: performance.now() - moved });
        // the keyboard's place comes back to the board: the space the computer moved to
        if (S.players.white === "human" || S.players.black === "human") focusBoard(mv);
      });
    }, function (e) {
      setThinking(false);
      if (token === S.token) status("The computer player cannot move: " + errText(e), true);
    });
  }, ENGINE_DELAY);
}
/** The keyboard's place on the board after a move: the space the move went to. @param {string} mv */
export function focusBoard(mv) {
  var m = /(\d)$/.exec(mv);
  var hit = /** @type {SVGElement | null} */ (document.querySelector('#board .hit[data-space="' + (m ? m[1] : "1") + '"]'));
  if (hit && !S.busy) hit.focus();
}
