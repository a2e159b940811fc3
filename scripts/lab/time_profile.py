#!/usr/bin/env python3
"""How each engine of a `janggun match --json` file spent its clock.

    time_profile.py MATCH.json BASE+INC [NAME=BASE+INC ...]

BASE and INC in seconds, as `--tc` takes them; NAME=... gives one engine its
own clock (the Fairy-Stockfish done-match). The clock before each move is
rebuilt from the time control and the times the runner measured. Printed per
engine: the mean time per move in moves 1-10, 11-30 and 31 on (counted from
the end of the opening), the mean ratio of the time taken to the 32-move
budget (remaining / 32 + increment / 2, the budget of main before 1efb864),
the share of moves that took more than twice it, and the lowest clock of a
game, mean and minimum.
"""
import json
import sys


def clock(text):
    base, _, inc = text.partition("+")
    return float(base) * 1000, float(inc or 0) * 1000


if len(sys.argv) < 3:
    sys.exit(__doc__)
with open(sys.argv[1]) as f:
    report = json.load(f)
default = clock(sys.argv[2])
own = dict(arg.split("=", 1) for arg in sys.argv[3:])
stats = {}
for g in report.get("games", []):
    first = g["fen"].split()[1] if len(g["fen"].split()) > 1 else "w"
    movers = [g["cho"], g["han"]] if first == "w" else [g["han"], g["cho"]]
    start = g.get("book_plies") or 0
    left = {}
    for name in set(movers):
        left[name] = [*clock(own[name])] if name in own else [*default]
    low = {name: c[0] for name, c in left.items()}
    moves = {name: 0 for name in left}
    for i, t in enumerate(g.get("time_ms", [])):
        name = movers[(start + i) % 2]
        remaining, inc = left[name]
        s = stats.setdefault(name, {"k": [], "seg": [[], [], []], "low": []})
        budget = max(remaining - 10, 1) / 32 + inc / 2
        s["k"].append(t / budget)
        moves[name] += 1
        s["seg"][0 if moves[name] <= 10 else 1 if moves[name] <= 30 else 2].append(t)
        left[name][0] = remaining - t + inc
        low[name] = min(low[name], left[name][0])
    for name in left:
        if name in stats:
            stats[name]["low"].append(low[name])


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


for name, s in sorted(stats.items()):
    k = s["k"]
    segs = " ".join(f"{label} {mean(v):.0f} ms" for label, v in zip(["1-10", "11-30", "31+"], s["seg"]))
    print(
        f"{name}: {len(k)} moves, {segs}, time/budget {mean(k):.2f}, "
        f"over 2x {100 * sum(x > 2 for x in k) / len(k):.1f}%, "
        f"lowest clock mean {mean(s['low']):.0f} ms, min {min(s['low']):.0f} ms"
    )
