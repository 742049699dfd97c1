/*
 * Hooks: where omp_ext gets control at the start of every parallel region,
 * to (re)bind threads that a team added or that changed their number.
 *
 * - libomp / libiomp5: an OMPT tool (OpenMP 5.2 §19.2).  The library exports
 *   ompt_start_tool(); the runtime calls it when it initialises (directly,
 *   or through its own weak ompt_start_tool and dlsym(RTLD_NEXT) when the
 *   runtime comes first in the link order).  While no policy is set it
 *   registers no per-region callback; with a policy, the callbacks run
 *   until the team is found bound (see "Which callbacks" below).  A tool of
 *   the user's (OMP_TOOL_LIBRARIES) is chained, not displaced.
 * - libgomp (GCC 12 has no OMPT): the library exports GOMP_parallel and the
 *   other GOMP_parallel_* entry points GCC emits for a parallel construct;
 *   when libomp_ext comes before the runtime in the program's link order,
 *   the program's calls reach these, which run the region through the
 *   runtime's own entry point with a trampoline that binds first.
 *
 * Cost per region while no policy was ever set: nothing (libomp: no
 * callback registered) or one predictable branch (the GOMP wrappers).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmpc_args.h"
#include "omp_ext.h"
#include "region.h"
#include "runtime.h"
#include "timing_hot.h"

#ifndef OMP_EXT_STATIC_LIB
#define OMP_EXT_STATIC_LIB 0
#endif

static int hooks_seen; /* OMP_EXT_HOOK_* bits */

/* Does the program's __kmpc_fork_call reach this library's wrapper (libomp,
 * libiomp5: see "KMPC" below)?  Then the wrapper binds, sizes and times
 * every outermost region, and the OMPT tool is needed only for a chained
 * tool of the user's.  Set by the wrapper's first call, or found from the
 * global symbol scope (kmpc_is_live). */
static int kmpc_live; /* atomic */
static int kmpc_is_live(void);

void omp_ext_hooks_mark(int bit)
{
  if (!(__atomic_load_n(&hooks_seen, __ATOMIC_RELAXED) & bit))
    __atomic_fetch_or(&hooks_seen, bit, __ATOMIC_RELAXED);
}

int omp_ext_ht_hooks(void)
{
  return __atomic_load_n(&hooks_seen, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------- OMPT --- */

/* The OMPT ABI pieces used here (OpenMP 5.2 §19.2-19.5; values as in
 * omp-tools.h, which GCC does not install). */
typedef union ompt_data_t {
  uint64_t value;
  void *ptr;
} ompt_data_t;
typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *name);
typedef void (*ompt_callback_t)(void);
typedef int (*ompt_set_callback_t)(int event, ompt_callback_t callback);
typedef int (*ompt_get_callback_t)(int event, ompt_callback_t *callback);
typedef struct ompt_start_tool_result_t {
  int (*initialize)(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data);
  void (*finalize)(ompt_data_t *tool_data);
  ompt_data_t tool_data;
} ompt_start_tool_result_t;
typedef ompt_start_tool_result_t *(*ompt_start_tool_t)(unsigned int omp_version,
                                                      const char *runtime_version);
typedef void (*cb_thread_begin_t)(int thread_type, ompt_data_t *thread_data);
typedef void (*cb_parallel_begin_t)(ompt_data_t *encountering_task_data,
                                    const void *encountering_task_frame,
                                    ompt_data_t *parallel_data, unsigned int requested_parallelism,
                                    int flags, const void *codeptr_ra);
typedef void (*cb_parallel_end_t)(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                                  int flags, const void *codeptr_ra);
typedef void (*cb_implicit_task_t)(int endpoint, ompt_data_t *parallel_data,
                                   ompt_data_t *task_data, unsigned int actual_parallelism,
                                   unsigned int index, int flags);
enum {
  OMPT_CALLBACK_THREAD_BEGIN = 1,
  OMPT_CALLBACK_PARALLEL_BEGIN = 3,
  OMPT_CALLBACK_PARALLEL_END = 4,
  OMPT_CALLBACK_IMPLICIT_TASK = 7,
  OMPT_NEVENTS = 64, /* ompt_callbacks_t values are below this */
  OMPT_THREAD_INITIAL = 1,
  OMPT_SCOPE_BEGIN = 1,
  OMPT_TASK_IMPLICIT = 0x2,
  OMPT_SET_ERROR = 0,
  OMPT_SET_SOMETIMES = 3, /* ompt_set_result_t: 3 and above = registered */
  OMPT_SET_ALWAYS = 5
};

OMP_EXT_API ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                   const char *runtime_version);
/* This library's own ompt_start_tool: &ompt_start_tool may be the runtime's
 * (libomp defines a weak one) when libomp_ext is loaded after it. */
extern __typeof__(ompt_start_tool) ompt_start_tool_self
  __attribute__((alias("ompt_start_tool"), visibility("hidden")));

/*
 * Which callbacks are registered with the runtime, and when (the design,
 * from libomp 14's sources: ompt-general.cpp, kmp_runtime.cpp):
 *
 * - ompt_set_callback(e, f) stores f and sets the flag ompt_enabled.e; the
 *   runtime tests the flag before each call site, so an event with no
 *   callback costs one predictable branch.  What a started tool costs by
 *   itself (ompt_enabled.enabled: return address, frame and task-state
 *   bookkeeping in __kmp_fork_call/__kmp_join_call) is measured by
 *   bench_hooks (variant "linked, OMP_TOOL=disabled").
 * - Nothing that may need the tool (no OMP_EXT_HT_POLICY, no
 *   OMP_EXT_TIMING, no OMP_TOOL_LIBRARIES, no loaded object naming
 *   omp_set_ht_policy*): ompt_start_tool returns NULL and the runtime runs
 *   as without omp_ext.  A started tool costs by itself (ompt_enabled.
 *   enabled: __kmp_fork_call fetches the parent task's data and frame and
 *   the return address, __kmp_join_call and the barriers keep thread
 *   states and task frames), measured by bench_hooks ("capable" vs
 *   "capable+notool").  A program that names the policy API but calls it
 *   only later gets the tool; one that reaches it only through dlsym after
 *   the runtime started keeps its first team bound, and omp_ext says once
 *   that grown teams are not re-bound (omp_ext_hooks_check).
 * - Started, no policy: only ompt_callback_thread_begin is registered (it
 *   runs once per thread, never per region): no callback per region.
 * - A policy set (omp_set_ht_policy, OMP_EXT_HT_POLICY): "armed".
 *   ompt_callback_implicit_task binds every thread of the next level-1
 *   teams; ompt_callback_parallel_begin (encountering thread only) watches
 *   the requested team size.  Once every thread of a level-1 team of N
 *   threads was found bound for the current policy, and the next level-0
 *   region again asks for N, the implicit-task callback is unregistered
 *   (ompt_set_callback(e, NULL)) from that parallel_begin: the team's
 *   threads then stay where they are (kmp_set_affinity / hwloc bound them;
 *   libomp re-pins only with OMP_PROC_BIND, when it is never unregistered)
 *   and a region costs one parallel_begin callback in one thread.  A team
 *   of another size, or a new policy, registers it again.  (This relies on
 *   libomp's hot team: __kmp_allocate_team reuses the root's hot team for
 *   level-1 regions, so a team of the same size keeps its threads and their
 *   numbers.  A runtime that reshuffled threads between regions of the same
 *   size would need omp_ht_rebind() in them.)
 * - Unregistering is done only where no thread can be between the
 *   runtime's flag test and its call through the callback pointer (which
 *   ompt_set_callback writes unordered with the flag): in parallel_begin of
 *   the only initial thread, when the team's workers wait in the fork
 *   barrier.  A second initial thread (a second contention group: its
 *   ompt_callback_thread_begin runs first, under the same lock) keeps the
 *   callback registered for good.
 * - Another OMPT tool (OMP_TOOL_LIBRARIES) is chained, as LLVM's
 *   ompt-multiplex.h does: omp_ext loads it, hands it a lookup whose
 *   ompt_set_callback records its callbacks, and registers with the runtime
 *   dispatchers that call both; the events omp_ext does not use go to the
 *   runtime directly.
 */
static ompt_set_callback_t rt_set_callback;   /* the runtime's */
static ompt_get_callback_t rt_get_callback;
static ompt_function_lookup_t rt_lookup;
static pthread_mutex_t ompt_lock = PTHREAD_MUTEX_INITIALIZER;
static ompt_start_tool_result_t *user_tool;   /* a chained tool, or NULL */
static ompt_callback_t user_cb[OMPT_NEVENTS]; /* its callbacks; atomic */
static ompt_callback_t registered[OMPT_NEVENTS]; /* what the runtime has; ompt_lock */
static int armed;      /* binding wanted: implicit-task callback needed; atomic */
static int settled;    /* team bound, implicit-task callback off; atomic */
static int roots;      /* initial threads seen; ompt_lock */
static unsigned long hook_calls; /* per-region callbacks run (diagnostics); atomic */
/* The level-1 team being checked: policy generation, threads found bound. */
static unsigned region_gen, region_bound, region_failed; /* atomic */
static unsigned settled_gen, settled_size;                /* atomic */

static void d_thread_begin(int thread_type, ompt_data_t *thread_data);
static void d_parallel_begin(ompt_data_t *etd, const void *etf, ompt_data_t *pd, unsigned req,
                             int flags, const void *ra);
static void d_parallel_end(ompt_data_t *pd, ompt_data_t *etd, int flags, const void *ra);
static void d_implicit_task(int endpoint, ompt_data_t *parallel_data, ompt_data_t *task_data,
                            unsigned int actual_parallelism, unsigned int index, int flags);

static ompt_callback_t dispatcher(int event)
{
  switch (event) {
  case OMPT_CALLBACK_THREAD_BEGIN: return (ompt_callback_t)d_thread_begin;
  case OMPT_CALLBACK_PARALLEL_BEGIN: return (ompt_callback_t)d_parallel_begin;
  case OMPT_CALLBACK_PARALLEL_END: return (ompt_callback_t)d_parallel_end;
  case OMPT_CALLBACK_IMPLICIT_TASK: return (ompt_callback_t)d_implicit_task;
  default: return NULL;
  }
}

/* Does omp_ext itself need \p event now? */
static int own_need(int event)
{
  switch (event) {
  case OMPT_CALLBACK_THREAD_BEGIN: return 1;
  case OMPT_CALLBACK_PARALLEL_BEGIN:
    return __atomic_load_n(&armed, __ATOMIC_RELAXED) || (omp_ext_timing_on() && !kmpc_is_live());
  case OMPT_CALLBACK_PARALLEL_END: return omp_ext_timing_on() && !kmpc_is_live();
  case OMPT_CALLBACK_IMPLICIT_TASK: /* binding a team, or recording where it is */
    return (__atomic_load_n(&armed, __ATOMIC_RELAXED) &&
            !__atomic_load_n(&settled, __ATOMIC_RELAXED)) ||
           (omp_ext_timing_recording() && !kmpc_is_live());
  default: return 0;
  }
}

/* Register (or remove) the dispatcher of \p event as omp_ext and a chained
 * tool need it; call with ompt_lock held.  Returns ompt_set_callback's. */
static int sync_event_locked(int event)
{
  ompt_callback_t want = NULL;
  int ret = OMPT_SET_ALWAYS;
  if (!rt_set_callback)
    return OMPT_SET_ERROR;
  if (own_need(event) || __atomic_load_n(&user_cb[event], __ATOMIC_RELAXED))
    want = dispatcher(event);
  if (want != registered[event]) {
    ret = rt_set_callback(event, want);
    registered[event] = ret >= OMPT_SET_SOMETIMES || !want ? want : NULL;
  } else if (want) {
    ret = OMPT_SET_ALWAYS;
  }
  return ret;
}

static void sync_all_locked(void)
{
  sync_event_locked(OMPT_CALLBACK_THREAD_BEGIN);
  sync_event_locked(OMPT_CALLBACK_PARALLEL_BEGIN);
  sync_event_locked(OMPT_CALLBACK_PARALLEL_END);
  sync_event_locked(OMPT_CALLBACK_IMPLICIT_TASK);
}

/* The policy's generation, the binder and OMP_EXT_HT_POLICY's pending team
 * size: what bind.c tells the hooks (see runtime.h). */
static unsigned generation;        /* atomic; 0 = no policy ever set */
static omp_ext_binder_fn binder_fn; /* set once at load */
static int pending_threads;        /* atomic */

unsigned omp_ext_hooks_generation(void)
{
  return __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
}

void omp_ext_hooks_new_generation(void)
{
  unsigned g = __atomic_load_n(&generation, __ATOMIC_RELAXED) + 1;
  __atomic_store_n(&generation, g ? g : 1, __ATOMIC_RELEASE);
}

void omp_ext_hooks_set_binder(omp_ext_binder_fn fn)
{
  __atomic_store_n(&binder_fn, fn, __ATOMIC_RELEASE);
}

static int binder(unsigned index)
{
  omp_ext_binder_fn fn = __atomic_load_n(&binder_fn, __ATOMIC_ACQUIRE);
  return fn ? fn(index) : omp_ext_success;
}

void omp_ext_hooks_set_pending_threads(int n)
{
  __atomic_store_n(&pending_threads, n, __ATOMIC_RELAXED);
}

int omp_ext_hooks_take_pending_threads(void)
{
  if (!__atomic_load_n(&pending_threads, __ATOMIC_RELAXED))
    return 0;
  return __atomic_exchange_n(&pending_threads, 0, __ATOMIC_RELAXED);
}

/* A policy was set (bind.c): bind the next teams. */
void omp_ext_hooks_arm(void)
{
  pthread_mutex_lock(&ompt_lock);
  /* (With the KMPC wrapper live, it binds: no OMPT callback.) */
  __atomic_store_n(&armed, !kmpc_is_live(), __ATOMIC_RELAXED);
  __atomic_store_n(&settled, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&settled_size, 0, __ATOMIC_RELAXED);
  sync_all_locked();
  pthread_mutex_unlock(&ompt_lock);
}

unsigned long omp_ext_ht_hook_calls(void)
{
  return __atomic_load_n(&hook_calls, __ATOMIC_RELAXED);
}

static void d_thread_begin(int thread_type, ompt_data_t *thread_data)
{
  cb_thread_begin_t user =
    (cb_thread_begin_t)__atomic_load_n(&user_cb[OMPT_CALLBACK_THREAD_BEGIN], __ATOMIC_ACQUIRE);
  if (thread_type == OMPT_THREAD_INITIAL) {
    pthread_mutex_lock(&ompt_lock);
    if (++roots > 1 && __atomic_load_n(&settled, __ATOMIC_RELAXED)) {
      /* A second contention group: the implicit-task callback stays. */
      __atomic_store_n(&settled, 0, __ATOMIC_RELAXED);
      sync_event_locked(OMPT_CALLBACK_IMPLICIT_TASK);
    }
    pthread_mutex_unlock(&ompt_lock);
  }
  if (user)
    user(thread_type, thread_data);
}

/* The calling thread was seen at level 0 (omp_get_level): an initial
 * thread.  It stays one, and outside the regions it starts (each of which
 * opens a timed region: omp_ext_timing_open()) it is at level 0, so that
 * the timing of its next regions needs no call into the runtime. */
static __thread int tl_initial __attribute__((tls_model("initial-exec")));

/* The KMPC wrapper's caller (the region's code address) while it runs the
 * runtime's __kmpc_fork_call: the runtime then reports the wrapper's own
 * return address as codeptr_ra, and a chained tool gets this one. */
static __thread const void *tl_kmpc_ra __attribute__((tls_model("initial-exec")));

static inline const void *kmpc_user_ra(const void *ra)
{
  return tl_kmpc_ra ? tl_kmpc_ra : ra;
}

/* Region timing alone (no policy): the encountering thread of \p ra, a team
 * of \p req asked for. */
static inline void timing_parallel_begin(const void *ra, unsigned req)
{
  if (!omp_ext_timing_open() && !tl_initial) {
    const struct omp_ext_runtime *rt = omp_ext_runtime();
    if (!rt || rt->get_level() != 0)
      return; /* a worker's nested region: counted in its outermost one */
    tl_initial = 1;
  }
  if (__builtin_expect(omp_ext_timing_begin(ra, ra, req), 0)) {
    /* The first instance of this region and team size: every thread says
     * where it runs (d_implicit_task) until d_parallel_end. */
    pthread_mutex_lock(&ompt_lock);
    sync_event_locked(OMPT_CALLBACK_IMPLICIT_TASK);
    pthread_mutex_unlock(&ompt_lock);
  }
}

static void d_parallel_begin(ompt_data_t *etd, const void *etf, ompt_data_t *pd, unsigned req,
                             int flags, const void *ra)
{
  cb_parallel_begin_t user =
    (cb_parallel_begin_t)__atomic_load_n(&user_cb[OMPT_CALLBACK_PARALLEL_BEGIN], __ATOMIC_ACQUIRE);
  const struct omp_ext_runtime *rt;
  int timing = omp_ext_timing_on() && !kmpc_is_live(); /* (else the KMPC wrapper times) */
  if (user)
    user(etd, etf, pd, req, flags, kmpc_user_ra(ra));
  if (!__atomic_load_n(&armed, __ATOMIC_RELAXED)) {
    if (timing)
      timing_parallel_begin(ra, req);
    return;
  }
  if (!(rt = omp_ext_runtime()))
    return;
  if (timing && omp_ext_timing_open()) { /* nested: timed in its outermost one */
    omp_ext_timing_begin(ra, ra, req);
    return;
  }
  if (rt->get_level() != 0)
    return; /* a nested region: not bound */
  if (timing && omp_ext_timing_begin(ra, ra, req)) {
    /* The first instance of this region and team size: every thread says
     * where it runs (d_implicit_task) until d_parallel_end. */
    pthread_mutex_lock(&ompt_lock);
    sync_event_locked(OMPT_CALLBACK_IMPLICIT_TASK);
    pthread_mutex_unlock(&ompt_lock);
  }
  if (!__atomic_load_n(&armed, __ATOMIC_RELAXED))
    return;
  __atomic_fetch_add(&hook_calls, 1, __ATOMIC_RELAXED);
  {
    unsigned gen = omp_ext_hooks_generation();
    if (__atomic_load_n(&settled, __ATOMIC_RELAXED)) {
      if (req == __atomic_load_n(&settled_size, __ATOMIC_RELAXED) &&
          gen == __atomic_load_n(&settled_gen, __ATOMIC_RELAXED))
        return; /* the common case: the same team, bound */
      pthread_mutex_lock(&ompt_lock); /* another size: check again */
      __atomic_store_n(&settled, 0, __ATOMIC_RELAXED);
      sync_event_locked(OMPT_CALLBACK_IMPLICIT_TASK);
      pthread_mutex_unlock(&ompt_lock);
    } else if (req == __atomic_load_n(&settled_size, __ATOMIC_RELAXED) &&
               gen == __atomic_load_n(&settled_gen, __ATOMIC_RELAXED)) {
      /* The last level-1 team had req threads, all bound for this policy,
       * and its workers now wait in the fork barrier. */
      pthread_mutex_lock(&ompt_lock);
      if (roots <= 1) {
        __atomic_store_n(&settled, 1, __ATOMIC_RELAXED);
        sync_event_locked(OMPT_CALLBACK_IMPLICIT_TASK);
      }
      pthread_mutex_unlock(&ompt_lock);
      if (__atomic_load_n(&settled, __ATOMIC_RELAXED))
        return;
    }
    /* This team is checked by its implicit tasks. */
    __atomic_store_n(&region_bound, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&region_failed, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&region_gen, gen, __ATOMIC_RELEASE);
  }
}

static void d_parallel_end(ompt_data_t *pd, ompt_data_t *etd, int flags, const void *ra)
{
  cb_parallel_end_t user =
    (cb_parallel_end_t)__atomic_load_n(&user_cb[OMPT_CALLBACK_PARALLEL_END], __ATOMIC_ACQUIRE);
  if (omp_ext_timing_on() && !kmpc_is_live() &&
      omp_ext_timing_end()) { /* the encountering thread, after the join */
    pthread_mutex_lock(&ompt_lock); /* the team's binding is recorded */
    sync_event_locked(OMPT_CALLBACK_IMPLICIT_TASK);
    pthread_mutex_unlock(&ompt_lock);
  }
  if (user)
    user(pd, etd, flags, kmpc_user_ra(ra));
}

static void d_implicit_task(int endpoint, ompt_data_t *parallel_data, ompt_data_t *task_data,
                            unsigned int actual_parallelism, unsigned int index, int flags)
{
  cb_implicit_task_t user =
    (cb_implicit_task_t)__atomic_load_n(&user_cb[OMPT_CALLBACK_IMPLICIT_TASK], __ATOMIC_ACQUIRE);
  const struct omp_ext_runtime *rt;
  if (endpoint == OMPT_SCOPE_BEGIN && (flags & OMPT_TASK_IMPLICIT) &&
      __atomic_load_n(&armed, __ATOMIC_RELAXED) && !__atomic_load_n(&settled, __ATOMIC_RELAXED) &&
      omp_ext_hooks_generation() != 0 &&
      (rt = omp_ext_runtime()) && rt->get_level() == 1) { /* nested: see omp_ext.h */
    unsigned gen = omp_ext_hooks_generation();
    int r;
    __atomic_fetch_add(&hook_calls, 1, __ATOMIC_RELAXED);
    omp_ext_hooks_mark(omp_ext_hook_ompt);
    r = binder(index);
    if (r != 0) /* an error, or a runtime that re-pins (OMP_PROC_BIND) */
      __atomic_store_n(&region_failed, 1, __ATOMIC_RELAXED);
    if (__atomic_add_fetch(&region_bound, 1, __ATOMIC_ACQ_REL) == actual_parallelism &&
        !__atomic_load_n(&region_failed, __ATOMIC_ACQUIRE) &&
        __atomic_load_n(&region_gen, __ATOMIC_ACQUIRE) == gen) {
      __atomic_store_n(&settled_gen, gen, __ATOMIC_RELAXED);
      __atomic_store_n(&settled_size, actual_parallelism, __ATOMIC_RELAXED);
    }
  }
  if (endpoint == OMPT_SCOPE_BEGIN && (flags & OMPT_TASK_IMPLICIT) &&
      omp_ext_timing_recording() && !kmpc_is_live() && (rt = omp_ext_runtime()) &&
      rt->get_level() == 1)
    omp_ext_timing_thread(index); /* after binding: where it runs its part */
  if (user)
    user(endpoint, parallel_data, task_data, actual_parallelism, index, flags);
}

/* ---- chaining: the lookup a user's tool gets ---- */

static int chain_set_callback(int event, ompt_callback_t callback)
{
  int ret;
  if (event <= 0 || event >= OMPT_NEVENTS || !dispatcher(event))
    return rt_set_callback(event, callback);
  pthread_mutex_lock(&ompt_lock);
  __atomic_store_n(&user_cb[event], callback, __ATOMIC_RELEASE);
  ret = sync_event_locked(event);
  pthread_mutex_unlock(&ompt_lock);
  return callback ? ret : OMPT_SET_ALWAYS;
}

static int chain_get_callback(int event, ompt_callback_t *callback)
{
  ompt_callback_t cb;
  if (event <= 0 || event >= OMPT_NEVENTS || !dispatcher(event))
    return rt_get_callback ? rt_get_callback(event, callback) : 0;
  if (!(cb = __atomic_load_n(&user_cb[event], __ATOMIC_ACQUIRE)))
    return 0; /* ompt_get_callback_failure */
  *callback = cb;
  return 1;
}

static ompt_interface_fn_t chain_lookup(const char *name)
{
  if (strcmp(name, "ompt_set_callback") == 0)
    return (ompt_interface_fn_t)chain_set_callback;
  if (strcmp(name, "ompt_get_callback") == 0)
    return rt_get_callback ? (ompt_interface_fn_t)chain_get_callback : NULL;
  return rt_lookup(name);
}

/* The first tool of OMP_TOOL_LIBRARIES (a ':'-separated list of shared
 * objects, OpenMP 5.2 §19.2.2) whose ompt_start_tool returns a result,
 * omp_ext itself skipped. */
static ompt_start_tool_result_t *load_user_tool(const char *tools, unsigned int omp_version,
                                                const char *runtime_version)
{
  char *list = strdup(tools), *path, *save = NULL;
  ompt_start_tool_result_t *res = NULL;
  if (!list)
    return NULL;
  for (path = strtok_r(list, ":", &save); path && !res; path = strtok_r(NULL, ":", &save)) {
    void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    ompt_start_tool_t start;
    if (!h)
      continue;
    *(void **)&start = dlsym(h, "ompt_start_tool");
    if (start && (void *)(uintptr_t)start != (void *)(uintptr_t)ompt_start_tool_self)
      res = start(omp_version, runtime_version);
    if (!res)
      dlclose(h);
  }
  free(list);
  return res;
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
  (void)tool_data;
  rt_lookup = lookup;
  *(void **)&rt_set_callback = (void *)(uintptr_t)lookup("ompt_set_callback");
  *(void **)&rt_get_callback = (void *)(uintptr_t)lookup("ompt_get_callback");
  if (!rt_set_callback)
    return 0;
  if (user_tool && !user_tool->initialize(chain_lookup, initial_device_num,
                                          &user_tool->tool_data)) {
    int e;
    pthread_mutex_lock(&ompt_lock); /* it declined: forget its callbacks */
    for (e = 0; e < OMPT_NEVENTS; e++)
      __atomic_store_n(&user_cb[e], NULL, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&ompt_lock);
    user_tool = NULL;
  }
  omp_ext_timing_enabled(); /* OMP_EXT_TIMING: parallel_begin/end */
  pthread_mutex_lock(&ompt_lock);
  if (omp_ext_hooks_generation() != 0) /* OMP_EXT_HT_POLICY */
    __atomic_store_n(&armed, 1, __ATOMIC_RELAXED);
  sync_all_locked();
  pthread_mutex_unlock(&ompt_lock);
  if (registered[OMPT_CALLBACK_THREAD_BEGIN] == NULL)
    return user_tool != NULL;
  omp_ext_hooks_mark(omp_ext_hook_ompt_ready);
  return 1; /* keep the tool active */
}

static void tool_finalize(ompt_data_t *tool_data)
{
  (void)tool_data;
  if (user_tool && user_tool->finalize)
    user_tool->finalize(&user_tool->tool_data);
}

/* Does a loaded object other than libomp_ext name the policy API in its
 * dynamic string table (it calls omp_set_ht_policy*, or could)? */
struct scan {
  uintptr_t self;
  int found;
};

static int scan_object(struct dl_phdr_info *info, size_t size, void *arg)
{
  struct scan *sc = arg;
  const ElfW(Dyn) *dyn = NULL;
  const char *strtab = NULL, *p, *end;
  size_t strsz = 0;
  int i;
  (void)size;
  if (info->dlpi_addr == sc->self || sc->found)
    return sc->found;
  for (i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
    if (dyn->d_tag == DT_STRTAB) /* relocated by ld.so on glibc */
      strtab = (const char *)dyn->d_un.d_ptr;
    else if (dyn->d_tag == DT_STRSZ)
      strsz = dyn->d_un.d_val;
  }
  if (!strtab || !strsz)
    return 0;
  if ((uintptr_t)strtab < info->dlpi_addr) /* (not relocated: vDSO and the like) */
    strtab += info->dlpi_addr;
  for (p = strtab, end = strtab + strsz; p < end; p += strlen(p) + 1)
    if (strncmp(p, "omp_set_ht_policy", 17) == 0) {
      sc->found = 1;
      break;
    }
  return sc->found;
}

static int policy_api_named(void)
{
  struct scan sc = {0, 0};
  Dl_info self;
  if (dladdr((void *)(uintptr_t)ompt_start_tool_self, &self) && self.dli_fbase) {
    struct link_map *lm = NULL;
    void *h = dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (h && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm)
      sc.self = lm->l_addr;
    if (h)
      dlclose(h);
  }
  dl_iterate_phdr(scan_object, &sc);
  return sc.found;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
  static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {0}};
  const char *tools = getenv("OMP_TOOL_LIBRARIES");
  static int started;
  if (__atomic_exchange_n(&started, 1, __ATOMIC_RELAXED))
    return &result; /* (never twice, never recursively) */
  /* The runtime asks the first ompt_start_tool it finds (this one) and
   * then no other: start the user's tool too and chain to it. */
  if (tools && *tools)
    user_tool = load_user_tool(tools, omp_version, runtime_version);
  /* A started tool costs every region something by itself (libomp 14:
   * ompt_enabled.enabled turns on task-frame, return-address and thread-
   * state bookkeeping in __kmp_fork_call, __kmp_join_call and the barriers,
   * about 1000 instructions per 2-thread region, callbacks or not).  So
   * start it only when something may need it: a policy or timing from the
   * environment, a tool to chain, or an object naming the policy API.
   * (Linked statically, the program's calls leave no trace in a dynamic
   * string table: always started.) */
  if (!user_tool && kmpc_is_live())
    return NULL; /* the KMPC wrapper binds, sizes and times every region */
  if (!OMP_EXT_STATIC_LIB && !user_tool && omp_ext_hooks_generation() == 0 &&
      !omp_ext_timing_enabled() && !policy_api_named())
    return NULL;
  return &result;
}

/* ---------------------------------------------------------------- GOMP --- */

struct tramp {
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
 * a generation (tl_settled_cfg). */
static __thread unsigned tl_settled_gen __attribute__((tls_model("initial-exec")));
static __thread unsigned tl_settled_n __attribute__((tls_model("initial-exec")));
static __thread const struct omp_ext_rcfg *tl_settled_cfg __attribute__((tls_model("initial-exec")));

static void kmpc_marker(void *arg);

/* The trampoline's work in each thread of a level-1 region (the wrapper
 * checked the level once, in the encountering thread), before the
 * region's own function. */
static void tramp_enter(struct tramp *t)
{
  unsigned index = (unsigned)t->rt->get_thread_num();
  if (t->bind) {
    int r;
    omp_ext_hooks_mark(t->fn == kmpc_marker ? omp_ext_hook_kmpc : omp_ext_hook_gomp);
    r = t->pick.cfg ? omp_ext_region_bind(t->pick.cfg, index) : binder(index);
    if (r == 0)
      __atomic_fetch_add(&t->bound, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&t->ran, 1, __ATOMIC_RELAXED);
  }
  if (t->record)
    omp_ext_timing_thread(index);
}

static void trampoline(void *arg)
{
  struct tramp *t = arg;
  tramp_enter(t);
  t->fn(t->data);
}

/* After the region of \p t (the join is done): the team got the size it
 * asked for, and every thread bound to stay, for a policy (or region
 * configuration) still current?  Then the root thread's next teams of that
 * size need no trampoline. */
static void settle(const struct tramp *t)
{
  unsigned ran = __atomic_load_n(&t->ran, __ATOMIC_RELAXED);
  int ok = ran == t->want && __atomic_load_n(&t->bound, __ATOMIC_RELAXED) == ran &&
           (t->pick.cfg || t->gen == omp_ext_hooks_generation()) && !t->rt->get_dynamic();
  tl_settled_gen = ok && !t->pick.cfg ? t->gen : 0;
  tl_settled_cfg = ok ? t->pick.cfg : NULL;
  tl_settled_n = ok ? ran : 0;
}

/* The team size a region of \p num_threads (0: nthreads-var) asks for. */
static unsigned team_request(const struct omp_ext_runtime *rt, unsigned num_threads)
{
  return num_threads ? num_threads : (unsigned)rt->get_max_threads();
}

/* Is a team of \p num_threads (0: the default) of this root thread known
 * bound for policy generation \p gen?  Counted as the region's one hook
 * call (as libomp's parallel_begin). */
static int settled_team(unsigned gen, unsigned num_threads)
{
  const struct omp_ext_runtime *rt;
  if (tl_settled_gen != gen || __atomic_load_n(&pending_threads, __ATOMIC_RELAXED) ||
      !(rt = omp_ext_runtime()))
    return 0;
  if (team_request(rt, num_threads) != tl_settled_n || rt->get_dynamic())
    return 0;
  /* One writer per root thread: a relaxed add that may lose a count under
   * concurrent roots is enough for a diagnostic counter. */
  __atomic_store_n(&hook_calls, __atomic_load_n(&hook_calls, __ATOMIC_RELAXED) + 1,
                   __ATOMIC_RELAXED);
  return 1;
}

/* \p name in a runtime that no global lookup sees: loaded with RTLD_LOCAL
 * (a Python extension's dlopen of an OpenBLAS built with libgomp), or not
 * loaded at all (the linker's --as-needed dropped libgomp because this
 * library's GOMP_parallel satisfied the program's only OpenMP symbols):
 * an OpenMP runtime already in the process, else libgomp, loaded now (the
 * runtime whose entry points gcc emitted). */
static void *fallback_entry(const char *name, void *self)
{
  static const char *const libs[] = {"libgomp.so.1", "libomp.so.5", "libomp.so", "libiomp5.so"};
  unsigned i;
  void *h, *p;
  for (i = 0; i <= sizeof(libs) / sizeof(*libs); i++) {
    if (i < sizeof(libs) / sizeof(*libs))
      h = dlopen(libs[i], RTLD_LAZY | RTLD_NOLOAD);
    else
      h = dlopen(libs[0], RTLD_LAZY); /* stays loaded: the region runs there */
    if (h && (p = dlsym(h, name)) != NULL && p != self)
      return p;
  }
  return NULL;
}

/* The runtime's own \p name, never this library's wrapper \p self: the
 * first lookup (cold), cached in \p cache. */
__attribute__((noinline, cold)) static void *real_entry_lookup(const char *name, void *self,
                                                               void **cache)
{
  void *p = omp_ext_runtime_sym(name);
  if (!p || p == self)
    p = fallback_entry(name, self);
  if (!p || p == self) {
    static const char msg[] = "omp_ext: no OpenMP runtime provides an entry point the program "
                              "calls (GOMP_parallel*, __kmpc_fork_call)\n";
    if (write(2, msg, sizeof(msg) - 1) < 0) { /* nothing more to do */ }
    abort();
  }
  __atomic_store_n(cache, p, __ATOMIC_RELEASE);
  return p;
}

static inline void *real_entry(const char *name, void *self, void **cache)
{
  void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  return __builtin_expect(p != NULL, 1) ? p : real_entry_lookup(name, self, cache);
}

/* Prepare a region: the trampoline when a policy is set and the team is
 * not known bound, and the team size of OMP_EXT_HT_POLICY=POLICY:N before
 * the first one.  Returns 1 when the trampoline is in place. */
static int wrap(struct tramp *t, void (**fn)(void *), void **data, unsigned num_threads)
{
  const struct omp_ext_runtime *rt;
  unsigned gen = omp_ext_hooks_generation();
  int n;
  if (gen == 0 || settled_team(gen, num_threads) || !(rt = omp_ext_runtime()))
    return 0;
  if (rt->get_level() != 0) /* a nested region: not bound */
    return 0;
  if ((n = omp_ext_hooks_take_pending_threads()) > 0)
    rt->set_num_threads(n);
  __atomic_fetch_add(&hook_calls, 1, __ATOMIC_RELAXED);
  t->fn = *fn, t->data = *data, t->rt = rt;
  t->gen = gen, t->want = team_request(rt, num_threads), t->ran = 0, t->bound = 0;
  t->bind = 1, t->record = 0;
  *fn = trampoline, *data = t;
  return 1;
}

typedef void (*gomp_fn)(void *);

enum { PRE_TIMED = 1, PRE_TRAMPOLINE = 2, PRE_REGION = 4 };

/* The timer of an outermost region (level 0): the construct \p key (the
 * outlined function under libgomp, before any trampoline; the code address
 * under libomp, as OMPT's codeptr_ra), named after \p ra, the wrapper's
 * return address (in the function holding the construct, as OMPT's
 * codeptr_ra under libomp, unless the compiler made the call a tail call);
 * and the recording trampoline for the first instance of its team size
 * unless the binding one (\p bits PRE_TRAMPOLINE) is in place.  Returns
 * \p bits | PRE_TIMED when timed. */
static int pre_timed(struct tramp *t, gomp_fn *fn, void **data, unsigned num_threads,
                     const void *key, const void *ra, int bits)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  if (!rt || rt->get_level() != 0)
    return bits;
  if (__builtin_expect(omp_ext_timing_begin(key, ra, team_request(rt, num_threads)), 0)) {
    /* The first instance of this region and team size: every thread says
     * where it runs. */
    if (!(bits & PRE_TRAMPOLINE)) {
      t->fn = *fn, t->data = *data, t->rt = rt, t->bind = 0;
      *fn = trampoline, *data = t;
    }
    t->record = 1;
  }
  return bits | PRE_TIMED;
}

/* Per-region control (a plan, auto: region.c) of an outermost region: its
 * team size (*\p num_threads, unless the program gave a clause) and the
 * binding trampoline for its configuration unless the team is known there.
 * Returns PRE_* bits; 0 when the region is left to the global policy. */
static int pre_region(struct tramp *t, gomp_fn *fn, void **data, unsigned *num_threads,
                      const void *ra)
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
    return PRE_REGION;
  tl_settled_gen = 0; /* (the global policy's team is no longer known bound) */
  want = team_request(rt, *num_threads);
  if (tl_settled_cfg == t->pick.cfg && tl_settled_n == want && !rt->get_dynamic())
    return PRE_REGION;
  __atomic_fetch_add(&hook_calls, 1, __ATOMIC_RELAXED);
  t->fn = *fn, t->data = *data, t->rt = rt;
  t->gen = 0, t->want = want, t->ran = 0, t->bound = 0;
  t->bind = 1, t->record = 0;
  *fn = trampoline, *data = t;
  return PRE_REGION | PRE_TRAMPOLINE;
}

/* The slow path of a wrapper (a policy was set, per-region control, or
 * OMP_EXT_TIMING): per-region control, else the binding trampoline unless
 * the team is known bound; then the timer of an outermost region
 * (pre_timed).  Returns PRE_* bits. */
static int pre(struct tramp *t, gomp_fn *fn, void **data, unsigned *num_threads, const void *key,
               const void *ra)
{
  int bits = 0;
  t->pick.region = NULL, t->pick.cfg = NULL;
  if (__atomic_load_n(&omp_ext_region_mode, __ATOMIC_RELAXED))
    bits = pre_region(t, fn, data, num_threads, ra);
  if (!(bits & PRE_TRAMPOLINE) && !t->pick.cfg && wrap(t, fn, data, *num_threads))
    bits |= PRE_TRAMPOLINE;
  if (!omp_ext_timing_on())
    return bits;
  return pre_timed(t, fn, data, *num_threads, key, ra, bits);
}

/* The wrapper's first step, inline: one branch while no policy is set,
 * per-region control is off and timing is off, and no call either while
 * the team is known bound. */
static inline int pre_fast(struct tramp *t, gomp_fn *fn, void **data, unsigned *num_threads,
                           const void *key, const void *ra)
{
  unsigned gen = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
  int timing = omp_ext_timing_on(), region = __atomic_load_n(&omp_ext_region_mode, __ATOMIC_RELAXED);
  if (__builtin_expect((gen | (unsigned)timing | (unsigned)region) == 0, 1))
    return 0;
  if (gen == 0 && !region) { /* timing alone */
    return pre_timed(t, fn, data, *num_threads, key, ra, 0);
  }
  if (!timing && !region && settled_team(gen, *num_threads))
    return 0;
  return pre(t, fn, data, num_threads, key, ra);
}
#define PRE(t, fn, data, num_threads)                                                       \
  pre_fast(t, fn, data, num_threads, (const void *)(uintptr_t)*(fn), __builtin_return_address(0))
#define POST(bits, t)                                                                       \
  do {                                                                                      \
    if (__builtin_expect((bits) != 0, 0)) {                                                 \
      if ((bits)&PRE_TIMED)                                                                 \
        omp_ext_timing_end();                                                               \
      if ((bits)&PRE_TRAMPOLINE)                                                            \
        settle(t);                                                                          \
      if ((bits)&PRE_REGION)                                                                \
        omp_ext_region_done(&(t)->pick);                                                    \
    }                                                                                       \
  } while (0)

OMP_EXT_API void GOMP_parallel(gomp_fn fn, void *data, unsigned num_threads, unsigned flags);
/* This library's own GOMP_parallel: taking &GOMP_parallel here would give
 * whichever definition wins symbol interposition. */
extern __typeof__(GOMP_parallel) gomp_parallel_self
  __attribute__((alias("GOMP_parallel"), visibility("hidden")));

/* Will a hook see the program's regions?  libomp/libiomp5: the runtime must
 * have started the OMPT tool.  libgomp: the program's GOMP_parallel must be
 * this library's (libomp_ext before libgomp in the link order, or linked
 * statically into the executable). */
void omp_ext_hooks_check(const struct omp_ext_runtime *rt)
{
  static int checked;
  const char *why = NULL;
  if (__atomic_exchange_n(&checked, 1, __ATOMIC_RELAXED))
    return;
  if (rt->kmp_set_affinity && kmpc_is_live()) {
    omp_ext_hooks_mark(omp_ext_hook_kmpc_ready);
  } else if (rt->kmp_set_affinity) {
    if (!(omp_ext_ht_hooks() & omp_ext_hook_ompt_ready))
      why = "the runtime did not start omp_ext's OMPT tool (OMP_TOOL=disabled, or another "
            "tool's ompt_start_tool came first)";
  } else if (!OMP_EXT_STATIC_LIB &&
             dlsym(RTLD_DEFAULT, "GOMP_parallel") != (void *)(uintptr_t)gomp_parallel_self) {
    /* (Linked statically, the executable's own definitions always win.) */
    why = "libgomp comes before libomp_ext in the link order (link -lomp_ext before -fopenmp)";
  } else {
    /* The wrappers will see the program's regions: say so now, not only
     * once the first region ran (omp_ext_ht_hooks() would read 0 until
     * then, as with the wrong link order). */
    omp_ext_hooks_mark(omp_ext_hook_gomp_ready);
  }
  if (why)
    fprintf(stderr, "omp_ext: %s: threads that a team adds later are not bound; call "
            "omp_ht_rebind() first in such regions\n", why);
}

void GOMP_parallel(gomp_fn fn, void *data, unsigned num_threads, unsigned flags);
void GOMP_parallel(gomp_fn fn, void *data, unsigned num_threads, unsigned flags)
{
  static void *cache;
  void (*real)(gomp_fn, void *, unsigned, unsigned);
  struct tramp t;
  int bits;
  *(void **)&real = real_entry("GOMP_parallel", (void *)(uintptr_t)GOMP_parallel, &cache);
  bits = PRE(&t, &fn, &data, &num_threads);
  real(fn, data, num_threads, flags);
  POST(bits, &t);
}

OMP_EXT_API void GOMP_parallel_sections(gomp_fn fn, void *data, unsigned num_threads,
                                        unsigned count, unsigned flags);
void GOMP_parallel_sections(gomp_fn fn, void *data, unsigned num_threads, unsigned count,
                            unsigned flags)
{
  static void *cache;
  void (*real)(gomp_fn, void *, unsigned, unsigned, unsigned);
  struct tramp t;
  int bits;
  *(void **)&real =
    real_entry("GOMP_parallel_sections", (void *)(uintptr_t)GOMP_parallel_sections, &cache);
  bits = PRE(&t, &fn, &data, &num_threads);
  real(fn, data, num_threads, count, flags);
  POST(bits, &t);
}

/* parallel + worksharing loop with a chunk size (schedule(static|dynamic|
 * guided[, chunk]) and their nonmonotonic forms). */
#define WRAP_LOOP(name)                                                                      \
  OMP_EXT_API void name(gomp_fn fn, void *data, unsigned num_threads, long start, long end, long incr,   \
            long chunk, unsigned flags);                                                     \
  void name(gomp_fn fn, void *data, unsigned num_threads, long start, long end, long incr,   \
            long chunk, unsigned flags)                                                      \
  {                                                                                          \
    static void *cache;                                                                      \
    void (*real)(gomp_fn, void *, unsigned, long, long, long, long, unsigned);               \
    struct tramp t;                                                                          \
    int bits;                                                                                \
    *(void **)&real = real_entry(#name, (void *)(uintptr_t)name, &cache);                    \
    bits = PRE(&t, &fn, &data, &num_threads);                                                \
    real(fn, data, num_threads, start, end, incr, chunk, flags);                             \
    POST(bits, &t);                                                                             \
  }
/* schedule(runtime) forms: no chunk size. */
#define WRAP_LOOP_RUNTIME(name)                                                              \
  OMP_EXT_API void name(gomp_fn fn, void *data, unsigned num_threads, long start, long end, long incr,   \
            unsigned flags);                                                                 \
  void name(gomp_fn fn, void *data, unsigned num_threads, long start, long end, long incr,   \
            unsigned flags)                                                                  \
  {                                                                                          \
    static void *cache;                                                                      \
    void (*real)(gomp_fn, void *, unsigned, long, long, long, unsigned);                     \
    struct tramp t;                                                                          \
    int bits;                                                                                \
    *(void **)&real = real_entry(#name, (void *)(uintptr_t)name, &cache);                    \
    bits = PRE(&t, &fn, &data, &num_threads);                                                \
    real(fn, data, num_threads, start, end, incr, flags);                                    \
    POST(bits, &t);                                                                             \
  }

WRAP_LOOP(GOMP_parallel_loop_static)
WRAP_LOOP(GOMP_parallel_loop_dynamic)
WRAP_LOOP(GOMP_parallel_loop_guided)
WRAP_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
WRAP_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

/* ---------------------------------------------------------------- KMPC --- */

/*
 * libomp / libiomp5: clang (and icx) emit, for a parallel construct,
 *
 *   __kmpc_push_num_threads(&loc, gtid, n);   (only with a num_threads clause)
 *   __kmpc_fork_call(&loc, argc, microtask, arg1, ..., argc args);
 *
 * and the runtime runs microtask(&gtid, &btid, arg1, ...) in every thread
 * of the team (libomp 14: kmp_csupport.cpp __kmpc_fork_call; the shared
 * variables are pointer-sized, read with va_arg(ap, void *) and passed on
 * by __kmp_invoke_microtask).  This library exports both; when it comes
 * before the runtime in the program's link order (as for the GOMP
 * wrappers), the program's calls reach these, which
 *  - note a num_threads clause (it keeps the user's count),
 *  - give an outermost region the team size per-region control chose
 *    (__kmpc_push_num_threads with the caller's gtid),
 *  - bind the team when needed: the runtime then runs a trampoline
 *    microtask with one argument, which binds its thread and calls the
 *    region's microtask with the original arguments,
 *  - time the region for OMP_EXT_TIMING (the region's code address is this
 *    wrapper's return address, OMPT's codeptr_ra otherwise),
 * and forward by argument count otherwise (OMP_EXT_KMPC_MAXARGS at most).
 * No OMPT tool is needed for any of it: the runtime starts omp_ext's tool
 * only to chain a tool of the user's (whose parallel_begin/end callbacks
 * get the region's code address, not this wrapper's).
 */
struct ident; /* libomp's ident_t: passed through */
typedef void (*kmpc_micro)(int *gtid, int *btid, ...);

OMP_EXT_API void __kmpc_fork_call(struct ident *loc, int argc, kmpc_micro microtask, ...);
OMP_EXT_API void __kmpc_push_num_threads(struct ident *loc, int gtid, int num_threads);
extern __typeof__(__kmpc_fork_call) kmpc_fork_call_self
  __attribute__((alias("__kmpc_fork_call"), visibility("hidden")));

/* The num_threads clause of the calling thread's next fork (0: none). */
static __thread int tl_kmpc_clause __attribute__((tls_model("initial-exec")));

static int kmpc_is_live(void)
{
  static int checked;
  if (__atomic_load_n(&kmpc_live, __ATOMIC_RELAXED))
    return 1;
  if (!__atomic_load_n(&checked, __ATOMIC_ACQUIRE)) {
    /* The global scope's definition is what the program's calls reach.
     * (Linked statically, the executable's own one wins: set by its first
     * call.) */
    if (dlsym(RTLD_DEFAULT, "__kmpc_fork_call") == (void *)(uintptr_t)kmpc_fork_call_self)
      __atomic_store_n(&kmpc_live, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&checked, 1, __ATOMIC_RELEASE);
  }
  return __atomic_load_n(&kmpc_live, __ATOMIC_RELAXED);
}

/* A region run through the trampoline microtask. */
struct kcall {
  struct tramp t; /* first: the trampoline's argument */
  kmpc_micro fn;
  int argc;
  void **args;
};

static void kmpc_invoke(kmpc_micro fn, int *gtid, int *btid, int argc, void **a)
{
#define KMPC_INVOKE(ARGS) fn(gtid, btid ARGS)
  switch (argc) { OMP_EXT_KMPC_CASES(KMPC_INVOKE) }
#undef KMPC_INVOKE
}

static void kmpc_trampoline(int *gtid, int *btid, ...)
{
  struct kcall *k;
  va_list ap;
  va_start(ap, btid);
  k = va_arg(ap, struct kcall *);
  va_end(ap);
  tramp_enter(&k->t);
  kmpc_invoke(k->fn, gtid, btid, k->argc, k->args);
}

/* (Never called: the fn that pre_fast sees for a KMPC region, replaced
 * by the trampoline when one is needed.) */
static void kmpc_marker(void *arg)
{
  (void)arg;
}

void __kmpc_push_num_threads(struct ident *loc, int gtid, int num_threads)
{
  static void *cache;
  void (*real)(struct ident *, int, int);
  *(void **)&real = real_entry("__kmpc_push_num_threads",
                               (void *)(uintptr_t)__kmpc_push_num_threads, &cache);
  tl_kmpc_clause = num_threads > 0 ? num_threads : 0;
  real(loc, gtid, num_threads);
}

__attribute__((noinline, cold)) static void kmpc_too_many(int argc)
{
  fprintf(stderr, "omp_ext: a parallel region passes %d shared variables to the runtime; the "
          "hooks forward at most %d (link -lomp_ext after the OpenMP runtime to bypass them)\n",
          argc, OMP_EXT_KMPC_MAXARGS);
  abort();
}

void __kmpc_fork_call(struct ident *loc, int argc, kmpc_micro microtask, ...)
{
  static void *cache, *push_cache, *gtid_cache;
  void (*real)(struct ident *, int, kmpc_micro, ...);
  void *a[OMP_EXT_KMPC_MAXARGS];
  struct kcall k;
  gomp_fn fn = kmpc_marker;
  void *data = &k;
  const void *ra = __builtin_return_address(0), *prev_ra;
  unsigned clause = (unsigned)tl_kmpc_clause, nt = clause;
  va_list ap;
  int i, bits;
  *(void **)&real = real_entry("__kmpc_fork_call", (void *)(uintptr_t)kmpc_fork_call_self, &cache);
  if (__builtin_expect(argc < 0 || argc > OMP_EXT_KMPC_MAXARGS, 0))
    kmpc_too_many(argc);
  va_start(ap, microtask);
  for (i = 0; i < argc; i++)
    a[i] = va_arg(ap, void *);
  va_end(ap);
  if (__builtin_expect(!__atomic_load_n(&kmpc_live, __ATOMIC_RELAXED), 0))
    __atomic_store_n(&kmpc_live, 1, __ATOMIC_RELAXED);
  tl_kmpc_clause = 0;
  bits = pre_fast(&k.t, &fn, &data, &nt, ra, ra);
  if (__builtin_expect(nt != clause, 0)) { /* per-region control's team size */
    void (*push)(struct ident *, int, int);
    int (*gtid)(struct ident *);
    *(void **)&push = real_entry("__kmpc_push_num_threads",
                                 (void *)(uintptr_t)__kmpc_push_num_threads, &push_cache);
    *(void **)&gtid = real_entry("__kmpc_global_thread_num", NULL, &gtid_cache);
    push(loc, gtid(loc), (int)nt);
  }
  prev_ra = tl_kmpc_ra; /* (a nested region of the primary thread) */
  tl_kmpc_ra = ra;
  if (fn == trampoline) {
    k.fn = microtask, k.argc = argc, k.args = a;
    real(loc, 1, (kmpc_micro)kmpc_trampoline, &k);
  } else {
#define KMPC_FORK(ARGS) real(loc, argc, microtask ARGS)
    switch (argc) { OMP_EXT_KMPC_CASES(KMPC_FORK) }
#undef KMPC_FORK
  }
  tl_kmpc_ra = prev_ra;
  POST(bits, &k.t);
}
