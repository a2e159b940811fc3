#!/usr/bin/env bash
# An SPRT of one commit's engine against another's, both built from git,
# resumable: run it again with the same arguments and it continues from its
# PGN (the match runner refuses a resume under other conditions).
#
#   scripts/lab/sprt.sh DEV_REF BASE_REF [extra janggun match arguments]
#   CONCURRENCY=1 DEV_OPTS="option.Ablate=singular" LIMIT="--nodes 20000" BOUNDS="elo0=0 elo1=15 alpha=0.05 beta=0.1" \
#     scripts/lab/sprt.sh search main
#
# Binaries go to target/sprt/<commit>/janggun, results to
# target/sprt/runs/<dev>-<base>.{pgn,json,log}. The docs/RESULTS.md table of
# search patches was made this way.
set -euo pipefail
# The body is one group, read whole before it runs: bash reads a script as
# it goes, so an edit of this file while a run is under way (a checkout, a
# rebase) would otherwise run a mix of the old and the new text.
{
cd "$(dirname "$0")/../.."
dev_ref=${1:?DEV_REF}
base_ref=${2:?BASE_REF}
shift 2
limit=${LIMIT:---nodes 20000}
bounds=${BOUNDS:-elo0=0 elo1=15 alpha=0.05 beta=0.1}
concurrency=${CONCURRENCY:-2}
root=$PWD/target/sprt
# shellcheck source=scripts/lab/common.sh
. scripts/lab/common.sh

dev=$(build "$dev_ref")
base=$(build "$base_ref")
tag=${DEV_OPTS:+-$(tr -c 'A-Za-z0-9' '_' <<<"$DEV_OPTS")}
# A file name holds 255 bytes: a long option list (a tuning run's values) is
# named by its checksum, and the list itself goes into the log.
[ ${#tag} -gt 100 ] && tag=-opts_$(printf '%s' "$DEV_OPTS" | sha1sum | cut -c1-12)
# RUN_TAG names a test of the same pair under other conditions (a screen at
# fixed nodes beside the clock's test), so that neither resumes the other.
name=$(basename "$(dirname "$dev")")-$(basename "$(dirname "$base")")$tag${RUN_TAG:+-$RUN_TAG}
mkdir -p "$root/runs"
out=$root/runs/$name
restore_run "$out"
if [ -n "${PEEK:-}" ]; then
    # The runner writes its JSON only when a match ends or is stopped; a
    # running test is read from a copy of its PGN, cut to its complete pairs
    # (a resume would play the games missing below the last one), resumed
    # with nothing left to play.
    [ -s "$out.pgn" ] || { sprt_state "$out.json" && exit 0; }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    pairs=$(sed -n 's/^\[Round "\([0-9]*\)"\]$/\1/p' "$out.pgn" | sort -n |
        awk '$1 == n + 1 { n = $1 } END { print int(n / 2) }')
    [ "$pairs" -gt 0 ] || { echo "running, no complete pair yet" && exit 0; }
    awk -v last=$((2 * pairs)) '/^\[Event /{ keep = 1 } /^\[Round "/{ r = $2; gsub(/[^0-9]/, "", r); keep = r + 0 <= last }
        { block = block $0 "\n" } /^$/ && seen { if (keep) printf "%s", block; block = ""; seen = 0 } /^[^[]/{ seen = 1 }
        END { if (keep && seen) printf "%s", block }' "$out.pgn" >"$tmp/run.pgn"
    # Never a game played here: the copy holds exactly the games asked for.
    if [ "$(run_length pgn <"$tmp/run.pgn")" != $((2 * pairs)) ]; then
        echo "sprt.sh: could not cut $out.pgn to its $pairs complete pairs" >&2
        exit 1
    fi
    # shellcheck disable=SC2086 # as below
    "$base" match --engine name=dev cmd="$dev" ${DEV_OPTS:-} --engine name=base cmd="$base" \
        --games $((2 * pairs)) $limit --random-plies 8 --sprt $bounds --quiet \
        --pgn "$tmp/run.pgn" --json "$tmp/run.json" --resume "$@" >/dev/null
    echo "so far: $(sprt_state "$tmp/run.json")"
    exit 0
fi
[ -n "${DEV_OPTS:-}" ] && echo "DEV_OPTS: $DEV_OPTS" >>"$out.log"
resume=()
[ -s "$out.pgn" ] && resume=(--resume)
# shellcheck disable=SC2086 # LIMIT, BOUNDS and DEV_OPTS are word lists
"$base" match --engine name=dev cmd="$dev" ${DEV_OPTS:-} --engine name=base cmd="$base" \
    --games 20000 $limit --random-plies 8 --concurrency "$concurrency" --sprt $bounds \
    --pgn "$out.pgn" --json "$out.json" "${resume[@]}" "$@" | tee -a "$out.log"
exit
}
