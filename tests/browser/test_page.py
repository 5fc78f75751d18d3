"""The explorer page as a first-time player meets it, in headless Chromium:
links however broken, the board's flip, Undo and Redo against the computer.
Values are compared with the native `fano query --json`, never with constants.

Run:  FANO_BIN=build/tools/fano FANO_WEB_DIR=build/web /usr/bin/python3 -m pytest -q tests/browser/test_page.py
(the fixtures and helpers are test_static.py's).
"""
import os
import random
import re
import time
import urllib.parse

import pytest

import test_static as base
from test_static import (app, artifacts, driver, no_console_errors, serve_url, static_url,  # noqa: F401
                         tables, web_dir)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
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
    # the computer plays a side: no value in sight until the analysis is asked for
    assert page_state(driver)["value"] == ""
    driver.find_element(By.ID, "analysis-toggle").click()
    ref = native(tables, "standard", moves)
    assert page_state(driver)["value"] == base.value_text(ref["value"], ref["plies"])
    assert ref["to_move"] == "white"


# The small boards of How to play (web/src/intro.js), each move list checked here.
HOW_FIGURES = ["C1", "C1,t1", "C1,t3,T2,c4,T1,c3,C5,t5,1-7", "C1,c3,T2,c6,C4", "C3,t3,T5,c5,C6,t6,T7,c7"]

AXE = os.path.join(os.path.dirname(__file__), "..", "..", "web", "node_modules", "axe-core", "axe.min.js")


def axe_violations(drv, wcag22=False):
    """axe-core's violations of the WCAG 2.0 and 2.1 A and AA rules (and 2.2's AA:
    the targets' size) on the page as it is."""
    assert os.path.isfile(AXE), "no axe-core: run 'npm ci' in web/"
    drv.set_script_timeout(120)
    drv.execute_script(open(AXE).read())
    tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] + (['wcag22aa'] if wcag22 else [])
    return drv.execute_async_script("""var done = arguments[arguments.length - 1];
      axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})
        .then(function (r) {
          done(r.violations.map(function (v) {
            return [v.id, v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); })]; }));
        }, function (e) { done([['axe failed', [String(e)]]]); });""", tags)


def test_no_wcag_violation_first_screen_game_editor_dark(driver, static_url):
    """axe-core (the npm package, in the tests' Chromium) finds no WCAG 2.1 AA
    violation on the first screen with How to play open, during a game, in the
    position editor, and in dark mode."""
    open_page(driver, static_url)
    assert axe_violations(driver) == [], "first screen"
    driver.find_element(By.ID, "how-open").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#how-figures figure")) == len(HOW_FIGURES))
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
    # a supply piece picked (the pointer still over it): its count still 4.5:1 on its ground
    driver.find_element(By.CSS_SELECTOR, ".supply-piece.selectable").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".supply-piece.selected"))
    time.sleep(0.5)
    assert axe_violations(driver) == [], "dark mode, a supply piece picked"


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
    every reply a legal move by `fano query`), starts a new game, and solves an
    easy puzzle by tapping, the page showing no result before the right try."""
    driver.set_window_size(390, 844)
    try:
        open_page(driver, static_url, explore=False)
        driver.execute_script("localStorage.clear();")
        driver.find_element(By.ID, "how-open").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#how-figures figure")) == len(HOW_FIGURES))
        driver.find_element(By.ID, "how-open").click()
        # Play the computer: White, at the level the dialog offers first (the weakest)
        tap(driver, driver.find_element(By.ID, "play-computer"))
        tap(driver, driver.find_element(By.ID, "play-side-white"))
        tap(driver, driver.find_element(By.ID, "play-start"))
        wait(driver, ready)
        assert driver.find_element(By.ID, "black-player").get_attribute("value") != "human"
        assert driver.execute_script("return document.body.getAttribute('data-analysis');") == "hidden"
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
        # last, an easy puzzle, solved by tapping without the answer shown first (the
        # page's draw of a seed fixed: seed 1, a placement, so the supply is in play)
        Select(driver.find_element(By.ID, "puzzle-grade")).select_by_value("easy")
        driver.execute_script("Math.random = function () { return 0; };")
        tap(driver, driver.find_element(By.ID, "puzzle-new"))
        wait(driver, lambda d: ready(d) and "puzzle=1" in d.execute_script("return location.hash;") and
             d.find_element(By.ID, "puzzle-info").text)
        h = urllib.parse.parse_qs(driver.execute_script("return location.hash;").lstrip("#"))
        assert h["grade"] == ["easy"]
        ref = native_at(tables, h["position"][0].replace("_", " "))
        keeping = [m["move"] for m in ref["moves"] if m["result"] == ref["value"]]
        assert len(keeping) == 1
        assert_nothing_tells_a_result(driver)
        played, _ = play_out_puzzle(driver, tables, h["position"][0].replace("_", " "), ref["to_move"],
                                    click_move_tapping)
        assert played[0] == keeping[0]
        assert "Solved" in driver.find_element(By.ID, "puzzle-info").text
        assert not driver.find_elements(By.ID, "puzzle-answer")  # solved without the solution shown
    finally:
        driver.set_window_size(1280, 900)


def tap(drv, el):
    drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", el)
    el.click()


def click_move_tapping(drv, move, to_move):
    """Plays a move by tapping (a supply shape then a space, or a piece then a space), each in view."""
    if "-" in move:
        a, b = move.split("-")
        targets = ['#board .hit[data-space="%s"]' % a, '#board .hit[data-space="%s"]' % b]
    else:
        shape = "circle" if move[0] in "Cc" else "triangle"
        targets = ['.supply-piece[data-colour="%s"][data-shape="%s"]' % (to_move, shape),
                   '#board .hit[data-space="%s"]' % move[1:]]
    for t in targets:
        tap(drv, drv.find_element(By.CSS_SELECTOR, t))


def assert_nothing_tells_a_result(drv):
    """An open puzzle shows no value and no move's result: the lists of moves
    (legal and played) show none, no element carries one (a supply piece's
    border, a title, a label), and neither Play best nor Step plays the answer."""
    seen = drv.execute_script("""
      var shown = function (e) { return e.getClientRects().length > 0; };
      var out = [];
      document.querySelectorAll('#legal-moves li, #moves-played .res, #pv .pvm, #value').forEach(function (e) {
        if (shown(e) && e.textContent.trim()) out.push(e.id || e.className + ': ' + e.textContent.trim()); });
      document.querySelectorAll('[data-result]').forEach(function (e) {
        if (shown(e) && e.id !== 'puzzle-info')
          out.push('data-result on ' + (e.id || e.className) + ': ' + e.getAttribute('data-result')); });
      document.querySelectorAll('[title], [aria-label]').forEach(function (e) {
        var t = (e.getAttribute('title') || '') + ' ' + (e.getAttribute('aria-label') || '');
        if (shown(e) && /\\b(win|loss) in \\d|best: /.test(t)) out.push('named: ' + t.trim()); });
      ['play-best', 'step'].forEach(function (id) {
        if (!document.getElementById(id).disabled) out.push(id + ' enabled'); });
      return out;""")
    assert seen == [], seen


def score(drv, kind):
    """The puzzles the page counted in the browser's storage as `kind` (solved, failed)."""
    return base.json.loads(drv.execute_script("return localStorage.getItem(arguments[0]) || '[]';",
                                              "fano-puzzles-" + kind))


def play_out_puzzle(drv, tables, position, side, click=base.click_move):
    """Plays the open puzzle to its end by clicking, as `side`: at each of the
    player's turns the first move `fano query --json` rates as keeping the
    value (its result equal to the position's value), then checks the
    computer's answer against `fano query --json`'s engine_move, until the
    page says solved. Returns (the moves played, the player's moves)."""
    moves, mine = [], 0
    while True:
        ref = native_at(tables, position, ",".join(moves) or None)
        assert ref["to_move"] == side and not ref["game_over"], (moves, ref["game_over"])
        assert puzzle_result(drv) == "play", (moves, puzzle_result(drv))
        mv = next(m["move"] for m in ref["moves"] if m["result"] == ref["value"])
        click(drv, mv, side)
        mine += 1
        wait(drv, lambda d: ready(d) and (len(at(d)[0]) == len(moves) + 2 or puzzle_result(d) == "solved"), 60)
        now = at(drv)[0]
        assert now[:len(moves) + 1] == moves + [mv], (now, moves, mv)
        if len(now) == len(moves) + 2:
            # the computer's answer: its best defence, the engine's move of `fano query`
            assert now[-1] == native_at(tables, position, ",".join(moves + [mv]))["engine_move"], now
        wait(drv, lambda d: ready(d) and puzzle_result(d) in ("play", "solved"))
        if puzzle_result(drv) == "solved":
            return now, mine
        moves = now
        assert mine < 80, "no end within 80 of the player's moves"


def puzzle_result(drv):
    return drv.find_element(By.ID, "puzzle-info").get_attribute("data-result")


def test_a_wrong_first_try_fails_the_puzzle_and_shows_the_refutation(driver, static_url, tables):
    """An open puzzle shows no value, no rated move, no line and no "why?"; a
    wrong first try fails it at once: counted as failed in the browser, the
    refutation shown equal to `fano query --json`'s principal variation after
    it (a try that forms a line says why in the engine's words), Retry and
    Next offered; a retry played out to its end is solved, yet the puzzle
    stays counted as failed (its first ending counts)."""
    open_page(driver, static_url + "?delay=0", "#puzzle=5")
    driver.execute_script("localStorage.clear();")
    wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").text)
    h = urllib.parse.parse_qs(driver.execute_script("return location.hash;").lstrip("#"))
    position = h["position"][0].replace("_", " ")
    ref = native_at(tables, position)
    keeping = [m["move"] for m in ref["moves"] if m["result"] == ref["value"]]
    wrong = [m["move"] for m in ref["moves"] if m["result"] != ref["value"] and m["plies"] != 1]
    assert len(keeping) == 1 and wrong
    hidden = driver.execute_script("""
      return ['legal-moves', 'pv', 'value', 'chart'].map(function (id) {
        return document.getElementById(id).offsetParent === null; }).concat(
        [Array.from(document.querySelectorAll('#board g.marker')).every(function (g) {
          // the board's marks say where a piece can go, never its result
          return !g.hasAttribute('data-result') && !/\\b(win|loss|draw)\\b/.test(g.textContent); })]);""")
    assert hidden == [True] * 5, hidden
    assert_nothing_tells_a_result(driver)
    base.click_move(driver, wrong[0], ref["to_move"])
    wait(driver, lambda d: ready(d) and puzzle_result(d) == "failed")
    after = native_at(tables, position, wrong[0])
    assert at(driver)[0] == [wrong[0]]  # no answer from the computer: the puzzle is over
    info = driver.find_element(By.ID, "puzzle-info").text
    assert "Failed: " + wrong[0] in info and after["pv"], info
    assert driver.find_element(By.ID, "puzzle-refutation").get_attribute("data-pv") == ",".join(after["pv"])
    assert "The refutation: " + " ".join(after["pv"]) in info
    grade = re.search(r"\((easy|medium|hard)\)", info).group(1)
    assert score(driver, "failed") == ["standard:5=" + grade]
    assert score(driver, "solved") == []
    assert "Puzzles in this browser: 0 solved, 1 failed." in info
    assert driver.find_element(By.ID, "puzzle-next").is_displayed()
    # ended: the analysis is back
    assert driver.execute_script("return document.getElementById('legal-moves').offsetParent !== null;")
    driver.find_element(By.ID, "puzzle-again").click()
    wait(driver, lambda d: ready(d) and at(d)[0] == [] and puzzle_result(d) == "play")
    assert_nothing_tells_a_result(driver)
    # a try that forms a line ends the game: the verdict says why, in the engine's words
    at_once = [m["move"] for m in ref["moves"] if m["result"] == "loss" and m["plies"] == 1]
    assert at_once, ref["moves"]
    driver.find_element(By.ID, "move-input").send_keys(at_once[0] + "\ue007")
    wait(driver, lambda d: ready(d) and puzzle_result(d) == "failed")
    ended = native_at(tables, position, at_once[0])["game_over"]
    info = driver.find_element(By.ID, "puzzle-info").text
    assert ended and "Failed: " + at_once[0] in info and ended["text"] + "." in info, (info, ended)
    driver.find_element(By.ID, "puzzle-again").click()
    wait(driver, lambda d: ready(d) and at(d)[0] == [] and puzzle_result(d) == "play")
    played, _ = play_out_puzzle(driver, tables, position, ref["to_move"])
    assert played[0] == keeping[0]
    assert "counts as failed" in driver.find_element(By.ID, "puzzle-info").text
    assert len(score(driver, "failed")) == 1 and score(driver, "solved") == []


def test_new_game_after_a_puzzle_brings_the_computer_back(driver, static_url, tables):
    """A puzzle makes both sides the player's; New game afterwards brings back
    the players chosen before (a newcomer's: the computer as Black), so the
    first move gets a reply again."""
    open_page(driver, static_url, explore=False)
    players = lambda: [Select(driver.find_element(By.ID, c + "-player")).first_selected_option
                       .get_attribute("value") for c in ("white", "black")]
    driver.find_element(By.ID, "play-computer").click()
    driver.find_element(By.ID, "play-side-white").click()
    driver.find_element(By.ID, "play-start").click()
    wait(driver, ready)
    before = players()
    assert before[1] != "human", before
    driver.find_element(By.ID, "puzzle-new").click()
    wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").text)
    assert players() == ["human", "human"]
    driver.find_element(By.ID, "new-game").click()
    wait(driver, ready)
    assert players() == before
    base.click_move(driver, "C4", "white")
    settle(driver, 2)
    moves, _ = at(driver)
    assert len(moves) == 2 and moves[0] == "C4", moves
    assert native(tables, "standard", moves)["to_move"] == "white"


def native_at(tables, position, moves=None):
    """`fano query --json` of the position (and of the moves played from it)."""
    import subprocess
    out = subprocess.run([base.FANO_BIN, "query", "--json", "--tables", tables] + base.VARIANTS["standard"] +
                         (["--moves", moves] if moves else []) + ["--", position],
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


# ---------------------------------------------------------------- look
def test_statistics_counts_have_thousands_separators(driver, static_url, tables):
    """Every count of the statistics (its sentence and its table) is written with
    thousands separators, and they add up: the won and lost positions by plies
    and the drawn ones make the reachable positions `fano facts` counts."""
    open_page(driver, static_url)
    driver.find_element(By.CSS_SELECTOR, "#stats summary").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#stats tbody tr"))
    cells = driver.execute_script("""return Array.from(document.querySelectorAll('#stats tbody td')).map(
      function (td) { return td.textContent; });""")
    assert all(re.fullmatch(r"\d{1,3}(,\d{3})*", c) for c in cells), cells
    assert any("," in c for c in cells), cells
    facts = base.json.loads(base.subprocess.run([base.FANO_BIN, "facts", "--tables", tables, "--json"],
                                                capture_output=True, check=True).stdout)
    sentence = driver.find_element(By.CSS_SELECTOR, "#stats-body p").text
    drawn = int(re.search(r"([\d,]+) drawn", sentence).group(1).replace(",", ""))
    rows = [[int(c.replace(",", "")) for c in cells[i:i + 3]] for i in range(0, len(cells), 3)]
    assert sum(r[1] + r[2] for r in rows) + drawn == facts["reachable"]
    assert "{:,} positions reachable".format(facts["reachable"]) in sentence


CHART_FONT_JS = """
return Array.from(document.querySelectorAll('#chart svg text')).map(function (t) {
  return [t.textContent, parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a]; });"""


def test_chart_words_are_at_least_12_px_on_a_phone(driver, static_url):
    """At 390 px the value history's words show at least 12 px high (the chart
    is drawn at half its width there), also after the analysis was shown by its button."""
    driver.set_window_size(390, 844)
    try:
        big = lambda d: len(d.execute_script(CHART_FONT_JS)) == 3 and all(  # noqa: E731
            px >= 12 for _, px in d.execute_script(CHART_FONT_JS))
        open_page(driver, static_url, "#moves=C1,t3,T2,c4")
        # (the chart, hidden until both sides were made human, is drawn again the frame it shows)
        wait(driver, big, 5)
        # the computer playing a side hides the chart; shown again by its button, it is drawn for its width
        open_page(driver, static_url, "#moves=C1,t3", explore=False)
        Select(driver.find_element(By.ID, "black-player")).select_by_index(1)
        wait(driver, lambda d: d.execute_script("return document.body.getAttribute('data-analysis');") == "hidden")
        driver.find_element(By.ID, "analysis-toggle").click()
        wait(driver, big, 5)
        sizes = driver.execute_script(CHART_FONT_JS)
        assert len(sizes) == 3 and all(px >= 12 for _, px in sizes), sizes
    finally:
        driver.set_window_size(1280, 900)


def test_legend_draws_a_stack_and_its_top_piece(driver, static_url):
    """The legend shows a small stack as the board draws one (the engine's
    picture: two pieces on one space, drawn apart), its top piece glowing as on
    the board, and says how to read it."""
    open_page(driver, static_url)
    driver.find_element(By.CSS_SELECTOR, "#legend summary").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#legend-stack svg .piece")) == 2)
    pieces = driver.execute_script("""
      return Array.from(document.querySelectorAll('#legend-stack svg .piece')).map(function (p) {
        var r = p.getBoundingClientRect();
        return [p.getAttribute('class'), r.left + r.width / 2, r.top + r.height / 2,
                getComputedStyle(p).filter]; });""")
    (bottom, bx, by, bf), (top, tx, ty, tf) = pieces
    assert "white circle" in bottom and "black triangle" in top and "top-piece" in top, pieces
    assert tx > bx and ty < by, pieces  # the higher piece up and to the right
    assert "drop-shadow" in tf and bf == "none", pieces
    board_glow = driver.execute_script("""
      var p = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
      p.setAttribute('class', 'top-piece');
      document.querySelector('#board svg').appendChild(p);
      var f = getComputedStyle(p).filter; p.remove(); return f;""")
    assert tf == board_glow
    text = driver.find_element(By.ID, "legend").text
    assert "drawn offset" in text and "glows" in text, text


TARGETS_JS = """
var sel = 'button, a[href], input, select, summary, [role=button], [tabindex]:not([tabindex="-1"])';
return Array.from(document.querySelectorAll(sel)).filter(function (e) {
  var r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden' && !e.closest('.skip');
}).map(function (e) { var r = e.getBoundingClientRect();
  return {what: e.tagName + ' ' + (e.id || e.getAttribute('class') || '') + ' ' +
                (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 30),
          chartPly: e.closest('#chart') ? +e.getAttribute('data-ply') : null, w: r.width, h: r.height}; });"""

DISABLED_CONTRAST_JS = """
function lin(c) { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }
function rgba(s) { var m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; }
function lum(c) { return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]); }
function over(top, bottom) { var a = top[3];
  return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1]; }
return Array.from(document.querySelectorAll('button:disabled')).filter(function (b) {
  return b.getClientRects().length > 0; }).map(function (b) {
  var bg = [255, 255, 255, 1], chain = [];
  for (var n = b; n && n.nodeType === 1; n = n.parentElement) chain.push(rgba(getComputedStyle(n).backgroundColor));
  for (var i = chain.length - 1; i >= 0; i--) bg = over(chain[i], bg);
  var op = 1; for (n = b; n && n.nodeType === 1; n = n.parentElement) op *= +getComputedStyle(n).opacity;
  var fg = over(rgba(getComputedStyle(b).color), bg);
  fg = over([fg[0], fg[1], fg[2], op], bg);
  var l1 = lum(fg), l2 = lum(bg);
  return [b.id, (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05)]; });"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_control_meets_contrast_and_target_size_on_a_phone(driver, static_url, scheme):
    """At 390x844, light and dark: axe-core finds no WCAG 2.2 AA violation on the
    first screen, a game with its analysis, and an open puzzle; every disabled
    button (Show solution with no puzzle open among them: axe leaves disabled
    controls out) has text at 4.5:1 or more; and every control is at least 24 px
    a side, but for the value history's points, each of which has a control that
    does the same (its move in the moves played, or Start)."""
    driver.set_window_size(390, 844)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        for frag in ("", "#moves=C1,t3,T2,c4,T1,c3,C5,t5", "#puzzle=5"):
            open_page(driver, static_url, frag)
            driver.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = true; });")
            if frag != "#puzzle=5":  # (an open puzzle hides the statistics)
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#stats tbody tr"))
            time.sleep(0.5)  # the buttons' colour transitions end before the colours are read
            assert axe_violations(driver, wcag22=True) == [], (scheme, frag)
            disabled = driver.execute_script(DISABLED_CONTRAST_JS)
            if frag == "":
                assert "puzzle-solution" in [i for i, _ in disabled]
            assert disabled and all(r >= 4.5 for _, r in disabled), (frag, disabled)
            targets = driver.execute_script(TARGETS_JS)
            small = [t for t in targets if (t["w"] < 24 or t["h"] < 24) and t["chartPly"] is None]
            assert len(targets) > 20 and not small, (frag, small)
            played = len(driver.find_elements(By.CSS_SELECTOR, "#moves-played li .act"))
            for t in targets:
                if t["chartPly"] is not None:
                    assert t["chartPly"] <= played, t  # ply i: the i-th move played (0: Start)
            for t in targets:
                if "act" in t["what"] and "go to move" in t["what"] or t["what"].startswith("BUTTON nav-start"):
                    assert t["w"] >= 24 and t["h"] >= 24, t
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        driver.set_window_size(1280, 900)


# ---------------------------------------------------------------- keyboard
def test_focus_ring_on_a_space_differs_from_the_last_move_ring(driver, static_url):
    """After a placement made by keyboard the focus stays on its space, where
    the last move's ring is drawn too: the two rings differ in colour and in
    dash (and width), and the legend says which is which."""
    open_page(driver, static_url, "#moves=C4,t4")
    driver.find_element(By.CSS_SELECTOR,
                        '.supply-piece[data-colour="white"][data-shape="triangle"]').send_keys(Keys.ENTER)
    hit = driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="3"]')
    driver.execute_script("arguments[0].focus();", hit)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    settle(driver, 3)
    assert at(driver)[0] == ["C4", "t4", "T3"]
    rings = driver.execute_script("""
      var f = document.activeElement, l = document.querySelector('#board .last-move circle');
      var st = function (e) {
        var s = getComputedStyle(e); return [s.stroke, s.strokeDasharray, parseFloat(s.strokeWidth)]; };
      return [f.getAttribute('data-space'), f.matches(':focus-visible'), st(f), st(l),
              document.querySelector('#board .last-move').getAttribute('data-move')];""")
    space, visible, focus, last, last_move = rings
    assert space == "3" and visible and last_move == "T3", rings
    assert focus[0] != last[0] and focus[0] not in ("none", "") and focus[1] != last[1], rings
    assert focus[2] != last[2], rings
    driver.find_element(By.CSS_SELECTOR, "#legend summary").click()
    assert "the keyboard's place" in driver.find_element(By.ID, "legend").text


# ---------------------------------------------------------------- learn
def test_how_to_play_shows_a_position_with_no_legal_move(driver, static_url, tables):
    """How to play draws, besides a placement, a stack, a movement and a line,
    a position whose side to move has no legal move: `fano query` finds no move
    there and says the game is over for that reason, and the caption gives the
    engine's words."""
    open_page(driver, static_url)
    driver.find_element(By.ID, "how-open").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#how-figures figure")) == len(HOW_FIGURES))
    figs = driver.execute_script("""
      return Array.from(document.querySelectorAll('#how-figures figure')).map(function (f) {
        return [f.querySelector('svg').getAttribute('aria-label'), f.getAttribute('data-game-over'),
                f.querySelector('figcaption').textContent, f.querySelectorAll('svg .piece').length]; });""")
    assert [f[0] for f in figs] == ["the board after " + m.replace(",", ", ") for m in HOW_FIGURES]
    label, reason, caption, pieces = figs[-1]
    ref = native(tables, "standard", HOW_FIGURES[-1].split(","))
    assert ref["moves"] == [] and ref["game_over"]["reason"] == "no_move" and reason == "no_move", ref
    assert ref["game_over"]["text"] in caption and pieces == 8, (caption, pieces)


# ---------------------------------------------------------------- puzzles by grade
def test_puzzle_grade_chooser_and_solved_count_per_grade(driver, static_url, tables):
    """The grade chosen beside New puzzle draws a puzzle of that grade (its link
    says it), whose numbers are the table's: the tempting moves (giving the
    value away, yet no loss within 2 plies) and the depth of the deepest trap;
    each is played out to its end and counted solved by grade, and the count is
    kept in the browser."""
    open_page(driver, static_url + "?delay=0")
    driver.execute_script("localStorage.clear();")
    for grade, r in (("hard", 0.25), ("medium", 0.5), ("hard", 0.75)):
        Select(driver.find_element(By.ID, "puzzle-grade")).select_by_value(grade)
        driver.execute_script("Math.random = function () { return %r; };" % r)
        driver.find_element(By.ID, "puzzle-new").click()
        seed = 1 + int(r * 1000000)
        wait(driver, lambda d: ready(d) and "puzzle=%d" % seed in d.execute_script("return location.hash;"))
        h = urllib.parse.parse_qs(driver.execute_script("return location.hash;").lstrip("#"))
        assert h["grade"] == [grade]
        ref = native_at(tables, h["position"][0].replace("_", " "))
        keeping = [m for m in ref["moves"] if m["result"] == ref["value"]]
        tempting = [m for m in ref["moves"] if m["result"] != ref["value"] and
                    not (m["result"] == "loss" and m["plies"] <= 2)]
        depth = max(m["plies"] if m["result"] == "loss" else ref["plies"] for m in tempting)
        want = ("easy" if depth <= 5 and len(tempting) <= 2 else
                "hard" if depth >= 12 or len(tempting) >= 4 else "medium")  # docs/api.md's boundaries
        assert len(keeping) == 1 and want == grade, (ref, tempting)
        info = driver.find_element(By.ID, "puzzle-info").text
        assert "(%s)" % grade in info and "%d other move" % len(tempting) in info and \
            "a look %d %s ahead" % (depth, "ply" if depth == 1 else "plies") in info, info
        played, _ = play_out_puzzle(driver, tables, h["position"][0].replace("_", " "), ref["to_move"])
        assert played[0] == keeping[0]["move"]
    by_grade = "By grade (solved / failed): easy 0 / 0, medium 1 / 0, hard 2 / 0."
    assert driver.find_element(By.ID, "puzzles-by-grade").text == by_grade
    open_page(driver, static_url, "#puzzle=3&grade=easy")
    wait(driver, lambda d: d.find_elements(By.ID, "puzzles-by-grade"))
    assert driver.find_element(By.ID, "puzzles-by-grade").text == by_grade
    assert "(easy)" in driver.find_element(By.ID, "puzzle-info").text


def find_puzzle(drv, url, tables, value):
    """The first seed whose puzzle keeps `value` by `fano query --json` (its position's value)."""
    for seed in range(1, 60):
        open_page(drv, url, "#puzzle=%d" % seed)
        wait(drv, lambda d: d.find_element(By.ID, "puzzle-info").text)
        h = urllib.parse.parse_qs(drv.execute_script("return location.hash;").lstrip("#"))
        position = h["position"][0].replace("_", " ")
        ref = native_at(tables, position)
        if ref["value"] == value:
            return seed, position, ref
    raise AssertionError("no puzzle keeping a %s among seeds 1 to 59" % value)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_puzzles_are_played_out_to_their_end_by_clicking(driver, static_url, tables, scheme):
    """A winning puzzle is played out by clicking until the opponent has lost
    (`fano query --json`'s game_over), a drawing one for its fixed number of
    the player's moves (3, as the page says); each computer answer is `fano
    query --json`'s engine_move; each is counted solved; axe-core finds no
    WCAG 2.2 AA violation on the played-out puzzle, light and dark."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        url = static_url + "?delay=0"
        open_page(driver, url)
        driver.execute_script("localStorage.clear();")
        for value in ("win", "draw"):
            seed, position, ref = find_puzzle(driver, url, tables, value)
            info = driver.find_element(By.ID, "puzzle-info").text
            if value == "draw":
                assert "(3 of your moves in all)" in info, info
            moves, mine = play_out_puzzle(driver, tables, position, ref["to_move"])
            end = native_at(tables, position, ",".join(moves))
            if value == "win":
                other = "black" if ref["to_move"] == "white" else "white"
                assert end["game_over"] and end["game_over"]["loser"] == other, end["game_over"]
                assert "(" + end["game_over"]["text"] + ")." in driver.find_element(By.ID, "puzzle-info").text
            else:
                assert mine == 3 and len(moves) == 5 and end["value"] == "draw", (moves, end["value"])
            assert "Solved" in driver.find_element(By.ID, "puzzle-verdict").text
            assert driver.find_element(By.ID, "puzzle-next").is_displayed()
            time.sleep(0.5)  # the buttons' colour transitions end before the colours are read
            assert axe_violations(driver, wcag22=True) == [], (scheme, value)
        assert len(score(driver, "solved")) == 2 and score(driver, "failed") == []
        # and a failed one, its refutation shown
        open_page(driver, url, "#puzzle=5")
        ref = native_at(tables, urllib.parse.parse_qs(driver.execute_script(
            "return location.hash;").lstrip("#"))["position"][0].replace("_", " "))
        wrong = next(m["move"] for m in ref["moves"] if m["result"] != ref["value"] and m["plies"] != 1)
        driver.find_element(By.ID, "move-input").send_keys(wrong + Keys.ENTER)
        wait(driver, lambda d: ready(d) and puzzle_result(d) == "failed")
        assert driver.find_elements(By.ID, "puzzle-refutation")
        time.sleep(0.5)
        assert axe_violations(driver, wcag22=True) == [], (scheme, "failed")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_a_link_with_a_bad_grade_says_so(driver, static_url):
    open_page(driver, static_url, "#puzzle=3&grade=tricky")
    spaces, msg, cls = board_and_message(driver)
    assert spaces == 7 and "'grade=tricky' is not a grade" in msg and "error" in cls, msg


# ---------------------------------------------------------------- every reading over fano serve
def test_a_reading_the_server_has_not_solved_is_offered_and_waited_for(driver, tables, tmp_path, artifacts):
    """Over `fano serve` on a tables folder holding only the standard table,
    the reading picker offers every reading; a small one the server has not
    solved is chosen, the page says the server's progress meanwhile (never an
    error), then shows the reading's start as `fano query` values it."""
    os.symlink(os.path.join(tables, "standard.fanotb"), str(tmp_path / "standard.fanotb"))
    log = open(os.path.join(artifacts, "serve-pending-stderr.log"), "wb")
    proc = base.subprocess.Popen([base.FANO_BIN, "serve", "--port", "0", "--tables", str(tmp_path),
                                  "--solve-threads", "1", "--web", os.environ.get("FANO_SERVE_WEB", "none")],
                                 stdout=base.subprocess.PIPE, stderr=log)
    try:
        ready_, _, _ = base.select.select([proc.stdout], [], [], 60)
        assert ready_, "fano serve printed no URL"
        url = proc.stdout.readline().decode().strip()
        url = url if url.endswith("/") else url + "/"
        base.threading.Thread(target=proc.stdout.read, daemon=True).start()
        open_page(driver, url)
        assert sorted(page_state(driver)["variants"]) == sorted(base.expected_offer())
        reading = "projective-1c1t"
        driver.execute_script("""
          window.seen = [];
          var s = document.getElementById('status');
          new MutationObserver(function () {
            window.seen.push([s.textContent, s.className,
                              getComputedStyle(document.getElementById('board')).visibility]); })
            .observe(s, {childList: true, characterData: true, subtree: true, attributes: true});
          var sel = document.getElementById('variant');
          sel.value = arguments[0];
          sel.dispatchEvent(new Event('change'));""", reading)
        wait(driver, lambda d: ready(d) and page_state(d)["variant"] == reading, 300)
        seen = driver.execute_script("return window.seen;")
        said = [(t, board) for t, _, board in seen if t.startswith("The server is solving the %s reading" % reading)]
        assert said and not [t for t, c, _ in seen if "error" in c], seen
        # meanwhile no board stands for the reading's (the last reading's is out of sight)
        assert all(board == "hidden" for _, board in said), said
        spaces, msg, cls = board_and_message(driver)
        assert spaces == 7 and "error" not in cls, msg
        ref = native(tables, reading, [])
        assert page_state(driver)["value"] == base.value_text(ref["value"], ref["plies"])
    finally:
        proc.send_signal(base.signal.SIGTERM)
        proc.wait(timeout=60)
        log.close()


def test_the_editor_edits_the_board_and_infers_the_side(driver, static_url, tables):
    """With a piece in hand, each click shows on the board at once (the board's
    pieces are the stacks of the position `fano query` reads from the text), and
    where only one side can be to move (the engine refuses the other) the page
    sets it: after C1 Black, after t3 White."""
    open_page(driver, static_url)
    driver.find_element(By.CSS_SELECTOR, "#editor summary").click()
    driver.find_element(By.ID, "position-empty").click()
    wait(driver, ready)
    for piece, space, side in (("C", 1, "b"), ("t", 3, "w"), ("T", 3, "b"), ("c", 5, "w")):
        driver.find_element(By.CSS_SELECTOR, '#palette button[data-edit="%s"]' % piece).click()
        before = driver.find_element(By.ID, "position-input").get_attribute("value")
        driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%d"]' % space).click()
        wait(driver, lambda d: ready(d) and d.find_element(By.ID, "position-input").get_attribute("value") != before and
             d.find_element(By.ID, "editor-status").get_attribute("data-verdict") == "ok" and
             urllib.parse.parse_qs(d.execute_script("return location.hash;").lstrip("#"))
             .get("position", [""])[0].replace("_", " ") == d.find_element(By.ID, "position-input").get_attribute("value"))
        text = driver.find_element(By.ID, "position-input").get_attribute("value")
        assert text.split(" ")[1] == side, text
        ref = native_at(tables, text)
        stacks = ref["position"].split(" ")[0].split("/")
        shown = driver.execute_script("""
          var out = {};
          document.querySelectorAll('#board svg .piece').forEach(function (p) {
            var s = p.getAttribute('data-space');
            out[s] = (out[s] || 0) + 1; });
          return out;""")
        assert shown == {str(i + 1): len(st) for i, st in enumerate(stacks) if st != "-"}, (text, shown)
        assert "the only side the pieces allow" in driver.find_element(By.ID, "editor-status").text


def test_an_edit_no_game_reaches_still_shows_on_the_board(driver, static_url, tables, artifacts):
    """Each click shows on the board even where the engine will not analyse
    the result (not legal on the way, then a legal position no game reaches:
    C/T/c/C/t/-/c, a line in each position a move leads to it from): the
    board's pieces are the text's stacks after every click, and the check's
    verdict is `fano query`'s (refused as unreachable, refused otherwise, or
    answered), in its words for the unreachable one; taking pieces off again
    to a position games reach brings back the engine's board."""
    open_page(driver, static_url)
    driver.find_element(By.CSS_SELECTOR, "#editor summary").click()
    driver.find_element(By.ID, "position-empty").click()
    wait(driver, ready)

    def board_pieces():
        return driver.execute_script("""
          var out = {};
          document.querySelectorAll('#board svg .piece').forEach(function (p) {
            var s = p.getAttribute('data-space'), k = p.classList.contains('white') ? 'w' : 'b';
            k += p.classList.contains('circle') ? 'c' : 't';
            out[s] = (out[s] || '') + k; });
          return out;""")

    def stacks_of(text):
        return {str(i + 1): "".join(("w" if c.isupper() else "b") + ("c" if c in "Cc" else "t") for c in st)
                for i, st in enumerate(text.split(" ")[0].split("/")) if st != "-"}

    def cli_verdict(text):
        out = base.subprocess.run([base.FANO_BIN, "query", "--json", "--tables", tables, text], capture_output=True)
        err = out.stderr.decode()
        return ("ok" if out.returncode == 0 else "unreachable" if "no game reaches" in err else "illegal"), err

    def click(piece, space):
        before = driver.find_element(By.ID, "position-input").get_attribute("value")
        driver.find_element(By.CSS_SELECTOR, '#palette button[data-edit="%s"]' % piece).click()
        driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%d"]' % space).click()
        driver.find_element(By.CSS_SELECTOR, '#palette button[data-edit="%s"]' % piece).click()  # put down
        wait(driver, lambda d: ready(d) and d.find_element(By.ID, "position-input").get_attribute("value") != before)
        time.sleep(0.5)  # (the side inferred, the check asked)
        wait(driver, lambda d: ready(d) and board_pieces() ==
             stacks_of(d.find_element(By.ID, "position-input").get_attribute("value")))
        text = driver.find_element(By.ID, "position-input").get_attribute("value")
        verdict, err = cli_verdict(text)
        wait(driver, lambda d: d.find_element(By.ID, "editor-status").get_attribute("data-verdict") == verdict)
        assert board_pieces() == stacks_of(text), text
        return text, verdict, err

    seen = []
    for piece, space in (("C", 1), ("T", 2), ("c", 3), ("C", 4), ("t", 5), ("c", 7)):
        text, verdict, err = click(piece, space)
        seen.append(verdict)
        if verdict != "ok":
            assert driver.find_element(By.CSS_SELECTOR, "#board svg").get_attribute("data-draft") == text
    assert text == "C/T/c/C/t/-/c w" and seen[-1] == "unreachable" and "illegal" in seen, (text, seen)
    said = driver.find_element(By.ID, "editor-status").text
    assert "no game reaches" in said and err.strip().split(": ", 1)[-1].split(" (")[0][-40:] in said, (said, err)
    assert not driver.find_element(By.ID, "game-end").is_displayed()  # the last analysed position's end
    driver.execute_script("document.getElementById('board').scrollIntoView({block: 'start'});")
    driver.find_element(By.ID, "board").screenshot(os.path.join(artifacts, "editor-unreachable-board.png"))
    driver.execute_script("document.getElementById('editor').scrollIntoView({block: 'start'});")
    driver.find_element(By.ID, "editor").screenshot(os.path.join(artifacts, "editor-unreachable-check.png"))
    # pieces taken off to a position games reach: the engine's board again
    for space in (7, 5, 4):
        text, verdict, _ = click("-", space)
    assert verdict == "ok" and text == "C/T/c/-/-/-/- b", (text, verdict)
    assert driver.find_element(By.CSS_SELECTOR, "#board svg").get_attribute("data-draft") is None


def test_a_drag_plays_the_move(driver, static_url, tables):
    """A piece dragged from its space to another plays that movement, as two clicks do."""
    from selenium.webdriver.common.action_chains import ActionChains
    moves = ["C1", "t3", "T2", "c4", "T1", "c3", "C5", "t5"]
    open_page(driver, static_url, "#moves=" + ",".join(moves))
    mv = native(tables, "standard", moves)["moves"][0]["move"]
    a, b = mv.split("-")
    ActionChains(driver).drag_and_drop(driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%s"]' % a),
                                       driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%s"]' % b)).perform()
    wait(driver, lambda d: ready(d) and len(at(d)[0]) == len(moves) + 1)
    assert at(driver)[0] == moves + [mv]


def test_a_game_record_is_copied_and_loaded(driver, static_url, tables):
    """Copy moves writes the game as a record (its reading, numbered moves); the
    record pasted back loads the same game; a record with a move the engine
    refuses loads the moves before it and says why; Download offers the file."""
    moves = ["C4", "t3", "T5", "c1"]
    open_page(driver, static_url, "#moves=" + ",".join(moves))
    driver.find_element(By.ID, "record-copy").click()
    record = driver.find_element(By.ID, "record-input").get_attribute("value")
    assert record == '[Variant "standard"]\n1. C4 2. t3 3. T5 4. c1', record
    driver.find_element(By.ID, "new-game").click()
    wait(driver, lambda d: ready(d) and at(d)[0] == [])
    driver.find_element(By.ID, "record-load").click()
    wait(driver, lambda d: ready(d) and at(d)[0] == moves)
    ref = native(tables, "standard", moves)
    assert page_state(driver)["value"] == base.value_text(ref["value"], ref["plies"])
    # a refused move: the moves before it, and the engine's reason
    inp = driver.find_element(By.ID, "record-input")
    inp.clear()
    inp.send_keys("1. C4 2. t9 3. T5")
    driver.find_element(By.ID, "record-load").click()
    wait(driver, lambda d: ready(d) and at(d)[0] == ["C4"])
    assert "was not played" in page_state(driver)["status"]
    href = driver.execute_script("""
      var got = null, orig = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function () { got = [this.download, this.href]; };
      document.getElementById('record-download').click();
      HTMLAnchorElement.prototype.click = orig;
      return got;""")
    assert href and href[0].endswith(".txt") and href[1].startswith("blob:"), href


IN_VIEW_JS = """var r = arguments[0].getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;"""


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)])
def test_a_wrong_try_brings_the_verdict_into_view_and_focus(driver, static_url, tables, size):
    """After a wrong puzzle try the verdict (Failed, the refutation, Retry) is in
    the viewport, at a desktop's and at a phone's width, and has the keyboard's place."""
    driver.set_window_size(*size)
    try:
        open_page(driver, static_url + "?delay=0", "#puzzle=5")
        wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").text)
        h = urllib.parse.parse_qs(driver.execute_script("return location.hash;").lstrip("#"))
        ref = native_at(tables, h["position"][0].replace("_", " "))
        wrong = [m["move"] for m in ref["moves"] if m["result"] != ref["value"] and m["plies"] != 1]
        driver.execute_script("window.scrollTo(0, 0);")
        base.click_move(driver, wrong[0], ref["to_move"])
        wait(driver, lambda d: ready(d) and puzzle_result(d) == "failed")
        verdict = driver.find_element(By.ID, "puzzle-verdict")
        assert verdict.text.startswith("Failed: " + wrong[0]), verdict.text
        wait(driver, lambda d: d.execute_script(IN_VIEW_JS, verdict))
        assert driver.execute_script("return document.activeElement.id;") == "puzzle-verdict"
    finally:
        driver.set_window_size(1280, 900)


def test_show_analysis_is_disabled_with_its_reason_during_a_puzzle(driver, static_url, tables):
    """While a puzzle is played "Show analysis" cannot act: it is disabled and
    described by the reason; once the puzzle is failed it shows the analysis again."""
    open_page(driver, static_url + "?delay=0", "#puzzle=5")
    wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").text)
    b = driver.find_element(By.ID, "analysis-toggle")
    assert not b.is_enabled()
    why = driver.find_element(By.ID, b.get_attribute("aria-describedby"))
    assert why.is_displayed() and "puzzle" in why.text, why.text
    h = urllib.parse.parse_qs(driver.execute_script("return location.hash;").lstrip("#"))
    ref = native_at(tables, h["position"][0].replace("_", " "))
    wrong = [m["move"] for m in ref["moves"] if m["result"] != ref["value"] and m["plies"] != 1]
    base.click_move(driver, wrong[0], ref["to_move"])
    wait(driver, lambda d: ready(d) and puzzle_result(d) == "failed")
    assert b.is_enabled() and not driver.find_element(By.ID, "analysis-why").is_displayed()
    assert b.get_attribute("aria-describedby") is None


def test_enter_in_the_record_makes_a_new_line_and_ctrl_enter_loads(driver, static_url, tables):
    """The record box is several lines: Enter starts a new line (nothing is
    loaded), Ctrl+Enter loads; a refused move is said of the record, not a link."""
    open_page(driver, static_url)
    inp = driver.find_element(By.ID, "record-input")
    inp.send_keys('[Variant "standard"]' + Keys.ENTER + "1. C4 2. t3")
    assert inp.get_attribute("value") == '[Variant "standard"]\n1. C4 2. t3'
    assert at(driver)[0] == [] and "error" not in page_state(driver)["statusClass"]
    inp.send_keys(Keys.CONTROL, Keys.ENTER)
    wait(driver, lambda d: ready(d) and at(d)[0] == ["C4", "t3"])
    inp.clear()
    inp.send_keys("1. C4 2. t9")
    driver.find_element(By.ID, "record-load").click()
    wait(driver, lambda d: ready(d) and at(d)[0] == ["C4"])
    said = page_state(driver)["status"]
    assert said.startswith("The record's move 2 (t9) was not played") and "link" not in said, said


def test_a_moves_trap_count_stands_apart_from_its_result(driver, static_url, tables):
    """In the legal moves a move's result badge ("= draw") and its trap count
    ("0/14 replies lose") do not touch: a gap between their boxes."""
    open_page(driver, static_url)
    gaps = driver.execute_script("""
      return Array.from(document.querySelectorAll('#legal-moves li')).filter(function (li) {
        return li.querySelector('.trap'); }).map(function (li) {
        return li.querySelector('.trap').getBoundingClientRect().left - li.querySelector('.res').getBoundingClientRect().right; });""")
    assert gaps and min(gaps) >= 4, gaps
