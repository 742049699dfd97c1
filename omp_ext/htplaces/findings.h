/*
 * Findings: what check and doctor found, as data -- a kind (one list below,
 * each with a stable name), a position (character, place, PU, variable or
 * none), a section (doctor) and named values (numbers, cpusets, texts).
 * The analysis functions (check_analysis.c, doctor_analysis.c, env.c)
 * fill a findings list and print nothing; the printers (text: the
 * command's report, JSON: -f json) read it.  Tests call the analysis
 * functions and assert the kinds and values.
 */
#ifndef HTPLACES_FINDINGS_H
#define HTPLACES_FINDINGS_H

#include <stdio.h>

#include <hwloc.h>

/* Severity: problem (check), limit, conflict (doctor) count towards the
 * verdict and the exit status 1; a note does not. */
#define HTP_SEVERITIES(X) X(problem) X(limit) X(conflict) X(note)

/* Every kind of finding: X(name, severity).  The name is the stable JSON
 * "kind"; new kinds go at the end of their group. */
#define HTP_FINDING_KINDS(X)                                                                   \
  /* check: remarks of the place-list parser (omp_ext_places_note_t) */                      \
  X(exclude_resource, problem)                                                                \
  X(exclude_missing, problem)                                                                 \
  X(exclude_place, problem)                                                                   \
  X(exclude_place_missing, problem)                                                           \
  X(radix, problem)                                                                           \
  X(count_capped, problem)                                                                    \
  X(no_cache, problem)                                                                        \
  X(empty_place, problem)                                                                     \
  X(more_remarks, problem)                                                                    \
  /* check: the list on the topology */                                                      \
  X(outside_machine, problem)                                                                 \
  X(not_allowed, problem)                                                                     \
  X(libgomp_rejects_places, problem)                                                          \
  X(libgomp_drops_cpus, problem)                                                              \
  X(libomp_ignores_cpus, problem)                                                             \
  X(libgomp_skips_cpus, problem)                                                              \
  X(libomp_ignores_affinity_cpus, problem)                                                    \
  X(libomp_drops_places, problem)                                                             \
  X(shared_pu, problem)                                                                       \
  X(more_shared_pus, problem)                                                                 \
  X(spans_packages, problem)                                                                  \
  X(spans_cores, problem)                                                                     \
  X(mixes_kinds, problem)                                                                     \
  X(siblings_first, problem)                                                                  \
  X(spn_siblings, note)                                                                       \
  /* doctor */                                                                                \
  X(smt_off, limit)                                                                           \
  X(cpus_offline, limit)                                                                      \
  X(affinity_restricted, limit)                                                               \
  X(cgroup_cpuset_restricted, limit)                                                          \
  X(quota_below_cpus, limit)                                                                  \
  X(hybrid_cpu, note)                                                                         \
  X(saturation_failed, limit)                                                                 \
  X(low_parallelism, limit)                                                                   \
  X(threads_unbound, limit)                                                                   \
  /* doctor inside a Slurm step (doctor_slurm.c) */                                         \
  X(slurm_unplaced, conflict)                                                                 \
  X(slurm_places_changed, conflict)                                                           \
  X(slurm_binding_changed, conflict)                                                          \
  /* doctor: the OpenMP variables (env.c) */                                                  \
  X(invalid_list, conflict)                                                                   \
  X(invalid_proc_bind, conflict)                                                              \
  X(kmp_affinity_wins, conflict)                                                              \
  X(gomp_affinity_ignored, conflict)                                                          \
  X(proc_bind_false, conflict)                                                                \
  X(num_threads_invalid, conflict)                                                            \
  X(num_threads_above_pus, conflict)                                                          \
  X(num_threads_above_places, conflict)                                                       \
  X(list_problems, conflict)                                                                  \
  X(ht_policy_invalid, conflict)                                                              \
  X(libomp_fork_places, note)                                                                 \
  X(plan_missing, conflict)                                                                   \
  X(plan_not_file, conflict)                                                                  \
  X(plan_invalid, conflict) \
  X(learn_invalid, conflict) \
  X(learn_ignored, note) \
  X(kmp_affinity_ignored, conflict)

#define HTP_X_KIND(name, severity) htp_finding_##name,
enum htp_finding_kind { HTP_FINDING_KINDS(HTP_X_KIND) htp_finding_nkinds };
#undef HTP_X_KIND
#define HTP_X_SEV(name) htp_severity_##name,
enum htp_severity { HTP_SEVERITIES(HTP_X_SEV) htp_severity_count };
#undef HTP_X_SEV

/* doctor's sections, in report order (check: none). */
#define HTP_SECTIONS(X) X(none) X(smt) X(cpus) X(allowed) X(quota) X(topology) X(slurm) \
  X(environment) X(saturation)
#define HTP_X_SEC(name) htp_section_##name,
enum htp_section { HTP_SECTIONS(HTP_X_SEC) htp_section_count };
#undef HTP_X_SEC

/* Where a finding is: a character of the value (1-based, as printed), a
 * place index, a PU OS index, an environment variable, or nowhere. */
enum htp_position_kind { htp_at_none, htp_at_character, htp_at_place, htp_at_pu, htp_at_variable };

enum htp_value_type {
  htp_value_uint,    /* u */
  htp_value_real,    /* d */
  htp_value_text,    /* s (owned) */
  htp_value_cpuset,  /* set (owned): OS indexes, JSON "0-3,8" */
  htp_value_indexes, /* set (owned): other indexes (places), JSON [0, 3] */
};

struct htp_value {
  const char *name; /* static string: the JSON key */
  enum htp_value_type type;
  union {
    unsigned long long u;
    double d;
    char *s;
    hwloc_bitmap_t set;
  } v;
};

#define HTP_MAX_VALUES 6

struct htp_finding {
  enum htp_finding_kind kind;
  enum htp_section section;
  enum htp_position_kind at;
  unsigned long index;  /* character, place or PU */
  const char *variable; /* htp_at_variable: static name */
  unsigned nvalues;
  struct htp_value values[HTP_MAX_VALUES];
};

struct htp_findings {
  struct htp_finding *v;
  unsigned n, cap;
  int nomem; /* an allocation failed: the list is incomplete */
};

/* The kind's stable name ("shared_pu"), its severity, a severity's name. */
const char *htp_finding_name(enum htp_finding_kind kind);
enum htp_severity htp_finding_severity(enum htp_finding_kind kind);
const char *htp_severity_name(enum htp_severity severity);
const char *htp_section_name(enum htp_section section);

/* Append a finding (no values yet); NULL (and l->nomem) if out of memory.
 * The setters below accept NULL, so an analysis can chain them. */
struct htp_finding *htp_finding_add(struct htp_findings *l, enum htp_finding_kind kind,
                                    enum htp_section section, enum htp_position_kind at,
                                    unsigned long index);
void htp_put_uint(struct htp_findings *l, struct htp_finding *f, const char *name,
                  unsigned long long v);
void htp_put_real(struct htp_findings *l, struct htp_finding *f, const char *name, double v);
void htp_put_text(struct htp_findings *l, struct htp_finding *f, const char *name,
                  const char *v);
/* The set is copied; type htp_value_cpuset or htp_value_indexes. */
void htp_put_set(struct htp_findings *l, struct htp_finding *f, const char *name,
                 enum htp_value_type type, hwloc_const_bitmap_t set);

/* A value by name; NULL if the finding has none of that name. */
const struct htp_value *htp_finding_value(const struct htp_finding *f, const char *name);
unsigned long long htp_finding_uint(const struct htp_finding *f, const char *name); /* 0 */
double htp_finding_real(const struct htp_finding *f, const char *name);             /* 0 */
const char *htp_finding_text(const struct htp_finding *f, const char *name);        /* NULL */
hwloc_const_bitmap_t htp_finding_set(const struct htp_finding *f, const char *name); /* NULL */

/* How many findings count towards the verdict (notes do not); the first
 * finding of KIND (NULL: none). */
unsigned htp_findings_count(const struct htp_findings *l);
const struct htp_finding *htp_findings_find(const struct htp_findings *l,
                                            enum htp_finding_kind kind);

void htp_findings_free(struct htp_findings *l);

/* JSON: a cpuset as "0-3,8"; one finding as {"kind", "severity",
 * "section"?, "position", "values"}; the list as an array (a string:
 * omp_ext_json_string, omp_ext/tools/misc.h). */
void htp_json_cpuset(FILE *out, hwloc_const_bitmap_t set);
void htp_json_finding(FILE *out, const struct htp_finding *f);
void htp_json_findings(FILE *out, const struct htp_findings *l, const char *indent);

#endif /* HTPLACES_FINDINGS_H */
