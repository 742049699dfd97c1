/* The tools' version line (omp_ext/tools/misc.h): htplaces and htbench --version;
 * their error line.  (JSON strings: omp_ext_json_string(), util.c, which
 * the library's timing file writes with too.) */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "misc.h"

int omp_ext_tool_verror(const char *tool, int status, const char *fmt, va_list ap)
{
  char msg[4096];
  size_t i;
  vsnprintf(msg, sizeof(msg), fmt, ap);
  /* One line, whatever the user typed: control characters become '?'. */
  for (i = 0; msg[i]; i++)
    if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
      msg[i] = '?';
  fprintf(stderr, "%s: %s\n", tool, msg);
  return status;
}

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
