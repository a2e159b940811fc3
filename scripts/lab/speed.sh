#!/usr/bin/env bash
# Search speed on the bench positions, one thread: Janggun with its net,
# Janggun with the classical evaluation, and Fairy-Stockfish searching
# Janggi (checked: scripts/lab/fsf.sh), in turn, ROUNDS times; prints the
# median nodes a second of each and the ratios. Run it on a quiet machine.
#
#   scripts/lab/speed.sh [JANGGUN] [DEPTH] [ROUNDS]   (default: target/release/janggun 11 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/lab/fsf.sh
. scripts/lab/fsf.sh
bin=${1:-target/release/janggun}
depth=${2:-11}
rounds=${3:-5}
hash=${HASH:-16}
fens=$(mktemp)
trap 'rm -f "$fens"' EXIT
bench_fens "$fens"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

net=() classical=() peer=()
for ((r = 1; r <= rounds; r++)); do
    net+=("$("$bin" bench "$depth" 1 "$hash" 2>&1 | field 'Nodes/second')")
    classical+=("$("$bin" bench "$depth" 1 "$hash" --classical 2>&1 | field 'Nodes/second')")
    if [ -x "$fsf" ]; then
        peer+=("$(fsf_bench "$hash" "$depth" "$fens" | field 'Nodes/second')")
    fi
done
n=$(printf '%s\n' "${net[@]}" | median)
c=$(printf '%s\n' "${classical[@]}" | median)
printf 'depth %d, one thread, Hash %d MB, medians of %d rounds\n' "$depth" "$hash" "$rounds"
printf 'janggun (net)        %10d nodes/s\n' "$n"
printf 'janggun --classical  %10d nodes/s   net/classical %.2f\n' "$c" "$(awk -v a="$n" -v b="$c" 'BEGIN { print a / b }')"
if [ ${#peer[@]} -gt 0 ]; then
    f=$(printf '%s\n' "${peer[@]}" | median)
    printf 'fairy-stockfish      %10d nodes/s   net/fsf %.2f   (variant janggi announced)\n' "$f" "$(awk -v a="$n" -v b="$f" 'BEGIN { print a / b }')"
fi
