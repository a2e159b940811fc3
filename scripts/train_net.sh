#!/bin/sh
# The whole NNUE procedure with the parameters of the shipped net,
# nets/nn-abc4e3e48b16.jnn:
#
#   gen0  self-play with the classical evaluation: seeds 1 and 2, one thread
#         each, 3000 nodes a move;
#   gen1  self-play with the previous net, nets/nn-c7f2d971be0b.jnn (itself
#         trained on gen0 alone, 6 epochs): seeds 11..18, 3000 nodes a move;
#   train on gen0 + gen1, 256 hidden, 2 epochs (more epochs memorise games:
#         the held-out loss rises after the second), --wdl 0.1, seed 1;
#         the last line printed is the net's path.
#
#   scripts/train_net.sh [janggun binary]
#
# Each shard is capped at the record count the shipped net was trained on.
# A shard made with one thread is the same file for the same seed (a prefix
# of the same games), so gen0 is reproduced record for record. The shipped
# gen1 shards were made with 4 threads each (GEN1_THREADS=4), on a 16-core
# machine in 13 minutes, and games finished in whatever order the threads
# ran: those files cannot be made again byte for byte; the default here, one
# thread a shard, gives the same counts of other games of the same kind.
# On 2 cores expect about 3 hours for gen0 and 4 for gen1; SKIP_DATA=1 trains
# on the files already in $DATA, SKIP_TRAIN=1 stops once the data is made
# and prints the data files' paths (scripts/gen2.sh takes them from here).
# A run resumes: a shard whose file already holds its full count of records
# is kept, and one cut short goes on from its resume point (datagen
# --resume: one thread a shard; the file is the same as one whole run's).
#
# The shipped net's data and training predate data format version 2: the
# shards are written as version 1 with no opening check and no adjudication,
# and the trainer keeps duplicate positions, as then.
#
# The data is made in $DATA (default target/nnue-data); each complete shard
# is also saved in the data store (scripts/data_store.sh: nets/data,
# compressed, committed to git; STORE=off for none) and restored from there
# on a new machine before anything is played again. To ship a net, copy
# it to nets/ and name it in src/nnue/embedded.rs.
set -eu
BIN=${1:-target/release/janggun}
DATA=${DATA:-target/nnue-data}
GEN1_THREADS=${GEN1_THREADS:-1}
GEN1_NET=${GEN1_NET:-nets/nn-c7f2d971be0b.jnn}
EPOCHS=${EPOCHS:-2}
mkdir -p "$DATA"

# seed:positions of the shards the shipped net was trained on (override
# for a quick trial, e.g. GEN0="1:500" GEN1="11:500" EPOCHS=1).
GEN0=${GEN0:-"1:436033 2:144606"}
GEN1=${GEN1:-"11:221919 12:223167 13:225797 14:224596 15:169296 16:165231 17:163052 18:168406"}
JOBS=${JOBS:-2}
STORE=${STORE:-nets/data}
export STORE

run_shards() { # generation, shards, threads, extra datagen arguments...
    gen=$1 shards=$2 threads=$3
    shift 3
    n=0
    for s in $shards; do
        seed=${s%%:*} count=${s##*:}
        f="$DATA/${gen}_seed$seed.bin"
        "$(dirname "$0")/data_store.sh" restore "$f"
        # Version 1 files: a 32-byte header and 32-byte records.
        if [ -f "$f" ] && [ "$(wc -c <"$f")" -eq $((32 + 32 * count)) ]; then
            echo "train_net: $f complete, kept" >&2
            continue
        fi
        # One thread a shard: a shard cut short goes on from its resume
        # point (the same file as one whole run); with more threads, or
        # with no point, it is made again.
        resume=
        if [ "$threads" = 1 ]; then
            resume=--resume
            [ -f "$f.resume" ] || rm -f "$f"
        else
            rm -f "$f" "$f.resume"
        fi
        # shellcheck disable=SC2086 # $resume is one word or none
        "$BIN" datagen --nodes 3000 --random-plies 8 --seed "$seed" --threads "$threads" \
            --positions "$count" --out "$f" --progress 60 $resume \
            --format 1 --verify-nodes 0 --adjudicate-cp 0 "$@" \
            2>>"$DATA/${gen}_seed$seed.log" &
        n=$((n + 1))
        if [ "$n" -ge "$JOBS" ]; then wait; save_shards "$gen" "$shards"; n=0; fi
    done
    wait
    save_shards "$gen" "$shards"
}
save_shards() { # generation, shards: the complete ones into the data store
    for s in $2; do
        f="$DATA/${1}_seed${s%%:*}.bin"
        if [ -f "$f" ] && [ "$(wc -c <"$f")" -eq $((32 + 32 * ${s##*:})) ]; then
            "$(dirname "$0")/data_store.sh" save "$f"
        fi
    done
}

if [ "$GEN1_THREADS" != 4 ]; then
    echo "train_net: the gen1 shards of the shipped net were made with 4 threads a shard;" \
        "their games finished in the order the threads ran, so they cannot be made again" \
        "byte for byte: these, with $GEN1_THREADS thread(s), are other games of the same kind" \
        "(gen0 is reproduced record for record)" >&2
fi
if [ "${SKIP_DATA:-0}" != 1 ]; then
    run_shards gen0 "$GEN0" 1
    run_shards gen1 "$GEN1" "$GEN1_THREADS" --nnue "$GEN1_NET"
fi

files=
for s in $GEN0; do files="$files $DATA/gen0_seed${s%%:*}.bin"; done
for s in $GEN1; do files="$files $DATA/gen1_seed${s%%:*}.bin"; done
if [ "${SKIP_TRAIN:-0}" = 1 ]; then
    # shellcheck disable=SC2086 # one path a word
    echo $files
    exit 0
fi
# shellcheck disable=SC2086
"$BIN" train $files \
    --hidden 256 --epochs "$EPOCHS" --batch 1024 --lr 0.002 --wdl 0.1 --seed 1 \
    --keep-duplicates --out-dir "$DATA/train"
