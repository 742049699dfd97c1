/*
 * htplaces doctor, the printers: text (one line per section, each followed
 * by its limits, conflicts and notes) and JSON (-f json).  The command is
 * doctor.c, the analysis doctor_analysis.c and env.c.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "htplaces.h"
#include "private/util.h"

static int weight(hwloc_const_bitmap_t set)
{
  return set ? hwloc_bitmap_weight(set) : 0;
}

#define SHOWN_SIZE (4 * OMP_EXT_QUOTE_MAX + 32)

/* \p v as printed: itself when printable ASCII, else escaped (a value with
 * a newline or a terminal escape must not forge a line of the report). */
static const char *shown(const char *v, char *buf)
{
  const unsigned char *c;
  for (c = (const unsigned char *)v; *c && *c >= ' ' && *c < 0x7f; c++)
    ;
  return *c ? omp_ext_quote(v, buf, SHOWN_SIZE) : v;
}

/* The sentence of a finding about the variables (OMP_*, KMP_*, GOMP_*,
 * OMP_EXT_*) and the runtime's reading of them. */
static void variable_text(FILE *out, const struct htp_finding *f)
{
  char *a = NULL, *b = NULL, buf[SHOWN_SIZE];
  switch (f->kind) {
  case htp_finding_invalid_list: {
    static const char *const fallback[] = {
      ("libgomp warns and ignores it (then uses GOMP_CPU_AFFINITY if set); libomp warns and "
       "uses OMP_PLACES=cores"),
      "libgomp warns and ignores it", "libomp warns and ignores it"};
    int which = strcmp(f->variable, "OMP_PLACES") == 0 ? 0 :
                strcmp(f->variable, "GOMP_CPU_AFFINITY") == 0 ? 1 : 2;
    fprintf(out, "%s%s is invalid at character %llu (%s): %s", f->variable,
            which == 2 ? "'s proclist" : "", htp_finding_uint(f, "character"),
            htp_finding_text(f, "reason"), fallback[which]);
    break;
  }
  case htp_finding_kmp_affinity_ignored:
    fprintf(out, "KMP_AFFINITY: libomp ignores '%s' (%s) and runs with the rest of the value",
            shown(htp_finding_text(f, "item"), buf), htp_finding_text(f, "reason"));
    break;
  case htp_finding_ht_policy_invalid:
    fprintf(out, "OMP_EXT_HT_POLICY='%s' is invalid: libomp_ext ignores it, the policy stays "
            "unset (and says so in an OpenMP program); allowed: POLICY[:N] (%s), or "
            OMP_EXT_AUTO_FORMS, shown(htp_finding_text(f, "value"), buf), htp_policy_names(0));
    break;
  case htp_finding_plan_missing:
    fprintf(out, "OMP_EXT_PLAN='%s': %s: libomp_ext turns per-region control off in an OpenMP "
            "program; give a plan file (htplaces exec --plan passes one) or unset it",
            shown(htp_finding_text(f, "value"), buf), htp_finding_text(f, "reason"));
    break;
  case htp_finding_plan_not_file:
    fprintf(out, "OMP_EXT_PLAN='%s' is not a regular file (a FIFO, a folder, a device): "
            "libomp_ext refuses it without reading and turns per-region control off",
            shown(htp_finding_text(f, "value"), buf));
    break;
  case htp_finding_plan_invalid:
    fprintf(out, "OMP_EXT_PLAN: %s: libomp_ext refuses the whole plan and turns per-region "
            "control off", htp_finding_text(f, "reason"));
    break;
  case htp_finding_learn_invalid:
    fprintf(out, "OMP_EXT_LEARN='%s': %s: libomp_ext cannot keep what auto learns there (it "
            "writes DIR/PROGRAM.plan at exit); give a folder you can write",
            shown(htp_finding_text(f, "value"), buf), htp_finding_text(f, "reason"));
    break;
  case htp_finding_learn_ignored:
    fprintf(out, "OMP_EXT_LEARN is set, but OMP_EXT_HT_POLICY is not auto: libomp_ext learns "
            "nothing (htplaces exec auto --learn DIR sets both)");
    break;
  case htp_finding_invalid_proc_bind:
    fprintf(out, "OMP_PROC_BIND='%s' is invalid; allowed: true, false, or a list of primary, "
            "close, spread", shown(htp_finding_text(f, "value"), buf));
    break;
  case htp_finding_kmp_affinity_wins: {
    int places = htp_finding_uint(f, "omp_places_set") != 0;
    int bind = htp_finding_uint(f, "omp_proc_bind_set") != 0;
    fprintf(out, "KMP_AFFINITY is set together with %s%s%s: libomp lets KMP_AFFINITY win and "
            "ignores %s; libgomp ignores KMP_AFFINITY", places ? "OMP_PLACES" : "",
            places && bind ? " and " : "", bind ? "OMP_PROC_BIND" : "",
            places && bind ? "them" : "it");
    break;
  }
  case htp_finding_gomp_affinity_ignored:
    fputs("GOMP_CPU_AFFINITY and a valid OMP_PLACES are both set: libgomp ignores "
          "GOMP_CPU_AFFINITY", out);
    break;
  case htp_finding_proc_bind_false:
    fputs("OMP_PROC_BIND=false with OMP_PLACES set: threads are not bound, the places "
          "are unused", out);
    break;
  case htp_finding_num_threads_invalid:
    fprintf(out, "OMP_NUM_THREADS='%s' is not a positive number (list)",
            shown(htp_finding_text(f, "value"), buf));
    break;
  case htp_finding_num_threads_above_pus:
    fprintf(out, "OMP_NUM_THREADS=%llu is above the %llu allowed PUs: threads will share PUs",
            htp_finding_uint(f, "threads"), htp_finding_uint(f, "pus"));
    break;
  case htp_finding_num_threads_above_places:
    fprintf(out, "OMP_NUM_THREADS=%llu is above the %llu place%s of OMP_PLACES: threads will "
            "share places", htp_finding_uint(f, "threads"), htp_finding_uint(f, "places"),
            htp_finding_uint(f, "places") == 1 ? "" : "s");
    break;
  case htp_finding_list_problems: {
    const char *as = strcmp(f->variable, "OMP_PLACES") == 0          ? "omp"
                     : strcmp(f->variable, "GOMP_CPU_AFFINITY") == 0 ? "gomp"
                                                                      : "kmp";
    unsigned long long n = htp_finding_uint(f, "problems");
    fprintf(out, "%s has %llu problem%s on this machine (%s): see htplaces check --as %s "
            "\"$%s\"", f->variable, n, n == 1 ? "" : "s", htp_finding_text(f, "kinds"), as,
            f->variable);
    break;
  }
  case htp_finding_libomp_fork_places:
    fputs("OMP_PLACES is a list of places: libomp 14 crashes (\"free(): invalid size\", "
          "SIGSEGV) in a child made by fork() at its first parallel region; a program that "
          "forks under libomp should bind in code (omp_set_ht_policy(3), which forks fine) or "
          "use an abstract name such as cores, not htplaces exec", out);
    break;
  default:
    fputs(htp_finding_name(f->kind), out);
    break;
  }
  free(a);
  free(b);
}

/* One finding's sentence (no prefix, no newline): the machine's and the
 * job's here, the variables' in variable_text(). */
static void finding_text(FILE *out, const struct htp_finding *f)
{
  const char *control = htp_finding_text(f, "control");
  char *a = NULL, *b = NULL, buf[SHOWN_SIZE];
  switch (f->kind) {
  case htp_finding_smt_off:
    fprintf(out, "SMT is switched off (smt/control=%s): one PU per core, so the speedup and spn "
            "policies give the same order%s", control ? control : "?",
            control && strcmp(control, "off") == 0 ?
            "; 'echo on > .../smt/control' turns it on" : "");
    break;
  case htp_finding_cpus_offline:
    a = htp_cpuset_text(htp_finding_set(f, "cpus"));
    fprintf(out, "CPUs %s are offline: %llu of %llu present CPUs can run threads", a ? a : "?",
            htp_finding_uint(f, "online_count"), htp_finding_uint(f, "present_count"));
    break;
  case htp_finding_affinity_restricted:
    a = htp_cpuset_text(htp_finding_set(f, "affinity"));
    b = htp_cpuset_text(htp_finding_set(f, "online"));
    fprintf(out, "this process may run on %d of the %d online CPUs (affinity %s of %s: "
            "taskset, numactl, or the batch system)", weight(htp_finding_set(f, "affinity")),
            weight(htp_finding_set(f, "online")), a ? a : "?", b ? b : "?");
    break;
  case htp_finding_cgroup_cpuset_restricted:
    a = htp_cpuset_text(htp_finding_set(f, "cpus"));
    fprintf(out, "the cgroup cpuset allows CPUs %s only, of %d online", a ? a : "?",
            weight(htp_finding_set(f, "online")));
    break;
  case htp_finding_quota_below_cpus:
    fprintf(out, "the cgroup CPU quota of %.2f CPUs is below the %llu usable CPUs: more than "
            "%llu busy threads get throttled; use OMP_NUM_THREADS=%llu",
            htp_finding_real(f, "quota"), htp_finding_uint(f, "usable_cpus"),
            htp_finding_uint(f, "threads"), htp_finding_uint(f, "threads"));
    break;
  case htp_finding_hybrid_cpu:
    fprintf(out, "hybrid CPU: %llu of %llu PUs are of the most performant kind; threads on the "
            "others finish later and hold back every barrier (the policies place threads on "
            "kind 0 first)", htp_finding_uint(f, "fast_pus"), htp_finding_uint(f, "pus"));
    break;
  case htp_finding_saturation_failed:
    fprintf(out, "the saturation test could not start %llu threads",
            htp_finding_uint(f, "threads"));
    break;
  case htp_finding_low_parallelism:
    fprintf(out, "only %.2f of %llu spinning threads ran at once: something (quota, other "
            "load, offline or shared CPUs) limits parallel execution",
            htp_finding_real(f, "parallelism"), htp_finding_uint(f, "threads"));
    break;
  case htp_finding_threads_unbound:
    fprintf(out, "%llu threads could not be bound to their PU", htp_finding_uint(f, "count"));
    break;
  case htp_finding_slurm_unplaced:
    fputs("omp_ext's Slurm plugin was asked to place this task and did not (OMP_EXT_SLURM="
          "unplaced): the 'omp_ext-slurm:' line on the step's stderr says why", out);
    break;
  case htp_finding_slurm_places_changed:
    fprintf(out, "OMP_PLACES='%s' is not what omp_ext's Slurm plugin set for --ht-policy=%s "
            "(%s): something after srun (a script, a module, a wrapper) changed it",
            shown(htp_finding_text(f, "places"), buf), htp_finding_text(f, "policy"),
            htp_finding_text(f, "plugin"));
    break;
  case htp_finding_slurm_binding_changed:
    a = htp_cpuset_text(htp_finding_set(f, "affinity"));
    b = htp_cpuset_text(htp_finding_set(f, "pus"));
    fprintf(out, "this process runs on PUs %s, not on %s where omp_ext's Slurm plugin bound the "
            "task: something after srun (taskset, numactl, a wrapper) rebound it", a ? a : "?",
            b ? b : "?");
    break;
  default:
    variable_text(out, f);
    break;
  }
  free(a);
  free(b);
}

/* The findings of one section, each on a line "  limit: ...". */
static void print_section(FILE *out, const struct htp_findings *l, enum htp_section section)
{
  unsigned i;
  for (i = 0; i < l->n; i++) {
    const struct htp_finding *f = &l->v[i];
    if (f->section != section)
      continue;
    fprintf(out, "  %s: ", htp_severity_name(htp_finding_severity(f->kind)));
    finding_text(out, f);
    fputc('\n', out);
  }
}

void htp_env_print_text(FILE *out, char *const envp[], const struct htp_findings *l)
{
  unsigned listed = 0;
  char *const *e;
  fprintf(out, "environment:\n");
  for (e = envp; e && *e; e++)
    if (htp_is_runtime_var(*e)) {
      char buf[SHOWN_SIZE];
      fprintf(out, "  %s\n", shown(*e, buf));
      listed++;
    }
  if (!listed)
    fprintf(out, "  no OMP_*, KMP_* or GOMP_* variable is set\n");
  print_section(out, l, htp_section_environment);
}

unsigned htp_env_check(FILE *out, char *const envp[], const omp_ext_topo_t *topo)
{
  struct htp_findings l = {NULL, 0, 0, 0};
  unsigned n = htp_env_analyze(envp, topo, &l);
  htp_env_print_text(out, envp, &l);
  htp_findings_free(&l);
  return n;
}

static const char *or_unknown(const char *v)
{
  return v ? v : "?";
}

/* The Slurm step and the plugin's record; nothing outside a Slurm job. */
static void print_slurm(FILE *out, const struct htp_slurm *s, const struct htp_findings *l)
{
  char buf[SHOWN_SIZE];
  if (!s->in_job)
    return;
  if (!s->step)
    fprintf(out, "Slurm step: none: job %s's batch script or allocation shell (the steps "
            "srun starts are placed)\n", shown(s->job, buf));
  else
    fprintf(out, "Slurm step: job %s step %s on %s, task %s (local %s), %s CPUs on the node; "
            "Slurm's binding: %s%s%s\n", s->job, s->step, or_unknown(s->node),
            or_unknown(s->procid), or_unknown(s->localid), or_unknown(s->cpus_on_node),
            s->bind_type && *s->bind_type ? s->bind_type : "none",
            s->bind_list && *s->bind_list ? " " : "", s->bind_list ? s->bind_list : "");
  if (s->plugin)
    fprintf(out, "Slurm plugin: %s (OMP_EXT_SLURM)\n", shown(s->plugin, buf));
  else if (s->step)
    fputs("Slurm plugin: not used for this step (no OMP_EXT_SLURM: no --ht-policy, or "
          "omp_ext_spank.so is not in plugstack.conf)\n", out);
  print_section(out, l, htp_section_slurm);
}

void htp_doctor_print_text(FILE *out, const omp_ext_topo_t *topo,
                           const struct htp_doctor_report *r)
{
  const struct htp_findings *l = &r->findings;
  char *on = htp_cpuset_text(r->online), *off = htp_cpuset_text(r->offline), *pr = htp_cpuset_text(r->present);
  char *ab = r->absent && !hwloc_bitmap_iszero(r->absent) ? htp_cpuset_text(r->absent) : NULL;
  char *a = htp_cpuset_text(r->affinity), *c = htp_cpuset_text(r->cgroup_cpuset);
  unsigned i, limits = htp_findings_count(l);

  fprintf(out, "SMT:        control=%s active=%s  (%s/devices/system/cpu/smt)\n",
          r->smt_control ? r->smt_control : "unknown", r->smt_active ? r->smt_active : "unknown",
          r->sysfs);
  print_section(out, l, htp_section_smt);
  fprintf(out, "CPUs:       present %s, online %s, offline %s%s%s%s\n", pr ? pr : "unknown",
          on ? on : "unknown", off ? (*off ? off : "none") : "unknown",
          ab ? " (possible, not present: " : "", ab ? ab : "", ab ? ")" : "");
  free(ab);
  print_section(out, l, htp_section_cpus);
  fprintf(out, "allowed:    process affinity %s; cgroup cpuset %s\n", a ? a : "unknown",
          c ? c : "unknown");
  print_section(out, l, htp_section_allowed);
  if (!r->cgroup)
    fprintf(out, "CPU quota:  unknown (no cgroup found)\n");
  else if (r->quota < 0)
    fprintf(out, "CPU quota:  none (cgroup %s)\n", r->cgroup);
  else
    fprintf(out, "CPU quota:  %.2f CPUs (%s)\n", r->quota,
            r->quota_source ? r->quota_source : "?");
  print_section(out, l, htp_section_quota);
  fprintf(out, "topology:   %s: %u packages, %u cores, %u allowed PUs, up to %u PUs per core, "
          "%u CPU kind%s\n", omp_ext_topo_source(topo), omp_ext_topo_npackages(topo),
          omp_ext_topo_ncores(topo), omp_ext_topo_npus(topo), omp_ext_topo_max_smt(topo),
          omp_ext_topo_nkinds(topo), omp_ext_topo_nkinds(topo) > 1 ? "s" : "");
  print_section(out, l, htp_section_topology);
  print_slurm(out, &r->slurm, l);
  htp_env_print_text(out, r->envp, l);
  if (r->saturation == htp_saturation_skipped)
    fprintf(out, "saturation: skipped (the topology is not this machine's)\n");
  if (r->saturation == htp_saturation_ran) {
    fprintf(out, "saturation: %u threads placed by '%s' spinning %.2f s\n  thread  PU     CPU s\n",
            r->n, omp_ext_policy_name(r->policy), r->duration);
    for (i = 0; i < r->n; i++)
      fprintf(out, "  %6u  %-5u  %.3f%s\n", i, r->pu[i], r->cpu[i],
              r->bound[i] ? "" : "  (not bound)");
    fprintf(out, "  effective parallelism: %.2f of %u threads (total CPU %.3f s / wall %.3f s)\n",
            r->total / r->wall, r->n, r->total, r->wall);
  }
  print_section(out, l, htp_section_saturation);
  if (limits)
    fprintf(out, "%u limit%s or conflict%s found\n", limits, limits > 1 ? "s" : "",
            limits > 1 ? "s" : "");
  else
    fprintf(out, "nothing found that limits parallel execution\n");
  free(on);
  free(off);
  free(pr);
  free(a);
  free(c);
}

static void json_text_or_null(FILE *out, const char *s)
{
  if (s)
    omp_ext_json_string(out, s);
  else
    fputs("null", out);
}

static void print_slurm_json(FILE *out, const struct htp_slurm *s)
{
  const char *const names[] = {"job", "step", "node", "task", "local_task", "cpus_on_node",
                               "cpu_bind_type", "cpu_bind_list", "plugin"};
  const char *const values[] = {s->job, s->step, s->node, s->procid, s->localid,
                                s->cpus_on_node, s->bind_type, s->bind_list, s->plugin};
  unsigned i;
  if (!s->in_job) {
    fputs("  \"slurm\": null,\n", out);
    return;
  }
  fputs("  \"slurm\": {", out);
  for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    fprintf(out, "%s\"%s\": ", i ? ", " : "", names[i]);
    json_text_or_null(out, values[i]);
  }
  fputs("},\n", out);
}

void htp_doctor_print_json(FILE *out, const omp_ext_topo_t *topo,
                           const struct htp_doctor_report *r)
{
  static const char *const states[] = {"off", "skipped", "failed", "ran"};
  unsigned i, n = 0, limits = htp_findings_count(&r->findings);
  char *const *e;
  fputs("{\n  \"command\": \"doctor\",\n  \"smt\": {\"control\": ", out);
  json_text_or_null(out, r->smt_control);
  fputs(", \"active\": ", out);
  json_text_or_null(out, r->smt_active);
  fputs(", \"sysfs\": ", out);
  omp_ext_json_string(out, r->sysfs);
  fputs("},\n  \"cpus\": {\"present\": ", out);
  htp_json_cpuset(out, r->present);
  fputs(", \"online\": ", out);
  htp_json_cpuset(out, r->online);
  fputs(", \"offline\": ", out);
  htp_json_cpuset(out, r->offline);
  fputs(", \"possible_not_present\": ", out);
  htp_json_cpuset(out, r->absent);
  fputs("},\n  \"allowed\": {\"affinity\": ", out);
  htp_json_cpuset(out, r->affinity);
  fputs(", \"cgroup_cpuset\": ", out);
  htp_json_cpuset(out, r->cgroup_cpuset);
  fputs(", \"usable\": ", out);
  htp_json_cpuset(out, r->usable);
  fputs("},\n  \"quota\": {\"cgroup\": ", out);
  json_text_or_null(out, r->cgroup);
  if (r->quota >= 0)
    fprintf(out, ", \"cpus\": %.6g, \"source\": ", r->quota);
  else
    fputs(", \"cpus\": null, \"source\": ", out);
  json_text_or_null(out, r->quota >= 0 ? r->quota_source : NULL);
  fputs("},\n  \"topology\": {\"source\": ", out);
  omp_ext_json_string(out, omp_ext_topo_source(topo));
  fprintf(out, ", \"packages\": %u, \"cores\": %u, \"pus\": %u, \"max_smt\": %u, \"kinds\": %u},\n",
          omp_ext_topo_npackages(topo), omp_ext_topo_ncores(topo), omp_ext_topo_npus(topo),
          omp_ext_topo_max_smt(topo), omp_ext_topo_nkinds(topo));
  print_slurm_json(out, &r->slurm);
  fputs("  \"environment\": [", out);
  for (e = r->envp; e && *e; e++) {
    const char *eq = strchr(*e, '=');
    char *name;
    if (!htp_is_runtime_var(*e) || !eq || !(name = strndup(*e, (size_t)(eq - *e))))
      continue;
    fputs(n++ ? ", " : "", out);
    fputs("{\"name\": ", out);
    omp_ext_json_string(out, name);
    fputs(", \"value\": ", out);
    omp_ext_json_string(out, eq + 1);
    fputc('}', out);
    free(name);
  }
  fprintf(out, "],\n  \"saturation\": {\"state\": \"%s\"", states[r->saturation]);
  if (r->saturation == htp_saturation_ran) {
    fputs(", \"policy\": ", out);
    omp_ext_json_string(out, omp_ext_policy_name(r->policy));
    fprintf(out, ", \"threads\": %u, \"duration_s\": %.6g, \"wall_s\": %.6g, \"cpu_s\": %.6g, "
            "\"effective_parallelism\": %.6g, \"per_thread\": [", r->n, r->duration, r->wall,
            r->total, r->total / r->wall);
    for (i = 0; i < r->n; i++)
      fprintf(out, "%s{\"thread\": %u, \"pu\": %u, \"cpu_s\": %.6g, \"bound\": %s}",
              i ? ", " : "", i, r->pu[i], r->cpu[i], r->bound[i] ? "true" : "false");
    fputc(']', out);
  }
  fputs("},\n  \"findings\": ", out);
  htp_json_findings(out, &r->findings, "  ");
  fprintf(out, ",\n  \"limits\": %u,\n  \"verdict\": \"%s\"\n}\n", limits,
          limits ? "limits" : "clean");
}
