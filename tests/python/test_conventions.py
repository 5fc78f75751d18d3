"""What Python code expects of the package: numpy integers wherever an int
is taken, a ValueError for an unknown name of rules, OSError subclasses for
table files that cannot be used, whole messages, one value scale, pickles
that open from any folder, close() and objects that refuse to be used
before their constructor ran.

Run by ctest (Python.Module) as test_module.py is.
"""

import os
import pickle
import shutil
import subprocess
import sys

import numpy as np
import pytest

import fano
from test_module import sample_positions, table_path


@pytest.fixture(scope="module")
def standard():
    return fano.open_tablebase(table_path(fano.STANDARD))


NUMPY_INTS = (np.uint64, np.int64, np.uint32, np.int32, np.uint8, np.intp)


def test_numpy_integer_scalars_are_ints_everywhere(standard):
    positions = sample_positions(fano.STANDARD, seed=31, count=10)
    codes = standard.classes()["code"][:50]
    # probe_many of an array's own items (numpy scalars), as its docstring says.
    assert standard.probe_many(codes) == [standard.probe(int(c)) for c in codes]
    for p in positions:
        for t in NUMPY_INTS:
            if p.code > np.iinfo(t).max:
                continue
            c = t(p.code)
            assert fano.Position.from_code(c) == p
            assert standard.probe(c) == standard.probe(p)
            assert standard.get(c) == standard.get(p)
            assert standard.probe_many([c, p]) == [standard.probe(p)] * 2
    mixed = [np.uint64(p.code) for p in positions] + [p.code for p in positions]
    value, plies, valid = standard.probe_codes(mixed)
    assert valid.all() and list(value[:10]) == list(value[10:])
    assert fano.format_positions(mixed)[:10] == [str(p) for p in positions]
    assert standard.probe_codes(codes, threads=np.int64(1))[0].tolist() == \
        standard.probe_codes(codes)[0].tolist()
    # Still not a float, a bool or numpy's bool.
    for bad in (1.0, True, np.bool_(True), np.float64(3)):
        with pytest.raises(TypeError):
            standard.probe(bad)


def test_unknown_rules_name_is_a_value_error_everywhere(standard):
    calls = [
        lambda: fano.open_tablebase(variant="nonsense"),
        lambda: fano.Position.parse("-/-/-/-/-/-/- w", "nonsense"),
        lambda: fano.Position("-/-/-/-/-/-/- w", "nonsense"),
        lambda: fano.Position.empty("nonsense"),
        lambda: fano.Position.from_code(0, "nonsense"),
        lambda: fano.parse_positions(["-/-/-/-/-/-/- w"], "nonsense"),
        lambda: fano.canonical_codes([0], "nonsense"),
        lambda: fano.format_positions([0], "nonsense"),
        lambda: fano.default_tablebase_path("nonsense"),
        lambda: fano.solve("nonsense"),
        lambda: standard.probe(0, variant="nonsense"),
        lambda: standard.probe_codes([0], variant="nonsense"),
        lambda: fano.Game("nonsense"),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="unknown rules 'nonsense'"):
            call()
    # A name works wherever a Variant does.
    assert fano.Position.empty("cap3-board").variant == fano.VARIANTS[2]
    assert fano.default_tablebase_path("cap3-board") == fano.default_tablebase_path(
        fano.VARIANTS[2])
    # Another type is still a TypeError.
    with pytest.raises(TypeError):
        fano.Position.empty(3)


def test_damaged_tables_are_os_errors(standard, tmp_path):
    good = open(standard.path, "rb").read()
    damaged = {
        "checksum": good[:len(good) // 2] + bytes([good[len(good) // 2] ^ 1]) + good[len(good) // 2 + 1:],
        "truncated": good[:len(good) // 3],
    }
    for kind, data in damaged.items():
        path = tmp_path / (kind + ".fanotb")
        path.write_bytes(data)
        with pytest.raises(OSError) as e:
            fano.open_tablebase(path)
        assert isinstance(e.value, fano.TablebaseError) and e.value.kind == kind, e.value
        assert not isinstance(e.value, FileNotFoundError)
    with pytest.raises(OSError) as e:
        fano.open_tablebase(tmp_path)  # a directory
    assert e.value.kind == "not_a_file"
    with pytest.raises(FileNotFoundError):
        fano.open_tablebase(tmp_path / "none.fanotb")
    assert issubclass(fano.TablebaseError, OSError)


def test_bad_codes_are_value_errors_alike(standard):
    for bad in (-1, 2**64, 2**57, 0xFF):
        for call in (fano.Position.from_code, standard.probe,
                     lambda c: fano.canonical_codes([c]), lambda c: fano.format_positions([c])):
            with pytest.raises(ValueError):
                call(bad)
        if 0 <= bad < 2**64:
            assert standard.get(bad) is None  # a code, of no position
        else:
            with pytest.raises(ValueError, match="not a 64-bit position code"):
                standard.get(bad)


def test_messages_keep_what_follows_a_nul_byte():
    with pytest.raises(ValueError) as e:
        fano.Position.parse("-/-/-/-/-/-/\0x w")
    assert "\\x00x" in str(e.value), str(e.value)
    with pytest.raises(ValueError) as e:
        fano.Position.empty().play("C4,\0Q")
    assert "\\x00Q" in str(e.value), str(e.value)


def test_mainline_of_a_finished_game_names_its_end(standard):
    line = [m["move"] for m in standard.mainline(moves="C1,c2")["mainline"]]
    finished = ["C1", "c2"] + line
    over = standard.analyse(moves=finished)["game_over"]
    assert over is not None
    m = standard.mainline(moves=finished)
    assert m["mainline"] == [] and m["end"] == over
    ended = [p for p in sample_positions(fano.STANDARD, 32, 300, max_plies=60) if p.game_over()]
    for p in ended[:5]:
        m = standard.mainline(p)
        assert m["end"] == p.game_over() and m["winner"] == (
            "white" if p.game_over()["loser"] == "black" else "black")


def test_pickled_table_opens_from_another_folder(tmp_path):
    shutil.copyfile(table_path(fano.STANDARD), tmp_path / "standard.fanotb")
    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        tb = fano.open_tablebase("standard.fanotb")
        assert os.path.isabs(tb.path) and tb.path == str(tmp_path / "standard.fanotb")
        data = pickle.dumps(tb)
        os.chdir("/")
        again = pickle.loads(data)
        assert again.path == tb.path and again.probe(fano.Position.empty()) == ("draw", None)
    finally:
        os.chdir(here)


def test_unwritable_cache_names_fano_tables(tmp_path):
    # A cache folder that cannot be made (its parent is a file: refused even
    # to root) is named with the way out, $FANO_TABLES.
    blocker = tmp_path / "file"
    blocker.write_text("")
    code = ("import fano\ntry:\n    fano.open_tablebase(variant='cap3-projective')\n"
            "except OSError as e:\n    print(type(e).__name__, e)\n")
    env = {k: v for k, v in os.environ.items() if k != "FANO_TABLES"}
    env.update(XDG_CACHE_HOME=str(blocker), HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("TablebaseError") and "FANO_TABLES" in r.stdout, r.stdout
    assert str(blocker) in r.stdout


def test_one_value_scale(standard):
    assert fano.VALUES == ("loss", "draw", "win")
    positions = sample_positions(fano.STANDARD, seed=33, count=40)
    value, plies, valid = standard.probe_codes([p.code for p in positions])
    for p, v, n, ok in zip(positions, value, plies, valid):
        name, scalar_plies = standard.probe(p)
        assert ok and fano.VALUES[v] == name and fano.VALUES.index(name) == v
        assert (scalar_plies if scalar_plies is not None else 0) == n
    assert "VALUES" in fano.__doc__


def test_close_releases_the_table(standard):
    tb = fano.open_tablebase(standard.path)
    assert not tb.closed
    tb.close()
    assert tb.closed
    tb.close()  # a second close does nothing
    for call in (lambda: tb.probe(0), lambda: tb.classes(), lambda: tb.header, lambda: len(tb),
                 lambda: tb.probe_codes([0]), lambda: pickle.dumps(tb)):
        with pytest.raises(ValueError, match="closed"):
            call()
    assert "closed" in repr(tb)
    with fano.open_tablebase(standard.path) as other:
        assert other.probe(fano.Position.empty()) == ("draw", None)
    assert other.closed


def test_objects_made_without_their_constructor_are_refused():
    cases = [
        (fano.Tablebase, [lambda o: o.header, repr, lambda o: o.probe(0), len]),
        (fano.Position, [str, repr, lambda o: o.code, lambda o: o.legal_moves()]),
        (fano.Variant, [lambda o: o.slug, repr, lambda o: fano.Position.empty(o)]),
        (fano.Game, [lambda o: o.legal_actions(), str, lambda o: o.clone()]),
    ]
    for cls, uses in cases:
        o = cls.__new__(cls)
        for use in uses:
            with pytest.raises(TypeError, match="not initialised"):
                use(o)
    # Pickling still makes objects through __new__ and __setstate__.
    p = fano.Position.empty().play("C4")
    assert pickle.loads(pickle.dumps(p)) == p
    assert pickle.loads(pickle.dumps(fano.VARIANTS[3])) == fano.VARIANTS[3]
