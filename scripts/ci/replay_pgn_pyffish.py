#!/usr/bin/env python3
"""Replays every game of a `janggun match --pgn` file with pyffish.

Checks, per game:
  * every SAN token is exactly what pyffish writes for a legal move there
    (so our SAN writer matches pyffish's get_san / get_san_moves);
  * games the runner ended by the rules (Termination "normal") end in
    pyffish too, with the same result; games ended otherwise (adjudication,
    time forfeit, illegal move, crash) are not over in pyffish's eyes.

pyffish's verdict: no legal move -> game_result; else is_immediate_game_end;
else is_optional_game_end (a claimable end the runner applies at once).
Values are from the side to move's view: > 0 wins, < 0 loses, 0 draws.

  replay_pgn_pyffish.py GAMES.pgn              check a match PGN
  replay_pgn_pyffish.py --make-random N OUT    write N random janggi games
                                                (passes included) as PGN in
                                                pyffish SAN, for use as
                                                `--openings` in a SAN check
Exit status 0 if everything agrees, 1 otherwise.
"""
import random
import re
import sys

import pyffish as sf

from janggi_common import (KIND, PYFFISH_VARIANTS, board_of, is_pass, name, parse_square,
                           pyffish_verdict, read_pgn, squares)


def resolve(board, legal, tok):
    """The legal moves that SAN `tok` can name: same piece letter, same
    destination, origin consistent with the disambiguation (pyffish calls
    cost milliseconds each, so the exact SAN is compared once per game)."""
    body = tok.rstrip("+#")
    m = re.fullmatch(r"([KAEHRCP])([a-i]?(?:10|[1-9])?)(x?)([a-i](?:10|[1-9]))", body)
    if not m:
        return []
    letter, dis, _, dest = m.groups()
    dest = parse_square(dest)
    out = []
    for mv in legal:
        frm, to = squares(mv)
        if to != dest or KIND.get(board.get(frm, " ").upper()) != letter:
            continue
        if dis and not name(frm).startswith(dis) and str(frm[1]) != dis:
            continue
        out.append(mv)
    return out


def check_game(number, tags, tokens):
    rules = tags.get("Rules", "janggi")
    variant = rules if rules in PYFFISH_VARIANTS else None
    if variant is None:
        return [f"game {number}: rule set {rules} is unknown to pyffish (skipped)"], True
    fen = tags.get("FEN", sf.start_fen(variant))
    board = board_of(fen)
    moves = []
    for ply, tok in enumerate(tokens, 1):
        legal = sf.legal_moves(variant, fen, moves)
        found = resolve(board, legal, tok)
        if len(found) != 1:
            return [f"game {number} ply {ply}: '{tok}' names {len(found)} legal moves {found}"
                    f" after {' '.join(moves)}"], False
        frm, to = squares(found[0])
        board[to] = board.pop(frm)
        moves.append(found[0])
    if tokens:
        sans = sf.get_san_moves(variant, fen, moves)
        for ply, (ours, theirs) in enumerate(zip(tokens, sans), 1):
            if ours != theirs:
                return [f"game {number} ply {ply}: we wrote '{ours}', pyffish writes '{theirs}'"], False
    ended, res = pyffish_verdict(variant, fen, moves)
    term = tags.get("Termination", "")
    want = tags.get("Result")
    if term == "normal":
        if not ended:
            return [f"game {number}: runner says {want} {tags.get('EndReason')}, pyffish: not over"], False
        if res != want:
            return [f"game {number}: runner says {want} {tags.get('EndReason')}, pyffish: {res}"], False
    elif ended and tags.get("EndReason") != "max plies":
        return [f"game {number}: ended by {term} ({tags.get('EndReason')}) but pyffish says the game"
                f" was already over ({res})"], False
    return [], True


def make_random(n, out, seed=12345):
    rng = random.Random(seed)
    variant = "janggi"
    fen = sf.start_fen(variant)
    with open(out, "w", encoding="utf-8") as f:
        for g in range(n):
            moves = []
            for _ in range(rng.randint(20, 160)):
                legal = sf.legal_moves(variant, fen, moves)
                if not legal:
                    break
                # Passes often enough to meet them, but not so often that
                # every game ends after two of them.
                passes = [m for m in legal if is_pass(m)]
                others = [m for m in legal if m not in passes]
                pick = passes if passes and (rng.random() < 0.08 or not others) else others
                moves.append(rng.choice(pick))
                ended, _ = sf.is_immediate_game_end(variant, fen, moves)
                if ended or sf.is_optional_game_end(variant, fen, moves)[0]:
                    moves.pop()
                    break
            sans = sf.get_san_moves(variant, fen, moves)
            words = []
            for i, s in enumerate(sans):
                if i % 2 == 0:
                    words.append(f"{i // 2 + 1}.")
                words.append(s)
            f.write(f'[Event "random {g + 1}"]\n[Variant "Janggi"]\n[FEN "{fen}"]\n[SetUp "1"]\n\n')
            f.write(" ".join(words) + " *\n\n")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--make-random":
        make_random(int(sys.argv[2]), sys.argv[3])
        return 0
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        games = read_pgn(f.read())
    bad = 0
    plies = 0
    for i, game in enumerate(games, 1):
        tags, tokens = game.tags, game.moves
        msgs, ok = check_game(tags.get("Round", i), tags, tokens)
        plies += len(tokens)
        for m in msgs:
            print(m)
        bad += not ok
    print(f"{len(games)} games, {plies} plies replayed with pyffish {sf.version()}: "
          f"{len(games) - bad} passed, {bad} failed")
    return 1 if bad or not games else 0


if __name__ == "__main__":
    sys.exit(main())
