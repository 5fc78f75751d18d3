// @ts-check
// The transport: what `fano serve` answers for GET path?params, from the
// server over HTTP or from the WebAssembly Api (S.engine) in the static app.
import { S, errText } from "./state.js";

/**
 * What `fano serve` answers: its status, its content type and its body's text.
 * @typedef {{status: number, type: string | null, text: string}} Reply
 * @typedef {Record<string, string>} Params
 */

// api(path, params) -> Promise of {status, type, text}: what `fano serve`
// answers for GET path?params, from the server or from the WebAssembly Api.
/** @param {string} path @param {Params} params @returns {Promise<Reply>} */
export function api(path, params) {
  /** @type {[string, string][]} */
  var pairs = [];
  Object.keys(params || {}).forEach(function (k) { pairs.push([k, params[k]]); });
  var first = firstAnswer(path, JSON.stringify(pairs));
  if (first) return Promise.resolve(first);
  if (S.engine) {
    return S.engine.call("fano_request", ["GET", path, JSON.stringify(pairs)]).then(function (text) {
      var r = engineReply(JSON.parse(text));
      return { status: r.status, type: r.content_type, text: r.body };
    });
  }
  var q = new URLSearchParams(pairs).toString();
  return httpGet(path + (q ? "?" + q : ""), 0);
}
// The server computes at most two long analyses at once (fano serve
// --expensive, default 2) and answers more with 503 and Retry-After: the
// page keeps at most two requests in flight, and waits as told on a 503
// (another client's load) before asking again, a few times.
export var httpSlots = 2;
/** @type {(() => void)[]} */
export var httpQueue = [];
/** @param {string} url @param {number} tries @returns {Promise<Reply>} */
export function httpGet(url, tries) {
  return new Promise(function (resolve, reject) {
    httpQueue.push(function () {
      fetch(url).then(function (r) {
        return r.text().then(function (t) { return { status: r.status, retry: r.headers.get("Retry-After"), type: r.headers.get("Content-Type"), text: t }; });
      }, function (e) { throw new Error("the server does not answer (" + errText(e) + ")"); })
        .then(function (r) {
          httpSlots++;  // the slot is free before any wait
          httpNext();
          if (r.status === 503 && tries < 5) {
            var wait = Math.min(10, Math.max(1, parseInt(r.retry || "", 10) || 1)) * 1000;
            return new Promise(function (ok) { setTimeout(ok, wait); }).then(function () { return httpGet(url, tries + 1); });
          }
          return { status: r.status, type: r.type, text: r.text };
        }, function (e) { httpSlots++; httpNext(); throw e; })
        .then(resolve, reject);
    });
    httpNext();
  });
}
/** The requests waiting started while slots are free. */
export function httpNext() {
  var next;
  while (httpSlots > 0 && (next = httpQueue.shift())) { httpSlots--; next(); }
}
/** The JSON answer of a route, checked only as an object without an error: the caller (api.js)
 *  names its shape (types.d.ts), the one place an answer's type is asserted.
 *  @param {string} path @param {Params} params @returns {Promise<unknown>} */
export function apiJson(path, params) {
  return api(path, params).then(function (r) {
    /** @type {unknown} */
    var j = null;
    try { j = JSON.parse(r.text); } catch (e) { /* not JSON */ }
    var refusal = errorOf(j);
    if (r.status !== 200 || !j || typeof j !== "object" || refusal) {
      var err = new Error(refusal || "HTTP " + r.status + " for " + path);
      err.status = r.status;
      err.answered = true;  // the engine answered: the request itself is refused
      throw err;
    }
    return j;
  });
}
/** @param {string} path @param {Params} params @returns {Promise<string>} */
export function apiText(path, params) {
  return api(path, params).then(function (r) {
    if (r.status !== 200) {
      var msg = "HTTP " + r.status;
      try { msg = /** @type {string} */ (errorOf(JSON.parse(r.text))); } catch (e) { /* ignore */ }
      throw new Error(msg);
    }
    return r.text;
  });
}
/** An answer's "error" field (the engine's refusal in words), or "" when it has none.
 *  @param {unknown} j @returns {string} */
export function errorOf(j) {
  if (!j || typeof j !== "object" || !("error" in j)) return "";
  return j.error ? String(j.error) : "";
}
// The static page carries the engine's answers to the requests its every load
// starts with (the rules' readings and the levels; wasm/first-answers.js records
// them when the page is built), so that the page lists them while its engine
// loads. Each is used once, and none after the engine has been asked anything:
// a solve changes what the rules' listing says is served.
/** @type {Map<string, string> | null} */
var firstAnswers = null;
/** The recorded answer to GET path with these pairs (a JSON text), taken out of the page; or null.
 *  @param {string} path @param {string} pairs @returns {Reply | null} */
function firstAnswer(path, pairs) {
  if (!firstAnswers) {
    /** @type {Map<string, string>} */
    var carried = new Map();
    var el = document.getElementById("fano-first-answers");
    if (el && el.textContent) {
      /** @type {unknown} */
      var all = JSON.parse(el.textContent);
      if (all && typeof all === "object")
        Object.entries(all).forEach(function (e) { if (typeof e[1] === "string") carried.set(e[0], e[1]); });
    }
    firstAnswers = carried;
  }
  var key = path + "?" + pairs, text = firstAnswers.get(key);
  if (text == null) return null;
  firstAnswers.delete(key);
  var r = engineReply(JSON.parse(text));
  return { status: r.status, type: r.content_type, text: r.body };
}
/** Whether the page carries recorded first answers (the static page, before its engine was asked anything). */
export function hasFirstAnswers() {
  var el = document.getElementById("fano-first-answers");
  return !!(el && el.textContent) && (!firstAnswers || firstAnswers.size > 0);
}
/** The engine is asked something: the recorded answers no longer hold. */
export function forgetFirstAnswers() { firstAnswers = new Map(); }
/** The WebAssembly Api's reply (fano_request's JSON): status, content type and body, checked.
 *  @param {unknown} j @returns {{status: number, content_type: string | null, body: string}} */
function engineReply(j) {
  if (!j || typeof j !== "object" || !("status" in j) || !("body" in j) || typeof j.status !== "number" ||
      typeof j.body !== "string")
    throw new Error("the engine's reply is not a response");
  var type = "content_type" in j && typeof j.content_type === "string" ? j.content_type : null;
  return { status: j.status, content_type: type, body: j.body };
}
