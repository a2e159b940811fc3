#!/usr/bin/env bash
# A short match of Janggun against Debian's Fairy-Stockfish, written as PGN
# and replayed move by move with pyffish (scripts/ci/replay_pgn_pyffish.py):
# every move must be legal, every SAN token what pyffish writes, and every
# result the runner decided by the rules equal to pyffish's verdict. Then a
# SAN cross-check on random games with passes and bikjang: pyffish writes
# them, the runner reads them as openings, writes them back out, and pyffish
# checks every token again.
#
# Environment: GAMES (default 8), TC (default 2+0.02), TIMEMARGIN (ms,
# default 500), OUT (default
# target/match_vs_fsf), FSF (default /usr/games/fairy-stockfish),
# JANGGUN_ENGINE (default target/release/janggun; any UCI engine will do).
set -euo pipefail
cd "$(dirname "$0")/../.."

GAMES=${GAMES:-8}
TC=${TC:-2+0.02}
# A shared CI machine can stall an engine for a few hundred ms.
TIMEMARGIN=${TIMEMARGIN:-500}
OUT=${OUT:-target/match_vs_fsf}
FSF=${FSF:-/usr/games/fairy-stockfish}

if [ ! -x "$FSF" ]; then
    apt-get install -y fairy-stockfish >/dev/null
fi
python3 -c "import pyffish" 2>/dev/null || pip install pyffish >/dev/null

cargo build --release --quiet
RUNNER=target/release/janggun
JANGGUN_ENGINE=${JANGGUN_ENGINE:-$RUNNER}
mkdir -p "$OUT"

echo "== janggun vs fairy-stockfish: $GAMES games at $TC"
nice "$RUNNER" match \
    --engine name=janggun "cmd=$JANGGUN_ENGINE" \
    --engine name=fairy-stockfish "cmd=$FSF" option.Hash=16 \
    --games "$GAMES" --tc "$TC" --timemargin "$TIMEMARGIN" --concurrency 1 \
    --pgn "$OUT/games.pgn" --json "$OUT/result.json"
python3 scripts/ci/replay_pgn_pyffish.py "$OUT/games.pgn"

echo "== SAN cross-check on random games"
python3 scripts/ci/replay_pgn_pyffish.py --make-random 30 "$OUT/random.pgn"
nice "$RUNNER" match \
    --engine name=a "cmd=$FSF" --engine name=b "cmd=$FSF" \
    --nodes 1 --games 60 --openings "$OUT/random.pgn" --opening-plies 1000 \
    --pgn "$OUT/random_games.pgn" --quiet
python3 scripts/ci/replay_pgn_pyffish.py "$OUT/random_games.pgn"
