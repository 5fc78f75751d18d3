"""The Python module against the fano command and the tables' headers.

Run by ctest (Python.Module) with PYTHONPATH pointing at the build tree's
module, FANO_BIN at the fano command and FANO_TABLES at the tables folder.
"""

import json
import os
import pickle
import random
import shutil
import subprocess
import tempfile
import threading

import numpy as np
import pytest

import fano

FANO_BIN = os.environ.get("FANO_BIN", "fano")
TABLES = os.environ.get("FANO_TABLES", "")


_SOLVED = {}


def table_path(variant):
    """The variant's table in FANO_TABLES; solved into a temporary folder
    (once per run) when that folder lacks it (tables/ is not committed)."""
    path = fano.default_tablebase_path(variant)
    if os.path.exists(path):
        return path
    if variant not in _SOLVED:
        folder = _SOLVED.setdefault("dir", tempfile.mkdtemp(prefix="fano-tables-"))
        _SOLVED[variant] = os.path.join(folder, variant.slug + ".fanotb")
        fano.solve(variant, path=_SOLVED[variant])
    return _SOLVED[variant]


@pytest.fixture(scope="module", params=fano.VARIANTS, ids=lambda v: v.slug)
def tb(request):
    return fano.open_tablebase(table_path(request.param), variant=request.param)


@pytest.fixture(scope="module")
def standard():
    return fano.open_tablebase(table_path(fano.STANDARD))


def sample_positions(variant, seed, count=20, max_plies=40):
    """Positions from seeded random playouts from the empty board: every
    position along each playout until `count` are collected (so placement and
    movement positions both occur), ended games included."""
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < count:
        pos = fano.Position.empty(variant)
        plies = rng.randrange(4, max_plies)
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        if pos not in seen:
            seen.add(pos)
            out.append(pos)
    return out


def cli_query(path, position):
    r = subprocess.run(
        [FANO_BIN, "query", "--json", "--tb", path, str(position)],
        capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def test_variants():
    assert fano.STANDARD == fano.Variant()
    assert fano.STANDARD == fano.Variant(2, "board")
    assert len(fano.VARIANTS) == 4 and fano.VARIANTS[0] == fano.STANDARD
    assert len(set(fano.VARIANTS)) == 4
    v = fano.Variant(stack_cap=3, adjacency="projective")
    assert (v.stack_cap, v.adjacency, v.slug) == (3, "projective", "cap3-projective")
    assert repr(v) == "Variant(stack_cap=3, adjacency='projective')"
    assert v != fano.STANDARD
    with pytest.raises(ValueError, match="stack_cap"):
        fano.Variant(stack_cap=4)
    with pytest.raises(ValueError, match="adjacency"):
        fano.Variant(adjacency="torus")


def test_rules_by_name(tmp_path):
    v = fano.Variant.from_name("cap3-projective-colour")
    assert (v.stack_cap, v.adjacency, v.line_rule, v.circles, v.triangles) == (
        3, "projective", "colour", 2, 2)
    assert v.slug == "cap3-projective-colour" and v != fano.Variant(3, "projective")
    assert fano.Variant.from_name("cap3-projective") == fano.Variant(3, "projective")
    small = fano.Variant.from_name("standard-2c1t")
    assert repr(small) == "Variant.from_name('standard-2c1t')"
    assert pickle.loads(pickle.dumps(small)) == small and hash(small) != hash(fano.STANDARD)
    with pytest.raises(ValueError, match="unknown rules 'cap4'"):
        fano.Variant.from_name("cap4")
    # A name is a Variant wherever one is expected; EVERY_RULES is every reading.
    assert fano.Variant("standard-2c1t") == small
    assert fano.Position.parse("CT/c/C/t/c/-/- w", "standard-2c1t").variant == small
    with pytest.raises(ValueError, match="unknown rules 'cap4'"):
        fano.Variant("cap4")
    with pytest.raises(ValueError, match="unknown rules 'cap4'"):
        fano.Position.empty("cap4")
    names = [r.slug for r in fano.EVERY_RULES]
    assert len(names) == len(set(names)) == 72 and fano.EVERY_RULES[:4] == fano.VARIANTS
    assert all(fano.Variant(n) == r for n, r in zip(names, fano.EVERY_RULES))
    # The keywords are the rules options' description (fano rules --json):
    # each option a keyword with its default, each value accepted, the
    # readings spanned; a value out of range is a ValueError naming the values.
    options = fano.rules_options()
    assert [o["key"] for o in options] == ["stack_cap", "adjacency", "line_rule", "circles",
                                          "triangles"]
    assert fano.Variant(**{o["key"]: o["default"] for o in options}) == fano.STANDARD
    for o in options:
        for value in o["values"]:
            v = fano.Variant(**{o["key"]: value["value"]})
            assert getattr(v, o["key"]) == value["value"], (o["key"], value)
        with pytest.raises(ValueError, match=o["key"] + " must be "):
            fano.Variant(**{o["key"]: 7 if isinstance(o["default"], int) else "torus"})
        with pytest.raises(TypeError, match=o["key"] + " must be an? (int|str)"):
            fano.Variant(**{o["key"]: "7" if isinstance(o["default"], int) else 7})
    spanned = {fano.Variant(stack_cap=c, adjacency=a, line_rule=l, circles=n, triangles=t).slug
               for c in (2, 3) for a in ("board", "projective")
               for l in ("colour-or-shape", "colour") for n in (1, 2, 3) for t in (1, 2, 3)}
    assert spanned == set(names)
    # Every reading's properties, pickle and repr carry every option: a
    # reading read back either way is the same reading.
    for r in fano.EVERY_RULES:
        state = {o["key"]: getattr(r, o["key"]) for o in options}
        assert fano.Variant(**state) == r, r.slug
        assert pickle.loads(pickle.dumps(r)) == r, r.slug
        assert eval(repr(r), {"Variant": fano.Variant}) == r, repr(r)
    assert fano.Variant(circles=np.int64(3)).circles == 3
    # Placement ends when the rules' pieces are on the board: 3 each here.
    p = fano.Position.parse("CT/c/C/t/c/-/- w", small)
    assert not p.placement_phase
    fano.solve(small, path=str(tmp_path / "small.fanotb"))
    tb = fano.open_tablebase(str(tmp_path / "small.fanotb"))
    assert tb.variant == small
    value, plies = tb.probe(p)
    assert value in ("win", "loss", "draw")


def test_position_basics():
    p = fano.Position.parse("-/-/-/-/-/-/- w")
    assert p == fano.Position.empty() and hash(p) == hash(fano.Position.empty())
    assert str(p) == "-/-/-/-/-/-/- w" and p.to_move == "white" and p.code == 0
    assert p.variant == fano.STANDARD
    assert p.legal_moves() == [f"C{s}" for s in range(1, 8)] + [f"T{s}" for s in range(1, 8)]
    q = p.play("C4")
    assert str(q) == "-/-/-/C/-/-/- b" and q.to_move == "black"
    assert str(p) == "-/-/-/-/-/-/- w"  # immutable
    assert fano.Position.from_code(q.code) == q
    assert p.play("C4,t3") == q.play("t3")
    assert repr(q) == "Position('-/-/-/C/-/-/- b')"
    assert p.game_over() is None
    assert fano.Position("-/-/-/-/-/-/- w", fano.VARIANTS[2]) != p


def test_game_over_line():
    # Line {1,2,4}: three white pieces on top, Black to move: White made it and lost.
    p = fano.Position.parse("C/T/c/C/t/T/t b")
    end = p.game_over()
    assert end["reason"] == "line" and end["line"] == [1, 2, 4] and end["loser"] == "white"
    assert "{1,2,4}" in end["text"]
    assert p.legal_moves() == []
    with pytest.raises(ValueError):
        p.play("1-2")


def test_bad_notation():
    with pytest.raises(ValueError, match="expected 7 stacks"):
        fano.Position.parse("-/-/- w")
    with pytest.raises(ValueError, match="X"):
        fano.Position.parse("X/-/-/-/-/-/- w")
    with pytest.raises(ValueError, match="Q9"):
        fano.Position.empty().play("Q9")
    with pytest.raises(ValueError, match="7-5"):
        fano.Position.empty().play("7-5")
    with pytest.raises(ValueError):
        fano.Position.from_code(1 << 60)


def test_answers_equal_cli(tb):
    path = tb.path
    for i, pos in enumerate(sample_positions(tb.variant, seed=1234 + tb.variant.stack_cap)):
        ours = tb.analyse(pos)
        theirs = cli_query(path, pos)
        assert ours == theirs, str(pos)
        line = tb.mainline(pos)
        assert [m["move"] for m in line["mainline"]] == ours["pv"]
        assert (line["value"], line["plies"]) == (ours["value"], ours["plies"])
        # One vocabulary: each move's result is its mover's; best play keeps
        # the value, so the first mover's result is the position's value.
        if line["mainline"]:
            first = line["mainline"][0]
            assert (first["result"], first["plies"]) == (ours["value"], ours["plies"])
        value, plies = tb.probe(pos)
        assert (value, plies) == (ours["table_value"], ours["table_plies"])
        assert tb.probe(pos.code, variant=pos.variant) == (value, plies)
        over = pos.game_over()
        assert over == ours["game_over"]
        assert sorted(m["move"] for m in ours["moves"]) == sorted(pos.legal_moves())
    samples = sample_positions(tb.variant, seed=99)
    assert any(not p.placement_phase for p in samples)


def test_probe_agrees_with_moves(tb):
    # The value of a position follows from its successors' probes.
    for pos in sample_positions(tb.variant, seed=7):
        if pos.game_over():
            continue
        value, plies = tb.probe(pos)
        children = [tb.probe(pos.play(m)) for m in pos.legal_moves()]
        if value == "win":
            assert ("loss", plies - 1) in children
        elif value == "draw":
            assert ("draw", None) in children and all(v != "loss" for v, _ in children)
        else:
            assert all(v == "win" for v, _ in children)
            assert max(p for _, p in children) == plies - 1


def test_analyse_moves_history(standard):
    r = standard.analyse(moves="C4,t3")
    assert r == cli_query_moves(standard.path, "C4,t3")
    assert r["position"] == str(fano.Position.empty().play("C4,t3"))
    with pytest.raises(ValueError, match="T4"):  # a third piece on a stack of 2
        standard.analyse(moves="C4,c4,T4")
    with pytest.raises(TypeError):
        standard.analyse()


def cli_query_moves(path, moves):
    r = subprocess.run([FANO_BIN, "query", "--json", "--tb", path, "--moves", moves],
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def test_repetition_in_moves(standard):
    # Play the principal variation of a drawn position until the game repeats.
    pv = [m["move"] for m in standard.mainline(fano.Position.empty())["mainline"]]
    r = standard.analyse(moves=",".join(pv))
    assert r == cli_query_moves(standard.path, ",".join(pv))
    assert r["game_over"]["reason"] == "repetition" and r["game_over"]["loser"] is None


def test_unreachable(standard):
    p = fano.Position.parse("C/T/c/C/t/-/c w")
    with pytest.raises(fano.UnreachablePosition, match="no game reaches") as e:
        standard.probe(p)
    assert isinstance(e.value, ValueError)
    with pytest.raises(fano.UnreachablePosition):
        standard.analyse(p)
    with pytest.raises(fano.UnreachablePosition):
        standard.probe_many([fano.Position.empty(), p])


def test_wrong_variant_position(standard):
    with pytest.raises(ValueError, match="variant"):
        standard.probe(fano.Position.empty(fano.VARIANTS[1]))


def test_missing_table(tmp_path):
    with pytest.raises(fano.TablebaseError) as e:
        fano.open_tablebase(tmp_path / "nothing.fanotb")
    assert e.value.kind == "missing"
    assert "nothing.fanotb" in str(e.value)


def test_corrupted_table(tmp_path):
    copy = tmp_path / "standard.fanotb"
    shutil.copyfile(table_path(fano.STANDARD), copy)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0x40
    copy.write_bytes(bytes(data))
    with pytest.raises(fano.TablebaseError) as e:
        fano.open_tablebase(str(copy))
    assert e.value.kind == "checksum"
    assert "checksum" in str(e.value)


def test_wrong_variant_table():
    with pytest.raises(fano.TablebaseError) as e:
        fano.open_tablebase(table_path(fano.STANDARD), variant=fano.VARIANTS[1])
    assert e.value.kind == "wrong_variant"
    # With a path and no variant the file's own variant is taken.
    assert fano.open_tablebase(table_path(fano.VARIANTS[3])).variant == fano.VARIANTS[3]


def test_default_path():
    if not TABLES:
        pytest.skip("FANO_TABLES is not set")
    assert fano.default_table_dir() == (TABLES, "FANO_TABLES")
    for v in fano.VARIANTS:
        assert fano.default_tablebase_path(v) == os.path.join(TABLES, v.slug + ".fanotb")


def test_probe_many_threads(standard):
    codes = standard.classes()["code"]
    rng = np.random.default_rng(5)
    picks = [int(c) for c in rng.choice(codes, 20000)]
    expected = [standard.probe(c) for c in picks]
    positions = [fano.Position.from_code(c) for c in picks[:2000]]
    assert standard.probe_many(positions) == expected[:2000]
    results = [None] * 4
    errors = []

    def work(i):
        try:
            results[i] = standard.probe_many(picks)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(r == expected for r in results)


def test_classes(tb):
    c = tb.classes()
    h = tb.header
    n = len(tb)
    assert n == h["canonical"]
    for key, dtype in (("code", np.uint64), ("value", np.uint8), ("plies", np.uint16),
                       ("orbit", np.uint32)):
        assert len(c[key]) == n and c[key].dtype == dtype
    assert int(c["orbit"].sum()) == h["reachable"]
    assert int(c["orbit"][c["value"] == 2].sum()) == h["win"]
    assert int(c["orbit"][c["value"] == 0].sum()) == h["loss"]
    assert int(c["orbit"][c["value"] == 1].sum()) == h["draw"]
    assert np.all(c["plies"][c["value"] == 1] == 0)
    assert np.all(np.diff(c["code"].astype(np.int64)) > 0)
    for i in (0, n // 3, n - 1):
        v, p = tb.probe(int(c["code"][i]), variant=tb.variant)
        assert v == ("loss", "draw", "win")[c["value"][i]]
        assert (p or 0) == c["plies"][i]


def test_solve_matches_header(standard, tmp_path):
    out = tmp_path / "solved.fanotb"
    stats = fano.solve(fano.STANDARD, path=out)
    h = standard.header
    for key in ("reachable", "placement", "movement", "canonical", "win", "loss", "draw"):
        assert stats[key] == h[key], key
    assert stats["start"] == {"value": "draw", "plies": None}
    assert stats["stack_cap"] == 2 and stats["adjacency"] == "board"
    assert out.read_bytes() == open(standard.path, "rb").read()
    assert fano.open_tablebase(out).header == h
