#!/bin/sh
# Finished training-data files kept in git, compressed, so that hours of
# self-play survive a new machine: a session on a 2-core machine makes a few
# hours of shards, saves them here and commits them; the next session, on
# whatever machine, restores them instead of playing the games again.
#
#   scripts/data_store.sh save FILE...      compress each FILE into the store
#   scripts/data_store.sh restore FILE...   unpack each FILE from the store
#   scripts/data_store.sh check             every stored file against MANIFEST
#
#   STORE=nets/data (default); STORE=off turns the store off.
#
# The store is flat: FILE is stored under its base name as NAME.xz (xz -9,
# about 10 bytes a 40-byte record), with one line in STORE/MANIFEST:
# "NAME BYTES SHA256" of the uncompressed file. A restored file is checked
# against that line before it replaces anything. Save never replaces a
# stored file by different content (a trial with smaller shards must not
# overwrite the real ones): it warns and keeps the stored one. Restore
# leaves a FILE that already matches alone, and says nothing where the store
# has no such file, so callers restore first and make what is still missing.
set -eu
CMD=${1:?usage: scripts/data_store.sh save|restore|check FILE...}
shift
STORE=${STORE:-nets/data}
[ "$STORE" = off ] && exit 0
MANIFEST=$STORE/MANIFEST

entry() { # name -> "bytes sha" from the manifest, or nothing
    [ -f "$MANIFEST" ] || return 0
    awk -v n="$1" '$1 == n { print $2, $3 }' "$MANIFEST"
}
# "bytes sha256" of a file, as MANIFEST has it.
stamp() { echo "$(wc -c <"$1") $(sha256sum "$1" | cut -d' ' -f1)"; }
# Unpacks NAME.xz into dest and prints its stamp; nothing if xz fails.
unpack() {
    if xz -dc "$STORE/$1.xz" >"$2" 2>/dev/null; then stamp "$2"; fi
}

save() {
    f=$1 name=$(basename "$1")
    [ -f "$f" ] || { echo "data_store: no file $f" >&2; return 1; }
    mkdir -p "$STORE"
    now=$(stamp "$f")
    old=$(entry "$name")
    if [ -n "$old" ]; then
        if [ "$old" = "$now" ] && [ -f "$STORE/$name.xz" ]; then
            return 0
        fi
        if [ -f "$STORE/$name.xz" ]; then
            echo "data_store: $STORE/$name.xz holds other content ($old); kept, $f not saved" >&2
            return 0
        fi
    fi
    xz -9 -T1 -c "$f" >"$STORE/$name.xz.tmp"
    mv "$STORE/$name.xz.tmp" "$STORE/$name.xz"
    {
        [ -f "$MANIFEST" ] && awk -v n="$name" '$1 != n' "$MANIFEST"
        echo "$name $now"
    } | sort >"$MANIFEST.tmp"
    mv "$MANIFEST.tmp" "$MANIFEST"
    echo "data_store: saved $f as $STORE/$name.xz ($(wc -c <"$STORE/$name.xz") bytes)" >&2
}

restore() {
    f=$1 name=$(basename "$1")
    want=$(entry "$name")
    if [ -z "$want" ] || [ ! -f "$STORE/$name.xz" ]; then
        return 0
    fi
    if [ -f "$f" ] && [ "$(stamp "$f")" = "$want" ]; then
        return 0
    fi
    mkdir -p "$(dirname "$f")"
    got=$(unpack "$name" "$f.restore")
    if [ -z "$got" ]; then
        rm -f "$f.restore"
        echo "data_store: $STORE/$name.xz does not unpack; $f not restored" >&2
        return 0
    fi
    if [ "$got" != "$want" ]; then
        rm -f "$f.restore"
        echo "data_store: $STORE/$name.xz unpacks to $got, MANIFEST says $want; $f not restored" >&2
        return 0
    fi
    mv "$f.restore" "$f"
    echo "data_store: restored $f from $STORE/$name.xz" >&2
}

check() {
    [ -f "$MANIFEST" ] || { echo "data_store: no $MANIFEST" >&2; return 1; }
    bad=0
    while read -r name bytes sum; do
        tmp=$(mktemp)
        got=$(unpack "$name" "$tmp")
        rm -f "$tmp"
        if [ "$got" != "$bytes $sum" ]; then
            echo "data_store: $name: ${got:-unreadable}, MANIFEST says $bytes $sum" >&2
            bad=1
        fi
    done <"$MANIFEST"
    for x in "$STORE"/*.xz; do
        [ -f "$x" ] || continue
        [ -n "$(entry "$(basename "$x" .xz)")" ] || { echo "data_store: $x not in MANIFEST" >&2; bad=1; }
    done
    [ "$bad" = 0 ] && echo "data_store: $(wc -l <"$MANIFEST") files match MANIFEST" >&2
    return "$bad"
}

case $CMD in
save) for f in "$@"; do save "$f"; done ;;
restore) for f in "$@"; do restore "$f"; done ;;
check) check ;;
*)
    echo "usage: scripts/data_store.sh save|restore|check FILE..." >&2
    exit 2
    ;;
esac
