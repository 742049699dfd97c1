/*
 * Order: the base orders, the sequence of PUs that threads 0, 1, 2, ...
 * receive (paper §3, strategies 1 and 2, plus spread and os), each from a
 * rule in the table below.  Meta-policies (energy) are resolved to a base
 * policy in policy.c.
 *
 * A rule either sorts all PUs by OS index (os), or orders the cores (by CPU
 * kind, then its own keys, then hwloc's logical order) and walks them:
 *   by core  -> all PUs of a core, core after core (spn);
 *   by rank  -> sibling rank 0 of every core, then rank 1, ... (speedup,
 *               spread).
 * Cores of the most performant CPU kind always come first.
 */
#include <stdlib.h>
#include <string.h>

#include "private/internal.h"

/* Sort keys of a core; compared lexicographically. */
struct core_key {
  unsigned idx;     /* index into topo->cores */
  unsigned kind;    /* CPU-kind rank */
  unsigned major;   /* policy-specific */
  unsigned minor;   /* policy-specific */
};

static int cmp_key(const void *a, const void *b)
{
  const struct core_key *x = a, *y = b;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->major != y->major)
    return x->major < y->major ? -1 : 1;
  if (x->minor != y->minor)
    return x->minor < y->minor ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* An item of rank_in_group()'s sort: its group, its key, its index. */
struct grouped {
  long group;
  unsigned long key;
  unsigned idx;
};

static int cmp_grouped(const void *a, const void *b)
{
  const struct grouped *x = a, *y = b;
  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* For items 0..n-1 of groups group[i] and keys key[i] (NULL: the index):
 * rank[i], how many items of its group have a smaller key, and first[i],
 * the item of its group with the least key.  One sort: O(n log n) (each
 * item counted its group's items before: quadratic, 2 s of `htplaces
 * spread` at 8192 cores). */
static int rank_in_group(const long *group, const unsigned long *key, unsigned n,
                         unsigned *rank, unsigned *first)
{
  struct grouped *g = malloc((n ? n : 1) * sizeof(*g));
  unsigned i, run = 0;
  if (!g)
    return omp_ext_err_nomem;
  for (i = 0; i < n; i++) {
    g[i].group = group[i];
    g[i].key = key ? key[i] : i;
    g[i].idx = i;
  }
  qsort(g, n, sizeof(*g), cmp_grouped);
  for (i = 0; i < n; i++) {
    if (i == 0 || g[i].group != g[i - 1].group)
      run = i;
    rank[g[i].idx] = i - run;
    first[g[i].idx] = g[run].idx;
  }
  free(g);
  return omp_ext_success;
}

/* Round-robin over groups, skipping exhausted ones, visits item i in round
 * round[i] (its index within its group) and, inside a round, by the rank of
 * its group in order of first appearance (grank[i]). */
static int round_robin(const long *group, unsigned n, unsigned *round, unsigned *grank)
{
  unsigned i, ngroups = 0;
  unsigned *first = malloc((n ? n : 1) * sizeof(*first));
  if (!first || rank_in_group(group, NULL, n, round, first) != omp_ext_success) {
    free(first);
    return omp_ext_err_nomem;
  }
  for (i = 0; i < n; i++) /* a group's first item comes before its others */
    grank[i] = first[i] == i ? ngroups++ : grank[first[i]];
  free(first);
  return omp_ext_success;
}

static long group_id(const struct omp_ext_core *c, int with_numa)
{
  return ((long)c->kind << 40) | ((long)c->package << 20) | (with_numa ? c->numa + 1 : 0);
}

/* spread: the cores of each package interleaved across its NUMA nodes, and
 * those per-package sequences interleaved across packages. */
static int spread_keys(const omp_ext_topo_t *t, struct core_key *keys)
{
  unsigned n = t->ncores, i;
  long *group = calloc(n, sizeof(*group));
  unsigned *round = calloc(n, sizeof(*round)), *grank = calloc(n, sizeof(*grank));
  unsigned *pos = calloc(n, sizeof(*pos));
  unsigned long *inner = calloc(n, sizeof(*inner));
  int err = omp_ext_err_nomem;
  if (group && round && grank && pos && inner) {
    for (i = 0; i < n; i++)
      group[i] = group_id(&t->cores[i], 1);
    err = round_robin(group, n, round, grank);
    for (i = 0; i < n; i++)
      inner[i] = ((unsigned long)round[i] << 32) | grank[i];
    for (i = 0; i < n; i++)
      group[i] = group_id(&t->cores[i], 0);
    /* major: the position in its package's sequence (by inner) */
    if (!err)
      err = rank_in_group(group, inner, n, pos, round);
    for (i = 0; !err && i < n; i++)
      keys[i].major = pos[i];
    if (!err)
      err = round_robin(group, n, round, grank);
    for (i = 0; !err && i < n; i++)
      keys[i].minor = grank[i]; /* package rank */
  }
  free(group);
  free(round);
  free(grank);
  free(pos);
  free(inner);
  return err;
}

/* The rules: how each base policy orders and walks the cores. */
enum walk { walk_os, walk_by_core, walk_by_rank };
static const struct rule {
  omp_ht_policy_t policy;
  enum walk walk;
  int (*keys)(const omp_ext_topo_t *t, struct core_key *keys); /* NULL: kind, logical */
} rules[] = {
  {omp_ht_policy_os, walk_os, NULL},
  {omp_ht_policy_speedup, walk_by_rank, NULL},
  {omp_ht_policy_spn, walk_by_core, NULL},
  {omp_ht_policy_spread, walk_by_rank, spread_keys},
};

static const struct rule *find_rule(omp_ht_policy_t policy)
{
  unsigned i;
  for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
    if (rules[i].policy == policy)
      return &rules[i];
  return NULL;
}

/* The cores in the order the rule visits them. */
static int core_order(const omp_ext_topo_t *t, const struct rule *rule, unsigned *order)
{
  unsigned i;
  struct core_key *keys = calloc(t->ncores, sizeof(*keys));
  if (!keys)
    return omp_ext_err_nomem;
  for (i = 0; i < t->ncores; i++) {
    keys[i].idx = i;
    keys[i].kind = t->cores[i].kind;
  }
  if (rule->keys && rule->keys(t, keys) != omp_ext_success) {
    free(keys);
    return omp_ext_err_nomem;
  }
  qsort(keys, t->ncores, sizeof(*keys), cmp_key);
  for (i = 0; i < t->ncores; i++)
    order[i] = keys[i].idx;
  free(keys);
  return omp_ext_success;
}

static int cmp_os(const void *a, const void *b)
{
  const omp_ext_pu_t *x = a, *y = b;
  return x->os_index < y->os_index ? -1 : x->os_index > y->os_index;
}

/* spread's round r: the cores that have a PU of rank r, interleaved across
 * packages again (a core's turn: its position among its package's cores of
 * the round, then its package's rank), so that a missing sibling on one
 * package does not leave two turns in a row to another.  The cores come in
 * the spread order; a package keeps its NUMA interleave. */
static int spread_round(const omp_ext_topo_t *t, const unsigned *cores, unsigned r,
                        unsigned *round)
{
  unsigned n = t->ncores, i, m = 0;
  struct core_key *keys = calloc(n ? n : 1, sizeof(*keys));
  long *group = malloc((n ? n : 1) * sizeof(*group)), *kept = malloc((n ? n : 1) * sizeof(*kept));
  unsigned *pkg = malloc((n ? n : 1) * sizeof(*pkg)), *first = malloc((n ? n : 1) * sizeof(*first));
  unsigned *pos = malloc((n ? n : 1) * sizeof(*pos));
  int err = keys && group && kept && pkg && first && pos ? omp_ext_success : omp_ext_err_nomem;
  for (i = 0; !err && i < n; i++)
    group[i] = group_id(&t->cores[cores[i]], 0);
  /* the package's rank: its first core in the order (pkg[i]) */
  if (!err)
    err = rank_in_group(group, NULL, n, pos, pkg);
  for (i = 0; !err && i < n; i++) {
    const struct omp_ext_core *c = &t->cores[cores[i]];
    if (r >= c->npus)
      continue;
    keys[m].idx = cores[i];
    keys[m].kind = c->kind;
    keys[m].minor = pkg[i];
    kept[m++] = group[i];
  }
  /* a core's turn: its position among its package's cores of the round */
  if (!err)
    err = rank_in_group(kept, NULL, m, pos, first);
  for (i = 0; !err && i < m; i++)
    keys[i].major = pos[i];
  if (!err) {
    qsort(keys, m, sizeof(*keys), cmp_key);
    for (i = 0; i < m; i++)
      round[i] = keys[i].idx;
    for (; i < n; i++)
      round[i] = (unsigned)-1;
  }
  free(keys), free(group), free(kept), free(pkg), free(first), free(pos);
  return err;
}

static int walk_cores(const omp_ext_topo_t *t, enum walk walk, int reinterleave,
                      const unsigned *cores, omp_ext_pu_t *all)
{
  unsigned n = 0, i, r, *round;
  if (reinterleave) {
    if (!(round = malloc(t->ncores * sizeof(*round))))
      return omp_ext_err_nomem;
    for (r = 0; r < t->max_smt; r++) {
      if (spread_round(t, cores, r, round) != omp_ext_success) {
        free(round);
        return omp_ext_err_nomem;
      }
      for (i = 0; i < t->ncores && round[i] != (unsigned)-1; i++)
        all[n++] = t->pus[t->cores[round[i]].first + r];
    }
    free(round);
    return omp_ext_success;
  }
  if (walk == walk_by_core) {
    for (i = 0; i < t->ncores; i++)
      for (r = 0; r < t->cores[cores[i]].npus; r++)
        all[n++] = t->pus[t->cores[cores[i]].first + r];
    return omp_ext_success;
  }
  for (r = 0; r < t->max_smt; r++)
    for (i = 0; i < t->ncores; i++)
      if (r < t->cores[cores[i]].npus)
        all[n++] = t->pus[t->cores[cores[i]].first + r];
  return omp_ext_success;
}

int omp_ext_base_order(const omp_ext_topo_t *topo, omp_ht_policy_t base, unsigned n,
                       omp_ext_pu_t *out)
{
  const struct rule *rule = find_rule(base);
  omp_ext_pu_t *all;
  unsigned *cores;
  int err = omp_ext_success;
  if (!rule)
    return omp_ext_err_policy;
  if (n == 0 || n > topo->npus)
    return omp_ext_err_range;
  all = malloc(topo->npus * sizeof(*all));
  cores = malloc(topo->ncores * sizeof(*cores));
  if (!all || !cores) {
    err = omp_ext_err_nomem;
  } else if (rule->walk == walk_os) {
    memcpy(all, topo->pus, topo->npus * sizeof(*all));
    qsort(all, topo->npus, sizeof(*all), cmp_os);
  } else {
    err = core_order(topo, rule, cores);
    if (!err)
      err = walk_cores(topo, rule->walk, rule->keys == spread_keys, cores, all);
  }
  if (!err)
    memcpy(out, all, n * sizeof(*out));
  free(all);
  free(cores);
  return err;
}
