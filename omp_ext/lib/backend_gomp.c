/*
 * The libgomp backend (GCC's runtime; see runtime.h for the interface and
 * backends.c for the table).
 *
 * Hooks: libgomp (GCC 12) has no OMPT, so the library exports GOMP_parallel
 * and the other GOMP_parallel_* entry points GCC emits for a parallel
 * construct; when libomp_ext comes before the runtime in the program's link
 * order, the program's calls reach these, which run the region through the
 * runtime's own entry point with a trampoline that binds first
 * (trampoline.c).  Cost per region while no policy was ever set: one
 * predictable branch.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include "omp_ext.h"
#include "private/runtime.h"
#include "private/trampoline.h"

/* The runtime GCC's GOMP_* calls need, loaded by a wrapper that finds none
 * (the linker's --as-needed dropped it: trampoline.c). */
#define GOMP_LIBRARY "libgomp.so.1"

#ifndef OMP_EXT_STATIC_LIB
#define OMP_EXT_STATIC_LIB 0
#endif

OMP_EXT_API void GOMP_parallel(omp_ext_gomp_fn fn, void *data, unsigned num_threads, unsigned flags);
/* This library's own GOMP_parallel: taking &GOMP_parallel here would give
 * whichever definition wins symbol interposition. */
extern __typeof__(GOMP_parallel) gomp_parallel_self
  __attribute__((alias("GOMP_parallel"), visibility("hidden")));

void GOMP_parallel(omp_ext_gomp_fn fn, void *data, unsigned num_threads, unsigned flags);
void GOMP_parallel(omp_ext_gomp_fn fn, void *data, unsigned num_threads, unsigned flags)
{
  static void *cache;
  void (*real)(omp_ext_gomp_fn, void *, unsigned, unsigned);
  struct omp_ext_tramp t;
  int bits;
  *(void **)&real =
    omp_ext_real_entry("GOMP_parallel", (void *)(uintptr_t)GOMP_parallel, GOMP_LIBRARY, &cache);
  bits = OMP_EXT_TRAMP_PRE(&t, &fn, &data, &num_threads);
  real(fn, data, num_threads, flags);
  OMP_EXT_TRAMP_POST(bits, &t);
}

OMP_EXT_API void GOMP_parallel_sections(omp_ext_gomp_fn fn, void *data, unsigned num_threads,
                                        unsigned count, unsigned flags);
void GOMP_parallel_sections(omp_ext_gomp_fn fn, void *data, unsigned num_threads, unsigned count,
                            unsigned flags)
{
  static void *cache;
  void (*real)(omp_ext_gomp_fn, void *, unsigned, unsigned, unsigned);
  struct omp_ext_tramp t;
  int bits;
  *(void **)&real =
    omp_ext_real_entry("GOMP_parallel_sections", (void *)(uintptr_t)GOMP_parallel_sections,
                       GOMP_LIBRARY, &cache);
  bits = OMP_EXT_TRAMP_PRE(&t, &fn, &data, &num_threads);
  real(fn, data, num_threads, count, flags);
  OMP_EXT_TRAMP_POST(bits, &t);
}

/* parallel + worksharing loop with a chunk size (schedule(static|dynamic|
 * guided[, chunk]) and their nonmonotonic forms). */
#define WRAP_LOOP(name)                                                                            \
  OMP_EXT_API void name(omp_ext_gomp_fn fn, void *data, unsigned num_threads, long start, long end, long incr, \
            long chunk, unsigned flags);                                                           \
  void name(omp_ext_gomp_fn fn, void *data, unsigned num_threads, long start, long end, long incr, \
            long chunk, unsigned flags)                                                            \
  {                                                                                                \
    static void *cache;                                                                            \
    void (*real)(omp_ext_gomp_fn, void *, unsigned, long, long, long, long, unsigned);             \
    struct omp_ext_tramp t;                                                                        \
    int bits;                                                                                      \
    *(void **)&real = omp_ext_real_entry(#name, (void *)(uintptr_t)name, GOMP_LIBRARY, &cache);    \
    bits = OMP_EXT_TRAMP_PRE(&t, &fn, &data, &num_threads);                                        \
    real(fn, data, num_threads, start, end, incr, chunk, flags);                                   \
    OMP_EXT_TRAMP_POST(bits, &t);                                                                  \
  }
/* schedule(runtime) forms: no chunk size. */
#define WRAP_LOOP_RUNTIME(name)                                                                    \
  OMP_EXT_API void name(omp_ext_gomp_fn fn, void *data, unsigned num_threads, long start, long end, long incr, \
            unsigned flags);                                                                       \
  void name(omp_ext_gomp_fn fn, void *data, unsigned num_threads, long start, long end, long incr, \
            unsigned flags)                                                                        \
  {                                                                                                \
    static void *cache;                                                                            \
    void (*real)(omp_ext_gomp_fn, void *, unsigned, long, long, long, unsigned);                   \
    struct omp_ext_tramp t;                                                                        \
    int bits;                                                                                      \
    *(void **)&real = omp_ext_real_entry(#name, (void *)(uintptr_t)name, GOMP_LIBRARY, &cache);    \
    bits = OMP_EXT_TRAMP_PRE(&t, &fn, &data, &num_threads);                                        \
    real(fn, data, num_threads, start, end, incr, flags);                                          \
    OMP_EXT_TRAMP_POST(bits, &t);                                                                  \
  }

WRAP_LOOP(GOMP_parallel_loop_static)
WRAP_LOOP(GOMP_parallel_loop_dynamic)
WRAP_LOOP(GOMP_parallel_loop_guided)
WRAP_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
WRAP_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

/* ----------------------------------------------------------- backend --- */

/* libgomp: the runtime that has no kmp_* binding entry points. */
static int gomp_detect(const struct omp_ext_runtime *rt)
{
  return rt->kmp_set_affinity == NULL;
}

/* Will the wrappers see the program's regions?  The program's
 * GOMP_parallel must be this library's (libomp_ext before libgomp in the
 * link order, or linked statically into the executable). */
static const char *gomp_check(const struct omp_ext_runtime *rt)
{
  (void)rt;
  if (!OMP_EXT_STATIC_LIB &&
      dlsym(RTLD_DEFAULT, "GOMP_parallel") != (void *)(uintptr_t)gomp_parallel_self) {
    /* (Linked statically, the executable's own definitions always win.) */
    return "libgomp comes before libomp_ext in the link order (link -lomp_ext before -fopenmp)";
  }
  /* The wrappers will see the program's regions: say so now, not only
   * once the first region ran (omp_ext_ht_hooks() would read 0 until
   * then, as with the wrong link order). */
  omp_ext_hooks_mark(omp_ext_hook_gomp_ready);
  return NULL;
}

static const char *const gomp_libraries[] = {GOMP_LIBRARY, NULL};

const struct omp_ext_backend omp_ext_backend_gomp = {
  "libgomp",
  gomp_libraries,
  omp_ext_runtime_libgomp,
  gomp_detect,
  NULL, /* no hook to arm: the wrappers read the generation */
  gomp_check,
};
