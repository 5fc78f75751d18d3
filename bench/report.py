#!/usr/bin/env python3
"""Writes results/report/: what the solution teaches, as an HTML page with figures.

    results/regenerate.sh    # runs this after bench/variants.py
    /usr/bin/python3 bench/report.py --fano build/tools/fano --variants results/variants.json

Needs matplotlib (Debian: python3-matplotlib). Every number drawn comes from the
fano tool's JSON (`fano export`, `fano strategy`, `fano show --svg`) or from the
rows bench/variants.py wrote (--variants); the numbers behind each figure are
also written to results/report/data.json, which tests/test_results.cpp
recomputes from the same commands.
"""
import argparse
import collections
import html
import json
import os
import subprocess
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TRAPS_SHOWN = 6
SINGLE_DRAW_PLIES = 8   # the placement phase
SINGLE_DRAW_SHOWN = 4
LOOKAHEAD = 4


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def value_by_phase(fano, table):
    """Positions of the standard game by pieces on the board (placement) or
    movement, and value for the side to move; remoteness of decided ones."""
    by = collections.defaultdict(lambda: {"win": 0, "loss": 0, "draw": 0})
    remote = collections.Counter()
    out = run([fano, "export", "--tb", table, "--format", "jsonl", "--out", "-"])
    for line in out.splitlines():
        r = json.loads(line)
        key = str(r["pieces"]) if r["phase"] == "placement" else "movement"
        by[key][r["value"]] += 1
        if r["value"] != "draw":
            remote[r["plies"]] += 1
    order = sorted((k for k in by if k != "movement"), key=int) + ["movement"]
    return ({k: by[k] for k in order}, {str(k): remote[k] for k in sorted(remote)})


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def figure_values(data, path):
    keys = list(data)
    fig, ax = plt.subplots(figsize=(8, 4))
    bottom = [0] * len(keys)
    for value, colour in (("win", "#2e7d32"), ("draw", "#9e9e9e"), ("loss", "#c62828")):
        heights = [data[k][value] for k in keys]
        ax.bar(keys, heights, bottom=bottom, label=f"{value} for the side to move", color=colour)
        bottom = [b + h for b, h in zip(bottom, heights)]
    ax.set_xlabel("pieces on the board (placement phase), then the movement phase")
    ax.set_ylabel("reachable positions")
    ax.set_title("Standard game: the value of every position")
    ax.legend()
    save(fig, path)


def figure_remoteness(data, path):
    fig, ax = plt.subplots(figsize=(8, 3.5))
    ax.bar([int(k) for k in data], list(data.values()), color="#455a64")
    ax.set_yscale("log")
    ax.set_xlabel("plies to the end under perfect play (won and lost positions)")
    ax.set_ylabel("positions (log scale)")
    ax.set_title("Standard game: how far decided positions are from the end")
    save(fig, path)


def figure_lookahead(data, path):
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for side, marker in (("white", "o"), ("black", "s")):
        ks = [int(k) for k in data[side]]
        ax.plot(ks, [data[side][str(k)] for k in ks], marker=marker, label=side)
    ax.set_xlabel("K: plies the search:K player looks ahead")
    ax.set_ylabel("plies of the shortest forced loss")
    ax.set_title("Standard game: every lookahead up to K loses")
    ax.set_xticks(range(1, LOOKAHEAD + 1))
    ax.legend()
    save(fig, path)


def figure_variants(rows, path):
    fig, ax = plt.subplots(figsize=(8, 5))
    colours = {"draw": "#9e9e9e", "loss": "#c62828", "win": "#2e7d32"}
    for r in rows:
        ax.scatter(r["decisive"], r["plies_fallible"], color=colours[r["start"]], s=18)
        if r["name"] in ("standard", "cap2-projective", "cap3-board", "cap3-projective"):
            ax.annotate(r["name"], (r["decisive"], r["plies_fallible"]), fontsize=8)
    for value, colour in colours.items():
        ax.scatter([], [], color=colour, label=f"start: {value} for White")
    ax.set_xlabel("decisive positions (%)")
    ax.set_ylabel("mean plies, perfect:0.9 against perfect:0.9")
    ax.set_title("Every reading of the rules: decisiveness and game length")
    ax.legend()
    save(fig, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fano", default="build/tools/fano")
    ap.add_argument("--variants", required=True, help="the rows bench/variants.py wrote (JSON)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "results",
                                                  "report"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with open(a.variants) as f:
        rows = json.load(f)
    data = {}
    with tempfile.TemporaryDirectory() as folder:
        table = os.path.join(folder, "standard.fanotb")
        run([a.fano, "solve", "--out", table])
        data["values"], data["remoteness"] = value_by_phase(a.fano, table)
        look = json.loads(run([a.fano, "strategy", "--tb", table, "--lookahead", str(LOOKAHEAD),
                               "--json"]))
        data["lookahead"] = {
            r["side"]: {str(i + 1): c["refutation"]["plies"] for i, c in enumerate(r["checks"])
                        if c["refutation"]}
            for r in look["results"]}
        traps = {}
        for depth in (1, 2):
            t = json.loads(run([a.fano, "strategy", "--tb", table, "--traps", str(depth),
                                "--limit", str(TRAPS_SHOWN), "--json"]))["traps"]
            traps[str(depth)] = t
            for i, trap in enumerate(t["ranked"]):
                run([a.fano, "show", "--tb", table, trap["position"], "--svg",
                     os.path.join(a.out, f"trap-{depth}-{i + 1}.svg")])
        data["traps"] = traps
        sd = json.loads(run([a.fano, "strategy", "--tb", table, "--single-draw",
                             str(SINGLE_DRAW_PLIES), "--limit", str(SINGLE_DRAW_SHOWN),
                             "--json"]))["single_draw"]
        data["single_draw"] = {k: sd[k] for k in ("plies", "drawn_by_ply", "single_by_ply",
                                                  "single_classes_by_ply")}
        data["single_draw"]["shallowest"] = [
            {"line": o["line"], "position": o["position"], "move": o["move"]}
            for o in sd["openings"]]
        for i, o in enumerate(sd["openings"]):
            run([a.fano, "show", "--tb", table, o["position"], "--svg",
                 os.path.join(a.out, f"single-draw-{i + 1}.svg")])
    data["variants"] = [{k: r[k] for k in ("name", "start", "decisive", "plies_fallible")}
                        for r in rows]
    figure_values(data["values"], os.path.join(a.out, "values.png"))
    figure_remoteness(data["remoteness"], os.path.join(a.out, "remoteness.png"))
    figure_lookahead(data["lookahead"], os.path.join(a.out, "lookahead.png"))
    figure_variants(rows, os.path.join(a.out, "variants.png"))
    with open(os.path.join(a.out, "data.json"), "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    page = [
        "<!doctype html><meta charset=utf-8><title>Fano330-R-Morris: what the solution teaches"
        "</title><style>body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
        "img{max-width:100%}figure{margin:1em 0}.traps{display:flex;flex-wrap:wrap;gap:1em}"
        ".traps figure{width:14em}"
        # printed (the PDF): no figure, table or board cut across two pages
        "@media print{figure,table,.traps figure{break-inside:avoid}h2{break-after:avoid}}</style>",
        "<h1>Fano330-R-Morris: what the solution teaches</h1>",
        "<p>Generated by <code>results/regenerate.sh</code> (bench/report.py) from the fano "
        "tool's output; the numbers behind every figure are in <code>data.json</code>.</p>",
        "<h2>The value of positions</h2><img src=values.png alt='values by phase'>",
        "<img src=remoteness.png alt='remoteness histogram'>",
        "<h2>How far ahead a player must look</h2><img src=lookahead.png alt='lookahead'>",
        "<p>search:K (a K-ply minimax without the table, any of its best-scored moves) loses "
        "by force for both sides for every K tried: see results/published-analyses.md, "
        "section 9, and results/lookahead.md.</p>",
        "<h2>Traps</h2>",
    ]
    for depth, t in data["traps"].items():
        page.append(f"<h3>A move a {depth}-ply look calls safe loses</h3><p>{t['traps']} of "
                    f"{t['to_keep']} won or drawn positions hold such a move; the deepest:</p>"
                    "<div class=traps>")
        for i, trap in enumerate(t["ranked"]):
            page.append(
                f"<figure><img src=trap-{depth}-{i + 1}.svg alt='{html.escape(trap['position'])}'>"
                f"<figcaption><code>{html.escape(trap['position'])}</code> "
                f"({trap['to_move']} to move, {trap['value']}): {html.escape(trap['move'])} "
                f"looks safe and loses in {trap['loses_in']}; {trap['keeping']} of "
                f"{trap['moves']} moves keep the value</figcaption></figure>")
        page.append("</div>")
    sd = data["single_draw"]
    page.append("<h2>Openings with a single drawing move</h2><p>Positions reached in the "
                "first plies when both sides keep the draw, and those where the side to move "
                "has exactly one drawing move (<code>fano strategy --single-draw "
                f"{sd['plies']}</code>; results/strategy-size.md for the smallest never-lose "
                "strategies):</p><table><tr><th>ply<th>drawn positions<th>one drawing move"
                "<th>classes</tr>")
    for p, row in enumerate(zip(sd["drawn_by_ply"], sd["single_by_ply"],
                                sd["single_classes_by_ply"])):
        page.append(f"<tr><td>{p}<td>{row[0]}<td>{row[1]}<td>{row[2]}</tr>")
    page.append("</table><p>The shallowest, one a symmetry class:</p><div class=traps>")
    for i, o in enumerate(sd["shallowest"]):
        page.append(
            f"<figure><img src=single-draw-{i + 1}.svg alt='{html.escape(o['position'])}'>"
            f"<figcaption>after <code>{html.escape(' '.join(o['line']))}</code> only "
            f"{html.escape(o['move'])} draws</figcaption></figure>")
    page.append("</div>")
    page.append("<h2>Every reading compared</h2><img src=variants.png alt='variants'>"
                "<p>The table: results/variants.md.</p>")
    with open(os.path.join(a.out, "index.html"), "w") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
