/*
 * The result record's field table: one list of names and types drives the
 * worker's result line, results.csv (both ways) and results.json.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "htbench.h"

#define F(name, type) {#name, type, offsetof(struct htb_result, name), sizeof(((struct htb_result *)0)->name)}
const struct htb_field htb_fields[] = {
  F(kernel, HTB_F_STR),     F(policy, HTB_F_STR),     F(path, HTB_F_STR),     F(threads, HTB_F_UINT),
  F(cores, HTB_F_UINT),     F(packages, HTB_F_UINT),  F(extra, HTB_F_UINT),
  F(oversub, HTB_F_UINT),
  F(valid, HTB_F_INT),      F(status, HTB_F_STR),     F(median_s, HTB_F_DBL),
  F(min_s, HTB_F_DBL),      F(max_s, HTB_F_DBL),      F(mean_s, HTB_F_DBL),
  F(sd_s, HTB_F_DBL),       F(ci95_lo_s, HTB_F_DBL),  F(ci95_hi_s, HTB_F_DBL),
  F(outliers, HTB_F_UINT),  F(inner_reps, HTB_F_ULONG), F(outer_reps, HTB_F_UINT),
  F(ref_mean_s, HTB_F_DBL), F(work, HTB_F_DBL),       F(rate, HTB_F_DBL),
  F(unit, HTB_F_STR),       F(speedup, HTB_F_DBL),    F(power_w, HTB_F_DBL),
  F(energy_j, HTB_F_DBL),   F(energy_source, HTB_F_STR), F(spn, HTB_F_DBL),
  F(rapl_w, HTB_F_DBL),     F(cpu_util, HTB_F_DBL),   F(capacity, HTB_F_DBL),
  F(vs_balanced, HTB_F_DBL), F(vs_balanced_lo, HTB_F_DBL), F(vs_balanced_hi, HTB_F_DBL),
  F(verified, HTB_F_INT),   F(check, HTB_F_STR),
  F(binding_ok, HTB_F_INT), F(ht_hooks, HTB_F_INT), F(bindings, HTB_F_STR),   F(places, HTB_F_STR),
};
#undef F
const unsigned htb_nfields = sizeof(htb_fields) / sizeof(htb_fields[0]);

const struct htb_field *htb_field_by_name(const char *name)
{
  unsigned i;
  for (i = 0; i < htb_nfields; i++)
    if (strcmp(htb_fields[i].name, name) == 0)
      return &htb_fields[i];
  return NULL;
}

void htb_result_init(struct htb_result *r)
{
  memset(r, 0, sizeof(*r));
  r->median_s = r->min_s = r->max_s = r->mean_s = r->sd_s = NAN;
  r->ci95_lo_s = r->ci95_hi_s = r->ref_mean_s = r->rate = r->cpu_util = NAN;
  r->speedup = r->power_w = r->energy_j = r->spn = r->wall_s = NAN;
  r->capacity = r->vs_balanced = r->vs_balanced_lo = r->vs_balanced_hi = NAN;
  r->rapl_w = -1;
}

int htb_field_set(struct htb_result *r, const struct htb_field *f, const char *text)
{
  char *p = (char *)r + f->offset, *end;
  errno = 0;
  switch (f->type) {
  case HTB_F_STR:
    snprintf(p, f->size, "%s", text);
    return 0;
  case HTB_F_UINT:
    *(unsigned *)p = (unsigned)strtoul(text, &end, 10);
    break;
  case HTB_F_ULONG:
    *(unsigned long *)p = strtoul(text, &end, 10);
    break;
  case HTB_F_INT:
    *(int *)p = (int)strtol(text, &end, 10);
    break;
  case HTB_F_DBL:
    if (*text == '\0') {
      *(double *)p = f->offset == offsetof(struct htb_result, rapl_w) ? -1 : NAN;
      return 0;
    }
    *(double *)p = strtod(text, &end);
    break;
  default:
    return -1;
  }
  return (errno || end == text || *end) ? -1 : 0;
}

void htb_field_get(const struct htb_result *r, const struct htb_field *f, char *buf, size_t len)
{
  const char *p = (const char *)r + f->offset;
  double d;
  switch (f->type) {
  case HTB_F_STR:
    snprintf(buf, len, "%s", p);
    break;
  case HTB_F_UINT:
    snprintf(buf, len, "%u", *(const unsigned *)p);
    break;
  case HTB_F_ULONG:
    snprintf(buf, len, "%lu", *(const unsigned long *)p);
    break;
  case HTB_F_INT:
    snprintf(buf, len, "%d", *(const int *)p);
    break;
  case HTB_F_DBL:
    d = *(const double *)p;
    if (!isfinite(d) || (f->offset == offsetof(struct htb_result, rapl_w) && d < 0))
      buf[0] = '\0';
    else
      snprintf(buf, len, "%.9g", d);
    break;
  }
}
