#!/usr/bin/env python3
"""Prints the "Every rule combination" section of results/variants.md.

    results/regenerate.sh    # the whole file: the named variants, then this section
    python3 bench/variants.py --fano build/tools/fano    # this section alone

For each combination (stack cap x adjacency x lines x material, named as in
README's "Rules"), it runs `fano solve --rules NAME` under /usr/bin/time -v
(solve time and peak memory), `fano verify` on the table (every check; the
longest forced win and the losing first moves), and `fano query` on the empty
board (the first moves' values) and on the longest win's position (its line).
Every number is printed by the fano tool; this script only lays out the table.
--only NAME[,NAME...] limits the run (tests/test_tools.cpp recomputes rows so).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

BASES = ["standard", "cap2-projective", "cap3-board", "cap3-projective"]
LINES = ["", "-colour"]
MATERIALS = ["-1c1t", "-2c1t", "-1c2t", "", "-3c3t"]  # "" is two circles and two triangles
EMPTY = "-/-/-/-/-/-/- w"


def names():
    """Every combination, in the order of all_rule_combinations() (core/src/board.cpp)."""
    return [b + l + m for b in BASES for l in LINES for m in MATERIALS]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def outcome(o):
    if o is None:
        return "not stored"
    return "draw" if o["value"] == "draw" else f"{o['value']} in {o['plies']}"


def row(fano, name, folder, threads):
    table = os.path.join(folder, name + ".fanotb")
    solved = run(["/usr/bin/time", "-v", fano, "solve", "--rules", name, "--out", table,
                  "--threads", str(threads), "--json"])
    s = json.loads(solved.stdout)
    peak_kib = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", solved.stderr).group(1))
    v = json.loads(run([fano, "verify", "--tb", table, "--json"]).stdout)
    if v["errors"] != 0:
        raise SystemExit(f"{name}: fano verify found {v['errors']} errors: {v['first_error']}")
    q = json.loads(run([fano, "query", "--tb", table, "--json", EMPTY]).stdout)
    groups = {}
    for m in q["moves"]:
        groups.setdefault(outcome({"value": m["result"], "plies": m["plies"]}), []).append(m["move"])
    first = "; ".join(f"{', '.join(ms)}: {res}" for res, ms in groups.items())
    longest = "none"
    if v["longest_win"]:
        lw = v["longest_win"]
        pv = json.loads(run([fano, "query", "--tb", table, "--json", lw["position"]]).stdout)
        line = ",".join(pv["pv"])
        longest = f"{lw['plies']} plies: `{lw['position']}` {line}"
    decisive = (s["win"] + s["loss"]) / s["reachable"]
    os.remove(table)
    return (f"| {name} | {outcome(s['start'])} | {first} | {s['reachable']} | {s['canonical']} | "
            f"{s['win']} / {s['loss']} / {s['draw']} | {longest} | {100 * decisive:.1f}% | "
            f"{s['seconds']['total']:.2f} | {peak_kib / 1024:.0f} |")


HEADER = """## Every rule combination

Each row is one reading of the rules, named as `fano solve --rules NAME` takes
it (README, "Rules"): the named variant's slug, `-colour` when only a line of
one colour loses (the Korean text), and `-<c>c<t>t` for c circles and t
triangles per player when not two and two. Values are for the side to move
(White on the empty board); first moves give the mover's result; counts are
over all reachable positions (each class weighted by its size); the longest
forced win names a position and its principal variation; decisive = (win +
loss) / reachable. Every table passed `fano verify`. Time and peak memory:
`fano solve --threads {threads}` under `/usr/bin/time -v` on this machine
(2 cores shared with other work: indicative only).

Written by `bench/variants.py` (called by `results/regenerate.sh`).

| rules | empty board | first moves (White's result) | reachable | classes | win / loss / draw | longest forced win | decisive | solve s | peak MiB |
|---|---|---|---|---|---|---|---|---|---|
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fano", default="build/tools/fano")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", help="comma-separated names (default: every combination)")
    ap.add_argument("--rows-only", action="store_true", help="print the rows without the header")
    a = ap.parse_args()
    todo = a.only.split(",") if a.only else names()
    with tempfile.TemporaryDirectory() as folder:
        if not a.rows_only:
            sys.stdout.write(HEADER.replace("{threads}", str(a.threads)))
        for name in todo:
            print(row(a.fano, name, folder, a.threads), flush=True)


if __name__ == "__main__":
    main()
