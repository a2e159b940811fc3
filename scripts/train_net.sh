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
# The shards of both generations run as one queue, longest first, JOBS (2)
# at a time. They took about 6.5 CPU-hours when they were made (gen0 3,
# gen1 3.4), so expect about 3.3 hours on 2 cores; SKIP_DATA=1 trains
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
# `train_net.sh --shard GEN SEED COUNT THREADS [datagen arguments...]` is
# this script making one shard for its own queue (below).
shard=
if [ "${1:-}" = --shard ]; then
    shift
    shard=1
    BIN=${BIN:?}
else
    BIN=${1:-target/release/janggun}
fi
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
store() { "$(dirname "$0")/data_store.sh" "$@"; }
# Version 1 files: a 32-byte header and 32-byte records.
complete() { [ -f "$1" ] && [ "$(wc -c <"$1")" -eq $((32 + 32 * $2)) ]; }

make_shard() { # generation, seed, records, threads, extra datagen arguments...
    gen=$1 seed=$2 count=$3 threads=$4
    shift 4
    f="$DATA/${gen}_seed$seed.bin"
    store restore "$f"
    if complete "$f" "$count"; then
        echo "train_net: $f complete, kept" >&2
        return 0
    fi
    # One thread a shard: a shard cut short goes on from its resume point
    # (the same file as one whole run); with more threads, or with no
    # point, it is made again.
    resume=
    if [ "$threads" = 1 ]; then
        resume=--resume
        [ -f "$f" ] || rm -f "$f.resume"
        [ -f "$f.resume" ] || rm -f "$f"
    else
        rm -f "$f" "$f.resume"
    fi
    # shellcheck disable=SC2086 # $resume is one word or none
    if ! "$BIN" datagen --nodes 3000 --random-plies 8 --seed "$seed" --threads "$threads" \
        --positions "$count" --out "$f" --progress 60 $resume \
        --format 1 --verify-nodes 0 --adjudicate-cp 0 "$@" \
        2>>"$DATA/${gen}_seed$seed.log"; then
        echo "train_net: $f failed; see $DATA/${gen}_seed$seed.log" >&2
        return 1
    fi
    complete "$f" "$count" && store save "$f"
}
if [ -n "$shard" ]; then
    make_shard "$@"
    exit
fi

if [ "$GEN1_THREADS" != 4 ]; then
    echo "train_net: the gen1 shards of the shipped net were made with 4 threads a shard;" \
        "their games finished in the order the threads ran, so they cannot be made again" \
        "byte for byte: these, with $GEN1_THREADS thread(s), are other games of the same kind" \
        "(gen0 is reproduced record for record)" >&2
fi
if [ "${SKIP_DATA:-0}" != 1 ]; then
    # One queue of every shard of both generations (gen1's player is a net
    # in nets/, not made from gen0), longest first, JOBS at a time: a core
    # never waits for the other's shard to end, as it would with pairs of
    # shards of unequal sizes.
    export BIN DATA
    {
        for s in $GEN0; do echo "gen0 ${s%%:*} ${s##*:} 1"; done
        for s in $GEN1; do echo "gen1 ${s%%:*} ${s##*:} $GEN1_THREADS --nnue $GEN1_NET"; done
    } | sort -k3,3nr | xargs -L 1 -P "$JOBS" "$0" --shard ||
        { echo "train_net: some shards were not made; run again to resume them" >&2; exit 1; }
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
