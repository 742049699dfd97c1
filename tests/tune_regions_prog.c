/*
 * tune_regions_prog: region shapes that broke htplaces tune's analysis --
 *   tune_regions_prog inline   an inline helper holding a `parallel for`,
 *                              called 16 times: 16 regions (16 code
 *                              addresses) of one FILE:LINE
 *   tune_regions_prog many     200 parallel regions written on one line
 *   tune_regions_prog none     no parallel region at all
 * Built -O2 -g (the helper is inlined at every call).  With
 * TUNE_REGIONS_COUNT=FILE each run appends one line to FILE (tests count
 * the runs tune makes).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;
static double a[4096];

static inline __attribute__((always_inline)) void helper(int k)
{
#pragma omp parallel for
  for (int i = 0; i < 4096; i++)
    a[i] += i * k;
}

#define P _Pragma("omp parallel") { sink = sink + omp_get_thread_num(); }
#define P10 P P P P P P P P P P
#define P100 P10 P10 P10 P10 P10 P10 P10 P10 P10 P10

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "inline", *count = getenv("TUNE_REGIONS_COUNT");
  if (count) {
    FILE *f = fopen(count, "a");
    if (f) {
      fputs("run\n", f);
      fclose(f);
    }
  }
  if (strcmp(mode, "inline") == 0) {
    helper(1); helper(2); helper(3); helper(4); helper(5); helper(6); helper(7); helper(8);
    helper(9); helper(10); helper(11); helper(12); helper(13); helper(14); helper(15);
    helper(16);
  } else if (strcmp(mode, "many") == 0) {
    P100 P100
  } else if (strcmp(mode, "none") != 0) {
    fprintf(stderr, "usage: tune_regions_prog inline|many|none\n");
    return 2;
  }
  printf("tune_regions_prog: %s done (%g)\n", mode, sink + a[4095]);
  return 0;
}
