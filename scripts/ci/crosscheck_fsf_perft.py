#!/usr/bin/env python3
"""Compare Janggun's `go perft` root moves with Fairy-Stockfish's over UCI.

Collects positions by playing seeded random games with pyffish (variant janggi, random
start setups, random length), then for each position sends to BOTH engines

    uci / setoption name UCI_Variant value <variant> / isready
    position fen <fen>
    go perft <depth>

parses the `<move>: <count>` lines up to `Nodes searched: N`, and compares the move sets
(and, at depth > 1, the per-move counts and totals). A FEN root has no history, so these
positions test move generation only (passes included; a FEN is never "after a pass").

Usage:
  scripts/ci/crosscheck_fsf_perft.py [--engine target/release/janggun]
        [--fsf /usr/games/fairy-stockfish] [--positions 200] [--seed S] [--depth 1]
  scripts/ci/crosscheck_fsf_perft.py --engine /usr/games/fairy-stockfish     (self-test)
  scripts/ci/crosscheck_fsf_perft.py --engine pyffish     (FSF binary vs pyffish legal_moves)
Ends with "N passed, M failed" (positions); exit 1 on mismatches, 2 if an engine fails.
"""

import argparse
import random
import re
import sys
import time

from janggi_common import (START_FENS, EngineError, UciEngine, board_of, generals_facing,
                           is_pass, squares)

PERFT_LINE = re.compile(r"^([a-i](?:10|[1-9])[a-i](?:10|[1-9])):\s*(\d+)\s*$")


class PerftEngine(UciEngine):
    """A UCI engine asked for `go perft`."""

    def perft(self, fen, depth):
        """{move: count}, total, and any 'error' lines."""
        self.send(f"position fen {fen}", f"go perft {depth}")
        moves, errors = {}, []
        end = time.time() + self.timeout
        while True:
            line = self.readline(end - time.time())
            m = PERFT_LINE.match(line)
            if m:
                moves[m.group(1)] = int(m.group(2))
            elif line.startswith("Nodes searched"):
                total = int(line.split(":")[1])
                break
            elif "error" in line.lower():
                errors.append(line)
        # FSF runs perft on its search thread: sync before the next command.
        self.send("isready")
        self.wait_for("readyok")
        return moves, total, errors


class PyffishEngine:
    """Depth-1 'perft' from pyffish.legal_moves, to check the FSF binary itself."""

    def __init__(self, variant):
        import pyffish
        self.sf, self.variant, self.name = pyffish, variant, "pyffish"

    def perft(self, fen, depth):
        if depth != 1:
            raise EngineError("pyffish pseudo-engine supports --depth 1 only")
        moves = {m: 1 for m in self.sf.legal_moves(self.variant, fen, [])}
        return moves, len(moves), []

    def close(self):
        pass


def collect_positions(n, seed, variant):
    """n distinct positions sampled from seeded random pyffish games (several per game)."""
    import pyffish as sf
    rng = random.Random(seed)
    out, seen = [], set()

    def take(root, since):
        pos = sf.get_fen(variant, root, since)
        board = " ".join(pos.split()[:2])
        if board not in seen and len(out) < n:
            seen.add(board)
            out.append(pos)

    while len(out) < n:
        root, since = rng.choice(START_FENS), []   # pyffish root + moves since (kept short)
        cur = board_of(root)
        length = rng.randint(1, 220)
        for ply in range(length):
            legal = sf.legal_moves(variant, root, since)
            if not legal:
                break
            quiet = [m for m in legal if not is_pass(m)]
            in_check = len(quiet) == len(legal)  # no pass offered: in check
            if rng.random() < (0.6 if in_check else 0.06):
                take(root, since)
            if generals_facing(cur) and rng.random() < 0.6:
                take(root, since)
            caps = [m for m in quiet if squares(m)[1] in cur]
            if caps and rng.random() < 0.3:
                m = rng.choice(caps)
            else:
                m = rng.choice(quiet if quiet and rng.random() > 0.05 else legal)
            if is_pass(m) and sf.is_immediate_game_end(variant, root, since + [m])[0]:
                break  # keep positions from which play goes on
            since.append(m)
            a, b = squares(m)
            if a != b:
                cur[b] = cur.pop(a)
            if len(since) > 12:  # legality looks 2 plies back (passes, bikjang)
                root, since = sf.get_fen(variant, root, since[:-2]), since[-2:]
        if sf.legal_moves(variant, root, since):
            take(root, since)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/janggun",
                    help="engine under test (UCI), or 'pyffish'")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish", help="reference engine (UCI)")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--variant", default="janggi", help="UCI_Variant for both engines")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per engine answer")
    ap.add_argument("--max-report", type=int, default=20)
    a = ap.parse_args()

    positions = collect_positions(a.positions, a.seed, a.variant)
    engines = []
    try:
        ref = PerftEngine([a.fsf], "fsf", a.variant, a.timeout)
        engines.append(ref)
        if a.engine == "pyffish":
            test = PyffishEngine(a.variant)
        else:
            test = PerftEngine([a.engine], "engine", a.variant, a.timeout)
        engines.append(test)
        passed = failed = 0
        for i, fen in enumerate(positions):
            want, want_total, _ = ref.perft(fen, a.depth)
            got, got_total, errors = test.perft(fen, a.depth)
            ok = set(want) == set(got) and (a.depth == 1 or (want == got and want_total == got_total))
            if ok and not errors:
                passed += 1
                continue
            failed += 1
            if failed <= a.max_report:
                print(f"MISMATCH #{i} position fen {fen}")
                missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
                if missing or extra:
                    print(f"  {test.name} misses {missing} ; {test.name} extra {extra}")
                if a.depth > 1:
                    diff = [f"{m} fsf {want[m]} vs {got[m]}" for m in sorted(set(want) & set(got)) if want[m] != got[m]]
                    if diff:
                        print("  counts: " + "; ".join(diff[:10]))
                    print(f"  total: fsf {want_total} vs {got_total}")
                for e in errors[:3]:
                    print(f"  {test.name} said: {e}")
                sys.stdout.flush()
    except EngineError as e:
        print(f"error: {e}", file=sys.stderr)
        print("0 passed, 1 failed")
        for eng in engines:
            try:
                eng.close()
            except Exception:
                pass
        sys.exit(2)
    for eng in engines:
        eng.close()
    if failed > a.max_report:
        print(f"# ... {failed - a.max_report} more mismatches not shown")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
