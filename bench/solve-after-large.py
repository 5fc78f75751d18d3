#!/usr/bin/python3
"""Small solves in a long-lived process after a large one, against a fresh
process: minor page faults (getrusage ru_minflt) and wall time of the small
solves only, each job in a process of its own.

  fresh   solve SMALL --repeat times;
  after   solve LARGE once, then SMALL --repeat times in the same process.

A process that solved a large reading should pay for its later small solves
what a fresh one pays (after the first, whose pages the arena then keeps).
Rounds alternate the two jobs; the medians and ranges over --rounds are
printed as a Markdown table (results/solve-memory.md).

Run (the module of a CMake build):
  PYTHONPATH=build/python /usr/bin/python3 bench/solve-after-large.py \\
      [--large cap3-board-3c3t] [--small standard] [--repeat 20] [--rounds 3] [--threads 2]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

JOB = r"""
import json, resource, sys, time
import fano
large, small, repeat, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if large:
    fano.solve(fano.Variant(large), threads=threads)
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
each = []
f0, t0 = faults(), time.perf_counter()
for _ in range(repeat):
    f, t = faults(), time.perf_counter()
    fano.solve(fano.Variant(small), threads=threads)
    each.append((faults() - f, time.perf_counter() - t))
total = (faults() - f0, time.perf_counter() - t0)
with open("/proc/self/status") as s:
    rss = next(int(l.split()[1]) for l in s if l.startswith("VmRSS:"))
print(json.dumps({"faults": total[0], "seconds": total[1], "first_faults": each[0][0],
                  "later_faults": sum(e[0] for e in each[1:]) / max(1, repeat - 1),
                  "later_ms": 1000 * sum(e[1] for e in each[1:]) / max(1, repeat - 1),
                  "rss_mib": rss / 1024}))
"""


def run(large, args):
    out = subprocess.run([sys.executable, "-c", JOB, large, args.small, str(args.repeat),
                          str(args.threads)], check=True, capture_output=True, text=True,
                         env=os.environ)
    return json.loads(out.stdout)


def summary(values, fmt):
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-{fmt.format(max(values))})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--large", default="cap3-board-3c3t")
    ap.add_argument("--small", default="standard")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    jobs = {"fresh": "", "after " + args.large: args.large}
    results = {k: [] for k in jobs}
    for _ in range(args.rounds):
        for name, large in jobs.items():
            results[name].append(run(large, args))
    print(f"{args.repeat} solves of {args.small}, {args.threads} threads, {args.rounds} rounds; "
          f"medians (ranges)")
    print()
    print("| process | minor faults, all solves | faults, first solve | faults, each later solve "
          "| wall s, all solves | ms, each later solve | RSS after, MiB |")
    print("|---|---|---|---|---|---|---|")
    for name, rs in results.items():
        cols = [summary([r["faults"] for r in rs], "{:,.0f}"),
                summary([r["first_faults"] for r in rs], "{:,.0f}"),
                summary([r["later_faults"] for r in rs], "{:,.0f}"),
                summary([r["seconds"] for r in rs], "{:.2f}"),
                summary([r["later_ms"] for r in rs], "{:.1f}"),
                summary([r["rss_mib"] for r in rs], "{:.0f}")]
        print(f"| {name} | " + " | ".join(cols) + " |")


if __name__ == "__main__":
    main()
