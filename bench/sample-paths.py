#!/usr/bin/env python3
"""Writes API paths of distinct reachable positions of the standard game, found
by seeded random playouts through a running server's answers (each answer lists
every move's resulting position): bench/sample-paths.py URL COUNT > FILE."""
import json, random, sys, urllib.parse, urllib.request

url, count = sys.argv[1].rstrip("/"), int(sys.argv[2])
rng = random.Random(2026)
seen = []
known = set()
while len(seen) < count:
    position = "-/-/-/-/-/-/- w"
    for _ in range(60):
        path = "/api/v2/standard?position=" + urllib.parse.quote(position.replace(" ", "_"), safe="/_-")
        if position not in known:
            known.add(position)
            seen.append(path)
        answer = json.load(urllib.request.urlopen(url + path))
        if not answer["moves"]:
            break
        position = rng.choice(answer["moves"])["position"]
print("\n".join(seen[:count]))
