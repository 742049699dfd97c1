/*
 * Calibration: the RAPL reader on fake powercap trees the tests write
 * (advancing counters, counter wrap, unreadable files), the least-squares
 * fit on samples from known models, the driver with a scripted energy
 * source, and htplaces calibrate's messages.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "private/tools.h" /* the tools interface: not exported (libomp_ext.a) */
#include "testutil.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"
#define BIG_RANGE 262143328850ULL

static const omp_ext_power_model_t c6100 = {76.11, 25.19, 9.68, 2.61};

/* ---- fake powercap trees ---------------------------------------------- */

static char *fake_root(void)
{
  char *root = strdup("/tmp/omp_ext_powercap.XXXXXX");
  CU_ASSERT_FATAL(root && mkdtemp(root) != NULL);
  return root;
}

static void write_file(const char *root, const char *zone, const char *file, const char *text)
{
  char path[4096];
  FILE *f;
  snprintf(path, sizeof(path), "%s/%s", root, zone);
  mkdir(path, 0755);
  snprintf(path, sizeof(path), "%s/%s/%s", root, zone, file);
  f = fopen(path, "w");
  CU_ASSERT_FATAL(f != NULL);
  fprintf(f, "%s\n", text);
  fclose(f);
}

static void set_energy(const char *root, const char *zone, unsigned long long uj)
{
  char text[32];
  snprintf(text, sizeof(text), "%llu", uj);
  write_file(root, zone, "energy_uj", text);
}

static void add_zone(const char *root, const char *zone, const char *name, unsigned long long uj,
                     unsigned long long max)
{
  char text[32];
  write_file(root, zone, "name", name);
  snprintf(text, sizeof(text), "%llu", max);
  write_file(root, zone, "max_energy_range_uj", text);
  set_energy(root, zone, uj);
}

/* Replace ZONE/energy_uj by a folder: unreadable even for root. */
static void break_energy(const char *root, const char *zone)
{
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s/energy_uj", root, zone);
  CU_ASSERT_FATAL(unlink(path) == 0 && mkdir(path, 0755) == 0);
}

static void repair_energy(const char *root, const char *zone, unsigned long long uj)
{
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s/energy_uj", root, zone);
  CU_ASSERT_FATAL(rmdir(path) == 0);
  set_energy(root, zone, uj);
}

static void remove_tree(char *root)
{
  char cmd[4200];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
  CU_ASSERT(system(cmd) == 0);
  free(root);
}

/* ---- reader ------------------------------------------------------------ */

static void test_rapl_advance(void)
{
  char *root = fake_root();
  omp_ext_rapl_t *r;
  double j;
  add_zone(root, "intel-rapl:0", "package-0", 1000, BIG_RANGE);
  add_zone(root, "intel-rapl:1", "package-1", 5000, BIG_RANGE);
  /* Not packages: a subzone, psys, and the MMIO duplicate of package 0. */
  add_zone(root, "intel-rapl:0:0", "core", 7, BIG_RANGE);
  add_zone(root, "intel-rapl:2", "psys", 9, BIG_RANGE);
  add_zone(root, "intel-rapl-mmio:0", "package-0", 11, BIG_RANGE);
  CU_ASSERT_FATAL(omp_ext_rapl_open(root, &r, NULL, 0) == 0);
  CU_ASSERT_EQUAL(omp_ext_rapl_nzones(r), 2);
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), 0);
  CU_ASSERT_DOUBLE_EQUAL(j, 0, 1e-12);
  /* +2 J on package 0, +1 J on package 1; the others move and must not count. */
  set_energy(root, "intel-rapl:0", 2001000);
  set_energy(root, "intel-rapl:1", 1005000);
  set_energy(root, "intel-rapl:0:0", 99000007);
  set_energy(root, "intel-rapl:2", 99000009);
  set_energy(root, "intel-rapl-mmio:0", 99000011);
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), 0);
  CU_ASSERT_DOUBLE_EQUAL(j, 3.0, 1e-12);
  /* No change: same total. */
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), 0);
  CU_ASSERT_DOUBLE_EQUAL(j, 3.0, 1e-12);
  /* The RAPL source reads the same counters. */
  set_energy(root, "intel-rapl:1", 1505000);
  {
    omp_ext_energy_source_t src = omp_ext_rapl_source(r);
    CU_ASSERT_EQUAL(src.read(src.arg, &j), 0);
    CU_ASSERT_DOUBLE_EQUAL(j, 3.5, 1e-12);
    CU_ASSERT_PTR_NULL(src.now);
  }
  omp_ext_rapl_close(r);
  remove_tree(root);
}

static void test_rapl_wrap(void)
{
  char *root = fake_root();
  omp_ext_rapl_t *r;
  double j;
  /* A 1 J counter range: 0.9 J -> 0.1 J is a wrap, 0.2 J used. */
  add_zone(root, "intel-rapl:0", "package-0", 900000, 1000000);
  CU_ASSERT_FATAL(omp_ext_rapl_open(root, &r, NULL, 0) == 0);
  set_energy(root, "intel-rapl:0", 100000);
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), 0);
  CU_ASSERT_DOUBLE_EQUAL(j, 0.2, 1e-12);
  set_energy(root, "intel-rapl:0", 400000);
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), 0);
  CU_ASSERT_DOUBLE_EQUAL(j, 0.5, 1e-12);
  /* Wrap to exactly 0. */
  set_energy(root, "intel-rapl:0", 0);
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), 0);
  CU_ASSERT_DOUBLE_EQUAL(j, 1.1, 1e-12);
  /* Above the range: a broken counter, not a wrap. */
  set_energy(root, "intel-rapl:0", 1000001);
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), omp_ext_err_unsupported);
  omp_ext_rapl_close(r);
  remove_tree(root);
}

static void test_rapl_unreadable(void)
{
  char *root = fake_root(), why[512];
  omp_ext_rapl_t *r = NULL;
  double j = -1;
  add_zone(root, "intel-rapl:0", "package-0", 1000, BIG_RANGE);
  add_zone(root, "intel-rapl:1", "package-1", 1000, BIG_RANGE);
  /* Unreadable at open: an error that names the file. */
  break_energy(root, "intel-rapl:1");
  why[0] = '\0';
  CU_ASSERT_EQUAL(omp_ext_rapl_open(root, &r, why, sizeof(why)), omp_ext_err_unsupported);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "intel-rapl:1"));
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "energy_uj"));
  repair_energy(root, "intel-rapl:1", 1000);
  CU_ASSERT_FATAL(omp_ext_rapl_open(root, &r, why, sizeof(why)) == 0);
  /* Unreadable while reading: error, and the total is not moved. */
  set_energy(root, "intel-rapl:0", 2001000);
  break_energy(root, "intel-rapl:1");
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), omp_ext_err_unsupported);
  repair_energy(root, "intel-rapl:1", 1000);
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), 0);
  CU_ASSERT_DOUBLE_EQUAL(j, 2.0, 1e-12);
  /* Not a number. */
  write_file(root, "intel-rapl:1", "energy_uj", "12abc");
  CU_ASSERT_EQUAL(omp_ext_rapl_read(r, &j), omp_ext_err_unsupported);
  omp_ext_rapl_close(r);
  /* A bad max_energy_range_uj fails the open. */
  write_file(root, "intel-rapl:1", "energy_uj", "5");
  write_file(root, "intel-rapl:1", "max_energy_range_uj", "-1");
  CU_ASSERT_EQUAL(omp_ext_rapl_open(root, &r, why, sizeof(why)), omp_ext_err_unsupported);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "max_energy_range_uj"));
  remove_tree(root);
}

static void test_rapl_missing(void)
{
  char *root = fake_root(), why[512];
  omp_ext_rapl_t *r = NULL;
  /* Empty tree, then only non-package zones. */
  CU_ASSERT_EQUAL(omp_ext_rapl_open(root, &r, why, sizeof(why)), omp_ext_err_unsupported);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "no RAPL package zone"));
  add_zone(root, "intel-rapl:0:0", "core", 1, BIG_RANGE);
  add_zone(root, "intel-rapl:0", "dram", 1, BIG_RANGE);
  CU_ASSERT_EQUAL(omp_ext_rapl_open(root, &r, why, sizeof(why)), omp_ext_err_unsupported);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "no RAPL package zone"));
  remove_tree(root);
  CU_ASSERT_EQUAL(omp_ext_rapl_open("/nonexistent/powercap", &r, why, sizeof(why)),
                  omp_ext_err_unsupported);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "/nonexistent/powercap"));
  CU_ASSERT_EQUAL(omp_ext_rapl_open(NULL, NULL, why, sizeof(why)), omp_ext_err_invalid);
}

static void test_rapl_env_root(void)
{
  char *root = fake_root();
  omp_ext_rapl_t *r = NULL;
  add_zone(root, "intel-rapl:0", "package-0", 1, BIG_RANGE);
  setenv("OMP_EXT_POWERCAP_ROOT", root, 1);
  CU_ASSERT_EQUAL(omp_ext_rapl_open(NULL, &r, NULL, 0), 0);
  CU_ASSERT_EQUAL(omp_ext_rapl_nzones(r), 1);
  omp_ext_rapl_close(r);
  unsetenv("OMP_EXT_POWERCAP_ROOT");
  remove_tree(root);
}

/* ---- fit ---------------------------------------------------------------- */

/* Samples as omp_ext_calibrate() takes them: idle, then each policy's
 * prefixes 1..npus on topology input, with the power of model pm. */
static unsigned model_samples(const char *input, const omp_ext_power_model_t *pm,
                              omp_ext_power_sample_t *s, unsigned max)
{
  static const omp_ht_policy_t pols[] = {omp_ht_policy_speedup, omp_ht_policy_spn};
  omp_ext_topo_t *topo;
  omp_ext_pu_t order[64];
  unsigned n = 0, p, k, npus;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, input, 0) == 0);
  npus = omp_ext_topo_npus(topo);
  CU_ASSERT_FATAL(npus <= 64 && 1 + 2 * npus <= max);
  memset(&s[n], 0, sizeof(s[n]));
  s[n++].watts = pm->pn;
  for (p = 0; p < 2; p++) {
    CU_ASSERT_FATAL(omp_ext_order(topo, NULL, pols[p], npus, order) == 0);
    for (k = 1; k <= npus; k++, n++) {
      CU_ASSERT_FATAL(omp_ext_usage_of(order, k, &s[n].usage) == 0);
      s[n].policy = pols[p];
      s[n].watts = omp_ext_model_power(pm, &s[n].usage);
    }
  }
  omp_ext_topo_destroy(topo);
  return n;
}

static void test_fit_exact(void)
{
  omp_ext_power_sample_t s[64];
  omp_ext_power_model_t pm;
  unsigned n = model_samples(C6100, &c6100, s, 64), det = 0;
  CU_ASSERT_EQUAL(n, 33);
  CU_ASSERT_EQUAL(omp_ext_power_fit(s, n, &pm, &det), 0);
  CU_ASSERT_DOUBLE_EQUAL(pm.pn, 76.11, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(pm.ps, 25.19, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(pm.pc, 9.68, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(pm.pt, 2.61, 1e-9);
  CU_ASSERT_EQUAL(det, omp_ext_fit_pn | omp_ext_fit_ps | omp_ext_fit_pc | omp_ext_fit_pt);
}

static void test_fit_noisy(void)
{
  /* +-0.5 W alternating noise: least squares stays within 0.5 W. */
  omp_ext_power_sample_t s[64];
  omp_ext_power_model_t pm;
  unsigned n = model_samples(C6100, &c6100, s, 64), i;
  for (i = 0; i < n; i++)
    s[i].watts += i % 2 ? 0.5 : -0.5;
  CU_ASSERT_EQUAL(omp_ext_power_fit(s, n, &pm, NULL), 0);
  CU_ASSERT(fabs(pm.pn - 76.11) < 0.5 && fabs(pm.ps - 25.19) < 0.5);
  CU_ASSERT(fabs(pm.pc - 9.68) < 0.5 && fabs(pm.pt - 2.61) < 0.5);
}

static void test_fit_no_smt(void)
{
  /* Without SMT (one PU per core) Pt cannot be seen: 0, bit clear. */
  omp_ext_power_sample_t s[64];
  omp_ext_power_model_t pm;
  unsigned n = model_samples("pack:2 core:4 pu:1", &c6100, s, 64), det = 0;
  CU_ASSERT_EQUAL(n, 17);
  CU_ASSERT_EQUAL(omp_ext_power_fit(s, n, &pm, &det), 0);
  CU_ASSERT_EQUAL(det, omp_ext_fit_pn | omp_ext_fit_ps | omp_ext_fit_pc);
  CU_ASSERT_DOUBLE_EQUAL(pm.pn, 76.11, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(pm.ps, 25.19, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(pm.pc, 9.68, 1e-9);
  CU_ASSERT_EQUAL(pm.pt, 0);
}

static void test_fit_undetermined(void)
{
  omp_ext_power_sample_t s[64];
  omp_ext_power_model_t pm = {1, 2, 3, 4};
  unsigned n = model_samples("pack:1 core:4 pu:1", &c6100, s, 64);
  /* One package and no idle sample: Pn and Ps always come together. */
  CU_ASSERT_EQUAL(omp_ext_power_fit(s + 1, 4, &pm, NULL), omp_ext_err_invalid);
  CU_ASSERT_DOUBLE_EQUAL(pm.pn, 1, 0); /* untouched */
  /* With the idle sample they separate. */
  CU_ASSERT_EQUAL(omp_ext_power_fit(s, n, &pm, NULL), 0);
  CU_ASSERT_DOUBLE_EQUAL(pm.ps, 25.19, 1e-9);
  /* Bad input. */
  CU_ASSERT_EQUAL(omp_ext_power_fit(s, 0, &pm, NULL), omp_ext_err_invalid);
  s[2].watts = NAN;
  CU_ASSERT_EQUAL(omp_ext_power_fit(s, n, &pm, NULL), omp_ext_err_invalid);
}

/* ---- driver with a scripted source -------------------------------------- */

/* Each sample reads time then energy, twice; the script gives 0.5 s per
 * sample and the energy of watts[i] over it, and records the threads alive
 * at each read. */
struct script {
  const double *watts;
  unsigned reads, nows;
  double joules;
  int tasks[128];
};

/* The live threads of this process: /proc/self/task without the ones
 * already exiting.  pthread_join() returns when the kernel clears the
 * thread's tid, which is in the middle of its exit: the task may still be
 * listed, in state R, for a while (long enough to be seen under a slow
 * virtual CPU).  The kernel sets PF_EXITING (flags, field 9 of stat,
 * proc(5)) before that point, so such tasks are left out. */
static int count_tasks(void)
{
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  int n = 0;
  if (!d)
    return -1;
  while ((e = readdir(d)) != NULL) {
    char path[300], buf[1024], state = '?';
    unsigned long flags = 0;
    const char *p;
    FILE *f;
    size_t len;
    if (e->d_name[0] == '.')
      continue;
    snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
    if (!(f = fopen(path, "r")))
      continue; /* gone already */
    len = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[len] = '\0';
    if (!(p = strrchr(buf, ')')) ||
        sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2)
      return -1;
    n += state != 'Z' && state != 'X' && !(flags & 0x4 /* PF_EXITING */);
  }
  closedir(d);
  return n;
}

static int script_read(void *arg, double *joules)
{
  struct script *s = arg;
  if (s->reads % 2 == 1)
    s->joules += s->watts[s->reads / 2] * 0.5;
  if (s->reads < 128)
    s->tasks[s->reads] = count_tasks();
  s->reads++;
  *joules = s->joules;
  return 0;
}

static double script_now(void *arg)
{
  struct script *s = arg;
  return 0.5 * s->nows++; /* 0, 0.5 | 1, 1.5 | ...: 0.5 s between a sample's reads */
}

static void test_calibrate_scripted(void)
{
  static const omp_ht_policy_t pols[] = {omp_ht_policy_speedup, omp_ht_policy_spn};
  omp_ext_topo_t *topo;
  omp_ext_power_sample_t expect[64], got[64];
  omp_ext_power_model_t pm;
  double watts[64];
  struct script sc;
  omp_ext_energy_source_t src;
  unsigned n, i, ngot = 0, det;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, NULL, 0) == 0);
  if (omp_ext_topo_npus(topo) > 8) {
    /* Keep the run short on big machines. */
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_copy(set, omp_ext_topo_allowed(topo));
    while (hwloc_bitmap_weight(set) > 8)
      hwloc_bitmap_clr(set, (unsigned)hwloc_bitmap_last(set));
    CU_ASSERT_FATAL(omp_ext_topo_restrict(topo, set) == 0);
    hwloc_bitmap_free(set);
  }
  /* What the driver must sample, and the powers the script will report. */
  n = 1;
  memset(&expect[0], 0, sizeof(expect[0]));
  for (i = 0; i < 2; i++) {
    omp_ext_pu_t order[8];
    unsigned k, npus = omp_ext_topo_npus(topo);
    CU_ASSERT_FATAL(omp_ext_order(topo, NULL, pols[i], npus, order) == 0);
    for (k = 1; k <= npus; k++, n++)
      CU_ASSERT_FATAL(omp_ext_usage_of(order, k, &expect[n].usage) == 0);
  }
  for (i = 0; i < n; i++)
    watts[i] = omp_ext_model_power(&c6100, &expect[i].usage);
  memset(&sc, 0, sizeof(sc));
  sc.watts = watts;
  src = (omp_ext_energy_source_t){script_read, script_now, &sc};
  CU_ASSERT_EQUAL(omp_ext_calibrate(topo, pols, 2, 0.01, src, got, &ngot), 0);
  CU_ASSERT_EQUAL_FATAL(ngot, n);
  CU_ASSERT_EQUAL(sc.reads, 2 * n);
  for (i = 0; i < n; i++) {
    CU_ASSERT_EQUAL(got[i].usage.threads, expect[i].usage.threads);
    CU_ASSERT_EQUAL(got[i].usage.cores, expect[i].usage.cores);
    CU_ASSERT_EQUAL(got[i].usage.packages, expect[i].usage.packages);
    CU_ASSERT_DOUBLE_EQUAL(got[i].watts, watts[i], 1e-9);
    /* While measuring, exactly N busy-loop threads run besides this one. */
    CU_ASSERT_EQUAL(sc.tasks[2 * i], 1 + (int)expect[i].usage.threads);
    CU_ASSERT_EQUAL(sc.tasks[2 * i + 1], 1 + (int)expect[i].usage.threads);
  }
  CU_ASSERT_EQUAL(got[1].policy, omp_ht_policy_speedup);
  CU_ASSERT_EQUAL(got[n - 1].policy, omp_ht_policy_spn);
  /* And the fit of what was measured gives back the model. */
  CU_ASSERT_EQUAL(omp_ext_power_fit(got, ngot, &pm, &det), 0);
  CU_ASSERT_DOUBLE_EQUAL(pm.pn, 76.11, 1e-6);
  CU_ASSERT_DOUBLE_EQUAL(pm.pc, 9.68, 1e-6);
  if (omp_ext_topo_max_smt(topo) > 1) {
    CU_ASSERT_DOUBLE_EQUAL(pm.pt, 2.61, 1e-6);
  } else {
    CU_ASSERT_EQUAL(det & omp_ext_fit_pt, 0);
  }
  omp_ext_topo_destroy(topo);
}

static void test_calibrate_errors(void)
{
  static const omp_ht_policy_t energy = omp_ht_policy_energy, spn = omp_ht_policy_spn;
  omp_ext_topo_t *topo, *synthetic;
  omp_ext_power_sample_t s[64];
  struct script sc;
  omp_ext_energy_source_t src = {script_read, script_now, &sc};
  double watts[64] = {0};
  unsigned n;
  memset(&sc, 0, sizeof(sc));
  sc.watts = watts;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, NULL, 0) == 0);
  CU_ASSERT_FATAL(omp_ext_topo_load(&synthetic, C6100, 0) == 0);
  CU_ASSERT_EQUAL(omp_ext_calibrate(synthetic, &spn, 1, 0.01, src, s, &n),
                  omp_ext_err_unsupported);
  CU_ASSERT_EQUAL(omp_ext_calibrate(topo, &energy, 1, 0.01, src, s, &n), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_calibrate(topo, &spn, 1, 0, src, s, &n), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_calibrate(topo, &spn, 0, 0.01, src, s, &n), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(sc.reads, 0);
  omp_ext_topo_destroy(synthetic);
  omp_ext_topo_destroy(topo);
}

/* ---- htplaces calibrate -------------------------------------------------- */

static struct run_result htplaces(const char *const *args, char *const *env)
{
  char *argv[16];
  struct run_result r;
  unsigned i = 0;
  argv[i++] = (char *)HTPLACES_BIN;
  for (; *args && i < 15; args++)
    argv[i++] = (char *)*args;
  argv[i] = NULL;
  CU_ASSERT_FATAL(run_capture(argv, env, &r) == 0);
  return r;
}

static void expect_error(const char *const *args, char *const *env, int status,
                         const char *needle)
{
  struct run_result r = htplaces(args, env);
  CU_ASSERT_EQUAL(r.status, status);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(strncmp(r.err, "htplaces: ", 10), 0);
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, needle));
  run_free(&r);
}

/* ---- perf power/energy-pkg ------------------------------------------------ */

static void test_perf_unavailable(void)
{
  char *pmu = fake_root(), why[512];
  omp_ext_perf_energy_t *p = NULL;
  CU_ASSERT_EQUAL(omp_ext_perf_energy_open("/nonexistent/pmu", &p, why, sizeof(why)),
                  omp_ext_err_unsupported);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "no power PMU at /nonexistent/pmu"));
  /* A PMU without the event (as on machines without package RAPL). */
  write_file(pmu, ".", "type", "4242");
  write_file(pmu, ".", "cpumask", "0");
  CU_ASSERT_EQUAL(omp_ext_perf_energy_open(pmu, &p, why, sizeof(why)), omp_ext_err_unsupported);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "no energy-pkg event"));
  /* The event is listed but the kernel has no such PMU type: the open fails. */
  write_file(pmu, "events", "energy-pkg", "event=0x02");
  write_file(pmu, "events", "energy-pkg.scale", "2.3283064365386962890625e-10");
  CU_ASSERT_EQUAL(omp_ext_perf_energy_open(pmu, &p, why, sizeof(why)), omp_ext_err_unsupported);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "perf_event_open(power/energy-pkg, cpu 0)"));
  CU_ASSERT_PTR_NULL(p);
  CU_ASSERT_EQUAL(omp_ext_perf_energy_open(pmu, NULL, why, sizeof(why)), omp_ext_err_invalid);
  remove_tree(pmu);
}

static void test_cli_no_source(void)
{
  static char *env_missing[] = {"OMP_EXT_POWERCAP_ROOT=/nonexistent/powercap", NULL};
  char *root = fake_root();
  /* Keep the real perf PMU out of it: these runs must find no source. */
  setenv("OMP_EXT_PERF_POWER_PMU", "/nonexistent/pmu", 1);
  expect_error((const char *const[]){"calibrate", "--powercap", "/nonexistent/pc", NULL}, NULL, 1,
               "cannot open /nonexistent/pc");
  expect_error((const char *const[]){"calibrate", NULL}, env_missing, 1, "no RAPL");
  expect_error((const char *const[]){"calibrate", "--powercap", root, NULL}, NULL, 1,
               "no RAPL package zone");
  add_zone(root, "intel-rapl:0", "package-0", 1, BIG_RANGE);
  break_energy(root, "intel-rapl:0");
  expect_error((const char *const[]){"calibrate", "--powercap", root, NULL}, NULL, 1,
               "energy_uj");
  expect_error((const char *const[]){"calibrate", "--powercap", root, "--perf-pmu", "/no/pmu",
                                     NULL}, NULL, 1, "no power PMU at /no/pmu");
  unsetenv("OMP_EXT_PERF_POWER_PMU");
  remove_tree(root);
}

static void test_cli_usage(void)
{
  expect_error((const char *const[]){"calibrate", "--seconds", "0", NULL}, NULL, 2, "--seconds");
  expect_error((const char *const[]){"calibrate", "--seconds", "x", NULL}, NULL, 2, "--seconds");
  expect_error((const char *const[]){"calibrate", "energy", NULL}, NULL, 2, "base orders");
  expect_error((const char *const[]){"calibrate", "nope", NULL}, NULL, 2, "unknown policy");
  expect_error((const char *const[]){"-i", C6100, "calibrate", NULL}, NULL, 2, "this machine");
  expect_error((const char *const[]){"calibrate", "-f", "json", NULL}, NULL, 2, "--format");
}

static void test_cli_fake_tree(void)
{
  /* Counters that never move: every sample 0 W, the fit all zeros and said
   * to be unusable; one row per sample. */
  char *root = fake_root();
  struct run_result r;
  omp_ext_topo_t *topo;
  unsigned npus;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, NULL, 0) == 0);
  npus = omp_ext_topo_npus(topo);
  omp_ext_topo_destroy(topo);
  add_zone(root, "intel-rapl:0", "package-0", 12345, BIG_RANGE);
  r = htplaces((const char *const[]){"calibrate", "--powercap", root, "--seconds", "0.01", "spn",
                                     NULL}, NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nidle        0    0     0     0       0.00"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "power model (least squares, watts): Pn 0.00, Ps 0.00"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "not a usable model"));
  /* header + idle + one row per N, blank, model line, notes */
  CU_ASSERT(count_lines(r.out) >= 2 + npus + 3);
  run_free(&r);
  remove_tree(root);
}

static CU_TestInfo reader_tests[] = {
  {"advancing counters, only package zones", test_rapl_advance},
  {"counter wrap", test_rapl_wrap},
  {"unreadable files", test_rapl_unreadable},
  {"no package zone, no tree", test_rapl_missing},
  {"OMP_EXT_POWERCAP_ROOT", test_rapl_env_root},
  {"perf power PMU unavailable", test_perf_unavailable},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo fit_tests[] = {
  {"exact model back", test_fit_exact},
  {"noisy samples", test_fit_noisy},
  {"no SMT: Pt undetermined", test_fit_no_smt},
  {"collinear samples rejected", test_fit_undetermined},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo driver_tests[] = {
  {"scripted source: samples, busy threads, fit", test_calibrate_scripted},
  {"errors", test_calibrate_errors},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo cli_tests[] = {
  {"no readable source: message, exit 1", test_cli_no_source},
  {"usage errors: exit 2", test_cli_usage},
  {"fake tree end to end", test_cli_fake_tree},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"RAPL reader", NULL, NULL, NULL, NULL, reader_tests},
  {"least-squares fit", NULL, NULL, NULL, NULL, fit_tests},
  {"calibration driver", NULL, NULL, NULL, NULL, driver_tests},
  {"htplaces calibrate", NULL, NULL, NULL, NULL, cli_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
