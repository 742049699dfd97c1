# tests/slurm/cluster.sh -- a one-node Slurm cluster for tests (POSIX sh, sourced).
#
#   . tests/slurm/cluster.sh
#   trap 'slurm_cluster_stop "$dir"' EXIT INT TERM HUP
#   slurm_cluster_start "$dir" [CPUS] || exit $?   # 77: skipped (reason on stderr)
#   srun -n 2 ./prog ...                             # SLURM_CONF is exported
#
# slurm_cluster_start DIR [CPUS]: as root, writes DIR/slurm.conf (one node,
# this machine, named after `hostname -s`; ProctrackType=proctrack/linuxproc,
# TaskPlugin=task/affinity, SelectType=select/cons_tres with CR_Core, no
# cgroups, no accounting), DIR/plugstack.conf (naming the plugin in
# $OMP_EXT_SPANK, "required", with the words of $OMP_EXT_SPANK_ARGS, when
# OMP_EXT_SPANK is set; empty otherwise), starts munged (its own key and
# socket under DIR/munge), slurmctld and slurmd (state, spool, logs and pid
# files under DIR), waits until sinfo shows the node idle, and exports
# SLURM_CONF=DIR/slurm.conf and SLURM_CLUSTER_NODE (the node's name, for
# -w).  The node is what `slurmd -C` sees; CPUS declares that many CPUs
# instead (SlurmdParameters=config_overrides).  More than the machine has
# lets a job ask for more tasks than CPUs, but Slurm's own task layout then
# fails ("Unable to layout tasks on given cpus") unless the step has
# --cpu-bind=none (checked: CPUS=4 on 2 CPUs, srun -n 4); prefer the
# default node with srun --overcommit.  The ports are free
# ones found from a hash of DIR, so clusters in different folders run side by
# side.  Returns 0; 77 with one line on stderr when not root or Slurm or
# munge is not installed, or the machine lacks what the daemons need (an
# IPv4 address besides 127.0.0.1, a host name that resolves) (a test's
# skip); 1 with the daemons' log tails on
# stderr when a daemon did not come up (then everything started is stopped).
# The folders above DIR must be searchable by all (munged checks its
# socket's path): `mktemp -d` makes 0700 folders, so chmod 755 a parent
# made that way (DIR itself is chmod'ed by the harness).
# A watchdog stops the daemons when the shell that started them is gone
# (killed by ctest's timeout, where no trap runs).
#
# slurm_cluster_stop DIR: cancels the cluster's jobs, stops slurmd, the
# cluster's slurmstepd processes, slurmctld and munged by their pid files
# (TERM, then KILL after 10 s) and the watchdog; idempotent, for traps.
# DIR is kept (its logs); the caller removes it.

# The pid of a running process named $2 (its /proc comm) from pid file $1.
slurm_cluster_pid_()
{
  [ -f "$1" ] || return 1
  _p=$(cat "$1" 2>/dev/null) || return 1
  case $_p in '' | *[!0-9]*) return 1 ;; esac
  [ "$(cat "/proc/$_p/comm" 2>/dev/null)" = "$2" ] || return 1
  echo "$_p"
}

# Whether TCP port $1 is in use (listening or connected) on this machine.
slurm_cluster_port_busy_()
{
  _hex=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
    awk -v h=":$_hex" '{ if (substr($2, length($2) - 4) == h) found = 1 } END { exit !found }'
}

# Two free consecutive ports from a hash of DIR, in 20000..39998.
slurm_cluster_ports_()
{
  _h=$(printf '%s' "$1" | cksum | cut -d' ' -f1)
  _port=$((20000 + (_h % 10000) * 2))
  _try=0
  while [ $_try -lt 200 ]; do
    if ! slurm_cluster_port_busy_ "$_port" && ! slurm_cluster_port_busy_ $((_port + 1)); then
      echo "$_port"
      return 0
    fi
    _port=$((_port + 2))
    [ $_port -ge 40000 ] && _port=20000
    _try=$((_try + 1))
  done
  return 1
}

# The node line: `slurmd -C`'s (no memory: any is accepted), or CPUS=$2.
slurm_cluster_node_line_()
{
  if [ -n "$2" ]; then
    echo "NodeName=$1 NodeAddr=127.0.0.1 CPUs=$2 State=UNKNOWN"
    return
  fi
  slurmd -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* \(.*\)/\1/p' |
    sed 's/ RealMemory=[0-9]*//' | sed "s/^/NodeName=$1 NodeAddr=127.0.0.1 /; s/$/ State=UNKNOWN/"
}

slurm_cluster_write_conf_()
{
  _d=$1 _node=$2 _port=$3 _cpus=$4
  _name=omp$(printf '%s' "$_d" | cksum | cut -d' ' -f1)
  {
    echo "# written by tests/slurm/cluster.sh for a test; removed with $_d"
    echo "ClusterName=$_name"
    echo "SlurmctldHost=$_node(127.0.0.1)"
    echo "SlurmctldPort=$_port"
    echo "SlurmdPort=$((_port + 1))"
    echo "SlurmUser=root"
    echo "SlurmdUser=root"
    echo "AuthType=auth/munge"
    echo "CredType=cred/munge"
    echo "AuthInfo=socket=$_d/munge/munge.sock"
    echo "StateSaveLocation=$_d/state"
    echo "SlurmdSpoolDir=$_d/spool"
    echo "SlurmctldPidFile=$_d/slurmctld.pid"
    echo "SlurmdPidFile=$_d/slurmd.pid"
    echo "SlurmctldLogFile=$_d/log/slurmctld.log"
    echo "SlurmdLogFile=$_d/log/slurmd.log"
    echo "SlurmctldDebug=info"
    echo "SlurmdDebug=info"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/affinity"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_Core"
    echo "SchedulerType=sched/builtin"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "AccountingStorageType=accounting_storage/none"
    echo "JobCompType=jobcomp/none"
    echo "MpiDefault=none"
    echo "MailProg=/bin/true"
    echo "ReturnToService=2"
    echo "KillWait=2"
    echo "InactiveLimit=0"
    echo "PlugStackConfig=$_d/plugstack.conf"
    [ -n "$_cpus" ] && echo "SlurmdParameters=config_overrides"
    slurm_cluster_node_line_ "$_node" "$_cpus"
    echo "PartitionName=test Nodes=$_node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO"
  } >"$_d/slurm.conf"
  # slurmd 22.05 loads a cgroup plugin even with proctrack/linuxproc; on a
  # cgroup v2 machine without systemd's D-Bus (a container, the SMT guests)
  # its scope must be made without systemd.  Read beside slurm.conf.
  echo "IgnoreSystemd=yes" >"$_d/cgroup.conf"
  if [ -n "${OMP_EXT_SPANK:-}" ]; then
    echo "required $OMP_EXT_SPANK ${OMP_EXT_SPANK_ARGS:-}" >"$_d/plugstack.conf"
  else
    : >"$_d/plugstack.conf"
  fi
}

slurm_cluster_tails_()
{
  for _f in "$1"/log/*.log "$1"/munge/munged.log; do
    [ -f "$_f" ] || continue
    echo "--- $_f" >&2
    tail -n 15 "$_f" >&2
  done
}

# munged wants every folder above its socket searchable by all.
slurm_cluster_searchable_()
{
  _up=$(dirname "$1")
  while [ "$_up" != / ]; do
    if [ "$(find "$_up" -maxdepth 0 -perm -o+x 2>/dev/null)" != "$_up" ]; then
      echo "slurm cluster: $_up is not searchable by all (munged needs it): chmod o+x $_up" >&2
      return 1
    fi
    _up=$(dirname "$_up")
  done
}

slurm_cluster_munge_()
{
  _d=$1
  slurm_cluster_searchable_ "$_d" || return 1
  mkdir -p "$_d/munge" && chmod 755 "$_d" "$_d/munge" || return 1
  dd if=/dev/urandom of="$_d/munge/munge.key" bs=1024 count=1 2>/dev/null || return 1
  chmod 400 "$_d/munge/munge.key"
  munged --socket="$_d/munge/munge.sock" --key-file="$_d/munge/munge.key" \
    --pid-file="$_d/munge/munged.pid" --log-file="$_d/munge/munged.log" \
    --seed-file="$_d/munge/munged.seed" </dev/null >"$_d/log/munged.out" 2>&1 || return 1
  _i=0
  while [ $_i -lt 50 ]; do
    [ -S "$_d/munge/munge.sock" ] && slurm_cluster_pid_ "$_d/munge/munged.pid" munged >/dev/null &&
      return 0
    sleep 0.2
    _i=$((_i + 1))
  done
  return 1
}

# Wait up to $2 tenths of a second for command $3... to succeed.
slurm_cluster_wait_()
{
  _n=$1
  shift
  while [ "$_n" -gt 0 ]; do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
    _n=$((_n - 1))
  done
  return 1
}

slurm_cluster_node_idle_()
{
  [ "$(sinfo -h -n "$SLURM_CLUSTER_NODE" -o %t 2>/dev/null)" = idle ]
}

slurm_cluster_ctld_up_()
{
  scontrol ping 2>/dev/null | grep -q 'is UP'
}

# Stop the cluster in DIR when the shell $2 is gone (double-forked: not a
# child of the test, which ctest may kill with its children).
slurm_cluster_watchdog_()
{
  (
    (
      trap '' HUP INT
      while kill -0 "$2" 2>/dev/null && [ -f "$1/watchdog.pid" ]; do
        sleep 1
      done
      if [ -f "$1/watchdog.pid" ]; then
        rm -f "$1/watchdog.pid"
        slurm_cluster_stop "$1"
      fi
    ) </dev/null >/dev/null 2>&1 &
    echo $! >"$1/watchdog.pid"
  )
}

slurm_cluster_start()
{
  _dir=${1:?slurm_cluster_start: DIR missing}
  _cpus=${2:-}
  if [ "$(id -u)" != 0 ]; then
    echo "slurm cluster: not root (slurmd and munged run as root)" >&2
    return 77
  fi
  for _c in munged slurmctld slurmd srun sinfo scontrol squeue scancel; do
    if ! command -v "$_c" >/dev/null 2>&1; then
      echo "slurm cluster: $_c not found (Debian: apt-get install slurm-wlm munge, or sh cmake/install-deps.sh --dev)" >&2
      return 77
    fi
  done
  case $_dir in /*) ;; *) _dir=$(cd "$_dir" && pwd) || return 1 ;; esac
  mkdir -p "$_dir/state" "$_dir/spool" "$_dir/log" || return 1
  SLURM_CLUSTER_NODE=$(hostname -s 2>/dev/null || hostname)
  case $SLURM_CLUSTER_NODE in '' | *[!A-Za-z0-9_.-]*) SLURM_CLUSTER_NODE=localhost ;; esac
  # What the daemons need of the machine (a bare container or the SMT
  # guests lack them): glibc's getaddrinfo(AI_ADDRCONFIG) finds nothing with
  # 127.0.0.1 as the only IPv4 address, and the host name must resolve.
  if command -v ip >/dev/null 2>&1 &&
    [ -z "$(ip -4 -o addr show 2>/dev/null | awk '{ split($4, a, "/"); if (a[1] != "127.0.0.1") print a[1] }')" ]; then
    echo "slurm cluster: no IPv4 address besides 127.0.0.1 (slurmctld's getaddrinfo needs one; e.g. ip addr add 127.0.0.2/32 dev lo)" >&2
    return 77
  fi
  if ! getent hosts "$(hostname)" >/dev/null 2>&1; then
    echo "slurm cluster: the host name $(hostname) does not resolve (add it to /etc/hosts)" >&2
    return 77
  fi
  export SLURM_CLUSTER_NODE
  SLURM_CONF=$_dir/slurm.conf
  export SLURM_CONF
  slurm_cluster_watchdog_ "$_dir" $$
  if ! slurm_cluster_munge_ "$_dir"; then
    echo "slurm cluster: munged did not start" >&2
    slurm_cluster_tails_ "$_dir"
    slurm_cluster_stop "$_dir"
    return 1
  fi
  _attempt=0
  while :; do
    _port=$(slurm_cluster_ports_ "$_dir$_attempt") || {
      echo "slurm cluster: no free TCP port pair in 20000-39999" >&2
      slurm_cluster_stop "$_dir"
      return 1
    }
    slurm_cluster_write_conf_ "$_dir" "$SLURM_CLUSTER_NODE" "$_port" "$_cpus"
    slurmctld -i </dev/null >"$_dir/log/slurmctld.out" 2>&1
    if slurm_cluster_wait_ 150 slurm_cluster_ctld_up_; then
      break
    fi
    # Another cluster may have taken the port in between: another pair.
    _attempt=$((_attempt + 1))
    if [ $_attempt -ge 3 ] || ! grep -q 'Address already in use' "$_dir/log/slurmctld.log" 2>/dev/null; then
      echo "slurm cluster: slurmctld did not come up (port $_port)" >&2
      slurm_cluster_tails_ "$_dir"
      slurm_cluster_stop "$_dir"
      return 1
    fi
    _p=$(slurm_cluster_pid_ "$_dir/slurmctld.pid" slurmctld) && kill "$_p" 2>/dev/null
    sleep 1
  done
  slurmd -N "$SLURM_CLUSTER_NODE" </dev/null >"$_dir/log/slurmd.out" 2>&1
  if ! slurm_cluster_wait_ 300 slurm_cluster_node_idle_; then
    echo "slurm cluster: node $SLURM_CLUSTER_NODE not idle after 30 s ($(sinfo -h -o '%t %E' 2>&1))" >&2
    slurm_cluster_tails_ "$_dir"
    slurm_cluster_stop "$_dir"
    return 1
  fi
  return 0
}

# TERM the process of pid file $1 named $2; KILL it after 10 s.
slurm_cluster_kill_()
{
  _p=$(slurm_cluster_pid_ "$1" "$2") || { rm -f "$1"; return 0; }
  kill "$_p" 2>/dev/null
  _i=0
  while [ $_i -lt 100 ] && [ -d "/proc/$_p" ] && [ "$(cat "/proc/$_p/comm" 2>/dev/null)" = "$2" ]; do
    sleep 0.1
    _i=$((_i + 1))
  done
  [ -d "/proc/$_p" ] && [ "$(cat "/proc/$_p/comm" 2>/dev/null)" = "$2" ] && kill -9 "$_p" 2>/dev/null
  rm -f "$1"
  return 0
}

# This cluster's slurmstepd processes: their environment names its slurm.conf.
slurm_cluster_stepds_()
{
  for _s in /proc/[0-9]*; do
    [ "$(cat "$_s/comm" 2>/dev/null)" = slurmstepd ] || continue
    { tr '\0' '\n' <"$_s/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$1/slurm.conf" &&
      echo "${_s#/proc/}"
  done
}

slurm_cluster_stop()
{
  _dir=${1:?slurm_cluster_stop: DIR missing}
  case $_dir in /*) ;; *) _dir=$(cd "$_dir" 2>/dev/null && pwd) || return 0 ;; esac
  [ -d "$_dir" ] || return 0
  if [ -f "$_dir/watchdog.pid" ]; then
    _w=$(cat "$_dir/watchdog.pid" 2>/dev/null)
    rm -f "$_dir/watchdog.pid"
    case $_w in '' | *[!0-9]*) ;; *) kill "$_w" 2>/dev/null ;; esac
  fi
  if slurm_cluster_pid_ "$_dir/slurmctld.pid" slurmctld >/dev/null; then
    _jobs=$(SLURM_CONF=$_dir/slurm.conf timeout 10 squeue -h -o %A 2>/dev/null)
    # shellcheck disable=SC2086
    [ -n "$_jobs" ] && SLURM_CONF=$_dir/slurm.conf timeout 10 scancel $_jobs 2>/dev/null
  fi
  slurm_cluster_kill_ "$_dir/slurmd.pid" slurmd
  for _s in $(slurm_cluster_stepds_ "$_dir"); do
    kill "$_s" 2>/dev/null
  done
  sleep 0.2
  for _s in $(slurm_cluster_stepds_ "$_dir"); do
    kill -9 "$_s" 2>/dev/null
  done
  slurm_cluster_kill_ "$_dir/slurmctld.pid" slurmctld
  slurm_cluster_kill_ "$_dir/munge/munged.pid" munged
  return 0
}
