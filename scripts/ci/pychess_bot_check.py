#!/usr/bin/env python3
"""Starts Janggun as pychess-bot (pychess.org's BOT accounts, a lichess-bot
fork) does, through python-chess, and plays one move each way the bot asks.

  1. `chess.engine.SimpleEngine.popen_uci(ENGINE)`: `uci`, the option list.
  2. `configure()` with every option of pychess-bot's shipped config
     (Move Overhead 100, Threads 4, Hash 512, SyzygyPath ./syzygy/,
     UCI_ShowWDL true). python-chess refuses an option the engine does not
     declare, so an undeclared one fails here, as it stops the bot.
  3. `ping()`: `isready` / `readyok`.
  4. python-chess cannot hold a Janggi board, so the searches go through
     a command of our own on the same protocol object: `UCI_Variant janggi`
     through python-chess's option check (the value must be one the engine
     declared), `ucinewgame`, `isready`, `position fen <start> moves ...`
     (with a pass), then `go wtime ... btime ... winc ... binc ...` as the
     bot plays, and `go ponder ...` + `ponderhit` as it ponders. Every
     `info` line goes through python-chess's own parser (score and WDL
     included), and `bestmove` must be a Janggi move, legal if pyffish is
     installed.
Any `info string error`, any complaint python-chess logs, a missing
`bestmove` or an exception fails the check.

  pychess_bot_check.py [--engine target/release/janggun] [--timeout 30]

Needs the PyPI package `chess` (python-chess); installs nothing. Exit
status 0 when every step passed, 1 otherwise.
"""
import argparse
import asyncio
import logging
import os
import sys

from janggi_common import START_FENS, UCI_MOVE

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover
    sys.exit("error: python-chess is not installed (pip install chess)")

# pychess-bot's shipped `uci_options`.
SHIPPED_OPTIONS = {
    "Move Overhead": 100,
    "Threads": 4,
    "Hash": 512,
    "SyzygyPath": "./syzygy/",
    "UCI_ShowWDL": True,
}
# Inner elephants on both sides (the bot always sends a FEN); Cho passes
# after a horse move each, and Han answers.
START = START_FENS[0]
MOVES = ["b1c3", "b10c8", "e2e2", "h10g8"]
CLOCK = "wtime 10000 btime 10000 winc 100 binc 100"


class Transcript(logging.Handler):
    """python-chess logs every line in and out at DEBUG on the logger
    `chess.engine`, and its complaints (lines it could not parse, output no
    command expected) at WARNING and above."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.engine_lines, self.complaints = [], []

    def emit(self, record):
        text = record.getMessage()
        if ": >> " in text and record.levelno == logging.DEBUG:
            self.engine_lines.append(text.split(": >> ", 1)[1])
        elif record.levelno >= logging.WARNING:
            self.complaints.append(text)


class JanggiSearch(chess.engine.BaseCommand):
    """One search on a Janggi position: `UCI_Variant`, `ucinewgame`,
    `isready`, then (after `readyok`) `position` and `go`; `later` lines
    are sent that many seconds after the `go`. The result is the `bestmove`
    line's move and the parsed `info` lines."""

    def __init__(self, protocol, go, later=()):
        super().__init__(protocol)
        self.protocol, self.go, self.later = protocol, go, later
        self.infos = []
        self.ready = False

    def start(self):
        # What play() does first with a variant board: set UCI_Variant,
        # checked against the combo the engine declared.
        self.protocol._setoption("UCI_Variant", "janggi")
        self.protocol.send_line("ucinewgame")
        self.protocol.send_line("isready")

    def line_received(self, line):
        if not self.ready:
            if line.strip() == "readyok":
                self.ready = True
                self.protocol.send_line(f"position fen {START} moves {' '.join(MOVES)}")
                self.protocol.send_line(f"go {self.go}")
                for delay, text in self.later:
                    self.protocol.loop.call_later(delay, self.protocol.send_line, text)
            return
        if line.startswith("info "):
            # No pv: python-chess would read it as chess moves.
            self.infos.append(chess.engine._parse_uci_info(
                line[5:], chess.Board(), chess.engine.INFO_SCORE))
        elif line.startswith("bestmove"):
            words = line.split()
            self.result.set_result((words[1] if len(words) > 1 else "", self.infos))
            self.set_finished()


def search(engine, go, later, timeout):
    """Runs JanggiSearch on the engine's event loop, as SimpleEngine's own
    calls do, with a time limit (SimpleEngine.communicate has none)."""
    coro = asyncio.wait_for(
        engine.protocol.communicate(lambda p: JanggiSearch(p, go, later)), timeout)
    return asyncio.run_coroutine_threadsafe(coro, engine.protocol.loop).result()


def legal_moves():
    """pyffish's legal moves at the searched position, or None without pyffish."""
    try:
        import pyffish
    except ImportError:
        return None
    return pyffish.legal_moves("janggi", START, MOVES)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/janggun")
    ap.add_argument("--timeout", type=float, default=30, help="seconds for each step")
    args = ap.parse_args()
    path = os.path.abspath(args.engine)
    if not os.access(path, os.X_OK):
        print(f"pychess_bot_check: {path} is not executable (cargo build --release)")
        return 1

    log = logging.getLogger("chess.engine")
    transcript = Transcript()
    log.addHandler(transcript)
    log.setLevel(logging.DEBUG)
    log.propagate = False

    problems = []
    engine = None
    step = "popen_uci"
    try:
        engine = chess.engine.SimpleEngine.popen_uci(path, timeout=args.timeout)
        print(f"popen_uci: {engine.id.get('name', '?')}, {len(engine.options)} options")
        step = "configure"
        missing = [name for name in SHIPPED_OPTIONS if name not in engine.options]
        if missing:
            problems.append("options pychess-bot's config sets but the engine does not declare: "
                            + ", ".join(missing))
        engine.configure(SHIPPED_OPTIONS)
        print("configure: " + ", ".join(f"{k}={v}" for k, v in SHIPPED_OPTIONS.items()))
        step = "ping"
        engine.ping()
        print("ping: readyok")
        legal = legal_moves()
        for what, go, later in (("play", CLOCK, ()),
                                ("ponder", f"ponder {CLOCK}", ((0.3, "ponderhit"),))):
            step = what
            move, infos = search(engine, go, later, args.timeout)
            scored = [i for i in infos if "score" in i]
            last = scored[-1] if scored else {}
            print(f"{what}: go {go} -> bestmove {move}; {len(infos)} info lines, last score "
                  f"{last.get('score')}, wdl {last.get('wdl')}")
            if not UCI_MOVE.match(move):
                problems.append(f"{what}: bestmove {move!r} is no Janggi move")
            elif legal is not None and move not in legal:
                problems.append(f"{what}: bestmove {move} is not legal (pyffish)")
            if not scored:
                problems.append(f"{what}: no info line with a score")
            elif "wdl" not in last:
                problems.append(f"{what}: UCI_ShowWDL is on but the last score has no wdl")
        step = "quit"
        engine.quit()
        engine = None
    except Exception as e:  # python-chess raises EngineError, TimeoutError, ...
        problems.append(f"{step}: {type(e).__name__}: {e}")
    finally:
        if engine is not None:
            engine.close()
    problems += [f"engine said: {line}" for line in transcript.engine_lines
                 if line.startswith("info string error") or line.startswith("Error")]
    problems += [f"python-chess: {c}" for c in transcript.complaints]
    for p in problems:
        print("  problem: " + p)
    print("pychess_bot_check: " + ("FAILED" if problems else "OK"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
