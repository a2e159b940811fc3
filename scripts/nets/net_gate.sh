#!/usr/bin/env bash
# The gate a new net passes before it ships, in three steps, each resumable:
#
#   1. loss   the gate metric (`janggun net loss`) of the candidate and of
#             BASE on the held-out file, which is made once and never
#             changes: one thread, seed 7001, 5000 nodes a move with
#             nn-abc4e3e48b16, 20000 positions (so a new machine makes the
#             same file byte for byte; about 15 minutes on one core);
#   2. sprt   candidate against BASE, same binary, 5000 nodes a
#             move, `--sprt elo0=0 elo1=10` (pentanomial), 8 random plies;
#   3. clock  400 games at 1 s + 0.1 s (the issue's figure: at least +60 Elo,
#             no time losses), or STAGE_TC/STAGE_GAMES for the 10+0.1
#             confirmation.
#
#   scripts/nets/net_gate.sh CANDIDATE.jnn [loss|sprt|clock|all]
#   BIN=target/release/janggun BASE=nets/nn-abc4e3e48b16.jnn OUT=target/gate scripts/nets/net_gate.sh ...
#
# Each match writes OUT/<candidate>-<step>.{pgn,json,log}; running the same
# step again continues it (`--resume`).
#
# BASE is nets/nn-abc4e3e48b16.jnn unless told: the net the second
# generation is measured against (it played gen2's games). Each shipped net
# since (nn-013b8d4f0298, nn-074c3c36faf5, then nn-27f44730272b) passed this
# gate against it; a later candidate passes it against the shipped net too
# (nn-239453d7ff50 against nn-27f44730272b): BASE=nets/nn-239453d7ff50.jnn.
set -euo pipefail
# The body is one group, read whole before it runs: bash reads a script as
# it goes, so an edit of this file while a run is under way (a checkout, a
# rebase) would otherwise run a mix of the old and the new text.
{
CAND=${1:?candidate net}
STEP=${2:-all}
BIN=${BIN:-target/release/janggun}
# The second generation's reference: the held-out file's player and the
# default BASE.
HELDOUT_NET=nets/nn-abc4e3e48b16.jnn
BASE=${BASE:-$HELDOUT_NET}
OUT=${OUT:-target/gate}
HELDOUT=${HELDOUT:-$OUT/heldout-seed7001.bin}
STAGE_TC=${STAGE_TC:-1+0.1}
STAGE_GAMES=${STAGE_GAMES:-400}
mkdir -p "$OUT"
name=$(basename "$CAND" .jnn)
# A match against another base is another match: its files say so, so that
# resuming one never continues the other.
[ "$BASE" = "$HELDOUT_NET" ] || name=$name-vs-$(basename "$BASE" .jnn)

match() { # step, match arguments...
    step=$1
    shift
    out="$OUT/$name-$step"
    resume=
    [ -s "$out.pgn" ] && resume=--resume
    # shellcheck disable=SC2086 # $resume is empty or one flag
    "$BIN" match --engine name=candidate cmd="$BIN" option.EvalFile="$CAND" option.Hash=64 \
        --engine name=base cmd="$BIN" option.EvalFile="$BASE" option.Hash=64 \
        --random-plies 8 --concurrency "${CONCURRENCY:-2}" \
        --pgn "$out.pgn" --json "$out.json" $resume "$@" | tee -a "$out.log" | tail -n 12
}

if [ "$STEP" = loss ] || [ "$STEP" = all ]; then
    want=${HELDOUT_POSITIONS:-20000}
    # The data store (scripts/nets/data_store.sh) keeps the file in git, so a new
    # machine unpacks it rather than spending the quarter hour again.
    if [ ! -f "$HELDOUT.done" ]; then
        BIN=$BIN "$(dirname "$0")/data_store.sh" restore "$HELDOUT"
        if [ -f "$HELDOUT" ] && [ "$("$BIN" datagen count "$HELDOUT" 2>/dev/null)" = "$want" ]; then
            touch "$HELDOUT.done"
        fi
    fi
    if [ ! -f "$HELDOUT.done" ]; then
        # A file cut short goes on from its resume point; one without a
        # point is made again.
        [ -f "$HELDOUT" ] || rm -f "$HELDOUT.resume"
        [ -f "$HELDOUT.resume" ] || rm -f "$HELDOUT"
        # Every datagen setting spelt out, so a later default cannot change
        # the file.
        "$BIN" datagen --nnue "$HELDOUT_NET" --threads 1 --seed 7001 --nodes 5000 \
            --random-plies 8 --format 3 --verify-nodes 5000 --verify-limit 500 \
            --adjudicate-cp 1000 --adjudicate-plies 4 --resume \
            --positions "$want" --out "$HELDOUT" --progress 60
        touch "$HELDOUT.done"
        BIN=$BIN "$(dirname "$0")/data_store.sh" save "$HELDOUT"
    fi
    for net in "$BASE" "$CAND"; do
        "$BIN" net loss "$net" "$HELDOUT"
    done
fi
if [ "$STEP" = sprt ] || [ "$STEP" = all ]; then
    match sprt --games 20000 --nodes 5000 --sprt elo0=0 elo1=10 alpha=0.05 beta=0.1
fi
if [ "$STEP" = clock ] || [ "$STEP" = all ]; then
    match "clock-$STAGE_TC" --games "$STAGE_GAMES" --tc "$STAGE_TC"
fi
exit
}
