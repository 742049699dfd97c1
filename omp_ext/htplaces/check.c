/*
 * htplaces check: parse an OMP_PLACES value (or a GOMP_CPU_AFFINITY list, or
 * a KMP_AFFINITY proclist), expand it against the topology, draw it, and
 * report what the two OpenMP runtimes would do differently or wrongly with
 * it.  Exit 0 clean, 1 problems found, 2 unparsable.
 *
 * Runtime behaviours reported here were read in the runtimes' sources:
 * libgomp env.c (parse_places_var, parse_one_place, parse_affinity) and
 * config/linux/affinity.c (gomp_affinity_add_cpus, gomp_affinity_remove_cpu,
 * gomp_affinity_finalize_place_list), config/linux/proc.c (gomp_cpuset_size);
 * libomp kmp_settings.cpp (__kmp_stg_parse_places, __kmp_parse_place_list)
 * and kmp_affinity.cpp (__kmp_affinity_process_placelist,
 * __kmp_affinity_process_proclist).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htplaces.h"

enum { OPT_AS = 256, OPT_EXPAND };

static const char *const syntax_var[] = {"OMP_PLACES", "GOMP_CPU_AFFINITY", "KMP_AFFINITY"};

struct report {
  const omp_ext_topo_t *topo;
  const omp_ext_placelist_t *list;
  unsigned problems;
  int spn_match; /* the list is exactly htplaces spn N */
};

static void problem(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct report *r, const char *fmt, ...)
{
  va_list ap;
  if (r->problems++ == 0)
    printf("problems:\n");
  fputs("  - ", stdout);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
}

/* "0-3,8" for a cpuset; a static buffer per call site is not needed: the
 * caller frees. */
static char *cpulist(hwloc_const_bitmap_t set)
{
  char *s = NULL;
  if (hwloc_bitmap_list_asprintf(&s, set) < 0)
    return NULL;
  return s;
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

static void report_notes(struct report *r)
{
  const omp_ext_placelist_t *l = r->list;
  unsigned i;
  for (i = 0; i < l->nnotes; i++) {
    const omp_ext_places_note_t *n = &l->notes[i];
    size_t at = n->pos + 1;
    switch (n->kind) {
    case omp_ext_note_exclude_resource:
      problem(r, "'!' before a number inside braces (character %zu): OpenMP 5.2 allows it and "
              "libgomp accepts it, but libomp rejects the whole OMP_PLACES value as a syntax "
              "error, warns and falls back to OMP_PLACES=cores", at);
      break;
    case omp_ext_note_exclude_missing:
      problem(r, "'!%lu' (character %zu) excludes a number that is not in its place: libgomp "
              "rejects the whole variable (\"Logical CPU %lu to be removed is not in the set\")",
              n->value, at, n->value);
      break;
    case omp_ext_note_exclude_place:
      problem(r, "'!' before a place (character %zu): libgomp removes an identical earlier "
              "place; libomp instead makes a place of every other CPU (the complement)", at);
      break;
    case omp_ext_note_exclude_place_missing:
      problem(r, "the place excluded at character %zu is not in the list: libgomp rejects the "
              "whole variable (\"Trying to remove a non-existing place from list of places\")",
              at);
      break;
    case omp_ext_note_radix:
      problem(r, "the number at character %zu has a leading 0 or 0x: libgomp reads it as %lu "
              "(strtoul base 0: octal or hex), libomp reads decimal digits", at, n->value);
      break;
    case omp_ext_note_count_capped:
      problem(r, "%s(%lu) asks for more places than the %u this topology has: both runtimes use "
              "%u", omp_ext_abstract_name(l->abstract), n->value, l->nplaces, l->nplaces);
      break;
    case omp_ext_note_no_cache:
      problem(r, "no cache objects in this topology: ll_caches made one place per package "
              "(libomp's fallback); libgomp reads sysfs caches and fails without them");
      break;
    case omp_ext_note_empty_place:
      problem(r, "the place at character %zu is empty after its exclusions: both runtimes drop "
              "it", at);
      break;
    }
  }
  if (l->dropped_notes)
    problem(r, "%u more remarks of the kinds above", l->dropped_notes);
}

/* libgomp's cpuset size in bits: CPU_ALLOC_SIZE(last allowed CPU + 1)
 * (config/linux/proc.c), i.e. a whole number of 64-bit words. */
static unsigned gomp_cpuset_bits(const omp_ext_topo_t *topo)
{
  int last = hwloc_bitmap_last(omp_ext_topo_allowed(topo));
  return (unsigned)((last + 1 + 63) / 64 * 64);
}

static unsigned places_left(const omp_ext_placelist_t *l, hwloc_const_bitmap_t allowed)
{
  unsigned i, n = 0;
  for (i = 0; i < l->nplaces; i++)
    n += hwloc_bitmap_intersects(l->places[i], allowed) != 0;
  return n;
}

static void report_runtime_out_of_range(struct report *r, hwloc_const_bitmap_t bad)
{
  const omp_ext_placelist_t *l = r->list;
  unsigned bits = gomp_cpuset_bits(r->topo);
  int last = hwloc_bitmap_last(bad);
  unsigned left = places_left(l, omp_ext_topo_allowed(r->topo));
  if (l->syntax == omp_ext_syntax_omp) {
    if (last >= 0 && (unsigned)last >= bits)
      problem(r, "libgomp: CPU %d is beyond its %u-CPU cpuset: it rejects the whole OMP_PLACES "
              "(\"Logical CPU number %d out of range\"); threads then stay unbound unless "
              "OMP_PROC_BIND is set (then: one place per allowed CPU)", last, bits, last);
    else
      problem(r, "libgomp: removes those CPUs from their places and drops places left empty: "
              "%u of %u places remain", left, l->nplaces);
    problem(r, "libomp: ignores those CPUs (\"OMP: Warning #124: Ignoring invalid OS proc ID N\"), "
            "stops a {n:len:stride} interval at its first invalid CPU, and drops places left "
            "empty");
  } else if (l->syntax == omp_ext_syntax_gomp) {
    if (last >= 0 && (unsigned)last >= bits)
      problem(r, "libgomp: skips CPUs from %u up (beyond its cpuset) without a message", bits);
    problem(r, "libomp (GOMP_CPU_AFFINITY read as an explicit proclist): ignores those CPUs "
            "with a warning");
  } else {
    problem(r, "libomp: ignores those CPUs with a warning (\"Ignoring invalid OS proc ID\") "
            "and drops places left empty: %u of %u places remain", left, l->nplaces);
  }
}

static void report_outside(struct report *r)
{
  hwloc_topology_t hw = omp_ext_topo_hwloc(r->topo);
  hwloc_bitmap_t used = all_numbers(r->list), outside = hwloc_bitmap_alloc(),
                 disallowed = hwloc_bitmap_alloc();
  char *a = NULL, *b = NULL;
  if (!used || !outside || !disallowed)
    goto out;
  hwloc_bitmap_andnot(outside, used, hwloc_topology_get_complete_cpuset(hw));
  hwloc_bitmap_andnot(disallowed, used, omp_ext_topo_allowed(r->topo));
  hwloc_bitmap_andnot(disallowed, disallowed, outside);
  if (!hwloc_bitmap_iszero(outside)) {
    a = cpulist(outside);
    b = cpulist(hwloc_topology_get_complete_cpuset(hw));
    problem(r, "%s %s %s outside the machine (its CPUs: %s)",
            hwloc_bitmap_weight(outside) > 1 ? "CPUs" : "CPU", a ? a : "?",
            hwloc_bitmap_weight(outside) > 1 ? "are" : "is",
            b ? b : "?");
  }
  if (!hwloc_bitmap_iszero(disallowed)) {
    free(a);
    free(b);
    a = cpulist(disallowed);
    b = cpulist(omp_ext_topo_allowed(r->topo));
    problem(r, "%s %s %s not in the allowed set %s (offline, cgroup cpuset or taskset)",
            hwloc_bitmap_weight(disallowed) > 1 ? "CPUs" : "CPU", a ? a : "?",
            hwloc_bitmap_weight(disallowed) > 1 ? "are" : "is",
            b ? b : "?");
  }
  hwloc_bitmap_or(outside, outside, disallowed);
  if (!hwloc_bitmap_iszero(outside))
    report_runtime_out_of_range(r, outside);
out:
  free(a);
  free(b);
  hwloc_bitmap_free(used);
  hwloc_bitmap_free(outside);
  hwloc_bitmap_free(disallowed);
}

static void report_duplicates(struct report *r)
{
  const omp_ext_placelist_t *l = r->list;
  hwloc_bitmap_t seen = hwloc_bitmap_alloc(), dup = hwloc_bitmap_alloc();
  unsigned i, shown = 0, cpu;
  if (!seen || !dup)
    goto out;
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
    char buf[96];
    size_t len = 0;
    unsigned n = 0;
    if (shown++ == 8) {
      problem(r, "... and %d more PUs in several places", hwloc_bitmap_weight(dup) - 8);
      break;
    }
    for (i = 0; i < l->nplaces && len + 16 < sizeof(buf); i++)
      if (hwloc_bitmap_isset(l->places[i], cpu))
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u", n++ ? ", " : "", i);
    problem(r, "PU %u is in several places (%s): threads bound to them share one PU", cpu, buf);
  }
  hwloc_bitmap_foreach_end();
out:
  hwloc_bitmap_free(seen);
  hwloc_bitmap_free(dup);
}

/* Cores, packages and kinds a place's allowed PUs belong to. */
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

static void report_spans(struct report *r)
{
  const omp_ext_placelist_t *l = r->list;
  unsigned i, cores, pkgs, kinds, shown = 0;
  for (i = 0; i < l->nplaces && shown < 8; i++) {
    char *s = cpulist(l->places[i]);
    place_span(r->topo, l->places[i], &cores, &pkgs, &kinds);
    if (l->abstract == omp_ext_abstract_none && pkgs > 1) {
      problem(r, "place %u {%s} spans packages: its threads share no cache", i, s ? s : "?");
      shown++;
    } else if (l->abstract == omp_ext_abstract_none && cores > 1) {
      problem(r, "place %u {%s} spans %u cores, not SMT siblings of one core (see the "
              "picture for which PUs share a core)", i, s ? s : "?", cores);
      shown++;
    }
    if (kinds > 1) {
      problem(r, "place %u {%s} mixes CPU kinds: a thread there runs at either speed", i,
              s ? s : "?");
      shown++;
    }
    free(s);
  }
}

/* Does the list use a second PU of a core while some core has none yet? */
static void report_siblings_first(struct report *r)
{
  const omp_ext_placelist_t *l = r->list;
  const omp_ext_topo_t *topo = r->topo;
  unsigned ncores = omp_ext_topo_ncores(topo), used = 0, i, j, maxcore = 0;
  char *busy;
  for (j = 0; j < omp_ext_topo_npus(topo); j++)
    if (omp_ext_topo_pu(topo, j)->core >= maxcore)
      maxcore = omp_ext_topo_pu(topo, j)->core + 1;
  if (!(busy = calloc(maxcore, 1)))
    return;
  for (i = 0; i < l->nplaces && used < ncores; i++) {
    unsigned fresh = 0, again = (unsigned)-1;
    for (j = 0; j < omp_ext_topo_npus(topo); j++) {
      const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, j);
      if (!hwloc_bitmap_isset(l->places[i], pu->os_index))
        continue;
      if (busy[pu->core])
        again = pu->os_index;
      else
        fresh = 1;
    }
    if (!fresh && again != (unsigned)-1) {
      if (r->spn_match)
        printf("note: place %u uses a second PU of a busy core while %u of %u cores have no "
               "thread yet: that is the spn policy's design (best speed-up per watt per "
               "core, paper §2.2)\n", i, ncores - used, ncores);
      else
        problem(r, "place %u (PU %u) is an SMT sibling of an earlier place while %u of %u "
                "cores have no thread yet: the first %u threads would share cores; for "
                "speed, fill cores first (htplaces speedup %u)", i, again, ncores - used,
                ncores, i + 1, l->nplaces < omp_ext_topo_npus(topo) ? l->nplaces :
                omp_ext_topo_npus(topo));
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

static void print_places(const omp_ext_placelist_t *l)
{
  unsigned i;
  printf("place  PUs (OS indexes)            from\n");
  for (i = 0; i < l->nplaces; i++) {
    char *s = cpulist(l->places[i]), *braced = NULL;
    if (asprintf(&braced, "{%s}", s ? s : "?") < 0)
      braced = NULL;
    if (l->abstract != omp_ext_abstract_none)
      printf("%5u  %-27s %s\n", i, braced ? braced : "?", omp_ext_abstract_name(l->abstract));
    else
      printf("%5u  %-27s character %zu\n", i, braced ? braced : "?", l->pos[i] + 1);
    free(braced);
    free(s);
  }
}

/* One line per core: each PU with the places that contain it. */
static void print_picture(const omp_ext_topo_t *topo, const omp_ext_placelist_t *l)
{
  unsigned npus = omp_ext_topo_npus(topo), i, k;
  long last_pkg = -1, last_core = -1;
  for (i = 0; i < npus; i++) {
    const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i);
    char tag[32] = "-";
    size_t len = 0;
    for (k = 0; k < l->nplaces && len + 12 < sizeof(tag); k++)
      if (hwloc_bitmap_isset(l->places[k], pu->os_index))
        len += (size_t)snprintf(tag + len, sizeof(tag) - len, "%sp%u", len ? "+" : "", k);
    if ((long)pu->package != last_pkg) {
      printf("%sPackage L#%u\n", last_pkg >= 0 ? "\n" : "", pu->package);
      last_pkg = pu->package;
      last_core = -1;
    }
    if ((long)pu->core != last_core) {
      printf("%s  Core L#%-3u", last_core >= 0 ? "\n" : "", pu->core);
      if (omp_ext_topo_nkinds(topo) > 1)
        printf(" kind %u", pu->kind);
      last_core = pu->core;
    }
    printf("  PU P#%-4u %-8s", pu->os_index, tag);
  }
  putchar('\n');
}

static void print_matches(const omp_ext_placelist_t *l, const int *matched, unsigned count)
{
  unsigned p;
  if (count == 0) {
    printf("omp_ext policy: none matches this list\n");
    return;
  }
  for (p = 0; p < OMP_EXT_NPOLICIES; p++)
    if (matched[p])
      printf("omp_ext policy: matches 'htplaces %s %u'\n",
             omp_ext_policy_name((omp_ht_policy_t)p), l->nplaces);
}

static int full_report(const omp_ext_topo_t *topo, const omp_ext_placelist_t *l, const char *text)
{
  struct report r = {topo, l, 0, 0};
  int matched[OMP_EXT_NPOLICIES];
  unsigned count = match_policies(topo, l, matched);
  r.spn_match = matched[omp_ht_policy_spn];
  printf("%s=%s\n%u places on %s (%u allowed PUs, %u cores)\n", syntax_var[l->syntax], text,
         l->nplaces, omp_ext_topo_source(topo), omp_ext_topo_npus(topo),
         omp_ext_topo_ncores(topo));
  print_places(l);
  print_picture(topo, l);
  report_notes(&r);
  if (l->nplaces) {
    report_outside(&r);
    report_duplicates(&r);
    report_spans(&r);
    report_siblings_first(&r);
  }
  print_matches(l, matched, count);
  if (r.problems == 0)
    printf("no problems found\n");
  if (fflush(stdout) != 0)
    return htp_error(HTP_EXIT_FAIL, "cannot write output");
  return r.problems ? HTP_EXIT_FAIL : HTP_EXIT_OK;
}

static int parse_as(const char *arg, omp_ext_syntax_t *syntax)
{
  if (strcmp(arg, "omp") == 0)
    *syntax = omp_ext_syntax_omp;
  else if (strcmp(arg, "gomp") == 0)
    *syntax = omp_ext_syntax_gomp;
  else if (strcmp(arg, "kmp") == 0)
    *syntax = omp_ext_syntax_kmp;
  else
    return htp_error(HTP_EXIT_USAGE, "unknown --as '%s'; allowed: omp (OMP_PLACES), gomp "
                     "(GOMP_CPU_AFFINITY), kmp (KMP_AFFINITY proclist)", arg);
  return HTP_EXIT_OK;
}

int htp_cmd_check(struct htp_ctx *ctx, int argc, char **argv)
{
  static const struct option longopts[] = {
    HTP_COMMON_LONGOPTS, {"as", required_argument, NULL, OPT_AS},
    {"expand", no_argument, NULL, OPT_EXPAND}, {0}};
  omp_ext_syntax_t syntax = omp_ext_syntax_omp;
  omp_ext_placelist_t *list = NULL;
  omp_ext_parse_error_t perr = {0, NULL};
  omp_ext_topo_t *topo;
  int c, status = HTP_EXIT_OK, expand = 0, err;
  const char *value;
  char *text;

  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
    if (htp_common_option(ctx, c, optarg, optopt, argv))
      continue;
    if (c == OPT_EXPAND)
      expand = 1;
    else if (c == OPT_AS && (status = parse_as(optarg, &syntax)) != 0)
      return status;
  }
  if ((status = htp_no_format(ctx, "check")) != 0)
    return status;
  if (optind + 1 < argc)
    return htp_error(HTP_EXIT_USAGE, "unexpected argument '%s'; quote the value: "
                     "htplaces check '%s'", argv[optind + 1], argv[optind]);
  /* No PLACES: the variable's value in the environment. */
  value = optind < argc ? argv[optind] : getenv(syntax_var[syntax]);
  if (!value)
    return htp_error(HTP_EXIT_USAGE, "missing PLACES and %s is not set; usage: htplaces check "
                     "[--as omp|gomp|kmp] [--expand] [PLACES], e.g. '{0:4},{4:4}' or 'cores(4)'",
                     syntax_var[syntax]);
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  err = omp_ext_places_parse(topo, value, syntax, &list, &perr);
  if (err == omp_ext_err_parse)
    return htp_error(HTP_EXIT_USAGE, "cannot parse %s value '%s' at character %zu: %s",
                     syntax_var[syntax], value, perr.pos + 1, perr.what);
  if (err)
    return htp_error(HTP_EXIT_FAIL, "%s", omp_ext_strerror(err));
  if (expand) {
    if (omp_ext_placelist_canonical(list, &text) != 0) {
      status = htp_error(HTP_EXIT_FAIL, "out of memory");
    } else {
      status = htp_print(text);
      free(text);
    }
  } else {
    status = full_report(topo, list, value);
  }
  omp_ext_placelist_destroy(list);
  return status;
}
