"""The static explorer (build/web: the page with its engine in WebAssembly) in
headless Chromium, served by a plain static file server on an ephemeral port,
and the same page's behaviour served by `fano serve` (the API over HTTP).

Run:  FANO_BIN=build/tools/fano FANO_WEB_DIR=build/web /usr/bin/python3 -m pytest -q tests/browser/test_static.py
Env:  FANO_BIN (the native fano: `fano query --json` is the reference, and
      `fano serve` the second host), FANO_WEB_DIR (the folder the `web` target
      builds), FANO_SERVE_WEB (the page folder `fano serve` gets; default
      none: the page embedded in the binary), FANO_TABLES (tables folder for the native tool; solved here when
      missing), FANO_ARTIFACTS (screenshots).
"""
import functools
import http.server
import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse

import pytest

selenium = pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FANO_BIN = os.environ.get("FANO_BIN", "build/tools/fano")
WEB_DIR = os.environ.get("FANO_WEB_DIR", "build/web")
TIMEOUT = 30
VARIANTS = {  # API name -> fano query options
    "standard": ["--stack-cap", "2", "--adjacency", "board"],
    "cap3": ["--stack-cap", "3", "--adjacency", "board"],
    "projective": ["--stack-cap", "2", "--adjacency", "projective"],
    "cap3-projective": ["--stack-cap", "3", "--adjacency", "projective"],
}
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--disable-dev-shm-usage", "--window-size=1280,900")


# ---------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def artifacts():
    d = os.environ.get("FANO_ARTIFACTS") or tempfile.mkdtemp(prefix="fano-static-")
    os.makedirs(d, exist_ok=True)
    return d


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    """A tables folder with every variant's table (the native reference)."""
    if not os.path.exists(FANO_BIN):
        pytest.skip("fano binary not found: " + FANO_BIN)
    d = os.environ.get("FANO_TABLES") or str(tmp_path_factory.mktemp("tables"))
    os.makedirs(d, exist_ok=True)
    for name, opts in VARIANTS.items():
        probe = subprocess.run([FANO_BIN, "query", "--json", "--tables", d] + opts + ["--moves", ""],
                               capture_output=True)
        if probe.returncode != 0:
            subprocess.run([FANO_BIN, "solve", "--tables", d] + opts, check=True, capture_output=True)
    return d


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


_Quiet.extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                             **{".wasm": "application/wasm", ".js": "text/javascript"})


def static_server(folder):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=folder))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, "http://127.0.0.1:%d/" % httpd.server_address[1]


@pytest.fixture(scope="session")
def web_dir():
    if not os.path.isfile(os.path.join(WEB_DIR, "index.html")):
        pytest.skip("no static explorer in %s (cmake --build build --target web)" % WEB_DIR)
    return WEB_DIR


@pytest.fixture(scope="session")
def static_url(web_dir):
    httpd, url = static_server(web_dir)
    yield url
    httpd.shutdown()


@pytest.fixture(scope="session")
def serve_url(tables, artifacts):
    """`fano serve` with its embedded page (the API over HTTP)."""
    env = dict(os.environ, FANO_TABLES=tables)
    log = open(os.path.join(artifacts, "serve-stderr.log"), "wb")
    # FANO_SERVE_WEB: another page folder for `fano serve --web` (e.g. an earlier
    # page, to see these tests fail on it)
    proc = subprocess.Popen([FANO_BIN, "serve", "--port", "0", "--web", os.environ.get("FANO_SERVE_WEB", "none")],
                            stdout=subprocess.PIPE, stderr=log, env=env)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "fano serve printed no URL"
        url = proc.stdout.readline().decode().strip()
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        yield url if url.endswith("/") else url + "/"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
        log.close()


@pytest.fixture(params=["static", "serve"])
def app(request):
    """The page's URL: the static folder (engine in WebAssembly) or `fano serve`."""
    return request.getfixturevalue(request.param + "_url")


def make_driver():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in CHROMIUM_FLAGS:
        opts.add_argument(a)
    opts.add_argument("--user-data-dir=" + tempfile.mkdtemp(prefix="fano-chromium-"))
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    drv.set_page_load_timeout(30)
    return drv


@pytest.fixture(scope="session")
def driver():
    drv = make_driver()
    yield drv
    drv.quit()


@pytest.fixture(autouse=True)
def no_console_errors(request):
    if "driver" not in request.fixturenames:
        yield
        return
    drv = request.getfixturevalue("driver")
    drv.get_log("browser")
    yield
    severe = [e for e in drv.get_log("browser") if e.get("level") == "SEVERE" and not refusal(e)]
    assert not severe, "browser console errors: %s" % severe


def refusal(entry):
    """Chromium logs every HTTP 4xx and 5xx as an error: the API's refusal of a
    move the page asked about (over `fano serve`) is an answer, not a fault; so
    is the 503 with which the server says it is still solving a reading's table
    (the page shows its progress and asks again)."""
    m = entry.get("message", "")
    return entry.get("source") == "network" and "/api/v2/" in m and (
        "status of 400" in m or "status of 422" in m or "status of 503" in m)


# ---------------------------------------------------------------- the reference
def native(tables, variant, moves):
    """`fano query --json` of the moves; a reading of the rules (not in VARIANTS)
    by --rules, its table solved into `tables` first."""
    opts = VARIANTS.get(variant, ["--rules", variant])
    cmd = [FANO_BIN, "query", "--json", "--tables", tables] + opts + ["--moves", ",".join(moves)]
    out = subprocess.run(cmd, capture_output=True)
    if out.returncode != 0 and variant not in VARIANTS:
        subprocess.run([FANO_BIN, "solve", "--tables", tables] + opts, check=True, capture_output=True)
        out = subprocess.run(cmd, capture_output=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def expected_offer():
    """Every reading of the rules the static page offers, written out here (not
    from the page's code): each named variant with both line rules and 1..3
    circles and triangles a player, all 72 (the largest solved in the page
    after the page says what they ask of the device)."""
    out = []
    for base, cap, board in (("standard", 2, True), ("projective", 2, False), ("cap3", 3, True),
                             ("cap3-projective", 3, False)):
        for lines in ("", "-colour"):
            for c in (1, 2, 3):
                for t in (1, 2, 3):
                    out.append(base + lines + ("" if (c, t) == (2, 2) else "-%dc%dt" % (c, t)))
    return out


# ---------------------------------------------------------------- page helpers
def ready(drv):
    return drv.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"


def wait(drv, cond, timeout=TIMEOUT):
    WebDriverWait(drv, timeout).until(cond)


def page_state(drv):
    return drv.execute_script("""
      var q = function (s) { return Array.from(document.querySelectorAll(s)); };
      return {
        ready: document.body.getAttribute('data-ready'),
        value: document.getElementById('value').textContent,
        caption: (document.getElementById('caption') || {}).textContent || '',
        status: document.getElementById('status').textContent,
        statusClass: document.getElementById('status').className,
        played: q('#moves-played li').map(function (li) { return li.getAttribute('data-move'); }),
        future: q('#moves-played li.future').length,
        legal: q('#legal-moves li[data-move]').map(function (li) {
          return [li.getAttribute('data-move'), li.getAttribute('data-result')]; }),
        pv: q('#pv span.pvm').map(function (s) { return s.getAttribute('data-move'); }),
        pvEnd: (document.querySelector('#pv .pv-end') || {}).textContent || '',
        pvCut: !!document.querySelector('#pv .pv-end[data-cut]'),
        hash: location.hash,
        variant: document.getElementById('variant').value,
        variants: q('#variant option').map(function (o) { return o.value; })
      };""")


def at(drv):
    """(moves on the board, the whole line) from the URL."""
    h = urllib.parse.parse_qs(drv.execute_script("return location.hash;").lstrip("#"))
    line = [m for m in h.get("moves", [""])[0].split(",") if m]
    n = int(h.get("at", [len(line)])[0])
    return line[:n], line


def open_page(drv, url, fragment="", explore=True):
    """Loads the page at the link; explore: both sides human (else as a new visitor
    meets it: White against the computer)."""
    drv.get("about:blank")
    drv.get(url + fragment)
    wait(drv, ready)
    if explore:
        drv.execute_script(EXPLORE_JS)


# The page's players for exploring: both human (a new visitor plays White
# against the computer; these tests explore both sides' moves).
EXPLORE_JS = """
['white', 'black'].forEach(function (c) {
  var sel = document.getElementById(c + '-player');
  if (sel.value !== 'human') { sel.value = 'human'; sel.dispatchEvent(new Event('change')); }
});"""


def settle(drv, moves_len=None):
    wait(drv, lambda d: ready(d) and (moves_len is None or len(at(d)[0]) == moves_len))


def value_text(category, plies):
    return "draw" if category == "draw" else "%s in %d" % (category, plies)


def mover_text(result, plies):  # native rated move: result for the mover
    return "draw" if result == "draw" else "%s in %d" % (result, plies)


def click_move(drv, move, to_move):
    """Plays a move by clicking: a supply shape then a space, or a piece then a space."""
    if "-" in move:
        a, b = move.split("-")
        drv.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%s"]' % a).click()
        drv.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%s"]' % b).click()
    else:
        shape = "circle" if move[0] in "Cc" else "triangle"
        drv.find_element(By.CSS_SELECTOR, '.supply-piece[data-colour="%s"][data-shape="%s"]' % (to_move, shape)).click()
        drv.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%s"]' % move[1:]).click()


def sample_games(tables, variant, count=3, plies=10):
    """Move lists reached by the native engine's choices with seeded deviations."""
    import random
    rng = random.Random(hash(variant) & 0xffff)
    games = [[]]
    for g in range(count):
        moves = []
        for _ in range(plies):
            r = native(tables, variant, moves)
            if r.get("game_over") or not r["moves"]:
                break
            ms = [m["move"] for m in r["moves"]]
            moves.append(rng.choice(ms) if rng.random() < 0.5 else r["engine_move"])
            games.append(list(moves))
    return games[:: max(1, len(games) // 6)]


def assert_page_equals_native(drv, tables, variant, moves):
    """Opens the game by its link and checks the page's value, rated moves (in
    order) and principal variation against `fano query --json`."""
    frag = "#" + ("variant=%s&" % variant if variant != "standard" else "") + "moves=" + ",".join(moves)
    drv.execute_script("location.hash = arguments[0];", frag)
    wait(drv, lambda d: ready(d) and at(d)[0] == moves and page_state(d)["variant"] == variant)
    ref = native(tables, variant, moves)
    st = page_state(drv)
    assert "error" not in st["statusClass"], st["status"]
    if ref["game_over"]:
        assert st["value"] == ref["game_over"]["text"]
        return
    assert st["value"] == value_text(ref["value"], ref["plies"]), (variant, moves)
    assert [list(x) for x in st["legal"]] == [[m["move"], mover_text(m["result"], m["plies"])]
                                              for m in ref["moves"]], (variant, moves)
    assert st["pv"] == ref["pv"][:len(st["pv"])] and st["pv"], (variant, moves)


# ---------------------------------------------------------------- tests: the static app
def test_every_variant_matches_native(driver, static_url, tables):
    """Each variant is offered, solved in the page when first chosen (with a visible
    indication), and its values, ratings and principal variation equal `fano query --json`."""
    open_page(driver, static_url)
    st = page_state(driver)
    assert sorted(st["variants"]) == sorted(expected_offer())
    assert st["variants"][:len(VARIANTS)] == list(VARIANTS) or sorted(st["variants"][:len(VARIANTS)]) == sorted(VARIANTS)
    for variant in VARIANTS:
        driver.execute_script("""
          window.__sawSolving = false;
          new MutationObserver(function () {
            if (document.body.hasAttribute('data-solving') || /Solving/.test(document.getElementById('status').textContent))
              window.__sawSolving = true;
          }).observe(document.body, {attributes: true, subtree: true, childList: true, characterData: true});""")
        if variant != "standard":
            sel = driver.find_element(By.ID, "variant")
            sel.find_element(By.CSS_SELECTOR, 'option[value="%s"]' % variant).click()
            wait(driver, lambda d: ready(d) and page_state(d)["variant"] == variant, 120)
            assert driver.execute_script("return window.__sawSolving;"), "no solving indication for " + variant
        for moves in sample_games(tables, variant):
            assert_page_equals_native(driver, tables, variant, moves)
    stats = driver.execute_script("return window.fanoStats;")
    assert set(stats["solve"]) == set(VARIANTS)
    for v, s in stats["solve"].items():
        # each first solve's stages (fano_solve's, for the bench) fit in its time
        assert set(s["stages"]) == {"enumerate", "graph", "retrograde", "table"}, v
        assert min(s["stages"].values()) >= 0 and s["stages"]["enumerate"] > 0, v
        assert sum(s["stages"].values()) * 1000 <= s["engine_ms"] + 1e-6, v


@pytest.mark.parametrize("rules,words", [
    ("standard-colour-2c1t", ["colour-only lines", "2 circles and 1 triangle each"]),
    ("cap3-projective-1c3t", ["stack cap 3", "projective", "1 circle and 3 triangles each"]),
])
def test_a_reading_of_the_rules_is_solved_in_the_page(driver, static_url, tables, rules, words):
    """A reading of the rules chosen in the variant list is solved in the page, its
    rules are stated under "Rules and legend", and its values, ratings and supply
    equal `fano query --rules NAME --json`."""
    open_page(driver, static_url)
    driver.find_element(By.ID, "variant").find_element(By.CSS_SELECTOR, 'option[value="%s"]' % rules).click()
    wait(driver, lambda d: ready(d) and page_state(d)["variant"] == rules, 120)
    note = driver.execute_script("return document.getElementById('rules-now').textContent;")
    for w in words:
        assert w in note, note
    # White's supply on the empty board is the rules' material.
    c, t = (int(x) for x in rules.split("-")[-1].replace("c", " ").replace("t", "").split())
    shown = driver.execute_script("""
      return Array.from(document.querySelectorAll('.supply-piece[data-colour="white"]')).map(
        function (b) { return [b.getAttribute('data-shape'), b.getAttribute('data-count')]; });""")
    assert dict(shown) == {"circle": str(c), "triangle": str(t)}, shown
    for moves in sample_games(tables, rules, count=2, plies=8):
        assert_page_equals_native(driver, tables, rules, moves)


def test_rules_text_is_the_readings_own(driver, static_url):
    """The rules under "Rules and legend" are the chosen reading's: its material,
    its piece count, its cap, its adjacency and its line rule (written out here
    for cap3-projective-colour-3c3t), never the rulebook's sentences."""
    open_page(driver, static_url)
    rules = "cap3-projective-colour-3c3t"
    driver.find_element(By.ID, "variant").find_element(By.CSS_SELECTOR, 'option[value="%s"]' % rules).click()
    wait(driver, lambda d: ready(d) and page_state(d)["variant"] == rules, 120)
    text = driver.execute_script("return document.getElementById('legend').textContent;")
    for said in ("three circles and three triangles", "all twelve pieces", "three pieces at most",
                 "any other space", "all of one colour,"):
        assert said in text, (said, text)
    for wrong in ("two circles and two triangles", "all eight", "or all of one shape", "two pieces at most"):
        assert wrong not in text, (wrong, text)


def test_largest_readings_are_offered_and_solved_in_the_page(driver, static_url, tables):
    """One of the six largest readings (stack cap 3 on the board, five pieces a
    player): the page says what it asks of the device before the solve starts,
    solves it in the worker when asked (the elapsed time shown, the page
    answering meanwhile), then a move played by clicking has the values of
    `fano query --rules NAME --json`."""
    rules = "cap3-3c2t"
    open_page(driver, static_url)
    driver.find_element(By.ID, "variant").find_element(By.CSS_SELECTOR, 'option[value="%s"]' % rules).click()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-asking") == rules)
    st = page_state(driver)
    # the note names the memory it takes and the device that may not have it
    assert re.search(r"takes up to [0-9.,]+ (mega|giga)bytes of memory", st["status"]), st["status"]
    assert "phone" in st["status"], st["status"]
    assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-solving") is None
    assert driver.execute_script("return Object.keys(window.fanoStats.solve);") == ["standard"]
    driver.find_element(By.ID, "solve-heavy").click()
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-solving") == rules)
    # the page's thread answers while the worker solves
    t0 = time.time()
    assert driver.execute_script("return 1 + 1;") == 2
    assert time.time() - t0 < 5
    wait(driver, lambda d: ready(d) and page_state(d)["variant"] == rules, 600)
    stats = driver.execute_script("return window.fanoStats.solve[arguments[0]];", rules)
    assert stats["where"] == "worker" and stats["classes"] > 5000000, stats
    click_move(driver, "C4", "white")
    settle(driver, 1)
    ref = native(tables, rules, ["C4"])
    st = page_state(driver)
    assert st["value"] == value_text(ref["value"], ref["plies"]), st
    assert [list(x) for x in st["legal"]] == [[m["move"], mover_text(m["result"], m["plies"])]
                                              for m in ref["moves"]]


def test_game_played_to_end_by_clicking(driver, static_url, tables):
    open_page(driver, static_url)
    for ply in range(300):
        moves, _ = at(driver)
        ref = native(tables, "standard", moves)
        if ref["game_over"]:
            break
        # a seeded mix of the best and other moves, so that the game ends
        m = ref["moves"][-1]["move"] if ply % 3 == 2 else ref["engine_move"]
        click_move(driver, m, ref["to_move"])
        settle(driver, len(moves) + 1)
        assert at(driver)[0] == moves + [m]
    else:
        pytest.fail("no end within 300 plies")
    st = page_state(driver)
    assert st["value"] == ref["game_over"]["text"]
    assert st["caption"].startswith("Game over"), st["caption"]
    assert st["legal"] == []


def test_offline_after_first_load(static_url, artifacts):
    drv = make_driver()  # a fresh profile: the service worker installs on this load
    try:
        drv.get(static_url)
        wait(drv, ready)
        wait(drv, lambda d: d.execute_script(
            "return !!(navigator.serviceWorker && navigator.serviceWorker.controller) || null;") or
            (d.refresh() or False), 20)
        wait(drv, ready)
        drv.execute_script(EXPLORE_JS)
        drv.get_log("browser")
        drv.execute_cdp_cmd("Network.enable", {})
        drv.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        # still plays: a move, a variant solved offline, and a reload from the cache
        click_move(drv, "C4", "white")
        settle(drv, 1)
        drv.find_element(By.CSS_SELECTOR, '#variant option[value="cap3"]').click()
        wait(drv, lambda d: ready(d) and page_state(d)["variant"] == "cap3", 120)
        drv.refresh()
        wait(drv, ready)
        assert page_state(drv)["variant"] == "cap3"
        click_move(drv, "T1", "white")
        settle(drv, 1)
        assert "error" not in page_state(drv)["statusClass"]
        severe = [e for e in drv.get_log("browser") if e.get("level") == "SEVERE"]
        assert not severe, severe
    finally:
        drv.quit()


def test_solving_runs_off_the_page_thread(driver, static_url):
    """The engine runs in a Web Worker: while a variant is solved, the page's own
    timers keep firing (the page is never blocked)."""
    open_page(driver, static_url)
    assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-engine-thread") == "worker"
    driver.execute_script("""
      window.__ticks = 0; window.__during = null;
      var timer = setInterval(function () { window.__ticks++; }, 5);
      new MutationObserver(function () {
        var b = document.body;
        if (b.hasAttribute('data-solving') && window.__start == null) window.__start = window.__ticks;
        if (!b.hasAttribute('data-solving') && window.__start != null && window.__during == null) {
          window.__during = window.__ticks - window.__start; clearInterval(timer); }
      }).observe(document.body, {attributes: true});""")
    driver.find_element(By.CSS_SELECTOR, '#variant option[value="cap3"]').click()
    wait(driver, lambda d: ready(d) and page_state(d)["variant"] == "cap3", 120)
    assert driver.execute_script("return window.__during;") > 0


def test_the_engine_is_the_worker_the_pages_head_started(static_url):
    """The engine's worker is started by the page's head, before the page's code is read, and the
    page's code takes it over: the one engine, from the head, answers the first position (the
    head's second worker only warms the module's code, and goes)."""
    drv = make_driver()
    try:
        drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
          window.__workers = [];
          var W = window.Worker;
          window.Worker = function (url, options) {
            var w = new W(url, options);
            var from = document.currentScript;
            window.__workers.push({url: String(url), from: from && from.parentNode ? from.parentNode.tagName : ''});
            return w;
          };"""})
        open_page(drv, static_url)
        made = drv.execute_script("return window.__workers;")
        # the engine, and the second one that warms the module's code and goes (fano_warm)
        assert made == [{"url": "fano_worker.js", "from": "HEAD"}] * 2, made
        assert drv.find_element(By.TAG_NAME, "body").get_attribute("data-engine-thread") == "worker"
        assert page_state(drv)["value"] != ""
    finally:
        drv.quit()


def test_a_worker_ready_before_the_pages_code_runs_is_taken_over(web_dir, tmp_path):
    """The page's code read late (here three seconds after the head): the worker from the head has
    said it is ready before anyone listened, and the engine still starts from what it said."""
    with open(os.path.join(web_dir, "index.html"), encoding="utf-8") as f:
        page = f.read()
    at = page.rindex("<script>\n") + len("<script>\n")
    end = page.index("</script>", at)
    page = page[:at] + "setTimeout(function () {\n" + page[at:end] + "\n}, 3000);\n" + page[end:]
    (tmp_path / "index.html").write_text(page, encoding="utf-8")
    for name in ("fano_web.js", "fano_web.wasm", "fano_worker.js"):
        shutil.copy(os.path.join(web_dir, name), tmp_path / name)
    httpd, url = static_server(str(tmp_path))
    drv = make_driver()
    try:
        open_page(drv, url)
        assert drv.execute_script("var e = window.fanoEarlyWorker; return e && e.first ? e.first.type : null;") == "message"
        assert drv.find_element(By.TAG_NAME, "body").get_attribute("data-engine-thread") == "worker"
        assert page_state(drv)["value"] != ""
    finally:
        drv.quit()
        httpd.shutdown()


def test_the_answers_the_page_carries_are_a_fresh_engines(driver, static_url):
    """The page carries the engine's answers to its first requests (the readings and the levels,
    recorded when it was built) and lists them before its engine has loaded: each is what a
    fresh engine in a worker of its own answers now, byte for byte, and the page's lists are
    those answers."""
    open_page(driver, static_url)
    carried = json.loads(driver.execute_script(
        "return document.getElementById('fano-first-answers').textContent;"))
    assert sorted(carried) == ['/api/v2/players?[]', '/api/v2/rules?[]'], sorted(carried)
    ask = """
      var done = arguments[arguments.length - 1], keys = arguments[0], warm = arguments[1], out = {};
      var w = new Worker('fano_worker.js');
      w.onmessage = function (e) {
        if (e.data.ready) {
          if (warm) w.postMessage({id: -1, fn: 'fano_warm', args: []});
          keys.forEach(function (k, i) {
            var q = k.indexOf('?');
            w.postMessage({id: i, fn: 'fano_request', args: ['GET', k.slice(0, q), k.slice(q + 1)]});
          });
          return;
        }
        out[e.data.id < 0 ? 'warm' : keys[e.data.id]] = e.data.result;
        if (Object.keys(out).length === keys.length + (warm ? 1 : 0)) { w.terminate(); done(out); }
      };"""
    assert driver.execute_async_script(ask, sorted(carried), False) == carried
    # the warming run (the head's second worker) leaves its engine as fresh as it found it
    warmed = driver.execute_async_script(ask, sorted(carried), True)
    assert json.loads(warmed.pop("warm")) == {"warmed": "standard-1c1t"}
    assert warmed == carried
    rules = json.loads(json.loads(carried['/api/v2/rules?[]'])["body"])
    offered = driver.execute_script(
        "return Array.from(document.querySelectorAll('#variant option')).map(function (o) { return o.value; });")
    assert sorted(offered) == sorted(r["name"] for r in rules["readings"])
    assert not any(r["served"] for r in rules["readings"])  # a fresh engine has solved nothing


def test_file_url(driver, web_dir):
    """The folder opened as a file (the engine is fano_web_inline.js, its WebAssembly inside)."""
    if not os.path.exists(os.path.join(web_dir, "fano_web_inline.js")):
        pytest.skip("built without SINGLE_FILE: file:// cannot fetch the .wasm")
    open_page(driver, "file://" + os.path.abspath(os.path.join(web_dir, "index.html")))
    # no worker from a file there: the engine runs in one made from a Blob URL, off the page's thread
    assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-engine-thread") == "worker"
    # that worker's code is fano_worker.js's own text (one source), which the page carries
    carried = driver.execute_script("var e = document.getElementById('fano-worker-source');"
                                    " return e ? e.textContent : null;")
    with open(os.path.join(web_dir, "fano_worker.js"), encoding="utf-8") as f:
        own = f.read()
    assert carried in ("\n" + own, own), "the page does not carry fano_worker.js"
    click_move(driver, "C4", "white")
    settle(driver, 1)
    assert page_state(driver)["value"] != ""
    # a reading solved meanwhile: the page's timers keep firing (its thread is free)
    driver.execute_script("window.ticks = 0; window.tick = setInterval(function () { window.ticks++; }, 20);")
    driver.find_element(By.CSS_SELECTOR, '#variant option[value="cap3"]').click()
    wait(driver, lambda d: ready(d) and d.find_element(By.ID, "variant").get_attribute("value") == "cap3", 120)
    solve = driver.execute_script("clearInterval(window.tick); return window.fanoStats.solve.cap3;")
    ticks = driver.execute_script("return window.ticks;")
    assert solve["where"] == "worker" and ticks >= solve["ms"] / 20 / 4, (ticks, solve)


def test_screenshots(driver, static_url, artifacts):
    for name, w, h in (("desktop", 1280, 800), ("phone", 390, 844)):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": w, "height": h, "deviceScaleFactor": 1, "mobile": w < 500})
        try:
            open_page(driver, static_url, "#moves=C4,t3,T2")
            width = driver.execute_script("return document.documentElement.scrollWidth;")
            assert width <= w, "horizontal overflow at %d px: %d" % (w, width)
            assert driver.save_screenshot(os.path.join(artifacts, "static-%s.png" % name))
        finally:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# ---------------------------------------------------------------- tests: the page's state is honest
# Each runs on the static app and on `fano serve`'s page; each failed on the earlier page.
def test_undo_against_engine_takes_back_both(driver, app):
    open_page(driver, app)
    driver.execute_script("var s = document.getElementById('black-player'); s.value = 'engine';"
                          "s.dispatchEvent(new Event('change'));")
    click_move(driver, "C4", "white")
    settle(driver, 1)
    # while the engine thinks, the player cannot move for it
    thinking, text = driver.execute_script("""
      var t = document.body.getAttribute('data-thinking');
      document.querySelector('#board .hit[data-space="3"]').dispatchEvent(new MouseEvent('click', {bubbles: true}));
      return [t, document.getElementById('status').textContent];""")
    assert thinking == "1" and "engine" in text, (thinking, text)
    wait(driver, lambda d: len(at(d)[0]) == 2)  # the engine's reply
    wait(driver, ready)
    moves = at(driver)[0]
    assert moves[0] == "C4" and len(moves) == 2, moves
    driver.find_element(By.ID, "undo").click()
    settle(driver, 0)
    time.sleep(1.5)  # the engine must not replay its move
    assert at(driver)[0] == []
    assert page_state(driver)["played"] == ["C4", moves[1]]  # kept for redo, greyed
    driver.execute_script("var s = document.getElementById('black-player'); s.value = 'human';"
                          "s.dispatchEvent(new Event('change'));")


def test_wrong_colour_move_is_refused(driver, app):
    open_page(driver, app, "#moves=C4,t3")
    inp = driver.find_element(By.ID, "move-input")
    inp.send_keys("t5\n")  # a black triangle; White is to move
    time.sleep(0.5)
    wait(driver, ready)
    st = page_state(driver)
    assert at(driver)[0] == ["C4", "t3"]
    assert "error" in st["statusClass"] and "t5" in st["status"], st["status"]


def test_bad_share_link_loads_legal_prefix(driver, app):
    open_page(driver, app, "#moves=C4,t3,C3,X9,T1")
    st = page_state(driver)
    assert at(driver)[0] == ["C4", "t3", "C3"]
    assert st["played"] == ["C4", "t3", "C3"]
    assert "error" in st["statusClass"] and "4" in st["status"] and "X9" in st["status"], st["status"]
    # a placement written in the other side's letter case is not silently read as the side to move's
    open_page(driver, app, "#moves=C4,T3")
    st = page_state(driver)
    assert at(driver)[0] == ["C4"] and "T3" in st["status"], st["status"]
    # a later move (after at=) that cannot be played: dropped, and said
    open_page(driver, app, "#moves=C4,t3,C1,c2,C5&at=2")  # a third white circle
    st = page_state(driver)
    assert at(driver) == (["C4", "t3"], ["C4", "t3", "C1", "c2"]) and "C5" in st["status"], st["status"]
    # a variant the page does not offer: said, and the first one shown
    open_page(driver, app, "#variant=nonsense&moves=C4")
    st = page_state(driver)
    assert st["variant"] == "standard" and "nonsense" in st["status"], st["status"]


def test_going_back_keeps_later_moves(driver, app):
    line = ["C4", "t3", "T2", "c1", "C5"]
    open_page(driver, app, "#moves=" + ",".join(line))
    driver.find_elements(By.CSS_SELECTOR, "#moves-played li")[1].click()
    settle(driver, 2)
    st = page_state(driver)
    assert st["played"] == line and st["future"] == 3
    assert at(driver) == (line[:2], line)
    driver.back()  # the browser's Back moves through the game
    settle(driver, 5)
    assert at(driver) == (line, line)
    driver.forward()
    settle(driver, 2)
    assert at(driver) == (line[:2], line)
    # a different move replaces the later ones
    other = [m for m, _ in page_state(driver)["legal"] if m != "T2"][0]
    driver.find_element(By.CSS_SELECTOR, '#legal-moves li[data-move="%s"]' % other).click()
    settle(driver, 3)
    assert at(driver) == (line[:2] + [other], line[:2] + [other])


def numbered(drv):
    """The move list, the chart and the principal variation as the page shows them."""
    return drv.execute_script("""
      var q = function (s) { return Array.from(document.querySelectorAll(s)); };
      return {
        played: q('#moves-played li').map(function (li) {
          return [+li.getAttribute('data-ply'), li.getAttribute('data-move'), li.getAttribute('data-result'),
                  li.textContent]; }),
        chart: q('#chart .pt').map(function (g) {
          return [+g.getAttribute('data-ply'), g.getAttribute('data-side'), g.getAttribute('data-value'),
                  g.querySelector('title').textContent]; }),
        pv: q('#pv span.pvm').map(function (s) {
          return [+s.getAttribute('data-ply'), s.getAttribute('data-move'), s.textContent]; })
      };""")


def test_move_list_chart_and_pv_number_plies_alike(driver, app, tables):
    """One numbering: ply N is the Nth move played. The principal variation's
    moves, once played (by clicking its sixth move), are the move list's plies
    1..6 and the chart's points 1..6 under the same numbers, each with its
    mover's result, which is `fano query --json`'s result and plies for that
    move; the variation then goes on from ply 7."""
    open_page(driver, app)
    before = numbered(driver)
    assert [p[0] for p in before["pv"][:6]] == [1, 2, 3, 4, 5, 6], before["pv"]
    for ply, mv, text in before["pv"]:
        assert text == "%d.\u00a0%s" % (ply, mv), text
    line = [mv for _, mv, _ in before["pv"][:6]]
    driver.find_elements(By.CSS_SELECTOR, "#pv span.pvm")[5].click()
    settle(driver, 6)
    assert at(driver)[0] == line
    after = numbered(driver)
    assert [(p[0], p[1]) for p in after["played"]] == list(enumerate(line, 1))
    refs = [native(tables, "standard", line[:i]) for i in range(len(line) + 1)]
    sides = {"white": "White", "black": "Black"}
    for (ply, mv, result, text), point in zip(after["played"], after["chart"][1:]):
        entry = next(m for m in refs[ply - 1]["moves"] if m["move"] == mv)
        assert result == mover_text(entry["result"], entry["plies"]), (ply, mv, result, entry)
        assert text.startswith("%d. %s %s" % (ply, mv, result)), text
        side = refs[ply - 1]["to_move"]
        assert point[:3] == [ply, side, result], (point, ply, side, result)
        assert point[3].startswith("ply %d, %s: %s for %s" % (ply, mv, result, sides[side])), point[3]
    start = after["chart"][0]
    assert start[:3] == [0, refs[0]["to_move"], value_text(refs[0]["value"], refs[0]["plies"])], start
    # the variation from here: its first move is ply 7, and it is the engine's line
    assert after["pv"][0][0] == 7 and [mv for _, mv, _ in after["pv"]] == refs[-1]["pv"][:len(after["pv"])]
    # the position's own moves: each result is `fano query --json`'s
    assert [list(x) for x in page_state(driver)["legal"]] == \
        [[m["move"], mover_text(m["result"], m["plies"])] for m in refs[-1]["moves"]]


def test_page_asks_the_api_only_under_v2(driver, serve_url):
    """Over `fano serve`, the page's every request to the API (position,
    picture, players, a player's move, "why?", a puzzle) goes to /api/v2, and
    the position's answer carries the principal variation (no separate request)."""
    open_page(driver, serve_url, "#moves=C4,t3", explore=False)
    driver.execute_script("performance.setResourceTimingBufferSize(100000);")
    # the side pickers offer a human and the levels the API lists, in its order and words
    import urllib.request
    with urllib.request.urlopen(serve_url + "api/v2/players", timeout=10) as r:
        levels = [[p["name"], p["label"]] for p in json.load(r)["players"]]
    for side in ("white", "black"):
        offered = driver.execute_script(
            "return Array.from(document.getElementById(arguments[0] + '-player').options)"
            ".map(function (o) { return [o.value, o.textContent]; });", side)
        assert offered == [["human", "human"]] + levels, offered
    # White's best move, then Black's computer player (the strongest level offered: it forms no line) answers through /player
    driver.execute_script("var s = document.getElementById('black-player'); s.selectedIndex = 1;"
                          "s.dispatchEvent(new Event('change'));")
    driver.find_element(By.ID, "play-best").click()
    wait(driver, lambda d: ready(d) and len(at(d)[0]) == 4 and
         d.find_element(By.TAG_NAME, "body").get_attribute("data-thinking") is None)
    driver.execute_script(EXPLORE_JS)  # both sides human: the analysis in sight
    li = driver.find_element(By.CSS_SELECTOR, "#legal-moves li[data-move]")
    driver.execute_script("arguments[0].focus();", li.find_element(By.CSS_SELECTOR, "button.why"))
    wait(driver, lambda d: d.find_element(By.ID, "refutation").get_attribute("data-for"))
    driver.find_element(By.CSS_SELECTOR, '#chart .pt[data-ply="1"]').click()
    settle(driver, 1)
    driver.find_element(By.ID, "puzzle-new").click()
    wait(driver, lambda d: ready(d) and d.find_element(By.ID, "puzzle-info").text)
    paths = driver.execute_script("""
      return performance.getEntriesByType('resource').map(function (e) { return new URL(e.name).pathname; });""")
    api = [p for p in paths if p.startswith("/api")]
    assert api and all(p.startswith("/api/v2/") for p in api), api
    assert "/api/v2/players" in api and "/api/v2/standard" in api and "/api/v2/standard/svg" in api, api
    assert any(p.endswith("/puzzle") for p in api), api
    assert not any(p.endswith("/mainline") for p in api), api


def test_finished_game_says_so(driver, app, tables):
    moves = []
    while True:
        r = native(tables, "standard", moves)
        if r["game_over"]:
            break
        moves.append(r["moves"][-1]["move"])  # the worst move: a quick end
    open_page(driver, app, "#moves=" + ",".join(moves))
    st = page_state(driver)
    assert st["caption"].startswith("Game over"), st["caption"]
    assert "to move" not in st["caption"]
    assert driver.find_element(By.CSS_SELECTOR, "#board svg text.to-move").text == "Game over"


def test_variant_change_keeps_the_game(driver, app):
    open_page(driver, app, "#moves=C4,t3")
    driver.find_element(By.CSS_SELECTOR, '#variant option[value="projective"]').click()
    wait(driver, lambda d: ready(d) and page_state(d)["variant"] == "projective", 120)
    assert at(driver)[0] == []
    driver.find_element(By.CSS_SELECTOR, '#variant option[value="standard"]').click()
    wait(driver, lambda d: ready(d) and page_state(d)["variant"] == "standard")
    assert at(driver)[0] == ["C4", "t3"]


def test_draw_line_ends_or_is_cut(driver, app):
    open_page(driver, app, "#variant=projective")
    wait(driver, lambda d: ready(d) and page_state(d)["variant"] == "projective", 120)
    st = page_state(driver)
    assert 0 < len(st["pv"]) <= 40
    assert st["pvCut"] and "continues drawn" in st["pvEnd"], st["pvEnd"]
    # The engine's drawn line has no repetition within its bound (continues_drawn):
    # the page says the line stops there, drawn.
    assert "no repetition yet" in st["pvEnd"] and "after 100 moves" in st["pvEnd"], st["pvEnd"]


def test_illegal_click_says_why(driver, app):
    # stack full (cap 2): space 4 holds C and t
    open_page(driver, app, "#moves=C4,t4")
    driver.find_element(By.CSS_SELECTOR, '.supply-piece[data-colour="white"][data-shape="triangle"]').click()
    driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="4"]').click()
    wait(driver, lambda d: "cap" in page_state(d)["status"])
    # an identical piece: a second white circle on the white circle of space 4
    open_page(driver, app, "#moves=C4,t3")
    driver.find_element(By.CSS_SELECTOR, '.supply-piece[data-colour="white"][data-shape="circle"]').click()
    driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="4"]').click()
    wait(driver, lambda d: "stacking rule" in page_state(d)["status"])
    # not your piece: Black's supply while White is to move
    driver.find_element(By.CSS_SELECTOR, '.supply-piece[data-colour="black"][data-shape="circle"]').click()
    wait(driver, lambda d: "Not your piece" in page_state(d)["status"])
    assert at(driver)[0] == ["C4", "t3"]


def test_illegal_movement_says_why(driver, app, tables):
    # the movement phase: every piece placed (engine moves), then a piece that is not the mover's
    # and a target that is not adjacent
    moves = []
    r = native(tables, "standard", moves)
    while any("-" not in m["move"] for m in r["moves"]):
        moves.append(r["engine_move"])
        r = native(tables, "standard", moves)
    assert not r["game_over"]
    open_page(driver, app, "#moves=" + ",".join(moves))
    stacks = r["position"].split()[0].split("/")
    mine = str.isupper if r["to_move"] == "white" else str.islower
    theirs = [i + 1 for i, s in enumerate(stacks) if s != "-" and not mine(s[-1])]
    driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%d"]' % theirs[0]).click()
    wait(driver, lambda d: "not %s's" % r["to_move"] in page_state(d)["status"])
    frm = int(r["moves"][0]["move"].split("-")[0])
    targets = {int(m["move"].split("-")[1]) for m in r["moves"] if m["move"].startswith("%d-" % frm)}
    far = [t for t in range(1, 8) if t != frm and t not in targets and
           native_refusal(tables, frm, t, moves) == "adjacent"]
    if far:
        driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%d"]' % frm).click()
        driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%d"]' % far[0]).click()
        wait(driver, lambda d: "not adjacent" in page_state(d)["status"])
    assert at(driver)[0] == moves


def native_refusal(tables, frm, to, moves):
    out = subprocess.run([FANO_BIN, "query", "--json", "--tables", tables,
                          "--moves", ",".join(moves + ["%d-%d" % (frm, to)])], capture_output=True)
    return "adjacent" if b"not adjacent" in out.stderr else "other"


def test_fano_serve_serves_the_static_app(driver, web_dir, tmp_path, artifacts):
    """`fano serve --web DIR`: the static app at /, the API kept; every missing
    table solved at start (an empty tables folder)."""
    log = open(os.path.join(artifacts, "serve-static-stderr.log"), "wb")
    proc = subprocess.Popen([FANO_BIN, "serve", "--port", "0", "--web", web_dir, "--tables", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=log)
    try:
        ready_, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready_, "fano serve printed no URL"
        url = proc.stdout.readline().decode().strip()
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        import urllib.request
        # The server listens before its readings are solved (each answers
        # 503 until then): the four named ones come into /api/v2/info.
        served = []
        for _ in range(600):
            with urllib.request.urlopen(url.rstrip("/") + "/api/v2/info", timeout=10) as r:
                served = sorted(v["name"] for v in json.load(r)["variants"])
            if served == sorted(VARIANTS):
                break
            time.sleep(0.1)
        assert served == sorted(VARIANTS)
        with urllib.request.urlopen(url.rstrip("/") + "/api/v2/cap3?moves=C4", timeout=10) as r:
            assert json.load(r)["moves_played"] == ["C4"]
        # The folder's files carry the headers of every answer, with a policy
        # that lets the page run its engine and nothing from elsewhere.
        for name in ("", "fano_web.js", "fano_web.wasm"):
            with urllib.request.urlopen(url.rstrip("/") + "/" + name, timeout=10) as r:
                if name.endswith(".wasm"):  # compiled as it downloads only with its own type
                    assert r.headers["Content-Type"] == "application/wasm"
                assert r.headers["X-Content-Type-Options"] == "nosniff"
                assert r.headers["X-Frame-Options"] == "DENY"
                csp = r.headers["Content-Security-Policy"]
                assert "'wasm-unsafe-eval'" in csp and "frame-ancestors 'none'" in csp, csp
        open_page(driver, url.rstrip("/") + "/")
        assert driver.execute_script(
            "return document.querySelector('meta[name=fano-engine]').content;") == "wasm"
        click_move(driver, "C4", "white")
        settle(driver, 1)
        assert "error" not in page_state(driver)["statusClass"]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        log.close()


def test_service_worker_never_serves_a_stale_app(web_dir, tmp_path):
    """After an update of the folder, a reload while online shows the new app."""
    import shutil
    folder = str(tmp_path / "web")
    shutil.copytree(web_dir, folder)
    httpd, url = static_server(folder)
    drv = make_driver()
    try:
        drv.get(url)
        wait(drv, ready)
        wait(drv, lambda d: d.execute_script(
            "return !!(navigator.serviceWorker && navigator.serviceWorker.controller);"), 20)
        page = open(os.path.join(folder, "index.html")).read()
        with open(os.path.join(folder, "index.html"), "w") as f:
            f.write(page.replace("<title>Fano330-R-Morris explorer</title>",
                                 "<title>Fano330-R-Morris explorer (updated)</title>"))
        drv.refresh()
        wait(drv, ready)
        assert drv.title.endswith("(updated)")
    finally:
        drv.quit()
        httpd.shutdown()


def test_server_stopped_moves_do_not_pile_up(driver, tables, tmp_path, artifacts):
    """Over `fano serve`, with the server gone a click does not enter the game or
    the URL: it says the server does not answer; after a restart play goes on."""
    def start(port=0):
        p = subprocess.Popen([FANO_BIN, "serve", "--port", str(port), "--web", os.environ.get("FANO_SERVE_WEB", "none"),
                              "--tables", tables], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        ready_, _, _ = select.select([p.stdout], [], [], 60)
        assert ready_
        u = p.stdout.readline().decode().strip()
        threading.Thread(target=p.stdout.read, daemon=True).start()
        return p, u
    proc, url = start()
    try:
        open_page(driver, url, "#moves=C4")
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
        click_move(driver, "T3", "black")  # a black triangle on 3
        wait(driver, lambda d: "error" in page_state(d)["statusClass"])
        click_move(driver, "T5", "black")
        time.sleep(0.5)
        wait(driver, ready)
        st = page_state(driver)
        assert at(driver)[0] == ["C4"] and st["played"] == ["C4"], (at(driver), st["played"])
        assert "does not answer" in st["status"], st["status"]
        proc, url2 = start(int(url.rstrip("/").rsplit(":", 1)[1]))
        click_move(driver, "T3", "black")
        settle(driver, 2)
        assert at(driver)[0] == ["C4", "t3"]
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=15)
        driver.get_log("browser")  # the refused connections were logged while the server was down
