/* The tools' version line (omp_ext/misc.h): htplaces and htbench --version. */
#include <stdio.h>
#include <string.h>

#include "misc.h"

int omp_ext_version_line(const char *tool, char *buf, size_t size)
{
  char run[64];
  int len;
  if (!tool || !buf || size == 0)
    return omp_ext_err_invalid;
  omp_ext_hwloc_version(run, sizeof(run)); /* on failure: the API version */
  if (strcmp(run, HWLOC_VERSION) == 0)
    len = snprintf(buf, size, "%s %s (hwloc %s)", tool, omp_ext_get_version(), run);
  else
    len = snprintf(buf, size, "%s %s (hwloc %s, built with hwloc %s)", tool,
                   omp_ext_get_version(), run, HWLOC_VERSION);
  return len >= 0 && (size_t)len < size ? omp_ext_success : omp_ext_err_range;
}
