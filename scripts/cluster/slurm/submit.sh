#!/usr/bin/env bash
# Submits a data generation or a match (SPRT) to Slurm: a job array of
# shards (the seed is the array index) and a merge job that runs after all
# of them, however they ended (afterany), checks that every index has its
# shard and merges them, or names the missing ones.
#
#   scripts/cluster/slurm/submit.sh datagen --work /shared/dg --seeds 1-64 \
#       --nodes 5000 --positions 100000 [--net nets/x.jnn] [--random-plies 8]
#   scripts/cluster/slurm/submit.sh match --work /shared/sprt --seeds 1-200 \
#       --dev target/release/janggun --base ../base/janggun --nodes 20000 \
#       [--dev-option "NAME=VALUE"] [--base-option ...] [--games 16] \
#       [--random-plies 8] [--openings FILE] [--sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05"]
#
# Common options: --work DIR (on a file system every node sees: the
# binaries are copied to DIR/bin, shards go to DIR/shards, the result to
# DIR/merged.bin or DIR/merged.json), --binary PATH (the janggun that runs
# datagen and the merges; target/release/janggun), --only 3,7 (run only
# these indices again; the merge still checks all of --seeds), --wait
# (return when the merge has ended, with its status). Partition, account
# and time limits come from Slurm's own SBATCH_* environment variables
# (e.g. SBATCH_PARTITION). Logs: DIR/logs/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

kind=${1:-}
[ "$kind" = datagen ] || [ "$kind" = match ] || die "first argument: datagen or match (see the head of $0)"
shift
work='' seeds='' only='' nodes='' positions='' random_plies=8 net='' dev='' base='' games=16 openings='' sprt='' wait=''
binary=$here/../../../target/release/janggun
dev_opts=() base_opts=() limits=()
while [ $# -gt 0 ]; do
    case $1 in
    --wait)
        wait=1
        shift
        continue
        ;;
    esac
    [ $# -ge 2 ] || die "$1 needs a value"
    case $1 in
    --work) work=$2 ;;
    --seeds) seeds=$2 ;;
    --only) only=$2 ;;
    --nodes)
        nodes=$2
        limits+=(--nodes "$2")
        ;;
    --depth | --tc | --movetime) limits+=("$1" "$2") ;;
    --positions) positions=$2 ;;
    --random-plies) random_plies=$2 ;;
    --net) net=$2 ;;
    --binary) binary=$2 ;;
    --dev) dev=$2 ;;
    --base) base=$2 ;;
    --dev-option) dev_opts+=("option.$2") ;;
    --base-option) base_opts+=("option.$2") ;;
    --games) games=$2 ;;
    --openings) openings=$2 ;;
    --sprt) sprt=$2 ;;
    *) die "unknown argument '$1'" ;;
    esac
    shift 2
done
if [ -z "$work" ] || [ -z "$seeds" ]; then die "give --work and --seeds"; fi
[[ $seeds =~ ^[0-9,-]+$ ]] || die "--seeds: indices such as 1-64 or 1-8,12"
[ -z "$only" ] || [[ $only =~ ^[0-9,-]+$ ]] || die "--only: indices such as 3,7"
command -v sbatch >/dev/null || die "sbatch not found: run this where Slurm's client commands are"
mkdir -p "$work/bin" "$work/shards" "$work/logs"
work=$(cd "$work" && pwd)
copy() {
    [ -f "$1" ] || die "$1: no such file"
    cp "$1" "$2.tmp" && mv "$2.tmp" "$2"
}
copy "$binary" "$work/bin/janggun"
chmod +x "$work/bin/janggun"
array=${only:-$seeds}
common=(--parsable --chdir "$work")
if [ "$kind" = datagen ]; then
    if [ -z "$nodes" ] || [ -z "$positions" ]; then die "datagen: give --nodes and --positions"; fi
    netpath=
    if [ -n "$net" ]; then
        copy "$net" "$work/bin/net.jnn"
        netpath=$work/bin/net.jnn
    fi
    out=$work/merged.bin
    shards=$(sbatch "${common[@]}" --array="$array" --output="$work/logs/datagen-%a.out" \
        --export="ALL,JANGGUN=$work/bin/janggun,WORK=$work,NODES=$nodes,POSITIONS=$positions,RANDOM_PLIES=$random_plies,NET=$netpath" \
        "$here/datagen.sbatch")
else
    if [ -z "$dev" ] || [ -z "$base" ] || [ ${#limits[@]} = 0 ]; then
        die "match: give --dev, --base and a limit"
    fi
    copy "$dev" "$work/bin/dev"
    copy "$base" "$work/bin/base"
    chmod +x "$work/bin/dev" "$work/bin/base"
    offset=0
    {
        printf '%s\n' "$work/bin/dev" match \
            --engine name=dev "cmd=$work/bin/dev" "${dev_opts[@]}" \
            --engine name=base "cmd=$work/bin/base" "${base_opts[@]}" \
            "${limits[@]}" --games "$games" --random-plies "$random_plies" \
            --concurrency 1 --quiet
        if [ -n "$openings" ]; then
            copy "$openings" "$work/bin/book"
            printf '%s\n' --openings "$work/bin/book"
        fi
    } >"$work/match.args"
    [ -n "$openings" ] && offset=$((games / 2))
    out=$work/merged.json
    shards=$(sbatch "${common[@]}" --array="$array" --output="$work/logs/match-%a.out" \
        --export="ALL,WORK=$work,OFFSET_PAIRS=$offset" "$here/match.sbatch")
fi
shards=${shards%%;*}
merge_args=("${common[@]}" --dependency="afterany:$shards" --output="$work/logs/merge.out"
    "--export=ALL,KIND=$kind,JANGGUN=$work/bin/janggun,WORK=$work,INDICES=$seeds,OUT=$out,POSITIONS=${positions:-0},SPRT=$sprt")
[ -n "$wait" ] && merge_args+=(--wait)
echo "shards: job $shards (array $array); merge: $out, log $work/logs/merge.out"
status=0
merge=$(sbatch "${merge_args[@]}" "$here/merge.sbatch") || status=$?
echo "merge: job ${merge%%;*}"
if [ -n "$wait" ]; then
    cat "$work/logs/merge.out"
    exit "$status"
fi
