/*
 * omp_ext/incode.h -- In-code policy (OpenMP-style API).
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_INCODE_H
#define OMP_EXT_INCODE_H

#include <hwloc.h>

#include "omp_ext/export.h"
#include "omp_ext/policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup ht_api In-code policy (OpenMP-style API)                       */
/* ------------------------------------------------------------------------ */

/*
 * The program chooses the policy between parallel regions; from then on,
 * thread t of every level-1 team runs on PU order[t % P], order being the
 * policy's order (omp_ext_order()) over the P allowed PUs of this machine.
 * The same libomp_ext works under libgomp (GCC), libomp (Clang) and libiomp5:
 * it links no OpenMP runtime and finds the program's at run time (dlsym).
 *
 * How the binding is kept (details and limits: omp_set_ht_policy(3)):
 * - omp_set_ht_policy() binds a team of the next region's size at once,
 *   from inside a region it runs (GOMP_parallel, which libgomp, libomp and
 *   libiomp5 all export);
 * - then a hook re-binds, at the start of each region, every thread whose
 *   number changed or that is new (a team that grows): wrappers of
 *   __kmpc_fork_call under libomp/libiomp5 for clang-built code (libomp_ext
 *   before the runtime in the link order, or preloaded; no OMPT tool is
 *   then started), else an OMPT tool under libomp/libiomp5 (ompt_callback_implicit_task until the team is found
 *   bound, then only ompt_callback_parallel_begin watching the team size;
 *   no per-region callback at all while no policy was set; a tool named in
 *   OMP_TOOL_LIBRARIES is chained, not displaced), wrappers of GOMP_parallel
 *   and GOMP_parallel_loop_* / _sections under libgomp (effective when
 *   libomp_ext comes before the runtime in the link order, as with
 *   `cc ... -lomp_ext -fopenmp`; one branch per region without a policy);
 *   omp_ext_ht_hook_calls() counts the hooks' work;
 * - each thread binds itself with kmp_set_affinity() where the runtime has
 *   it (keeps libomp's own place bookkeeping right), else
 *   hwloc_set_cpubind(HWLOC_CPUBIND_THREAD).
 * Nested regions (omp_get_level() > 1) are not bound: an inner team's
 * primary is the outer thread and keeps its outer PU; its other threads
 * run where the runtime puts them -- libgomp: the outer thread's PU (it
 * creates them from the outer thread for each nested region, and they
 * inherit its mask); libomp: the process's whole mask as libomp found it
 * at start-up (it gives every new thread that mask).  Both always inside
 * the allowed PUs (test_bind "nested teams").
 * After fork() the child's next level-1 region binds every thread again,
 * thread 0 included (pthread_atfork): libomp re-initialises in the child and
 * would otherwise leave thread 0 on the whole allowed set.  (libgomp does
 * not run a parallel region in the child of a process that ran one: it
 * hangs there, with or without omp_ext.)
 * Nothing is ever bound outside the allowed PUs, read once, at first use
 * (hwloc allowed cpuset and the process binding, as omp_ext_topo_load()).
 * Under an MPI launcher (omp_ext_rank_from_env()) the allowed PUs are this
 * rank's domain, as for htplaces exec: omp_ext_rank_restrict().
 *
 * Environment: OMP_EXT_HT_POLICY=POLICY[:N] (e.g. "spn:8") acts as
 * omp_set_ht_policy_num_threads(POLICY, N) before the first region (N
 * optional); an invalid value is reported on stderr and ignored.
 *
 * Runtime entry points: libomp_ext also exports these symbols, which are
 * not for calling but for the runtimes to find (interposition):
 * interposed: ompt_start_tool
 * interposed: GOMP_parallel GOMP_parallel_sections
 * interposed: GOMP_parallel_loop_static GOMP_parallel_loop_dynamic
 * interposed: GOMP_parallel_loop_guided GOMP_parallel_loop_runtime
 * interposed: GOMP_parallel_loop_nonmonotonic_dynamic
 * interposed: GOMP_parallel_loop_nonmonotonic_guided
 * interposed: GOMP_parallel_loop_nonmonotonic_runtime
 * interposed: GOMP_parallel_loop_maybe_nonmonotonic_runtime
 * interposed: __kmpc_fork_call __kmpc_push_num_threads
 * ompt_start_tool is the OMPT tool's entry (OpenMP 5.2 §19.2.1); the GOMP_*
 * wrappers re-bind a team under libgomp and call libgomp's own function
 * (dlsym(RTLD_NEXT)); the __kmpc_* ones do the same under libomp and
 * libiomp5 (clang's entry points), and then no OMPT tool is started unless
 * OMP_TOOL_LIBRARIES names one to chain.
 * interposed: omp_get_max_threads omp_get_max_threads_
 * The omp_get_max_threads wrappers return the runtime's answer and note that
 * the program asked: with dyn-var false a region without a num_threads
 * clause gets that many threads (OpenMP 5.2 §10.1.1), and a program may cut
 * its work by it, so from then on per-region control (auto, a plan) keeps
 * every region's team size, as if it had a num_threads clause of that
 * count, and only places its threads.
 */

/** Bits of omp_ext_ht_hooks(). */
enum omp_ext_hook_e {
  omp_ext_hook_ompt_ready = 1 << 0, /**< the runtime started omp_ext's OMPT tool */
  omp_ext_hook_ompt = 1 << 1,       /**< the OMPT hook ran in a region with a policy */
  omp_ext_hook_gomp = 1 << 2,       /**< a GOMP_parallel* wrapper ran with a policy */
  omp_ext_hook_gomp_ready = 1 << 3, /**< libgomp: the program's GOMP_parallel* calls reach
                                         omp_ext's wrappers (link order right; known from
                                         the first omp_set_ht_policy(), before any region) */
  omp_ext_hook_kmpc = 1 << 4,       /**< the __kmpc_fork_call wrapper bound a team */
  omp_ext_hook_kmpc_ready = 1 << 5  /**< libomp/libiomp5: the program's __kmpc_fork_call
                                         calls reach omp_ext's wrapper (link order right;
                                         known from the first omp_set_ht_policy()) */
};

/**
 * Set the placement policy of the following parallel regions.
 *
 * Binds a team of omp_get_max_threads() threads at once (runs one empty
 * region); later teams are bound by the hooks.  A team larger than the
 * allowed PUs wraps around (thread t on order[t % P]); omp_ext says so once
 * on stderr.  omp_ht_policy_os unbinds: every thread gets the whole allowed
 * set back.  Thread-safe (one process-wide policy, guarded by a mutex);
 * callable from the initial thread of any contention group.
 *
 * \param policy  an omp_ht_policy_t.
 * \return 0; omp_ext_err_policy (not a policy); omp_ext_err_in_parallel
 *         (called inside a parallel region, active or not: omp_get_level()
 *         > 0; nothing changed); omp_ext_err_runtime (no OpenMP runtime in
 *         the process); omp_ext_err_topology, omp_ext_err_empty,
 *         omp_ext_err_nomem (as omp_ext_topo_load()); omp_ext_err_topology
 *         also when hwloc's environment (HWLOC_XMLFILE, HWLOC_SYNTHETIC,
 *         HWLOC_FSROOT, without HWLOC_THISSYSTEM=1) replaces this machine:
 *         hwloc_topology_is_thissystem() is then false and hwloc's binding
 *         calls would do nothing, so nothing is bound; omp_ext_err_parse
 *         (a meta-policy, omp_ht_policy_energy, while the model environment
 *         read when the library was loaded is invalid); omp_ext_err_bind (the OS refused a binding: the
 *         policy is set, some thread is not bound); the errors of
 *         omp_ext_rank_restrict() (inconsistent launcher variables, more
 *         ranks than cores).
 * omp_ht_policy_energy binds in its base order (omp_ext_order()) under the
 * model of the environment when the library was loaded
 * (omp_ext_model_from_env(): OMP_EXT_POWER_MODEL, OMP_EXT_SIGMA,
 * OMP_EXT_SERIAL_FRACTION); the team size stays the caller's:
 * omp_ext_policy_resolve() recommends one.
 * Source: paper §3 (application layer); OpenMP 5.2 §18.2 (omp_get_level),
 * §19 (OMPT); hwloc_set_cpubind().
 */
OMP_EXT_API int omp_set_ht_policy(omp_ht_policy_t policy);

/**
 * omp_set_num_threads(\p num_threads), then omp_set_ht_policy(\p policy),
 * binding a team of \p num_threads threads at once.
 *
 * \param num_threads  team size of the following regions, >= 1 (may exceed
 *                     the allowed PUs: wrap-around).
 * \return as omp_set_ht_policy(); omp_ext_err_range if num_threads < 1.
 */
OMP_EXT_API int omp_set_ht_policy_num_threads(omp_ht_policy_t policy, int num_threads);

/** The current policy; omp_ht_policy_os until one is set. */
OMP_EXT_API omp_ht_policy_t omp_get_ht_policy(void);

/**
 * The PU that thread \p thread_num of a level-1 team gets under the current
 * policy: its OS index (what sched_getcpu() reports there).
 *
 * \return the OS index (>= 0); omp_ext_err_invalid (thread_num < 0);
 *         omp_ext_err_unsupported (policy os: no single PU, see
 *         omp_get_ht_cpuset()); errors of omp_ext_topo_load().
 */
OMP_EXT_API int omp_get_ht_pu(int thread_num);

/**
 * The cpuset (OS indexes) that thread \p thread_num of a level-1 team gets
 * under the current policy: one PU, or every allowed PU for
 * omp_ht_policy_os.
 *
 * \param set  an allocated hwloc bitmap; overwritten.
 * \return 0; omp_ext_err_invalid (thread_num < 0 or set NULL); errors of
 *         omp_ext_topo_load().
 */
OMP_EXT_API int omp_get_ht_cpuset(int thread_num, hwloc_bitmap_t set);

/**
 * Bind the calling thread as the policy says, if it is not already: for a
 * region that no hook sees (see above), call it first thing in the region.
 * Does nothing outside level-1 regions or while no policy was set.
 *
 * \return 0; omp_ext_err_runtime; omp_ext_err_bind; omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ht_rebind(void);

/**
 * Which hooks are live in this process: omp_ext_hook_* bits (diagnostics:
 * which path keeps the binding under the runtime the program uses).
 */
OMP_EXT_API int omp_ext_ht_hooks(void);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_INCODE_H */
