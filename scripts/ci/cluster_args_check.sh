#!/usr/bin/env bash
# The cluster scripts (scripts/cluster: datagen.sh, sprt.sh, slurm/) given
# hostile arguments: each must end with a non-zero status and a message
# that names the cause, before anything runs. ssh, GNU parallel and sbatch
# are shims on PATH that record every call (a call is a failure), and the
# folder each case runs in must be left as it was. Checked, per cause:
#   - a hosts-file line that is not a host ('-oProxyCommand=...', a space,
#     a shell character) is refused, and ssh gets "--" before a host;
#   - --out in a missing folder (once resolved to the file system's root);
#   - --retries 0 ("forever" to GNU parallel) and other bad numbers;
#   - seed lists out of order, unbounded or malformed;
#   - SPRT bounds the binary refuses (sprt.sh played on with no decision);
#   - submit.sh: bad --seeds/--only reach no sbatch; a comma or a '%' in
#     --work reaches the jobs whole; --help;
#   - an option given last without its value: "--out needs a value", not
#     "$2: unbound variable";
#   - --help on every script, `set -euo pipefail` in every script.
# Usage: scripts/ci/cluster_args_check.sh [JANGGUN [SCRIPTS_DIR]]
# (JANGGUN: target/release/janggun; SCRIPTS_DIR: scripts/cluster, or the
# scripts of another commit to show that the checks catch them).
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true
cd "$(dirname "$0")/../.."
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
bin=$(abs "${1:-target/release/janggun}")
[ -x "$bin" ] || { echo "cluster_args_check: $bin: build it first (cargo build --release)" >&2; exit 1; }
sd=$(cd "${2:-scripts/cluster}" && pwd)
command -v timeout >/dev/null || { echo "cluster_args_check: timeout (coreutils) is needed" >&2; exit 1; }

t=$(mktemp -d /tmp/janggun-args.XXXXXX)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/shim" "$t/in"
# The shims: each call is written to $t/called (with the environment the
# jobs would see, for sbatch); ssh answers as a live host, parallel as a
# run that passed, sbatch with a job id.
for tool in ssh parallel; do
    cat >"$t/shim/$tool" <<EOF
#!/usr/bin/env bash
printf '$tool' >>"$t/called"
printf ' [%s]' "\$@" >>"$t/called"
echo >>"$t/called"
exit 0
EOF
done
cat >"$t/shim/sbatch" <<EOF
#!/usr/bin/env bash
{
    printf 'sbatch'
    printf ' [%s]' "\$@"
    echo
    echo "env WORK=[\${WORK:-}]"
} >>"$t/called"
echo 4242
EOF
chmod +x "$t/shim/"*
export PATH=$t/shim:$PATH
unset PARALLEL_SSH WORK SLURM_ARRAY_TASK_ID KIND JANGGUN INDICES OUT SPRT

printf ':\n' >"$t/in/hosts"
printf 'not janggun data\n' >"$t/in/notes.txt"
mkfifo "$t/in/fifo"

failed=0 n=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}

# run NAME SCRIPT ARGS...: runs SCRIPT (relative to SCRIPTS_DIR) with ARGS
# in a fresh folder $run (ARGS may name it as @RUN@); sets rc and out.
run_case() {
    local name=$1 script=$2
    shift 2
    n=$((n + 1))
    run=$t/run/$n
    mkdir -p "$run"
    : >"$t/called"
    local args=() a
    for a in "$@"; do
        a=${a//@RUN@/$run}
        args+=("${a//@HOSTS@/$hosts_file}")
    done
    rc=0
    out=$(cd "$run" && timeout 60 bash "$sd/$script" "${args[@]}" 2>&1 </dev/null) || rc=$?
    case_name=$name
}

# refused NAME PATTERN SCRIPT ARGS...: a non-zero status, PATTERN (an
# extended regex) in the output, no shim called, nothing left in $run.
refused() {
    local pattern=$2
    run_case "$1" "${@:3}"
    local bad=()
    [ "$rc" != 0 ] || bad+=("status 0")
    [ "$rc" != 124 ] || bad+=("it hung (killed after 60 s)")
    grep -Eq -- "$pattern" <<<"$out" || bad+=("no message matching /$pattern/")
    ! grep -q 'unbound variable' <<<"$out" || bad+=("'unbound variable'")
    [ ! -s "$t/called" ] || bad+=("ran $(cut -d' ' -f1 "$t/called" | sort -u | tr '\n' ' ')")
    left=$(find "$run" -mindepth 1 -maxdepth 1 -printf '%f ')
    [ -z "$left" ] || bad+=("left $left")
    if [ ${#bad[@]} = 0 ]; then
        echo "ok: $case_name: $(head -1 <<<"$out")"
    else
        fail "$case_name: ${bad[*]}; output: $(head -3 <<<"$out" | tr '\n' '|')"
    fi
}

# helps SCRIPT: --help prints the script's usage and exits 0, running
# nothing.
helps() {
    run_case "$1 --help" "$1" --help
    if [ "$rc" = 0 ] && [ "$(wc -l <<<"$out")" -ge 3 ] && [ ! -s "$t/called" ]; then
        echo "ok: $1 --help: $(wc -l <<<"$out") lines"
    else
        fail "$1 --help: status $rc; output: $(head -2 <<<"$out" | tr '\n' '|')"
    fi
}

hosts_file=$t/in/hosts
dg=(--hosts @HOSTS@ --seeds 1-2 --nodes 10 --positions 10 --binary "$bin" --out @RUN@/data.bin)
sp=(--hosts @HOSTS@ --dev "$bin" --base "$bin" --nodes 10 --games 2
    --sprt "elo0=0 elo1=5" --work @RUN@/sprt.work)
sd_=(datagen --work @RUN@/sw --seeds 1-3 --nodes 10 --positions 10 --binary "$bin")
sm=(match --work @RUN@/sm --seeds 1-3 --dev "$bin" --base "$bin" --nodes 10 --games 2
    --binary "$bin")

echo "--- every script: set -euo pipefail, --help"
for f in datagen.sh sprt.sh common.sh slurm/submit.sh slurm/datagen.sbatch slurm/match.sbatch \
    slurm/merge.sbatch; do
    if [ "$f" != common.sh ] && ! grep -qx 'set -euo pipefail' "$sd/$f"; then
        fail "$f: no 'set -euo pipefail'"
    fi
    helps "$f"
done

echo "--- host lines are hosts, never options"
i=0
for line in "-oProxyCommand=touch $t/pwned" "1/-oProxyCommand=touch$t/pwned" \
    "jg-a -oProxyCommand=touch$t/pwned" "-p" "user@-oProxyCommand=x" "host;touch$t/pwned" \
    "\$(touch$t/pwned)" "@grp/host" "user:secret@host" "host:0" "host:99999" "-" ".." \
    "ssh -p 22 host"; do
    i=$((i + 1))
    hosts_file=$t/in/hosts-$i
    printf 'jg-ok\n%s\n' "$line" >"$hosts_file"
    refused "datagen.sh hosts line '$line'" "line 2: .*not a host" datagen.sh "${dg[@]}"
    refused "sprt.sh hosts line '$line'" "line 2: .*not a host" sprt.sh "${sp[@]}"
done
[ ! -e "$t/pwned" ] || fail "a host line ran a command"
hosts_file=$t/in/fifo
refused "datagen.sh --hosts a FIFO" "hosts.*not a regular file" datagen.sh "${dg[@]}"
hosts_file=$t/in/no-hosts
printf '# none yet\n\n' >"$hosts_file"
refused "datagen.sh --hosts with no host" "names no host" datagen.sh "${dg[@]}"
hosts_file=$t/in/hosts
# ssh is asked with "--" before the host, whatever PARALLEL_SSH is.
: >"$t/called"
# shellcheck disable=SC2016 # expanded by the inner bash
PARALLEL_SSH=$t/shim/ssh bash -euc 'source "$1"; HOSTS=(jg-a 2/me@jg-b:2222); check_hosts "$2"' \
    check "$sd/common.sh" "$t/live" >/dev/null 2>&1 || true
if grep -q -- '\[--\] \[jg-a\] \[true\]' "$t/called" 2>/dev/null &&
    grep -q -- '\[-p\] \[2222\] \[-l\] \[me\] \[--\] \[jg-b\] \[true\]' "$t/called"; then
    echo "ok: check_hosts: ssh ... -- HOST true, port and user as ssh options"
else
    fail "check_hosts: ssh not called with '--' before the host: $(tr '\n' '|' <"$t/called" 2>/dev/null)"
fi

echo "--- --out in a folder that exists"
name=jg-argcheck-$$.bin
refused "datagen.sh --out in a missing folder" "no such folder" datagen.sh \
    "${dg[@]/@RUN@\/data.bin/@RUN@/missing/$name}"
for p in "/$name" "/$name.work"; do
    if [ -e "$p" ]; then
        fail "datagen.sh --out in a missing folder: wrote $p"
        rm -rf "${p:?}"
    fi
done
refused "datagen.sh --out a folder" "folder" datagen.sh "${dg[@]/@RUN@\/data.bin/$t/in}"
refused "datagen.sh --out over a file that is not Janggun data" "not a Janggun data file" \
    datagen.sh "${dg[@]/@RUN@\/data.bin/$t/in/notes.txt}"
grep -qx 'not janggun data' "$t/in/notes.txt" || fail "notes.txt was changed"
refused "datagen.sh --work in a missing folder" "no such folder" datagen.sh "${dg[@]}" \
    --work @RUN@/missing/w
refused "sprt.sh --work in a missing folder" "no such folder" sprt.sh \
    "${sp[@]/@RUN@\/sprt.work/@RUN@/missing/w}"
refused "submit.sh --work in a missing folder" "no such folder" slurm/submit.sh \
    "${sd_[@]/@RUN@\/sw/@RUN@/missing/w}"

refused "datagen.sh --work the same path as --out" "one path" datagen.sh "${dg[@]}" \
    --work @RUN@/data.bin
# A work folder of another job: refused before its files are replaced.
mkdir -p "$t/in/other/bin"
echo "datagen of another job" >"$t/in/other/job.txt"
echo "another job's binary" >"$t/in/other/bin/janggun"
refused "datagen.sh --work of another job" "another job" datagen.sh "${dg[@]}" --work "$t/in/other"
grep -qx "another job's binary" "$t/in/other/bin/janggun" ||
    fail "datagen.sh --work of another job: its bin/janggun was replaced"
refused "datagen.sh --binary not a janggun build" "not a janggun build" datagen.sh \
    "${dg[@]/$bin/$(type -P true)}"
refused "sprt.sh --dev not a janggun build" "not a janggun build" sprt.sh --hosts @HOSTS@ \
    --dev "$(type -P true)" --base "$bin" --nodes 10 --sprt "elo0=0 elo1=5" --work @RUN@/w

echo "--- numbers: --retries 0 is 'forever' to GNU parallel"
for v in 0 00 101 abc 1e3 99999999999999999999 " 3"; do
    refused "datagen.sh --retries '$v'" "--retries" datagen.sh "${dg[@]}" --retries "$v"
    refused "sprt.sh --retries '$v'" "--retries" sprt.sh "${sp[@]}" --retries "$v"
done
refused "datagen.sh --nodes 0" "--nodes" datagen.sh "${dg[@]}" --nodes 0
refused "datagen.sh --positions 0" "--positions" datagen.sh "${dg[@]/--positions/--random-plies}" \
    --positions 0
refused "datagen.sh --random-plies 08x" "--random-plies" datagen.sh "${dg[@]}" --random-plies 08x
refused "sprt.sh --games 3" "--games" sprt.sh "${sp[@]/--games/--random-plies}" --games 3
refused "sprt.sh --max-shards 0" "--max-shards" sprt.sh "${sp[@]}" --max-shards 0
refused "sprt.sh --merge-every 0" "--merge-every" sprt.sh "${sp[@]}" --merge-every 0
refused "submit.sh datagen --positions 0" "--positions" slurm/submit.sh \
    "${sd_[@]/--positions/--random-plies}" --positions 0
refused "submit.sh match --games 0" "--games" slurm/submit.sh "${sm[@]/--games/--random-plies}" \
    --games 0

echo "--- seed lists: ordered, bounded, well formed"
for s in 1-100000000000 1-200000 5-1 - ',,,' 1,,2 1- -5 0 0-3 1-3,2 a 1-2-3 "1 -3" 99999999999999999999; do
    refused "datagen.sh --seeds '$s'" "--seeds" datagen.sh "${dg[@]/1-2/$s}"
    refused "submit.sh datagen --seeds '$s'" "--seeds" slurm/submit.sh "${sd_[@]/1-3/$s}"
    refused "submit.sh match --seeds '$s'" "--seeds" slurm/submit.sh "${sm[@]/1-3/$s}"
done
for s in 2-1 4 ',' 0; do
    refused "submit.sh datagen --only '$s' (--seeds 1-3)" "--only" slurm/submit.sh "${sd_[@]}" \
        --only "$s"
done

echo "--- SPRT bounds, asked of the binary"
for s in "elo0=5 elo1=1" "elo0=0 elo1=0" "alpha=0.7" "beta=0" "elo0=nan" "elo1=inf" \
    "foo=1" "elo0=0 elo0=1" "elo0" "elo0=1e9" "elo0=-5 elo1=-6"; do
    refused "sprt.sh --sprt '$s'" "--sprt" sprt.sh "${sp[@]/elo0=0 elo1=5/$s}"
    refused "submit.sh match --sprt '$s'" "--sprt" slurm/submit.sh "${sm[@]}" --sprt "$s"
done
refused "sprt.sh --tc nonsense (the shards' match, asked of the binary)" "--tc" sprt.sh \
    "${sp[@]}" --tc 1+x
refused "submit.sh match --tc nonsense" "--tc" slurm/submit.sh "${sm[@]}" --tc 1+x

# A merge that fails (a shard it refuses) stops the shards: a GNU parallel
# that brings back a broken shard and would go on for ever, but for a
# SIGHUP (GNU parallel's "start no new job").
mkdir -p "$t/shim-hup"
cat >"$t/shim-hup/parallel" <<'EOF'
#!/usr/bin/env bash
trap 'exit 0' HUP
mkdir -p shards
echo '{"broken": ' >shards/seed-1.json
while :; do sleep 0.2; done
EOF
chmod +x "$t/shim-hup/parallel"
n=$((n + 1))
mkdir -p "$t/run/hup"
rc=0
out=$(cd "$t/run/hup" && PATH=$t/shim-hup:$PATH timeout 60 bash "$sd/sprt.sh" --hosts "$hosts_file" \
    --dev "$bin" --base "$bin" --nodes 10 --games 2 --sprt "elo0=0 elo1=5" --merge-every 1 \
    --work "$t/run/hup/w" 2>&1 </dev/null) || rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 124 ] && grep -q 'the merge fails' <<<"$out"; then
    echo "ok: sprt.sh with a shard the merge refuses: stopped ($(grep -m1 'the merge fails' <<<"$out"))"
else
    fail "sprt.sh with a shard the merge refuses: status $rc (124: still playing after 60 s); output: $(tail -3 <<<"$out" | tr '\n' '|')"
fi

echo "--- an option given last without its value"
for o in --hosts --seeds --nodes --positions --random-plies --net --binary --out --work --retries; do
    refused "datagen.sh ... $o" "$o needs a value" datagen.sh "${dg[@]}" "$o"
done
for o in --hosts --dev --base --dev-option --base-option --nodes --depth --tc --movetime --sprt \
    --games --random-plies --openings --max-shards --merge-every --work --retries; do
    refused "sprt.sh ... $o" "$o needs a value" sprt.sh "${sp[@]}" "$o"
done
for o in --work --seeds --only --nodes --positions --random-plies --net --binary; do
    refused "submit.sh datagen ... $o" "$o needs a value" slurm/submit.sh "${sd_[@]}" "$o"
done
for o in --dev --base --dev-option --base-option --depth --tc --movetime --games --openings --sprt; do
    refused "submit.sh match ... $o" "$o needs a value" slurm/submit.sh "${sm[@]}" "$o"
done
refused "datagen.sh --out --seeds 1-2 (an option for a value)" "--out needs a value" datagen.sh \
    --hosts "$t/in/hosts" --positions 10 --binary "$bin" --out --seeds 1-2
refused "datagen.sh --out given twice" "--out given twice" datagen.sh "${dg[@]}" --out @RUN@/b.bin
refused "datagen.sh --bogus" "unknown argument" datagen.sh "${dg[@]}" --bogus
refused "sprt.sh --dev-option with a line break" "control character" sprt.sh "${sp[@]}" \
    --dev-option $'Hash=16\n--json'
refused "submit.sh (nothing)" "first argument" slurm/submit.sh
refused "submit.sh datagen --sprt (a match option)" "--sprt" slurm/submit.sh "${sd_[@]}" \
    --sprt "elo0=0 elo1=5"
for f in slurm/datagen.sbatch slurm/match.sbatch slurm/merge.sbatch; do
    refused "$f with no environment" "WORK.*submit" "$f"
done

echo "--- submit.sh: the work folder reaches the jobs whole"
for w in "a,b" "p%a"; do
    run_case "submit.sh datagen --work '$w'" slurm/submit.sh "${sd_[@]/@RUN@\/sw/@RUN@/$w}"
    want=$run/$w
    # What each job is given as WORK, read as sbatch reads it: from an
    # --export list (cut at commas) when one names WORK, else from the
    # environment; and where its log goes, as Slurm names it: a relative
    # name after the job's folder, then "%%" -> "%", "%a" and the like ->
    # the task's numbers (a backslash: no patterns).
    got=$(awk -v want="$want" '
        function slurm_name(p,   r, i, c) {
            if (index(p, "\\")) return p
            r = ""
            for (i = 1; i <= length(p); i++) {
                c = substr(p, i, 1)
                if (c == "%") { i++; c = substr(p, i, 1); r = r (c == "%" ? "%" : "7") }
                else r = r c
            }
            return r
        }
        /^sbatch / { list = ""; outp = ""; dir = ""
            n = split($0, a, /\] \[|^sbatch \[|\]$/)
            for (i = 1; i <= n; i++) {
                if (a[i] ~ /^--export=/) list = substr(a[i], 10)
                if (a[i] ~ /^--output=/) outp = substr(a[i], 10)
                if (a[i] == "--chdir") dir = a[i + 1]
            }
            if (outp !~ /^\//) outp = dir "/" outp
            log_ok = index(slurm_name(outp), want "/logs/") == 1
            next }
        /^env WORK=/ { w = substr($0, 11, length($0) - 11); m = split(list, e, ",")
            for (i = 1; i <= m; i++) if (e[i] ~ /^WORK=/) w = substr(e[i], 6)
            if (w != want) print "WORK " w
            else if (!log_ok) print "log " slurm_name(outp)
            else print "ok" }' "$t/called")
    if [ "$rc" = 0 ] && [ "$(grep -c '^ok$' <<<"$got")" = 2 ] && ! grep -qv '^ok$' <<<"$got"; then
        echo "ok: submit.sh --work '$w': both jobs get WORK=$want, logs in it"
    else
        fail "submit.sh --work '$w': status $rc; jobs got: $(tr '\n' ' ' <<<"$got"); output: $(tr '\n' '|' <<<"$out" | head -c 300)"
    fi
done

echo
if [ "$failed" -gt 0 ]; then
    echo "cluster_args_check: $failed of $n cases FAILED" >&2
    exit 1
fi
echo "cluster_args_check: all $n cases passed"
