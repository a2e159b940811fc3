#!/usr/bin/env bash
# gen3 shards on a lent many-core machine, in one prepared call, and their
# way into the store here. The lent machine reaches no network, so its
# build needs the crates brought along:
#
#   scripts/nets/gen3_device.sh pack            here: the crates, vendored, as
#                                          target/vendor.tar.xz (about 8 MB)
#   scripts/nets/gen3_device.sh play [SECONDS]  there, $OUT set: builds offline
#                                          (or takes BIN),
#                                          plays one one-thread shard a core
#                                          for SECONDS (default 420), parks
#                                          each with its resume point and
#                                          leaves them in $OUT/gen3-device.tar
#   scripts/nets/gen3_device.sh join TAR        here: each shard in TAR into the
#                                          store (nets/data), as a park that
#                                          scripts/nets/gen3.sh resumes, or saved
#                                          when complete
#
# The device call: command `bash scripts/nets/gen3_device.sh play 420`, carry
# `target/vendor.tar.xz`, timeout 600 (the build takes about a minute on 16
# cores, the shards 7 minutes, parking seconds). The seeds are the top of
# gen3's range (DEVICE_SEEDS, default 420 down to 405), so that this
# machine, working up from 301, reaches them last; a shard resumed here is
# the same bytes as one played here from the start, since the build is the
# same commit's.
set -euo pipefail
cd "$(dirname "$0")/../.."
STEP=${1:?usage: scripts/nets/gen3_device.sh pack|play [SECONDS]|join TAR}
VENDOR=target/vendor.tar.xz
# Records a shard: gen3's (GEN3_SHARD in scripts/nets/gen3.sh).
SHARD=${SHARD:-100000}

pack() {
    local tmp
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    cargo vendor --versioned-dirs "$tmp/vendor" >/dev/null
    mkdir -p target
    tar -cJf "$VENDOR" -C "$tmp" vendor
    echo "gen3_device: $VENDOR ($(wc -c <"$VENDOR") bytes); carry it to the lent machine" >&2
}

build() { # -> path of the binary: BIN where given, else built here
    if [ -n "${BIN:-}" ]; then
        echo "$BIN"
        return
    fi
    if [ -f "$VENDOR" ]; then
        rm -rf /tmp/gen3-vendor
        mkdir -p /tmp/gen3-vendor
        tar -xJf "$VENDOR" -C /tmp/gen3-vendor
        cargo build --release --offline --bin janggun \
            --config 'source.crates-io.replace-with="vendored"' \
            --config 'source.vendored.directory="/tmp/gen3-vendor/vendor"' >&2
    else
        cargo build --release --bin janggun >&2
    fi
    echo target/release/janggun
}

play() {
    local seconds=${1:-420} bin work seed f n=0
    : "${OUT:?play runs on the lent machine, with OUT set}"
    bin=$(build)
    work=/tmp/gen3-device
    rm -rf "$work"
    mkdir -p "$work/data" "$work/store"
    local seeds=${DEVICE_SEEDS:-$(seq -s ' ' 420 -1 405)}
    for seed in $seeds; do
        # gen3.sh's settings, word for word (scripts/nets/gen3.sh, play).
        timeout -s KILL "$seconds" "$bin" datagen --nnue nets/nn-27f44730272b.jnn --threads 1 \
            --seed "$seed" --nodes 3000 --random-plies 8 --format 3 --verify-nodes 5000 \
            --verify-limit 500 --adjudicate-cp 1000 --adjudicate-plies 4 --resume \
            --positions "$SHARD" --out "$work/data/gen3_seed$seed.bin" \
            --progress 60 2>"$work/data/gen3_seed$seed.log" &
        n=$((n + 1))
    done
    wait || true
    for seed in $seeds; do
        f=$work/data/gen3_seed$seed.bin
        [ -f "$f" ] || continue
        if [ "$("$bin" datagen count "$f" 2>/dev/null)" = "$SHARD" ]; then
            STORE=$work/store BIN=$bin scripts/nets/data_store.sh save "$f"
        else
            STORE=$work/store BIN=$bin scripts/nets/data_store.sh park "$f"
        fi
        tail -n 1 "$work/data/gen3_seed$seed.log" >&2 || true
    done
    tar -cf "$OUT/gen3-device.tar" -C "$work/store" .
    echo "gen3_device: $n shards in $OUT/gen3-device.tar ($(wc -c <"$OUT/gen3-device.tar") bytes)" >&2
}

join() {
    local tar=${1:?join TAR} tmp data=${DATA:-target/nnue-data} x name
    local bin=${BIN:-target/release/janggun}
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    tar -xf "$tar" -C "$tmp"
    mkdir -p "$data"
    for x in "$tmp"/*.xz "$tmp"/partial/*.xz; do
        [ -f "$x" ] || continue
        name=$(basename "$x" .xz)
        # The lent machine's store gives the shard (complete, or cut short
        # with its resume point) to this machine's data folder ...
        STORE=$tmp BIN=$bin scripts/nets/data_store.sh restore "$data/$name"
        # ... and this machine's store takes it as its own would.
        if [ "$("$bin" datagen count "$data/$name" 2>/dev/null)" = "$SHARD" ]; then
            BIN=$bin scripts/nets/data_store.sh save "$data/$name"
        else
            BIN=$bin scripts/nets/data_store.sh park "$data/$name"
        fi
    done
}

case $STEP in
pack) pack ;;
play) play "${2:-}" ;;
join) join "${2:-}" ;;
*)
    echo "usage: scripts/nets/gen3_device.sh pack|play [SECONDS]|join TAR" >&2
    exit 2
    ;;
esac
