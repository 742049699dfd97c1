/*
 * Places: write an order as text for each consumer -- OMP_PLACES (OpenMP 5.2
 * §6.5), GOMP_CPU_AFFINITY (libgomp), KMP_AFFINITY (libomp/libiomp5), a plain
 * list (taskset -c, likwid-pin -c) or JSON.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"

/* The format table, one row per format (include/omp_ext/places.h). */
static const struct format {
  const char *name;
  const char *prefix, *item, *separator, *suffix; /* item NULL: a JSON object */
  const char *variable, *also;                    /* for export lines */
} formats[OMP_EXT_NFORMATS] = {
#define FORMAT_ROW(name_, value, prefix, item, sep, suffix, var, also) \
  [value] = {#name_, prefix, item, sep, suffix, var, also},
  OMP_EXT_FORMATS(FORMAT_ROW)
#undef FORMAT_ROW
};

int omp_ext_format_from_name(const char *name, omp_ext_format_t *format)
{
  unsigned i;
  if (!name || !format)
    return omp_ext_err_invalid;
  for (i = 0; i < OMP_EXT_NFORMATS; i++)
    if (strcmp(name, formats[i].name) == 0) {
      *format = (omp_ext_format_t)i;
      return omp_ext_success;
    }
  return omp_ext_err_format;
}

const char *omp_ext_format_name(omp_ext_format_t format)
{
  return (unsigned)format < OMP_EXT_NFORMATS ? formats[format].name : NULL;
}

/* A growing string; on allocation failure it stays NULL and further appends
 * do nothing. */
struct text {
  char *buf;
  size_t len, cap;
  int failed;
};

static void append(struct text *t, const char *fmt, ...)
{
  va_list ap;
  int need;
  if (t->failed)
    return;
  va_start(ap, fmt);
  need = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
  va_end(ap);
  if (need < 0) {
    t->failed = 1;
    return;
  }
  if (!t->buf || t->len + (size_t)need + 1 > t->cap) {
    size_t cap = (t->cap + (size_t)need + 1) * 2;
    char *p = realloc(t->buf, cap);
    if (!p) {
      t->failed = 1;
      return;
    }
    t->buf = p;
    t->cap = cap;
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
  }
  t->len += (size_t)need;
}

static void append_json(struct text *t, const omp_ext_pu_t *pu, unsigned thread)
{
  append(t, "{\"thread\":%u,\"pu\":%u,\"pu_logical\":%u,\"core\":%u,\"core_os\":%u,"
            "\"package\":%u,", thread, pu->os_index, pu->logical_index, pu->core,
         pu->core_os_index, pu->package);
  if (pu->numa >= 0)
    append(t, "\"numa\":%d,", pu->numa);
  else
    append(t, "\"numa\":null,");
  append(t, "\"sibling\":%u,\"kind\":%u}", pu->sibling, pu->kind);
}

int omp_ext_places_format(const omp_ext_pu_t *order, unsigned n, omp_ext_format_t format,
                          char **text)
{
  struct text t = {NULL, 0, 0, 0};
  const struct format *f;
  unsigned i;
  if (!order || !text || n == 0)
    return omp_ext_err_invalid;
  if ((unsigned)format >= OMP_EXT_NFORMATS)
    return omp_ext_err_format;
  f = &formats[format];
  append(&t, "%s", f->prefix);
  for (i = 0; i < n; i++) {
    if (f->item)
      append(&t, f->item, order[i].os_index);
    else
      append_json(&t, &order[i], i);
    if (i + 1 < n)
      append(&t, "%s", f->separator);
  }
  append(&t, "%s", f->suffix);
  if (t.failed) {
    free(t.buf);
    return omp_ext_err_nomem;
  }
  *text = t.buf;
  return omp_ext_success;
}

const char *omp_ext_format_variable(omp_ext_format_t format)
{
  return (unsigned)format < OMP_EXT_NFORMATS ? formats[format].variable : NULL;
}

int omp_ext_places_export(const omp_ext_pu_t *order, unsigned n, omp_ext_format_t format,
                          char **line)
{
  const struct format *f;
  char *places;
  int err, len;
  if (!order || !line || n == 0)
    return omp_ext_err_invalid;
  if ((unsigned)format >= OMP_EXT_NFORMATS || !formats[format].variable)
    return omp_ext_err_format;
  f = &formats[format];
  if ((err = omp_ext_places_format(order, n, format, &places)) != 0)
    return err;
  len = asprintf(line, "export %s='%s'%s%s OMP_NUM_THREADS=%u", f->variable, places,
                 *f->also ? " " : "", f->also, n);
  free(places);
  return len < 0 ? omp_ext_err_nomem : omp_ext_success;
}
