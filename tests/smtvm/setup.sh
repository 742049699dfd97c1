#!/bin/sh
# Set up the SMT guest world of tests/smtvm (see README.md there): install
# QEMU, busybox and cpio from Debian if missing, extract (never install) the
# kernel of Debian's linux-image-amd64, cut the uncompressed vmlinux out of
# its vmlinuz, and build a small initramfs (busybox, tests/smtvm/init, the
# virtio/9p/overlay modules).  Everything goes to a cache folder outside the
# source tree and is reused when present.
# Usage: sh tests/smtvm/setup.sh [CACHE]
#   CACHE defaults to $OMP_EXT_SMTVM_CACHE, else /var/cache/omp_ext-smtvm.
# Exit 0: the cache is ready; exit 1 with a one-line reason otherwise.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${OMP_EXT_SMTVM_CACHE:-/var/cache/omp_ext-smtvm}}
fail() { echo "smtvm setup: $*" >&2; exit 1; }

PACKAGES="qemu-system-x86 busybox-static cpio"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  [ "$(id -u)" = 0 ] || fail "need root to run: apt-get install$missing"
  echo "smtvm setup: installing:$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || fail "apt-get update failed"
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
    fail "apt-get install$missing failed"
fi

mkdir -p "$cache" || fail "cannot create $cache"
# The initramfs is rebuilt when init changed (its checksum is in the name).
sum=$(cksum <"$here/init" | cut -d' ' -f1)
if [ -s "$cache/vmlinux" ] && [ -s "$cache/initrd-$sum.cpio.gz" ]; then
  ln -sf "initrd-$sum.cpio.gz" "$cache/initrd.cpio.gz"
  exit 0
fi

work=$(mktemp -d "$cache/work.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ ! -s "$cache/vmlinux" ] || [ ! -d "$cache/modules" ]; then
  # The kernel package that linux-image-amd64 depends on.
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[0-9].*\)/\1/p' | head -n 1)
  [ -n "$pkg" ] || fail "apt-cache knows no linux-image-amd64 (run apt-get update)"
  (cd "$work" && apt-get download "$pkg" >/dev/null 2>&1) ||
    fail "apt-get download $pkg failed"
  mkdir "$work/x"
  dpkg-deb --fsys-tarfile "$work"/*.deb | (cd "$work/x" && tar -x --wildcards \
    './boot/vmlinuz-*' './lib/modules/*/kernel/drivers/virtio/*' \
    './lib/modules/*/kernel/drivers/char/virtio_console.ko' \
    './lib/modules/*/kernel/fs/9p/*' './lib/modules/*/kernel/fs/netfs/*' \
    './lib/modules/*/kernel/fs/fscache/*' './lib/modules/*/kernel/fs/overlayfs/*' \
    './lib/modules/*/kernel/net/9p/*') || fail "cannot extract $pkg"
  vmlinuz=$(ls "$work"/x/boot/vmlinuz-* | head -n 1)
  # Cut the uncompressed ELF out of the bzImage (as Linux's
  # scripts/extract-vmlinux does): try each compressed stream's start.
  for fmt in "xz:fd377a585a00" "zstd:28b52ffd" "gzip:1f8b08" "lz4:02214c18"; do
    tool=${fmt%%:*}; magic=${fmt#*:}
    for off in $(od -An -v -tx1 "$vmlinuz" | tr -d ' \n' | grep -ob "$magic" | cut -d: -f1); do
      [ $((off % 2)) = 0 ] || continue
      tail -c +$((off / 2 + 1)) "$vmlinuz" | $tool -dc >"$work/vmlinux" 2>/dev/null || true
      if [ "$(head -c 4 "$work/vmlinux" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
        break 2
      fi
    done
  done
  if [ "$(head -c 4 "$work/vmlinux" 2>/dev/null | od -An -tx1 | tr -d ' ')" != 7f454c46 ]; then
    cp "$vmlinuz" "$work/vmlinux"   # QEMU boots the bzImage too, a few s slower
  fi
  rm -rf "$cache/modules"
  mkdir "$cache/modules"
  find "$work/x/lib/modules" -name '*.ko' -exec cp {} "$cache/modules/" \;
  mv "$work/vmlinux" "$cache/vmlinux"
fi

# initramfs: busybox + init + modules.
r="$work/root"
mkdir -p "$r/bin" "$r/modules" "$r/dev" "$r/proc" "$r/sys" "$r/host" "$r/ctl" "$r/lower" \
  "$r/upper" "$r/merged"
cp /bin/busybox "$r/bin/busybox"
ln -s busybox "$r/bin/sh"
cp "$cache"/modules/*.ko "$r/modules/"
cp "$here/init" "$r/init"
chmod +x "$r/init"
(cd "$r" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.cpio.gz" ||
  fail "cannot build the initramfs"
rm -f "$cache"/initrd-*.cpio.gz
mv "$work/initrd.cpio.gz" "$cache/initrd-$sum.cpio.gz"
ln -sf "initrd-$sum.cpio.gz" "$cache/initrd.cpio.gz"
