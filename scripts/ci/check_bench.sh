#!/usr/bin/env bash
# Checks that `janggun bench` (one thread) prints the signature of the last
# commit that carries a `Bench: N` line, as Stockfish's CI does: a change of
# search that forgot to say so in its commit message fails here.
#   scripts/ci/check_bench.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/janggun}
# A shallow clone may lack the commit with the line; then say so and pass.
# First parents only: a branch kept reachable by a merge that takes none of
# it (`git merge -s ours`) carries its own Bench lines, not main's.
expected=$(git log --first-parent --format=%B 2>/dev/null | sed -n 's/^Bench: \([0-9][0-9]*\)$/\1/p' | head -n 1)
actual=$("$bin" bench 2>/dev/null | sed -n 's/^Bench: \([0-9][0-9]*\)$/\1/p')
if [ -z "$actual" ]; then
    echo "bench printed no signature" >&2
    exit 1
fi
if [ -z "$expected" ]; then
    echo "no 'Bench:' line in the git log to compare with; bench gives $actual"
    exit 0
fi
if [ "$expected" != "$actual" ]; then
    echo "Bench signature $actual differs from the last commit's Bench: $expected" >&2
    echo "(a commit that changes search must carry its new 'Bench: N' line)" >&2
    exit 1
fi
echo "Bench: $actual matches the git log"
