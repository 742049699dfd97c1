/*
 * htplaces doctor inside a Slurm job, the analysis: the step (job, step,
 * node, task, Slurm's own binding) from the variables slurmstepd gives each
 * task, and what omp_ext's Slurm plugin did for the task (OMP_EXT_SLURM,
 * omp_ext-slurm(8)) against what the process has now -- its OMP_PLACES and
 * its binding.  Prints nothing (doctor_report.c prints).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "private/util.h"

/* The value of word KEY= in OMP_EXT_SLURM's "K=V K=V ..." text, malloc'ed. */
static char *word(const char *text, const char *key)
{
  size_t klen = strlen(key);
  const char *p = text;
  while (p && *p) {
    const char *end = strchr(p, ' ');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=')
      return strndup(p + klen + 1, len - klen - 1);
    p = end ? end + 1 : NULL;
  }
  return NULL;
}

static void compare_plugin(struct htp_slurm *s, char *const envp[], hwloc_const_bitmap_t affinity,
                           struct htp_findings *out)
{
  const char *places = omp_ext_env_get(envp, "OMP_PLACES");
  char *pus = word(s->plugin, "pus");
  struct htp_finding *f;
  s->policy = word(s->plugin, "policy");
  s->places = word(s->plugin, "places");
  if (s->places && (!places || strcmp(places, s->places) != 0)) {
    f = htp_finding_add(out, htp_finding_slurm_places_changed, htp_section_slurm,
                        htp_at_variable, 0);
    if (f)
      f->variable = "OMP_PLACES";
    htp_put_text(out, f, "policy", s->policy ? s->policy : "?");
    htp_put_text(out, f, "plugin", s->places);
    htp_put_text(out, f, "places", places ? places : "");
  }
  if (pus && (s->pus = hwloc_bitmap_alloc()) != NULL &&
      omp_ext_parse_cpulist(pus, OMP_EXT_CPULIST_ANY, s->pus, NULL) == OMP_EXT_UINT_OK && affinity &&
      !hwloc_bitmap_isequal(s->pus, affinity)) {
    f = htp_finding_add(out, htp_finding_slurm_binding_changed, htp_section_slurm, htp_at_none,
                        0);
    htp_put_set(out, f, "affinity", htp_value_cpuset, affinity);
    htp_put_set(out, f, "pus", htp_value_cpuset, s->pus);
  }
  free(pus);
}

void htp_slurm_analyze(char *const envp[], hwloc_const_bitmap_t affinity, struct htp_slurm *s,
                       struct htp_findings *out)
{
  memset(s, 0, sizeof(*s));
  if (!(s->job = omp_ext_env_get(envp, "SLURM_JOB_ID")))
    return;
  s->in_job = 1;
  s->step = omp_ext_env_get(envp, "SLURM_STEP_ID");
  if (!s->step)
    s->step = omp_ext_env_get(envp, "SLURM_STEPID");
  s->node = omp_ext_env_get(envp, "SLURMD_NODENAME");
  s->procid = omp_ext_env_get(envp, "SLURM_PROCID");
  s->localid = omp_ext_env_get(envp, "SLURM_LOCALID");
  s->cpus_on_node = omp_ext_env_get(envp, "SLURM_CPUS_ON_NODE");
  s->bind_type = omp_ext_env_get(envp, "SLURM_CPU_BIND_TYPE");
  s->bind_list = omp_ext_env_get(envp, "SLURM_CPU_BIND_LIST");
  s->plugin = omp_ext_env_get(envp, "OMP_EXT_SLURM");
  if (!s->plugin)
    return;
  if (strcmp(s->plugin, "unplaced") == 0) {
    htp_finding_add(out, htp_finding_slurm_unplaced, htp_section_slurm, htp_at_none, 0);
    return;
  }
  compare_plugin(s, envp, affinity, out);
}

void htp_slurm_free(struct htp_slurm *s)
{
  free(s->policy);
  free(s->places);
  hwloc_bitmap_free(s->pus);
  memset(s, 0, sizeof(*s));
}
