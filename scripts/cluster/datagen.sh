#!/usr/bin/env bash
# NNUE training data over many machines: one `janggun datagen` shard a
# seed, run by GNU parallel on the hosts of a standard --sshloginfile. The
# binary (and net) go to each host once; each shard comes back whole and
# the shards are merged in seed order. A shard is the same bytes wherever
# it is made (one thread, fixed nodes), so a shard made here for the same
# seed is a check of any host.
#
#   scripts/cluster/datagen.sh --hosts hosts.txt --seeds 1-64 \
#       --nodes 5000 --positions 100000 [--net nets/x.jnn] --out data.bin
#
# Options: --hosts FILE (an sshloginfile: "[jobs/][user@]host[:port]" a
# line, ":" for this machine), --seeds A-B[,C...] (seeds from 1, at most
# 100000 of them), --nodes N, --positions N (a shard), --random-plies N
# (8), --net FILE (games played by that net; default the classical
# evaluation, as datagen does), --binary PATH (target/release/janggun),
# --out FILE (in a folder that exists), --work DIR (FILE's name +
# ".work"), --retries N (3: a shard is tried at most N times, a failed
# try run again on another host; GNU parallel's meaning, so 1 is no
# second try, and 0, which GNU parallel takes as "forever", is refused).
# Every argument is checked before anything runs.
#
# A dead host: left out when it takes no ssh login at the start; a host
# that dies later fails its shards, which run again elsewhere. Run the same
# command again after an interruption: finished shards are kept (WORK/shards)
# and only the others are run. See docs/CLUSTER.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
source "$here/common.sh"

hosts='' seeds='' nodes=5000 positions='' random_plies=8 net='' out='' work='' retries=3
binary=$here/../../target/release/janggun
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        show_help
        exit 0
        ;;
    --hosts) value "$@"; hosts=$VAL ;;
    --seeds) value "$@"; seeds=$VAL ;;
    --nodes) value "$@"; nodes=$VAL ;;
    --positions) value "$@"; positions=$VAL ;;
    --random-plies) value "$@"; random_plies=$VAL ;;
    --net) value "$@"; net=$VAL ;;
    --binary) value "$@"; binary=$VAL ;;
    --out) value "$@"; out=$VAL ;;
    --work) value "$@"; work=$VAL ;;
    --retries) value "$@"; retries=$VAL ;;
    *) die "unknown argument '$(printf '%.40s' "$1")' (see --help)" ;;
    esac
    shift 2
done
if [ -z "$hosts" ] || [ -z "$seeds" ] || [ -z "$positions" ] || [ -z "$out" ]; then
    die "give --hosts, --seeds, --positions and --out (see --help)"
fi
# Every argument is checked before anything is made or run.
number --nodes "$nodes" 1 1000000000000; nodes=$RES
number --positions "$positions" 1 1000000000; positions=$RES
number --random-plies "$random_plies" 0 1000; random_plies=$RES
check_retries "$retries"; retries=$RES
check_seeds --seeds "$seeds"; seeds=$SEEDS
load_hosts "$hosts"
in_file --binary "$binary"; binary=$RES
check_janggun --binary "$binary"
if [ -n "$net" ]; then
    in_file --net "$net"; net=$RES
    check_net "$binary" "$net"
fi
out_file --out "$out"; out=$RES
[ ! -e "$out" ] || is_data "$out" || die "--out: $out exists and is not a Janggun data file: not replaced"
work_dir --work "${work:-$out.work}"; work=$RES
[ "$work" != "$out" ] || die "--work and --out are one path: $out"
command -v parallel >/dev/null || die "GNU parallel is needed (Debian: apt-get install parallel)"

mkdir -p -- "$work/bin" "$work/shards"
# Another job's folder is refused before anything of it is replaced (the
# staged files are the same bytes as these).
check_job "$work" "datagen janggun=$(sha "$binary") net=$(sha "$net") nodes=$nodes positions=$positions random_plies=$random_plies"
stage "$binary" "$work/bin/janggun"
net_arg=
if [ -n "$net" ]; then
    stage "$net" "$work/bin/net.jnn"
    net_arg="--nnue bin/net.jnn"
fi

expand_seeds "$seeds" | sort -n -u >"$work/seeds"
# A whole shard has its header and exactly `positions` records.
: >"$work/todo"
while read -r s; do
    f=$work/shards/seed-$s.bin
    if [ "$(data_records "$work/bin/janggun" "$f")" = "$positions" ]; then
        continue
    fi
    echo "$s" >>"$work/todo"
done <"$work/seeds"
total=$(wc -l <"$work/seeds")
todo=$(wc -l <"$work/todo")
note "$((total - todo)) of $total shards already made; $todo to make"

cd "$work"
if [ "$todo" -gt 0 ]; then
    check_hosts "$work/hosts.live"
    rdir=$(remote_dir "$work")
    basefiles=(--basefile bin/janggun)
    [ -n "$net" ] && basefiles+=(--basefile bin/net.jnn)
    # The shard is written aside and renamed only when whole: an attempt
    # cut short leaves no file under the name that comes back.
    job="mkdir -p shards && rm -f shards/seed-{}.bin.part && \
bin/janggun datagen --threads 1 --seed {} --nodes $nodes --positions $positions \
--random-plies $random_plies $net_arg --progress 100000 --out shards/seed-{}.bin.part && \
mv shards/seed-{}.bin.part shards/seed-{}.bin $(failed_note)"
    status=0
    parallel --ssh "$SSH" --sshloginfile "$work/hosts.live" --workdir "$rdir" \
        "${basefiles[@]}" --return 'shards/seed-{}.bin' --cleanup \
        --retries "$retries" --joblog "+$work/jobs.log" --tag --line-buffer \
        "$job" :::: "$work/todo" || status=$?
    [ "$status" = 0 ] || note "GNU parallel: $status shards failed on every try"
fi

missing=()
files=()
while read -r s; do
    f=shards/seed-$s.bin
    if [ "$(data_records bin/janggun "$f")" = "$positions" ]; then
        files+=("$f")
    else
        missing+=("$s")
    fi
done <"$work/seeds"
if [ ${#missing[@]} -gt 0 ]; then
    die "no whole shard for seeds ${missing[*]}: run the same command again to make them (the others are kept); nothing merged"
fi
rm -f -- "$out.part"
if ! bin/janggun datagen merge "$out.part" "${files[@]}" 2>merge.err; then
    rm -f -- "$out.part"
    die "the merge failed, $out left as it was: $(tail -1 merge.err)"
fi
# The merged file replaces --out only when it holds every record.
records=$(data_records bin/janggun "$out.part")
expected=$((total * positions))
if [ "$records" != "$expected" ]; then
    rm -f -- "$out.part"
    die "the merge holds $records records, not $expected: $out left as it was"
fi
mv -- "$out.part" "$out"
# A resume point beside --out spoke of the file just replaced: a later
# `datagen --resume --out` must not take it for this one's.
if [ -e "$out.resume" ]; then
    rm -f -- "$out.resume"
    note "$out.resume (the resume point of the file replaced) removed"
fi
note "merged ${#files[@]} shards (seeds $(tr '\n' ' ' <"$work/seeds")) into $out: $records records"
