"""The explorer page as a first-time player meets it, in headless Chromium:
links however broken, the board's flip, Undo and Redo against the computer.
Values are compared with the native `fano query --json`, never with constants.

Run:  FANO_BIN=build/tools/fano FANO_WEB_DIR=build/web /usr/bin/python3 -m pytest -q tests/browser/test_page.py
(the fixtures and helpers are test_static.py's).
"""
import os
import random
import time
import urllib.parse

import test_static as base
from test_static import (app, artifacts, driver, no_console_errors, serve_url, static_url,  # noqa: F401
                         tables, web_dir)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

native, open_page, at, settle, wait, ready, page_state = (base.native, base.open_page, base.at, base.settle,
                                                          base.wait, base.ready, base.page_state)


def board_and_message(drv):
    """(spaces on the board, the status line's text, its class)."""
    return drv.execute_script("""
      return [document.querySelectorAll('#board svg .hit').length,
              document.getElementById('status').textContent,
              document.getElementById('status').className];""")


def test_broken_links_end_in_a_board_and_one_message(driver, static_url):
    """A link the page cannot read in full (bad URL text, a puzzle or seed that is
    no number, an unknown variant with moves, an unknown part) still shows a board,
    and one message says what was left out; Start then works."""
    for frag, said in (("#moves=%ZZ", "'moves=%ZZ' is not valid URL text"),
                       ("#puzzle=abc", "'puzzle=abc' is not a number"),
                       ("#variant=nosuch&moves=C1", "without the link's moves"),
                       ("#colour=blue&moves=C4", "'colour' is not a part")):
        open_page(driver, static_url, frag)
        spaces, msg, cls = board_and_message(driver)
        assert spaces == 7, (frag, spaces, msg)
        assert said in msg and "error" in cls, (frag, msg)
        driver.find_element(By.ID, "nav-start").click()
        wait(driver, ready)
        spaces, msg, _ = board_and_message(driver)
        assert spaces == 7 and "cannot solve" not in msg and "Error" not in msg, (frag, msg)


def test_random_links_always_show_a_board(driver, static_url):
    """200 random and malformed links, one after another: each ends in a board
    and at most one message, and the console stays clean (the fixture checks)."""
    rng = random.Random(7)
    parts = ["variant=", "moves=", "at=", "position=", "seed=", "puzzle=", "x=", ""]
    junk = ["%", "%ZZ", "%E0%A4", "C4", "c4", "t9", "1-2", ",", "_", "-/-/-/-/-/-/- w", "standard", "cap3",
            "nosuch", "99999999999999999999", "-1", "&", "=", "\u00e9", "C4,c4", "C1,c2,T3,t5,C6,c7"]
    open_page(driver, static_url)
    for i in range(200):
        frag = "#" + "&".join(rng.choice(parts) + "".join(rng.choice(junk) for _ in range(rng.randint(0, 3)))
                              for _ in range(rng.randint(1, 4)))
        driver.execute_script("location.hash = arguments[0];", frag + "&n=%d" % i)
        wait(driver, ready)
        spaces, msg, _ = board_and_message(driver)
        assert spaces == 7, (frag, msg)
        assert msg.count("Error:") <= 1, (frag, msg)


def test_flip_turns_the_view_not_the_pieces(driver, static_url):
    """Flip board turns the board: each triangle (on the board and in the
    picture's supply) still points up on the screen."""
    open_page(driver, static_url, "#moves=T4,t3")
    driver.find_element(By.ID, "flip").click()
    wait(driver, ready)
    apex_up = driver.execute_script("""
      return Array.from(document.querySelectorAll('#board svg polygon.triangle')).map(function (p) {
        var m = p.getScreenCTM(), pts = p.points, ys = [];
        for (var i = 0; i < pts.numberOfItems; i++) {
          var q = pts.getItem(i);
          ys.push([q.y, q.x * m.b + q.y * m.d + m.f]);
        }
        ys.sort(function (a, b) { return a[0] - b[0]; });  // the apex first (smallest y in the picture)
        return ys[0][1] < ys[ys.length - 1][1];            // ... is the highest on the screen
      });""")
    assert len(apex_up) >= 2 and all(apex_up), apex_up


def test_redo_brings_back_the_computers_reply(driver, app, tables):
    """Against the computer, Undo takes back the player's move and the computer's
    reply; Redo brings both back, and the position equals the native engine's."""
    open_page(driver, app)
    Select(driver.find_element(By.ID, "black-player")).select_by_value("engine")
    base.click_move(driver, "C4", "white")
    settle(driver, 2)
    moves, _ = at(driver)
    driver.find_element(By.ID, "undo").click()
    settle(driver, 0)
    driver.find_element(By.ID, "redo").click()
    settle(driver, 2)
    assert at(driver)[0] == moves
    ref = native(tables, "standard", moves)
    assert page_state(driver)["value"] == base.value_text(ref["value"], ref["plies"])
    assert ref["to_move"] == "white"


AXE = os.path.join(os.path.dirname(__file__), "..", "..", "web", "node_modules", "axe-core", "axe.min.js")


def axe_violations(drv):
    """axe-core's violations of the WCAG 2.0 and 2.1 A and AA rules on the page as it is."""
    assert os.path.isfile(AXE), "no axe-core: run 'npm ci' in web/"
    drv.set_script_timeout(120)
    drv.execute_script(open(AXE).read())
    return drv.execute_async_script("""var done = arguments[arguments.length - 1];
      axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
        .then(function (r) {
          done(r.violations.map(function (v) {
            return [v.id, v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); })]; }));
        }, function (e) { done([['axe failed', [String(e)]]]); });""")


def test_no_wcag_violation_first_screen_game_editor_dark(driver, static_url):
    """axe-core (the npm package, in the tests' Chromium) finds no WCAG 2.1 AA
    violation on the first screen with How to play open, during a game, in the
    position editor, and in dark mode."""
    open_page(driver, static_url)
    assert axe_violations(driver) == [], "first screen"
    driver.find_element(By.ID, "how-open").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#how-figures figure")) == 4)
    assert axe_violations(driver) == [], "how to play"
    open_page(driver, static_url, "#moves=C1,t3,T2,c4")
    assert axe_violations(driver) == [], "a game"
    driver.find_element(By.CSS_SELECTOR, "#editor summary").click()
    assert axe_violations(driver) == [], "the editor"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    time.sleep(0.5)  # the buttons' colour transitions (0.15 s) end before axe reads the colours
    assert axe_violations(driver) == [], "dark mode, the editor open"
    open_page(driver, static_url, "#moves=C1,t3,T2,c4")
    assert axe_violations(driver) == [], "dark mode, a game"


def test_explore_from_the_editor_puts_its_piece_down(driver, static_url, tables):
    """After the editor's piece was picked and "Explore from here" pressed, a
    click on a supply piece and a space plays that move (it does not edit)."""
    open_page(driver, static_url)
    driver.find_element(By.CSS_SELECTOR, "#editor summary").click()
    driver.find_element(By.CSS_SELECTOR, '#palette button[data-edit="T"]').click()
    driver.find_element(By.ID, "position-input").clear()
    driver.find_element(By.ID, "position-input").send_keys("-/-/-/C/-/-/- b")
    driver.find_element(By.ID, "position-explore").click()
    wait(driver, lambda d: ready(d) and "position=" in d.execute_script("return location.hash;"))
    base.click_move(driver, "t5", "black")
    settle(driver, 1)
    assert at(driver)[0] == ["t5"]
    assert driver.find_element(By.ID, "position-input").get_attribute("value") == "-/-/-/C/-/-/- b"
    assert driver.find_elements(By.CSS_SELECTOR, '#palette button[aria-pressed="true"]') == []


def test_supply_pieces_are_named_and_keep_the_focus(driver, static_url):
    """A supply piece is announced by its colour, shape and count (not "x2"),
    and Enter on it keeps the keyboard's focus on it."""
    open_page(driver, static_url)
    b = driver.find_element(By.CSS_SELECTOR, '.supply-piece[data-colour="white"][data-shape="triangle"]')
    name = b.get_attribute("aria-label")
    assert name.startswith("white triangle (2 left)"), name
    driver.execute_script("arguments[0].focus();", b)
    driver.switch_to.active_element.send_keys("\ue007")  # Enter
    wait(driver, lambda d: d.execute_script(
        "var a = document.activeElement; return a && a.getAttribute('data-shape') === 'triangle' && "
        "a.getAttribute('data-colour') === 'white' && /selected/.test(a.getAttribute('aria-label'));"))


def test_another_readings_values_are_never_shown_as_current(driver, static_url):
    """From the moment another reading is chosen until its answers come, the
    last reading's value, moves and board are not shown."""
    open_page(driver, static_url, "#moves=C4")
    shown = driver.execute_script("""
      var sel = document.getElementById('variant');
      sel.value = 'cap3-projective-1c1t';
      sel.dispatchEvent(new Event('change'));
      return ['value', 'legal-moves', 'board'].map(function (id) {
        return getComputedStyle(document.getElementById(id)).visibility; });""")
    assert shown == ["hidden"] * 3, shown
    wait(driver, lambda d: ready(d) and page_state(d)["variant"] == "cap3-projective-1c1t", 120)
    assert driver.execute_script(
        "return getComputedStyle(document.getElementById('value')).visibility;") == "visible"


def test_first_time_player_at_phone_width(driver, static_url, tables):
    """At 390 px: a new visitor opens How to play, plays a whole game as White
    against the computer by tapping (the page's own Black replies each time,
    every reply a legal move by `fano query`), then starts a new game."""
    driver.set_window_size(390, 844)
    try:
        open_page(driver, static_url, explore=False)
        assert driver.find_element(By.ID, "black-player").get_attribute("value") != "human"
        assert driver.execute_script("return document.body.getAttribute('data-analysis');") == "hidden"
        driver.find_element(By.ID, "how-open").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#how-figures figure")) == 4)
        driver.find_element(By.ID, "how-open").click()
        for _ in range(150):
            moves, _ = at(driver)
            ref = native(tables, "standard", moves)
            if ref["game_over"]:
                break
            assert ref["to_move"] == "white", moves
            mv = ref["engine_move"]
            el = driver.find_element(By.CSS_SELECTOR, "#board")
            driver.execute_script("arguments[0].scrollIntoView();", el)
            base.click_move(driver, mv, "white")
            # the computer's reply follows (unless White's move ended the game)
            wait(driver, lambda d: ready(d) and len(at(d)[0]) >= len(moves) + 1 and
                 (len(at(d)[0]) == len(moves) + 2 or bool(page_state(d)["caption"].startswith("Game over"))), 60)
            now, _ = at(driver)
            assert now[:len(moves) + 1] == moves + [mv]
            if len(now) == len(moves) + 2:
                assert now[-1] in [m["move"] for m in native(tables, "standard", moves + [mv])["moves"]]
        else:
            raise AssertionError("no end within 150 of White's moves")
        assert page_state(driver)["caption"].startswith("Game over")
        driver.find_element(By.ID, "new-game").click()
        wait(driver, lambda d: ready(d) and at(d)[0] == [])
        assert driver.find_elements(By.CSS_SELECTOR, "#board svg .hit")
    finally:
        driver.set_window_size(1280, 900)


def test_a_puzzle_hides_its_answer_until_solved(driver, static_url, tables):
    """An open puzzle shows no value, no rated move, no line and no "why?"; a
    wrong try says so (without the answer) and allows another; the solution
    (the one move `fano query` keeps the value with) solves it, and the page
    counts it."""
    open_page(driver, static_url, "#puzzle=5")
    wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").text)
    h = urllib.parse.parse_qs(driver.execute_script("return location.hash;").lstrip("#"))
    position = h["position"][0].replace("_", " ")
    ref = native_at(tables, position)
    keeping = [m["move"] for m in ref["moves"] if m["result"] == ref["value"]]
    wrong = [m["move"] for m in ref["moves"] if m["result"] != ref["value"]]
    assert len(keeping) == 1 and wrong
    hidden = driver.execute_script("""
      return ['legal-moves', 'pv', 'value', 'chart'].map(function (id) {
        return document.getElementById(id).offsetParent === null; }).concat(
        [Array.from(document.querySelectorAll('#board g.marker')).every(function (g) {
          return getComputedStyle(g).display === 'none'; })]);""")
    assert hidden == [True] * 5, hidden
    before = driver.execute_script("return (localStorage.getItem('fano-puzzles-solved') || '[]');")
    driver.find_element(By.ID, "move-input").send_keys(wrong[0] + "\ue007")
    wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").get_attribute("data-result") == "wrong")
    info = driver.find_element(By.ID, "puzzle-info").text
    assert "Not " + wrong[0] in info and keeping[0] not in info.replace("Not " + wrong[0], ""), info
    assert driver.execute_script("return document.getElementById('legal-moves').offsetParent === null;")
    driver.find_element(By.ID, "puzzle-again").click()
    settle(driver, 0)
    driver.find_element(By.ID, "move-input").send_keys(keeping[0] + "\ue007")
    wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").get_attribute("data-result") == "solved")
    after = driver.execute_script("return localStorage.getItem('fano-puzzles-solved');")
    assert len(base.json.loads(after)) == len(base.json.loads(before)) + 1
    assert "Puzzles solved in this browser: %d." % len(base.json.loads(after)) in \
        driver.find_element(By.ID, "puzzle-info").text
    # solved: the analysis is back
    assert driver.execute_script("return document.getElementById('legal-moves').offsetParent !== null;")


def native_at(tables, position):
    import subprocess
    out = subprocess.run([base.FANO_BIN, "query", "--json", "--tables", tables] + base.VARIANTS["standard"] +
                         ["--", position],
                         capture_output=True, check=True)
    return base.json.loads(out.stdout)


def test_moves_never_wrap_and_why_targets_are_24_px(driver, static_url, tables):
    """At phone width a move of the principal variation is never cut at its
    hyphen (one line each), and every "why?" button is at least 24 px a side."""
    driver.set_window_size(390, 844)
    try:
        moves = ["C1", "t3", "T2", "c4", "T1", "c3", "C5", "t5"]
        open_page(driver, static_url, "#moves=" + ",".join(moves))
        spans = driver.execute_script("""
          return Array.from(document.querySelectorAll('#pv span.pvm')).map(function (s) {
            return [s.textContent, s.getClientRects().length]; });""")
        assert any("-" in t for t, _ in spans) and all(n == 1 for _, n in spans), spans
        sizes = driver.execute_script("""
          return Array.from(document.querySelectorAll('#legal-moves button.why')).map(function (b) {
            var r = b.getBoundingClientRect(); return [r.width, r.height]; });""")
        assert sizes and all(w >= 24 and h >= 24 for w, h in sizes), sizes
    finally:
        driver.set_window_size(1280, 900)


def test_one_tab_stop_skips_the_list_of_moves(driver, static_url):
    """Before the list of legal moves (a control per move) one control takes the
    keyboard past it, to the moves played."""
    open_page(driver, static_url)
    driver.execute_script("document.getElementById('legal-moves').previousElementSibling.focus();")
    assert driver.switch_to.active_element.get_attribute("id") == "skip-moves"
    assert driver.switch_to.active_element.is_displayed()
    driver.switch_to.active_element.send_keys("\ue007")
    assert driver.switch_to.active_element.get_attribute("id") == "moves-played-title"
