#!/usr/bin/env python3
"""A UCI engine that misbehaves on purpose, for the match runner's tests.

  fault_engine.py illegal        answers a well-formed but illegal move
  fault_engine.py garbage        answers an unparsable move
  fault_engine.py late           answers only after SECONDS (default 3)
  fault_engine.py die            exits without answering
  fault_engine.py none           answers `bestmove (none)`
  fault_engine.py endless        writes one line without end
  fault_engine.py chatter M1 M2.. plays like `script`, and from its first
                                 answer on writes `info` lines without end,
                                 its opponent's turns included
  fault_engine.py script M1 M2.. plays the given UCI moves by ply number
                                 (counted from the FEN), then answers an
                                 unparsable move when the list runs out
Faults happen on the engine's first search. An argument `score=CP` sets the
score the engine reports with each move (default 0), for adjudication tests;
`delay=SECONDS` makes every search take that long (an opponent that thinks);
`pidfile=PATH` appends the engine's process id to PATH when it starts.
The engine declares UCI_Variant so the runner's variant handling is used,
and Hash; like Stockfish and its forks, it answers `setoption` for any other
option with `No such option: NAME`.
"""
import os
import sys
import threading
import time


def setting(name, default):
    return next((a[len(name) + 1 :] for a in sys.argv[1:] if a.startswith(name + "=")), default)


args = [a for a in sys.argv[1:] if a.split("=")[0] not in ("score", "delay", "pidfile")]
score = setting("score", "0")
think = float(setting("delay", "0"))
pidfile = setting("pidfile", None)
mode = args[0] if args else "script"
script = args[1:] if mode in ("script", "chatter") else []
delay = float(args[1]) if mode == "late" and len(args) > 1 else 3.0
ply = 0
lock = threading.Lock()
chattering = False

if pidfile:
    with open(pidfile, "a") as f:
        f.write(f"{os.getpid()}\n")


def out(s):
    with lock:
        sys.stdout.write(s + "\n")
        sys.stdout.flush()


def chatter():
    batch = "info string chatter " + "x" * 1000 + "\n"
    batch *= 64
    while True:
        with lock:
            sys.stdout.write(batch)


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        out("id name fault-" + mode)
        out("option name UCI_Variant type combo default janggi var janggi var janggimodern")
        out("option name Hash type spin default 16 min 1 max 1024")
        out("uciok")
    elif cmd == "setoption":
        rest = words[2:] if len(words) > 1 and words[1] == "name" else words[1:]
        name = " ".join(rest[: rest.index("value")] if "value" in rest else rest)
        if name not in ("UCI_Variant", "Hash"):
            out("No such option: " + name)
    elif cmd == "isready":
        out("readyok")
    elif cmd == "position":
        ply = len(words) - words.index("moves") - 1 if "moves" in words else 0
    elif cmd == "go":
        out(f"info depth 1 score cp {score} pv a1a2")
        time.sleep(think)
        if mode == "illegal":
            out("bestmove a1a9")
        elif mode == "garbage":
            out("bestmove zz")
        elif mode == "late":
            time.sleep(delay)
            out("bestmove a1a2")
        elif mode == "die":
            sys.exit(3)
        elif mode == "none":
            out("bestmove (none)")
        elif mode == "endless":
            with lock:
                sys.stdout.write("info string ")
                while True:
                    sys.stdout.write("x" * 65536)
        else:
            out("bestmove " + (script[ply] if ply < len(script) else "end-of-script"))
            if mode == "chatter" and not chattering:
                chattering = True
                threading.Thread(target=chatter, daemon=True).start()
    elif cmd == "quit":
        break
