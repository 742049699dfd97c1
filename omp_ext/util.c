/*
 * Small text helpers: the one whole-number parser and the one environment
 * lookup of the library and of htplaces (see util.h).  Digits only: no sign,
 * no leading space, no 0x or octal, unlike strtoul.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int omp_ext_scan_uint(const char *s, const char **end, unsigned long long max,
                      unsigned long long *v)
{
  unsigned long long x = 0;
  int above = 0;
  *end = s;
  if (!s || *s < '0' || *s > '9')
    return OMP_EXT_UINT_MALFORMED;
  for (; *s >= '0' && *s <= '9'; s++) {
    unsigned d = (unsigned)(*s - '0');
    if (above || d > max || x > (max - d) / 10)
      above = 1;
    else
      x = x * 10 + d;
  }
  *end = s;
  *v = above ? max : x;
  return above ? OMP_EXT_UINT_ABOVE : OMP_EXT_UINT_OK;
}

int omp_ext_parse_uint(const char *text, unsigned long long min, unsigned long long max,
                       unsigned long long *v)
{
  unsigned long long x;
  const char *end;
  int r = omp_ext_scan_uint(text, &end, max, &x);
  if (r == OMP_EXT_UINT_MALFORMED || *end)
    return OMP_EXT_UINT_MALFORMED;
  if (r == OMP_EXT_UINT_ABOVE)
    return OMP_EXT_UINT_ABOVE;
  if (x < min)
    return OMP_EXT_UINT_BELOW;
  *v = x;
  return OMP_EXT_UINT_OK;
}

const char *omp_ext_env_get(char *const *envp, const char *name)
{
  size_t len = strlen(name);
  if (!envp)
    return getenv(name);
  for (; *envp; envp++)
    if (strncmp(*envp, name, len) == 0 && (*envp)[len] == '=')
      return *envp + len + 1;
  return NULL;
}

char *omp_ext_quote(const char *text, char *buf, size_t size)
{
  size_t used = 0, i, len = strlen(text);
  for (i = 0; i < len && i < OMP_EXT_QUOTE_MAX && used + 8 < size; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '\'' || c == '\\')
      used += (size_t)snprintf(buf + used, size - used, "\\%c", c);
    else if (c == '\n')
      used += (size_t)snprintf(buf + used, size - used, "\\n");
    else if (c < 0x20 || c >= 0x7f)
      used += (size_t)snprintf(buf + used, size - used, "\\x%02x", c);
    else
      buf[used++] = (char)c;
  }
  buf[used < size ? used : size - 1] = '\0';
  if (i < len && used + 32 < size)
    snprintf(buf + used, size - used, "... (%zu bytes)", len);
  return buf;
}
