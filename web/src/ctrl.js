// @ts-check
// The controller: the one module whose actions change the game (the moves,
// the position shown, the players, the game against the computer, a puzzle,
// the review), each followed by the panels drawn again from the state
// (registry.js). It imports no view.
import { boardSvg, playerMove, position, puzzle, review as reviewRoute } from "./api.js";
import { ensureSolved, getPos, reason } from "./engine.js";
import { lastDrawTimes, renderPanels } from "./registry.js";
import { noteEnding, puzzleKey } from "./score.js";
import { gameEnd, isComputer, matchOn, movesFrom, other, placing, playerName, puzzleComputer, puzzleCourse, puzzleReplyDue, setPlayers, sideName,
         someHuman } from "./seen.js";
import { $, COLOURS, ENGINE_DELAY, S, SHAPES, STATS, errText, playerPicker, setReady, shownPosition, status,
         trimmed } from "./state.js";
import { writeHash } from "./url.js";

/**
 * @typedef {import("./types").PositionAnswer} PositionAnswer
 * @typedef {import("./types").Colour} Colour
 * @typedef {import("./types").Shape} Shape
 * @typedef {import("./types").HistoryWay} HistoryWay
 * @typedef {import("./types").Selection} Selection
 */
/**
 * A move the engine refused: its ply, the move as written, and why.
 * @typedef {{ply: number, move: string, message: string}} Refused
 */
/**
 * The answers for a line's prefixes, up to the first refused move.
 * @typedef {{answers: PositionAnswer[], failed: Refused | null}} Prefixes
 */
/**
 * How go() shows a line: from `start` (when given), the computer's move scheduled (`engine`), a
 * link's longest legal prefix kept (`loadPrefix`), a note said once shown.
 * What the moves came from (`source`) names them in a refusal: a link, or a pasted record.
 * @typedef {{start?: string | null, engine?: boolean, loadPrefix?: boolean, note?: string | null,
 *            source?: "link" | "record"}} GoOptions
 */

// ---- going to a position ----------------------------------------------------
// The answers for the prefixes 0..n of `line`, each checked: a move enters the
// game only if the engine accepts it as written. Resolves {answers, failed}:
// failed = {ply, move, message} for the first refused move (answers stop before it).
/** @param {string[]} line @param {number} n @returns {Promise<Prefixes>} */
export function analysePrefixes(line, n) {
  /** @type {PositionAnswer[]} */
  var answers = [];
  /** @param {number} i @returns {Promise<Prefixes>} */
  function step(i) {
    if (i > n) return Promise.resolve({ answers: answers, failed: null });
    return getPos(line.slice(0, i)).then(function (a) {
      if (i > 0 && a.moves_played[i - 1] !== line[i - 1]) {
        // the engine read the move differently (a placement's letter case names its colour)
        return { answers: answers, failed: { ply: i, move: line[i - 1],
          message: "move '" + line[i - 1] + "' is read as " + a.moves_played[i - 1] + " (" +
                   sideName(answers[i - 1].to_move) + " to move); a placement's letter case names its colour" } };
      }
      answers.push(a);
      return step(i + 1);
    }, function (e) {
      if (!e.answered || i === 0) throw e;
      return { answers: answers, failed: { ply: i, move: line[i - 1], message: reason(e) } };
    });
  }
  return step(0);
}
// The moves of `line` after `pos` that the engine accepts (the greyed future).
// Resolves {line, failed}.
/** @param {string[]} line @param {number} pos @returns {Promise<{line: string[], failed: Refused | null}>} */
export function checkedFuture(line, pos) {
  if (pos >= line.length) return Promise.resolve({ line: line, failed: null });
  return getPos(line).then(function () { return { line: line, failed: null }; }, function (e) {
    if (!e.answered) throw e;
    return analysePrefixes(line, line.length).then(function (r) {
      return { line: line.slice(0, r.answers.length - 1), failed: r.failed };
    });
  });
}
// Shows `line` up to `pos`. Nothing changes unless the engine answers: a
// failure leaves the game as it was and says why. how: "push" (a new browser
// history entry), "replace" or "none" (the URL already says it).
/** @param {string} variant @param {string[]} line @param {number} pos @param {HistoryWay} how
 *  @param {GoOptions} [opts] @returns {Promise<boolean>} */
export function go(variant, line, pos, how, opts) {
  opts = opts || {};
  var t0 = performance.now();
  var token = ++S.token;
  S.busy = true;
  setReady(false);
  clearEngine();
  var prevVariant = S.variant, prevStart = S.start;
  // another reading's values are not this one's: hidden until its answers come
  if (prevVariant && variant !== prevVariant) document.body.setAttribute("data-stale", "1");
  S.variant = variant;
  if (opts.start !== undefined) S.start = opts.start;
  /** @type {{failed: Refused | null, laterFailed: Refused | null, answers: PositionAnswer[]}} */
  var res = { failed: null, laterFailed: null, answers: [] };
  return ensureSolved(variant).then(function () {
    return analysePrefixes(line, pos);
  }).then(function (r) {
    if (token !== S.token) return null;
    res.failed = r.failed;
    if (r.failed) {
      if (!opts.loadPrefix) { var e = new Error("not played: " + r.failed.message); e.refused = true; throw e; }
      // a shared link with a refused move: its longest legal prefix
      line = line.slice(0, r.answers.length - 1);
      pos = line.length;
    }
    res.answers = r.answers;
    return checkedFuture(line, pos);
  }).then(function (future) {
    if (future == null || token !== S.token) return null;
    line = future.line;
    if (future.failed && !res.failed) res.laterFailed = future.failed;
    var moves = line.slice(0, pos);
    /** @type {Promise<PositionAnswer>[]} */
    var later = [];
    for (var i = pos + 1; i <= line.length; i++) later.push(getPos(line.slice(0, i)));
    // (the position's answer, already in hand, carries its principal variation)
    return Promise.all([Promise.all(later), boardSvg(variant, moves, S.start)]);
  }).then(function (out) {
    if (!out || token !== S.token) return false;
    var answered = performance.now();
    S.line = line;
    S.pos = pos;
    S.answers = res.answers;
    S.all = res.answers.concat(out[0]);  // answers for every prefix of the line
    S.data = res.answers[pos];
    S.selection = null;
    setThinking(false);
    S.svgText = out[1];  // the board panel draws the engine's new picture
    scorePuzzle();       // (before the panels: the puzzle's panel shows the score)
    renderPanels();
    document.body.removeAttribute("data-stale");
    var source = opts.source || "link";  // what the moves came from: a link, or a pasted record
    if (res.failed) {
      status("The " + source + "'s move " + res.failed.ply + " (" + res.failed.move + ") was not played: " +
             res.failed.message + ". Showing the " + pos + " move" + (pos === 1 ? "" : "s") + " before it.", true);
    } else if (res.laterFailed) {
      status("The " + source + "'s move " + res.laterFailed.ply + " (" + res.laterFailed.move + ") and those after it were dropped: " +
             res.laterFailed.message + ".", true);
    } else if (opts.note) {
      status(opts.note, true);
    } else {
      status("");
    }
    var shown = performance.now();
    if (STATS.firstAnalysed == null) STATS.firstAnalysed = shown;
    STATS.shows.push({ variant: variant, ply: pos, ms: shown - t0, engine_ms: answered - t0, panels: lastDrawTimes() });
    // (the address bar follows, in the same task: the history's new entry is not part of the analysis shown)
    writeHash(how);
    S.busy = false;
    setReady(true);
    // an open puzzle's computer answers whenever its turn is shown (after a move, or Back to it)
    // (and a game against the computer shown at the computer's turn, by Back or a jump: it moves again)
    if (opts.engine || puzzleReplyDue() || (matchOn() && !gameEnd())) scheduleEngine();
    else if (!shownPosition().game_over && isComputer(shownPosition().to_move) && !res.failed && !res.laterFailed && !opts.note)
      status("The computer plays " + sideName(shownPosition().to_move) + ": Step (or Play best) lets it move.");
    return true;
  }).catch(function (e) {
    if (token !== S.token) return false;
    S.variant = prevVariant;
    S.start = prevStart;
    document.body.removeAttribute("data-stale");
    S.busy = false;
    setThinking(false);
    S.selection = null;
    if (S.data) { $("variant").value = S.variant; redrawSelection(); }
    S.lastError = errText(e);
    status((e.refused ? "Not played: " : "Error: ") + errText(e).replace(/^not played: /, "") +
           (S.data && !e.refused ? " (the game is unchanged)" : ""), true);
    setReady(true);
    return false;
  });
}
// ---- interaction ------------------------------------------------------------
/** The move played after the position shown (the line's next move kept when it is that move).
 *  @param {string} moveStr @returns {Promise<boolean>} */
export function playMove(moveStr) {
  if (S.busy || !S.data) return Promise.resolve(false);
  var next = S.line[S.pos] === moveStr ? S.line.slice() : S.line.slice(0, S.pos).concat([moveStr]);
  return go(S.variant, next, S.pos + 1, "push", { engine: true });
}
/** The player's move, when it is the player's turn and the move is legal (else why not).
 *  @param {string} moveStr */
export function humanPlay(moveStr) {
  if (S.busy || !S.data) return;
  if (S.data.game_over) { status("The game is over: " + S.data.game_over.text, true); return; }
  if (S.thinking || isComputer(S.data.to_move) || puzzleReplyDue()) {
    status("Wait: the engine plays " + sideName(S.data.to_move) + ".", true);
    return;
  }
  var ok = S.data.moves.some(function (m) { return m.move === moveStr; });
  if (!ok) { explain(moveStr); return; }
  playMove(moveStr);
}
// Why a move is not legal, in the engine's words (the API refuses it).
/** @param {string | string[]} tried */
export function explain(tried) {
  var candidates = Array.isArray(tried) ? tried : [tried];
  var base = S.line.slice(0, S.pos);
  var token = S.token;
  return Promise.all(candidates.map(function (c) {
    return position(S.variant, base.concat([c]), S.start).then(function () { return null; },
      function (e) { return e.answered ? reason(e) : null; });
  })).then(function (reasons) {
    if (token !== S.token) return;
    /** @type {string[]} */
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
/** Shows the position after `n` moves of the line. @param {number} n @returns {Promise<boolean>} */
export function goTo(n) {
  if (S.busy) return Promise.resolve(false);
  return go(S.variant, S.line, n, "push");
}
export function undo() {
  if (S.busy || S.pos === 0) return;
  var n = S.pos - 1;
  // against the engine: back to the player's own turn (the engine's reply goes too)
  var theirs = puzzleComputer();  // a puzzle's computer: its answer goes too
  while (n > 0 && (someHuman() && isComputer(S.answers[n].to_move) || S.answers[n].to_move === theirs)) n--;
  go(S.variant, S.line, n, "push");
}
/** Back one move; during a game against the computer a takeback (Undo: the player's last move and the
 *  computer's reply), so that the player is to move, never a position the computer waits in. */
export function back() {
  if (S.busy || S.pos === 0) return;
  if (matchOn() && !gameEnd() && someHuman()) undo();
  else goTo(S.pos - 1);
}
export function redo() {
  if (S.busy || S.pos >= S.line.length) return;
  var n = S.pos + 1;
  // against the engine: forward to the player's own turn (the engine's reply comes back too), as Undo took both
  while (n < S.line.length && someHuman() && S.all[n] && isComputer(S.all[n].to_move)) n++;
  go(S.variant, S.line, n, "push");
}
/** @type {Record<Shape, string>} */
export var SHAPE_LETTER = { circle: "c", triangle: "t" };
/** A placement as written, in the colour of the side to move. @param {Shape} shape @param {number} space */
export function placementText(shape, space) {
  var l = SHAPE_LETTER[shape];
  return (shownPosition().to_move === "white" ? l.toUpperCase() : l) + space;
}
/** A click on a supply piece. @param {Shape} shape @param {Colour} colour @param {boolean} selectable */
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
  redrawSelection();
}
/** A click on a space: picks, plays, or says why not. @param {number} space */
export function onSpace(space) {
  if (S.busy || !S.data) return;
  var d = S.data;
  if (d.game_over) { status("The game is over: " + d.game_over.text, true); return; }
  if (S.thinking || isComputer(d.to_move) || puzzleReplyDue()) {
    status("Wait: the engine plays " + sideName(d.to_move) + ".", true);
    return;
  }
  var sel = S.selection;
  /** @type {import("./types").RatedMove | undefined} */
  var match;
  if (sel && sel.kind === "shape") {
    var pickedShape = sel.shape;
    match = d.moves.find(function (m) { return m.from == null && m.shape === pickedShape && m.to === space; });
    if (!match) { S.selection = null; redrawSelection(); explain(placementText(sel.shape, space)); return; }
  } else if (sel && sel.kind === "piece" && sel.from !== space) {
    var pickedFrom = sel.from;
    match = d.moves.find(function (m) { return m.from === pickedFrom && m.to === space; });
    if (!match && !movesFrom(space).length) { S.selection = null; redrawSelection(); explain(sel.from + "-" + space); return; }
  }
  if (match) { humanPlay(match.move); return; }
  status("");
  if (sel && sel.kind === "piece" && sel.from === space) {
    S.selection = null;
  } else if (movesFrom(space).length) {
    S.selection = { kind: "piece", from: space };
  } else {
    var places = placing();
    var pl = d.moves.filter(function (m) { return m.from == null && m.to === space; });
    S.selection = null;
    if (places && pl.length === 1) { humanPlay(pl[0].move); return; }
    if (places && pl.length > 1) {
      status("Pick a circle or a triangle first (beside the board or below it), then the space.");
      // the supply's buttons and this line sit under the board: in sight, or the click seems to do nothing
      $("status").scrollIntoView({ block: "nearest" });
    }
    else if (places) explain(SHAPES.map(function (sh) { return placementText(sh, space); }));
    else explain([1, 2, 3, 4, 5, 6, 7].filter(function (t) { return t !== space; }).map(function (t) { return space + "-" + t; }));
  }
  redrawSelection();
}
// A piece dragged from one space to another: picked there, then put here.
/** @param {number} from @param {number} to */
export function dragMove(from, to) {
  if (S.busy || !S.data) return;
  S.selection = null;
  onSpace(from);
  var picked = /** @type {Selection | null} */ (S.selection);  // (onSpace picked it, or not)
  if (picked && picked.kind === "piece" && picked.from === from) onSpace(to);
}
// The board's marks and the supply drawn again (a piece or a shape picked).
export function redrawSelection() { renderPanels(["board marks", "supply"]); }
/** Enter in the move field: the move written, played or explained. @param {KeyboardEvent} ev */
export function onMoveInput(ev) {
  if (ev.key !== "Enter") return;
  ev.preventDefault();
  var inp = $("move-input");
  var txt = inp.value.trim();
  if (!txt || !S.data) return;
  /** @type {import("./types").RatedMove | undefined} */
  var m = S.data.moves.find(function (x) { return x.move === txt; });
  if (!m) {
    /** @type {import("./types").RatedMove | undefined} */
    var other = S.data.moves.find(function (x) { return x.move.toLowerCase() === txt.toLowerCase(); });
    if (other) status("Not legal: " + txt + " names " + (S.data.to_move === "white" ? "Black" : "White") + "'s piece; " +
                      sideName(S.data.to_move) + " is to move (" + other.move + ").", true);
    else explain(txt);
    return;
  }
  inp.value = "";
  humanPlay(m.move);
}
// The move of the side to move's computer player: the engine's from the answer, the
// others' from /api/v2/{variant}/player (seeded: the same game for the same seed).
/** @returns {Promise<string | null>} */
export function computerMove() {
  var d = shownPosition(), who = S.players[d.to_move];
  if (who === "engine") return Promise.resolve(d.engine_move);
  return playerMove(S.variant, S.line.slice(0, S.pos), S.start, who, S.seed);
}
/** The computer is thinking (its move on the way), or not. @param {boolean} v */
export function setThinking(v) {
  S.thinking = v;
  if (v) document.body.setAttribute("data-thinking", "1");
  else document.body.removeAttribute("data-thinking");
  renderPanels(["controls"]);
}
export function clearEngine() {
  if (S.engineTimer) { clearTimeout(S.engineTimer); S.engineTimer = null; }
  if (S.thinking) setThinking(false);
}
export function scheduleEngine() {
  clearEngine();
  var d = S.data;
  if (puzzleReplyDue()) { schedulePuzzleReply(); return; }
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
      if (token !== S.token || S.busy || !isComputer(shownPosition().to_move) || !mv) return;
      var moved = performance.now();
      playMove(mv).then(function (ok) {
        if (!ok) return;
        // read by bench/static-explorer.py: the computer's move (the route) and its position shown, past the delay
        STATS.replies.push({ move_ms: moved - asked - ENGINE_DELAY, shown_ms: performance.now() - moved });
        // the keyboard's place comes back to the board: the space the computer moved to
        if (mv && (S.players.white === "human" || S.players.black === "human")) focusBoard(mv);
      });
    }, function (e) {
      setThinking(false);
      if (token === S.token) status("The computer player cannot move: " + errText(e), true);
    });
  }, ENGINE_DELAY);
}
// An open puzzle's computer: its best defence, the engine's move of the answer
// (the position route's engine_move), after the same delay as a game's.
function schedulePuzzleReply() {
  var token = S.token, mv = shownPosition().engine_move;
  setThinking(true);
  status("The computer answers\u2026", "busy");
  S.engineTimer = setTimeout(function () {
    S.engineTimer = null;
    setThinking(false);
    if (token !== S.token || S.busy || !puzzleReplyDue() || !mv) return;
    var reply = mv;
    playMove(reply).then(function (ok) { if (ok) focusBoard(reply); });
  }, ENGINE_DELAY);
}
/** An open puzzle's first ending counted in the browser's score (solved, or failed). */
function scorePuzzle() {
  var c = puzzleCourse();
  if (!c || !S.puzzle || c.state === "play" || c.state === "reply") return;
  noteEnding(puzzleKey(S.variant, S.puzzle), S.puzzle.difficulty, c.state === "solved" ? "solved" : "failed");
}
/** The open puzzle again from its start (its score is its first ending's). */
export function retryPuzzle() {
  var p = S.puzzle;
  if (S.busy || !p) return;
  S.puzzleShown = false;
  go(S.variant, [], 0, "push", { start: p.position });
}
/** Another puzzle of the grade chosen (any when none). */
export function nextPuzzle() {
  if (S.busy) return;
  loadPuzzle(1 + Math.floor(Math.random() * 1000000), [], 0, "push", $("puzzle-grade").value);
}
/** The keyboard's place on the board after a move: the space the move went to. @param {string} mv */
export function focusBoard(mv) {
  var m = /(\d)$/.exec(mv);
  var hit = /** @type {SVGElement | null} */ (document.querySelector('#board .hit[data-space="' + (m ? m[1] : "1") + '"]'));
  if (hit && !S.busy) hit.focus();
}
/** A new game against `level`, the player with `human`, from the empty board. @param {import("./types").Colour} human @param {string} level */
export function startMatch(human, level) {
  joinMatch(human, level, S.variant, null);
  // a new seed each game: the levels that choose at random play another game
  S.seed = 1 + Math.floor(Math.random() * 1e9);
  return go(S.variant, [], 0, "push", { start: null, engine: true });
}
/** A game against `level` on `variant` from `start`, the player with `human`, hints off:
 *  a new one (startMatch) or one a link names (its moves then played to the board).
 *  @param {import("./types").Colour} human @param {string} level @param {string} variant @param {string | null} start */
export function joinMatch(human, level, variant, start) {
  S.match = { human: human, level: level, hints: false, hintsUsed: false, start: start, variant: variant };
  S.players[human] = "human";
  S.players[other(human)] = level;
  playerPicker(human).value = "human";
  playerPicker(other(human)).value = level;
  S.playersBeforePuzzle = null;
  S.review = null;
}
/** Rematch: the same level, the colours swapped (the rulebook: after a draw, play again swapping colours). */
export function rematch() {
  var m = S.match;
  if (!m || S.busy) return;
  startMatch(other(m.human), m.level);
}
/** The game against the computer ends: the board is the player's again on both sides. */
export function endMatch() { S.match = null; }
/** Hints on or off for this game (once on, the review says hints were used). */
export function toggleHints() {
  var m = S.match;
  if (!m) return;
  m.hints = !m.hints;
  if (m.hints) m.hintsUsed = true;
}
/** Hides the end's note until the game changes (to see the board under it). */
export function hideGameEnd() {
  S.endHidden = S.variant + "|" + (S.start || "") + "|" + S.line.join(",");
  $("game-end").hidden = true;
}
// grade: "easy", "medium" or "hard" (a puzzle of that grade), else any; note: said once shown.
/** @param {number} seed @param {string[]} line @param {number} at @param {HistoryWay} how @param {string} grade
 *  @param {string | null} [note] @returns {Promise<boolean>} */
export function loadPuzzle(seed, line, at, how, grade, note) {
  return puzzle(S.variant, seed, grade).then(function (p) {
    var asked = grade || "";
    p.asked = asked;
    // (a game against the computer is not on while a puzzle is: New game brings it back)
    $("puzzle-grade").value = asked;  // a link's grade is the chooser's
    S.puzzle = p;
    S.puzzleShown = false;
    // a puzzle is solved, not played against the computer: both sides are the player's
    // (the players chosen before, kept until New game brings them back)
    if (!S.playersBeforePuzzle) S.playersBeforePuzzle = { white: S.players.white, black: S.players.black };
    COLOURS.forEach(function (c) { S.players[c] = "human"; playerPicker(c).value = "human"; });
    return go(S.variant, line || [], at || 0, how || "push", { start: p.position, loadPrefix: true, note: note || null });
  }, function (e) { status("No puzzle: " + errText(e), true); setReady(true); return false; });
}
/** The game whose review is shown: its reading, start and moves. */
export function gameKey() { return S.variant + "|" + (S.start || "") + "|" + S.line.join(","); }
/** Asks for the review of the game shown and opens its panel. */
export function openReview() {
  if (S.busy || !S.line.length) return Promise.resolve();
  var key = gameKey();
  S.review = { key: key, state: "loading", hintsUsed: !!(S.match && S.match.hintsUsed), answer: null, message: "" };
  renderPanels(["review"]);
  var rv = S.review;
  return reviewRoute(S.variant, S.line, S.start).then(function (r) {
    rv.state = "shown";
    rv.answer = r;
  }, function (e) {
    rv.state = e.status === 404 ? "unavailable" : "error";
    rv.message = e.status === 404 ? "This engine gives no review (its API has no review route)."
                                  : "No review: " + trimmed(errText(e));
  }).then(function () {
    if (S.review !== rv || gameKey() !== key) return;
    renderPanels(["review"]);
    $("review-title").focus();
  });
}

// ---- the page's other actions on the state -------------------------------------
/** Redraws every panel (after a change of what is in sight). */
function redrawAll() { if (S.data) renderPanels(); }
/** Hints on or off in the game against the computer. */
export function switchHints() { toggleHints(); redrawAll(); }
/** The analysis shown or hidden outside a game against the computer. @param {boolean} shown */
export function setAnalysis(shown) { S.analysis = shown; redrawAll(); }
/** An open puzzle's solution shown (it counts as not solved). */
export function showPuzzleSolution() { S.puzzleShown = true; clearEngine(); scorePuzzle(); redrawAll(); }
/** The editor's piece in hand ("C", "T", "c", "t", "-" to take off), or none; a second pick puts it down.
 *  @param {string} piece @returns {string | null} the piece in hand */
export function pickEditPiece(piece) { S.edit = S.edit === piece ? null : piece; return S.edit; }
/** A new check of the editor's text: its token (an answer for an older check is dropped). @returns {number} */
export function nextEditToken() { return ++S.editToken; }
/** The editor's piece put down: a click on the board plays again. */
export function dropEditPiece() { S.edit = null; }
/** The board turned half a turn, or back. */
export function flipBoard() { S.flipped = !S.flipped; redrawAll(); }
/** Nothing picked (Escape). */
export function clearSelection() { S.selection = null; if (S.data) redrawSelection(); }
/** The computer players wait for Step, or play on. */
export function togglePause() {
  S.paused = !S.paused;
  $("pause").setAttribute("aria-pressed", S.paused ? "true" : "false");
  $("pause").textContent = S.paused ? "Resume" : "Pause";
  if (S.data && !S.busy) { if (S.paused) { clearEngine(); status("Paused."); } else scheduleEngine(); }
  renderPanels(["controls"]);
}
/** One move of the side to move's computer player (the engine's for a human side). */
export function step() {
  if (S.busy || S.thinking || !S.data || S.data.game_over || !S.data.engine_move) return;
  clearEngine();
  var d = S.data;
  (isComputer(d.to_move) ? computerMove() : Promise.resolve(d.engine_move)).then(function (mv) {
    if (d === S.data && !S.busy && mv) playMove(mv);
  }, function (e) { status("The computer player cannot move: " + errText(e), true); });
}
/** The engine's move for the side to move (also the engine's own turn after Undo). */
export function playBest() {
  if (S.busy || S.thinking || !S.data || !S.data.engine_move) return;
  playMove(S.data.engine_move);
}
/** A side's player chosen by hand: the game against the computer (its side and level) is over.
 *  @param {import("./types").Colour} c @param {string} player */
export function setPlayer(c, player) {
  S.players[c] = player;
  if (S.match) endMatch();
  if (!S.busy && S.data) { redrawAll(); if (isComputer(S.data.to_move)) scheduleEngine(); else clearEngine(); }
}
/** The levels offered (GET /api/v2/players), strongest first. @param {import("./types").PlayerLevel[]} levels */
export function setLevels(levels) { setPlayers(levels); }
/** Another reading: the game of the one left is kept (choosing it again, or Back, returns to it).
 *  @param {string} v */
export function changeVariant(v) {
  keepGame();
  var g = S.games[v] || { line: [], pos: 0, start: null };
  endMatch();
  return go(v, g.line, g.pos, "push", { loadPrefix: true, start: g.start });
}
/** The game of the reading in play kept, for when it is chosen again. */
export function keepGame() { if (S.variant) S.games[S.variant] = { line: S.line, pos: S.pos, start: S.start }; }
/** New game: the empty board, the players as they are (after a puzzle, those chosen before it). */
export function newGame() {
  // after a game against the computer (or a puzzle in between): another, the same side and level
  if (S.match) { S.playersBeforePuzzle = null; return startMatch(S.match.human, S.match.level); }
  if (S.playersBeforePuzzle) {
    var before = S.playersBeforePuzzle;
    COLOURS.forEach(function (c) { S.players[c] = before[c]; playerPicker(c).value = before[c]; });
    S.playersBeforePuzzle = null;
  }
  return go(S.variant, [], 0, "push", { start: null, engine: true });
}
/** The readings the engine can play (GET /api/v2/rules), in its order. @param {import("./types").Reading[]} list */
export function setReadings(list) {
  S.variants = list.map(function (v) { return v.name; });
  S.variantInfo = {};
  list.forEach(function (v) { S.variantInfo[v.name] = v; });
}
/** The board's picture in the page and its spaces' centres (drawn by board.js from S.svgText).
 *  @param {SVGSVGElement} svg @param {Record<string, import("./types").Point>} spaces */
export function boardDrawn(svg, spaces) { S.svg = svg; S.spaces = spaces; }
/** The space the keyboard is on, kept across the board's next redraw (null: kept no more).
 *  @param {number | null} space */
export function keepFocus(space) { S.focusSpace = space; }
/** The engine in WebAssembly, once loaded. @param {import("./types").Engine} e */
export function setEngine(e) { S.engine = e; }
/** A link's reading and seed (route.js reads the URL). @param {string} variant @param {number} seed */
export function fromLink(variant, seed) { S.seed = seed; if (variant) S.variant = variant; }
