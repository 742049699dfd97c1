/*
 * places_oracle: prints the place list the OpenMP runtime really built, as
 * "N:{a,b},{c}" (omp_get_num_places, omp_get_place_num_procs,
 * omp_get_place_proc_ids; ids ascending), for test_oracle (issue 13).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
  return *(const int *)a - *(const int *)b;
}

int main(void)
{
  int n = omp_get_num_places(), i, j;
  printf("%d:", n);
  for (i = 0; i < n; i++) {
    int k = omp_get_place_num_procs(i);
    int *ids = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));
    if (!ids)
      return 1;
    omp_get_place_proc_ids(i, ids);
    qsort(ids, (size_t)(k > 0 ? k : 0), sizeof(int), cmp);
    printf("%s{", i ? "," : "");
    for (j = 0; j < k; j++)
      printf("%s%d", j ? "," : "", ids[j]);
    printf("}");
    free(ids);
  }
  printf("\n");
  return 0;
}
