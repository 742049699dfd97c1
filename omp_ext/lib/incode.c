/*
 * The in-code policy API's setters: omp_set_ht_policy() and
 * omp_set_ht_policy_num_threads() (incode.h).  They sit above everything
 * they steer -- the binding (bind.c: the policy's state, the binder, the
 * getters and omp_ht_rebind()), per-region control (region.c: auto) and the
 * runtime's backend (backends.c: arm and check its hooks) -- so that none
 * of those calls up.
 */
#include "private/bind.h"
#include "omp_ext.h"
#include "private/region.h"
#include "private/runtime.h"

struct apply {
  const struct omp_ext_runtime *rt;
  int err;
};

static void apply_thread(void *arg)
{
  struct apply *a = arg;
  int err;
  if (a->rt->get_level() == 1 && (err = omp_ext_bind_self((unsigned)a->rt->get_thread_num())) != 0)
    __atomic_store_n(&a->err, err, __ATOMIC_RELAXED);
}

/* omp_ht_policy_auto: per-region placement from the next region on
 * (region.c); the global policy is left as it is for what auto leaves. */
static int set_auto(const struct omp_ext_runtime *rt, int nthreads)
{
  int err = omp_ext_region_auto_start();
  if (err)
    return err;
  if (nthreads > 0)
    rt->set_num_threads(nthreads);
  omp_ext_bind_set_auto();
  omp_ext_hooks_check(rt);
  return omp_ext_success;
}

/* Set the policy and bind a team of \p nthreads now (0: the default size). */
static int set_policy(omp_ht_policy_t policy, int nthreads)
{
  const struct omp_ext_runtime *rt;
  struct apply a;
  int err;
  if (((int)policy < 0 || (int)policy >= OMP_EXT_NPOLICIES) && policy != omp_ht_policy_auto)
    return omp_ext_err_policy;
  if (!(rt = omp_ext_runtime()))
    return omp_ext_err_runtime;
  if (rt->get_level() > 0)
    return omp_ext_err_in_parallel;
  if (policy == omp_ht_policy_auto)
    return set_auto(rt, nthreads);
  omp_ext_region_stop(); /* (a policy of one order ends auto or a plan) */
  if ((err = omp_ext_bind_publish(policy)) != 0)
    return err;
  omp_ext_hooks_arm(); /* the runtime's backend: bind the next teams */
  if (nthreads > 0)
    rt->set_num_threads(nthreads);
  if (!rt->parallel) /* no way to run a team: the hooks bind at the next region */
    return omp_ext_success;
  a.rt = rt;
  a.err = omp_ext_success;
  rt->parallel(apply_thread, &a, nthreads > 0 ? (unsigned)nthreads : 0, 0);
  omp_ext_hooks_check(rt);
  return a.err;
}

int omp_set_ht_policy(omp_ht_policy_t policy)
{
  return set_policy(policy, 0);
}

int omp_set_ht_policy_num_threads(omp_ht_policy_t policy, int num_threads)
{
  if (num_threads < 1)
    return omp_ext_err_range;
  return set_policy(policy, num_threads);
}
