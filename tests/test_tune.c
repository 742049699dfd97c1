/*
 * htplaces tune: the analysis on crafted timings with known answers (S_N,
 * Karp-Flatt s, sigma, SPN, energy, confidence intervals, the significance
 * verdict, the tie rule), the plan (automatic thread counts, the seeded
 * shuffle, list parsing) -- never on measured times -- and the command end
 * to end on tests/tune_prog (files, recommendation line, every bad input).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cunit_main.h"
#include "testutil.h"
#include "tune_int.h"

/* A crafted configuration: runs with the given times, energy = watts x time. */
static void craft(struct tune_config *c, int policy, unsigned threads, unsigned cores,
                  unsigned extra, const double *times, unsigned n, double watts)
{
  unsigned i;
  memset(c, 0, sizeof(*c));
  c->policy = policy;
  c->threads = threads;
  c->usage.threads = threads;
  c->usage.cores = cores;
  c->usage.packages = 1;
  c->usage.extra = extra;
  c->runs = calloc(n, sizeof(*c->runs));
  c->nruns = n;
  for (i = 0; i < n; i++) {
    c->runs[i].round = i; /* run i in round i */
    c->runs[i].wall_s = times[i];
    c->runs[i].cpu_s = times[i] * threads;
    c->runs[i].energy_j = watts * times[i];
  }
}

/* Its places: place t on PU pus[t] of core cores[t]. */
static void place(struct tune_config *c, const unsigned *cores, const unsigned *pus)
{
  c->place_core = malloc(c->threads * sizeof(unsigned));
  c->place_pu = malloc(c->threads * sizeof(unsigned));
  memcpy(c->place_core, cores, c->threads * sizeof(unsigned));
  memcpy(c->place_pu, pus, c->threads * sizeof(unsigned));
}

static void free_configs(struct tune_config *c, unsigned n)
{
  unsigned i;
  for (i = 0; i < n; i++) {
    free(c[i].runs);
    free(c[i].place_core);
    free(c[i].place_pu);
    c[i].place_core = c[i].place_pu = NULL;
  }
}

static void test_sigma_formula(void)
{
  CU_ASSERT_DOUBLE_EQUAL(tune_sigma(5.0, 4.0), 0.25, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(tune_sigma(4.0, 4.0), 0.0, 1e-12);
  CU_ASSERT(isnan(tune_sigma(0, 4.0)));
  CU_ASSERT(isnan(tune_sigma(4.0, -1)));
}

/* none 1: 10 s; speedup 2 (2 cores): 5.5 s; spn 4 (2 cores + 2 siblings):
 * 4.4 s; all with a spread of +-0.1 s. */
static void test_analysis_known_answers(void)
{
  static const double t1[] = {9.9, 10.0, 10.1}, t2[] = {5.4, 5.5, 5.6}, t4[] = {4.3, 4.4, 4.5};
  struct tune_config c[3];
  struct tune_result r[3];
  struct tune_summary s;
  double spn, half;
  craft(&c[0], TUNE_NONE, 1, 1, 0, t1, 3, 100);
  static const unsigned c2[] = {0, 1}, p2[] = {0, 1}, c4[] = {0, 0, 1, 1}, p4[] = {0, 4, 1, 5};
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, t2, 3, 120);
  craft(&c[2], omp_ht_policy_spn, 4, 2, 2, t4, 3, 130);
  place(&c[1], c2, p2);
  place(&c[2], c4, p4);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.baseline, 0);
  CU_ASSERT_EQUAL(r[0].ok, 3);
  CU_ASSERT_DOUBLE_EQUAL(r[0].time.median, 10.0, 1e-12);
  /* 95% CI of the mean: 10 -+ t(0.975, 2) * 0.1 / sqrt(3) = 10 -+ 0.24843 */
  half = 4.303 * 0.1 / sqrt(3);
  CU_ASSERT_DOUBLE_EQUAL(r[0].time.ci95_lo, 10.0 - half, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r[0].time.ci95_hi, 10.0 + half, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r[1].speedup, 10.0 / 5.5, 1e-12);
  /* Karp-Flatt: s = (N - S) / (S (N - 1)) = (2 - 20/11) / (20/11) = 0.1 */
  CU_ASSERT_DOUBLE_EQUAL(r[1].serial, 0.1, 1e-9);
  CU_ASSERT_EQUAL(s.serial_from, 1); /* most cores, one PU each */
  CU_ASSERT_DOUBLE_EQUAL(s.serial, 0.1, 1e-9);
  /* sigma = T(2 one per core) / T(4 on the same 2 cores) - 1 = 5.5 / 4.4 - 1 */
  CU_ASSERT_EQUAL_FATAL(s.npairs, 1);
  CU_ASSERT_DOUBLE_EQUAL(s.sigma, 0.25, 1e-9);
  CU_ASSERT(s.pairs[0].one_per_core == 1 && s.pairs[0].two_per_core == 2);
  /* power = energy / time = 120 W; SPN = 1000 S / (P C) */
  CU_ASSERT_DOUBLE_EQUAL(r[1].power_w, 120, 1e-9);
  spn = 1000 * (10.0 / 5.5) / (120 * 2);
  CU_ASSERT_DOUBLE_EQUAL(r[1].metric[TUNE_SPN].median, spn, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r[2].metric[TUNE_ENERGY].median, 130 * 4.4, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r[2].metric[TUNE_EDP].median, 130 * 4.4 * 4.4, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r[1].cpu_util, 1.0, 1e-9);
  /* time: spn 4 (4.4 s) beats speedup 2 (5.5 s), CIs disjoint */
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 2);
  CU_ASSERT_EQUAL(s.runner_up[TUNE_TIME], 1);
  CU_ASSERT_EQUAL(s.significant[TUNE_TIME], 1);
  /* energy: 100 * 10 = 1000 J, 120 * 5.5 = 660 J, 130 * 4.4 = 572 J */
  CU_ASSERT_EQUAL(s.best[TUNE_ENERGY], 2);
  /* SPN: none 1 = 1000 / 100 = 10; speedup 2 = 7.58; spn 4 = 8.74 */
  CU_ASSERT_EQUAL(s.best[TUNE_SPN], 0);
  CU_ASSERT_EQUAL(s.runner_up[TUNE_SPN], 2);
  tune_free_summary(&s);
  free_configs(c, 3);
}

/* Not significantly different by the paired test (the per-round ratios
 * a/b: 0.98, 1.017, 1.045): the configuration with fewer cores wins
 * although its median is slower. */
static void test_tie_goes_to_fewer_cores(void)
{
  static const double t1[] = {10, 10, 10}, a[] = {5.0, 6.0, 7.0}, b[] = {5.1, 5.9, 6.7};
  struct tune_config c[3];
  struct tune_result r[3];
  struct tune_summary s;
  craft(&c[0], TUNE_NONE, 1, 1, 0, t1, 3, 100);
  craft(&c[1], omp_ht_policy_spn, 4, 2, 2, a, 3, 100);    /* 2 cores, 6.0 s */
  craft(&c[2], omp_ht_policy_speedup, 4, 4, 0, b, 3, 100); /* 4 cores, 5.9 s */
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.significant[TUNE_TIME], 0);
  CU_ASSERT_EQUAL(s.fastest[TUNE_TIME], 2);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 1);
  CU_ASSERT_EQUAL(s.runner_up[TUNE_TIME], 2);
  CU_ASSERT_EQUAL(s.ntied[TUNE_TIME], 2);
  CU_ASSERT(r[1].tied[TUNE_TIME] && r[2].tied[TUNE_TIME] && !r[0].tied[TUNE_TIME]);
  tune_free_summary(&s);
  /* 2% faster than 5.0, 6.0, 7.0 in every round: significant by the
   * paired test although the 95% intervals overlap */
  c[2].runs[0].wall_s = 4.9, c[2].runs[1].wall_s = 5.88, c[2].runs[2].wall_s = 6.86;
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.significant[TUNE_TIME], 1);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 2);
  CU_ASSERT_EQUAL(s.ntied[TUNE_TIME], 1);
  tune_free_summary(&s);
  /* far faster: the faster one wins even with more cores */
  c[2].runs[0].wall_s = c[2].runs[1].wall_s = c[2].runs[2].wall_s = 3.0;
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.significant[TUNE_TIME], 1);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 2);
  tune_free_summary(&s);
  free_configs(c, 3);
}

/* Issue 26: 1 thread, 95% CI [0.488, 0.559], against 2 threads [0.444,
 * 0.515] and the same 2 threads under another policy: not significantly
 * slower than the fastest, so the cheapest -- 1 thread -- is recommended
 * (the old rule compared the best with its runner-up only, the other
 * 2-thread policy, and recommended 2 threads). */
static void test_tie_among_all(void)
{
  static const double one[] = {0.509, 0.524, 0.5375}, two[] = {0.494, 0.479, 0.4655},
                      other[] = {0.470, 0.480, 0.490};
  struct tune_config c[3];
  struct tune_result r[3];
  struct tune_summary s;
  craft(&c[0], omp_ht_policy_speedup, 1, 1, 0, one, 3, 100);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, two, 3, 100);
  craft(&c[2], omp_ht_policy_spread, 2, 2, 0, other, 3, 100);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  CU_ASSERT_DOUBLE_EQUAL(r[0].time.ci95_lo, 0.488, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL(r[0].time.ci95_hi, 0.559, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL(r[1].time.ci95_lo, 0.444, 0.0005);
  CU_ASSERT_DOUBLE_EQUAL(r[1].time.ci95_hi, 0.515, 0.0005);
  CU_ASSERT_EQUAL(s.fastest[TUNE_TIME], 2 - 1); /* 0.479 s */
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 0);
  CU_ASSERT_EQUAL(s.ntied[TUNE_TIME], 3);
  CU_ASSERT_EQUAL(s.significant[TUNE_TIME], 0);
  CU_ASSERT(r[0].tied[TUNE_TIME] && r[1].tied[TUNE_TIME] && r[2].tied[TUNE_TIME]);
  CU_ASSERT_EQUAL(r[0].paired[TUNE_TIME], 3);
  tune_free_summary(&s);
  free_configs(c, 3);
}

/* A configuration alone: no runner-up, so never "significant". */
static void test_alone_not_significant(void)
{
  static const double t[] = {1, 2, 3};
  struct tune_config c;
  struct tune_result r;
  struct tune_summary s;
  craft(&c, omp_ht_policy_spn, 2, 2, 0, t, 3, 100);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(&c, 1, NULL, NULL, &r, &s), 0);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 0);
  CU_ASSERT_EQUAL(s.runner_up[TUNE_TIME], -1);
  CU_ASSERT_EQUAL(s.significant[TUNE_TIME], 0);
  tune_free_summary(&s);
  free_configs(&c, 1);
}

/* Karp-Flatt where S_N <= 1: s = 1 (reported, not "not measurable"). */
static void test_karp_flatt_no_speedup(void)
{
  static const double t1[] = {10, 10, 10}, same[] = {10, 10, 10}, slower[] = {12, 12, 12};
  struct tune_config c[2];
  struct tune_result r[2];
  struct tune_summary s;
  craft(&c[0], omp_ht_policy_speedup, 1, 1, 0, t1, 3, 100);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, same, 3, 100);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  CU_ASSERT_DOUBLE_EQUAL(r[1].serial, 1, 1e-12);
  CU_ASSERT_EQUAL(s.serial_from, 1);
  CU_ASSERT_DOUBLE_EQUAL(s.serial, 1, 1e-12);
  tune_free_summary(&s);
  free_configs(&c[1], 1);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, slower, 3, 100);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  /* slower than one thread: 1 as well ((1/S - 1/N) / (1 - 1/N) would be 1.4) */
  CU_ASSERT_DOUBLE_EQUAL(r[1].serial, 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(r[1].speedup, 10.0 / 12, 1e-12);
  tune_free_summary(&s);
  free_configs(c, 2);
}

/* A configuration with a failed run is marked failed and never recommended;
 * without a 1-thread run there is no speed-up nor serial fraction. */
static void test_failed_and_no_baseline(void)
{
  static const double t[] = {2, 2, 2}, u[] = {1, 1, 1};
  struct tune_config c[2];
  struct tune_result r[2];
  struct tune_summary s;
  craft(&c[0], omp_ht_policy_spn, 2, 1, 1, t, 3, 100);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, u, 3, 100);
  c[1].runs[1].status = 7;
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(r[1].failed, 1);
  CU_ASSERT_EQUAL(r[1].ok, 2);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 0);
  CU_ASSERT_EQUAL(s.runner_up[TUNE_TIME], -1);
  CU_ASSERT_EQUAL(s.baseline, -1);
  CU_ASSERT(isnan(r[0].speedup));
  CU_ASSERT(isnan(s.serial));
  CU_ASSERT_EQUAL(s.npairs, 0);
  CU_ASSERT(isnan(s.sigma));
  free_configs(c, 2);
}


/* A timing file as omp_ext's timing layer writes it: regions read back. */
static void test_read_timing(void)
{
  char path[] = "/tmp/test-tune-timing-XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fdopen(fd, "w");
  struct tune_config c;
  double serial;
  char why[160];
  memset(&c, 0, sizeof(c));
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("{\"omp_ext_timing\": 1, \"wall_s\": 2.5, \"regions_s\": 2.0, \"serial_s\": 0.5,\n"
        " \"regions\": [\n"
        "  {\"name\": \"main._omp_fn.0\", \"kind\": \"parallel\", \"address\": \"0x1\", "
        "\"instances\": 10, \"team_sizes\": [2, 4], \"total_s\": 1.5, \"mean_s\": 0.15, "
        "\"median_s\": 0.14, \"min_s\": 0.1, \"max_s\": 0.3},\n"
        "  {\"name\": \"a\\\"b+0x10\", \"kind\": \"parallel\", \"address\": \"0x2\", "
        "\"instances\": 1, \"team_sizes\": [4], \"total_s\": 0.5, \"mean_s\": 0.5, "
        "\"median_s\": 0.5, \"min_s\": 0.5, \"max_s\": 0.5}\n"
        "]}\n", f);
  fclose(f);
  CU_ASSERT_EQUAL_FATAL(tune_read_timing(path, &c, &serial, why, sizeof(why)), 0);
  CU_ASSERT_DOUBLE_EQUAL(serial, 0.5, 1e-12);
  CU_ASSERT_EQUAL_FATAL(c.nregions, 2);
  CU_ASSERT_STRING_EQUAL(c.regions[0].name, "main._omp_fn.0");
  CU_ASSERT_EQUAL(c.regions[0].instances, 10);
  CU_ASSERT_EQUAL(c.regions[0].team_max, 4);
  CU_ASSERT_DOUBLE_EQUAL(c.regions[0].total_s[0], 1.5, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(c.regions[0].median_s[0], 0.14, 1e-12);
  CU_ASSERT_STRING_EQUAL(c.regions[1].name, "a\"b+0x10");
  /* a second run adds to the same regions */
  CU_ASSERT_EQUAL(tune_read_timing(path, &c, &serial, why, sizeof(why)), 0);
  CU_ASSERT_EQUAL(c.nregions, 2);
  CU_ASSERT_EQUAL(c.regions[0].nruns, 2);
  tune_free_regions(&c);
  unlink(path);
  CU_ASSERT_EQUAL(tune_read_timing(path, &c, &serial, why, sizeof(why)), -1); /* missing */
}

/* One crafted region in a 1-thread baseline (8 s), speedup 2 on 2 cores
 * (5 s) and spn 4 on the same 2 cores (4 s): its best is spn 4, its
 * speed-up 2, its Karp-Flatt s at speedup 2 (S = 1.6) 0.25, its sigma
 * 5 / 4 - 1 = 0.25. */
static void add_region(struct tune_config *c, const char *name, double total)
{
  unsigned k;
  c->regions = calloc(1, sizeof(*c->regions));
  c->nregions = 1;
  c->regions[0].key = strdup(name);
  c->regions[0].name = strdup(name);
  c->regions[0].nruns = c->nruns;
  c->regions[0].instances = 3;
  c->regions[0].team_max = c->threads;
  c->regions[0].total_s = calloc(c->nruns, sizeof(double));
  c->regions[0].median_s = calloc(c->nruns, sizeof(double));
  for (k = 0; k < c->nruns; k++) {
    c->regions[0].total_s[k] = total;
    c->regions[0].median_s[k] = total / 3;
  }
}

/* auto (OMP_EXT_HT_POLICY=auto) far faster than every global configuration
 * and alone at its speed: compared with the fastest global one (its ratio),
 * never the fastest, the recommended one, a runner-up, one of the tied
 * count, nor a region's best (issue 23: a run-time choice, not a setting for
 * htplaces exec). */
static void test_auto_never_recommended(void)
{
  static const double t1[] = {10, 10, 10}, t2[] = {6, 6.2, 5.8}, ta[] = {3, 3.1, 2.9};
  static const unsigned c2[] = {0, 1}, p2[] = {0, 1};
  struct tune_config c[3];
  struct tune_result r[3];
  struct tune_summary s;
  char label[64];
  unsigned i;
  int o;
  craft(&c[0], omp_ht_policy_spn, 1, 1, 0, t1, 3, 100);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, t2, 3, 100);
  craft(&c[2], TUNE_AUTO, 2, 2, 0, ta, 3, 100);
  place(&c[1], c2, p2);
  add_region(&c[0], "work", 8);
  add_region(&c[1], "work", 5);
  add_region(&c[2], "work", 1);
  c[2].regions[0].control = strdup("speedup:2");
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  for (o = 0; o < TUNE_NOBJECTIVES; o++) { /* (auto is also the best by energy, EDP) */
    CU_ASSERT(s.fastest[o] >= 0 && s.fastest[o] != 2);
    CU_ASSERT(s.best[o] >= 0 && s.best[o] != 2);
    CU_ASSERT_NOT_EQUAL(s.runner_up[o], 2);
  }
  CU_ASSERT_EQUAL(s.fastest[TUNE_TIME], 1);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 1);
  CU_ASSERT_EQUAL(s.ntied[TUNE_TIME], 1);
  CU_ASSERT_EQUAL(s.significant[TUNE_TIME], 1);
  CU_ASSERT_DOUBLE_EQUAL(r[2].ratio[TUNE_TIME], 0.5, 0.01); /* half the fastest global's */
  CU_ASSERT_EQUAL(r[2].paired[TUNE_TIME], 3);
  CU_ASSERT_EQUAL(r[2].ok, 3);
  CU_ASSERT(isnan(r[2].serial)); /* no one N: no Karp-Flatt */
  CU_ASSERT_EQUAL(s.baseline, 0);
  CU_ASSERT_EQUAL_FATAL(s.nregions, 1);
  CU_ASSERT_EQUAL(s.regions[0].best, 1); /* 5 s under speedup 2; 1 s under auto */
  tune_config_label(&c[2], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "auto");
  c[2].wait = TUNE_WAIT_ACTIVE;
  tune_config_label(&c[2], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "auto active");
  CU_ASSERT_STRING_EQUAL(tune_policy_name(c[2].policy), "auto");
  tune_free_summary(&s);
  /* auto alone: nothing to recommend */
  CU_ASSERT_EQUAL_FATAL(tune_analyse(&c[2], 1, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], -1);
  CU_ASSERT_EQUAL(s.fastest[TUNE_TIME], -1);
  CU_ASSERT_EQUAL(s.regions[0].best, -1);
  tune_free_summary(&s);
  for (i = 0; i < 3; i++)
    tune_free_regions(&c[i]);
  free_configs(c, 3);
}

/* Region g of c with these per-run totals (nruns of them). */
static void add_region_runs(struct tune_config *c, unsigned g, const char *key,
                            const double *total)
{
  struct tune_region *y = &c->regions[g];
  unsigned k;
  y->key = strdup(key);
  y->name = strdup(key);
  y->nruns = c->nruns;
  y->instances = 3;
  y->team_max = c->threads;
  y->total_s = calloc(c->nruns, sizeof(double));
  y->median_s = calloc(c->nruns, sizeof(double));
  for (k = 0; k < c->nruns; k++)
    y->median_s[k] = (y->total_s[k] = total[k]) / 3;
}

/* The recommended global configuration is speedup 2 (5 s; spn 4 takes
 * 6 s).  Region "tie" is 3 % faster at spn 4: within TUNE_REGION_TIE, it
 * stays at speedup 2 (best 1, fastest 2).  Region "noisy" is 7 % faster at
 * spn 4 by its median but within the spread of spn 4's own runs: it stays
 * too.  Region "gain" is 20 % faster at spn 4 in every run: it moves. */
static void test_region_tie(void)
{
  static const double t1[] = {10, 10, 10}, t2[] = {5, 5, 5}, t4[] = {6, 6, 6};
  static const double tie2[] = {1, 1, 1}, tie4[] = {0.97, 0.97, 0.97};
  static const double noisy2[] = {1, 1, 1}, noisy4[] = {0.9, 0.93, 1.02};
  static const double gain2[] = {1, 1, 1}, gain4[] = {0.8, 0.8, 0.8};
  static const unsigned c2[] = {0, 1}, p2[] = {0, 1}, c4[] = {0, 0, 1, 1}, p4[] = {0, 4, 1, 5};
  struct tune_config c[3];
  struct tune_result r[3];
  struct tune_summary s;
  unsigned i, k;
  craft(&c[0], TUNE_NONE, 1, 1, 0, t1, 3, 100);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, t2, 3, 100);
  craft(&c[2], omp_ht_policy_spn, 4, 2, 2, t4, 3, 100);
  place(&c[1], c2, p2);
  place(&c[2], c4, p4);
  for (i = 0; i < 3; i++) {
    c[i].regions = calloc(3, sizeof(*c[i].regions));
    c[i].nregions = 3;
    add_region_runs(&c[i], 0, "tie", i == 2 ? tie4 : tie2);
    add_region_runs(&c[i], 1, "noisy", i == 2 ? noisy4 : noisy2);
    add_region_runs(&c[i], 2, "gain", i == 2 ? gain4 : gain2);
  }
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL_FATAL(s.best[TUNE_TIME], 1);
  CU_ASSERT_EQUAL_FATAL(s.nregions, 3);
  for (k = 0; k < s.nregions; k++) {
    const struct tune_region_summary *g = &s.regions[k];
    CU_ASSERT_EQUAL(g->fastest, 2);
    if (strcmp(g->key, "gain") == 0) {
      CU_ASSERT_EQUAL(g->best, 2);
      CU_ASSERT_DOUBLE_EQUAL(g->best_s, 0.8, 1e-12);
    } else {
      CU_ASSERT_EQUAL(g->best, 1);
      CU_ASSERT_DOUBLE_EQUAL(g->best_s, 1, 1e-12);
      CU_ASSERT_DOUBLE_EQUAL(g->fastest_s, strcmp(g->key, "tie") == 0 ? 0.97 : 0.93, 1e-12);
    }
  }
  tune_free_summary(&s);
  for (i = 0; i < 3; i++)
    tune_free_regions(&c[i]);
  free_configs(c, 3);
}

static void test_region_analysis(void)
{
  static const double t1[] = {10, 10, 10}, t2[] = {6, 6, 6}, t4[] = {5, 5, 5};
  struct tune_config c[3];
  struct tune_result r[3];
  struct tune_summary s;
  unsigned i;
  craft(&c[0], TUNE_NONE, 1, 1, 0, t1, 3, 100);
  static const unsigned c2[] = {0, 1}, p2[] = {0, 1}, c4[] = {0, 0, 1, 1}, p4[] = {0, 4, 1, 5};
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, t2, 3, 100);
  craft(&c[2], omp_ht_policy_spn, 4, 2, 2, t4, 3, 100);
  place(&c[1], c2, p2);
  place(&c[2], c4, p4);
  add_region(&c[0], "work", 8);
  add_region(&c[1], "work", 5);
  add_region(&c[2], "work", 4);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL_FATAL(s.nregions, 1);
  CU_ASSERT_STRING_EQUAL(s.regions[0].name, "work");
  CU_ASSERT_EQUAL(s.regions[0].best, 2);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].best_s, 4, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].best_median_s, 4.0 / 3, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].speedup, 2, 1e-12);
  CU_ASSERT_EQUAL(s.regions[0].npairs, 1);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].sigma, 0.25, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].serial, 0.25, 1e-9);
  CU_ASSERT_EQUAL(s.regions[0].team_max, 4);
  tune_free_summary(&s);
  for (i = 0; i < 3; i++)
    tune_free_regions(&c[i]);
  free_configs(c, 3);
}

/* A timing file's bindings against the places: spn 2 on PUs 0 and 1. */
#define LINE(b)                                                                               \
  "  {\"name\": \"work+0x10\", \"kind\": \"parallel\", \"address\": \"0x1\", \"instances\": 3, " \
  "\"team_sizes\": [2], \"total_s\": 1.5, \"mean_s\": 0.5, \"median_s\": 0.5, "               \
  "\"min_s\": 0.4, \"max_s\": 0.6, \"bindings\": [" b "]}"
static void test_check_binding(void)
{
  static unsigned pus[] = {0, 1};
  struct tune_config c;
  char why[160] = "", path[] = "/tmp/test-tune-bind-XXXXXX";
  double serial;
  int fd;
  FILE *f = NULL;
  memset(&c, 0, sizeof(c));
  c.policy = omp_ht_policy_spn;
  c.threads = 2;
  c.place_pu = pus;
  /* where intended: thread t on place t; a smaller team; a thread absent */
  CU_ASSERT_EQUAL(tune_check_binding(LINE("{\"team\": 2, \"threads\": [{\"cpus\": \"0\", "
                                          "\"pu\": 0}, {\"cpus\": \"1\", \"pu\": 1}]}"), &c, why,
                                     sizeof(why)), 0);
  CU_ASSERT_EQUAL(tune_check_binding(LINE("{\"team\": 1, \"threads\": [{\"cpus\": \"0\", "
                                          "\"pu\": 0}]}, {\"team\": 2, \"threads\": [{\"cpus\": "
                                          "\"0\", \"pu\": 0}, null]}"), &c, why, sizeof(why)), 0);
  CU_ASSERT_EQUAL(tune_check_binding(LINE(""), &c, why, sizeof(why)), 0);
  /* a team larger than the places: each thread on one of them */
  CU_ASSERT_EQUAL(tune_check_binding(LINE("{\"team\": 3, \"threads\": [{\"cpus\": \"0\", "
                                          "\"pu\": 0}, {\"cpus\": \"0\", \"pu\": 0}, {\"cpus\": "
                                          "\"1\", \"pu\": 1}]}"), &c, why, sizeof(why)), 0);
  CU_ASSERT_STRING_EQUAL(why, "");
  /* thread 1 moved to PU 0 */
  CU_ASSERT_EQUAL(tune_check_binding(LINE("{\"team\": 2, \"threads\": [{\"cpus\": \"0\", "
                                          "\"pu\": 0}, {\"cpus\": \"0\", \"pu\": 0}]}"), &c, why,
                                     sizeof(why)), 1);
  CU_ASSERT_STRING_EQUAL(why, "thread 1 of work+0x10 (team of 2) ran on PU 0 bound to {0}, not "
                              "on its place {1}");
  /* bound right but ran elsewhere; not bound at all; a third PU in a team of 3 */
  CU_ASSERT_EQUAL(tune_check_binding(LINE("{\"team\": 2, \"threads\": [{\"cpus\": \"0\", "
                                          "\"pu\": 1}, null]}"), &c, why, sizeof(why)), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "thread 0 of work+0x10 (team of 2) ran on PU 1 bound to {0}"));
  CU_ASSERT_EQUAL(tune_check_binding(LINE("{\"team\": 2, \"threads\": [{\"cpus\": \"0-1\", "
                                          "\"pu\": 0}, null]}"), &c, why, sizeof(why)), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "bound to {0-1}, not on its place {0}"));
  CU_ASSERT_EQUAL(tune_check_binding(LINE("{\"team\": 3, \"threads\": [{\"cpus\": \"0\", "
                                          "\"pu\": 0}, {\"cpus\": \"1\", \"pu\": 1}, {\"cpus\": "
                                          "\"5\", \"pu\": 5}]}"), &c, why, sizeof(why)), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "thread 2 of work+0x10 (team of 3) ran on PU 5 bound to "
                                     "{5}, not on any of its places"));
  /* "none" has no places: never checked */
  c.place_pu = NULL;
  CU_ASSERT_EQUAL(tune_check_binding(LINE("{\"team\": 2, \"threads\": [{\"cpus\": \"0\", "
                                          "\"pu\": 0}, {\"cpus\": \"0\", \"pu\": 0}]}"), &c, why,
                                     sizeof(why)), 0);
  /* a whole file: invalid, so none of its figures is kept */
  c.place_pu = pus;
  fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  f = fdopen(fd, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("{\"omp_ext_timing\": 1, \"wall_s\": 2.5, \"regions_s\": 2.0, \"serial_s\": 0.5,\n"
        " \"regions\": [\n" LINE("{\"team\": 2, \"threads\": [{\"cpus\": \"0\", \"pu\": 0}, "
                               "{\"cpus\": \"0\", \"pu\": 0}]}") "\n]}\n", f);
  fclose(f);
  CU_ASSERT_EQUAL(tune_read_timing(path, &c, &serial, why, sizeof(why)), 1);
  CU_ASSERT_EQUAL(c.nregions, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "thread 1 of work+0x10"));
  unlink(path);
}

/* An invalid run counts in no figure: the median is the valid runs'. */
static void test_invalid_run_left_out(void)
{
  static const double t[] = {1, 1, 1, 9};
  struct tune_config c;
  struct tune_result r;
  struct tune_summary s;
  craft(&c, omp_ht_policy_spn, 2, 2, 0, t, 4, 100);
  snprintf(c.runs[3].invalid, sizeof(c.runs[3].invalid), "thread 1 elsewhere");
  CU_ASSERT_EQUAL_FATAL(tune_analyse(&c, 1, NULL, NULL, &r, &s), 0);
  CU_ASSERT_EQUAL(r.ok, 3);
  CU_ASSERT_EQUAL(r.invalid, 1);
  CU_ASSERT_EQUAL(r.failed, 0);
  CU_ASSERT_DOUBLE_EQUAL(r.time.median, 1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(r.time.max, 1, 1e-12);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 0);
  tune_free_summary(&s);
  free_configs(&c, 1);
}

/* The exact line: OMP_EXT_SIGMA as measured (which omp_ext_share() and the
 * model read back), only when sigma was measured and in (0, 1]. */
static void test_exec_line_sigma(void)
{
  static const double t[] = {1, 1, 1};
  char *argv[] = {"./app", "a b", NULL}, *line, *env[2];
  struct tune_config c[2];
  struct tune_summary s;
  struct tune_report rep;
  omp_ext_model_t m;
  craft(&c[0], omp_ht_policy_spn, 4, 2, 2, t, 3, 100);
  craft(&c[1], TUNE_NONE, 2, 2, 0, t, 3, 100);
  memset(&s, 0, sizeof(s));
  memset(&rep, 0, sizeof(rep));
  rep.c = c, rep.n = 2, rep.s = &s, rep.argv = argv;
  s.npairs = 1, s.sigma = 0.25; /* T(2 on 2 cores) 5.5 s, T(4 on 2 cores) 4.4 s */
  line = tune_exec_line(&rep, 0);
  CU_ASSERT_STRING_EQUAL(line, "OMP_EXT_SIGMA=0.250 htplaces exec spn 4 -- ./app 'a b'");
  free(line);
  line = tune_exec_line(&rep, 1);
  CU_ASSERT_STRING_EQUAL(line, "OMP_EXT_SIGMA=0.250 OMP_NUM_THREADS=2 ./app 'a b'");
  /* what the library reads from it */
  line[strlen("OMP_EXT_SIGMA=0.250")] = '\0';
  env[0] = line, env[1] = NULL;
  CU_ASSERT_EQUAL(omp_ext_model_from_env(env, &m, NULL), 0);
  CU_ASSERT_DOUBLE_EQUAL(m.sigma, 0.25, 1e-12);
  free(line);
  s.sigma = 0; /* siblings add nothing: not a value OMP_EXT_SIGMA takes */
  line = tune_exec_line(&rep, 0);
  CU_ASSERT_STRING_EQUAL(line, "htplaces exec spn 4 -- ./app 'a b'");
  free(line);
  s.npairs = 0, s.sigma = NAN; /* not measured */
  line = tune_exec_line(&rep, 0);
  CU_ASSERT_STRING_EQUAL(line, "htplaces exec spn 4 -- ./app 'a b'");
  free(line);
  free_configs(c, 2);
}

/* --budget may leave a configuration with fewer than 3 runs: never
 * recommended from so little, however fast. */
static void test_too_few_runs(void)
{
  static const double slow[] = {0.1, 0.1, 5}, fast[] = {0.01, 0.01};
  struct tune_config c[2];
  struct tune_result r[2];
  struct tune_summary s;
  craft(&c[0], omp_ht_policy_spn, 2, 1, 1, slow, 3, 100);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, fast, 2, 100);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(r[1].ok, 2);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 0);
  CU_ASSERT_EQUAL(s.runner_up[TUNE_TIME], -1);
  /* a 95% interval of times never starts below 0: mean 1.733 -+ 7.03 */
  CU_ASSERT(r[0].time.sd > 2.8);
  CU_ASSERT_DOUBLE_EQUAL(r[0].time.ci95_lo, 0, 0);
  CU_ASSERT(r[0].time.ci95_hi > 8.7);
  tune_free_summary(&s);
  free_configs(c, 2);
}

static void test_auto_threads(void)
{
  unsigned v[64], n;
  n = tune_auto_threads(8, 16, 2, v, 64);
  CU_ASSERT_EQUAL_FATAL(n, 5);
  CU_ASSERT(v[0] == 1 && v[1] == 2 && v[2] == 4 && v[3] == 8 && v[4] == 16);
  n = tune_auto_threads(6, 12, 2, v, 64); /* 1, 1, 3, 6, 12 and 2, 6, 12 */
  CU_ASSERT_EQUAL_FATAL(n, 5);
  CU_ASSERT(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == 6 && v[4] == 12);
  n = tune_auto_threads(2, 2, 1, v, 64); /* no SMT: no doubling */
  CU_ASSERT_EQUAL_FATAL(n, 2);
  CU_ASSERT(v[0] == 1 && v[1] == 2);
  n = tune_auto_threads(4, 16, 4, v, 64); /* SMT4: 1, 1, 2, 4, 16 + 2, 4, 8 */
  CU_ASSERT_EQUAL_FATAL(n, 5);
  CU_ASSERT(v[0] == 1 && v[1] == 2 && v[2] == 4 && v[3] == 8 && v[4] == 16);
}

static void test_shuffle(void)
{
  unsigned a[10], b[10], c[10], seen = 0, i, same = 1;
  sweep_shuffle(a, 10, 42, 3);
  sweep_shuffle(b, 10, 42, 3);
  sweep_shuffle(c, 10, 42, 4);
  for (i = 0; i < 10; i++) {
    CU_ASSERT_EQUAL(a[i], b[i]);
    seen |= 1u << a[i];
    same &= a[i] == c[i];
  }
  CU_ASSERT_EQUAL(seen, 0x3ffu); /* a permutation */
  CU_ASSERT_FALSE(same);         /* another round, another order */
}

/* The sweep engine's rounds (omp_ext/tools/sweep/sweep.h) with a runner that
 * records its calls: every configuration once per round in the round's
 * order, the warm-up on round 0's first, and the budget's skip and stop. */
struct sweep_log {
  unsigned calls[32], ncalls, warm, skips;
};

static int log_run(void *ctx, unsigned config, unsigned round, double *seconds)
{
  struct sweep_log *l = ctx;
  l->calls[l->ncalls++] = round * 10 + config;
  *seconds = 0.5;
  return 0;
}

static int log_skip(void *ctx, unsigned config, unsigned round, const struct sweep_state *st)
{
  (void)config, (void)round, (void)st;
  ((struct sweep_log *)ctx)->skips++;
  return 0;
}

static int log_warm(void *ctx, unsigned config, double *seconds)
{
  ((struct sweep_log *)ctx)->warm = 100 + config;
  *seconds = 0.25;
  return 0;
}

static void test_sweep_rounds(void)
{
  struct sweep_plan p = {4, 3, 1, 7, 0};
  struct sweep_log l = {{0}, 0, 0, 0};
  struct sweep_runner r = {&l, log_run, NULL, log_skip, log_warm};
  struct sweep_state st = {0};
  unsigned order[4], keep[2] = {3, 1}, round, i;
  CU_ASSERT_EQUAL_FATAL(sweep_run(&p, &r, &st), 0);
  CU_ASSERT_EQUAL_FATAL(l.ncalls, 12);
  CU_ASSERT(st.done == 12 && st.total == 12 && st.rounds == 3 && st.skipped == 0);
  CU_ASSERT_DOUBLE_EQUAL(st.run_time, 6.0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(st.warmup_time, 0.25, 1e-12);
  for (round = 0; round < 3; round++) {
    sweep_shuffle(order, 4, 7, round);
    for (i = 0; i < 4; i++)
      CU_ASSERT_EQUAL(l.calls[round * 4 + i], round * 10 + order[i]);
    if (round == 0)
      CU_ASSERT_EQUAL(l.warm, 100 + order[0]);
  }
  /* the plan's order: 0..n-1 every round */
  p.shuffled = 0, l.ncalls = 0, r.warm_up = NULL, st = (struct sweep_state){0};
  CU_ASSERT_EQUAL(sweep_run(&p, &r, &st), 0);
  for (i = 0; i < 12; i++)
    CU_ASSERT_EQUAL(l.calls[i], i / 4 * 10 + i % 4);
  /* a subset: its members only, in the subset's own order */
  l.ncalls = 0;
  CU_ASSERT_EQUAL(sweep_round(&p, &r, &st, keep, 2, 5, SWEEP_STOP), 0);
  CU_ASSERT(l.ncalls == 2 && l.calls[0] == 53 && l.calls[1] == 51 && st.rounds == 6);
  /* the budget spent: every run skipped, or the round stopped */
  p.budget_s = 1, l.ncalls = 0, st = (struct sweep_state){0};
  st.start = sweep_now() - 2;
  CU_ASSERT_EQUAL(sweep_run(&p, &r, &st), 0);
  CU_ASSERT(l.ncalls == 0 && l.skips == 12 && st.skipped == 12 && st.budget_spent);
  l.skips = 0, st.skipped = 0;
  CU_ASSERT_EQUAL(sweep_round(&p, &r, &st, NULL, 4, 3, SWEEP_STOP), 0);
  CU_ASSERT(l.ncalls == 0 && l.skips == 0 && st.skipped == 0);
}

/* The sweep engine's launcher (sweep_spawn): plain with stdout captured
 * and the setup's environment, an exit status, a signal, an exec failure
 * (silent 127; with who: the line and 126/127); isolated: a stop on the
 * terminal, the timeout, a forwarded signal, CPU time from rusage. */
static void spawn_setup(void *ctx)
{
  setenv("SWEEP_SPAWN_TEST", ctx, 1);
}

static int spawn_interrupt(void *ctx, int sig)
{
  (void)sig;
  return *(int *)ctx;
}

static void test_sweep_spawn(void)
{
  char *echo[] = {"sh", "-c", "echo \"out $SWEEP_SPAWN_TEST\"; exit 3", NULL};
  char *killed[] = {"sh", "-c", "kill -USR1 $$", NULL};
  char *missing[] = {"/nonexistent/omp-ext-prog", NULL};
  char *stop[] = {"sh", "-c", "kill -TTIN $$; sleep 5", NULL};
  char *slow[] = {"sh", "-c", "sleep 5", NULL};
  char *spin[] = {"sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", NULL};
  struct sweep_spawn s;
  struct sweep_spawned w;
  sigset_t set, old;
  int forward = 0, devnull = open("/dev/null", O_WRONLY);
  memset(&s, 0, sizeof(s));
  s.argv = echo, s.search = 1, s.setup = spawn_setup, s.ctx = "env";
  s.in = s.err = -1, s.out = SWEEP_CAPTURE;
  CU_ASSERT_EQUAL_FATAL(sweep_spawn(&s, &w), 0);
  CU_ASSERT(w.exit_status == 3 && w.signal == 0 && w.out && !strcmp(w.out, "out env\n"));
  CU_ASSERT(w.exec_errno == 0 && WIFEXITED(w.status) && WEXITSTATUS(w.status) == 3);
  CU_ASSERT(w.wall_s > 0 && w.wall_s < 10 && w.user_s >= 0 && w.sys_s >= 0);
  free(w.out);
  s.argv = killed, s.setup = NULL, s.out = -1;
  CU_ASSERT_EQUAL(sweep_spawn(&s, &w), 0);
  CU_ASSERT(w.exit_status == -1 && w.signal == SIGUSR1 && !w.out);
  s.argv = missing, s.err = devnull;
  CU_ASSERT_EQUAL(sweep_spawn(&s, &w), 0);
  CU_ASSERT(w.exit_status == 127 && w.signal == 0 && w.exec_errno == ENOENT);
  s.argv = (char *[]){"/", NULL}, s.who = "test";
  CU_ASSERT_EQUAL(sweep_spawn(&s, &w), 0);
  CU_ASSERT(w.exit_status == 126 && w.exec_errno == EACCES); /* (a folder) */
  /* isolated */
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigprocmask(SIG_BLOCK, &set, &old);
  s.who = NULL, s.group = 1, s.wake = &set, s.argv = stop, s.out = devnull;
  CU_ASSERT_EQUAL(sweep_spawn(&s, &w), 0);
  CU_ASSERT(w.stopped == SIGTTIN && w.signal == SIGKILL && w.wall_s < 4);
  s.argv = slow, s.timeout_s = 0.3;
  CU_ASSERT_EQUAL(sweep_spawn(&s, &w), 0);
  CU_ASSERT(w.timed_out && w.signal == SIGKILL && w.wall_s >= 0.3 && w.wall_s < 4);
  /* (a grace period: with none the SIGKILL may come before sh has ended on
   * the SIGTERM) */
  s.timeout_s = 0, s.interrupt = spawn_interrupt, s.ctx = &forward, forward = SIGTERM;
  s.grace_s = 3;
  CU_ASSERT_EQUAL(sweep_spawn(&s, &w), 0);
  CU_ASSERT(w.interrupted == SIGTERM && !w.timed_out && w.signal == SIGTERM && w.wall_s < 4);
  s.argv = spin, s.interrupt = NULL;
  CU_ASSERT_EQUAL(sweep_spawn(&s, &w), 0);
  CU_ASSERT(w.exit_status == 0 && w.user_s + w.sys_s > 0.01 && w.user_s + w.sys_s < w.wall_s * 1.5);
  sigprocmask(SIG_SETMASK, &old, NULL);
  close(devnull);
}

static void test_parse_lists(void)
{
  int p[8];
  unsigned t[8], n;
  enum tune_wait w[3];
  CU_ASSERT_EQUAL(tune_parse_policies("spn,none,speedup", p, 8, &n), 0);
  CU_ASSERT(n == 3 && p[0] == omp_ht_policy_spn && p[1] == TUNE_NONE &&
            p[2] == omp_ht_policy_speedup);
  CU_ASSERT_EQUAL(tune_parse_policies("spn,,none", p, 8, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_policies("spn,bogus", p, 8, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_policies("energy", p, 8, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_policies("spn,spn", p, 8, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_policies("spn,auto", p, 8, &n), 0); /* auto: run time, compared */
  CU_ASSERT(n == 2 && p[0] == omp_ht_policy_spn && p[1] == TUNE_AUTO);
  CU_ASSERT_EQUAL(tune_parse_policies("auto,auto", p, 8, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_threads("1,4,2", 4, t, 8, &n), 0);
  CU_ASSERT(n == 3 && t[0] == 1 && t[1] == 4 && t[2] == 2);
  CU_ASSERT_EQUAL(tune_parse_threads("1,5", 4, t, 8, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_threads("0", 4, t, 8, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_threads("", 4, t, 8, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_waits("active,passive", w, 3, &n), 0);
  CU_ASSERT(n == 2 && w[0] == TUNE_WAIT_ACTIVE && w[1] == TUNE_WAIT_PASSIVE);
  CU_ASSERT_EQUAL(tune_parse_waits("busy", w, 3, &n), HTP_EXIT_USAGE);
}

/* The plan on the paper's C6100 (2 packages x 4 cores x 2 siblings,
 * siblings numbered n, n + 8): places and usage per configuration. */
static void test_plan_on_fixture(void)
{
  static const int pol[] = {omp_ht_policy_speedup, omp_ht_policy_spn, TUNE_NONE};
  static const unsigned counts[] = {4, 8};
  static const enum tune_wait waits[] = {TUNE_WAIT_UNSET};
  omp_ext_topo_t *topo;
  struct tune_config *c;
  unsigned n;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:2 core:4 pu:2(indexes=core:pack)", 0), 0);
  CU_ASSERT_EQUAL_FATAL(tune_make_plan(topo, pol, 3, counts, 2, waits, 1, &c, &n), 0);
  CU_ASSERT_EQUAL_FATAL(n, 6);
  CU_ASSERT_STRING_EQUAL(c[0].places, "{0},{1},{2},{3}");
  CU_ASSERT_EQUAL(c[0].usage.cores, 4);
  CU_ASSERT_STRING_EQUAL(c[2].places, "{0},{8},{1},{9}");
  CU_ASSERT_EQUAL(c[2].usage.cores, 2);
  CU_ASSERT_EQUAL(c[2].usage.extra, 2);
  CU_ASSERT_STRING_EQUAL(c[3].places, "{0},{8},{1},{9},{2},{10},{3},{11}");
  CU_ASSERT_PTR_NULL(c[4].places); /* none: no OMP_PLACES */
  tune_free_plan(c, n);
  omp_ext_topo_destroy(topo);
}

/* auto in the plan: one configuration per wait policy (not per N), on all
 * PUs' count, without places; after the others as listed. */
static void test_plan_auto(void)
{
  static const int pol[] = {omp_ht_policy_spn, TUNE_AUTO};
  static const unsigned counts[] = {1, 4, 8};
  static const enum tune_wait waits[] = {TUNE_WAIT_PASSIVE, TUNE_WAIT_ACTIVE};
  omp_ext_topo_t *topo;
  struct tune_config *c;
  char label[64];
  unsigned n;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:2 core:4 pu:2(indexes=core:pack)", 0), 0);
  CU_ASSERT_EQUAL_FATAL(tune_make_plan(topo, pol, 2, counts, 3, waits, 2, &c, &n), 0);
  CU_ASSERT_EQUAL_FATAL(n, 8); /* spn: 3 counts x 2 waits; auto: 2 waits */
  CU_ASSERT_EQUAL(c[5].policy, omp_ht_policy_spn);
  CU_ASSERT(TUNE_IS_AUTO(&c[6]) && TUNE_IS_AUTO(&c[7]));
  CU_ASSERT_EQUAL(c[6].threads, 16);
  CU_ASSERT_PTR_NULL(c[6].places);
  CU_ASSERT_PTR_NULL(c[6].place_pu);
  CU_ASSERT_EQUAL(c[6].wait, TUNE_WAIT_PASSIVE);
  CU_ASSERT_EQUAL(c[7].wait, TUNE_WAIT_ACTIVE);
  CU_ASSERT_EQUAL(tune_policy_bits(&c[6]), TUNE_AUTO_BIT);
  CU_ASSERT_STRING_EQUAL(tune_bit_name(30), "auto");
  CU_ASSERT_STRING_EQUAL(tune_bit_name(31), "none");
  CU_ASSERT_STRING_EQUAL(tune_bit_name(2), "spn");
  tune_config_label(&c[7], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "auto active");
  tune_free_plan(c, n);
  omp_ext_topo_destroy(topo);
}

/* Give every configuration 3 runs of time t (t is all sigma reads). */
static void runs_of(struct tune_config *c, double t)
{
  unsigned k;
  c->runs = calloc(3, sizeof(*c->runs));
  c->nruns = 3;
  for (k = 0; k < 3; k++) {
    c->runs[k].wall_s = t;
    c->runs[k].cpu_s = t;
    c->runs[k].energy_j = 100 * t;
    c->runs[k].round = k;
  }
}

/* Does each of c's cores carry exactly per threads (1 or 2)? */
static int per_core(const struct tune_config *c, unsigned per)
{
  unsigned i, j, n;
  for (i = 0; i < c->threads; i++) {
    for (j = n = 0; j < c->threads; j++)
      n += c->place_core[j] == c->place_core[i];
    if (n != per)
      return 0;
  }
  return 1;
}

/* The same set of cores? */
static int same_cores(const struct tune_config *a, const struct tune_config *b)
{
  unsigned i, j, found;
  for (i = 0; i < b->threads; i++) {
    for (j = found = 0; j < a->threads; j++)
      found |= a->place_core[j] == b->place_core[i];
    if (!found)
      return 0;
  }
  for (i = 0; i < a->threads; i++) {
    for (j = found = 0; j < b->threads; j++)
      found |= b->place_core[j] == a->place_core[i];
    if (!found)
      return 0;
  }
  return 1;
}

/* sigma pairs on a 2-package SMT plan (issue 26): one thread per core runs
 * in 10 / C s, 20% faster over two packages; two per core on the same
 * cores 1.25 times faster (true sigma 0.25).  Pairs by core count alone
 * also pair spread 2 (two packages) with spn 4 (two cores of one package),
 * and take an uneven configuration (3 threads on one core, 1 on another). */
static void test_sigma_pairs_same_cores(void)
{
  static const int pol[] = {omp_ht_policy_speedup, omp_ht_policy_spn, omp_ht_policy_spread};
  static const unsigned counts[] = {1, 2, 4, 8};
  static const enum tune_wait waits[] = {TUNE_WAIT_UNSET};
  static const unsigned uc[] = {0, 0, 0, 1}, up[] = {0, 4, 0, 1};
  omp_ext_topo_t *topo;
  struct tune_config *c, *more;
  struct tune_result *r;
  struct tune_summary s;
  unsigned n, i, p;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:2 core:2 pu:2(indexes=core:pack)", 0), 0);
  CU_ASSERT_EQUAL_FATAL(tune_make_plan(topo, pol, 3, counts, 4, waits, 1, &c, &n), 0);
  for (i = 0; i < n; i++) {
    double pack = c[i].usage.packages == 2 ? 0.8 : 1;
    if (per_core(&c[i], 1))
      runs_of(&c[i], 10.0 / c[i].threads * pack);
    else if (per_core(&c[i], 2))
      runs_of(&c[i], 10.0 / (c[i].threads / 2) * pack / 1.25);
    else
      runs_of(&c[i], 10.0 / c[i].threads);
  }
  more = realloc(c, (n + 1) * sizeof(*c)); /* the uneven one: 4 threads, cores 0, 0, 0, 1 */
  CU_ASSERT_PTR_NOT_NULL_FATAL(more);
  c = more;
  {
    static const double t[] = {1.25, 1.25, 1.25};
    craft(&c[n], omp_ht_policy_spn, 4, 2, 2, t, 3, 100);
    place(&c[n], uc, up);
    n++;
  }
  r = calloc(n, sizeof(*r));
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, n, NULL, NULL, r, &s), 0);
  CU_ASSERT(s.npairs >= 2);
  for (p = 0; p < s.npairs; p++) {
    const struct tune_config *a = &c[s.pairs[p].one_per_core], *b = &c[s.pairs[p].two_per_core];
    CU_ASSERT(per_core(a, 1) && per_core(b, 2) && same_cores(a, b));
    CU_ASSERT_EQUAL(b->threads, 2 * a->threads);
    CU_ASSERT_DOUBLE_EQUAL(s.pairs[p].sigma, 0.25, 1e-9);
    CU_ASSERT_NOT_EQUAL(s.pairs[p].two_per_core, (int)n - 1);
  }
  CU_ASSERT_DOUBLE_EQUAL(s.sigma, 0.25, 1e-9);
  tune_free_summary(&s);
  tune_free_plan(c, n);
  free(r);
  omp_ext_topo_destroy(topo);
}

/* Identical placements are one configuration named by every policy: on 2
 * cores without SMT speedup, spn and spread coincide at 1 and 2 threads;
 * with SMT they coincide at 1 thread only. */
static void test_plan_merges_identical(void)
{
  static const int pol[] = {omp_ht_policy_speedup, omp_ht_policy_spn, omp_ht_policy_spread,
                            TUNE_NONE};
  static const unsigned counts[] = {1, 2};
  static const enum tune_wait waits[] = {TUNE_WAIT_UNSET};
  omp_ext_topo_t *topo;
  struct tune_config *c;
  char label[160];
  unsigned n;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:1 core:2 pu:1", 0), 0);
  CU_ASSERT_EQUAL_FATAL(tune_make_plan(topo, pol, 3, counts, 2, waits, 1, &c, &n), 0);
  CU_ASSERT_EQUAL_FATAL(n, 2);
  tune_config_label(&c[0], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "speedup/spn/spread 1");
  tune_config_label(&c[1], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "speedup/spn/spread 2");
  CU_ASSERT_STRING_EQUAL(c[1].places, "{0},{1}");
  tune_free_plan(c, n);
  CU_ASSERT_EQUAL_FATAL(tune_make_plan(topo, pol, 4, counts, 2, waits, 1, &c, &n), 0);
  CU_ASSERT_EQUAL(n, 4); /* none is never a placement */
  tune_free_plan(c, n);
  omp_ext_topo_destroy(topo);
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:1 core:2 pu:2", 0), 0);
  CU_ASSERT_EQUAL_FATAL(tune_make_plan(topo, pol, 3, counts, 2, waits, 1, &c, &n), 0);
  CU_ASSERT_EQUAL_FATAL(n, 3); /* one at 1 thread; spn 2 (one core) and speedup/spread 2 */
  tune_config_label(&c[0], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "speedup/spn/spread 1");
  tune_config_label(&c[1], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "speedup/spread 2");
  tune_config_label(&c[2], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "spn 2");
  tune_free_plan(c, n);
  omp_ext_topo_destroy(topo);
}

/* A region with more runs than configurations and rounds (the old scratch
 * buffer held max(configs, runs) + 1), and two regions of one name at two
 * code addresses: kept apart, their name clash counted. */
static void test_regions_by_key(void)
{
  static const double t[] = {1, 1, 1};
  struct tune_config c[2];
  struct tune_result r[2];
  struct tune_summary s;
  unsigned k;
  craft(&c[0], TUNE_NONE, 1, 1, 0, t, 3, 100);
  craft(&c[1], omp_ht_policy_spn, 2, 2, 0, t, 3, 100);
  for (k = 0; k < 2; k++) {
    struct tune_config *x = &c[k];
    unsigned g, i;
    x->regions = calloc(2, sizeof(*x->regions));
    x->nregions = 2;
    for (g = 0; g < 2; g++) {
      struct tune_region *y = &x->regions[g];
      y->key = strdup(g ? "prog+0x20" : "prog+0x10");
      y->name = strdup("helper.h:5");
      y->nruns = 48; /* 16 regions x 3 runs */
      y->total_s = calloc(48, sizeof(double));
      y->median_s = calloc(48, sizeof(double));
      for (i = 0; i < 48; i++) {
        y->total_s[i] = (g ? 0.2 : 0.1) * (i % 2 ? 1.5 : 0.5) / (k + 1);
        y->median_s[i] = y->total_s[i];
      }
      y->instances = 1;
    }
  }
  for (k = 0; k < 2; k++) { /* 0.5 s outside the regions */
    c[k].serial_s = malloc(3 * sizeof(double));
    for (c[k].nserial = 0; c[k].nserial < 3; c[k].nserial++)
      c[k].serial_s[c[k].nserial] = 0.5;
  }
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL_FATAL(s.nregions, 2);
  /* sorted by total time: prog+0x20 (0.2 s at 1 thread, 0.1 s at 2) first */
  CU_ASSERT_STRING_EQUAL(s.regions[0].key, "prog+0x20");
  CU_ASSERT_STRING_EQUAL(s.regions[1].key, "prog+0x10");
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].best_s, 0.1, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[1].best_s, 0.05, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].speedup, 2, 1e-12);
  /* shares of one total, at none 1 (recommended: a tie, the cheaper): the
   * regions' medians 0.2 s and 0.1 s and the serial 0.5 s make 100 % */
  CU_ASSERT_EQUAL(s.share_from, 0);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].share, 0.25, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[1].share, 0.125, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(s.serial_share, 0.625, 1e-12);
  CU_ASSERT_EQUAL(s.regions[0].same_name, 1);
  CU_ASSERT_EQUAL(s.regions[1].same_name, 1);
  CU_ASSERT_EQUAL(s.regions[0].only_multi, 0);
  tune_free_summary(&s);
  for (k = 0; k < 2; k++)
    tune_free_regions(&c[k]);
  free_configs(c, 2);
}

/* 20,000 named regions in each of two configurations (named timers may
 * be that many): each matched by its key, none merged, each name counted
 * once; the largest first. */
static void test_many_regions(void)
{
  static const double t[] = {1, 1, 1};
  enum { R = 20000 };
  struct tune_config c[2];
  struct tune_result r[2];
  struct tune_summary s;
  unsigned k, g, i, clashes = 0;
  craft(&c[0], TUNE_NONE, 1, 1, 0, t, 3, 100);
  craft(&c[1], omp_ht_policy_spn, 2, 2, 0, t, 3, 100);
  for (k = 0; k < 2; k++) {
    c[k].regions = calloc(R, sizeof(*c[k].regions));
    c[k].nregions = R;
    for (g = 0; g < R; g++) {
      struct tune_region *y = &c[k].regions[(g * 7919u + k) % R]; /* another order each */
      char key[32];
      snprintf(key, sizeof(key), "name:timer%u", g);
      y->key = strdup(key);
      y->name = strdup(key + 5);
      y->nruns = 3;
      y->total_s = calloc(3, sizeof(double));
      y->median_s = calloc(3, sizeof(double));
      for (i = 0; i < 3; i++)
        y->total_s[i] = y->median_s[i] = (g + 1) * 1e-6 / (k + 1);
    }
  }
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL_FATAL(s.nregions, R);
  CU_ASSERT_STRING_EQUAL(s.regions[0].key, "name:timer19999");
  CU_ASSERT_EQUAL(s.regions[0].best, 1);
  CU_ASSERT_DOUBLE_EQUAL(s.regions[0].speedup, 2, 1e-9);
  CU_ASSERT_STRING_EQUAL(s.regions[R - 1].key, "name:timer0");
  for (g = 0; g < R; g++)
    clashes += s.regions[g].same_name;
  CU_ASSERT_EQUAL(clashes, 0);
  tune_free_summary(&s);
  for (k = 0; k < 2; k++)
    tune_free_regions(&c[k]);
  free_configs(c, 2);
}

/* What per-region and other readers take from results.json and the table:
 * sigma_pairs, region key/module/offset/best, ties, the test's name. */
static void test_report_fields(void)
{
  static const double t1[] = {10, 10, 10}, t2[] = {5.5, 5.5, 5.5}, t4[] = {4.4, 4.4, 4.4};
  static const unsigned c2[] = {0, 1}, p2[] = {0, 1}, c4[] = {0, 0, 1, 1}, p4[] = {0, 4, 1, 5};
  char *argv[] = {"./app", NULL}, *buf = NULL, *skipped[1];
  struct tune_config c[3];
  struct tune_result r[3];
  struct tune_summary s;
  struct tune_report rep;
  omp_ext_topo_t *topo;
  size_t len = 0;
  FILE *f;
  unsigned i;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:1 core:2 pu:2", 0), 0);
  craft(&c[0], TUNE_NONE, 1, 1, 0, t1, 3, 100);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, t2, 3, 100);
  craft(&c[2], omp_ht_policy_spn, 4, 2, 2, t4, 3, 100);
  c[1].policies = 1u << omp_ht_policy_speedup | 1u << omp_ht_policy_spread;
  place(&c[1], c2, p2);
  place(&c[2], c4, p4);
  add_region(&c[0], "/usr/lib/libfoo.so.1+0x1a2b", 8);
  add_region(&c[1], "/usr/lib/libfoo.so.1+0x1a2b", 5);
  add_region(&c[2], "/usr/lib/libfoo.so.1+0x1a2b", 4);
  for (i = 0; i < 3; i++) {
    unsigned k;
    free(c[i].regions[0].name);
    c[i].regions[0].name = strdup("libfoo.so.1: a_function_whose_name_is_longer_than_forty_characters");
    c[i].serial_s = malloc(3 * sizeof(double)); /* (0.4 s outside the region) */
    for (k = 0; k < 3; k++)
      c[i].serial_s[c[i].nserial++] = 0.4;
  }
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  memset(&rep, 0, sizeof(rep));
  rep.c = c, rep.r = r, rep.n = 3, rep.s = &s, rep.argv = argv, rep.topo = topo;
  rep.rounds = 3, rep.power_name = "c6100", rep.skipped = skipped;
  rep.load.before = rep.load.during = rep.load.util = NAN, rep.load.low_util = -1;
  f = open_memstream(&buf, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  tune_print_json(f, &rep);
  fclose(f);
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"sigma_npairs\": 1, \"sigma_pairs\": [{\"one_per_core\": 1, "
                                     "\"two_per_core\": 2, \"sigma\": 0.25}]"));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"key\": \"/usr/lib/libfoo.so.1+0x1a2b\", \"module\": "
                                     "\"/usr/lib/libfoo.so.1\", \"offset\": \"0x1a2b\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"team_sizes\": [4], \"best\": 2, \"fastest\": 2, \"fastest_s\": 4, \"total_s\": 4,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"policy\": \"speedup\", \"policies\": [\"speedup\", "
                                     "\"spread\"], \"threads\": 2, \"wait\": \"unset\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"places\": null"));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"recommendation\": {\"objective\": \"time\", \"best\": 2, "
                                     "\"runner_up\": 1, \"fastest\": 2, \"tied\": [2], "
                                     "\"significant\": true, \"test\": \"paired t-test"));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"machine\": {\"source\": "));
  free(buf);
  buf = NULL;
  f = open_memstream(&buf, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  tune_print_table(f, &rep);
  fclose(f);
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\nspeedup/spread 2 "));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "    speedup/spread 2 vs spn 4: 0.250\n"));
  /* the name whole, on a line of its own; the time in a readable unit */
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n  libfoo.so.1: a_function_whose_name_is_longer_than_forty_"
                                     "characters\n"));
  /* 4 s of the 4.4 s (region and serial part) at spn 4, the recommended one */
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "4.000 s   90.9%"));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "serial part (outside any region): median 400 ms at spn 4, 9.1%\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "significantly below every other"));
  CU_ASSERT_PTR_NULL(strstr(buf, "0.0000 "));
  free(buf);
  tune_free_summary(&s);
  for (i = 0; i < 3; i++)
    tune_free_regions(&c[i]);
  free_configs(c, 3);
  omp_ext_topo_destroy(topo);
}

/* The table tune prints for configurations \p c (results \p r, summary
 * \p s) on \p topo, 3 rounds, the c6100 model, no load figures; malloc'd. */
static char *table_of(struct tune_config *c, struct tune_result *r, unsigned n,
                      struct tune_summary *s, omp_ext_topo_t *topo)
{
  char *argv[] = {"./app", NULL}, *buf = NULL, *skipped[1];
  struct tune_report rep;
  size_t len = 0;
  FILE *f;
  memset(&rep, 0, sizeof(rep));
  rep.c = c, rep.r = r, rep.n = n, rep.s = s, rep.argv = argv, rep.topo = topo;
  rep.rounds = 3, rep.power_name = "c6100", rep.skipped = skipped;
  rep.load.before = rep.load.during = rep.load.util = NAN, rep.load.low_util = -1;
  if (!(f = open_memstream(&buf, &len)))
    return NULL;
  tune_print_table(f, &rep);
  fclose(f);
  return buf;
}

/* All tied after the minimum rounds, the cheapest recommended while another
 * had the better median (gm, iqtree under load: 1 thread recommended, 2
 * threads 1.4x faster by median): the table says --budget may separate them
 * (on main: nothing). */
static void test_tied_hint(void)
{
  static const double t1[] = {10, 10, 10}, t2[] = {5, 12, 6};
  char *buf = NULL;
  struct tune_config c[2];
  struct tune_result r[2];
  struct tune_summary s;
  omp_ext_topo_t *topo;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:1 core:2 pu:1", 0), 0);
  craft(&c[0], TUNE_NONE, 1, 1, 0, t1, 3, 100);
  craft(&c[1], TUNE_NONE, 2, 2, 0, t2, 3, 100);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 0);
  CU_ASSERT_EQUAL(s.fastest[TUNE_TIME], 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(buf = table_of(c, r, 2, &s, topo));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n  (tied after 3 rounds, though another configuration had "
                                     "the better median: --budget SECONDS adds rounds until one "
                                     "is significantly ahead)\n"));
  free(buf);
  tune_free_summary(&s);
  free_configs(c, 2);
  omp_ext_topo_destroy(topo);
}

/* Slower on 2 threads than on 1: Karp-Flatt s >= 1 is said, and the model
 * line leaves it out (it printed "--serial-fraction 0.0000" under
 * "s = 1.0000", found by the new-user pass on NPB MG). */
static void test_model_line_no_speedup(void)
{
  static const double t1[] = {10, 10, 10}, t2[] = {13, 13, 13};
  static const unsigned c2[] = {0, 1}, p2[] = {0, 1};
  char *buf = NULL;
  struct tune_config c[2];
  struct tune_result r[2];
  struct tune_summary s;
  omp_ext_topo_t *topo;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, "pack:1 core:2 pu:1", 0), 0);
  craft(&c[0], TUNE_NONE, 1, 1, 0, t1, 3, 100);
  craft(&c[1], omp_ht_policy_speedup, 2, 2, 0, t2, 3, 100);
  place(&c[1], c2, p2);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  CU_ASSERT(s.serial >= 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(buf = table_of(c, r, 2, &s, topo));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, ": no speed-up over one thread"));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\n  (s >= 1 is outside the model's [0, 1): the line below "
                                     "leaves it out)\n  htplaces model --sigma 0.300 "
                                     "--power-model c6100\n"));
  CU_ASSERT_PTR_NULL(strstr(buf, "--serial-fraction"));
  free(buf);
  tune_free_summary(&s);
  free_configs(c, 2);
  omp_ext_topo_destroy(topo);
}

/* --threads takes htbench's list syntax: counts and ranges. */
static void test_parse_thread_ranges(void)
{
  unsigned t[16], n;
  CU_ASSERT_EQUAL(tune_parse_threads("1-3,8,2", 8, t, 16, &n), 0);
  CU_ASSERT(n == 4 && t[0] == 1 && t[1] == 2 && t[2] == 3 && t[3] == 8);
  CU_ASSERT_EQUAL(tune_parse_threads("3-1", 8, t, 16, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_threads("1-9", 8, t, 16, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_threads("-2", 8, t, 16, &n), HTP_EXIT_USAGE);
  CU_ASSERT_EQUAL(tune_parse_threads("1-", 8, t, 16, &n), HTP_EXIT_USAGE);
}

/* ---------------------------------------------------------- the command */

static char tmpdir[] = "/tmp/test-tune-XXXXXX";

static unsigned count_occurrences(const char *hay, const char *needle)
{
  unsigned n = 0;
  while ((hay = strstr(hay, needle)) != NULL) {
    n++;
    hay += strlen(needle);
  }
  return n;
}

static int run_tune(struct run_result *res, char *const env[], char **args)
{
  char *argv[32];
  unsigned k = 0;
  argv[k++] = HTPLACES_BIN;
  argv[k++] = "tune";
  while (*args && k < 31)
    argv[k++] = *args++;
  argv[k] = NULL;
  {
    /* Sanitizer build: LD_PRELOAD of the ASan-built libomp_ext puts it
     * before ASan's runtime, which ASan checks; harmless elsewhere. */
    static char asan[] = "ASAN_OPTIONS=verify_asan_link_order=0";
    char *all[16];
    unsigned e = 0;
    while (env && env[e] && e < 14) {
      all[e] = env[e];
      e++;
    }
    all[e++] = asan;
    all[e] = NULL;
    return run_capture(argv, all, res);
  }
}

/* The line of tune_prog.c marked "REGION marker", as "tune_prog.c:LINE"
 * (tune_prog is built with -g: tune names its regions so). */
static void region_line(const char *marker, char *out, size_t len)
{
  FILE *f = fopen(TUNE_PROG_SRC, "r");
  char line[512], want[64];
  unsigned n = 0;
  snprintf(want, sizeof(want), "/* REGION %s */", marker);
  snprintf(out, len, "(no line marked %s)", marker);
  while (f && fgets(line, sizeof(line), f)) {
    n++;
    if (strstr(line, want)) {
      snprintf(out, len, "tune_prog.c:%u", n);
      break;
    }
  }
  if (f)
    fclose(f);
}

/* The contents of DIR/NAME (malloc'ed, NULL if unreadable). */
static char *slurp(const char *dir, const char *name)
{
  char path[700], *buf;
  FILE *f;
  long len;
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  if (!(f = fopen(path, "r")))
    return NULL;
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  rewind(f);
  buf = malloc((size_t)len + 1);
  if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
    free(buf);
    buf = NULL;
  }
  if (buf)
    buf[len] = '\0';
  fclose(f);
  return buf;
}

static int suite_init(void)
{
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int suite_clean(void)
{
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
  return system(cmd) == 0 ? 0 : -1;
}

/* --reps 3, spn and none at 1 thread, --out into folders that do not exist
 * yet: exit 0, the table, the recommendation, 6 progress lines, the files. */
static void test_end_to_end(void)
{
  struct run_result res;
  char dir[600], *csv, *json, *rec, *prog_out;
  snprintf(dir, sizeof(dir), "%s/a/b", tmpdir);
  {
    char *args[] = {"--reps", "3", "--threads", "1", "--policies", "spn,none", "--out", dir,
                    "--", TUNE_PROG_BIN, "20000", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "Recommendation:"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\nspn 1 "));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\nnone 1 "));
  CU_ASSERT_PTR_NULL(strstr(res.out, "tune_prog: done")); /* its stdout goes to a file */
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "[6/6]"));
  CU_ASSERT_PTR_NULL(strstr(res.err, "[7/"));
  /* per region: libomp_ext.so found beside the command (build tree), the
   * program's two regions, once each per run, team of 1 */
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "Parallel regions (omp_ext's timing layer"));
  {
    char scaled[64], fixed[64], want[80];
    region_line("scaled_work", scaled, sizeof(scaled));
    region_line("fixed_work", fixed, sizeof(fixed));
    snprintf(want, sizeof(want), "\n  %s ", scaled);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, want));
    snprintf(want, sizeof(want), "\n  %s ", fixed);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, want));
    CU_ASSERT_EQUAL(count_occurrences(res.out, "  tune_prog.c:"), 2);
  }
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "serial part (outside any region): median "));
  run_free(&res);
  csv = slurp(dir, "results.csv");
  json = slurp(dir, "results.json");
  rec = slurp(dir, "recommendation.txt");
  prog_out = slurp(dir, "program-stdout.txt");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT_EQUAL(count_lines(csv), 1 + 2 * 3); /* header + 2 configurations x 3 rounds */
  CU_ASSERT_PTR_NOT_NULL_FATAL(json);
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"configurations\": ["));
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"recommendation\": {\"objective\": \"time\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"policy\": \"spn\", \"policies\": [\"spn\"], \"threads\": 1"));
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"omp_places\": null")); /* none */
  /* every region of every configuration from the 3 measured runs (the
   * warm-up's timing file is dropped) */
  CU_ASSERT_EQUAL(count_occurrences(json, "\"instances\": 1, \"team_sizes\": [1], \"runs\": 3,"),
                  4);
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"summary\": {"));
  CU_ASSERT_EQUAL(count_occurrences(json, "\"median_s\": "), 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
  CU_ASSERT(strstr(rec, "time: htplaces exec spn 1 -- ") != NULL ||
            strstr(rec, "time: OMP_NUM_THREADS=1 ") != NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(rec, "tune_prog 20000\n"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(prog_out);
  /* warm-up + 6 measured runs, each printed its line under its label */
  CU_ASSERT_EQUAL(count_lines(prog_out), 2 * 7);
  CU_ASSERT_EQUAL(count_occurrences(prog_out, "tune_prog: done"), 7);
  CU_ASSERT_EQUAL(count_occurrences(prog_out, "==> htplaces tune: "), 7);
  CU_ASSERT_EQUAL(count_occurrences(prog_out, "==> htplaces tune: warm-up, "), 1);
  CU_ASSERT_EQUAL(count_occurrences(prog_out, "==> htplaces tune: spn 1, run 3 <==\ntune_prog: done"), 1);
  free(csv), free(json), free(rec), free(prog_out);
}

static void test_json_and_dry_run(void)
{
  struct run_result res;
  {
    char *args[] = {"-f", "json", "--reps", "3", "--threads", "1", "--policies", "none", "--",
                    TUNE_PROG_BIN, "20000", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_EQUAL(res.out[0], '{');
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"summary\": {\"baseline\": 0"));
  run_free(&res);
  {
    char *args[] = {"--no-regions", "--reps", "3", "--threads", "1", "--policies", "none", "--",
                    TUNE_PROG_BIN, "20000", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "Parallel regions: not available"));
  run_free(&res);
  {
    char *args[] = {"--dry-run", "--reps", "4", "--threads", "1", "--policies", "spn,none",
                    "--timeout", "10", "--", TUNE_PROG_BIN, NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "plan: 2 configurations x 4 rounds + 1 warm-up = 9 runs"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "at most 90 s"));
  CU_ASSERT_STRING_EQUAL(res.err, ""); /* nothing ran */
  run_free(&res);
  { /* the user's OMP_NUM_THREADS, replaced by each measured team: said once */
    char *args[] = {"--dry-run", "--reps", "3", "--policies", "spn", "--", TUNE_PROG_BIN, NULL};
    char *env[] = {"OMP_NUM_THREADS=1", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_EQUAL(count_lines(res.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "htplaces tune: note: OMP_NUM_THREADS=1 is not what the "
                                         "runs get: each gets the team size it measures; "
                                         "--threads N measures N alone"));
  run_free(&res);
  { /* ... not when --threads says which teams */
    char *args[] = {"--dry-run", "--reps", "3", "--threads", "1", "--", TUNE_PROG_BIN, NULL};
    char *env[] = {"OMP_NUM_THREADS=1", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  }
  CU_ASSERT_STRING_EQUAL(res.err, "");
  run_free(&res);
}

/* One bad input: exit status, one line on stderr containing what, empty stdout. */
static void bad(int status, const char *what, char *const env[], char **args)
{
  struct run_result res;
  CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  CU_ASSERT_EQUAL(res.status, status);
  CU_ASSERT_STRING_EQUAL(res.out, "");
  CU_ASSERT_EQUAL(count_lines(res.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, what));
  if (res.status != status || !strstr(res.err, what))
    fprintf(stderr, "\n  got %d: %s", res.status, res.err);
  run_free(&res);
}

static void test_bad_input(void)
{
  char over[16], notexec[700];
  unsigned npus = 0;
  unsigned order[OMP_EXT_NPOLICIES][TEST_MAXPU];
  FILE *f;
  CU_ASSERT_EQUAL_FATAL(policy_orders(order, &npus), 0);
  snprintf(over, sizeof(over), "%u", npus + 1);
  snprintf(notexec, sizeof(notexec), "%s/not-executable", tmpdir);
  f = fopen(notexec, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("data\n", f);
  fclose(f);
  {
    char *a[] = {"--", "/nonexistent/prog", NULL};
    bad(127, "cannot run '/nonexistent/prog'", NULL, a);
  }
  { /* the PATH search made "" a folder: "Is a directory" */
    char *a[] = {"--", "", NULL};
    bad(127, "cannot run '': No such file or directory (an empty program name)", NULL, a);
  }
  {
    char *a[] = {"--", "no-such-program-omp-ext", NULL};
    bad(127, "cannot run 'no-such-program-omp-ext'", NULL, a);
  }
  {
    char *a[] = {"--", notexec, NULL};
    bad(126, "Permission denied", NULL, a);
  }
  {
    char *a[] = {"--reps", "2", "--", TUNE_PROG_BIN, NULL};
    bad(2, "invalid --reps '2'; allowed: 3..1000", NULL, a);
  }
  { /* --timing-lib: omp_ext's library or nothing (issue 33: libm.so.6 was
     * preloaded and an "auto" row measured without auto) */
    Dl_info info;
    char *a[] = {"--policies", "spn,auto", "--timing-lib", NULL, "--", TUNE_PROG_BIN, NULL};
    if (dladdr((void *)&cos, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
      a[3] = (char *)info.dli_fname;
      bad(2, "it does not export omp_ext_timer_start (and more), one of omp_ext's timing entry "
             "points: not omp_ext's libomp_ext.so", NULL, a);
    }
    a[3] = notexec;
    bad(2, "not an ELF64 shared library", NULL, a);
  }
  {
    char *a[] = {"--budget", "0", "--", TUNE_PROG_BIN, NULL};
    bad(2, "invalid --budget '0'; allowed: seconds > 0", NULL, a);
  }
  {
    char *a[] = {"--timeout", "-1", "--", TUNE_PROG_BIN, NULL};
    bad(2, "invalid --timeout", NULL, a);
  }
  {
    char *a[] = {"--threads", over, "--", TUNE_PROG_BIN, NULL};
    bad(2, "allowed PUs", NULL, a);
  }
  {
    char *a[] = {"--threads", "1,,2", "--", TUNE_PROG_BIN, NULL};
    bad(2, "an empty item", NULL, a);
  }
  {
    char *a[] = {"--threads", "2-1", "--", TUNE_PROG_BIN, NULL};
    bad(2, "invalid --threads item '2-1': not a thread count or range LO-HI", NULL, a);
  }
  {
    char *a[] = {"--policies", "spn,fast", "--", TUNE_PROG_BIN, NULL};
    bad(2, "unknown policy 'fast' in --policies; allowed: none, os, speedup, spn, spread, auto (energy", NULL, a);
  }
  {
    char *a[] = {"--objective", "speed", "--", TUNE_PROG_BIN, NULL};
    bad(2, "allowed: time, energy, spn, edp", NULL, a);
  }
  { /* auto alone: nothing to recommend (was exit 0, "no configuration has 3 runs") */
    char *a[] = {"--policies", "auto", "--", TUNE_PROG_BIN, NULL};
    bad(2, "--policies auto alone: auto is measured beside global configurations, never "
           "recommended; add one, e.g. --policies spn,auto", NULL, a);
  }
  { /* auto is libomp_ext's: without the library preloaded it cannot run */
    char *a[] = {"--policies", "spn,auto", "--no-regions", "--", TUNE_PROG_BIN, NULL};
    bad(2, "--policies auto needs libomp_ext.so preloaded into the program, which --no-regions "
           "turns off", NULL, a);
  }
  {
    char *a[] = {"--reps", "3", NULL};
    bad(2, "missing '-- PROGRAM'", NULL, a);
  }
  {
    char *a[] = {"--timing-lib", "/nonexistent/libomp_ext.so", "--", TUNE_PROG_BIN, NULL};
    bad(2, "cannot read --timing-lib '/nonexistent/libomp_ext.so'", NULL, a);
  }
  {
    char *a[] = {"-i", "pack:2 core:2 pu:2", "--", TUNE_PROG_BIN, NULL};
    bad(2, "-i does not apply", NULL, a);
  }
  {
    char *a[] = {"--", TUNE_PROG_BIN, NULL};
    char *env[] = {"KMP_AFFINITY=compact", NULL};
    bad(2, "KMP_AFFINITY is set", env, a);
  }
}

/* A program that fails in every configuration: exit 1 with its stderr tail;
 * one past --timeout: killed, marked TIMEOUT. */
static void test_failing_program(void)
{
  struct run_result res;
  {
    char *args[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--", TUNE_PROG_BIN,
                    NULL};
    char *env[] = {"TUNE_PROG_FAIL=7", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 1);
  CU_ASSERT_STRING_EQUAL(res.out, "");
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "failed in every configuration (e.g. none 1: exit 7)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "tune_prog: failing on purpose with 7"));
  run_free(&res);
  {
    char *args[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--timeout", "0.2",
                    "--", TUNE_PROG_BIN, NULL};
    char *env[] = {"TUNE_PROG_SLEEP=20", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "TIMEOUT"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "(e.g. none 1: timed out (--timeout))"));
  run_free(&res);
  { /* killed by a signal: said as such, in the error and the table */
    char *args[] = {"--reps", "3", "--threads", "1,2", "--policies", "none", "--", TUNE_PROG_BIN,
                    NULL};
    char *env[] = {"TUNE_PROG_KILL=11", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "(e.g. none 1: killed by signal 11 ("));
  run_free(&res);
}

/* A program whose thread 1 binds itself onto thread 0's CPUs inside a
 * region: spn 2's runs are invalid, with the reason in the table, the JSON
 * and results.csv; none 2 (no places, nothing to check) is recommended. */
static void test_invalid_binding(void)
{
  struct run_result res;
  char dir[600], *csv, *json, scaled[64], why[128];
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) < 2)
    { OMP_EXT_SKIP("spn 2 needs two allowed PUs"); return; }
  snprintf(dir, sizeof(dir), "%s/invalid", tmpdir);
  {
    char *args[] = {"--reps", "3", "--threads", "2", "--policies", "spn,none", "--out", dir,
                    "--", TUNE_PROG_BIN, "20000", NULL};
    char *env[] = {"TUNE_PROG_REBIND=1", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  region_line("scaled_work", scaled, sizeof(scaled));
  snprintf(why, sizeof(why), "thread 1 of %s (team of 2) ran on PU ", scaled);
  CU_ASSERT_EQUAL(count_occurrences(res.err, "INVALID"), 3);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, " invalid (3 runs invalid: thread 1 of tune_prog.c:"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, why));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "(team of 2) ran on PU "));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "time: none 2 (median "));
  run_free(&res);
  csv = slurp(dir, "results.csv");
  json = slurp(dir, "results.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT_PTR_NOT_NULL_FATAL(json);
  CU_ASSERT_EQUAL(count_occurrences(csv, why), 3);
  CU_ASSERT_EQUAL(count_occurrences(json, "\"status\": 0, \"invalid\": \"thread 1 of tune_prog.c:"), 3);
  CU_ASSERT_EQUAL(count_occurrences(json, "\"status\": 0, \"invalid\": null"), 3);
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"status\": \"invalid\", \"invalid_runs\": 3,"));
  free(csv), free(json);
}

/* Without addr2line (PATH without binutils) the regions have no
 * FILE:LINE: their functions from the symbol table name them (main, where
 * the compiler inlined the two functions holding them), and nothing else
 * changes. */
static void test_no_addr2line(void)
{
  struct run_result res;
  char *args[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--", TUNE_PROG_BIN,
                  "20000", NULL};
  char *env[] = {"PATH=/nonexistent", NULL};
  CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_EQUAL(count_occurrences(res.out, "\n  main ") +
                    count_occurrences(res.out, "\n  scaled_work ") +
                    count_occurrences(res.out, "\n  fixed_work "), 2);
  CU_ASSERT_EQUAL(count_occurrences(res.out, "tune_prog.c:"), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "Recommendation:"));
  run_free(&res);
}

/* 200 regions of one module (tune_regions_prog many, -O2 -g): named
 * FILE:LINE by one addr2line process for all of them (issue 33: one per
 * region made 1000 regions cost 36 s), counted by a stand-in addr2line on
 * PATH that logs each start and runs the real one. */
static void test_addr2line_batched(void)
{
  struct run_result res;
  char dir[] = "/tmp/test-tune-a2l-XXXXXX", wrapper[600], log[600], env_path[1300],
       env_log[700], real[600] = "", *text;
  char *args[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--", TUNE_REGIONS_BIN,
                  "many", NULL};
  char *env[] = {env_path, env_log, NULL};
  FILE *f, *p = popen("command -v addr2line", "r");
  if (!p || !fgets(real, sizeof(real), p) || real[0] != '/') {
    if (p)
      pclose(p);
    OMP_EXT_SKIP("no addr2line on PATH (binutils)");
    return;
  }
  pclose(p);
  real[strcspn(real, "\n")] = '\0';
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  snprintf(wrapper, sizeof(wrapper), "%s/addr2line", dir);
  snprintf(log, sizeof(log), "%s/log", dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(wrapper, "w"));
  fprintf(f, "#!/bin/sh\necho \"$*\" >>'%s'\nexec '%s' \"$@\"\n", log, real);
  fclose(f);
  chmod(wrapper, 0755);
  snprintf(env_path, sizeof(env_path), "PATH=%s:%s", dir, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
  snprintf(env_log, sizeof(env_log), "A2L_LOG=%s", log);
  CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT(count_occurrences(res.out, "tune_regions_prog.c:") >= 200);
  text = slurp(dir, "log");
  CU_ASSERT_PTR_NOT_NULL(text);
  CU_ASSERT_EQUAL(text ? count_occurrences(text, "\n") : 0, 1); /* one process, one module */
  if (text && count_occurrences(text, "\n") != 1)
    fprintf(stderr, "\naddr2line started %u times\n", count_occurrences(text, "\n"));
  free(text);
  run_free(&res);
  unlink(log), unlink(wrapper), rmdir(dir);
}

/* --budget: runs stop being started; what was skipped is listed. */
static void test_budget(void)
{
  struct run_result res;
  char *args[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--budget", "0.3",
                  "--", TUNE_PROG_BIN, "20000", NULL};
  char *env[] = {"TUNE_PROG_SLEEP=1", NULL};
  CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  /* the warm-up (1 s) exhausts the budget before the first measured run */
  CU_ASSERT_EQUAL(res.status, 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "no run was started (--budget too small?)"));
  run_free(&res);
}

/* Region shapes that crashed the analysis (issue 26): an inline helper's
 * region called 16 times, 200 regions on one line (-O2 -g; under ASan in
 * the sanitizer build); a program with no region gets a verdict, not a
 * recommendation. */
static void test_region_shapes(void)
{
  struct run_result res;
  static const char *const modes[] = {"inline", "many"};
  unsigned m;
  for (m = 0; m < 2; m++) {
    char *args[] = {"--reps", "3", "--threads", "1", "--policies", "spn,none", "--",
                    TUNE_REGIONS_BIN, (char *)modes[m], NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
    CU_ASSERT_EQUAL(res.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "tune_regions_prog.c:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\nRecommendation:\n  time: "));
    CU_ASSERT_PTR_NULL(strstr(res.err, "ERROR"));
    if (res.status != 0)
      fprintf(stderr, "\n  %s: %s", modes[m], res.err);
    run_free(&res);
  }
  {
    char *args[] = {"-f", "json", "--reps", "3", "--threads", "1", "--policies", "spn,none",
                    "--", TUNE_REGIONS_BIN, "none", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"verdict\": \"no parallel region ran: the thread count "
                                         "cannot matter\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"regions\": [], \"timed\": true"));
  CU_ASSERT_PTR_NULL(strstr(res.out, "\"command\": \""));
  run_free(&res);
  {
    char *args[] = {"--reps", "3", "--threads", "1", "--policies", "spn,none", "--",
                    TUNE_REGIONS_BIN, "none", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\nRecommendation:\n  time: no parallel region ran: the "
                                         "thread count cannot matter\n"));
  CU_ASSERT_PTR_NULL(strstr(res.out, "htplaces exec"));
  run_free(&res);
}

/* On this machine: each distinct placement of --threads 1,2 --policies
 * speedup,spn,spread runs 3 times, plus one warm-up -- at most 2 x 3 + 2
 * runs where the three policies coincide (no SMT: speedup, spn and spread
 * give the same places). */
static void test_identical_placements_run_once(void)
{
  static const int pol[] = {omp_ht_policy_speedup, omp_ht_policy_spn, omp_ht_policy_spread};
  static const unsigned counts[] = {1, 2};
  static const enum tune_wait waits[] = {TUNE_WAIT_UNSET};
  struct run_result res;
  omp_ext_topo_t *topo;
  struct tune_config *c;
  char count[700], env[720], *text;
  unsigned n, smt;
  CU_ASSERT_EQUAL_FATAL(omp_ext_topo_load(&topo, NULL, 0), 0);
  smt = omp_ext_topo_max_smt(topo);
  if (omp_ext_topo_npus(topo) < 2) {
    omp_ext_topo_destroy(topo);
    fprintf(stderr, "(skipped: needs 2 PUs) ");
    return;
  }
  CU_ASSERT_EQUAL_FATAL(tune_make_plan(topo, pol, 3, counts, 2, waits, 1, &c, &n), 0);
  tune_free_plan(c, n);
  omp_ext_topo_destroy(topo);
  snprintf(count, sizeof(count), "%s/runs", tmpdir);
  snprintf(env, sizeof(env), "TUNE_REGIONS_COUNT=%s", count);
  {
    char *args[] = {"--reps", "3", "--threads", "1,2", "--policies", "speedup,spn,spread", "--",
                    TUNE_REGIONS_BIN, "inline", NULL};
    char *envp[] = {env, NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, envp, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  text = slurp(tmpdir, "runs");
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_EQUAL(count_lines(text), n * 3 + 1);
  if (smt == 1) {
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT(count_lines(text) <= 2 * 3 + 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\nspeedup/spn/spread 1 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\nspeedup/spn/spread 2 "));
  }
  free(text);
  run_free(&res);
}

/* --out with a quote in it is a folder name, nothing else: gnuplot runs
 * without a shell (the old system("cd '%s' && gnuplot ...") ran the text
 * after the quote). */
static void test_out_with_quote(void)
{
  struct run_result res;
  char dir[700], pwned[700], *json;
  struct stat st;
  snprintf(dir, sizeof(dir), "%s/x';touch %s/PWNED;'", tmpdir, tmpdir);
  snprintf(pwned, sizeof(pwned), "%s/PWNED", tmpdir);
  {
    char *args[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--out", dir, "--",
                    TUNE_PROG_BIN, "20000", NULL};
    CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
  }
  CU_ASSERT_EQUAL(res.status, 0);
  run_free(&res);
  CU_ASSERT_NOT_EQUAL(stat(pwned, &st), 0);
  CU_ASSERT_NOT_EQUAL(stat("PWNED", &st), 0);
  json = slurp(dir, "results.json");
  CU_ASSERT_PTR_NOT_NULL(json);
  free(json);
}

/* -f json --dry-run: the plan as JSON, --threads ranges as htbench's. */
static void test_dry_run_json(void)
{
  struct run_result res;
  char *args[] = {"-f", "json", "--dry-run", "--reps", "4", "--threads", "1-1", "--policies",
                  "spn,none", "--", TUNE_PROG_BIN, NULL};
  CU_ASSERT_EQUAL_FATAL(run_tune(&res, NULL, args), 0);
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_EQUAL(res.out[0], '{');
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"plan\": {\"rounds\": 4, \"adaptive\": false, "
                                         "\"warmup_runs\": 1, \"runs\": 9,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"policy\": \"spn\", \"policies\": [\"spn\"], "
                                         "\"threads\": 1, \"wait\": \"unset\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"places\": null}"));
  CU_ASSERT_STRING_EQUAL(res.err, "");
  run_free(&res);
}

/* --budget: --reps rounds at least, then rounds of the configurations
 * still tied, until the best is ahead or the budget ends.  none 1 and
 * none 2 of a program that naps 100 ms per thread: 2 threads take 100 ms
 * more in every round, so the paired test separates them (after the 3
 * rounds, or a few more on a loaded machine), and tune says it stopped
 * there (the budget is far away). */
static void test_adaptive_rounds(void)
{
  struct run_result res;
  char *args[] = {"--reps", "3", "--threads", "1,2", "--policies", "none", "--budget", "300",
                  "--", TUNE_PROG_BIN, "2000", NULL};
  char *env[] = {"TUNE_PROG_NAP_MS=100", NULL};
  CU_ASSERT_EQUAL_FATAL(run_tune(&res, env, args), 0);
  CU_ASSERT_EQUAL(res.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.err, "[6/"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\nAdaptive rounds: "));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, " rounds (3 the minimum); stopped when the best was "
                                         "significantly ahead of every other"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "time: none 1 (median "));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "): significantly below every other"));
  CU_ASSERT_PTR_NULL(strstr(res.out, "Not run (--budget reached)"));
  run_free(&res);
}

static CU_TestInfo analysis_tests[] = {
  {"sigma from a pair", test_sigma_formula},
  {"S_N, Karp-Flatt, sigma, SPN, energy, CI on crafted runs", test_analysis_known_answers},
  {"overlapping CIs: fewer cores win", test_tie_goes_to_fewer_cores},
  {"failed configuration; no baseline", test_failed_and_no_baseline},
  {"a timing file read back", test_read_timing},
  {"bindings against the places; an invalid file", test_check_binding},
  {"an invalid run is left out", test_invalid_run_left_out},
  {"exec line with OMP_EXT_SIGMA", test_exec_line_sigma},
  {"fewer than 3 runs: never recommended", test_too_few_runs},
  {"per region: best, speed-up, Karp-Flatt, sigma", test_region_analysis},
  {"per region: a tie keeps the recommended global configuration", test_region_tie},
  {"ties among all configurations: the cheapest", test_tie_among_all},
  {"alone: never significant", test_alone_not_significant},
  {"Karp-Flatt at S_N <= 1", test_karp_flatt_no_speedup},
  {"sigma pairs on the same cores only", test_sigma_pairs_same_cores},
  {"regions by key, buffers from the data", test_regions_by_key},
  {"JSON and table fields", test_report_fields},
  {"tied: --budget hint", test_tied_hint},
  {"no speed-up: the model line leaves s out", test_model_line_no_speedup},
  {"20,000 regions", test_many_regions},
  {"auto: compared, never recommended", test_auto_never_recommended},
  CU_TEST_INFO_NULL};
static CU_TestInfo plan_tests[] = {
  {"automatic thread counts", test_auto_threads},
  {"seeded shuffle", test_shuffle},
  {"the sweep engine's rounds, warm-up and budget", test_sweep_rounds},
  {"the sweep engine's launcher", test_sweep_spawn},
  {"lists", test_parse_lists},
  {"plan on the C6100", test_plan_on_fixture},
  {"auto in the plan", test_plan_auto},
  {"identical placements merged", test_plan_merges_identical},
  {"--threads ranges", test_parse_thread_ranges},
  CU_TEST_INFO_NULL};
static CU_TestInfo command_tests[] = {
  {"end to end with files", test_end_to_end},
  {"-f json, --dry-run", test_json_and_dry_run},
  {"bad input", test_bad_input},
  {"failing and slow program", test_failing_program},
  {"threads elsewhere: runs invalid", test_invalid_binding},
  {"no addr2line: function names", test_no_addr2line},
  {"200 regions: one addr2line", test_addr2line_batched},
  {"budget", test_budget},
  {"inline helper x16, 200 regions on a line, no region", test_region_shapes},
  {"identical placements run once", test_identical_placements_run_once},
  {"--out with a quote", test_out_with_quote},
  {"-f json --dry-run", test_dry_run_json},
  {"adaptive rounds", test_adaptive_rounds},
  CU_TEST_INFO_NULL};
static CU_SuiteInfo suites[] = {
  {"tune analysis", NULL, NULL, NULL, NULL, analysis_tests},
  {"tune plan", NULL, NULL, NULL, NULL, plan_tests},
  {"tune command", suite_init, suite_clean, NULL, NULL, command_tests},
  CU_SUITE_INFO_NULL};

OMP_EXT_CUNIT_MAIN(suites)
