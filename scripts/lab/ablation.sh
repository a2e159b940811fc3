#!/usr/bin/env bash
# What each pruning feature is worth in play: the full engine against the
# same engine with that one feature switched off (UCI option `Ablate`),
# GAMES games each at TC, concurrency 2. With the defaults (9 features x 72
# games at 1s+0.1s) it is also a 648-game run at 1s+0.1s in which both
# sides are Janggun, so every game tests its time management; the timing
# margin is 0 ms, so any overstep is a loss on time.
#
#   scripts/lab/ablation.sh [BINARY]          # default target/release/janggun
#   GAMES=100 TC=1+0.1 OUT=ablation FEATURES="lmr nullmove" scripts/lab/ablation.sh
set -euo pipefail
BIN=${1:-target/release/janggun}
GAMES=${GAMES:-72}
TC=${TC:-1+0.1}
OUT=${OUT:-ablation}
FEATURES=${FEATURES:-"nullmove rfp futility lmp lmr iir histprune probcut see"}
mkdir -p "$OUT"
for f in $FEATURES; do
    echo "== without $f"
    "$BIN" match --engine name=full cmd="$BIN" option.Hash=16 \
        --engine name="no-$f" cmd="$BIN" option.Hash=16 option.Ablate="$f" \
        --games "$GAMES" --tc "$TC" --concurrency 2 --timemargin 0 --quiet \
        --pgn "$OUT/$f.pgn" --json "$OUT/$f.json" | tee "$OUT/$f.txt" | sed -n '1,3p'
done
echo "== losses on time, all runs"
cat "$OUT"/*.txt | awk '$1 == "full" || $1 ~ /^no-/ { t += $14 } END { print "time losses:", t + 0 }'
