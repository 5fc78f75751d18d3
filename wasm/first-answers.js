// The answers a fresh engine gives to the requests every load of the static
// page starts with (the rules' readings and the levels), recorded when the
// page is built (wasm/web.cmake) so that the page has them before its engine
// has loaded, and its engine's first work is the first solve
// (web/src/transport.js uses each once, and none after the engine was asked
// anything).
//   node wasm/first-answers.js <fano_web.js>
// prints {"<path>?<params as JSON pairs>": "<fano_request's reply>", ...}
// with every "<" written \u003c, so that the page can carry it in a script
// element.
"use strict";
const fs = require("fs");
const path = require("path");

const FIRST_REQUESTS = [["/api/v2/rules", []], ["/api/v2/players", []]];

const script = path.resolve(process.argv[2] || "");
const createFano = require(script);
// (the .wasm beside the script handed over as bytes: node's fetch takes no file path)
const wasm = script.replace(/\.js$/, ".wasm");
createFano(fs.existsSync(wasm) ? { wasmBinary: fs.readFileSync(wasm) } : {}).then((engine) => {
  const answers = {};
  for (const [route, params] of FIRST_REQUESTS) {
    const pairs = JSON.stringify(params);
    const reply = engine.ccall("fano_request", "string", ["string", "string", "string"], ["GET", route, pairs]);
    if (JSON.parse(reply).status !== 200) throw new Error(route + " answered " + reply.slice(0, 200));
    answers[route + "?" + pairs] = reply;
  }
  process.stdout.write(JSON.stringify(answers).replace(/</g, "\\u003c"));
}).catch((e) => {
  console.error("first-answers.js: " + (e && e.message ? e.message : e));
  process.exit(1);
});
