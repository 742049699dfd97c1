/*
 * ompt_count_tool: a minimal OMPT tool (OpenMP 5.2 §19.2) of the tests'
 * own, loaded through OMP_TOOL_LIBRARIES: it counts parallel regions
 * (ompt_callback_parallel_begin) and implicit tasks of parallel regions
 * (ompt_callback_implicit_task, scope begin, flag ompt_task_implicit) and
 * prints at finalize, on stderr:
 *
 *   ompt_count_tool: parallel_begin P implicit_task I
 *
 * Stands for a profiler (Score-P, TAU, HPCToolkit) next to omp_ext.  The
 * OMPT types are declared here (GCC installs no omp-tools.h).
 */
#include <stdint.h>
#include <stdio.h>

typedef union {
  uint64_t value;
  void *ptr;
} data_t;
typedef void (*fn_t)(void);
typedef fn_t (*lookup_t)(const char *);
typedef int (*set_callback_t)(int, fn_t);
typedef struct {
  int (*initialize)(lookup_t, int, data_t *);
  void (*finalize)(data_t *);
  data_t tool_data;
} start_result_t;

__attribute__((visibility("default"))) start_result_t *ompt_start_tool(unsigned int omp_version,
                                                                     const char *runtime_version);

static unsigned long parallel_begins, implicit_tasks;

static void on_parallel_begin(data_t *etd, const void *etf, data_t *pd, unsigned req, int flags,
                              const void *ra)
{
  (void)etd, (void)etf, (void)pd, (void)req, (void)flags, (void)ra;
  __atomic_fetch_add(&parallel_begins, 1, __ATOMIC_RELAXED);
}

static void on_implicit_task(int endpoint, data_t *pd, data_t *td, unsigned n, unsigned index,
                             int flags)
{
  (void)pd, (void)td, (void)n, (void)index;
  if (endpoint == 1 && (flags & 0x2)) /* ompt_scope_begin, ompt_task_implicit */
    __atomic_fetch_add(&implicit_tasks, 1, __ATOMIC_RELAXED);
}

static int initialize(lookup_t lookup, int device, data_t *data)
{
  set_callback_t set = (set_callback_t)lookup("ompt_set_callback");
  (void)device, (void)data;
  if (!set)
    return 0;
  /* 3 (ompt_set_sometimes) and above: registered */
  if (set(3 /* parallel_begin */, (fn_t)on_parallel_begin) < 3 ||
      set(7 /* implicit_task */, (fn_t)on_implicit_task) < 3)
    return 0;
  fprintf(stderr, "ompt_count_tool: initialized\n");
  return 1;
}

static void finalize(data_t *data)
{
  (void)data;
  fprintf(stderr, "ompt_count_tool: parallel_begin %lu implicit_task %lu\n",
          __atomic_load_n(&parallel_begins, __ATOMIC_RELAXED),
          __atomic_load_n(&implicit_tasks, __ATOMIC_RELAXED));
}

start_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
  static start_result_t result = {initialize, finalize, {0}};
  (void)omp_version, (void)runtime_version;
  return &result;
}
