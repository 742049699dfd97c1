/*
 * Hooks: where omp_ext gets control at the start of every parallel region,
 * to (re)bind threads that a team added or that changed their number.
 *
 * - libomp / libiomp5: an OMPT tool (OpenMP 5.2 §19.2).  The library exports
 *   ompt_start_tool(); the runtime calls it when it initialises (directly,
 *   or through its own weak ompt_start_tool and dlsym(RTLD_NEXT) when the
 *   runtime comes first in the link order) and omp_ext registers
 *   ompt_callback_implicit_task, which runs in every thread of every team.
 * - libgomp (GCC 12 has no OMPT): the library exports GOMP_parallel and the
 *   other GOMP_parallel_* entry points GCC emits for a parallel construct;
 *   when libomp_ext comes before the runtime in the program's link order,
 *   the program's calls reach these, which run the region through the
 *   runtime's own entry point with a trampoline that binds first.
 *
 * Both hooks cost one atomic load per thread and region while no policy was
 * ever set, and a thread-local compare afterwards.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omp_ext.h"
#include "runtime.h"

#ifndef OMP_EXT_STATIC_LIB
#define OMP_EXT_STATIC_LIB 0
#endif

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
typedef struct ompt_start_tool_result_t {
  int (*initialize)(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data);
  void (*finalize)(ompt_data_t *tool_data);
  ompt_data_t tool_data;
} ompt_start_tool_result_t;
enum {
  OMPT_CALLBACK_IMPLICIT_TASK = 7,
  OMPT_SCOPE_BEGIN = 1,
  OMPT_TASK_IMPLICIT = 0x2,
  OMPT_SET_SOMETIMES = 3 /* ompt_set_result_t: 3 and above = registered */
};

OMP_EXT_API ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                   const char *runtime_version);

static void on_implicit_task(int endpoint, ompt_data_t *parallel_data, ompt_data_t *task_data,
                             unsigned int actual_parallelism, unsigned int index, int flags)
{
  const struct omp_ext_runtime *rt;
  (void)parallel_data, (void)task_data, (void)actual_parallelism;
  if (endpoint != OMPT_SCOPE_BEGIN || !(flags & OMPT_TASK_IMPLICIT) ||
      omp_ext_bind_generation() == 0 || !(rt = omp_ext_runtime()))
    return;
  omp_ext_hooks_mark(omp_ext_hook_ompt);
  if (rt->get_level() == 1) /* nested teams are not bound: see omp_ext.h */
    omp_ext_bind_hook(index);
}

static int tool_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                           ompt_data_t *tool_data)
{
  ompt_set_callback_t set_callback;
  (void)initial_device_num, (void)tool_data;
  set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set_callback)
    return 0;
  /* Registered through the generic ompt_callback_t, as OMPT prescribes. */
  if (set_callback(OMPT_CALLBACK_IMPLICIT_TASK, (ompt_callback_t)on_implicit_task) <
      OMPT_SET_SOMETIMES)
    return 0;
  omp_ext_hooks_mark(omp_ext_hook_ompt_ready);
  return 1; /* keep the tool active */
}

static void tool_finalize(ompt_data_t *tool_data)
{
  (void)tool_data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
  static ompt_start_tool_result_t result = {tool_initialize, tool_finalize, {0}};
  const char *tools = getenv("OMP_TOOL_LIBRARIES");
  (void)omp_version, (void)runtime_version;
  /* Leave the one OMPT tool slot to a tool the user asked for. */
  if (tools && *tools)
    return NULL;
  return &result;
}

/* ---------------------------------------------------------------- GOMP --- */

struct tramp {
  void (*fn)(void *);
  void *data;
  const struct omp_ext_runtime *rt;
};

/* Runs in every thread of a level-1 region (the wrapper checked the level
 * once, in the encountering thread). */
static void trampoline(void *arg)
{
  const struct tramp *t = arg;
  omp_ext_hooks_mark(omp_ext_hook_gomp);
  omp_ext_bind_hook((unsigned)t->rt->get_thread_num());
  t->fn(t->data);
}

/* The runtime's own \p name, never this library's wrapper \p self. */
static void *real_entry(const char *name, void *self, void **cache)
{
  void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  if (!p) {
    p = omp_ext_runtime_sym(name);
    if (!p || p == self) {
      static const char msg[] = "omp_ext: no OpenMP runtime provides GOMP entry point\n";
      if (write(2, msg, sizeof(msg) - 1) < 0) { /* nothing more to do */ }
      abort();
    }
    __atomic_store_n(cache, p, __ATOMIC_RELEASE);
  }
  return p;
}

/* Prepare a region: the trampoline when a policy is set, and the team size
 * of OMP_EXT_HT_POLICY=POLICY:N before the first one. */
static int wrap(struct tramp *t, void (**fn)(void *), void **data)
{
  const struct omp_ext_runtime *rt;
  int n;
  if (omp_ext_bind_generation() == 0 || !(rt = omp_ext_runtime()))
    return 0;
  if (rt->get_level() != 0) /* a nested region: not bound */
    return 0;
  if ((n = omp_ext_bind_take_pending_threads()) > 0)
    rt->set_num_threads(n);
  t->fn = *fn, t->data = *data, t->rt = rt;
  *fn = trampoline, *data = t;
  return 1;
}

typedef void (*gomp_fn)(void *);

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
  if (rt->kmp_set_affinity) {
    if (!(omp_ext_ht_hooks() & omp_ext_hook_ompt_ready))
      why = "the runtime did not start omp_ext's OMPT tool (OMP_TOOL=disabled or "
            "OMP_TOOL_LIBRARIES set)";
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
  *(void **)&real = real_entry("GOMP_parallel", (void *)(uintptr_t)GOMP_parallel, &cache);
  wrap(&t, &fn, &data);
  real(fn, data, num_threads, flags);
}

OMP_EXT_API void GOMP_parallel_sections(gomp_fn fn, void *data, unsigned num_threads,
                                        unsigned count, unsigned flags);
void GOMP_parallel_sections(gomp_fn fn, void *data, unsigned num_threads, unsigned count,
                            unsigned flags)
{
  static void *cache;
  void (*real)(gomp_fn, void *, unsigned, unsigned, unsigned);
  struct tramp t;
  *(void **)&real =
    real_entry("GOMP_parallel_sections", (void *)(uintptr_t)GOMP_parallel_sections, &cache);
  wrap(&t, &fn, &data);
  real(fn, data, num_threads, count, flags);
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
    *(void **)&real = real_entry(#name, (void *)(uintptr_t)name, &cache);                    \
    wrap(&t, &fn, &data);                                                                    \
    real(fn, data, num_threads, start, end, incr, chunk, flags);                             \
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
    *(void **)&real = real_entry(#name, (void *)(uintptr_t)name, &cache);                    \
    wrap(&t, &fn, &data);                                                                    \
    real(fn, data, num_threads, start, end, incr, flags);                                    \
  }

WRAP_LOOP(GOMP_parallel_loop_static)
WRAP_LOOP(GOMP_parallel_loop_dynamic)
WRAP_LOOP(GOMP_parallel_loop_guided)
WRAP_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
WRAP_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
WRAP_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)
