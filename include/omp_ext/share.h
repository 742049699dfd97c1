/*
 * omp_ext/share.h -- capacity-weighted loop split (issue 15).
 *
 * Why (paper §1.2): a thread alone on its core (a "full-resource" PU) runs
 * faster than each of two threads sharing a core, which get (1 + sigma) / 2
 * of a core each (sigma ~ 0.3).  A static schedule that hands every thread
 * the same number of iterations therefore waits for the threads that share,
 * whenever a placement mixes the two: spn with an odd N, speedup past the
 * cores, hybrid P/E machines, more threads than allowed PUs.  The calls
 * below give each thread a share of an iteration range proportional to its
 * capacity in the current placement, so that all threads finish together
 * without schedule(dynamic)'s per-chunk cost.
 *
 * Three layers:
 * - pure arithmetic, callable anywhere, no OpenMP: omp_ext_capacity_weights()
 *   (weights from a list of thread bindings on a topology and sigma),
 *   omp_ext_kind_capacity() (relative speed of a CPU kind) and
 *   omp_ext_share_split() (proportional, contiguous split);
 * - collective calls inside a parallel region, which read every team
 *   member's actual binding: omp_ext_team_weights() and omp_ext_share();
 * - a dynamic tail after the capacity-weighted head, for what the model
 *   cannot see: omp_ext_tail_init() and omp_ext_tail_next().
 *
 * Capacity model (weights, in cores' worth of a most performant core):
 * every thread is put on one PU (its binding's PU when bound to one; see
 * omp_ext_capacity_weights() for wider bindings).  With m_p threads on PU p
 * and b_c busy PUs on core c of CPU kind factor f_c:
 *
 *     weight(thread on p) = f_c * (1 + sigma * (b_c - 1)) / b_c / m_p
 *
 * so a thread alone on its core weighs f_c; k threads on k siblings of a
 * core weigh (1 + sigma (k - 1)) / k each; m threads time-sharing one PU
 * weigh 1/m of that PU's share each (time-sharing adds nothing: sigma is 0
 * between threads of one PU).  Other processes' load is not seen.
 *
 * Inside a single, masked, master or critical construct the collective
 * calls refuse (omp_ext_err_in_construct) where the construct's ends reach
 * the library: it exports the runtime entry points below, which forward
 * to the runtime's own (omp_ext/construct.c; see omp_ext_share()).
 * interposed: GOMP_single_copy_start GOMP_single_copy_end
 * interposed: GOMP_critical_start GOMP_critical_end
 * interposed: GOMP_critical_name_start GOMP_critical_name_end
 * interposed: __kmpc_single __kmpc_end_single __kmpc_master __kmpc_end_master
 * interposed: __kmpc_masked __kmpc_end_masked
 * interposed: __kmpc_critical __kmpc_critical_with_hint __kmpc_end_critical
 *
 * Manual page: omp_ext_share(3).  OpenMP references are to the OpenMP 5.2
 * specification: §2.1 (the team,
 * omp_get_thread_num), §11.5 (worksharing-loop schedule kinds static and
 * dynamic), §15.3.1 (barrier), §18.2 (omp_get_level, omp_get_num_threads),
 * §6.5 (OMP_PLACES), §10.1.3 (thread affinity).
 */
#ifndef OMP_EXT_SHARE_H
#define OMP_EXT_SHARE_H

#include <hwloc.h>

#include "omp_ext/export.h"

#ifdef __cplusplus
extern "C" {
#endif

struct omp_ext_topo;

/* ------------------------------------------------------- pure arithmetic */

/**
 * Relative capacity of CPU kind rank \p kind (omp_ext_pu_t::kind: 0 is the
 * most performant kind) against kind 0, in (0, 1].
 *
 * hwloc ranks kinds by efficiency but gives no ratio between them; the ratio
 * used here is that of the kinds' maximum frequencies, hwloc cpukind info
 * "FrequencyMaxMHz" (else "FrequencyBaseMHz"), e.g. 3900 / 5000 = 0.78 for
 * the E-cores of a Core i7-1370P.  Where either kind lacks a frequency
 * (hwloc from CPUID only: "CoreType" infos), or the machine has one kind,
 * the factor is 1: no difference is claimed that hwloc does not give.
 * Source: hwloc_cpukinds_get_info() (hwloc 2.4+).
 *
 * \param topo    a loaded topology.
 * \param kind    a kind rank, 0 .. omp_ext_topo_nkinds(topo) - 1.
 * \param factor  receives the factor, in (0, 1] (1 for kind 0).
 * \return 0; omp_ext_err_invalid (NULL pointer, or kind not the rank of a
 *         kind of an allowed PU).
 */
OMP_EXT_API int omp_ext_kind_capacity(const struct omp_ext_topo *topo, unsigned kind,
                                      double *factor);

/**
 * Capacity weights of a team from its threads' bindings (the model above).
 *
 * Thread t is bound to the PUs \p bindings[t] (OS indexes; only the topology's
 * allowed PUs count).  A thread bound to one PU sits there.  Threads bound to
 * several PUs (a place of a whole core, an unbound thread) are put, in
 * thread order after all single-PU threads, each on the PU of its set that
 * then has the fewest threads, ties to the PU whose core has the fewest busy
 * PUs, then the more performant kind, then hwloc logical order: the way
 * Linux's scheduler spreads runnable threads over idle cores first.  Threads
 * with the same wide binding are interchangeable (the scheduler migrates
 * them), so they then get the mean of their weights: e.g. 3 unbound threads
 * on 2 single-PU cores weigh 2/3 each.
 *
 * The result is deterministic: a function of the topology, the bindings in
 * thread order and sigma only.
 *
 * \param topo      a loaded topology (this machine or a fixture).
 * \param bindings  \p n cpusets, bindings[t] the binding of thread t.
 * \param n         team size, >= 1.
 * \param sigma     capacity added by each busy sibling of a core, in [0, 1]
 *                  (paper §1.2: about 0.3; 0: a sibling adds nothing; 1: a
 *                  sibling is worth a core).
 * \param weights   an array of \p n; receives weight[t] in cores' worth of a
 *                  kind-0 core, each in (0, 1].
 * \return 0; omp_ext_err_invalid (NULL pointer, n == 0, sigma outside [0, 1]
 *         or not a number, a binding with no allowed PU); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_capacity_weights(const struct omp_ext_topo *topo,
                                         const hwloc_const_cpuset_t *bindings, unsigned n,
                                         double sigma, double *weights);

/**
 * Split the iteration range [begin, end) into \p n contiguous shares
 * proportional to \p weights: share t is [bounds[t], bounds[t + 1]).
 *
 * Largest-remainder (Hamilton) rounding: with N = end - begin and quota
 * q_t = N w_t / sum(w), share t gets floor(q_t) iterations, and the
 * N - sum(floor(q_t)) left over go one each to the largest fractional parts
 * (ties: lower thread number first).  So the shares cover the range exactly
 * once, in thread order, without overlap; each differs from its quota by
 * less than one iteration; the split is deterministic.  A range with fewer
 * iterations than threads leaves some shares empty; end <= begin is an empty
 * range (every share [begin, begin)).
 *
 * \param begin, end  the range, any longs; N = end - begin must fit a long.
 * \param weights     \p n finite weights >= 0, not all 0.
 * \param n           number of shares, >= 1.
 * \param bounds      an array of n + 1; bounds[0] = begin, bounds[n] = end
 *                    (begin when the range is empty).
 * \return 0; omp_ext_err_invalid (NULL pointer, n == 0, a weight negative
 *         or not finite, all weights 0); omp_ext_err_overflow (end - begin
 *         overflows a long); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_share_split(long begin, long end, const double *weights, unsigned n,
                                    long *bounds);

/* --------------------------------------------- inside a parallel region */

/**
 * Sigma used by omp_ext_team_weights() and omp_ext_share(): the paper's 0.3
 * (OMP_EXT_MODEL_SIGMA) unless the environment's OMP_EXT_SIGMA (read once,
 * at the first use, through omp_ext_model_from_env(): e.g. a sigma measured
 * on the machine) or omp_ext_set_share_sigma() says otherwise.
 *
 * \param sigma  receives it, in [0, 1].
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_parse (OMP_EXT_SIGMA,
 *         OMP_EXT_POWER_MODEL or OMP_EXT_SERIAL_FRACTION set to an invalid
 *         value and no sigma set: see omp_ext_model_from_env()).
 */
OMP_EXT_API int omp_ext_get_share_sigma(double *sigma);

/**
 * Set the sigma of the following omp_ext_team_weights() and omp_ext_share()
 * calls, process-wide (thread-safe; call it outside the region or from one
 * thread before the collective calls: all threads of a team must see the
 * same value).
 *
 * \param sigma  in [0, 1].
 * \return 0; omp_ext_err_invalid (outside [0, 1] or not a number).
 */
OMP_EXT_API int omp_ext_set_share_sigma(double sigma);

/**
 * The capacity weights of the calling thread's team, in thread order.
 *
 * Collective, like a worksharing construct (OpenMP 5.2 §11): every thread of
 * the innermost team must call it, in the same order relative to other
 * worksharing constructs and barriers, and none may be inside a
 * worksharing construct.  From inside a single, masked, master or critical
 * construct of a team of more than one thread it returns
 * omp_ext_err_in_construct at once, without waiting, where the runtime lets
 * the library see the construct (see omp_ext_share() for where it does
 * not: there the call waits forever for teammates that never come).  Each thread reads its own binding
 * (hwloc_get_cpubind(HWLOC_CPUBIND_THREAD): what omp_set_ht_policy(),
 * OMP_PLACES/OMP_PROC_BIND, GOMP_CPU_AFFINITY or KMP_AFFINITY made it), the
 * team exchanges them through the runtime's GOMP_single_copy_start/end and
 * GOMP_barrier (exported by libgomp, libomp and libiomp5), and each thread
 * then weighs the team with omp_ext_capacity_weights() and the current
 * sigma on this machine's topology (hwloc's allowed PUs; the process
 * binding is ignored, since libgomp pins the initial thread to its place):
 * the same pure function of the same data in every thread.  The weights of
 * the last four distinct teams (bindings in thread order, and sigma) are
 * cached process-wide under a mutex, so a team that calls again recomputes
 * nothing; the exchange itself costs two barriers per call, and the last
 * thread done with the shared board frees it.  A team of one gets 1 and
 * synchronises nothing.
 *
 * Errors of the exchange are the same in every thread; argument errors are
 * each thread's own, reported after it took part in the exchange (the team
 * never hangs on them).  Outside a parallel region (omp_get_level() == 0)
 * nothing is exchanged.
 *
 * \param weights  an array of at least \p n, the calling thread's own (every
 *                 thread writes the whole team's weights into its array);
 *                 receives weights[t] for t < omp_get_num_threads(), as
 *                 omp_ext_capacity_weights().
 * \param n        its length, >= omp_get_num_threads().
 * \return 0; omp_ext_err_not_in_parallel (not inside a parallel region);
 *         omp_ext_err_in_construct (called inside a single, masked, master
 *         or critical construct of a team of more than one thread, as far
 *         as the runtime lets the library see it: the caller's own error,
 *         no barrier entered); omp_ext_err_invalid (weights NULL or n below
 *         the team size);
 *         omp_ext_err_runtime (no OpenMP runtime, or it lacks
 *         GOMP_single_copy_start/end or GOMP_barrier); omp_ext_err_topology, omp_ext_err_empty (as
 *         omp_ext_topo_load(); omp_ext_err_topology also when hwloc's
 *         environment -- HWLOC_SYNTHETIC, HWLOC_XMLFILE, HWLOC_FSROOT
 *         without HWLOC_THISSYSTEM=1 -- replaces this machine, whose real
 *         bindings would be weighed on it); omp_ext_err_bind (the OS cannot tell a
 *         thread's binding); omp_ext_err_parse (as
 *         omp_ext_get_share_sigma()); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_team_weights(double *weights, int n);

/**
 * The calling thread's share of the iteration range [begin, end): the range
 * is split among the team with omp_ext_share_split() on the weights of
 * omp_ext_team_weights(), and thread t gets [*my_begin, *my_end).
 *
 *     int err = 0;
 *     #pragma omp parallel reduction(| : err)
 *     {
 *       long lo, hi, i;
 *       int e = omp_ext_share(0, n, &lo, &hi);
 *       for (i = lo; !e && i < hi; i++)
 *         work(i);
 *       err |= e != 0;   // every thread gets the error: the loop was not done
 *     }
 *
 * Collective, as omp_ext_team_weights(): every thread of the team calls it
 * with the same begin and end (else omp_ext_err_mismatch in every thread).
 * Not from inside a single, masked, master or critical construct of a team
 * of more than one thread, nor from only some of the team's threads (e.g.
 * under `if (omp_get_thread_num() == 0)`): the exchange would wait in the
 * runtime's own barrier for teammates that never come.  Where the program's
 * calls to the runtime at the construct's ends reach libomp_ext (linked
 * before the runtime, as for the hooks: omp_ext_ht_hooks(3)) the caller
 * gets omp_ext_err_in_construct at once instead: clang -> libomp or
 * libiomp5: single (nowait too), masked, master, critical; gcc -> libgomp:
 * single with copyprivate, critical.  Not seen, and so still a hang
 * (omp_ext_share(3), BUGS): under gcc a plain single (its end emits no
 * call: inside it cannot be told from after a `single nowait`) and
 * masked/master (an inline omp_get_thread_num() test); a call made by some
 * threads only, outside any construct, or in one section of `sections`,
 * an `ordered` block or an explicit task (one thread runs each); any construct when the runtime
 * comes first in the lookup order (LD_PRELOAD of the runtime, or linked
 * before libomp_ext).  No barrier follows the loop (add one, or
 * end the region, as after a nowait loop).  For several loops in one
 * region, call omp_ext_team_weights() once and omp_ext_share_split() per
 * loop, which synchronises nothing.
 *
 * \param begin, end          the range, as omp_ext_share_split().
 * \param my_begin, my_end    receive the share (my_begin == my_end: none);
 *                            unchanged on error.
 * \return 0; omp_ext_err_not_in_parallel (outside a parallel region);
 *         omp_ext_err_in_construct (inside a single, masked, master or
 *         critical construct of a team of more than one thread, where seen:
 *         see above; only the calling thread gets it, no share is given);
 *         omp_ext_err_invalid (NULL pointer); omp_ext_err_overflow (end - begin
 *         overflows a long); omp_ext_err_mismatch (the team's threads passed
 *         different begin or end: every thread gets it, no share is given);
 *         the errors of omp_ext_team_weights().
 */
OMP_EXT_API int omp_ext_share(long begin, long end, long *my_begin, long *my_end);

/* ------------------------------------------------------ the dynamic tail */

/**
 * A range split in two: a head [begin, cut) to share by capacity
 * (omp_ext_share(), omp_ext_share_split()) and a tail [cut, end) that the
 * team takes chunk by chunk, first come first served
 * (omp_ext_tail_next()).  Hybrid static/dynamic scheduling (Donfack,
 * Grigori, Gropp and Kale, IPDPS 2012) on capacity weights: the head costs
 * nothing per iteration, and the tail absorbs what the capacity model
 * cannot see -- another process or a hypervisor taking part of a PU, a
 * clock that changes -- at the per-chunk cost of schedule(dynamic) on the
 * tail only.  The threads that finish their head first take most of the
 * tail.  Threads that time-share one PU under a long-slice scheduler
 * (SCHED_RR: 100 ms) run one after the other: the first may take the tail
 * before the second started its head, which then ends the region alone
 * (measured: 1.10 x the balanced limit against 1.00 without a tail,
 * benchmarks/RESULTS.md); there, use fraction 0.
 *
 * Fill it with omp_ext_tail_init() before each region (or in a single
 * construct followed by a barrier), read begin, cut and end, and do not
 * write it while a team uses it.  One tail serves one loop of one team:
 * every thread of the team shares the same object.
 */
typedef struct omp_ext_tail {
  long begin;          /**< the range's first iteration */
  long cut;            /**< head: [begin, cut); tail: [cut, end) */
  long end;            /**< one past the range's last iteration (>= begin) */
  long chunk;          /**< iterations per omp_ext_tail_next() (the last may be fewer) */
  unsigned long taken; /**< tail iterations handed out so far (atomic; the calls' own) */
} omp_ext_tail_t;

/**
 * Prepare \p tail for the range [begin, end): the last
 * round(\p fraction x (end - begin)) iterations form the tail, handed out
 * in chunks of \p chunk; the rest is the head.  fraction 0 is a pure
 * capacity split (no tail); 1 is schedule(dynamic, chunk) alone (no head).
 * end <= begin is an empty range (begin = cut = end).  Pure arithmetic: no
 * OpenMP call, callable anywhere.
 *
 * \param tail      the object to fill (any previous content is discarded).
 * \param begin, end the range, as omp_ext_share_split().
 * \param fraction  share of the range in the tail, in [0, 1] (0.1: a tenth).
 * \param chunk     iterations per chunk, >= 1.
 * \return 0; omp_ext_err_invalid (tail NULL, fraction outside [0, 1] or
 *         not a number, chunk < 1); omp_ext_err_overflow (end - begin
 *         overflows a long).
 */
OMP_EXT_API int omp_ext_tail_init(omp_ext_tail_t *tail, long begin, long end, double fraction,
                                  long chunk);

/**
 * The next chunk of \p tail's tail for the calling thread: [*lo, *hi), at
 * most tail->chunk iterations, each iteration of [cut, end) given to exactly
 * one caller, in increasing order.  Safe from any number of threads at once
 * (one compare-and-swap per chunk; the count never passes the tail, so it
 * cannot overflow); no barrier, no OpenMP call.
 *
 *     omp_ext_tail_t tail;
 *     int err = omp_ext_tail_init(&tail, 0, n, 0.1, 16);
 *     if (err)
 *       return err;
 *     #pragma omp parallel reduction(| : err)
 *     {
 *       long lo, hi, i;
 *       int e = omp_ext_share(tail.begin, tail.cut, &lo, &hi), r = 0;
 *       for (i = lo; !e && i < hi; i++)
 *         work(i);
 *       while (!e && (r = omp_ext_tail_next(&tail, &lo, &hi)) > 0)
 *         for (i = lo; i < hi; i++)
 *           work(i);
 *       err |= e != 0 || r < 0;
 *     }
 *     if (err)   ... the loop is not done: report it, or run it another way
 *
 * \param tail    a tail filled by omp_ext_tail_init().
 * \param lo, hi  receive the chunk; unchanged when 0 or an error is returned.
 * A tail used up by one region has nothing for the next: fill it again
 * before each region (the calls cannot tell an iteration left out).
 *
 * \return 1 (a chunk was given); 0 (the tail is used up); omp_ext_err_invalid
 *         (a NULL pointer, or fields omp_ext_tail_init() cannot have left:
 *         cut outside [begin, end], chunk < 1, more taken than the tail
 *         holds).
 */
OMP_EXT_API int omp_ext_tail_next(omp_ext_tail_t *tail, long *lo, long *hi);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_SHARE_H */
