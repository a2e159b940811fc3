#!/usr/bin/env bash
# The many-machine tools on one machine, with the real programs: GNU
# parallel over real ssh (sshd on 127.0.0.1, two local users as two hosts,
# a third host that is dead), a single-node Slurm (munged, slurmctld,
# slurmd), and the match report in headless Chromium. Checks:
#   - datagen.sh: the dead host is left out; a shard made on a host is
#     byte-equal to the same seed made here; the merged count is right; a
#     restart with more seeds makes only the new shards;
#   - sprt.sh: a 4-shard match over both hosts, one shard's runner killed
#     once on one host and run again on the other; the merged pentanomial
#     is the sum of the shards', the merged PGN holds every game;
#   - match report: a page that loads in Chromium with no console error
#     (a copy with a script error must be caught), six plots, and a
#     screenshot at a phone's width (target/cluster-ci/report.png);
#   - Slurm: a datagen array whose shards are byte-equal to the ssh ones;
#     a match array with a task that fails: the merge still runs, names
#     the missing index and merges nothing; run again for that index only,
#     it merges.
# Usage: scripts/ci/cluster_check.sh [target/release/janggun]. Installs
# what it needs with apt-get; every daemon it starts is stopped by its pid.
# Only 127.0.0.1 is ever contacted.
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true
cd "$(dirname "$0")/../.."
root=$(pwd)
bin=$(cd "$(dirname "${1:-target/release/janggun}")" && pwd)/$(basename "${1:-target/release/janggun}")
[ -x "$bin" ] || { echo "cluster_check: $bin: build it first (cargo build --release)" >&2; exit 1; }
start=$SECONDS
step() { printf '\n--- [%3ds] %s\n' $((SECONDS - start)) "$*"; }
fail() { echo "cluster_check: FAILED: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

need=()
command -v parallel >/dev/null || need+=(parallel)
command -v rsync >/dev/null || need+=(rsync)
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v ssh >/dev/null || need+=(openssh-client)
command -v slurmctld >/dev/null || need+=(slurmctld)
command -v slurmd >/dev/null || need+=(slurmd)
command -v sbatch >/dev/null || need+=(slurm-client)
command -v munged >/dev/null || need+=(munge)
command -v chromium >/dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
    step "installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

t=$(mktemp -d /tmp/janggun-cluster.XXXXXX)
out=$root/target/cluster-ci
mkdir -p "$out"
# shellcheck source=../cluster/common.sh
source scripts/cluster/common.sh
# shellcheck source=loopback_hosts.sh
source scripts/ci/loopback_hosts.sh
# shellcheck source=slurm_local.sh
source scripts/ci/slurm_local.sh
cleanup() {
    slurm_down
    loopback_down
    rm -rf "$t"
}
trap cleanup EXIT

step "sshd on 127.0.0.1 with two users as hosts jg-a, jg-b, and a dead host jg-dead"
loopback_up "$t/ssh"
ok "hosts file: $(tr '\n' ' ' <"$t/ssh/hosts")"

step "datagen over parallel + ssh: seeds 1-4, 300 nodes, 300 positions a shard"
mkdir -p "$t/dg"
scripts/cluster/datagen.sh --hosts "$t/ssh/hosts" --seeds 1-4 --nodes 300 --positions 300 \
    --binary "$bin" --out "$t/dg/data.bin" 2>&1 | grep -v 'positions/s' | tee "$t/dg.log"
grep -q 'host jg-dead: no ssh login, left out' "$t/dg.log" || fail "the dead host was not left out"
ok "the dead host was left out"
shards=$t/dg/data.bin.work/shards
for h in jg-a jg-b; do
    cut -f2 "$t/dg/data.bin.work/jobs.log" | grep -qx "$h" || fail "no shard ran on $h"
done
host_of() { awk -F'\t' -v s="--seed $2 " '$7 == 0 && index($9, s) { print $2 }' "$1" | head -1; }
ok "shards ran on both hosts: $(for s in 1 2 3 4; do printf 'seed %s on %s; ' "$s" "$(host_of "$t/dg/data.bin.work/jobs.log" "$s")"; done)"
"$bin" datagen --threads 1 --seed 3 --nodes 300 --positions 300 --random-plies 8 \
    --out "$t/local-3.bin" 2>/dev/null
cmp "$t/local-3.bin" "$shards/seed-3.bin" || fail "seed 3 made on a host differs from seed 3 made here"
ok "seed 3 made on $(host_of "$t/dg/data.bin.work/jobs.log" 3): byte-equal to seed 3 made here ($(stat -c %s "$t/local-3.bin") bytes)"
records=$(data_records "$bin" "$t/dg/data.bin")
[ "$records" = 1200 ] || fail "merged $records records, not 1200"
ok "merged: 1200 records = 4 shards x 300"
before=$(cd "$shards" && sha256sum seed-[1-4].bin)
scripts/cluster/datagen.sh --hosts "$t/ssh/hosts" --seeds 1-6 --nodes 300 --positions 300 \
    --binary "$bin" --out "$t/dg/data.bin" 2>&1 | grep -v 'positions/s' | tee "$t/dg2.log"
grep -q '4 of 6 shards already made; 2 to make' "$t/dg2.log" || fail "the restart did not keep the 4 shards"
[ "$before" = "$(cd "$shards" && sha256sum seed-[1-4].bin)" ] || fail "the restart remade a finished shard"
records=$(data_records "$bin" "$t/dg/data.bin")
[ "$records" = 1800 ] || fail "merged $records records after the restart, not 1800"
ok "restart with seeds 1-6: shards 1-4 kept as they were, 5-6 made, 1800 records"

step "sprt.sh over parallel + ssh: 4 shards of 4 games at 300 nodes, one shard killed once"
(
    # The first shard that starts on jg-b loses its runner once: GNU
    # parallel must run that shard again on the other host.
    for _ in $(seq 400); do
        pid=$(pgrep -u jgun-b -f '^bin/dev match' | head -1 || true)
        if [ -n "$pid" ]; then
            seed=$(tr '\0' ' ' <"/proc/$pid/cmdline" | grep -o -- '--seed [0-9]*' | cut -d' ' -f2)
            kill -KILL "$pid" && echo "$seed" >"$t/killed"
            exit 0
        fi
        sleep 0.05
    done
) &
killer=$!
scripts/cluster/sprt.sh --hosts "$t/ssh/hosts" --dev "$bin" --base "$bin" \
    --base-option "Use NNUE=false" --nodes 300 --games 4 --max-shards 4 --merge-every 2 \
    --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05" --work "$t/sprt" 2>&1 | tee "$t/sprt.log"
wait "$killer" || true
[ -s "$t/killed" ] || fail "no shard started on jg-b to be killed"
seed=$(cat "$t/killed")
# GNU parallel's job log keeps a shard's last try (and its output only
# that try's): the shard killed on jg-b must have ended on jg-a.
last=$(awk -F'\t' -v s="--seed $seed " 'index($9, s) { print $2 " " $7 }' "$t/sprt/jobs.log")
[ "$last" = "jg-a 0" ] || fail "shard $seed: last try '$last', not a success on jg-a"
ok "shard $seed: runner killed on jg-b, run again on jg-a, which finished it"
python3 - "$t/sprt" <<'EOF'
import glob, json, sys
d = sys.argv[1]
shards = [json.load(open(f)) for f in sorted(glob.glob(d + "/shards/seed-*.json"))]
merged = json.load(open(d + "/merged.json"))
assert len(shards) == 4, len(shards)
parts = [s["engines"][0]["pentanomial"] for s in shards]
total = [sum(p[i] for p in parts) for i in range(5)]
assert merged["engines"][0]["pentanomial"] == total, (merged["engines"][0]["pentanomial"], total)
assert merged["games_played"] == sum(s["games_played"] for s in shards) == 16
print("ok: merged pentanomial %s = sum of %s; %d games; LLR %.3f (%s)" % (
    total, " + ".join(map(str, parts)), merged["games_played"],
    merged["sprt"]["llr"], merged["sprt"]["state"]))
EOF
games=$(grep -c '^\[Event ' "$t/sprt/merged.pgn")
[ "$games" = 16 ] || fail "merged.pgn holds $games games, not 16"
ok "merged.pgn: 16 games"

step "match report in headless Chromium"
"$bin" match report "$t/sprt/merged.json" --out "$out/report.html"
if grep -Eq '(src|href)="(https?:)?//' "$out/report.html"; then
    fail "the report fetches something"
fi
browse() { # browse HTML: prints the DOM; the console goes to $t/console.log
    timeout 60 chromium --headless --disable-gpu --no-sandbox --enable-logging=stderr --v=0 \
        --user-data-dir="$t/chromium" --dump-dom "file://$1" 2>"$t/console.log"
}
sed 's#</body>#<script>undefinedFunction();</script></body>#' "$out/report.html" >"$t/broken.html"
browse "$t/broken.html" >/dev/null
grep -q 'CONSOLE' "$t/console.log" || fail "a script error in the page was not seen: the check is blind"
ok "control: a page with a script error is caught ($(grep -o '"Uncaught[^"]*"' "$t/console.log" | head -1))"
browse "$out/report.html" >"$t/dom.html"
if grep 'CONSOLE' "$t/console.log"; then
    fail "console messages while loading the report"
fi
plots=$(grep -o '<svg' "$t/dom.html" | wc -l)
[ "$plots" -ge 6 ] || fail "the loaded page holds $plots plots, not 6"
timeout 60 chromium --headless --disable-gpu --no-sandbox --user-data-dir="$t/chromium" \
    --hide-scrollbars --window-size=412,2400 --screenshot="$out/report.png" \
    "file://$out/report.html" 2>/dev/null
[ -s "$out/report.png" ] || fail "no screenshot"
ok "report.html loads with no console message, $plots plots; screenshot $out/report.png"

step "single-node Slurm: munged, slurmctld, slurmd"
slurm_up "$t/slurm"
ok "node $(sinfo -h -o '%N %t')"

step "Slurm datagen array (seeds 1-3, seed 2 left cut short by an earlier task) and its merge"
# What a task killed at its time limit leaves: part of the shard, its
# resume point, records of a game the point does not count (the cap cut
# that game short) and a block cut short (the start of the file's first
# block again: a chained file ends in part of a block when its writer is
# killed as it writes one).
mkdir -p "$t/sdg/shards"
part=$t/sdg/shards/seed-2.bin.part
"$bin" datagen --threads 1 --seed 2 --nodes 300 --positions 120 --random-plies 8 \
    --progress 100000 --resume --out "$part" 2>/dev/null
head -c 60 "$part" | tail -c 28 >"$t/cut"
cat "$t/cut" >>"$part"
scripts/cluster/slurm/submit.sh datagen --work "$t/sdg" --seeds 1-3 --nodes 300 \
    --positions 300 --binary "$bin" --wait
for s in 1 2 3; do
    cmp "$t/sdg/shards/seed-$s.bin" "$shards/seed-$s.bin" || fail "Slurm's seed $s differs from the ssh host's"
done
grep -rq "datagen: resuming .*seed-2.bin.part" "$t/sdg/logs" || fail "seed 2 was made again, not resumed"
[ ! -e "$t/sdg/shards/seed-2.bin.part.resume" ] || fail "a finished shard's resume point was left"
records=$(data_records "$bin" "$t/sdg/merged.bin")
[ "$records" = 900 ] || fail "Slurm merged $records records, not 900"
ok "Slurm shards 1-3 byte-equal to the ssh hosts' (seed 2 resumed); merged 900 records"

step "Slurm match array (seeds 1-3) with a failing task, then that index again"
mkdir -p "$t/sm/shards/seed-2.json.part" # task 2 cannot write its report: it fails
status=0
scripts/cluster/slurm/submit.sh match --work "$t/sm" --seeds 1-3 --dev "$bin" --base "$bin" \
    --base-option "Use NNUE=false" --nodes 300 --games 4 --binary "$bin" \
    --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05" --wait || status=$?
[ "$status" != 0 ] || fail "the merge passed with a task failed"
grep -q 'missing indices: 2' "$t/sm/logs/merge.out" || fail "the merge did not name index 2"
[ ! -e "$t/sm/merged.json" ] || fail "the merge wrote a result with a shard missing"
ok "task 2 failed; the merge ran anyway, named index 2 and merged nothing"
rmdir "$t/sm/shards/seed-2.json.part"
scripts/cluster/slurm/submit.sh match --work "$t/sm" --seeds 1-3 --only 2 --dev "$bin" \
    --base "$bin" --base-option "Use NNUE=false" --nodes 300 --games 4 --binary "$bin" \
    --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05" --wait
python3 - "$t/sm" <<'EOF'
import glob, json, sys
d = sys.argv[1]
shards = [json.load(open(f)) for f in sorted(glob.glob(d + "/shards/seed-*.json"))]
merged = json.load(open(d + "/merged.json"))
parts = [s["engines"][0]["pentanomial"] for s in shards]
total = [sum(p[i] for p in parts) for i in range(5)]
assert len(shards) == 3 and merged["engines"][0]["pentanomial"] == total
print("ok: index 2 run again alone; merged 3 shards, pentanomial %s" % total)
EOF

step "done in $((SECONDS - start)) s"
if [ $((SECONDS - start)) -gt 120 ]; then
    echo "note: over two minutes ($((SECONDS - start)) s)"
fi
