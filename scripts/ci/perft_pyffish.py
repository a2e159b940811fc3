#!/usr/bin/env python3
"""Perft counts from pyffish (Fairy-Stockfish's rules) for positions that
the FSF reference files lack: extra pieces (a third chariot or cannon, six
soldiers) and guards set up outside their palace.

  scripts/ci/perft_pyffish.py --depth 3 FEN...           print `<fen>;D1 n;D2 n;...`
  scripts/ci/perft_pyffish.py --check tests/data/extra_pieces.epd --engine BIN
                                                      compare janggun perft
"""
import argparse
import subprocess
import sys

import pyffish as sf


def perft(fen, moves, depth):
    legal = sf.legal_moves("janggi", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(fen, moves + [m], depth - 1) for m in legal)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--check", help="EPD file of `fen;D1 n;...` lines")
    ap.add_argument("--engine", default="target/release/janggun")
    ap.add_argument("--max-depth", type=int, default=3,
                    help="with --check: skip deeper counts (pyffish is slow)")
    ap.add_argument("fens", nargs="*")
    a = ap.parse_args()
    if a.check:
        bad = 0
        for line in open(a.check):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, *counts = line.split(";")
            for c in counts:
                d, n = c.split()
                d = int(d[1:])
                if d > a.max_depth:
                    continue
                ours = subprocess.run([a.engine, "perft", str(d), "--fen", fen],
                                      capture_output=True, text=True).stdout
                ours = int(ours.split("Nodes searched:")[1])
                theirs = perft(fen, [], d)
                ok = ours == theirs == int(n)
                bad += not ok
                print(f"{'ok ' if ok else 'BAD'} d{d} janggun {ours} pyffish {theirs} file {n}  {fen}")
        sys.exit(1 if bad else 0)
    for fen in a.fens:
        counts = ";".join(f"D{d} {perft(fen, [], d)}" for d in range(1, a.depth + 1))
        print(f"{fen};{counts}")


if __name__ == "__main__":
    main()
