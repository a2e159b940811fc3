#!/usr/bin/env bash
# Finished training-data files kept in git, compressed, so that hours of
# self-play survive a new machine: a session on a 2-core machine makes a few
# hours of shards, saves them here and commits them; the next session, on
# whatever machine, restores them instead of playing the games again.
#
#   scripts/nets/data_store.sh save FILE...      compress each FILE into the store
#   scripts/nets/data_store.sh restore FILE...   unpack each FILE from the store
#   scripts/nets/data_store.sh check             every stored file against MANIFEST
#   scripts/nets/data_store.sh park FILE...      keep a shard cut short, with its
#                                           resume point, for the next machine
#   scripts/nets/data_store.sh upgrade           re-store fixed-record files chained
#
#   STORE=nets/data (default); STORE=off turns the store off.
#   BIN=target/release/janggun (default): the binary that converts and
#   counts (no record size is reckoned here).
#
# The store is flat: FILE is stored under its base name as NAME.xz, in the
# chained data format (version 3, `janggun datagen convert FILE --to 3`,
# whatever FILE's format) and xz -9: about 1.7 bytes a position, against 10
# for fixed 40-byte records. STORE/MANIFEST has one line a file:
# "NAME BYTES SHA256 FIXED_BYTES FIXED_SHA256", the stamp of the stored
# (chained, uncompressed) file, then that of the fixed-record file it
# expands to (`datagen convert --to fixed`): the bytes older tools and nets
# were made from, checked by `check` and by every save. A line of three
# fields is a file stored as it came (a store from before the chained
# format; `upgrade` re-stores each chained, checking that it expands to the
# very bytes it was). A restored file is the stored one, checked against
# its stamp before it replaces anything; a FILE already holding the same
# records, chained or fixed, is left alone. Save never replaces a stored
# file by other records (a trial with smaller shards must not overwrite the
# real ones): it warns and keeps the stored one. Restore says nothing where
# the store has no such file, so callers restore first and make what is
# still missing.
#
# A session can end in the middle of a long one-thread shard (gen0's first
# takes two hours of a core); park keeps it: FILE as it stands and its resume
# point FILE.resume (`janggun datagen --resume`) go to STORE/partial as
# NAME.xz and NAME.resume, replacing an earlier park of the same file unless
# that one had got further. Restore gives a file with no complete copy its
# parked one, with its resume point, where the parked one got further than
# what is on this machine, so that `datagen --resume` goes on from there;
# saving the complete file drops the park. A parked file must be resumed by
# a build whose search plays the same games (the resume point checks the
# settings, not the search). Park is for a session's last minutes: stop or
# kill the datagen runs first, then park and commit.
set -euo pipefail
CMD=${1:?usage: scripts/nets/data_store.sh save|restore|check|park|upgrade FILE...}
shift
STORE=${STORE:-nets/data}
[ "$STORE" = off ] && exit 0
BIN=${BIN:-target/release/janggun}
MANIFEST=$STORE/MANIFEST

entry() { # name -> "bytes sha" of the stored file, from the manifest, or nothing
    [ -f "$MANIFEST" ] || return 0
    awk -v n="$1" '$1 == n { print $2, $3 }' "$MANIFEST"
}
fixed_entry() { # name -> "bytes sha" of the fixed records it expands to, or nothing
    [ -f "$MANIFEST" ] || return 0
    awk -v n="$1" '$1 == n { if (NF >= 5) print $4, $5; else print $2, $3 }' "$MANIFEST"
}
# "bytes sha256" of a file, as MANIFEST has it.
stamp() { echo "$(wc -c <"$1") $(sha256sum "$1" | cut -d' ' -f1)"; }
# Unpacks NAME.xz into dest and prints its stamp; nothing if xz fails.
unpack() {
    if xz -dc "$STORE/$1.xz" >"$2" 2>/dev/null; then stamp "$2"; fi
}
# The stamp of the fixed-record file a data file of any format expands to;
# nothing when the binary cannot read it.
fixed_stamp() {
    _t=$(mktemp "${TMPDIR:-/tmp}/data_store.XXXXXX")
    rm -f "$_t"
    if "$BIN" datagen convert "$1" "$_t" --to fixed 2>/dev/null; then stamp "$_t"; fi
    rm -f "$_t"
}
# Writes FILE chained to dest (a new path); fails when the binary cannot.
chained() {
    "$BIN" datagen convert "$1" "$2" --to 3 >/dev/null 2>&1
}

PARK=$STORE/partial
# Records before a resume point, 0 where there is none or it does not read.
point_records() {
    [ -f "$1" ] || { echo 0; return 0; }
    n=$(sed -n 's/^records \([0-9][0-9]*\)$/\1/p' "$1")
    echo "${n:-0}"
}
unpark() { rm -f "$PARK/$1.xz" "$PARK/$1.resume"; }

# Stores the data file SRC as NAME: chained, checked to expand to the
# fixed-record file whose stamp is FIXED, compressed, with its MANIFEST line.
store_chained() {
    src=$1 name=$2 fixed=$3
    c=$STORE/$name.chained.tmp
    rm -f "$c"
    if ! chained "$src" "$c"; then
        rm -f "$c"
        echo "data_store: $src does not convert; not saved" >&2
        return 1
    fi
    back=$(fixed_stamp "$c")
    if [ "$back" != "$fixed" ]; then
        rm -f "$c"
        echo "data_store: $src chained expands to ${back:-nothing}, not $fixed; not saved" >&2
        return 1
    fi
    now=$(stamp "$c")
    xz -9 -T1 -c "$c" >"$STORE/$name.xz.tmp"
    rm -f "$c"
    mv "$STORE/$name.xz.tmp" "$STORE/$name.xz"
    # Shards finish together (two self-play jobs save at once): the
    # MANIFEST's read-modify-write holds a lock on the store's folder, and
    # each writer stages its own copy.
    (
        flock 9
        {
            [ -f "$MANIFEST" ] && awk -v n="$name" '$1 != n' "$MANIFEST"
            echo "$name $now $fixed"
        } | sort >"$MANIFEST.tmp.$$"
        mv "$MANIFEST.tmp.$$" "$MANIFEST"
    ) 9<"$STORE"
}

save() {
    f=$1 name=$(basename "$1")
    [ -f "$f" ] || { echo "data_store: no file $f" >&2; return 1; }
    mkdir -p "$STORE"
    # The same records whatever the format: their fixed-record stamp.
    now=$(fixed_stamp "$f")
    [ -n "$now" ] || { echo "data_store: $f is no data file $BIN reads; not saved" >&2; return 1; }
    old=$(fixed_entry "$name")
    if [ -n "$old" ]; then
        if [ "$old" = "$now" ] && [ -f "$STORE/$name.xz" ]; then
            unpark "$name"
            return 0
        fi
        if [ -f "$STORE/$name.xz" ]; then
            echo "data_store: $STORE/$name.xz holds other records ($old); kept, $f not saved" >&2
            return 0
        fi
    fi
    store_chained "$f" "$name" "$now"
    unpark "$name"
    echo "data_store: saved $f as $STORE/$name.xz ($(wc -c <"$STORE/$name.xz") bytes)" >&2
}

park() {
    f=$1 name=$(basename "$1")
    if [ ! -f "$f" ] || [ ! -f "$f.resume" ]; then
        echo "data_store: $f has no resume point ($f.resume); not parked" >&2
        return 0
    fi
    if [ -n "$(entry "$name")" ]; then
        echo "data_store: $STORE holds $name complete; not parked" >&2
        return 0
    fi
    have=$(point_records "$f.resume")
    was=$(point_records "$PARK/$name.resume")
    if [ "$have" -eq 0 ] || [ "$have" -le "$was" ]; then
        echo "data_store: $f at record $have; the park holds $was, kept" >&2
        return 0
    fi
    mkdir -p "$PARK"
    # The point first: the file only grows past it, and datagen --resume
    # cuts off what follows the point.
    cp "$f.resume" "$PARK/$name.resume.tmp"
    xz -9 -T1 -c "$f" >"$PARK/$name.xz.tmp"
    mv "$PARK/$name.xz.tmp" "$PARK/$name.xz"
    mv "$PARK/$name.resume.tmp" "$PARK/$name.resume"
    echo "data_store: parked $f at record $have as $PARK/$name.xz ($(wc -c <"$PARK/$name.xz") bytes)" >&2
}

# The parked FILE, where it got further than this machine's.
restore_parked() {
    f=$1 name=$(basename "$1")
    [ -f "$PARK/$name.xz" ] && [ -f "$PARK/$name.resume" ] || return 0
    was=$(point_records "$PARK/$name.resume")
    here=0
    [ -f "$f" ] && here=$(point_records "$f.resume")
    [ "$was" -gt "$here" ] || return 0
    mkdir -p "$(dirname "$f")"
    if ! xz -dc "$PARK/$name.xz" >"$f.restore" 2>/dev/null; then
        rm -f "$f.restore"
        echo "data_store: $PARK/$name.xz does not unpack; $f not restored" >&2
        return 0
    fi
    cp "$PARK/$name.resume" "$f.resume"
    mv "$f.restore" "$f"
    echo "data_store: restored $f, cut short at record $was, from $PARK/$name.xz" >&2
}

restore() {
    f=$1 name=$(basename "$1")
    want=$(entry "$name")
    if [ -z "$want" ] || [ ! -f "$STORE/$name.xz" ]; then
        restore_parked "$f"
        return 0
    fi
    if [ -f "$f" ]; then
        # The stored file, or the fixed records it expands to.
        have=$(stamp "$f")
        if [ "$have" = "$want" ] || [ "$have" = "$(fixed_entry "$name")" ]; then
            return 0
        fi
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
    if [ ! -f "$MANIFEST" ] && [ ! -d "$PARK" ]; then
        echo "data_store: no $MANIFEST" >&2
        return 1
    fi
    bad=0 complete=0
    [ -f "$MANIFEST" ] && while read -r name bytes sum fbytes fsum; do
        tmp=$(mktemp)
        got=$(unpack "$name" "$tmp")
        if [ "$got" != "$bytes $sum" ]; then
            echo "data_store: $name: ${got:-unreadable}, MANIFEST says $bytes $sum" >&2
            bad=1
        elif [ -n "$fsum" ]; then
            # What it expands to: the bytes the nets were made from.
            got=$(fixed_stamp "$tmp")
            if [ "$got" != "$fbytes $fsum" ]; then
                echo "data_store: $name expands to ${got:-nothing it reads}, MANIFEST says $fbytes $fsum" >&2
                bad=1
            fi
        fi
        rm -f "$tmp"
        complete=$((complete + 1))
    done <"$MANIFEST"
    for x in "$STORE"/*.xz; do
        [ -f "$x" ] || continue
        [ -n "$(entry "$(basename "$x" .xz)")" ] || { echo "data_store: $x not in MANIFEST" >&2; bad=1; }
    done
    parked=0
    for x in "$PARK"/*.xz; do
        [ -f "$x" ] || continue
        name=$(basename "$x" .xz)
        if ! xz -t "$x" 2>/dev/null || [ "$(point_records "$PARK/$name.resume")" -eq 0 ]; then
            echo "data_store: $x does not unpack or has no resume point" >&2
            bad=1
        fi
        [ -z "$(entry "$name")" ] || { echo "data_store: $x is parked and also complete" >&2; bad=1; }
        parked=$((parked + 1))
    done
    [ "$bad" = 0 ] && echo "data_store: $complete files match MANIFEST, $parked parked" >&2
    return "$bad"
}

# Every file stored as it came (a MANIFEST line of three fields) stored
# again chained: unpacked and checked against its line, converted, checked
# to expand to the very same bytes, and only then put in its place.
upgrade() {
    [ -f "$MANIFEST" ] || { echo "data_store: no $MANIFEST" >&2; return 1; }
    n=0
    # shellcheck disable=SC2013 # a name is one MANIFEST field, no blanks
    for name in $(awk 'NF == 3 { print $1 }' "$MANIFEST"); do
        tmp=$STORE/$name.fixed.tmp
        got=$(unpack "$name" "$tmp")
        want=$(entry "$name")
        if [ "$got" != "$want" ]; then
            rm -f "$tmp"
            echo "data_store: $name: ${got:-unreadable}, MANIFEST says $want; not upgraded" >&2
            return 1
        fi
        # Stored as it came: the chained file must expand to these bytes.
        before=$(wc -c <"$STORE/$name.xz")
        store_chained "$tmp" "$name" "$want" || { rm -f "$tmp"; return 1; }
        rm -f "$tmp"
        n=$((n + 1))
        echo "data_store: $name re-stored chained: $before -> $(wc -c <"$STORE/$name.xz") bytes" >&2
    done
    echo "data_store: $n files upgraded" >&2
}

case $CMD in
save) for f in "$@"; do save "$f"; done ;;
restore) for f in "$@"; do restore "$f"; done ;;
check) check ;;
park) for f in "$@"; do park "$f"; done ;;
upgrade) upgrade ;;
*)
    echo "usage: scripts/nets/data_store.sh save|restore|check|park|upgrade FILE..." >&2
    exit 2
    ;;
esac
