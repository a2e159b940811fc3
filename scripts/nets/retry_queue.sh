#!/usr/bin/env bash
# Issue 47's retries on the whole store: each variant is the shipped net's
# recipe (nets/nn-239453d7ff50.recipe: gen1 + gen2 + gen3, 512 hidden,
# CReLU) with one setting changed, trained from the same shards and then
# screened by the gate's SPRT at 5000 nodes a move against the shipped net
# (scripts/nets/net_gate.sh ... sprt, elo0=0 elo1=10). A variant that
# passes goes on to the gate's clock steps by hand, as every shipped net did.
#
#   scripts/nets/retry_queue.sh [run|status]           (default: run)
#   ONLY="hidden768 screlu" scripts/nets/retry_queue.sh run
#   BIN=target/release/janggun ROOT=target/retry scripts/nets/retry_queue.sh
#
# Every step resumes: a variant whose net exists is not trained again, a
# training cut off goes on from its last epoch's checkpoint, a screen cut
# off goes on from its PGN (here, or from docs/runs/ where
# scripts/lab/keep_run.sh ROOT/gate/NAME.pgn kept it), and a screen that
# reached H0 or H1 is skipped. Run it alone on the machine (one CPU-heavy
# job at a time): training takes both cores, and so does the screen.
set -euo pipefail
# The body is one group, read whole before it runs: bash reads a script as
# it goes, so an edit of this file while a run is under way (a checkout, a
# rebase) would otherwise run a mix of the old and the new text.
{
cd "$(dirname "$0")/../.."
step=${1:-run}
BIN=${BIN:-target/release/janggun}
BASE=${BASE:-nets/nn-239453d7ff50.jnn}
RECIPE=${RECIPE:-nets/nn-239453d7ff50.recipe}
ROOT=${ROOT:-target/retry}
export BIN

# name, then the trainer's arguments that differ from the recipe's; the
# cheaper trainings first.
variants() {
    echo "screlu --activation screlu"
    echo "buckets8 --buckets 8"
    echo "hidden768 --hidden 768"
    echo "hidden1024 --hidden 1024"
    echo "palace6 --input-buckets palace6 --factorize true"
}

# shellcheck source=scripts/lab/common.sh
. scripts/lab/common.sh

net_of() { # variant directory -> the net the trainer wrote, or nothing
    [ -s "$1/net" ] && [ -f "$(cat "$1/net")" ] && cat "$1/net"
    return 0
}

gate_json() { # net -> the JSON of its screen (net_gate.sh's naming)
    echo "$ROOT/gate/$(basename "$1" .jnn)-vs-$(basename "$BASE" .jnn)-sprt.json"
}

state_of() { sprt_state "$1" "not screened"; }

train() { # name, directory, trainer arguments...
    local name=$1 dir=$2 files ckpt resume=()
    shift 2
    mkdir -p "$dir"
    # train_net.sh restores the recipe's shards from the store (or plays
    # what is missing) and prints their paths instead of training.
    files=$(SKIP_TRAIN=1 RECIPE=$RECIPE scripts/nets/train_net.sh "$BIN" </dev/null | tail -n 1)
    ckpt=$(find "$dir" -maxdepth 1 -name 'epoch-*.ckpt' | sort -V | tail -n 1)
    [ -z "$ckpt" ] || resume=(--resume "$ckpt")
    echo "retry_queue: training $name ($*)${ckpt:+, from $ckpt}" >&2
    # shellcheck disable=SC2086 # the shard list is one word a path
    "$BIN" train $files --recipe "$RECIPE" "$@" "${resume[@]}" --out-dir "$dir" </dev/null \
        2> >(tee -a "$dir/train.log" >&2) | tail -n 1 >"$dir/net.tmp"
    mv "$dir/net.tmp" "$dir/net"
}

# The list comes on its own descriptor: the trainer and the matches never
# read it as their input.
while read -r name args <&3; do
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then
        continue
    fi
    dir=$ROOT/$name
    net=$(net_of "$dir")
    case $step in
    status)
        if [ -z "$net" ]; then
            echo "$name ($args): not trained"
        else
            echo "$name ($args): $(basename "$net"): $(state_of "$(gate_json "$net")")"
        fi
        ;;
    run)
        if [ -z "$net" ]; then
            # shellcheck disable=SC2086 # args is a word list
            train "$name" "$dir" $args
            net=$(net_of "$dir")
            [ -n "$net" ] || { echo "retry_queue: $name wrote no net; see $dir/train.log" >&2; exit 1; }
        fi
        json=$(gate_json "$net")
        case $(state_of "$json") in
        *accepted*)
            echo "retry_queue: $name screened ($(state_of "$json"))" >&2
            continue
            ;;
        esac
        restore_kept "${json%.json}.pgn"
        echo "retry_queue: screening $name ($(basename "$net") against $(basename "$BASE"))" >&2
        BASE=$BASE OUT=$ROOT/gate scripts/nets/net_gate.sh "$net" sprt </dev/null >/dev/null
        echo "retry_queue: $name: $(state_of "$json")" >&2
        ;;
    *)
        echo "usage: scripts/nets/retry_queue.sh [run|status]" >&2
        exit 2
        ;;
    esac
done 3< <(variants)
exit
}
