#!/usr/bin/env python3
"""Differential test of Janggun's rules against pyffish (Fairy-Stockfish's Python binding).

Plays random games with pyffish from all 16 start setups and, at every ply, compares
pyffish's legal move set and game-end verdicts with the engine's batch interface:

    <engine> rules --batch
    in : <variant> <fen> [moves m1 m2 ...]           (one position per line)
    out: legal <sorted moves> | immediate <v> | optional <v>    (v: none|1-0|0-1|1/2-1/2)
         or: error <message>

"immediate": no legal move (checkmate), two passes, pass while bikjang stands.
"optional":  repetition (incl. perpetual check, janggimodern shuttling) and move limit.
Results are from Cho's (white's) view. Semantics: docs/PEERS.md.

Each engine line carries the full game from its start FEN, so the engine's history
handling (repetition window, passes) is tested. pyffish is queried with the position
before the last capture plus the moves since (equivalent for FSF, since its repetition
window ends at the last capture), and for legal moves with the position two plies back
plus those two moves (legality only looks that far back: two passes in a row, or a pass
in bikjang, leave no moves); both are checked by --selftest. Every pyffish call costs ~1.4 ms of fixed overhead
(it re-initialises the variant) plus ~5 us per replayed move.

pyffish's is_immediate_game_end / is_optional_game_end are only called where they can
possibly be true (after a pass or with facing generals; when the move clock is near the
limit, the position occurred before, or a piece went back) plus a random 5% of plies;
--full-oracle calls them at every ply, and --selftest checks the shortcut against it.

Usage:
  scripts/ci/crosscheck_pyffish.py [--engine target/release/janggun] [--games 2000] [--seed S]
                                [--variants janggi,janggitraditional,...] [--max-plies 300]
  scripts/ci/crosscheck_pyffish.py --selftest [--games 200]     (pyffish only, no engine)
Ends with a line "N passed, M failed" (positions); exit status 1 if M > 0, 2 on an
engine/setup error.
"""

import argparse
import multiprocessing as mp
import os
import random
import sys
import time
from collections import Counter, defaultdict

from janggi_common import (FILES, PYFFISH_VARIANTS, START_FENS, EngineError, Pipe, board_of,
                           generals_facing, is_pass, material, result_of, reverse, squares)

try:
    import pyffish as sf
except ImportError:  # pragma: no cover
    sys.exit("error: pyffish is not installed (pip install pyffish)")

# Move-limit plies (FSF: optional end once the halfmove clock >= 2 * nMoveRule).
MOVE_LIMIT = {"janggi": 100, "janggitraditional": 100, "janggicasual": 100, "janggimodern": 200}
NFOLD = {"janggi": 3, "janggitraditional": 3, "janggicasual": 3, "janggimodern": 4}
COUNTING = {"janggi": True, "janggitraditional": False, "janggicasual": False, "janggimodern": True}


# ----------------------------------------------------------------------------- board helpers

class Board:
    """Minimal board tracker (no rules): piece placement, side to move, clocks."""

    def __init__(self, fen):
        parts = fen.split()
        self.sq = board_of(fen)
        self.stm = parts[1]
        self.clock = int(parts[4]) if len(parts) > 4 else 0
        self.fullmove = int(parts[5]) if len(parts) > 5 else 1

    def copy(self):
        b = Board.__new__(Board)
        b.sq, b.stm, b.clock, b.fullmove = dict(self.sq), self.stm, self.clock, self.fullmove
        return b

    def is_capture(self, move):
        return not is_pass(move) and squares(move)[1] in self.sq

    def push(self, move):
        a, b = squares(move)
        if a != b:
            captured = self.sq.pop(b, None)
            self.sq[b] = self.sq.pop(a)
            self.clock = 0 if captured else self.clock + 1
        else:
            self.clock += 1
        if self.stm == "b":
            self.fullmove += 1
        self.stm = "b" if self.stm == "w" else "w"

    def key(self):
        return (tuple(sorted(self.sq.items())), self.stm)

    def fen(self):
        rows = []
        for rank in range(10, 0, -1):
            row, empty = "", 0
            for f in FILES:
                p = self.sq.get((f, rank))
                if p is None:
                    empty += 1
                else:
                    if empty:
                        row += str(empty)
                    row, empty = row + p, 0
            if empty:
                row += str(empty)
            rows.append(row)
        return f"{'/'.join(rows)} {self.stm} - - {self.clock} {self.fullmove}"

    def generals_facing(self):
        return generals_facing(self.sq)

    def general(self, color):
        g = "K" if color == "w" else "k"
        for s, p in self.sq.items():
            if p == g:
                return s
        return None

    def in_check(self, color=None):
        """Is `color`'s (default: side to move) general attacked? Only steers move choice."""
        color = color or self.stm
        g = self.general(color)
        return g is not None and attacked(self, g, "b" if color == "w" else "w")

    def gives_check(self, move):
        b = self.copy()
        b.push(move)
        return b.in_check()


PALACE_DIAG = {  # palace diagonal neighbours (the lines d1-e2-f3, f1-e2-d3 and d8-e9-f10, f8-e9-d10)
    (3, 1): [(4, 2)], (5, 1): [(4, 2)], (3, 3): [(4, 2)], (5, 3): [(4, 2)],
    (4, 2): [(3, 1), (5, 1), (3, 3), (5, 3)],
    (3, 8): [(4, 9)], (5, 8): [(4, 9)], (3, 10): [(4, 9)], (5, 10): [(4, 9)],
    (4, 9): [(3, 8), (5, 8), (3, 10), (5, 10)],
}


def attacked(board, target, by):
    """Is square `target` (file letter, rank) attacked by side `by` ('w'/'b')? Janggi
    piece moves, enough to steer the random games toward checks (verified in --selftest)."""
    own = str.isupper if by == "w" else str.islower
    at = lambda f, r: board.sq.get((FILES[f], r)) if 0 <= f < 9 and 1 <= r <= 10 else None
    inside = lambda f, r: 0 <= f < 9 and 1 <= r <= 10
    tf, tr = FILES.index(target[0]), target[1]

    def mine(p, kind):
        return p is not None and own(p) and p.lower() == kind

    # chariot and cannon along ranks and files
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        f, r, screen = tf + df, tr + dr, None
        while inside(f, r):
            p = at(f, r)
            if p is not None:
                if screen is None:
                    if mine(p, "r"):
                        return True
                    if p.lower() == "c":
                        break
                    screen = p
                else:
                    if mine(p, "c"):
                        return True
                    break
            f, r = f + df, r + dr
    # palace diagonals: chariot (any distance on the line), cannon (corner over centre)
    t = (tf, tr)
    if t in PALACE_DIAG:
        for n in PALACE_DIAG[t]:
            p = at(*n)
            if mine(p, "r"):
                return True
            far = (2 * n[0] - tf, 2 * n[1] - tr)
            if far in PALACE_DIAG and far != t:
                q = at(*far)
                if p is None and mine(q, "r"):
                    return True
                if p is not None and p.lower() != "c" and mine(q, "c"):
                    return True
    # horse: orthogonal step then diagonal step
    for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (-2, 1), (2, -1), (-2, -1)):
        hf, hr = tf - df, tr - dr
        if inside(hf, hr) and mine(at(hf, hr), "n"):
            bf, br = (hf, hr + dr // 2) if abs(dr) == 2 else (hf + df // 2, hr)
            if at(bf, br) is None:
                return True
    # elephant: orthogonal step then two diagonal steps
    for df, dr in ((2, 3), (-2, 3), (2, -3), (-2, -3), (3, 2), (-3, 2), (3, -2), (-3, -2)):
        ef, er = tf - df, tr - dr
        if inside(ef, er) and mine(at(ef, er), "b"):
            sf_, sr = (0, dr // 3) if abs(dr) == 3 else (df // 3, 0)
            b1 = (ef + sf_, er + sr)
            b2 = (b1[0] + (df > 0) * 2 - 1, b1[1] + (dr > 0) * 2 - 1)
            if at(*b1) is None and at(*b2) is None:
                return True
    # soldier: forward or sideways; diagonally forward on the enemy palace lines
    fwd = 1 if by == "w" else -1
    for f, r in ((tf, tr - fwd), (tf - 1, tr), (tf + 1, tr)):
        if mine(at(f, r), "p"):
            return True
    if t in PALACE_DIAG:
        for n in PALACE_DIAG[t]:
            if n[1] == tr - fwd and mine(at(*n), "p"):
                return True
    return False


# ----------------------------------------------------------------------------- verdicts

def verdict(value, stm):
    """pyffish value (side-to-move view) -> result from Cho's (white's) view."""
    return result_of(value, stm == "w")


def counting_verdict(board):
    w, b = material(board.sq)
    return "1-0" if w - b > 1.5 else "0-1"


class Oracle:
    """pyffish queries for one game, rooted at the position before the last capture."""

    def __init__(self, variant, fen, full, rng):
        self.variant, self.full, self.rng = variant, full, rng
        self.root_fen = fen      # pyffish root (position before the last capture, or start)
        self.since = []          # moves from root_fen to the current position
        self.board = Board(fen)
        self.keys = [self.board.key()]  # positions since root_fen (for the shortcut)
        self.recent = [(fen, None)]  # (FEN, move that led to it) for the last plies
        self.calls = 0

    def push(self, move):
        if self.board.is_capture(move):
            self.root_fen = self.board.fen()
            self.since = []
            self.keys = [self.board.key()]
        self.board.push(move)
        self.since.append(move)
        self.keys.append(self.board.key())
        self.recent = (self.recent + [(self.board.fen(), move)])[-3:]

    def _q(self, fn):
        self.calls += 1
        return fn(self.variant, self.root_fen, self.since)

    def legal(self):
        self.calls += 1
        root = self.recent[0][0]
        return sf.legal_moves(self.variant, root, [m for _, m in self.recent[1:]])

    def may_end_immediately(self):
        last = self.since[-1] if self.since else None
        return (last is not None and is_pass(last)) or self.board.generals_facing()

    def may_end_optionally(self):
        b = self.board
        if b.clock >= MOVE_LIMIT[self.variant] - 2:
            return True
        if self.keys[-1] in self.keys[:-1]:
            return True
        if self.variant == "janggimodern" and self.since and not is_pass(self.since[-1]):
            rev = reverse(self.since[-1])
            if rev in self.since[-5:-1]:
                return True
        return False

    def answer(self, legal=None, force_full=False):
        """(sorted legal moves, immediate verdict, optional verdict) at the current ply."""
        if legal is None:
            legal = self.legal()
        stm = self.board.stm
        full = self.full or force_full
        spot = self.rng.random() < 0.05
        imm = "none"
        if full or spot or self.may_end_immediately() or not legal:
            end, val = self._q(sf.is_immediate_game_end)
            if end:
                imm = verdict(val, stm)
        if imm == "none" and not legal:
            imm = verdict(self._q(sf.game_result), stm)
        opt = "none"
        if full or spot or self.may_end_optionally():
            end, val = self._q(sf.is_optional_game_end)
            if end:
                opt = verdict(val, stm)
        return sorted(legal), imm, opt


# ----------------------------------------------------------------------------- random games

def choose(rng, board, legal, history, style):
    passes = [m for m in legal if is_pass(m)]
    moves = [m for m in legal if not is_pass(m)]
    if passes and board.generals_facing() and rng.random() < style["bikjang_pass"]:
        return passes[0]
    if passes and (not moves or rng.random() < style["pass"]):
        return passes[0]
    if len(history) >= 2 and not is_pass(history[-2]) and rng.random() < style["shuttle"]:
        back = reverse(history[-2])
        if back in moves:
            return back
    if style["check"] and rng.random() < style["check"]:
        cands = rng.sample(moves, min(len(moves), 12))
        checks = [m for m in cands if board.gives_check(m)]
        if checks:
            return rng.choice(checks)
    caps = [m for m in moves if board.is_capture(m)]
    if caps and rng.random() < style["capture"]:
        return rng.choice(caps)
    if caps and style["capture"] == 0 and len(caps) < len(moves):
        moves = [m for m in moves if m not in caps]  # quiet style: provoke the move limit
    return rng.choice(moves)


def play_game(args):
    """Worker: play one random game; return its record with pyffish's answers per ply."""
    gi, seed, variants, max_plies, full, verify = args
    rng = random.Random(f"{seed}:{gi}")
    variant = variants[gi % len(variants)]
    fen = rng.choice(START_FENS)
    style = {
        "pass": rng.choice([0.0, 0.0, 0.01, 0.03, 0.1]),
        "bikjang_pass": rng.choice([0.2, 0.6]),
        "shuttle": rng.choice([0.0, 0.0, 0.2, 0.5, 0.8]),
        "capture": rng.choice([0.0, 0.1, 0.3, 0.7]),
        "check": rng.choice([0.0, 0.0, 0.5, 0.9]),
    }
    oracle = Oracle(variant, fen, full, random.Random(f"{seed}:{gi}:spot"))
    moves, answers, problems = [], [], []
    while True:
        legal = oracle.legal()
        ans = oracle.answer(legal)
        if verify:
            ref = oracle.answer(legal, force_full=True)
            if ref != ans:
                problems.append(f"shortcut differs at ply {len(moves)}: {ans[1:]} vs full {ref[1:]}")
            full_legal = sf.legal_moves(variant, fen, moves)
            if sorted(full_legal) != ans[0]:
                problems.append(f"rooted legal moves differ at ply {len(moves)}")
            if oracle.board.in_check() != sf.gives_check(variant, fen, moves):
                problems.append(f"check detector differs at ply {len(moves)} (affects move choice only)")
            if oracle.board.fen() != sf.get_fen(variant, fen, moves):
                problems.append(f"FEN tracker differs at ply {len(moves)}: {oracle.board.fen()}")
            for fn in (sf.is_immediate_game_end, sf.is_optional_game_end):
                e1, v1 = fn(variant, fen, moves)
                e2, v2 = fn(variant, oracle.root_fen, oracle.since)
                if e1 != e2 or (e1 and v1 != v2):
                    problems.append(f"rooted {fn.__name__} differs at ply {len(moves)}")
        answers.append(ans)
        if ans[1] != "none" or ans[2] != "none" or len(moves) >= max_plies or not legal:
            break
        m = choose(rng, oracle.board, legal, moves, style)
        moves.append(m)
        oracle.push(m)
    reason = classify(variant, fen, moves, answers[-1], oracle.board, max_plies)
    return {"gi": gi, "variant": variant, "fen": fen, "moves": moves, "answers": answers,
            "reason": reason, "calls": oracle.calls, "problems": problems}


def classify(variant, fen, moves, ans, board, max_plies):
    _, imm, opt = ans
    if imm != "none":
        if not ans[0] and not (moves and is_pass(moves[-1])):
            return "checkmate"
        if len(moves) >= 2 and is_pass(moves[-1]) and is_pass(moves[-2]):
            return "two-passes"
        if moves and is_pass(moves[-1]):
            return "bikjang-pass"
        return "checkmate"
    if opt != "none":
        if board.clock >= MOVE_LIMIT[variant]:
            return "move-limit"
        b = Board(fen)
        seen = Counter([b.key()])
        for m in moves:
            if b.is_capture(m):
                seen = Counter()
            b.push(m)
            seen[b.key()] += 1
        base = counting_verdict(board) if COUNTING[variant] else "1/2-1/2"
        if seen[board.key()] >= NFOLD[variant]:
            return "repetition" if opt == base else "repetition-perpetual"
        return "shuttle(modern)" if variant == "janggimodern" else "optional-other"
    return "max-plies"


# ----------------------------------------------------------------------------- engine side

def start_engine(path, timeout):
    """`<engine> rules --batch`, its stderr kept apart from the answers."""
    try:
        return Pipe([path, "rules", "--batch"], "engine", timeout, merge_stderr=False)
    except EngineError as e:
        die(str(e))


def die(msg, engine=None):
    if engine is not None:
        engine.kill()
    print(f"error: {msg}", file=sys.stderr)
    print("0 passed, 1 failed")
    sys.exit(2)


def parse_engine(line):
    if line.startswith("error"):
        return None
    parts = [p.strip() for p in line.split("|")]
    if len(parts) != 3:
        return None
    f = [p.split() for p in parts]
    if not f[0] or f[0][0] != "legal" or f[1][:1] != ["immediate"] or f[2][:1] != ["optional"] \
            or len(f[1]) != 2 or len(f[2]) != 2:
        return None
    return sorted(f[0][1:]), f[1][1], f[2][1]


def query_line(variant, fen, moves):
    return f"{variant} {fen}" + (" moves " + " ".join(moves) if moves else "")


# ----------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/janggun")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--variants", default=",".join(PYFFISH_VARIANTS))
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="pyffish worker processes")
    ap.add_argument("--full-oracle", action="store_true", help="query every pyffish end check at every ply")
    ap.add_argument("--selftest", action="store_true", help="pyffish only; print end-reason statistics")
    ap.add_argument("--verify-every", type=int, default=10,
                    help="selftest: check shortcuts against full-history pyffish every Nth game")
    ap.add_argument("--max-report", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=120, help="seconds to wait for an engine line")
    a = ap.parse_args()

    variants = [v.strip() for v in a.variants.split(",") if v.strip()]
    for v in variants:
        if v not in PYFFISH_VARIANTS:
            sys.exit(f"error: pyffish has no Janggi variant {v!r} (known: {', '.join(PYFFISH_VARIANTS)})")
    engine = None
    if not a.selftest:
        if not os.path.exists(a.engine):
            die(f"engine binary {a.engine!r} not found (cargo build --release?)")
        engine = start_engine(a.engine, a.timeout)

    jobs = [(gi, a.seed, variants, a.max_plies, a.full_oracle,
             a.selftest and a.verify_every > 0 and gi % a.verify_every == 0)
            for gi in range(a.games)]
    t0 = time.time()
    passed = failed = reported = 0
    reasons = defaultdict(Counter)
    results = defaultdict(Counter)
    plies = calls = verified = 0
    problems = []
    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    with ctx.Pool(max(1, a.jobs)) as pool:
        for g in pool.imap(play_game, jobs, chunksize=2):
            plies += len(g["moves"]) + 1
            calls += g["calls"]
            reasons[g["variant"]][g["reason"]] += 1
            final = g["answers"][-1]
            res = final[1] if final[1] != "none" else final[2] if final[2] != "none" else "*"
            results[g["variant"]][res] += 1
            if a.selftest:
                if g["gi"] % max(1, a.verify_every) == 0 and a.verify_every > 0:
                    verified += len(g["answers"])
                for p in g["problems"]:
                    problems.append(f"game {g['gi']} {g['variant']} {g['fen']}: {p}")
                continue
            lines = [query_line(g["variant"], g["fen"], g["moves"][:k]) for k in range(len(g["answers"]))]
            engine.send(*lines)
            for k, line in enumerate(lines):
                try:
                    got_raw = engine.readline()
                except EngineError as e:
                    die(str(e), engine)
                got = parse_engine(got_raw)
                want = g["answers"][k]
                if got == want:
                    passed += 1
                    continue
                failed += 1
                if reported < a.max_report:
                    reported += 1
                    print(f"MISMATCH {line}")
                    print(f"  pyffish: immediate {want[1]} | optional {want[2]} | {len(want[0])} legal")
                    if got is None:
                        print(f"  engine : unparsable: {got_raw[:300]}")
                    else:
                        print(f"  engine : immediate {got[1]} | optional {got[2]} | {len(got[0])} legal")
                        missing = sorted(set(want[0]) - set(got[0]))
                        extra = sorted(set(got[0]) - set(want[0]))
                        if missing or extra:
                            print(f"  legal: engine misses {missing} ; engine extra {extra}")
                    sys.stdout.flush()
    if engine:
        engine.close()
    dt = time.time() - t0

    print(f"# {a.games} games, {plies} positions, {calls} pyffish calls, {dt:.1f}s", file=sys.stderr)
    for v in variants:
        rs = ", ".join(f"{k} {n}" for k, n in sorted(reasons[v].items()))
        res = ", ".join(f"{k} {n}" for k, n in sorted(results[v].items()))
        print(f"# {v}: end reasons: {rs} | results: {res}", file=sys.stderr)
    if a.selftest:
        for p in problems[: a.max_report]:
            print("SELFTEST " + p)
        print(f"# selftest: {verified} positions checked against full-history pyffish", file=sys.stderr)
        print(f"{verified - min(verified, len(problems))} passed, {len(problems)} failed")
        sys.exit(1 if problems else 0)
    if reported < failed:
        print(f"# ... {failed - reported} more mismatches not shown")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
