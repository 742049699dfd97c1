/*
 * Topology: load hwloc's view of a machine (this one, an XML export or a
 * synthetic string) and build the table of allowed PUs grouped by core.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "private/internal.h"

/* Input is an XML file when it names a regular file (hwloc tools' rule). */
static int is_regular_file(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The PUs of an hwloc synthetic description, the product of its levels'
 * counts ("pack:2 core:4 pu:2(indexes=core:pack)", "2 4 2"; attributes in
 * (...) and memory children in [...] not counted), at most
 * OMP_EXT_TOPO_MAX_PUS + 1.  A level without a count is left to hwloc. */
static unsigned long synthetic_pus(const char *d)
{
  unsigned long n = 1;
  while (*d) {
    const char *start, *colon = NULL;
    int depth = 0;
    d += strspn(d, " \t\n");
    start = d;
    for (; *d && (depth > 0 || !strchr(" \t\n", *d)); d++) {
      if (*d == '(' || *d == '[')
        depth++;
      else if ((*d == ')' || *d == ']') && depth > 0)
        depth--;
      else if (*d == ':' && depth == 0)
        colon = d;
    }
    if (d > start && *start != '[') {
      const char *num = colon ? colon + 1 : start, *end;
      unsigned long long count = 0;
      /* digits only: "-1" or "+2" are hwloc's to refuse (strtoul read
       * "-1" as 2^64 - 1, "more than 65536 PUs") */
      if (omp_ext_scan_uint(num, &end, OMP_EXT_TOPO_MAX_PUS + 1ULL, &count) == OMP_EXT_UINT_ABOVE)
        count = OMP_EXT_TOPO_MAX_PUS + 1ULL;
      if (count > 0)
        n = count > (OMP_EXT_TOPO_MAX_PUS + 1UL) / n ? OMP_EXT_TOPO_MAX_PUS + 1UL : n * count;
    }
  }
  return n;
}

/* omp_ext_err_too_large when the synthetic topology hwloc would build (from
 * input, or from HWLOC_SYNTHETIC without input, as hwloc 2 reads it: after
 * HWLOC_FSROOT) has more than OMP_EXT_TOPO_MAX_PUS PUs. */
static int check_synthetic_size(const char *input)
{
  const char *fsroot = getenv("HWLOC_FSROOT");
  const char *d = input ? input : (fsroot && *fsroot) ? NULL : getenv("HWLOC_SYNTHETIC");
  if (!d || (input && is_regular_file(input)))
    return omp_ext_success;
  return synthetic_pus(d) > OMP_EXT_TOPO_MAX_PUS ? omp_ext_err_too_large : omp_ext_success;
}

static int set_source(hwloc_topology_t hw, const char *input)
{
  if (!input)
    return 0;
  if (is_regular_file(input))
    return hwloc_topology_set_xml(hw, input);
  return hwloc_topology_set_synthetic(hw, input);
}

/* Rank of each CPU kind: 0 for the highest hwloc efficiency.  hwloc lists
 * kinds by increasing efficiency, so an unknown efficiency (-1) falls back
 * to the reverse index. */
static unsigned *kind_ranks(hwloc_topology_t hw, unsigned *nkinds)
{
  int nr = hwloc_cpukinds_get_nr(hw, 0);
  unsigned n = nr > 0 ? (unsigned)nr : 0, i, j;
  unsigned *rank = calloc(n ? n : 1, sizeof(*rank));
  int *eff = calloc(n ? n : 1, sizeof(*eff));
  if (!rank || !eff) {
    free(rank);
    free(eff);
    return NULL;
  }
  for (i = 0; i < n; i++) {
    if (hwloc_cpukinds_get_info(hw, i, NULL, &eff[i], NULL, NULL, 0) < 0 || eff[i] < 0)
      eff[i] = (int)i;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      if (eff[j] > eff[i] || (eff[j] == eff[i] && j > i))
        rank[i]++;
  free(eff);
  *nkinds = n;
  return rank;
}

static unsigned pu_kind(hwloc_topology_t hw, hwloc_obj_t pu, const unsigned *rank, unsigned n)
{
  int k = hwloc_cpukinds_get_by_cpuset(hw, pu->cpuset, 0);
  return (k >= 0 && (unsigned)k < n) ? rank[k] : 0;
}

/* The OS index of each PU's NUMA node (-1: none), by the PU's OS index up
 * to hwloc's last: the first node in hwloc's order whose cpuset holds it.
 * One pass over the nodes' cpusets (a walk of every node for each PU was
 * quadratic in PUs with a node per core). */
static int *numa_table(hwloc_topology_t hw)
{
  int last = hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(hw)), *of;
  hwloc_obj_t node = NULL;
  unsigned i;
  if (last < 0)
    last = 0;
  if (!(of = malloc(((size_t)last + 1) * sizeof(*of))))
    return NULL;
  for (i = 0; i <= (unsigned)last; i++)
    of[i] = -1;
  while ((node = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, node)) != NULL) {
    int pu;
    if (!node->cpuset)
      continue;
    hwloc_bitmap_foreach_begin(pu, node->cpuset)
      if (pu <= last && of[pu] < 0)
        of[pu] = (int)node->os_index;
    hwloc_bitmap_foreach_end();
  }
  return of;
}

static void fill_pu(hwloc_topology_t hw, hwloc_obj_t pu, unsigned core_index,
                    const unsigned *rank, unsigned nkinds, const int *numa_of,
                    omp_ext_pu_t *out)
{
  hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_CORE, pu);
  hwloc_obj_t pack = hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_PACKAGE, pu);
  out->os_index = pu->os_index;
  out->logical_index = pu->logical_index;
  out->core = core_index;
  out->core_os_index = core ? core->os_index : pu->os_index;
  out->package = pack ? pack->logical_index : 0;
  out->numa = numa_of[pu->os_index];
  out->sibling = 0;
  out->kind = pu_kind(hw, pu, rank, nkinds);
}

/* How many distinct non-negative values the int at \p offset of each PU
 * takes: a bitmap of them, linear in PUs (it compared each PU with those
 * before it: quadratic, most of build_tables at 8192 PUs). */
static int count_distinct(const omp_ext_pu_t *pus, unsigned n, size_t offset, unsigned *count)
{
  hwloc_bitmap_t seen = hwloc_bitmap_alloc();
  unsigned i;
  int err = seen ? omp_ext_success : omp_ext_err_nomem;
  for (i = 0; !err && i < n; i++) {
    int v = *(const int *)((const char *)&pus[i] + offset);
    if (v >= 0 && hwloc_bitmap_set(seen, (unsigned)v) < 0)
      err = omp_ext_err_nomem;
  }
  if (!err)
    *count = (unsigned)hwloc_bitmap_weight(seen);
  hwloc_bitmap_free(seen);
  return err;
}

/* NUMA nodes local to the allowed set: those whose CPUs, or for CPU-less
 * nodes (a KNL's MCDRAM) the CPUs of their nearest ancestor with CPUs, meet
 * it. */
static unsigned count_numa(hwloc_topology_t hw, hwloc_const_cpuset_t allowed)
{
  hwloc_obj_t node = NULL;
  unsigned n = 0;
  while ((node = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, node)) != NULL) {
    hwloc_obj_t obj = node;
    /* CPU-less even counting offline or disallowed PUs: look up */
    while (obj && (!obj->complete_cpuset || hwloc_bitmap_iszero(obj->complete_cpuset)))
      obj = obj->parent;
    n += obj && hwloc_bitmap_intersects(obj->cpuset, allowed);
  }
  return n;
}

/* Group the PU table into cores; PUs of a core are consecutive in logical
 * order because hwloc numbers logical indexes depth-first. */
static int build_cores(omp_ext_topo_t *t)
{
  unsigned i;
  t->cores = calloc(t->npus, sizeof(*t->cores));
  if (!t->cores)
    return omp_ext_err_nomem;
  t->ncores = 0;
  t->max_smt = 0;
  for (i = 0; i < t->npus; i++) {
    struct omp_ext_core *c = t->ncores ? &t->cores[t->ncores - 1] : NULL;
    if (!c || t->pus[c->first].core != t->pus[i].core) {
      c = &t->cores[t->ncores++];
      c->first = i;
      c->npus = 0;
      c->package = t->pus[i].package;
      c->numa = t->pus[i].numa;
      c->kind = t->pus[i].kind;
    }
    t->pus[i].sibling = c->npus++;
    if (c->npus > t->max_smt)
      t->max_smt = c->npus;
  }
  return omp_ext_success;
}

/* The allowed PUs into t->pus (allocated), in hwloc's logical order.
 * A core's number: its position among all cores (or PUs without a core)
 * in hwloc's depth-first order, which is the PUs' logical order.  That is
 * hwloc's core logical index while every core sits at one depth; not
 * always so: with L1 caches per thread (QEMU) and an offline sibling,
 * hwloc puts the lone PU's core below its L1 and the others above, and
 * logical indexes restart at each depth (two "Core L#0"). */
static int fill_pus(omp_ext_topo_t *t)
{
  unsigned nkinds = 0, core_index = 0;
  unsigned *rank = kind_ranks(t->hw, &nkinds);
  int *numa_of = numa_table(t->hw);
  hwloc_obj_t pu = NULL, last_core = NULL;
  int err = omp_ext_err_nomem;
  if (rank && numa_of &&
      (t->pus = calloc((size_t)hwloc_bitmap_weight(t->allowed) + 1, sizeof(*t->pus))) != NULL) {
    while ((pu = hwloc_get_next_obj_by_type(t->hw, HWLOC_OBJ_PU, pu)) != NULL) {
      hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, pu);
      hwloc_obj_t key = core ? core : pu;
      if (last_core && key != last_core)
        core_index++;
      last_core = key;
      if (hwloc_bitmap_isset(t->allowed, pu->os_index))
        fill_pu(t->hw, pu, core_index, rank, nkinds, numa_of, &t->pus[t->npus++]);
    }
    err = omp_ext_success;
  }
  free(rank);
  free(numa_of);
  return err;
}

/* (Re)build the PU and core tables from t->allowed. */
static int build_tables(omp_ext_topo_t *t)
{
  int err;
  free(t->pus);
  free(t->cores);
  t->pus = NULL;
  t->cores = NULL;
  t->npus = t->ncores = 0;
  if ((err = fill_pus(t)) != 0)
    return err;
  if (t->npus == 0)
    return omp_ext_err_empty;
  if ((err = build_cores(t)) != 0 ||
      (err = count_distinct(t->pus, t->npus, offsetof(omp_ext_pu_t, package), &t->npackages)) != 0 ||
      (err = count_distinct(t->pus, t->npus, offsetof(omp_ext_pu_t, kind), &t->nkinds)) != 0)
    return err;
  t->nnuma = count_numa(t->hw, t->allowed);
  return omp_ext_success;
}

/* Allowed PUs: hwloc's allowed cpuset within the topology, and for this
 * machine also the process binding (taskset). */
static int compute_allowed(omp_ext_topo_t *t, unsigned long flags)
{
  t->allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(t->hw));
  if (!t->allowed)
    return omp_ext_err_nomem;
  hwloc_bitmap_and(t->allowed, t->allowed, hwloc_topology_get_topology_cpuset(t->hw));
  if (t->thissystem && !(flags & omp_ext_topo_ignore_binding)) {
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    if (!bound)
      return omp_ext_err_nomem;
    if (hwloc_get_cpubind(t->hw, bound, HWLOC_CPUBIND_PROCESS) == 0)
      hwloc_bitmap_and(t->allowed, t->allowed, bound);
    hwloc_bitmap_free(bound);
  }
  return omp_ext_success;
}

/* hwloc's own environment can replace this machine's discovery (hwloc 2
 * checks HWLOC_FSROOT, then HWLOC_SYNTHETIC, then HWLOC_XMLFILE, when no
 * source was set).  The first one set (util.c), as "NAME=value (...)", or
 * NULL. */
static char *hwloc_env_source(void)
{
  const char *name = omp_ext_hwloc_env_var(); /* set, as hwloc said */
  const char *v = name ? getenv(name) : NULL;
  size_t len;
  char *text;
  if (!v)
    return NULL;
  len = strlen(name) + strlen(v) + 64;
  if ((text = malloc(len)) != NULL)
    snprintf(text, len, "%s=%s (hwloc's environment: not this machine)", name, v);
  return text;
}

/* \p lean: no caches, NUMA distances or memory attributes (binding needs
 * none of them; the caches' sysfs files were a third of hwloc's discovery
 * in a program's start).  CPU kinds stay: the orders rank by them.  \p xml:
 * this machine as hwloc XML (htplaces exec's hand-off, its stamp checked by
 * the caller), imported as this system, its allowed PUs read from this
 * process's cgroup (hwloc's filters apply to an XML import as to a
 * discovery: test_handoff). */
static int load_hwloc(omp_ext_topo_t *t, const char *input, const char *xml, int lean)
{
  unsigned long hwflags = 0;
  int err = check_synthetic_size(input);
  if (err)
    return err;
  if (hwloc_topology_init(&t->hw) < 0)
    return omp_ext_err_nomem;
  if (lean)
    hwflags |= HWLOC_TOPOLOGY_FLAG_NO_DISTANCES | HWLOC_TOPOLOGY_FLAG_NO_MEMATTRS;
  if (xml && !input)
    hwflags |= HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM | HWLOC_TOPOLOGY_FLAG_THISSYSTEM_ALLOWED_RESOURCES;
  if ((lean && (hwloc_topology_set_cache_types_filter(t->hw, HWLOC_TYPE_FILTER_KEEP_NONE) < 0 ||
                hwloc_topology_set_icache_types_filter(t->hw, HWLOC_TYPE_FILTER_KEEP_NONE) < 0)) ||
      hwloc_topology_set_flags(t->hw, hwflags) < 0)
    return omp_ext_err_topology;
  if (xml && !input ? hwloc_topology_set_xmlbuffer(t->hw, xml, (int)strlen(xml) + 1) < 0
                    : set_source(t->hw, input) < 0)
    return omp_ext_err_topology;
  if (hwloc_topology_load(t->hw) < 0)
    return omp_ext_err_topology;
  if (hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PU) > OMP_EXT_TOPO_MAX_PUS)
    return omp_ext_err_too_large;
  t->thissystem = hwloc_topology_is_thissystem(t->hw);
  /* Without input, hwloc's environment may have replaced this machine:
   * say so in the source rather than "this machine". */
  if (!input && !t->thissystem && (t->source = hwloc_env_source()) != NULL)
    return omp_ext_success;
  t->source = strdup(input ? input : "this machine");
  return t->source ? omp_ext_success : omp_ext_err_nomem;
}

int omp_ext_topo_load(omp_ext_topo_t **topo, const char *input, unsigned long flags)
{
  return omp_ext_topo_load_as(topo, input, NULL, flags, 0);
}

int omp_ext_topo_load_as(omp_ext_topo_t **topo, const char *input, const char *xml,
                         unsigned long flags, int lean)
{
  omp_ext_topo_t *t;
  int err;
  if (!topo || (flags & ~(unsigned long)omp_ext_topo_ignore_binding))
    return omp_ext_err_invalid;
  *topo = NULL;
  t = calloc(1, sizeof(*t));
  if (!t)
    return omp_ext_err_nomem;
  if (input && !*input)
    input = NULL;
  err = load_hwloc(t, input, xml, lean);
  if (!err)
    err = compute_allowed(t, flags);
  if (!err)
    err = build_tables(t);
  if (err) {
    omp_ext_topo_destroy(t);
    return err;
  }
  *topo = t;
  return omp_ext_success;
}

void omp_ext_topo_destroy(omp_ext_topo_t *topo)
{
  if (!topo)
    return;
  if (topo->hw)
    hwloc_topology_destroy(topo->hw);
  hwloc_bitmap_free(topo->allowed);
  free(topo->source);
  free(topo->pus);
  free(topo->cores);
  free(topo);
}

int omp_ext_topo_restrict(omp_ext_topo_t *topo, hwloc_const_cpuset_t set)
{
  hwloc_bitmap_t old;
  int err;
  if (!topo || !set)
    return omp_ext_err_invalid;
  if (!hwloc_bitmap_intersects(topo->allowed, set))
    return omp_ext_err_empty;
  old = hwloc_bitmap_dup(topo->allowed);
  if (!old)
    return omp_ext_err_nomem;
  hwloc_bitmap_and(topo->allowed, topo->allowed, set);
  err = build_tables(topo);
  if (err) {
    hwloc_bitmap_copy(topo->allowed, old);
    build_tables(topo);
  }
  hwloc_bitmap_free(old);
  return err;
}

hwloc_topology_t omp_ext_topo_hwloc(const omp_ext_topo_t *topo) { return topo->hw; }
hwloc_const_cpuset_t omp_ext_topo_allowed(const omp_ext_topo_t *topo) { return topo->allowed; }
const char *omp_ext_topo_source(const omp_ext_topo_t *topo) { return topo->source; }
int omp_ext_topo_is_thissystem(const omp_ext_topo_t *topo) { return topo->thissystem; }
unsigned omp_ext_topo_npus(const omp_ext_topo_t *topo) { return topo->npus; }
unsigned omp_ext_topo_ncores(const omp_ext_topo_t *topo) { return topo->ncores; }
unsigned omp_ext_topo_npackages(const omp_ext_topo_t *topo) { return topo->npackages; }
unsigned omp_ext_topo_nnuma(const omp_ext_topo_t *topo) { return topo->nnuma; }
unsigned omp_ext_topo_nkinds(const omp_ext_topo_t *topo) { return topo->nkinds; }
unsigned omp_ext_topo_max_smt(const omp_ext_topo_t *topo) { return topo->max_smt; }

const omp_ext_pu_t *omp_ext_topo_pu(const omp_ext_topo_t *topo, unsigned i)
{
  return i < topo->npus ? &topo->pus[i] : NULL;
}

const omp_ext_pu_t *omp_ext_topo_pu_by_os(const omp_ext_topo_t *topo, unsigned os_index)
{
  unsigned i;
  for (i = 0; i < topo->npus; i++)
    if (topo->pus[i].os_index == os_index)
      return &topo->pus[i];
  return NULL;
}
