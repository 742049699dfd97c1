/*
 * Private: the OpenMP runtime the program runs with, found at run time.
 *
 * libomp_ext links no OpenMP runtime (a second one would be loaded next to
 * the program's).  The entry points below are looked up, on first use, in
 * the shared object that provides the program's omp_get_thread_num
 * (dlsym(RTLD_DEFAULT) then dladdr + dlopen(RTLD_NOLOAD)), so that every
 * pointer comes from the same runtime even when several are loaded (e.g.
 * libiomp5 preloaded into a gcc-compiled program that also needs libgomp).
 */
#ifndef OMP_EXT_RUNTIME_H
#define OMP_EXT_RUNTIME_H

#include "omp_ext.h"
#include "private/tools_predict.h" /* omp_ext_runtime_t */

/* Private to the library: no PLT indirection, not exported. */
#define OMP_EXT_HIDDEN __attribute__((visibility("hidden")))

/** Entry points of the runtime; the kmp_* ones are NULL under libgomp. */
struct omp_ext_runtime {
  const char *path; /**< file of the runtime (dladdr), e.g. ".../libgomp.so.1" */
  int (*get_thread_num)(void);
  int (*get_level)(void);
  int (*get_max_threads)(void);
  int (*get_dynamic)(void);
  void (*set_num_threads)(int);
  /** GOMP_parallel (OpenMP team from a plain function): libgomp's own, or
   *  the GOMP compatibility layer of libomp / libiomp5.  NULL if missing. */
  void (*parallel)(void (*fn)(void *), void *data, unsigned nthreads, unsigned flags);
  /** libomp / libiomp5 only (kmp_affinity_mask_t is a void *). */
  void (*kmp_create_mask)(void **mask);
  void (*kmp_destroy_mask)(void **mask);
  int (*kmp_set_mask_proc)(int proc, void **mask);
  int (*kmp_set_affinity)(void **mask);
};

/** The runtime, or NULL when the process has no OpenMP runtime (yet). */
OMP_EXT_HIDDEN const struct omp_ext_runtime *omp_ext_runtime(void);

/** The runtime's entry point \p name (same object as omp_ext_runtime()). */
OMP_EXT_HIDDEN void *omp_ext_runtime_sym(const char *name);

/** \p name in an OpenMP runtime (a loaded object that defines
 *  omp_get_thread_num) that no global lookup sees -- loaded with
 *  RTLD_LOCAL, e.g. a Python extension's dlopen of an OpenBLAS built with
 *  libgomp -- other than \p self; NULL if none. */
OMP_EXT_HIDDEN void *omp_ext_runtime_find(const char *name, const void *self);

/* The team of the calling thread (share.c): its size and the caller's
 * number (omp_ext_err_runtime, omp_ext_err_not_in_parallel as
 * omp_ext_share()); and the runtime's GOMP_barrier for the team
 * (omp_ext_err_runtime when missing: the same answer in every thread). */
OMP_EXT_HIDDEN int omp_ext_team_info(unsigned *nth, unsigned *t);
OMP_EXT_HIDDEN int omp_ext_team_barrier(void);

/* Is the calling thread inside a single, masked, master or critical
 * construct of nesting level \p level (omp_get_level()) that the runtime
 * let construct.c see?  (libgomp: single copyprivate and critical only.) */
OMP_EXT_HIDDEN int omp_ext_construct_open(int level);

/* The policy's generation (hooks.c): 0 until a policy is set; bind.c
 * starts a new one with each policy (and in a forked child), and the hooks
 * read it without a lock to skip everything while it is 0. */
OMP_EXT_HIDDEN unsigned omp_ext_hooks_generation(void);
OMP_EXT_HIDDEN void omp_ext_hooks_new_generation(void);

/* Called by the hooks at the start of every implicit task of a level-1
 * region while a generation is set: binds the calling thread, number \p
 * index of its team, if the policy changed since it was last bound.
 * Returns 0 (bound, and stays so), 1 (bound, but the runtime may re-pin it
 * at the next fork: OMP_PROC_BIND), or an omp_ext_err_* code.  bind.c
 * registers its binder once, at load, before any generation: the hooks
 * (the lower layer) never name bind.c. */
typedef int (*omp_ext_binder_fn)(unsigned index);
OMP_EXT_HIDDEN void omp_ext_hooks_set_binder(omp_ext_binder_fn fn);
/* The registered binder on thread \p index (omp_ext_success when none). */
OMP_EXT_HIDDEN int omp_ext_hooks_bind(unsigned index);

/* The variables behind the calls above and below, for the wrappers' inline
 * path (trampoline.h): the generation, the pending team size, and the
 * per-region hook calls (omp_ext_ht_hook_calls()); all atomic. */
extern unsigned omp_ext_hooks_gen OMP_EXT_HIDDEN;
extern int omp_ext_hooks_pending OMP_EXT_HIDDEN;
extern unsigned long omp_ext_hook_calls OMP_EXT_HIDDEN;

/* Team size from OMP_EXT_HT_POLICY=POLICY:N still to be applied by the
 * first region (libgomp: reads OMP_NUM_THREADS before omp_ext is loaded);
 * set by bind.c at load, taken once by the first region's hook (0: none). */
OMP_EXT_HIDDEN void omp_ext_hooks_set_pending_threads(int n);
OMP_EXT_HIDDEN int omp_ext_hooks_take_pending_threads(void);

/*
 * Runtime backends: one per runtime family, one file each (backend_gomp.c,
 * backend_kmp.c), listed in one table (backends.c), as libuv puts each
 * platform behind one internal interface.  Adding a runtime family = one
 * file that defines its struct omp_ext_backend + one row in backends.c.
 *
 * What a backend is:
 * - detection: its runtime's shared objects (\p libraries) and detect(),
 *   which tells whether the runtime found (omp_ext_runtime(): the object
 *   that provides omp_get_thread_num, whichever family) is this family's;
 * - hook install: the entry points its file exports (GOMP_parallel*,
 *   ompt_start_tool, __kmpc_fork_call) take control at every parallel
 *   region; arm() tells them that a policy was set, check() says whether
 *   they will see the program's regions;
 * - team control: through the runtime's entry points in struct
 *   omp_ext_runtime (set_num_threads, parallel, kmp_*: found by name), and
 *   the binding trampoline the wrappers share (trampoline.c);
 * - place prediction: \p places, the omp_ext_runtime_t that keys this
 *   family's predictor (predict_NAME.c, a row of predict.c's table,
 *   predict_int.h): how omp_ext_places_predict() turns OMP_PLACES /
 *   GOMP_CPU_AFFINITY / KMP_AFFINITY into the places this family builds.
 *   The predictors are not reached through this table: prediction is pure
 *   (htplaces links it without the hooks, whose files define the
 *   interposed entry points).
 */
struct omp_ext_backend {
  const char *name;              /**< the family, e.g. "libgomp", "libomp" */
  const char *const *libraries;  /**< its shared objects, NULL-terminated */
  omp_ext_runtime_t places;      /**< its predictor's key (predict_int.h) */
  /** Is \p rt (never NULL) this family's runtime?  Rows are tried in order. */
  int (*detect)(const struct omp_ext_runtime *rt);
  /** A policy was set: make the hooks bind the next teams (NULL: nothing). */
  void (*arm)(void);
  /** After the first policy: NULL when the hooks will see the program's
   *  regions (marking the omp_ext_hook_*_ready bit), else why not. */
  const char *(*check)(const struct omp_ext_runtime *rt);
};

/* The table (backends.c): the backend of \p rt, NULL for none. */
OMP_EXT_HIDDEN const struct omp_ext_backend *omp_ext_backend_of(const struct omp_ext_runtime *rt);

/* A policy was set (bind.c, after publishing it): make the hooks bind the
 * next teams (libomp: register the OMPT callbacks): the runtime's
 * backend's arm(). */
OMP_EXT_HIDDEN void omp_ext_hooks_arm(void);

/* Hooks that have run: OMP_EXT_HOOK_* bits. */
OMP_EXT_HIDDEN void omp_ext_hooks_mark(int bit);

/* After the first policy is applied: say once on stderr when no hook will
 * see the program's regions (the backend's check()), instead of failing
 * silently. */
OMP_EXT_HIDDEN void omp_ext_hooks_check(const struct omp_ext_runtime *rt);

/* Region timing (timing.c; the per-region path inline in timing_inline.h):
 * OMP_EXT_TIMING set?  _enabled() reads the environment once (any thread,
 * any time); omp_ext_timing_on() is the fast check after. */
OMP_EXT_HIDDEN int omp_ext_timing_enabled(void);
/* omp_ext_timing_begin(key, at, team) / omp_ext_timing_end() (timing_inline.h):
 * in the thread that starts an outermost region, just before the fork (the
 * construct \p key, named after the code address \p at, a team of \p team
 * asked for) and just after the join.  _begin returns 1 when this instance
 * records its team's binding (the first one of this region and team size):
 * the hook then calls omp_ext_timing_thread() in every thread of the team
 * as it starts its part (libgomp: the trampoline; libomp: the implicit-task
 * callback), and _end() returns 1 once the record is complete.  Begins nest
 * (a region the open one's primary thread starts counts in it): call _begin
 * for an outermost region (level 0) or while one is open
 * (omp_ext_timing_open()), and _end after each such begin. */
/* In thread \p index of a recording team (see above): its thread id and the
 * PU it runs on; its CPU set is read by the primary thread after the join. */
OMP_EXT_HIDDEN void omp_ext_timing_thread(unsigned index);
/* Is a team's binding being recorded (the hooks need every thread)? */
OMP_EXT_HIDDEN int omp_ext_timing_recording(void);

#endif /* OMP_EXT_RUNTIME_H */
