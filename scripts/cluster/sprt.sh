#!/usr/bin/env bash
# An SPRT over many machines: shards of a few games each (`janggun match`,
# one seed a shard, from an open stream of seeds) run by GNU parallel on
# the hosts of a standard --sshloginfile; the shards that came back are
# merged every half minute by `janggun match merge`, which decides. On a
# decision no new shard starts, the running ones finish and are merged,
# and the merged table, LLR and PGN are the result.
#
#   scripts/cluster/sprt.sh --hosts hosts.txt --dev target/release/janggun \
#       --base ../base/janggun --nodes 20000 --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05"
#
# Options: --hosts FILE (an sshloginfile: "[jobs/][user@]host[:port]" a
# line, ":" for this machine), --dev BIN and --base BIN (Janggun builds;
# dev also runs the match), --dev-option "NAME=VALUE" and --base-option
# (repeatable), one or more limits: --nodes N, --depth D, --tc BASE+INC,
# --movetime MS, --sprt "elo0=.. elo1=.. alpha=.. beta=..", --games N (a
# shard, even: 16), --random-plies N (8), --openings FILE (a book: every
# shard then takes its own run of it with --opening-offset), --max-shards
# N (10000, at most 100000), --merge-every SECONDS (30), --work DIR
# (sprt.work, in a folder that exists), --retries N (3: a shard is tried
# at most N times; 0, "forever" to GNU parallel, is refused). Every
# argument is checked before anything runs, the SPRT and the shards'
# match by the dev binary; a merge that fails stops the shards.
# Engines play with Hash 16 and one thread unless options say otherwise.
#
# Fixed nodes or depth make each game a function of its opening: the seed
# stream gives every shard other random plies (or another run of the
# book), so no two shards repeat each other, and the merge checks it.
# Run the same command again after an interruption: finished shards are
# kept (WORK/shards) and the stream goes on with the seeds not yet played.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
source "$here/common.sh"

hosts='' dev='' base='' sprt='' games=16 random_plies=8 openings='' max_shards=10000
merge_every=30 work=sprt.work retries=3
dev_opts=() base_opts=() limits=()
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        show_help
        exit 0
        ;;
    --hosts) value "$@"; hosts=$VAL ;;
    --dev) value "$@"; dev=$VAL ;;
    --base) value "$@"; base=$VAL ;;
    --dev-option) value "$@"; dev_opts+=("option.$VAL") ;;
    --base-option) value "$@"; base_opts+=("option.$VAL") ;;
    --nodes | --depth | --tc | --movetime) value "$@"; limits+=("$1" "$VAL") ;;
    --sprt) value "$@"; sprt=$VAL ;;
    --games) value "$@"; games=$VAL ;;
    --random-plies) value "$@"; random_plies=$VAL ;;
    --openings) value "$@"; openings=$VAL ;;
    --max-shards) value "$@"; max_shards=$VAL ;;
    --merge-every) value "$@"; merge_every=$VAL ;;
    --work) value "$@"; work=$VAL ;;
    --retries) value "$@"; retries=$VAL ;;
    *) die "unknown argument '$(printf '%.40s' "$1")' (see --help)" ;;
    esac
    shift 2
done
if [ -z "$hosts" ] || [ -z "$dev" ] || [ -z "$base" ] || [ -z "$sprt" ]; then
    die "give --hosts, --dev, --base and --sprt (see --help)"
fi
# Every argument is checked before anything is made or run.
[ ${#limits[@]} -gt 0 ] || die "give a limit: --nodes, --depth, --tc or --movetime"
number --games "$games" 2 1000000; games=$RES
[ $((games % 2)) = 0 ] || die "--games: $games is odd: a shard plays each opening with both colours"
number --random-plies "$random_plies" 0 1000; random_plies=$RES
number --max-shards "$max_shards" 1 "$MAX_SEEDS"; max_shards=$RES
number --merge-every "$merge_every" 1 86400; merge_every=$RES
check_retries "$retries"; retries=$RES
load_hosts "$hosts"
in_file --dev "$dev"; dev=$RES
check_janggun --dev "$dev"
in_file --base "$base"; base=$RES
if [ -n "$openings" ]; then
    in_file --openings "$openings"; openings=$RES
fi
work_dir --work "$work"; work=$RES
command -v parallel >/dev/null || die "GNU parallel is needed (Debian: apt-get install parallel)"
# The dev binary runs the match of every shard and the merges: it checks
# the SPRT (a bound it refuses would leave every merge failing, and the
# shards going on with nothing to decide) and the shard's match, with the
# last shard's seed and book offset.
check_sprt "$dev" "$sprt"; sprt=$SPRT
sprt_fields=("${SPRT_FIELDS[@]}")

# The match of every shard, but for its seed, quoted for the host's shell.
# The shards carry no SPRT of their own: a shard that stopped on its own
# few games would bias the whole; the merge tests the sum.
match=(bin/dev match
    --engine name=dev cmd=bin/dev "${dev_opts[@]}"
    --engine name=base cmd=bin/base "${base_opts[@]}"
    "${limits[@]}" --games "$games" --random-plies "$random_plies"
    --concurrency 1 --quiet)
if [ -n "$openings" ]; then
    match+=(--openings bin/book)
    last_seed=(--seed 1 --opening-offset $(((max_shards - 1) * (games / 2))))
else
    last_seed=(--seed "$max_shards")
fi
ask_binary "the shards' match" "$dev" "${match[@]:1}" "${last_seed[@]}"

printf -v quoted '%q ' "${match[@]}"
mkdir -p -- "$work/bin" "$work/shards"
# Another job's folder is refused before anything of it is replaced (the
# staged files are the same bytes as these).
check_job "$work" "sprt $sprt dev=$(sha "$dev") base=$(sha "$base") book=$(sha "$openings") $quoted"
stage "$dev" "$work/bin/dev"
stage "$base" "$work/bin/base"
basefiles=(--basefile bin/dev --basefile bin/base)
if [ -n "$openings" ]; then
    stage "$openings" "$work/bin/book"
    chmod -x "$work/bin/book"
    basefiles+=(--basefile bin/book)
fi
runner=$work/bin/dev

# A book: one seed for all, and shard k takes pairs (k-1)*P.. of it, so
# that no two shards share an opening. Otherwise: the shard's own seed.
if [ -n "$openings" ]; then
    seed_args="--seed 1 --opening-offset \$(( ({} - 1) * $((games / 2)) ))"
else
    seed_args="--seed {}"
fi
job="mkdir -p shards && rm -f shards/seed-{}.json.part shards/seed-{}.pgn.part && \
$quoted $seed_args --json shards/seed-{}.json.part --pgn shards/seed-{}.pgn.part >/dev/null && \
mv shards/seed-{}.pgn.part shards/seed-{}.pgn && mv shards/seed-{}.json.part shards/seed-{}.json \
$(failed_note)"

cd "$work"

# merge_now [ARGS]: merges every shard that came back (a shard is there
# only once whole); prints nothing, and fails, when none has.
merge_now() {
    local files=()
    shopt -s nullglob
    files=(shards/seed-*.json)
    shopt -u nullglob
    [ ${#files[@]} -gt 0 ] || return 1
    "$runner" match merge merged.json "${files[@]}" --sprt "${sprt_fields[@]}" "$@"
}

decided() {
    [ -f merged.json ] && grep -q '"state": "H[01] accepted"' merged.json
}

# The open stream: seeds 1, 2, ... less those whose shard is here.
seed_stream() {
    local s
    for s in $(seq 1 "$max_shards"); do
        [ -f "shards/seed-$s.json" ] || echo "$s"
    done
}

if merge_now --quiet >/dev/null 2>&1 && decided; then
    note "the shards already here decided it"
else
    check_hosts "$work/hosts.live"
    rdir=$(remote_dir "$work")
    status=0
    seed_stream | parallel --ssh "$SSH" --sshloginfile "$work/hosts.live" --workdir "$rdir" \
        "${basefiles[@]}" --return 'shards/seed-{}.pgn' --return 'shards/seed-{}.json' \
        --cleanup --retries "$retries" --joblog "+$work/jobs.log" "$job" &
    par=$!
    (
        # The merger: every half minute, a merge of what came back; on a
        # decision, GNU parallel is told (SIGHUP) to start no new job and
        # to wait for the running ones.
        while kill -0 "$par" 2>/dev/null; do
            for _ in $(seq "$merge_every"); do
                sleep 1
                kill -0 "$par" 2>/dev/null || exit 0
            done
            if merge_now --quiet >merge.txt 2>&1; then
                note "$(grep -c '' <(ls shards/seed-*.json)) shards: $(tail -1 merge.txt)"
                if decided; then
                    note "decided: no new shard starts; the running ones finish"
                    kill -HUP "$par" 2>/dev/null || true
                    exit 0
                fi
            elif compgen -G 'shards/seed-*.json' >/dev/null; then
                # Shards came back and do not merge: more of them will
                # not merge either, so none can decide. Stop here.
                note "the merge fails: $(tail -1 merge.txt); no new shard starts"
                kill -HUP "$par" 2>/dev/null || true
                exit 0
            fi
        done
    ) &
    merger=$!
    wait "$par" || status=$?
    kill "$merger" 2>/dev/null || true
    wait "$merger" 2>/dev/null || true
    [ "$status" = 0 ] || note "GNU parallel: $status shards failed on every try"
fi

# The result: every shard that came back, with their games in one PGN.
if ! merge_now --pgn merged.pgn >merge.txt 2>merge.err; then
    if ! merge_now >merge.txt 2>>merge.err; then
        compgen -G 'shards/seed-*.json' >/dev/null || die "no shard to merge"
        cat merge.err >&2
        die "the shards in $work/shards do not merge (above): no result"
    fi
    note "merged without PGN: $(cat merge.err)"
fi
cat merge.txt
note "result: $work/merged.json, $work/merged.pgn; job log $work/jobs.log"
