"""The array calls (probe_codes, parse_positions, canonical_codes,
format_positions, to_pandas) item by item against the scalar API
(Tablebase.probe, Position.parse, Position.from_code) and `fano export`, and
canonical codes against the symmetry they claim (the shape swap, the stored
classes' orbits).

Run by ctest (Python.Module) as test_module.py is.
"""

import array
import io
import random
import subprocess
import sys

import numpy as np
import pytest

import fano
from test_module import FANO_BIN, sample_positions, table_path

VALUE_NAMES = ("loss", "draw", "win")


@pytest.fixture(scope="module", params=fano.VARIANTS, ids=lambda v: v.slug)
def tb(request):
    return fano.open_tablebase(table_path(request.param), variant=request.param)


def variant_flags(v):
    return ["--stack-cap", str(v.stack_cap), "--adjacency", v.adjacency]


_EXPORTS = {}


def export(tb):
    """`fano export` of the table, streamed: (codes uint64, values uint8
    (0 loss, 1 draw, 2 win), every 50th row as (position, code))."""
    if tb.path not in _EXPORTS:
        p = subprocess.Popen([FANO_BIN, "export", "--tb", tb.path, *variant_flags(tb.variant)],
                             stdout=subprocess.PIPE, text=True)
        header = next(p.stdout).rstrip("\n").split(",")
        assert header == ["position", "to_move", "phase", "pieces", "value", "plies", "code"]
        codes, values, sample = array.array("Q"), array.array("B"), []
        index = {"loss": 0, "draw": 1, "win": 2}
        for i, line in enumerate(p.stdout):
            f = line.rstrip("\n").split(",")
            codes.append(int(f[6]))
            values.append(index[f[4]])
            if i % 50 == 0:
                sample.append((f[0], int(f[6])))
        assert p.wait() == 0
        _EXPORTS[tb.path] = (np.frombuffer(codes, dtype=np.uint64),
                             np.frombuffer(values, dtype=np.uint8), sample)
    return _EXPORTS[tb.path]


def export_frame(tb, classes):
    """`fano export [--classes]` read by pandas' own CSV reader."""
    import pandas
    r = subprocess.run([FANO_BIN, "export", "--tb", tb.path, *variant_flags(tb.variant),
                        *(["--classes"] if classes else [])], capture_output=True, check=True)
    return pandas.read_csv(io.BytesIO(r.stdout), dtype={"code": np.uint64},
                           keep_default_na=False)


def random_codes(variant, seed, count):
    """Codes of every kind: positions of random games, random legal-looking
    boards (many unreachable, some not positions of the variant: a stack over
    the cap, wrong counts), random 64-bit numbers and the corner cases."""
    rng = random.Random(seed)
    codes = [p.code for p in sample_positions(variant, seed, count // 2)]
    pieces = "CTct"
    while len(codes) < count * 9 // 10:
        stacks = ["".join(rng.sample(pieces, rng.choice((0, 0, 1, 1, 2, 3)))) or "-"
                  for _ in range(7)]
        text = "/".join(stacks) + " " + rng.choice("wb")
        try:
            codes.append(fano.Position.parse(text, fano.Variant(3, variant.adjacency)).code)
        except ValueError:
            pass
    while len(codes) < count:
        codes.append(rng.getrandbits(rng.choice((8, 57, 64))))
    codes += [0, 2**56, 2**57, 0xFF, 2**64 - 1]
    return codes


def scalar_probe(tb, code):
    """Tablebase.probe of one int code: (value, plies) or None when it raises."""
    try:
        return tb.probe(code, variant=tb.variant)
    except ValueError:  # not a position of the variant, or UnreachablePosition
        return None


# ---------------------------------------------------------------- probe_codes

def test_probe_codes_equal_probe_item_by_item(tb):
    codes = random_codes(tb.variant, 7, 3000)
    value, plies, valid = tb.probe_codes(np.array(codes, dtype=np.uint64), variant=tb.variant)
    assert 0 < valid.sum() < len(codes)  # both kinds are there
    for i, c in enumerate(codes):
        want = scalar_probe(tb, c)
        if want is None:
            assert not valid[i] and value[i] == 255 and plies[i] == 0, c
        else:
            assert valid[i], c
            assert (VALUE_NAMES[value[i]], None if value[i] == 1 else int(plies[i])) == want, c


def test_probe_codes_same_for_any_thread_count_and_dtype(tb):
    codes = np.array(random_codes(tb.variant, 8, 40000), dtype=np.uint64)
    v = tb.variant
    first = tb.probe_codes(codes, variant=v, threads=1)
    for other in (tb.probe_codes(codes, variant=v, threads=2), tb.probe_codes(codes, variant=v),
                  tb.probe_codes(codes.tolist(), variant=v)):
        for a, b in zip(first, other):
            assert np.array_equal(a, b)
    small = codes[codes < 2**63]
    assert all(np.array_equal(a, b) for a, b in
               zip(tb.probe_codes(small.astype(np.int64), variant=v),
                   tb.probe_codes(small, variant=v)))


def test_probe_codes_refuses_what_is_not_integers(standard):
    with pytest.raises(TypeError, match="integers"):
        standard.probe_codes(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="item 1 must be an int code, not str"):
        standard.probe_codes([0, "C/-/-/-/-/-/- b", 2**64 - 1])
    with pytest.raises(ValueError, match="threads"):
        standard.probe_codes([0], threads=-1)
    # A negative int is not valid (never wraps to a position's code).
    for negative in (np.array([-1, 0], dtype=np.int64), [-1, 0]):
        assert standard.probe_codes(negative)[2].tolist() == [False, True]
    with pytest.raises(TypeError, match="not str"):
        standard.probe_codes("C/-/-/-/-/-/- b")
    assert all(len(a) == 0 for a in standard.probe_codes([]))


@pytest.fixture(scope="module")
def standard():
    return fano.open_tablebase(table_path(fano.STANDARD))


# ---------------------------------------------------------------- parse_positions

def test_parse_positions_equal_parse_item_by_item(tb):
    _, _, sample = export(tb)
    texts = [t for t, _ in sample] + [str(p) for p in sample_positions(tb.variant, 4, 50)]
    codes = fano.parse_positions(texts, tb.variant)
    assert codes.dtype == np.uint64 and len(codes) == len(texts)
    assert codes.tolist() == [fano.Position.parse(t, tb.variant).code for t in texts]
    # A numpy array of str, a generator: the same codes.
    assert np.array_equal(fano.parse_positions(np.array(texts), tb.variant), codes)
    assert np.array_equal(fano.parse_positions((t for t in texts), tb.variant), codes)
    # The export's own code column says the same.
    assert codes[:len(sample)].tolist() == [c for _, c in sample]


@pytest.mark.parametrize("bad", ["-/-/-/-/-/-/- x", "C/C/C/-/-/-/- w", "CTc/-/-/-/-/-/- b", ""])
def test_parse_positions_names_the_first_bad_item(bad):
    texts = ["-/-/-/-/-/-/- w", "C/-/-/-/-/-/- b", bad, "also bad"]
    with pytest.raises(ValueError) as e:
        fano.parse_positions(texts * 3000)  # the bad one is first in several blocks
    with pytest.raises(ValueError) as scalar:
        fano.Position.parse(bad)
    assert e.value.index == 2
    assert str(e.value) == "item 2: " + str(scalar.value)


def test_parse_positions_refuses_what_is_not_strings():
    with pytest.raises(TypeError, match="item 1 must be a str, not int"):
        fano.parse_positions(["-/-/-/-/-/-/- w", 5])
    with pytest.raises(TypeError, match="not one string"):
        fano.parse_positions("-/-/-/-/-/-/- w")
    assert len(fano.parse_positions([])) == 0


# ---------------------------------------------------------------- canonical_codes

def swap_shapes(text):
    return text.translate(str.maketrans("CTct", "TCtc"))


def test_canonical_codes_are_the_stored_classes(tb):
    # Every reachable position (the export's code column) maps to a stored
    # class with its value and plies, and each class is met as many times as
    # its orbit says: the symmetry group the table was reduced by.
    codes, value, _ = export(tb)
    canon = fano.canonical_codes(codes, tb.variant)
    c = tb.classes()
    at = np.searchsorted(c["code"], canon)
    assert np.array_equal(c["code"][at], canon)
    assert np.array_equal(c["value"][at], value)
    assert np.array_equal(np.bincount(at, minlength=len(c["code"])), c["orbit"])
    assert (canon <= codes).all()
    assert np.array_equal(fano.canonical_codes(canon, tb.variant), canon)
    assert np.array_equal(fano.canonical_codes(codes, tb.variant, threads=1), canon)


def test_canonical_codes_invariant_under_the_shape_swap(tb):
    # Positions that need not be reachable (random legal boards): a position
    # and its shape-swapped image (written out in notation) have one
    # canonical code, and it is the least of the codes of its class members.
    v = tb.variant
    codes = [c for c in random_codes(v, 11, 4000) if scalar_probe(tb, c) is not None
             or _is_position(c, v)]
    swapped = [fano.Position.parse(swap_shapes(str(fano.Position.from_code(c, v))), v).code
               for c in codes]
    a = fano.canonical_codes(codes, v)
    assert np.array_equal(a, fano.canonical_codes(swapped, v))
    assert (a <= np.minimum(np.array(codes, dtype=np.uint64),
                            np.array(swapped, dtype=np.uint64))).all()


def _is_position(code, v):
    try:
        fano.Position.from_code(code, v)
        return True
    except ValueError:
        return False


def test_canonical_codes_names_the_first_bad_item(standard):
    cap3 = fano.Position.parse("CTc/-/-/-/-/-/- b", fano.Variant(3, "board")).code
    for bad in (cap3, 0xFF, 2**57):
        codes = [0, fano.Position.parse("C/-/-/-/-/-/- b").code, bad, 2**64 - 1] * 5000
        with pytest.raises(ValueError) as e:
            fano.canonical_codes(codes)
        with pytest.raises(ValueError) as scalar:
            fano.Position.from_code(bad)
        assert e.value.index == 2
        assert str(e.value).startswith("item 2: " + str(scalar.value))
    for negative in (np.array([0, -5], dtype=np.int64), [0, -5]):
        with pytest.raises(ValueError, match="item 1: a negative number is not a position code"):
            fano.canonical_codes(negative)
    with pytest.raises(ValueError, match="item 1: 18446744073709551616 is not a 64-bit"):
        fano.canonical_codes([0, 2**64])


def test_format_positions_equal_from_code(tb):
    codes = tb.classes()["code"][:3000]
    assert fano.format_positions(codes, tb.variant) == [
        str(fano.Position.from_code(int(c), tb.variant)) for c in codes]
    with pytest.raises(ValueError) as e:
        fano.format_positions([0, 0xFF], tb.variant)
    assert e.value.index == 1 and "malformed" in str(e.value)


# ---------------------------------------------------------------- to_pandas

def test_to_pandas_without_pandas_says_so(tmp_path):
    code = ("import sys; sys.modules['pandas'] = None\n"
            "import fano\n"
            f"tb = fano.open_tablebase({table_path(fano.STANDARD)!r})\n"
            "try:\n    tb.to_pandas()\nexcept ImportError as e:\n    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "to_pandas() needs pandas" in r.stdout and "python3-pandas" in r.stdout


def check_frame(df, csv):
    """A DataFrame against the export read by pandas' CSV reader."""
    import pandas
    assert list(df.columns) == list(csv.columns)
    assert len(df) == len(csv)
    for name in ("position", "to_move", "phase", "value"):
        assert (df[name].astype(str) == csv[name]).all(), name
    assert (df["pieces"].astype(int) == csv["pieces"]).all()
    assert (df["plies"].isna() == (csv["plies"] == "")).all()
    plies = csv["plies"][csv["plies"] != ""].astype(int)
    assert (df["plies"][plies.index].astype(int) == plies).all()
    assert (df["code"] == csv["code"]).all()
    if "orbit" in csv.columns:
        assert (df["orbit"] == csv["orbit"]).all()
    assert isinstance(df["value"].dtype, pandas.CategoricalDtype) and df["value"].cat.ordered
    assert df["value"].cat.categories.tolist() == ["loss", "draw", "win"]
    assert str(df["plies"].dtype) == "UInt16" and str(df["pieces"].dtype) == "UInt8"


def test_to_pandas_classes_equal_export(tb):
    pytest.importorskip("pandas")
    df = tb.to_pandas()
    check_frame(df, export_frame(tb, classes=True))
    c = tb.classes()
    assert np.array_equal(df["code"].to_numpy(), c["code"])
    assert np.array_equal(df["value"].cat.codes.to_numpy(), c["value"])
    assert df["code"][:500].tolist() == [fano.Position.parse(p, tb.variant).code
                                         for p in df["position"][:500]]


def test_to_pandas_positions_equal_export(standard):
    pytest.importorskip("pandas")
    check_frame(standard.to_pandas(rows="positions"), export_frame(standard, classes=False))


def test_to_pandas_of_codes_equals_probe(tb):
    pd = pytest.importorskip("pandas")
    codes = random_codes(tb.variant, 12, 2000)
    df = tb.to_pandas(codes, variant=tb.variant)
    assert list(df.columns) == ["position", "to_move", "phase", "pieces", "value", "plies", "code"]
    assert df["code"].tolist() == codes
    for i, c in enumerate(codes):
        want = scalar_probe(tb, c)
        value, plies = df["value"][i], df["plies"][i]
        if want is None:
            assert pd.isna(value) and pd.isna(plies), c
        else:
            assert (value, None if pd.isna(plies) else int(plies)) == want, c
        if _is_position(c, tb.variant):
            p = fano.Position.from_code(c, tb.variant)
            assert (df["position"][i], df["to_move"][i], df["pieces"][i]) == (
                str(p), p.to_move, p.pieces_on_board)
            assert df["phase"][i] == ("placement" if p.placement_phase else "movement")
        else:
            assert df["position"][i] is None and pd.isna(df["to_move"][i]), c
    with pytest.raises(ValueError, match="rows"):
        tb.to_pandas(rows="games")


FIRST_CALLS_FROM_TWO_THREADS = r"""
import sys, threading
import fano
tb = fano.open_tablebase(sys.argv[1])
calls = {
    "classes": lambda: tb.classes(),
    "probe_codes": lambda: tb.probe_codes([0, 1]),
    "parse_positions": lambda: fano.parse_positions(["-/-/-/-/-/-/- w"]),
    "canonical_codes": lambda: fano.canonical_codes([0]),
}
call = calls[sys.argv[2]]
threads = [threading.Thread(target=call) for _ in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("ok")
"""


@pytest.mark.parametrize("call", ["classes", "probe_codes", "parse_positions", "canonical_codes"])
def test_first_array_calls_from_two_threads_do_not_hang(call):
    # The threads start before any array call of this interpreter: both first
    # calls import numpy and look its C API up at once.
    for _ in range(5):
        r = subprocess.run([sys.executable, "-c", FIRST_CALLS_FROM_TWO_THREADS,
                            table_path(fano.STANDARD), call],
                           capture_output=True, text=True, timeout=20)
        assert r.returncode == 0 and r.stdout == "ok\n", r.stderr


def test_children_best_moves_and_keeping_counts_item_by_item(tb):
    v = tb.variant
    positions = sample_positions(v, seed=41, count=60, max_plies=50)
    codes = np.array([p.code for p in positions], dtype=np.uint64)
    offsets, children = tb.children(codes, variant=v)
    best_off, best = tb.best_moves(codes, variant=v, threads=1)
    counts = tb.keeping_counts(codes, variant=v)
    assert len(offsets) == len(best_off) == len(codes) + 1 and len(counts) == len(codes)
    for i, p in enumerate(positions):
        game = fano.Game(v, position=p)
        actions = game.legal_actions()
        # Independently: each action played on a Game, each child probed.
        want_children, results = [], []
        for a in actions:
            g = game.clone()
            g.apply_action(a)
            want_children.append(g.position.code)
            end = g.game_over()
            if end is not None:  # the mover's line or the opponent's lack of moves
                results.append("win" if end["loser"] != p.to_move else "loss")
            else:
                results.append({"win": "loss", "loss": "win", "draw": "draw"}[tb.probe(g.position)[0]])
        assert children[offsets[i]:offsets[i + 1]].tolist() == want_children, p
        best_value = max(results, key=VALUE_NAMES.index) if results else None
        keeping = [a for a, r in zip(actions, results) if r == best_value]
        assert best[best_off[i]:best_off[i + 1]].tolist() == keeping, p
        assert counts[i] == len(keeping)
        if results:
            assert best_value == tb.probe(p)[0]
    # The same for any thread count; bad codes named by index.
    again = tb.children(codes, variant=v, threads=2)
    assert np.array_equal(again[0], offsets) and np.array_equal(again[1], children)
    with pytest.raises(ValueError, match="item 1"):
        tb.keeping_counts([codes[0], 0xFF], variant=v)


def test_parse_positions_reads_the_bytes_of_a_file_of_lines(tb):
    positions = sample_positions(tb.variant, seed=42, count=50)
    text = "".join(f"{p}\n" for p in positions)
    want = fano.parse_positions([str(p) for p in positions], tb.variant)
    for blob in (text.encode(), text.replace("\n", "\r\n").encode(), text.encode()[:-1],
                 bytearray(text.encode()), memoryview(text.encode())):
        assert np.array_equal(fano.parse_positions(blob, tb.variant), want)
    with pytest.raises(ValueError, match="item 2"):
        fano.parse_positions(b"-/-/-/-/-/-/- w\n-/-/-/-/-/-/- w\n\n-/-/-/-/-/-/- w\n")
    assert len(fano.parse_positions(b"")) == 0


@pytest.mark.parametrize("classes", [False, True])
def test_export_writes_the_commands_bytes(tb, tmp_path, classes):
    if not classes and tb.variant != fano.STANDARD:
        pytest.skip("every position: the standard table only (size)")
    ours, theirs = tmp_path / "py.csv", tmp_path / "cli.csv"
    rows = tb.export(ours, classes=classes)
    cmd = [FANO_BIN, "export", "--tb", tb.path, "--out", str(theirs)] + (
        ["--classes"] if classes else [])
    subprocess.run(cmd, check=True, capture_output=True)
    assert ours.read_bytes() == theirs.read_bytes()
    header = tb.header
    assert rows == (header["canonical"] if classes else header["reachable"])
    with pytest.raises(ValueError, match="format"):
        tb.export(ours, format="xml")


NUMPY_WHEN_FIRST_NEEDED = r"""
import sys
import fano
assert "numpy" not in sys.modules, "imported with the module"
tb = fano.open_tablebase(sys.argv[1])
assert tb.probe(fano.Position.parse("-/-/-/C/-/-/- b")) is not None
assert tb.export(sys.argv[2]) == tb.header["reachable"]
fano.solve(fano.Variant("standard-1c1t"))
assert "numpy" not in sys.modules, "imported by a call that makes no array"
value, plies, valid = tb.probe_codes([0])
assert "numpy" in sys.modules and type(value).__module__ == "numpy"
print("ok")
"""


def test_numpy_is_imported_by_the_first_array_call_not_with_the_module(tmp_path):
    # numpy is most of a short script's start (its memory and time): the
    # scalar calls, the export, the files and the solver do without it.
    r = subprocess.run([sys.executable, "-c", NUMPY_WHEN_FIRST_NEEDED, table_path(fano.STANDARD),
                        str(tmp_path / "standard.csv")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout == "ok\n", r.stderr
    with open(tmp_path / "standard.csv", "rb") as f:
        assert f.readline().startswith(b"position,")
