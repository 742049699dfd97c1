/*
 * htbench's kernel table: every kernel of kernels/, by name.  Apart from
 * the harness's helpers (harness/bench_util.c), which the kernels call:
 * no cycle among the objects.
 */
#include <string.h>

#include "htbench.h"

const struct htb_kernel *const htb_kernels[] = {
  &htb_kernel_wordcount, &htb_kernel_sieve, &htb_kernel_fadd, &htb_kernel_fmul,
  &htb_kernel_fdiv, &htb_kernel_triad, &htb_kernel_parallel, &htb_kernel_for,
  &htb_kernel_barrier, &htb_kernel_reduction, &htb_kernel_split_static,
  &htb_kernel_split_dynamic, &htb_kernel_split_share, &htb_kernel_split_weights, &htb_kernel_split_tail,
  &htb_kernel_split_steal, &htb_kernel_split_adaptive, &htb_kernel_split_serial, NULL,
};

const struct htb_kernel *htb_kernel_by_name(const char *name)
{
  unsigned i;
  for (i = 0; htb_kernels[i]; i++)
    if (strcmp(htb_kernels[i]->name, name) == 0)
      return htb_kernels[i];
  return NULL;
}
