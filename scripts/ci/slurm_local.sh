# shellcheck shell=bash
# A library, sourced, never run: no `set` of its own; it runs under its
# callers' `set -euo pipefail`.
# A single-node Slurm on this machine for the cluster scripts' checks:
# munged, slurmctld and slurmd with their own key, configuration, sockets,
# ports (free ones on this machine) and state under one folder. Sourced by
# scripts/ci/cluster_check.sh; needs root.
#
#   slurm_up DIR     starts the three daemons; exports SLURM_CONF; sets
#                    MUNGED_PID, SLURMCTLD_PID, SLURMD_PID
#   slurm_down       stops each by its pid

slurm_up() {
    local dir=$1 host cpus ctl_port d_port
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
    chmod 700 "$dir/munge"
    host=$(hostname -s)
    cpus=$(nproc)
    ctl_port=$(free_port)
    d_port=$(free_port)
    while [ "$d_port" = "$ctl_port" ]; do d_port=$(free_port); done
    head -c 1024 /dev/urandom >"$dir/munge/munge.key"
    chmod 400 "$dir/munge/munge.key"
    munged -F --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed" 2>>"$dir/munge/munged.log" &
    MUNGED_PID=$!
    for _ in $(seq 50); do
        [ -S "$dir/munge/munge.socket" ] && break
        sleep 0.1
    done
    cat >"$dir/slurm.conf" <<EOF
ClusterName=janggun-ci
SlurmctldHost=$host
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CryptoType=crypto/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SchedulerParameters=sched_interval=1
MessageTimeout=10
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -D -f "$SLURM_CONF" 2>>"$dir/slurmctld.err" &
    SLURMCTLD_PID=$!
    slurmd -D -f "$SLURM_CONF" 2>>"$dir/slurmd.err" &
    SLURMD_PID=$!
    for _ in $(seq 100); do
        if sinfo -h -o '%t' 2>/dev/null | grep -qx 'idle'; then
            return 0
        fi
        sleep 0.2
    done
    echo "slurm_up: the node did not come up" >&2
    sinfo >&2 || true
    tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
    return 1
}

slurm_down() {
    local pid
    for pid in ${SLURMD_PID:-} ${SLURMCTLD_PID:-} ${MUNGED_PID:-}; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    SLURMD_PID='' SLURMCTLD_PID='' MUNGED_PID=''
}
