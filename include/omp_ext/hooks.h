/*
 * omp_ext/hooks.h -- Diagnostics of the in-code policy's hooks.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_HOOKS_H
#define OMP_EXT_HOOKS_H

#include "omp_ext/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * How many times one of omp_ext's per-region hooks did work in this
 * process: OMPT callbacks (ompt_callback_parallel_begin, in the thread that
 * starts a region; ompt_callback_implicit_task, in every thread of a team
 * still to be checked) under libomp/libiomp5 when the program's regions do
 * not reach omp_ext's __kmpc_fork_call wrapper, and the wrappers
 * (GOMP_parallel* under libgomp, __kmpc_fork_call under libomp/libiomp5
 * for clang-built code) once per region they checked or bound.  Diagnostics: it
 * stays 0 while no policy was ever set (no per-region callback is then
 * registered with the runtime, and the wrappers return after one branch);
 * with a policy and a team that keeps its size, it grows by one per region
 * (libomp: once every thread of the team was found bound, only the
 * encountering thread's parallel_begin runs) or by one per region (libgomp).
 * Callbacks run only for a chained OMPT tool (OMP_TOOL_LIBRARIES) are not
 * counted.
 *
 * \return the count (never decreases); 0 without a policy.
 * Source: OpenMP 5.2 §19.2 (OMPT tool interface), §19.5.2.3
 * (parallel_begin), §19.5.2.11 (implicit_task).
 */
OMP_EXT_API unsigned long omp_ext_ht_hook_calls(void);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_HOOKS_H */
