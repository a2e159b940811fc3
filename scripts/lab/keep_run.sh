#!/usr/bin/env bash
# Keeps the games of lab matches and the logs of SPSA runs in git, so that a
# run cut off by the end of a session resumes on another machine: each PGN
# or log given (or, with none, every PGN under target/sprt/runs and
# target/sprt/done and every log under target/sprt/spsa) is gzipped to
# docs/runs/<name>.gz, where sprt.sh, done_matches.sh and spsa.sh look for
# it when the machine has none of their run. Commit docs/runs afterwards.
#
#   scripts/lab/keep_run.sh [target/sprt/runs/NAME.pgn ... target/sprt/spsa/NAME.log ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p docs/runs
if [ $# -eq 0 ]; then
    shopt -s nullglob
    set -- target/sprt/runs/*.pgn target/sprt/done/*.pgn target/sprt/spsa/*.log
fi
# shellcheck source=scripts/lab/common.sh
. scripts/lab/common.sh
for file in "$@"; do
    [ -s "$file" ] || continue
    kept=docs/runs/$(basename "$file").gz
    # A run that went further in another clone is never cut back by an
    # older copy of it (`restore_kept` resumes the longer one).
    if [ -s "$kept" ] && kept_is_longer "$file" "$kept"; then
        echo "$kept went further than $file: not kept (resume from $kept)" >&2
        continue
    fi
    gzip -9 -n -c "$file" >"$kept.tmp"
    mv "$kept.tmp" "$kept"
    unit=iterations
    [ "${file##*.}" = pgn ] && unit=games
    echo "$kept: $(run_length "${file##*.}" <"$file") $unit"
done
