/*
 * Per-region control's candidate configurations for a team (region_int.h:
 * struct omp_ext_cands), made once per team size and contract, from the
 * binding topology:
 *
 *  - candidate 0, the base: the placement a region runs before (or
 *    without) learning -- bound, never the unbound default: the user's
 *    places (OMP_EXT_PLACES, which htplaces exec auto sets from the user's
 *    OMP_PLACES, else OMP_PLACES), thread t on place t (or, with more
 *    threads than places, the close rule of OpenMP 5.2 §10.1.3: T/P
 *    consecutive threads a place); else the order the objective favours
 *    by the paper's model: speedup for time (one PU on every core first:
 *    the best speed-up), spn for energy (siblings first: the best SPN).
 *  - the team's other placements: the first T PUs of the speedup, spn and
 *    spread orders, each set of PUs once;
 *  - where team sizes may change (dyn-var true, auto:threads, a plan made
 *    so), smaller teams too: 1, half the cores, the cores and all PUs
 *    below T, each in those orders;
 *  - last, "none": the team unbound (the runtime's and the OS's
 *    placement), chosen only if measured best.
 *
 * The plan (plan.c) uses the base for a region whose kept team no plan
 * line fits.  Sets live for the process; at most CANDS_MAX_SETS (team
 * sizes x contracts x objectives) are made, and a team beyond gets none
 * (the region is then left to the runtime, said once).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"
#include "private/bind.h"
#include "private/region_int.h"
#include "private/tools.h"

#define CANDS_MAX_SETS 32
/* The most place slots a base keeps (thread t on slot t % slots). */
#define CANDS_MAX_SLOTS 4096

static struct omp_ext_cands *sets[CANDS_MAX_SETS]; /* published with a release store */
static unsigned nsets;                             /* atomic */
static pthread_mutex_t cands_lock = PTHREAD_MUTEX_INITIALIZER;

/* The user's places, read once (cands_lock): NULL, or the places cut to
 * the allowed PUs (empty ones left out). */
static omp_ext_placelist_t *user_places;
static int user_read;

static void read_user_places(const omp_ext_topo_t *topo)
{
  const char *v = getenv("OMP_EXT_PLACES");
  omp_ext_placelist_t *l = NULL;
  unsigned i, k = 0;
  user_read = 1;
  if (!v || !*v)
    v = getenv("OMP_PLACES");
  if (!v || !*v || omp_ext_places_parse(topo, v, omp_ext_syntax_omp, &l, NULL) != 0)
    return; /* (the runtime reported an invalid OMP_PLACES itself) */
  for (i = 0; i < l->nplaces; i++) {
    hwloc_bitmap_and(l->places[i], l->places[i], omp_ext_topo_allowed(topo));
    if (!hwloc_bitmap_iszero(l->places[i])) {
      hwloc_bitmap_t t = l->places[k];
      l->places[k++] = l->places[i];
      l->places[i] = t;
    }
  }
  l->nplaces = k;
  if (k)
    user_places = l;
  else
    omp_ext_placelist_destroy(l);
}

/* Add configuration \p cfg (NULL: no memory; skipped) with its power. */
static void add(struct omp_ext_cands *s, struct omp_ext_rcfg *cfg, double power)
{
  if (!cfg || s->n == OMP_EXT_PLAN_MAXC)
    return;
  s->c[s->n] = cfg;
  s->power[s->n++] = power;
}

/* The base of team \p team: the user's places, else the model's order. */
static void add_base(struct omp_ext_cands *s, const omp_ext_topo_t *topo, const omp_ext_pu_t *order,
                     const omp_ext_model_t *model)
{
  unsigned npus = omp_ext_topo_npus(topo), slots, t;
  hwloc_bitmap_t *at;
  omp_ext_usage_t u;
  char label[OMP_EXT_PLAN_LABEL];
  double power = 1;
  if (omp_ext_usage_of(order, s->team < npus ? s->team : npus, &u) == 0)
    power = omp_ext_model_power(&model->power, &u);
  if (user_places) {
    unsigned np = user_places->nplaces;
    slots = s->team <= np ? np : s->team <= CANDS_MAX_SLOTS ? s->team : np;
    if (!(at = calloc(slots, sizeof(*at))))
      return;
    for (t = 0; t < slots; t++) /* (close: T/P consecutive threads a place) */
      at[t] = user_places->places[slots == np ? t : (unsigned)((unsigned long)t * np / s->team)];
    snprintf(label, sizeof(label), "places:%u", s->team);
    add(s, omp_ext_rcfg_new(s->team, (hwloc_const_bitmap_t *)at, slots, label), power);
    free(at);
    return;
  }
  slots = s->team < npus ? s->team : npus;
  if (!(at = calloc(slots, sizeof(*at))))
    return;
  for (t = 0; t < slots; t++)
    at[t] = hwloc_bitmap_alloc(), hwloc_bitmap_only(at[t], order[t].os_index);
  snprintf(label, sizeof(label), "%s:%u",
           omp_ext_policy_name(s->energy ? omp_ht_policy_spn : omp_ht_policy_speedup), s->team);
  add(s, omp_ext_rcfg_new(s->team, (hwloc_const_bitmap_t *)at, slots, label), power);
  for (t = 0; t < slots; t++)
    hwloc_bitmap_free(at[t]);
  free(at);
}

/* Is the PU set of candidate \p cfg (a bound one) equal to \p set? */
static int same_set(const struct omp_ext_rcfg *cfg, hwloc_const_bitmap_t set)
{
  hwloc_bitmap_t mine = hwloc_bitmap_alloc();
  unsigned i;
  int eq;
  if (!mine)
    return 0;
  for (i = 0; i < cfg->nplaces; i++)
    omp_ext_rcfg_place_or(cfg, i, mine);
  eq = cfg->nplaces && hwloc_bitmap_isequal(mine, set);
  hwloc_bitmap_free(mine);
  return eq;
}

/* The first \p size PUs of each candidate policy's order, as candidates of
 * \p size threads, each set of PUs once. */
static void add_size(struct omp_ext_cands *s, const omp_ext_topo_t *topo, unsigned size,
                     const omp_ext_model_t *model)
{
  unsigned npus = omp_ext_topo_npus(topo), p, i, k;
  omp_ext_pu_t *order = malloc(npus * sizeof(*order));
  hwloc_bitmap_t *at = calloc(size, sizeof(*at)), all = hwloc_bitmap_alloc();
  for (i = 0; at && i < size; i++)
    at[i] = hwloc_bitmap_alloc();
  /* the policy table's candidates (CANDIDATE 1), in its order */
  for (p = 0; order && at && all && p < OMP_EXT_NPOLICIES; p++) {
    char label[OMP_EXT_PLAN_LABEL];
    omp_ext_usage_t u;
    if (omp_ext_policy_is_energy_candidate((omp_ht_policy_t)p) != 1 ||
        omp_ext_order(topo, NULL, (omp_ht_policy_t)p, npus, order) != 0)
      continue;
    hwloc_bitmap_zero(all);
    for (i = 0; i < size; i++) {
      hwloc_bitmap_only(at[i], order[i].os_index);
      hwloc_bitmap_set(all, order[i].os_index);
    }
    for (k = 0; k < s->n && !same_set(s->c[k], all); k++)
      ;
    if (k < s->n) /* the same PUs as an earlier candidate's */
      continue;
    snprintf(label, sizeof(label), "%s:%u", omp_ext_policy_name((omp_ht_policy_t)p), size);
    add(s, omp_ext_rcfg_new(size, (hwloc_const_bitmap_t *)at, size, label),
        omp_ext_usage_of(order, size, &u) == 0 ? omp_ext_model_power(&model->power, &u) : 1);
  }
  for (i = 0; at && i < size; i++)
    hwloc_bitmap_free(at[i]);
  free(at);
  hwloc_bitmap_free(all);
  free(order);
}

static struct omp_ext_cands *make(unsigned team, int free_, int energy)
{
  const omp_ext_topo_t *topo;
  struct omp_ext_cands *s;
  omp_ext_model_t model;
  omp_ext_pu_t *order;
  unsigned npus, ncores, sizes[4], i;
  char label[OMP_EXT_PLAN_LABEL];
  if (omp_ext_bind_topology(&topo) != 0 || !(s = calloc(1, sizeof(*s))))
    return NULL;
  npus = omp_ext_topo_npus(topo), ncores = omp_ext_topo_ncores(topo);
  s->team = team, s->free = free_, s->energy = energy;
  omp_ext_model_default(&model);
  omp_ext_model_from_env(environ, &model, NULL);
  if (!user_read)
    read_user_places(topo);
  if (!(order = malloc(npus * sizeof(*order))) ||
      omp_ext_order(topo, NULL, energy ? omp_ht_policy_spn : omp_ht_policy_speedup, npus,
                    order) != 0) {
    free(order);
    free(s);
    return NULL;
  }
  add_base(s, topo, order, &model);
  if (!s->n) {
    free(order);
    free(s);
    return NULL;
  }
  if (team <= npus)
    add_size(s, topo, team, &model);
  sizes[0] = 1, sizes[1] = ncores / 2 ? ncores / 2 : 1, sizes[2] = ncores, sizes[3] = npus;
  for (i = 0; free_ && i < 4; i++)
    if (sizes[i] < team && (i == 0 || sizes[i] != sizes[i - 1]))
      add_size(s, topo, sizes[i], &model);
  if (npus > 1) { /* the team unbound: measured, never the default */
    omp_ext_usage_t u;
    snprintf(label, sizeof(label), "none:%u", team);
    add(s, omp_ext_rcfg_new(team, NULL, 0, label),
        omp_ext_usage_of(order, team < npus ? team : npus, &u) == 0
          ? omp_ext_model_power(&model.power, &u) : 1);
  }
  free(order);
  return s;
}

const struct omp_ext_cands *omp_ext_cands_get(unsigned team, int free_, int energy)
{
  unsigned i, n = __atomic_load_n(&nsets, __ATOMIC_ACQUIRE);
  struct omp_ext_cands *s;
  static int said;
  if (team == 0)
    return NULL;
  for (i = 0; i < n; i++) {
    s = sets[i];
    if (s->team == team && s->free == free_ && s->energy == energy)
      return s;
  }
  pthread_mutex_lock(&cands_lock);
  for (i = 0, n = __atomic_load_n(&nsets, __ATOMIC_RELAXED); i < n; i++)
    if (sets[i]->team == team && sets[i]->free == free_ && sets[i]->energy == energy)
      break;
  s = i < n ? sets[i] : n < CANDS_MAX_SETS ? make(team, free_, energy) : NULL;
  if (i == n && s) {
    sets[n] = s;
    __atomic_store_n(&nsets, n + 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&cands_lock);
  if (!s && n == CANDS_MAX_SETS && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "omp_ext: per-region control: more than %d team sizes in one process: "
            "regions of team %u are left to the runtime\n", CANDS_MAX_SETS, team);
  return s;
}

int omp_ext_cands_find(const struct omp_ext_cands *s, const char *label)
{
  unsigned i;
  for (i = 0; i < s->n; i++)
    if (strcmp(s->c[i]->label, label) == 0)
      return (int)i;
  return -1;
}
