"""Python.PipInstallIntoVenv: the package installed as a user installs it.

A fresh `python3 -m venv --system-site-packages` (Debian's numpy), then
`pip install --no-build-isolation <repo>`; fano imported from a folder
outside the source tree: its version and metadata, the default table solved
into a fresh cache folder and answering as `fano query`, pickling; `pip
show`; a wheel made with `python3 -m build --no-isolation --wheel` (the
stub, py.typed, the licence and its metadata; no project URLs), installed
into a fresh venv of its own and probed from two threads at once; `pip
uninstall -y fano`. The C++ is compiled once into $FANO_PIP_BUILD_DIR (kept
between runs by ctest's build tree).

Environment: REPO (the source tree), WORK (a scratch folder), FANO_BIN,
FANO_VERSION (CMakeLists.txt's), FANO_PIP_BUILD_DIR.
"""

import json
import os
import shutil
import subprocess
import sys
import time

REPO = os.environ["REPO"]
WORK = os.path.abspath(os.environ["WORK"])
FANO_BIN = os.environ["FANO_BIN"]
VERSION = os.environ["FANO_VERSION"]

VENV = os.path.join(WORK, "venv")
CACHE = os.path.join(WORK, "cache")
OUTSIDE = os.path.join(WORK, "outside")
DIST = os.path.join(WORK, "dist")

ENV = {k: v for k, v in os.environ.items()
       if k not in ("PYTHONPATH", "FANO_TABLES", "VIRTUAL_ENV", "PYTHONHOME")}
ENV["XDG_CACHE_HOME"] = CACHE


def run(*cmd, cwd=OUTSIDE, check=True):
    start = time.monotonic()
    r = subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True)
    took = time.monotonic() - start
    print(f"$ {' '.join(cmd)}  ({took:.1f} s, exit {r.returncode})", flush=True)
    if check and r.returncode != 0:
        print(r.stdout[-4000:], r.stderr[-4000:], sep="\n")
        sys.exit(f"failed: {' '.join(cmd)}")
    return r


CHECK = r'''
import importlib.metadata, json, os, pickle, sys
import fano
out = {}
out["file"] = fano.__file__
out["version"] = fano.__version__
out["metadata_version"] = importlib.metadata.version("fano")
meta = importlib.metadata.metadata("fano")
out["metadata"] = {"type": meta["Description-Content-Type"],
                   "extras": meta.get_all("Provides-Extra"),
                   "requires": meta.get_all("Requires-Dist"),
                   "description": (meta.get_payload() or meta["Description"] or "")[:200]}
out["files"] = sorted(os.listdir(os.path.dirname(fano.__file__)))
out["table_dir"] = fano.default_table_dir()
out["cache_dir"] = fano.cache_dir()
import threading
tb0 = fano.open_tablebase()
# Two threads whose first array calls are at once (none made before).
threads = [threading.Thread(target=tb0.classes) for _ in range(2)]
threads += [threading.Thread(target=fano.parse_positions, args=(["-/-/-/-/-/-/- w"],))
            for _ in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join(60)
out["threads_done"] = not any(t.is_alive() for t in threads)
tb0.close()
out["graded"] = fano.grade("perfect", 4, opponent="random", seed=1)["blunders"]["total"]
with fano.open_tablebase() as tb:
    out["path"] = tb.path
    p = fano.Position.empty().play(["C4", "t3"])
    out["probe"] = tb.probe(p)
    out["position"] = str(p)
    out["pickled"] = pickle.loads(pickle.dumps(p)) == p
    tb2 = pickle.loads(pickle.dumps(tb))
    out["tb_pickled"] = (tb2.path, tb2.probe(p)) == (tb.path, tb.probe(p))
    out["class"] = type(tb).__module__ + "." + type(tb).__qualname__
    # The array calls: positions parsed, probed and canonicalised at once.
    codes = fano.parse_positions([str(p), "-/-/-/-/-/-/- w"])
    value, plies, valid = tb.probe_codes(codes)
    out["arrays"] = {"codes": codes.tolist(), "value": value.tolist(), "plies": plies.tolist(),
                     "valid": valid.tolist(), "code": p.code,
                     "canonical": fano.canonical_codes(codes).tolist(),
                     "classes": tb.classes()["code"].tolist()}
cap3 = fano.open_tablebase(variant=fano.VARIANTS[2])
out["cap3"] = cap3.path
print(json.dumps(out))
'''

# The wheel's own venv: the module from there, one table probed by two
# threads at once, each answer the same.
WHEEL_CHECK = r'''
import json, threading
import fano
tb = fano.open_tablebase()
p = fano.Position.empty().play(["C7"])
answers = [None, None]
def probe(i):
    answers[i] = list(tb.probe(p))
threads = [threading.Thread(target=probe, args=(i,)) for i in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join(60)
print(json.dumps({"file": fano.__file__, "answers": answers}))
'''


def main():
    shutil.rmtree(VENV, ignore_errors=True)
    shutil.rmtree(CACHE, ignore_errors=True)
    shutil.rmtree(DIST, ignore_errors=True)
    os.makedirs(OUTSIDE, exist_ok=True)
    untracked_before = set(run("git", "-C", REPO, "status", "--porcelain", "--ignored",
                               check=False).stdout.splitlines())

    run(sys.executable, "-m", "venv", "--system-site-packages", VENV)
    pip = os.path.join(VENV, "bin", "pip")
    python = os.path.join(VENV, "bin", "python")
    run(pip, "install", "--no-cache-dir", "--no-build-isolation", REPO)

    r = run(python, "-c", CHECK)
    got = json.loads(r.stdout)
    print(json.dumps({k: v for k, v in got.items() if k != "arrays"}, indent=1))
    assert got["file"].startswith(VENV), got["file"]
    assert got["version"] == got["metadata_version"] == VERSION, got
    # The README as the long description, the pandas extra.
    meta = got.pop("metadata")
    with open(os.path.join(REPO, "README.md")) as f:
        readme_start = f.read(200)
    assert meta["type"] == "text/markdown" and meta["description"] == readme_start, meta
    assert meta["extras"] == ["pandas"], meta
    assert "numpy" in meta["requires"], meta
    assert [r.replace(" ", "").replace('"', "'") for r in meta["requires"] if "extra" in r] == [
        "pandas;extra=='pandas'"], meta
    for f in ("__init__.py", "__init__.pyi", "py.typed"):
        assert f in got["files"], got["files"]
    assert any(f.startswith("fano.") and f.endswith(".so") for f in got["files"]), got["files"]
    assert got["table_dir"] == [os.path.join(CACHE, "fano"), "cache"], got["table_dir"]
    assert got["cache_dir"] == os.path.join(CACHE, "fano")
    assert got["path"] == os.path.join(CACHE, "fano", "standard.fanotb")
    assert got["cap3"] == os.path.join(CACHE, "fano", "cap3-board.fanotb")
    assert os.path.isfile(got["path"]) and os.path.isfile(got["cap3"])
    assert got["pickled"] and got["tb_pickled"]
    assert got["threads_done"] and got["graded"] == 0, got
    assert got["class"] == "fano.Tablebase", got["class"]
    a = got.pop("arrays")
    assert a["codes"] == [a["code"], 0] and a["valid"] == [True, True], a
    assert ("loss", "draw", "win")[a["value"][0]] == got["probe"][0]
    assert (None if a["value"][0] == 1 else a["plies"][0]) == got["probe"][1]
    assert all(c in a["classes"] for c in a["canonical"])
    # The same answer as the fano command on the same table.
    q = json.loads(run(FANO_BIN, "query", "--json", "--tb", got["path"], got["position"]).stdout)
    assert got["probe"] == [q["table_value"], q["table_plies"]], (got["probe"], q)
    # The cached table is the one `fano solve` writes.
    cli_table = os.path.join(WORK, "cli-standard.fanotb")
    run(FANO_BIN, "solve", "--out", cli_table)
    with open(cli_table, "rb") as a, open(got["path"], "rb") as b:
        assert a.read() == b.read(), "cached table differs from fano solve's"

    show = run(pip, "show", "fano").stdout
    print(show)
    assert "Name: fano" in show and f"Version: {VERSION}" in show, show

    # A wheel, as `python3 -m build --no-isolation --wheel` makes it.
    run(sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", DIST, REPO)
    wheels = [f for f in os.listdir(DIST) if f.endswith(".whl")]
    assert len(wheels) == 1 and wheels[0].startswith(f"fano-{VERSION}-cp311-"), wheels
    import zipfile
    names = zipfile.ZipFile(os.path.join(DIST, wheels[0])).namelist()
    for f in ("fano/__init__.py", "fano/__init__.pyi", "fano/py.typed"):
        assert f in names, names
    assert any(n.startswith("fano/fano.") and n.endswith(".so") for n in names), names
    # The licence beside the metadata, which names it; no project URLs.
    info = f"fano-{VERSION}.dist-info/"
    assert info + "LICENSE" in names, names
    with zipfile.ZipFile(os.path.join(DIST, wheels[0])) as z:
        assert b"Permission is hereby granted" in z.read(info + "LICENSE")
        metadata = z.read(info + "METADATA").decode()
    assert "License: MIT" in metadata.splitlines(), metadata[:2000]
    assert "Classifier: License :: OSI Approved :: MIT License" in metadata, metadata[:2000]
    assert "Project-URL" not in metadata and "Home-page" not in metadata, metadata[:2000]

    # The wheel installed into a fresh venv of its own, used from outside the
    # tree: two threads probing at once.
    wheel_venv = os.path.join(WORK, "wheel-venv")
    shutil.rmtree(wheel_venv, ignore_errors=True)
    run(sys.executable, "-m", "venv", "--system-site-packages", wheel_venv)
    run(os.path.join(wheel_venv, "bin", "pip"), "install", "--no-cache-dir", "--no-deps",
        os.path.join(DIST, wheels[0]))
    r = run(os.path.join(wheel_venv, "bin", "python"), "-c", WHEEL_CHECK)
    got = json.loads(r.stdout)
    assert got["file"].startswith(wheel_venv), got
    assert got["answers"] == [got["answers"][0]] * 2 and got["answers"][0][0] in (
        "win", "loss"), got
    shutil.rmtree(wheel_venv)

    run(pip, "uninstall", "-y", "fano")
    r = run(python, "-c", "import fano", check=False)
    assert r.returncode != 0 and "No module named 'fano'" in r.stderr, r.stderr

    # Nothing left in the source tree.
    untracked_after = set(run("git", "-C", REPO, "status", "--porcelain", "--ignored",
                              check=False).stdout.splitlines())
    assert untracked_after <= untracked_before, untracked_after - untracked_before
    print("ok")


if __name__ == "__main__":
    main()
