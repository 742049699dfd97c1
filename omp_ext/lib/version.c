/* Versions at run time: libomp_ext's and hwloc's (omp_ext/version.h). */
#include <stdio.h>

#include "omp_ext.h"

/* OMP_EXT_VERSION and OMP_EXT_VERSION_HEX of this build: omp_ext/config.h,
 * generated from project()'s version. */
const char *omp_ext_get_version(void)
{
  return OMP_EXT_VERSION;
}

unsigned omp_ext_get_api_version(void)
{
  return OMP_EXT_API_VERSION;
}

unsigned omp_ext_version(void)
{
  return OMP_EXT_VERSION_HEX;
}

static int copy(char *buf, size_t size, const char *text)
{
  int len = snprintf(buf, size, "%s", text);
  return len >= 0 && (size_t)len < size ? omp_ext_success : omp_ext_err_range;
}

int omp_ext_hwloc_version(char *buf, size_t size)
{
  hwloc_topology_t topo;
  const char *v;
  char api[32];
  unsigned a = hwloc_get_api_version();
  int err;
  if (!buf || size == 0)
    return omp_ext_err_invalid;
  snprintf(api, sizeof(api), "api %u.%u.%u", a >> 16, (a >> 8) & 0xff, a & 0xff);
  if (hwloc_topology_init(&topo) != 0)
    return copy(buf, size, api) == omp_ext_success ? omp_ext_err_nomem : omp_ext_err_range;
  if (hwloc_topology_set_synthetic(topo, "pu:1") != 0 || hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return copy(buf, size, api) == omp_ext_success ? omp_ext_err_topology : omp_ext_err_range;
  }
  v = hwloc_obj_get_info_by_name(hwloc_get_root_obj(topo), "hwlocVersion");
  err = copy(buf, size, v && *v ? v : api);
  hwloc_topology_destroy(topo);
  return err;
}
