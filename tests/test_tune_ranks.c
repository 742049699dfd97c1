/*
 * htplaces tune --launcher (issue 31): the launcher's words and binding
 * (tune_launcher.c), the hybrid plan on synthetic machines (each rank's
 * places against `htplaces --ranks-per-node R --local-rank r POLICY T`, the
 * splits that do not fit and why), each rank's timing file checked against
 * its own domain and folded (the slowest rank), and the cost order (fewer
 * cores, then fewer PUs, then fewer ranks).  The command itself runs under
 * a real mpirun in test_tune_hybrid.sh.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cunit_main.h"
#include "testutil.h"
#include "tune_int.h"

/* ------------------------------------------------------------ launcher */

static void test_words(void)
{
  struct tune_launcher l;
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("  srun -n {R}  --export='A B' \"x\\\"y\" a\\ b\t"
                                            "--label", &l), 0);
  CU_ASSERT_EQUAL_FATAL(l.nwords, 7);
  CU_ASSERT_STRING_EQUAL(l.words[0], "srun");
  CU_ASSERT_STRING_EQUAL(l.words[2], "{R}");
  CU_ASSERT_STRING_EQUAL(l.words[3], "--export=A B");
  CU_ASSERT_STRING_EQUAL(l.words[4], "x\"y");
  CU_ASSERT_STRING_EQUAL(l.words[5], "a b");
  CU_ASSERT_STRING_EQUAL(l.words[6], "--label");
  CU_ASSERT_PTR_NULL(l.words[7]);
  CU_ASSERT_EQUAL(l.kind, TUNE_LAUNCHER_SRUN);
  CU_ASSERT_EQUAL(l.bind_off, 0);
  CU_ASSERT_EQUAL(l.cpus_given, 0);
  tune_launcher_free(&l);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("/usr/bin/mpiexec.openmpi -np {R}", &l), 0);
  CU_ASSERT_EQUAL(l.kind, TUNE_LAUNCHER_MPIRUN);
  tune_launcher_free(&l);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("./wrap.sh {R}", &l), 0);
  CU_ASSERT_EQUAL(l.kind, TUNE_LAUNCHER_OTHER);
  tune_launcher_free(&l);
}

/* Each refused: exit status 2, nothing kept. */
static void test_refused(void)
{
  static const char *const bad[] = {
    "mpirun -np 2", "", "   ", "mpirun -np {R} $HOME", "mpirun -np {R} 'x", "mpirun -np \"{R}`",
    "mpirun -np {R} > log", "mpirun -np {R} | tee", "mpirun -np {R} *", "mpirun -np {R} \\",
    "mpirun --bind-to core -np {R}", "mpirun --bind-to=socket -np {R}",
    "mpirun -bind-to hwthread -np {R}", "mpirun --cpu-set 0,1 -np {R}", "mpirun -rf f -np {R}",
    "mpirun --rankfile f -np {R}", "mpirun --map-by socket:PE=2 -np {R}",
    "mpiexec -binding cpu -np {R}", "srun --cpu-bind=cores -n {R}",
    "srun --cpu-bind map_cpu:0,1 -n {R}", "srun --cpu_bind=verbose,sockets -n {R}",
    "srun --hint=nomultithread -n {R}", "srun --threads-per-core=1 -n {R}",
    "srun --ht-policy=spn -n {R}", NULL};
  struct tune_launcher l;
  unsigned i;
  for (i = 0; bad[i]; i++) {
    int got = tune_launcher_parse(bad[i], &l);
    if (got != 2)
      fprintf(stderr, "\n  accepted: --launcher '%s'", bad[i]);
    CU_ASSERT_EQUAL(got, 2);
    CU_ASSERT_EQUAL(l.nwords, 0);
    CU_ASSERT_PTR_NULL(l.words);
  }
  setenv("SLURM_HINT", "nomultithread", 1); /* (srun reads it as --hint) */
  CU_ASSERT_EQUAL(tune_launcher_parse("srun -n {R}", &l), 2);
  unsetenv("SLURM_HINT");
  CU_ASSERT_EQUAL(tune_launcher_parse("mpirun -np {R}", &l), 0); /* (not srun's) */
  tune_launcher_free(&l);
}

/* The binding already off, srun's -c: nothing added. */
static void test_accepted(void)
{
  struct tune_launcher l;
  char buf[128];
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("mpirun --bind-to none --map-by socket -np {R}", &l),
                        0);
  CU_ASSERT_EQUAL(l.bind_off, 1);
  CU_ASSERT_STRING_EQUAL(tune_launcher_added(&l, buf, sizeof(buf)), "");
  tune_launcher_free(&l);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("srun --cpu-bind=verbose,none -c 2 -n {R}", &l), 0);
  CU_ASSERT_EQUAL(l.bind_off, 1);
  CU_ASSERT_EQUAL(l.cpus_given, 1);
  CU_ASSERT_STRING_EQUAL(tune_launcher_added(&l, buf, sizeof(buf)), "");
  tune_launcher_free(&l);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("srun -c2 --ht-policy=off -n {R}", &l), 0);
  CU_ASSERT_EQUAL(l.cpus_given, 1);
  CU_ASSERT_STRING_EQUAL(tune_launcher_added(&l, buf, sizeof(buf)), "--cpu-bind=none");
  tune_launcher_free(&l);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("srun -n {R}", &l), 0);
  CU_ASSERT_STRING_EQUAL(tune_launcher_added(&l, buf, sizeof(buf)),
                         "--cpu-bind=none --cpus-per-task={PUs/R}");
  tune_launcher_free(&l);
}

static void expect_argv(char **v, const char *const *want)
{
  unsigned i;
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  for (i = 0; want[i] && v[i]; i++) {
    if (strcmp(v[i], want[i]) != 0)
      fprintf(stderr, "\n  word %u: '%s', expected '%s'", i, v[i], want[i]);
    CU_ASSERT_STRING_EQUAL(v[i], want[i]);
  }
  CU_ASSERT_PTR_NULL(want[i]);
  CU_ASSERT_PTR_NULL(v[i]);
  for (i = 0; v[i]; i++)
    free(v[i]);
  free(v);
}

/* One run's command: {R} everywhere, the binding off after the command,
 * srun's --cpus-per-task, each rank's exec (with -r), {N} per rank. */
static void test_argv(void)
{
  static const char *const mpi[] = {"mpirun", "--bind-to", "none", "-np=2", "--oversubscribe",
                                    "htplaces", "exec", "-r", "0-3", "--ranks-per-node", "2",
                                    "spn", "4", "--", "./app", "-t", "4", "x4y", NULL};
  static const char *const none[] = {"mpirun", "--bind-to", "none", "-np=2", "--oversubscribe",
                                     "./app", "-t", "4", "x4y", NULL};
  static const char *const srun[] = {"srun", "--cpu-bind=none", "--cpus-per-task=6", "-n", "2",
                                     "htplaces", "exec", "--ranks-per-node", "2", "speedup",
                                     "4", "--", "./app", "-t", "4", "x4y", NULL};
  static const char *const srun_c[] = {"srun", "--cpu-bind=none", "-c", "3", "-n", "2", "./app",
                                       "-t", "4", "x4y", NULL};
  char *prog[] = {"./app", "-t", "{N}", "x{N}y", NULL}, line[512];
  struct tune_launcher l;
  struct tune_config c;
  FILE *f;
  memset(&c, 0, sizeof(c));
  c.policy = omp_ht_policy_spn, c.ranks = 2, c.threads = 8, c.launcher = &l;
  CU_ASSERT_EQUAL(tune_rank_threads(&c), 4);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("mpirun -np={R} --oversubscribe", &l), 0);
  l.htplaces = strdup("htplaces");
  l.restrict_list = strdup("0-3");
  expect_argv(tune_launcher_argv(&c, prog), mpi);
  c.policy = TUNE_NONE;
  expect_argv(tune_launcher_argv(&c, prog), none);
  f = fmemopen(line, sizeof(line), "w");
  CU_ASSERT_EQUAL(tune_ranks_command(f, &c, prog), 0);
  fclose(f);
  CU_ASSERT_STRING_EQUAL(line, "OMP_NUM_THREADS=4 mpirun --bind-to none -np=2 --oversubscribe "
                               "./app -t 4 x4y");
  tune_launcher_free(&l);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("srun -n {R}", &l), 0);
  l.htplaces = strdup("htplaces");
  l.pus = 12, l.cores = 6;
  c.policy = omp_ht_policy_speedup;
  expect_argv(tune_launcher_argv(&c, prog), srun);
  tune_launcher_free(&l);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("srun -c 3 -n {R}", &l), 0);
  c.policy = TUNE_NONE;
  expect_argv(tune_launcher_argv(&c, prog), srun_c);
  tune_launcher_free(&l);
}

/* srun's --cpus-per-task = PUs / R must give whole cores. */
static void test_fits(void)
{
  struct tune_launcher l;
  char why[200] = "";
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("srun -n {R}", &l), 0);
  l.pus = 6, l.cores = 3; /* 3 cores x 2 PUs */
  CU_ASSERT_EQUAL(tune_launcher_fits(&l, 1, why, sizeof(why)), 1);
  CU_ASSERT_EQUAL(tune_launcher_fits(&l, 3, why, sizeof(why)), 1);
  CU_ASSERT_EQUAL(tune_launcher_fits(&l, 2, why, sizeof(why)), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "the 3 allowed cores (6 PUs) are not a multiple of 2"));
  l.cpus_given = 1; /* the user's -c: theirs to choose */
  CU_ASSERT_EQUAL(tune_launcher_fits(&l, 2, why, sizeof(why)), 1);
  tune_launcher_free(&l);
  CU_ASSERT_EQUAL_FATAL(tune_launcher_parse("mpirun -np {R}", &l), 0);
  l.pus = 6, l.cores = 3;
  CU_ASSERT_EQUAL(tune_launcher_fits(&l, 2, why, sizeof(why)), 1);
  tune_launcher_free(&l);
}

/* ---------------------------------------------------------------- plan */

#define SMT "pack:2 core:2 pu:2(indexes=core:pack)" /* 4 cores, siblings 4 apart */

/* What `htplaces -i SMT --ranks-per-node R --local-rank r POLICY T` prints. */
static char *htplaces_places(unsigned ranks, unsigned r, const char *policy, unsigned t)
{
  char k[16], rr[16], tt[16], *out;
  char *argv[] = {HTPLACES_BIN, "-i", SMT, "--ranks-per-node", k, "--local-rank", rr,
                  (char *)policy, tt, NULL};
  struct run_result res;
  snprintf(k, sizeof(k), "%u", ranks);
  snprintf(rr, sizeof(rr), "%u", r);
  snprintf(tt, sizeof(tt), "%u", t);
  if (run_capture(argv, NULL, &res) != 0 || res.status != 0) {
    run_free(&res);
    return NULL;
  }
  res.out[strcspn(res.out, "\n")] = '\0';
  out = strdup(res.out);
  run_free(&res);
  return out;
}

/* Every rank's part of c->places is what htplaces prints for the rank. */
static void check_rank_places(const struct tune_config *c)
{
  char *copy = strdup(c->places), *part = copy, *bar;
  unsigned r;
  for (r = 0; r < c->ranks; r++) {
    char *want = htplaces_places(c->ranks, r, tune_policy_name(c->policy), tune_rank_threads(c));
    bar = strstr(part, " | ");
    if (bar)
      *bar = '\0';
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    if (strcmp(part, want) != 0)
      fprintf(stderr, "\n  %s %ux%u rank %u: '%s', htplaces: '%s'", tune_policy_name(c->policy),
              c->ranks, tune_rank_threads(c), r, part, want);
    CU_ASSERT_STRING_EQUAL(part, want);
    free(want);
    part = bar ? bar + 3 : part + strlen(part);
  }
  CU_ASSERT_EQUAL(*part, '\0'); /* no more ranks than R */
  free(copy);
}

static int plan_on(struct htp_ctx *ctx, struct tune_hybrid *h, const char *ranks,
                   const char *threads, struct tune_config **c, unsigned *n)
{
  static const int pol[] = {omp_ht_policy_spn, omp_ht_policy_speedup, TUNE_NONE};
  static const enum tune_wait waits[] = {TUNE_WAIT_UNSET};
  int status;
  memset(ctx, 0, sizeof(*ctx));
  memset(h, 0, sizeof(*h));
  ctx->input = SMT;
  if (!htp_topo(ctx, &status) || tune_launcher_parse("mpirun -np {R}", &h->launcher) != 0 ||
      tune_launcher_setup(&h->launcher, ctx->topo, NULL) != 0 ||
      tune_parse_ranks(ranks, omp_ext_topo_ncores(ctx->topo), &h->ranks, &h->nranks) != 0)
    return -1;
  return tune_ranks_plan(ctx, h, pol, 3, threads, waits, 1, c, n);
}

static const struct tune_config *find(const struct tune_config *c, unsigned n, const char *label)
{
  char buf[160];
  unsigned i;
  for (i = 0; i < n; i++) {
    tune_config_label(&c[i], buf, sizeof(buf));
    if (strcmp(buf, label) == 0)
      return &c[i];
  }
  return NULL;
}

/* 4 cores x 2 PUs, R in 1..5, T in 1, 2, 4: what fits, each rank's places,
 * the job's thread count and cores, the skips and their reasons. */
static void test_plan(void)
{
  static const char *const labels[] = {"speedup/spn 1x1", "none 1x1", "spn 1x2", "speedup 1x2",
                                       "spn 1x4", "speedup 1x4", "speedup/spn 2x1", "spn 2x2",
                                       "speedup 2x2", "spn 2x4", "speedup 2x4", "spn 3x2",
                                       "speedup 3x2", "speedup/spn 4x1", "speedup/spn 4x2",
                                       "none 4x2", NULL};
  struct htp_ctx ctx;
  struct tune_hybrid h;
  struct tune_config *c = NULL;
  const struct tune_config *x;
  unsigned n = 0, i;
  CU_ASSERT_EQUAL_FATAL(plan_on(&ctx, &h, "1-5", "1,2,4", &c, &n), 0);
  for (i = 0; labels[i]; i++) {
    x = find(c, n, labels[i]);
    if (!x)
      fprintf(stderr, "\n  no %s in the plan", labels[i]);
    CU_ASSERT_PTR_NOT_NULL(x);
  }
  for (i = 0; i < n; i++) {
    CU_ASSERT_PTR_EQUAL(c[i].launcher, &h.launcher);
    if (c[i].policy != TUNE_NONE)
      check_rank_places(&c[i]);
    else
      CU_ASSERT_PTR_NULL(c[i].places);
  }
  x = find(c, n, "spn 2x2"); /* 2 ranks, one core each with both siblings */
  CU_ASSERT_EQUAL(x->threads, 4);
  CU_ASSERT_EQUAL(x->usage.cores, 2);
  CU_ASSERT_STRING_EQUAL(x->places, "{0},{4} | {2},{6}");
  x = find(c, n, "speedup/spn 4x1"); /* (one PU a rank: merged) */
  CU_ASSERT_PTR_NOT_NULL(x);
  CU_ASSERT_PTR_NULL(find(c, n, "spn 3x4"));
  CU_ASSERT_PTR_NULL(find(c, n, "spn 4x4"));
  CU_ASSERT_PTR_NULL(find(c, n, "spn 5x1"));
  /* 3 ranks: domains of 2, 1 and 1 cores: T = 4 does not fit the smallest */
  CU_ASSERT_EQUAL_FATAL(h.nskips, 3);
  CU_ASSERT_EQUAL(h.skips[0].ranks, 3);
  CU_ASSERT_EQUAL(h.skips[0].threads, 4);
  CU_ASSERT_STRING_EQUAL(h.skips[0].why, "more threads than the 2 PUs of the smallest of 3 "
                                         "domains (3 x 4 = 12 of 8 allowed PUs)");
  CU_ASSERT_EQUAL(h.skips[1].ranks, 4);
  CU_ASSERT_EQUAL(h.skips[1].threads, 4);
  CU_ASSERT_EQUAL(h.skips[2].ranks, 5);
  CU_ASSERT_EQUAL(h.skips[2].threads, 0);
  CU_ASSERT_STRING_EQUAL(h.skips[2].why, "more ranks than the 4 allowed cores (each rank needs "
                                         "whole cores)");
  tune_free_plan(c, n);
  tune_ranks_free(&h);
  omp_ext_topo_destroy(ctx.topo);
}

/* Nothing fits: exit 2, no configuration; auto threads per domain. */
static void test_plan_nothing_fits(void)
{
  struct htp_ctx ctx;
  struct tune_hybrid h;
  struct tune_config *c = NULL;
  unsigned n = 7;
  CU_ASSERT_EQUAL(plan_on(&ctx, &h, "5,6", "1", &c, &n), 2);
  CU_ASSERT_EQUAL(n, 0);
  CU_ASSERT_PTR_NULL(c);
  CU_ASSERT_EQUAL(h.nskips, 2);
  tune_ranks_free(&h);
  omp_ext_topo_destroy(ctx.topo);
  CU_ASSERT_EQUAL_FATAL(plan_on(&ctx, &h, NULL, "auto", &c, &n), 0);
  CU_ASSERT_EQUAL(h.nranks, 3); /* 1, 2, 4 of 4 cores */
  CU_ASSERT_PTR_NOT_NULL(find(c, n, "spn 1x8"));  /* auto: every PU of the domain */
  CU_ASSERT_PTR_NOT_NULL(find(c, n, "spn 2x4"));
  CU_ASSERT_PTR_NOT_NULL(find(c, n, "speedup/spn 4x2"));
  CU_ASSERT_PTR_NOT_NULL(find(c, n, "speedup/spn 4x1"));
  CU_ASSERT_EQUAL(h.nskips, 0);
  tune_free_plan(c, n);
  tune_ranks_free(&h);
  omp_ext_topo_destroy(ctx.topo);
}

/* ----------------------------------------------------------- timing */

static char dir[] = "/tmp/test-tune-ranks-XXXXXX";

/* A timing file of one process: one region of `total` seconds, its one
 * thread on PU pu. */
static void timing_file(unsigned pid, const char *key, double total, int pu)
{
  char path[256];
  FILE *f;
  snprintf(path, sizeof(path), "%s/t.%u.json", dir, pid);
  f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f, "{\"omp_ext_timing\": 1, \"wall_s\": 1, \"regions_s\": %g, \"serial_s\": %g, "
          "\"pid\": %u, \"program\": \"/x/app\", \"started_s\": %u, \"regions\": [{\"name\": "
          "\"%s\", \"kind\": \"timer\", \"instances\": 2, \"team_sizes\": [1], \"total_s\": %g, "
          "\"median_s\": %g, \"bindings\": [{\"team\": 1, \"threads\": [{\"cpus\": \"%d\", "
          "\"pu\": %d}]}]}]}\n", total, 1 - total, pid, pid, key, total, total / 2, pu, pu);
  fclose(f);
}

static void clear_files(void)
{
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -f %s/t.*.json", dir);
  CU_ASSERT_EQUAL(system(cmd), 0);
}

/* 2 ranks of 1 thread on PUs 0 and 1: each file against its own rank, the
 * region's time in a run the slowest rank's; two processes on one rank's
 * places, or a thread on no rank's: invalid, nothing kept. */
static void test_rank_timing(void)
{
  static unsigned pus[] = {0, 1}, cores[] = {0, 1};
  struct tune_config c;
  char path[256], why[160];
  double serial;
  memset(&c, 0, sizeof(c));
  c.policy = omp_ht_policy_spn, c.ranks = 2, c.threads = 2;
  c.place_pu = pus, c.place_core = cores;
  snprintf(path, sizeof(path), "%s/t.%%p.json", dir);
  CU_ASSERT_EQUAL(tune_ranks_read_timing(path, &c, &serial, why, sizeof(why)), -1); /* none */
  timing_file(100, "r", 1.0, 1); /* rank 1 first: the order of the files does not matter */
  timing_file(101, "r", 2.0, 0);
  CU_ASSERT_EQUAL_FATAL(tune_ranks_read_timing(path, &c, &serial, why, sizeof(why)), 0);
  CU_ASSERT_EQUAL_FATAL(c.nregions, 1);
  CU_ASSERT_STRING_EQUAL(c.regions[0].key, "name:r"); /* (no "app#2: ": one key for all ranks) */
  CU_ASSERT_EQUAL_FATAL(c.regions[0].nruns, 1);
  CU_ASSERT_DOUBLE_EQUAL(c.regions[0].total_s[0], 2.0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(c.regions[0].median_s[0], 1.0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(serial, 0.0, 1e-12); /* the larger serial part: 1 - 1.0 */
  clear_files();
  timing_file(102, "r", 3.0, 0);
  timing_file(103, "r", 0.5, 1);
  CU_ASSERT_EQUAL_FATAL(tune_ranks_read_timing(path, &c, &serial, why, sizeof(why)), 0);
  CU_ASSERT_EQUAL_FATAL(c.regions[0].nruns, 2);
  CU_ASSERT_DOUBLE_EQUAL(c.regions[0].total_s[1], 3.0, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(serial, 0.5, 1e-12);
  clear_files();
  timing_file(104, "r", 3.0, 0);
  timing_file(105, "r", 0.5, 0); /* both on rank 0's PU */
  CU_ASSERT_EQUAL(tune_ranks_read_timing(path, &c, &serial, why, sizeof(why)), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "two processes ran on rank 0's places"));
  clear_files();
  timing_file(106, "r", 3.0, 0);
  timing_file(107, "s", 0.5, 5); /* PU 5: no rank's */
  CU_ASSERT_EQUAL(tune_ranks_read_timing(path, &c, &serial, why, sizeof(why)), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(why, "in no rank's domain"));
  CU_ASSERT_EQUAL(c.nregions, 1); /* nothing of the invalid runs kept */
  CU_ASSERT_EQUAL(c.regions[0].nruns, 2);
  clear_files();
  c.policy = TUNE_NONE, c.place_pu = NULL, c.place_core = NULL; /* none: no places to check */
  timing_file(108, "r", 3.0, 0);
  timing_file(109, "r", 4.0, 0);
  CU_ASSERT_EQUAL(tune_ranks_read_timing(path, &c, &serial, why, sizeof(why)), 0);
  CU_ASSERT_EQUAL_FATAL(c.regions[0].nruns, 3);
  CU_ASSERT_DOUBLE_EQUAL(c.regions[0].total_s[2], 4.0, 1e-12);
  clear_files();
  tune_free_regions(&c);
}

/* --------------------------------------------------------------- cost */

static void craft(struct tune_config *c, unsigned ranks, unsigned threads, unsigned cores,
                  const double *t)
{
  unsigned i;
  memset(c, 0, sizeof(*c));
  c->policy = omp_ht_policy_spn;
  c->ranks = ranks;
  c->threads = threads;
  c->usage.threads = threads;
  c->usage.cores = cores;
  c->usage.packages = 1;
  c->runs = calloc(3, sizeof(*c->runs));
  c->nruns = 3;
  for (i = 0; i < 3; i++) {
    c->runs[i].round = i;
    c->runs[i].wall_s = t[i];
    c->runs[i].cpu_s = t[i];
    c->runs[i].energy_j = 100 * t[i];
  }
}

/* All tied: fewer cores, then fewer PUs (R x T), then fewer ranks; the
 * label "spn RxT". */
static void test_cost_order(void)
{
  static const double a[] = {1.0, 1.1, 0.9}, b[] = {1.05, 0.95, 1.0}, d[] = {0.98, 1.02, 1.0};
  struct tune_config c[4];
  struct tune_result r[4];
  struct tune_summary s;
  char label[64];
  unsigned i;
  craft(&c[0], 2, 4, 2, a); /* 2x2 on 2 cores with siblings: 4 PUs */
  craft(&c[1], 2, 2, 2, b); /* 2x1: 2 PUs, 2 ranks */
  craft(&c[2], 1, 2, 2, d); /* 1x2: 2 PUs, 1 rank */
  craft(&c[3], 1, 1, 1, a); /* 1x1: 1 core */
  tune_config_label(&c[0], label, sizeof(label));
  CU_ASSERT_STRING_EQUAL(label, "spn 2x2");
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 4, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 3); /* fewer cores */
  tune_free_summary(&s);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 3, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 2); /* same cores and PUs: fewer ranks */
  tune_free_summary(&s);
  CU_ASSERT_EQUAL_FATAL(tune_analyse(c, 2, NULL, NULL, r, &s), 0);
  CU_ASSERT_EQUAL(s.best[TUNE_TIME], 1); /* same cores: fewer PUs */
  tune_free_summary(&s);
  for (i = 0; i < 4; i++)
    free(c[i].runs);
}

static int suite_init(void)
{
  return mkdtemp(dir) ? 0 : -1;
}

static int suite_clean(void)
{
  return rmdir(dir);
}

static CU_TestInfo launcher_tests[] = {
  {"words as a shell splits them", test_words},
  {"refused: no {R}, shell syntax, the launcher's own binding", test_refused},
  {"binding already off, srun's -c", test_accepted},
  {"one run's command", test_argv},
  {"srun: whole cores per rank", test_fits},
  CU_TEST_INFO_NULL};
static CU_TestInfo plan_tests[] = {
  {"ranks x threads x policy on 4 cores x 2 PUs", test_plan},
  {"nothing fits; auto", test_plan_nothing_fits},
  {"each rank's timing file, the slowest rank", test_rank_timing},
  {"cost: cores, PUs, ranks", test_cost_order},
  CU_TEST_INFO_NULL};
static CU_SuiteInfo suites[] = {
  {"tune launcher", NULL, NULL, NULL, NULL, launcher_tests},
  {"tune ranks", suite_init, suite_clean, NULL, NULL, plan_tests},
  CU_SUITE_INFO_NULL};

OMP_EXT_CUNIT_MAIN(suites)
