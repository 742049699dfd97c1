#!/bin/sh
# Install omp_ext's build and test dependencies from Debian, if missing.
# Usage: sh cmake/install-deps.sh   (as root, or with sudo available)
set -eu
PACKAGES="cmake make gcc clang pkg-config libhwloc-dev hwloc libomp-dev libcunit1-dev util-linux openmpi-bin libopenmpi-dev gfortran valgrind libclang-rt-14-dev gnuplot-nox man-db"

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
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
