/*
 * htbench helpers: errors, clock, files, the binding probe (the kernel
 * table is kernels/kernels.c: the kernels call these, so they sit apart).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "htbench.h"
/* omp_ext_hwloc_env_var(): the library helper misc.h (htbench.h) declares */

int htb_error(int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  status = omp_ext_tool_verror("htbench", status, fmt, ap);
  va_end(ap);
  return status;
}

int htb_this_machine(void)
{
  const char *var = omp_ext_hwloc_env_var();
  if (var)
    return htb_error(HTB_EXIT_USAGE, "htbench acts on this machine (its workers run here), but "
                     "%s is set (hwloc would describe another machine); unset it", var);
  return HTB_EXIT_OK;
}

int htb_stdout_done(void)
{
  if (fflush(stdout) != 0 || ferror(stdout))
    return htb_error(HTB_EXIT_FAIL, "cannot write to standard output");
  return HTB_EXIT_OK;
}

double htb_cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

char *htb_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  long size;

  if (!f) {
    snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
    return NULL;
  }
  if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    snprintf(err, errlen, "cannot read '%s': not a regular file", path);
    fclose(f);
    return NULL;
  }
  buf = malloc(size ? (size_t)size : 1);
  if (!buf || fread(buf, 1, size, f) != (size_t)size) {
    snprintf(err, errlen, "cannot read '%s': %s", path, buf ? "short read" : "out of memory");
    free(buf);
    fclose(f);
    return NULL;
  }
  fclose(f);
  *len = size;
  return buf;
}

void htb_probe_here(struct htb_probe *probe)
{
  cpu_set_t set;
  int t = omp_get_thread_num(), cpu, first = -1, count = 0;
  char *p;
  size_t left = HTB_PROBE_LEN;

  if (!probe || t < 0 || (unsigned)t >= probe->nthreads)
    return;
  probe->team[t] = omp_get_num_threads();
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return;
  p = probe->cpus[t];
  *p = '\0';
  for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    int end = cpu, n;
    if (!CPU_ISSET(cpu, &set))
      continue;
    while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
      end++;
    if (first < 0)
      first = cpu;
    count += end - cpu + 1;
    n = end > cpu ? snprintf(p, left, "%s%d-%d", p == probe->cpus[t] ? "" : ",", cpu, end)
                  : snprintf(p, left, "%s%d", p == probe->cpus[t] ? "" : ",", cpu);
    if (n < 0 || (size_t)n >= left)
      break;
    p += n;
    left -= n;
    cpu = end;
  }
  probe->cpu_count[t] = count;
  probe->first_cpu[t] = first;
}
