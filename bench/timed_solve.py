"""One whole `fano solve --json` process, timed from outside: shared by the
benchmarks that compare solves (bench/solve-memory.py, bench/solve-stages.py).
"""
import json
import os
import subprocess
import sys


def timed_solve(fano, rules, threads, out, script):
    """Solves `rules` on `threads` threads into `out` under /usr/bin/time.

    Returns the process's peak resident set (KB), its wall and CPU seconds
    (user + system) and the solve's JSON; on a failed solve exits naming
    `script`, the binary and the reading.
    """
    argv = ["/usr/bin/time", "-f", "%M %e %U %S", fano, "solve", "--rules", rules,
            "--threads", str(threads), "--out", out, "--json"]
    p = subprocess.run(argv, capture_output=True, text=True,
                       env=dict(os.environ, FANO_QUIET="1"))
    if p.returncode != 0:
        sys.exit(f"{script}: {fano} solve --rules {rules} failed: {p.stderr.strip()}")
    peak, wall, user, system = p.stderr.strip().splitlines()[-1].split()
    return {"peak": int(peak), "wall": float(wall), "cpu": float(user) + float(system),
            "info": json.loads(p.stdout)}
