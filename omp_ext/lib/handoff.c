/*
 * The topology hand-off of htplaces exec (private/tools_handoff.h): the
 * stamp of a process (its host and boot, cgroups, CPU affinity, and the
 * builds of omp_ext and hwloc), the XML export htplaces makes, and the
 * check the preloaded library makes before it imports the XML (bind.c).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "private/internal.h"
#include "private/tools.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
  const unsigned char *p = data;
  size_t i;
  for (i = 0; i < len; i++)
    h = (h ^ p[i]) * FNV_PRIME;
  return h;
}

/* The digest of a small /proc file's whole text (read(2): no stdio buffer
 * in a program's start); 0 when it cannot be read or is empty. */
static int file_digest(const char *path, uint64_t *out)
{
  char buf[4096];
  ssize_t n;
  size_t total = 0;
  uint64_t h = FNV_OFFSET;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  while ((n = read(fd, buf, sizeof(buf))) > 0) {
    h = fnv1a(h, buf, (size_t)n);
    total += (size_t)n;
  }
  close(fd);
  *out = h;
  return n == 0 && total > 0;
}

/* The digest of the CPUs of \p set (\p size bytes), as their numbers (a
 * mask's size is no part of it); \p set NULL: the calling thread's now. */
static int affinity_digest(const cpu_set_t *set, size_t size, uint64_t *out)
{
  cpu_set_t *mine = NULL;
  uint64_t h = FNV_OFFSET;
  unsigned cpu;
  if (!set) {
    size = CPU_ALLOC_SIZE(OMP_EXT_TOPO_MAX_PUS);
    if (!(mine = CPU_ALLOC(OMP_EXT_TOPO_MAX_PUS)))
      return 0;
    CPU_ZERO_S(size, mine);
    if (sched_getaffinity(0, size, mine) != 0) {
      CPU_FREE(mine);
      return 0;
    }
    set = mine;
  }
  for (cpu = 0; cpu < size * 8; cpu++)
    if (CPU_ISSET_S(cpu, size, set))
      h = fnv1a(h, &cpu, sizeof(cpu));
  CPU_FREE(mine);
  *out = h;
  return 1;
}

int omp_ext_handoff_facts(struct omp_ext_handoff_facts *f, const void *affinity,
                          size_t size)
{
  struct utsname u;
  unsigned build[4] = {1 /* the stamp's format */, OMP_EXT_API_VERSION, HWLOC_API_VERSION,
                       hwloc_get_api_version()};
  uint64_t h = fnv1a(FNV_OFFSET, build, sizeof(build));
  f->field[omp_ext_handoff_build] = fnv1a(h, OMP_EXT_VERSION, sizeof(OMP_EXT_VERSION));
  if (uname(&u) != 0)
    return omp_ext_err_unsupported;
  f->field[omp_ext_handoff_node] = fnv1a(FNV_OFFSET, u.nodename, strlen(u.nodename));
  if (!file_digest("/proc/sys/kernel/random/boot_id", &f->field[omp_ext_handoff_boot]) ||
      !file_digest("/proc/self/cgroup", &f->field[omp_ext_handoff_cgroup]) ||
      !affinity_digest((const cpu_set_t *)affinity, size, &f->field[omp_ext_handoff_affinity]))
    return omp_ext_err_unsupported;
  return omp_ext_success;
}

void omp_ext_handoff_stamp(const struct omp_ext_handoff_facts *f, const char *xml, size_t len,
                           char *out)
{
  uint64_t h = FNV_OFFSET;
  unsigned i;
  for (i = 0; i < omp_ext_handoff_nfields; i++) /* (each field's bytes, in order) */
    h = fnv1a(h, &f->field[i], sizeof(f->field[i]));
  h = fnv1a(h, &len, sizeof(len));
  h = fnv1a(h, xml, len);
  snprintf(out, OMP_EXT_HANDOFF_STAMP_LEN, "1-%016llx", (unsigned long long)h);
}

int omp_ext_handoff_usable(const char *xml, const char *stamp, const void *affinity,
                           size_t size)
{
  struct omp_ext_handoff_facts f;
  char mine[OMP_EXT_HANDOFF_STAMP_LEN];
  size_t len;
  if (!xml || !stamp || strlen(stamp) != OMP_EXT_HANDOFF_STAMP_LEN - 1 ||
      (len = strnlen(xml, OMP_EXT_HANDOFF_MAX_XML + 1)) > OMP_EXT_HANDOFF_MAX_XML || len == 0 ||
      omp_ext_handoff_facts(&f, affinity, size) != 0)
    return 0;
  omp_ext_handoff_stamp(&f, xml, len, mine);
  return strcmp(mine, stamp) == 0;
}

int omp_ext_handoff_export(hwloc_topology_t hw, char **xml, char *stamp)
{
  struct omp_ext_handoff_facts f;
  int len = 0;
  *xml = NULL;
  if (omp_ext_handoff_facts(&f, NULL, 0) != 0 || hwloc_topology_export_xmlbuffer(hw, xml, &len, 0) < 0)
    return omp_ext_err_unsupported;
  /* (len counts the final NUL) */
  if (len <= 1 || (size_t)len - 1 > OMP_EXT_HANDOFF_MAX_XML || strlen(*xml) != (size_t)len - 1) {
    hwloc_free_xmlbuffer(hw, *xml);
    *xml = NULL;
    return len <= 1 ? omp_ext_err_unsupported : omp_ext_err_range;
  }
  omp_ext_handoff_stamp(&f, *xml, (size_t)len - 1, stamp);
  return omp_ext_success;
}
