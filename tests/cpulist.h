/*
 * The calling thread's affinity as text, for the OpenMP probe programs.
 */
#ifndef OMP_EXT_TEST_CPULIST_H
#define OMP_EXT_TEST_CPULIST_H

#include <stddef.h>

/** The CPUs the calling thread may run on (sched_getaffinity) as OS indexes
 *  "0,8" in ascending order, or "error". */
void cpulist_of_thread(char *buf, size_t len);

#endif
