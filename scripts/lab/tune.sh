#!/usr/bin/env bash
# How the weights in src/search/tuned.rs were made: self-play games at a
# fixed node count (two seeds, one per core), then the Texel-style tuner over
# them. The tuner starts from the weights in use and keeps the table with the
# lowest error on the held-out tenth of the games; its output replaces
# tuned.rs. The table in use came from a binary built at d113776 (hand-set
# weights): `scripts/lab/tune.sh <that binary>` gives it again, entry for entry.
# With a later binary the tuner starts from the tuned table (a next round).
# Then check the new table in a match against the old binary, e.g.
#
#   janggun match --engine name=new cmd=NEW --engine name=old cmd=OLD \
#       --games 400 --nodes 6000 --random-plies 8 --concurrency 2
#
#   scripts/lab/tune.sh [BINARY]                 # default target/release/janggun
#   GAMES=500 NODES=6000 scripts/lab/tune.sh     # per seed; the run used 2200
set -euo pipefail
BIN=${1:-target/release/janggun}
GAMES=${GAMES:-2200}
NODES=${NODES:-6000}
EPOCHS=${EPOCHS:-1000}
LAMBDA=${LAMBDA:-0}
OUT=${OUT:-tune}
mkdir -p "$OUT"
"$BIN" selfplay --games "$GAMES" --nodes "$NODES" --seed 101 >"$OUT/sp1.txt" &
"$BIN" selfplay --games "$GAMES" --nodes "$NODES" --seed 202 >"$OUT/sp2.txt"
wait
"$BIN" tune "$OUT/sp1.txt" "$OUT/sp2.txt" --epochs "$EPOCHS" --lambda "$LAMBDA" \
    >"$OUT/table.rs" 2>"$OUT/tune.log"
tail -n 1 "$OUT/tune.log"
{
    # shellcheck disable=SC2016 # backquotes of a Rust comment, not a command
    echo '//! Evaluation weights fitted by `janggun tune` (layout in `params.rs`).'
    echo
    echo 'use super::params::Params;'
    echo
    cat "$OUT/table.rs"
} >src/search/tuned.rs
echo "wrote src/search/tuned.rs; run cargo fmt, rebuild and measure it"
