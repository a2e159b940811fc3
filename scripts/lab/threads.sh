#!/usr/bin/env bash
# What a second thread is worth on this machine: nodes per second and wall
# time to the bench depth with 1 and 2 threads (three runs each), then a
# match of 2 threads against 1 at 5s+0.05s with concurrency 1, so that the
# two-thread engine has both cores to itself while it thinks.
#
#   scripts/lab/threads.sh [BINARY]           # default target/release/janggun
#   GAMES=40 scripts/lab/threads.sh           # a shorter match
set -euo pipefail
BIN=${1:-target/release/janggun}
GAMES=${GAMES:-200}
TC=${TC:-5+0.05}
OUT=${OUT:-threads}
mkdir -p "$OUT"
for run in 1 2 3; do
    for t in 1 2; do
        start=$(date +%s%N)
        nps=$("$BIN" bench 11 "$t" 16 | sed -n 's/^Nodes\/second: //p')
        end=$(date +%s%N)
        echo "run $run threads $t nps $nps wall_ms $(((end - start) / 1000000))"
    done
done | tee "$OUT/bench.txt"
"$BIN" match --engine name=threads2 cmd="$BIN" option.Threads=2 option.Hash=64 \
    --engine name=threads1 cmd="$BIN" option.Hash=64 \
    --games "$GAMES" --tc "$TC" --concurrency 1 --timemargin 200 --quiet \
    --pgn "$OUT/match.pgn" --json "$OUT/match.json" | tee "$OUT/match.txt"
