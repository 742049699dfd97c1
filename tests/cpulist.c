/*
 * The calling thread's affinity as text, for the OpenMP probe programs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>

#include "cpulist.h"

void cpulist_of_thread(char *buf, size_t len)
{
  cpu_set_t set;
  size_t used = 0;
  int cpu;
  buf[0] = '\0';
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    snprintf(buf, len, "error");
    return;
  }
  for (cpu = 0; cpu < CPU_SETSIZE && used < len; cpu++)
    if (CPU_ISSET(cpu, &set))
      used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu);
}
