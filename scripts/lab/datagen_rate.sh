#!/usr/bin/env bash
# Datagen's rate at gen3's settings (the embedded net, 3000 nodes a move,
# one thread), several builds in turn, ROUNDS times: prints each run's
# positions a second and checks that every build wrote the same bytes (a
# speed change must not change a label). Run it on a quiet machine; while
# self-play holds the cores, FREEZE=1 stops every running `datagen`
# (SIGSTOP) for the measurement and lets it go on after (SIGCONT): their
# searches count nodes, not time, so nothing they write changes.
#
#   scripts/lab/datagen_rate.sh BIN [BIN...]      (env: GAMES=40 ROUNDS=2 SEED=901 FREEZE=0)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: scripts/lab/datagen_rate.sh BIN [BIN...]" >&2; exit 2; }
games=${GAMES:-40}
rounds=${ROUNDS:-2}
seed=${SEED:-901}
out=$(mktemp -d)
frozen=0
thaw() {
    if [ "$frozen" = 1 ]; then pkill -CONT -f ' datagen ' || true; fi
    rm -rf "$out"
}
trap thaw EXIT
if [ "${FREEZE:-0}" = 1 ]; then
    pkill -STOP -f ' datagen ' || true
    frozen=1
    sleep 1
fi
for ((r = 1; r <= rounds; r++)); do
    i=0
    for bin in "$@"; do
        i=$((i + 1))
        rate=$("$bin" datagen --nnue nets/nn-27f44730272b.jnn --threads 1 --seed "$seed" \
            --nodes 3000 --random-plies 8 --format 3 --verify-nodes 5000 --verify-limit 500 \
            --adjudicate-cp 1000 --adjudicate-plies 4 --games "$games" --out "$out/$i.bin" 2>&1 |
            grep -o '[0-9.]* positions/s' | tail -1)
        echo "round $r  $bin  $rate"
    done
done
first=$(md5sum <"$out/1.bin")
for ((j = 2; j <= $#; j++)); do
    if [ "$(md5sum <"$out/$j.bin")" != "$first" ]; then
        echo "datagen_rate: build $j wrote other bytes than build 1" >&2
        exit 1
    fi
done
echo "every build wrote the same $(stat -c %s "$out/1.bin") bytes"
