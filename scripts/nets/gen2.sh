#!/usr/bin/env bash
# The second-generation net, step by step; every step resumes where it
# stopped, so the whole thing can run across sessions and machines:
#
#   data    gen0 and gen1 as nn-abc4e3e48b16 had them (OLD_RECIPE's shards,
#           scripts/nets/train_net.sh SKIP_TRAIN=1), then gen2: self-play by
#           nn-abc4e3e48b16 (the shipped net before gen2's), the shards of
#           RECIPE's gen2 group with its datagen settings (a shard's file is
#           the same bytes for the same seed; a shard cut short goes on
#           from its resume point);
#   sweep   trainer settings on gen0 + gen1, one net each: OLD_RECIPE's with
#           one thing changed (below), and the gate loss of each on the
#           gate's held-out file;
#   final   RECIPE's settings on gen0 + gen1 + gen2, on RECIPE's own data
#           (gen1 + gen2: the shipped net) and on gen2;
#   report  the gate losses so far, lowest first.
#
#   scripts/nets/gen2.sh [data|gen2|sweep|final|report|all]   (default: all)
#   BIN=target/release/janggun DATA=target/nnue-data scripts/nets/gen2.sh gen2
#
# OLD_RECIPE is nets/nn-abc4e3e48b16.recipe and RECIPE
# nets/nn-27f44730272b.recipe unless told (a toy-scale trial gives its
# own); the recipes own the shards, the datagen settings and the trainer's
# settings, and train_net.sh plays and restores the shards (the data
# store, STORE, JOBS at a time).
#
# The gate loss compares nets whatever their settings (score-only target,
# one scale); a --wdl change moves the target away from the score, so its
# candidates are judged by the match gate (scripts/nets/net_gate.sh CAND
# sprt) rather than by the loss alone. A net ships only after
# scripts/nets/net_gate.sh passes it.
set -euo pipefail
STEP=${1:-all}
BIN=${BIN:-target/release/janggun}
DATA=${DATA:-target/nnue-data}
GATE=${GATE:-target/gate}
BASE=${BASE:-nets/nn-abc4e3e48b16.jnn}
OLD_RECIPE=${OLD_RECIPE:-nets/nn-abc4e3e48b16.recipe}
RECIPE=${RECIPE:-nets/nn-27f44730272b.recipe}
here=$(dirname "$0")
# train_net.sh and net_gate.sh use the same binary and base.
export BIN BASE

# The shards of a recipe (of its DATA_GROUPS only, where set): made where
# missing (restored from the store, or played), and listed.
shards_of() { # recipe [groups]
    RECIPE=$1 DATA_GROUPS=${2:-} SKIP_TRAIN=1 DATA=$DATA "$here/train_net.sh" "$BIN"
}
gen0_gen1() { shards_of "$OLD_RECIPE"; }
make_gen2() { shards_of "$RECIPE" gen2; }

heldout() {
    # net_gate.sh makes the held-out file once; later calls find it made.
    if [ ! -f "$GATE/heldout-seed7001.bin.done" ]; then
        OUT=$GATE "$here/net_gate.sh" "$BASE" loss >/dev/null
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

# candidate name, data files, then OLD_RECIPE's settings with the changes given.
sweep_net() {
    local name=$1 files=$2
    shift 2
    candidate "$name" "$files" --recipe "$OLD_RECIPE" "$@"
}

sweep() {
    local files
    files=$(gen0_gen1)
    sweep_net base "$files"
    sweep_net floor1 "$files" --lr-floor 0.01
    sweep_net epochs1 "$files" --epochs 1
    sweep_net epochs3 "$files" --epochs 3
    sweep_net batch512 "$files" --batch 512
    sweep_net batch4096 "$files" --batch 4096 --lr 0.004
    sweep_net dedup "$files" --drop-duplicates
    sweep_net wdl25 "$files" --wdl 0.25
    sweep_net wdl40 "$files" --wdl 0.4
    sweep_net screlu "$files" --activation screlu
    sweep_net buckets8 "$files" --buckets 8
    sweep_net screlu-b8 "$files" --activation screlu --buckets 8
}

final() {
    local old new own
    old=$(gen0_gen1)
    new=$(make_gen2)
    own=$(shards_of "$RECIPE")
    candidate g012 "$old $new" --recipe "$RECIPE"
    # RECIPE's own data, gen1 + gen2 on seeds 101-144 and 165-180: the
    # shipped net, nn-27f44730272b (scripts/nets/train_net.sh makes it alone).
    candidate g12 "$own" --recipe "$RECIPE"
    # gen2 alone: on those 60 shards, nn-074c3c36faf5, the net before it
    # (docs/RESULTS.md).
    candidate g2 "$new" --recipe "$RECIPE"
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
    make_gen2 >/dev/null
    ;;
gen2) make_gen2 >/dev/null ;;
sweep) sweep ;;
final) final ;;
report) report ;;
all)
    sweep
    make_gen2 >/dev/null
    final
    report
    ;;
*)
    echo "usage: scripts/nets/gen2.sh [data|gen2|sweep|final|report|all]" >&2
    exit 2
    ;;
esac
