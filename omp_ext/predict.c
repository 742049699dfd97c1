/*
 * Predict: what libgomp 12 and libomp 14 build from OMP_PLACES,
 * GOMP_CPU_AFFINITY and KMP_AFFINITY proclists on a machine (issue 13).
 *
 * libgomp's reading follows omp_ext_places_parse() (written after libgomp's
 * env.c) plus its CPU-set size and its finalisation (config/linux/
 * affinity.c); libomp's reading has its own small parsers below, after
 * kmp_settings.cpp / kmp_affinity.cpp and the real libomp 14's behaviour on
 * tests/places-corpus.txt.  The rules are listed in omp_ext/predict.h.
 */
#define _GNU_SOURCE /* qsort_r */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

const char *omp_ext_runtime_name(omp_ext_runtime_t runtime)
{
  switch (runtime) {
  case omp_ext_runtime_libgomp: return "libgomp";
  case omp_ext_runtime_libomp: return "libomp";
  default: return NULL;
  }
}

/* Largest CPU number libomp's parsers below keep (others are dropped). */
#define KMP_ID_MAX 65535L

static omp_ext_placelist_t *new_list(omp_ext_syntax_t syntax)
{
  omp_ext_placelist_t *l = calloc(1, sizeof(*l));
  if (l)
    l->syntax = syntax;
  return l;
}

/* Append set (ownership passes) to l. */
static int push(omp_ext_placelist_t *l, hwloc_bitmap_t set)
{
  hwloc_bitmap_t *places;
  size_t *pos;
  if (!set)
    return omp_ext_err_nomem;
  if (l->nplaces >= OMP_EXT_PLACES_MAX_PLACES) {
    hwloc_bitmap_free(set);
    return omp_ext_err_parse; /* beyond omp_ext's limits */
  }
  if ((l->nplaces & (l->nplaces - 1)) == 0) { /* 0, 1, 2, 4...: grow twofold */
    size_t cap = l->nplaces ? 2 * (size_t)l->nplaces : 1;
    places = realloc(l->places, cap * sizeof(*places));
    if (places)
      l->places = places;
    pos = places ? realloc(l->pos, cap * sizeof(*pos)) : NULL;
    if (pos)
      l->pos = pos;
    if (!places || !pos) {
      hwloc_bitmap_free(set);
      return omp_ext_err_nomem;
    }
  }
  l->places[l->nplaces] = set;
  l->pos[l->nplaces++] = 0;
  return omp_ext_success;
}

static hwloc_bitmap_t allowed_set(const omp_ext_topo_t *t)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  unsigned i;
  for (i = 0; set && i < t->npus; i++)
    hwloc_bitmap_set(set, t->pus[i].os_index);
  return set;
}

/* libgomp's CPU-set size in bits: the kernel's cpumask size, whole words of
 * the possible CPUs (hwloc's complete cpuset stands for them). */
static unsigned long gomp_cpuset_bits(const omp_ext_topo_t *t)
{
  int last = hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(t->hw));
  unsigned long n = last < 0 ? 1 : (unsigned long)last + 1;
  return (n + 63) / 64 * 64;
}

/* An abstract name's places (over the allowed PUs), the first count of them. */
static int abstract_places(const omp_ext_topo_t *t, const char *name, unsigned long count,
                           omp_ext_placelist_t **out)
{
  int err = omp_ext_places_parse(t, name, omp_ext_syntax_omp, out, NULL);
  if (err)
    return err;
  while (count && (*out)->nplaces > count)
    hwloc_bitmap_free((*out)->places[--(*out)->nplaces]);
  return omp_ext_success;
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
  hwloc_bitmap_t left = allowed_set(t);
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
    if ((err = push(l, set)) != 0)
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
    if (!(*out = new_list(omp_ext_syntax_omp)))
      return omp_ext_err_nomem;
    (*out)->abstract = abstract;
    if ((err = gomp_numa_domains(t, *out)) != 0) {
      omp_ext_placelist_destroy(*out);
      *out = NULL;
      return err;
    }
  } else if ((err = abstract_places(t, name, 0, out)) != 0) {
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

static void set_result(omp_ext_prediction_t *pred, omp_ext_outcome_t outcome, const char *why)
{
  pred->outcome = outcome;
  pred->why = why;
}

/* Keep only allowed CPUs; drop empty places (keep[i] set: keep it anyway). */
static void keep_allowed(omp_ext_placelist_t *l, hwloc_const_bitmap_t allowed, const char *keep,
                         int *dropped_cpu, int *dropped_place)
{
  unsigned i, n = 0;
  for (i = 0; i < l->nplaces; i++) {
    if (!hwloc_bitmap_isincluded(l->places[i], allowed))
      *dropped_cpu = 1;
    hwloc_bitmap_and(l->places[i], l->places[i], allowed);
    if (hwloc_bitmap_iszero(l->places[i]) && !(keep && keep[i])) {
      hwloc_bitmap_free(l->places[i]);
      *dropped_place = 1;
      continue;
    }
    l->places[n] = l->places[i];
    l->pos[n++] = l->pos[i];
  }
  l->nplaces = n;
}

/* ------------------------------------------------------------------ */
/* libgomp                                                              */

/* The one informational "why": the places are the runtime's own order of
 * an abstract name, nothing dropped or changed. */
static const char gomp_order_why[] = "libgomp: places ordered by their lowest OS index";
static const char gomp_numa_why[] = "libgomp: NUMA nodes in ascending node number";

static const char *const gomp_names[] = {"threads", "cores", "sockets", "ll_caches",
                                         "numa_domains"};

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
  for (k = 0; k < sizeof(gomp_names) / sizeof(gomp_names[0]); k++) {
    size_t n = strlen(gomp_names[k]);
    unsigned long count = 0;
    char *end;
    if (strncasecmp(s, gomp_names[k], n) != 0)
      continue;
    s += n;
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
        set_result(pr, omp_ext_outcome_ignored, "libgomp: a count of 0 is an error");
        return omp_ext_success;
      }
    }
    omp_ext_placelist_destroy(pr->list);
    pr->list = NULL;
    {
      static const omp_ext_abstract_t kinds[] = {
          omp_ext_abstract_threads, omp_ext_abstract_cores, omp_ext_abstract_sockets,
          omp_ext_abstract_ll_caches, omp_ext_abstract_numa_domains};
      int bug;
      if ((err = omp_ext_places_gomp_order(t, kinds[k], count, &pr->list, &bug)) != 0)
        return err;
      if (pr->list->nplaces == 0)
        set_result(pr, omp_ext_outcome_ignored,
                   "libgomp: no allowed CPU lists its caches in sysfs "
                   "(/sys/devices/system/cpu/cpuN/cache): ll_caches builds no place, ignored");
      else
        set_result(pr, omp_ext_outcome_places,
                   bug ? "libgomp 12 bug: ll_caches re-reads CPU 0's cache for every CPU: "
                         "only the first last-level cache is a place"
                       : kinds[k] == omp_ext_abstract_numa_domains ? gomp_numa_why
                                                                   : gomp_order_why);
    }
    return omp_ext_success;
  }
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
    set_result(pr, omp_ext_outcome_ignored,
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
      set_result(pr, omp_ext_outcome_ignored,
                 "libgomp: a '!' removes something that is not there: invalid value");
      return omp_ext_success;
    }
  for (k = 0; k < l->nplaces; k++)
    if (hwloc_bitmap_last(l->places[k]) >= (int)bits) {
      omp_ext_placelist_destroy(l);
      set_result(pr, omp_ext_outcome_ignored,
                 "libgomp: a CPU number beyond its CPU set (\"Logical CPU number out of "
                 "range\"): invalid value");
      return omp_ext_success;
    }
  {
    hwloc_bitmap_t allowed = allowed_set(t);
    if (!allowed) {
      omp_ext_placelist_destroy(l);
      return omp_ext_err_nomem;
    }
    keep_allowed(l, allowed, NULL, &dc, &dp);
    hwloc_bitmap_free(allowed);
  }
  if (l->nplaces == 0) {
    omp_ext_placelist_destroy(l);
    set_result(pr, omp_ext_outcome_ignored,
               "libgomp: no place contains a usable CPU: invalid value");
    return omp_ext_success;
  }
  omp_ext_placelist_destroy(pr->list);
  pr->list = l;
  set_result(pr, omp_ext_outcome_places,
             dp ? "libgomp: places without a usable CPU dropped (\"Number of places reduced\")"
             : dc ? "libgomp: CPUs outside the allowed set dropped from places" : NULL);
  return omp_ext_success;
ignored:
  omp_ext_placelist_destroy(l);
  set_result(pr, omp_ext_outcome_ignored, "libgomp: invalid value, ignored");
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
    set_result(pr, omp_ext_outcome_ignored, "libgomp: invalid GOMP_CPU_AFFINITY, ignored");
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
  if (n == 0) {
    omp_ext_placelist_destroy(l);
    set_result(pr, omp_ext_outcome_ignored,
               "libgomp: no CPU number within its CPU set: GOMP_CPU_AFFINITY ignored");
    return omp_ext_success;
  }
  omp_ext_placelist_destroy(pr->list);
  pr->list = l;
  set_result(pr, omp_ext_outcome_places,
             skipped ? "libgomp: CPU numbers beyond its CPU set skipped without a message" : NULL);
  return omp_ext_success;
}

/* ------------------------------------------------------------------ */
/* libomp                                                               */

struct kscan {
  const char *s;
  size_t i;
  unsigned long work; /* CPU numbers set: bounded by OMP_EXT_PLACES_MAX_NUMBERS */
};

/* Charge n numbers; 1 when the value is beyond omp_ext's limits. */
static int kspend(struct kscan *k, unsigned long n)
{
  k->work += n;
  return k->work > OMP_EXT_PLACES_MAX_NUMBERS;
}

static void kws(struct kscan *k)
{
  while (k->s[k->i] == ' ' || k->s[k->i] == '\t')
    k->i++;
}

/* Digits; values above KMP_ID_MAX saturate (their CPUs are dropped). */
static int kdigits(struct kscan *k, long *v)
{
  long x = 0;
  if (!isdigit((unsigned char)k->s[k->i]))
    return 0;
  while (isdigit((unsigned char)k->s[k->i])) {
    x = x * 10 + (k->s[k->i++] - '0');
    if (x > KMP_ID_MAX + 1)
      x = KMP_ID_MAX + 1;
  }
  *v = x;
  return 1;
}

/* Signs folded, then digits: "--1" is 1, "+-1" is -1. */
static int ksigned(struct kscan *k, long *v)
{
  int neg = 0;
  while (k->s[k->i] == '+' || k->s[k->i] == '-') {
    neg ^= k->s[k->i] == '-';
    k->i++;
    kws(k);
  }
  if (!kdigits(k, v))
    return 0;
  if (neg)
    *v = -*v;
  return 1;
}

/* Set v in set if 0 <= v <= KMP_ID_MAX (others are "invalid OS proc IDs"). */
static void kset(hwloc_bitmap_t set, long v)
{
  if (v >= 0 && v <= KMP_ID_MAX)
    hwloc_bitmap_set(set, (unsigned)v);
}

/* v is a valid OS proc ID for libomp's OMP_PLACES: an allowed CPU (its
 * topology holds the allowed CPUs only, its table of masks ends at the
 * largest of them). */
static int kvalid(hwloc_const_bitmap_t allowed, long v)
{
  return v >= 0 && v <= KMP_ID_MAX && hwloc_bitmap_isset(allowed, (unsigned)v);
}

/* OMP_PLACES place "{...}" or a number into set, valid CPUs only (*invalid
 * set when one was ignored); 0 ok, -1 syntax error, -2 crash, -3 beyond
 * omp_ext's limits.  An interval inside braces ends at its first CPU that
 * is not valid (libomp: "don't proliferate warnings"), so it crashes only
 * when it reaches a negative CPU before any invalid one. */
static int kmp_place(struct kscan *k, hwloc_const_bitmap_t allowed, hwloc_bitmap_t set,
                     int *invalid)
{
  long a, len, str, j;
  kws(k);
  if (k->s[k->i] != '{') {
    if (!kdigits(k, &a))
      return -1;
    if (kvalid(allowed, a))
      hwloc_bitmap_set(set, (unsigned)a);
    else
      *invalid = 1;
    return 0;
  }
  k->i++;
  for (;;) {
    kws(k);
    if (!kdigits(k, &a))
      return -1;
    len = 1;
    str = 1;
    kws(k);
    if (k->s[k->i] == ':') {
      k->i++;
      kws(k);
      if (!kdigits(k, &len))
        return -1;
      kws(k);
      if (k->s[k->i] == ':') {
        k->i++;
        kws(k);
        if (!ksigned(k, &str))
          return -1;
        kws(k);
      }
    }
    if (kspend(k, (unsigned long)len))
      return -3;
    for (j = 0; j < len && j <= KMP_ID_MAX + 1; j++) {
      if (a + j * str < 0)
        return -2;
      if (!kvalid(allowed, a + j * str)) {
        *invalid = 1;
        break;
      }
      hwloc_bitmap_set(set, (unsigned)(a + j * str));
      if (str == 0)
        break;
    }
    if (k->s[k->i] == '}') {
      k->i++;
      return 0;
    }
    if (k->s[k->i] != ',')
      return -1;
    k->i++;
  }
}

/* libomp's next place of "P:n:s" (__kmp_affinity_process_placelist): each
 * CPU of cur moved by str, when both it and its move are valid; the others
 * are dropped for good.  *cut set when a CPU was dropped. */
static hwloc_bitmap_t kmp_next_place(hwloc_const_bitmap_t cur, long str,
                                     hwloc_const_bitmap_t allowed, int *cut)
{
  hwloc_bitmap_t next = hwloc_bitmap_alloc();
  unsigned cpu;
  if (!next)
    return NULL;
  hwloc_bitmap_foreach_begin(cpu, cur) {
    if (kvalid(allowed, (long)cpu) && kvalid(allowed, (long)cpu + str))
      hwloc_bitmap_set(next, (unsigned)((long)cpu + str));
    else
      *cut = 1;
  }
  hwloc_bitmap_foreach_end();
  return next;
}

/* OMP_PLACES explicit places as libomp 14 builds them.  A place keeps its
 * valid CPUs; one without any is not added, even complemented ("!" of a
 * place with no valid CPU adds nothing; of one with, the allowed CPUs not
 * in it, possibly none).  "P:n:s" adds P, then each next place from the
 * previous one (kmp_next_place()); an empty one ends the interval. */
static int kmp_omp_explicit(const omp_ext_topo_t *t, const char *text, omp_ext_prediction_t *pr)
{
  struct kscan k = {text, 0, 0};
  omp_ext_placelist_t *l = new_list(omp_ext_syntax_omp);
  hwloc_bitmap_t allowed = allowed_set(t);
  int err = (l && allowed) ? omp_ext_success : omp_ext_err_nomem, dc = 0, dp = 0, cut = 0;
  int syntax = 0, crash = 0;
  while (!err) {
    hwloc_bitmap_t set, cur;
    int neg, rc;
    long len = 1, str = 1, j;
    kws(&k);
    neg = text[k.i] == '!';
    if (neg) {
      k.i++;
      kws(&k);
    }
    if (!(set = hwloc_bitmap_alloc())) {
      err = omp_ext_err_nomem;
      break;
    }
    rc = kmp_place(&k, allowed, set, &dc);
    if (rc < 0) {
      hwloc_bitmap_free(set);
      syntax = rc == -1;
      crash = rc == -2;
      if (rc == -3)
        err = omp_ext_err_parse;
      break;
    }
    kws(&k);
    if (text[k.i] == ':') {
      k.i++;
      kws(&k);
      if (!kdigits(&k, &len)) {
        hwloc_bitmap_free(set);
        syntax = 1;
        break;
      }
      kws(&k);
      if (text[k.i] == ':') {
        k.i++;
        kws(&k);
        if (!ksigned(&k, &str)) {
          hwloc_bitmap_free(set);
          syntax = 1;
          break;
        }
        kws(&k);
      }
    }
    if (l->nplaces + (unsigned long)len > OMP_EXT_PLACES_MAX_PLACES ||
        kspend(&k, (unsigned long)len * (unsigned long)hwloc_bitmap_weight(set)))
      err = omp_ext_err_parse; /* beyond omp_ext's limits */
    if (!err && hwloc_bitmap_iszero(set)) {
      dp = dp || len > 0; /* no valid CPU: nothing added */
      len = 0;
    }
    if (!err && neg)
      hwloc_bitmap_andnot(set, allowed, set);
    cur = set; /* owned here until pushed */
    for (j = 0; !err && cur && j < len; j++) {
      hwloc_bitmap_t next = NULL;
      if (j + 1 < len && !(next = kmp_next_place(cur, str, allowed, &cut))) {
        err = omp_ext_err_nomem;
        break;
      }
      if (next && hwloc_bitmap_iszero(next)) { /* the interval ends here */
        hwloc_bitmap_free(next);
        next = NULL;
        cut = 1;
      }
      err = push(l, cur); /* takes cur, even on failure */
      cur = next;
    }
    hwloc_bitmap_free(cur); /* not pushed: none left, "P:0" or an error */
    if (err)
      break;
    if (!text[k.i])
      break;
    if (text[k.i] != ',') {
      syntax = 1;
      break;
    }
    k.i++;
  }
  if (!err && !syntax && !crash) {
    if (l->nplaces == 0) {
      hwloc_bitmap_t all = hwloc_bitmap_dup(allowed);
      err = push(l, all);
      set_result(pr, omp_ext_outcome_disabled,
                 "libomp: no valid OS proc ID in the places: affinity disabled");
    } else {
      set_result(pr, omp_ext_outcome_places,
                 cut  ? "libomp: an interval of places ends where its CPUs leave the "
                        "allowed set"
                 : dp ? "libomp: places without a valid OS proc ID dropped"
                 : dc ? "libomp: invalid OS proc IDs ignored (warnings)" : NULL);
    }
  }
  hwloc_bitmap_free(allowed);
  if (err || syntax || crash) {
    omp_ext_placelist_destroy(l);
    l = NULL;
  }
  if (err)
    return err;
  if (crash) {
    set_result(pr, omp_ext_outcome_crash,
               "libomp: an interval inside braces goes below CPU 0: libomp crashes (SIGSEGV)");
    return omp_ext_success;
  }
  if (syntax) {
    if ((err = abstract_places(t, "cores", 0, &l)) != 0)
      return err;
    set_result(pr, omp_ext_outcome_fallback, "libomp: OMP_PLACES syntax error, using \"cores\"");
  }
  omp_ext_placelist_destroy(pr->list);
  pr->list = l;
  return omp_ext_success;
}

/* libomp's warning #250 per abstract name (the count is dropped). */
static const char *const kmp_syntax_warning[] = {
    "libomp: OMP_PLACES: syntax error, using thread (all threads: the count is ignored)",
    "libomp: OMP_PLACES: syntax error, using core (all cores: the count is ignored)",
    "libomp: OMP_PLACES: syntax error, using socket (all sockets: the count is ignored)",
    "libomp: OMP_PLACES: syntax error, using ll_cache (all caches: the count is ignored)",
    "libomp: OMP_PLACES: syntax error, using numa_domain (the count is ignored)"};

static int kmp_omp_places(const omp_ext_topo_t *t, const char *text, omp_ext_prediction_t *pr)
{
  unsigned k;
  for (k = 0; k < sizeof(gomp_names) / sizeof(gomp_names[0]); k++) {
    size_t n = strlen(gomp_names[k]);
    unsigned long count = 0;
    const char *s = text + n, *name = gomp_names[k], *warn = NULL;
    int err;
    if (strncasecmp(text, gomp_names[k], n) != 0)
      continue;
    while (*s == ' ' || *s == '\t')
      s++;
    /* kmp_settings.cpp, __kmp_stg_parse_places: after the name, "(" or
     * the end; digits and ")" (else "syntax error, using <kind>": all
     * places); text after ")" is ignored with a warning. */
    if (*s && *s != '(') {
      warn = kmp_syntax_warning[k];
    } else if (*s == '(') {
      s++;
      while (*s == ' ' || *s == '\t')
        s++;
      while (isdigit((unsigned char)*s) && count <= 0x7fffffffUL)
        count = count * 10 + (unsigned long)(*s++ - '0');
      while (*s == ' ' || *s == '\t')
        s++;
      if (count > 0x7fffffffUL || *s != ')') {
        count = 0; /* "threads(1,2)", "threads(+1)", "sockets(": all */
        warn = kmp_syntax_warning[k];
      } else {
        s++;
        while (*s == ' ' || *s == '\t')
          s++;
        if (*s)
          warn = "libomp: OMP_PLACES: extra trailing characters ignored (a warning)";
      }
    }
    /* libomp sees NUMA domains only through hwloc (its KMP_HW_NUMA level);
     * Debian's libomp 14 is built without it: "NUMA domain does not exist
     * in topology", one place per core, with one NUMA node or many (seen
     * with the real runtime in the numa2 SMT guest). */
    if (strcmp(name, "numa_domains") == 0)
      name = "cores";
    omp_ext_placelist_destroy(pr->list);
    pr->list = NULL;
    if ((err = abstract_places(t, name, count, &pr->list)) != 0)
      return err;
    set_result(pr, omp_ext_outcome_places,
               name != gomp_names[k]
                   ? "libomp: NUMA domain does not exist in topology: one place per core"
                   : warn);
    pr->changed = warn || name != gomp_names[k];
    return omp_ext_success;
  }
  return kmp_omp_explicit(t, text, pr);
}

/* KMP_AFFINITY proclist or GOMP_CPU_AFFINITY: 0 ok, 1 syntax error at the
 * first item, 2 later, or an omp_ext error (negative). */
static int kmp_proclist(const char *text, omp_ext_placelist_t *l)
{
  struct kscan k = {text, 0, 0};
  unsigned items = 0;
  int err;
  kws(&k);
  for (;;) {
    hwloc_bitmap_t set;
    long a, b, s = 1, v;
    int bad = items ? 2 : 1;
    if (text[k.i] == '{') {
      k.i++;
      if (!(set = hwloc_bitmap_alloc()))
        return omp_ext_err_nomem;
      for (;;) {
        kws(&k);
        if (!kdigits(&k, &a)) {
          hwloc_bitmap_free(set);
          return bad;
        }
        kset(set, a);
        kws(&k);
        if (text[k.i] == '}')
          break;
        if (text[k.i] != ',') {
          hwloc_bitmap_free(set);
          return bad;
        }
        k.i++;
      }
      k.i++;
      if ((err = push(l, set)) != 0)
        return err;
    } else {
      if (!kdigits(&k, &a))
        return bad;
      b = a;
      kws(&k);
      if (text[k.i] == '-') {
        k.i++;
        kws(&k);
        if (!kdigits(&k, &b))
          return bad;
        kws(&k);
        if (text[k.i] == ':') {
          k.i++;
          kws(&k);
          if (!ksigned(&k, &s))
            return bad;
        }
        if (s == 0 || (s > 0 && a > b) || (s < 0 && a < b))
          return bad;
      }
      for (v = a; s > 0 ? v <= b : v >= b; v += s) {
        if (v > KMP_ID_MAX || v < 0)
          continue; /* dropped later as invalid anyway */
        set = hwloc_bitmap_alloc();
        if (set)
          hwloc_bitmap_set(set, (unsigned)v);
        if ((err = push(l, set)) != 0)
          return err;
      }
    }
    items++;
    kws(&k);
    if (!text[k.i])
      return 0;
    if (text[k.i] == ',') {
      k.i++;
      kws(&k);
    } else if (!(k.i > 0 && (text[k.i - 1] == ' ' || text[k.i - 1] == '\t'))) {
      return 2;
    }
  }
}

/* The granularity of a KMP_AFFINITY value: each CPU of a proclist item
 * stands for the allowed CPUs of its unit (kmp_affinity.cpp: osId2Mask). */
enum kmp_gran { kmp_gran_thread, kmp_gran_core, kmp_gran_package };

/* Widen every place of l to the allowed PUs of the units its CPUs are in. */
static int kmp_widen(const omp_ext_topo_t *t, omp_ext_placelist_t *l, enum kmp_gran gran)
{
  unsigned i, j, cpu;
  int wider = 0;
  if (gran == kmp_gran_thread)
    return 0;
  for (i = 0; i < l->nplaces; i++) {
    hwloc_bitmap_t wide = hwloc_bitmap_dup(l->places[i]);
    if (!wide)
      continue;
    hwloc_bitmap_foreach_begin(cpu, l->places[i]) {
      const omp_ext_pu_t *pu = omp_ext_topo_pu_by_os(t, cpu), *q;
      for (j = 0; pu && j < omp_ext_topo_npus(t); j++) {
        q = omp_ext_topo_pu(t, j);
        if (gran == kmp_gran_core ? q->core == pu->core : q->package == pu->package)
          hwloc_bitmap_set(wide, q->os_index);
      }
    }
    hwloc_bitmap_foreach_end();
    wider |= !hwloc_bitmap_isequal(wide, l->places[i]);
    hwloc_bitmap_free(l->places[i]);
    l->places[i] = wide;
  }
  return wider;
}

/* Case-insensitive: does the item s[0..n) equal word? */
static int kmp_word(const char *s, size_t n, const char *word)
{
  return strlen(word) == n && strncasecmp(s, word, n) == 0;
}

/* A whole KMP_AFFINITY value ("granularity=fine,explicit,proclist=[0,1]",
 * in any order, case-insensitive): libomp's reading in kmp_settings.cpp
 * (__kmp_parse_affinity_env).  On success *inner is the proclist (malloc'ed)
 * and *gran its granularity (default: core); *inner NULL when libomp uses
 * no proclist (missing, unterminated or empty: "proclist not specified with
 * explicit affinity type, using none").  omp_ext_err_parse: a value this
 * does not predict (another affinity type, another granularity). */
static int kmp_unwrap(const char *text, char **inner, enum kmp_gran *gran)
{
  static const char *const types[] = {"compact", "scatter", "balanced", "none", "disabled",
                                      "logical", "physical", "default"};
  const char *s = text;
  size_t k;
  *inner = NULL;
  *gran = kmp_gran_core;
  while (*s) {
    size_t n;
    while (*s == ' ' || *s == '\t' || *s == ',')
      s++;
    if (!*s) /* (a trailing separator: "a,") */
      break;
    n = strcspn(s, ",= \t");
    if (kmp_word(s, n, "proclist")) {
      const char *open = s + n, *close;
      while (*open == ' ' || *open == '\t')
        open++;
      if (*open == '=')
        open++;
      while (*open == ' ' || *open == '\t')
        open++;
      close = *open == '[' ? strchr(open, ']') : NULL;
      if (!close) /* "parameter invalid": the rest is that parameter */
        return omp_ext_success;
      if (!*inner && !(*inner = strndup(open + 1, (size_t)(close - open - 1))))
        return omp_ext_err_nomem;
      s = close + 1;
      continue;
    }
    if (kmp_word(s, n, "granularity")) {
      const char *v = s + n;
      size_t m;
      while (*v == ' ' || *v == '\t' || *v == '=')
        v++;
      m = strcspn(v, ", \t");
      if (kmp_word(v, m, "fine") || kmp_word(v, m, "thread"))
        *gran = kmp_gran_thread;
      else if (kmp_word(v, m, "core"))
        *gran = kmp_gran_core;
      else if (kmp_word(v, m, "socket") || kmp_word(v, m, "package"))
        *gran = kmp_gran_package;
      else
        break;
      s = v + m;
      continue;
    }
    for (k = 0; k < sizeof(types) / sizeof(types[0]); k++)
      if (kmp_word(s, n, types[k]))
        break;
    if (k < sizeof(types) / sizeof(types[0]))
      break;
    s += n ? n : 1; /* explicit, verbose, warnings, respect, ... */
  }
  if (!*s)
    return omp_ext_success;
  free(*inner);
  *inner = NULL;
  return omp_ext_err_parse;
}

static int kmp_list(const omp_ext_topo_t *t, const char *text, omp_ext_syntax_t syntax,
                    omp_ext_prediction_t *pr)
{
  omp_ext_placelist_t *l = new_list(syntax);
  hwloc_bitmap_t allowed = allowed_set(t);
  char *inner = NULL;
  enum kmp_gran gran = kmp_gran_thread;
  const char *lead = text + strspn(text, " \t");
  int rc = (l && allowed) ? 0 : omp_ext_err_nomem, dc = 0, dp = 0, wider = 0;
  /* KMP_AFFINITY: the proclist alone (bare or in brackets) is read as with
   * granularity=fine; a whole value by its own settings. */
  if (!rc && syntax == omp_ext_syntax_kmp && isalpha((unsigned char)*lead)) {
    rc = kmp_unwrap(text, &inner, &gran);
    if (!rc && !inner)
      rc = 1; /* no proclist: affinity none */
    if (inner && !inner[strspn(inner, " \t")])
      rc = 1; /* "proclist=[]": syntax error, affinity none */
  } else if (!rc && syntax == omp_ext_syntax_kmp && *lead == '[') {
    const char *close = strchr(lead, ']');
    if (!(inner = strndup(lead + 1, close ? (size_t)(close - lead - 1) : strlen(lead + 1))))
      rc = omp_ext_err_nomem;
  }
  if (!rc)
    rc = kmp_proclist(inner ? inner : text, l);
  free(inner);
  if (rc == 2 && syntax == omp_ext_syntax_kmp)
    rc = 1;
  if (rc < 0) {
    omp_ext_placelist_destroy(l);
    hwloc_bitmap_free(allowed);
    return rc;
  }
  if (rc == 2 && syntax == omp_ext_syntax_gomp) {
    omp_ext_placelist_destroy(l);
    hwloc_bitmap_free(allowed);
    l = new_list(syntax);
    set_result(pr, omp_ext_outcome_crash,
               "libomp: GOMP_CPU_AFFINITY syntax error after the first item: libomp aborts");
  } else {
    if (rc == 0) {
      keep_allowed(l, allowed, NULL, &dc, &dp);
      wider = kmp_widen(t, l, gran);
    }
    if (rc > 0 || l->nplaces == 0) {
      unsigned i;
      for (i = 0; i < l->nplaces; i++)
        hwloc_bitmap_free(l->places[i]);
      l->nplaces = 0;
      push(l, hwloc_bitmap_dup(allowed));
      set_result(pr, omp_ext_outcome_disabled,
                 rc > 0 ? "libomp: proclist syntax error, missing or empty: affinity disabled"
                        : "libomp: no valid OS proc ID: affinity disabled");
    } else {
      set_result(pr, omp_ext_outcome_places,
                 dp || dc ? "libomp: invalid OS proc IDs ignored (warnings)"
                 : wider  ? "libomp: KMP_AFFINITY granularity (core unless granularity=fine): "
                            "each CPU stands for all allowed CPUs of its core or package"
                          : NULL);
    }
    hwloc_bitmap_free(allowed);
  }
  if (!l)
    return omp_ext_err_nomem;
  omp_ext_placelist_destroy(pr->list);
  pr->list = l;
  return omp_ext_success;
}

/* ------------------------------------------------------------------ */

int omp_ext_places_predict(const omp_ext_topo_t *topo, const char *text, omp_ext_syntax_t syntax,
                           omp_ext_runtime_t runtime, omp_ext_prediction_t *pred)
{
  int err;
  if (!topo || !text || !pred || (unsigned)syntax > omp_ext_syntax_kmp ||
      (unsigned)runtime > omp_ext_runtime_libomp)
    return omp_ext_err_invalid;
  memset(pred, 0, sizeof(*pred));
  pred->runtime = runtime;
  if (!(pred->list = new_list(syntax)))
    return omp_ext_err_nomem;
  if (runtime == omp_ext_runtime_libgomp) {
    if (syntax == omp_ext_syntax_omp)
      err = gomp_omp_places(topo, text, pred);
    else if (syntax == omp_ext_syntax_gomp)
      err = gomp_affinity(topo, text, pred);
    else {
      set_result(pred, omp_ext_outcome_ignored, "libgomp does not read KMP_AFFINITY");
      err = omp_ext_success;
    }
  } else if (syntax == omp_ext_syntax_omp) {
    err = kmp_omp_places(topo, text, pred);
  } else {
    err = kmp_list(topo, text, syntax, pred);
  }
  if (err)
    omp_ext_prediction_clear(pred);
  else if (pred->outcome != omp_ext_outcome_places || (pred->why && pred->why != gomp_order_why &&
                                                           pred->why != gomp_numa_why))
    pred->changed = 1;
  return err;
}

void omp_ext_prediction_clear(omp_ext_prediction_t *pred)
{
  if (!pred)
    return;
  omp_ext_placelist_destroy(pred->list);
  pred->list = NULL;
}
