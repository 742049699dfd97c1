#!/bin/sh
# Install omp_ext's dependencies from Debian, if missing.
# Usage: sh cmake/install-deps.sh [--dev] [--list]   (as root, or with sudo)
#   (default)  the run-time set: what building and running htplaces and the
#              library needs (hwloc, gcc with its OpenMP runtime libgomp,
#              cmake, make, pkg-config, binutils: addr2line names the
#              regions htplaces tune times by file:line or function;
#              libcjson-dev: tune reads the timing files through cJSON).
#   --dev      everything the tests need as well (tests/run.sh, .ci/run):
#              clang + libomp, CUnit, Open MPI, gfortran, valgrind, gnuplot,
#              lmod, bash-completion, dpkg-dev (dpkg-shlibdeps for the .deb),
#              man-db (man, groff), pmccabe (the functions' lengths,
#              test_source_shape), python3-numpy and libopenblas0-openmp (a real
#              third-party OpenMP program for the timing layer), and a
#              one-node Slurm (slurm-wlm: slurmctld, slurmd, srun; munge;
#              libslurm-dev for the SPANK plugin's slurm/spank.h) for the
#              plugin and its cluster test (tests/slurm).
#   --list     print the packages of the set, one a line; install nothing.
set -eu
RUNTIME="cmake make gcc libc6-dev libgomp1 pkg-config libhwloc-dev hwloc binutils libcjson-dev"
DEV="clang libomp-dev libcunit1-dev util-linux openmpi-bin libopenmpi-dev gfortran valgrind
  libclang-rt-14-dev gnuplot-nox lmod bash-completion dpkg-dev man-db groff-base pmccabe
  python3-numpy libopenblas0-openmp slurm-wlm munge libslurm-dev"

PACKAGES=$RUNTIME list=0
for arg in "$@"; do
  case $arg in
    --dev) PACKAGES="$RUNTIME $DEV" ;;
    --list) list=1 ;;
    -h|--help) sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "install-deps.sh: unknown option '$arg'; allowed: --dev, --list" >&2; exit 2 ;;
  esac
done
if [ "$list" = 1 ]; then
  # shellcheck disable=SC2086
  printf '%s\n' $PACKAGES
  exit 0
fi

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "omp_ext: installing:$missing" >&2
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "omp_ext: need root to run: apt-get install$missing" >&2
  exit 1
fi
# Wait for another apt/dpkg run (unattended upgrades) rather than fail.
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null
