// @ts-check
// The transport: what `fano serve` answers for GET path?params, from the
// server over HTTP or from the WebAssembly Api (S.engine) in the static app.
import { S, errText } from "./state.js";

// api(path, params) -> Promise of {status, type, text}: what `fano serve`
// answers for GET path?params, from the server or from the WebAssembly Api.
export function api(path, params) {
  var pairs = [];
  Object.keys(params || {}).forEach(function (k) { pairs.push([k, params[k]]); });
  if (S.engine) {
    return S.engine.call("fano_request", ["GET", path, JSON.stringify(pairs)]).then(function (text) {
      var r = JSON.parse(text);
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
export var httpSlots = 2, httpQueue = [];
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
export function httpNext() {
  while (httpSlots > 0 && httpQueue.length) { httpSlots--; httpQueue.shift()(); }
}
export function apiJson(path, params) {
  return api(path, params).then(function (r) {
    var j = null;
    try { j = JSON.parse(r.text); } catch (e) { /* not JSON */ }
    if (r.status !== 200 || !j || j.error) {
      var err = new Error(j && j.error ? j.error : "HTTP " + r.status + " for " + path);
      err.status = r.status;
      err.answered = true;  // the engine answered: the request itself is refused
      throw err;
    }
    return j;
  });
}
export function apiText(path, params) {
  return api(path, params).then(function (r) {
    if (r.status !== 200) {
      var msg = "HTTP " + r.status;
      try { msg = JSON.parse(r.text).error; } catch (e) { /* ignore */ }
      throw new Error(msg);
    }
    return r.text;
  });
}
