# shellcheck shell=bash
# A library, sourced, never run: no `set` of its own; it runs under its
# callers' `set -euo pipefail`.
# Sourced by the lab scripts: builds the engine of any commit once and
# caches it, so that matches compare commits rather than working trees.

root=${root:-$PWD/target/sprt}

build() { # commit -> path of its binary (target/sprt/<commit>/janggun)
    local c dir
    c=$(git rev-parse --short=12 "$1^{commit}")
    dir=$root/$c
    if [ ! -x "$dir/janggun" ]; then
        rm -rf "$root/src-$c"
        git worktree add -q --detach "$root/src-$c" "$c"
        (cd "$root/src-$c" && CARGO_TARGET_DIR=$root/build cargo build --release -q)
        mkdir -p "$dir"
        cp "$root/build/release/janggun" "$dir/janggun"
        git worktree remove --force "$root/src-$c"
    fi
    echo "$dir/janggun"
}

# A run's PGN or log outlives the machine only in git:
# scripts/lab/keep_run.sh copies it, gzipped, to docs/runs/, and this puts
# it back where the run resumes from when the machine has none.
restore_kept() { # target/sprt/.../<name>.<pgn|log>
    local file=$1 kept
    kept=docs/runs/$(basename "$file").gz
    if [ ! -s "$file" ] && [ -s "$kept" ]; then
        mkdir -p "$(dirname "$file")"
        gunzip -c "$kept" >"$file"
        echo "resuming from $kept" >&2
    fi
}

restore_run() { # target/sprt/.../<name> (no extension): its PGN
    restore_kept "$1.pgn"
}
