#!/usr/bin/env python3
"""A person's game against Janggun in XBoard, played with the mouse and the
keyboard under Xvfb: xdotool clicks the pieces and types the pass.
The person gets XBoard's -tc/-inc, the engine that divided by --odds (by
default 5 minutes + 2 s for the person, 20 s + 0.13 s for Janggun).

XBoard runs with Janggun as its only engine, in Machine White mode: Janggun
plays Cho (White, moving first) and "the person" plays Han at the top of an
unflipped board. Each of the person's moves is a legal move picked at random
(seeded) from pyffish's list; it is entered by clicking the piece and then
its target square, except that the move number --pass-at (or the first one
after it where a pass is legal) is a pass typed into XBoard's type-in box as
`@@@@`. After every
move the script checks in XBoard's debug log that XBoard sent that very move
to the engine (`usermove ...`), and it waits for the engine's answer.

At the end it saves the game from XBoard, takes a screenshot, and replays
the PGN with scripts/ci/xboard_replay.py (every move legal, the result the
rules' verdict, no forfeit or time loss). Variants pyffish does not know
(kja, kojf) are replayed under janggi, whose moves they share; their result
is then checked only when the game ended in checkmate.

  xboard_human.py [--engine target/release/janggun] [--variant janggi]
                  [--tc 5] [--inc 2] [--odds 15] [--pass-at 3] [--moves 150]
                  [--seed 1] [--out target/xboard-human]

Needs xboard, Xvfb, xdotool, xwd, ImageMagick's convert and pyffish.
Exit status 0 only if every move went through and the replay passed.
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pyffish as sf

from janggi_common import engine_move_to_uci, is_pass, squares, uci_to_cecp

HERE = os.path.dirname(os.path.abspath(__file__))
XBOARD = "/usr/games/xboard"
PYFFISH_VARIANTS = set(sf.variants())


def fail(msg):
    print("xboard_human: " + msg, file=sys.stderr)
    sys.exit(1)


def start_xvfb():
    for n in range(120, 200):
        if os.path.exists("/tmp/.X%d-lock" % n) or os.path.exists("/tmp/.X11-unix/X%d" % n):
            continue
        p = subprocess.Popen(["Xvfb", ":%d" % n, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists("/tmp/.X11-unix/X%d" % n):
                return p, ":%d" % n
            if p.poll() is not None:
                break
            time.sleep(0.1)
        p.kill()
    fail("could not start Xvfb")


def xboard_window():
    """(x, y, w, h) of XBoard's main window, or None."""
    tree = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True).stdout
    best = None
    for line in tree.splitlines():
        m = re.search(r'"([^"]*)": \("xboard" "Xboard"\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)', line)
        if m and " vs" in m.group(1):
            w, h, x, y = (int(v) for v in m.group(2, 3, 4, 5))
            if best is None or w * h > best[2] * best[3]:
                best = (x, y, w, h)
    return best


def screenshot(path=None):
    """The screen as (raw RGB bytes, width, height); written to path as PNG too."""
    xwd = subprocess.run(["xwd", "-root", "-silent"], capture_output=True).stdout
    if path:
        subprocess.run(["convert", "xwd:-", "-trim", "+repage", path], input=xwd)
    raw = subprocess.run(["convert", "xwd:-", "-depth", "8", "rgb:-"], input=xwd,
                         capture_output=True).stdout
    return raw, 1280, 1024


def grid(win):
    """The board's lines inside XBoard's window: 11 rows and 10 columns of
    dark pixels (XBoard draws the squares with a one-pixel line between)."""
    raw, sw, _ = screenshot()
    x0, y0, w, h = win

    def dark(x, y):
        i = (y * sw + x) * 3
        return raw[i] + raw[i + 1] + raw[i + 2] < 150

    def runs(values):
        out = []
        for v in values:
            if not out or v != out[-1][-1] + 1:
                out.append([v])
            else:
                out[-1].append(v)
        return [r[len(r) // 2] for r in out]

    rows = runs([y for y in range(y0, y0 + h) if sum(dark(x, y) for x in range(x0, x0 + w)) > 0.7 * w])
    cols = runs([x for x in range(x0, x0 + w) if sum(dark(x, y) for y in range(y0, y0 + h)) > 0.5 * h])
    # The board is the longest run of evenly spaced lines.
    def even(lines, n):
        for i in range(len(lines) - n + 1):
            part = lines[i:i + n]
            steps = {b - a for a, b in zip(part, part[1:])}
            if max(steps) - min(steps) <= 1 and min(steps) > 10:
                return part
        return None
    return even(rows, 11), even(cols, 10)


def square_xy(square, rows, cols):
    """Screen point at the middle of a square (('e', 9): file, rank 1..10)."""
    f = ord(square[0]) - ord("a")
    r = square[1]
    x = (cols[f] + cols[f + 1]) // 2
    y = (rows[10 - r] + rows[11 - r]) // 2
    return x, y


class Log:
    """XBoard's debug log, read as it grows."""

    def __init__(self, path):
        self.path = path

    def text(self):
        try:
            with open(self.path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def engine_moves(self):
        return re.findall(r"^\d+ <first : move (\S+)\s*$", self.text(), re.M)

    def sent(self):
        """What XBoard told the engine of the person's moves, in order:
        `usermove X`, or a `setboard FEN`, which is how XBoard 4.9 sends a
        pass it cannot express as a move (the engine takes it as a pass)."""
        # XBoard writes `usermove ` and the move separately, each logged
        # with its own time stamp: `3587 >first : usermove 3587 >first : a6a5`.
        pat = r"^\d+ >first : (usermove|setboard) (?:\d+ >first : )?(.+?)\s*$"
        return re.findall(pat, self.text(), re.M)

    def game_end(self):
        # XBoard logs GameEnds(0, (null), ...) as it starts a game.
        for m in re.finditer(r"^GameEnds\((\d+), (.*?), \d+\)", self.text(), re.M):
            if m.group(1) != "0":
                return m.group(2)
        return None


def xdo(*args):
    subprocess.run(["xdotool"] + [str(a) for a in args], check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/janggun")
    ap.add_argument("--variant", default="janggi")
    ap.add_argument("--tc", default="5", help="XBoard's -tc for both clocks")
    ap.add_argument("--inc", default="2")
    ap.add_argument("--odds", default="15", help="the engine's time is the person's divided by this")
    ap.add_argument("--pass-at", type=int, default=3, help="the person's move number typed as a pass")
    ap.add_argument("--moves", type=int, default=150, help="the person's moves at most")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="target/xboard-human")
    args = ap.parse_args()
    for tool in ("Xvfb", "xdotool", "xwd", "convert", "xwininfo"):
        if shutil.which(tool) is None:
            fail("%s not found (apt-get install xvfb xdotool x11-apps x11-utils imagemagick)" % tool)
    if not os.access(XBOARD, os.X_OK):
        fail("%s not found (apt-get install xboard)" % XBOARD)
    engine = os.path.abspath(args.engine)
    if not os.access(engine, os.X_OK):
        fail("engine %s is not executable (cargo build --release)" % engine)
    rules = args.variant if args.variant in PYFFISH_VARIANTS else "janggi"
    os.makedirs(args.out, exist_ok=True)
    out = os.path.abspath(args.out)
    tag = args.variant
    pgn, debug = os.path.join(out, tag + ".pgn"), os.path.join(out, tag + ".debug")
    for p in (pgn, debug):
        if os.path.exists(p):
            os.remove(p)
    rng = random.Random(args.seed)
    home = tempfile.mkdtemp()
    xvfb, display = start_xvfb()
    os.environ["DISPLAY"] = display
    xb = subprocess.Popen(
        [XBOARD, "-fcp", engine, "-fd", out, "-variant", args.variant, "-xlegal",
         "-tc", args.tc, "-inc", args.inc, "-firstTimeOdds", args.odds, "-initialMode", "MachineWhite",
         "-autoFlipView", "false", "-flipView", "false", "-size", "Middling",
         "-saveGameFile", pgn, "-debug", "-nameOfDebugFile", debug,
         "-settingsFile", os.path.join(home, "xbrc"), "-saveSettingsFile", os.path.join(home, "xbrc"),
         "-saveSettingsOnExit", "false", "-startupMessage", "", "-popupExitMessage", "false",
         "-popupMoveErrors", "false", "-soundProgram", "", "-autoCallFlag", "true"],
        stdout=open(os.path.join(out, tag + ".log"), "w"), stderr=subprocess.STDOUT,
        env=dict(os.environ, HOME=home), start_new_session=True)
    log = Log(debug)
    problems = []
    try:
        win = None
        for _ in range(100):
            win = xboard_window()
            if win:
                break
            time.sleep(0.2)
        if not win:
            fail("XBoard's window did not appear")
        start = sf.start_fen(rules)
        moves = []            # pyffish moves of the game so far
        mine = 0              # the person's moves made
        passes = 0
        rows = cols = None
        while mine < args.moves:
            # Wait for Janggun's move (or the end of the game).
            deadline = time.time() + 120
            while len(log.engine_moves()) <= mine and not log.game_end():
                if time.time() > deadline or xb.poll() is not None:
                    fail("no move from the engine after the person's move %d" % mine)
                time.sleep(0.1)
            if log.game_end():
                break
            legal = sf.legal_moves(rules, start, moves)
            played = engine_move_to_uci(log.engine_moves()[mine], legal)
            if played not in legal:
                problems.append("engine move %s not legal" % log.engine_moves()[mine])
                break
            moves.append(played)
            legal = sf.legal_moves(rules, start, moves)
            if not legal or sf.is_immediate_game_end(rules, start, moves)[0]:
                # The engine's move ended the game: XBoard hears its claim.
                deadline = time.time() + 20
                while not log.game_end() and time.time() < deadline:
                    time.sleep(0.1)
                break
            time.sleep(0.3)       # XBoard animates the engine's move
            if rows is None:
                win = xboard_window()
                rows, cols = grid(win)
                if not rows or not cols:
                    screenshot(os.path.join(out, tag + "-nogrid.png"))
                    fail("cannot find the board's lines in XBoard's window %s" % (win,))
            pass_moves = [m for m in legal if is_pass(m)]
            sent_before = len(log.sent())
            # The pass goes at move --pass-at, or at the first move after it
            # where a pass is legal (not in check); and whenever it is the
            # only legal move, as a person would have to pass there too.
            others = [m for m in legal if m not in pass_moves]
            if pass_moves and (not others or (mine + 1 >= args.pass_at and passes == 0)):
                choice = pass_moves[0]
                after = sf.get_fen(rules, start, moves + [choice]).split()
                expect = ("usermove @@@@", "setboard " + " ".join(after[:2]))
                # A letter typed over the board opens XBoard's type-in box
                # (`@` does not); the pass then replaces it.
                x, y = square_xy(("e", 5), rows, cols)
                xdo("mousemove", x, y)
                xdo("type", "a")
                time.sleep(0.5)
                xdo("key", "BackSpace")
                xdo("type", "--delay", "80", "@@@@")
                time.sleep(0.3)
                xdo("key", "Return")
                passes += 1
            else:
                choice = rng.choice(others)
                expect = ("usermove " + uci_to_cecp(choice),)
                for sq in squares(choice):
                    x, y = square_xy(sq, rows, cols)
                    xdo("mousemove", x, y, "click", 1)
                    time.sleep(0.15)
            deadline = time.time() + 10
            while len(log.sent()) <= sent_before:
                if time.time() > deadline:
                    screenshot(os.path.join(out, tag + "-stuck.png"))
                    fail("XBoard sent nothing for the person's %s (%s)" % (choice, expect[0]))
                time.sleep(0.05)
            kind, what = log.sent()[sent_before]
            if kind == "setboard":
                what = " ".join(what.split()[:2])     # board and side to move
            if kind + " " + what not in expect:
                problems.append("the person entered %s, XBoard sent %s %s" % (expect[0], kind, what))
                break
            moves.append(choice)
            mine += 1
            if sf.is_immediate_game_end(rules, start, moves)[0] or not sf.legal_moves(rules, start, moves):
                deadline = time.time() + 20
                while not log.game_end() and time.time() < deadline:
                    time.sleep(0.1)
                break
        end = log.game_end()
        print("%s: the person made %d moves (%d a typed pass), Janggun %d; XBoard: %s"
              % (args.variant, mine, passes, len(log.engine_moves()), end or "game not over"))
        time.sleep(1.0)
        screenshot(os.path.join(out, tag + ".png"))
    finally:
        try:
            os.killpg(xb.pid, signal.SIGTERM)    # XBoard saves the game as it quits
        except ProcessLookupError:
            pass
        try:
            xb.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(xb.pid, signal.SIGKILL)
        xvfb.kill()
        shutil.rmtree(home, ignore_errors=True)
    if not end:
        problems.append("the game did not end within %d of the person's moves" % args.moves)
    if passes == 0 and args.pass_at <= mine:
        problems.append("no pass was typed")
    if problems:
        for p in problems:
            print("  problem: " + p)
        return 1
    # (No --debug-log: its `move` lines are Janggun's alone here, half the game.)
    replay = [sys.executable, os.path.join(HERE, "xboard_replay.py"), "--rules-as", rules,
              "--games", "1"]
    if rules != args.variant and "checkmate" not in (end or "").lower():
        # Only checkmate is judged alike by every rule set.
        print("  %s: pyffish lacks the rule set and the game did not end in checkmate: "
              "moves checked under %s, result not checked" % (args.variant, rules))
        replay.append("--no-result")
    r = subprocess.run(replay + [pgn])
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
