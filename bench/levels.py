#!/usr/bin/env python3
"""The levels offered to people, measured: a round-robin tournament and one
Elo scale (results/levels.md, results/levels.json, analysis/src/level_ratings.inc).

Every level of `fano selfplay --list-players --json` (the one list, C++'s
player_levels()) plays every other and the anchors (greedy, random; perfect and
the page's former default perfect:0.5 for reference), as White and as Black,
GAMES seeded games a pairing and colour on each reading, through
`fano selfplay --json` (which plays a run's games in parallel; a run's counts
are the same at any thread count). One Bradley-Terry model over all the games
(a draw is half a point to each side) is fitted by maximum likelihood with
greedy anchored at 1000, on the Elo scale (400 points: 10 to 1 odds); a
rating's 95% interval is +-1.96 standard errors from the inverse of the
observed Fisher information. One virtual draw between each two players that
met (a weak prior, as BayesElo's) keeps the fit finite when a pairing never
scores. The fit is computed again from the runs' counts by --render, so
results/levels.md is a function of results/levels.json.

usage:
  bench/levels.py [--fano FANO] [--tables DIR] [--games N] [--seed S] [--threads T]
                  [--variants a,b,...] [--json-out F] [--md-out F] [--inc-out F]
  bench/levels.py --render results/levels.json     prints levels.md from the JSON
  bench/levels.py --inc results/levels.json        prints level_ratings.inc from it
"""
import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = ["standard", "cap2-projective", "cap3-board", "cap3-projective"]
# Players measured beside the levels: the anchor (greedy, the weakest a level
# may be), random, perfect play without traps and the page's former default.
REFERENCES = [
    ("greedy", "random among the moves that form no line"),
    ("random", "a uniformly random legal move"),
    ("perfect", "random among the moves of the best result (no traps)"),
    ("perfect:0.5", "the page's former default: half its moves perfect, half random"),
]
ANCHOR, ANCHOR_RATING = "greedy", 1000
ELO = 400 / math.log(10)  # Elo points per natural-log unit of the odds
Z95 = 1.959963984540054


def fail(message):
    print("levels.py: " + message, file=sys.stderr)
    sys.exit(2)


def fano_json(fano, args, env):
    r = subprocess.run([fano, *args], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        fail("'fano " + " ".join(args) + "' failed: " + r.stderr.strip())
    return json.loads(r.stdout)


# ---- the tournament ----

def players_of(levels):
    names = [p["name"] for p in levels]
    refs = [(n, d) for n, d in REFERENCES if n not in names]
    return names + [n for n, _ in refs], dict(refs)


def ensure_table(fano, tables, variant, env):
    path = os.path.join(tables, variant + ".fanotb")
    if not os.path.exists(path):
        print("levels.py: solving " + variant, file=sys.stderr)
        r = subprocess.run([fano, "solve", "--rules", variant, "--out", path],
                           capture_output=True, text=True, env=env)
        if r.returncode != 0:
            fail("could not solve " + variant + ": " + r.stderr.strip())


def run_tournament(args):
    env = dict(os.environ, FANO_QUIET="1", FANO_TABLES=args.tables)
    os.makedirs(args.tables, exist_ok=True)
    levels = fano_json(args.fano, ["selfplay", "--list-players", "--json"], env)["players"]
    players, _ = players_of(levels)
    runs = []
    for variant in args.variants:
        ensure_table(args.fano, args.tables, variant, env)
        for white in players:
            for black in players:
                if white == black:
                    continue
                d = fano_json(args.fano, ["selfplay", "--rules", variant, "--white", white,
                                          "--black", black, "--games", str(args.games),
                                          "--seed", str(args.seed), "--threads",
                                          str(args.threads), "--json"], env)
                runs.append({"variant": variant, "white": white, "black": black,
                             "games": d["games"], "white_wins": d["white_wins"]["count"],
                             "draws": d["draws"]["count"], "black_wins": d["black_wins"]["count"],
                             "command": d["command"]})
        print("levels.py: %s done (%d runs)" % (variant, len(runs)), file=sys.stderr)
    return levels, players, runs


# ---- the fit ----

def solve_linear(a, b):
    """Gauss-Jordan elimination with partial pivoting: x with a x = b."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def inverse(a):
    n = len(a)
    cols = [solve_linear(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def pair_tallies(players, runs):
    """games[i][j] and score[i][j] (i's points against j) over both colours,
    with one virtual draw per pair that met."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    games = [[0.0] * n for _ in range(n)]
    score = [[0.0] * n for _ in range(n)]
    for r in runs:
        w, b = index[r["white"]], index[r["black"]]
        games[w][b] += r["games"]
        games[b][w] += r["games"]
        score[w][b] += r["white_wins"] + r["draws"] / 2
        score[b][w] += r["black_wins"] + r["draws"] / 2
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j] > 0:
                games[i][j] += 1
                score[i][j] += 0.5
    return games, score


def fit(players, runs):
    """Ratings (Elo, ANCHOR = ANCHOR_RATING) and their 95% intervals, by
    Newton's method on the Bradley-Terry log-likelihood."""
    games, score = pair_tallies(players, runs)
    n = len(players)
    anchor = players.index(ANCHOR)
    free = [i for i in range(n) if i != anchor]
    r = [0.0] * n  # natural-log units, anchor at 0

    def derivatives():
        grad, hess = [0.0] * n, [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(n):
                if i == j or games[i][j] == 0:
                    continue
                p = 1 / (1 + math.exp(r[j] - r[i]))
                grad[i] += score[i][j] - games[i][j] * p
                w = games[i][j] * p * (1 - p)
                hess[i][i] += w  # the information: minus the log-likelihood's Hessian
                hess[i][j] -= w
        return grad, hess

    for _ in range(200):
        grad, info = derivatives()
        step = solve_linear([[info[i][j] for j in free] for i in free], [grad[i] for i in free])
        for k, i in enumerate(free):
            r[i] += step[k]
        if max(abs(s) for s in step) < 1e-12:
            break
    else:
        fail("the rating fit did not converge")
    _, info = derivatives()
    cov = inverse([[info[i][j] for j in free] for i in free])
    out = {}
    for i, p in enumerate(players):
        se = 0.0 if i == anchor else math.sqrt(cov[free.index(i)][free.index(i)])
        rating = ANCHOR_RATING + ELO * r[i]
        half = Z95 * ELO * se
        out[p] = (round(rating), round(rating - half), round(rating + half))
    return out


def player_totals(players, runs):
    """Each player's games and points (draws half), virtual draws left out."""
    tot = {p: [0, 0.0] for p in players}
    for r in runs:
        tot[r["white"]][0] += r["games"]
        tot[r["black"]][0] += r["games"]
        tot[r["white"]][1] += r["white_wins"] + r["draws"] / 2
        tot[r["black"]][1] += r["black_wins"] + r["draws"] / 2
    return tot


def ratings_table(levels, refs, players, runs):
    """Every player, strongest first (ties by name): the fit and the totals."""
    fitted = fit(players, runs)
    tot = player_totals(players, runs)
    by_name = {p["name"]: p for p in levels}
    rows = []
    for p in players:
        rating, low, high = fitted[p]
        level = by_name.get(p)
        rows.append({"name": p, "offered": level is not None,
                     "label": level["label"] if level else None,
                     "description": level["description"] if level else refs[p],
                     "rating": rating, "interval": [low, high], "games": tot[p][0],
                     "score": round(tot[p][1] / tot[p][0], 4)})
    rows.sort(key=lambda row: (-row["rating"], row["name"]))
    return rows


def compute(doc):
    """The JSON's fitted parts, from its levels and runs."""
    levels, runs = doc["levels"], doc["runs"]
    players, refs = players_of(levels)
    out = {"ratings": ratings_table(levels, refs, players, runs), "by_variant": {}}
    for v in doc["variants"]:
        rows = ratings_table(levels, refs, players, [r for r in runs if r["variant"] == v])
        out["by_variant"][v] = [{"name": r["name"], "rating": r["rating"],
                                 "interval": r["interval"]} for r in rows]
    return out


# ---- the files ----

def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores, %s %s" % (model, os.cpu_count() or 0, platform.system(),
                                    platform.release())


def load():
    return "%.2f %.2f %.2f" % os.getloadavg()


def interval_text(row):
    return "%d [%d, %d]" % (row["rating"], row["interval"][0], row["interval"][1])


def render(doc):
    """results/levels.md from the JSON (its fit recomputed and checked)."""
    fresh = compute(doc)
    for key in ("ratings", "by_variant"):
        if fresh[key] != doc[key]:
            fail("the JSON's %s are not the fit of its runs (run bench/levels.py again)" % key)
    m = doc["meta"]
    ratings = doc["ratings"]
    offered = [r for r in ratings if r["offered"]]
    players = [r["name"] for r in ratings]
    per_run = doc["runs"][0]["games"]
    out = []
    w = out.append
    w("# The levels offered to people, measured")
    w("")
    w("Generated by `bench/levels.py` (run by `results/regenerate.sh`; do not edit by hand) "
      "from `results/levels.json`, which holds every run's counts. `tests/test_selfplay.cpp` "
      "lays this file out again from the JSON, re-runs a slice of the runs, and checks that "
      "`player_levels()` (C++; `GET /api/v2/players`, `fano.player_levels()`, `fano selfplay "
      "--list-players`) lists the levels in this order with these ratings.")
    w("")
    w("## Method")
    w("")
    w("- Players: the %d levels of `fano selfplay --list-players` and, for reference, "
      "%s." % (len([r for r in ratings if r["offered"]]),
               ", ".join("`%s`" % r["name"] for r in ratings if not r["offered"])))
    w("- A round-robin: every player against every other, as White and as Black, %d seeded "
      "games a pairing and colour (`fano selfplay --games %d --seed %d --json`) on each of "
      "the readings %s: %d runs, %d games; each player played %d games." % (
          per_run, per_run, doc["seed"], ", ".join("`%s`" % v for v in doc["variants"]),
          len(doc["runs"]), sum(r["games"] for r in doc["runs"]), ratings[0]["games"]))
    w("- One Bradley-Terry model over all the games (a draw is half a point to each side; "
      "colours pooled, each pairing played equally often as White and as Black), fitted by "
      "maximum likelihood on the Elo scale (a gap of 400 points is 10 to 1 odds) with `%s` "
      "anchored at %d. One virtual draw between each two players that met keeps the fit "
      "finite where a pairing never scores (random against perfect play)." % (
          ANCHOR, ANCHOR_RATING))
    w("- Intervals: 95%%, +-1.96 standard errors from the inverse of the observed Fisher "
      "information; they measure each rating against `%s`'s, which is fixed." % ANCHOR)
    w("- Run on %s (%s), load average %s at the start and %s at the end; %.0f s." % (
        m["date"], m["machine"], m["load_start"], m["load_end"], m["seconds"]))
    w("")
    w("## The ratings")
    w("")
    w("All readings together, strongest first. \"offered\": the level's label in the "
      "opponent chooser; the others are measured for reference only.")
    w("")
    w("| player | offered as | rating [95% interval] | games | score | how it plays |")
    w("|---|---|---|---|---|---|")
    for r in ratings:
        w("| `%s` | %s | %s | %d | %.1f%% | %s |" % (
            r["name"], r["label"] or "-", interval_text(r), r["games"], 100 * r["score"],
            r["description"]))
    w("")
    steps = ["%s %+d" % (b["label"], b["rating"] - a["rating"])
             for a, b in zip(offered[1:], offered[:-1])]
    w("The steps between neighbouring levels (from the one below): " + ", ".join(reversed(steps))
      + ".")
    w("")
    by = {r["name"]: r for r in ratings}
    weakest = offered[-1]
    w("The weakest level, %s (`%s`), rates %s against `%s`'s %d: %s. No level forms a line "
      "at once while another move exists (`tests/test_analysis.cpp`, `PeopleLevels.*`: every "
      "reachable position of three small readings, and games of the standard one)." % (
          weakest["label"], weakest["name"], interval_text(weakest), ANCHOR, ANCHOR_RATING,
          "stronger" if weakest["interval"][0] > ANCHOR_RATING else
          "not measurably different" if weakest["interval"][1] >= ANCHOR_RATING else
          "WORSE, which a level must not be"))
    if "perfect:0.5" in by:
        w("")
        r = by["perfect:0.5"]
        w("The page's former default, `perfect:0.5`, rates %s: %s `%s`, as its random "
          "half of the moves forms lines." % (
              interval_text(r), "below" if r["interval"][1] < ANCHOR_RATING else "about",
              ANCHOR))
    w("")
    w("## By reading")
    w("")
    w("The same fit on each reading's games alone.")
    w("")
    w("| player | " + " | ".join(doc["variants"]) + " |")
    w("|---|" + "---|" * len(doc["variants"]))
    for p in players:
        cells = []
        for v in doc["variants"]:
            row = next(x for x in doc["by_variant"][v] if x["name"] == p)
            cells.append(interval_text(row))
        w("| `%s` | %s |" % (p, " | ".join(cells)))
    w("")
    orders = {v: [x["name"] for x in doc["by_variant"][v] if x["name"] in
                  [o["name"] for o in offered]] for v in doc["variants"]}
    same = [v for v in doc["variants"] if orders[v] == [o["name"] for o in offered]]
    w("The levels come in the same order on %s." % (
        "every reading" if len(same) == len(doc["variants"]) else
        ", ".join("`%s`" % v for v in same) + " (not on " +
        ", ".join("`%s`" % v for v in doc["variants"] if v not in same) + ")"))
    w("")
    w("## The runs")
    w("")
    w("White's wins, draws and Black's wins of every run (`results/levels.json` has the "
      "command of each).")
    w("")
    w("| reading | White | Black | games | White wins | draws | Black wins |")
    w("|---|---|---|---|---|---|---|")
    for r in doc["runs"]:
        w("| %s | `%s` | `%s` | %d | %d | %d | %d |" % (
            r["variant"], r["white"], r["black"], r["games"], r["white_wins"], r["draws"],
            r["black_wins"]))
    return "\n".join(out) + "\n"


def inc(doc):
    """The C++ data: the offered levels' ratings, strongest first."""
    lines = ["// Generated by bench/levels.py from results/levels.json: do not edit by hand.",
             "// The levels offered to people, strongest first: name, rating, 95% interval."]
    for r in doc["ratings"]:
        if r["offered"]:
            lines.append('{"%s", %d, %d, %d},' % (r["name"], r["rating"], r["interval"][0],
                                                 r["interval"][1]))
    return "\n".join(lines) + "\n"


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fano", default=os.environ.get("FANO",
                                                     os.path.join(ROOT, "build/tools/fano")))
    ap.add_argument("--tables", default=os.environ.get("FANO_TABLES",
                                                       os.path.join(ROOT, "tables")))
    ap.add_argument("--games", type=int, default=100, help="games a pairing and colour")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--json-out", default=os.path.join(ROOT, "results/levels.json"))
    ap.add_argument("--md-out", default=os.path.join(ROOT, "results/levels.md"))
    ap.add_argument("--inc-out", default=os.path.join(ROOT, "analysis/src/level_ratings.inc"))
    ap.add_argument("--render", metavar="JSON", help="print levels.md laid out from JSON")
    ap.add_argument("--inc", metavar="JSON", help="print level_ratings.inc from JSON")
    args = ap.parse_args()
    if args.render or args.inc:
        with open(args.render or args.inc) as f:
            doc = json.load(f)
        sys.stdout.write(render(doc) if args.render else inc(doc))
        return
    if args.games < 1:
        fail("--games must be at least 1")
    args.variants = [v for v in args.variants.split(",") if v]
    if not os.access(args.fano, os.X_OK):
        fail("no fano tool at '%s' (build it first, see README.md)" % args.fano)
    start, load_start = time.monotonic(), load()
    levels, _, runs = run_tournament(args)
    doc = {"generated_by": "bench/levels.py",
           "meta": {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                    "machine": machine(), "load_start": load_start, "load_end": load(),
                    "seconds": round(time.monotonic() - start, 1)},
           "seed": args.seed, "games_per_run": args.games, "variants": args.variants,
           "anchor": {"name": ANCHOR, "rating": ANCHOR_RATING},
           "levels": [{"name": p["name"], "label": p["label"], "description": p["description"]}
                      for p in levels],
           "runs": runs}
    doc.update(compute(doc))
    write(args.json_out, json.dumps(doc, indent=1) + "\n")
    write(args.md_out, render(doc))
    write(args.inc_out, inc(doc))
    print("levels.py: wrote %s, %s and %s (%.0f s)" % (
        args.json_out, args.md_out, args.inc_out, doc["meta"]["seconds"]), file=sys.stderr)


if __name__ == "__main__":
    main()
