#!/usr/bin/env bash
# The lent machine's shards at toy scale, here: `gen3_device.sh play` for a
# few seconds (two shards cut short, parked, in one tar), `join` into a
# store, `gen3.sh data` resuming them from the store to the end, and the
# result the same bytes as shards played here in one go by the settings of
# nets/nn-239453d7ff50.recipe.
#
#   scripts/ci/gen3_device_check.sh [BIN]   (default target/release/janggun)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-target/release/janggun}")
t=$(mktemp -d)
trap 'rm -rf "$t" /tmp/gen3-device' EXIT
seeds="951 952" shard=${CHECK_SHARD:-6000}
mkdir -p "$t/out"
OUT=$t/out BIN=$bin SHARD=$shard DEVICE_SEEDS=$seeds scripts/nets/gen3_device.sh play "${CHECK_SECONDS:-15}" 2>"$t/play.log" || { cat "$t/play.log" >&2; exit 1; }
STORE=$t/store DATA=$t/data BIN=$bin SHARD=$shard scripts/nets/gen3_device.sh join "$t/out/gen3-device.tar" 2>"$t/join.log" || { cat "$t/join.log" >&2; exit 1; }
parked=$(find "$t/store/partial" -name '*.resume' 2>/dev/null | wc -l)
if [ "$parked" -eq 0 ]; then
    echo "gen3_device_check: no shard came back cut short (the tar: $(tar -tf "$t/out/gen3-device.tar" | tr '\n' ' '))" >&2
    cat "$t/play.log" >&2
    exit 1
fi
rm -rf "$t/data"
STORE=$t/store DATA=$t/data BIN=$bin GEN3_SHARDS=$seeds GEN3_SHARD=$shard JOBS=2 scripts/nets/gen3.sh data 2>"$t/gen3.log" || { cat "$t/gen3.log" >&2; exit 1; }
# The one-go shards are played with the candidate recipe's gen3 settings
# (a gen3 shard's datagen arguments but its seed and record count), so the
# recipe, gen3.sh and the lent machine's script are held to the same ones.
args=()
skip=0
while IFS= read -r a; do
    if [ "$skip" = 1 ]; then
        skip=0
    elif [ "$a" = --positions ] || [ "$a" = --seed ]; then
        skip=1
    else
        args+=("$a")
    fi
done < <("$bin" datagen recipe nets/nn-239453d7ff50.recipe gen3_seed301.bin)
[ "${#args[@]}" -gt 10 ] || { echo "gen3_device_check: no gen3 settings in nets/nn-239453d7ff50.recipe" >&2; exit 1; }
for seed in $seeds; do
    "$bin" datagen "${args[@]}" --seed "$seed" --positions "$shard" --out "$t/fresh$seed.bin" 2>/dev/null &
done
wait
for seed in $seeds; do
    if ! cmp -s "$t/fresh$seed.bin" "$t/data/gen3_seed$seed.bin"; then
        echo "gen3_device_check: seed $seed resumed from the lent machine's park differs from one run" >&2
        cat "$t/gen3.log" >&2
        exit 1
    fi
done
echo "gen3_device_check: $parked shards parked there, resumed here from the store, the same bytes as one run"
