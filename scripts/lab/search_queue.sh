#!/usr/bin/env bash
# The SPRTs of issue 46's search patches, one after another, each by
# scripts/lab/sprt.sh (so each resumes from its PGN, here or from
# docs/runs/), each the patch's branch against the commit it sits on: a
# bug fix as a non-regression test (elo0=-5 elo1=0), a new technique at
# elo0=0 elo1=10, alpha 0.05 and beta 0.1 for both, at 2+0.02 (singular
# extensions at 5+0.05), two games at once. A test that reached H0 or H1
# is skipped; `status` prints every test's state from its JSON, or from its
# games so far while it runs or where it was kept.
#
#   scripts/lab/search_queue.sh [run|status|screen|screen-status]     (default: run)
#   ONLY="search-qs search-history" scripts/lab/search_queue.sh run
#
# `screen` runs the same tests, with the same bounds, at SCREEN_NODES
# (5000) nodes a move instead of the clock: about twelve times as many games
# an hour, so a patch that clearly gains or loses shows it within the hour,
# while a level one still takes long (see docs/RESULTS.md). A screen does not
# decide a patch; it orders the clock's tests. Its files carry the tag
# n<NODES> and never mix with the clock's.
#
# Run it alone on the machine (one CPU-heavy job at a time); a run cut off
# goes on where it stopped. `scripts/lab/keep_run.sh` then commits each
# test's games to docs/runs/ so another machine resumes them too.
set -euo pipefail
# The body is one group, read whole before it runs: bash reads a script as
# it goes, so an edit of this file while a run is under way (a checkout, a
# rebase) would otherwise run a mix of the old and the new text.
{
cd "$(dirname "$0")/../.."
step=${1:-run}
FIX="elo0=-5 elo1=0 alpha=0.05 beta=0.1"
TECH="elo0=0 elo1=10 alpha=0.05 beta=0.1"

# name  dev  base  bounds  clock [the dev engine's options], every patch by a
# commit that main keeps reachable (the -s ours merges cd4dcd1, f1cb4b8,
# b49c7d0, 5256830 and those after): branches live on one machine only, and
# a new machine once had none of them (the clock test's first commit,
# 3e43ef3, was lost that way and made again as 84ad831, the same
# cherry-pick with the same Bench). The history bonus passed and is main's
# 805652d. `improving` goes on as it began (84ad831 against 3776760, main's
# engine before the bonus), its games kept. Every other patch was moved onto
# 805652d on 2026-12-07 (eighth session: `git diff PARENT PATCH | git apply
# -3`, conthist's imports merged by hand, ttcut's penalty by bonus()) and is
# measured against it, so each against the current main; their earlier
# commits (on 23983d3, d6631d4 and 1818cdc) and games stay reachable and
# kept. The margins on the net's scale are one binary against itself,
# MarginScale 71 (percent) against 100. The order is the screens' of the
# moved patches (docs/RESULTS.md, eighth session): conthist passed its
# screen (+16.2 at 5000 nodes) and comes first, then quiescence pruning,
# which passed its screen in the eleventh session (+16.3); those level so
# far follow, the fixes among them after the techniques that led; those
# whose screens reached H0 (lmr-captures, lmr-count) come last.
queue() {
    echo "search-history d83910b 3776760 TECH 2+0.02"
    echo "search-conthist 6419f53 805652d TECH 2+0.02"
    echo "search-qs f606064 805652d TECH 2+0.02"
    echo "search-improving 84ad831 3776760 FIX 2+0.02"
    echo "search-ttcut 0ab86ba 805652d TECH 2+0.02"
    echo "search-margins c00e462 c00e462 TECH 2+0.02 option.MarginScale=71"
    echo "search-tt 0671b94 805652d FIX 2+0.02"
    echo "search-decided 6d66108 805652d FIX 2+0.02"
    echo "search-lmr-cutnode ffcb75f 805652d TECH 2+0.02"
    echo "search-singular 5fee422 805652d TECH 5+0.05"
    echo "search-lmr-ttcapture 29fc138 805652d TECH 2+0.02"
    echo "search-lmr-captures 2263348 805652d TECH 2+0.02"
    echo "search-lmr-count 6a982d1 805652d TECH 2+0.02"
}

SCREEN_NODES=${SCREEN_NODES:-5000}
run_tag=
case $step in screen | screen-status) run_tag=n$SCREEN_NODES ;; esac

json_of() { # dev base [opts] -> the test's JSON path (sprt.sh's naming)
    local tag=
    [ -n "${3:-}" ] && tag=-$(tr -c 'A-Za-z0-9' '_' <<<"$3")
    echo "target/sprt/runs/$1-$2$tag${run_tag:+-$run_tag}.json"
}

# shellcheck source=scripts/lab/common.sh
. scripts/lab/common.sh

decided() { case "$1" in *accepted*) return 0 ;; *) return 1 ;; esac }

while read -r name dev base kind tc opts; do
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then
        continue
    fi
    dev=$(commit_of "$dev")
    base=$(commit_of "$base")
    json=$(json_of "$dev" "$base" "$opts")
    state=$(sprt_state "$json")
    bounds=$FIX
    [ "$kind" = TECH ] && bounds=$TECH
    limit="--tc $tc"
    [ -n "$run_tag" ] && limit="--nodes $SCREEN_NODES"
    case $step in
    status | screen-status)
        # The JSON is written when a test stops: a PGN newer than it (or
        # without it) is a test under way, read from its games so far.
        kept=docs/runs/$(basename "${json%.json}").pgn.gz
        if [ ! -e "${json%.json}.pgn" ] && [ -s "$kept" ]; then
            state="paused, $(gunzip -c "$kept" | run_length pgn) games in $kept"
        elif [ "${json%.json}.pgn" -nt "$json" ]; then
            state=$(DEV_OPTS=$opts LIMIT=$limit RUN_TAG=$run_tag BOUNDS=$bounds PEEK=1 \
                scripts/lab/sprt.sh "$dev" "$base" </dev/null)
        fi
        echo "$name: $state"
        ;;
    run | screen)
        if decided "$state"; then
            echo "search_queue: $name decided ($state)" >&2
            continue
        fi
        echo "search_queue: $name ($dev against $base, $kind, ${limit#--})" >&2
        DEV_OPTS=$opts LIMIT=$limit RUN_TAG=$run_tag BOUNDS=$bounds CONCURRENCY=2 \
            scripts/lab/sprt.sh "$dev" "$base" </dev/null >/dev/null
        echo "search_queue: $name: $(sprt_state "$json")" >&2
        ;;
    *)
        echo "usage: scripts/lab/search_queue.sh [run|status|screen|screen-status]" >&2
        exit 2
        ;;
    esac
done < <(queue)
exit
}
