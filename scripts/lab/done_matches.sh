#!/usr/bin/env bash
# The search's acceptance matches (issue 46's "Done means"; docs/RESULTS.md,
# "Done-matches"): a commit's engine against the engine of BASE, where this
# round of search work began (40a9ab0), both with the net shipped there
# (nn-27f44730272b), one thread, Hash 64, the 16 start setups with 8 random
# plies; and both against Fairy-Stockfish given four times the clock. Each
# stage resumes from its PGN when run again, here or from docs/runs/.
#
#   scripts/lab/done_matches.sh STAGE [DEV_REF]      (DEV_REF default: HEAD)
#     STAGE 10   200 games at 10+0.1 against BASE (goal: at least 54.3%, no time loss)
#     STAGE 30   100 games at 30+0.3 against BASE (goal: at least the 10+0.1 score)
#     STAGE fsf  DEV and BASE at 5+0.05 and Fairy-Stockfish at 20+0.2, 100 games
#                a pairing, one match (goal: DEV scores more against
#                Fairy-Stockfish than BASE does)
#   CONCURRENCY=1 FSF=/usr/games/fairy-stockfish BASE=40a9ab0 NET=nets/nn-27f44730272b.jnn \
#     scripts/lab/done_matches.sh 10
#
# Results go to target/sprt/done/<dev>-<base>-<stage>.{pgn,json,log}; the
# last lines printed are the mean search depth of each engine over the
# games. (The previous round's runs, against a9f67fd with nn-abc4e3e48b16,
# were named <dev>-<stage>.) Paths are given relative to the repository, so
# a kept run resumes in a clone anywhere.
set -euo pipefail
# The body is one group, read whole before it runs: bash reads a script as
# it goes, so an edit of this file while a run is under way (a checkout, a
# rebase) would otherwise run a mix of the old and the new text.
{
cd "$(dirname "$0")/../.."
stage=${1:?STAGE (10, 30 or fsf)}
dev_ref=${2:-HEAD}
concurrency=${CONCURRENCY:-2}
fsf=${FSF:-/usr/games/fairy-stockfish}
net=${NET:-nets/nn-27f44730272b.jnn}
base_ref=${BASE:-40a9ab0}
root=$PWD/target/sprt
# shellcheck source=scripts/lab/common.sh
. scripts/lab/common.sh

[ -f "$net" ] || { echo "done_matches: no net $net" >&2 && exit 2; }
dev=$(build "$dev_ref")
base=$(build "$base_ref")
base_name=$(basename "$(dirname "$base")")
common=(option.Threads=1 option.Hash=64 option.EvalFile="$net")
case $stage in
10 | 30)
    if [ "$stage" = 10 ]; then games=200 tc=10+0.1; else games=100 tc=30+0.3; fi
    engines=(--engine name=dev cmd="$dev" "${common[@]}"
        --engine name="$base_name" cmd="$base" "${common[@]}")
    limits=(--tc "$tc")
    ;;
fsf)
    # One match of three engines, 100 games a pairing: both Janggun builds
    # meet the same Fairy-Stockfish on the same openings, so their scores
    # against it compare directly.
    games=100
    engines=(--engine name=dev cmd="$dev" "${common[@]}" tc=5+0.05
        --engine name="$base_name" cmd="$base" "${common[@]}" tc=5+0.05
        --engine name=fairy-stockfish cmd="$fsf" option.Threads=1 option.Hash=64 tc=20+0.2)
    limits=()
    ;;
*)
    echo "unknown stage '$stage' (10, 30 or fsf)" >&2
    exit 2
    ;;
esac
mkdir -p "$root/done"
out=$root/done/$(basename "$(dirname "$dev")")-$base_name-$stage
restore_run "$out"
resume=()
[ -s "$out.pgn" ] && resume=(--resume)
"$dev" match "${engines[@]}" --games "$games" "${limits[@]}" --random-plies 8 \
    --concurrency "$concurrency" --timemargin 200 --pgn "$out.pgn" --json "$out.json" \
    "${resume[@]}" | tee -a "$out.log"
python3 scripts/lab/match_depth.py "$out.json" | tee -a "$out.log"
exit
}
