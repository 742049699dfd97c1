/*
 * omp_ext/timing.h -- Region timing: the program's parallel regions and
 * named measurements of its own.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_TIMING_H
#define OMP_EXT_TIMING_H

#include "omp_ext/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Region timing (OMP_EXT_TIMING=FILE): every outermost parallel region of
 * the process is timed in the thread that starts it, from just before the
 * team forks to just after it joins (CLOCK_MONOTONIC), through the same
 * hooks as the in-code policy: the OMPT tool under libomp/libiomp5
 * (ompt_callback_parallel_begin / parallel_end; the region is its
 * codeptr_ra) and the GOMP_parallel* wrappers under libgomp (the region is
 * its outlined function at one call site: a function holding a construct
 * that the compiler inlined at several places gives one region per place,
 * as under libomp, and as per-region control -- OMP_EXT_HT_POLICY=auto,
 * htplaces exec --plan -- tells them apart).  Nested regions count in their
 * outermost one.
 * It works in a program linked with libomp_ext, and in an unmodified
 * dynamically linked one through OMP_TOOL_LIBRARIES=libomp_ext.so (libomp)
 * or LD_PRELOAD=libomp_ext.so (libgomp).
 *
 * The file: each "%p" in FILE becomes the process ID (as LLVM_PROFILE_FILE
 * does), so that every process of a program -- a wrapper script's, a
 * forked child's -- writes its own (OMP_EXT_TIMING=/tmp/t.%p.json).  A
 * process that recorded nothing (no region instance, no measurement)
 * writes nothing, except, under "%p", a process with an OpenMP runtime: its
 * file lists no region (the program was watched and ran none); without "%p"
 * the last process that recorded something wins.  A forked child starts an empty record of its own at the fork
 * (pthread_atfork).  The file is written whole through a temporary file in
 * its folder, renamed over it (a full device leaves the old file, never a
 * truncated one; a path that is not a regular file, /dev/stdout, is
 * written in place); on failure one line on stderr names the file and the
 * reason (strerror), and the program's exit status is its own.  At exit
 * the file receives one JSON object:
 *
 *   {"omp_ext_timing": 1, "wall_s": W, "regions_s": R, "serial_s": W - R,
 *    "pid": 1234, "program": "/path/to/app", "started_s": S,
 *    "regions": [{"name": "main._omp_fn.0", "kind": "parallel",
 *                 "address": "0x401a2c", "instances": N,
 *                 "team_sizes": [2, 4], "total_s": T, "mean_s": M,
 *                 "median_s": D, "min_s": A, "max_s": B,
 *                 "median_samples": K,
 *                 "module": "/path/to/app", "offset": "0x1a2c",
 *                 "outlined_module": "/path/to/app", "outlined_offset": "0x1b40",
 *                 "bindings": [{"team": 2, "threads": [{"cpus": "0", "pu": 0},
 *                                                      {"cpus": "1", "pu": 1}]}]},
 *                ...]}
 *
 * name: the region's function+offset (dladdr: the symbol containing the
 * address, "+0x.." when it is not its start), or "FILE+0xOFFSET" without a
 * symbol; module and offset (parallel regions only): the object holding
 * the address and the address within it (minus its load bias): what
 * `addr2line -e MODULE OFFSET-1` turns into file:line when the object has
 * debug info (htplaces tune does; the address is the return address of the
 * runtime call that starts the region, hence -1); outlined_module and
 * outlined_offset (under libgomp only): the same for the region's outlined
 * body (the function GOMP_parallel runs, GCC's NAME._omp_fn.K, whose name
 * still carries the source function NAME when NAME was inlined into the
 * caller); team_sizes: the sizes asked for (num_threads or nthreads-var),
 * ascending; wall_s: since libomp_ext was loaded (or the fork); serial_s:
 * wall time outside any outermost region (the program's serial part, paper
 * §2.3); pid: the process's ID; program: its executable (/proc/self/exe,
 * the "module" of its own regions); started_s: CLOCK_MONOTONIC seconds when
 * its record started (orders the processes of one run); median_samples:
 * the instances the median comes from -- all of them up to 1024 per root
 * thread and team size, beyond that a uniform random sample of 1024 each
 * (reservoir sampling; the samples weighted by the instances they stand
 * for), so that a region's memory is bounded whatever its instance count;
 * total, mean, min and max always count every instance;
 * bindings: where the team of the first instance of each team size ran,
 * thread by thread (index = omp_get_thread_num()): "cpus" the CPU set it was
 * bound to (its affinity mask, OS indexes as a list, read after the join),
 * "pu" the PU it was running on when it started its part (sched_getcpu);
 * null for a thread that did not take part (a smaller team than asked for).
 * Recorded once per (region, team size) -- the other instances pay no
 * system call -- so a thread that moves in a later instance is not seen.
 * Named measurements (omp_ext_timer_start/stop) are listed too, with
 * "kind": "timer" and team_sizes [1].  All times in seconds.
 */

/** Statistics of one measurement (seconds). */
typedef struct omp_ext_timer_stats {
  unsigned long instances; /**< completed start/stop pairs */
  double total_s, mean_s, median_s, min_s, max_s;
} omp_ext_timer_stats_t;

/**
 * Start the measurement \p name in the calling thread (CLOCK_MONOTONIC).
 * A measurement is one interval at a time per name: starting it again
 * before omp_ext_timer_stop() restarts it.
 *
 * \param name  any non-empty string (copied).
 * \return 0; omp_ext_err_invalid (name NULL or empty); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_timer_start(const char *name);

/**
 * Stop the measurement \p name: adds the interval since its
 * omp_ext_timer_start() to its statistics.
 *
 * \return 0; omp_ext_err_invalid (name NULL, or not started).
 */
OMP_EXT_API int omp_ext_timer_stop(const char *name);

/**
 * Statistics of the measurement \p name so far.
 *
 * \param stats  filled on success.
 * \return 0; omp_ext_err_invalid (name or stats NULL, or no completed
 *         interval of that name).
 */
OMP_EXT_API int omp_ext_timer_stats(const char *name, omp_ext_timer_stats_t *stats);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_TIMING_H */
