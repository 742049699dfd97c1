/* The tools' version line (omp_ext/misc.h): htplaces and htbench --version;
 * their error line; JSON text: htplaces -f json, tune's and htbench's
 * results.json. */
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

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, surrogates or code points above U+10FFFF), 0 if it is not one. */
static unsigned utf8_length(const unsigned char *p)
{
  unsigned n, k;
  unsigned char lo = 0x80, hi = 0xbf;
  if (*p >= 0xc2 && *p <= 0xdf)
    n = 2;
  else if (*p >= 0xe0 && *p <= 0xef)
    n = 3;
  else if (*p >= 0xf0 && *p <= 0xf4)
    n = 4;
  else
    return 0;
  if (*p == 0xe0)
    lo = 0xa0;
  else if (*p == 0xed)
    hi = 0x9f;
  else if (*p == 0xf0)
    lo = 0x90;
  else if (*p == 0xf4)
    hi = 0x8f;
  if (p[1] < lo || p[1] > hi)
    return 0;
  for (k = 2; k < n; k++)
    if (p[k] < 0x80 || p[k] > 0xbf)
      return 0;
  return n;
}

void omp_ext_json_string(FILE *out, const char *s)
{
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  fputc('"', out);
  for (; *p; p++) {
    if (*p >= 0x80) {
      /* Valid UTF-8 as is; any other byte as U+FFFD (JSON text is UTF-8). */
      unsigned n = utf8_length(p);
      if (n) {
        fwrite(p, 1, n, out);
        p += n - 1;
      } else {
        fputs("\\ufffd", out);
      }
    } else if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", out);
    else if (*p == '\t')
      fputs("\\t", out);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(out, "\\u%04x", *p);
    else
      fputc(*p, out);
  }
  fputc('"', out);
}
