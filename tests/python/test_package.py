"""The package's conventions: tables solved into the cache on first use,
errors (TypeError, FileNotFoundError), context manager, pickling, moves as a
list, and the vectorised probe_codes against `fano export`.

Run by ctest (Python.Module) as test_module.py is.
"""

import csv
import io
import json
import multiprocessing
import os
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

import fano
from test_module import FANO_BIN, cli_query, sample_positions, table_path


@pytest.fixture(scope="module")
def standard():
    return fano.open_tablebase(table_path(fano.STANDARD))


def variant_flags(v):
    return ["--stack-cap", str(v.stack_cap), "--adjacency", v.adjacency]


# ---------------------------------------------------------------- the cache

def run_python(code, env):
    """Runs code in a fresh interpreter importing this build's module."""
    full = {k: v for k, v in os.environ.items()
            if k not in ("FANO_TABLES", "XDG_CACHE_HOME", "HOME")}
    full.update(env)
    r = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


FIRST_USE = r'''
import json, os, fano
out = {"cache_dir": fano.cache_dir(), "tables": []}
for v in fano.VARIANTS:
    with fano.open_tablebase(variant=v) as tb:
        start = fano.Position.empty(v)
        out["tables"].append([tb.path, fano.default_tablebase_path(v), tb.probe(start),
                              tb.probe(start.play(["C7"]))])
print(json.dumps(out))
'''


def test_default_table_solved_into_cache(tmp_path):
    # No FANO_TABLES, an XDG cache folder that does not exist yet: every
    # variant's table is solved there on first use (unless the source tree
    # holds it), and equals the fano command's.
    cache = tmp_path / "deep" / "cache"
    got = run_python(FIRST_USE, {"XDG_CACHE_HOME": str(cache), "HOME": str(tmp_path)})
    assert got["cache_dir"] == str(cache / "fano")
    for v, (path, default, start, after_c7) in zip(fano.VARIANTS, got["tables"]):
        assert path == default
        if path.startswith(str(cache)):
            assert path == str(cache / "fano" / (v.slug + ".fanotb"))
            cli = tmp_path / (v.slug + ".fanotb")
            subprocess.run([FANO_BIN, "solve", *variant_flags(v), "--out", str(cli)],
                           check=True, capture_output=True)
            assert cli.read_bytes() == open(path, "rb").read(), v.slug
        q = cli_query(path, fano.Position.empty(v).play("C7"))
        assert after_c7 == [q["table_value"], q["table_plies"]]
    assert any(p.startswith(str(cache)) for p, *_ in got["tables"]) or os.path.isdir(
        fano.default_table_dir()[0])
    # A second run reads the cached files.
    again = run_python(FIRST_USE, {"XDG_CACHE_HOME": str(cache), "HOME": str(tmp_path)})
    assert again == got


def test_cache_dir_rules(tmp_path):
    code = "import json, fano; print(json.dumps(fano.cache_dir()))"
    assert run_python(code, {"HOME": str(tmp_path)}) == str(tmp_path / ".cache" / "fano")
    # A relative XDG_CACHE_HOME is ignored, as the XDG spec asks.
    assert run_python(code, {"HOME": str(tmp_path), "XDG_CACHE_HOME": "rel"}) == str(
        tmp_path / ".cache" / "fano")
    assert run_python(code, {"HOME": "/nowhere", "XDG_CACHE_HOME": str(tmp_path)}) == str(
        tmp_path / "fano")


def test_fano_tables_folder_created_and_solved(tmp_path):
    folder = tmp_path / "a" / "b"
    code = ("import json, fano; tb = fano.open_tablebase(variant=fano.VARIANTS[1]); "
            "print(json.dumps([tb.path, fano.default_table_dir()]))")
    path, table_dir = run_python(code, {"FANO_TABLES": str(folder), "HOME": str(tmp_path)})
    assert path == str(folder / "cap2-projective.fanotb") and os.path.isfile(path)
    assert table_dir == [str(folder), "FANO_TABLES"]


def test_solve_missing_false(tmp_path):
    code = ("import fano\ntry:\n    fano.open_tablebase(solve_missing=False)\n"
            "except fano.MissingTablebaseError as e:\n"
            "    import json; print(json.dumps([str(e), e.kind, isinstance(e, FileNotFoundError)]))")
    message, kind, fnf = run_python(code, {"FANO_TABLES": str(tmp_path / "none"),
                                           "HOME": str(tmp_path)})
    assert kind == "missing" and fnf
    assert str(tmp_path / "none" / "standard.fanotb") in message


def test_missing_table_error_and_hint(tmp_path):
    path = tmp_path / "sub" / "dir" / "cap3.fanotb"
    with pytest.raises(FileNotFoundError) as e:
        fano.open_tablebase(path, variant=fano.VARIANTS[2])
    assert isinstance(e.value, fano.TablebaseError) and isinstance(e.value, fano.MissingTablebaseError)
    assert e.value.kind == "missing"
    message = str(e.value)
    assert str(path) in message and "fano solve" not in message
    hint = f"fano.solve(fano.Variant(3, 'board'), path='{path}')"
    assert hint in message, message
    # The hint works as written once its folder exists (as `fano solve --out`,
    # fano.solve makes no folder).
    assert "which must exist" in message, message
    path.parent.mkdir(parents=True)
    eval(hint, {"fano": fano})
    assert fano.open_tablebase(path, variant=fano.VARIANTS[2]).variant == fano.VARIANTS[2]


# ---------------------------------------------------------------- conventions

def test_type_errors(standard):
    cases = [
        (lambda: standard.probe(1.5), "position must be a Position, its text or an int code, not float"),
        (lambda: standard.analyse(1.5), None),
        (lambda: standard.probe_many(["-/-/-/-/-/-/- w"]), "item 0 must be a Position or an int code, not str"),
        (lambda: standard.probe_many([fano.Position.empty(), 1.5]), "item 1 must be a Position or an int code, not float"),
        (lambda: standard.probe_many(5), None),
        (lambda: fano.Position.parse(5), None),
        (lambda: fano.Position.empty().play(7), None),
        (lambda: fano.Position.empty().play(["C4", 7]), None),
        (lambda: fano.Variant(3.5), None),
        (lambda: fano.open_tablebase(42), None),
        (lambda: standard.probe_codes(["a"]), None),
    ]
    for call, expected in cases:
        with pytest.raises(TypeError) as e:
            call()
        assert "PYBIND11" not in str(e.value) and "Unable to cast" not in str(e.value), str(e.value)
        if expected:
            assert str(e.value) == expected


def test_a_positions_text_is_read_in_the_tables_rules(standard):
    """probe, analyse, mainline and review take a position as text too, as the
    command line and the API do: the same answers as for the parsed Position;
    text that is no position is a ValueError naming what is wrong."""
    text = "-/-/-/C/-/-/- b"
    p = fano.Position.parse(text)
    assert standard.probe(text) == standard.probe(p) == ("draw", None)
    assert standard.analyse(text) == standard.analyse(p)
    assert standard.analyse(text, moves="t3") == standard.analyse(p, moves="t3")
    assert standard.mainline(text) == standard.mainline(p)
    assert standard.review("t3", text) == standard.review("t3", p)
    with pytest.raises(ValueError) as e:
        standard.probe("C4")
    assert "PYBIND11" not in str(e.value) and str(e.value), str(e.value)
    with pytest.raises(ValueError, match="not the table's variant"):
        standard.probe(text, variant=fano.VARIANTS[2])


def test_context_manager(standard):
    with fano.open_tablebase(standard.path) as tb:
        assert tb.probe(fano.Position.empty()) == standard.probe(fano.Position.empty())
    with pytest.raises(ValueError, match="closed"):
        tb.probe(fano.Position.empty())  # closed at the end of the block


def test_pickle(standard):
    for v in fano.VARIANTS:
        assert pickle.loads(pickle.dumps(v)) == v
        for p in sample_positions(v, seed=3, count=5):
            q = pickle.loads(pickle.dumps(p))
            assert q == p and q.variant == v and str(q) == str(p)
    tb = pickle.loads(pickle.dumps(standard))
    assert (tb.path, tb.variant, tb.header) == (standard.path, standard.variant, standard.header)
    assert type(tb).__module__ == "fano"


def probe_in_worker(args):
    tb, position = args
    return tb.probe(position)


def test_multiprocessing(standard):
    positions = sample_positions(fano.STANDARD, seed=11, count=8)
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.map(probe_in_worker, [(standard, p) for p in positions])
    assert got == [standard.probe(p) for p in positions]


def test_moves_as_list(standard):
    empty = fano.Position.empty()
    assert empty.play(["C4", "t3"]) == empty.play("C4,t3") == empty.play(("C4", "t3"))
    assert empty.play([]) == empty
    assert standard.analyse(moves=["C4", "t3"]) == standard.analyse(moves="C4,t3")
    assert standard.mainline(moves=["C4", "t3"]) == standard.mainline(moves="C4,t3")
    with pytest.raises(ValueError, match="one move per item"):
        empty.play(["C4,t3"])
    with pytest.raises(ValueError, match="Q9"):
        empty.play(["C4", "Q9"])


# ---------------------------------------------------------------- codes

def test_codes_validated(standard):
    with pytest.raises(ValueError, match="bits set above"):
        standard.probe(2**57)
    with pytest.raises(ValueError, match="malformed stack"):
        standard.probe(0xFF)
    cap3 = fano.open_tablebase(table_path(fano.VARIANTS[2]))
    three = fano.Position.parse("CcT/-/-/-/-/-/- b", fano.VARIANTS[2])
    with pytest.raises(ValueError, match="stack cap"):
        standard.probe(three.code)
    value, plies, valid = cap3.probe_codes(np.array([three.code], dtype=np.uint64),
                                           variant=three.variant)
    assert valid[0] and (("loss", "draw", "win")[value[0]], plies[0] or None) == cap3.probe(three)
    value, plies, valid = standard.probe_codes(np.array([three.code], dtype=np.uint64))
    assert not valid[0] and value[0] == 255 and plies[0] == 0


def test_probe_many_names_the_index(standard):
    unreachable = fano.Position.parse("C/T/c/C/t/-/c w")
    items = [fano.Position.empty(), fano.Position.empty().play("C4"), unreachable]
    with pytest.raises(fano.UnreachablePosition) as e:
        standard.probe_many(items)
    assert e.value.index == 2 and str(e.value).startswith("item 2: position 'C/T/c/C/t/-/c w'")
    with pytest.raises(ValueError) as e:
        standard.probe_many([0, 0xFF])
    assert e.value.index == 1 and str(e.value).startswith("item 1: ") and "malformed" in str(e.value)
    with pytest.raises(ValueError) as e:
        standard.probe_many([0, fano.Position.empty(fano.VARIANTS[1])])
    assert e.value.index == 1 and "variant" in str(e.value)


def test_codes_of_other_rules_are_refused_not_answered():
    # A standard code is also a legal cap 3 position, with another value: the
    # table cannot tell from the code, so the caller says the codes' rules
    # (STANDARD when not said) and a table of other rules refuses them.
    cap3 = fano.open_tablebase(table_path(fano.VARIANTS[2]), variant=fano.VARIANTS[2])
    std = fano.open_tablebase(table_path(fano.STANDARD))
    codes = std.classes()["code"][:20000]
    std_value = std.probe_codes(codes)[0]
    cap3_value, _, cap3_valid = cap3.probe_codes(codes, variant=cap3.variant)
    # The trap is real: read as cap 3 positions, many standard codes have
    # another value (so a silent answer would be wrong).
    assert cap3_valid.all() and (cap3_value != std_value).sum() > 1000
    calls = [lambda: cap3.probe_codes(codes), lambda: cap3.probe_codes(codes, variant=fano.STANDARD),
             lambda: cap3.probe(int(codes[5])), lambda: cap3.get(int(codes[5])),
             lambda: cap3.probe_many([int(codes[5])]), lambda: std.probe_codes(codes, variant=cap3.variant),
             lambda: std.probe(int(codes[5]), variant=cap3.variant)]
    for call in calls:
        with pytest.raises(ValueError, match="cannot be probed in a table of"):
            call()
    with pytest.raises(ValueError, match=r"variant= not given: STANDARD"):
        cap3.probe_codes(codes)
    # Positions carry their variant: no keyword needed, and the right answer.
    p = fano.Position.from_code(int(codes[5]), cap3.variant)
    assert cap3.probe(p) == cap3.probe(int(codes[5]), variant=cap3.variant) == cap3.get(p)
    assert cap3.probe_many([p, int(codes[6])], variant=cap3.variant)[0] == cap3.probe(p)


def export_rows(tb):
    r = subprocess.run([FANO_BIN, "export", "--tb", tb.path, *variant_flags(tb.variant)],
                       capture_output=True, text=True, check=True)
    return list(csv.DictReader(io.StringIO(r.stdout)))


VALUE_CODE = {"loss": 0, "draw": 1, "win": 2}


def test_probe_codes_against_export():
    # Every reachable position of the standard game; a sample of the others.
    for v in fano.VARIANTS:
        tb = fano.open_tablebase(table_path(v), variant=v)
        rows = export_rows(tb)
        assert len(rows) == tb.header["reachable"]
        if v != fano.STANDARD:
            rows = random.Random(v.stack_cap * 10 + len(v.adjacency)).sample(rows, 20000)
        codes = np.array([fano.Position.parse(r["position"], v).code for r in rows], dtype=np.uint64)
        value, plies, valid = tb.probe_codes(codes, variant=v)
        assert value.dtype == np.uint8 and plies.dtype == np.uint16 and valid.dtype == np.bool_
        assert valid.all()
        assert np.array_equal(value, np.array([VALUE_CODE[r["value"]] for r in rows], dtype=np.uint8))
        assert np.array_equal(plies, np.array([int(r["plies"] or 0) for r in rows], dtype=np.uint16))


def test_probe_codes_mask(standard):
    codes = standard.classes()["code"]
    rng = np.random.default_rng(17)
    picks = rng.choice(codes, 1000)
    unreachable = fano.Position.parse("C/T/c/C/t/-/c w").code
    bad = np.array([2**57, 0xFF, unreachable, 2**64 - 1], dtype=np.uint64)
    mixed = np.concatenate([picks[:500], bad, picks[500:]])
    value, plies, valid = standard.probe_codes(mixed)
    assert valid.sum() == 1000 and not valid[500:504].any()
    assert (value[500:504] == 255).all() and (plies[500:504] == 0).all()
    expected = standard.probe_many([int(c) for c in picks])
    got = [(("loss", "draw", "win")[v], None if v == 1 else int(p))
           for v, p in zip(value[valid], plies[valid])]
    assert got == expected
    # Other integer dtypes and lists are converted; a 2-D array is refused.
    assert np.array_equal(standard.probe_codes([int(c) for c in picks[:10]])[0], value[:10])
    with pytest.raises(ValueError, match="one-dimensional"):
        standard.probe_codes(picks.reshape(10, 100))
    empty = standard.probe_codes(np.array([], dtype=np.uint64))
    assert all(len(a) == 0 for a in empty)


def test_stubs_cover_the_module():
    # python/fano/__init__.pyi (shipped with py.typed) names every public
    # name of the module, and nothing else.
    import ast
    stub = os.path.join(os.path.dirname(__file__), "..", "..", "python", "fano", "__init__.pyi")
    tree = ast.parse(open(stub).read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
            if isinstance(node, ast.ClassDef) and hasattr(fano, node.name):
                members = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
                public = {m for m in vars(getattr(fano, node.name))
                          if not m.startswith("_") or m in ("__enter__", "__exit__", "__len__")}
                assert public <= members, (node.name, public - members)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    public = {n for n in dir(fano) if not n.startswith("_")} | {"__version__"}
    aliases = {"_ValueName", "_Outcome", "_Moves", "_Rules", "_Code", "_Player"}
    assert public == names - aliases, (public ^ (names - aliases))


def test_get_returns_default_where_probe_raises(standard):
    # chess.syzygy's get_wdl: None (or the default) instead of an error.
    unreachable = fano.Position.parse("C/T/c/C/t/-/c w")
    with pytest.raises(fano.UnreachablePosition):
        standard.probe(unreachable)
    assert standard.get(unreachable) is None
    assert standard.get(unreachable.code, "none") == "none"
    for code in (2**57, 0xFF, fano.Position.parse("CTc/-/-/-/-/-/- b", fano.VARIANTS[2]).code):
        with pytest.raises(ValueError):
            standard.probe(code)
        assert standard.get(code) is None
    for p in sample_positions(fano.STANDARD, 21, 30):
        assert standard.get(p) == standard.probe(p) == standard.get(p.code)
    with pytest.raises(ValueError, match="variant"):
        standard.get(fano.Position.empty(fano.VARIANTS[1]))
    with pytest.raises(TypeError):
        standard.get(1.5)


def test_is_terminal_and_returns_follow_game_over():
    # pyspiel's State.is_terminal() and returns(), from game_over().
    positions = sample_positions(fano.STANDARD, 22, 200, max_plies=60)
    ended = [p for p in positions if p.game_over()]
    assert ended and len(ended) < len(positions)
    for p in positions:
        end = p.game_over()
        assert p.is_terminal() == (end is not None)
        want = (0, 0) if end is None else ((-1, 1) if end["loser"] == "white" else (1, -1))
        assert p.returns() == want, p
