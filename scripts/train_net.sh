#!/bin/sh
# The whole NNUE procedure with the parameters of the shipped net:
# self-play data from the classical evaluation (two shards, one per core,
# each deterministic for its seed), then training and the quantised export.
# The data stays outside git (default target/nnue-data).
#
#   scripts/train_net.sh [janggun binary]
#
# POSITIONS1/POSITIONS2 cap each shard at the count the shipped net was
# trained on (a shard is a prefix of the same games for the same seed, so
# the cap reproduces it record for record); EPOCHS as below.
set -eu
BIN=${1:-target/release/janggun}
DATA=${DATA:-target/nnue-data}
POSITIONS1=${POSITIONS1:-436033}
POSITIONS2=${POSITIONS2:-144606}
EPOCHS=${EPOCHS:-6}
mkdir -p "$DATA"
rm -f "$DATA/gen0_seed1.bin" "$DATA/gen0_seed2.bin"
"$BIN" datagen --threads 1 --nodes 3000 --random-plies 8 --seed 1 \
    --positions "$POSITIONS1" --out "$DATA/gen0_seed1.bin" &
"$BIN" datagen --threads 1 --nodes 3000 --random-plies 8 --seed 2 \
    --positions "$POSITIONS2" --out "$DATA/gen0_seed2.bin" &
wait
"$BIN" train "$DATA/gen0_seed1.bin" "$DATA/gen0_seed2.bin" \
    --hidden 256 --epochs "$EPOCHS" --batch 1024 --lr 0.002 --wdl 0.1 --seed 1 \
    --out-dir "$DATA/train"
# The last line printed is the net's path: copy it to nets/ and name it in
# src/nnue/embedded.rs to ship it.
