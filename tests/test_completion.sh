#!/bin/bash
# Bash completion of htplaces and htbench, driven as bash-completion's own
# tests do: set COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT, call the
# completion function, compare COMPREPLY.  The files come from a
# `cmake --install` into a temporary prefix and are found the way
# bash-completion finds them (on demand, from PREFIX/bin on PATH).  Every
# option the completion offers for a command is checked to be one that the
# command accepts.
# Usage: test_completion.sh BUILD_DIR      (exit 77: skipped)
set -u
build=$1
bc=/usr/share/bash-completion/bash_completion
[ -r "$bc" ] || { echo "test_completion: skipped: bash-completion not installed ($bc)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/p" >/dev/null || exit 1
dir=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null)
dir=${dir#/usr/}
for cmd in htplaces htbench; do
  [ -f "$work/p/${dir:-share/bash-completion/completions}/$cmd" ] ||
    { echo "missing after install: ${dir:-share/bash-completion/completions}/$cmd"; exit 1; }
done
export PATH="$work/p/bin:$PATH" BASH_COMPLETION_USER_DIR="$work/none" XDG_DATA_DIRS="$work/p/share"
# shellcheck disable=SC1090
. "$bc"
# compopt works only while bash itself runs a completion.
compopt() { :; }
failed=0 checks=0

# Load on demand, as at the first TAB.
for cmd in htplaces htbench; do
  _completion_loader "$cmd" >/dev/null 2>&1
  spec=$(complete -p "$cmd" 2>/dev/null)
  checks=$((checks + 1))
  [ "$spec" = "complete -F _$cmd $cmd" ] || { echo "FAIL: complete -p $cmd: '$spec'"; failed=$((failed + 1)); }
done

# comp WORD... : COMPREPLY for the line (the last word is the one under the
# cursor), sorted, one line.
comp() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  "_$1" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
# expect "WANT" WORD... : the completions are exactly WANT.
expect() {
  local want=$1 got
  shift
  got=$(comp "$@")
  checks=$((checks + 1))
  [ "$got" = "$want" ] || { echo "FAIL: '$*': got '$got', want '$want'"; failed=$((failed + 1)); }
}

# The policies with a place list and the commands, from htplaces' own tables
# (test_lists checks those against their sources).
policies=$(htplaces list | awk '!/ run time only/ {print $1}' | sort | tr '\n' ' ' | sed 's/ $//')
commands=$(htplaces list commands | sort | tr '\n' ' ')
[ "$(echo $policies | wc -w)" -ge 4 ] && [ "$(echo $commands | wc -w)" -ge 10 ] ||
  { echo "FAIL: htplaces list gives policies '$policies', commands '$commands'"; exit 1; }
expect "$(echo $commands $policies | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" htplaces ''
sp=$(echo $policies | tr ' ' '\n' | grep '^sp' | tr '\n' ' ' | sed 's/ $//')
expect "$sp" htplaces sp
expect "$sp" htplaces -i "pack:2" -f omp sp
expect "gomp json kmp list omp" htplaces -f ''
expect "gomp" htplaces spn --format g
expect "csv json table" htplaces model --format ''
expect "json text" htplaces check -f ''
expect "json text" htplaces doctor --format ''
expect "gomp kmp omp" htplaces check --as ''
expect "c6100 dl380p" htplaces model --power-model ''
expect "$policies" htplaces show ''
expect "" htplaces show spn ''
expect "$policies" htplaces doctor ''
expect "$policies" htplaces model spn ''
expect "commands formats objectives options policies runtimes value-options" htplaces list ''
expect "$(echo $commands | sed 's/ $//')" htplaces list options ''
expect "" htplaces list policies ''
expect "$(echo $commands | sed 's/ $//')" htplaces help ''
expect "auto:energy auto:energy:threads" htplaces exec auto:e
expect "auto:threads auto:time auto:time:threads" htplaces exec auto:t
expect "--learn" htplaces exec auto --le
expect "--version" htplaces --v
expect "-V" htplaces -V
expect "--no-saturation" htplaces doctor --no
expect "--serial-fraction --sigma --speedup" htplaces model --s
expect "--expand --export" htplaces check --ex
expect "" htplaces -r ''
expect "--threads --timeout --timing-lib" htplaces tune --t
expect "edp energy" htplaces tune --objective e
expect "--input" htplaces tune --inp   # (with --dry-run: the plan for another machine)
expect "--restrict" htplaces spn --res
expect "" htplaces spn --vers         # (-V only before the policy)
expect "libgomp" htplaces check --runtime libg
expect "-f" htplaces topo -i pack:2 -f
expect "$(echo $sp | sed 's/\([a-z]*\)/spn,\1/g')" htplaces tune --policies spn,sp
expect "spn,auto" htplaces tune --policies spn,a
# -i: files
mkdir -p "$work/d" && : >"$work/d/topo.xml" && : >"$work/d/other.txt"
(cd "$work/d" && expect "topo.xml" htplaces -i to) || failed=$((failed + 1))
(cd "$work/d" && expect "other.txt topo.xml" htplaces show --input '') || failed=$((failed + 1))
# exec / verify: after --, a command and its arguments.
got=$(comp htplaces exec spn 2 -- ech)
checks=$((checks + 1))
case " $got " in *" echo "*) ;; *) echo "FAIL: exec -- ech: '$got'"; failed=$((failed + 1)) ;; esac
# htbench: options from --help, kernels and policies from --list.
expect "--kernels" htbench --ker
expect "sieve" htbench --kernels si
expect "sieve,fadd sieve,fdiv sieve,fmul sieve,for" htbench -k sieve,f
expect "spn,speedup spn,spn spn,spread" htbench --policies spn,sp
expect "both env incode" htbench --path ''
got=$(comp htbench --)
checks=$((checks + 1))
for o in --out --quick --kernels --policies --threads --path --no-plot --list --help --version --budget; do
  case " $got " in *" $o "*) ;; *) echo "FAIL: htbench -- lacks $o: '$got'"; failed=$((failed + 1)) ;; esac
done

# Each option offered for a command is one the command accepts: with a
# value it is not an unknown option (a missing value is a different error).
for sub in "" show topo exec model calibrate check doctor verify tune; do
  for opt in $(comp htplaces $sub --); do
    [ "$opt" = -- ] && continue
    checks=$((checks + 1))
    err=$(htplaces $sub "$opt" 2>&1 >/dev/null </dev/null)
    case $err in
      *"unknown option"*) echo "FAIL: completion offers '$opt' for '$sub'; htplaces says: $err"
                          failed=$((failed + 1)) ;;
    esac
  done
done
# Every command and policy with a place list in htplaces --help is offered;
# a run-time policy (auto: no place list) is not.
for w in $(htplaces --help | awk '/^Commands:/ {f = 1; next} f && /^$/ {exit} f {print $1}') \
         $(htplaces list | awk '!/ run time only/ {print $1}'); do
  checks=$((checks + 1))
  case " $(comp htplaces '') " in *" $w "*) ;; *) echo "FAIL: '$w' not offered"; failed=$((failed + 1)) ;; esac
done

checks=$((checks + 1))
htplaces list | grep -q '^auto .* run time only' || { echo "FAIL: htplaces list has no run-time auto"; failed=$((failed + 1)); }
for w in $(htplaces list | awk '/ run time only/ {print $1}'); do
  checks=$((checks + 1))
  case " $(comp htplaces '') " in *" $w "*) echo "FAIL: run-time '$w' offered as a place-list policy"; failed=$((failed + 1)) ;; esac
done

if [ "$failed" -ne 0 ]; then
  echo "completion: $((checks - failed)) passed, $failed failed"
  exit 1
fi
echo "completion: $checks passed, 0 failed"
