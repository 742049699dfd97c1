/*
 * htplaces doctor, the analysis: what limits parallel execution here -- SMT
 * state, online and offline CPUs, the allowed cpuset, the cgroup CPU quota,
 * conflicting OpenMP variables (env.c), and a saturation test (N spinning
 * threads placed by a policy; effective parallelism = total CPU time / wall
 * time) -- as observations and findings (analysis.h).  Prints nothing:
 * doctor_report.c prints.
 *
 * The sysfs and cgroup roots can point at fake trees (--sysfs, --cgroup or
 * HTPLACES_SYSFS, HTPLACES_CGROUP), so every branch is testable anywhere.
 * Files are read with the library's sysfs readers (omp_ext/lib/sysfs.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "private/util.h"

#define read_line omp_ext_read_text
#define read_cpulist omp_ext_read_cpulist

static struct htp_finding *found(struct htp_doctor_report *r, enum htp_finding_kind kind,
                                 enum htp_section section)
{
  return htp_finding_add(&r->findings, kind, section, htp_at_none, 0);
}

static void look_smt(struct htp_doctor_report *r)
{
  const char *control;
  r->smt_control = read_line(r->sysfs, "devices/system/cpu/smt/control");
  r->smt_active = read_line(r->sysfs, "devices/system/cpu/smt/active");
  control = r->smt_control;
  if (control && (strcmp(control, "off") == 0 || strcmp(control, "forceoff") == 0))
    htp_put_text(&r->findings, found(r, htp_finding_smt_off, htp_section_smt), "control",
                 control);
}

static void look_cpus(struct htp_doctor_report *r)
{
  struct htp_finding *f;
  r->online = read_cpulist(r->sysfs, "devices/system/cpu/online");
  r->offline = read_cpulist(r->sysfs, "devices/system/cpu/offline");
  r->present = read_cpulist(r->sysfs, "devices/system/cpu/present");
  /* The kernel's offline list also names possible CPUs that are not present
   * (possible_cpus=, empty hotplug slots): they limit nothing. */
  if (r->offline && r->present && (r->absent = hwloc_bitmap_alloc()) != NULL) {
    hwloc_bitmap_andnot(r->absent, r->offline, r->present);
    hwloc_bitmap_and(r->offline, r->offline, r->present);
  }
  if (r->offline && !hwloc_bitmap_iszero(r->offline)) {
    f = found(r, htp_finding_cpus_offline, htp_section_cpus);
    htp_put_set(&r->findings, f, "cpus", htp_value_cpuset, r->offline);
    htp_put_uint(&r->findings, f, "online_count",
                 r->online ? (unsigned)hwloc_bitmap_weight(r->online) : 0);
    htp_put_uint(&r->findings, f, "present_count",
                 (unsigned)hwloc_bitmap_weight(r->present ? r->present : r->offline));
  }
}

/* The process's CPU affinity (sched_getaffinity), as a bitmap. */
static hwloc_bitmap_t process_affinity(void)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  size_t ncpus = 1024, size;
  cpu_set_t *mask;
  unsigned i;
  for (;;) {
    if (!(mask = CPU_ALLOC(ncpus)))
      break;
    size = CPU_ALLOC_SIZE(ncpus);
    if (sched_getaffinity(0, size, mask) == 0) {
      for (i = 0; i < ncpus; i++)
        if (CPU_ISSET_S(i, size, mask))
          hwloc_bitmap_set(set, i);
      CPU_FREE(mask);
      return set;
    }
    CPU_FREE(mask);
    if (errno != EINVAL || ncpus >= (1u << 20))
      break;
    ncpus *= 2;
  }
  hwloc_bitmap_free(set);
  return NULL;
}

static void look_allowed(struct htp_doctor_report *r, const char *cgdir)
{
  hwloc_const_bitmap_t online = r->online, aff, cg;
  struct htp_finding *f;
  r->affinity = process_affinity();
  if (cgdir && !(r->cgroup_cpuset = read_cpulist(cgdir, "cpuset.cpus.effective")))
    r->cgroup_cpuset = read_cpulist(cgdir, "cpuset.effective_cpus");
  aff = r->affinity;
  cg = r->cgroup_cpuset;
  if (online && aff && !hwloc_bitmap_isincluded(online, aff)) {
    f = found(r, htp_finding_affinity_restricted, htp_section_allowed);
    htp_put_set(&r->findings, f, "affinity", htp_value_cpuset, aff);
    htp_put_set(&r->findings, f, "online", htp_value_cpuset, online);
  }
  if (online && cg && !hwloc_bitmap_iszero(cg) && !hwloc_bitmap_isincluded(online, cg)) {
    f = found(r, htp_finding_cgroup_cpuset_restricted, htp_section_allowed);
    htp_put_set(&r->findings, f, "cpus", htp_value_cpuset, cg);
    htp_put_set(&r->findings, f, "online", htp_value_cpuset, online);
  }
  r->usable = (aff || online) ? hwloc_bitmap_dup(aff ? aff : online) : NULL;
  if (r->usable && online)
    hwloc_bitmap_and(r->usable, r->usable, online);
  if (r->usable && cg && !hwloc_bitmap_iszero(cg))
    hwloc_bitmap_and(r->usable, r->usable, cg);
}

/* Quota in CPUs from DIR: cgroup v2 cpu.max ("QUOTA PERIOD" or "max
 * PERIOD", microseconds), else v1 cpu.cfs_quota_us / cpu.cfs_period_us (-1:
 * none); <0 if none. */
static double dir_quota(const char *dir, char *how, size_t len)
{
  char *max = read_line(dir, "cpu.max"), *q, *p;
  unsigned long long quota_us, period_us;
  double quota = -1;
  if (max) {
    char *space = strchr(max, ' ');
    if (space) {
      *space = '\0';
      if (omp_ext_parse_uint(max, 1, ~0ULL, &quota_us) == OMP_EXT_UINT_OK &&
          omp_ext_parse_uint(space + 1, 1, ~0ULL, &period_us) == OMP_EXT_UINT_OK) {
        quota = (double)quota_us / (double)period_us;
        *space = ' ';
        snprintf(how, len, "cpu.max '%s' in %s", max, dir);
      }
    }
    free(max);
    return quota;
  }
  q = read_line(dir, "cpu.cfs_quota_us");
  p = read_line(dir, "cpu.cfs_period_us");
  if (q && p && omp_ext_parse_uint(q, 1, ~0ULL, &quota_us) == OMP_EXT_UINT_OK &&
      omp_ext_parse_uint(p, 1, ~0ULL, &period_us) == OMP_EXT_UINT_OK) {
    quota = (double)quota_us / (double)period_us;
    snprintf(how, len, "cpu.cfs_quota_us %s / cpu.cfs_period_us %s in %s", q, p, dir);
  }
  free(q);
  free(p);
  return quota;
}

static int has_cgroup_files(const char *dir)
{
  char path[PATH_MAX];
  static const char *const files[] = {"cpu.max", "cgroup.controllers", "cpu.cfs_quota_us"};
  unsigned k;
  for (k = 0; k < 3; k++)
    if (snprintf(path, sizeof(path), "%s/%s", dir, files[k]) < (int)sizeof(path) &&
        access(path, F_OK) == 0)
      return 1;
  return 0;
}

/* The smallest quota of the cgroup and its ancestors (limits nest). */
static void look_quota(struct htp_doctor_report *r)
{
  char dir[PATH_MAX], how[PATH_MAX + 128] = "", best_how[PATH_MAX + 128] = "";
  double best = -1, q;
  int ncpus = r->usable ? hwloc_bitmap_weight(r->usable) : 0;
  struct htp_finding *f;
  r->quota = -1;
  if (!r->cgroup)
    return;
  snprintf(dir, sizeof(dir), "%s", r->cgroup);
  while (has_cgroup_files(dir)) {
    char *slash;
    q = dir_quota(dir, how, sizeof(how));
    if (q > 0 && (best < 0 || q < best)) {
      best = q;
      memcpy(best_how, how, sizeof(best_how));
    }
    if (!(slash = strrchr(dir, '/')) || slash == dir)
      break;
    *slash = '\0';
  }
  if (best < 0)
    return;
  r->quota = best;
  if (!(r->quota_source = strdup(best_how)))
    r->findings.nomem = 1;
  if (ncpus > 0 && best < ncpus) {
    f = found(r, htp_finding_quota_below_cpus, htp_section_quota);
    htp_put_real(&r->findings, f, "quota", best);
    htp_put_uint(&r->findings, f, "usable_cpus", (unsigned)ncpus);
    htp_put_uint(&r->findings, f, "threads", best >= 1 ? (unsigned)best : 1);
  }
}

static void look_topology(struct htp_doctor_report *r, const omp_ext_topo_t *topo)
{
  struct htp_finding *f;
  unsigned i;
  if (omp_ext_topo_nkinds(topo) <= 1)
    return;
  for (i = 0; i < omp_ext_topo_npus(topo); i++)
    r->hybrid_fast += omp_ext_topo_pu(topo, i)->kind == 0;
  f = found(r, htp_finding_hybrid_cpu, htp_section_topology);
  htp_put_uint(&r->findings, f, "fast_pus", r->hybrid_fast);
  htp_put_uint(&r->findings, f, "pus", omp_ext_topo_npus(topo));
}

/* ---- saturation test ---- */

struct spinner {
  hwloc_topology_t hw;
  unsigned pu;
  pthread_barrier_t *start;
  const struct timespec *deadline;
  double cpu;
  int bound;
};

static double seconds(const struct timespec *t) { return (double)t->tv_sec + t->tv_nsec * 1e-9; }

static void *spin(void *arg)
{
  struct spinner *s = arg;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  struct timespec c0, c1, now;
  volatile unsigned long work = 0;
  if (set) {
    hwloc_bitmap_only(set, s->pu);
    s->bound = hwloc_set_cpubind(s->hw, set, HWLOC_CPUBIND_THREAD) == 0;
    hwloc_bitmap_free(set);
  }
  pthread_barrier_wait(s->start);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
  do {
    unsigned k;
    for (k = 0; k < 10000; k++)
      work++;
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while (seconds(&now) < seconds(s->deadline));
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
  s->cpu = seconds(&c1) - seconds(&c0);
  return NULL;
}

static int run_spinners(double duration, const omp_ext_topo_t *topo, const omp_ext_pu_t *order,
                        unsigned n, struct spinner *sp, double *wall)
{
  pthread_t *tid = calloc(n, sizeof(*tid));
  pthread_barrier_t start;
  struct timespec deadline, t0, t1;
  unsigned i, started = 0;
  if (!tid || pthread_barrier_init(&start, NULL, n + 1) != 0) {
    free(tid);
    return -1;
  }
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += (time_t)duration;
  deadline.tv_nsec += (long)((duration - (double)(time_t)duration) * 1e9);
  deadline.tv_sec += deadline.tv_nsec / 1000000000L;
  deadline.tv_nsec %= 1000000000L;
  for (i = 0; i < n; i++) {
    sp[i] = (struct spinner){omp_ext_topo_hwloc(topo), order[i].os_index, &start, &deadline, 0, 0};
    if (pthread_create(&tid[i], NULL, spin, &sp[i]) != 0)
      break;
    started++;
  }
  if (started < n) {
    /* Cannot release the barrier with fewer threads: stop here. */
    free(tid);
    return -1;
  }
  pthread_barrier_wait(&start);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (i = 0; i < n; i++)
    pthread_join(tid[i], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  pthread_barrier_destroy(&start);
  free(tid);
  *wall = seconds(&t1) - seconds(&t0);
  return 0;
}

static void look_saturation(struct htp_doctor_report *r, const struct htp_doctor_input *in,
                            const omp_ext_topo_t *topo)
{
  struct spinner *sp;
  struct htp_finding *f;
  unsigned i, unbound = 0, n = in->n;
  double wall = 0;
  r->saturation = !in->saturation ? htp_saturation_off :
                  !in->order ? htp_saturation_skipped : htp_saturation_failed;
  r->policy = in->policy;
  r->duration = in->duration;
  if (r->saturation != htp_saturation_failed)
    return;
  r->n = n;
  if (!(sp = calloc(n ? n : 1, sizeof(*sp))) ||
      run_spinners(in->duration, topo, in->order, n, sp, &wall) != 0 || wall <= 0) {
    htp_put_uint(&r->findings, found(r, htp_finding_saturation_failed, htp_section_saturation),
                 "threads", n);
    free(sp);
    return;
  }
  r->pu = calloc(n, sizeof(*r->pu));
  r->cpu = calloc(n, sizeof(*r->cpu));
  r->bound = calloc(n, sizeof(*r->bound));
  if (!r->pu || !r->cpu || !r->bound) {
    r->findings.nomem = 1;
    free(sp);
    return;
  }
  r->saturation = htp_saturation_ran;
  r->wall = wall;
  for (i = 0; i < n; i++) {
    r->pu[i] = in->order[i].os_index;
    r->cpu[i] = sp[i].cpu;
    r->bound[i] = sp[i].bound;
    r->total += sp[i].cpu;
    unbound += !sp[i].bound;
  }
  if (r->total / wall < 0.8 * n) {
    f = found(r, htp_finding_low_parallelism, htp_section_saturation);
    htp_put_real(&r->findings, f, "parallelism", r->total / wall);
    htp_put_uint(&r->findings, f, "threads", n);
  }
  if (unbound)
    htp_put_uint(&r->findings, found(r, htp_finding_threads_unbound, htp_section_saturation),
                 "count", unbound);
  free(sp);
}

int htp_doctor_analyze(const struct htp_doctor_input *in, const omp_ext_topo_t *topo,
                       struct htp_doctor_report *rep)
{
  memset(rep, 0, sizeof(*rep));
  rep->sysfs = in->sysfs ? in->sysfs : "/sys";
  rep->cgroup = in->cgroup;
  rep->envp = in->envp;
  look_smt(rep);
  look_cpus(rep);
  look_allowed(rep, in->cpuset_dir ? in->cpuset_dir : in->cgroup);
  look_quota(rep);
  look_topology(rep, topo);
  htp_slurm_analyze(in->envp, rep->affinity, &rep->slurm, &rep->findings);
  htp_env_analyze(in->envp, topo, &rep->findings);
  look_saturation(rep, in, topo);
  return rep->findings.nomem ? omp_ext_err_nomem : omp_ext_success;
}

void htp_doctor_report_free(struct htp_doctor_report *rep)
{
  free(rep->smt_control);
  free(rep->smt_active);
  hwloc_bitmap_free(rep->present);
  hwloc_bitmap_free(rep->online);
  hwloc_bitmap_free(rep->offline);
  hwloc_bitmap_free(rep->absent);
  hwloc_bitmap_free(rep->affinity);
  hwloc_bitmap_free(rep->cgroup_cpuset);
  hwloc_bitmap_free(rep->usable);
  free(rep->quota_source);
  free(rep->pu);
  free(rep->cpu);
  free(rep->bound);
  htp_slurm_free(&rep->slurm);
  htp_findings_free(&rep->findings);
}

/* ---- cgroup discovery ---- */

/* This process's cgroup directory under ROOT (/sys/fs/cgroup): v2's
 * "0::PATH", else v1's cpu controller; v1 cpuset controller in *cpuset. */
char *htp_find_cgroup(const char *root, char **cpuset)
{
  FILE *f = fopen("/proc/self/cgroup", "r");
  char *line = NULL, *dir = NULL, *v2 = NULL;
  size_t cap = 0;
  ssize_t n;
  *cpuset = NULL;
  if (!f)
    return NULL;
  while ((n = getline(&line, &cap, f)) > 0) {
    char *ctrl = strchr(line, ':'), *path = ctrl ? strchr(ctrl + 1, ':') : NULL;
    if (!path)
      continue;
    line[n - 1] = line[n - 1] == '\n' ? '\0' : line[n - 1];
    *path++ = '\0';
    ctrl++;
    if (*ctrl == '\0' && !v2 && asprintf(&v2, "%s%s", root, path) < 0)
      v2 = NULL;
    else if (!dir && (strcmp(ctrl, "cpu") == 0 || strstr(ctrl, "cpu,") == ctrl ||
                      strstr(ctrl, ",cpu") != NULL) && asprintf(&dir, "%s/%s%s", root, ctrl, path) < 0)
      dir = NULL;
    else if (!*cpuset && strcmp(ctrl, "cpuset") == 0 &&
             asprintf(cpuset, "%s/cpuset%s", root, path) < 0)
      *cpuset = NULL;
  }
  free(line);
  fclose(f);
  if (dir && access(dir, F_OK) != 0) {
    free(dir);
    dir = NULL;
  }
  if (!dir) {
    dir = v2;
    v2 = NULL;
  }
  free(v2);
  return dir;
}
