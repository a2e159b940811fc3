"""What the CI scripts share: Janggi's squares and moves in each notation,
the start positions, FEN boards, pyffish's verdicts, a PGN reader, and a
child process spoken to line by line (an engine).

Notations (docs/PROTOCOL.md has the protocol side):
  * UCI and pyffish: files a..i, ranks 1..10 from Cho's side (`h10g8`); a
    pass is the general's own point twice (`e2e2`). pyffish accepts no
    other pass spelling.
  * UCCI and CECP (XBoard): ranks 0..9, one less (`h9g7`); XBoard writes a
    pass as `@@@@`. Janggun also reads `0000` and `pass`.
  * FEN letters: Fairy-Stockfish writes horse N and elephant B, XBoard's
    Janggi setup and Korean texts H and E; the general is K (or G) and the
    soldier P (or S). `KIND` maps every letter to one kind letter, the one
    pyffish's SAN uses (K A E H R C P).

Squares are (file letter, rank 1..10) tuples. Nothing here imports pyffish
at load time, so a script that needs only the engine runs without it.
"""
import os
import queue
import re
import subprocess
import threading
import time

FILES = "abcdefghi"
# The four rule sets pyffish (and Debian's Fairy-Stockfish) know; Janggun
# adds kja and kojf.
PYFFISH_VARIANTS = ("janggi", "janggitraditional", "janggimodern", "janggicasual")

# The 16 start positions: Cho's and Han's back ranks (inner, outer, left,
# right elephant, each named from the owner's seat).
CHO_BACK = ("RNBA1ABNR", "RBNA1ANBR", "RBNA1ABNR", "RNBA1ANBR")
HAN_BACK = ("rnba1abnr", "rbna1anbr", "rnba1anbr", "rbna1abnr")
MIDDLE = "/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/"
START_FENS = [f"{h}{MIDDLE}{c} w - - 0 1" for h in HAN_BACK for c in CHO_BACK]

KIND = {"K": "K", "G": "K", "A": "A", "B": "E", "E": "E", "N": "H", "H": "H",
        "R": "R", "C": "C", "P": "P", "S": "P"}
# Points per kind under the counting rule (Han gets 1.5 more).
COUNT_VALUE = {"R": 13, "C": 7, "H": 5, "E": 3, "A": 3, "P": 2, "K": 0}

UCI_MOVE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")
# CECP coordinates as XBoard writes them, with an optional `-` and the
# promotion suffix XBoard adds to a soldier reaching the last rank.
CECP_MOVE = re.compile(r"^([a-i])([0-9])-?([a-i])([0-9])\.?$")
PASS_WORDS = ("@@@@", "0000", "pass")


# ----------------------------------------------------------------- moves

def squares(move):
    """The two squares of a UCI move (`i10i9` -> (('i', 10), ('i', 9)))."""
    m = UCI_MOVE.match(move)
    if not m:
        raise ValueError(f"bad move {move!r}")
    return (m.group(1), int(m.group(2))), (m.group(3), int(m.group(4)))


def name(square):
    """('e', 10) -> 'e10'."""
    return f"{square[0]}{square[1]}"


def parse_square(text):
    """'e10' -> ('e', 10)."""
    return text[0], int(text[1:])


def is_pass(move):
    """A UCI pass: the same point twice (`e2e2`, `e10e10`)."""
    m = UCI_MOVE.match(move)
    return bool(m) and m.group(1, 2) == m.group(3, 4)


def pass_in(legal):
    """The pass among pyffish's legal moves, or None (in check)."""
    return next((m for m in legal if is_pass(m)), None)


def reverse(move):
    """The move back: `b1c3` -> `c3b1`."""
    a, b = squares(move)
    return name(b) + name(a)


def uci_to_cecp(move):
    """A UCI move (ranks 1..10) in XBoard's coordinates (ranks 0..9)."""
    (f1, r1), (f2, r2) = squares(move)
    return f"{f1}{r1 - 1}{f2}{r2 - 1}"


def cecp_to_uci(move):
    """XBoard's coordinates (ranks 0..9) as a UCI move, or None when the text
    is no coordinate move (a pass word, SAN)."""
    m = CECP_MOVE.match(move)
    if not m:
        return None
    return "%s%d%s%d" % (m.group(1), int(m.group(2)) + 1, m.group(3), int(m.group(4)) + 1)


def engine_move_to_uci(move, legal):
    """A move as an engine sent it over CECP (`b0c2`, `@@@@`, `pass`,
    `0000`) as pyffish's UCI move, given pyffish's legal moves (a pass is
    the general's point twice, which only the position knows)."""
    if move in PASS_WORDS:
        return pass_in(legal)
    return cecp_to_uci(move)


# ----------------------------------------------------------------- boards

def board_of(fen):
    """The placement of a FEN as {(file letter, rank): letter}."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in re.findall(r"\d+|.", row):
            if ch.isdigit():
                f += int(ch)
            else:
                board[(FILES[f], 10 - i)] = ch
                f += 1
    return board


def generals_facing(board):
    """Do the two generals stand on one file with nothing between?"""
    kings = [s for s, p in board.items() if p in "kKgG"]
    if len(kings) != 2 or kings[0][0] != kings[1][0]:
        return False
    f = kings[0][0]
    lo, hi = sorted(k[1] for k in kings)
    return all((f, r) not in board for r in range(lo + 1, hi))


def material(board):
    """(Cho's points, Han's points) on the counting scale, without Han's 1.5."""
    cho = sum(COUNT_VALUE[KIND[p.upper()]] for p in board.values() if p.isupper())
    han = sum(COUNT_VALUE[KIND[p.upper()]] for p in board.values() if p.islower())
    return cho, han


# ----------------------------------------------------------------- verdicts

def result_of(value, white_to_move):
    """A pyffish value (side to move's view: > 0 wins, < 0 loses, 0 draws)
    as a result from Cho's (White's) view."""
    if value == 0:
        return "1/2-1/2"
    return "1-0" if (value > 0) == white_to_move else "0-1"


def pyffish_verdict(variant, fen, moves):
    """(ended, result) by pyffish's rules at the end of `moves`: no legal
    move -> game_result; else an immediate end (two passes, a pass in
    bikjang); else an optional one (repetition, move limit), which a match
    runner applies at once."""
    import pyffish as sf
    white = sf.get_fen(variant, fen, moves).split()[1] == "w"
    if not sf.legal_moves(variant, fen, moves):
        return True, result_of(sf.game_result(variant, fen, moves), white)
    for check in (sf.is_immediate_game_end, sf.is_optional_game_end):
        ended, value = check(variant, fen, moves)
        if ended:
            return True, result_of(value, white)
    return False, None


# ----------------------------------------------------------------- PGN

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class Game:
    """One PGN game: tags, move tokens, the result and the comment before it."""

    def __init__(self):
        self.tags, self.moves, self.comments, self.result = {}, [], [], None
        self.reason = ""


def read_pgn(text):
    """Every game of a PGN text. Comments, variations, NAGs and move numbers
    are dropped from the moves; a game ends at its result or at the next tag
    after its moves."""
    games, game = [], None
    pos, n = 0, len(text)
    token = re.compile(r"[^\s{};()\[\]]+")
    while pos < n:
        c = text[pos]
        if c.isspace():
            pos += 1
            continue
        if c == "[" and (pos == 0 or text[pos - 1] == "\n"):
            end = text.find("\n", pos)
            end = n if end < 0 else end
            m = re.match(r'^\[(\w+)\s+"(.*)"\]\s*$', text[pos:end])
            if m:
                if game is None or game.moves or game.result:
                    game = Game()
                    games.append(game)
                game.tags[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
            pos = end
            continue
        if game is None:
            game = Game()
            games.append(game)
        if c == "{":
            end = text.find("}", pos)
            end = n if end < 0 else end
            game.comments.append((len(game.moves), text[pos + 1:end].strip()))
            pos = end + 1
            continue
        if c == ";":
            end = text.find("\n", pos)
            pos = n if end < 0 else end
            continue
        if c == "(":
            depth = 0
            while pos < n:
                if text[pos] == "(":
                    depth += 1
                elif text[pos] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                pos += 1
            pos += 1
            continue
        m = token.match(text, pos)
        if not m:          # a stray bracket
            pos += 1
            continue
        tok = m.group(0)
        pos = m.end()
        if re.fullmatch(r"\d+\.+", tok) or tok.startswith("$"):
            continue
        tok = re.sub(r"^\d+\.+", "", tok)
        if tok in RESULTS:
            game.result = tok
            game.reason = _result_comment(game)
            game = None
            continue
        game.moves.append(tok)
    return games


def _result_comment(game):
    """The comment just before the result (XBoard's `{checkmate}`), not a
    move's evaluation nor the board diagram XBoard writes before the moves
    of a set-up game."""
    following = [c for at, c in game.comments
                 if at == len(game.moves) and not c.startswith("-----")]
    if not following:
        return ""
    if len(following) == 1 and game.moves and re.match(
            r"^\s*(book|[+-]?\d+(\.\d+)?/\d+(\s+[\d.:]+)?)\s*$", following[0]):
        return ""
    return following[-1]


# ----------------------------------------------------------------- engines

class EngineError(Exception):
    pass


class Pipe:
    """A child process spoken to line by line. It runs in its own process
    group (killed whole, with anything it started); a reader thread lets a
    read time out, and a writer thread lets a long batch of lines go out
    while the answers come back, so neither side blocks on a full pipe."""

    def __init__(self, cmd, name, timeout, merge_stderr=True):
        self.name, self.timeout = name, timeout
        try:
            self.p = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
                text=True, bufsize=1, start_new_session=True)
        except OSError as e:
            raise EngineError(f"{name}: cannot start {cmd[0]!r}: {e}")
        self.lines, self.writes = queue.Queue(), queue.Queue()
        self.tail = []        # the last lines read, for messages
        self.err_tail = []    # the last stderr lines, when kept apart
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()
        if not merge_stderr:
            threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _read_stderr(self):
        for line in self.p.stderr:
            self.err_tail = (self.err_tail + [line.rstrip()])[-10:]

    def _write(self):
        while True:
            data = self.writes.get()
            if data is None:
                break
            try:
                self.p.stdin.write(data)
                self.p.stdin.flush()
            except (BrokenPipeError, OSError):
                break
        try:
            self.p.stdin.close()
        except OSError:
            pass

    def send(self, *lines):
        self.writes.put("".join(line + "\n" for line in lines))

    def readline(self, timeout=None):
        timeout = self.timeout if timeout is None else timeout
        try:
            line = self.lines.get(timeout=max(0.01, timeout))
        except queue.Empty:
            raise EngineError(f"{self.name}: no answer within {timeout:.0f}s; last output:"
                              + self._last())
        if line is None:
            self.lines.put(None)
            try:
                rc = self.p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                rc = None
            raise EngineError(f"{self.name} died (exit status {rc}); last output:" + self._last())
        self.tail = (self.tail + [line])[-20:]
        return line

    def _last(self):
        return "".join("\n    " + line for line in (self.tail[-8:] + self.err_tail))

    def wait_for(self, prefix, timeout=None):
        """Reads up to the first line that starts with `prefix`; returns it."""
        end = time.time() + (self.timeout if timeout is None else timeout)
        while True:
            line = self.readline(end - time.time())
            if line.startswith(prefix):
                return line

    def kill(self):
        try:
            os.killpg(self.p.pid, 9)
        except OSError:
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def close(self, last_line=None):
        """Sends `last_line` (e.g. `quit`), closes stdin, waits a while, kills."""
        if last_line:
            self.send(last_line)
        self.writes.put(None)
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()


class UciEngine(Pipe):
    """A UCI engine, ready after `uci`, its `UCI_Variant` and `isready`."""

    def __init__(self, cmd, name, variant, timeout):
        super().__init__(cmd, name, timeout)
        try:
            self.send("uci")
            self.wait_for("uciok", min(timeout, 30))
            self.send(f"setoption name UCI_Variant value {variant}", "isready")
            self.wait_for("readyok", min(timeout, 30))
        except EngineError:
            self.kill()
            raise

    def close(self, last_line="quit"):
        super().close(last_line)
