#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for trying `janggi-zero cluster` and for the
# integration test (tests/cluster/slurm_integration.sh). Root only; Debian packages slurm-wlm, munge.
#
#   scripts/slurm-local.sh install   # apt-get install slurm-wlm munge (if missing)
#   scripts/slurm-local.sh start     # munged + slurmctld + slurmd; prints the SLURM_CONF to export
#   scripts/slurm-local.sh stop      # stops what start started (pid files), keeps the state dir
#   scripts/slurm-local.sh purge     # stop, then remove the state dir
#
# JZ_SLURM_DIR (default /tmp/slurm-local) holds config, state, logs and pid files; JZ_SLURM_PORT
# (default 6817; slurmd uses the next port) lets a second cluster run beside a real one.
# The partition oversubscribes cores (OverSubscribe=FORCE:4): on a 2-core machine two 1-CPU workers
# and a trainer must all run at once.
set -euo pipefail
B=${JZ_SLURM_DIR:-/tmp/slurm-local}
PORT=${JZ_SLURM_PORT:-6817}
CONF=$B/etc/slurm.conf
die() { echo "slurm-local: $*" >&2; exit 1; }
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

install() {
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null && return 0
  command -v apt-get >/dev/null || die "apt-get not available: install slurm-wlm and munge by hand"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1 || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge
  }
}

start_munge() {
  # munge authenticates Slurm's messages. A running munged (ours or the system's) is reused.
  if [ -S /run/munge/munge.socket.2 ] && munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then return 0; fi
  mkdir -p /run/munge /var/lib/munge /var/log/munge /etc/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge /etc/munge
  if [ ! -s /etc/munge/munge.key ]; then
    if [ -x /usr/sbin/mungekey ]; then /usr/sbin/mungekey --create --keyfile=/etc/munge/munge.key --force >/dev/null
    else create-munge-key -f >/dev/null; fi
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  runuser -u munge -- /usr/sbin/munged  # refuses to run as root
  for _ in $(seq 50); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
  cp /run/munge/munged.pid "$B/run/munged.ours"  # stop ends munged only if we started it
  munge -n </dev/null | unmunge >/dev/null || die "munge does not work (see /var/log/munge/munged.log)"
}

write_conf() {
  local node
  node=$(slurmd -C | head -1)  # NodeName=... CPUs=... as this machine really is
  [ -n "$node" ] || die "slurmd -C printed nothing"
  cat > "$CONF" <<CONF
ClusterName=jzlocal
SlurmctldHost=$(hostname -s)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
KillWait=20
MinJobAge=30
StateSaveLocation=$B/spool/ctld
SlurmdSpoolDir=$B/spool/d
SlurmctldPidFile=$B/run/slurmctld.pid
SlurmdPidFile=$B/run/slurmd.pid
SlurmctldLogFile=$B/log/slurmctld.log
SlurmdLogFile=$B/log/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
$node State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
}

start() {
  [ "$(id -u)" -eq 0 ] || die "must run as root"
  command -v slurmctld >/dev/null || die "Slurm is not installed (run: $0 install)"
  mkdir -p "$B/spool/ctld" "$B/spool/d" "$B/run" "$B/log" "$B/etc"
  export SLURM_CONF=$CONF
  if alive "$B/run/slurmctld.pid" && alive "$B/run/slurmd.pid"; then
    echo "export SLURM_CONF=$CONF"
    return 0
  fi
  stop_daemons
  # A fresh state each start: stale node state (e.g. 'inval' after a config change) survives restarts.
  rm -rf "$B/spool/ctld"/* "$B/spool/d"/*
  start_munge
  write_conf
  slurmctld -D -f "$CONF" > "$B/log/slurmctld.out" 2>&1 &
  echo $! > "$B/run/slurmctld.pid"
  slurmd -D -f "$CONF" > "$B/log/slurmd.out" 2>&1 &
  echo $! > "$B/run/slurmd.pid"
  local state=""
  for _ in $(seq 120); do
    state=$(sinfo -h -o %T 2>/dev/null | head -1 || true)
    case $state in idle*|mix*|alloc*) echo "export SLURM_CONF=$CONF"; return 0 ;; esac
    alive "$B/run/slurmctld.pid" || die "slurmctld exited: $(tail -3 "$B/log/slurmctld.out" "$B/log/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
    alive "$B/run/slurmd.pid" || die "slurmd exited: $(tail -3 "$B/log/slurmd.out" "$B/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
    sleep 0.5
  done
  die "node not idle after 60 s (state '$state'; logs in $B/log)"
}

stop_pid() {  # stop_pid PIDFILE: TERM, then KILL after 10 s
  local f=$1 pid
  alive "$f" || { rm -f "$f"; return 0; }
  pid=$(cat "$f")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$f"
}

stop_daemons() {
  [ -d "$B/run" ] || return 0
  stop_pid "$B/run/slurmd.pid"
  stop_pid "$B/run/slurmctld.pid"
  if [ -s "$B/run/munged.ours" ]; then
    # Only the munged this script started, and only while it still is that process.
    if [ "$(cat /run/munge/munged.pid 2>/dev/null)" = "$(cat "$B/run/munged.ours")" ]; then stop_pid "$B/run/munged.ours"; fi
    rm -f "$B/run/munged.ours"
  fi
}

case ${1:-} in
  install) install ;;
  start) start ;;
  stop) stop_daemons ;;
  purge) stop_daemons; rm -rf "$B" ;;
  *) echo "usage: $0 install|start|stop|purge" >&2; exit 2 ;;
esac
