/*
 * Private: the one median of the project (median.c), for the library's
 * timing file (timing_stats.c), the tools' statistics (stats.c, misc.h)
 * and the benchmarks that time (benchmarks/bench_hooks.c).  Compiled into
 * each of them (hidden in libomp_ext, not part of its interface); no
 * dependency, so that bench_hooks_plain, which links nothing of omp_ext,
 * can have it too.
 */
#ifndef OMP_EXT_MEDIAN_H
#define OMP_EXT_MEDIAN_H

#include <stddef.h>

/* median.c: the median of v[0 .. n-1] (n > 0; 0 for n 0): the middle value,
 * or the mean of the two middle ones for an even n.  v is reordered (O(n),
 * Wirth's selection); a sorted v stays sorted. */
double omp_ext_median(double *v, size_t n);

#endif /* OMP_EXT_MEDIAN_H */
