/*
 * Hooks: what every runtime backend's hooks share (see runtime.h), below
 * them and below the binding (bind.c), so that neither calls up:
 * the policy's generation, the binder bind.c registers, the team size of
 * OMP_EXT_HT_POLICY=POLICY:N still to apply, the hook bits
 * (omp_ext_ht_hooks()) and the count of per-region hook calls
 * (omp_ext_ht_hook_calls()).
 *
 * The hooks themselves -- where omp_ext gets control at the start of every
 * parallel region, to (re)bind threads that a team added or that changed
 * their number -- are the backends' (backend_gomp.c: the GOMP_parallel*
 * wrappers; backend_kmp.c: the OMPT tool and the __kmpc_fork_call
 * wrapper), with the binding trampoline they share in trampoline.c; the
 * table of backends is backends.c.
 */
#include "omp_ext.h"
#include "private/runtime.h"

static int hooks_seen; /* OMP_EXT_HOOK_* bits */

void omp_ext_hooks_mark(int bit)
{
  if (!(__atomic_load_n(&hooks_seen, __ATOMIC_RELAXED) & bit))
    __atomic_fetch_or(&hooks_seen, bit, __ATOMIC_RELAXED);
}

int omp_ext_ht_hooks(void)
{
  return __atomic_load_n(&hooks_seen, __ATOMIC_RELAXED);
}

unsigned long omp_ext_hook_calls; /* per-region callbacks run (diagnostics); atomic */

unsigned long omp_ext_ht_hook_calls(void)
{
  return __atomic_load_n(&omp_ext_hook_calls, __ATOMIC_RELAXED);
}

/* The policy's generation, the binder and OMP_EXT_HT_POLICY's pending team
 * size: what bind.c tells the hooks (see runtime.h). */
unsigned omp_ext_hooks_gen;         /* atomic; 0 = no policy ever set */
static omp_ext_binder_fn binder_fn; /* set once at load */
int omp_ext_hooks_pending;          /* atomic */

unsigned omp_ext_hooks_generation(void)
{
  return __atomic_load_n(&omp_ext_hooks_gen, __ATOMIC_ACQUIRE);
}

void omp_ext_hooks_new_generation(void)
{
  unsigned g = __atomic_load_n(&omp_ext_hooks_gen, __ATOMIC_RELAXED) + 1;
  __atomic_store_n(&omp_ext_hooks_gen, g ? g : 1, __ATOMIC_RELEASE);
}

void omp_ext_hooks_set_binder(omp_ext_binder_fn fn)
{
  __atomic_store_n(&binder_fn, fn, __ATOMIC_RELEASE);
}

int omp_ext_hooks_bind(unsigned index)
{
  omp_ext_binder_fn fn = __atomic_load_n(&binder_fn, __ATOMIC_ACQUIRE);
  return fn ? fn(index) : omp_ext_success;
}

void omp_ext_hooks_set_pending_threads(int n)
{
  __atomic_store_n(&omp_ext_hooks_pending, n, __ATOMIC_RELAXED);
}

int omp_ext_hooks_take_pending_threads(void)
{
  if (!__atomic_load_n(&omp_ext_hooks_pending, __ATOMIC_RELAXED))
    return 0;
  return __atomic_exchange_n(&omp_ext_hooks_pending, 0, __ATOMIC_RELAXED);
}
