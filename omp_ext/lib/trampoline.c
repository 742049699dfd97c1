/*
 * The binding trampoline and a wrapper's steps around a region: see
 * trampoline.h.  Used by the GOMP wrappers (backend_gomp.c) and the KMPC
 * wrapper (backend_kmp.c).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "omp_ext.h"
#include "private/region.h"
#include "private/runtime.h"
#include "private/timing_inline.h"
#include "private/trampoline.h"

/* libgomp keeps a level-1 team's threads in the root thread's pool, in
 * team order, and a later team of the same size reuses exactly those
 * threads (config/linux's gomp_team_start: pool->threads[i] becomes team
 * member i while no OMP_PLACES rearranges them; a smaller team makes the
 * surplus threads exit, a larger one creates new ones).  So once every
 * thread of a team of n got the size it asked for and was bound for the
 * current policy, the next team of n of the same root thread is bound too,
 * and needs no trampoline -- unless dyn-var lets libgomp choose a smaller
 * team in between (gomp_dynamic_max_threads: CPUs minus load), which it
 * may not tell.  Per root thread (each has its own pool): the generation
 * and the team size known bound.  (Regions entered through entry points
 * this library does not wrap -- GOMP_parallel_start, GOMP_teams,
 * GOMP_parallel_reductions -- are not seen: a team resized there is
 * re-bound only at the next size change, or by omp_ht_rebind().)
 * libomp's hot team (__kmp_allocate_team reuses the root's level-1 team)
 * keeps threads and numbers the same way for the KMPC wrapper.
 * Per-region control settles the same way, on a configuration instead of
 * a generation (omp_ext_tl_settled_cfg). */
__thread unsigned omp_ext_tl_settled_gen __attribute__((tls_model("initial-exec")));
__thread unsigned omp_ext_tl_settled_n __attribute__((tls_model("initial-exec")));
__thread const struct omp_ext_rcfg *omp_ext_tl_settled_cfg __attribute__((tls_model("initial-exec")));

void omp_ext_kmpc_marker(void *arg)
{
  (void)arg;
}

/* The trampoline's work in each thread of a level-1 region (the wrapper
 * checked the level once, in the encountering thread), before the
 * region's own function. */
void omp_ext_tramp_enter(struct omp_ext_tramp *t)
{
  unsigned index = (unsigned)t->rt->get_thread_num();
  if (t->bind) {
    int r;
    omp_ext_hooks_mark(t->fn == omp_ext_kmpc_marker ? omp_ext_hook_kmpc : omp_ext_hook_gomp);
    r = t->pick.cfg ? omp_ext_region_bind(t->pick.cfg, index) : omp_ext_hooks_bind(index);
    if (r == 0)
      __atomic_fetch_add(&t->bound, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&t->ran, 1, __ATOMIC_RELAXED);
  }
  if (t->record)
    omp_ext_timing_thread(index);
}

void omp_ext_trampoline(void *arg)
{
  struct omp_ext_tramp *t = arg;
  omp_ext_tramp_enter(t);
  t->fn(t->data);
}

/* After the region of \p t (the join is done): the team got the size it
 * asked for, and every thread bound to stay, for a policy (or region
 * configuration) still current?  Then the root thread's next teams of that
 * size need no trampoline. */
void omp_ext_tramp_settle(const struct omp_ext_tramp *t)
{
  unsigned ran = __atomic_load_n(&t->ran, __ATOMIC_RELAXED);
  int ok = ran == t->want && __atomic_load_n(&t->bound, __ATOMIC_RELAXED) == ran &&
           (t->pick.cfg || t->gen == omp_ext_hooks_generation()) && !t->rt->get_dynamic();
  omp_ext_tl_settled_gen = ok && !t->pick.cfg ? t->gen : 0;
  omp_ext_tl_settled_cfg = ok ? t->pick.cfg : NULL;
  omp_ext_tl_settled_n = ok ? ran : 0;
}

/* \p name in a runtime that no global lookup sees: loaded with RTLD_LOCAL
 * (a Python extension's dlopen of an OpenBLAS built with libgomp), or not
 * loaded at all (the linker's --as-needed dropped libgomp because this
 * library's GOMP_parallel satisfied the program's only OpenMP symbols):
 * an OpenMP runtime already in the process, else \p load (the wrapper's
 * family's library: the runtime whose entry points the compiler emitted),
 * loaded now; NULL: none. */
static void *fallback_entry(const char *name, void *self, const char *load)
{
  void *h, *p = omp_ext_runtime_find(name, self);
  if (p || !load)
    return p;
  h = dlopen(load, RTLD_LAZY); /* stays loaded: the region runs there */
  if (h && (p = dlsym(h, name)) != NULL && p != self)
    return p;
  return NULL;
}

/* The runtime's own \p name, never this library's wrapper \p self: the
 * first lookup (cold), cached in \p cache. */
__attribute__((noinline, cold)) void *omp_ext_real_entry_lookup(const char *name, void *self,
                                                                const char *load,
                                                               void **cache)
{
  void *p = omp_ext_runtime_sym(name);
  if (!p || p == self)
    p = fallback_entry(name, self, load);
  if (!p || p == self) {
    static const char msg[] = "omp_ext: no OpenMP runtime provides an entry point the program "
                              "calls (GOMP_parallel*, __kmpc_fork_call)\n";
    if (write(2, msg, sizeof(msg) - 1) < 0) { /* nothing more to do */ }
    abort();
  }
  __atomic_store_n(cache, p, __ATOMIC_RELEASE);
  return p;
}

/* Prepare a region: the trampoline when a policy is set and the team is
 * not known bound, and the team size of OMP_EXT_HT_POLICY=POLICY:N before
 * the first one.  Returns 1 when the trampoline is in place. */
static int wrap(struct omp_ext_tramp *t, void (**fn)(void *), void **data, unsigned num_threads)
{
  const struct omp_ext_runtime *rt;
  unsigned gen = omp_ext_hooks_generation();
  int n;
  if (gen == 0 || omp_ext_tramp_settled(gen, num_threads) || !(rt = omp_ext_runtime()))
    return 0;
  if (rt->get_level() != 0) /* a nested region: not bound */
    return 0;
  if ((n = omp_ext_hooks_take_pending_threads()) > 0)
    rt->set_num_threads(n);
  __atomic_fetch_add(&omp_ext_hook_calls, 1, __ATOMIC_RELAXED);
  t->fn = *fn, t->data = *data, t->rt = rt;
  t->gen = gen, t->want = omp_ext_tramp_request(rt, num_threads), t->ran = 0, t->bound = 0;
  t->bind = 1, t->record = 0;
  *fn = omp_ext_trampoline, *data = t;
  return 1;
}

/* The timer of an outermost region (level 0): the construct \p key (the
 * outlined function under libgomp, before any trampoline; the code address
 * under libomp, as OMPT's codeptr_ra), named after \p ra, the wrapper's
 * return address (in the function holding the construct, as OMPT's
 * codeptr_ra under libomp, unless the compiler made the call a tail call);
 * and the recording trampoline for the first instance of its team size
 * unless the binding one (\p bits OMP_EXT_PRE_TRAMPOLINE) is in place.  Returns
 * \p bits | OMP_EXT_PRE_TIMED when timed. */
int omp_ext_tramp_pre_timed(struct omp_ext_tramp *t, omp_ext_gomp_fn *fn, void **data,
                            unsigned num_threads, const void *key, const void *ra, int bits)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  if (!rt || rt->get_level() != 0)
    return bits;
  if (__builtin_expect(omp_ext_timing_begin(key, ra, omp_ext_tramp_request(rt, num_threads)),
                       0)) {
    /* The first instance of this region and team size: every thread says
     * where it runs. */
    if (!(bits & OMP_EXT_PRE_TRAMPOLINE)) {
      t->fn = *fn, t->data = *data, t->rt = rt, t->bind = 0;
      *fn = omp_ext_trampoline, *data = t;
    }
    t->record = 1;
  }
  return bits | OMP_EXT_PRE_TIMED;
}

/* Per-region control (a plan, auto: region.c) of an outermost region: its
 * team size (*\p num_threads, unless the program gave a clause) and the
 * binding trampoline for its configuration unless the team is known there.
 * Returns PRE_* bits; 0 when the region is left to the global policy. */
static int pre_region(struct omp_ext_tramp *t, omp_ext_gomp_fn *fn, void **data,
                      unsigned *num_threads, const void *ra)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  unsigned want;
  if (!rt || omp_ext_timing_open() || rt->get_level() != 0)
    return 0; /* nested: left to the runtime */
  t->pick.cfg = NULL;
  omp_ext_region_pick(ra, *num_threads, &t->pick);
  if (!t->pick.region)
    return 0;
  if (t->pick.threads && !*num_threads)
    *num_threads = t->pick.threads;
  if (!t->pick.cfg)
    return OMP_EXT_PRE_REGION;
  omp_ext_tl_settled_gen = 0; /* (the global policy's team is no longer known bound) */
  want = omp_ext_tramp_request(rt, *num_threads);
  if (omp_ext_tl_settled_cfg == t->pick.cfg && omp_ext_tl_settled_n == want && !rt->get_dynamic())
    return OMP_EXT_PRE_REGION;
  __atomic_fetch_add(&omp_ext_hook_calls, 1, __ATOMIC_RELAXED);
  t->fn = *fn, t->data = *data, t->rt = rt;
  t->gen = 0, t->want = want, t->ran = 0, t->bound = 0;
  t->bind = 1, t->record = 0;
  *fn = omp_ext_trampoline, *data = t;
  return OMP_EXT_PRE_REGION | OMP_EXT_PRE_TRAMPOLINE;
}

/* The slow path of a wrapper (a policy was set, per-region control, or
 * OMP_EXT_TIMING): per-region control, else the binding trampoline unless
 * the team is known bound; then the timer of an outermost region
 * (pre_timed).  Returns PRE_* bits. */
int omp_ext_tramp_pre(struct omp_ext_tramp *t, omp_ext_gomp_fn *fn, void **data,
                      unsigned *num_threads, const void *key, const void *ra)
{
  int bits = 0;
  t->pick.region = NULL, t->pick.cfg = NULL;
  if (__atomic_load_n(&omp_ext_region_mode, __ATOMIC_RELAXED))
    bits = pre_region(t, fn, data, num_threads, ra);
  if (!(bits & OMP_EXT_PRE_TRAMPOLINE) && !t->pick.cfg && wrap(t, fn, data, *num_threads))
    bits |= OMP_EXT_PRE_TRAMPOLINE;
  if (!omp_ext_timing_on())
    return bits;
  return omp_ext_tramp_pre_timed(t, fn, data, *num_threads, key, ra, bits);
}

