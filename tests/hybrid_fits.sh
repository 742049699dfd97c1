# tests/hybrid_fits.sh -- sourced by test_tune_hybrid.sh and test_tune_srun.sh:
#   hybrid_fits HTPLACES SRUN
# sets $fits and $nofit to the splits RxT (R, T in 1, 2) that fit this
# machine's allowed PUs and those that do not, as tune --launcher must
# decide: R <= the allowed cores, T <= the PUs of the smallest of the R
# domains (counted from htplaces --ranks-per-node R --local-rank r, never
# assumed); with SRUN 1 also R dividing the allowed cores and PUs (srun's
# --cpus-per-task = PUs / R).  $cores and $pus: the allowed cores and PUs.
hybrid_fits()
{
  cores=$("$1" topo | sed -n 's/^cores: *//p')
  pus=$("$1" topo | sed -n 's/^PUs: *\([0-9]*\) allowed.*/\1/p')
  fits= nofit=
  for r in 1 2; do
    small=
    if [ "$r" -le "$cores" ] && { [ "$2" = 0 ] || { [ $((cores % r)) = 0 ] && [ $((pus % r)) = 0 ]; }; }; then
      k=0
      while [ "$k" -lt "$r" ]; do
        n=$("$1" --ranks-per-node "$r" --local-rank "$k" spn | tr -cd '{' | wc -c)
        [ -z "$small" ] || [ "$n" -lt "$small" ] && small=$n
        k=$((k + 1))
      done
    fi
    for t in 1 2; do
      if [ -n "$small" ] && [ "$t" -le "$small" ]; then fits="$fits ${r}x$t"; else nofit="$nofit ${r}x$t"; fi
    done
  done
}
