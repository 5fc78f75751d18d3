#!/usr/bin/env python3
"""The `fano` command's help as other documents, from the command itself.

    help_pages.py man FANO          the man page fano(1), in roff, on stdout
    help_pages.py markdown FANO     docs/cli-help.md, on stdout

Both run `fano --help` and `fano help COMMAND` for each command it lists, at
80 columns, so the man page, the docs and `fano help` say the same thing from
one source: the help texts in tools/. The docs' test runs the markdown's
examples and compares them with the command's output.
"""
import os
import subprocess
import sys


def run(fano, *args):
    env = dict(os.environ, COLUMNS="80")
    return subprocess.run([fano, *args], env=env, capture_output=True, text=True,
                          check=True).stdout.rstrip("\n")


def commands(overview):
    """The command names of `fano --help`'s "commands:" list, in order."""
    out, inside = [], False
    for line in overview.split("\n"):
        if line == "commands:":
            inside = True
        elif inside and line.startswith("  "):
            out.append(line.split()[0])
        elif inside:
            break
    return out


def roff_text(text):
    lines = []
    for line in text.split("\n"):
        line = line.replace("\\", "\\e")
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def man(fano):
    overview = run(fano, "--help")
    version = run(fano, "--version").split("\n")[0]
    out = [f'.TH FANO 1 "" "{version}" "User Commands"',
           ".SH NAME",
           "fano \\- the Fano330-R-Morris solver",
           ".SH SYNOPSIS",
           ".B fano",
           ".I command",
           "[options]",
           ".SH DESCRIPTION",
           ".nf",
           roff_text(overview),
           ".fi"]
    for name in commands(overview):
        out += [f".SH fano {name}", ".nf", roff_text(run(fano, "help", name)), ".fi"]
    out += [".SH SEE ALSO",
            "The rules: docs/rules.md; the commands: docs/cli.md; the HTTP API: docs/api.md "
            "(in the source repository).",
            ".SH COPYRIGHT",
            "Copyright (c) 2026 The Fano330-R-Morris solver authors. "
            "Released under the MIT licence (SPDX-License-Identifier: MIT); "
            "the full text is in the file LICENSE of the source repository and "
            "/usr/share/doc/fano/copyright of the Debian package."]
    return "\n".join(out) + "\n"


def markdown(fano):
    overview = run(fano, "--help")
    out = ["# Every command's help", "",
           "The output of `fano help COMMAND` at 80 columns, made by",
           "`tools/help_pages.py markdown build/tools/fano > docs/cli-help.md`; the docs'",
           "test checks that it is still what the command prints. The guide to the",
           "commands is [cli.md](cli.md).", "",
           "```console", "$ fano --help", overview, "```", ""]
    for name in commands(overview):
        out += [f"## fano {name}", "", "```console", f"$ fano help {name}",
                run(fano, "help", name), "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("man", "markdown"):
        sys.exit("usage: help_pages.py man|markdown FANO")
    sys.stdout.write(man(sys.argv[2]) if sys.argv[1] == "man" else markdown(sys.argv[2]))


if __name__ == "__main__":
    main()
