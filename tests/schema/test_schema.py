"""Every JSON the project prints or serves validates against the one
vocabulary, schema/fano.schema.json: the CLI's reports, batch lines and
engine games, the HTTP API's v2 routes and errors, and the Python module's
dicts (when the module is importable).

Env: FANO_BIN (the fano tool), FANO_SOURCE_DIR (the repository).
"""
import json
import os
import re
import select
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import jsonschema
import pytest

FANO_BIN = os.environ["FANO_BIN"]
SCHEMA_PATH = os.path.join(os.environ["FANO_SOURCE_DIR"], "schema", "fano.schema.json")
# Positions with a win, a loss, a standing line and no legal move among them
# (the standard game), and move lists.
POSITIONS = ["-/-/-/-/-/-/- w", "C/-/-/-/-/-/- b", "-/-/t/C/-/-/- w", "C/T/-/c/-/t/- w",
             "cT/Ct/-/-/c/T/- w"]
MOVE_LISTS = ["C4,t3", "C1,t3,T2,c4", ""]


@pytest.fixture(scope="module")
def schema():
    with open(SCHEMA_PATH) as f:
        s = json.load(f)
    jsonschema.Draft202012Validator.check_schema(s)
    return s


def validate(schema, name, instance):
    sub = {"$ref": "#/$defs/" + name, "$defs": schema["$defs"]}
    jsonschema.Draft202012Validator(sub).validate(instance)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("tables") / "standard.fanotb")
    subprocess.run([FANO_BIN, "solve", "--out", path], check=True, capture_output=True)
    return path


def fano(*args, stdin=None):
    r = subprocess.run([FANO_BIN, *args], input=stdin, capture_output=True, text=True)
    return r


def test_schema_rejects_the_old_words(schema):
    # The check can fail: a v1-shaped move (category) is not a rated move.
    with pytest.raises(jsonschema.ValidationError):
        validate(schema, "rated_move", {"move": "C4", "position": "-/-/-/C/-/-/- b",
                                        "category": "draw", "plies": None, "repeats": False})


def test_schema_ties_a_moves_shape_to_its_kind_and_its_trap_to_its_result(schema):
    placement = {"move": "C4", "from": None, "to": 4, "shape": "circle",
                 "position": "-/-/-/C/-/-/- b", "result": "draw", "plies": None,
                 "repeats": False, "trap": {"errors": 0, "choices": 14}}
    validate(schema, "rated_move", placement)
    movement = {**placement, "move": "1-7", "from": 1, "to": 7, "shape": None}
    validate(schema, "rated_move", movement)
    lost = {**movement, "result": "loss", "plies": 1, "trap": None}
    validate(schema, "rated_move", lost)
    repeats = {**movement, "repeats": True, "trap": None}
    validate(schema, "rated_move", repeats)
    for bad in ({**placement, "shape": None}, {**movement, "shape": "circle"},
                {**placement, "trap": None}, {**lost, "trap": {"errors": 1, "choices": 2}},
                {**repeats, "trap": {"errors": 0, "choices": 3}}, {**movement, "from": 8}):
        with pytest.raises(jsonschema.ValidationError):
            validate(schema, "rated_move", bad)
    with pytest.raises(jsonschema.ValidationError):
        validate(schema, "value_only", {"position": "-/-/-/-/-/-/- w", "value": "won",
                                        "plies": None})


def test_schema_names_every_rules_option_with_its_values(schema):
    # The rules options' description (`fano rules --json`) and the schema's
    # fields of a rules value agree: every option, every value, no other.
    r = fano("rules", "--json")
    assert r.returncode == 0, r.stderr
    catalog = json.loads(r.stdout)
    head = schema["$defs"]["api_head"]["properties"]
    for option in catalog["options"]:
        assert option["key"] in head, option["key"]
        assert head[option["key"]]["enum"] == [v["value"] for v in option["values"]], option["key"]
    for reading in catalog["readings"]:
        assert re.match(head["variant"]["pattern"], reading["slug"]), reading["slug"]
    validate(schema, "rules_catalog", catalog)


def test_query_reports(schema, table):
    for p in POSITIONS:
        r = fano("query", "--tb", table, "--json", "--", p)
        if r.returncode != 0:  # an unreachable sample is refused, not printed
            assert "no game reaches" in r.stderr or "legal" in r.stderr, r.stderr
            continue
        validate(schema, "report", json.loads(r.stdout))
    for m in MOVE_LISTS[:2]:
        r = fano("query", "--tb", table, "--json", "--moves", m)
        assert r.returncode == 0, r.stderr
        validate(schema, "report", json.loads(r.stdout))


def test_query_report_of_a_cut_draw(schema, tmp_path):
    # The empty board of cap 3, projective is a draw whose engine line wanders
    # past 100 plies: the variation is cut there with pv_continues_drawn.
    path = str(tmp_path / "cap3-projective.fanotb")
    subprocess.run([FANO_BIN, "solve", "--rules", "cap3-projective", "--out", path], check=True,
                   capture_output=True)
    r = fano("query", "--tb", path, "--json", "--", "-/-/-/-/-/-/- w")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    validate(schema, "report", report)
    assert report["value"] == "draw"
    assert report["pv_continues_drawn"] is True and report["pv_end"] is None
    assert len(report["pv"]) == 100
    report["pv_continues_drawn"] = "yes"  # the check can fail
    with pytest.raises(jsonschema.ValidationError):
        validate(schema, "report", report)


def test_batch_lines(schema, table):
    text = "\n".join(POSITIONS + ["moves: C4,t3", "not a position"]) + "\n"
    for flags, name in ((["--value-only"], "value_only"), ([], "report")):
        r = fano("query", "--tb", table, "--batch", "-", *flags, stdin=text)
        lines = [json.loads(l) for l in r.stdout.splitlines()]
        assert len(lines) == len(POSITIONS) + 2
        for line in lines:
            validate(schema, "batch_error" if "error" in line else name, line)
        assert "error" in lines[-1]


def test_export_rows(schema, table):
    # The first and last rows of both exports (JSON lines), and the CSV header
    # names the same columns in the schema's order.
    for classes in ([], ["--classes"]):
        r = fano("export", "--tb", table, "--format", "jsonl", *classes)
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        for line in lines[:200] + lines[-200:]:
            validate(schema, "export_row", json.loads(line))
        assert ("orbit" in json.loads(lines[0])) == bool(classes)
        header = fano("export", "--tb", table, *classes).stdout.split("\n", 1)[0].split(",")
        names = list(schema["$defs"]["export_row"]["properties"])
        assert header == [n for n in names if n != "orbit" or classes]
    with pytest.raises(jsonschema.ValidationError):
        validate(schema, "export_row", {**json.loads(lines[0]), "code": 2**57})


def test_engine_game(schema, table):
    r = fano("play", "--tb", table, "--engine-vs-engine", "--json", "--max-plies", "12")
    assert r.returncode == 0, r.stderr
    validate(schema, "engine_game", json.loads(r.stdout))


@pytest.fixture(scope="module")
def server(table):
    env = dict(os.environ, FANO_TABLES=os.path.dirname(table))
    proc = subprocess.Popen([FANO_BIN, "serve", "--port", "0", "--bind", "127.0.0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready, "server printed no URL within 60 s"
        url = proc.stdout.readline().decode().strip().rstrip("/")
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        # The server listens before it has solved the named readings (each
        # answers 503 until then): wait until /api/v2/info lists all four.
        named = {"standard", "projective", "cap3", "cap3-projective"}
        for _ in range(1200):
            with urllib.request.urlopen(url + "/api/v2/info", timeout=30) as r:
                if named <= {v["name"] for v in json.loads(r.read())["variants"]}:
                    break
            time.sleep(0.1)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_http_v2(schema, server):
    for m in MOVE_LISTS:
        q = urllib.parse.urlencode({"moves": m})
        status, body = get(server + "/api/v2/standard?" + q)
        assert status == 200
        validate(schema, "api_v2_position", body)
        status, line = get(server + "/api/v2/standard/mainline?" + q)
        assert status == 200
        validate(schema, "api_v2_mainline", line)
        # One vocabulary: the v2 report is the CLI's report.
        assert body["pv"] == [mv["move"] for mv in line["mainline"]]
    status, body = get(server + "/api/v2/standard?moves=" + urllib.parse.quote("C4,Q9"))
    assert status == 400
    validate(schema, "error", body)


def test_http_v2_players(schema, server):
    status, body = get(server + "/api/v2/players")
    assert status == 200, body
    validate(schema, "api_v2_players", body)
    # The CLI's list is the route's (one serialiser).
    r = fano("selfplay", "--list-players", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == body
    # Every level listed is a player the player route takes.
    for p in body["players"]:
        status, move = get(server + "/api/v2/standard/player?" +
                           urllib.parse.urlencode({"player": p["name"], "moves": "C4"}))
        assert status == 200, (p, move)


def test_http_v1_is_gone_and_names_v2(schema, server):
    for path in ("/api/v1/info", "/api/v1/standard?moves=C4", "/api/v1/standard/mainline?moves=C4"):
        status, body = get(server + path)
        assert status == 404, (path, body)
        validate(schema, "error", body)
        assert "/api/v2" + path.split("?")[0][len("/api/v1"):] in body["error"], body


def test_http_v2_rules(schema, server):
    # The rules route is `fano rules --json` with what the server has loaded.
    status, body = get(server + "/api/v2/rules")
    assert status == 200
    validate(schema, "rules_catalog", body)
    served = {r["name"] for r in body["readings"] if r["served"]}
    assert {"standard", "projective", "cap3", "cap3-projective"} <= served, served
    for r in body["readings"]:
        del r["served"]
    assert body == json.loads(fano("rules", "--json").stdout)


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_http_v2_batch(schema, server):
    items = ["moves: " + m for m in MOVE_LISTS]
    for value_only in (False, True):
        status, body = post(server + "/api/v2/standard/batch",
                            {"items": items, "value_only": value_only})
        assert status == 200, body
        validate(schema, "api_v2_batch", body)
        assert len(body["answers"]) == len(items)
    status, body = post(server + "/api/v2/standard/batch", {"items": ["moves: C4"] * 1001})
    assert status == 413
    validate(schema, "error", body)


def test_http_v2_player(schema, server):
    for player in ("random", "greedy", "search:2", "perfect", "engine"):
        status, body = get(server + "/api/v2/standard/player?" +
                           urllib.parse.urlencode({"player": player, "seed": 3, "moves": "C4,t3"}))
        assert status == 200, body
        validate(schema, "api_v2_player", body)
    status, body = get(server + "/api/v2/standard/player?player=search:9&moves=C4")
    assert status == 400
    validate(schema, "error", body)


def test_http_v2_puzzle_and_stats(schema, server):
    for query in ("seed=1", "seed=2", "seed=3&grade=hard"):
        status, body = get(server + "/api/v2/standard/puzzle?" + query)
        assert status == 200, body
        validate(schema, "api_v2_puzzle", body)
    status, body = get(server + "/api/v2/standard/puzzle?seed=1&grade=tricky")
    assert status == 400
    validate(schema, "error", body)
    status, body = get(server + "/api/v2/standard/stats")
    assert status == 200, body
    validate(schema, "api_v2_stats", body)


def test_python_dicts(schema, table):
    fano_module = pytest.importorskip("fano")
    tb = fano_module.open_tablebase(table)
    for m in MOVE_LISTS[:2]:
        validate(schema, "report", tb.analyse(moves=m))
        validate(schema, "mainline", tb.mainline(moves=m))


# Games for the review: mistakes of both kinds, a game ended by a line, the
# empty game; the moves of a game started from a position.
REVIEW_GAMES = ["C4,t3,T5,t1,C7", "C7", "C4,t3", ""]


def test_review(schema, table):
    for m in REVIEW_GAMES:
        r = fano("review", "--tb", table, "--json", "--moves", m)
        assert r.returncode == 0, r.stderr
        review = json.loads(r.stdout)
        validate(schema, "review", review)
    assert review["plies"] == []
    r = fano("review", "--tb", table, "--json", "--moves", "T5,t1,C7", "-/-/t/C/-/-/- w")
    assert r.returncode == 0, r.stderr
    review = json.loads(r.stdout)
    validate(schema, "review", review)
    mistake = review["plies"][2]
    assert mistake["mistake"] and mistake["decisive"] and mistake["mark"] == "??"
    # The checks can fail: a mistake without its best moves, a sound move with a text.
    with pytest.raises(jsonschema.ValidationError):
        validate(schema, "reviewed_ply", {**mistake, "best": None})
    with pytest.raises(jsonschema.ValidationError):
        validate(schema, "reviewed_ply", {**review["plies"][0], "text": "fine"})


def test_http_v2_review(schema, server, table):
    for m in REVIEW_GAMES:
        status, body = get(server + "/api/v2/standard/review?" + urllib.parse.urlencode({"moves": m}))
        assert status == 200, body
        validate(schema, "api_v2_review", body)
        # One vocabulary: the route's review is the command's.
        assert body == json.loads(fano("review", "--tb", table, "--json", "--moves", m).stdout)
    status, body = get(server + "/api/v2/standard/review?moves=" + urllib.parse.quote("C4,Q9"))
    assert status == 400
    validate(schema, "error", body)


def test_python_review(schema, table):
    fano_module = pytest.importorskip("fano")
    tb = fano_module.open_tablebase(table)
    for m in REVIEW_GAMES:
        validate(schema, "review", tb.review(m))
        validate(schema, "review", fano_module.Game(moves=m or None).review(tb))
