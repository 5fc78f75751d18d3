#!/usr/bin/python3
"""Budgets of the static explorer (build/web) in headless Chromium.

Serves the folder with a plain static server on 127.0.0.1 (no compression),
opens it in a fresh Chromium profile and prints:
  - the bytes transferred for the whole app (and the files gzipped, as a
    compressing host would send them),
  - the time from navigation to the engine loaded and to the first analysed
    position (the standard game solved in the page, the start analysed),
  - the in-page solve time of each variant (as the page waits for it, and the
    solve itself timed in C++; the engine runs in a Web Worker),
  - the analysis time per move (a move played: its position, the picture and
    the principal variation asked of the engine and shown), median and max.

Run:  /usr/bin/python3 bench/static-explorer.py [build/web] [--runs N] [--thread page]
(--thread page: the engine on the page's thread instead of its Web Worker)

      /usr/bin/python3 bench/static-explorer.py [build/web] [--runs N] --engine
      /usr/bin/python3 bench/static-explorer.py [build/web] [--runs N] --revisit
(--revisit: the app opened, then, 3 s later, opened again in the same
profile, as a returning player would: what the browser kept (its HTTP
cache, the service worker's copy, compiled code it caches) counts then.)

(--engine: the engine alone on a bare page, no app: fano_web.js loaded, the
module compiled and instantiated, the standard game solved in that fresh
engine (its code still in the browser's baseline tier, being optimised
meanwhile), then a second engine made from the same module, whose code the
browser has optimised by then, solving it again: cold and warm solve times.)
"""
import functools
import gzip
import http.server
import os
import statistics
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
         "--window-size=1280,800")


# The bare page of --engine (served at /engine-bench.html beside the app's files).
ENGINE_PAGE = b"""<!doctype html><meta charset="utf-8"><title>engine</title><body><script>
var t0 = performance.now(), s = document.createElement("script");
function solve(m) {
  var t = performance.now();
  var r = JSON.parse(m.ccall("fano_solve", "string", ["string"], ["standard"]));
  return { ms: performance.now() - t, engine_ms: r.seconds * 1000, classes: r.classes, stages: r.stages };
}
s.src = "fano_web.js";
s.onload = function () {
  var t1 = performance.now();
  createFano().then(function (m) {
    var t2 = performance.now(), cold = solve(m);
    createFano().then(function (m2) {
      window.engineBench = { script: t1 - t0, instantiate: t2 - t1, cold: cold, warm: solve(m2) };
    });
  });
};
document.body.appendChild(s);
</script>
"""


# The blank page of the browser's floor: what a fresh browser takes before any
# page's first script runs (the same for every page; the app's budget includes it).
BLANK_PAGE = b"""<!doctype html><meta charset="utf-8"><title>blank</title><script>window.firstScript = performance.now();</script>"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".js": "text/javascript"})

    def do_GET(self):
        pages = {"/engine-bench.html": ENGINE_PAGE, "/blank-bench.html": BLANK_PAGE}
        if self.path not in pages:
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(pages[self.path])))
        self.end_headers()
        self.wfile.write(pages[self.path])

    def log_message(self, *args):
        pass


def driver():
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for f in FLAGS:
        o.add_argument(f)
    o.add_argument("--user-data-dir=" + tempfile.mkdtemp(prefix="fano-bench-"))
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def ready(d):
    return d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"


def one_run(url):
    d = driver()
    try:
        d.get(url)
        WebDriverWait(d, 60).until(ready)
        out = d.execute_script("""
          var nav = performance.getEntriesByType('navigation')[0];
          var res = performance.getEntriesByType('resource');
          // the engine's files are fetched by its Web Worker: counted there (workerBytes)
          var bytes = nav.transferSize + res.reduce(function (a, r) { return a + r.transferSize; }, 0) +
                      (window.fanoStats.workerBytes || 0);
          return {bytes: bytes, files: [nav.name].concat(res.map(function (r) { return r.name; })),
                  engine: window.fanoStats.engineLoaded, first: window.fanoStats.firstAnalysed,
                  solve: window.fanoStats.solve, workerBytes: window.fanoStats.workerBytes};""")
        for v in ("cap3", "projective", "cap3-projective"):
            d.find_element(By.CSS_SELECTOR, '#variant option[value="%s"]' % v).click()
            WebDriverWait(d, 120).until(lambda x: ready(x) and x.find_element(By.ID, "variant").get_attribute("value") == v)
        d.find_element(By.CSS_SELECTOR, '#variant option[value="standard"]').click()
        WebDriverWait(d, 60).until(ready)
        out["solve"] = d.execute_script("return window.fanoStats.solve;")
        start = len(d.execute_script("return window.fanoStats.shows;"))
        for i in range(30):  # a game by "Play best"
            if not d.find_element(By.ID, "play-best").is_enabled():
                break
            d.find_element(By.ID, "play-best").click()
            WebDriverWait(d, 30).until(lambda x, n=start + i + 1: ready(x) and
                                       len(x.execute_script("return window.fanoStats.shows;")) >= n)
        out["moves"] = d.execute_script("return window.fanoStats.shows;")[start:]
        out["replies"] = computer_replies(d, url)
        return out
    finally:
        d.quit()


def computer_replies(d, url, plies=24):
    """A game against the computer (Play the computer: White, each level the page
    offers in turn, the computer's delay set to 0 by ?delay=0): the player's moves
    by Play best with Hints on, the computer's replies timed by the page
    (fanoStats.replies: its move from the player route, then its position shown).
    Returns {level: [{move_ms, shown_ms}, ...]}."""
    d.get(url + ("&" if "?" in url else "?") + "delay=0")
    WebDriverWait(d, 60).until(ready)
    levels = d.execute_script("return Array.from(document.querySelectorAll('#black-player option'))"
                              ".map(function (o) { return o.value; }).filter(function (v) { return v !== 'human'; });")
    out = {}
    for level in levels:
        start = len(d.execute_script("return window.fanoStats.replies;"))
        d.find_element(By.ID, "play-computer").click()
        d.find_element(By.ID, "play-side-white").click()
        d.execute_script("document.getElementById('play-level').value = arguments[0];", level)
        d.find_element(By.ID, "play-start").click()
        WebDriverWait(d, 60).until(ready)
        d.find_element(By.ID, "hints").click()
        for i in range(plies // 2):
            if not d.find_element(By.ID, "play-best").is_enabled() or \
                    d.find_element(By.ID, "game-end").is_displayed():
                break
            d.find_element(By.ID, "play-best").click()
            WebDriverWait(d, 30).until(lambda x, n=start + i + 1: (
                len(x.execute_script("return window.fanoStats.replies;")) >= n or
                x.find_element(By.ID, "game-end").is_displayed()) and ready(x) and
                not x.execute_script("return document.body.hasAttribute('data-thinking');"))
        out[level] = d.execute_script("return window.fanoStats.replies;")[start:]
    return out


STAGES = ("enumerate", "graph", "retrograde", "table")


def stage_text(solves):
    """The median of each stage of the solves (fano_solve's "stages", in ms)."""
    have = [s["stages"] for s in solves if s.get("stages")]
    if not have:
        return ""
    return " = " + " + ".join("%s %.0f" % (k, statistics.median(h[k] * 1000 for h in have)) for k in STAGES)


def floor_run(url):
    """Navigation to a blank page's first script in a fresh browser (ms)."""
    d = driver()
    try:
        d.get(url + "blank-bench.html")
        return d.execute_script("return window.firstScript;")
    finally:
        d.quit()


def engine_run(url):
    d = driver()
    try:
        d.get(url + "engine-bench.html")
        WebDriverWait(d, 60).until(lambda x: x.execute_script("return window.engineBench || null"))
        return d.execute_script("return window.engineBench;")
    finally:
        d.quit()


def engine_only(url, runs):
    results = [engine_run(url) for _ in range(runs)]
    med = statistics.median
    print("runs: %d (fresh profile each, the engine alone on a bare page, page's thread)" % runs)
    print("fano_web.js loaded: median %.0f ms; module compiled and instantiated: median %.0f ms" %
          (med([r["script"] for r in results]), med([r["instantiate"] for r in results])))
    for k, what in (("cold", "first solve, fresh engine"), ("warm", "second engine, optimised code")):
        ms = [r[k]["ms"] for r in results]
        print("standard solve, %-29s median %.0f ms (runs: %s; in C++ median %.0f ms%s), %d classes" %
              (what + ":", med(ms), ", ".join("%.0f" % x for x in ms), med([r[k]["engine_ms"] for r in results]),
               stage_text([r[k] for r in results]), results[0][k]["classes"]))
    total = [r["script"] + r["instantiate"] + r["cold"]["ms"] for r in results]
    print("load + compile + instantiate + cold solve: median %.0f ms (runs: %s)" %
          (med(total), ", ".join("%.0f" % x for x in total)))


def revisit_run(url):
    d = driver()
    try:
        visits = []
        for _ in range(2):
            d.get(url)
            WebDriverWait(d, 60).until(ready)
            visits.append(d.execute_script("""
              var nav = performance.getEntriesByType('navigation')[0];
              var res = performance.getEntriesByType('resource');
              return {engine: window.fanoStats.engineLoaded, first: window.fanoStats.firstAnalysed,
                      solve: window.fanoStats.solve.standard,
                      bytes: nav.transferSize + res.reduce(function (a, r) { return a + r.transferSize; }, 0) +
                             (window.fanoStats.workerBytes || 0)};"""))
            time.sleep(3)
        return visits
    finally:
        d.quit()


def revisit(url, runs):
    results = [revisit_run(url) for _ in range(runs)]
    med = statistics.median
    print("runs: %d (fresh profile each, the app opened twice, 3 s apart)" % runs)
    for k, what in ((0, "first visit"), (1, "second visit")):
        rs = [r[k] for r in results]
        print("%s: transferred %d B; navigation to engine loaded median %.0f ms; to first analysed position "
              "median %.0f ms (runs: %s); standard solve median %.0f ms (runs: %s; in C++ median %.0f ms%s)" %
              (what, rs[0]["bytes"], med([r["engine"] for r in rs]), med([r["first"] for r in rs]),
               ", ".join("%.0f" % r["first"] for r in rs), med([r["solve"]["ms"] for r in rs]),
               ", ".join("%.0f" % r["solve"]["ms"] for r in rs), med([r["solve"]["engine_ms"] for r in rs]),
               stage_text([r["solve"] for r in rs])))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
    if "--runs" in sys.argv:
        args.remove(str(runs))
    if "--thread" in sys.argv:
        args.remove(sys.argv[sys.argv.index("--thread") + 1])
    folder = args[0] if args else "build/web"
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    if "--engine" in sys.argv:
        engine_only(url, runs)
        httpd.shutdown()
        return
    if "--revisit" in sys.argv:
        revisit(url, runs)
        httpd.shutdown()
        return
    if "--thread" in sys.argv and sys.argv[sys.argv.index("--thread") + 1] == "page":
        url += "?thread=page"
    files = sorted(f for f in os.listdir(folder) if os.path.isfile(os.path.join(folder, f)))
    raw = {f: os.path.getsize(os.path.join(folder, f)) for f in files}
    gz = {f: len(gzip.compress(open(os.path.join(folder, f), "rb").read(), 9)) for f in files}
    print("files: " + ", ".join("%s %d B (gzip %d B)" % (f, raw[f], gz[f]) for f in files))
    print("whole app: %d B, gzip %d B" % (sum(raw.values()), sum(gz.values())))
    results, floor = [], []
    for _ in range(runs):  # alternately, under the same load
        results.append(one_run(url))
        floor.append(floor_run(url))
    med = lambda xs: statistics.median(xs)  # noqa: E731
    print("runs: %d (fresh profile each, uncompressed static server on loopback)" % runs)
    print("the browser's floor: a blank page's first script runs %.0f ms after navigation (median; runs: %s)" %
          (med(floor), ", ".join("%.0f" % x for x in floor)))
    print("transferred at first load: %d B (%s)" % (results[0]["bytes"], ", ".join(os.path.basename(f) or "/" for f in results[0]["files"])))
    print("navigation to engine loaded: median %.0f ms" % med([r["engine"] for r in results]))
    print("navigation to first analysed position: median %.0f ms (runs: %s)" %
          (med([r["first"] for r in results]), ", ".join("%.0f" % r["first"] for r in results)))
    for v in ("standard", "cap3", "projective", "cap3-projective"):
        ms = [r["solve"][v]["ms"] for r in results]
        eng = [r["solve"][v].get("engine_ms", float("nan")) for r in results]
        print("in-page solve %-16s median %.0f ms (runs: %s; in C++ median %.0f ms%s), %d classes, in the %s" %
              (v, med(ms), ", ".join("%.0f" % x for x in ms), med(eng), stage_text([r["solve"][v] for r in results]),
               results[0]["solve"][v]["classes"], results[0]["solve"][v].get("where", "page")))
    shows = [m for r in results for m in r["moves"]]
    moves = [m["ms"] for m in shows]
    print("analysis per move (standard, %d moves): median %.1f ms, max %.1f ms" % (len(moves), med(moves), max(moves)))
    # where a move's time goes: the engine's answers in hand, then each panel drawn (medians)
    panels = sorted({k for m in shows for k in m.get("panels", {})}, key=lambda k: -med([m["panels"].get(k, 0) for m in shows]))
    print("  of which the engine's answers %.1f ms, the panels %.1f ms (%s)" %
          (med([m.get("engine_ms", float("nan")) for m in shows]),
           med([sum(m.get("panels", {}).values()) for m in shows]),
           ", ".join("%s %.1f" % (k, med([m["panels"].get(k, 0) for m in shows])) for k in panels[:6])))
    # the computer's reply in a game against it: its move (the player route) and then its position shown
    for level in results[0]["replies"]:
        rs = [x for r in results for x in r["replies"].get(level, [])]
        if rs:
            print("computer's reply (%s, %d replies): its move median %.1f ms (max %.1f), its position shown median %.1f ms"
                  " (max %.1f)" % (level, len(rs), med([x["move_ms"] for x in rs]), max(x["move_ms"] for x in rs),
                                   med([x["shown_ms"] for x in rs]), max(x["shown_ms"] for x in rs)))
    httpd.shutdown()


if __name__ == "__main__":
    main()
