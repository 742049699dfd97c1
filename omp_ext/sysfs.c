/*
 * Sysfs: the small file readers (sysfs and cgroup files: a line, a cpulist)
 * and the reason buffers shared by the energy sources (powercap RAPL in
 * calibrate.c, perf in perf-energy.c) and htplaces doctor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "internal.h"
#include "util.h"

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

char *omp_ext_read_text(const char *dir, const char *file)
{
  char path[4096], *line = NULL;
  size_t cap = 0;
  ssize_t n;
  FILE *f;
  if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path) ||
      !(f = fopen(path, "r")))
    return NULL;
  n = getline(&line, &cap, f);
  fclose(f);
  if (n < 0) {
    free(line);
    return NULL;
  }
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
    line[--n] = '\0';
  return line;
}

hwloc_bitmap_t omp_ext_read_cpulist(const char *dir, const char *file)
{
  char *line = omp_ext_read_text(dir, file);
  hwloc_bitmap_t set;
  if (!line)
    return NULL;
  set = hwloc_bitmap_alloc();
  if (set && *line &&
      (strspn(line, "0123456789,-") != strlen(line) || hwloc_bitmap_list_sscanf(set, line) < 0)) {
    hwloc_bitmap_free(set);
    set = NULL;
  }
  free(line);
  return set;
}
