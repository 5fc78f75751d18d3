#!/usr/bin/python3
"""The Python module and the fano command on the same two jobs, each a whole
process timed by /usr/bin/time (wall seconds and peak resident memory):

  text      a million positions in notation (every position of seeded random
            games, repeated and shuffled), one per line in a file, valued:
            Python  fano.parse_positions of the lines as a list of str
                    (python-str), or of the file's bytes (python-bytes), then
                    Tablebase.probe_codes (the values as arrays in memory);
            CLI     fano query --batch --value-only < file > /dev/null
                    (a JSON line per position).
  export    every reachable position of the standard table as CSV:
            Python  Tablebase.to_pandas(rows='positions').to_csv(file)
                    (python-pandas), or Tablebase.export(file)
                    (python-export); the bytes are checked equal to the
                    command's;
            CLI     fano export --out file.

Rounds alternate the two programs; the median and the range over --rounds
rounds (wall time, CPU time, peak memory) are printed as a Markdown table (results/python-vs-cli.md).

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

JOBS = {
    # The lines as a list of str, then the arrays.
    "text python-str": r"""
import sys, fano
tb = fano.open_tablebase(sys.argv[1])
with open(sys.argv[2]) as f:
    lines = f.read().splitlines()
value, plies, valid = tb.probe_codes(fano.parse_positions(lines))
assert valid.all()
""",
    # The file's bytes straight to parse_positions (no str per line).
    "text python-bytes": r"""
import sys, fano
tb = fano.open_tablebase(sys.argv[1])
with open(sys.argv[2], "rb") as f:
    value, plies, valid = tb.probe_codes(fano.parse_positions(f.read()))
assert valid.all()
""",
    "export python-pandas": r"""
import sys, fano
tb = fano.open_tablebase(sys.argv[1])
tb.to_pandas(rows="positions").to_csv(sys.argv[2], index=False)
""",
    "export python-export": r"""
import sys, fano
fano.open_tablebase(sys.argv[1]).export(sys.argv[2])
""",
}


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
    """(wall seconds, peak RSS in MiB, CPU seconds) of a process, by /usr/bin/time
    (the CPU time, user and system, says more than the wall time on a loaded
    machine)."""
    with tempfile.NamedTemporaryFile("r") as t:
        subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%e %M %U %S", *cmd], check=True,
                       stdin=stdin, stdout=stdout or subprocess.DEVNULL)
        wall, kib, user, system = t.read().split()[-4:]
    return float(wall), int(kib) / 1024, float(user) + float(system)


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
        results = {k: ([], [], []) for k in ("text python-str", "text python-bytes", "text cli",
                                         "export python-pandas", "export python-export",
                                         "export cli")}

        def add(key, r):
            results[key][0].append(r[0])
            results[key][1].append(r[1])
            results[key][2].append(r[2])

        cli_csv = os.path.join(work, "cli.csv")
        for _ in range(args.rounds):
            for key in ("text python-str", "text python-bytes"):
                add(key, measure([python, "-c", JOBS[key], args.tb, text]))
            with open(text) as f:
                add("text cli", measure([args.fano, "query", "--batch", "--value-only", "--tb",
                                         args.tb], stdin=f))
            add("export cli", measure([args.fano, "export", "--tb", args.tb, "--out", cli_csv]))
            for key in ("export python-pandas", "export python-export"):
                out = os.path.join(work, key.split()[1] + ".csv")
                add(key, measure([python, "-c", JOBS[key], args.tb, out]))
                with open(out, "rb") as a, open(cli_csv, "rb") as b:
                    assert a.read() == b.read(), f"{key} differs from fano export"
    print(f"fano {fano.__version__}; {N:,} lines of {distinct:,} distinct positions; "
          f"{args.rounds} rounds; PYTHONPATH={env_note}")
    print()
    print("| job | program | wall s, median (range) | CPU s, median (range) | peak MiB, median (range) |")
    print("|---|---|---|---|---|")
    for key, (walls, mibs, cpus) in results.items():
        job, program = key.split()
        print(f"| {job} | {program} | {summary(walls)} | {summary(cpus)} | {summary(mibs)} |")


if __name__ == "__main__":
    main()
