// The static explorer's engine off the page's thread: the page (index.html)
// posts {id, fn, args} naming one of the engine's C functions (fano_variants,
// fano_solve, fano_request; every argument and every answer is a string) and
// gets back {id, result} or {id, error}. Solving a variant takes a few hundred
// milliseconds: here it never blocks a click, a scroll or the progress note.
// The one source of the worker: a file:// page, which may not start a worker
// from a file, starts one from a Blob of the engine's factory (createFano,
// already defined there) followed by this text, which the static page carries
// (wasm/web.cmake puts it in, web/src/engine.js reads it).
// Over http the engine is fano_web.js, which compiles fano_web.wasm as it
// downloads it; the Blob's engine (fano_web_inline.js) has its WebAssembly inside.
"use strict";
if (typeof createFano !== "function") importScripts("fano_web.js");

var engine = createFano();
engine.then(function () {
  // The bytes this worker fetched, for bench/static-explorer.py's budget.
  // (a script this worker imports reports the size of its headers as transferSize: its body is counted too)
  var bytes = performance.getEntriesByType("resource").reduce(function (a, r) {
    return a + (r.transferSize < r.encodedBodySize ? r.transferSize + r.encodedBodySize : r.transferSize);
  }, 0);
  postMessage({ ready: true, bytes: bytes });
}, function (e) {
  postMessage({ failed: "cannot load the engine (" + (e && e.message ? e.message : String(e)) + ")" });
});

onmessage = function (e) {
  var m = e.data;
  engine.then(function (mod) {
    var result;
    try {
      result = mod.ccall(m.fn, "string", m.args.map(function () { return "string"; }), m.args);
    } catch (err) {
      postMessage({ id: m.id, error: err && err.message ? err.message : String(err) });
      return;
    }
    postMessage({ id: m.id, result: result });
  }, function (err) {
    postMessage({ id: m.id, error: "cannot load the engine (" + String(err) + ")" });
  });
};
