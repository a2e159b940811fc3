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
# Common options: --work DIR (on a file system every node sees, in a
# folder that exists: the binaries are copied to DIR/bin, shards go to
# DIR/shards, the result to DIR/merged.bin or DIR/merged.json),
# --seeds A-B[,C...] (the array's indices: from 1, in order, none twice,
# at most 100000), --binary PATH (the janggun that runs datagen and the
# merges; target/release/janggun), --only 3,7 (run only these indices of
# --seeds again; the merge still checks all of --seeds), --wait (return
# when the merge has ended, with its status), --help. Partition, account
# and time limits come from Slurm's own SBATCH_* environment variables
# (e.g. SBATCH_PARTITION). Logs: DIR/logs/. Every argument is checked
# before anything is submitted: the SPRT by --binary, which merges, and
# the shards' match by --dev, which plays it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../common.sh
source "$here/../common.sh"

kind=${1:-}
case $kind in
-h | --help)
    show_help
    exit 0
    ;;
datagen | match) shift ;;
*) die "first argument: datagen or match, not '$(printf '%.40s' "$kind")' (see --help)" ;;
esac
work='' seeds='' only='' nodes='' positions='' random_plies=8 net='' dev='' base='' games=16
openings='' sprt='' wait=''
binary=$here/../../../target/release/janggun
dev_opts=() base_opts=() limits=()
# for_kind KIND FLAG: FLAG belongs to submissions of KIND only.
for_kind() {
    [ "$kind" = "$1" ] || die "$2 is an option of 'submit.sh $1', not of 'submit.sh $kind'"
}
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        show_help
        exit 0
        ;;
    --wait)
        flag_once --wait
        wait=1
        shift
        continue
        ;;
    --work) value "$@"; work=$VAL ;;
    --seeds) value "$@"; seeds=$VAL ;;
    --only) value "$@"; only=$VAL ;;
    --binary) value "$@"; binary=$VAL ;;
    --random-plies) value "$@"; random_plies=$VAL ;;
    --nodes)
        value "$@"
        nodes=$VAL
        limits+=(--nodes "$VAL")
        ;;
    --positions) for_kind datagen "$1"; value "$@"; positions=$VAL ;;
    --net) for_kind datagen "$1"; value "$@"; net=$VAL ;;
    --depth | --tc | --movetime) for_kind match "$1"; value "$@"; limits+=("$1" "$VAL") ;;
    --dev) for_kind match "$1"; value "$@"; dev=$VAL ;;
    --base) for_kind match "$1"; value "$@"; base=$VAL ;;
    --dev-option) for_kind match "$1"; value "$@"; dev_opts+=("option.$VAL") ;;
    --base-option) for_kind match "$1"; value "$@"; base_opts+=("option.$VAL") ;;
    --games) for_kind match "$1"; value "$@"; games=$VAL ;;
    --openings) for_kind match "$1"; value "$@"; openings=$VAL ;;
    --sprt) for_kind match "$1"; value "$@"; sprt=$VAL ;;
    *) die "unknown argument '$(printf '%.40s' "$1")' (see --help)" ;;
    esac
    shift 2
done

# Every argument is checked before anything is made or submitted.
if [ -z "$work" ] || [ -z "$seeds" ]; then die "give --work and --seeds (see --help)"; fi
check_seeds --seeds "$seeds"; seeds=$SEEDS
seed_max=$SEED_MAX
if [ -n "$only" ]; then
    check_seeds --only "$only"; only=$SEEDS
    extra=$(comm -13 <(expand_seeds "$seeds" | sort) <(expand_seeds "$only" | sort) | sort -n | head -1)
    [ -z "$extra" ] || die "--only: index $extra is not one of --seeds $seeds"
fi
number --random-plies "$random_plies" 0 1000; random_plies=$RES
in_file --binary "$binary"; binary=$RES
check_janggun --binary "$binary"
work_dir --work "$work"; work=$RES
# A backslash in a log name turns Slurm's patterns off: every task would
# write one log.
[[ $work != *\\* ]] || die "--work: $work: a folder with a backslash in its path cannot hold Slurm's logs"
if [ "$kind" = datagen ]; then
    if [ -z "$nodes" ] || [ -z "$positions" ]; then die "datagen: give --nodes and --positions"; fi
    number --nodes "$nodes" 1 1000000000000; nodes=$RES
    number --positions "$positions" 1 1000000000; positions=$RES
    if [ -n "$net" ]; then
        in_file --net "$net"; net=$RES
        check_net "$binary" "$net"
    fi
else
    if [ -z "$dev" ] || [ -z "$base" ] || [ ${#limits[@]} = 0 ]; then
        die "match: give --dev, --base and a limit (--nodes, --depth, --tc or --movetime)"
    fi
    number --games "$games" 2 1000000; games=$RES
    [ $((games % 2)) = 0 ] || die "--games: $games is odd: a shard plays each opening with both colours"
    in_file --dev "$dev"; dev=$RES
    check_janggun --dev "$dev"
    in_file --base "$base"; base=$RES
    if [ -n "$openings" ]; then
        in_file --openings "$openings"; openings=$RES
    fi
    if [ -n "$sprt" ]; then
        check_sprt "$binary" "$sprt"; sprt=$SPRT
    fi
    # The match of every shard, one argument a line, but for its seed;
    # checked by the dev binary with the largest index's seed and offset.
    offset=0
    [ -n "$openings" ] && offset=$((games / 2))
    match=("$work/bin/dev" match
        --engine name=dev "cmd=$work/bin/dev" "${dev_opts[@]}"
        --engine name=base "cmd=$work/bin/base" "${base_opts[@]}"
        "${limits[@]}" --games "$games" --random-plies "$random_plies"
        --concurrency 1 --quiet)
    [ -n "$openings" ] && match+=(--openings "$work/bin/book")
    if [ "$offset" -gt 0 ]; then
        last_seed=(--seed 1 --opening-offset $(((seed_max - 1) * offset)))
    else
        last_seed=(--seed "$seed_max")
    fi
    ask_binary "the shards' match" "$dev" "${match[@]:1}" "${last_seed[@]}"
fi
command -v sbatch >/dev/null || die "sbatch not found: run this where Slurm's client commands are"

mkdir -p -- "$work/bin" "$work/shards" "$work/logs"
copy() {
    cp -- "$1" "$2.tmp" && mv -- "$2.tmp" "$2"
}
copy "$binary" "$work/bin/janggun"
chmod +x "$work/bin/janggun"
# The tasks check what they are given with the same code.
copy "$here/../common.sh" "$work/bin/common.sh"
array=${only:-$seeds}
# Values reach the jobs through the environment (--export=ALL), not in
# --export's list, which a comma in a path would cut. Log names are
# patterns to Slurm (a relative one too, once the job's folder is put
# before it): a '%' of the folder is written '%%'.
logs=${work//\%/%%}/logs
common=(--parsable --chdir "$work" --export=ALL)
if [ "$kind" = datagen ]; then
    netpath=
    if [ -n "$net" ]; then
        copy "$net" "$work/bin/net.jnn"
        netpath=$work/bin/net.jnn
    fi
    out=$work/merged.bin
    shards=$(JANGGUN=$work/bin/janggun WORK=$work NODES=$nodes POSITIONS=$positions \
        RANDOM_PLIES=$random_plies NET=$netpath \
        sbatch "${common[@]}" --array="$array" --output="$logs/datagen-%a.out" "$here/datagen.sbatch")
else
    copy "$dev" "$work/bin/dev"
    copy "$base" "$work/bin/base"
    chmod +x "$work/bin/dev" "$work/bin/base"
    [ -z "$openings" ] || copy "$openings" "$work/bin/book"
    printf '%s\n' "${match[@]}" >"$work/match.args"
    out=$work/merged.json
    shards=$(WORK=$work OFFSET_PAIRS=$offset \
        sbatch "${common[@]}" --array="$array" --output="$logs/match-%a.out" "$here/match.sbatch")
fi
shards=${shards%%;*}
[[ $shards =~ ^[0-9]+$ ]] || die "sbatch gave no job id for the shards: '$(printf '%.60s' "$shards")'"
merge_args=("${common[@]}" --dependency="afterany:$shards" --output="$logs/merge.out")
[ -n "$wait" ] && merge_args+=(--wait)
echo "shards: job $shards (array $array); merge: $out, log $work/logs/merge.out"
status=0
merge=$(KIND=$kind JANGGUN=$work/bin/janggun WORK=$work INDICES=$seeds OUT=$out \
    POSITIONS=${positions:-0} SPRT=$sprt sbatch "${merge_args[@]}" "$here/merge.sbatch") || status=$?
echo "merge: job ${merge%%;*}"
if [ -n "$wait" ]; then
    cat "$work/logs/merge.out"
    exit "$status"
fi
