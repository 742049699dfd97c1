/*
 * The libomp backend: LLVM's libomp and Intel's libiomp5, one family (see
 * runtime.h for the interface and backends.c for the table).
 *
 * Hooks, two of them:
 * - an OMPT tool (OpenMP 5.2 §19.2).  The library exports
 *   ompt_start_tool(); the runtime calls it when it initialises (directly,
 *   or through its own weak ompt_start_tool and dlsym(RTLD_NEXT) when the
 *   runtime comes first in the link order).  While no policy is set it
 *   registers no per-region callback; with a policy, the callbacks run
 *   until the team is found bound (see "Which callbacks" below).  A tool of
 *   the user's (OMP_TOOL_LIBRARIES) is chained, not displaced.
 * - the __kmpc_fork_call / __kmpc_push_num_threads wrappers ("KMPC" below),
 *   which bind, size and time every outermost region through the
 *   trampoline (trampoline.c) when the program's calls reach them.
 *
 * Cost per region while no policy was ever set: nothing (no callback
 * registered) or one predictable branch (the KMPC wrapper).
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

#include "private/kmpc_args.h"
#include "omp_ext.h"
#include "private/region.h"
#include "private/runtime.h"
#include "private/timing_inline.h"
#include "private/trampoline.h"

#ifndef OMP_EXT_STATIC_LIB
#define OMP_EXT_STATIC_LIB 0
#endif

/* Does the program's __kmpc_fork_call reach this library's wrapper (libomp,
 * libiomp5: see "KMPC" below)?  Then the wrapper binds, sizes and times
 * every outermost region, and the OMPT tool is needed only for a chained
 * tool of the user's.  Set by the wrapper's first call, or found from the
 * global symbol scope (kmpc_is_live). */
static int kmpc_live; /* atomic */
static int kmpc_is_live(void);

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
/* The level-1 team being checked: policy omp_ext_hooks_gen, threads found bound. */
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
/* A policy was set (bind.c): bind the next teams (the backend's arm). */
static void kmp_arm(void)
{
  pthread_mutex_lock(&ompt_lock);
  /* (With the KMPC wrapper live, it binds: no OMPT callback.) */
  __atomic_store_n(&armed, !kmpc_is_live(), __ATOMIC_RELAXED);
  __atomic_store_n(&settled, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&settled_size, 0, __ATOMIC_RELAXED);
  sync_all_locked();
  pthread_mutex_unlock(&ompt_lock);
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
  __atomic_fetch_add(&omp_ext_hook_calls, 1, __ATOMIC_RELAXED);
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
    __atomic_fetch_add(&omp_ext_hook_calls, 1, __ATOMIC_RELAXED);
    omp_ext_hooks_mark(omp_ext_hook_ompt);
    r = omp_ext_hooks_bind(index);
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
  struct omp_ext_tramp t; /* first: the trampoline's argument */
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
  omp_ext_tramp_enter(&k->t);
  kmpc_invoke(k->fn, gtid, btid, k->argc, k->args);
}


void __kmpc_push_num_threads(struct ident *loc, int gtid, int num_threads)
{
  static void *cache;
  void (*real)(struct ident *, int, int);
  *(void **)&real = omp_ext_real_entry("__kmpc_push_num_threads",
                               (void *)(uintptr_t)__kmpc_push_num_threads, NULL, &cache);
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
  omp_ext_gomp_fn fn = omp_ext_kmpc_marker;
  void *data = &k;
  const void *ra = __builtin_return_address(0), *prev_ra;
  unsigned clause = (unsigned)tl_kmpc_clause, nt = clause;
  va_list ap;
  int i, bits;
  *(void **)&real =
    omp_ext_real_entry("__kmpc_fork_call", (void *)(uintptr_t)kmpc_fork_call_self, NULL, &cache);
  if (__builtin_expect(argc < 0 || argc > OMP_EXT_KMPC_MAXARGS, 0))
    kmpc_too_many(argc);
  va_start(ap, microtask);
  for (i = 0; i < argc; i++)
    a[i] = va_arg(ap, void *);
  va_end(ap);
  if (__builtin_expect(!__atomic_load_n(&kmpc_live, __ATOMIC_RELAXED), 0))
    __atomic_store_n(&kmpc_live, 1, __ATOMIC_RELAXED);
  tl_kmpc_clause = 0;
  bits = omp_ext_tramp_pre_fast(&k.t, &fn, &data, &nt, ra, ra);
  if (__builtin_expect(nt != clause, 0)) { /* per-region control's team size */
    void (*push)(struct ident *, int, int);
    int (*gtid)(struct ident *);
    *(void **)&push = omp_ext_real_entry("__kmpc_push_num_threads",
                                 (void *)(uintptr_t)__kmpc_push_num_threads, NULL, &push_cache);
    *(void **)&gtid = omp_ext_real_entry("__kmpc_global_thread_num", NULL, NULL, &gtid_cache);
    push(loc, gtid(loc), (int)nt);
  }
  prev_ra = tl_kmpc_ra; /* (a nested region of the primary thread) */
  tl_kmpc_ra = ra;
  if (fn == omp_ext_trampoline) {
    k.fn = microtask, k.argc = argc, k.args = a;
    real(loc, 1, (kmpc_micro)kmpc_trampoline, &k);
  } else {
#define KMPC_FORK(ARGS) real(loc, argc, microtask ARGS)
    switch (argc) { OMP_EXT_KMPC_CASES(KMPC_FORK) }
#undef KMPC_FORK
  }
  tl_kmpc_ra = prev_ra;
  OMP_EXT_TRAMP_POST(bits, &k.t);
}


/* ----------------------------------------------------------- backend --- */

/* libomp / libiomp5: the runtime that has the kmp_* binding entry points. */
static int kmp_detect(const struct omp_ext_runtime *rt)
{
  return rt->kmp_set_affinity != NULL;
}

/* Will a hook see the program's regions?  The KMPC wrapper, or else the
 * OMPT tool, which the runtime must have started. */
static const char *kmp_check(const struct omp_ext_runtime *rt)
{
  (void)rt;
  if (kmpc_is_live()) {
    omp_ext_hooks_mark(omp_ext_hook_kmpc_ready);
    return NULL;
  }
  if (!(omp_ext_ht_hooks() & omp_ext_hook_ompt_ready))
    return "the runtime did not start omp_ext's OMPT tool (OMP_TOOL=disabled, or another "
           "tool's ompt_start_tool came first)";
  return NULL;
}

static const char *const kmp_libraries[] = {"libomp.so.5", "libomp.so", "libiomp5.so", NULL};

const struct omp_ext_backend omp_ext_backend_kmp = {
  "libomp",
  kmp_libraries,
  omp_ext_runtime_libomp,
  kmp_detect,
  kmp_arm,
  kmp_check,
};
