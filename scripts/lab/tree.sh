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
# Fairy-Stockfish's figures are refused unless it announced Janggi
# (scripts/lab/fsf.sh): before 2026-12 this script ran its bench as chess.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/lab/fsf.sh
. scripts/lab/fsf.sh
bin=${1:-target/release/janggun}
shift || true
depths=${*:-9 11 13}
hash=${HASH:-16}
fens=$(mktemp)
trap 'rm -f "$fens"' EXIT
bench_fens "$fens"
positions=$(wc -l <"$fens")

printf '%d positions, one thread, Hash %d MB\n' "$positions" "$hash"
printf '%5s  %14s %10s  %14s %10s  %10s %10s\n' depth janggun-nodes ms fsf-nodes ms node-ratio time-ratio
for d in $depths; do
    j=$("$bin" bench "$d" 1 "$hash" 2>&1)
    jn=$(field 'Nodes searched' <<<"$j")
    jt=$(field 'Total time' <<<"$j")
    if [ -x "$fsf" ]; then
        f=$(fsf_bench "$hash" "$d" "$fens")
        fn=$(field 'Nodes searched' <<<"$f")
        ft=$(field 'Total time' <<<"$f")
        awk -v d="$d" -v jn="$jn" -v jt="$jt" -v fn="$fn" -v ft="$ft" 'BEGIN {
            printf "%5d  %14d %10d  %14d %10d  %10.2f %10.2f\n", d, jn, jt, fn, ft, jn / fn, jt / (ft > 0 ? ft : 1) }'
    else
        printf '%5d  %14d %10d  %14s %10s\n' "$d" "$jn" "$jt" - -
    fi
done
