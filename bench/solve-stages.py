#!/usr/bin/env python3
"""Where a solve's time goes, step by step, per stored class: whole `fano
solve --json` processes on 1 and 2 threads, each step's wall and CPU time
(`steps` in the JSON: the search, the ranking, the predecessor lists, the
ended games, the levels, the outcomes, the sections) in nanoseconds a class,
and each step's speedup on 2 threads (median wall on 1 / median wall on 2).
Each reading and thread count runs --repeat times, the readings and thread
counts alternating within a repeat so that a shared machine's load falls on
all alike; medians are printed, with the load (`uptime`) before each repeat.
The whole process's CPU time (user + system, `/usr/bin/time`) and peak
resident set (KB, bytes a class) are printed beside them.

With --compare B, each run of FANO is followed by one of B (another build)
on the same reading and thread count, the tables both write are compared
byte for byte, and the whole solves' medians are printed side by side.

usage: bench/solve-stages.py [FANO] [--compare B] [--rules r1,r2,...]
       [--threads 1,2] [--repeat 3] [--out-dir /tmp]
"""
import argparse
import datetime
import filecmp
import json
import os
import statistics
import subprocess
import sys

MID = "cap3-board-2c3t,cap3-board-colour-2c3t,standard-3c3t,cap3-board-3c3t"
STEPS = ("search", "rank", "predecessors", "ended", "levels", "outcomes", "sections")


def solve(fano, rules, threads, out):
    argv = ["/usr/bin/time", "-f", "%M %e %U %S", fano, "solve", "--rules", rules,
            "--threads", str(threads), "--out", out, "--json"]
    p = subprocess.run(argv, capture_output=True, text=True,
                       env=dict(os.environ, FANO_QUIET="1"))
    if p.returncode != 0:
        sys.exit(f"solve-stages.py: {fano} solve --rules {rules} failed: {p.stderr.strip()}")
    peak, wall, user, system = p.stderr.strip().splitlines()[-1].split()
    info = json.loads(p.stdout)
    return {"peak": int(peak), "wall": float(wall), "cpu": float(user) + float(system),
            "info": info}


def load():
    return subprocess.run(["cat", "/proc/loadavg"], capture_output=True,
                          text=True).stdout.split()[0]


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("fano", nargs="?", default=os.path.join(root, "build", "tools", "fano"))
    ap.add_argument("--compare", help="a second fano binary, run alternately")
    ap.add_argument("--rules", default=MID)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out-dir", default="/tmp")
    a = ap.parse_args()
    readings = a.rules.split(",")
    threads = [int(t) for t in a.threads.split(",")]
    runs = {}  # (binary, rules, threads) -> [run]
    loads = []
    started = datetime.datetime.now(datetime.timezone.utc)
    differ = []
    for rep in range(a.repeat):
        loads.append(load())
        for rules in readings:
            for t in threads:
                out = os.path.join(a.out_dir, f"solve-stages-a-{rules}-{t}.fanotb")
                runs.setdefault(("a", rules, t), []).append(solve(a.fano, rules, t, out))
                if a.compare:
                    out_b = os.path.join(a.out_dir, f"solve-stages-b-{rules}-{t}.fanotb")
                    runs.setdefault(("b", rules, t), []).append(solve(a.compare, rules, t, out_b))
                    if not filecmp.cmp(out, out_b, shallow=False):
                        differ.append((rules, t))
                    os.remove(out_b)
                os.remove(out)
        print(f"repeat {rep + 1} done, load {load()}", file=sys.stderr, flush=True)
    loads.append(load())
    print(f"{started:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, {a.repeat} runs each, "
          f"medians; load average (1 min) before each repeat and after: {', '.join(loads)}\n")
    for binary in ("a", "b") if a.compare else ("a",):
        if "steps" in runs[(binary, readings[0], threads[0])][0]["info"]:
            print(f"{a.fano if binary == 'a' else a.compare}:\n")
            step_table(runs, binary, readings, threads)
    whole_table(a, runs, readings, threads, differ)
    if differ:
        sys.exit(f"solve-stages.py: tables differ: {differ}")


def step_table(runs, binary, readings, threads):
    # Per step: ns a class, wall (CPU), per thread count; the speedup on the last.
    cols = "| reading (classes) | step |"
    for t in threads:
        cols += f" {t} thread{'s' if t > 1 else ''}: wall (CPU) ns a class |"
    if len(threads) > 1:
        cols += f" speedup on {threads[-1]} |"
    print(cols)
    print("|" + "---|" * (cols.count("|") - 1))
    for rules in readings:
        classes = runs[(binary, rules, threads[0])][0]["info"]["canonical"]
        rows = list(STEPS) + ["write", "whole solve"]
        for step in rows:
            line = f"| {rules} ({classes:,}) | {step} |"
            walls = []
            for t in threads:
                rs = runs[(binary, rules, t)]
                if step == "whole solve":
                    w, c = med([r["wall"] for r in rs]), med([r["cpu"] for r in rs])
                elif step == "write":
                    w, c = med([r["info"]["seconds"]["write"] for r in rs]), float("nan")
                else:
                    w = med([r["info"]["steps"][step]["seconds"] for r in rs])
                    c = med([r["info"]["steps"][step]["cpu_seconds"] for r in rs])
                walls.append(w)
                cpu = "" if c != c else f" ({c * 1e9 / classes:.0f})"
                line += f" {w * 1e9 / classes:.0f}{cpu} |"
            if len(threads) > 1:
                line += f" {walls[0] / walls[-1]:.2f} |" if walls[-1] > 0 else " |"
            print(line)
    print()


def whole_table(a, runs, readings, threads, differ):
    cols = "| reading | threads | peak KB (bytes a class) | wall s (least) | CPU s |"
    if a.compare:
        cols += " B: peak KB | B: wall s (least) | B: CPU s | tables |"
    print(cols)
    print("|" + "---|" * (cols.count("|") - 1))
    for rules in readings:
        for t in threads:
            rs = runs[("a", rules, t)]
            classes = rs[0]["info"]["canonical"]
            peak = med([r["peak"] for r in rs])
            line = (f"| {rules} | {t} | {peak:,.0f} ({peak * 1024 / classes:.1f}) | "
                    f"{med([r['wall'] for r in rs]):.2f} ({min(r['wall'] for r in rs):.2f}) | "
                    f"{med([r['cpu'] for r in rs]):.2f} |")
            if a.compare:
                bs = runs[("b", rules, t)]
                line += (f" {med([r['peak'] for r in bs]):,.0f} | {med([r['wall'] for r in bs]):.2f}"
                         f" ({min(r['wall'] for r in bs):.2f}) |"
                         f" {med([r['cpu'] for r in bs]):.2f} |"
                         f" {'DIFFER' if (rules, t) in differ else 'identical'} |")
            print(line)
        if a.compare and len(threads) > 1:
            sa = med([r["wall"] for r in runs[("a", rules, threads[0])]]) / med(
                [r["wall"] for r in runs[("a", rules, threads[-1])]])
            sb = med([r["wall"] for r in runs[("b", rules, threads[0])]]) / med(
                [r["wall"] for r in runs[("b", rules, threads[-1])]])
            print(f"| {rules} | speedup on {threads[-1]} | | {sa:.2f} | | | {sb:.2f} | | |")


if __name__ == "__main__":
    main()
