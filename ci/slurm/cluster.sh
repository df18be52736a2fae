#!/usr/bin/env bash
# Starts or stops a private one-node Slurm cluster in a folder (munge, slurmctld, slurmd on loopback).
#
#   ci/slurm/cluster.sh start DIR [PID]  # then: source DIR/env (SLURM_CONF), sbatch, squeue, ...
#   ci/slurm/cluster.sh stop DIR         # cancels its jobs, stops the daemons, ends what is left
#
# With PID, a watchdog stops the cluster when process PID ends without stopping it (a test killed
# by ctest's timeout: the daemons are not its children, and would run on).
#
# Everything lives in DIR: slurm.conf, the munge key and socket, the state, spool and log folders,
# the pid files. The ports are free ones of 127.0.0.1, so the cluster touches no system folder and
# sits beside any other (tests/cluster/slurm_array_test.sh). Needs the Debian packages slurmctld,
# slurmd, slurm-client and munge (ci/install-deps.sh) and root: slurmd runs jobs as their user.
# `start` fails (exit 1) with the reason and the daemons' logs when the cluster does not come up.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
cmd="$1"
owner="${3:-}"
if [ "$cmd" = stop ] && [ ! -d "$2" ]; then exit 0; fi
mkdir -p "$2"
dir="$(cd "$2" && pwd)"
conf="$dir/slurm.conf"
export SLURM_CONF="$conf"

fail() {
  echo "cluster.sh: cannot start a Slurm cluster in $dir: $*" >&2
  for log in "$dir"/munge/munged.log "$dir"/log/slurmctld.log "$dir"/log/slurmd.log; do
    [ -s "$log" ] && { echo "--- last lines of $log" >&2; tail -n 15 "$log" >&2; }
  done
  stop_cluster
  exit 1
}

pid_of() { [ -s "$1" ] && cat "$1" || true; }
alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

# The processes of this cluster's jobs: those whose environment has a SLURM_JOB_ID and names this
# slurm.conf (slurmd gives both to every job). Found by id: no other cluster's process is touched.
job_pids() {
  local p env
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = $$ ] && continue
    { env="$(tr '\0' '\n' <"$p/environ")"; } 2>/dev/null || continue
    grep -qxF "SLURM_CONF=$conf" <<<"$env" && grep -q '^SLURM_JOB_ID=' <<<"$env" && echo "${p#/proc/}"
  done
  return 0
}

stop_cluster() {
  local ctld slurmd munged watchdog i
  watchdog="$(pid_of "$dir/watchdog.pid")"
  [ -n "$watchdog" ] && [ "$watchdog" != "${BASHPID:-$$}" ] && kill "$watchdog" 2>/dev/null
  ctld="$(pid_of "$dir/slurmctld.pid")"
  slurmd="$(pid_of "$dir/slurmd.pid")"
  munged="$(pid_of "$dir/munge/munged.pid")"
  if alive "$ctld"; then
    scancel --quiet --full --user="$(id -un)" 2>/dev/null || true
    for i in $(seq 1 20); do
      [ -z "$(squeue --noheader 2>/dev/null)" ] && break
      sleep 0.5
    done
    scontrol shutdown 2>/dev/null || true
  fi
  for i in $(seq 1 20); do
    alive "$ctld" || alive "$slurmd" || break
    sleep 0.5
  done
  for p in $ctld $slurmd $(job_pids); do
    alive "$p" && kill -KILL "$p" 2>/dev/null
  done
  alive "$munged" && kill "$munged" 2>/dev/null
  for i in $(seq 1 10); do
    alive "$munged" || break
    sleep 0.2
  done
  alive "$munged" && kill -KILL "$munged" 2>/dev/null
  return 0
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_cluster() {
  local tool
  for tool in munged munge unmunge slurmctld slurmd sbatch squeue scancel scontrol sinfo python3; do
    command -v "$tool" >/dev/null ||
      fail "'$tool' is not installed (Debian: slurmctld slurmd slurm-client munge; ci/install-deps.sh installs them)"
  done
  [ "$(id -u)" -eq 0 ] || fail "slurmd must run as root to start jobs (this is user $(id -un))"
  [ -e "$conf" ] && fail "a cluster was started here before: stop it (stop $dir) and use a fresh folder"
  mkdir -p "$dir"/{munge,sock,state,spool,log}
  # munged wants its key private and its socket's folder open to all (execute for every user).
  chmod 700 "$dir/munge"
  chmod 755 "$dir" "$dir/sock"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$dir/munge/munge.key"
  local sock="$dir/sock/munge.socket"
  munged --key-file="$dir/munge/munge.key" --socket="$sock" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" ||
    fail "munged did not start"
  munge -S "$sock" -n | unmunge -S "$sock" >/dev/null || fail "munge cannot encode and decode a credential"

  local user cpus
  user="$(id -un)"
  cpus="$(nproc)"
  cat >"$conf" <<EOF
# A private one-node cluster of ci/slurm/cluster.sh: loopback only, every file under $dir.
ClusterName=clharness
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# No cgroups (a container may not have them): linuxproc tracks a job's processes by parentage and
# signals them all on scancel, as proctrack/cgroup does on a real cluster.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
# Jobs stay listed by scontrol for 10 minutes after they end (their state is what tests read).
MinJobAge=600
NodeName=node0 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=main Nodes=node0 Default=YES MaxTime=INFINITE State=UP
EOF
  slurmctld -f "$conf" || fail "slurmctld did not start"
  slurmd -f "$conf" -N node0 || fail "slurmd did not start"
  local i state=""
  for i in $(seq 1 60); do
    state="$(sinfo --noheader --format=%T 2>/dev/null || true)"
    [ "$state" = idle ] && break
    sleep 0.5
  done
  [ "$state" = idle ] || fail "node0 is '${state:-not listed}' after 30 s, not idle"
  echo "export SLURM_CONF=$conf" >"$dir/env"
  if [ -n "$owner" ]; then
    # Detached from this shell's output, so that a caller reading it (a $(...)) is not held.
    (
      while kill -0 "$owner" 2>/dev/null; do sleep 2; done
      stop_cluster
    ) </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/watchdog.pid"
  fi
  echo "cluster.sh: Slurm $(sinfo --version | cut -d' ' -f2) up in $dir (node0, $cpus CPU(s))"
}

case "$cmd" in
  start) start_cluster ;;
  stop) stop_cluster ;;
  *) usage ;;
esac
