/*
 * htplaces doctor, environment part: the OMP_* / KMP_* / GOMP_* variables
 * set, and the conflicts between them as the two runtimes resolve them.
 *
 *  - libgomp (env.c, initialize_env): OMP_PLACES is parsed first; when it is
 *    valid, GOMP_CPU_AFFINITY is parsed but not used.
 *  - libomp (kmp_settings.cpp, __kmp_stg_check_rivals): KMP_AFFINITY is a
 *    rival of OMP_PLACES and OMP_PROC_BIND and, when set, wins ("ignored
 *    because KMP_AFFINITY has been defined"); an invalid OMP_PLACES warns and
 *    falls back to cores (__kmp_places_syntax_error_fallback).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "htplaces.h"
#include "util.h"

/* Value of NAME in envp, or NULL (no envp: nothing is set). */
static const char *env_get(char *const envp[], const char *name)
{
  return envp ? omp_ext_env_get(envp, name) : NULL;
}

static int is_runtime_var(const char *entry)
{
  return strncmp(entry, "OMP_", 4) == 0 || strncmp(entry, "KMP_", 4) == 0 ||
         strncmp(entry, "GOMP_", 5) == 0;
}

struct envrep {
  FILE *out;
  unsigned conflicts;
};

static void conflict(struct envrep *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void conflict(struct envrep *r, const char *fmt, ...)
{
  va_list ap;
  fputs("  conflict: ", r->out);
  va_start(ap, fmt);
  vfprintf(r->out, fmt, ap);
  va_end(ap);
  fputc('\n', r->out);
  r->conflicts++;
}

/* OMP_PROC_BIND: true, false, or a list of primary/master/close/spread. */
static int proc_bind_valid(const char *v, int *is_false)
{
  static const char *const words[] = {"true", "false", "primary", "master", "close", "spread"};
  unsigned items = 0, k;
  *is_false = 0;
  for (;;) {
    size_t len;
    while (isspace((unsigned char)*v))
      v++;
    len = strcspn(v, ", \t\n");
    for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
      if (strlen(words[k]) == len && strncasecmp(v, words[k], len) == 0)
        break;
    if (k == sizeof(words) / sizeof(words[0]) || (k < 2 && items > 0))
      return 0;
    if (k == 1)
      *is_false = 1;
    items++;
    v += len;
    while (isspace((unsigned char)*v))
      v++;
    if (!*v)
      return k >= 2 || items == 1;
    if (*v != ',' || k < 2)
      return 0;
    v++;
  }
}

/* First value of OMP_NUM_THREADS ("8" or "8,4"); 0 if invalid. */
static unsigned long num_threads(const char *v)
{
  const char *end;
  unsigned long long n;
  while (isspace((unsigned char)*v))
    v++;
  if (omp_ext_scan_uint(v, &end, ~0UL, &n) == OMP_EXT_UINT_MALFORMED)
    return 0;
  while (isspace((unsigned char)*end))
    end++;
  return (*end == '\0' || *end == ',') ? n : 0;
}

/* Parse a variable's value; prints a conflict when invalid.  Returns the
 * number of places, or -1 when invalid or unset. */
static long check_list(struct envrep *r, const omp_ext_topo_t *topo, const char *name,
                       const char *value, omp_ext_syntax_t syntax, const char *fallback)
{
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t e = {0, NULL};
  long n;
  int err;
  if (!value)
    return -1;
  err = omp_ext_places_parse(topo, value, syntax, &l, &e);
  if (err == omp_ext_err_parse) {
    conflict(r, "%s is invalid at character %zu (%s): %s", name, e.pos + 1, e.what, fallback);
    return -1;
  }
  if (err)
    return -1;
  n = (long)l->nplaces;
  omp_ext_placelist_destroy(l);
  return n;
}

/* The KMP_AFFINITY proclist, if the value has one. */
static long check_kmp(struct envrep *r, const omp_ext_topo_t *topo, const char *kmp)
{
  if (!kmp || !strstr(kmp, "proclist="))
    return -1;
  return check_list(r, topo, "KMP_AFFINITY's proclist", kmp, omp_ext_syntax_kmp,
                    "libomp warns and ignores it");
}

unsigned htp_env_check(FILE *out, char *const envp[], const omp_ext_topo_t *topo)
{
  struct envrep r = {out, 0};
  const char *places = env_get(envp, "OMP_PLACES"), *bind = env_get(envp, "OMP_PROC_BIND");
  const char *gomp = env_get(envp, "GOMP_CPU_AFFINITY"), *kmp = env_get(envp, "KMP_AFFINITY");
  const char *nth = env_get(envp, "OMP_NUM_THREADS");
  unsigned listed = 0;
  long nplaces;
  int bind_false = 0;
  char *const *e;

  fprintf(out, "environment:\n");
  for (e = envp; e && *e; e++)
    if (is_runtime_var(*e)) {
      fprintf(out, "  %s\n", *e);
      listed++;
    }
  if (!listed)
    fprintf(out, "  no OMP_*, KMP_* or GOMP_* variable is set\n");

  nplaces = check_list(&r, topo, "OMP_PLACES", places, omp_ext_syntax_omp,
                       "libgomp warns and ignores it (then uses GOMP_CPU_AFFINITY if set); "
                       "libomp warns and uses OMP_PLACES=cores");
  check_list(&r, topo, "GOMP_CPU_AFFINITY", gomp, omp_ext_syntax_gomp,
             "libgomp warns and ignores it");
  check_kmp(&r, topo, kmp);
  if (bind && !proc_bind_valid(bind, &bind_false))
    conflict(&r, "OMP_PROC_BIND='%s' is invalid; allowed: true, false, or a list of primary, "
             "close, spread", bind);
  if (kmp && (places || bind))
    conflict(&r, "KMP_AFFINITY is set together with %s%s%s: libomp lets KMP_AFFINITY win and "
             "ignores %s; libgomp ignores KMP_AFFINITY", places ? "OMP_PLACES" : "",
             places && bind ? " and " : "", bind ? "OMP_PROC_BIND" : "",
             places && bind ? "them" : "it");
  if (gomp && places && nplaces >= 0)
    conflict(&r, "GOMP_CPU_AFFINITY and a valid OMP_PLACES are both set: libgomp ignores "
             "GOMP_CPU_AFFINITY");
  if (places && bind_false)
    conflict(&r, "OMP_PROC_BIND=false with OMP_PLACES set: threads are not bound, the places "
             "are unused");
  if (nth && num_threads(nth) == 0)
    conflict(&r, "OMP_NUM_THREADS='%s' is not a positive number (list)", nth);
  if (nth && num_threads(nth) > omp_ext_topo_npus(topo))
    conflict(&r, "OMP_NUM_THREADS=%lu is above the %u allowed PUs: threads will share PUs",
             num_threads(nth), omp_ext_topo_npus(topo));
  else if (nth && nplaces > 0 && num_threads(nth) > (unsigned long)nplaces)
    conflict(&r, "OMP_NUM_THREADS=%lu is above the %ld places of OMP_PLACES: threads will "
             "share places", num_threads(nth), nplaces);
  return r.conflicts;
}
