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

PYFFISH_VARIANTS = {"janggi", "janggitraditional", "janggimodern", "janggicasual"}


def read_pgn(path):
    games, tags, moves, in_moves = [], {}, [], False
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"\{[^}]*\}", " ", text)
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r'^\[(\w+)\s+"(.*)"\]$', line)
        if m:
            if in_moves:
                games.append((tags, moves))
                tags, moves, in_moves = {}, [], False
            tags[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        for tok in line.split():
            if re.fullmatch(r"\d+\.(\.\.)?", tok):
                continue
            in_moves = True
            if tok in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            moves.append(tok)
    if tags or moves:
        games.append((tags, moves))
    return games


def verdict(variant, fen, moves):
    """(ended, result string) by pyffish."""
    side_white = sf.get_fen(variant, fen, moves).split()[1] == "w"

    def result(value):
        if value == 0:
            return "1/2-1/2"
        return "1-0" if (value > 0) == side_white else "0-1"

    if not sf.legal_moves(variant, fen, moves):
        return True, result(sf.game_result(variant, fen, moves))
    ended, value = sf.is_immediate_game_end(variant, fen, moves)
    if ended:
        return True, result(value)
    ended, value = sf.is_optional_game_end(variant, fen, moves)
    if ended:
        return True, result(value)
    return False, None


LETTER = {"k": "K", "a": "A", "b": "E", "e": "E", "n": "H", "h": "H", "r": "R", "c": "C", "p": "P"}
SQUARE = re.compile(r"([a-i])(10|[1-9])")


def board_of(fen):
    """Placement as a dict square -> FEN letter."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, file = 10 - i, 0
        for num, ch in re.findall(r"(\d+)|(.)", row):
            if num:
                file += int(num)
            else:
                board["abcdefghi"[file] + str(rank)] = ch
                file += 1
    return board


def split_uci(m):
    first = SQUARE.match(m)
    return first.group(0), m[first.end():]


def resolve(board, legal, tok):
    """The legal moves that SAN `tok` can name: same piece letter, same
    destination, origin consistent with the disambiguation (pyffish calls
    cost milliseconds each, so the exact SAN is compared once per game)."""
    body = tok.rstrip("+#")
    m = re.fullmatch(r"([KAEHRCP])([a-i]?(?:10|[1-9])?)(x?)([a-i](?:10|[1-9]))", body)
    if not m:
        return []
    letter, dis, _, dest = m.groups()
    out = []
    for mv in legal:
        frm, to = split_uci(mv)
        if to != dest or LETTER.get(board.get(frm, " ").lower()) != letter:
            continue
        if dis and not frm.startswith(dis) and not frm[1:] == dis:
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
        frm, to = split_uci(found[0])
        board[to] = board.pop(frm)
        moves.append(found[0])
    if tokens:
        sans = sf.get_san_moves(variant, fen, moves)
        for ply, (ours, theirs) in enumerate(zip(tokens, sans), 1):
            if ours != theirs:
                return [f"game {number} ply {ply}: we wrote '{ours}', pyffish writes '{theirs}'"], False
    ended, res = verdict(variant, fen, moves)
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
                passes = [m for m in legal if m[:len(m) // 2] == m[len(m) // 2:]]
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
    games = read_pgn(sys.argv[1])
    bad = 0
    plies = 0
    for i, (tags, tokens) in enumerate(games, 1):
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
