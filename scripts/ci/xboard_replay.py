#!/usr/bin/env python3
"""Replays the games of an XBoard `-saveGameFile` PGN with pyffish.

XBoard 4.9 writes the games of an engine-defined variant (Janggi) in its own
SAN, judged by the moves it believes the pieces have: the piece letters the
first engine's `setup` gave (N/B or H/E for horse and elephant), files a..i,
ranks 0..9 (one less than pyffish's 1..10), `x` for captures, `--` for a pass.
  * With Fairy-Stockfish's setup (parent `_xiangqi`, the soldier outside
    XBoard's pawn slot, `piece` commands): the soldier with its letter
    (`Pd6`, `Pcb3`), disambiguation by file, rank or both (`Afe1`, `A2f2`,
    `Ph5g5`), and Variant and VariantMen tags.
  * With the soldier in XBoard's pawn slot and no `piece` commands (parent
    `_janggi`): no Variant tag; the soldier is a chess pawn, a straight move
    without letter (`c5`, same file), any other soldier move in coordinates
    (`a3b3`, `h3xg3`), and on the last rank the promotion suffix `=.` (`g0=.`,
    sent to the engine as `usermove g1g0.`), read here as no promotion; other
    pieces often with their from-square (`Cb2e2`, `Ee3xg6`).
Coordinate moves (`b0c2`) and the pass spellings `@@@@`, `pass`, `0000` are
taken as well.

Checks, per game:
  * every move is legal in pyffish under the variant, and the SAN names
    exactly one legal move (piece letter, capture mark and disambiguation
    agree with the position);
  * the game has a decisive or drawn result (not `*`) whose comment names no
    forfeit, illegal move, time loss, crash or the like;
  * the result is the rules' verdict at the end: pyffish's game_result when
    the side to move has no legal move, else is_immediate_game_end, else
    is_optional_game_end (values from the side to move's view).
With --games N, the file must hold exactly N games.

A SAN that fits more than one legal move is a failure: XBoard judges
ambiguity by the moves it believes the pieces have, and when the engine's
`setup` put the guard in a slot XBoard moves diagonally only (and sent no
`piece` command), XBoard writes `Ae8` where two guards can go, and no PGN
reader can replay the file. With --debug-log XBOARD.debug the moves the
engines sent (`move b0c2`) settle which move was played, so the replay goes on
and checks the rest of the game; with --allow-ambiguous as well, such SAN is
only a warning.

  xboard_replay.py [--variant janggi] [--rules-as VARIANT] [--games N] [--debug-log FILE]
                   [--allow-ambiguous] [-v] GAMES.pgn

Prints one line per game and `N passed, M failed`; exit status 0 only if all
games pass.
"""
import argparse
import re
import sys

import pyffish as sf

from janggi_common import (CECP_MOVE, KIND, PASS_WORDS, board_of, cecp_to_uci,
                           engine_move_to_uci, pass_in, pyffish_verdict, read_pgn, squares)

# XBoard's PGN writes a pass as `--` (or `Z0`), besides the engines' words.
PASSES = PASS_WORDS + ("--", "Z0")
BAD_WORDS = ("forfeit", "illegal", "time", "crash", "disconnect", "abort",
             "adjudicat", "stall", "resign", "exit", "error", "bare king", "unfinished")
SAN = re.compile(r"^([A-Z])?([a-i])?([0-9])?(x|:)?([a-i])([0-9])(=?[A-Z.])?[+#!?]*$")


def read_debug_moves(path):
    """{game number: [UCI moves]} from an XBoard debug log: what the engines sent."""
    games, current = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^New game \((\d+)\)", line)
            if m:
                current = games.setdefault(int(m.group(1)), [])
                current.clear()
                continue
            m = re.match(r"^\d+ <(?:first |second): move (\S+)\s*$", line)
            if m and current is not None:
                current.append(m.group(1))
    return games


def resolve(token, legal, board):
    """The UCI move a PGN token names, or (None, why); why starts with
    "ambiguous" when several legal moves fit."""
    if token in PASSES:
        uci = pass_in(legal)
        return (uci, None) if uci else (None, "pass not legal here")
    if CECP_MOVE.match(token):
        uci = cecp_to_uci(token)
        if uci in legal:
            return uci, None
        if not SAN.match(token):
            return None, "%s (%s) not legal" % (token, uci)
    m = SAN.match(token)
    if not m:
        return None, "cannot read move %r" % token
    letter, ffile, frank, capture, tfile, trank, promo = m.groups()
    if promo and promo.lstrip("=") != ".":
        return None, "promotion %r in %r" % (promo, token)
    kind = KIND.get(letter or "P")
    if kind is None:
        return None, "unknown piece letter in %r" % token
    if letter is None and ffile is None:
        ffile = tfile    # a letterless soldier move, chess-pawn style: `c5` keeps its file
    to = (tfile, int(trank) + 1)
    cands = []
    for uci in legal:
        frm, dest = squares(uci)
        if dest != to or frm == to:
            continue
        piece = board.get(frm)
        if piece is None or KIND.get(piece.upper()) != kind:
            continue
        if ffile and frm[0] != ffile:
            continue
        if frank and frm[1] != int(frank) + 1:
            continue
        cands.append(uci)
    if len(cands) > 1:
        return None, "ambiguous: %s fits %s" % (token, " ".join(cands))
    if not cands:
        return None, "%s: no legal move" % token
    uci = cands[0]
    if bool(capture) != (to in board):
        return None, "%s: capture mark %s a piece on %s%d" % (
            token, "without" if capture else "but", to[0], to[1])
    return uci, None


def check(game, default_variant, verbose, sent=None, allow_ambiguous=False, verdict_too=True):
    """(problems, warnings, summary) of one game; sent: the engines' moves
    from the debug log, to settle an ambiguous SAN."""
    variant = game.tags.get("Variant", "").strip().lower() or default_variant
    if variant not in sf.variants():
        return ["variant %r unknown to pyffish" % variant], [], ""
    fen = game.tags.get("FEN") if game.tags.get("SetUp", "1") == "1" else None
    fen = fen or sf.start_fen(variant)
    fields = fen.split()
    if len(fields) == 4:           # XBoard writes `... w 0 1` without castling/e.p.
        fields[2:2] = ["-", "-"]
    fen = " ".join(fields)
    if sf.validate_fen(fen, variant) != sf.FEN_OK:
        return ["FEN %r not valid for %s" % (fen, variant)], [], ""
    fen = sf.get_fen(variant, fen, [])
    problems, warnings, moves = [], [], []
    for ply, token in enumerate(game.moves):
        current = sf.get_fen(variant, fen, moves)
        legal = sf.legal_moves(variant, fen, moves)
        board = board_of(current)
        uci, why = resolve(token, legal, board)
        where = "ply %d (%s to move)" % (ply + 1, "White" if current.split()[1] == "w" else "Black")
        if uci is None and why.startswith("ambiguous") and sent is not None:
            played = engine_move_to_uci(sent[ply], legal) if ply < len(sent) else None
            if played is not None and played in why.split(" fits ")[1].split():
                note = "%s: %s; the engine sent %s" % (where, why, sent[ply])
                (warnings if allow_ambiguous else problems).append(note)
                uci = played
            else:
                why += "; the debug log has %s there" % (sent[ply] if ply < len(sent) else "no move")
        if uci is None:
            problems.append("%s: %s" % (where, why))
            break
        if verbose:
            print("  %3d %-8s %s" % (ply + 1, token, uci))
        if not legal or sf.is_immediate_game_end(variant, fen, moves)[0]:
            # (an optional end, such as a repetition, may be played on)
            problems.append("ply %d: %s played after the game was over by the rules" % (ply + 1, token))
            break
        moves.append(uci)
    result, reason = game.result, game.reason
    summary = "%s {%s}, %d plies" % (result, reason, len(game.moves))
    if len(moves) < len(game.moves):
        return problems, warnings, summary
    if result is None or result == "*":
        problems.append("no result (game unfinished)")
        return problems, warnings, summary
    low = reason.lower()
    bad = [w for w in BAD_WORDS if w in low]
    if bad:
        problems.append("result comment {%s} says %s" % (reason, ", ".join(bad)))
    if not verdict_too:
        return problems, warnings, summary + " (result not judged)"
    over, rules = pyffish_verdict(variant, fen, moves)
    if not over:
        problems.append("the game is not over by the rules, but the PGN says %s" % result)
    elif rules != result:
        problems.append("the rules say %s at the end, the PGN says %s" % (rules, result))
    return problems, warnings, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--variant", default="janggi", help="if a game has no Variant tag")
    ap.add_argument("--rules-as", help="replay every game under this pyffish variant, whatever "
                    "its Variant tag says (for rule sets pyffish lacks, e.g. kja as janggi)")
    ap.add_argument("--no-result", action="store_true",
                    help="check the moves and that a result was given, not that it is the rules' verdict")
    ap.add_argument("--games", type=int, help="the number of games the file must hold")
    ap.add_argument("--debug-log", help="XBoard's -debug file, to settle ambiguous SAN")
    ap.add_argument("--allow-ambiguous", action="store_true",
                    help="ambiguous SAN the debug log settles is a warning, not a failure")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every move")
    args = ap.parse_args()
    with open(args.pgn, encoding="utf-8", errors="replace") as f:
        games = read_pgn(f.read())
    sent_by_game = read_debug_moves(args.debug_log) if args.debug_log else None
    passed = failed = 0
    for i, game in enumerate(games, 1):
        who = "%s - %s" % (game.tags.get("White", "?"), game.tags.get("Black", "?"))
        sent = None
        if sent_by_game is not None:
            rnd = game.tags.get("Round", "")
            sent = sent_by_game.get(int(rnd) if rnd.isdigit() else i)
        if args.rules_as:
            game.tags["Variant"] = args.rules_as
        problems, warnings, summary = check(game, args.variant, args.verbose,
                                            sent, args.allow_ambiguous, not args.no_result)
        if problems:
            failed += 1
            print("game %d (%s): FAIL %s" % (i, who, summary))
        else:
            passed += 1
            print("game %d (%s): ok %s" % (i, who, summary))
        for p in problems:
            print("    " + p)
        for w in warnings:
            print("    warning: " + w)
    if args.games is not None and len(games) != args.games:
        print("expected %d games, the file holds %d" % (args.games, len(games)))
        failed += max(0, args.games - len(games)) or 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
