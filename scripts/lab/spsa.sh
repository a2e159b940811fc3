#!/usr/bin/env bash
# An SPSA run of the search margins on one commit's engine, resumable across
# machines: the log is what `janggun spsa` resumes from, and
# scripts/lab/keep_run.sh keeps it (gzipped) in docs/runs/, from where this
# puts it back when the machine has none. Stop it with Ctrl-C (or
# `pkill -INT -f "janggun spsa"`): the iteration in play is lost, the log
# keeps every finished one.
#
#   scripts/lab/spsa.sh [REF]                              (REF default: HEAD)
#   ITERATIONS=2000 LIMIT="--tc 2+0.02" PARAMS=RfpMargin,LmrDivisor scripts/lab/spsa.sh main
#
# PARAMS defaults to what `janggun spsa` tunes by default (every margin but
# the feature switches that are off by default). The log goes to target/sprt/spsa/<commit>-<N>.log;
# the last line printed gives the tuned values as option.NAME=VALUE, for an
# SPRT against the defaults (DEV_OPTS of scripts/lab/sprt.sh).
set -euo pipefail
# The body is one group, read whole before it runs: bash reads a script as
# it goes, so an edit of this file while a run is under way (a checkout, a
# rebase) would otherwise run a mix of the old and the new text.
{
cd "$(dirname "$0")/../.."
ref=${1:-HEAD}
iterations=${ITERATIONS:-2000}
limit=${LIMIT:---tc 2+0.02}
concurrency=${CONCURRENCY:-2}
root=$PWD/target/sprt
# shellcheck source=scripts/lab/common.sh
. scripts/lab/common.sh

bin=$(build "$ref")
mkdir -p "$root/spsa"
log=$root/spsa/$(basename "$(dirname "$bin")")-$iterations${PARAMS:+-$(tr -c 'A-Za-z0-9' '_' <<<"$PARAMS")}.log
restore_kept "$log"
params=()
[ -n "${PARAMS:-}" ] && params=(--params "$PARAMS")
# shellcheck disable=SC2086 # LIMIT is a word list
"$bin" spsa --engine cmd="$bin" option.Threads=1 option.Hash=16 --iterations "$iterations" \
    $limit --concurrency "$concurrency" "${params[@]}" --log "$log"
exit
}
