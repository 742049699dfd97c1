/*
 * Findings as data (findings.h): the list, its values, and the JSON
 * printer shared by check and doctor.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "misc.h"

#define HTP_X_NAME(name, severity) #name,
static const char *const kind_names[] = {HTP_FINDING_KINDS(HTP_X_NAME)};
#undef HTP_X_NAME
#define HTP_X_SEVOF(name, severity) htp_severity_##severity,
static const enum htp_severity kind_severity[] = {HTP_FINDING_KINDS(HTP_X_SEVOF)};
#undef HTP_X_SEVOF
#define HTP_X_STR(name) #name,
static const char *const severity_names[] = {HTP_SEVERITIES(HTP_X_STR)};
static const char *const section_names[] = {HTP_SECTIONS(HTP_X_STR)};
#undef HTP_X_STR

const char *htp_finding_name(enum htp_finding_kind kind)
{
  return (unsigned)kind < htp_finding_nkinds ? kind_names[kind] : "unknown";
}

enum htp_severity htp_finding_severity(enum htp_finding_kind kind)
{
  return (unsigned)kind < htp_finding_nkinds ? kind_severity[kind] : htp_severity_problem;
}

const char *htp_severity_name(enum htp_severity severity)
{
  return (unsigned)severity < htp_severity_count ? severity_names[severity] : "unknown";
}

const char *htp_section_name(enum htp_section section)
{
  return (unsigned)section < htp_section_count ? section_names[section] : "unknown";
}

struct htp_finding *htp_finding_add(struct htp_findings *l, enum htp_finding_kind kind,
                                    enum htp_section section, enum htp_position_kind at,
                                    unsigned long index)
{
  struct htp_finding *f;
  if (l->n == l->cap) {
    unsigned cap = l->cap ? 2 * l->cap : 8;
    struct htp_finding *v = realloc(l->v, cap * sizeof(*v));
    if (!v) {
      l->nomem = 1;
      return NULL;
    }
    l->v = v;
    l->cap = cap;
  }
  f = &l->v[l->n++];
  memset(f, 0, sizeof(*f));
  f->kind = kind;
  f->section = section;
  f->at = at;
  f->index = index;
  return f;
}

static struct htp_value *slot(struct htp_findings *l, struct htp_finding *f, const char *name,
                              enum htp_value_type type)
{
  struct htp_value *v;
  if (!f)
    return NULL;
  if (f->nvalues == HTP_MAX_VALUES) {
    l->nomem = 1; /* a programming error: more values than room */
    return NULL;
  }
  v = &f->values[f->nvalues++];
  v->name = name;
  v->type = type;
  return v;
}

void htp_put_uint(struct htp_findings *l, struct htp_finding *f, const char *name,
                  unsigned long long x)
{
  struct htp_value *v = slot(l, f, name, htp_value_uint);
  if (v)
    v->v.u = x;
}

void htp_put_real(struct htp_findings *l, struct htp_finding *f, const char *name, double x)
{
  struct htp_value *v = slot(l, f, name, htp_value_real);
  if (v)
    v->v.d = x;
}

void htp_put_text(struct htp_findings *l, struct htp_finding *f, const char *name,
                  const char *x)
{
  struct htp_value *v = slot(l, f, name, htp_value_text);
  if (v && !(v->v.s = strdup(x ? x : "")))
    l->nomem = 1;
}

void htp_put_set(struct htp_findings *l, struct htp_finding *f, const char *name,
                 enum htp_value_type type, hwloc_const_bitmap_t set)
{
  struct htp_value *v = slot(l, f, name, type);
  if (v && !(v->v.set = set ? hwloc_bitmap_dup(set) : hwloc_bitmap_alloc()))
    l->nomem = 1;
}

const struct htp_value *htp_finding_value(const struct htp_finding *f, const char *name)
{
  unsigned i;
  for (i = 0; f && i < f->nvalues; i++)
    if (strcmp(f->values[i].name, name) == 0)
      return &f->values[i];
  return NULL;
}

unsigned long long htp_finding_uint(const struct htp_finding *f, const char *name)
{
  const struct htp_value *v = htp_finding_value(f, name);
  return v && v->type == htp_value_uint ? v->v.u : 0;
}

double htp_finding_real(const struct htp_finding *f, const char *name)
{
  const struct htp_value *v = htp_finding_value(f, name);
  return v && v->type == htp_value_real ? v->v.d : 0;
}

const char *htp_finding_text(const struct htp_finding *f, const char *name)
{
  const struct htp_value *v = htp_finding_value(f, name);
  return v && v->type == htp_value_text ? v->v.s : NULL;
}

hwloc_const_bitmap_t htp_finding_set(const struct htp_finding *f, const char *name)
{
  const struct htp_value *v = htp_finding_value(f, name);
  return v && (v->type == htp_value_cpuset || v->type == htp_value_indexes) ? v->v.set : NULL;
}

unsigned htp_findings_count(const struct htp_findings *l)
{
  unsigned i, n = 0;
  for (i = 0; i < l->n; i++)
    n += htp_finding_severity(l->v[i].kind) != htp_severity_note;
  return n;
}

const struct htp_finding *htp_findings_find(const struct htp_findings *l,
                                            enum htp_finding_kind kind)
{
  unsigned i;
  for (i = 0; i < l->n; i++)
    if (l->v[i].kind == kind)
      return &l->v[i];
  return NULL;
}

void htp_findings_free(struct htp_findings *l)
{
  unsigned i, k;
  for (i = 0; i < l->n; i++)
    for (k = 0; k < l->v[i].nvalues; k++) {
      struct htp_value *v = &l->v[i].values[k];
      if (v->type == htp_value_text)
        free(v->v.s);
      else if (v->type == htp_value_cpuset || v->type == htp_value_indexes)
        hwloc_bitmap_free(v->v.set);
    }
  free(l->v);
  memset(l, 0, sizeof(*l));
}

/* ---- JSON (RFC 8259) ---- */

void htp_json_cpuset(FILE *out, hwloc_const_bitmap_t set)
{
  char *s = NULL;
  if (!set || hwloc_bitmap_list_asprintf(&s, set) < 0) {
    fputs("null", out);
    return;
  }
  omp_ext_json_string(out, s);
  free(s);
}

static void json_value(FILE *out, const struct htp_value *v)
{
  unsigned i, n = 0;
  switch (v->type) {
  case htp_value_uint: fprintf(out, "%llu", v->v.u); break;
  case htp_value_real:
    if (isfinite(v->v.d))
      fprintf(out, "%.6g", v->v.d);
    else
      fputs("null", out);
    break;
  case htp_value_text: omp_ext_json_string(out, v->v.s); break;
  case htp_value_cpuset: htp_json_cpuset(out, v->v.set); break;
  case htp_value_indexes:
    fputc('[', out);
    hwloc_bitmap_foreach_begin(i, v->v.set) {
      fprintf(out, "%s%u", n++ ? ", " : "", i);
    }
    hwloc_bitmap_foreach_end();
    fputc(']', out);
    break;
  }
}

void htp_json_finding(FILE *out, const struct htp_finding *f)
{
  static const char *const at_names[] = {NULL, "character", "place", "pu", "variable"};
  unsigned k;
  fputs("{\"kind\": ", out);
  omp_ext_json_string(out, htp_finding_name(f->kind));
  fputs(", \"severity\": ", out);
  omp_ext_json_string(out, htp_severity_name(htp_finding_severity(f->kind)));
  if (f->section != htp_section_none) {
    fputs(", \"section\": ", out);
    omp_ext_json_string(out, htp_section_name(f->section));
  }
  fputs(", \"position\": ", out);
  if (f->at == htp_at_none) {
    fputs("null", out);
  } else if (f->at == htp_at_variable) {
    fputs("{\"variable\": ", out);
    omp_ext_json_string(out, f->variable);
    fputc('}', out);
  } else {
    fprintf(out, "{\"%s\": %lu}", at_names[f->at], f->index);
  }
  fputs(", \"values\": {", out);
  for (k = 0; k < f->nvalues; k++) {
    fputs(k ? ", " : "", out);
    omp_ext_json_string(out, f->values[k].name);
    fputs(": ", out);
    json_value(out, &f->values[k]);
  }
  fputs("}}", out);
}

void htp_json_findings(FILE *out, const struct htp_findings *l, const char *indent)
{
  unsigned i;
  fputc('[', out);
  for (i = 0; i < l->n; i++) {
    fprintf(out, "%s\n%s  ", i ? "," : "", indent);
    htp_json_finding(out, &l->v[i]);
  }
  if (l->n)
    fprintf(out, "\n%s", indent);
  fputc(']', out);
}
