/*
 * Per-region control's configurations (see region_config.h): a team size
 * and a place per thread, made by the plan (plan.c) and the online tuner
 * (auto.c), used by region.c and the trampoline (trampoline.c).
 *
 * Places are interned: each distinct CPU set gets a small number, and a
 * thread remembers the number it is bound to (bind.c), so that a team that
 * moves between configurations re-binds only the threads whose place
 * changed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"
#include "private/bind.h"
#include "private/region_config.h"

static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;

/* ------------------------------------------------------------ places --- */

#define MAXPLACES 4096
static hwloc_bitmap_t places[MAXPLACES]; /* places[id - 1]; config_lock for writes */
static unsigned nplaces_interned;         /* atomic */

/* The number of \p set (interned now if new); 0 when the table is full or
 * out of memory.  config_lock held. */
static unsigned intern_locked(hwloc_const_bitmap_t set)
{
  unsigned i, n = __atomic_load_n(&nplaces_interned, __ATOMIC_RELAXED);
  for (i = 0; i < n; i++)
    if (hwloc_bitmap_isequal(places[i], set))
      return i + 1;
  if (n == MAXPLACES || !(places[n] = hwloc_bitmap_dup(set)))
    return 0;
  __atomic_store_n(&nplaces_interned, n + 1, __ATOMIC_RELEASE);
  return n + 1;
}

int omp_ext_region_bind(const struct omp_ext_rcfg *cfg, unsigned index)
{
  unsigned want = cfg->place_id[cfg->nplaces ? index % cfg->nplaces : 0];
  return omp_ext_bind_place(want, places[want - 1]);
}

struct omp_ext_rcfg *omp_ext_rcfg_new(unsigned threads, hwloc_const_bitmap_t *sets, unsigned n,
                                      const char *label)
{
  const omp_ext_topo_t *topo;
  struct omp_ext_rcfg *c;
  hwloc_bitmap_t cut;
  unsigned i, slots = n ? n : 1;
  if (omp_ext_bind_topology(&topo) != 0 || !(c = calloc(1, sizeof(*c))))
    return NULL;
  if (!(c->place_id = calloc(slots, sizeof(*c->place_id))) || !(cut = hwloc_bitmap_alloc())) {
    free(c->place_id);
    free(c);
    return NULL;
  }
  pthread_mutex_lock(&config_lock);
  for (i = 0; i < slots; i++) {
    hwloc_bitmap_and(cut, n ? sets[i] : omp_ext_topo_allowed(topo), omp_ext_topo_allowed(topo));
    if (hwloc_bitmap_iszero(cut) || !(c->place_id[i] = intern_locked(cut)))
      break;
  }
  pthread_mutex_unlock(&config_lock);
  hwloc_bitmap_free(cut);
  if (i < slots) {
    free(c->place_id);
    free(c);
    return NULL;
  }
  c->threads = threads;
  c->nplaces = n;
  snprintf(c->label, sizeof(c->label), "%s", label);
  return c;
}


void omp_ext_rcfg_place_or(const struct omp_ext_rcfg *cfg, unsigned i, hwloc_bitmap_t set)
{
  hwloc_bitmap_or(set, set, places[cfg->place_id[i] - 1]);
}

char *omp_ext_rcfg_places_text(const struct omp_ext_rcfg *cfg)
{
  char *text = NULL;
  size_t len = 0;
  unsigned i;
  int pu, first;
  FILE *f;
  if (!cfg->nplaces)
    return strdup("-");
  if (!(f = open_memstream(&text, &len)))
    return NULL;
  for (i = 0; i < cfg->nplaces; i++) { /* (OMP_PLACES: PUs listed, no a-b ranges) */
    fputs(i ? ",{" : "{", f);
    first = 1;
    hwloc_bitmap_foreach_begin(pu, places[cfg->place_id[i] - 1])
      fprintf(f, first ? "%d" : ",%d", pu), first = 0;
    hwloc_bitmap_foreach_end();
    fputc('}', f);
  }
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}
