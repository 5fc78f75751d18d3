"""A game against the computer, as a person plays it, in headless Chromium:
the dialog (side and level, remembered; a game in progress not discarded
without asking), no value anywhere while the game is on with hints off (the
DOM's text, its aria labels and titles, the title), the Hints switch, the
result and its reason on the board at the end (also at 390x844), Rematch
with the colours swapped, the keyboard's place back on the board after the
computer's move, and the review of the game against a move-by-move
`fano query --json` walk. Every value is compared with the native engine's.

Run:  FANO_BIN=build/tools/fano FANO_WEB_DIR=build/web /usr/bin/python3 -m pytest -q tests/browser/test_play.py
(the fixtures and helpers are test_static.py's).
"""
import json
import os
import random
import subprocess
import time

import pytest

import test_static as base
from test_page import axe_violations
from test_static import (app, artifacts, driver, no_console_errors, serve_url, static_url,  # noqa: F401
                         tables, web_dir)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

native, at, wait, ready = base.native, base.at, base.wait, base.ready

# Text that states a value or a move's result (the engine's words and the page's signs).
VALUE_JS = r"""
var pattern = /\b(win|loss|lose|loses|wins) in \d+|\bdraw\b|\bdrawn\b|best: |[+\u2212=] ?(win|loss|draw)\b|\b(keeps|throws|gives) the (win|draw)/i;
// the static words of the page: the rules, the legend (its examples), the statistics' heading
var skip = ['legend', 'how', 'stats', 'play-dialog', 'intro-title'];
var out = [];
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
var n;
while ((n = walker.nextNode())) {
  var p = n.parentElement, skipped = false;
  for (var e = p; e; e = e.parentElement) {
    if (skip.indexOf(e.id) >= 0 || e.tagName === 'SCRIPT' || e.tagName === 'STYLE') { skipped = true; break; }
  }
  if (!skipped && pattern.test(n.textContent)) out.push('text in ' + (p.id || p.className || p.tagName) + ': ' + n.textContent.trim().slice(0, 80));
}
document.querySelectorAll('[aria-label], [title], [data-result], [data-value]').forEach(function (e) {
  if (e.closest('#legend, #how, #stats, #play-dialog')) return;
  if (e.hasAttribute('data-result') && e.id !== 'puzzle-info') out.push('data-result on ' + (e.id || e.className.baseVal || e.className));
  if (e.hasAttribute('data-value')) out.push('data-value on ' + (e.id || e.className.baseVal || e.className));
  var t = (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '');
  if (pattern.test(t)) out.push('named: ' + t.trim().slice(0, 80));
});
document.querySelectorAll('#board svg title').forEach(function (t) {
  if (pattern.test(t.textContent)) out.push('svg title: ' + t.textContent);
});
if (pattern.test(document.title)) out.push('title: ' + document.title);
['value'].forEach(function (id) { if (document.getElementById(id).textContent.trim()) out.push('#' + id + ' says ' + document.getElementById(id).textContent); });
return out;"""


def values_shown(drv):
    return drv.execute_script(VALUE_JS)


def open_fresh(drv, url, fragment=""):
    """The page as a new visitor meets it (no choice remembered), the computer replying at once."""
    drv.get("about:blank")
    drv.get(url + "?delay=0" + fragment)
    wait(drv, ready)
    drv.execute_script("localStorage.clear();")


def choose(drv, side, level):
    """Play the computer: the dialog, its side and level chosen, Play."""
    drv.find_element(By.ID, "play-computer").click()
    wait(drv, lambda d: d.find_element(By.ID, "play-dialog").get_attribute("open") is not None)
    drv.find_element(By.ID, "play-side-" + side).click()
    Select(drv.find_element(By.ID, "play-level")).select_by_value(level)
    drv.find_element(By.ID, "play-start").click()
    wait(drv, lambda d: ready(d) and d.find_element(By.ID, "play-dialog").get_attribute("open") is None)


def levels(drv):
    return drv.execute_script("return Array.from(document.querySelectorAll('#black-player option'))"
                              ".map(function (o) { return o.value; }).filter(function (v) { return v !== 'human'; });")


def human_side(drv):
    return "white" if drv.find_element(By.ID, "white-player").get_attribute("value") == "human" else "black"


def wait_my_turn(drv, tables, human):
    """Until the game is over or the player is to move (the computer's reply shown); the native position."""
    def settled(d):
        if not ready(d) or d.execute_script("return document.body.hasAttribute('data-thinking');"):
            return False
        ref = native(tables, "standard", at(d)[0])
        return ref if (ref["game_over"] or ref["to_move"] == human) else False
    end = time.time() + 60
    while time.time() < end:
        ref = settled(drv)
        if ref:
            return ref
        time.sleep(0.05)
    raise AssertionError("the computer did not reply")


def play_out(drv, tables, human, rng, check_values=True, max_moves=120, fresh=True):
    """Plays the player's side by clicking (a seeded choice among the legal
    moves, the engine's move half of the time), the computer replying, until
    the game ends; at each turn no value shows. fresh: the game has just
    begun (the computer's first move, if any, came after the dialog). Returns the moves."""
    for turn in range(max_moves):
        ref = wait_my_turn(drv, tables, human)
        if ref["game_over"]:
            return at(drv)[0]
        if check_values:
            assert values_shown(drv) == [], at(drv)[0]
        moves = at(drv)[0]
        if moves and (turn > 0 or fresh):  # the computer moved last: the keyboard's place is back on the board
            assert drv.execute_script("var a = document.activeElement;"
                                      " return !!a && a.classList && a.classList.contains('hit');"), moves
        legal = [m["move"] for m in ref["moves"]]
        mv = ref["engine_move"] if rng.random() < 0.5 else rng.choice(legal)
        base.click_move(drv, mv, human)
        wait(drv, lambda d: len(at(d)[0]) > len(moves))
        assert at(drv)[0][len(moves)] == mv
    raise AssertionError("no end within %d of the player's moves" % max_moves)


def assert_end_on_board(drv, tables, moves, human):
    """The result and its reason, in the engine's words, inside the board's rectangle and in view."""
    ref = native(tables, "standard", moves)
    over = ref["game_over"]
    wait(drv, lambda d: d.find_element(By.ID, "game-end").is_displayed())
    result = drv.find_element(By.ID, "game-end-result").text
    reason = drv.find_element(By.ID, "game-end-reason").text
    loser = over["loser"]
    expected = "Draw" if loser is None else ("You win" if loser != human else "The computer wins")
    assert result == expected, (result, over)
    assert reason == over["text"] + ".", (reason, over)
    assert_end_beside_the_deciding_line(drv, over)


# The rectangles of the end's box, the board, and the spaces (their click
# targets) and pieces of the spaces given, as the browser lays them out.
END_RECTS_JS = """
var r = function (e) { var b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
var spaces = arguments[0], out = {box: r(document.getElementById('game-end')),
                                  board: r(document.getElementById('board')), spaces: []};
spaces.forEach(function (s) {
  document.querySelectorAll('#board .hit[data-space="' + s + '"], #board .piece[data-space="' + s + '"]')
    .forEach(function (e) { out.spaces.push([s, r(e)]); });
});
return out;"""


def assert_end_beside_the_deciding_line(drv, over):
    """The end's box at the board's foot, as wide as the board at most, and
    over none of the spaces that decided the game (the line of three, else
    every space): the rectangles do not meet."""
    spaces = over.get("line") or list(range(1, 8))
    rects = drv.execute_script(END_RECTS_JS, spaces)
    box, board = rects["box"], rects["board"]
    assert len(rects["spaces"]) >= len(spaces), rects
    for space, sp in rects["spaces"]:
        meets = box[0] < sp[2] and sp[0] < box[2] and box[1] < sp[3] and sp[1] < box[3]
        assert not meets, "the end's box %s covers space %s %s" % (box, space, sp)
    assert box[0] >= board[0] - 1 and box[2] <= board[2] + 1, (box, board)
    assert board[3] - 1 <= box[1] <= board[3] + 24, ("not at the board's foot", box, board)


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)])
def test_the_end_of_a_game_leaves_its_deciding_line_in_sight(driver, static_url, tables, artifacts, size):
    """A game that ended on the board's lowest line ({5,2,3}, from a link):
    the result and its reason at the board's foot, over none of that line's
    spaces or pieces, and in view with the board (scrolled to its top) at
    phone and desktop width."""
    moves = ["C3", "t3", "T2", "t4", "C4", "c7", "T5"]
    over = native(tables, "standard", moves)["game_over"]
    assert over and sorted(over["line"]) == [2, 3, 5], over
    driver.set_window_size(*size)
    try:
        open_fresh(driver, static_url, "#moves=" + ",".join(moves))
        wait(driver, lambda d: d.find_element(By.ID, "game-end").is_displayed())
        assert driver.find_element(By.ID, "game-end-reason").text == over["text"] + "."
        driver.execute_script("document.getElementById('board').scrollIntoView({block: 'start'});")
        assert_end_beside_the_deciding_line(driver, over)
        bottom = driver.execute_script("return [document.getElementById('game-end').getBoundingClientRect().bottom,"
                                       " window.innerHeight];")
        assert bottom[0] <= bottom[1], ("the result is below the fold", bottom)
        driver.save_screenshot(os.path.join(artifacts, "game-end-%d.png" % size[0]))
    finally:
        driver.set_window_size(1280, 900)


def test_a_newcomers_first_move_is_shown_how_and_the_pieces_beside_the_board_pick_a_shape(driver, static_url, tables):
    """At 1280x900 a game against the computer as White: the caption says
    how to move; a click on an empty space where either shape could go says
    to pick a shape first, in sight; the white circle drawn beside the board
    picks the circle (marked there and on the button below), and a space
    then places it."""
    driver.set_window_size(1280, 900)
    open_fresh(driver, static_url)
    choose(driver, "white", levels(driver)[0])
    caption = driver.find_element(By.ID, "caption").text
    assert caption == "White to move (you): pick a circle or a triangle, then a space", caption
    driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="4"]').click()
    wait(driver, lambda d: "Pick a circle or a triangle first" in d.find_element(By.ID, "status").text)
    box = driver.execute_script("var r = document.getElementById('status').getBoundingClientRect();"
                                " return [r.top, r.bottom, window.innerHeight];")
    assert 0 <= box[0] and box[1] <= box[2], ("the hint is out of sight", box)
    assert at(driver)[0] == []
    driver.find_element(By.CSS_SELECTOR, "#board svg .supply.white.circle").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg .supply.white.circle.selected"))
    assert driver.find_element(By.CSS_SELECTOR, '.supply-piece[data-colour="white"][data-shape="circle"]') \
        .get_attribute("class").split().count("selected") == 1
    assert not driver.find_elements(By.CSS_SELECTOR, "#board svg .supply.white.triangle.selected")
    driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="4"]').click()
    wait(driver, lambda d: at(d)[0][:1] == ["C4"])
    # (the computer's reply: White still has pieces to place)
    ref = wait_my_turn(driver, tables, "white")
    assert not ref["game_over"] and any(m["from"] is None for m in ref["moves"]), ref
    assert driver.find_element(By.ID, "caption").text.endswith(": pick a circle or a triangle, then a space")


def test_the_link_during_a_game_opens_it_in_play_with_hints_off(driver, static_url, tables):
    """The share link of a game against the computer, opened in a fresh page
    (as in another tab): the same moves, the same side and level, the game in
    play with hints off and no value anywhere; the computer answers the next
    move as before."""
    open_fresh(driver, static_url)
    level = levels(driver)[-1]
    choose(driver, "white", level)
    rng = random.Random(7)
    for _ in range(2):
        ref = wait_my_turn(driver, tables, "white")
        moves = at(driver)[0]
        base.click_move(driver, rng.choice([m["move"] for m in ref["moves"]]), "white")
        wait(driver, lambda d: len(at(d)[0]) > len(moves))
    wait_my_turn(driver, tables, "white")
    moves = at(driver)[0]
    link = driver.find_element(By.ID, "share").get_attribute("value")
    assert "play=white" in link and "level=" in link, link
    driver.get("about:blank")
    driver.get(link)
    wait(driver, ready)
    assert at(driver)[0] == moves
    assert human_side(driver) == "white"
    assert driver.find_element(By.ID, "black-player").get_attribute("value") == level
    hints = driver.find_element(By.ID, "hints")
    assert hints.is_displayed() and hints.get_attribute("aria-checked") == "false"
    assert values_shown(driver) == [], link
    ref = native(tables, "standard", moves)
    base.click_move(driver, ref["moves"][0]["move"], "white")
    wait(driver, lambda d: len(at(d)[0]) > len(moves))
    wait_my_turn(driver, tables, "white")
    assert len(at(driver)[0]) >= len(moves) + 2 or native(tables, "standard", at(driver)[0])["game_over"]
    assert values_shown(driver) == [] or native(tables, "standard", at(driver)[0])["game_over"]


def better(a, b):
    """Whether value a (result, plies) is better for its player than b: win > draw > loss,
    a faster win, a slower loss."""
    rank = {"loss": 0, "draw": 1, "win": 2}
    if rank[a[0]] != rank[b[0]]:
        return rank[a[0]] > rank[b[0]]
    if a[0] == "win":
        return a[1] < b[1]
    if a[0] == "loss":
        return a[1] > b[1]
    return False


def native_review(tables, moves):
    """Each ply's mover value before and result after, the mistakes and the
    first decisive one, from `fano query --json` of each prefix."""
    plies = []
    for i, mv in enumerate(moves):
        before = native(tables, "standard", moves[:i])
        rated = [m for m in before["moves"] if m["move"] == mv][0]
        b, a = (before["value"], before["plies"]), (rated["result"], rated["plies"])
        after = native(tables, "standard", moves[:i + 1])
        plies.append({"ply": i + 1, "mover": before["to_move"], "before": b, "after": a,
                      "mistake": better(b, a), "decisive": better(b, a) and b[0] != a[0],
                      "engine": before["engine_move"],
                      "keeping": [m["move"] for m in before["moves"] if (m["result"], m["plies"]) == b],
                      "pv_after": [] if after["game_over"] else after["pv"][:40]})
    return plies


def page_review(drv):
    return drv.execute_script("""
      return Array.from(document.querySelectorAll('#review-body li[data-ply]')).map(function (li) {
        return {ply: +li.getAttribute('data-ply'), move: li.getAttribute('data-move'),
                decisive: li.hasAttribute('data-decisive'), text: li.textContent,
                side: li.closest('ol').getAttribute('data-side'),
                best: li.querySelector('.review-best').getAttribute('data-best'),
                refutation: li.querySelector('.review-refutation').getAttribute('data-refutation')}; });""")


def wait_review(drv):
    """Until the review is shown; skips when the engine has no review route (404)."""
    wait(drv, lambda d: d.find_element(By.ID, "review-body").get_attribute("data-state") in
         ("shown", "unavailable", "error"))
    state = drv.find_element(By.ID, "review-body").get_attribute("data-state")
    if state == "unavailable":
        drv.get_log("browser")  # the 404 over HTTP is the answer that says so, not a fault
        pytest.skip("the engine answers 404 for /api/v2/{variant}/review (the review route is not built in)")
    assert state == "shown", drv.find_element(By.ID, "review-body").text


def assert_review_equals_native(drv, tables, moves):
    ref = native_review(tables, moves)
    # The page lists each side's mistakes apart (White's list, then Black's):
    # compared in the order of the game.
    shown = sorted(page_review(drv), key=lambda s: s["ply"])
    mistakes = [p for p in ref if p["mistake"]]
    assert [(s["ply"], s["move"], s["side"]) for s in shown] == \
           [(p["ply"], moves[p["ply"] - 1], p["mover"]) for p in mistakes], (shown, mistakes)
    decisive = [p["ply"] for p in ref if p["decisive"]][:1]
    assert [s["ply"] for s in shown if s["decisive"]] == decisive
    for s in shown:
        p = ref[s["ply"] - 1]
        best = s["best"].split(",")
        assert best[0] == p["engine"] and sorted(best) == sorted(p["keeping"]), (s, p)
        assert s["refutation"] == ",".join(p["pv_after"]), (s, p)
    # a jump to the first mistake: the position it was played in
    if shown:
        first = shown[0]
        drv.find_element(By.CSS_SELECTOR, '#review-body li[data-ply="%d"] .review-jump' % first["ply"]).click()
        wait(drv, lambda d: ready(d) and len(at(d)[0]) == first["ply"] - 1)
        assert at(drv)[1] == moves  # the game's moves are kept after the jump


def test_a_whole_game_against_each_level_shows_no_value_until_its_end(driver, static_url, tables, artifacts):
    """For each level the page offers, a whole game played by clicking (the
    last at 390x844), the player's side alternating: no value anywhere while
    it is on; the keyboard's place back on the board after each reply; the
    result and its reason on the board at the end (`fano query`'s game_over),
    and the values in sight again."""
    open_fresh(driver, static_url)
    offered = levels(driver)
    assert offered, "no level offered"
    rng = random.Random(53)
    for i, level in enumerate(offered):
        phone = i == len(offered) - 1
        if phone:
            driver.set_window_size(390, 844)
        try:
            open_fresh(driver, static_url)
            side = "white" if i % 2 == 0 else "black"
            choose(driver, side, level)
            assert human_side(driver) == side
            moves = play_out(driver, tables, side, rng)
            assert_end_on_board(driver, tables, moves, side)
            if phone:
                driver.execute_script("document.getElementById('board').scrollIntoView({block: 'start'});")
                assert driver.find_element(By.ID, "game-end-result").is_displayed()
                driver.save_screenshot(os.path.join(artifacts, "play-end-390.png"))
            # the game over, its values are in sight again
            assert driver.find_element(By.ID, "value").text
            PLAYED.append(moves)
        finally:
            driver.set_window_size(1280, 900)


# The games played against the levels (the review's test reviews the longest).
PLAYED = []


def test_the_review_of_a_game_equals_a_fano_query_walk(driver, static_url, tables):
    """The review of a game played against the computer (loaded from its link,
    "Review this game"): each side's mistakes, the first decisive one, the moves
    that keep the value and the refutation, equal to a move-by-move
    `fano query --json` walk; "Go to ply N" shows the position it was played in.
    Skipped only while the engine answers 404 for the review route."""
    if not PLAYED:
        pytest.skip("no game played (the game test did not run)")
    moves = max(PLAYED, key=len)
    open_fresh(driver, static_url, "#moves=" + ",".join(moves))
    wait(driver, lambda d: ready(d) and at(d)[0] == moves)
    driver.find_element(By.ID, "review-open").click()
    wait_review(driver)
    assert_review_equals_native(driver, tables, moves)


def test_the_dialog_remembers_and_asks_before_discarding(driver, static_url):
    """Side and level are remembered; with a game in progress the dialog says it
    will be discarded, and Cancel keeps the game."""
    open_fresh(driver, static_url)
    offered = levels(driver)
    choose(driver, "black", offered[0])
    wait(driver, lambda d: ready(d) and len(at(d)[0]) == 1)  # the computer, White, moved first
    assert human_side(driver) == "black"
    driver.find_element(By.ID, "play-computer").click()
    assert driver.find_element(By.ID, "play-side-black").is_selected()
    assert Select(driver.find_element(By.ID, "play-level")).first_selected_option.get_attribute("value") == offered[0]
    assert driver.find_element(By.ID, "play-discard").is_displayed()
    assert "discarded" in driver.find_element(By.ID, "play-discard").text
    driver.find_element(By.ID, "play-cancel").click()
    wait(driver, lambda d: d.find_element(By.ID, "play-dialog").get_attribute("open") is None)
    assert len(at(driver)[0]) == 1
    driver.get("about:blank")
    driver.get(static_url + "?delay=0")
    wait(driver, ready)
    driver.find_element(By.ID, "play-computer").click()
    assert driver.find_element(By.ID, "play-side-black").is_selected()
    assert Select(driver.find_element(By.ID, "play-level")).first_selected_option.get_attribute("value") == offered[0]
    assert not driver.find_element(By.ID, "play-discard").is_displayed()
    driver.find_element(By.ID, "play-cancel").click()


def test_hints_show_the_values_for_that_game_and_rematch_swaps_colours(driver, static_url, tables):
    """Hints on: the value equals `fano query`'s; off again: none shows. Rematch
    after the end: the same level, the player's colour swapped, hints off."""
    open_fresh(driver, static_url)
    level = levels(driver)[-1]
    choose(driver, "white", level)
    assert values_shown(driver) == []
    driver.find_element(By.ID, "hints").click()
    wait(driver, lambda d: d.find_element(By.ID, "hints").get_attribute("aria-checked") == "true")
    ref = native(tables, "standard", at(driver)[0])
    assert driver.find_element(By.ID, "value").text.endswith(base.value_text(ref["value"], ref["plies"]))
    base.click_move(driver, ref["engine_move"], "white")
    ref = wait_my_turn(driver, tables, "white")
    assert driver.find_element(By.ID, "value").text.endswith(base.value_text(ref["value"], ref["plies"]))
    driver.find_element(By.ID, "hints").click()
    wait(driver, lambda d: d.find_element(By.ID, "hints").get_attribute("aria-checked") == "false")
    assert values_shown(driver) == []
    moves = play_out(driver, tables, "white", random.Random(3), check_values=False, fresh=False)
    assert_end_on_board(driver, tables, moves, "white")
    assert driver.find_element(By.ID, "rematch").is_displayed()
    driver.find_element(By.ID, "rematch").click()
    wait(driver, lambda d: ready(d) and human_side(d) == "black" and len(at(d)[0]) >= 1)
    assert driver.find_element(By.ID, "white-player").get_attribute("value") == level
    assert driver.find_element(By.ID, "hints").get_attribute("aria-checked") == "false"
    wait_my_turn(driver, tables, "black")
    assert values_shown(driver) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_wcag_violation_in_the_dialog_the_game_and_its_end(driver, static_url, tables, scheme, artifacts):
    """axe-core's WCAG 2.2 AA rules on the dialog, a game with hints off, its end
    on the board and the review, light and dark."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        open_fresh(driver, static_url)
        driver.find_element(By.ID, "play-computer").click()
        time.sleep(0.3)
        assert axe_violations(driver, wcag22=True) == [], (scheme, "dialog")
        driver.find_element(By.ID, "play-side-white").click()
        Select(driver.find_element(By.ID, "play-level")).select_by_index(len(levels(driver)) - 1)
        driver.find_element(By.ID, "play-start").click()
        wait(driver, ready)
        time.sleep(0.3)
        assert axe_violations(driver, wcag22=True) == [], (scheme, "a game")
        play_out(driver, tables, "white", random.Random(11), check_values=False)
        wait(driver, lambda d: d.find_element(By.ID, "game-end").is_displayed())
        time.sleep(0.3)
        assert axe_violations(driver, wcag22=True) == [], (scheme, "the end")
        driver.find_element(By.ID, "game-end-review").click()
        wait(driver, lambda d: d.find_element(By.ID, "review-body").get_attribute("data-state") != "loading")
        if driver.find_element(By.ID, "review-body").get_attribute("data-state") == "unavailable":
            driver.get_log("browser")  # over HTTP the 404 that says there is no review route
        time.sleep(0.3)
        assert axe_violations(driver, wcag22=True) == [], (scheme, "the review")
        driver.execute_script("document.getElementById('review').scrollIntoView({block: 'start'});")
        driver.save_screenshot(os.path.join(artifacts, "play-review-%s.png" % scheme))
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_back_during_a_game_takes_back_to_the_players_turn(driver, static_url, tables):
    """◀ Back during a game against the computer is a takeback: the player's last
    move and the computer's reply go, the player is to move and a click plays; at
    the start with the computer to move (the player plays Black) it moves again."""
    open_fresh(driver, static_url)
    choose(driver, "black", "horizon:1")
    wait_my_turn(driver, tables, "black")
    assert len(at(driver)[0]) == 1
    driver.find_element(By.ID, "nav-back").click()
    ref = wait_my_turn(driver, tables, "black")  # the computer's first move again
    assert len(at(driver)[0]) == 1 and ref["to_move"] == "black"
    mine = ref["moves"][0]["move"]
    base.click_move(driver, mine, "black")
    wait(driver, lambda d: len(at(d)[0]) == 3)
    ref = wait_my_turn(driver, tables, "black")
    line = at(driver)[0]
    driver.find_element(By.ID, "nav-back").click()
    wait(driver, lambda d: ready(d) and at(d)[0] == line[:1])
    ref = wait_my_turn(driver, tables, "black")
    assert at(driver)[0] == line[:1] and not driver.find_element(By.ID, "status").text.startswith("Wait")
    # the player's turn: a click plays, and the computer replies
    other_move = [m["move"] for m in ref["moves"] if m["move"] != mine][0]
    base.click_move(driver, other_move, "black")
    wait(driver, lambda d: len(at(d)[0]) == 3)
    assert at(driver)[0][1] == other_move
    wait_my_turn(driver, tables, "black")


def test_go_to_ply_keeps_the_keyboard_on_the_review(driver, static_url):
    """"Go to ply N" in the review shows that position and keeps the keyboard's
    place on the review's item (never the page's body)."""
    moves = ["C4", "t3", "T5", "t1", "C2", "c7"]
    open_fresh(driver, static_url, "#moves=" + ",".join(moves))
    wait(driver, lambda d: ready(d) and at(d)[0] == moves)
    driver.find_element(By.ID, "review-open").click()
    wait_review(driver)
    jump = driver.find_element(By.CSS_SELECTOR, '#review-body li[data-ply="5"] .review-jump')
    jump.click()
    wait(driver, lambda d: ready(d) and at(d)[0] == moves[:4])
    wait(driver, lambda d: d.execute_script(
        "var a = document.activeElement; return !!a && !!a.closest && !!a.closest('#review-body li[data-ply=\"5\"]');"))


def test_a_drawn_refutation_says_the_game_is_drawn(driver, static_url, tables):
    """A mistake whose refuting line is a draw cut at its bound ends with the
    engine's words, as `fano review --json` gives them: "... and the game is drawn"."""
    moves = ["C1", "c2", "C3", "t6"]  # 4. t6 throws Black's win away: a drawn line
    out = subprocess.run([base.FANO_BIN, "review", "--json", "--tables", tables] + base.VARIANTS["standard"] +
                         ["--moves", ",".join(moves)], capture_output=True, check=True)
    ref = json.loads(out.stdout)["plies"][3]
    assert ref["refutation_close"] == " ... and the game is drawn", ref
    open_fresh(driver, static_url, "#moves=" + ",".join(moves))
    wait(driver, lambda d: ready(d) and at(d)[0] == moves)
    driver.find_element(By.ID, "review-open").click()
    wait_review(driver)
    text = driver.find_element(By.CSS_SELECTOR, '#review-body li[data-ply="4"] .review-refutation').text
    assert text.endswith(ref["refutation"][-1] + ref["refutation_close"]), text
