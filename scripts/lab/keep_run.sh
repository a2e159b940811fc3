#!/usr/bin/env bash
# Keeps the games of lab matches in git, so that a match cut off by the end
# of a session resumes on another machine: each PGN given (or, with none,
# every PGN under target/sprt/runs and target/sprt/done) is gzipped to
# docs/runs/<name>.pgn.gz, where sprt.sh and done_matches.sh look for it
# when the machine has no PGN of their run. Commit docs/runs afterwards.
#
#   scripts/lab/keep_run.sh [target/sprt/runs/NAME.pgn ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p docs/runs
if [ $# -eq 0 ]; then
    shopt -s nullglob
    set -- target/sprt/runs/*.pgn target/sprt/done/*.pgn
fi
for pgn in "$@"; do
    [ -s "$pgn" ] || continue
    kept=docs/runs/$(basename "$pgn" .pgn).pgn.gz
    gzip -9 -n -c "$pgn" >"$kept.tmp"
    mv "$kept.tmp" "$kept"
    echo "$kept: $(grep -c '^\[Result' "$pgn") games"
done
