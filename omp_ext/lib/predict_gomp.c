/*
 * Predict, libgomp: what libgomp 12 builds from OMP_PLACES and
 * GOMP_CPU_AFFINITY (it does not read KMP_AFFINITY) on a machine; its
 * predictor in predict.c's table (predict_int.h).
 *
 * Its reading follows omp_ext_places_parse() (written after libgomp's
 * env.c) plus its CPU-set size and its finalisation (config/linux/
 * affinity.c).  The rules are listed in omp_ext/lib/private/tools_predict.h.
 */
#define _GNU_SOURCE /* qsort_r */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "private/predict_int.h"

/* libgomp's CPU-set size in bits: the kernel's cpumask size, whole words of
 * the possible CPUs (hwloc's complete cpuset stands for them). */
static unsigned long gomp_cpuset_bits(const omp_ext_topo_t *t)
{
  int last = hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(t->hw));
  unsigned long n = last < 0 ? 1 : (unsigned long)last + 1;
  return (n + 63) / 64 * 64;
}

static int by_first_cpu(const void *a, const void *b)
{
  int x = hwloc_bitmap_first(*(hwloc_const_bitmap_t const *)a);
  int y = hwloc_bitmap_first(*(hwloc_const_bitmap_t const *)b);
  return (x > y) - (x < y);
}

/* The lowest allowed OS index of the core of PU os (os itself if unknown). */
static unsigned core_first_os(const omp_ext_topo_t *t, unsigned os)
{
  const omp_ext_pu_t *pu = omp_ext_topo_pu_by_os(t, os), *q;
  unsigned i, first = os;
  if (!pu)
    return os;
  for (i = 0; i < omp_ext_topo_npus(t); i++)
    if ((q = omp_ext_topo_pu(t, i))->core == pu->core && q->os_index < first)
      first = q->os_index;
  return first;
}

/* libgomp's threads: a core's PUs together (it reads each CPU's
 * thread_siblings_list), cores by their lowest OS index, PUs ascending. */
static int by_core_then_cpu(const void *a, const void *b, void *topo)
{
  int x = hwloc_bitmap_first(*(hwloc_const_bitmap_t const *)a);
  int y = hwloc_bitmap_first(*(hwloc_const_bitmap_t const *)b);
  unsigned cx = core_first_os(topo, (unsigned)x), cy = core_first_os(topo, (unsigned)y);
  if (cx != cy)
    return (cx > cy) - (cx < cy);
  return (x > y) - (x < y);
}

/* libgomp 12's ll_caches (gomp_affinity_init_level_1, level 4): it looks
 * for the last cache level of the allowed CPUs in ascending order, dropping
 * each CPU whose sysfs lists no cache (cpuN/cache/index0/level unreadable),
 * then re-reads that first CPU's shared_cpu_list for every CPU: one place,
 * the last-level cache of CPU first, without the CPUs dropped before it
 * (*bug set when the machine has more than one).  On this machine first is
 * the lowest allowed CPU whose sysfs lists caches (-1: none, libgomp builds
 * no place); for a fixture, the lowest allowed CPU. */
/* Does a fixture's kernel list its caches the way libgomp reads them
 * (cpuN/cache/indexM/level and shared_cpu_list)?  Not when an exported
 * topology has no cache at all, nor on IA-64, whose kernels export
 * shared_cpu_map only (arch/ia64/kernel/topology.c).  A synthetic machine
 * names no caches: it stands for one that lists them. */
static int fixture_lists_caches(const omp_ext_topo_t *t)
{
  hwloc_obj_t root = hwloc_get_root_obj(t->hw);
  const char *arch = hwloc_obj_get_info_by_name(root, "Architecture");
  hwloc_obj_type_t type;
  if (arch && strcmp(arch, "ia64") == 0)
    return 0;
  if (hwloc_obj_get_info_by_name(root, "SyntheticDescription"))
    return 1;
  for (type = HWLOC_OBJ_L1CACHE; type <= HWLOC_OBJ_L5CACHE; type++)
    if (hwloc_get_nbobjs_by_type(t->hw, type) > 0)
      return 1;
  return 0;
}

static void gomp_ll_cache(const omp_ext_topo_t *t, omp_ext_placelist_t *l, int *bug)
{
  int first = t->thissystem            ? omp_ext_sysfs_cache_cpu(t->allowed)
              : fixture_lists_caches(t) ? hwloc_bitmap_first(t->allowed)
                                        : -1;
  unsigned i, keep = l->nplaces;
  for (i = 0; first >= 0 && i < l->nplaces && keep == l->nplaces; i++)
    if (hwloc_bitmap_isset(l->places[i], (unsigned)first))
      keep = i;
  *bug = l->nplaces > 1 && keep < l->nplaces;
  for (i = 0; i < l->nplaces; i++)
    if (i != keep)
      hwloc_bitmap_free(l->places[i]);
  l->nplaces = keep < l->nplaces;
  if (l->nplaces) {
    l->places[0] = l->places[keep];
    l->pos[0] = l->pos[keep];
    if (first > 0)
      hwloc_bitmap_clr_range(l->places[0], 0, first - 1);
  }
}

/* libgomp's numa_domains (config/linux/affinity.c,
 * gomp_affinity_init_numa_domains): the nodes of
 * /sys/devices/system/node/online in ascending node number, each place the
 * node's cpulist within the allowed CPUs not placed yet; a node without
 * any adds nothing.  So the order is by node number, not by lowest CPU, and
 * a node partly outside a cpuset is still its own place. */
static int gomp_numa_domains(const omp_ext_topo_t *t, omp_ext_placelist_t *l)
{
  hwloc_topology_t hw = t->hw;
  hwloc_bitmap_t left = omp_ext_pred_allowed(t);
  int n = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_NUMANODE), err = omp_ext_success;
  unsigned last = 0;
  int i, first = 1;
  if (!left)
    return omp_ext_err_nomem;
  for (;;) { /* the nodes by ascending OS index (hwloc's order may differ) */
    hwloc_obj_t node = NULL, o;
    hwloc_bitmap_t set;
    for (i = 0; i < n; i++) {
      o = hwloc_get_obj_by_type(hw, HWLOC_OBJ_NUMANODE, (unsigned)i);
      if ((first || o->os_index > last) && (!node || o->os_index < node->os_index))
        node = o;
    }
    if (!node)
      break;
    first = 0;
    last = node->os_index;
    if (!(set = hwloc_bitmap_alloc())) {
      err = omp_ext_err_nomem;
      break;
    }
    hwloc_bitmap_and(set, node->cpuset, left);
    hwloc_bitmap_andnot(left, left, set);
    if (hwloc_bitmap_iszero(set)) {
      hwloc_bitmap_free(set);
      continue;
    }
    if ((err = omp_ext_pred_push(l, set)) != 0)
      break;
  }
  hwloc_bitmap_free(left);
  return err;
}

/* libgomp's order of an abstract name (config/linux/affinity.c,
 * gomp_affinity_init_level): it scans the CPUs by ascending OS index and
 * opens a place at the first CPU of each thread/core/socket/cache/node not
 * yet placed, so places are ordered by their lowest OS index, whatever the
 * packages; ll_caches: gomp_ll_cache(). */
int omp_ext_places_gomp_order(const omp_ext_topo_t *t, omp_ext_abstract_t abstract,
                              unsigned long count, omp_ext_placelist_t **out, int *bug)
{
  const char *name = omp_ext_abstract_name(abstract);
  int err;
  if (!t || !out || !bug || !name)
    return omp_ext_err_invalid;
  *bug = 0;
  if (abstract == omp_ext_abstract_numa_domains) {
    if (!(*out = omp_ext_pred_list(omp_ext_syntax_omp)))
      return omp_ext_err_nomem;
    (*out)->abstract = abstract;
    if ((err = gomp_numa_domains(t, *out)) != 0) {
      omp_ext_placelist_destroy(*out);
      *out = NULL;
      return err;
    }
  } else if ((err = omp_ext_pred_abstract(t, name, 0, out)) != 0) {
    return err;
  }
  if ((*out)->nplaces > 1 && abstract == omp_ext_abstract_numa_domains)
    ; /* by node number */
  else if ((*out)->nplaces > 1 && abstract == omp_ext_abstract_threads)
    qsort_r((*out)->places, (*out)->nplaces, sizeof(*(*out)->places), by_core_then_cpu,
            (void *)(uintptr_t)t);
  else if ((*out)->nplaces > 1)
    qsort((*out)->places, (*out)->nplaces, sizeof(*(*out)->places), by_first_cpu);
  if (abstract == omp_ext_abstract_ll_caches)
    gomp_ll_cache(t, *out, bug);
  while (count && (*out)->nplaces > count)
    hwloc_bitmap_free((*out)->places[--(*out)->nplaces]);
  return omp_ext_success;
}

/* The one informational "why": the places are the runtime's own order of
 * an abstract name, nothing dropped or changed. */
static const char gomp_order_why[] = "libgomp: places ordered by their lowest OS index";
static const char gomp_numa_why[] = "libgomp: NUMA nodes in ascending node number";


/* \p l (owned) becomes the prediction's list, outcome places with note
 * \p why (NULL: none); an empty \p l is an ignored value (\p empty_why)
 * instead.  Returns omp_ext_success. */
static int adopt(omp_ext_prediction_t *pr, omp_ext_placelist_t *l, const char *empty_why,
                 const char *why)
{
  if (l->nplaces == 0) {
    omp_ext_placelist_destroy(l);
    omp_ext_pred_set(pr, omp_ext_outcome_ignored, empty_why);
    return omp_ext_success;
  }
  omp_ext_placelist_destroy(pr->list);
  pr->list = l;
  omp_ext_pred_set(pr, omp_ext_outcome_places, why);
  return omp_ext_success;
}

/* An abstract name's value, \p s just after name \p k: an optional
 * "(count)", then libgomp's own order of the name's places. */
static int gomp_named(const omp_ext_topo_t *t, const char *s, unsigned k, omp_ext_prediction_t *pr)
{
  static const omp_ext_abstract_t kinds[] = {
      omp_ext_abstract_threads, omp_ext_abstract_cores, omp_ext_abstract_sockets,
      omp_ext_abstract_ll_caches, omp_ext_abstract_numa_domains};
  unsigned long count = 0;
  char *end;
  int bug, err;
  while (isspace((unsigned char)*s))
    s++;
  if (*s) {
    if (*s++ != '(')
      goto ignored;
    errno = 0;
    count = strtoul(s, &end, 10);
    if (errno || end == s)
      goto ignored;
    s = end;
    while (isspace((unsigned char)*s))
      s++;
    if (*s++ != ')')
      goto ignored;
    while (isspace((unsigned char)*s))
      s++;
    if (*s)
      goto ignored;
    if (count == 0) {
      omp_ext_pred_set(pr, omp_ext_outcome_ignored, "libgomp: a count of 0 is an error");
      return omp_ext_success;
    }
  }
  omp_ext_placelist_destroy(pr->list);
  pr->list = NULL;
  if ((err = omp_ext_places_gomp_order(t, kinds[k], count, &pr->list, &bug)) != 0)
    return err;
  if (pr->list->nplaces == 0)
    omp_ext_pred_set(pr, omp_ext_outcome_ignored,
                     "libgomp: no allowed CPU lists its caches in sysfs "
                     "(/sys/devices/system/cpu/cpuN/cache): ll_caches builds no place, "
                     "ignored");
  else
    omp_ext_pred_set(pr, omp_ext_outcome_places,
                     bug ? "libgomp 12 bug: ll_caches re-reads CPU 0's cache for every CPU: "
                           "only the first last-level cache is a place"
                         : kinds[k] == omp_ext_abstract_numa_domains ? gomp_numa_why
                                                                     : gomp_order_why);
  return omp_ext_success;
ignored:
  omp_ext_pred_set(pr, omp_ext_outcome_ignored, "libgomp: invalid value, ignored");
  return omp_ext_success;
}

static int gomp_omp_places(const omp_ext_topo_t *t, const char *text, omp_ext_prediction_t *pr)
{
  const char *s = text;
  unsigned k;
  char *copy, *w;
  const char *r;
  omp_ext_placelist_t *l = NULL;
  int err, dc = 0, dp = 0;
  unsigned long bits = gomp_cpuset_bits(t);
  omp_ext_parse_error_t perr = {0, NULL};
  while (isspace((unsigned char)*s))
    s++;
  for (k = 0; k < OMP_EXT_PRED_NNAMES; k++)
    if (strncasecmp(s, omp_ext_pred_names[k], strlen(omp_ext_pred_names[k])) == 0)
      return gomp_named(t, s + strlen(omp_ext_pred_names[k]), k, pr);
  /* Explicit: strtoul() takes "+N" as N; a '+' after a sign is an error. */
  if (!(copy = malloc(strlen(text) + 1)))
    return omp_ext_err_nomem;
  for (r = text, w = copy; *r; r++)
    if (!(*r == '+' && isdigit((unsigned char)r[1]) &&
          (r == text || (r[-1] != '+' && r[-1] != '-' && r[-1] != ':'))))
      *w++ = *r;
  *w = '\0';
  err = omp_ext_places_parse_capped(t, copy, omp_ext_syntax_omp, bits - 1, &l, &perr);
  free(copy);
  if (err == omp_ext_err_nomem)
    return err;
  if (err == omp_ext_err_parse && perr.what && strstr(perr.what, "omp_ext's limit"))
    return omp_ext_err_parse; /* too big to predict, not an error libgomp sees */
  if (err == omp_ext_err_parse && perr.what && strcmp(perr.what, OMP_EXT_PARSE_CAPPED) == 0) {
    omp_ext_pred_set(pr, omp_ext_outcome_ignored,
                     "libgomp: a CPU number beyond its CPU set (\"Logical CPU number out of "
                     "range\"): invalid value");
    return omp_ext_success;
  }
  if (err)
    goto ignored;
  for (k = 0; k < l->nnotes; k++)
    if (l->notes[k].kind == omp_ext_note_exclude_missing ||
        l->notes[k].kind == omp_ext_note_exclude_place_missing) {
      omp_ext_placelist_destroy(l);
      omp_ext_pred_set(pr, omp_ext_outcome_ignored,
                       "libgomp: a '!' removes something that is not there: invalid value");
      return omp_ext_success;
    }
  for (k = 0; k < l->nplaces; k++)
    if (hwloc_bitmap_last(l->places[k]) >= (int)bits) {
      omp_ext_placelist_destroy(l);
      omp_ext_pred_set(pr, omp_ext_outcome_ignored,
                       "libgomp: a CPU number beyond its CPU set (\"Logical CPU number out of "
                       "range\"): invalid value");
      return omp_ext_success;
    }
  {
    hwloc_bitmap_t allowed = omp_ext_pred_allowed(t);
    if (!allowed) {
      omp_ext_placelist_destroy(l);
      return omp_ext_err_nomem;
    }
    omp_ext_pred_keep_allowed(l, allowed, NULL, &dc, &dp);
    hwloc_bitmap_free(allowed);
  }
  return adopt(pr, l, "libgomp: no place contains a usable CPU: invalid value",
               dp ? "libgomp: places without a usable CPU dropped (\"Number of places "
                    "reduced\")"
               : dc ? "libgomp: CPUs outside the allowed set dropped from places" : NULL);
ignored:
  omp_ext_placelist_destroy(l);
  omp_ext_pred_set(pr, omp_ext_outcome_ignored, "libgomp: invalid value, ignored");
  return omp_ext_success;
}

static int gomp_affinity(const omp_ext_topo_t *t, const char *text, omp_ext_prediction_t *pr)
{
  omp_ext_placelist_t *l = NULL;
  unsigned long bits = gomp_cpuset_bits(t);
  unsigned i, n = 0;
  omp_ext_parse_error_t perr = {0, NULL};
  int err = omp_ext_places_parse(NULL, text, omp_ext_syntax_gomp, &l, &perr), skipped = 0;
  if (err == omp_ext_err_nomem)
    return err;
  if (err == omp_ext_err_parse && perr.what && strstr(perr.what, "omp_ext's limit"))
    return omp_ext_err_parse; /* too big to predict */
  if (err) {
    omp_ext_pred_set(pr, omp_ext_outcome_ignored, "libgomp: invalid GOMP_CPU_AFFINITY, ignored");
    return omp_ext_success;
  }
  for (i = 0; i < l->nplaces; i++) {
    if (hwloc_bitmap_first(l->places[i]) >= (int)bits) {
      hwloc_bitmap_free(l->places[i]);
      skipped = 1;
      continue;
    }
    l->places[n++] = l->places[i];
  }
  l->nplaces = n;
  return adopt(pr, l, "libgomp: no CPU number within its CPU set: GOMP_CPU_AFFINITY ignored",
               skipped ? "libgomp: CPU numbers beyond its CPU set skipped without a message"
                       : NULL);
}

static int gomp_predict(const omp_ext_topo_t *t, const char *text, omp_ext_syntax_t syntax,
                        omp_ext_prediction_t *pr)
{
  if (syntax == omp_ext_syntax_omp)
    return gomp_omp_places(t, text, pr);
  if (syntax == omp_ext_syntax_gomp)
    return gomp_affinity(t, text, pr);
  omp_ext_pred_set(pr, omp_ext_outcome_ignored, "libgomp does not read KMP_AFFINITY");
  return omp_ext_success;
}

static const char *const gomp_notes[] = {gomp_order_why, gomp_numa_why, NULL};

const struct omp_ext_predictor omp_ext_predictor_gomp = {
  "libgomp",
  (1u << omp_ext_syntax_omp) | (1u << omp_ext_syntax_gomp),
  gomp_predict,
  gomp_notes,
};
