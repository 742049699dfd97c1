/*
 * Build-time generator of the Fortran module's constants: writes the
 * integer parameters of omp_ht_policy_t, omp_ext_error_t and
 * omp_ext_format_t from the lists in include/omp_ext/ (OMP_EXT_POLICIES,
 * OMP_EXT_ERRORS, OMP_EXT_FORMATS), so the Fortran values can never drift
 * from the C ones.  omp_ext_mod.f90 includes the file it writes.
 *
 *   gen_fortran OUTPUT.inc
 */
#include <stdio.h>

#include "omp_ext/error.h"
#include "omp_ext/places.h"
#include "omp_ext/policy.h"

#define PARAM "  integer(c_int), parameter, public :: "

int main(int argc, char **argv)
{
  FILE *f;
  if (argc != 2) {
    fprintf(stderr, "usage: gen_fortran OUTPUT.inc\n");
    return 2;
  }
  if (!(f = fopen(argv[1], "w"))) {
    perror(argv[1]);
    return 1;
  }
  fprintf(f, "  ! Generated at build time by omp_ext/tools/gen_fortran.c from the lists in\n"
             "  ! include/omp_ext/ (policy.h, error.h, places.h); do not edit.\n\n");
  fprintf(f, "  ! omp_ht_policy_t (OMP_EXT_POLICIES)\n");
#define POLICY(name, value, base, candidate, description) \
  fprintf(f, PARAM "omp_ht_policy_%s = %d\n", #name, (int)(value));
  OMP_EXT_POLICIES(POLICY)
  /* The policies with a place order are 0 .. OMP_EXT_NPOLICIES - 1; the
   * run-time ones (omp_ht_policy_auto = 256) are rows of the list too. */
  fprintf(f, PARAM "OMP_EXT_NPOLICIES = %d\n", (int)OMP_EXT_NPOLICIES);
  fprintf(f, PARAM "OMP_EXT_NPOLICIES_ALL = %d\n\n", (int)OMP_EXT_NPOLICIES_ALL);
  fprintf(f, "  ! omp_ext_error_t (OMP_EXT_ERRORS)\n");
#define ERROR(name, value, text) fprintf(f, PARAM "omp_ext_%s = %d\n", #name, (int)(value));
  OMP_EXT_ERRORS(ERROR)
  fprintf(f, "\n  ! omp_ext_format_t (OMP_EXT_FORMATS)\n");
#define FORMAT(name, value, prefix, item, sep, suffix, var, also) \
  fprintf(f, PARAM "omp_ext_format_%s = %d\n", #name, (int)(value));
  OMP_EXT_FORMATS(FORMAT)
  fprintf(f, PARAM "OMP_EXT_NFORMATS = %d\n", (int)OMP_EXT_NFORMATS);
  if (fclose(f) != 0) {
    perror(argv[1]);
    return 1;
  }
  return 0;
}
