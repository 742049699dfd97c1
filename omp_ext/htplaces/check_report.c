/*
 * htplaces check, the printers: text (the place table, the picture,
 * "problems:" with a line per finding, the policy matches) and JSON
 * (-f json).  The command is check.c, the analysis check_analysis.c.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "htplaces.h"

/* The sentence of a finding about the list's text (its syntax and
 * abstract names), as each runtime reads it; 0 if f is of another kind. */
static int syntax_text(FILE *out, const struct htp_finding *f)
{
  unsigned long at = f->index;
  switch (f->kind) {
  case htp_finding_exclude_resource:
    fprintf(out, "'!' before a number inside braces (character %lu): OpenMP 5.2 allows it and "
            "libgomp accepts it, but libomp rejects the whole OMP_PLACES value as a syntax "
            "error, warns and falls back to OMP_PLACES=cores", at);
    break;
  case htp_finding_exclude_missing:
    fprintf(out, "'!%llu' (character %lu) excludes a number that is not in its place: libgomp "
            "rejects the whole variable (\"Logical CPU %llu to be removed is not in the set\")",
            htp_finding_uint(f, "cpu"), at, htp_finding_uint(f, "cpu"));
    break;
  case htp_finding_exclude_place:
    fprintf(out, "'!' before a place (character %lu): libgomp removes an identical earlier "
            "place; libomp instead makes a place of every other CPU (the complement)", at);
    break;
  case htp_finding_exclude_place_missing:
    fprintf(out, "the place excluded at character %lu is not in the list: libgomp rejects the "
            "whole variable (\"Trying to remove a non-existing place from list of places\")",
            at);
    break;
  case htp_finding_radix:
    fprintf(out, "the number at character %lu has a leading 0 or 0x: libgomp reads it as %llu "
            "(strtoul base 0: octal or hex), libomp reads decimal digits", at,
            htp_finding_uint(f, "value"));
    break;
  case htp_finding_count_capped:
    fprintf(out, "%s(%llu) asks for more places than the %llu this topology has: both runtimes "
            "use %llu", htp_finding_text(f, "abstract"), htp_finding_uint(f, "requested"),
            htp_finding_uint(f, "places"), htp_finding_uint(f, "places"));
    break;
  case htp_finding_no_cache:
    fputs("no cache objects in this topology: ll_caches made one place per package "
          "(libomp's fallback); libgomp reads sysfs caches and fails without them", out);
    break;
  case htp_finding_empty_place:
    fprintf(out, "the place at character %lu is empty after its exclusions: both runtimes drop "
            "it", at);
    break;
  case htp_finding_more_remarks:
    fprintf(out, "%llu more remarks of the kinds above", htp_finding_uint(f, "count"));
    break;
  default:
    return 0;
  }
  return 1;
}

/* ... of a finding about CPUs outside the machine or the allowed set,
 * and what each runtime does with them; 0 if f is of another kind. */
static int cpus_text(FILE *out, const struct htp_finding *f)
{
  char *a = NULL, *b = NULL;
  switch (f->kind) {
  case htp_finding_outside_machine:
  case htp_finding_not_allowed: {
    hwloc_const_bitmap_t cpus = htp_finding_set(f, "cpus");
    int many = cpus && hwloc_bitmap_weight(cpus) > 1;
    a = htp_cpuset_text(cpus);
    if (f->kind == htp_finding_outside_machine) {
      b = htp_cpuset_text(htp_finding_set(f, "machine"));
      fprintf(out, "%s %s %s outside the machine (its CPUs: %s)", many ? "CPUs" : "CPU",
              a ? a : "?", many ? "are" : "is", b ? b : "?");
    } else {
      b = htp_cpuset_text(htp_finding_set(f, "allowed"));
      fprintf(out, "%s %s %s not in the allowed set %s (offline, cgroup cpuset or taskset)",
              many ? "CPUs" : "CPU", a ? a : "?", many ? "are" : "is", b ? b : "?");
    }
    break;
  }
  case htp_finding_libgomp_rejects_places:
    fprintf(out, "libgomp: CPU %llu is beyond its %llu-CPU cpuset: it rejects the whole "
            "OMP_PLACES (\"Logical CPU number %llu out of range\"); threads then stay unbound "
            "unless OMP_PROC_BIND is set (then: one place per allowed CPU)",
            htp_finding_uint(f, "cpu"), htp_finding_uint(f, "cpuset_bits"),
            htp_finding_uint(f, "cpu"));
    break;
  case htp_finding_libgomp_drops_cpus:
    fprintf(out, "libgomp: removes those CPUs from their places and drops places left empty: "
            "%llu of %llu places remain", htp_finding_uint(f, "places_left"),
            htp_finding_uint(f, "places"));
    break;
  case htp_finding_libomp_ignores_cpus:
    fputs("libomp: ignores those CPUs (\"OMP: Warning #124: Ignoring invalid OS proc ID N\"), "
          "stops a {n:len:stride} interval at its first invalid CPU, and drops places left "
          "empty", out);
    break;
  case htp_finding_libgomp_skips_cpus:
    fprintf(out, "libgomp: skips CPUs from %llu up (beyond its cpuset) without a message",
            htp_finding_uint(f, "cpuset_bits"));
    break;
  case htp_finding_libomp_ignores_affinity_cpus:
    fputs("libomp (GOMP_CPU_AFFINITY read as an explicit proclist): ignores those CPUs "
          "with a warning", out);
    break;
  case htp_finding_libomp_drops_places:
    fprintf(out, "libomp: ignores those CPUs with a warning (\"Ignoring invalid OS proc ID\") "
            "and drops places left empty: %llu of %llu places remain",
            htp_finding_uint(f, "places_left"), htp_finding_uint(f, "places"));
    break;
  default:
    return 0;
  }
  free(a);
  free(b);
  return 1;
}

/* ... of a finding about the places' shape (shared PUs, places spanning
 * packages, cores or CPU kinds, the order of SMT siblings); 0 if f is of
 * another kind. */
static int shape_text(FILE *out, const struct htp_finding *f)
{
  unsigned long at = f->index;
  char *a = NULL;
  switch (f->kind) {
  case htp_finding_shared_pu: {
    /* The places as "1, 5": at most what fits a line of 96 bytes. */
    hwloc_const_bitmap_t where = htp_finding_set(f, "places");
    char buf[96] = "";
    size_t len = 0;
    unsigned i, n = 0;
    if (where) {
      hwloc_bitmap_foreach_begin(i, where) {
        if (len + 16 >= sizeof(buf))
          break;
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u", n++ ? ", " : "", i);
      }
      hwloc_bitmap_foreach_end();
    }
    fprintf(out, "PU %lu is in several places (%s): threads bound to them share one PU", at,
            buf);
    break;
  }
  case htp_finding_more_shared_pus:
    fprintf(out, "... and %llu more PUs in several places", htp_finding_uint(f, "count"));
    break;
  case htp_finding_spans_packages:
    a = htp_cpuset_text(htp_finding_set(f, "cpus"));
    fprintf(out, "place %lu {%s} spans packages: its threads share no cache", at, a ? a : "?");
    break;
  case htp_finding_spans_cores:
    a = htp_cpuset_text(htp_finding_set(f, "cpus"));
    fprintf(out, "place %lu {%s} spans %llu cores, not SMT siblings of one core (see the "
            "picture for which PUs share a core)", at, a ? a : "?",
            htp_finding_uint(f, "cores"));
    break;
  case htp_finding_mixes_kinds:
    a = htp_cpuset_text(htp_finding_set(f, "cpus"));
    fprintf(out, "place %lu {%s} mixes CPU kinds: a thread there runs at either speed", at,
            a ? a : "?");
    break;
  case htp_finding_siblings_first:
    fprintf(out, "place %lu (PU %llu) is an SMT sibling of an earlier place while %llu of %llu "
            "cores have no thread yet: the first %llu threads would share cores; for "
            "speed, fill cores first (htplaces speedup %llu)", at, htp_finding_uint(f, "pu"),
            htp_finding_uint(f, "idle_cores"), htp_finding_uint(f, "cores"),
            htp_finding_uint(f, "threads"), htp_finding_uint(f, "suggest"));
    break;
  case htp_finding_spn_siblings:
    fprintf(out, "place %lu uses a second PU of a busy core while %llu of %llu cores have no "
            "thread yet: that is the spn policy's design (best speed-up per watt per "
            "core, paper §2.2)", at, htp_finding_uint(f, "idle_cores"),
            htp_finding_uint(f, "cores"));
    break;
  default:
    return 0;
  }
  free(a);
  return 1;
}

/* One problem's sentence (no prefix, no newline). */
static void problem_text(FILE *out, const struct htp_finding *f)
{
  if (!syntax_text(out, f) && !cpus_text(out, f) && !shape_text(out, f))
    fputs(htp_finding_name(f->kind), out);
}

static void print_places(FILE *out, const omp_ext_placelist_t *l)
{
  unsigned i;
  fprintf(out, "place  PUs (OS indexes)            from\n");
  for (i = 0; i < l->nplaces; i++) {
    char *s = htp_cpuset_text(l->places[i]), *braced = NULL;
    if (asprintf(&braced, "{%s}", s ? s : "?") < 0)
      braced = NULL;
    if (l->abstract != omp_ext_abstract_none)
      fprintf(out, "%5u  %-27s %s\n", i, braced ? braced : "?",
              omp_ext_abstract_name(l->abstract));
    else
      fprintf(out, "%5u  %-27s character %zu\n", i, braced ? braced : "?", l->pos[i] + 1);
    free(braced);
    free(s);
  }
}

/* One line per core: each PU with the places that contain it. */
static void print_picture(FILE *out, const omp_ext_topo_t *topo, const omp_ext_placelist_t *l)
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
      fprintf(out, "%s%s L#%u\n", last_pkg >= 0 ? "\n" : "", htp_package_label(topo),
              pu->package);
      last_pkg = pu->package;
      last_core = -1;
    }
    if ((long)pu->core != last_core) {
      fprintf(out, "%s  Core L#%-3u", last_core >= 0 ? "\n" : "", pu->core);
      if (omp_ext_topo_nkinds(topo) > 1)
        fprintf(out, " kind %u", pu->kind);
      last_core = pu->core;
    }
    fprintf(out, "  PU P#%-4u %-8s", pu->os_index, tag);
  }
  fputc('\n', out);
}

void htp_check_print_text(FILE *out, const omp_ext_topo_t *topo, const omp_ext_placelist_t *l,
                          const char *value, const struct htp_check_report *rep)
{
  unsigned i, p, problems = 0;
  fprintf(out, "%s=%s\n%u place%s on %s (%u allowed PU%s, %u core%s)\n",
          htp_check_variable(l->syntax), value, l->nplaces, l->nplaces == 1 ? "" : "s",
          omp_ext_topo_source(topo), omp_ext_topo_npus(topo),
          omp_ext_topo_npus(topo) == 1 ? "" : "s", omp_ext_topo_ncores(topo),
          omp_ext_topo_ncores(topo) == 1 ? "" : "s");
  print_places(out, l);
  print_picture(out, topo, l);
  for (i = 0; i < rep->findings.n; i++) {
    const struct htp_finding *f = &rep->findings.v[i];
    if (htp_finding_severity(f->kind) == htp_severity_note) {
      fputs("note: ", out);
    } else {
      if (problems++ == 0)
        fputs("problems:\n", out);
      fputs("  - ", out);
    }
    problem_text(out, f);
    fputc('\n', out);
  }
  for (i = 0; i < OMP_EXT_NRUNTIMES; i++) /* what each runtime does, when not as written */
    if (rep->predicted[i] && rep->pred[i].changed) {
      if (problems++ == 0)
        fputs("problems:\n", out);
      fputs("  - ", out);
      htp_print_prediction(out, &rep->pred[i]);
      fputc('\n', out);
    }
  if (rep->nmatched == 0)
    fprintf(out, "omp_ext policy: none matches this list\n");
  for (p = 0; p < OMP_EXT_NPOLICIES; p++)
    if (rep->matched[p])
      fprintf(out, "omp_ext policy: matches 'htplaces %s %u'\n",
              omp_ext_policy_name((omp_ht_policy_t)p), l->nplaces);
  if (problems == 0)
    fprintf(out, "no problems found\n");
}

void htp_check_print_json(FILE *out, const omp_ext_topo_t *topo, const omp_ext_placelist_t *l,
                          const char *value, const struct htp_check_report *rep)
{
  unsigned i, p, n = 0, problems = htp_findings_count(&rep->findings);
  fputs("{\n  \"command\": \"check\",\n  \"variable\": ", out);
  omp_ext_json_string(out, htp_check_variable(l->syntax));
  fputs(",\n  \"value\": ", out);
  omp_ext_json_string(out, value);
  fputs(",\n  \"topology\": ", out);
  omp_ext_json_string(out, omp_ext_topo_source(topo));
  fprintf(out, ",\n  \"allowed_pus\": %u,\n  \"cores\": %u,\n  \"places\": [",
          omp_ext_topo_npus(topo), omp_ext_topo_ncores(topo));
  for (i = 0; i < l->nplaces; i++) {
    fprintf(out, "%s\n    {\"index\": %u, \"pus\": ", i ? "," : "", i);
    htp_json_cpuset(out, l->places[i]);
    if (l->abstract != omp_ext_abstract_none) {
      fputs(", \"from\": {\"abstract\": ", out);
      omp_ext_json_string(out, omp_ext_abstract_name(l->abstract));
      fputs("}}", out);
    } else {
      fprintf(out, ", \"from\": {\"character\": %zu}}", l->pos[i] + 1);
    }
  }
  fprintf(out, "%s],\n  \"findings\": ", l->nplaces ? "\n  " : "");
  htp_json_findings(out, &rep->findings, "  ");
  fputs(",\n  \"matches\": [", out);
  for (p = 0; p < OMP_EXT_NPOLICIES; p++)
    if (rep->matched[p]) {
      fputs(n++ ? ", " : "", out);
      omp_ext_json_string(out, omp_ext_policy_name((omp_ht_policy_t)p));
    }
  fputs("],\n  \"runtimes\": [", out);
  for (i = 0, n = 0; i < OMP_EXT_NRUNTIMES; i++)
    if (rep->predicted[i]) {
      char *canon = NULL;
      const omp_ext_prediction_t *pr = &rep->pred[i];
      if (pr->list->nplaces && omp_ext_placelist_canonical(pr->list, &canon) != 0)
        canon = NULL;
      fprintf(out, "%s{\"runtime\": \"%s\", \"changed\": %s, \"places\": ", n++ ? ", " : "",
              omp_ext_runtime_name(pr->runtime), pr->changed ? "true" : "false");
      omp_ext_json_string(out, canon ? canon : "");
      fputs(", \"why\": ", out);
      if (pr->why)
        omp_ext_json_string(out, pr->why);
      else
        fputs("null", out);
      fputc('}', out);
      free(canon);
    }
  problems += rep->nchanged;
  fprintf(out, "],\n  \"problems\": %u,\n  \"verdict\": \"%s\"\n}\n", problems,
          problems ? "problems" : "clean");
}
