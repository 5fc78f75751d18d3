#!/usr/bin/python3
"""The Python module and the fano command on the same two jobs, each a whole
process timed by /usr/bin/time (wall seconds and peak resident memory):

  text      a million positions in notation (every position of seeded random
            games, repeated and shuffled), one per line in a file, valued:
            Python  fano.parse_positions(lines) then Tablebase.probe_codes
                    (the values as arrays in memory);
            CLI     fano query --batch --value-only < file > /dev/null
                    (a JSON line per position).
  export    every reachable position of the standard table as CSV:
            Python  Tablebase.to_pandas(rows='positions').to_csv(file)
                    (pandas; the bytes are checked equal to the command's);
            CLI     fano export --out file.

Rounds alternate the two programs; the median and the range over --rounds
rounds are printed as a Markdown table (results/python-vs-cli.md).

Run (the module and command of a CMake build; a table file):
  PYTHONPATH=build/python /usr/bin/python3 bench/python-vs-cli.py \\
      --fano build/tools/fano --tb tables/standard.fanotb [--rounds 5]
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile

import fano

N = 1_000_000

TEXT_JOB = r"""
import sys, fano
tb = fano.open_tablebase(sys.argv[1])
with open(sys.argv[2]) as f:
    lines = f.read().splitlines()
codes = fano.parse_positions(lines)
value, plies, valid = tb.probe_codes(codes)
assert valid.all()
"""

EXPORT_JOB = r"""
import sys, fano
tb = fano.open_tablebase(sys.argv[1])
tb.to_pandas(rows="positions").to_csv(sys.argv[2], index=False)
"""


def positions_file(path, seed=1):
    """A million positions of random games, one per line."""
    rng = random.Random(seed)
    seen = set()
    for _ in range(4000):
        p = fano.Position.empty()
        for _ in range(40):
            seen.add(str(p))
            moves = p.legal_moves()
            if not moves:
                break
            p = p.play(rng.choice(moves))
    distinct = sorted(seen)
    with open(path, "w") as f:
        for _ in range(N):
            f.write(rng.choice(distinct) + "\n")
    return len(distinct)


def measure(cmd, stdin=None, stdout=None):
    """(wall seconds, peak RSS in MiB) of a process, by /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r") as t:
        subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%e %M", *cmd], check=True,
                       stdin=stdin, stdout=stdout or subprocess.DEVNULL)
        wall, kib = t.read().split()[-2:]
    return float(wall), int(kib) / 1024


def summary(values):
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fano", required=True, help="the fano command")
    ap.add_argument("--tb", required=True, help="the standard table file")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    python = sys.executable
    env_note = os.environ.get("PYTHONPATH", "")
    with tempfile.TemporaryDirectory() as work:
        text = os.path.join(work, "positions.txt")
        distinct = positions_file(text)
        results = {k: ([], []) for k in ("text python", "text cli", "export python", "export cli")}
        for _ in range(args.rounds):
            with open(text) as f:
                r = measure([python, "-c", TEXT_JOB, args.tb, text])
                results["text python"][0].append(r[0])
                results["text python"][1].append(r[1])
                r = measure([args.fano, "query", "--batch", "--value-only", "--tb", args.tb],
                            stdin=f)
                results["text cli"][0].append(r[0])
                results["text cli"][1].append(r[1])
            py_csv, cli_csv = os.path.join(work, "py.csv"), os.path.join(work, "cli.csv")
            r = measure([python, "-c", EXPORT_JOB, args.tb, py_csv])
            results["export python"][0].append(r[0])
            results["export python"][1].append(r[1])
            r = measure([args.fano, "export", "--tb", args.tb, "--out", cli_csv])
            results["export cli"][0].append(r[0])
            results["export cli"][1].append(r[1])
            with open(py_csv, "rb") as a, open(cli_csv, "rb") as b:
                assert a.read() == b.read(), "to_pandas().to_csv() differs from fano export"
    print(f"fano {fano.__version__}; {N:,} lines of {distinct:,} distinct positions; "
          f"{args.rounds} rounds; PYTHONPATH={env_note}")
    print()
    print("| job | program | wall s, median (range) | peak MiB, median (range) |")
    print("|---|---|---|---|")
    for key, (walls, mibs) in results.items():
        job, program = key.split()
        print(f"| {job} | {program} | {summary(walls)} | {summary(mibs)} |")


if __name__ == "__main__":
    main()
