/*
 * Team sizes the program relies on.  OpenMP 5.2 §10.1.1: with dyn-var false
 * (the default) a parallel region without a num_threads clause gets
 * nthreads-var threads -- what omp_get_max_threads() returns -- and programs
 * rely on it: they cut their work into omp_get_max_threads() parts, one per
 * omp_get_thread_num(), or wait for that many threads (OpenBLAS's OpenMP
 * server spins until every part ran).  A smaller team then leaves parts
 * undone, or hangs.  So once the program has called omp_get_max_threads()
 * (C, or Fortran's omp_get_max_threads_), per-region control (auto, a
 * plan) treats every region as if it had a num_threads clause of
 * nthreads-var: the team size stays the program's, the places still apply
 * (region.c).  A program that never asks keeps every candidate.
 *
 * The library exports both entry points, which forward to the runtime's own
 * (as construct.c's wrappers: weak, so that a runtime linked statically into
 * the same program keeps its definition).  Cost: one relaxed store.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>

#include "omp_ext.h"
#include "private/region_int.h"
#include "private/runtime.h"

static int asked; /* set once, never cleared (atomic) */

int omp_ext_team_size_asked(void)
{
  return __atomic_load_n(&asked, __ATOMIC_RELAXED);
}

/* The runtime's own \p name, not this library's \p self; cached in \p cache. */
static int call_real(const char *name, void *self, void **cache)
{
  int (*fn)(void);
  void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  if (!p) {
    p = omp_ext_runtime_sym(name);
    if (!p || p == self)
      p = dlsym(RTLD_NEXT, name);
    if (!p || p == self)
      return 1; /* no runtime: one thread, as a program built without OpenMP */
    __atomic_store_n(cache, p, __ATOMIC_RELEASE);
  }
  *(void **)&fn = p;
  return fn();
}

OMP_EXT_API __attribute__((weak)) int omp_get_max_threads(void);
OMP_EXT_API __attribute__((weak)) int omp_get_max_threads_(void);

int omp_get_max_threads(void)
{
  static void *cache;
  __atomic_store_n(&asked, 1, __ATOMIC_RELAXED);
  return call_real("omp_get_max_threads", (void *)(uintptr_t)omp_get_max_threads, &cache);
}

int omp_get_max_threads_(void)
{
  static void *cache;
  __atomic_store_n(&asked, 1, __ATOMIC_RELAXED);
  return call_real("omp_get_max_threads_", (void *)(uintptr_t)omp_get_max_threads_, &cache);
}
