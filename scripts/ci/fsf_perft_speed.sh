#!/usr/bin/env bash
# Measure Fairy-Stockfish perft speed for Janggi from the start position.
# Usage: scripts/ci/fsf_perft_speed.sh [DEPTH ...]      (default: 5 6)
#   FSF=/path/to/fairy-stockfish  (default /usr/games/fairy-stockfish; Debian package "fairy-stockfish")
#   VARIANT=janggi                (any UCI_Variant value)
#   FEN="..."                     (default: startpos)
# Prints one line per depth:
#   fsf depth D nodes N time_s T leaves_per_s X
# The clock starts when "go perft D" is written (engine already started and answered
# isready) and stops when "Nodes searched:" is read, so engine startup is excluded.
set -euo pipefail

FSF=${FSF:-/usr/games/fairy-stockfish}
VARIANT=${VARIANT:-janggi}
DEPTHS=("$@")
[ ${#DEPTHS[@]} -eq 0 ] && DEPTHS=(5 6)
if [ -n "${FEN:-}" ]; then POS="position fen $FEN"; else POS="position startpos"; fi

if [ ! -x "$FSF" ]; then
    echo "error: $FSF not found (apt-get install -y fairy-stockfish)" >&2
    exit 2
fi

coproc ENG { exec "$FSF" 2>&1; }
FSF_PID=$ENG_PID
trap 'kill "$FSF_PID" 2>/dev/null || true' EXIT
exec 3>&"${ENG[1]}" 4<&"${ENG[0]}"

send() { printf '%s\n' "$1" >&3; }
# read lines until one starts with $1; echo that line. Timeout per line: $2 seconds.
wait_for() {
    local line
    while IFS= read -r -t "$2" line <&4; do
        line=${line%$'\r'}
        if [[ $line == "$1"* ]]; then printf '%s\n' "$line"; return 0; fi
    done
    echo "error: engine gave no '$1' (died or timed out)" >&2
    return 1
}

send uci;                                    wait_for uciok 10 >/dev/null
send "setoption name UCI_Variant value $VARIANT"
send "$POS"
send isready
# Fairy-Stockfish announces the variant it switched to; a figure from any
# other variant (a name it does not know leaves it on chess) is no figure.
announced=no
while IFS= read -r -t 10 line <&4; do
    line=${line%$'\r'}
    [[ $line == "info string variant $VARIANT "* ]] && announced=yes
    [[ $line == readyok* ]] && break
done
if [ "$announced" != yes ]; then
    echo "error: $FSF did not announce 'info string variant $VARIANT'" >&2
    exit 1
fi

for d in "${DEPTHS[@]}"; do
    t0=$(date +%s.%N)
    send "go perft $d"
    line=$(wait_for "Nodes searched" 3600)
    t1=$(date +%s.%N)
    nodes=${line##* }
    awk -v d="$d" -v n="$nodes" -v a="$t0" -v b="$t1" 'BEGIN {
        t = b - a; if (t <= 0) t = 1e-9;
        printf "fsf depth %d nodes %d time_s %.3f leaves_per_s %.0f\n", d, n, t, n / t }'
    send isready; wait_for readyok 60 >/dev/null
done
send quit
wait "$FSF_PID" 2>/dev/null || true
