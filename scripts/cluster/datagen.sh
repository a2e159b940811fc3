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
# Options: --hosts FILE (an sshloginfile: "[jobs/]host" a line, ":" for
# this machine), --seeds A-B[,C...], --nodes N, --positions N (a shard),
# --random-plies N (8), --net FILE (games played by that net; default the
# classical evaluation, as datagen does), --binary PATH
# (target/release/janggun), --out FILE, --work DIR (FILE's name +
# ".work"), --retries N (3: a failed shard runs again on another host).
#
# A dead host: left out when it takes no ssh login at the start; a host
# that dies later fails its shards, which run again elsewhere. Run the same
# command again after an interruption: finished shards are kept (WORK/shards)
# and only the others are run. See README, "Many machines".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=common.sh
source "$here/common.sh"

hosts='' seeds='' nodes=5000 positions='' random_plies=8 net='' out='' work='' retries=3
binary=$here/../../target/release/janggun
while [ $# -gt 0 ]; do
    case $1 in
    --hosts) hosts=$2 ;;
    --seeds) seeds=$2 ;;
    --nodes) nodes=$2 ;;
    --positions) positions=$2 ;;
    --random-plies) random_plies=$2 ;;
    --net) net=$2 ;;
    --binary) binary=$2 ;;
    --out) out=$2 ;;
    --work) work=$2 ;;
    --retries) retries=$2 ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
    [ $# -ge 2 ] || die "$1 needs a value"
    shift 2
done
if [ -z "$hosts" ] || [ -z "$seeds" ] || [ -z "$positions" ] || [ -z "$out" ]; then
    die "give --hosts, --seeds, --positions and --out (see --help)"
fi
for n in "$nodes" "$positions" "$random_plies" "$retries"; do
    [[ $n =~ ^[0-9]+$ ]] || die "'$n' is not a number"
done
command -v parallel >/dev/null || die "GNU parallel is needed (Debian: apt-get install parallel)"
[ -f "$hosts" ] || die "$hosts: no such file"
hosts=$(cd "$(dirname "$hosts")" && pwd)/$(basename "$hosts")
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
work=${work:-$out.work}
mkdir -p "$work/bin" "$work/shards"
work=$(cd "$work" && pwd)

stage "$binary" "$work/bin/janggun"
net_arg=
if [ -n "$net" ]; then
    stage "$net" "$work/bin/net.jnn"
    net_arg="--nnue bin/net.jnn"
fi
check_job "$work" "datagen janggun=$(sha "$work/bin/janggun") net=$(sha "${net:+$work/bin/net.jnn}") nodes=$nodes positions=$positions random_plies=$random_plies"

expand_seeds "$seeds" | sort -n -u >"$work/seeds"
# A whole shard has its header and exactly `positions` records.
: >"$work/todo"
while read -r s; do
    f=$work/shards/seed-$s.bin
    if [ "$(data_records "$f")" = "$positions" ]; then
        continue
    fi
    echo "$s" >>"$work/todo"
done <"$work/seeds"
total=$(wc -l <"$work/seeds")
todo=$(wc -l <"$work/todo")
note "$((total - todo)) of $total shards already made; $todo to make"

cd "$work"
if [ "$todo" -gt 0 ]; then
    check_hosts "$hosts" "$work/hosts.live"
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
    if [ "$(data_records "$f")" = "$positions" ]; then
        files+=("$f")
    else
        missing+=("$s")
    fi
done <"$work/seeds"
if [ ${#missing[@]} -gt 0 ]; then
    die "no whole shard for seeds ${missing[*]}: run the same command again to make them (the others are kept); nothing merged"
fi
rm -f "$out.part"
bin/janggun datagen merge "$out.part" "${files[@]}" 2>/dev/null
mv "$out.part" "$out"
records=$(data_records "$out")
expected=$((total * positions))
[ "$records" = "$expected" ] || die "$out holds $records records, not $expected"
note "merged ${#files[@]} shards (seeds $(tr '\n' ' ' <"$work/seeds")) into $out: $records records"
