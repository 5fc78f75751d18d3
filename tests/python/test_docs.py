"""docs/python.md's examples: every ```python block run (a fresh
interpreter, outside the source tree) and its output compared with the
```text block that follows it.

Run by ctest (Python.Module) as test_module.py is.
"""

import os
import re
import subprocess
import sys

import pytest

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def examples():
    text = open(DOC).read()
    blocks = re.findall(r"```(\w*)\n(.*?)```", text, re.S)
    out = []
    for i, (kind, body) in enumerate(blocks):
        if kind == "python":
            shown = blocks[i + 1][1] if i + 1 < len(blocks) and blocks[i + 1][0] == "text" else None
            out.append((body, shown))
    return out


@pytest.mark.parametrize("code,shown", examples(),
                         ids=[f"example{i}" for i in range(len(examples()))])
def test_doc_example_runs_as_shown(code, shown, tmp_path):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    if shown is not None:
        assert r.stdout == shown


def test_doc_has_examples():
    assert len(examples()) >= 5 and all(shown for _, shown in examples())
