/*
 * htplaces doctor: what limits parallel execution here -- SMT state, online
 * and offline CPUs, the allowed cpuset, the cgroup CPU quota, conflicting
 * OpenMP variables, and a saturation test (N spinning threads placed by a
 * policy; effective parallelism = total CPU time / wall time).
 *
 * The sysfs and cgroup roots can point at fake trees (--sysfs, --cgroup or
 * HTPLACES_SYSFS, HTPLACES_CGROUP), so every branch is testable anywhere.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "htplaces.h"

extern char **environ;

enum { OPT_SYSFS = 256, OPT_CGROUP, OPT_NOSAT, OPT_DURATION };

struct doctor {
  const char *sysfs;   /* root holding devices/system/cpu */
  char *cgroup;        /* this process's cgroup directory (v2 or v1 cpu controller) */
  char *cpuset_dir;    /* v1 cpuset controller directory, if separate */
  int saturation;
  double duration;
  unsigned limits;
};

static void limit(struct doctor *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void limit(struct doctor *d, const char *fmt, ...)
{
  va_list ap;
  fputs("  limit: ", stdout);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  d->limits++;
}

/* First line of DIR/REL without its newline (malloc'ed), or NULL. */
static char *read_line(const char *dir, const char *rel)
{
  char path[PATH_MAX], *line = NULL;
  size_t cap = 0;
  ssize_t n;
  FILE *f;
  if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path) ||
      !(f = fopen(path, "r")))
    return NULL;
  n = getline(&line, &cap, f);
  fclose(f);
  if (n < 0) {
    free(line);
    return NULL;
  }
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
    line[--n] = '\0';
  return line;
}

/* A cpulist file ("0-3,8") as a bitmap; NULL if missing or malformed.  An
 * empty file is an empty set. */
static hwloc_bitmap_t read_cpulist(const char *dir, const char *rel)
{
  char *line = read_line(dir, rel);
  hwloc_bitmap_t set;
  if (!line)
    return NULL;
  set = hwloc_bitmap_alloc();
  if (set && *line &&
      (strspn(line, "0123456789,-") != strlen(line) || hwloc_bitmap_list_sscanf(set, line) < 0)) {
    hwloc_bitmap_free(set);
    set = NULL;
  }
  free(line);
  return set;
}

static char *list_text(hwloc_const_bitmap_t set)
{
  char *s = NULL;
  if (!set || hwloc_bitmap_list_asprintf(&s, set) < 0)
    return NULL;
  return s;
}

static void section_smt(struct doctor *d)
{
  char *control = read_line(d->sysfs, "devices/system/cpu/smt/control");
  char *active = read_line(d->sysfs, "devices/system/cpu/smt/active");
  printf("SMT:        control=%s active=%s  (%s/devices/system/cpu/smt)\n",
         control ? control : "unknown", active ? active : "unknown", d->sysfs);
  if (control && (strcmp(control, "off") == 0 || strcmp(control, "forceoff") == 0))
    limit(d, "SMT is switched off (smt/control=%s): one PU per core, so the speedup and spn "
          "policies give the same order%s", control,
          strcmp(control, "off") == 0 ? "; 'echo on > .../smt/control' turns it on" : "");
  free(control);
  free(active);
}

/* Online CPUs (sysfs), or NULL if unknown. */
static hwloc_bitmap_t section_cpus(struct doctor *d)
{
  hwloc_bitmap_t online = read_cpulist(d->sysfs, "devices/system/cpu/online");
  hwloc_bitmap_t offline = read_cpulist(d->sysfs, "devices/system/cpu/offline");
  hwloc_bitmap_t present = read_cpulist(d->sysfs, "devices/system/cpu/present");
  hwloc_bitmap_t absent = NULL;
  char *on, *off, *pr, *ab = NULL;
  /* The kernel's offline list also names possible CPUs that are not present
   * (possible_cpus=, empty hotplug slots): they limit nothing. */
  if (offline && present && (absent = hwloc_bitmap_alloc()) != NULL) {
    hwloc_bitmap_andnot(absent, offline, present);
    hwloc_bitmap_and(offline, offline, present);
    if (!hwloc_bitmap_iszero(absent))
      ab = list_text(absent);
  }
  on = list_text(online), off = list_text(offline), pr = list_text(present);
  printf("CPUs:       present %s, online %s, offline %s%s%s%s\n", pr ? pr : "unknown",
         on ? on : "unknown", off ? (*off ? off : "none") : "unknown",
         ab ? " (possible, not present: " : "", ab ? ab : "", ab ? ")" : "");
  free(ab);
  hwloc_bitmap_free(absent);
  if (offline && !hwloc_bitmap_iszero(offline))
    limit(d, "CPUs %s are offline: %d of %d present CPUs can run threads", off,
          online ? hwloc_bitmap_weight(online) : 0,
          present ? hwloc_bitmap_weight(present) : hwloc_bitmap_weight(offline));
  free(on);
  free(off);
  free(pr);
  hwloc_bitmap_free(offline);
  hwloc_bitmap_free(present);
  return online;
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

static void section_allowed(struct doctor *d, hwloc_const_bitmap_t online,
                            hwloc_bitmap_t *usable)
{
  hwloc_bitmap_t aff = process_affinity(), cg = NULL;
  const char *cgdir = d->cpuset_dir ? d->cpuset_dir : d->cgroup;
  char *a = list_text(aff), *c = NULL;
  if (cgdir && !(cg = read_cpulist(cgdir, "cpuset.cpus.effective")))
    cg = read_cpulist(cgdir, "cpuset.effective_cpus");
  c = list_text(cg);
  printf("allowed:    process affinity %s; cgroup cpuset %s\n", a ? a : "unknown",
         c ? c : "unknown");
  if (online && aff && !hwloc_bitmap_isincluded(online, aff)) {
    char *on = list_text(online);
    limit(d, "this process may run on %d of the %d online CPUs (affinity %s of %s: taskset, "
          "numactl, or the batch system)", hwloc_bitmap_weight(aff), hwloc_bitmap_weight(online),
          a, on ? on : "?");
    free(on);
  }
  if (online && cg && !hwloc_bitmap_iszero(cg) && !hwloc_bitmap_isincluded(online, cg))
    limit(d, "the cgroup cpuset allows CPUs %s only, of %d online", c, hwloc_bitmap_weight(online));
  *usable = hwloc_bitmap_dup(aff ? aff : online);
  if (*usable && online)
    hwloc_bitmap_and(*usable, *usable, online);
  if (*usable && cg && !hwloc_bitmap_iszero(cg))
    hwloc_bitmap_and(*usable, *usable, cg);
  free(a);
  free(c);
  hwloc_bitmap_free(aff);
  hwloc_bitmap_free(cg);
}

/* Quota in CPUs from DIR: cgroup v2 cpu.max, else v1 cfs files; <0 if none. */
static double dir_quota(const char *dir, char *how, size_t len)
{
  char *max = read_line(dir, "cpu.max"), *q, *p;
  double quota = -1, period;
  if (max) {
    char word[32];
    if (sscanf(max, "%31s %lf", word, &period) == 2 && strcmp(word, "max") != 0 && period > 0) {
      quota = strtod(word, NULL) / period;
      snprintf(how, len, "cpu.max '%s' in %s", max, dir);
    }
    free(max);
    return quota;
  }
  q = read_line(dir, "cpu.cfs_quota_us");
  p = read_line(dir, "cpu.cfs_period_us");
  if (q && p && atof(q) > 0 && atof(p) > 0) {
    quota = atof(q) / atof(p);
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
static void section_quota(struct doctor *d, hwloc_const_bitmap_t usable)
{
  char dir[PATH_MAX], how[PATH_MAX + 128] = "", best_how[PATH_MAX + 128] = "";
  double best = -1, q;
  int ncpus = usable ? hwloc_bitmap_weight(usable) : 0;
  if (!d->cgroup) {
    printf("CPU quota:  unknown (no cgroup found)\n");
    return;
  }
  snprintf(dir, sizeof(dir), "%s", d->cgroup);
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
  if (best < 0) {
    printf("CPU quota:  none (cgroup %s)\n", d->cgroup);
    return;
  }
  printf("CPU quota:  %.2f CPUs (%s)\n", best, best_how);
  if (ncpus > 0 && best < ncpus)
    limit(d, "the cgroup CPU quota of %.2f CPUs is below the %d usable CPUs: more than %d busy "
          "threads get throttled; use OMP_NUM_THREADS=%d", best, ncpus,
          best >= 1 ? (int)best : 1, best >= 1 ? (int)best : 1);
}

static void section_topology(const omp_ext_topo_t *topo)
{
  printf("topology:   %s: %u packages, %u cores, %u allowed PUs, up to %u PUs per core, "
         "%u CPU kind%s\n", omp_ext_topo_source(topo), omp_ext_topo_npackages(topo),
         omp_ext_topo_ncores(topo), omp_ext_topo_npus(topo), omp_ext_topo_max_smt(topo),
         omp_ext_topo_nkinds(topo), omp_ext_topo_nkinds(topo) > 1 ? "s" : "");
  if (omp_ext_topo_nkinds(topo) > 1) {
    unsigned i, fast = 0;
    for (i = 0; i < omp_ext_topo_npus(topo); i++)
      fast += omp_ext_topo_pu(topo, i)->kind == 0;
    printf("  note: hybrid CPU: %u of %u PUs are of the most performant kind; threads on the "
           "others finish later and hold back every barrier (the policies place threads on "
           "kind 0 first)\n", fast, omp_ext_topo_npus(topo));
  }
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

static int run_spinners(struct doctor *d, const omp_ext_topo_t *topo, const omp_ext_pu_t *order,
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
  deadline.tv_sec += (time_t)d->duration;
  deadline.tv_nsec += (long)((d->duration - (double)(time_t)d->duration) * 1e9);
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

static void section_saturation(struct doctor *d, const omp_ext_topo_t *topo,
                               omp_ht_policy_t policy, const omp_ext_pu_t *order, unsigned n)
{
  struct spinner *sp;
  double wall = 0, total = 0;
  unsigned i, unbound = 0;
  if (!d->saturation)
    return;
  if (!order) {
    printf("saturation: skipped (the topology is not this machine's)\n");
    return;
  }
  if (!(sp = calloc(n, sizeof(*sp))) || run_spinners(d, topo, order, n, sp, &wall) != 0 ||
      wall <= 0) {
    limit(d, "the saturation test could not start %u threads", n);
    free(sp);
    return;
  }
  printf("saturation: %u threads placed by '%s' spinning %.2f s\n  thread  PU     CPU s\n", n,
         omp_ext_policy_name(policy), d->duration);
  for (i = 0; i < n; i++) {
    printf("  %6u  %-5u  %.3f%s\n", i, order[i].os_index, sp[i].cpu,
           sp[i].bound ? "" : "  (not bound)");
    total += sp[i].cpu;
    unbound += !sp[i].bound;
  }
  printf("  effective parallelism: %.2f of %u threads (total CPU %.3f s / wall %.3f s)\n",
         total / wall, n, total, wall);
  if (total / wall < 0.8 * n)
    limit(d, "only %.2f of %u spinning threads ran at once: something (quota, other load, "
          "offline or shared CPUs) limits parallel execution", total / wall, n);
  if (unbound)
    limit(d, "%u threads could not be bound to their PU", unbound);
  free(sp);
}

/* The saturation test's order: POLICY [N] from the arguments, default all
 * allowed PUs by 'speedup'; NULL order when the test does not run. */
static int saturation_order(struct doctor *d, struct htp_ctx *ctx, int argc, char **argv,
                            omp_ht_policy_t *policy, omp_ext_pu_t **order, unsigned *n)
{
  static char speedup[] = "speedup";
  char *dflt[2] = {speedup, NULL};
  *order = NULL;
  *n = 0;
  *policy = omp_ht_policy_speedup;
  if (argc > 0 && htp_parse_policy(argv[0], policy) != 0)
    return HTP_EXIT_USAGE;
  if (!d->saturation || !omp_ext_topo_is_thissystem(ctx->topo))
    return HTP_EXIT_OK;
  return htp_policy_order(ctx, argc ? argc : 1, argc ? argv : dflt, policy, order, n);
}

/* ---- cgroup discovery ---- */

/* This process's cgroup directory under ROOT (/sys/fs/cgroup): v2's
 * "0::PATH", else v1's cpu controller; v1 cpuset controller in *cpuset. */
static char *find_cgroup(const char *root, char **cpuset)
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

static int parse_duration(const char *arg, double *out)
{
  char *end;
  double v = strtod(arg, &end);
  if (end == arg || *end || !(v > 0 && v <= 60))
    return htp_error(HTP_EXIT_USAGE, "--duration must be seconds in (0, 60], got '%s'", arg);
  *out = v;
  return HTP_EXIT_OK;
}

int htp_cmd_doctor(struct htp_ctx *ctx, int argc, char **argv)
{
  static const struct option longopts[] = {
    HTP_COMMON_LONGOPTS, {"sysfs", required_argument, NULL, OPT_SYSFS},
    {"cgroup", required_argument, NULL, OPT_CGROUP},
    {"no-saturation", no_argument, NULL, OPT_NOSAT},
    {"duration", required_argument, NULL, OPT_DURATION}, {0}};
  struct doctor d = {"/sys", NULL, NULL, 1, 0.5, 0};
  const char *cgroup = getenv("HTPLACES_CGROUP");
  hwloc_bitmap_t online, usable = NULL;
  omp_ext_topo_t *topo;
  omp_ht_policy_t policy;
  omp_ext_pu_t *order = NULL;
  unsigned n = 0;
  int c, status = HTP_EXIT_OK;

  if (getenv("HTPLACES_SYSFS") && *getenv("HTPLACES_SYSFS"))
    d.sysfs = getenv("HTPLACES_SYSFS");
  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, longopts, NULL)) != -1) {
    if (htp_common_option(ctx, c, optarg, optopt, argv))
      continue;
    if (c == OPT_SYSFS)
      d.sysfs = optarg;
    else if (c == OPT_CGROUP)
      cgroup = optarg;
    else if (c == OPT_NOSAT)
      d.saturation = 0;
    else if (c == OPT_DURATION && (status = parse_duration(optarg, &d.duration)) != 0)
      return status;
  }
  if ((status = htp_no_format(ctx, "doctor")) != 0)
    return status;
  if (argc - optind > 2)
    return htp_error(HTP_EXIT_USAGE, "unexpected argument '%s'; usage: htplaces doctor "
                     "[options] [POLICY [N]]", argv[optind + 2]);
  if (!ctx->input && (status = htp_this_machine("doctor")) != 0)
    return status;
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  if ((status = saturation_order(&d, ctx, argc - optind, argv + optind, &policy, &order, &n)) != 0)
    return status;
  if (cgroup && *cgroup)
    d.cgroup = strdup(cgroup);
  else
    d.cgroup = find_cgroup("/sys/fs/cgroup", &d.cpuset_dir);

  section_smt(&d);
  online = section_cpus(&d);
  section_allowed(&d, online, &usable);
  section_quota(&d, usable);
  section_topology(topo);
  d.limits += htp_env_check(stdout, environ, topo);
  section_saturation(&d, topo, policy, order, n);
  if (d.limits)
    printf("%u limit%s or conflict%s found\n", d.limits, d.limits > 1 ? "s" : "",
           d.limits > 1 ? "s" : "");
  else
    printf("nothing found that limits parallel execution\n");
  hwloc_bitmap_free(online);
  hwloc_bitmap_free(usable);
  free(order);
  free(d.cgroup);
  free(d.cpuset_dir);
  if (fflush(stdout) != 0)
    return htp_error(HTP_EXIT_FAIL, "cannot write output");
  return d.limits ? HTP_EXIT_FAIL : HTP_EXIT_OK;
}
