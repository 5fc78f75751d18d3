// @ts-check
import * as routes from "./api.js";
import { $, S, STATS, errText, setReady, status } from "./state.js";
import { forgetFirstAnswers } from "./transport.js";

// ---- the engine in WebAssembly, off the page's thread ---------------------------
// Static mode: the engine (fano_web.js, its WebAssembly fano_web.wasm compiled
// as it downloads) runs in a Web Worker (fano_worker.js) so that solving a
// variant never blocks the page. A file:// page may not start a worker from a
// file, nor fetch a .wasm, but it may start a worker from a Blob URL: there
// the page loads fano_web_inline.js as a script (the same engine, its
// WebAssembly inside) and starts a worker from the engine's own code and
// fano_worker.js's text (the page carries it). Only where no worker starts at
// all does the engine run on the page's thread. Either way
// S.engine.call(fn, args) -> Promise of the C function's JSON text.

/** The engine's script loaded on the page: its factory createFano. `inline`: the one with
 *  its WebAssembly inside (a Blob's worker or a file:// page cannot fetch a .wasm).
 *  @param {boolean} inline @returns {Promise<void>} */
function loadEngineScript(inline) {
  var name = inline ? "fano_web_inline.js" : "fano_web.js";
  return new Promise(function (resolve, reject) {
    if (typeof createFano === "function") { resolve(); return; }
    var s = document.createElement("script");
    s.src = name;
    s.onload = function () {
      if (typeof createFano !== "function") reject(new Error(name + " defines no engine"));
      else resolve();
    };
    s.onerror = function () { reject(new Error("cannot load the engine (" + name + ")")); };
    document.head.appendChild(s);
  });
}
/** The engine on the page's thread. @returns {Promise<import("./types").Engine>} */
export function mainThreadEngine() {
  return loadEngineScript(location.protocol === "file:").then(function () { return createFano(); }).then(function (mod) {
    return { where: "page", call: function (/** @type {string} */ fn, /** @type {string[]} */ args) {
      forgetFirstAnswers();
      return new Promise(function (res) {
        res(mod.ccall(fn, "string", args.map(function () { return "string"; }), args));
      });
    } };
  });
}
/** A worker made from a Blob URL: the engine's factory's source, then the text
 *  of fano_worker.js, which the static page carries (wasm/web.cmake): one worker, one source.
 *  @returns {Worker} */
function blobWorker() {
  var own = document.getElementById("fano-worker-source");
  if (!own || !own.textContent) throw new Error("the page carries no worker (fano_worker.js)");
  // (the factory reads its script's address only to find a .wasm file; here it has it inside)
  var src = "var _scriptDir = undefined;\nvar createFano = (" + createFano.toString() + ");\n" + own.textContent;
  return new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
}
/** The engine talking to worker `w`; if the worker fails before it is ready, `fallback()`.
 *  `said`: what the worker said before this call, if anything.
 *  @param {Worker} w @param {() => Promise<import("./types").Engine>} fallback
 *  @param {MessageEvent | ErrorEvent | null} [said]
 *  @returns {Promise<import("./types").Engine>} */
function connect(w, fallback, said) {
  return new Promise(function (resolve, reject) {
    /** @type {Record<string, {resolve: (v: string) => void, reject: (e: Error) => void}>} */
    var pending = {};
    var next = 1, started = false;
    /** @type {import("./types").Engine} */
    var engine = { where: "worker", call: function (fn, args) {
      return new Promise(function (res, rej) {
        var id = next++;
        forgetFirstAnswers();
        pending[id] = { resolve: res, reject: rej };
        w.postMessage({ id: id, fn: fn, args: args });
      });
    } };
    w.onmessage = function (e) {
      var m = e.data;
      if (m.ready) { started = true; STATS.workerBytes = m.bytes; resolve(engine); return; }
      if (m.failed) { started = true; reject(new Error(m.failed)); return; }
      var p = pending[m.id];
      delete pending[m.id];
      if (p) { if (m.error != null) p.reject(new Error(m.error)); else p.resolve(m.result); }
    };
    w.onerror = function (e) {
      if (e.preventDefault) e.preventDefault();
      if (!started) { started = true; w.terminate(); resolve(fallback()); return; }
      var msg = "the engine stopped (" + (e.message || "worker error") + ")";
      Object.keys(pending).forEach(function (id) { pending[id].reject(new Error(msg)); });
      pending = {};
    };
    // (a worker started by the page's head may have spoken before these handlers were set)
    if (said) {
      if (said instanceof MessageEvent) w.onmessage(said);
      else w.onerror(said);
    }
  });
}
/** The engine in a worker: from fano_worker.js, else (a file:// page) from a Blob URL, else on the page's thread. */
export function workerEngine() {
  // ?thread=page: the engine on the page's thread (bench/static-explorer.py compares the two)
  var early = window.fanoEarlyWorker;
  if (/[?&]thread=page\b/.test(location.search)) {
    if (early) early.worker.terminate();
    return mainThreadEngine();
  }
  if (early) return connect(early.worker, fromBlob, early.first);
  /** @type {Worker} */
  var w;
  try { w = new Worker("fano_worker.js"); } catch (e) { return fromBlob(); }
  return connect(w, fromBlob);
}
/** @returns {Promise<import("./types").Engine>} */
function fromBlob() {
  return loadEngineScript(true).then(function () {
    /** @type {Worker} */
    var w;
    try { w = blobWorker(); } catch (e) { return mainThreadEngine(); }
    return connect(w, mainThreadEngine);
  }, function () { return mainThreadEngine(); });
}
/** The answers already had, by reading, start and moves: the engine's memo (not the game's state).
 *  @type {Map<string, import("./types").PositionAnswer>} */
var answered = new Map();
// The report of the position after `moves` in the game in play (cached).
/** @param {string[]} moves @returns {Promise<import("./types").PositionAnswer>} */
export function getPos(moves) {
  var key = S.variant + "|" + (S.start || "") + "|" + moves.join(",");
  var had = answered.get(key);
  if (had) return Promise.resolve(had);
  return routes.position(S.variant, moves, S.start).then(function (j) { answered.set(key, j); return j; });
}
// A short form of the engine's refusal of a move list: "move 3 (ply 3), move 't5': ..." -> "move 't5': ..."
/** @param {unknown} e */
export function reason(e) { return errText(e).replace(/^move \d+ \(ply \d+\), /, ""); }

// The readings of the rules the engine can play, from GET /api/v2/rules
// (the rules options' description and every reading, from C++): every
// reading, in the static app solved in the page when first chosen, over HTTP
// by the server when first asked for (ensureServed). Each: {name, slug,
// description, options, rules_text, served, page_solve?, named}; "named": the
// reading keeps every option that is not part of the base name at its
// default (the rulebook's lines and material), as the options' description says.
export function listVariants() {
  return routes.rules().then(function (j) {
    return j.readings.map(function (r) {
      r.named = j.options.every(function (o) {
        return o.base || r.options[o.key] === o["default"];
      });
      return r;
    });
  });
}
// The levels a person may choose a computer opponent from, strongest first
// (GET /api/v2/players, from C++): [{name, label, ...}].
export function listPlayers() { return routes.players(); }
export function nextFrame() { return new Promise(function (r) { setTimeout(r, 30); }); }
// Static mode: solve the variant in the page the first time it is chosen;
// over HTTP, wait for the server's table of it.
/** @param {string} name @returns {Promise<void>} */
export function ensureSolved(name) {
  if (!S.engine) return ensureServed(name);
  var engine = S.engine;
  if (STATS.solve[name] != null) return Promise.resolve();
  var info = S.variantInfo && S.variantInfo[name];
  var heavy = !!(info && info.page_solve && info.page_solve.heavy);
  var note = info && info.page_solve ? info.page_solve.note || "" : "";
  return (heavy ? askHeavy(name, note) : Promise.resolve()).then(function () {
    return solveInPage(engine, name, heavy);
  });
}
// A reading too large for a phone: the engine's note, said before the solve
// starts, and the solve only when asked for.
/** @param {string} name @param {string} note @returns {Promise<void>} */
export function askHeavy(name, note) {
  return new Promise(function (resolve, reject) {
    var el = $("status");
    el.className = "busy";
    el.textContent = "The " + name + " reading: " + note + ". ";
    var go = document.createElement("button");
    go.type = "button";
    go.id = "solve-heavy";
    go.textContent = "Solve it here";
    var no = document.createElement("button");
    no.type = "button";
    no.textContent = "Not now";
    el.appendChild(go);
    el.appendChild(document.createTextNode(" "));
    el.appendChild(no);
    document.body.setAttribute("data-asking", name);
    setReady(true);
    go.addEventListener("click", function () { document.body.removeAttribute("data-asking"); setReady(false); resolve(undefined); });
    no.addEventListener("click", function () {
      document.body.removeAttribute("data-asking");
      var e = new Error("the " + name + " reading was not solved");
      e.refused = true;
      reject(e);
    });
    go.focus();
  });
}
/** The reading solved by the engine in the page (its time noted in STATS.solve).
 *  @param {import("./types").Engine} engine @param {string} name @param {boolean} heavy @returns {Promise<void>} */
export function solveInPage(engine, name, heavy) {
  status("Solving the " + name + " game in the page\u2026", "busy");
  document.body.setAttribute("data-solving", name);
  var t0 = 0;
  /** @type {number | null} */
  var ticker = null;
  if (heavy && engine.where === "worker") {
    // the solve runs in the worker: the page stays usable and shows the time it has taken
    var began = performance.now();
    ticker = setInterval(function () {
      status("Solving the " + name + " game in the page (the board stays usable)\u2026 " +
             Math.round((performance.now() - began) / 1000) + " s", "busy");
    }, 1000);
  }
  // (on the page's thread, a frame first so that the note shows before the solve blocks)
  return (engine.where === "page" ? nextFrame() : Promise.resolve()).then(function () {
    t0 = performance.now();
    return engine.call("fano_solve", [name]);
  }).then(function (text) {
    if (ticker) clearInterval(ticker);
    var r = /** @type {import("./types").SolveAnswer} */ (JSON.parse(text));
    document.body.removeAttribute("data-solving");
    if (r.error) throw new Error("cannot solve " + name + ": " + r.error);
    // ms: as the page waits for it; engine_ms: the solve itself, timed in C++.
    STATS.solve[name] = { ms: performance.now() - t0, engine_ms: r.seconds * 1000, classes: r.classes,
                            where: engine.where, stages: r.stages, memory_bytes: r.memory_bytes };
    status("");
  }, function (e) {
    if (ticker) clearInterval(ticker);
    document.body.removeAttribute("data-solving");
    throw e;
  });
}

// Over HTTP: a reading whose table the server does not hold yet is solved by
// the server in the background, which answers 503 with Retry-After and its
// progress meanwhile (docs/api.md): the page says that progress in the
// server's words and asks again when told, until the table is there. Any
// other answer (the server's refusal, an error) ends the wait as an error.
export var SERVE_WAIT_MS = 30 * 60 * 1000;  // a bound on the wait, far past the largest solve
/** The readings the server has answered for since the page asked for its readings: the
 *  engine's memo, as `answered` is (the readings' list, S.variantInfo, stays as the server gave it).
 *  @type {Set<string>} */
var servedSince = new Set();
/** @param {string} name @returns {Promise<void>} */
export function ensureServed(name) {
  var info = S.variantInfo && S.variantInfo[name];
  if (!info || info.served || servedSince.has(name)) return Promise.resolve();
  var began = Date.now();
  var url = routes.tableProbeUrl(name);
  /** @returns {Promise<void>} */
  function ask() {
    return fetch(url).then(function (r) {
      return r.text().then(function (t) { return { status: r.status, retry: r.headers.get("Retry-After"), text: t }; });
    }, function (e) { throw new Error("the server does not answer (" + errText(e) + ")"); }).then(function (r) {
      /** @type {{progress?: {state: string, ahead: number, stage: string | null, seconds: number}, error?: string} | null} */
      var j = null;
      try { j = JSON.parse(r.text); } catch (e) { /* not JSON */ }
      if (r.status === 200) {
        servedSince.add(name);
        document.body.removeAttribute("data-solving");
        return undefined;
      }
      if (r.status === 503 && j && j.progress && Date.now() - began < SERVE_WAIT_MS) {
        var p = j.progress;
        document.body.setAttribute("data-solving", name);
        status("The server is solving the " + name + " reading (" + p.state +
               (p.state === "queued" ? ", " + p.ahead + " ahead" : "") + (p.stage ? ": " + p.stage : "") + ", " +
               Math.round(p.seconds) + " s)\u2026 The game goes on when it is ready.", "busy");
        var wait = Math.min(10, Math.max(1, parseInt(r.retry || "", 10) || 1)) * 1000;
        return new Promise(function (ok) { setTimeout(ok, wait); }).then(ask);
      }
      document.body.removeAttribute("data-solving");
      var err = new Error(j && j.error ? j.error : "HTTP " + r.status + " for " + url);
      throw err;
    });
  }
  return ask();
}
