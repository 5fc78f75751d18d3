#!/usr/bin/python3
"""Timings of the Python module's array calls on a million position codes.

The codes: every position of random games of the standard game (a fixed
seed), repeated and shuffled to one million entries, so the probes meet the
table in no particular order, as a user's sample would. Prints, for each
call, the median and the fastest wall time of --runs runs and the median CPU
time of the process (all threads; on a loaded machine the wall time of a
parallel call is not the work it does), in seconds per million codes:
  probe_codes    Tablebase.probe_codes(codes)  (all cores, then each thread count)
  canonical      fano.canonical_codes(codes)   (when the module has it)
  parse          fano.parse_positions(texts)   (a list of notation strings)
  probe_many     Tablebase.probe_many(list of int codes), for comparison

Run (the module of a CMake build, the table of the source tree or the cache):
  PYTHONPATH=build/python /usr/bin/python3 bench/python-arrays.py [--runs 5] [--tb FILE]
"""
import argparse
import random
import resource
import statistics
import time

import numpy as np

import fano

N = 1_000_000


def game_codes(seed, games=4000):
    """The codes of every position of `games` random games (40 plies at most)."""
    rng = random.Random(seed)
    codes = set()
    for _ in range(games):
        p = fano.Position.empty()
        for _ in range(40):
            codes.add(p.code)
            moves = p.legal_moves()
            if not moves:
                break
            p = p.play(rng.choice(moves))
    return np.array(sorted(codes), dtype=np.uint64)


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(f, runs):
    """(median wall, fastest wall, median CPU time of all threads) of runs calls."""
    times, cpu = [], []
    for _ in range(runs):
        c = cpu_seconds()
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
        cpu.append(cpu_seconds() - c)
    return statistics.median(times), min(times), statistics.median(cpu)


def report(name, result, count=N):
    median, best, cpu = result
    scale = 1e6 / count
    print(f"{name:28s} wall median {median * scale:.3f} s/M, fastest {best * scale:.3f} s/M; "
          f"CPU {cpu * scale:.3f} s/M")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tb", help="table file (default: fano.open_tablebase())")
    ap.add_argument("--skip-slow", action="store_true", help="no probe_many, no parse")
    args = ap.parse_args()

    tb = fano.open_tablebase(args.tb) if args.tb else fano.open_tablebase()
    unique = game_codes(1)
    rng = np.random.default_rng(2)
    codes = rng.choice(unique, N)
    print(f"fano {fano.__version__}, {tb}; {len(unique)} distinct codes of random games, "
          f"{N} drawn")

    report("probe_codes", timed(lambda: tb.probe_codes(codes, variant=tb.variant), args.runs))
    # The same over the whole table (every stored class drawn: the probes
    # meet all of the index, not the few thousand classes of the games).
    spread = rng.choice(tb.classes()["code"], N)
    report("probe_codes (all classes)", timed(lambda: tb.probe_codes(spread, variant=tb.variant), args.runs))
    if "threads" in tb.probe_codes.__doc__:
        for t in (1, 2):
            report(f"probe_codes threads={t}",
                   timed(lambda: tb.probe_codes(codes, variant=tb.variant, threads=t), args.runs))
    if hasattr(fano, "canonical_codes"):
        report("canonical_codes", timed(lambda: fano.canonical_codes(codes), args.runs))
    if args.skip_slow:
        return
    texts = [str(fano.Position.from_code(int(c))) for c in unique]
    many = [texts[i] for i in rng.integers(0, len(texts), N)]
    if hasattr(fano, "parse_positions"):
        report("parse_positions", timed(lambda: fano.parse_positions(many), args.runs))
    as_ints = codes.tolist()
    report("probe_many (list of ints)", timed(lambda: tb.probe_many(as_ints, variant=tb.variant), max(1, args.runs // 2)))


if __name__ == "__main__":
    main()
