/*
 * htplaces tune: per-region figures.  Each run is made with
 * OMP_EXT_TIMING=FILE and libomp_ext preloaded (LD_PRELOAD: the GOMP
 * wrappers under libgomp, the OMPT tool under libomp/libiomp5), so the
 * timing layer (include/omp_ext/timing.h) writes, at the program's exit, one
 * line per outermost parallel region.  This file reads those lines (the
 * writer is omp_ext's own timing.c: one region object per line) and keeps,
 * per configuration and region, the total seconds of every run.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

/* The JSON string after "key": at p, unescaped into out[len]; 0 or -1. */
static int string_after(const char *line, const char *key, char *out, size_t len)
{
  const char *p = strstr(line, key);
  size_t k = 0;
  if (!p || !(p = strchr(p + strlen(key), '"')))
    return -1;
  for (p++; *p && *p != '"' && k + 1 < len; p++) {
    if (*p == '\\' && p[1])
      p++;
    out[k++] = *p;
  }
  out[k] = '\0';
  return *p == '"' ? 0 : -1;
}

/* The number after "key": at p; NAN if absent. */
static double number_after(const char *line, const char *key)
{
  const char *p = strstr(line, key);
  char *end;
  double v;
  if (!p)
    return NAN;
  v = strtod(p + strlen(key), &end);
  return end == p + strlen(key) ? NAN : v;
}

static struct tune_region *find_or_add(struct tune_config *c, const char *name)
{
  struct tune_region *more;
  unsigned i;
  for (i = 0; i < c->nregions; i++)
    if (strcmp(c->regions[i].name, name) == 0)
      return &c->regions[i];
  if (!(more = realloc(c->regions, (c->nregions + 1) * sizeof(*more))))
    return NULL;
  c->regions = more;
  memset(&more[c->nregions], 0, sizeof(*more));
  snprintf(more[c->nregions].name, sizeof(more[c->nregions].name), "%s", name);
  return &more[c->nregions++];
}

static int add_total(struct tune_region *r, double total, double median,
                     unsigned long instances, unsigned team_max)
{
  double *more = realloc(r->total_s, (r->nruns + 1) * sizeof(*more)), *med;
  if (!more)
    return -1;
  r->total_s = more;
  if (!(med = realloc(r->median_s, (r->nruns + 1) * sizeof(*med))))
    return -1;
  r->median_s = med;
  r->median_s[r->nruns] = median;
  r->total_s[r->nruns++] = total;
  r->instances = instances;
  if (team_max > r->team_max)
    r->team_max = team_max;
  return 0;
}

/* The largest team size of a region line: the last number of its
 * "team_sizes": [..] list (ascending). */
static unsigned team_max_of(const char *line)
{
  const char *p = strstr(line, "\"team_sizes\": ["), *end;
  unsigned v = 0;
  if (!p || !(end = strchr(p, ']')))
    return 0;
  while (end > p && (end[-1] < '0' || end[-1] > '9'))
    end--;
  while (end > p && end[-1] >= '0' && end[-1] <= '9')
    end--;
  if (end > p)
    v = (unsigned)strtoul(end, NULL, 10);
  return v;
}

int tune_read_timing(const char *path, struct tune_config *c, double *serial_s)
{
  FILE *f = fopen(path, "r");
  char *line = NULL, name[sizeof(((struct tune_region *)0)->name)];
  size_t cap = 0;
  int ok = 0, err = 0;
  *serial_s = NAN;
  if (!f)
    return -1;
  while (!err && getline(&line, &cap, f) > 0) {
    if (strstr(line, "{\"omp_ext_timing\": 1,")) {
      ok = 1;
      *serial_s = number_after(line, "\"serial_s\": ");
    } else if (ok && strstr(line, "{\"name\": ") &&
               string_after(line, "\"name\": ", name, sizeof(name)) == 0) {
      struct tune_region *r = find_or_add(c, name);
      double total = number_after(line, "\"total_s\": ");
      double inst = number_after(line, "\"instances\": ");
      double median = number_after(line, "\"median_s\": ");
      err = !r || !isfinite(total) || !isfinite(inst) || !isfinite(median) ||
            add_total(r, total, median, (unsigned long)inst, team_max_of(line));
    }
  }
  free(line);
  fclose(f);
  return ok && !err ? 0 : -1;
}

void tune_free_regions(struct tune_config *c)
{
  unsigned i;
  for (i = 0; i < c->nregions; i++) {
    free(c->regions[i].total_s);
    free(c->regions[i].median_s);
  }
  free(c->regions);
  free(c->serial_s);
  c->regions = NULL;
  c->serial_s = NULL;
  c->nregions = c->nserial = 0;
}
