"""The explorer for players in headless Chromium: the last move
marked, game navigation, the value history, refutations, draw analysis, the
legend, colours and contrast, keyboard use and accessible names, dark mode and
reduced motion, screenshots. Every value the page shows is compared with the
native `fano query --json` (never with constants).

Run:  FANO_BIN=build/tools/fano FANO_WEB_DIR=build/web /usr/bin/python3 -m pytest -q tests/browser/test_players.py
(the fixtures and helpers are test_static.py's).
"""
import os
import random

import pytest

import test_static as base
from test_static import (app, artifacts, driver, no_console_errors, serve_url, static_url,  # noqa: F401
                         tables, web_dir)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

native, open_page, at, settle, wait, ready = (base.native, base.open_page, base.at, base.settle,
                                              base.wait, base.ready)
RANK = {"loss": 0, "draw": 1, "win": 2}


def engine_game(tables, plies, variant="standard", deviate=0.0, seed=1):
    """The native engine's moves (with seeded random deviations) from the empty board."""
    rng = random.Random(seed)
    moves = []
    for _ in range(plies):
        r = native(tables, variant, moves)
        if r["game_over"] or not r["moves"]:
            break
        moves.append(rng.choice(r["moves"])["move"] if rng.random() < deviate else r["engine_move"])
    return moves


def chart_points(refs, moves):
    """The chart's points from native reports (refs[i] after i moves): the
    start's value for its side to move, then each ply's result for its mover,
    as (side, value, plies)."""
    out = [(refs[0]["to_move"], refs[0]["value"], refs[0]["plies"])]
    for i, mv in enumerate(moves):
        entry = next(m for m in refs[i]["moves"] if m["move"] == mv)
        out.append((refs[i]["to_move"], entry["result"], entry["plies"]))
    return out


def white_wins(side, value):
    """Who wins, from the side and its result: the chart's frame (up: White)."""
    return value != "draw" and (side == "white") == (value == "win")


def space_centres(drv):
    return drv.execute_script("""
      var out = {};
      document.querySelectorAll('#board .hit').forEach(function (h) {
        var r = h.getBoundingClientRect();
        out[h.getAttribute('data-space')] = [r.left + r.width / 2, r.top + r.height / 2];
      });
      return out;""")


# ---------------------------------------------------------------- see
def test_last_move_is_marked(driver, static_url, tables):
    open_page(driver, static_url, "#moves=C4,t3")
    mark = driver.find_element(By.CSS_SELECTOR, "#board .last-move")
    assert mark.get_attribute("data-move") == "t3"
    ring = driver.execute_script("""var c = document.querySelector('#board .last-move circle');
      var s = document.querySelector('#board circle.space[data-space="3"]');
      return [+c.getAttribute('cx'), +c.getAttribute('cy'), +s.getAttribute('cx'), +s.getAttribute('cy')];""")
    assert ring[:2] == ring[2:]
    # a movement: an arrow from its space to its space
    moves = engine_game(tables, 10)
    first_movement = next(i for i, m in enumerate(moves) if "-" in m)
    moves = moves[:first_movement + 1]
    open_page(driver, static_url, "#moves=" + ",".join(moves))
    a, b = moves[-1].split("-")
    ends = driver.execute_script("""
      var l = document.querySelector('#board .last-move line');
      var c = function (s) { var e = document.querySelector('#board circle.space[data-space="' + s + '"]');
                             return [+e.getAttribute('cx'), +e.getAttribute('cy')]; };
      return [[+l.getAttribute('x1'), +l.getAttribute('y1'), +l.getAttribute('x2'), +l.getAttribute('y2')],
              c(arguments[0]), c(arguments[1])];""", a, b)
    (x1, y1, x2, y2), pa, pb = ends
    d = lambda p, q: ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5  # noqa: E731
    assert d((x1, y1), pa) < d((x1, y1), pb) and d((x2, y2), pb) < d((x2, y2), pa)
    assert driver.find_element(By.CSS_SELECTOR, "#board .last-move").get_attribute("data-move") == moves[-1]


def test_top_of_each_stack_is_marked(driver, static_url, tables):
    moves = engine_game(tables, 8)
    open_page(driver, static_url, "#moves=" + ",".join(moves))
    stacks = native(tables, "standard", moves)["position"].split(" ")[0].split("/")
    colours = {"C": ("white", "circle"), "T": ("white", "triangle"), "c": ("black", "circle"), "t": ("black", "triangle")}
    tops = driver.execute_script("""return Array.from(document.querySelectorAll('#board .top-piece')).map(function (p) {
      return [p.getAttribute('data-space'), p.classList.contains('white') ? 'white' : 'black',
              p.classList.contains('circle') ? 'circle' : 'triangle']; });""")
    want = sorted([str(i + 1), *colours[st[-1]]] for i, st in enumerate(stacks) if len(st) > 1)
    assert sorted(tops) == want and want


def test_game_navigation(driver, app, tables):
    moves = engine_game(tables, 6)
    open_page(driver, app, "#moves=" + ",".join(moves))
    driver.find_element(By.ID, "nav-start").click()
    settle(driver, 0)
    assert at(driver) == ([], moves)  # the later moves are kept
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    settle(driver, 1)
    body.send_keys(Keys.END)
    settle(driver, len(moves))
    body.send_keys(Keys.HOME)
    settle(driver, 0)
    driver.find_element(By.ID, "nav-end").click()
    settle(driver, len(moves))
    driver.find_element(By.ID, "nav-back").click()
    settle(driver, len(moves) - 1)
    body.send_keys(Keys.ARROW_LEFT)
    settle(driver, len(moves) - 2)
    driver.find_element(By.ID, "nav-forward").click()
    settle(driver, len(moves) - 1)
    driver.find_elements(By.CSS_SELECTOR, "#moves-played li")[2].click()  # the third move
    settle(driver, 3)
    assert at(driver) == (moves[:3], moves)
    # a different move drops the later ones
    ref = native(tables, "standard", moves[:3])
    other = next(m["move"] for m in ref["moves"] if m["move"] != moves[3])
    driver.find_element(By.CSS_SELECTOR, '#legal-moves li[data-move="%s"]' % other).click()
    settle(driver, 4)
    assert at(driver) == (moves[:3] + [other], moves[:3] + [other])
    # flip: the top corner (6) goes below the bottom-left one (5), and back
    before = space_centres(driver)
    driver.find_element(By.ID, "flip").click()
    after = space_centres(driver)
    assert before["6"][1] < before["5"][1] and after["6"][1] > after["5"][1]
    assert driver.find_element(By.ID, "flip").get_attribute("aria-pressed") == "true"
    driver.find_element(By.ID, "flip").click()
    assert space_centres(driver)["6"][1] < space_centres(driver)["5"][1]


def test_value_chart_equals_the_table(driver, static_url, tables):
    # a seeded game with deviations from best play (so that it holds blunders)
    moves = engine_game(tables, 14, deviate=0.6, seed=7)
    refs = [native(tables, "standard", moves[:i]) for i in range(len(moves) + 1)]
    blunders = set()
    for i, mv in enumerate(moves):
        entry = next(m for m in refs[i]["moves"] if m["move"] == mv)
        if RANK[entry["result"]] < RANK[refs[i]["value"]]:
            blunders.add(i + 1)
    assert blunders, "the seeded game has no blunder: choose another seed"
    open_page(driver, static_url, "#moves=" + ",".join(moves) + "&at=3")
    pts = driver.execute_script("""return Array.from(document.querySelectorAll('#chart .pt')).map(function (g) {
      return [+g.getAttribute('data-ply'), g.getAttribute('data-side'), g.getAttribute('data-value'),
              g.classList.contains('blunder')]; });""")
    assert [p[0] for p in pts] == list(range(len(moves) + 1))
    want = chart_points(refs, moves)
    for (ply, side, text, blunder), (w_side, value, plies) in zip(pts, want):
        assert (side, text) == (w_side, base.mover_text(value, plies)), (ply, side, text)
        assert blunder == (ply in blunders), ply
    # a shape as well as a colour (told apart under colour blindness): up for White winning,
    # down for Black winning, a square for a draw
    shapes = driver.execute_script("""return Array.from(document.querySelectorAll('#chart .pt')).map(function (g) {
      if (g.querySelector('rect')) return 'square';
      var p = g.querySelector('polygon').getAttribute('points').split(' ').map(function (xy) { return +xy.split(',')[1]; });
      return p[0] < p[1] ? 'up' : 'down'; });""")
    assert shapes == ["square" if v == "draw" else "up" if white_wins(s, v) else "down" for s, v, _ in want]
    # a point goes to its ply
    k = max(blunders)
    driver.find_element(By.CSS_SELECTOR, '#chart .pt[data-ply="%d"]' % k).click()
    settle(driver, k)
    assert at(driver) == (moves[:k], moves)


def test_refutation_on_hover_and_focus(driver, app, tables):
    moves = ["C4", "t3"]
    open_page(driver, app, "#moves=" + ",".join(moves))
    ref = native(tables, "standard", moves)
    losing = [m for m in ref["moves"] if m["result"] == "loss"]
    assert losing
    for m, how in ((losing[-1], "hover"), (ref["moves"][0], "focus")):
        li = driver.find_element(By.CSS_SELECTOR, '#legal-moves li[data-move="%s"]' % m["move"])
        if how == "hover":
            ActionChains(driver).move_to_element(li).perform()
        else:
            driver.execute_script("arguments[0].focus();", li.find_element(By.CSS_SELECTOR, "button.why"))
        wait(driver, lambda d: d.find_element(By.ID, "refutation").get_attribute("data-for") == m["move"])
        after = native(tables, "standard", moves + [m["move"]])
        shown = driver.execute_script("""return Array.from(document.querySelectorAll('#refutation .refm'))
          .map(function (s) { return s.getAttribute('data-move'); });""")
        assert shown == after["pv"][:40] and shown
        end = driver.find_element(By.CSS_SELECTOR, "#refutation .ref-end").text
        if after["pv_end"]:
            assert after["pv_end"]["text"] in end
        text = driver.find_element(By.ID, "refutation").text
        assert base.mover_text(m["result"], m["plies"]) in text


def test_refutation_of_a_move_that_ends_the_game(driver, app, tables):
    game = engine_game(tables, 30)
    for n in range(len(game)):
        ref = native(tables, "standard", game[:n])
        at_once = [m for m in ref["moves"] if m["result"] == "loss" and m["plies"] == 1]
        if at_once:
            break
    else:
        pytest.fail("no move forming a line in the engine's game")
    open_page(driver, app, "#moves=" + ",".join(game[:n]))
    m = at_once[0]["move"]
    driver.execute_script("arguments[0].focus();", driver.find_element(
        By.CSS_SELECTOR, '#legal-moves li[data-move="%s"] button.why' % m))
    wait(driver, lambda d: d.find_element(By.ID, "refutation").get_attribute("data-for") == m)
    over = native(tables, "standard", game[:n] + [m])["game_over"]
    assert over and over["text"] in driver.find_element(By.CSS_SELECTOR, "#refutation .ref-end").text


def test_draw_analysis_counts_losing_replies(driver, app, tables):
    checked = 0
    for moves in ([], ["C4"], ["C4", "t3"]):
        open_page(driver, app, "#moves=" + ",".join(moves))
        ref = native(tables, "standard", moves)
        shown = dict(driver.execute_script("""return Array.from(document.querySelectorAll('#legal-moves li[data-move]'))
          .map(function (li) { var t = li.querySelector('.trap');
                               return [li.getAttribute('data-move'), t ? t.getAttribute('data-trap') : null]; });"""))
        for m in ref["moves"]:
            if m["result"] != "draw":
                assert shown[m["move"]] is None
                continue
            replies = native(tables, "standard", moves + [m["move"]])["moves"]
            # her choices: the replies that form no line (a line loses at once: loss in 1)
            choices = [r for r in replies if not (r["result"] == "loss" and r["plies"] == 1)] or replies
            errors = [r for r in choices if r["result"] == "loss"]
            assert shown[m["move"]] == "%d/%d" % (len(errors), len(choices)), m["move"]
            checked += 1
    assert checked > 5


# ---------------------------------------------------------------- learn
def test_rules_and_legend(driver, static_url):
    open_page(driver, static_url)
    driver.find_element(By.CSS_SELECTOR, "#legend summary").click()
    text = driver.find_element(By.ID, "legend").text
    for words in ("C4", "4-7", "half-move", "draw", "all of one colour or all of one shape", "??"):
        assert words in text, words


# ---------------------------------------------------------------- for everyone
CONTRAST_JS = """
function lin(c) { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }
function rgba(s) { var m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; }
function lum(c) { return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]); }
function over(top, bottom) { var a = top[3];
  return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1]; }
function background(e) {  // the colours behind e, composed from the page up
  var chain = [];
  for (var n = e; n && n.nodeType === 1; n = n.parentElement) chain.push(rgba(getComputedStyle(n).backgroundColor));
  var c = [255, 255, 255, 1];
  var root = rgba(getComputedStyle(document.documentElement).backgroundColor);
  if (root[3] === 0) { c = matchMedia('(prefers-color-scheme: dark)').matches ? [18, 18, 18, 1] : c; } else c = root;
  for (var i = chain.length - 1; i >= 0; i--) c = over(chain[i], c);
  return c;
}
var out = [];
// SVG text (the board's labels and marks, the chart's words): its fill against the
// picture's background, or against white where a white halo is painted under it
document.querySelectorAll('svg text').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (!r.width || !r.height || !e.textContent.trim()) return;
  var st = getComputedStyle(e);
  var halo = /255, 255, 255/.test(st.stroke) && /stroke/.test(st.paintOrder) && parseFloat(st.strokeWidth) >= 2;
  var bg = halo ? [255, 255, 255, 1] : background(e.closest('div'));
  var fg = over(rgba(st.fill), bg);
  var l1 = lum(fg), l2 = lum(bg);
  out.push({text: e.textContent.trim().slice(0, 30), id: 'svg', cls: String(e.getAttribute('class')),
            ratio: (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05)});
});
document.querySelectorAll('body *').forEach(function (e) {
  if (e.closest('svg') || e.closest('details:not([open]) > :not(summary)')) return;
  if (e.closest(':disabled')) return;  // WCAG 1.4.3: inactive controls are exempt
  var own = Array.from(e.childNodes).some(function (n) { return n.nodeType === 3 && n.textContent.trim(); });
  var before = getComputedStyle(e, '::before').content;
  if (!own && !(before && before !== 'none' && before !== 'normal')) return;
  var r = e.getBoundingClientRect();
  if (!r.width || !r.height) return;
  var st = getComputedStyle(e);
  var bg = background(e);
  var fg = over(rgba(st.color), bg);
  var op = 1; for (var n = e; n && n.nodeType === 1; n = n.parentElement) op *= +getComputedStyle(n).opacity;
  fg = over([fg[0], fg[1], fg[2], op], bg);  // a faded element's text against what is behind it
  var l1 = lum(fg), l2 = lum(bg);
  out.push({text: (e.textContent || '').trim().slice(0, 30), id: e.id, cls: String(e.className),
            ratio: (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05)});
});
return out;
"""


def emulate(drv, scheme=None, motion=None, width=None):
    feats = []
    if scheme:
        feats.append({"name": "prefers-color-scheme", "value": scheme})
    if motion:
        feats.append({"name": "prefers-reduced-motion", "value": motion})
    drv.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": feats})
    if width:
        drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": 844 if width < 500 else 900,
                             "deviceScaleFactor": 1, "mobile": width < 500})
    else:
        drv.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_contrast_and_signs(driver, static_url, tables, scheme):
    try:
        emulate(driver, scheme)
        # a position with wins, draws and losses among the moves, a blunder and an error message
        moves = engine_game(tables, 14, deviate=0.6, seed=7)
        open_page(driver, static_url, "#moves=" + ",".join(moves) + "&at=8")
        driver.find_element(By.CSS_SELECTOR, "#legend summary").click()
        driver.find_element(By.ID, "move-input").send_keys("X9\n")
        wait(driver, lambda d: "error" in d.find_element(By.ID, "status").get_attribute("class"))
        pairs = driver.execute_script(CONTRAST_JS)
        assert len(pairs) > 30 and sum(p["id"] == "svg" for p in pairs) >= 10  # the spaces' numbers and more
        low = [p for p in pairs if p["ratio"] < 4.5]
        assert not low, low
        cats = {c: driver.execute_script(
            "var e = document.querySelector('.res.%s'); return e && getComputedStyle(e, '::before').content;" % c)
            for c in ("win", "draw", "loss")}
        present = {k: v for k, v in cats.items() if v}
        assert len(present) >= 2, cats
        signs = set(present.values())
        assert len(signs) == len(present) and all(s.strip('"').strip() for s in signs), cats
        if scheme == "dark":
            bg = driver.execute_script("return getComputedStyle(document.body).backgroundColor;")
            assert sum(int(x) for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]) < 150, bg
    finally:
        emulate(driver)


NAMES_JS = """
var sel = 'button, a[href], input, select, [role=button], [tabindex]';
return Array.from(document.querySelectorAll(sel)).filter(function (e) {
  var r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && !e.disabled;
}).map(function (e) {
  var name = e.getAttribute('aria-label') || (e.labels && e.labels.length ? e.labels[0].textContent : '') ||
             e.textContent || e.getAttribute('title') || e.getAttribute('placeholder') || '';
  return {tag: e.tagName, id: e.id, name: name.trim(), tabIndex: e.tabIndex};
});
"""


def test_keyboard_reaches_everything_with_names(driver, app, tables):
    moves = ["C4", "t4"]
    open_page(driver, app, "#moves=" + ",".join(moves))
    items = driver.execute_script(NAMES_JS)
    assert len(items) > 20
    unnamed = [i for i in items if not i["name"]]
    unreachable = [i for i in items if i["tabIndex"] < 0]
    assert not unnamed and not unreachable, (unnamed, unreachable)
    # the spaces' names from the position `fano query` gives (stacks bottom to top)
    position = native(tables, "standard", moves)["position"]
    names = {"C": "white circle", "T": "white triangle", "c": "black circle", "t": "black triangle"}
    for i, stack in enumerate(position.split(" ")[0].split("/")):
        want = "space %d: " % (i + 1) + ("empty" if stack == "-" else " on ".join(names[c] for c in reversed(stack)))
        got = driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="%d"]' % (i + 1)).get_attribute("aria-label")
        assert got == want
    # a placement with the keyboard alone: the supply's triangle, then space 3
    ref = native(tables, "standard", moves)
    assert any(m["move"] == "T3" for m in ref["moves"])
    driver.find_element(By.CSS_SELECTOR, '.supply-piece[data-colour="white"][data-shape="triangle"]').send_keys(Keys.ENTER)
    hit = driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="3"]')
    driver.execute_script("arguments[0].focus();", hit)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    settle(driver, 3)
    assert at(driver)[0] == moves + ["T3"]
    # a listed move with Space, and the focus is kept on the board after a move by the board
    li = driver.find_element(By.CSS_SELECTOR, '#legal-moves li[data-move="%s"] [role=button]' %
                             native(tables, "standard", moves + ["T3"])["moves"][0]["move"])
    driver.execute_script("arguments[0].focus();", li)
    driver.switch_to.active_element.send_keys(Keys.SPACE)
    settle(driver, 4)


def test_reduced_motion(driver, static_url):
    try:
        durations = {}
        for motion in ("no-preference", "reduce"):
            emulate(driver, motion=motion)
            open_page(driver, static_url, "#moves=C4")
            durations[motion] = driver.execute_script(
                "return getComputedStyle(document.querySelector('#legal-moves li')).transitionDuration;")
        assert durations["reduce"] == "0s" and durations["no-preference"] != "0s", durations
    finally:
        emulate(driver)


def test_screenshots_light_and_dark(driver, static_url, artifacts, tables):
    moves = engine_game(tables, 12, deviate=0.5, seed=7)
    try:
        for scheme in ("light", "dark"):
            for name, width in (("desktop", 1280), ("phone", 390)):
                emulate(driver, scheme, width=width)
                open_page(driver, static_url, "#moves=" + ",".join(moves))
                w = driver.execute_script("return document.documentElement.scrollWidth;")
                assert w <= width, "horizontal overflow at %d px: %d" % (width, w)
                h = driver.execute_script("return document.documentElement.scrollHeight;")
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": width, "height": min(h, 4000), "deviceScaleFactor": 1,
                                        "mobile": width < 500})
                assert driver.save_screenshot(os.path.join(artifacts, "players-%s-%s.png" % (name, scheme)))
    finally:
        emulate(driver)


# ---------------------------------------------------------------- learn and practise
def native_position(tables, position, variant="standard"):
    out = base.subprocess.run([base.FANO_BIN, "query", "--json", "--tables", tables] + base.VARIANTS[variant] +
                              ["--", position], capture_output=True)
    return out


def test_position_editor_and_share_link(driver, app, tables):
    open_page(driver, app)
    driver.find_element(By.CSS_SELECTOR, "#editor summary").click()
    inp = driver.find_element(By.ID, "position-input")
    # a legal position no game reaches: the API's 422, in the CLI's words
    unreachable = "C/T/c/C/t/-/c w"
    cli = native_position(tables, unreachable)
    assert cli.returncode != 0
    inp.clear()
    inp.send_keys(unreachable)
    wait(driver, lambda d: d.find_element(By.ID, "editor-status").get_attribute("data-verdict") == "unreachable")
    text = driver.find_element(By.ID, "editor-status").text
    cli_words = cli.stderr.decode().strip().split(": ", 1)[-1]
    assert "no game reaches" in text and cli_words.split(" (")[0].replace("error: ", "") in text, (text, cli_words)
    driver.find_element(By.ID, "position-explore").click()
    assert at(driver)[0] == [] and "position=" not in driver.execute_script("return location.hash;")
    # not legal: said as such
    inp.clear()
    inp.send_keys("CC/-/-/-/-/-/- b")
    wait(driver, lambda d: d.find_element(By.ID, "editor-status").get_attribute("data-verdict") == "illegal")
    # set up by clicking: a white circle on 4
    inp.clear()
    inp.send_keys("-/-/-/-/-/-/- w")
    driver.find_element(By.CSS_SELECTOR, '#palette button[data-edit="C"]').click()
    driver.find_element(By.CSS_SELECTOR, '#board .hit[data-space="4"]').click()
    # the side to move follows from the pieces (the engine refuses White to move after one white piece)
    wait(driver, lambda d: d.find_element(By.ID, "position-input").get_attribute("value") == "-/-/-/C/-/-/- b")
    wait(driver, lambda d: d.find_element(By.ID, "editor-status").get_attribute("data-verdict") == "ok")
    driver.find_element(By.ID, "position-explore").click()
    wait(driver, lambda d: ready(d) and "position=" in d.execute_script("return location.hash;"))
    ref = base.json.loads(native_position(tables, "-/-/-/C/-/-/- b").stdout)
    st = base.page_state(driver)
    assert st["value"] == base.value_text(ref["value"], ref["plies"])
    assert [m for m, _ in st["legal"]] == [m["move"] for m in ref["moves"]]
    # the share link opens the same position, and a move from it
    link = driver.find_element(By.ID, "share").get_attribute("value")
    open_page(driver, link.split("#")[0], "#" + link.split("#")[1] + "&moves=t3")
    st = base.page_state(driver)
    ref = native(tables, "standard", ["C4", "t3"])  # the same position reached from the empty board
    assert st["value"] == base.value_text(ref["value"], ref["plies"])


def test_levels_offered_play_legally_and_the_weakest_loses_to_perfect(driver, static_url, tables):
    open_page(driver, static_url, "#seed=3")
    offered = driver.execute_script("return Array.from(document.querySelectorAll('#white-player option'))"
                                    ".map(function (o) { return o.value; });")
    # The weakest level offered to people against the strongest (perfect play).
    for side, player in (("white", offered[-1]), ("black", "engine")):
        driver.execute_script("var s = document.getElementById(arguments[0] + '-player'); s.value = arguments[1];"
                              "s.dispatchEvent(new Event('change'));", side, player)
    wait(driver, lambda d: d.execute_script("return /Game over/.test(document.getElementById('caption').textContent);"), 120)
    moves = at(driver)[0]
    ref = native(tables, "standard", moves)  # every move legal (the CLI replays them), the game over
    assert ref["game_over"] and ref["game_over"]["loser"] == "white", ref["game_over"]
    # pause and step in engine-vs-engine (Pause acts while the computer thinks: 5 s here, ?delay=5000)
    open_page(driver, static_url + "?delay=5000", "#seed=3")
    assert not driver.find_element(By.ID, "pause").is_enabled()  # nothing to pause
    for side, player in (("white", offered[-2]), ("black", offered[-1])):
        driver.execute_script("var s = document.getElementById(arguments[0] + '-player'); s.value = arguments[1];"
                              "s.dispatchEvent(new Event('change'));", side, player)
        if side == "white":
            driver.find_element(By.ID, "pause").click()
    base.time.sleep(1.0)
    assert at(driver)[0] == []  # paused: nothing played
    for n in (1, 2):
        driver.find_element(By.ID, "step").click()
        settle(driver, n)
    for side in ("white", "black"):
        driver.execute_script("var s = document.getElementById(arguments[0] + '-player'); s.value = 'human';"
                              "s.dispatchEvent(new Event('change'));", side)
    driver.find_element(By.ID, "pause").click()
    moves = at(driver)[0]
    assert len(moves) == 2 and not native(tables, "standard", moves).get("error")
    # every level offered plays a legal move (the CLI replays it), and a perfect one keeps the value
    levels = driver.execute_script("return Array.from(document.querySelectorAll('#white-player option'))"
                                   ".map(function (o) { return o.value; });")
    listed = base.subprocess.run([base.FANO_BIN, "selfplay", "--list-players", "--json"],
                                 capture_output=True, check=True).stdout
    assert levels == ["human"] + [p["name"] for p in base.json.loads(listed)["players"]]
    start = engine_game(tables, 10)
    best = native(tables, "standard", start)
    for level in levels[1:]:
        open_page(driver, static_url + "?delay=5000", "#seed=5&moves=" + ",".join(start))
        driver.execute_script("var s = document.getElementById('white-player'); s.value = arguments[0];"
                              "s.dispatchEvent(new Event('change'));", level)
        driver.find_element(By.ID, "pause").click()  # while it thinks
        driver.find_element(By.ID, "step").click()
        settle(driver, len(start) + 1)
        played = at(driver)[0][-1]
        entry = next(m for m in best["moves"] if m["move"] == played)  # a legal move
        if level in ("engine", "perfect"):
            assert entry["result"] == best["value"], (level, played)
        driver.execute_script("var s = document.getElementById('white-player'); s.value = 'human';"
                              "s.dispatchEvent(new Event('change'));")
        driver.find_element(By.ID, "pause").click()


def test_puzzle_has_one_saving_move(driver, app, tables):
    open_page(driver, app, "#puzzle=5")
    wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").text)
    h = base.urllib.parse.parse_qs(driver.execute_script("return location.hash;").lstrip("#"))
    position = h["position"][0].replace("_", " ")
    ref = base.json.loads(native_position(tables, position).stdout)
    keeping = [m["move"] for m in ref["moves"] if m["result"] == ref["value"]]
    # tempting: giving the value away, yet no loss within 2 plies (a 1- or 2-ply look calls it safe)
    tempting = [m["move"] for m in ref["moves"] if m["result"] != ref["value"] and
                not (m["result"] == "loss" and m["plies"] <= 2)]
    assert ref["value"] != "loss" and len(keeping) == 1 and tempting
    info = driver.find_element(By.ID, "puzzle-info").text
    assert "%d other move" % len(tempting) in info
    # a tempting move is wrong, the solution solves it (typed: the puzzle hides the rated moves)
    driver.find_element(By.ID, "move-input").send_keys(tempting[0] + Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "puzzle-info").get_attribute("data-result") == "failed")
    driver.find_element(By.ID, "puzzle-again").click()
    settle(driver, 0)
    driver.find_element(By.ID, "puzzle-solution").click()
    assert driver.find_element(By.ID, "puzzle-info").get_attribute("data-result") == "shown"
    assert driver.find_element(By.ID, "puzzle-answer").get_attribute("data-solution") == keeping[0]


def test_statistics_page(driver, static_url, tables):
    open_page(driver, static_url)
    driver.find_element(By.CSS_SELECTOR, "#stats summary").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#stats button.longest"))
    facts = base.json.loads(base.subprocess.run([base.FANO_BIN, "facts", "--tables", tables, "--json"],
                                                capture_output=True, check=True).stdout)
    text = driver.find_element(By.ID, "stats-body").text
    assert "{:,} positions reachable".format(facts["reachable"]) in text
    rows = driver.execute_script("""return Array.from(document.querySelectorAll('#stats tbody tr')).map(function (tr) {
      return Array.from(tr.children).map(function (td) { return +td.textContent.replace(/,/g, ''); }); });""")
    assert max(r[0] for r in rows if r[1]) == facts["longest_win"]["plies"]
    b = driver.find_element(By.CSS_SELECTOR, "#stats button.longest")
    position = b.get_attribute("data-position")
    b.click()
    wait(driver, lambda d: ready(d) and "position=" in d.execute_script("return location.hash;"))
    ref = base.json.loads(native_position(tables, position).stdout)
    assert ref["value"] == "win" and ref["plies"] == facts["longest_win"]["plies"]
    assert base.page_state(driver)["value"] == base.value_text("win", ref["plies"])
    assert base.page_state(driver)["pv"] == ref["pv"][:40]
