# shellcheck shell=bash
# A library, sourced, never run: no `set` of its own; it runs under its
# callers' `set -euo pipefail`.
# Sourced by the lab scripts: builds the engine of any commit once and
# caches it, so that matches compare commits rather than working trees.

root=${root:-$PWD/target/sprt}

# A ref is tried as given, then under origin/ (a branch named on the
# command line exists in a clone only as origin/<branch>). The queues name
# commits that main keeps reachable, which every clone has.
commit_of() { # ref -> its commit, 12 digits
    git rev-parse -q --verify --short=12 "$1^{commit}" ||
        git rev-parse -q --verify --short=12 "origin/$1^{commit}" ||
        { echo "no commit $1 (nor origin/$1)" >&2 && return 1; }
}

# The path is relative to the repository (the callers' directory): a
# match's PGN records each engine's command, and a resume under another
# command is refused, so an absolute path would tie a kept run to the
# directory it began in.
build() { # ref -> path of its binary (target/sprt/<commit>/janggun)
    local c dir
    c=$(commit_of "$1")
    dir=$root/$c
    if [ ! -x "$dir/janggun" ]; then
        rm -rf "$root/src-$c"
        git worktree add -q --detach "$root/src-$c" "$c"
        (cd "$root/src-$c" && CARGO_TARGET_DIR=$root/build cargo build --release -q)
        mkdir -p "$dir"
        cp "$root/build/release/janggun" "$dir/janggun"
        git worktree remove --force "$root/src-$c"
    fi
    echo "${dir#"$PWD"/}/janggun"
}

# A run's PGN or log outlives the machine only in git:
# scripts/lab/keep_run.sh copies it, gzipped, to docs/runs/, and this puts
# it back where the run resumes from when the machine has none.
#
# A machine may also hold an older state of the same run than git does (the
# run went on in another clone and was kept from there): the kept file wins
# when it holds more games, and the stale local one (with its JSON, which
# `sprt_state` would read) is moved aside rather than resumed, since
# resuming it and keeping it again would overwrite the longer run in git.
restore_kept() { # target/sprt/.../<name>.<pgn|log>
    local file=$1 kept
    kept=docs/runs/$(basename "$file").gz
    [ -s "$kept" ] || return 0
    if [ -s "$file" ]; then
        kept_is_longer "$file" "$kept" || return 0
        mv "$file" "$file.stale"
        [ -f "${file%.*}.json" ] && mv "${file%.*}.json" "${file%.*}.json.stale"
        echo "$file is older than $kept: the local one is now $file.stale" >&2
    fi
    mkdir -p "$(dirname "$file")"
    gunzip -c "$kept" >"$file"
    echo "resuming from $kept" >&2
}

# Whether the kept copy of a run (gzipped) went further than the file.
kept_is_longer() { # file kept
    [ "$(gunzip -c "$2" | run_length "${1##*.}")" -gt "$(run_length "${1##*.}" <"$1")" ]
}

# How far a run on stdin got: a PGN's games or an SPSA log's iterations
# (the file's extension says which).
run_length() { # pgn|log <file
    case $1 in
    pgn) grep -c '^\[Result' || true ;;
    *) grep -c '^iter=' || true ;;
    esac
}

restore_run() { # target/sprt/.../<name> (no extension): its PGN
    restore_kept "$1.pgn"
}

# An SPRT's state from the match's JSON, one line: "H1 accepted, 4488
# games, 2322-0-2166, +12.1 +/- 9.3 Elo, LLR 2.91, pentanomial [...]"
# (continue, H0 accepted or H1 accepted first), or the second argument
# where the match has not begun.
sprt_state() { # json [what to say with none]
    if [ ! -s "$1" ]; then
        echo "${2:-not started}"
        return
    fi
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d.get("sprt") or {}
e = d["engines"][0]
print("%s, %d games, %d-%d-%d, %+.1f +/- %.1f Elo, LLR %.2f, pentanomial %s" % (
    s.get("state", "?"), d.get("games_played", 0), e["wins"], e["draws"], e["losses"],
    e["elo"], e["elo_error95"], s.get("llr", 0.0), e["pentanomial"]))
' "$1"
}
