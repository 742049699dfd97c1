/*
 * htplaces tune's report, byte for byte: one crafted measurement (six
 * configurations: a baseline, two fast ones, a noisy one whose confidence
 * interval reaches below 0, one that failed in every run, auto; regions,
 * a named timer, an invalid run, a skipped run) through tune_analyse, then
 * every file --out writes (table.txt, results.json, results.csv,
 * recommendation.txt, plots.gp) compared with tests/golden/tune-report.*.
 * A mismatch leaves the output beside the golden file's name in $TMPDIR
 * (/tmp) for diff.  Regenerate after an intended change:
 * OMP_EXT_GOLDEN_WRITE=1 ./test_tune_report (writes tests/golden/).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cunit_main.h"
#include "testutil.h"
#include "tune_int.h"

#define GOLDEN(name) OMP_EXT_TEST_DIR "/golden/tune-report." name

/* One crafted configuration: label parts, runs' seconds (round k: run k;
 * NAN: the run failed with exit 1), the watts of its energy. */
struct spec {
  int policy;
  unsigned policies, threads, cores, extra;
  double t[4];
  unsigned nruns;
};

static const struct spec specs[] = {
  {TUNE_NONE, 0, 1, 1, 0, {10.0, 10.2, 9.9}, 3},
  {omp_ht_policy_speedup, 1u << omp_ht_policy_speedup | 1u << omp_ht_policy_spread, 2, 2, 0,
   {5.6, 5.4, 5.5}, 3},
  {omp_ht_policy_spn, 0, 4, 2, 2, {4.3, 4.6, 4.4}, 3},
  {omp_ht_policy_spn, 0, 2, 1, 1, {2.0, 9.0, 3.0}, 3}, /* noisy: its CI reaches below 0 */
  {omp_ht_policy_spread, 0, 3, 2, 1, {NAN, NAN, NAN}, 3},
  {TUNE_AUTO, 0, 4, 2, 2, {4.5, 4.4, 4.6}, 3},
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))

/* Region key/name, its seconds per run at 1 thread (divided by the
 * configuration's cores elsewhere), instances. */
static const struct {
  const char *key, *name;
  double s;
} regions[] = {
  {"/opt/app/bin/app+0x1a2c", "app.c:42", 6.0},
  {"/opt/app/bin/app+0x1b00", "solve_the_whole_linear_system_with_a_long_name(double*, int)", 2.5},
  {"/usr/lib/libfoo.so.1+0x40", "libfoo.so.1: foo_kernel", 0.0004},
  {"name:io", "io", 0.5},
};
#define NREGIONS (sizeof(regions) / sizeof(regions[0]))

static void craft_one(struct tune_config *c, const struct spec *p)
{
  unsigned k, g;
  memset(c, 0, sizeof(*c));
  c->policy = p->policy;
  c->policies = p->policies;
  c->threads = p->threads;
  c->usage.threads = p->threads;
  c->usage.cores = p->cores;
  c->usage.packages = 1;
  c->usage.extra = p->extra;
  c->runs = calloc(p->nruns + 1, sizeof(*c->runs));
  for (k = 0; k < p->nruns; k++) {
    struct tune_run *r = &c->runs[c->nruns++];
    r->round = k;
    r->wall_s = isnan(p->t[k]) ? 0.01 : p->t[k];
    r->cpu_s = r->wall_s * p->threads * 0.9;
    r->energy_j = 100 * r->wall_s;
    r->status = isnan(p->t[k]) ? 1 : 0;
    r->other_cpu_s = NAN;
  }
  if (isnan(p->t[0])) {
    snprintf(c->tail, sizeof(c->tail), "error: cannot allocate 3 threads");
    return;
  }
  c->regions = calloc(NREGIONS, sizeof(*c->regions));
  c->serial_s = calloc(p->nruns, sizeof(double));
  for (g = 0; g < NREGIONS; g++) {
    struct tune_region *y = &c->regions[c->nregions++];
    y->key = strdup(regions[g].key);
    y->name = strdup(regions[g].name);
    y->instances = g == 3 ? 40 : 1000;
    y->timer = g == 3; /* (name:io: a named measurement) */
    y->team_max = g == 3 ? 1 : p->threads;
    y->total_s = calloc(p->nruns, sizeof(double));
    y->median_s = calloc(p->nruns, sizeof(double));
    if (p->policy == TUNE_AUTO)
      y->control = strdup(g == 0 ? "spn:4" : "speedup:2 exploring");
    for (k = 0; k < p->nruns; k++) {
      y->total_s[k] = regions[g].s / (g == 3 ? 1 : p->cores) * (1 + 0.01 * k);
      y->median_s[k] = y->total_s[k] / (double)y->instances;
      y->nruns++;
    }
  }
  for (k = 0; k < p->nruns; k++)
    c->serial_s[c->nserial++] = 1.0 + 0.01 * k;
}

/* The crafted measurement; c[1] has one more run, invalid. */
static void craft_all(struct tune_config *c)
{
  unsigned i;
  for (i = 0; i < NSPECS; i++)
    craft_one(&c[i], &specs[i]);
  c[1].runs[c[1].nruns] = c[1].runs[0];
  c[1].runs[c[1].nruns].round = 3;
  snprintf(c[1].runs[c[1].nruns].invalid, sizeof(c[1].runs[0].invalid),
           "thread 1 of app.c:42 (team of 2) ran on PU 3 bound to {3}, not on its place {1}");
  c[1].nruns++;
}

static void free_all(struct tune_config *c)
{
  unsigned i;
  for (i = 0; i < NSPECS; i++) {
    tune_free_regions(&c[i]);
    free(c[i].runs);
  }
}

/* The report of the crafted measurement on a 2-core, 4-PU machine. */
struct fixture {
  struct tune_config c[NSPECS];
  struct tune_result r[NSPECS];
  struct tune_summary s;
  struct tune_report rep;
  omp_ext_topo_t *topo;
  char *argv[3], *skipped[1];
};

static int make_fixture(struct fixture *x)
{
  memset(x, 0, sizeof(*x));
  if (omp_ext_topo_load(&x->topo, "pack:1 core:2 pu:2", 0) != 0)
    return -1;
  craft_all(x->c);
  if (tune_analyse(x->c, NSPECS, x->topo, NULL, x->r, &x->s) != 0)
    return -1;
  x->argv[0] = "./app", x->argv[1] = "input file.dat", x->argv[2] = NULL;
  x->skipped[0] = "spn 4 round 4";
  x->rep = (struct tune_report){x->c, x->r, NSPECS, &x->s, x->argv, x->topo, 3, 7, TUNE_TIME,
                                0, NULL, "c6100", x->skipped, 1, 3, NULL,
                                {0.25, 0.5, 2, 3, 0.45}};
  return 0;
}

static void free_fixture(struct fixture *x)
{
  tune_free_summary(&x->s);
  free_all(x->c);
  omp_ext_topo_destroy(x->topo);
}

/* dir/name equals tests/golden/tune-report.suffix; else the output is kept
 * in $TMPDIR for diff (with OMP_EXT_GOLDEN_WRITE set: written there). */
static void compare(const char *dir, const char *name, const char *suffix)
{
  char path[600], golden[600], keep[600];
  char *got, *want;
  const char *tmp = getenv("TMPDIR");
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  snprintf(golden, sizeof(golden), GOLDEN("%s"), suffix);
  got = read_text(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(got);
  if (getenv("OMP_EXT_GOLDEN_WRITE")) {
    FILE *f = fopen(golden, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(got, f);
    fclose(f);
  }
  want = read_text(golden);
  CU_ASSERT_PTR_NOT_NULL(want);
  CU_ASSERT(want && strcmp(got, want) == 0);
  if (!want || strcmp(got, want) != 0) {
    FILE *f;
    snprintf(keep, sizeof(keep), "%s/tune-report.%s", tmp && *tmp ? tmp : "/tmp", suffix);
    if ((f = fopen(keep, "w")) != NULL) {
      fputs(got, f);
      fclose(f);
    }
    fprintf(stderr, "\n%s differs from %s: diff -u %s %s\n", name, golden, golden, keep);
  }
  free(got);
  free(want);
}

/* Every file of --out (gnuplot kept out of PATH: the script only). */
static void test_golden_files(void)
{
  struct fixture x;
  struct tune_out out;
  char dir[] = "/tmp/test-tune-report-XXXXXX", *path = getenv("PATH"), *saved;
  CU_ASSERT_EQUAL_FATAL(make_fixture(&x), 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  saved = path ? strdup(path) : NULL;
  setenv("PATH", "/nonexistent", 1);
  CU_ASSERT_EQUAL_FATAL(tune_out_open(dir, &out), 0);
  CU_ASSERT_EQUAL(tune_out_write(&out, &x.rep), 0);
  CU_ASSERT_EQUAL(tune_out_commit(&out), 0);
  if (saved)
    setenv("PATH", saved, 1);
  free(saved);
  compare(dir, "table.txt", "table");
  compare(dir, "results.json", "json");
  compare(dir, "results.csv", "csv");
  compare(dir, "recommendation.txt", "rec");
  compare(dir, "plots.gp", "gp");
  tune_remove_temp_dir(dir);
  free_fixture(&x);
}

/* The table of the fixture as a string (malloc'd). */
static char *table(const struct fixture *x)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  tune_print_table(f, &x->rep);
  fclose(f);
  return buf;
}

/* Issue 33's report rules, one by one on the fixture: the shares of the
 * parallel regions and the serial part sum to 100 % on one total (on main
 * they were each of their own best configuration's run time: 108 % on a
 * real program); a CI clipped at 0 reads "< 0.1 ms", not "0 s", and the
 * JSON says it was clipped; "tied" says over how many rounds, with the
 * --budget hint. */
static void test_report_rules(void)
{
  struct fixture x;
  double sum;
  unsigned k;
  char *text;
  CU_ASSERT_EQUAL_FATAL(make_fixture(&x), 0);
  CU_ASSERT_EQUAL(x.s.share_from, 0); /* none 1: recommended (all tied, the cheapest) */
  sum = x.s.serial_share;
  for (k = 0; k < x.s.nregions; k++)
    if (!x.s.regions[k].timer)
      sum += x.s.regions[k].share;
  CU_ASSERT_DOUBLE_EQUAL(sum, 1, 1e-9);
  CU_ASSERT(x.r[3].clipped & (1u << TUNE_TIME));
  CU_ASSERT_FALSE(x.r[0].clipped & (1u << TUNE_TIME));
  CU_ASSERT_PTR_NOT_NULL_FATAL(text = table(&x));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, " [< 0.1 ms, 14.072 s] "));
  CU_ASSERT_PTR_NULL(strstr(text, "[0 s,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, " +165.4% tied (3) "));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "tied (R): not significantly higher over R paired rounds"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "more rounds may separate them: --budget SECONDS adds "
                                      "rounds of the tied configurations"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n  app.c:42 "));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "   63.2% "));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "  (5.3%) ")); /* (the named measurement: outside the 100 %) */
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "serial part (outside any region): median 1.010 s at none 1, "
                                      "10.5%\n"));
  free(text);
  free_fixture(&x);
}

/* The failure line: the last line that reads as a message, not a rule
 * under it (issue 33: "-------" was reported), nor a number; else the
 * last line that is not blank; control characters as blanks. */
static void test_failure_line(void)
{
  char line[64];
  CU_ASSERT_EQUAL(tune_failure_line("banner\nERROR: no input deck\n-------------\n\n", line,
                                    sizeof(line)), 1);
  CU_ASSERT_STRING_EQUAL(line, "ERROR: no input deck");
  CU_ASSERT_EQUAL(tune_failure_line("  *** Abort: bad\tgrid ***  \n====\n 42\n*  *  *\n", line,
                                    sizeof(line)), 1);
  CU_ASSERT_STRING_EQUAL(line, "*** Abort: bad grid ***");
  /* under a launcher (tune --launcher), the program's message above the
   * launcher's closing words (it showed Open MPI's "Exit code: 1") */
  CU_ASSERT_EQUAL(tune_failure_line(
                    "ERROR: no input deck\n"
                    "--------------------------------------------------------\n"
                    "Primary job  terminated normally, but 1 process returned\n"
                    "a non-zero exit code. Per user-direction, the job has been aborted.\n"
                    "--------------------------------------------------------\n"
                    "--------------------------------------------------------\n"
                    "mpirun detected that one or more processes exited with non-zero "
                    "status, thus causing\nthe job to be terminated. The first process to "
                    "do so was:\n\n  Process name: [[11925,1],0]\n  Exit code:    1\n"
                    "--------------------------------------------------------\n",
                    line, sizeof(line)), 1);
  CU_ASSERT_STRING_EQUAL(line, "ERROR: no input deck");
  CU_ASSERT_EQUAL(tune_failure_line("cg: cannot open input\nsrun: error: node1: task 0: Exited "
                                    "with exit code 1\n", line, sizeof(line)), 1);
  CU_ASSERT_STRING_EQUAL(line, "cg: cannot open input");
  CU_ASSERT_EQUAL(tune_failure_line("srun: error: node1: task 0: Exited with exit code 1\n", line,
                                    sizeof(line)), 1);
  CU_ASSERT_STRING_EQUAL(line, "srun: error: node1: task 0: Exited with exit code 1");
  /* the launcher's words alone (/bin/false under mpirun): its first message */
  CU_ASSERT_EQUAL(tune_failure_line("----------\nPrimary job  terminated normally, but 1 process "
                                    "returned\n----------\n  Exit code:    1\n----------\n",
                                    line, sizeof(line)), 1);
  CU_ASSERT_STRING_EQUAL(line, "Primary job  terminated normally, but 1 process returned");
  CU_ASSERT_EQUAL(tune_failure_line("-----\n=====\n", line, sizeof(line)), 0);
  CU_ASSERT_STRING_EQUAL(line, "=====");
  CU_ASSERT_EQUAL(tune_failure_line("\n \n", line, sizeof(line)), -1);
  CU_ASSERT_STRING_EQUAL(line, "");
  CU_ASSERT_EQUAL(tune_failure_line(NULL, line, sizeof(line)), -1);
  CU_ASSERT_EQUAL(tune_failure_line("x: a message longer than the room there is for it\n", line,
                                    16), 1);
  CU_ASSERT_STRING_EQUAL(line, "x: a message lo");
}

static CU_TestInfo tests[] = {
  {"every file of --out, byte for byte", test_golden_files},
  {"the failure line: a message, not a rule", test_failure_line},
  {"shares of one total, clipped CIs, tied rounds", test_report_rules},
  CU_TEST_INFO_NULL};
static CU_SuiteInfo suites[] = {{"tune report", NULL, NULL, NULL, NULL, tests},
                                CU_SUITE_INFO_NULL};

OMP_EXT_CUNIT_MAIN(suites)
