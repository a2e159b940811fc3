#!/usr/bin/env bash
# A net of nets/ made again from its recipe, nets/nn-<hash>.recipe: its
# shards (restored from the data store, or played), then its training; the
# last line printed is the new net's path. The recipe owns every fact (the
# shards and their record counts, the datagen settings of each, the
# signature of the search that played them, the trainer's settings) and the
# binary reads it (`janggun datagen recipe`, `janggun train --recipe`); this
# script only runs it.
#
#   scripts/nets/train_net.sh [janggun binary]                  the embedded net, nn-239453d7ff50
#   NET=27f44730272b scripts/nets/train_net.sh [janggun binary] another net of nets/ (074c3c36faf5,
#                                                               013b8d4f0298, abc4e3e48b16, c7f2d971be0b)
#   RECIPE=FILE scripts/nets/train_net.sh [janggun binary]      any recipe (a toy-scale trial, say)
#
# Where a recipe gives the signature of the search that played a group of
# shards, a shard played again by a binary with that signature is the same
# file byte for byte on any machine (one thread a shard); the script warns
# before it plays a shard with another signature, or of a group with none
# (those bytes no binary makes again: games of the same kind instead). The
# recipes say, group by group, why.
#
#   DATA=target/nnue-data  where the shards are made, the net in DATA/train
#   STORE=nets/data        the data store (scripts/nets/data_store.sh; off
#                          for none): each shard is restored from it before
#                          anything is played, and saved to it once made
#   JOBS=2                 shards played at once, longest first
#   DATA_GROUPS="gen2"     only these groups of the recipe (default: all)
#   SKIP_DATA=1            train on the shards already in DATA
#   SKIP_TRAIN=1           stop once the data is made; print the shards' paths
#   EPOCHS=1               the recipe's settings but this many epochs
#
# A run resumes: a complete shard is kept, one cut short goes on from its
# resume point (`datagen --resume`: the same file as one whole run's). To
# ship a net, copy it to nets/ with its recipe and name it in
# src/nnue/embedded.rs.
set -euo pipefail
# The body is one group, read whole before it runs: bash reads a script as
# it goes, so an edit of this file while a run is under way (a checkout, a
# rebase) would otherwise run a mix of the old and the new text.
{
here=$(dirname "$0")
# `train_net.sh --shard NAME RECORDS` is this script playing one shard of
# its own queue (below), with BIN, DATA, STORE and RECIPE exported.
shard=
if [ "${1:-}" = --shard ]; then
    shift
    shard=1
    BIN=${BIN:?}
else
    BIN=${1:-target/release/janggun}
fi
NET=${NET:-239453d7ff50}
RECIPE=${RECIPE:-nets/nn-$NET.recipe}
DATA=${DATA:-target/nnue-data}
STORE=${STORE:-nets/data}
JOBS=${JOBS:-2}
export BIN DATA STORE RECIPE
[ -f "$RECIPE" ] || { echo "train_net: no recipe $RECIPE (NET is a net of nets/, or RECIPE a file)" >&2; exit 2; }
mkdir -p "$DATA"

store() { "$here/data_store.sh" "$@"; }
# A shard of any format holding $2 records, as the binary counts them.
complete() { [ -f "$1" ] && [ "$("$BIN" datagen count "$1" 2>/dev/null </dev/null)" = "$2" ]; }

# name, records: play the shard with the recipe's arguments, resuming a
# shard cut short, and save it once complete.
play_shard() {
    local f=$DATA/$1 args_text
    local args
    # A shard cut short goes on from its resume point; one without a point
    # is made again, and a point without its shard is dropped.
    [ -f "$f" ] || rm -f "$f.resume"
    [ -f "$f.resume" ] || rm -f "$f"
    args_text=$("$BIN" datagen recipe "$RECIPE" "$1")
    mapfile -t args <<<"$args_text"
    if ! "$BIN" datagen "${args[@]}" --out "$f" --resume --progress 60 2>>"${f%.bin}.log"; then
        echo "train_net: $f failed; see ${f%.bin}.log" >&2
        return 1
    fi
    complete "$f" "$2" && store save "$f"
}
if [ -n "$shard" ]; then
    play_shard "$@"
    exit
fi

# The recipe's shards (GROUP NAME RECORDS, in training order), those of
# DATA_GROUPS only where it is set.
shards_text=$("$BIN" datagen recipe "$RECIPE")
groups_text=$("$BIN" datagen recipe "$RECIPE" --groups)
wanted() { [ -z "${DATA_GROUPS:-}" ] || [[ " $DATA_GROUPS " == *" $1 "* ]]; }
files=()
while read -r group name _; do
    if wanted "$group"; then files+=("$DATA/$name"); fi
done <<<"$shards_text"
[ "${#files[@]}" -gt 0 ] || { echo "train_net: $RECIPE has no shards in groups ${DATA_GROUPS:-}" >&2; exit 2; }

if [ "${SKIP_DATA:-0}" != 1 ]; then
    # Restored where the store has them; what is still missing is queued.
    queue=()
    while read -r group name records; do
        wanted "$group" || continue
        store restore "$DATA/$name" </dev/null
        if complete "$DATA/$name" "$records"; then
            echo "train_net: $DATA/$name complete, kept" >&2
        else
            queue+=("$group $name $records")
        fi
    done <<<"$shards_text"
    # Before anything is played: whether it plays the recipe's bytes.
    while read -r group signature player; do
        [[ " ${queue[*]} " == *" $group "* ]] || continue
        if [ "$signature" = - ]; then
            echo "train_net: $group's shards cannot be made again byte for byte (see $RECIPE);" \
                "these are other games of the same kind" >&2
            continue
        fi
        net=()
        [ "$player" = - ] || net=(--net "$player")
        bench=$("$BIN" bench "${net[@]}" 2>/dev/null </dev/null | sed -n 's/^Bench: //p')
        if [ "$bench" != "$signature" ]; then
            echo "train_net: this binary's search signature with ${player/#-/the classical evaluation}" \
                "is ${bench:-unknown}, not $signature: the $group shards it plays are other games" \
                "of the same kind, not the recipe's bytes (shards restored from the store are)" >&2
        fi
    done <<<"$groups_text"
    # One queue of every shard still missing, longest first, JOBS at a
    # time: a core never waits for the other's shard to end, as it would
    # with pairs of shards of unequal sizes.
    if [ "${#queue[@]}" -gt 0 ]; then
        printf '%s\n' "${queue[@]}" | sort -k3,3nr | cut -d' ' -f2,3 |
            xargs -L 1 -P "$JOBS" "$0" --shard ||
            { echo "train_net: some shards were not made; run again to resume them" >&2; exit 1; }
    fi
fi
while read -r group name records; do
    wanted "$group" || continue
    if ! complete "$DATA/$name" "$records"; then
        echo "train_net: $DATA/$name is not complete; run again to resume it" >&2
        exit 1
    fi
done <<<"$shards_text"

if [ "${SKIP_TRAIN:-0}" = 1 ]; then
    echo "${files[*]}"
    exit 0
fi
epochs=()
[ -z "${EPOCHS:-}" ] || epochs=(--epochs "$EPOCHS")
exec "$BIN" train "${files[@]}" --recipe "$RECIPE" "${epochs[@]}" --out-dir "$DATA/train"
exit
}
