/*
 * A program linked with libomp_ext but without OpenMP (as ls or wc with
 * libomp_ext preloaded): libomp_ext's constructor must say nothing about
 * OMP_EXT_HT_POLICY here (test_bind).
 */
#include <stdio.h>

#include "omp_ext.h"

int main(void)
{
  printf("%s\n", omp_ext_strerror(0)); /* (links libomp_ext) */
  return 0;
}
