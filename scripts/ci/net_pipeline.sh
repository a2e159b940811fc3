#!/usr/bin/env bash
# The second-generation pipeline (scripts/gen2.sh) end to end at toy scale:
# gen0 and gen1 shards, gen2 shards in format 2, the gate's held-out file,
# the twelve sweep nets, the two final nets and the report; then the same
# command again, which must find everything made and train nothing.
set -euo pipefail
bin=$(realpath "${1:-target/release/janggun}")
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BIN=$bin DATA=$tmp/data GATE=$tmp/gate HELDOUT_POSITIONS=300 \
    GEN0="1:300 2:200" GEN1="11:300" GEN2_SHARDS="101 102" GEN2_SHARD=200 GEN2_NODES=300
scripts/gen2.sh all >"$tmp/first.txt" 2>"$tmp/first.err" || { tail -n 20 "$tmp/first.err"; exit 1; }
# The report: the shipped net, 12 sweep nets and 2 final nets, by gate loss.
report=$(scripts/gen2.sh report 2>/dev/null)
echo "$report"
[ "$(wc -l <<<"$report")" -eq 15 ] || { echo "net_pipeline: expected 15 nets in the report" >&2; exit 1; }
sort -C -g -k4 <<<"$report" || { echo "net_pipeline: report not sorted by loss" >&2; exit 1; }
while read -r name _ _ _ _ _ _ _ _ _ _ _ net; do
    [ -f "$net" ] || { echo "net_pipeline: $name: no net at $net" >&2; exit 1; }
    "$bin" net info "$net" >/dev/null
done <<<"$report"
for f in "$DATA"/gen2_seed101.bin "$DATA"/gen2_seed102.bin; do
    [ "$(wc -c <"$f")" -eq $((32 + 40 * 200)) ] || { echo "net_pipeline: $f incomplete" >&2; exit 1; }
done
"$bin" net info "$(cat "$DATA/nets/screlu-b8.net")" | grep -qx "buckets 8"
# A second run resumes: every shard and net is found, nothing is trained.
scripts/gen2.sh all >/dev/null 2>"$tmp/second.err"
if grep -q "training" "$tmp/second.err"; then
    echo "net_pipeline: the second run trained again" >&2
    exit 1
fi
echo "net_pipeline: ok"
