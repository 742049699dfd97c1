/*
 * perf_energy: package energy from the perf "power" PMU (power/energy-pkg),
 * the second RAPL source of htplaces calibrate, for when the powercap files
 * are not readable.  One system-wide counter per package (the PMU's cpumask
 * names one CPU per package); perf's 64-bit counts do not wrap in practice.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "private/internal.h"

struct omp_ext_perf_energy {
  int *fds;
  unsigned nfds;
  double scale; /* joules per count */
};

/* "event=0x02" (perhaps with more terms) -> 0x02. */
static int event_config(const char *text, unsigned long long *config)
{
  const char *p = strstr(text, "event=");
  char *end;
  if (!p)
    return -1;
  *config = strtoull(p + 6, &end, 0);
  return end == p + 6 ? -1 : 0;
}

static int paranoid(void)
{
  char buf[16];
  return omp_ext_read_line("/proc/sys/kernel", "perf_event_paranoid", buf, sizeof(buf)) == 0 ? atoi(buf) : 99;
}

/* Open one counter per CPU of the PMU's cpumask. */
static int open_counters(omp_ext_perf_energy_t *p, const char *dir, unsigned type,
                         unsigned long long config, char *why, size_t whylen)
{
  struct perf_event_attr attr;
  hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
  char mask[1024];
  int cpu;
  if (!cpus)
    return omp_ext_err_nomem;
  if (omp_ext_read_line(dir, "cpumask", mask, sizeof(mask)) != 0 || 
      omp_ext_parse_cpulist(mask, OMP_EXT_CPULIST_ANY, cpus, NULL) != OMP_EXT_UINT_OK ||
      hwloc_bitmap_iszero(cpus) || !(p->fds = malloc(hwloc_bitmap_weight(cpus) * sizeof(int)))) {
    omp_ext_say(why, whylen, "no perf package energy: cannot read %s/cpumask", dir);
    hwloc_bitmap_free(cpus);
    return omp_ext_err_unsupported;
  }
  memset(&attr, 0, sizeof(attr));
  attr.size = sizeof(attr);
  attr.type = type;
  attr.config = config;
  hwloc_bitmap_foreach_begin(cpu, cpus) {
    long fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0UL);
    if (fd < 0) {
      int e = errno;
      omp_ext_say(why, whylen, "no perf package energy: perf_event_open(power/energy-pkg, cpu %d): %s "
          "(perf_event_paranoid is %d; needs root, CAP_PERFMON or a value <= 0)",
          cpu, strerror(e), paranoid());
      hwloc_bitmap_free(cpus);
      return omp_ext_err_unsupported;
    }
    p->fds[p->nfds++] = (int)fd;
  }
  hwloc_bitmap_foreach_end();
  hwloc_bitmap_free(cpus);
  return omp_ext_success;
}

int omp_ext_perf_energy_open(const char *pmu, omp_ext_perf_energy_t **perf, char *why,
                             size_t whylen)
{
  omp_ext_perf_energy_t *p;
  char buf[256];
  unsigned long long config, type;
  int err;
  if (!perf)
    return omp_ext_err_invalid;
  if (!pmu || !*pmu)
    pmu = getenv("OMP_EXT_PERF_POWER_PMU");
  if (!pmu || !*pmu)
    pmu = OMP_EXT_PERF_POWER_PMU;
  if (omp_ext_read_line(pmu, "type", buf, sizeof(buf)) != 0 ||
      omp_ext_parse_uint(buf, 0, ~0U, &type) != OMP_EXT_UINT_OK) {
    omp_ext_say(why, whylen, "no perf package energy: no power PMU at %s (no readable type file)", pmu);
    return omp_ext_err_unsupported;
  }
  if (omp_ext_read_line(pmu, "events/energy-pkg", buf, sizeof(buf)) != 0 || event_config(buf, &config) != 0) {
    omp_ext_say(why, whylen, "no perf package energy: the power PMU at %s has no energy-pkg event "
        "(the CPU or kernel exposes no package RAPL)", pmu);
    return omp_ext_err_unsupported;
  }
  if (!(p = calloc(1, sizeof(*p))))
    return omp_ext_err_nomem;
  p->scale = 1;
  if (omp_ext_read_line(pmu, "events/energy-pkg.scale", buf, sizeof(buf)) == 0)
    p->scale = strtod(buf, NULL);
  if ((err = open_counters(p, pmu, (unsigned)type, config, why, whylen)) != 0) {
    omp_ext_perf_energy_close(p);
    return err;
  }
  *perf = p;
  return omp_ext_success;
}

int omp_ext_perf_energy_read(omp_ext_perf_energy_t *perf, double *joules)
{
  unsigned i;
  double total = 0;
  if (!perf || !joules)
    return omp_ext_err_invalid;
  for (i = 0; i < perf->nfds; i++) {
    uint64_t count;
    if (read(perf->fds[i], &count, sizeof(count)) != (ssize_t)sizeof(count))
      return omp_ext_err_unsupported;
    total += (double)count * perf->scale;
  }
  *joules = total;
  return omp_ext_success;
}

void omp_ext_perf_energy_close(omp_ext_perf_energy_t *perf)
{
  unsigned i;
  if (!perf)
    return;
  for (i = 0; i < perf->nfds; i++)
    close(perf->fds[i]);
  free(perf->fds);
  free(perf);
}

OMP_EXT_ENERGY_SOURCE(omp_ext_perf_energy_source, omp_ext_perf_energy_t, omp_ext_perf_energy_read)
