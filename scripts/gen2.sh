#!/bin/sh
# The second-generation net, step by step; every step resumes where it
# stopped, so the whole thing can run across sessions and machines:
#
#   data    gen0 and gen1 as nn-abc4e3e48b16 had them (scripts/train_net.sh
#           with NET=abc4e3e48b16 SKIP_TRAIN=1), then gen2: self-play by
#           BASE, nn-abc4e3e48b16 (the shipped net before gen2's), in
#           data format 3 (chained; the shards were first made in format 2,
#           the same records), GEN2_NODES a move, 8 random plies with the opening
#           check, win adjudication, one thread a shard, shards of
#           GEN2_SHARD records (a shard's file is the same bytes for the same
#           seed; a shard cut short goes on from its resume point);
#   sweep   trainer settings on gen0 + gen1, one net each (below), and the
#           gate loss of each on the gate's held-out file;
#   final   FINAL_ARGS on gen0 + gen1 + gen2, on gen1 + gen2 and on gen2;
#   report  the gate losses so far, lowest first.
#
#   scripts/gen2.sh [data|gen2|sweep|final|report|all]   (default: all)
#   BIN=target/release/janggun DATA=target/nnue-data GEN2_SHARDS="101 102" scripts/gen2.sh gen2
#
# The gate loss compares nets whatever their settings (score-only target,
# one scale); a --wdl change moves the target away from the score, so its
# candidates are judged by the match gate (scripts/net_gate.sh CAND sprt)
# rather than by the loss alone. A net ships only after scripts/net_gate.sh
# passes it.
set -eu
STEP=${1:-all}
BIN=${BIN:-target/release/janggun}
DATA=${DATA:-target/nnue-data}
GATE=${GATE:-target/gate}
BASE=${BASE:-nets/nn-abc4e3e48b16.jnn}
GEN2_NET=${GEN2_NET:-$BASE}
GEN2_NODES=${GEN2_NODES:-3000}
GEN2_SHARD=${GEN2_SHARD:-100000}
# 80 shards of 100,000 records: 8 M records, about 6 M positions once the
# trainer's default filters have dropped checks, capture moves and decided
# scores.
GEN2_SHARDS=${GEN2_SHARDS:-$(seq -s ' ' 101 180)}
JOBS=${JOBS:-2}
# Finished shards and the held-out file are kept in the data store
# (scripts/data_store.sh, nets/data by default; STORE=off for none): each is
# restored from there before it is made, and saved there once made, so that
# the hours of self-play survive a new machine once nets/data is committed.
STORE=${STORE:-nets/data}
export STORE
store() { BIN=$BIN "$(dirname "$0")/data_store.sh" "$@"; }
# The trainer's recipe (`recipe NAME=VALUE...`): the sweep varies one thing
# at a time from it.
. "$(dirname "$0")/recipe.sh"
# The final nets take nn-074c3c36faf5's changes to it: twice the hidden
# units and a 1% floor (on 60 gen2 shards, +58 Elo at 5000 nodes over
# nn-013b8d4f0298; the floor alone +30; docs/RESULTS.md).
FINAL_ARGS=${FINAL_ARGS:-$(recipe hidden=512 floor=0.01)}

# nn-abc4e3e48b16's data (train_net.sh owns its shard list): made where
# missing, and listed.
gen0_gen1() {
    NET=abc4e3e48b16 SKIP_TRAIN=1 DATA=$DATA "$(dirname "$0")/train_net.sh" "$BIN"
}
gen2_files() {
    for s in $GEN2_SHARDS; do printf '%s ' "$DATA/gen2_seed$s.bin"; done
}

# A shard of any format holding GEN2_SHARD records, as the binary counts them.
gen2_complete() { [ -f "$1" ] && [ "$("$BIN" datagen count "$1" 2>/dev/null)" = "$GEN2_SHARD" ]; }
save_gen2() {
    for seed in $GEN2_SHARDS; do
        f="$DATA/gen2_seed$seed.bin"
        if gen2_complete "$f"; then store save "$f"; fi
    done
}

make_gen2() {
    mkdir -p "$DATA"
    n=0
    for seed in $GEN2_SHARDS; do
        f="$DATA/gen2_seed$seed.bin"
        store restore "$f"
        if gen2_complete "$f"; then
            continue
        fi
        # A shard cut short goes on from its resume point; one without a
        # point (made before there were any) is made again, and a point
        # without its shard is dropped.
        [ -f "$f" ] || rm -f "$f.resume"
        [ -f "$f.resume" ] || rm -f "$f"
        # Every setting spelt out, so that a later default cannot change a
        # shard.
        "$BIN" datagen --nnue "$GEN2_NET" --threads 1 --seed "$seed" --nodes "$GEN2_NODES" \
            --random-plies 8 --format 3 --verify-nodes 5000 --verify-limit 500 \
            --adjudicate-cp 1000 --adjudicate-plies 4 --resume \
            --positions "$GEN2_SHARD" --out "$f" --progress 120 2>>"$DATA/gen2_seed$seed.log" &
        n=$((n + 1))
        if [ "$n" -ge "$JOBS" ]; then
            wait
            save_gen2
            n=0
        fi
    done
    wait
    save_gen2
    echo "gen2: $(echo "$GEN2_SHARDS" | wc -w) shards complete in $DATA" >&2
}

heldout() {
    # net_gate.sh makes the held-out file once; later calls find it made.
    if [ ! -f "$GATE/heldout-seed7001.bin.done" ]; then
        OUT=$GATE BIN=$BIN BASE=$BASE "$(dirname "$0")/net_gate.sh" "$BASE" loss >/dev/null
    fi
}

# candidate name, data files, train arguments: one net in $DATA/nets/NAME/,
# its path in NAME.net and its gate loss in NAME.loss.
candidate() {
    name=$1 files=$2
    shift 2
    dir=$DATA/nets/$name
    mkdir -p "$dir"
    if [ ! -s "$dir.net" ]; then
        echo "gen2: training $name: $*" >&2
        # shellcheck disable=SC2086 # $files is a word list
        if ! "$BIN" train $files "$@" --out-dir "$dir" >"$dir.out" 2>"$dir.log"; then
            echo "gen2: training $name failed; see $dir.log" >&2
            tail -n 3 "$dir.log" >&2
            exit 1
        fi
        tail -n 1 "$dir.out" >"$dir.net"
    fi
    if [ ! -s "$dir.loss" ]; then
        heldout
        "$BIN" net loss "$(cat "$dir.net")" "$GATE/heldout-seed7001.bin" >"$dir.loss" 2>/dev/null
    fi
    echo "$name $(cat "$dir.loss") $(cat "$dir.net")"
}

sweep() {
    files=$(gen0_gen1)
    # shellcheck disable=SC2086
    {
        candidate base "$files" $(recipe)
        candidate floor1 "$files" $(recipe floor=0.01)
        candidate epochs1 "$files" $(recipe epochs=1)
        candidate epochs3 "$files" $(recipe epochs=3)
        candidate batch512 "$files" $(recipe batch=512)
        candidate batch4096 "$files" $(recipe batch=4096 lr=0.004)
        candidate dedup "$files" $(recipe dup=)
        candidate wdl25 "$files" $(recipe wdl=0.25)
        candidate wdl40 "$files" $(recipe wdl=0.4)
        candidate screlu "$files" $(recipe act=screlu)
        candidate buckets8 "$files" $(recipe buckets=8)
        candidate screlu-b8 "$files" $(recipe act=screlu buckets=8)
    }
}

final() {
    old=$(gen0_gen1) new=$(gen2_files)
    # shellcheck disable=SC2086
    {
        candidate g012 "$old $new" $FINAL_ARGS
        # gen1 + gen2 on seeds 101-144 and 165-180 is the shipped net,
        # nn-27f44730272b (scripts/train_net.sh makes it alone).
        candidate g12 "$(echo "$old" | tr ' ' '\n' | grep /gen1_ | tr '\n' ' ') $new" $FINAL_ARGS
        # gen2 alone: on those 60 shards, nn-074c3c36faf5, the net before
        # it (docs/RESULTS.md).
        candidate g2 "$new" $FINAL_ARGS
    }
}

report() {
    heldout
    {
        echo "base $("$BIN" net loss "$BASE" "$GATE/heldout-seed7001.bin" 2>/dev/null) $BASE"
        for l in "$DATA"/nets/*.loss; do
            [ -f "$l" ] || continue
            echo "$(basename "$l" .loss) $(cat "$l") $(cat "${l%.loss}.net")"
        done
    } | sort -k4 -g
}

case $STEP in
data)
    gen0_gen1 >/dev/null
    make_gen2
    ;;
gen2) make_gen2 ;;
sweep) sweep ;;
final) final ;;
report) report ;;
all)
    sweep
    make_gen2
    final
    report
    ;;
*)
    echo "usage: scripts/gen2.sh [data|gen2|sweep|final|report|all]" >&2
    exit 2
    ;;
esac
