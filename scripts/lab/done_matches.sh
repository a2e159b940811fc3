#!/usr/bin/env bash
# The search's acceptance matches (docs/RESULTS.md, "Done-matches"): a
# commit's engine against the engine of a9f67fd, where this round of search
# work began, both with the net shipped there, one thread, Hash 64, the 16
# start setups with 8 random plies; and against Fairy-Stockfish given four
# times the clock. Each stage resumes from its PGN when run again.
#
#   scripts/lab/done_matches.sh STAGE [DEV_REF]      (DEV_REF default: HEAD)
#     STAGE 10   200 games at 10+0.1 against a9f67fd (goal: at least 57%)
#     STAGE 30   100 games at 30+0.3 against a9f67fd (goal: no worse than at 10+0.1)
#     STAGE fsf  100 games, DEV at 5+0.05 against Fairy-Stockfish at 20+0.2 (goal: 45%)
#   CONCURRENCY=1 FSF=/usr/games/fairy-stockfish scripts/lab/done_matches.sh 10
#
# Results go to target/sprt/done/<dev>-<stage>.{pgn,json,log}; the last
# lines printed are the mean search depth of each engine over the games.
set -euo pipefail
cd "$(dirname "$0")/../.."
stage=${1:?STAGE (10, 30 or fsf)}
dev_ref=${2:-HEAD}
concurrency=${CONCURRENCY:-2}
fsf=${FSF:-/usr/games/fairy-stockfish}
net=nets/nn-abc4e3e48b16.jnn
root=$PWD/target/sprt
# shellcheck source=scripts/lab/common.sh
. scripts/lab/common.sh

dev=$(build "$dev_ref")
common=(option.Threads=1 option.Hash=64)
case $stage in
10 | 30)
    base=$(build a9f67fd)
    if [ "$stage" = 10 ]; then games=200 tc=10+0.1; else games=100 tc=30+0.3; fi
    engines=(--engine name=dev cmd="$dev" "${common[@]}" option.EvalFile="$PWD/$net"
        --engine name=a9f67fd cmd="$base" "${common[@]}" option.EvalFile="$PWD/$net")
    limits=(--tc "$tc")
    ;;
fsf)
    games=100
    engines=(--engine name=dev cmd="$dev" "${common[@]}" tc=5+0.05
        --engine name=fairy-stockfish cmd="$fsf" "${common[@]}" tc=20+0.2)
    limits=()
    ;;
*)
    echo "unknown stage '$stage' (10, 30 or fsf)" >&2
    exit 2
    ;;
esac
mkdir -p "$root/done"
out=$root/done/$(basename "$(dirname "$dev")")-$stage
restore_run "$out"
resume=()
[ -s "$out.pgn" ] && resume=(--resume)
"$dev" match "${engines[@]}" --games "$games" "${limits[@]}" --random-plies 8 \
    --concurrency "$concurrency" --timemargin 200 --pgn "$out.pgn" --json "$out.json" \
    "${resume[@]}" | tee -a "$out.log"
python3 scripts/lab/match_depth.py "$out.json" | tee -a "$out.log"
