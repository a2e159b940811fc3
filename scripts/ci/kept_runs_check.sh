#!/usr/bin/env bash
# Checks that a lab run kept in git is never cut back by an older copy of it
# on a machine (scripts/lab/common.sh's restore_kept, scripts/lab/keep_run.sh):
# a run that went on in another clone and was kept from there must be the
# one resumed, and keeping the stale copy must not overwrite it.
#   scripts/ci/kept_runs_check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts/lab" "$tmp/docs/runs" "$tmp/target/sprt/runs"
cp scripts/lab/common.sh scripts/lab/keep_run.sh "$tmp/scripts/lab/"

games() { # n -> a PGN of n games (only the lines the scripts count)
    local i
    for ((i = 1; i <= $1; i++)); do
        printf '[Event "check"]\n[Result "1-0"]\n\n1-0\n\n'
    done
}
fail() {
    echo "kept_runs_check: $*" >&2
    exit 1
}
count() { grep -c '^\[Result' || true; }

run=$tmp/target/sprt/runs/a-b
games 5 | gzip -9 -n >"$tmp/docs/runs/a-b.pgn.gz"
games 3 >"$run.pgn"
echo '{}' >"$run.json"

# Keeping the 3-game copy leaves the 5 games in git.
(cd "$tmp" && bash scripts/lab/keep_run.sh target/sprt/runs/a-b.pgn) 2>"$tmp/err"
[ "$(gunzip -c "$tmp/docs/runs/a-b.pgn.gz" | count)" = 5 ] || fail "keep_run.sh cut the kept run back"
grep -q 'not kept' "$tmp/err" || fail "keep_run.sh did not say why it kept nothing"

# Resuming takes the kept 5 games and moves the stale copy and its JSON aside.
(cd "$tmp" && bash -c 'set -euo pipefail; . scripts/lab/common.sh; restore_run target/sprt/runs/a-b') 2>/dev/null
[ "$(count <"$run.pgn")" = 5 ] || fail "restore_kept resumed the stale copy"
[ "$(count <"$run.pgn.stale")" = 3 ] || fail "the stale copy was not kept aside"
if [ -e "$run.json" ] || [ ! -e "$run.json.stale" ]; then
    fail "the stale JSON was left in place"
fi

# A longer local run is resumed as it is, and kept over the shorter one.
games 2 >>"$run.pgn"
(cd "$tmp" && bash -c 'set -euo pipefail; . scripts/lab/common.sh; restore_run target/sprt/runs/a-b') 2>/dev/null
[ "$(count <"$run.pgn")" = 7 ] || fail "restore_kept replaced a longer local run"
(cd "$tmp" && bash scripts/lab/keep_run.sh target/sprt/runs/a-b.pgn) >/dev/null
[ "$(gunzip -c "$tmp/docs/runs/a-b.pgn.gz" | count)" = 7 ] || fail "keep_run.sh did not keep the longer run"

# With nothing on the machine, the kept run is restored.
rm "$run.pgn"
(cd "$tmp" && bash -c 'set -euo pipefail; . scripts/lab/common.sh; restore_run target/sprt/runs/a-b') 2>/dev/null
[ "$(count <"$run.pgn")" = 7 ] || fail "restore_kept did not restore a missing run"
echo "kept runs: a stale copy neither resumes nor overwrites the run kept in git"
