#!/usr/bin/env bash
# The second-generation pipeline (scripts/nets/gen2.sh) end to end at toy
# scale, on the recipes of nets/ with fewer and smaller shards:
# gen0 and gen1 shards (format 1), gen2 shards in the chained format (3),
# the gate's held-out file, the twelve sweep nets, the three final nets and
# the report; then the same command again, which must find everything made
# and train nothing; the data formats (datagen's chained shards, convert
# both ways byte for byte, the trainer reading them); the data store
# (chained, each file checked to expand to its fixed records); and a shard
# cut short, resumed to the same bytes, on this machine and, parked in the
# store, on the next.
set -euo pipefail
bin=$(realpath "${1:-target/release/janggun}")
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
# The sha256 of the fixed-record file a data file of any format expands
# to: what "the same data" means whatever the format it is kept in.
fixed_sha() {
    rm -f "$tmp/fixed.sha.bin"
    "$bin" datagen convert "$1" "$tmp/fixed.sha.bin" --to fixed 2>/dev/null
    sha256sum <"$tmp/fixed.sha.bin"
    rm -f "$tmp/fixed.sha.bin"
}
# Every recipe of nets/ reads, names the net beside it and only shards the
# data store holds.
for r in nets/nn-*.recipe; do
    [ -f "${r%.recipe}.jnn" ] || { echo "net_pipeline: $r is beside no net" >&2; exit 1; }
    listed=$("$bin" datagen recipe "$r")
    while read -r _ name _; do
        grep -q "^$name " nets/data/MANIFEST || { echo "net_pipeline: $r: $name is not in the store" >&2; exit 1; }
    done <<<"$listed"
done
[ "$("$bin" datagen recipe nets/nn-27f44730272b.recipe | wc -l)" -eq 68 ]
# The toy recipes: nn-abc4e3e48b16's (gen0 and gen1) and the embedded net's
# (gen1 and gen2, the gen2 shards at 300 nodes), their shards cut to a few
# hundred records; every other setting is the real recipe's.
toy=$tmp/recipes
mkdir -p "$toy"
sed -e 's/^shards = 1:436033 .*/shards = 1:300 2:200/' -e 's/^shards = 11:221919 .*/shards = 11:300/' \
    nets/nn-abc4e3e48b16.recipe >"$toy/old.recipe"
sed -e 's/^shards = 11:221919 .*/shards = 11:300/' -e 's/^shards = 101-144:100000 .*/shards = 101-102:200/' \
    -e '/^\[data.gen2\]/,/^\[/ s/^nodes = 3000$/nodes = 300/' \
    nets/nn-27f44730272b.recipe >"$toy/new.recipe"
[ "$("$bin" datagen recipe "$toy/new.recipe" | wc -l)" -eq 3 ]
"$bin" datagen recipe "$toy/new.recipe" gen2_seed101.bin | grep -qx 300
export BIN=$bin DATA=$tmp/data GATE=$tmp/gate STORE=$tmp/store HELDOUT_POSITIONS=300 \
    OLD_RECIPE=$toy/old.recipe RECIPE=$toy/new.recipe
scripts/nets/gen2.sh all >"$tmp/first.txt" 2>"$tmp/first.err" || { tail -n 20 "$tmp/first.err"; exit 1; }
# The report: the shipped net, 12 sweep nets and 3 final nets, by gate loss.
report=$(scripts/nets/gen2.sh report 2>/dev/null)
echo "$report"
[ "$(wc -l <<<"$report")" -eq 16 ] || { echo "net_pipeline: expected 16 nets in the report" >&2; exit 1; }
sort -C -g -k4 <<<"$report" || { echo "net_pipeline: report not sorted by loss" >&2; exit 1; }
while read -r name _ _ _ _ _ _ _ _ _ _ _ net; do
    [ -f "$net" ] || { echo "net_pipeline: $name: no net at $net" >&2; exit 1; }
    "$bin" net info "$net" >/dev/null
done <<<"$report"
for f in "$DATA"/gen2_seed101.bin "$DATA"/gen2_seed102.bin; do
    [ "$("$bin" datagen count "$f")" = 200 ] || { echo "net_pipeline: $f incomplete" >&2; exit 1; }
    # datagen writes the chained format.
    "$bin" datagen stats "$f" | head -n 1 | grep -q "format version 3, chained version-2 records, 200 records" ||
        { echo "net_pipeline: $f is not chained" >&2; exit 1; }
done
# Convert, both ways: the chained shard's fixed records, chained again by
# convert and back, are the same bytes; the version-1 shards too.
f=$DATA/gen2_seed101.bin
"$bin" datagen convert "$f" "$tmp/g2.fixed" 2>/dev/null
"$bin" datagen convert "$tmp/g2.fixed" "$tmp/g2.chained" 2>/dev/null
"$bin" datagen convert "$tmp/g2.chained" "$tmp/g2.back" 2>/dev/null
cmp "$tmp/g2.fixed" "$tmp/g2.back" || { echo "net_pipeline: convert lost bytes" >&2; exit 1; }
"$bin" datagen stats "$tmp/g2.fixed" | head -n 1 | grep -q "format version 2, 200 records"
"$bin" datagen convert "$DATA/gen1_seed11.bin" "$tmp/g1.chained" 2>/dev/null
"$bin" datagen convert "$tmp/g1.chained" "$tmp/g1.back" 2>/dev/null
cmp "$DATA/gen1_seed11.bin" "$tmp/g1.back" || { echo "net_pipeline: convert lost version-1 bytes" >&2; exit 1; }
# The gate metric reads both formats alike.
[ "$("$bin" net loss nets/nn-27f44730272b.jnn "$f")" = "$("$bin" net loss nets/nn-27f44730272b.jnn "$tmp/g2.fixed")" ] ||
    { echo "net_pipeline: net loss differs between the formats" >&2; exit 1; }
"$bin" net info "$(cat "$DATA/nets/screlu-b8.net")" | grep -qx "buckets 8"
# train_net.sh on the shipped net's recipe, at toy scale: its gen1 and gen2
# shards are found made, it trains on both, and the net's path is the last
# line.
net=$(EPOCHS=1 scripts/nets/train_net.sh "$bin" 2>"$tmp/train_net.err" | tail -n 1)
[ -f "$net" ] || { echo "net_pipeline: train_net.sh printed no net" >&2; tail -n 5 "$tmp/train_net.err" >&2; exit 1; }
"$bin" net info "$net" | grep -qx "activation crelu"
for f in gen1_seed11 gen2_seed101 gen2_seed102; do
    grep -q "/$f.bin (format version" "$tmp/train_net.err" ||
        { echo "net_pipeline: train_net.sh did not train on $f" >&2; exit 1; }
done
grep -q "/gen2_seed101.bin (format version 3, chained version-2 records)" "$tmp/train_net.err" ||
    { echo "net_pipeline: the trainer did not read the chained shard" >&2; exit 1; }
if grep -q "gen0_seed" "$tmp/train_net.err"; then
    echo "net_pipeline: train_net.sh trained on gen0" >&2
    exit 1
fi
if grep -q "datagen" "$tmp/train_net.err"; then
    echo "net_pipeline: train_net.sh played shards that were made" >&2
    exit 1
fi
# A second run resumes: every shard and net is found, nothing is trained.
scripts/nets/gen2.sh all >/dev/null 2>"$tmp/second.err"
if grep -q "training" "$tmp/second.err"; then
    echo "net_pipeline: the second run trained again" >&2
    exit 1
fi
# The data store: every shard and the held-out file saved, chained and
# compressed, each line with the stamp of the fixed records it expands to
# (check expands every file); a new machine (the data deleted) gets the same
# records back and plays nothing.
scripts/nets/data_store.sh check
stored=$(wc -l <"$STORE/MANIFEST")
[ "$stored" -eq 6 ] || { echo "net_pipeline: $stored files in the store, expected 6" >&2; exit 1; }
awk 'NF != 5 { exit 1 }' "$STORE/MANIFEST" || { echo "net_pipeline: a MANIFEST line without its fixed stamp" >&2; exit 1; }
grep -q "gen1_seed11.bin .* $(sha256sum <"$DATA/gen1_seed11.bin" | cut -d' ' -f1)\$" "$STORE/MANIFEST" ||
    { echo "net_pipeline: gen1_seed11's fixed stamp is not its file's" >&2; exit 1; }
data_files() { ls "$DATA"/gen*_seed*.bin "$GATE"/heldout-seed7001.bin; }
records_of() { for f in $(data_files); do echo "$f $(fixed_sha "$f")"; done; }
before=$(records_of)
data_files | xargs rm -f
rm -f "$GATE"/heldout-seed7001.bin.done "$DATA"/gen*_seed*.log
scripts/nets/gen2.sh all >/dev/null 2>"$tmp/third.err"
restored=$(grep -c "data_store: restored" "$tmp/third.err" || true)
[ "$restored" -eq 6 ] || { echo "net_pipeline: $restored files restored, expected 6" >&2; exit 1; }
if ls "$DATA"/gen*_seed*.log >/dev/null 2>&1 || grep -q "training" "$tmp/third.err"; then
    echo "net_pipeline: a restored run played or trained again" >&2
    exit 1
fi
[ "$(records_of)" = "$before" ] || { echo "net_pipeline: restored files differ" >&2; exit 1; }
# A restored file is the stored one, chained.
"$bin" datagen stats "$DATA/gen1_seed11.bin" | head -n 1 | grep -q "format version 3, chained version-1 records"
# A store from before the chained format (fixed files, three fields a
# line) is upgraded in place, every file checked to expand to its bytes.
old=$tmp/old-store
mkdir -p "$old"
for f in gen1_seed11 gen2_seed101; do
    "$bin" datagen convert "$DATA/$f.bin" "$tmp/$f.fixed" --to fixed 2>/dev/null
    xz -9 -c "$tmp/$f.fixed" >"$old/$f.bin.xz"
    echo "$f.bin $(wc -c <"$tmp/$f.fixed") $(sha256sum <"$tmp/$f.fixed" | cut -d' ' -f1)"
done >"$old/MANIFEST"
STORE=$old scripts/nets/data_store.sh check 2>/dev/null
STORE=$old scripts/nets/data_store.sh upgrade 2>/dev/null
awk 'NF != 5 { exit 1 }' "$old/MANIFEST"
STORE=$old scripts/nets/data_store.sh check 2>/dev/null
cmp "$old/MANIFEST" <(grep -E '^(gen1_seed11|gen2_seed101)\.bin ' "$STORE/MANIFEST") ||
    { echo "net_pipeline: an upgraded store differs from one saved chained" >&2; exit 1; }
# A damaged store is caught by check and never restored over good data.
printf 'x' >>"$STORE/gen2_seed101.bin.xz"
if scripts/nets/data_store.sh check 2>/dev/null; then
    echo "net_pipeline: check passed a damaged store" >&2
    exit 1
fi
rm -f "$DATA"/gen2_seed101.bin
scripts/nets/data_store.sh restore "$DATA"/gen2_seed101.bin 2>/dev/null
[ ! -e "$DATA"/gen2_seed101.bin ] || { echo "net_pipeline: a damaged file was restored" >&2; exit 1; }
# A shard cut short goes on from its resume point: made to a smaller cap,
# which stops inside a game and leaves that game's first records after the
# point (as a kill while a game is written does), and made again: the bytes
# of one whole run. Bytes that no run wrote after the point are refused
# (tests/datagen_resume.rs).
f=$DATA/gen2_seed102.bin
want=$(fixed_sha "$f")
rm -f "$f" "$f.resume"
cut_recipe() { # records: the toy recipe with shard 102 alone, of that many records
    sed "s/^shards = 101-102:200\$/shards = 102:$1/" "$toy/new.recipe" >"$toy/cut$1.recipe"
    echo "$toy/cut$1.recipe"
}
STORE=off RECIPE=$(cut_recipe 90) scripts/nets/gen2.sh gen2 2>/dev/null
[ -f "$f.resume" ] || { echo "net_pipeline: no resume point beside $f" >&2; exit 1; }
STORE=off RECIPE=$(cut_recipe 200) scripts/nets/gen2.sh gen2 2>/dev/null
grep -q "datagen: resuming .* cut off" "$DATA/gen2_seed102.log" ||
    { echo "net_pipeline: the shard was not resumed" >&2; exit 1; }
[ "$(fixed_sha "$f")" = "$want" ] || { echo "net_pipeline: a resumed shard differs" >&2; exit 1; }
# A shard cut short survives a new machine: parked in a store, the data
# deleted, the next run restores it from the park with its resume point,
# goes on from there to the bytes of one whole run, and drops the park once
# the shard is saved complete.
park=$tmp/park
rm -f "$f" "$f.resume" "$DATA/gen2_seed102.log"
# (Past the first game: a point before it holds nothing worth parking. The
# first game's length follows the search, and a toy shard of 200 records
# may be one game: this test takes a shard of 600, made whole first, and
# cuts it one record short.)
STORE=off RECIPE=$(cut_recipe 600) scripts/nets/gen2.sh gen2 2>/dev/null
want=$(fixed_sha "$f")
rm -f "$f" "$f.resume" "$DATA/gen2_seed102.log"
STORE=off RECIPE=$(cut_recipe 599) scripts/nets/gen2.sh gen2 2>/dev/null
grep -q '^records [1-9]' "$f.resume" ||
    { echo "net_pipeline: the first game of shard 102 fills 599 records; the park test needs a shorter one" >&2; exit 1; }
STORE=$park scripts/nets/data_store.sh park "$f" 2>/dev/null
[ -f "$park/partial/gen2_seed102.bin.xz" ] || { echo "net_pipeline: the shard was not parked" >&2; exit 1; }
STORE=$park scripts/nets/data_store.sh check 2>/dev/null
rm -f "$f" "$f.resume" "$DATA/gen2_seed102.log"
STORE=$park RECIPE=$(cut_recipe 600) scripts/nets/gen2.sh gen2 2>"$tmp/park.err"
grep -q "data_store: restored .* cut short at record" "$tmp/park.err" ||
    { echo "net_pipeline: the parked shard was not restored" >&2; exit 1; }
grep -q "datagen: resuming" "$DATA/gen2_seed102.log" ||
    { echo "net_pipeline: the parked shard was not resumed" >&2; exit 1; }
[ "$(fixed_sha "$f")" = "$want" ] || { echo "net_pipeline: a shard resumed from the park differs" >&2; exit 1; }
[ ! -e "$park/partial/gen2_seed102.bin.xz" ] || { echo "net_pipeline: the park outlived the shard" >&2; exit 1; }
STORE=$park scripts/nets/data_store.sh check 2>/dev/null
echo "net_pipeline: ok"
