"""The type stubs (python/fano/__init__.pyi) against the module, by mypy's
stubtest, a typed example checked by mypy --strict and run, and the names
inspect.signature() and help() show.

Run by ctest (Python.Module) as test_module.py is; needs Debian's
python3-mypy.
"""

import inspect
import os
import subprocess
import sys

import pytest

import fano
from test_module import table_path

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "..", "..", "python")  # holds fano/__init__.pyi


def mypy_available():
    r = subprocess.run([sys.executable, "-c", "import mypy.stubtest"], capture_output=True)
    return r.returncode == 0


needs_mypy = pytest.mark.skipif(not mypy_available(), reason="mypy is not installed")


def run(args, tmp_path, **env):
    full = dict(os.environ, MYPYPATH=PACKAGE, **env)
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True,
                          env=full, cwd=tmp_path)


@needs_mypy
def test_stubs_agree_with_the_module(tmp_path):
    r = run(["mypy.stubtest", "fano", "--concise",
             "--allowlist", os.path.join(HERE, "stubtest-allowlist.txt")], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


@needs_mypy
def test_typed_example_passes_mypy_and_runs(tmp_path):
    example = os.path.join(HERE, "typed_example.py")
    r = run(["mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), example], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([sys.executable, example], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "[('draw', 1), ('moves', 13), ('names', 2), ('plies', 0), ('same', 1), ('valid', 2)]",
        "True"]


def public_callables():
    for name in sorted(dir(fano)):
        obj = getattr(fano, name)
        if name.startswith("_") or isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        if isinstance(obj, type):
            for member in sorted(vars(obj)):
                if member.startswith("_") and member not in ("__init__", "__enter__", "__exit__"):
                    continue
                attr = getattr(obj, member)
                if callable(attr) and not isinstance(attr, type):
                    yield f"{name}.{member}", attr
        elif callable(obj):
            yield name, obj


# Classes whose constructor pybind11 shows as (*args, **kwargs): Tablebase
# has none (open_tablebase makes one), Variant has two overloads.
NO_NAMES = {"Tablebase.__init__", "Variant.__init__"}


def test_signatures_show_real_parameter_names():
    seen = 0
    for name, f in public_callables():
        sig = inspect.signature(f)  # raises ValueError where there is none
        params = list(sig.parameters)
        assert not any(p.startswith("arg") and p[3:].isdigit() for p in params), (name, sig)
        if name not in NO_NAMES:
            assert not any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()), (name, sig)
        seen += 1
    assert seen > 30
    assert str(inspect.signature(fano.open_tablebase)) == "(path=None, variant=None, *, solve_missing=True)"
    assert str(inspect.signature(fano.Position)) == "(text, variant='standard')"
    assert str(inspect.signature(fano.Tablebase.probe)) == "(self, /, position, *, variant=None)"
    tb = fano.open_tablebase(table_path(fano.STANDARD))
    assert str(inspect.signature(tb.probe_codes)) == "(codes, *, variant=None, threads=None)"
    # help() shows the names and the types (pybind11's line) with the text.
    import pydoc
    text = pydoc.render_doc(fano.Tablebase.probe, renderer=pydoc.plaintext)
    assert "probe(self, /, position, *, variant=None)" in text
    assert "variant: Optional[str | Variant] = None" in text and "(value, plies)" in text
