#!/bin/sh
# test_smtvm_fallback: run-in-guest with a fake QEMU (tests/smtvm/fake-qemu)
# in PATH.  When the guest does not boot with KVM -- QEMU refuses it, or it
# never boots -- run-in-guest starts it once more under TCG, says so on
# stderr, and returns the command's output and status; forced TCG never
# tries KVM; a TCG that fails too is a skip (77), never a pass.
# Usage: test_fallback.sh SRCDIR
set -u
src=$1
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
mkdir "$t/bin" "$t/cache"
cp "$src/tests/smtvm/fake-qemu" "$t/bin/qemu-system-x86_64"
echo kernel >"$t/cache/vmlinux"
echo initrd >"$t/cache/initrd.cpio.gz"
pass=0 fail=0
check() { # NAME CONDITION...
  name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; cat "$t/err"; fi
}
run() { # KVM-MODE ACCEL COMMAND...
  mode=$1 acc=$2; shift 2
  # A refusing QEMU must be seen as refused, not as slow: 30 s to boot;
  # a hanging one is given up after 1 s.
  boot=30; [ "$mode" = hang ] && boot=1
  : >"$t/log"
  PATH="$t/bin:$PATH" OMP_EXT_SMTVM_CACHE="$t/cache" OMP_EXT_SMTVM_ACCEL=$acc \
    OMP_EXT_SMTVM_KVM_BOOT=$boot FAKE_QEMU_KVM=$mode FAKE_QEMU_LOG="$t/log" \
    "$src/tests/smtvm/run-in-guest" smt4 --timeout 60 -- "$@" >"$t/out" 2>"$t/err"
  rc=$?
}
has() { grep -qF -- "$1" "$2"; }
tries() { [ "$(tr '\n' ' ' <"$t/log")" = "$1" ]; }

# KVM refused: once more under TCG, said; the command's output and status.
run fail kvm sh -c 'echo out; echo err >&2; exit 7'
check "kvm refused: status 7" [ $rc = 7 ]
check "kvm refused: stdout" [ "$(cat "$t/out")" = out ]
check "kvm refused: command's stderr" has "err" "$t/err"
check "kvm refused: the fallback said" has "the guest did not boot with KVM (qemu-system-x86_64: -accel kvm: failed to initialize kvm: Invalid argument ); falling back to TCG" "$t/err"
check "kvm refused: booted under tcg" has "smtvm: smt4 booted in" "$t/err"
check "kvm refused: kvm then tcg, once each" tries "kvm tcg "
# KVM that never boots: killed after OMP_EXT_SMTVM_KVM_BOOT s, then TCG.
run hang kvm sh -c 'exit 0'
check "kvm hangs: status 0" [ $rc = 0 ]
check "kvm hangs: the fallback said" has "(no boot within 1 s ); falling back to TCG" "$t/err"
check "kvm hangs: kvm then tcg" tries "kvm tcg "
# Forced TCG: no KVM attempt, no fallback line.
run fail tcg true
check "tcg: status 0" [ $rc = 0 ]
check "tcg: only tcg" tries "tcg "
check "tcg: no fallback" sh -c "! grep -q 'falling back' '$t/err'"
# TCG failing too (no ctl share in this fake's view): a skip with the reason.
cat >"$t/bin/qemu-system-x86_64" <<'EOS'
#!/bin/sh
echo "qemu-system-x86_64: cannot start: $*" | cut -c1-60 >&2
exit 1
EOS
chmod +x "$t/bin/qemu-system-x86_64"
run fail kvm true
check "both fail: skipped (77)" [ $rc = 77 ]
check "both fail: fallback said" has "falling back to TCG" "$t/err"
check "both fail: reason" has "smtvm: SKIPPED: QEMU (tcg) cannot run here: qemu-system-x86_64: cannot start" "$t/err"
# Progress, not wall time: a command that writes a line every 0.5 s runs
# 6 s, twice a 3 s no-progress limit, and passes; one silent for 2 s is
# stopped (124) with the reason; --max bounds a chatty one.
cp "$src/tests/smtvm/fake-qemu" "$t/bin/qemu-system-x86_64"
PATH="$t/bin:$PATH" OMP_EXT_SMTVM_CACHE="$t/cache" OMP_EXT_SMTVM_ACCEL=tcg FAKE_QEMU_LOG="$t/log" \
  OMP_EXT_SMTVM_HEARTBEAT=2 "$src/tests/smtvm/run-in-guest" smt4 --timeout 3 -- \
  sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "ok - $i"; sleep 0.5; done' >"$t/out" 2>"$t/err"
rc=$?
check "progressing past --timeout: status 0" [ $rc = 0 ]
check "progressing past --timeout: every line" [ "$(wc -l <"$t/out")" = 12 ]
check "progressing: a heartbeat" grep -qE "^smtvm: smt4: running [0-9]+ s, [0-9]+ bytes of output \([0-9]+ checks passed\)$" "$t/err"
PATH="$t/bin:$PATH" OMP_EXT_SMTVM_CACHE="$t/cache" OMP_EXT_SMTVM_ACCEL=tcg FAKE_QEMU_LOG="$t/log" \
  "$src/tests/smtvm/run-in-guest" smt4 --timeout 2 -- sh -c 'echo ok - 1; sleep 30' >"$t/out" 2>"$t/err"
rc=$?
check "silent: 124" [ $rc = 124 ]
check "silent: the reason" has "smtvm: smt4: no progress for 2 s" "$t/err"
check "silent: the last output" has "ok - 1" "$t/err"
PATH="$t/bin:$PATH" OMP_EXT_SMTVM_CACHE="$t/cache" OMP_EXT_SMTVM_ACCEL=tcg FAKE_QEMU_LOG="$t/log" \
  "$src/tests/smtvm/run-in-guest" smt4 --timeout 5 --max 3 -- sh -c 'i=0; while [ $i -lt 20 ]; do echo x; sleep 0.5; i=$((i + 1)); done' >"$t/out" 2>"$t/err"
rc=$?
# (the fake QEMU's command outlives it, as no guest's would: it ends by
# itself 10 s later instead of looping on after the test)
check "--max: 124" [ $rc = 124 ]
check "--max: the reason" has "smtvm: smt4: still running after --max 3 s" "$t/err"
echo "smtvm fallback: $pass passed, $fail failed"
[ $fail = 0 ]
