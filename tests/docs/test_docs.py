"""The examples of the docs, run as shown.

Every ```console block of README.md and docs/*.md is a session: a line
"$ COMMAND" runs COMMAND in a shell (with the build's `fano` first on PATH,
in a fresh folder, the standard table in $FANO_TABLES), and the lines after
it, up to the next "$ " line or the block's end, are its output exactly; a
line "..." stands for any number of lines. Every ```pycon block is run by
doctest with the build's module on the path.

Env: FANO_BIN (the fano tool), FANO_SOURCE_DIR (the repository),
PYTHONPATH (the build's python/ folder, for the pycon blocks).
"""
import doctest
import os
import pathlib
import re
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ["FANO_SOURCE_DIR"])
FANO_BIN = pathlib.Path(os.environ["FANO_BIN"]).resolve()
DOCS = [SOURCE / "README.md", *sorted((SOURCE / "docs").glob("*.md"))]


def blocks(kind):
    """(file, first line, text) of each fenced block of that kind."""
    out = []
    for path in DOCS:
        lines = path.read_text().split("\n")
        i = 0
        while i < len(lines):
            if lines[i].strip() == "```" + kind:
                j = i + 1
                while lines[j].strip() != "```":
                    j += 1
                out.append((path.relative_to(SOURCE).as_posix(), i + 1, "\n".join(lines[i + 1:j])))
                i = j
            i += 1
    return out


def sessions(text):
    """[(command, expected lines)] of a console block."""
    out = []
    for line in text.split("\n"):
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def matches(expected, got):
    """Whether the output lines match, "..." matching any run of lines."""
    pattern = "\n".join(".*?" if line == "..." else re.escape(line) for line in expected)
    return re.fullmatch(pattern, "\n".join(got), re.S) is not None


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    subprocess.run([FANO_BIN, "solve", "--tables", folder], check=True, capture_output=True)
    return folder


CONSOLE = blocks("console")
PYCON = blocks("pycon")


def test_the_docs_have_examples():
    # The runner finds the blocks it checks (a renamed fence would skip them).
    assert len(CONSOLE) >= 3, CONSOLE
    assert len(PYCON) >= 1, PYCON


# A pipeline's exit status: every stage must succeed, as under pipefail, but a
# stage ended by SIGPIPE (exit 141) because a later one stopped reading
# (`fano rules | head -4`) has not failed: how soon head closes the pipe is
# the scheduler's, not the command's.
PIPE_STATUS = '''
s=("${PIPESTATUS[@]}")
for x in "${s[@]:0:${#s[@]}-1}"; do [[ $x == 0 || $x == 141 ]] || exit "$x"; done
exit "${s[-1]}"'''


@pytest.mark.parametrize("where,line,text", CONSOLE, ids=[f"{w}:{l}" for w, l, _ in CONSOLE])
def test_console_examples_print_what_they_show(where, line, text, tables, tmp_path):
    env = dict(os.environ, FANO_TABLES=str(tables), FANO_QUIET="1", COLUMNS="80",
               PATH=f"{FANO_BIN.parent}:{os.environ['PATH']}")
    for command, expected in sessions(text):
        while expected and expected[-1] == "":
            expected.pop()
        r = subprocess.run(["bash", "-c", command + PIPE_STATUS], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
        got = r.stdout.rstrip("\n").split("\n") if r.stdout.strip() else []
        assert r.returncode == 0, f"{where}:{line}: {command}: exit {r.returncode}: {r.stderr}"
        assert matches(expected, got), f"{where}:{line}: {command}\n" + "\n".join(got)


@pytest.mark.parametrize("where,line,text", PYCON, ids=[f"{w}:{l}" for w, l, _ in PYCON])
def test_python_examples_print_what_they_show(where, line, text, tables, tmp_path, monkeypatch):
    monkeypatch.setenv("FANO_TABLES", str(tables))
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, f"{where}:{line}", where, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{where}:{line}: {result.failed} of {result.attempted} failed"


def test_the_man_page_has_every_commands_help():
    # Made at build time from the command's own help (tools/help_pages.py).
    page = pathlib.Path(os.environ["FANO_MAN"]).read_text()
    overview = subprocess.run([FANO_BIN, "--help"], capture_output=True, text=True,
                              check=True).stdout
    names = [line.split()[0] for line in overview.split("commands:\n")[1].split("\n\n")[0]
             .split("\n") if line.startswith("  ")]
    assert "rules" in names and "query" in names, names
    assert page.startswith(".TH FANO 1")
    for name in names:
        assert f".SH fano {name}\n" in page, name
        usage = subprocess.run([FANO_BIN, "help", name], capture_output=True, text=True,
                               env=dict(os.environ, COLUMNS="80"), check=True).stdout
        assert usage.split("\n")[0].replace("\\", "\\e") in page, name
