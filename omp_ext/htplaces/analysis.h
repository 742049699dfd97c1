/*
 * The analyses of htplaces check and doctor: functions that look at a
 * place list, a topology, sysfs and cgroup files and an environment and
 * return findings (findings.h), printing nothing: check_analysis.c,
 * doctor_analysis.c and env.c.  The printers (text and JSON) are in
 * check_report.c and doctor_report.c, the commands in check.c and doctor.c.
 */
#ifndef HTPLACES_ANALYSIS_H
#define HTPLACES_ANALYSIS_H

#include <stdio.h>

#include "findings.h"
#include "omp_ext.h"
#include "private/tools.h" /* the prediction (tools_predict.h): not exported */

/* ---- check ---- */

struct htp_check_report {
  struct htp_findings findings;     /* problems and notes, in report order */
  int matched[OMP_EXT_NPOLICIES];   /* 1: the list is exactly 'htplaces POLICY nplaces' */
  unsigned nmatched;
  /* What each runtime builds (omp_ext_places_predict()), index
   * omp_ext_runtime_t; predicted[r] 0 when it could not be predicted. */
  omp_ext_prediction_t pred[OMP_EXT_NRUNTIMES];
  int predicted[OMP_EXT_NRUNTIMES];
  unsigned nchanged; /* runtimes that do not build the places as written */
};

/* Analyse a parsed place list on topo: the parser's remarks, numbers
 * outside the machine or the allowed set and what libgomp and libomp do
 * with them, PUs in several places, places spanning cores, packages or CPU
 * kinds, SMT siblings used before every core has a thread, and which
 * policies give exactly this list.  Fills *rep (free it with
 * htp_check_report_free).  Returns 0, or omp_ext_err_nomem (rep is then
 * incomplete but can be freed). */
int htp_check_analyze(const omp_ext_topo_t *topo, const omp_ext_placelist_t *l,
                      struct htp_check_report *rep);
void htp_check_report_free(struct htp_check_report *rep);

/* Fill rep's predictions: what libgomp and libomp build from the value
 * (a value beyond omp_ext's limits is not predicted).  0 or
 * omp_ext_err_nomem. */
int htp_check_predict(const omp_ext_topo_t *topo, const char *value, omp_ext_syntax_t syntax,
                      struct htp_check_report *rep);

/* One runtime's answer as a sentence (no newline): "libomp: falls back to
 * one place per core; 2 places: {0},{1} (why)"; check_runtime.c. */
void htp_print_prediction(FILE *out, const omp_ext_prediction_t *pred);

/* env_kmp.c: 1 when libomp 14 ignores part of a KMP_AFFINITY value: the
 * first such item in item (len bytes), the reason in *why (static text:
 * "parameter invalid", "extra trailing characters", "too many integer
 * parameters", "parameter given twice", "explicit without a proclist:
 * affinity none"); 0 when it reads all of it. */
int htp_kmp_affinity_ignored(const char *value, char *item, size_t len, const char **why);

/* check_view.c: how a real runtime sees this machine, where it differs
 * from hwloc's topology (name NULL: no difference, or not looked at: -i,
 * the runtime not installed). */
struct htp_view {
  omp_ext_runtime_t runtime;
  const char *name; /* the abstract name whose places differ */
  char *real;       /* what the runtime built, canonical */
  char *predicted;  /* what the prediction gives on hwloc's topology */
};
/* 1 and *v filled when the runtime's places for threads or cores differ
 * from the prediction's on this machine; 0 otherwise. */
int htp_runtime_view(const omp_ext_topo_t *topo, omp_ext_runtime_t rt, struct htp_view *v);
void htp_view_clear(struct htp_view *v);
/* One "note: ..." line. */
void htp_print_view(FILE *out, const struct htp_view *v);

/* How many places of l keep a CPU of topo's allowed set: the places
 * libgomp and libomp keep after dropping the CPUs they cannot use ("0 of
 * 1 places remain": no usable place). */
unsigned htp_check_places_left(const omp_ext_topo_t *topo, const omp_ext_placelist_t *l);

/* The variable a syntax is read from: OMP_PLACES, GOMP_CPU_AFFINITY,
 * KMP_AFFINITY. */
const char *htp_check_variable(omp_ext_syntax_t syntax);

/* The report of 'htplaces check' on out: text (the list, the picture,
 * "problems:" with one line per finding, the policy matches) or JSON:
 *   {"command": "check", "variable": "OMP_PLACES", "value": TEXT,
 *    "topology": SOURCE, "allowed_pus": N, "cores": N,
 *    "places": [{"index": I, "pus": "0,8", "from": {"character": C} or
 *                {"abstract": "cores"}}, ...],
 *    "findings": [FINDING, ...], "matches": ["spn", ...],
 *    "problems": N, "verdict": "clean" | "problems"}
 * FINDING (findings.h, htp_json_finding):
 *   {"kind": NAME, "severity": "problem" | "limit" | "conflict" | "note",
 *    "section": NAME (doctor only), "position": null | {"character": C} |
 *    {"place": I} | {"pu": OS_INDEX} | {"variable": NAME},
 *    "values": {NAME: number | "text" | "0-3,8" (cpuset) | [0, 2] (indexes)}}
 * Cpusets are hwloc list strings; "problems" counts findings that are not
 * notes; the exit status is 1 exactly when it is not 0. */
void htp_check_print_text(FILE *out, const omp_ext_topo_t *topo, const omp_ext_placelist_t *l,
                          const char *value, const struct htp_check_report *rep);
void htp_check_print_json(FILE *out, const omp_ext_topo_t *topo, const omp_ext_placelist_t *l,
                          const char *value, const struct htp_check_report *rep);

/* ---- doctor: the OpenMP variables ---- */

/* Append the conflicts among the OMP_* / KMP_* / GOMP_* variables of envp
 * (NULL-terminated "NAME=VALUE"; NULL: none) as libgomp and libomp resolve
 * them, section environment, and notes (libomp 14's fork crash with a list
 * of places).  Returns how many conflicts it appended (notes not counted). */
unsigned htp_env_analyze(char *const envp[], const omp_ext_topo_t *topo,
                         struct htp_findings *out);

/* Is the "NAME=VALUE" entry an OpenMP runtime variable (OMP_, KMP_, GOMP_)? */
int htp_is_runtime_var(const char *entry);

/* ---- doctor: inside a Slurm job (doctor_slurm.c) ---- */

/* The Slurm job and step a task runs in, and omp_ext's Slurm plugin's record
 * of what it did for the task (OMP_EXT_SLURM, omp_ext-slurm(8)). */
struct htp_slurm {
  int in_job;                    /* SLURM_JOB_ID is set */
  const char *job, *step, *node; /* SLURM_JOB_ID, SLURM_STEP_ID, SLURMD_NODENAME (in envp) */
  const char *procid, *localid;  /* SLURM_PROCID, SLURM_LOCALID */
  const char *cpus_on_node;      /* SLURM_CPUS_ON_NODE */
  const char *bind_type, *bind_list; /* SLURM_CPU_BIND_TYPE, SLURM_CPU_BIND_LIST */
  const char *plugin;            /* OMP_EXT_SLURM; NULL: the plugin did not act */
  char *policy, *places;         /* the plugin's policy= and places= words */
  hwloc_bitmap_t pus;            /* its pus= word: where it bound the task */
};

/* Fill *s from envp (NULL-terminated "NAME=VALUE") and append, section
 * slurm: slurm_unplaced (OMP_EXT_SLURM=unplaced: the plugin was asked and
 * did not place the task), slurm_places_changed (OMP_PLACES is not the
 * plugin's places=), slurm_binding_changed (\p affinity, the process's
 * binding, is not the plugin's pus=).  Free with htp_slurm_free(). */
void htp_slurm_analyze(char *const envp[], hwloc_const_bitmap_t affinity, struct htp_slurm *s,
                       struct htp_findings *out);
void htp_slurm_free(struct htp_slurm *s);

/* ---- doctor ---- */

struct htp_doctor_input {
  const char *sysfs;      /* root holding devices/system/cpu ("/sys") */
  const char *cgroup;     /* this process's cgroup directory; NULL: none found */
  const char *cpuset_dir; /* v1 cpuset controller directory, if separate; or NULL */
  char *const *envp;      /* the environment to check (NULL: none) */
  /* Saturation test: order NULL skips it (saturation says why). */
  int saturation;               /* 0: --no-saturation */
  omp_ht_policy_t policy;
  const omp_ext_pu_t *order;    /* n PUs, or NULL when the topology is not this machine */
  unsigned n;
  double duration;              /* seconds */
};

enum htp_saturation_state {
  htp_saturation_off,     /* --no-saturation */
  htp_saturation_skipped, /* the topology is not this machine's */
  htp_saturation_failed,  /* threads could not start */
  htp_saturation_ran,
};

struct htp_doctor_report {
  const char *sysfs, *cgroup;             /* as given */
  char *const *envp;                      /* as given */
  char *smt_control, *smt_active;         /* NULL: unknown */
  hwloc_bitmap_t present, online, offline; /* NULL: unknown; offline: present ones */
  hwloc_bitmap_t absent;                  /* possible, not present (NULL: none) */
  hwloc_bitmap_t affinity, cgroup_cpuset; /* NULL: unknown */
  hwloc_bitmap_t usable;                  /* affinity & online & cgroup cpuset */
  double quota;                           /* CPUs; < 0: none */
  char *quota_source;                     /* "cpu.max '150000 100000' in DIR" */
  unsigned hybrid_fast;                   /* PUs of kind 0 when nkinds > 1 */
  /* saturation */
  enum htp_saturation_state saturation;
  omp_ht_policy_t policy;
  unsigned n;
  double duration, wall, total;
  unsigned *pu;                           /* n: OS index of thread i's PU */
  double *cpu;                            /* n: CPU seconds of thread i */
  int *bound;                             /* n: thread i was bound */
  struct htp_slurm slurm;                 /* the Slurm job and step, if any */
  struct htp_findings findings;           /* limits, conflicts, notes by section */
};

/* Look at what limits parallel execution: SMT state, online/offline CPUs,
 * process affinity and cgroup cpuset, the cgroup CPU quota (smallest of
 * the cgroup and its ancestors), the topology, the Slurm step and what
 * omp_ext's Slurm plugin did (htp_slurm_analyze), the OpenMP variables, and
 * the saturation test (runs threads for in->duration seconds when
 * in->order is given).  Fills *rep (free with htp_doctor_report_free).
 * Returns 0, or omp_ext_err_nomem. */
int htp_doctor_analyze(const struct htp_doctor_input *in, const omp_ext_topo_t *topo,
                       struct htp_doctor_report *rep);
void htp_doctor_report_free(struct htp_doctor_report *rep);

/* This process's cgroup directory under ROOT (/sys/fs/cgroup), from
 * /proc/self/cgroup: v2's "0::PATH", else v1's cpu controller; the v1
 * cpuset controller's directory in *cpuset (or NULL).  Malloc'ed; NULL if
 * none. */
char *htp_find_cgroup(const char *root, char **cpuset);

/* The report of 'htplaces doctor': text or JSON:
 *   {"command": "doctor",
 *    "smt": {"control": T|null, "active": T|null, "sysfs": ROOT},
 *    "cpus": {"present": SET|null, "online": SET|null, "offline": SET|null,
 *             "possible_not_present": SET|null},
 *    "allowed": {"affinity": SET|null, "cgroup_cpuset": SET|null, "usable": SET|null},
 *    "quota": {"cgroup": DIR|null, "cpus": X|null, "source": T|null},
 *    "topology": {"source": T, "packages": N, "cores": N, "pus": N, "max_smt": N,
 *                 "kinds": N},
 *    "slurm": null (not in a Slurm job) | {"job": T, "step": T|null, "node": T|null,
 *             "task": T|null, "local_task": T|null, "cpus_on_node": T|null,
 *             "cpu_bind_type": T|null, "cpu_bind_list": T|null, "plugin": T|null},
 *    "environment": [{"name": "OMP_PLACES", "value": T}, ...],
 *    "saturation": {"state": "off" | "skipped" | "failed" | "ran" [, "policy": P,
 *                   "threads": N, "duration_s": X, "wall_s": X, "cpu_s": X,
 *                   "effective_parallelism": X, "per_thread": [{"thread": I,
 *                   "pu": OS_INDEX, "cpu_s": X, "bound": true|false}, ...]]},
 *    "findings": [FINDING, ...], "limits": N, "verdict": "clean" | "limits"} */
void htp_doctor_print_text(FILE *out, const omp_ext_topo_t *topo,
                           const struct htp_doctor_report *rep);
void htp_doctor_print_json(FILE *out, const omp_ext_topo_t *topo,
                           const struct htp_doctor_report *rep);

/* The environment part of doctor's text: the variables set and the
 * conflicts of findings (section environment). */
void htp_env_print_text(FILE *out, char *const envp[], const struct htp_findings *l);

#endif /* HTPLACES_ANALYSIS_H */
