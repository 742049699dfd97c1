# rounds.sh: the alternating-rounds engine of issue 23's comparisons, shared
# by mixed-regions.sh and third-party.sh (POSIX sh; sourced, not run:
# . "$(dirname "$0")/rounds.sh").
#
# rounds ROUNDS RUNS VARIANT...
#   Runs ROUNDS rounds of every VARIANT, in one run of the caller, the order
#   of the variants rotated by one each round (round r starts with the
#   (r mod n)-th), so that drift of a shared machine spreads over all of
#   them.  Each run is `run_variant VARIANT` (the caller defines it), which
#   prints one line "TIME CHECK [MORE...]": TIME in seconds, CHECK a word
#   that must be equal in every run (a checksum, a verification line);
#   appended to the file RUNS as "VARIANT TIME CHECK [MORE...]".  Prints a
#   header "# round VARIANT..." and, per round, its number and each
#   variant's TIME, in the order given.
#
# rounds_npus HTPLACES
#   Prints the number of PUs allowed to this process, as htplaces speedup
#   lists them (the global settings are spn 1 .. this).
rounds() {
  _rn=$1 _rruns=$2
  shift 2
  _rvs="$*" _rnv=$#
  echo "# round $_rvs"
  _rr=0
  while [ "$_rr" -lt "$_rn" ]; do
    _ri=0
    while [ "$_ri" -lt "$_rnv" ]; do
      set -- $_rvs
      shift $(((_ri + _rr) % _rnv))
      _rout=$(run_variant "$1")
      echo "$1 $_rout" >>"$_rruns"
      _ri=$((_ri + 1))
    done
    echo "$_rr $(for _rv in $_rvs; do awk -v v="$_rv" '$1 == v {t = $2} END {printf "%s ", t}' "$_rruns"; done)"
    _rr=$((_rr + 1))
  done
}

rounds_npus() {
  "$1" speedup | tr ',' '\n' | grep -c .
}
