#!/bin/sh
# The whole NNUE procedure of a net in nets/, its data and its training; the
# last line printed is the new net's path.
#
#   scripts/train_net.sh [janggun binary]                   the shipped net
#   NET=074c3c36faf5 scripts/train_net.sh [janggun binary]  the net before it
#   NET=013b8d4f0298 scripts/train_net.sh [janggun binary]  the one before that
#   NET=abc4e3e48b16 scripts/train_net.sh [janggun binary]  the gen2 player
#
# nn-27f44730272b, the shipped net (NET=27f44730272b, the default):
#
#   gen1  nn-abc4e3e48b16's gen1 shards (below; seeds 11..18, restored from
#         the data store or played again);
#   gen2  self-play by nets/nn-abc4e3e48b16.jnn (made in data format 2,
#         stored in format 3, the same records; played again in 3): seeds
#         101..144 and 165..180, 100,000 records each, 3000 nodes a move, one
#         thread a shard, 8 random plies with the opening check, win
#         adjudication (scripts/gen2.sh gen2 owns the settings and makes
#         them; about 5.5 hours on 2 cores, or restored from the data store);
#   train on gen1 + gen2, in that order: 512 hidden, CReLU, one output
#         bucket, 2 epochs, batch 1024, learning rate 0.002 falling to 1% of
#         it, --wdl 0.1, seed 1, the default load filters with duplicates
#         kept (scripts/gen2.sh final trains it as g12).
#
# nn-074c3c36faf5 (NET=074c3c36faf5): the same on gen2 alone.
# nn-013b8d4f0298 (NET=013b8d4f0298): the same with seeds 101..128 and
# 165..180, 256 hidden and the learning rate falling to 5% of its peak.
#
# A one-thread shard played at a node count is the same file for the same
# seed on any machine, so every gen2 shard can be made again byte for byte,
# provided the search plays the same moves: the shards were made by the
# search whose signature with their player is 1529251
# (`janggun bench --net nets/nn-abc4e3e48b16.jnn`), and the script warns when
# the binary's differs (it then plays other games of the same kind). Shards
# 165..180 were made on another machine and checked against one made here.
#
# nn-abc4e3e48b16 (NET=abc4e3e48b16), the net that plays gen2:
#
#   gen0  self-play with the classical evaluation: seeds 1 and 2, one thread
#         each, 3000 nodes a move;
#   gen1  self-play with the previous net, nets/nn-c7f2d971be0b.jnn (itself
#         trained on gen0 alone, 6 epochs): seeds 11..18, 3000 nodes a move;
#   train on gen0 + gen1, 256 hidden, 2 epochs (more epochs memorise games:
#         the held-out loss rises after the second), --wdl 0.1, seed 1.
#
# Each of its shards is capped at the record count the net was trained on.
# None of them can be made again byte for byte by today's binary: gen0 was
# played (one thread a shard, so the same bytes for the same seed and
# search) by the search and classical evaluation of 2026-11-30, before
# 4c0aa84 (`Bench: 1882546` then), and both have changed since (tuning,
# this round's search: 1529251 with nn-abc4e3e48b16), so today's games are
# other games of the same kind; its gen1 shards were made with 4 threads
# each (GEN1_THREADS=4), on a 16-core machine in 13 minutes, and games
# finished in whatever order the threads ran, so not even that binary makes
# them again. The default here, one thread a shard, gives the same counts of
# games of the same kind, and the same bytes on any machine for one binary.
# The shards of both generations run as one queue, longest first, JOBS (2)
# at a time. They took about 6.5 CPU-hours when they were made (gen0 3, gen1
# 3.4), so expect about 3.3 hours on 2 cores. Its data and training predate
# data format version 2: the shards are written as version 1 with no opening
# check and no adjudication, and the trainer keeps duplicate positions, as
# then.
#
# Either way: SKIP_DATA=1 trains on the files already in $DATA; SKIP_TRAIN=1
# stops once the data is made and prints the data files' paths
# (scripts/gen2.sh takes gen0 and gen1 from here); a run resumes (a complete
# shard is kept, one cut short goes on from its resume point: datagen
# --resume, the same file as one whole run's). The data is made in $DATA
# (default target/nnue-data); each complete shard is also saved in the data
# store (scripts/data_store.sh: nets/data, compressed, committed to git;
# STORE=off for none) and restored from there before anything is played
# again. For a quick trial: GEN1="11:500" G2SEEDS="101 102" G2RECORDS=500
# G2NODES=300 EPOCHS=1, or NET=abc4e3e48b16 GEN0="1:500" GEN1="11:500"
# EPOCHS=1. To ship a net, copy it to nets/ and name it in
# src/nnue/embedded.rs.
set -eu
# `train_net.sh --shard GEN SEED COUNT THREADS [datagen arguments...]` is
# this script making one shard for its own queue (below).
shard=
if [ "${1:-}" = --shard ]; then
    shift
    shard=1
    BIN=${BIN:?}
    # Only nn-abc4e3e48b16's queue runs through here.
    NET=abc4e3e48b16
else
    BIN=${1:-target/release/janggun}
fi
NET=${NET:-27f44730272b}
DATA=${DATA:-target/nnue-data}
EPOCHS=${EPOCHS:-2}
STORE=${STORE:-nets/data}
export STORE
mkdir -p "$DATA"

# Each net's hidden units, learning-rate floor and (for the gen2 nets) shards;
# the rest of the recipe (scripts/recipe.sh) is the same for all four.
. "$(dirname "$0")/recipe.sh"
WITH_GEN1=0
case $NET in
27f44730272b | 074c3c36faf5)
    HIDDEN=512 FLOOR=0.01
    G2DEFAULT="$(seq -s ' ' 101 144) $(seq -s ' ' 165 180)"
    if [ "$NET" = 27f44730272b ]; then WITH_GEN1=1; fi
    ;;
013b8d4f0298)
    HIDDEN=256 FLOOR=0.05
    G2DEFAULT="$(seq -s ' ' 101 128) $(seq -s ' ' 165 180)"
    ;;
abc4e3e48b16) HIDDEN=256 FLOOR=0.05 ;;
*)
    echo "train_net: NET is 27f44730272b (the shipped net), 074c3c36faf5, 013b8d4f0298 or abc4e3e48b16, not $NET" >&2
    exit 2
    ;;
esac

# The recipe, on the data files given: their paths (SKIP_TRAIN=1), or the
# trained net's path last.
train_on() {
    if [ "${SKIP_TRAIN:-0}" = 1 ]; then
        echo "$@"
        exit 0
    fi
    args=$(recipe hidden="$HIDDEN" floor="$FLOOR" epochs="$EPOCHS")
    # shellcheck disable=SC2086 # one argument a word
    exec "$BIN" train "$@" $args --out-dir "$DATA/train"
}

# --- the gen2 nets: gen2, after gen1 for nn-27f44730272b ----------------------
if [ "$NET" != abc4e3e48b16 ]; then
    old=
    if [ "$WITH_GEN1" = 1 ]; then
        # nn-abc4e3e48b16's own procedure makes (or restores) gen1 and lists
        # it; GEN0 empty leaves gen0 out.
        old=$(NET=abc4e3e48b16 SKIP_TRAIN=1 GEN0= DATA=$DATA "$0" "$BIN")
    fi
    PLAYER=nets/nn-abc4e3e48b16.jnn
    G2SEEDS=${G2SEEDS:-$G2DEFAULT}
    G2RECORDS=${G2RECORDS:-100000}
    G2NODES=${G2NODES:-3000}
    files=
    for s in $G2SEEDS; do files="$files $DATA/gen2_seed$s.bin"; done
    if [ "${SKIP_DATA:-0}" != 1 ]; then
        bench=$("$BIN" bench --net "$PLAYER" 2>/dev/null | sed -n 's/^Bench: //p')
        if [ "$bench" != 1529251 ]; then
            echo "train_net: this binary's search signature with $PLAYER is ${bench:-unknown}," \
                "not 1529251: the gen2 shards it plays are other games of the same kind," \
                "not the shipped net's bytes (shards restored from the store are the shipped ones)" >&2
        fi
        BIN=$BIN DATA=$DATA GEN2_NET=$PLAYER GEN2_NODES=$G2NODES GEN2_SHARD=$G2RECORDS \
            GEN2_SHARDS=$G2SEEDS "$(dirname "$0")/gen2.sh" gen2
    fi
    for f in $files; do
        if [ ! -f "$f" ] || [ "$("$BIN" datagen count "$f" 2>/dev/null)" != "$G2RECORDS" ]; then
            echo "train_net: $f is not complete; run again to resume it" >&2
            exit 1
        fi
    done
    # shellcheck disable=SC2086 # one path a word
    train_on $old $files
fi

# --- nn-abc4e3e48b16: gen0 + gen1 --------------------------------------------
GEN1_THREADS=${GEN1_THREADS:-1}
GEN1_NET=${GEN1_NET:-nets/nn-c7f2d971be0b.jnn}
# seed:positions of the shards the net was trained on.
# (GEN0 set but empty: no gen0.)
GEN0=${GEN0-"1:436033 2:144606"}
GEN1=${GEN1:-"11:221919 12:223167 13:225797 14:224596 15:169296 16:165231 17:163052 18:168406"}
JOBS=${JOBS:-2}
store() { BIN=$BIN "$(dirname "$0")/data_store.sh" "$@"; }
# A shard of any format holding $2 records, as the binary counts them.
complete() { [ -f "$1" ] && [ "$("$BIN" datagen count "$1" 2>/dev/null)" = "$2" ]; }
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

if [ "${SKIP_DATA:-0}" != 1 ]; then
    echo "train_net: nn-abc4e3e48b16's shards cannot be made again byte for byte:" \
        "gen0 was played by the search and classical evaluation of 2026-11-30 (before" \
        "4c0aa84), which have changed since, and gen1 with 4 threads a shard, its games" \
        "finishing in the order the threads ran; these are other games of the same kind" >&2
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
# shellcheck disable=SC2086 # one path a word
train_on $files
