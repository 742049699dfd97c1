/*
 * Private: the binding trampoline and a wrapper's steps around a region,
 * shared by the runtime backends whose entry points omp_ext interposes
 * (backend_gomp.c: GOMP_parallel*; backend_kmp.c: __kmpc_fork_call).
 *
 * A wrapper calls OMP_EXT_TRAMP_PRE before it forks (one predictable branch
 * while no policy, per-region control or timing is on) and
 * OMP_EXT_TRAMP_POST after the join.  When a team must be bound (a policy
 * set and the team not known bound, a region's configuration, or timing's
 * binding record), the region runs through omp_ext_trampoline(), which
 * binds each thread (omp_ext_tramp_enter) before the region's own function.
 */
#ifndef OMP_EXT_TRAMPOLINE_H
#define OMP_EXT_TRAMPOLINE_H

#include <stdint.h>

#include "private/region.h"
#include "private/runtime.h"
#include "private/timing_inline.h"

typedef void (*omp_ext_gomp_fn)(void *);

enum { OMP_EXT_PRE_TIMED = 1, OMP_EXT_PRE_TRAMPOLINE = 2, OMP_EXT_PRE_REGION = 4 };

struct omp_ext_tramp {
  void (*fn)(void *);
  void *data;
  const struct omp_ext_runtime *rt;
  unsigned gen;   /* the policy generation the trampoline binds for */
  unsigned want;  /* the team size asked for */
  unsigned ran;   /* threads that ran it; atomic */
  unsigned bound; /* of them, bound to stay (the binder returned 0); atomic */
  int bind;        /* a policy is set: bind the thread */
  int record;      /* OMP_EXT_TIMING: record where the thread runs */
  struct omp_ext_rpick pick; /* per-region control (pick.cfg: bind there) */
};

extern __thread unsigned omp_ext_tl_settled_gen OMP_EXT_HIDDEN
  __attribute__((tls_model("initial-exec")));
extern __thread unsigned omp_ext_tl_settled_n OMP_EXT_HIDDEN
  __attribute__((tls_model("initial-exec")));
extern __thread const struct omp_ext_rcfg *omp_ext_tl_settled_cfg OMP_EXT_HIDDEN
  __attribute__((tls_model("initial-exec")));

/* The fn a wrapper passes when its region is no omp_ext_gomp_fn (the KMPC
 * wrapper: a microtask); never called.  The trampoline then marks the hook
 * bit omp_ext_hook_kmpc instead of omp_ext_hook_gomp. */
OMP_EXT_HIDDEN void omp_ext_kmpc_marker(void *arg);

/* The trampoline's work in each thread of a level-1 region (the wrapper
 * checked the level once, in the encountering thread), before the region's
 * own function; omp_ext_trampoline() is that, then t->fn(t->data). */
OMP_EXT_HIDDEN void omp_ext_tramp_enter(struct omp_ext_tramp *t);
OMP_EXT_HIDDEN void omp_ext_trampoline(void *arg);
/* After the join of a region run through the trampoline (see trampoline.c). */
OMP_EXT_HIDDEN void omp_ext_tramp_settle(const struct omp_ext_tramp *t);
/* The slow paths of omp_ext_tramp_pre_fast() (see trampoline.c). */
OMP_EXT_HIDDEN int omp_ext_tramp_pre_timed(struct omp_ext_tramp *t, omp_ext_gomp_fn *fn, void **data,
                                           unsigned num_threads, const void *key, const void *ra,
                                           int bits);
OMP_EXT_HIDDEN int omp_ext_tramp_pre(struct omp_ext_tramp *t, omp_ext_gomp_fn *fn, void **data,
                                     unsigned *num_threads, const void *key, const void *ra);
/* The runtime's own \p name, never this library's wrapper \p self (the first
 * lookup: omp_ext_runtime_sym(), else a runtime no global lookup sees, else
 * the library \p load (NULL: none) loaded now; aborts with a line on stderr
 * when no runtime has it). */
OMP_EXT_HIDDEN void *omp_ext_real_entry_lookup(const char *name, void *self, const char *load,
                                               void **cache);

/* The team size a region of \p num_threads (0: nthreads-var) asks for. */
static inline unsigned omp_ext_tramp_request(const struct omp_ext_runtime *rt, unsigned num_threads)
{
  return num_threads ? num_threads : (unsigned)rt->get_max_threads();
}

/* Is a team of \p num_threads (0: the default) of this root thread known
 * bound for policy generation \p gen?  Counted as the region's one hook
 * call (as libomp's parallel_begin). */
static inline int omp_ext_tramp_settled(unsigned gen, unsigned num_threads)
{
  const struct omp_ext_runtime *rt;
  if (omp_ext_tl_settled_gen != gen ||
      __atomic_load_n(&omp_ext_hooks_pending, __ATOMIC_RELAXED) || !(rt = omp_ext_runtime()))
    return 0;
  if (omp_ext_tramp_request(rt, num_threads) != omp_ext_tl_settled_n || rt->get_dynamic())
    return 0;
  /* One writer per root thread: a relaxed add that may lose a count under
   * concurrent roots is enough for a diagnostic counter. */
  __atomic_store_n(&omp_ext_hook_calls,
                   __atomic_load_n(&omp_ext_hook_calls, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
  return 1;
}

static inline void *omp_ext_real_entry(const char *name, void *self, const char *load,
                                        void **cache)
{
  void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  return __builtin_expect(p != NULL, 1) ? p : omp_ext_real_entry_lookup(name, self, load, cache);
}

/* The wrapper's first step, inline: one branch while no policy is set,
 * per-region control is off and timing is off, and no call either while
 * the team is known bound. */
static inline int omp_ext_tramp_pre_fast(struct omp_ext_tramp *t, omp_ext_gomp_fn *fn,
                                         void **data, unsigned *num_threads, const void *key,
                                         const void *ra)
{
  unsigned gen = __atomic_load_n(&omp_ext_hooks_gen, __ATOMIC_ACQUIRE);
  int timing = omp_ext_timing_on();
  int region = __atomic_load_n(&omp_ext_region_mode, __ATOMIC_RELAXED);
  if (__builtin_expect((gen | (unsigned)timing | (unsigned)region) == 0, 1))
    return 0;
  if (gen == 0 && !region) { /* timing alone */
    return omp_ext_tramp_pre_timed(t, fn, data, *num_threads, key, ra, 0);
  }
  if (!timing && !region && omp_ext_tramp_settled(gen, *num_threads))
    return 0;
  return omp_ext_tramp_pre(t, fn, data, num_threads, key, ra);
}
#define OMP_EXT_TRAMP_PRE(t, fn, data, num_threads)                                                \
  omp_ext_tramp_pre_fast(t, fn, data, num_threads, (const void *)(uintptr_t)*(fn), __builtin_return_address(0))
#define OMP_EXT_TRAMP_POST(bits, t)                                                                \
  do {                                                                                             \
    if (__builtin_expect((bits) != 0, 0)) {                                                        \
      if ((bits)&OMP_EXT_PRE_TIMED)                                                                \
        omp_ext_timing_end();                                                                      \
      if ((bits)&OMP_EXT_PRE_TRAMPOLINE)                                                           \
        omp_ext_tramp_settle(t);                                                                   \
      if ((bits)&OMP_EXT_PRE_REGION)                                                               \
        omp_ext_region_done(&(t)->pick);                                                           \
    }                                                                                              \
  } while (0)

#endif /* OMP_EXT_TRAMPOLINE_H */
