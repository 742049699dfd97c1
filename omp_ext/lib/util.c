/*
 * Small text helpers of the library and of the tools (see util.h): the one
 * whole-number parser (digits only: no sign, no leading space, no 0x or
 * octal, unlike strtoul), the one environment lookup, the one text and
 * cpulist file reader, hwloc's environment, the one JSON string writer
 * (UTF-8 safe: htplaces -f json, results.json, the timing file).  Compiled
 * into libomp_ext (hidden) and into the tools' helper library omp_ext_misc,
 * so the tools do not call the library's private functions.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "omp_ext.h"
#include "private/util.h"

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

int omp_ext_auto_value(const char *text, int *energy, int *threads)
{
  const char *w;
  int objective = 0;
  *energy = 0, *threads = 0;
  if (!text || strncmp(text, "auto", 4) != 0 || (text[4] != '\0' && text[4] != ':'))
    return 0;
  for (w = text + 4; *w == ':'; ) {
    size_t len = strcspn(++w, ":");
    if (len == 4 && strncmp(w, "time", 4) == 0 && !objective)
      objective = 1;
    else if (len == 6 && strncmp(w, "energy", 6) == 0 && !objective)
      objective = 1, *energy = 1;
    else if (len == 7 && strncmp(w, "threads", 7) == 0 && !*threads)
      *threads = 1;
    else
      return -1;
    w += len;
  }
  return 1;
}

/* One item "N", "N-M" or "N-" of a CPU list at *s, added to set. */
static int cpulist_item(const char **s, unsigned long long max, hwloc_bitmap_t set,
                        const char **above)
{
  unsigned long long lo, hi;
  const char *at = *s;
  int r = omp_ext_scan_uint(at, s, max, &lo);
  if (r == OMP_EXT_UINT_OK && **s == '-') {
    const char *h = ++*s;
    if (*h < '0' || *h > '9')
      return hwloc_bitmap_set_range(set, (unsigned)lo, -1) < 0 ? OMP_EXT_UINT_MALFORMED : r;
    at = h;
    if ((r = omp_ext_scan_uint(h, s, max, &hi)) == OMP_EXT_UINT_OK && hi < lo)
      return OMP_EXT_UINT_MALFORMED;
  } else {
    hi = lo;
  }
  if (r == OMP_EXT_UINT_ABOVE && above)
    *above = at;
  if (r != OMP_EXT_UINT_OK)
    return r;
  return hwloc_bitmap_set_range(set, (unsigned)lo, (int)hi) < 0 ? OMP_EXT_UINT_MALFORMED : r;
}

int omp_ext_parse_cpulist(const char *text, unsigned long long max, hwloc_bitmap_t set,
                          const char **above)
{
  const char *s = text;
  int r;
  hwloc_bitmap_zero(set);
  if (!*s)
    return OMP_EXT_UINT_OK;
  for (;;) {
    if ((r = cpulist_item(&s, max, set, above)) != OMP_EXT_UINT_OK)
      return r;
    if (*s == '\0')
      return OMP_EXT_UINT_OK;
    if (*s++ != ',')
      return OMP_EXT_UINT_MALFORMED;
  }
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
  if (set && omp_ext_parse_cpulist(line, OMP_EXT_CPULIST_ANY, set, NULL) != OMP_EXT_UINT_OK) {
    hwloc_bitmap_free(set);
    set = NULL;
  }
  free(line);
  return set;
}

/* hwloc_topology_init() reads these, in this order, to replace this
 * machine's discovery. */
static const char *const hwloc_env_vars[] = {"HWLOC_FSROOT", "HWLOC_SYNTHETIC", "HWLOC_XMLFILE"};

const char *omp_ext_hwloc_env_var(void)
{
  const char *this = getenv("HWLOC_THISSYSTEM");
  size_t i;
  if (this && strcmp(this, "1") == 0)
    return NULL;
  for (i = 0; i < sizeof(hwloc_env_vars) / sizeof(hwloc_env_vars[0]); i++) {
    const char *v = getenv(hwloc_env_vars[i]);
    if (v && *v)
      return hwloc_env_vars[i];
  }
  return NULL;
}

void omp_ext_put_field(FILE *f, const char *name)
{
  const unsigned char *c;
  for (c = (const unsigned char *)name; *c; c++)
    if (*c <= ' ' || *c == '%' || *c == 0x7f)
      fprintf(f, "%%%02X", *c);
    else
      fputc(*c, f);
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

const char *omp_ext_file_kind(unsigned mode)
{
  return S_ISREG(mode) ? "a regular file" : S_ISDIR(mode) ? "a folder" : S_ISFIFO(mode) ? "a FIFO"
         : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : "a socket";
}
