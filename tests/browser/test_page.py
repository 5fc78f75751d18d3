"""The explorer page as a first-time player meets it, in headless Chromium:
links however broken, the board's flip, Undo and Redo against the computer.
Values are compared with the native `fano query --json`, never with constants.

Run:  FANO_BIN=build/tools/fano FANO_WEB_DIR=build/web /usr/bin/python3 -m pytest -q tests/browser/test_page.py
(the fixtures and helpers are test_static.py's).
"""
import random

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
