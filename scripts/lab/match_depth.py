#!/usr/bin/env python3
"""Mean search depth of each engine over the moves it searched in a
`janggun match --json` file (the moves after the opening)."""
import json
import sys

if len(sys.argv) != 2:
    sys.exit("usage: match_depth.py MATCH.json")
with open(sys.argv[1]) as f:
    report = json.load(f)
total = {}
for g in report.get("games", []):
    first = g["fen"].split()[1] if len(g["fen"].split()) > 1 else "w"
    # The side to move after the opening: the starting side when the
    # opening dealt an even number of plies.
    movers = [g["cho"], g["han"]] if first == "w" else [g["han"], g["cho"]]
    start = g.get("book_plies") or 0
    for i, d in enumerate(g.get("depth", [])):
        name = movers[(start + i) % 2]
        s = total.setdefault(name, [0, 0])
        s[0] += d
        s[1] += 1
for name, (depth, moves) in sorted(total.items()):
    print(f"{name}: mean depth {depth / moves:.2f} over {moves} moves")
