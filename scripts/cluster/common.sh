# shellcheck shell=bash
# Shared by scripts/cluster/datagen.sh and sprt.sh (sourced, not run).
#
# The jobs run through GNU parallel on the hosts of a standard
# --sshloginfile ("[jobs/]host" a line, ":" for this machine; ports, users
# and keys come from ~/.ssh/config, or from PARALLEL_SSH, e.g.
# PARALLEL_SSH="ssh -F my_config"). Everything a job needs is staged in
# the work folder: bin/ goes to each host once (--basefile), each job
# writes its shard aside and renames it when whole, and only the whole
# shard comes back (--return). The work folder is the record of finished
# shards, so a restarted controller skips them; jobs.log is GNU parallel's
# job log of every attempt (host, time, exit status), appended across
# restarts.

SSH=${PARALLEL_SSH:-ssh}

die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

note() {
    echo "[$(date +%H:%M:%S)] $*" >&2
}

# The number of whole records in a training-data file, from its size and
# the record size in its header (bytes 12..16: 32 for format version 1, 40
# for version 2); nothing when the file is missing or ends in part of a
# record.
data_records() {
    local size rec
    size=$(stat -c %s "$1" 2>/dev/null) || return 0
    rec=$(od -An -tu4 -j12 -N4 "$1" 2>/dev/null | tr -d ' ')
    if [ -n "$rec" ] && [ "$rec" -gt 0 ] && [ $(((size - 32) % rec)) = 0 ]; then
        echo $(((size - 32) / rec))
    fi
}

# expand_seeds "1-4,9,12-13" -> one seed a line
expand_seeds() {
    local part a b
    local IFS=,
    for part in $1; do
        if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then
            a=${BASH_REMATCH[1]}
            b=${BASH_REMATCH[2]}
            [ "$a" -le "$b" ] || die "--seeds: $part runs backwards"
            seq "$a" "$b"
        elif [[ $part =~ ^[0-9]+$ ]]; then
            echo "$part"
        else
            die "--seeds: '$part' is not a seed or a range A-B"
        fi
    done
}

# check_hosts IN OUT: copies to OUT the lines of the sshloginfile IN whose
# host takes an ssh login now; the others are named and left out, so that
# a dead host is never handed a job. Fails when none is left.
check_hosts() {
    local in=$1 out=$2 line login n=0
    : >"$out"
    while IFS= read -r line || [ -n "$line" ]; do
        line=${line%%#*}
        line=${line#"${line%%[![:space:]]*}"}
        line=${line%"${line##*[![:space:]]}"}
        [ -z "$line" ] && continue
        login=$line
        [[ $login =~ ^[0-9]+/(.*)$ ]] && login=${BASH_REMATCH[1]}
        if [ "$login" = ":" ] ||
            $SSH -o BatchMode=yes -o ConnectTimeout=10 "$login" true </dev/null 2>/dev/null; then
            echo "$line" >>"$out"
            n=$((n + 1))
        else
            note "host $login: no ssh login, left out"
        fi
    done <"$in"
    [ "$n" -gt 0 ] || die "no host of $in answers"
    note "$n hosts answer: $(tr '\n' ' ' <"$out")"
}

# stage SRC DEST: copies a file into the work folder (keeping it when the
# same bytes are there already, so that a restart sends nothing new).
stage() {
    local src=$1 dest=$2
    [ -f "$src" ] || die "$src: no such file"
    if ! cmp -s "$src" "$dest" 2>/dev/null; then
        mkdir -p "$(dirname "$dest")"
        cp "$src" "$dest.tmp" && chmod +x "$dest.tmp" && mv "$dest.tmp" "$dest"
    fi
}

# check_job WORK TEXT: a work folder belongs to one job. The first run
# writes TEXT (the settings that make its shards what they are) to
# WORK/job.txt; a later run with other settings is refused, so that shards
# made under two settings are never merged.
check_job() {
    local work=$1 text=$2
    if [ -f "$work/job.txt" ]; then
        if [ "$(cat "$work/job.txt")" != "$text" ]; then
            die "$work holds shards of another job: $work/job.txt says
$(cat "$work/job.txt")
and this run is
$text
(give another --work, or remove $work)"
        fi
    else
        printf '%s\n' "$text" >"$work/job.txt"
    fi
}

# remote_dir WORK: the folder the jobs run in on every host, under the
# login's home (one per work folder, so that two jobs never share one).
# Locally (host ":") GNU parallel takes the same path relative to the
# current folder: a link there back to the work folder makes the local
# jobs run in it.
remote_dir() {
    local work=$1 name
    name=.janggun-cluster-$(printf '%s' "$(cd "$work" && pwd)" | cksum | cut -d' ' -f1)
    ln -sfn . "$work/$name"
    echo "$name"
}

# failed_note: the end of a job's command line that says on the
# controller's output where and how a shard failed for good. (GNU
# parallel shows the output of a shard's last try only, and its job log
# keeps only that try: a try that failed and was run again elsewhere
# leaves no trace but the host of the last one.)
failed_note() {
    # shellcheck disable=SC2016
    echo '|| { s=$?; echo "shard {}: failed on $(whoami)@$(hostname) with status $s" >&2; exit $s; }'
}

sha() {
    if [ -f "$1" ]; then sha256sum <"$1" | cut -c1-16; else echo none; fi
}
