/*
 * omp_ext/steal.h -- capacity-weighted work stealing.
 *
 * Why: the capacity split (omp_ext/share.h) is a model; the dynamic tail
 * after it (omp_ext_tail_next()) absorbs what the model cannot see, but it
 * is handed out first come first served, so a thread that time-shares its
 * PU with another under a long-slice scheduler (SCHED_RR, 100 ms slices)
 * may take the whole tail before the other has started its head, which
 * then ends the region alone; and a CPU whose speed drifts during the
 * region (a VM's CPUs change between about 64 and 90 ns per iteration by
 * themselves) moves the finish line after the split was fixed.  Here each
 * thread starts from its capacity-weighted share, kept in its own slot, and
 * takes it chunk by chunk from the front; a thread whose slot is empty
 * steals the back half of the fullest slot.  Work moves only when a thread
 * has run out, at any time in the region, from whoever has most left.
 *
 * Cost: one pthread mutex lock/unlock per chunk (the caller's own slot,
 * uncontended but for thieves), a scan of the slots and two locks per
 * steal; three barriers per omp_ext_steal_init() (two for the team's
 * weights, omp_ext_team_weights(), one to publish the slots).  A mutex, not
 * a spinlock: teams are often oversubscribed (3 threads on 2 PUs), and a
 * thief spinning on a lock would burn the PU its holder needs.
 *
 * Sources: LLVM libomp's schedule(static_steal) (kmp_dispatch.cpp: each
 * thread starts with its static share and steals from a victim's end when
 * done); the hybrid static/dynamic scheduling of Donfack, Grigori, Gropp
 * and Kale (IPDPS 2012), here with the static part weighted by capacity
 * (omp_ext_share_split()) and the dynamic part taken by stealing.  OpenMP
 * references are to the OpenMP 5.2 specification (§2.1 the team and
 * omp_get_thread_num, §11.5 worksharing-loop schedules, §11.1 single,
 * §15.3.1 barrier).
 *
 * Manual page: omp_ext_share(3), section "Work stealing".
 */
#ifndef OMP_EXT_STEAL_H
#define OMP_EXT_STEAL_H

#include "omp_ext/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A work-stealing loop: one slot per thread number, each holding the part
 * [next, end) of an iteration range that is still to hand out, under its
 * own mutex (slots padded to 64 bytes against false sharing).  Opaque: made
 * by omp_ext_steal_create(), freed by omp_ext_steal_destroy(); one object
 * serves one loop at a time of one team, shared by every thread of it, and
 * may be filled again for the next loop or region.
 */
typedef struct omp_ext_steal omp_ext_steal_t;

/**
 * Make a work-stealing object of \p nthreads slots (thread numbers
 * 0 .. nthreads - 1), every slot empty, handing out \p chunk iterations per
 * omp_ext_steal_next() call (the last chunk of a slot may be fewer).
 *
 * \param nthreads  number of slots, 1 .. INT_MAX (a team's size is an int):
 *                  at least the size of every team that will use the
 *                  object (omp_get_max_threads(), say).
 * \param chunk     iterations per chunk, >= 1.
 * \param steal     receives the object; unchanged on error.
 * \return 0; omp_ext_err_invalid (steal NULL, nthreads 0 or above INT_MAX
 *         -- a negative int passed as unsigned, as from Fortran --, chunk < 1);
 *         omp_ext_err_nomem (also when the mutexes cannot be made).
 */
OMP_EXT_API int omp_ext_steal_create(unsigned nthreads, long chunk, omp_ext_steal_t **steal);

/**
 * Free an object of omp_ext_steal_create() (NULL: nothing).  No thread may
 * use it any more.
 */
OMP_EXT_API void omp_ext_steal_destroy(omp_ext_steal_t *steal);

/**
 * Fill \p steal's slots for the range [begin, end), inside a parallel
 * region: slot t gets thread t's capacity-weighted share
 * (omp_ext_team_weights(), then omp_ext_share_split(): contiguous shares in
 * thread order, within one iteration of their quota), the slots past the
 * team are emptied.
 *
 * Collective, like omp_ext_share() (OpenMP 5.2 §11): every thread of the
 * innermost team calls it, with the same arguments, outside any
 * worksharing construct -- not in a single, masked, master or critical
 * construct: the team's weights need every thread's binding (where the
 * runtime lets the library see the construct, the caller gets
 * omp_ext_err_in_construct at once; elsewhere it waits forever: see
 * omp_ext_share()).  Thread 0 fills the slots; the call returns
 * after a barrier, so every slot is filled before any thread takes a chunk,
 * and every thread has finished with the object's previous loop (got 0
 * from omp_ext_steal_next()) before a slot is refilled: one object may
 * serve several loops of one region, and several regions.  Three barriers
 * per call (a team of one: none).  Every thread returns the same value (but
 * omp_ext_err_in_construct, the caller's own).
 *
 *     omp_ext_steal_t *steal;
 *     int err = omp_ext_steal_create(omp_get_max_threads(), 16, &steal);
 *     if (err)
 *       return err;
 *     #pragma omp parallel reduction(| : err)
 *     {
 *       unsigned me = omp_get_thread_num();
 *       long lo, hi, i;
 *       int e = omp_ext_steal_init(steal, 0, n), r = 0;
 *       while (!e && (r = omp_ext_steal_next(steal, me, &lo, &hi)) > 0)
 *         for (i = lo; i < hi; i++)
 *           work(i);
 *       err |= e != 0 || r < 0;
 *     }
 *     omp_ext_steal_destroy(steal);
 *     if (err)   ... the loop is not done: report it, or run it another way
 *
 * \param steal       an object of omp_ext_steal_create() with at least
 *                    omp_get_num_threads() slots.
 * \param begin, end  the range, begin <= end; N = end - begin must fit a
 *                    long (as omp_ext_share_split()).
 * \return 0; omp_ext_err_not_in_parallel (outside a parallel region:
 *         nothing changed); omp_ext_err_in_construct (called inside a
 *         single, masked, master or critical construct of a team of more
 *         than one thread, as omp_ext_share(): the caller's own error,
 *         nothing changed, no barrier entered); omp_ext_err_invalid (steal NULL, a team larger
 *         than its slots, begin > end); omp_ext_err_overflow (end - begin
 *         overflows a long); the errors of omp_ext_team_weights()
 *         (omp_ext_err_runtime, omp_ext_err_topology, omp_ext_err_empty,
 *         omp_ext_err_bind, omp_ext_err_parse, omp_ext_err_nomem).  After an
 *         error other than omp_ext_err_not_in_parallel,
 *         omp_ext_err_in_construct and omp_ext_err_runtime (which change
 *         nothing and enter no barrier)
 *         the slots are empty: omp_ext_steal_next() gives 0.
 */
OMP_EXT_API int omp_ext_steal_init(omp_ext_steal_t *steal, long begin, long end);

/**
 * Fill \p steal's slots for the range [begin, end) with weights of the
 * caller's own: slot t gets share t of omp_ext_share_split(begin, end,
 * weights, n), the slots from n on are emptied (threads numbered n and more
 * start by stealing).  No OpenMP call: callable anywhere, by one thread,
 * while no thread uses the object (before the region; or inside it in a
 * single construct, whose implicit barrier publishes the slots, with a
 * barrier between the object's previous loop and it).
 *
 * \param steal       an object of omp_ext_steal_create().
 * \param begin, end  the range, begin <= end, end - begin fitting a long.
 * \param weights     \p n finite weights >= 0, not all 0 (any unit: only
 *                    their ratios count), e.g. from omp_ext_team_weights().
 * \param n           their number, 1 .. the object's slots.
 * \return 0; omp_ext_err_invalid (steal or weights NULL, n 0 or above the
 *         slots, begin > end, a weight negative or not finite, all weights
 *         0); omp_ext_err_overflow (end - begin overflows a long);
 *         omp_ext_err_nomem.  On an error the slots are left as they were.
 */
OMP_EXT_API int omp_ext_steal_init_weights(omp_ext_steal_t *steal, long begin, long end,
                                           const double *weights, unsigned n);

/**
 * The calling thread's next chunk [*lo, *hi).  From the front of its own
 * slot \p thread while that holds anything: at most the object's chunk
 * iterations, in increasing order.  When its slot is empty, it steals from
 * the slot with most left (ties: the lowest thread number) the back half of
 * what remains there -- floor(left / 2) iterations, but at least
 * min(chunk, left): a slot of at most one chunk is taken whole -- makes that
 * its own slot, and gives its first chunk.  Every iteration of the range is
 * given to exactly one caller.  Thread-safe (a mutex per slot; no barrier,
 * no OpenMP call: \p thread is the caller's omp_get_thread_num(), or any
 * numbering of plain threads).
 *
 * Each thread number must be used by one thread at a time (two threads
 * with the same number can lose what one of them stole), and every thread
 * that takes part should call until it gets 0: only a slot's owner puts
 * work into it, so work stolen into a slot is done by that slot's thread.
 * A thread gets 0 when its own slot and every other slot it looks at are
 * empty; work a thief is moving at that moment is the thief's.
 *
 * \param steal   an object filled by omp_ext_steal_init() or
 *                omp_ext_steal_init_weights() (a new one: every slot
 *                empty, 0).
 * \param thread  the caller's slot, 0 .. slots - 1.
 * \param lo, hi  receive the chunk, lo < hi; unchanged when 0 or an error
 *                is returned.
 * \return 1 (a chunk was given); 0 (no work left that the caller could
 *         see); omp_ext_err_invalid (a NULL pointer, thread not below the
 *         number of slots).
 */
OMP_EXT_API int omp_ext_steal_next(omp_ext_steal_t *steal, unsigned thread, long *lo, long *hi);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_STEAL_H */
