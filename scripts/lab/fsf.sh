# shellcheck shell=bash
# A library, sourced, never run: no `set` of its own; it runs under its
# callers' `set -euo pipefail`.
# Sourced by the scripts that compare Janggun with Fairy-Stockfish. Its
# bench reads the variant only as its first argument (`bench janggi HASH
# THREADS DEPTH FILE depth`); anywhere else the word is ignored and the
# positions are searched as chess. So every figure taken from it is checked
# against what it announced, and a run that did not say `variant janggi`
# fails instead of giving a number.

fsf=${FSF:-/usr/games/fairy-stockfish}

# fsf_bench HASH DEPTH FENFILE -> Fairy-Stockfish's bench output (stderr
# and stdout together), after checking that it searched Janggi.
fsf_bench() {
    local out
    out=$("$fsf" bench janggi "$1" 1 "$2" "$3" depth 2>&1) || {
        echo "error: $fsf bench failed" >&2
        return 1
    }
    fsf_is_janggi "$out" || return 1
    printf '%s\n' "$out"
}

# fsf_is_janggi TEXT: true when TEXT holds Fairy-Stockfish's announcement
# of the Janggi variant (and no other variant).
fsf_is_janggi() {
    local said
    said=$(grep -o 'info string variant [a-z0-9]*' <<<"$1" | sort -u)
    if [ "$said" != "info string variant janggi" ]; then
        echo "error: Fairy-Stockfish did not announce 'variant janggi' (it said: ${said:-nothing}); its figures would not be Janggi's" >&2
        return 1
    fi
}

# The bench positions, one FEN a line, into FILE.
bench_fens() {
    grep -v '^#' src/tools/bench_positions.txt | grep . >"$1"
}

field() { # the number after "$1" in the text on stdin
    grep -m1 "$1" | sed 's/.*: *//; s/[^0-9].*//'
}
