#!/usr/bin/env python3
"""Peak memory per stored class of whole `fano solve` processes: every reading
above 1 M classes, on 1 and 2 threads, the peak resident set of the process
(`/usr/bin/time -f %M`) divided by the classes the table stores, with the
wall time and the solve's stages (`--json`). Prints a markdown table headed
by the date, the machine and its load (`uptime`), which the wall times need
beside them; the peaks move by less than 1 % from run to run.

With --compare B, each run of FANO is followed by one of B on the same
reading and thread count (alternating, so that the machine's load falls on
both alike), and the tables both write are compared byte for byte.

With --tables DIR, each table written is compared byte for byte with
DIR/<reading>.fanotb (tables written earlier, by another build).

usage: bench/solve-memory.py [FANO] [--compare B] [--tables DIR]
       [--threads 1,2] [--rules r1,r2,...] [--out-dir /tmp]
"""
import argparse
import datetime
import filecmp
import json
import os
import platform
import subprocess
import sys

# The readings whose tables store more than 1 M classes (results/variants.md).
LARGE = [
    ("standard-colour-2c3t", 1101277),
    ("standard-colour-3c2t", 1101277),
    ("standard-colour-3c3t", 1466596),
    ("cap3-projective-colour-3c3t", 1118346),
    ("cap3-board-2c3t", 5773957),
    ("cap3-board-3c2t", 5773957),
    ("cap3-board-colour-2c3t", 6956712),
    ("cap3-board-colour-3c2t", 6956712),
    ("cap3-board-3c3t", 20832358),
    ("cap3-board-colour-3c3t", 29923432),
]


def solve(fano, rules, threads, out):
    argv = ["/usr/bin/time", "-f", "%M %e", fano, "solve", "--rules", rules,
            "--threads", str(threads), "--out", out, "--json"]
    p = subprocess.run(argv, capture_output=True, text=True,
                       env=dict(os.environ, FANO_QUIET="1"))
    if p.returncode != 0:
        sys.exit(f"solve-memory.py: {fano} solve --rules {rules} failed: {p.stderr.strip()}")
    peak_kb, wall = p.stderr.strip().splitlines()[-1].split()
    info = json.loads(p.stdout)
    return int(peak_kb), float(wall), info


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}"


def load():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("fano", nargs="?", default=os.path.join(root, "build", "tools", "fano"))
    ap.add_argument("--compare", help="a second fano binary, run alternately")
    ap.add_argument("--tables", help="a folder of earlier tables to compare with")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rules", help="comma-separated readings (default: all above 1 M classes)")
    ap.add_argument("--out-dir", default="/tmp")
    a = ap.parse_args()
    readings = [(r, c) for r, c in LARGE if not a.rules or r in a.rules.split(",")]
    threads = [int(t) for t in a.threads.split(",")]
    print(f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {machine()}; before: {load()}\n")
    cols = "| reading | classes | threads | peak KB | bytes per class | wall s | enumerate / graph / retrograde s |"
    if a.compare:
        cols += " B: peak KB | B: bytes per class | B: wall s | tables |"
    if a.tables:
        cols += " as in --tables |"
    print(cols)
    print("|" + "---|" * (cols.count("|") - 1))
    for rules, _ in readings:
        for t in threads:
            out = os.path.join(a.out_dir, f"solve-memory-a-{rules}-{t}.fanotb")
            peak, wall, info = solve(a.fano, rules, t, out)
            classes = info["canonical"]
            s = info["seconds"]
            row = (f"| {rules} | {classes:,} | {t} | {peak:,} | {peak * 1024 / classes:.1f} | "
                   f"{wall:.2f} | {s['enumerate']:.2f} / {s['graph']:.2f} / {s['retrograde']:.2f} |")
            if a.compare:
                out_b = os.path.join(a.out_dir, f"solve-memory-b-{rules}-{t}.fanotb")
                peak_b, wall_b, _ = solve(a.compare, rules, t, out_b)
                same = filecmp.cmp(out, out_b, shallow=False)
                row += (f" {peak_b:,} | {peak_b * 1024 / classes:.1f} | {wall_b:.2f} | "
                        f"{'identical' if same else 'DIFFER'} |")
                os.remove(out_b)
            if a.tables:
                earlier = os.path.join(a.tables, f"{rules}.fanotb")
                same = os.path.exists(earlier) and filecmp.cmp(out, earlier, shallow=False)
                row += f" {'identical' if same else 'DIFFER'} |"
            os.remove(out)
            print(row, flush=True)
    print(f"\nafter: {load()}")


if __name__ == "__main__":
    main()
