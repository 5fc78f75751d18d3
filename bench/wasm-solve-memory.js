#!/usr/bin/env node
// The page's engine (fano_web.js, the emscripten build of wasm/web.cpp)
// solving one reading in node: its wall time, the WebAssembly memory at the
// end (`fano_solve`'s memory_bytes: a memory never shrinks, so this is the
// solve's peak, what a browser has to grant the page) and the solve's stages.
// One JSON line per run; state the machine's load (`uptime`) beside the times.
// With a second build, the runs alternate between the two (same reading, one
// fresh process each), so that the load falls on both alike.
//
// usage: NODE_PATH=/usr/share/nodejs node bench/wasm-solve-memory.js \
//            BUILD/wasm/fano_web.js [--compare OTHER/fano_web.js] \
//            [--rules cap3-board-colour-3c3t] [--rounds 1]
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

function solveHere(engine, rules) {
  const createFano = require(path.resolve(engine));
  // (a .wasm beside the engine handed over as bytes: node's fetch takes no file path)
  const wasm = path.resolve(engine).replace(/\.js$/, ".wasm");
  return createFano(fs.existsSync(wasm) ? { wasmBinary: fs.readFileSync(wasm) } : {}).then((m) => {
    const t = performance.now();
    const r = JSON.parse(m.ccall("fano_solve", "string", ["string"], [rules]));
    return {
      engine, rules, ms: Math.round(performance.now() - t), classes: r.classes,
      memory_MiB: r.memory_bytes / 1048576, bytes_per_class: +(r.memory_bytes / r.classes).toFixed(1),
      error: r.error, stages: r.stages,
    };
  });
}

function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  if (args[0] === "--child") {  // one solve in this process: --child ENGINE RULES
    return solveHere(args[1], args[2]).then((r) => console.log(JSON.stringify(r)));
  }
  const other = option("--compare", null);
  const rules = option("--rules", "cap3-board-colour-3c3t");
  const rounds = Number(option("--rounds", "1"));
  if (args.length !== 1 || !(rounds >= 1)) {
    console.error("usage: wasm-solve-memory.js BUILD/fano_web.js [--compare OTHER] [--rules R] [--rounds N]");
    process.exit(2);
  }
  const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();
  for (let round = 0; round < rounds; ++round)
    for (const engine of other ? [args[0], other] : [args[0]]) {
      console.log(`# ${uptime()}`);
      console.log(execFileSync(process.execPath, [__filename, "--child", engine, rules],
                               { encoding: "utf8" }).trim());
    }
  console.log(`# ${uptime()}`);
}

main();
