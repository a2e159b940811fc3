#!/usr/bin/env bash
# The third generation's self-play, shard by shard: GEN3_SHARDS shards of
# GEN3_SHARD records, played by GEN3_NET (nn-27f44730272b, the shipped net
# when gen3 began) at GEN3_NODES nodes a move, one thread a shard, JOBS at a
# time, in the chained format, with gen2's settings otherwise (8 random
# plies, the opening check, win adjudication). Every step resumes:
#
#   data     make every missing shard; each finished one goes into the store
#            (nets/data) at once, so a session's hours survive the machine
#   status   shards complete on this machine and the records in them
#   park     keep the shards cut short (after stopping `data`), with their
#            resume points, in the store for the next session
#
#   scripts/nets/gen3.sh [data|status|park]          (default: data)
#   GEN3_SHARDS="301 302" JOBS=1 scripts/nets/gen3.sh data
#
# 120 shards of 100,000 records: 12 M positions. A shard's file is the same
# bytes for the same seed and the same build; a shard resumed by another
# build (a search change landed between sessions) holds the games of both,
# which the trainer takes alike.
set -euo pipefail
# The body is one group, read whole before it runs: bash reads a script as
# it goes, so an edit of this file while a run is under way (a checkout, a
# rebase) would otherwise run a mix of the old and the new text.
{
STEP=${1:-data}
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release/janggun}
DATA=${DATA:-target/nnue-data}
GEN3_NET=${GEN3_NET:-nets/nn-27f44730272b.jnn}
GEN3_NODES=${GEN3_NODES:-3000}
GEN3_SHARD=${GEN3_SHARD:-100000}
GEN3_SHARDS=${GEN3_SHARDS:-$(seq -s ' ' 301 420)}
JOBS=${JOBS:-2}
STORE=${STORE:-nets/data}
export STORE
store() { BIN=$BIN scripts/nets/data_store.sh "$@"; }

shard() { echo "$DATA/gen3_seed$1.bin"; }
# Complete: holding GEN3_SHARD records, as the binary counts them.
complete() { [ -f "$1" ] && [ "$("$BIN" datagen count "$1" 2>/dev/null)" = "$GEN3_SHARD" ]; }

play() { # seed: one shard, from its resume point
    local f
    f=$(shard "$1")
    # Every setting spelt out, so that a later default cannot change a shard.
    "$BIN" datagen --nnue "$GEN3_NET" --threads 1 --seed "$1" --nodes "$GEN3_NODES" \
        --random-plies 8 --format 3 --verify-nodes 5000 --verify-limit 500 \
        --adjudicate-cp 1000 --adjudicate-plies 4 --resume \
        --positions "$GEN3_SHARD" --out "$f" --progress 120 2>>"$DATA/gen3_seed$1.log"
    if complete "$f"; then store save "$f"; fi
}

data() {
    mkdir -p "$DATA"
    local seed f running=0
    for seed in $GEN3_SHARDS; do
        f=$(shard "$seed")
        store restore "$f"
        complete "$f" && continue
        # A shard cut short goes on from its resume point; a point without
        # its shard, or a shard without its point, starts again.
        [ -f "$f" ] || rm -f "$f.resume"
        [ -f "$f.resume" ] || rm -f "$f"
        play "$seed" &
        running=$((running + 1))
        if [ "$running" -ge "$JOBS" ]; then
            wait -n
            running=$((running - 1))
        fi
    done
    wait
    status
}

status() {
    local seed f n done=0 records=0 total=0
    for seed in $GEN3_SHARDS; do
        total=$((total + 1))
        f=$(shard "$seed")
        [ -f "$f" ] || continue
        n=$("$BIN" datagen count "$f" 2>/dev/null || echo 0)
        records=$((records + n))
        [ "$n" = "$GEN3_SHARD" ] && done=$((done + 1))
    done
    echo "gen3: $done of $total shards complete, $records records in $DATA"
}

park() {
    local seed f
    for seed in $GEN3_SHARDS; do
        f=$(shard "$seed")
        if [ -f "$f" ] && ! complete "$f" && [ -f "$f.resume" ]; then
            store park "$f"
        fi
    done
}

case $STEP in
data) data ;;
status) status ;;
park) park ;;
*)
    echo "usage: scripts/nets/gen3.sh [data|status|park]" >&2
    exit 2
    ;;
esac
exit
}
