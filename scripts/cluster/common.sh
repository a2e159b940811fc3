# shellcheck shell=bash
# A library, sourced, never run: no `set` of its own; it runs under its
# callers' `set -euo pipefail`.
# Shared by scripts/cluster/datagen.sh, sprt.sh and slurm/ (sourced, not
# run). Every argument of those scripts is checked here, before anything
# runs: a value after each option, numbers in their range, seed lists,
# host lines, paths, the SPRT bounds and a match's settings (the last two
# by the janggun binary itself).
#
# The jobs run through GNU parallel on the hosts of a standard
# --sshloginfile ("[jobs/][user@]host[:port]" a line, ":" for this
# machine; other settings come from ~/.ssh/config, or from PARALLEL_SSH,
# e.g. PARALLEL_SSH="ssh -F my_config"). Everything a job needs is staged
# in the work folder: bin/ goes to each host once (--basefile), each job
# writes its shard aside and renames it when whole, and only the whole
# shard comes back (--return). The work folder is the record of finished
# shards, so a restarted controller skips them; jobs.log is GNU parallel's
# job log of every attempt (host, time, exit status), appended across
# restarts.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    # Run rather than sourced: it has nothing to do on its own.
    case ${1:-} in
    -h | --help)
        sed -n '2,/^$/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    esac
    echo "common.sh is sourced by the cluster scripts, not run (see --help)" >&2
    exit 1
fi

SSH=${PARALLEL_SSH:-ssh}

# Most seeds (shards) one job may name: more is a typo (a range with a
# digit too many), and its list alone would fill the temporary folder.
MAX_SEEDS=100000
# Largest seed: nine digits, so that no arithmetic on a seed overflows.
MAX_SEED=999999999

die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

note() {
    echo "[$(date +%H:%M:%S)] $*" >&2
}

# show_help: the comment block at the head of the running script, up to
# its `set -euo pipefail`.
show_help() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; /^#SBATCH/d; s/^# \{0,1\}//'
}

# value "$@" (in an option loop, $1 the option): VAL is the option's
# value. Refused: a missing or empty value, one that is the next option,
# one with a control character (the scripts write values one a line, and
# into job lines), and an option given twice unless REPEATABLE names it.
declare -A SEEN=()
REPEATABLE=' --dev-option --base-option '
value() {
    local flag=$1
    [ $# -ge 2 ] || die "$flag needs a value"
    VAL=$2
    [ -n "$VAL" ] || die "$flag needs a value (it is empty)"
    case $VAL in
    -*) die "$flag needs a value, not '$(printf '%.40s' "$VAL")' (no value begins with '-'; a path that does: write ./$(printf '%.40s' "$VAL"))" ;;
    esac
    [[ $VAL == *[[:cntrl:]]* ]] && die "$flag: the value holds a control character"
    if [[ $REPEATABLE != *" $flag "* ]]; then
        [ -z "${SEEN[$flag]:-}" ] || die "$flag given twice"
        SEEN[$flag]=1
    fi
}

# flag_once FLAG: an option without a value, given once.
flag_once() {
    [ -z "${SEEN[$1]:-}" ] || die "$1 given twice"
    SEEN[$1]=1
}

# number FLAG VALUE MIN MAX: RES is VALUE, a whole number from MIN to MAX
# written in decimal digits only (leading zeros dropped: no octal).
number() {
    local flag=$1 v=$2 min=$3 max=$4
    if [[ $v =~ ^[0-9]{1,15}$ ]] && ((10#$v >= min && 10#$v <= max)); then
        RES=$((10#$v))
    else
        die "$flag: '$(printf '%.40s' "$v")' is not a whole number from $min to $max"
    fi
}

# check_retries VALUE: RES is the most tries of a shard, passed as is to
# GNU parallel's --retries, whose N is the number of tries (1: no second
# try) and whose 0 means "try forever": a shard that can never pass would
# then hold the job for good, so 0 is refused.
check_retries() {
    if [[ $1 =~ ^[0-9]{1,15}$ ]] && ((10#$1 >= 1 && 10#$1 <= 100)); then
        RES=$((10#$1))
    else
        die "--retries: '$(printf '%.40s' "$1")' is not a number of tries from 1 to 100 (0 would be 'forever' to GNU parallel)"
    fi
}

# in_file FLAG PATH: RES is the absolute path of PATH, a regular file that
# can be read (not a folder, FIFO or device: those block or never end).
in_file() {
    local flag=$1 p=$2 dir
    [ -e "$p" ] || die "$flag: $p: no such file"
    [ -f "$p" ] || die "$flag: $p: not a regular file"
    [ -r "$p" ] || die "$flag: $p: cannot be read"
    case $p in
    */*) dir=${p%/*} ;;
    *) dir=. ;;
    esac
    dir=$(CDPATH='' cd -- "${dir:-/}" && pwd) || die "$flag: $p: its folder cannot be entered"
    RES=${dir%/}/${p##*/}
}

# out_file FLAG PATH: RES is the absolute path of PATH, a file name in a
# folder that exists (made by nobody: a typo in it must not put the file
# somewhere else, as at the file system's root).
out_file() {
    local flag=$1 p=$2 dir base
    base=${p##*/}
    case $base in
    '' | . | ..) die "$flag: $p names a folder, not a file" ;;
    esac
    case $p in
    */*) dir=${p%/*} ;;
    *) dir=. ;;
    esac
    dir=${dir:-/}
    [ -d "$dir" ] || die "$flag: $dir: no such folder (make it first)"
    dir=$(CDPATH='' cd -- "$dir" && pwd) || die "$flag: $dir: cannot be entered"
    RES=${dir%/}/$base
    [ ! -d "$RES" ] || die "$flag: $RES is a folder, not a file"
    [ ! -e "$RES" ] || [ -f "$RES" ] || die "$flag: $RES exists and is not a regular file"
}

# work_dir FLAG PATH: RES is the absolute path of the work folder PATH:
# one that exists, or a new one in a folder that exists. Nothing is made.
work_dir() {
    local flag=$1 p=$2
    p=${p%"${p##*[!/]}"}
    [ -n "$p" ] || die "$flag: '/' cannot be a work folder"
    if [ -e "$p" ]; then
        [ -d "$p" ] || die "$flag: $p exists and is not a folder"
        RES=$(CDPATH='' cd -- "$p" && pwd) || die "$flag: $p cannot be entered"
        return 0
    fi
    out_file "$flag" "$p"
}

# check_seeds FLAG LIST: a list of seeds "A-B,C,..." (each from 1 to
# MAX_SEED, each range in order, no seed twice, at most MAX_SEEDS in all).
# SEEDS is the list written plainly (no leading zeros), SEED_MAX the
# largest seed.
check_seeds() {
    local flag=$1 list=$2 part a b n=0 parts=() dup
    local what="seeds such as 1-64 or 1-8,12 (each from 1 to $MAX_SEED)"
    [[ $list =~ ^[0-9,-]+$ ]] || die "$flag: '$(printf '%.40s' "$list")' is not a list of $what"
    case ,$list, in
    *,,*) die "$flag: '$list' has an empty item: give $what" ;;
    esac
    SEEDS='' SEED_MAX=0
    IFS=, read -ra parts <<<"$list"
    for part in "${parts[@]}"; do
        if [[ $part =~ ^([0-9]{1,9})-([0-9]{1,9})$ ]]; then
            a=$((10#${BASH_REMATCH[1]}))
            b=$((10#${BASH_REMATCH[2]}))
        elif [[ $part =~ ^[0-9]{1,9}$ ]]; then
            a=$((10#$part))
            b=$a
        elif [[ $part =~ ^[0-9]+(-[0-9]+)?$ ]]; then
            die "$flag: '$(printf '%.40s' "$part")': seeds go up to $MAX_SEED"
        else
            die "$flag: '$(printf '%.40s' "$part")' is not a seed or a range A-B: give $what"
        fi
        [ "$a" -ge 1 ] || die "$flag: '$part': seeds begin at 1"
        [ "$a" -le "$b" ] || die "$flag: '$part' runs backwards (write $b-$a)"
        n=$((n + b - a + 1))
        [ "$n" -le "$MAX_SEEDS" ] || die "$flag: '$list' names more than $MAX_SEEDS seeds"
        [ "$b" -le "$SEED_MAX" ] || SEED_MAX=$b
        if [ "$a" = "$b" ]; then SEEDS+=,$a; else SEEDS+=,$a-$b; fi
    done
    SEEDS=${SEEDS#,}
    dup=$(expand_seeds "$SEEDS" | sort -n | uniq -d | head -1)
    [ -z "$dup" ] || die "$flag: seed $dup is named twice in '$list'"
}

# expand_seeds LIST (checked by check_seeds) -> one seed a line
expand_seeds() {
    local part
    local IFS=,
    for part in $1; do
        case $part in
        *-*) seq "${part%-*}" "${part#*-}" ;;
        *) echo "$part" ;;
        esac
    done
}

# parse_host LINE: the parts of an sshloginfile line "[jobs/][user@]host
# [:port]": H_USER, H_HOST and H_PORT (H_HOST ":" for this machine). Fails on
# anything else: an option ('-oProxyCommand=...'), a space (GNU parallel
# would take what comes before it as the ssh command), a password, a
# host group, a shell character.
parse_host() {
    local re='^(([1-9][0-9]{0,3})/)?(:|(([A-Za-z0-9_][A-Za-z0-9._-]{0,31})@)?([A-Za-z0-9_][A-Za-z0-9._-]{0,252}|\[[0-9A-Fa-f:.]{2,45}\])(:([0-9]{1,5}))?)$'
    [[ $1 =~ $re ]] || return 1
    H_USER=${BASH_REMATCH[5]}
    H_HOST=${BASH_REMATCH[6]:-${BASH_REMATCH[3]}}
    H_PORT=${BASH_REMATCH[8]}
    H_HOST=${H_HOST#[}
    H_HOST=${H_HOST%]}
    [ -z "$H_PORT" ] || { [ "$((10#$H_PORT))" -ge 1 ] && [ "$((10#$H_PORT))" -le 65535 ]; }
}

# load_hosts FILE: HOSTS is the host lines of the sshloginfile FILE (a
# regular file of at most 1 MiB; "#" starts a comment), each checked by
# parse_host. Fails, naming the line, on any other line, and when there
# is no host.
load_hosts() {
    local f=$1 line n=0
    in_file --hosts "$f"
    f=$RES
    [ "$(stat -c %s -- "$f")" -le 1048576 ] || die "--hosts: $f: over 1 MiB, not a host list"
    HOSTS=()
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        line=${line%%#*}
        line=${line#"${line%%[![:space:]]*}"}
        line=${line%"${line##*[![:space:]]}"}
        [ -z "$line" ] && continue
        parse_host "$line" ||
            die "--hosts: $f line $n: '$(printf '%.60s' "$line" | tr -c '[:print:]' '?')' is not a host ([jobs/][user@]host[:port], or ':' for this machine)"
        HOSTS+=("$line")
    done <"$f"
    [ ${#HOSTS[@]} -gt 0 ] || die "--hosts: $f names no host"
    [ ${#HOSTS[@]} -le 10000 ] || die "--hosts: $f names over 10000 hosts"
}

# check_hosts OUT: copies to OUT the lines of HOSTS (from load_hosts)
# whose host takes an ssh login now; the others are named and left out,
# so that a dead host is never handed a job. Fails when none is left.
check_hosts() {
    local out=$1 line n=0 args
    : >"$out"
    for line in "${HOSTS[@]}"; do
        parse_host "$line" || die "host line '$line': not a host"
        args=(-o BatchMode=yes -o ConnectTimeout=10)
        [ -n "$H_PORT" ] && args+=(-p "$H_PORT")
        [ -n "$H_USER" ] && args+=(-l "$H_USER")
        # "--": whatever the host is, ssh takes it as the host.
        # shellcheck disable=SC2086 # PARALLEL_SSH is a command line
        if [ "$H_HOST" = ":" ] ||
            $SSH "${args[@]}" -- "$H_HOST" true </dev/null 2>/dev/null; then
            echo "$line" >>"$out"
            n=$((n + 1))
        else
            # The login without its job count ('/' is in no other part).
            note "host ${line#*/}: no ssh login, left out"
        fi
    done
    [ "$n" -gt 0 ] || die "no host of --hosts answers"
    note "$n hosts answer: $(tr '\n' ' ' <"$out")"
}

# ask_binary FLAG BIN ARGS...: BIN parses ARGS (a `janggun match` command
# line) with `--check`, which plays nothing, and finds them good. Fails
# with the binary's own first line otherwise.
ask_binary() {
    local flag=$1 bin=$2 msg
    shift 2
    msg=$(timeout 30 "$bin" "$@" --check 2>&1 </dev/null) && return 0
    msg=${msg#error: }
    msg=${msg%%$'\n'*}
    msg=${msg%%'\n'*}
    [ -n "$msg" ] || msg="$bin gave no answer"
    # The binary's message names the option already, or names its own.
    case $msg in
    "$flag"*) die "$msg" ;;
    *) die "$flag: $msg" ;;
    esac
}

# check_sprt BIN SPEC: the SPRT "elo0=E0 elo1=E1 alpha=A beta=B" (each
# field optional, at most once), checked by the janggun binary BIN that
# will use it, so that the merges it runs can decide. SPRT_FIELDS holds
# the fields and SPRT the spec written with single spaces.
check_sprt() {
    local bin=$1 f
    read -ra SPRT_FIELDS <<<"$2"
    [ ${#SPRT_FIELDS[@]} -gt 0 ] || die "--sprt: give elo0=E0 elo1=E1 [alpha=A beta=B]"
    for f in "${SPRT_FIELDS[@]}"; do
        [[ $f =~ ^(elo0|elo1|alpha|beta)=[0-9eE.+-]{1,32}$ ]] ||
            die "--sprt: '$(printf '%.40s' "$f")' is not elo0=, elo1=, alpha= or beta= with a number"
    done
    # Two engines make a whole match line for `--check`; none is started.
    local pair=(--engine name=a "cmd=$bin" --engine name=b "cmd=$bin" --nodes 1)
    # A control first: bounds that can never decide must be refused, or the
    # binary does not check them and the answer below would say nothing.
    if (ask_binary --sprt "$bin" match "${pair[@]}" --sprt elo0=1 elo1=0) 2>/dev/null; then
        die "--sprt: $bin does not refuse elo0=1 elo1=0: it cannot check the SPRT here"
    fi
    ask_binary --sprt "$bin" match "${pair[@]}" --sprt "${SPRT_FIELDS[@]}"
    # shellcheck disable=SC2034 # for the scripts that source this file
    SPRT="${SPRT_FIELDS[*]}"
}

# check_janggun FLAG BIN: BIN runs here and is a janggun build (it says so
# to --version), so that the checks it is asked for mean something.
check_janggun() {
    local v
    [ -x "$2" ] || die "$1: $2: not executable"
    v=$(timeout 30 "$2" --version 2>/dev/null </dev/null) || v=
    [[ $v == "janggun "* ]] || die "$1: $2 is not a janggun build (its --version: '$(printf '%.40s' "$v" | tr -c '[:print:]' ' ')')"
}

# check_net BIN NET: NET is a net file BIN can read (its header).
check_net() {
    local msg
    msg=$(timeout 30 "$1" net info "$2" 2>&1 </dev/null) ||
        die "--net: $(printf '%.200s' "${msg#error: }")"
}

# data_records BIN FILE: the records of a training-data file of any format,
# as BIN counts them (`janggun datagen count`: no script reckons record
# sizes); nothing when the file is missing or is no data file BIN reads.
data_records() {
    [ -f "$2" ] || return 0
    timeout 600 "$1" datagen count -- "$2" 2>/dev/null </dev/null || true
}

# is_data FILE: FILE begins as a Janggun data file does.
is_data() {
    [ "$(head -c 8 -- "$1" 2>/dev/null | tr -d '\0')" = JGNNDATA ]
}

# stage SRC DEST: copies a file into the work folder (keeping it when the
# same bytes are there already, so that a restart sends nothing new).
stage() {
    local src=$1 dest=$2
    [ -f "$src" ] || die "$src: no such file"
    if ! cmp -s -- "$src" "$dest" 2>/dev/null; then
        mkdir -p -- "$(dirname -- "$dest")"
        cp -- "$src" "$dest.tmp" && chmod +x -- "$dest.tmp" && mv -- "$dest.tmp" "$dest"
    fi
}

# check_job WORK TEXT: a work folder belongs to one job. The first run
# writes TEXT (the settings that make its shards what they are) to
# WORK/job.txt; a later run with other settings is refused, so that shards
# made under two settings are never merged.
check_job() {
    local work=$1 text=$2
    if [ -f "$work/job.txt" ]; then
        if [ "$(cat -- "$work/job.txt")" != "$text" ]; then
            die "$work holds shards of another job: $work/job.txt says
$(cat -- "$work/job.txt")
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
    name=.janggun-cluster-$(printf '%s' "$(cd -- "$work" && pwd)" | cksum | cut -d' ' -f1)
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
