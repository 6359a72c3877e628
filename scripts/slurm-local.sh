#!/usr/bin/env bash
# A one-node Slurm on this machine: enough to try `boardsat jobs DIR --run
# slurm` before a real cluster, and what the tests of the Slurm engine run
# on (scripts/test.sh calls this).
#
#   scripts/slurm-local.sh [start]   install if needed, start, wait until the node is idle
#   scripts/slurm-local.sh stop      stop the daemons this script started
#   scripts/slurm-local.sh status    say whether the node answers
#
# then, in the shell that submits:  export SLURM_CONF=/tmp/boardsat-slurm/slurm.conf
#
# What it does, with no systemd: installs Debian's slurm-wlm and munge
# when they are missing (apt-get, as root); makes a munge key if there is
# none; starts munged, slurmctld and slurmd as daemons; the cluster is one
# node, `localhost`, with this machine's cores, and everything it writes
# (slurm.conf, state, logs, pid files) is in one directory,
# $BOARDSAT_SLURM_DIR (default /tmp/boardsat-slurm). /etc/slurm is not
# touched, so clients find the cluster through SLURM_CONF. Running it
# again while the node answers changes nothing. The daemons run as root:
# this is a sandbox for one user, not a cluster set-up.
#
# Exit status: 0 when the node is up (or stopped, for `stop`); 1 when it
# cannot be started, with the reason on stderr (not root, no apt-get, a
# daemon that did not come up: its log is named).
set -euo pipefail

state=${BOARDSAT_SLURM_DIR:-/tmp/boardsat-slurm}
conf=$state/slurm.conf
export SLURM_CONF=$conf

say() { echo "slurm-local: $*" >&2; }
die() { say "$*"; exit 1; }

# Whether the node answers and takes jobs.
node_up() {
  [ -f "$conf" ] || return 1
  local states
  states=$(timeout 10 sinfo --noheader --format=%T 2>/dev/null) || return 1
  grep -qE '^(idle|mixed|allocated|completing)' <<<"$states"
}

# Waits up to $1 seconds for `$2` (a command) to succeed.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.5
  done
}

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
  for daemon in slurmd slurmctld; do
    if pid_alive "$state/$daemon.pid"; then
      kill "$(cat "$state/$daemon.pid")" || true
      say "stopped $daemon"
    fi
  done
  if pid_alive "$state/munged.pid"; then
    kill "$(cat "$state/munged.pid")" || true
    say "stopped munged"
  fi
}

install() {
  local missing=()
  for binary in munged slurmctld slurmd sbatch; do
    command -v "$binary" >/dev/null 2>&1 || missing+=("$binary")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 ||
    die "missing ${missing[*]}, and no apt-get to install slurm-wlm and munge"
  say "installing slurm-wlm and munge (missing: ${missing[*]})"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
}

start_munge() {
  if timeout 5 munge -n 2>/dev/null | timeout 5 unmunge >/dev/null 2>&1; then
    return 0
  fi
  local key=/etc/munge/munge.key
  if [ ! -s "$key" ]; then
    say "making a munge key in $key"
    mkdir -p /etc/munge
    dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
  fi
  chown munge:munge /etc/munge "$key" 2>/dev/null || true
  chmod 700 /etc/munge
  chmod 400 "$key"
  mkdir -p /run/munge /var/lib/munge /var/log/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge 2>/dev/null || true
  # munged as its own user, as Debian's service runs it.
  if id munge >/dev/null 2>&1; then
    runuser -u munge -- munged --pid-file=/run/munge/munged.pid
  else
    munged --force --pid-file=/run/munge/munged.pid
  fi
  cp /run/munge/munged.pid "$state/munged.pid" 2>/dev/null || true
  wait_for 10 sh -c 'munge -n | unmunge >/dev/null 2>&1' ||
    die "munged did not start (see /var/log/munge/munged.log)"
  say "started munged"
}

write_conf() {
  local cpus
  cpus=$(nproc)
  mkdir -p "$state/ctld" "$state/d"
  cat >"$conf.new" <<EOF
# One node, this machine, for trying boardsat's Slurm engine
# (scripts/slurm-local.sh writes this file; edits are overwritten).
ClusterName=boardsat
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# Start the next task as soon as one ends: the default main scheduling
# interval (2 s) would leave the cores idle between short tasks.
SchedulerParameters=sched_min_interval=100000,batch_sched_delay=0
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=300
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.new" "$conf"
}

start() {
  if node_up; then
    say "the node answers ($conf); nothing to do"
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "needs root to install and start the daemons (they run as root here)"
  install
  mkdir -p "$state"
  start_munge
  write_conf
  if ! pid_alive "$state/slurmctld.pid"; then
    slurmctld -f "$conf"
    say "started slurmctld"
  fi
  wait_for 20 sh -c 'scontrol ping 2>/dev/null | grep -q UP' ||
    die "slurmctld does not answer (see $state/slurmctld.log)"
  if ! pid_alive "$state/slurmd.pid"; then
    slurmd -f "$conf" -N localhost
    say "started slurmd"
  fi
  # A node left down by an earlier run is brought back.
  scontrol update nodename=localhost state=resume >/dev/null 2>&1 || true
  wait_for 30 node_up || die "the node did not become idle (see $state/slurmd.log and $state/slurmctld.log)"
  say "the node is up: $(sinfo --noheader --format='%P %D node, %c CPUs, %T')"
  echo "export SLURM_CONF=$conf"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status)
    if node_up; then
      say "the node answers ($conf)"
    else
      say "no node answers ($conf)"
      exit 1
    fi
    ;;
  *) die "usage: $0 [start|stop|status]" ;;
esac
