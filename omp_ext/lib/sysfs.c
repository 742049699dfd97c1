/*
 * Sysfs: the line reader of sysfs files (the text and cpulist readers that
 * the tools share are in util.c) and the reason buffers of the energy
 * sources (powercap RAPL in calibrate.c, perf in perf_energy.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "private/internal.h"
#include "private/util.h"

void omp_ext_say(char *why, size_t len, const char *fmt, ...)
{
  va_list ap;
  if (!why || !len)
    return;
  va_start(ap, fmt);
  vsnprintf(why, len, fmt, ap);
  va_end(ap);
}

int omp_ext_read_line(const char *dir, const char *file, char *buf, size_t len)
{
  char path[4096];
  FILE *f;
  size_t n;
  snprintf(path, sizeof(path), "%s/%s", dir, file);
  if (!(f = fopen(path, "r")))
    return -1;
  n = fread(buf, 1, len - 1, f);
  if (ferror(f)) {
    int e = errno ? errno : EIO;
    fclose(f);
    errno = e;
    return -1;
  }
  fclose(f);
  buf[n] = '\0';
  buf[strcspn(buf, "\n")] = '\0';
  if (!buf[0]) {
    errno = ENODATA;
    return -1;
  }
  return 0;
}

int omp_ext_sysfs_cache_cpu(hwloc_const_bitmap_t set)
{
  char dir[96], buf[32];
  int cpu;
  for (cpu = hwloc_bitmap_first(set); cpu >= 0; cpu = hwloc_bitmap_next(set, cpu)) {
    unsigned index, last = 0;
    long level, max = -1;
    /* libgomp's gomp_affinity_find_last_cache_level: the index of the
     * highest level; then that index's shared_cpu_list, read for every CPU
     * after (missing, as on IA-64 kernels: no CPU is placed). */
    for (index = 0; index < 16; index++) {
      snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cache/index%u", cpu, index);
      if (omp_ext_read_line(dir, "level", buf, sizeof(buf)) != 0)
        break;
      level = strtol(buf, NULL, 10);
      if (level >= max) {
        max = level;
        last = index;
      }
    }
    if (max < 0)
      continue;
    snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cache/index%u", cpu, last);
    return omp_ext_read_line(dir, "shared_cpu_list", buf, sizeof(buf)) == 0 ? cpu : -1;
  }
  return -1;
}
