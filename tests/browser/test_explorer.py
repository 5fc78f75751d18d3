"""Headless-browser tests of the explorer page served by `fano serve`.

Run:  FANO_BIN=/work/main/build/tools/fano python3 -m pytest -q tests/browser/test_explorer.py
Env:  FANO_BIN (server binary), FANO_TABLES (passed through to the server),
      FANO_ARTIFACTS (screenshot dir; default a temp dir).
"""
import json
import os
import select
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request

import pytest

selenium = pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

FANO_BIN = os.environ.get("FANO_BIN", "/work/main/build/tools/fano")
TIMEOUT = 10


# ---------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def artifacts():
    d = os.environ.get("FANO_ARTIFACTS") or tempfile.mkdtemp(prefix="fano-browser-")
    os.makedirs(d, exist_ok=True)
    return d


@pytest.fixture(scope="module")
def server(artifacts):
    if not os.path.exists(FANO_BIN):
        pytest.skip("fano binary not found: " + FANO_BIN)
    env = dict(os.environ)
    if os.environ.get("FANO_TABLES"):
        env["FANO_TABLES"] = os.environ["FANO_TABLES"]
    errlog = open(os.path.join(artifacts, "server-stderr.log"), "wb")
    # --web none: the page embedded in the binary, on the HTTP API (tests/browser/test_static.py
    # tests the static folder)
    proc = subprocess.Popen([FANO_BIN, "serve", "--port", "0", "--bind", "127.0.0.1", "--web", "none"],
                            stdout=subprocess.PIPE, stderr=errlog, env=env)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "server printed no URL within 60 s"
        url = proc.stdout.readline().decode().strip()
        assert url.startswith("http://"), "unexpected first line: %r" % url
        if not url.endswith("/"):
            url += "/"
        # drain the rest of stdout so the server never blocks on a full pipe
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        yield url
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            rc = proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            rc = "timeout"
        errlog.close()
    assert rc == 0, "server exit status %r" % rc


@pytest.fixture(scope="module")
def driver():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    drv.set_page_load_timeout(20)
    yield drv
    drv.quit()


@pytest.fixture(autouse=True)
def no_console_errors(driver):
    driver.get_log("browser")  # discard entries from earlier tests
    yield
    severe = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert not severe, "browser console errors: %s" % severe


# ---------------------------------------------------------------- helpers
def api(server, moves, variant="standard"):
    q = urllib.parse.urlencode({"moves": ",".join(moves)})
    with urllib.request.urlopen("%sapi/v2/%s?%s" % (server, variant, q), timeout=10) as r:
        return json.load(r)


def value_text(d):
    """A position's value for its side to move, as the page words it."""
    if d["value"] == "draw":
        return "draw"
    return "%s in %d" % (d["value"], d["plies"])


def mover_result(m):
    """A rated move's result for its mover, as the page words it."""
    if m["result"] == "draw":
        return "draw"
    return "%s in %d" % (m["result"], m["plies"])


base_explore_js = """
['white', 'black'].forEach(function (c) {
  var sel = document.getElementById(c + '-player');
  if (sel.value !== 'human') { sel.value = 'human'; sel.dispatchEvent(new Event('change')); }
});"""


def wait_ready(driver):
    WebDriverWait(driver, TIMEOUT).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def open_page(driver, server, fragment=""):
    driver.get("about:blank")  # force a real page load even if only the hash differs
    driver.get(server + fragment)
    wait_ready(driver)
    # both sides human: these tests explore both sides' moves (a new visitor plays the computer)
    driver.execute_script(base_explore_js)
    status = driver.find_element(By.ID, "status")
    assert "error" not in (status.get_attribute("class") or ""), status.text


def hash_moves(driver):
    """The moves on the board: the URL's moves= up to at= (later moves are kept for redo)."""
    h = driver.execute_script("return location.hash;").lstrip("#")
    params = urllib.parse.parse_qs(h)
    moves = [m for m in params.get("moves", [""])[0].split(",") if m]
    return moves[:int(params.get("at", [len(moves)])[0])]


def played(driver):
    # read in one script call so a re-render cannot leave stale element references;
    # the moves after the current one (greyed, for redo) are not played
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#moves-played li:not(.future)'))"
        ".map(function (li) { return li.getAttribute('data-move'); });")


def click_and_wait(driver, element, expect_len):
    element.click()
    WebDriverWait(driver, TIMEOUT).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
        and len(played(d)) == expect_len)


# ---------------------------------------------------------------- tests
def test_initial_value(driver, server):
    open_page(driver, server)
    assert driver.find_element(By.ID, "value").text == value_text(api(server, []))
    assert played(driver) == []
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board svg circle.space")) == 7
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board .hit")) == 7


def test_place_by_clicking(driver, server):
    open_page(driver, server)
    driver.find_element(By.CSS_SELECTOR, '.supply-piece[data-colour="white"][data-shape="circle"]').click()
    # with the circle selected, markers show every legal circle placement with the mover's result
    d0 = api(server, [])
    want = {str(m["to"]): mover_result(m) for m in d0["moves"] if m["shape"] == "circle"}
    got = {m.get_attribute("data-space"): m.get_attribute("data-result")
           for m in driver.find_elements(By.CSS_SELECTOR, "#board .marker")}
    assert got == want
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="4"]'), 1)
    assert "moves=C4" in driver.execute_script("return location.hash;")
    d = api(server, ["C4"])
    assert driver.find_element(By.ID, "value").text == value_text(d)
    items = driver.find_elements(By.CSS_SELECTOR, "#legal-moves li[data-move]")
    assert [(li.get_attribute("data-move"), li.get_attribute("data-result")) for li in items] == \
        [(m["move"], mover_result(m)) for m in d["moves"]]
    assert played(driver) == ["C4"]


def test_play_to_end(driver, server):
    open_page(driver, server)
    best = driver.find_element(By.ID, "play-best")
    for _ in range(200):
        moves = hash_moves(driver)
        d = api(server, moves)
        if d["game_over"]:
            break
        assert driver.find_element(By.ID, "value").text == value_text(d)
        click_and_wait(driver, best, len(moves) + 1)
        assert hash_moves(driver) == moves + [d["engine_move"]]
    else:
        pytest.fail("game did not end within 200 plies")
    assert driver.find_element(By.ID, "value").text == d["game_over"]["text"]
    assert played(driver) == d["moves_played"]
    assert driver.find_elements(By.CSS_SELECTOR, "#legal-moves li[data-move]") == []
    # undo (test 4 in the brief) straight from the finished game
    n = len(moves)
    click_and_wait(driver, driver.find_element(By.ID, "undo"), n - 1)
    assert hash_moves(driver) == moves[:-1]
    assert driver.find_element(By.ID, "value").text == value_text(api(server, moves[:-1]))
    click_and_wait(driver, driver.find_element(By.ID, "redo"), n)
    assert hash_moves(driver) == moves


def test_undo(driver, server):
    open_page(driver, server, "#moves=C4,t3,T2")
    assert played(driver) == ["C4", "t3", "T2"]
    click_and_wait(driver, driver.find_element(By.ID, "undo"), 2)
    assert hash_moves(driver) == ["C4", "t3"]
    assert driver.find_element(By.ID, "value").text == value_text(api(server, ["C4", "t3"]))


def test_shared_url(driver, server):
    open_page(driver, server, "#moves=C4,t3")
    d = api(server, ["C4", "t3"])
    assert driver.find_element(By.ID, "value").text == value_text(d)
    assert played(driver) == ["C4", "t3"]
    # typing a move plays it (a placement's letter case names its colour: test_static.py
    # checks that the other side's letter is refused)
    inp = driver.find_element(By.ID, "move-input")
    inp.send_keys(d["moves"][0]["move"] + "\n")
    WebDriverWait(driver, TIMEOUT).until(lambda dr: len(played(dr)) == 3
                                         and dr.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    assert played(driver)[2] == d["moves"][0]["move"]


def test_screenshots(driver, server, artifacts):
    open_page(driver, server, "#moves=C4,t3")
    desktop = os.path.join(artifacts, "explorer-desktop.png")
    assert driver.save_screenshot(desktop)
    phone = os.path.join(artifacts, "explorer-phone.png")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        time.sleep(0.3)
        wait_ready(driver)
        # the board must fit the phone width (no horizontal overflow of the board)
        w = driver.execute_script("return document.getElementById('board').getBoundingClientRect().width;")
        assert 0 < w <= 390
        assert driver.save_screenshot(phone)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    for f in (desktop, phone):
        assert os.path.isfile(f) and os.path.getsize(f) > 0
