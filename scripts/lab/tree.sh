#!/usr/bin/env bash
# The size of the search tree: nodes and time each engine needs to reach a
# fixed depth on the bench positions (src/tools/bench_positions.txt), one
# thread, Janggun and Fairy-Stockfish in the same run so the times compare.
#
#   scripts/lab/tree.sh [JANGGUN] [DEPTH ...]     (default: target/release/janggun, 9 11 13)
#   FSF=/usr/games/fairy-stockfish HASH=16 scripts/lab/tree.sh
#
# Depths are each engine's own: extensions and reductions differ, so the
# nodes to a depth measure the tree, and the time to it what it costs.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/janggun}
shift || true
depths=${*:-9 11 13}
fsf=${FSF:-/usr/games/fairy-stockfish}
hash=${HASH:-16}
fens=$(mktemp)
trap 'rm -f "$fens"' EXIT
grep -v '^#' src/tools/bench_positions.txt | grep . >"$fens"
positions=$(wc -l <"$fens")

field() { # the number after "$1" in the text on stdin
    grep -m1 "$1" | sed 's/.*: *//; s/[^0-9].*//'
}

printf '%d positions, one thread, Hash %d MB\n' "$positions" "$hash"
printf '%5s  %14s %10s  %14s %10s  %10s %10s\n' depth janggun-nodes ms fsf-nodes ms node-ratio time-ratio
for d in $depths; do
    j=$("$bin" bench "$d" 1 "$hash" 2>&1)
    jn=$(field 'Nodes searched' <<<"$j")
    jt=$(field 'Total time' <<<"$j")
    if [ -x "$fsf" ]; then
        f=$("$fsf" bench "$hash" 1 "$d" "$fens" depth janggi 2>&1 >/dev/null)
        fn=$(field 'Nodes searched' <<<"$f")
        ft=$(field 'Total time' <<<"$f")
        awk -v d="$d" -v jn="$jn" -v jt="$jt" -v fn="$fn" -v ft="$ft" 'BEGIN {
            printf "%5d  %14d %10d  %14d %10d  %10.2f %10.2f\n", d, jn, jt, fn, ft, jn / fn, jt / (ft > 0 ? ft : 1) }'
    else
        printf '%5d  %14d %10d  %14s %10s\n' "$d" "$jn" "$jt" - -
    fi
done
