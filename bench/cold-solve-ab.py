#!/usr/bin/env python3
"""Whole-process cold `fano solve` of one variant, two binaries A and B run
pair by pair (A, B, A, B, ...) so that the shared machine's load falls on both
alike. Per binary and thread count: the median wall time (fork to reaping),
the median peak resident memory, minor faults and CPU time (user + system,
which other processes' load inflates less than the wall time; from wait4),
and the median of the per-pair ratios A/B.

The peak memory has a floor: the forked child holds this Python process's
resident pages (about 11 MB) until it execs, and wait4 reports the larger
of the two; for smaller figures use `/usr/bin/time -f %M`.

usage: bench/cold-solve-ab.py A_BINARY B_BINARY [--runs 15] [--threads 1,2]
       [--rules standard] [--out-dir /tmp]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time


def run(binary, out, threads, rules):
    argv = [binary, "solve", "--rules", rules, "--out", out, "--threads", str(threads)]
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            os.execv(binary, argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter() - t0) * 1e3
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit(f"{binary} solve failed (status {status})")
    return wall, usage.ru_maxrss, usage.ru_minflt, (usage.ru_utime + usage.ru_stime) * 1e3


def main():
    p = argparse.ArgumentParser()
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--runs", type=int, default=15)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rules", default="standard")
    p.add_argument("--out-dir", default="/tmp")
    o = p.parse_args()
    threads = [int(t) for t in o.threads.split(",")]
    res = {(x, t): [] for x in "ab" for t in threads}
    for _ in range(o.runs):
        for t in threads:
            for x, binary in (("a", o.a), ("b", o.b)):
                out = os.path.join(o.out_dir, f"cold-ab-{x}-{t}.fanotb")
                res[(x, t)].append(run(binary, out, t, o.rules))
    print(f"{o.rules}, {o.runs} runs each, interleaved A/B; medians; "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    print("binary threads   wall ms   peak MB   faults   CPU ms")
    for t in threads:
        for x, binary in (("a", o.a), ("b", o.b)):
            r = res[(x, t)]
            print(f"{x.upper()} {t:>2}        {statistics.median(v[0] for v in r):8.1f}"
                  f"  {statistics.median(v[1] for v in r) / 1024:8.1f}"
                  f"  {statistics.median(v[2] for v in r):7.0f}"
                  f"  {statistics.median(v[3] for v in r):7.1f}   ({binary})")
        ratios = [a[0] / b[0] for a, b in zip(res[("a", t)], res[("b", t)])]
        print(f"  {t} thread(s): A/B wall, median of pair ratios {statistics.median(ratios):.2f}")
    for x in "ab":
        if 1 in threads and 2 in threads:
            r1, r2 = res[(x, 1)], res[(x, 2)]
            print(f"{x.upper()}: 1 thread / 2 threads wall, median of pair ratios "
                  f"{statistics.median(a[0] / b[0] for a, b in zip(r1, r2)):.2f}")


if __name__ == "__main__":
    main()
