#!/usr/bin/env python3
"""Prints the "Every rule combination" section of results/variants.md.

    results/regenerate.sh    # the whole file: the named variants, then this section
    python3 bench/variants.py --fano build/tools/fano    # this section alone

For each combination (stack cap x adjacency x lines x material, named as in
docs/rules.md), it runs `fano solve --rules NAME` under /usr/bin/time -v
(solve time and peak memory), `fano verify` on the table (every check; the
longest forced win and the losing first moves), and `fano query` on the empty
board (the first moves' values) and on the longest win's position (its line);
then `fano strategy --lookahead` (the depth K of search:K each side needs
never to fall below the start's value), `fano strategy --decisions` (how
often one move alone keeps the value, how many moves lose at once) and
`fano selfplay` (game lengths under perfect and fallible play, White's score
between equal fallible players). With --lookahead-out it also writes every
lookahead check's refutation line (results/lookahead.md).
Every number is printed by the fano tool; this script only lays out the table.
--only NAME[,NAME...] limits the run (tests/test_results.cpp recomputes rows so).

    python3 bench/variants.py --summary-of results/variants.md

prints the section "Which reading makes which game" from that file's table
alone (regenerate.sh appends it; tests/test_results.cpp checks that the file's
section is what the table gives).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

BASES = ["standard", "cap2-projective", "cap3-board", "cap3-projective"]
LINES = ["", "-colour"]
# Every material of every_rules() (core/src/board.cpp): c circles and t
# triangles a player, 1..3 each; "" is two and two.
MATERIALS = ["" if (c, t) == (2, 2) else f"-{c}c{t}t" for c in (1, 2, 3) for t in (1, 2, 3)]
LOOKAHEAD = 4                  # search:1 .. search:LOOKAHEAD
LOOKAHEAD_BUDGET = 3_000_000   # positions a check may reach before it stops undecided
FALLIBLE = "perfect:0.9"       # the fallible level: a perfect move 9 times in 10, else a random one
PERFECT_GAMES = 200
FALLIBLE_GAMES = 1000
EMPTY = "-/-/-/-/-/-/- w"


def names():
    """Every reading (the 72 of every_rules()), by base variant, lines and material."""
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
    look = json.loads(run([fano, "strategy", "--tb", table, "--lookahead", str(LOOKAHEAD),
                           "--max-positions", str(LOOKAHEAD_BUDGET), "--json"]).stdout)
    needed = " / ".join(lookahead_cell(r) for r in look["results"])
    d = json.loads(run([fano, "strategy", "--tb", table, "--decisions", "--json"]).stdout)["decisions"]
    one_way = percent(d["one_way"], d["to_keep"])
    at_once = percent(d["lose_at_once"], d["moves"])
    perfect = selfplay(fano, table, "perfect", PERFECT_GAMES, threads)
    fallible = selfplay(fano, table, FALLIBLE, FALLIBLE_GAMES, threads)
    os.remove(table)
    cells = (f"| {name} | {outcome(s['start'])} | {first} | {s['reachable']} | {s['canonical']} | "
             f"{s['win']} / {s['loss']} / {s['draw']} | {longest} | {100 * decisive:.1f}% | "
             f"{needed} | {one_way} | {at_once} | {perfect['plies']['mean']:.1f} | "
             f"{fallible['plies']['mean']:.1f} | {fallible['white_score']:.3f} | "
             f"{s['seconds']['total']:.2f} | {peak_kib / 1024:.0f} |")
    record = {"name": name, "start": s["start"]["value"], "decisive": round(100 * decisive, 1),
              "plies_fallible": round(fallible["plies"]["mean"], 1)}
    return cells, look, record


def percent(a, b):
    return f"{100 * a / b:.1f}%" if b else "-"


def lookahead_cell(r):
    """K when search:K holds; "-" for a lost side (nothing to keep); ">K" when no
    depth tried holds; ">K?" when the check of K + 1 stopped at its budget, "?"
    when the check of search:1 did."""
    if r["target"] == "loss":
        return "-"
    if r["needed"] is not None:
        return str(r["needed"])
    last = r["checks"][-1]
    if not last["decided"]:
        return f">{len(r['checks']) - 1}?" if len(r["checks"]) > 1 else "?"
    return f">{r['max_depth']}"


def selfplay(fano, table, player, games, threads):
    return json.loads(run([fano, "selfplay", "--tb", table, "--white", player, "--black", player,
                           "--games", str(games), "--seed", "1", "--threads", str(threads),
                           "--json"]).stdout)


def lookahead_section(name, look):
    """The refutation of each search:K that fails, for one reading."""
    out = [f"### {name}", ""]
    for r in look["results"]:
        side = r["side"]
        if r["target"] == "loss":
            out.append(f"- {side}: the start is lost; nothing to keep")
            continue
        for c in r["checks"]:
            if not c["decided"]:
                out.append(f"- {side}, {c['rule']}: undecided (stopped after {c['positions']} positions)")
            elif c["holds"]:
                out.append(f"- {side}, {c['rule']}: holds ({c['positions']} positions searched)")
            else:
                ref = c["refutation"]
                note = "" if ref["allowed_with_history"] else " (not every move allowed with the history)"
                out.append(f"- {side}, {c['rule']}: fails in {ref['plies']} plies: "
                           f"`{','.join(ref['moves'])}`: {ref['end']['text']}{note}")
    return "\n".join(out) + "\n"


HEADER = """## Every rule combination

Each row is one reading of the rules, named as `fano solve --rules NAME` takes
it (docs/rules.md, "The readings of the rules"; `fano rules` lists them): the
base variant's slug (`standard`; `cap2-projective`, which `--rules` also
takes as `projective`; `cap3-board`, also `cap3`; `cap3-projective`),
`-colour` when only a line of one colour loses (the Korean text), and
`-<c>c<t>t` for c circles and t triangles per player when not two and two. Values are for the side to move
(White on the empty board); first moves give the mover's result; counts are
over all reachable positions (each class weighted by its size); the longest
forced win names a position and its principal variation; decisive = (win +
loss) / reachable. Every table passed `fano verify`.

Lookahead needed (White / Black): the least K such that every move the
`search:K` player allows (a depth-K minimax without the table: a line formed
wins, no move loses, a repeated position and the depth limit score 0; faster
wins and slower losses first; `fano selfplay`'s player) keeps at least the
start's value for that side against every opponent, whichever of its allowed
moves she picks (`fano strategy --lookahead {lookahead}`, exact; K up to
{lookahead}, each check stopped undecided after {budget} positions: `>K?`
says search:K failed and search:K+1 is undecided, `?` that search:1 is; `-`
is a side whose start is lost). One way to keep: the share of won or drawn positions (where the game
goes on) with exactly one move that keeps the value; lose at once: the share
of all moves that form a line (`fano strategy --decisions`, counted over every
reachable position). Game length: mean plies of {perfect_games} games
`perfect` against `perfect` and of {fallible_games} games `{fallible}` against
`{fallible}` (a perfect move 9 times in 10, else a random one), seed 1; White's
score (win 1, draw 1/2) in the latter.

Time and peak memory: `fano solve --threads {threads}` under `/usr/bin/time
-v`, measured {date} on {machine} (shared with other work: indicative only).

Written by `bench/variants.py` (called by `results/regenerate.sh`).

| rules | empty board | first moves (White's result) | reachable | classes | win / loss / draw | longest forced win | decisive | lookahead needed (White / Black) | one way to keep | lose at once | plies, perfect | plies, fallible | White's score, fallible | solve s | peak MiB |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
"""


SUMMARY_HEADING = "## Which reading makes which game"
TOP = 5  # readings named in each list


def table_rows(markdown):
    """The rows of the "Every rule combination" table, as dicts by column name."""
    lines = markdown.split("\n")
    at = next(i for i, l in enumerate(lines) if l.startswith("| rules | empty board |"))
    columns = [c.strip() for c in lines[at].strip("|").split("|")]
    rows = []
    for line in lines[at + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(columns, (c.strip() for c in line.strip("|").split("|")))))
    return rows


def share(cell):
    """A percentage cell ("57.1%") as a number; None for "-"."""
    return float(cell.rstrip("%")) if cell.endswith("%") else None


def needed(cell):
    """A lookahead cell as the depth that holds, or None (lost side, >K, ?)."""
    return int(cell) if cell.isdigit() else None


def listed(rows, fmt):
    return "; ".join(f"{r['rules']} ({fmt(r)})" for r in rows)


def summary(markdown):
    """The designers' summary of the table: each list sorted by its figure,
    ties by the table's order, so that the text follows from the table alone."""
    rows = table_rows(markdown)
    n = len(rows)
    decided = [r for r in rows if r["empty board"] != "draw"]
    drawn = [r for r in rows if r["empty board"] == "draw"]
    by = lambda key, rev: sorted(rows, key=lambda r: key(r), reverse=rev)[:TOP]
    decisive = by(lambda r: share(r["decisive"]), True)
    drawish = by(lambda r: -share(r["decisive"]), True)
    sharp = by(lambda r: share(r["one way to keep"]) or 0.0, True)
    longest = by(lambda r: float(r["plies, perfect"]), True)
    shallow = [r for r in rows
               if all(needed(c) is not None or c == "-"
                      for c in r["lookahead needed (White / Black)"].split(" / "))
               and any(needed(c) for c in r["lookahead needed (White / Black)"].split(" / "))]
    balanced = sorted(drawn, key=lambda r: abs(float(r["White's score, fallible"]) - 0.5))[:TOP]
    out = [SUMMARY_HEADING, "",
           "Made from the table above by `bench/variants.py --summary-of` (each list",
           f"the {TOP} readings with the highest figure, ties in the table's order).", "",
           f"- **Decided from the start** ({len(decided)} of {n}): "
           + listed(decided, lambda r: "White: " + r["empty board"]) + ".",
           f"- **Drawn from the start** ({len(drawn)} of {n}); of those, the most balanced "
           "between fallible players (White's score nearest 1/2): "
           + listed(balanced, lambda r: r["White's score, fallible"]) + ".",
           "- **The most decisive positions** (share of reachable positions won or lost): "
           + listed(decisive, lambda r: r["decisive"]) + ".",
           "- **The most drawish** (the same share, smallest first): "
           + listed(drawish, lambda r: r["decisive"]) + ".",
           "- **The sharpest** (share of decisions where one move alone keeps the value: "
           "\"few ways to live\"): " + listed(sharp, lambda r: r["one way to keep"]) + ".",
           "- **The longest games under perfect play** (mean plies): "
           + listed(longest, lambda r: r["plies, perfect"]) + ".",
           "- **Shallow: a small lookahead suffices** (every side with a value to keep is "
           f"held by search:K, K at most {LOOKAHEAD}) in {len(shallow)} of {n} readings"
           + (" (the least K for White / for Black; - for a side whose start is lost): "
              + listed(shallow, lambda r: r["lookahead needed (White / Black)"])
              if shallow else "") + "; every other reading asks more of a player.",
           "",
           "Which is the better game is the designer's call; the table suggests where to look: a "
           "drawn start with a high decisive share and a White's score near 1/2 makes a game "
           "that fallible players finish, fairly; a high \"one way to keep\" share, one that "
           "punishes a careless move; a shallow reading, one a beginner can play safely.",
           ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fano", default="build/tools/fano")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", help="comma-separated names (default: every combination)")
    ap.add_argument("--rows-only", action="store_true", help="print the rows without the header")
    ap.add_argument("--lookahead-out", help="also write every lookahead check's line to this file")
    ap.add_argument("--json-out", help="also write the rows' figures for bench/report.py (JSON)")
    ap.add_argument("--summary-of", metavar="FILE",
                    help="print the designers' summary of FILE's table (results/variants.md) and stop")
    a = ap.parse_args()
    if a.summary_of:
        with open(a.summary_of) as f:
            sys.stdout.write(summary(f.read()))
        return
    todo = a.only.split(",") if a.only else names()
    sections = []
    records = []
    with tempfile.TemporaryDirectory() as folder:
        if not a.rows_only:
            header = HEADER
            for key, value in {"threads": a.threads, "lookahead": LOOKAHEAD,
                               "budget": f"{LOOKAHEAD_BUDGET:,}", "perfect_games": PERFECT_GAMES,
                               "fallible_games": FALLIBLE_GAMES, "fallible": FALLIBLE,
                               "date": time.strftime("%Y-%m-%d", time.gmtime()),
                               "machine": machine()}.items():
                header = header.replace("{" + key + "}", str(value))
            sys.stdout.write(header)
        for name in todo:
            t0 = time.time()
            cells, look, record = row(a.fano, name, folder, a.threads)
            records.append(record)
            print(cells, flush=True)
            print(f"variants.py: {name} in {time.time() - t0:.1f} s", file=sys.stderr, flush=True)
            sections.append(lookahead_section(name, look))
    if a.lookahead_out:
        tmp = a.lookahead_out + ".tmp"
        with open(tmp, "w") as f:
            f.write(LOOKAHEAD_HEADER.replace("{lookahead}", str(LOOKAHEAD))
                    .replace("{budget}", f"{LOOKAHEAD_BUDGET:,}"))
            f.write("\n".join(sections))
        os.replace(tmp, a.lookahead_out)
    if a.json_out:
        with open(a.json_out + ".tmp", "w") as f:
            json.dump(records, f, indent=1)
            f.write("\n")
        os.replace(a.json_out + ".tmp", a.json_out)


def machine():
    """The CPU model and the number of cores, as /proc/cpuinfo names them."""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
        model = re.search(r"model name\s*:\s*(.*)", text).group(1).strip()
        return f"{model}, {os.cpu_count()} cores"
    except (OSError, AttributeError):
        return f"{os.cpu_count()} cores"


LOOKAHEAD_HEADER = """# How far ahead a player must look: every reading

Generated by `results/regenerate.sh` (`bench/variants.py --lookahead-out`; do
not edit by hand). For each reading and each side, `fano strategy --lookahead
{lookahead} --max-positions {budget}`: search:1, search:2, ... checked in turn
from the empty board until one holds. A check fails with a shortest line in
which the side obeys search:K (picking any of the moves it allows) and ends
below the start's value: her loss, or a repetition where she had a win. Every
follower move of each line is also allowed by search:K given the line's
history (the game's earlier positions scored as draws), unless the line says
otherwise. `results/variants.md` has the summary column.

"""


if __name__ == "__main__":
    main()
