// @ts-check
import { render } from "./board.js";
import { boardSvg } from "./api.js";
import { ensureSolved, getPos, reason } from "./engine.js";
import { sideName } from "./panels.js";
import { clearEngine, isComputer, redrawSelection, scheduleEngine, setThinking } from "./play.js";
import { $, S, errText, setReady, status } from "./state.js";
import { writeHash } from "./url.js";

// ---- going to a position ----------------------------------------------------
// The answers for the prefixes 0..n of `line`, each checked: a move enters the
// game only if the engine accepts it as written. Resolves {answers, failed}:
// failed = {ply, move, message} for the first refused move (answers stop before it).
export function analysePrefixes(line, n) {
  var answers = [];
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
  var res = {};
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
    var later = [];
    for (var i = pos + 1; i <= line.length; i++) later.push(getPos(line.slice(0, i)));
    // (the position's answer, already in hand, carries its principal variation)
    return Promise.all([Promise.all(later), boardSvg(variant, moves, S.start)]);
  }).then(function (/** @type {any[] | null} */ out) {
    if (!out || token !== S.token) return false;
    S.line = line;
    S.pos = pos;
    S.answers = res.answers;
    S.all = res.answers.concat(out[0]);  // answers for every prefix of the line
    out = out.slice(1);
    S.data = res.answers[pos];
    S.selection = null;
    setThinking(false);
    writeHash(how);
    render(out[0]);
    document.body.removeAttribute("data-stale");
    if (res.failed) {
      status("The link's move " + res.failed.ply + " (" + res.failed.move + ") was not played: " +
             res.failed.message + ". Showing the " + pos + " move" + (pos === 1 ? "" : "s") + " before it.", true);
    } else if (res.laterFailed) {
      status("The link's move " + res.laterFailed.ply + " (" + res.laterFailed.move + ") and those after it were dropped: " +
             res.laterFailed.message + ".", true);
    } else if (opts.note) {
      status(opts.note, true);
    } else {
      status("");
    }
    if (S.stats.firstAnalysed == null) S.stats.firstAnalysed = performance.now();
    S.stats.shows.push({ variant: variant, ply: pos, ms: performance.now() - t0 });
    S.busy = false;
    setReady(true);
    if (opts.engine) scheduleEngine();
    else if (!S.data.game_over && isComputer(S.data.to_move) && !res.failed && !res.laterFailed && !opts.note)
      status("The computer plays " + sideName(S.data.to_move) + ": Step (or Play best) lets it move.");
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
