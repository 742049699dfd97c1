/*
 * htplaces check, the analysis: a parsed OMP_PLACES value (or a
 * GOMP_CPU_AFFINITY list, or a KMP_AFFINITY proclist) on the topology, and
 * what the two OpenMP runtimes would do differently or wrongly with it, as
 * findings (analysis.h).  Prints nothing: check_report.c prints.
 *
 * Runtime behaviours reported here were read in the runtimes' sources:
 * libgomp env.c (parse_places_var, parse_one_place, parse_affinity) and
 * config/linux/affinity.c (gomp_affinity_add_cpus, gomp_affinity_remove_cpu,
 * gomp_affinity_finalize_place_list), config/linux/proc.c (gomp_cpuset_size);
 * libomp kmp_settings.cpp (__kmp_stg_parse_places, __kmp_parse_place_list)
 * and kmp_affinity.cpp (__kmp_affinity_process_placelist,
 * __kmp_affinity_process_proclist).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

static const char *const syntax_var[] = {"OMP_PLACES", "GOMP_CPU_AFFINITY", "KMP_AFFINITY"};

const char *htp_check_variable(omp_ext_syntax_t syntax)
{
  return (unsigned)syntax < 3 ? syntax_var[syntax] : "OMP_PLACES";
}

struct check {
  const omp_ext_topo_t *topo;
  const omp_ext_placelist_t *list;
  struct htp_findings *out;
  int spn_match; /* the list is exactly htplaces spn N */
};

static struct htp_finding *add(struct check *c, enum htp_finding_kind kind,
                               enum htp_position_kind at, unsigned long index)
{
  return htp_finding_add(c->out, kind, htp_section_none, at, index);
}

/* Union of all places. */
static hwloc_bitmap_t all_numbers(const omp_ext_placelist_t *l)
{
  hwloc_bitmap_t u = hwloc_bitmap_alloc();
  unsigned i;
  for (i = 0; u && i < l->nplaces; i++)
    hwloc_bitmap_or(u, u, l->places[i]);
  return u;
}

static void check_notes(struct check *c)
{
  static const enum htp_finding_kind kinds[] = {
    [omp_ext_note_exclude_resource] = htp_finding_exclude_resource,
    [omp_ext_note_exclude_missing] = htp_finding_exclude_missing,
    [omp_ext_note_exclude_place] = htp_finding_exclude_place,
    [omp_ext_note_exclude_place_missing] = htp_finding_exclude_place_missing,
    [omp_ext_note_radix] = htp_finding_radix,
    [omp_ext_note_count_capped] = htp_finding_count_capped,
    [omp_ext_note_no_cache] = htp_finding_no_cache,
    [omp_ext_note_empty_place] = htp_finding_empty_place,
  };
  const omp_ext_placelist_t *l = c->list;
  struct htp_finding *f;
  unsigned i;
  for (i = 0; i < l->nnotes; i++) {
    const omp_ext_places_note_t *n = &l->notes[i];
    if ((unsigned)n->kind >= sizeof(kinds) / sizeof(kinds[0]))
      continue;
    switch (n->kind) {
    case omp_ext_note_count_capped:
      f = add(c, htp_finding_count_capped, htp_at_none, 0);
      htp_put_text(c->out, f, "abstract", omp_ext_abstract_name(l->abstract));
      htp_put_uint(c->out, f, "requested", n->value);
      htp_put_uint(c->out, f, "places", l->nplaces);
      break;
    case omp_ext_note_no_cache:
      add(c, htp_finding_no_cache, htp_at_none, 0);
      break;
    default:
      f = add(c, kinds[n->kind], htp_at_character, (unsigned long)n->pos + 1);
      if (n->kind == omp_ext_note_exclude_missing)
        htp_put_uint(c->out, f, "cpu", n->value);
      else if (n->kind == omp_ext_note_radix)
        htp_put_uint(c->out, f, "value", n->value);
      break;
    }
  }
  if (l->dropped_notes)
    htp_put_uint(c->out, add(c, htp_finding_more_remarks, htp_at_none, 0), "count",
                 l->dropped_notes);
}

/* libgomp's cpuset size in bits: CPU_ALLOC_SIZE(last allowed CPU + 1)
 * (config/linux/proc.c), i.e. a whole number of 64-bit words. */
static unsigned gomp_cpuset_bits(const omp_ext_topo_t *topo)
{
  int last = hwloc_bitmap_last(omp_ext_topo_allowed(topo));
  return (unsigned)((last + 1 + 63) / 64 * 64);
}

unsigned htp_check_places_left(const omp_ext_topo_t *topo, const omp_ext_placelist_t *l)
{
  hwloc_const_bitmap_t allowed = omp_ext_topo_allowed(topo);
  unsigned i, n = 0;
  for (i = 0; i < l->nplaces; i++)
    n += hwloc_bitmap_intersects(l->places[i], allowed) != 0;
  return n;
}

/* What each runtime does with the numbers of BAD (outside the machine or
 * the allowed set). */
static void check_runtime_out_of_range(struct check *c, hwloc_const_bitmap_t bad)
{
  const omp_ext_placelist_t *l = c->list;
  unsigned bits = gomp_cpuset_bits(c->topo);
  int last = hwloc_bitmap_last(bad);
  unsigned left = htp_check_places_left(c->topo, l);
  int beyond = last >= 0 && (unsigned)last >= bits;
  struct htp_finding *f;
  if (l->syntax == omp_ext_syntax_omp) {
    if (beyond) {
      f = add(c, htp_finding_libgomp_rejects_places, htp_at_none, 0);
      htp_put_uint(c->out, f, "cpu", (unsigned)last);
      htp_put_uint(c->out, f, "cpuset_bits", bits);
    } else {
      f = add(c, htp_finding_libgomp_drops_cpus, htp_at_none, 0);
      htp_put_set(c->out, f, "cpus", htp_value_cpuset, bad);
      htp_put_uint(c->out, f, "places_left", left);
      htp_put_uint(c->out, f, "places", l->nplaces);
    }
    htp_put_set(c->out, add(c, htp_finding_libomp_ignores_cpus, htp_at_none, 0), "cpus",
                htp_value_cpuset, bad);
  } else if (l->syntax == omp_ext_syntax_gomp) {
    if (beyond)
      htp_put_uint(c->out, add(c, htp_finding_libgomp_skips_cpus, htp_at_none, 0),
                   "cpuset_bits", bits);
    htp_put_set(c->out, add(c, htp_finding_libomp_ignores_affinity_cpus, htp_at_none, 0),
                "cpus", htp_value_cpuset, bad);
  } else {
    f = add(c, htp_finding_libomp_drops_places, htp_at_none, 0);
    htp_put_set(c->out, f, "cpus", htp_value_cpuset, bad);
    htp_put_uint(c->out, f, "places_left", left);
    htp_put_uint(c->out, f, "places", l->nplaces);
  }
}

static void check_outside(struct check *c)
{
  hwloc_topology_t hw = omp_ext_topo_hwloc(c->topo);
  hwloc_bitmap_t used = all_numbers(c->list), outside = hwloc_bitmap_alloc(),
                 disallowed = hwloc_bitmap_alloc();
  struct htp_finding *f;
  if (!used || !outside || !disallowed) {
    c->out->nomem = 1;
    goto out;
  }
  hwloc_bitmap_andnot(outside, used, hwloc_topology_get_complete_cpuset(hw));
  hwloc_bitmap_andnot(disallowed, used, omp_ext_topo_allowed(c->topo));
  hwloc_bitmap_andnot(disallowed, disallowed, outside);
  if (!hwloc_bitmap_iszero(outside)) {
    f = add(c, htp_finding_outside_machine, htp_at_none, 0);
    htp_put_set(c->out, f, "cpus", htp_value_cpuset, outside);
    htp_put_set(c->out, f, "machine", htp_value_cpuset, hwloc_topology_get_complete_cpuset(hw));
  }
  if (!hwloc_bitmap_iszero(disallowed)) {
    f = add(c, htp_finding_not_allowed, htp_at_none, 0);
    htp_put_set(c->out, f, "cpus", htp_value_cpuset, disallowed);
    htp_put_set(c->out, f, "allowed", htp_value_cpuset, omp_ext_topo_allowed(c->topo));
  }
  hwloc_bitmap_or(outside, outside, disallowed);
  if (!hwloc_bitmap_iszero(outside))
    check_runtime_out_of_range(c, outside);
out:
  hwloc_bitmap_free(used);
  hwloc_bitmap_free(outside);
  hwloc_bitmap_free(disallowed);
}

/* PUs in several places: the first 8, each with the places holding it. */
static void check_duplicates(struct check *c)
{
  const omp_ext_placelist_t *l = c->list;
  hwloc_bitmap_t seen = hwloc_bitmap_alloc(), dup = hwloc_bitmap_alloc(),
                 where = hwloc_bitmap_alloc();
  unsigned i, shown = 0, cpu;
  if (!seen || !dup || !where) {
    c->out->nomem = 1;
    goto out;
  }
  for (i = 0; i < l->nplaces; i++) {
    hwloc_bitmap_t both = hwloc_bitmap_alloc();
    if (!both)
      break;
    hwloc_bitmap_and(both, seen, l->places[i]);
    hwloc_bitmap_or(dup, dup, both);
    hwloc_bitmap_or(seen, seen, l->places[i]);
    hwloc_bitmap_free(both);
  }
  hwloc_bitmap_foreach_begin(cpu, dup) {
    if (shown++ == 8) {
      htp_put_uint(c->out, add(c, htp_finding_more_shared_pus, htp_at_none, 0), "count",
                   (unsigned)hwloc_bitmap_weight(dup) - 8);
      break;
    }
    hwloc_bitmap_zero(where);
    for (i = 0; i < l->nplaces; i++)
      if (hwloc_bitmap_isset(l->places[i], cpu))
        hwloc_bitmap_set(where, i);
    htp_put_set(c->out, add(c, htp_finding_shared_pu, htp_at_pu, cpu), "places",
                htp_value_indexes, where);
  }
  hwloc_bitmap_foreach_end();
out:
  hwloc_bitmap_free(seen);
  hwloc_bitmap_free(dup);
  hwloc_bitmap_free(where);
}

/* Cores, packages (at most 2 counted) and kinds a place's allowed PUs
 * belong to. */
static void place_span(const omp_ext_topo_t *topo, hwloc_const_bitmap_t place, unsigned *cores,
                       unsigned *packages, unsigned *kinds)
{
  long last_core = -1, last_pkg = -1, last_kind = -1;
  unsigned i;
  *cores = *packages = *kinds = 0;
  for (i = 0; i < omp_ext_topo_npus(topo); i++) {
    const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i);
    if (!hwloc_bitmap_isset(place, pu->os_index))
      continue;
    /* PUs come in topology order: a new core/package shows as a change. */
    if ((long)pu->core != last_core)
      (*cores)++;
    if ((long)pu->package != last_pkg && *packages < 2)
      (*packages)++;
    if ((long)pu->kind != last_kind && last_kind != -1)
      (*kinds)++;
    last_core = (long)pu->core;
    last_pkg = (long)pu->package;
    last_kind = (long)pu->kind;
  }
  *kinds += last_kind != -1;
}

static void check_spans(struct check *c)
{
  const omp_ext_placelist_t *l = c->list;
  unsigned i, cores, pkgs, kinds, shown = 0;
  struct htp_finding *f;
  for (i = 0; i < l->nplaces && shown < 8; i++) {
    place_span(c->topo, l->places[i], &cores, &pkgs, &kinds);
    if (l->abstract == omp_ext_abstract_none && pkgs > 1) {
      f = add(c, htp_finding_spans_packages, htp_at_place, i);
      htp_put_set(c->out, f, "cpus", htp_value_cpuset, l->places[i]);
      shown++;
    } else if (l->abstract == omp_ext_abstract_none && cores > 1) {
      f = add(c, htp_finding_spans_cores, htp_at_place, i);
      htp_put_set(c->out, f, "cpus", htp_value_cpuset, l->places[i]);
      htp_put_uint(c->out, f, "cores", cores);
      shown++;
    }
    if (kinds > 1) {
      f = add(c, htp_finding_mixes_kinds, htp_at_place, i);
      htp_put_set(c->out, f, "cpus", htp_value_cpuset, l->places[i]);
      shown++;
    }
  }
}

/* Does the list use a second PU of a core while some core has none yet? */
/* Is PU os in one of places 0 .. i-1? */
static int pu_in_earlier(const omp_ext_placelist_t *l, unsigned i, unsigned os)
{
  unsigned k;
  for (k = 0; k < i; k++)
    if (hwloc_bitmap_isset(l->places[k], os))
      return 1;
  return 0;
}

static void check_siblings_first(struct check *c)
{
  const omp_ext_placelist_t *l = c->list;
  const omp_ext_topo_t *topo = c->topo;
  unsigned ncores = omp_ext_topo_ncores(topo), used = 0, i, j, maxcore = 0;
  struct htp_finding *f;
  char *busy;
  for (j = 0; j < omp_ext_topo_npus(topo); j++)
    if (omp_ext_topo_pu(topo, j)->core >= maxcore)
      maxcore = omp_ext_topo_pu(topo, j)->core + 1;
  if (!(busy = calloc(maxcore ? maxcore : 1, 1))) {
    c->out->nomem = 1;
    return;
  }
  for (i = 0; i < l->nplaces && used < ncores; i++) {
    unsigned fresh = 0, again = (unsigned)-1;
    for (j = 0; j < omp_ext_topo_npus(topo); j++) {
      const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, j);
      if (!hwloc_bitmap_isset(l->places[i], pu->os_index))
        continue;
      if (!busy[pu->core])
        fresh = 1;
      else if (!pu_in_earlier(l, i, pu->os_index))
        again = pu->os_index; /* a sibling; the same PU again is a duplicate instead */
    }
    if (!fresh && again != (unsigned)-1) {
      /* spn puts a second PU of a core before other cores by design. */
      f = add(c, c->spn_match ? htp_finding_spn_siblings : htp_finding_siblings_first,
              htp_at_place, i);
      if (!c->spn_match)
        htp_put_uint(c->out, f, "pu", again);
      htp_put_uint(c->out, f, "idle_cores", ncores - used);
      htp_put_uint(c->out, f, "cores", ncores);
      if (!c->spn_match) {
        htp_put_uint(c->out, f, "threads", i + 1);
        htp_put_uint(c->out, f, "suggest", l->nplaces < omp_ext_topo_npus(topo) ?
                     l->nplaces : omp_ext_topo_npus(topo));
      }
      break;
    }
    for (j = 0; j < omp_ext_topo_npus(topo); j++) {
      const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, j);
      if (hwloc_bitmap_isset(l->places[i], pu->os_index) && !busy[pu->core]) {
        busy[pu->core] = 1;
        used++;
      }
    }
  }
  free(busy);
}

/* Policies whose first nplaces PUs are exactly the list (one PU a place). */
static unsigned match_policies(const omp_ext_topo_t *topo, const omp_ext_placelist_t *l,
                               int *matched)
{
  unsigned n = l->nplaces, i, p, count = 0;
  omp_ext_pu_t *order;
  for (p = 0; p < OMP_EXT_NPOLICIES; p++)
    matched[p] = 0;
  if (n == 0 || n > omp_ext_topo_npus(topo))
    return 0;
  for (i = 0; i < n; i++)
    if (hwloc_bitmap_weight(l->places[i]) != 1)
      return 0;
  if (!(order = malloc(n * sizeof(*order))))
    return 0;
  for (p = 0; p < OMP_EXT_NPOLICIES; p++) {
    if (omp_ext_order(topo, NULL, (omp_ht_policy_t)p, n, order) != 0)
      continue;
    for (i = 0; i < n; i++)
      if (!hwloc_bitmap_isset(l->places[i], order[i].os_index))
        break;
    if (i == n) {
      matched[p] = 1;
      count++;
    }
  }
  free(order);
  return count;
}

int htp_check_analyze(const omp_ext_topo_t *topo, const omp_ext_placelist_t *l,
                      struct htp_check_report *rep)
{
  struct check c;
  memset(rep, 0, sizeof(*rep));
  c.topo = topo;
  c.list = l;
  c.out = &rep->findings;
  rep->nmatched = match_policies(topo, l, rep->matched);
  c.spn_match = rep->matched[omp_ht_policy_spn];
  check_notes(&c);
  if (l->nplaces) {
    check_outside(&c);
    check_duplicates(&c);
    check_spans(&c);
    check_siblings_first(&c);
  }
  return rep->findings.nomem ? omp_ext_err_nomem : omp_ext_success;
}

void htp_check_report_free(struct htp_check_report *rep)
{
  unsigned r;
  htp_findings_free(&rep->findings);
  for (r = 0; r < OMP_EXT_NRUNTIMES; r++)
    if (rep->predicted[r])
      omp_ext_prediction_clear(&rep->pred[r]);
}

int htp_check_predict(const omp_ext_topo_t *topo, const char *value, omp_ext_syntax_t syntax,
                      struct htp_check_report *rep)
{
  unsigned r;
  for (r = 0; r < OMP_EXT_NRUNTIMES; r++) {
    int err;
    if (!omp_ext_runtime_reads((omp_ext_runtime_t)r, syntax))
      continue; /* it does not read the variable (libgomp: KMP_AFFINITY) */
    err = omp_ext_places_predict(topo, value, syntax, (omp_ext_runtime_t)r, &rep->pred[r]);
    if (err == omp_ext_err_nomem)
      return err;
    rep->predicted[r] = err == 0;
    rep->nchanged += err == 0 && rep->pred[r].changed;
  }
  return omp_ext_success;
}
