// The static explorer's service worker: the app works offline after its first
// load. Network first: while the host answers, every file comes from it (an
// updated app is never served stale); only when the network fails does the
// copy cached at the last successful load answer. The `web` target writes the
// app's version (a hash of its files) into CACHE, so an update also replaces
// the cached copy.
"use strict";
var CACHE = "fano-explorer-@FANO_APP_HASH@";
var FILES = [@FANO_APP_FILES@];

function appFile(url) {
  var u = new URL(url);
  if (u.origin !== self.location.origin) return false;
  var scope = new URL(self.registration.scope).pathname;
  if (u.pathname.indexOf(scope) !== 0) return false;
  var name = u.pathname.slice(scope.length) || "index.html";
  return FILES.indexOf(name) >= 0;
}

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(CACHE).then(function (c) {
    return c.addAll(FILES.map(function (f) { return new Request(f, { cache: "no-cache" }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("fano-explorer-") === 0 && k !== CACHE; })
                           .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (e) {
  var req = e.request;
  if (req.method !== "GET" || !appFile(req.url)) return;  // the API and anything else: untouched
  e.respondWith(fetch(req, { cache: "no-cache" }).then(function (r) {
    if (r.ok) {
      var copy = r.clone();
      caches.open(CACHE).then(function (c) { return c.put(req, copy); });
    }
    return r;
  }).catch(function () {
    return caches.open(CACHE).then(function (c) {
      return c.match(req, { ignoreSearch: true }).then(function (r) {
        return r || c.match(new URL(req.url).pathname.endsWith("/") ? "index.html" : req, { ignoreSearch: true });
      });
    }).then(function (r) { return r || Response.error(); });
  }));
});
