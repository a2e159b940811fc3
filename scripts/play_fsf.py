#!/usr/bin/env python3
"""Match: janggun vs Debian fairy-stockfish (UCI_Variant janggi), or any two
UCI engines, over all 16 start setups with colours reversed.

Every move is checked for legality with pyffish, and pyffish adjudicates the
end of each game (checkmate, passes, bikjang, repetition, move limit, with
counting as the variant says). Clocks are kept here: an engine that
oversteps its time loses. Example:

  scripts/play_fsf.py --games 40 --tc 5+0.05
  scripts/play_fsf.py --games 20 --tc 5+0.05 --a "target/release/janggun" \
      --a-opt Threads=2 --b "target/release/janggun" --b-opt Threads=1
"""
import argparse
import itertools
import shlex
import subprocess
import sys
import time

import pyffish as sf

BACK = {"inner": "RNBA1ABNR", "outer": "RBNA1ANBR", "left": "RBNA1ABNR", "right": "RNBA1ANBR"}
HAN_BACK = {"inner": "rnba1abnr", "outer": "rbna1anbr", "left": "rnba1anbr", "right": "rbna1abnr"}


GRACE = 0.1


def setup_fen(cho, han):
    return f"{HAN_BACK[han]}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{BACK[cho]} w - - 0 1"


class Engine:
    def __init__(self, cmd, options, variant, name):
        self.name = name
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        for k, v in options.items():
            self.send(f"setoption name {k} value {v}")
        self.ready()

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} died")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def play(white, black, fen, tc, variant, max_plies, nodes=None):
    base, inc = tc
    clock = [base, base]
    moves = []
    engines = [white, black]
    for e in engines:
        e.send("ucinewgame")
        e.ready()
    while True:
        ended, value = sf.is_immediate_game_end(variant, fen, moves)
        if not ended:
            ended, value = sf.is_optional_game_end(variant, fen, moves)
        if not ended and not sf.legal_moves(variant, fen, moves):
            ended, value = True, sf.game_result(variant, fen, moves)
        stm = len(moves) % 2
        if ended:
            if value == 0:
                return 0.5, "draw", moves
            winner = stm if value > 0 else 1 - stm
            return (1.0 if winner == 0 else 0.0), "rules", moves
        if len(moves) >= max_plies:
            return 0.5, "maxplies", moves
        e = engines[stm]
        e.send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
        wt, bt = max(0, int(clock[0] * 1000)), max(0, int(clock[1] * 1000))
        ms = int(inc * 1000)
        t0 = time.time()
        if nodes:
            e.send(f"go nodes {nodes}")
        else:
            e.send(f"go wtime {wt} btime {bt} winc {ms} binc {ms}")
        out = e.wait("bestmove")
        used = time.time() - t0
        clock[stm] -= used
        # A small grace for pipe latency on a shared machine, the same for both.
        if clock[stm] < -GRACE and not nodes:
            return (0.0 if stm == 0 else 1.0), f"time ({e.name})", moves
        clock[stm] += inc
        mv = out[-1].split()[1]
        if mv not in sf.legal_moves(variant, fen, moves):
            return (0.0 if stm == 0 else 1.0), f"illegal {mv} ({e.name})", moves
        moves.append(mv)


def parse_opts(items):
    out = {}
    for it in items or []:
        k, v = it.split("=", 1)
        out[k] = v
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=32)
    ap.add_argument("--tc", default="5+0.05", help="seconds+increment")
    ap.add_argument("--a", default="target/release/janggun")
    ap.add_argument("--b", default="/usr/games/fairy-stockfish")
    ap.add_argument("--a-opt", action="append")
    ap.add_argument("--b-opt", action="append")
    ap.add_argument("--variant", default="janggi")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--nodes", type=int, help="fixed nodes per move instead of a clock")
    ap.add_argument("--out", help="append games here: start fen | result | moves")
    args = ap.parse_args()
    base, inc = (float(x) for x in args.tc.split("+"))
    common = {"Threads": "1", "Hash": "16", "Move Overhead": "50"}
    a_opts = {**common, **parse_opts(args.a_opt)}
    b_opts = {**common, **parse_opts(args.b_opt)}
    a = Engine(args.a, a_opts, args.variant, "A")
    b = Engine(args.b, b_opts, args.variant, "B")
    setups = list(itertools.product(BACK, BACK))
    score = 0.0
    tally = {"win": 0, "draw": 0, "loss": 0}
    problems = 0
    out = open(args.out, "a") if args.out else None
    try:
        for g in range(args.games):
            cho, han = setups[(g // 2) % len(setups)]
            fen = setup_fen(cho, han)
            a_white = g % 2 == 0
            white, black = (a, b) if a_white else (b, a)
            res, why, moves = play(white, black, fen, (base, inc), args.variant, args.max_plies, args.nodes)
            a_res = res if a_white else 1.0 - res
            score += a_res
            tally["win" if a_res == 1 else "loss" if a_res == 0 else "draw"] += 1
            if why.startswith(("time", "illegal")):
                problems += 1
            if out:
                out.write(f"{fen} | {res} | {' '.join(moves)}\n")
                out.flush()
            print(f"game {g + 1}: {cho}/{han} A={'Cho' if a_white else 'Han'} "
                  f"A scores {a_res} ({why}, {len(moves)} plies) total {score}/{g + 1}",
                  flush=True)
    finally:
        a.quit()
        b.quit()
    n = args.games
    print(f"A: +{tally['win']} ={tally['draw']} -{tally['loss']}  score {score}/{n} "
          f"= {100 * score / max(n, 1):.1f}%  time/illegal problems: {problems}")


if __name__ == "__main__":
    sys.exit(main())
