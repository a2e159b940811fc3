# shellcheck shell=bash
# A library, sourced, never run: no `set` of its own; it runs under its
# callers' `set -euo pipefail`.
# Two "hosts" on this machine for the cluster scripts' checks: sshd on
# 127.0.0.1 (a free port, nothing else), two local users reached through
# it as two hosts, and a third host whose port nothing listens on (a dead
# host). Sourced by scripts/ci/cluster_check.sh; needs root (useradd, an
# sshd that switches users).
#
#   loopback_up DIR    users, keys, sshd, DIR/ssh_config and DIR/hosts
#                      (an sshloginfile: jg-a, jg-b, jg-dead, one job each);
#                      sets SSHD_PID and exports PARALLEL_SSH
#   loopback_down      stops that sshd by its pid and removes the users
#
# Only 127.0.0.1 is ever named: nothing leaves the machine.

LOOPBACK_USERS=(jgun-a jgun-b)

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

loopback_up() {
    local dir=$1
    mkdir -p "$dir"
    rm -f "$dir/id" "$dir/id.pub" "$dir/hostkey" "$dir/hostkey.pub"
    ssh-keygen -q -t ed25519 -N '' -f "$dir/id"
    ssh-keygen -q -t ed25519 -N '' -f "$dir/hostkey"
    local u
    for u in "${LOOPBACK_USERS[@]}"; do
        id "$u" >/dev/null 2>&1 || useradd -m -s /bin/bash "$u"
        # No password, but not locked: sshd without PAM refuses a locked
        # account even with a key.
        usermod -p "*" "$u"
        install -d -m 700 -o "$u" -g "$u" "/home/$u/.ssh"
        install -m 600 -o "$u" -g "$u" "$dir/id.pub" "/home/$u/.ssh/authorized_keys"
    done
    local port dead
    port=$(free_port)
    dead=$(free_port)
    while [ "$dead" = "$port" ]; do dead=$(free_port); done
    cat >"$dir/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/hostkey
PidFile $dir/sshd.pid
AuthorizedKeysFile .ssh/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
AllowUsers ${LOOPBACK_USERS[*]}
MaxStartups 50
MaxSessions 50
Subsystem sftp internal-sftp
EOF
    mkdir -p /run/sshd
    /usr/sbin/sshd -D -f "$dir/sshd_config" -E "$dir/sshd.log" &
    SSHD_PID=$!
    cat >"$dir/ssh_config" <<EOF
Host jg-a
    HostName 127.0.0.1
    Port $port
    User ${LOOPBACK_USERS[0]}
Host jg-b
    HostName 127.0.0.1
    Port $port
    User ${LOOPBACK_USERS[1]}
Host jg-dead
    HostName 127.0.0.1
    Port $dead
    User ${LOOPBACK_USERS[0]}
Host *
    IdentityFile $dir/id
    IdentitiesOnly yes
    BatchMode yes
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null
    LogLevel ERROR
    ConnectTimeout 5
EOF
    printf '1/jg-a\n1/jg-b\n1/jg-dead\n' >"$dir/hosts"
    export PARALLEL_SSH="ssh -F $dir/ssh_config"
    for _ in $(seq 50); do
        $PARALLEL_SSH jg-a true 2>/dev/null && $PARALLEL_SSH jg-b true 2>/dev/null && return 0
        sleep 0.1
    done
    echo "loopback_up: sshd on 127.0.0.1:$port does not answer" >&2
    cat "$dir/sshd.log" >&2
    return 1
}

loopback_down() {
    if [ -n "${SSHD_PID:-}" ]; then
        kill "$SSHD_PID" 2>/dev/null || true
        wait "$SSHD_PID" 2>/dev/null || true
        SSHD_PID=
    fi
    local u
    for u in "${LOOPBACK_USERS[@]}"; do
        if id "$u" >/dev/null 2>&1; then
            # The users exist only for these checks: whatever the checks
            # left running as one of them (an ssh session closing) ends,
            # each by its pid, before the user goes.
            local pid
            for pid in $(pgrep -u "$u" || true); do
                kill "$pid" 2>/dev/null || true
            done
            userdel -r "$u" 2>/dev/null || true
        fi
    done
}
