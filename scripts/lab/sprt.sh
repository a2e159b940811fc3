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
[ -n "${DEV_OPTS:-}" ] && echo "DEV_OPTS: $DEV_OPTS" >>"$out.log"
resume=()
[ -s "$out.pgn" ] && resume=(--resume)
# shellcheck disable=SC2086 # LIMIT, BOUNDS and DEV_OPTS are word lists
"$base" match --engine name=dev cmd="$dev" ${DEV_OPTS:-} --engine name=base cmd="$base" \
    --games 20000 $limit --random-plies 8 --concurrency "$concurrency" --sprt $bounds \
    --pgn "$out.pgn" --json "$out.json" "${resume[@]}" "$@" | tee -a "$out.log"
