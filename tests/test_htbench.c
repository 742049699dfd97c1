/*
 * htbench (issue 5): corpus, kernels and their verification,
 * the power stand-in, results.csv round trip; then the command itself:
 * every bad option, the --quick smoke sweep (files, verification and each
 * thread's recorded binding against its place -- never the times), the
 * sweep under taskset, and the plots with and without gnuplot.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cunit_main.h"
#include "htbench.h"
#include "omp_ext.h"
#include "testutil.h"

#ifndef HTBENCH_BIN
#define HTBENCH_BIN "htbench"
#endif
#ifndef HTBENCH_INCODE_BIN
#define HTBENCH_INCODE_BIN "htbench-incode"
#endif

/* Small sizes for the smoke sweeps: the CI has 2 cores and runs both
 * builds' tests at once. */
#define SMALL "--corpus-mb", "0.3", "--sieve-limit", "200000", "--flops-iters", "200000", \
              "--triad-n", "200000", "--split-n", "20000", "--split-length", "20", "--target-ms", "1"

/* ------------------------------------------------------------ corpus */

static void test_corpus_deterministic(void)
{
  char *a = htb_corpus_generate(200000, 42), *b = htb_corpus_generate(200000, 42);
  char *c = htb_corpus_generate(200000, 7);
  size_t i;
  int printable = 1;
  CU_ASSERT_FATAL(a && b && c);
  CU_ASSERT(memcmp(a, b, 200000) == 0);
  CU_ASSERT(memcmp(a, c, 200000) != 0);
  for (i = 0; i < 200000; i++)
    printable &= a[i] == '\n' || (a[i] >= ' ' && a[i] <= 'z');
  CU_ASSERT(printable);
  CU_ASSERT(a[199999] == '\n');
  free(a);
  free(b);
  free(c);
}

static int cmp_str(const void *a, const void *b)
{
  return strcmp((const char *)a, (const char *)b);
}

static void test_corpus_vocabulary(void)
{
  char (*w)[16] = malloc(HTB_CORPUS_WORDS * sizeof(*w));
  unsigned r, dups = 0;
  CU_ASSERT_FATAL(w != NULL);
  for (r = 0; r < HTB_CORPUS_WORDS; r++)
    CU_ASSERT(htb_corpus_word(42, r, w[r]) >= 1);
  qsort(w, HTB_CORPUS_WORDS, sizeof(*w), cmp_str);
  for (r = 1; r < HTB_CORPUS_WORDS; r++)
    dups += strcmp(w[r - 1], w[r]) == 0;
  CU_ASSERT_EQUAL(dups, 0); /* 50,000 different pseudo-words */
  free(w);
}

/* Zipf s = 1: the rank-r word appears about 1/(r+1) as often as the first. */
static void test_corpus_zipf(void)
{
  size_t len = 4000000;
  char *text = htb_corpus_generate(len, 42), msg[256];
  struct htb_wc_top top[4];
  uint64_t total, distinct;
  char w0[16], w1[16], w3[16];
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT_FATAL(htb_wordcount_buffer(text, len, 2, &total, &distinct, top, 4, msg, sizeof(msg)));
  htb_corpus_word(42, 0, w0);
  htb_corpus_word(42, 1, w1);
  htb_corpus_word(42, 3, w3);
  CU_ASSERT_STRING_EQUAL(top[0].word, w0);
  CU_ASSERT_STRING_EQUAL(top[1].word, w1);
  CU_ASSERT_STRING_EQUAL(top[3].word, w3);
  CU_ASSERT_DOUBLE_EQUAL((double)top[0].count / top[1].count, 2.0, 0.1);
  CU_ASSERT_DOUBLE_EQUAL((double)top[0].count / top[3].count, 4.0, 0.2);
  /* the first word's share is 1/H(50000) = 8.8% of all words */
  CU_ASSERT_DOUBLE_EQUAL((double)top[0].count / total, 1 / 11.397, 0.003);
  CU_ASSERT(distinct > 30000 && distinct <= HTB_CORPUS_WORDS);
  free(text);
}

/* ------------------------------------------------------------ word count */

static void test_wordcount_known(void)
{
  const char *text = "The cat saw the CAT; dog's bone, the dog's.\n\nthe";
  struct htb_wc_top top[3];
  uint64_t total, distinct;
  char msg[256];
  unsigned t;
  for (t = 1; t <= 7; t++) { /* more threads than words: empty chunks */
    CU_ASSERT(htb_wordcount_buffer(text, strlen(text), t, &total, &distinct, top, 3, msg,
                                   sizeof(msg)));
    CU_ASSERT_EQUAL(total, 10);
    CU_ASSERT_EQUAL(distinct, 5); /* the cat saw dog's bone */
    CU_ASSERT_STRING_EQUAL(top[0].word, "the");
    CU_ASSERT_EQUAL(top[0].count, 4);
    CU_ASSERT_STRING_EQUAL(top[1].word, "cat"); /* ties by word: cat < dog's */
    CU_ASSERT_EQUAL(top[1].count, 2);
    CU_ASSERT_STRING_EQUAL(top[2].word, "dog's");
  }
}

/* Chunk boundaries fall inside long words for every thread count. */
static void test_wordcount_boundaries(void)
{
  char text[4001];
  struct htb_wc_top top[2];
  uint64_t total, distinct;
  char msg[256];
  unsigned i, t;
  for (i = 0; i < 4000; i++)
    text[i] = (i % 40 == 39) ? ' ' : (char)('a' + (i / 40) % 2);
  text[4000] = '\0';
  for (t = 1; t <= 9; t++) {
    CU_ASSERT(htb_wordcount_buffer(text, 4000, t, &total, &distinct, top, 2, msg, sizeof(msg)));
    CU_ASSERT_EQUAL(total, 100);
    CU_ASSERT_EQUAL(distinct, 2);
    CU_ASSERT_EQUAL(top[0].count, 50);
    CU_ASSERT_EQUAL(top[1].count, 50);
  }
}

/* ------------------------------------------------------------ kernels */

static const struct htb_sizes small = {NULL, 0.2, 42, 1000000, 100000, 100000, 10, 0.001, NULL,
                                       20000, 10, 4, 10, 0};

/* Setup, verify before running (must fail loudly), run, verify (must pass). */
static void kernel_cycle(const char *name, const char *expect_in_msg)
{
  const struct htb_kernel *k = htb_kernel_by_name(name);
  char err[256] = "", msg[512] = "";
  void *st;
  CU_ASSERT_FATAL(k != NULL);
  st = k->setup(&small, 2, err, sizeof(err));
  CU_ASSERT_FATAL(st != NULL);
  if (k->kind == HTB_WORK) {
    CU_ASSERT(k->verify(st, msg, sizeof(msg)) == 0);
    CU_ASSERT(strstr(msg, "WRONG") != NULL);
  }
  k->run(st, 3, NULL);
  if (k->reference)
    k->reference(st, 3);
  CU_ASSERT(k->verify(st, msg, sizeof(msg)) == 1);
  if (expect_in_msg && !strstr(msg, expect_in_msg))
    fprintf(stderr, "\n%s: '%s' lacks '%s'\n", name, msg, expect_in_msg);
  CU_ASSERT(!expect_in_msg || strstr(msg, expect_in_msg) != NULL);
  k->teardown(st);
}

static void test_kernel_sieve(void)
{
  kernel_cycle("sieve", "primes<=1000000: 78498"); /* pi(10^6) */
}
static void test_kernel_flops(void)
{
  kernel_cycle("fadd", "blocks=512");
  kernel_cycle("fmul", "blocks=512");
  kernel_cycle("fdiv", "blocks=512");
}
static void test_kernel_triad(void)
{
  kernel_cycle("triad", "n=100000 all elements exact");
}
static void test_kernel_wordcount(void)
{
  kernel_cycle("wordcount", "words=");
}
/* Workers compare with the digest of the parent's serial count. */
static void test_wordcount_digest(void)
{
  const struct htb_kernel *k = htb_kernel_by_name("wordcount");
  struct htb_sizes sz = small;
  char *text = htb_corpus_generate(200000, 42), digest[96], bad[96], err[256], msg[512];
  unsigned long long t, d, c;
  void *st;
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT_FATAL(htb_wordcount_reference(text, 200000, digest, sizeof(digest)) == 0);
  CU_ASSERT_FATAL(sscanf(digest, "%llu,%llu,%llu", &t, &d, &c) == 3);
  CU_ASSERT(t > 30000 && d > 1000 && d < t);
  sz.wc_expect = digest;
  st = k->setup(&sz, 3, err, sizeof(err));
  CU_ASSERT_FATAL(st != NULL);
  k->run(st, 2, NULL);
  CU_ASSERT(k->verify(st, msg, sizeof(msg)) == 1);
  CU_ASSERT(strstr(msg, "(= serial reference digest)") != NULL);
  k->teardown(st);
  snprintf(bad, sizeof(bad), "%llu,%llu,%llu", t, d, c + 2); /* one count off */
  sz.wc_expect = bad;
  st = k->setup(&sz, 2, err, sizeof(err));
  CU_ASSERT_FATAL(st != NULL);
  k->run(st, 1, NULL);
  CU_ASSERT(k->verify(st, msg, sizeof(msg)) == 0);
  CU_ASSERT(strstr(msg, "word count WRONG") != NULL);
  k->teardown(st);
  sz.wc_expect = "12,x";
  CU_ASSERT(k->setup(&sz, 2, err, sizeof(err)) == NULL);
  CU_ASSERT(strstr(err, "--wc-expect '12,x'") != NULL);
  free(text);
}

static void test_kernel_overheads(void)
{
  kernel_cycle("parallel", "regions=3");
  kernel_cycle("for", "iterations of index: 3 each of 2");
  kernel_cycle("barrier", "barriers of thread: 3 each of 2");
  kernel_cycle("reduction", "reduction sum=6");
}

/* The split kernels: every iteration once per region (3 regions, and 3
 * serial loops of the paired reference), the team's weights in the check
 * (a team of 2). */
static void test_kernel_split(void)
{
  static const char *const names[] = {"split-static",  "split-dynamic", "split-share",
                                      "split-weights", "split-tail",    "split-steal",
                                      "split-adaptive", "split-serial"};
  unsigned i;
  for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    const struct htb_kernel *k = htb_kernel_by_name(names[i]);
    char err[256] = "", msg[512] = "";
    void *st;
    CU_ASSERT_FATAL(k != NULL && k->capacity != NULL);
    /* the paired reference (every kernel but split-serial) runs the loop 3
     * more times, each iteration once each time */
    kernel_cycle(names[i], k->reference ? "20000 iterations x 10 each once in 6 regions; weights "
                                        : "20000 iterations x 10 each once in 3 regions; weights ");
    st = k->setup(&small, 2, err, sizeof(err));
    CU_ASSERT_FATAL(st != NULL);
    k->run(st, 1, NULL);
    CU_ASSERT(k->verify(st, msg, sizeof(msg)) == 1);
    CU_ASSERT(k->capacity(st) > 0); /* the team's weights were taken */
    CU_ASSERT(k->work(st) == 0.02);  /* 20000 iterations = 0.02 Mit */
    k->teardown(st);
  }
  { /* a zero size is refused, not run */
    struct htb_sizes zero = small;
    char err[256] = "";
    zero.split_chunk = 0;
    CU_ASSERT(htb_kernel_split_dynamic.setup(&zero, 2, err, sizeof(err)) == NULL);
    CU_ASSERT(strstr(err, "must be >= 1") != NULL);
    zero = small;
    zero.split_tail = 101;
    err[0] = 0;
    CU_ASSERT(htb_kernel_split_tail.setup(&zero, 2, err, sizeof(err)) == NULL);
    CU_ASSERT(strstr(err, "the tail 0-100%") != NULL);
  }
}

static void test_sieve_limits(void)
{
  const struct htb_kernel *k = htb_kernel_by_name("sieve");
  struct htb_sizes sz = small;
  static const uint64_t limit[] = {3, 10, 100, 65537 * 2 + 1, 10000000};
  static const char *const want[] = {"primes<=3: 2", "primes<=10: 4", "primes<=100: 25",
                                     "primes<=131075: 12251", "primes<=10000000: 664579"};
  char err[64], msg[256];
  unsigned i;
  for (i = 0; i < 5; i++) {
    void *st;
    sz.sieve_limit = limit[i];
    st = k->setup(&sz, 3, err, sizeof(err));
    CU_ASSERT_FATAL(st != NULL);
    k->run(st, 1, NULL);
    CU_ASSERT(k->verify(st, msg, sizeof(msg)));
    CU_ASSERT_STRING_EQUAL(msg, want[i]);
    k->teardown(st);
  }
}

/* ------------------------------------------------------------ power, CSV */

static void test_modelled_power(void)
{
  unsetenv("OMP_EXT_POWER_MODEL"); /* the C6100 preset, whatever the caller set */
  /* C6100 preset: Pn 76.11 + Ps 25.19 * 2 + Pc 9.68 * 8 + Pt 2.61 * 8 */
  CU_ASSERT_DOUBLE_EQUAL(htb_modelled_power_w(2, 8, 8), 224.81, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(htb_modelled_power_w(1, 1, 0), 110.98, 1e-9);
}

static void test_csv_roundtrip(void)
{
  struct htb_result r[2], *back = NULL;
  char path[] = "/tmp/htbench-csv-XXXXXX", err[256];
  unsigned n = 0;
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  htb_result_init(&r[0]);
  htb_result_init(&r[1]);
  strcpy(r[0].kernel, "wordcount");
  strcpy(r[0].policy, "spn");
  strcpy(r[0].places, "{0},{8}");
  strcpy(r[0].check, "a \"quoted\", list");
  strcpy(r[0].bindings, "0:0;1:8");
  r[0].threads = 2;
  r[0].median_s = 0.125;
  r[0].inner_reps = 123456789UL;
  r[0].valid = 1;
  strcpy(r[1].kernel, "sieve");
  r[1].rapl_w = 1.5;
  CU_ASSERT_FATAL(htb_write_csv(path, r, 2) == 0);
  CU_ASSERT_FATAL(htb_read_csv(path, &back, &n, err, sizeof(err)) == 0);
  CU_ASSERT_FATAL(n == 2);
  CU_ASSERT_STRING_EQUAL(back[0].places, "{0},{8}");
  CU_ASSERT_STRING_EQUAL(back[0].check, "a \"quoted\", list");
  CU_ASSERT_STRING_EQUAL(back[0].bindings, "0:0;1:8");
  CU_ASSERT_EQUAL(back[0].threads, 2);
  CU_ASSERT_EQUAL(back[0].inner_reps, 123456789UL);
  CU_ASSERT_DOUBLE_EQUAL(back[0].median_s, 0.125, 1e-15);
  CU_ASSERT(isnan(back[0].speedup));
  CU_ASSERT(back[0].rapl_w < 0);
  CU_ASSERT_DOUBLE_EQUAL(back[1].rapl_w, 1.5, 1e-15);
  free(back);
  unlink(path);
}

/* htb_print_tables' text for crafted results (the caller frees it). */
static char *tables_text(const struct htb_result *r, unsigned n, unsigned max_smt)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CU_ASSERT_FATAL(f != NULL);
  htb_print_tables(f, r, n, max_smt);
  fclose(f);
  CU_ASSERT_FATAL(text != NULL);
  return text;
}

/* The SMT tables on crafted results (this CI machine has no SMT): noht =
 * 1 thread on 1 core, ht = 2 threads on that core; Table 6's SPN. */
static void test_tables_smt(void)
{
  unsetenv("OMP_EXT_POWER_MODEL"); /* the C6100 preset, whatever the caller set */
  struct htb_result r[3];
  char *text;
  unsigned i;
  for (i = 0; i < 3; i++) {
    htb_result_init(&r[i]);
    strcpy(r[i].kernel, "sieve");
    strcpy(r[i].status, "ok");
    r[i].packages = 1;
  }
  strcpy(r[0].policy, "speedup");
  r[0].threads = r[0].cores = 1;
  r[0].median_s = r[0].mean_s = 1.0;
  strcpy(r[1].policy, "spn");
  r[1].threads = 2;
  r[1].cores = 1;
  r[1].extra = 1;
  r[1].median_s = r[1].mean_s = 0.625;
  strcpy(r[2].policy, "spn");
  r[2].threads = r[2].cores = 1;
  r[2].median_s = r[2].mean_s = 1.0;
  htb_derive(r, 3);
  CU_ASSERT_DOUBLE_EQUAL(r[0].power_w, 110.98, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r[0].spn, 1000 / 110.98, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r[1].speedup, 1.6, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL(r[1].power_w, 76.11 + 25.19 + 9.68 + 2.61, 1e-9);
  CU_ASSERT_DOUBLE_EQUAL(r[1].spn, 1600 / 113.59, 1e-9);
  CU_ASSERT_STRING_EQUAL(r[1].energy_source, "modelled");
  CU_ASSERT_DOUBLE_EQUAL(r[1].energy_j, 113.59 * 0.625, 1e-9);
  CU_ASSERT(r[1].valid);
  text = tables_text(r, 3, 2);
  CU_ASSERT(strstr(text, "Table 6 -- sieve: median time, power (W, modelled)") != NULL);
  CU_ASSERT(strstr(text, "+60.0%") != NULL);
  CU_ASSERT(strstr(text, "sieve      sigma = 0.600 (ht/noht - 1 on 1 cores)") != NULL);
  CU_ASSERT(strstr(text, "not applicable") == NULL);
  free(text);
  text = tables_text(r, 3, 1); /* no SMT */
  CU_ASSERT(strstr(text, "ht: not applicable on this machine (no SMT") != NULL);
  free(text);
}

/* The texts of the interval tables on crafted results: the EPCC table's
 * interval is the mean's and may be negative; a time's and a paired
 * /balanced's are clamped at 0; none is unbound (no places) even with
 * threads beyond N; no "nan"; the busy-machine warning counts a low
 * cpu_util, but not a team split kernel's (its threads wait for others). */
static void test_tables_intervals(void)
{
  struct htb_result r[2];
  char *text;
  unsigned i;
  for (i = 0; i < 2; i++) {
    htb_result_init(&r[i]);
    strcpy(r[i].status, "ok");
    strcpy(r[i].policy, "none");
    r[i].threads = 3;
    r[i].oversub = 1;
    r[i].verified = r[i].binding_ok = r[i].valid = 1;
  }
  strcpy(r[0].kernel, "barrier");
  r[0].median_s = r[0].mean_s = -1e-6;
  r[0].ci95_lo_s = -3e-6;
  r[0].ci95_hi_s = 1e-6;
  strcpy(r[1].kernel, "split-static");
  r[1].median_s = r[1].mean_s = r[1].min_s = 1e-3;
  r[1].ci95_lo_s = -0.5e-3;
  r[1].ci95_hi_s = 2.5e-3;
  r[1].capacity = 2;
  r[1].vs_balanced = 1.2; /* paired: its CI, clamped at 0 like a time's */
  r[1].vs_balanced_lo = -0.1;
  r[1].vs_balanced_hi = 2.5;
  r[1].cpu_util = 0.5; /* a split kernel's waiting threads: no warning */
  text = tables_text(r, 2, 1);
  CU_ASSERT(strstr(text, "   1.200x [0.000,2.500]") != NULL);
  CU_ASSERT(strstr(text, "1.000x = the balanced limit") != NULL);
  CU_ASSERT(strstr(text, "warning:") == NULL);
  free(text);
  r[0].cpu_util = 0.5; /* any other kernel: the machine was busy */
  text = tables_text(r, 2, 1);
  CU_ASSERT(strstr(text, "warning: 1 of 2 runs got less than 80% of their threads' CPU time") != NULL);
  CU_ASSERT(strstr(text, "per repetition; 95% CI of the mean)\n") != NULL);
  CU_ASSERT(strstr(text, "[-3.00, 1.00]") != NULL); /* an overhead: not clamped */
  CU_ASSERT(strstr(text, "[    0.00,    2.50]") != NULL); /* a time: clamped at 0 */
  CU_ASSERT(strstr(text, "none N=3 unbound (no places); bindings") != NULL);
  CU_ASSERT(strstr(text, "beyond the places") == NULL);
  CU_ASSERT(strstr(text, "nan") == NULL);
  free(text);
}

/* ------------------------------------------------------------ command */

static char *tmpdir(void)
{
  char *d = strdup("/tmp/htbench-test-XXXXXX");
  CU_ASSERT_FATAL(d && mkdtemp(d));
  return d;
}

static void rmtree(const char *dir)
{
  char cmd[512];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  CU_ASSERT(system(cmd) == 0);
}

static void expect_usage_error(char *const argv[], const char *needle)
{
  struct run_result r;
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  CU_ASSERT(strncmp(r.err, "htbench: ", 9) == 0);
  if (!strstr(r.err, needle))
    fprintf(stderr, "\nstderr '%s' lacks '%s'\n", r.err, needle);
  CU_ASSERT(strstr(r.err, needle) != NULL);
  run_free(&r);
}

static void test_bad_options(void)
{
#define BAD(needle, ...)                                                  \
  do {                                                                    \
    char *argv_[] = {HTBENCH_BIN, __VA_ARGS__, NULL};                     \
    expect_usage_error(argv_, needle);                                    \
  } while (0)
  char *none[] = {HTBENCH_BIN, NULL};
  expect_usage_error(none, "--out DIR is required");
  BAD("unknown option '--bogus'", "--bogus");
  BAD("needs a value", "--out");
  BAD("--reps: '5'", "--reps", "5", "--out", "/tmp/x");
  BAD("--reps: 'ten'", "--reps", "ten", "--out", "/tmp/x");
  BAD("--corpus-mb: '-1'", "--corpus-mb", "-1", "--out", "/tmp/x");
  BAD("--sieve-limit: '2'", "--sieve-limit", "2", "--out", "/tmp/x");
  BAD("--target-ms", "--target-ms", "0", "--out", "/tmp/x");
  BAD("--threads: '0'", "--threads", "0", "--out", "/tmp/x");
  BAD("--threads: '4097'", "--threads", "4097", "--out", "/tmp/x");
  BAD("--threads: '2-1'", "--threads", "2-1", "--out", "/tmp/x");
  BAD("unknown kernel 'nope' (allowed: wordcount, sieve", "--kernels", "sieve,nope", "--out", "/tmp/x");
  BAD("unknown policy 'fast' (allowed: none, os, speedup, spn, spread", "--policies", "fast", "--out", "/tmp/x");
  /* an empty entry (",,", a leading or trailing ',') is an error, not skipped */
  BAD("--kernels: empty entry in the list (allowed: wordcount, sieve", "--kernels",
      "split-steal,,split-tail", "--out", "/tmp/x");
  BAD("--kernels: empty entry in the list (allowed:", "--kernels", ",sieve", "--out", "/tmp/x");
  BAD("--kernels: empty entry in the list (allowed:", "--kernels", "sieve,", "--out", "/tmp/x");
  BAD("--policies: empty entry in the list (allowed: none, os, speedup, spn, spread", "--policies",
      "spn,,os", "--out", "/tmp/x");
  BAD("--threads: empty entry in the list (allowed: thread counts or ranges within 1..",
      "--threads", "1,,1", "--out", "/tmp/x");
  BAD("--threads: empty entry in the list", "--threads", "1,", "--out", "/tmp/x");
  BAD("--input: cannot read '/nonexistent/file'", "--input", "/nonexistent/file", "--out", "/tmp/x");
  BAD("unexpected argument 'extra'", "--out", "/tmp/x", "extra");
  /* control characters of the user's text are shown as '?': one line */
  BAD("unknown kernel 'foo?bar?' (allowed:", "--kernels", "foo\nbar\t", "--out", "/tmp/x");
  BAD("--reps: 'te?n'", "--reps", "te\x1bn", "--out", "/tmp/x");
  BAD("cannot be combined", "--plot", "/tmp/x", "--out", "/tmp/y");
  BAD("--worker needs --kernel", "--worker", "--threads", "1", "--expect", "0");
  BAD("--expect '0,1'", "--worker", "--kernel", "sieve", "--threads", "1", "--expect", "0,1");
  BAD("--path: 'x' is not a path (allowed: env, incode, both)", "--path", "x", "--out", "/tmp/x");
  BAD("--path: 'Both' is not a path", "--path", "Both", "--out", "/tmp/x");
  BAD("needs a value", "--out", "/tmp/x", "--path");
  BAD("--split-n: '0'", "--split-n", "0", "--out", "/tmp/x");
  BAD("--split-chunk: 'x'", "--split-chunk", "x", "--out", "/tmp/x");
  BAD("--split-tail: '101' is not a whole number in 0..100", "--split-tail", "101", "--out", "/tmp/x");
  BAD("--split-pair: 'x' is not a whole number in 0..10000", "--split-pair", "x", "--out", "/tmp/x");
  BAD("--oversubscribe: '-1'", "--oversubscribe", "-1", "--out", "/tmp/x");
  BAD("--oversubscribe works on the env path only", "--oversubscribe", "1", "--path", "env",
      "--path", "both", "--out", "/tmp/x");
  BAD("--incode are for --worker", "--incode", "spn", "--out", "/tmp/x");
  /* htbench has no in-code API: its workers are the env path only */
  BAD("no in-code API linked in", "--worker", "--incode", "spn", "--kernel", "sieve", "--threads",
      "1", "--expect", "0");
#undef BAD
  {
    /* --list, --help, --version to a full stdout: exit 1, one line */
    const char *what[3] = {"--list", "--help", "--version"};
    unsigned i;
    for (i = 0; i < 3; i++) {
      char *argv[] = {"sh", "-c", "exec \"$0\" \"$1\" >/dev/full", HTBENCH_BIN, (char *)what[i],
                      NULL};
      struct run_result r;
      CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
      CU_ASSERT_EQUAL(r.status, 1);
      CU_ASSERT_STRING_EQUAL(r.err, "htbench: cannot write to standard output\n");
      run_free(&r);
    }
  }
  {
    /* An invalid model environment is an error, not a silent default. */
    static char sigma[] = "OMP_EXT_SIGMA=7";
    char *env[] = {sigma, NULL};
    char *argv[] = {HTBENCH_BIN, "--quick", "--out", "/tmp/x", NULL};
    struct run_result r;
    CU_ASSERT_FATAL(run_capture(argv, env, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "htbench: invalid OMP_EXT_SIGMA='7'"));
    CU_ASSERT_EQUAL(count_lines(r.err), 1);
    run_free(&r);
  }
  {
    /* hwloc's environment replacing this machine: a sweep acts on this
     * machine, so it is refused as htplaces exec/verify do (exit 2). */
    static char xml[] = "HWLOC_XMLFILE=" OMP_EXT_TEST_DIR
                        "/topologies/intel-xeon-x5550-nehalem-2s-4c-smt2-far8.xml";
    static char synth[] = "HWLOC_SYNTHETIC=pack:2 core:4 pu:2";
    static char unset_this[] = "HWLOC_THISSYSTEM=";
    char *envs[2][3] = {{xml, unset_this, NULL}, {synth, unset_this, NULL}};
    const char *names[2] = {"HWLOC_XMLFILE", "HWLOC_SYNTHETIC"};
    char *argv[] = {HTBENCH_BIN, "--quick", "--out", "/tmp/x", "--kernels", "barrier", NULL};
    char want[160];
    unsigned i;
    for (i = 0; i < 2; i++) {
      struct run_result r;
      snprintf(want, sizeof(want), "htbench: htbench acts on this machine (its workers run "
               "here), but %s is set (hwloc would describe another machine)", names[i]);
      CU_ASSERT_FATAL(run_capture(argv, envs[i], &r) == 0);
      CU_ASSERT_EQUAL(r.status, 2);
      CU_ASSERT_STRING_EQUAL(r.out, "");
      CU_ASSERT_EQUAL(count_lines(r.err), 1);
      CU_ASSERT(strncmp(r.err, want, strlen(want)) == 0);
      run_free(&r);
    }
  }
}

/* Split a CSV line (quotes aware) into cells; returns the count. */
static unsigned csv_split(char *line, char **cells, unsigned max)
{
  unsigned n = 0;
  char *s = line, *w;
  while (n < max) {
    int quoted = *s == '"';
    cells[n++] = w = s + quoted;
    if (quoted) {
      for (s++; *s && !(*s == '"' && s[1] != '"'); s++)
        *w++ = (*s == '"') ? *++s : *s;
      if (*s)
        s++;
    } else {
      while (*s && *s != ',')
        *w++ = *s++;
    }
    if (*s != ',') {
      *w = '\0';
      break;
    }
    *w = '\0';
    s++;
  }
  return n;
}

static int column(char **header, unsigned n, const char *name)
{
  unsigned i;
  for (i = 0; i < n; i++)
    if (!strcmp(header[i], name))
      return (int)i;
  return -1;
}

/* This process's allowed CPUs as a list ("0-1"), as the worker writes
 * a thread's mask. */
static void allowed_list(char *out, size_t len)
{
  cpu_set_t set;
  int cpu, end;
  size_t used = 0;
  out[0] = '\0';
  CU_ASSERT_FATAL(sched_getaffinity(0, sizeof(set), &set) == 0);
  for (cpu = 0; cpu < CPU_SETSIZE; cpu = end + 1) {
    end = cpu;
    if (!CPU_ISSET(cpu, &set))
      continue;
    while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, &set))
      end++;
    used += snprintf(out + used, len - used, end > cpu ? "%s%d-%d" : "%s%d", used ? "," : "",
                     cpu, end);
  }
}

/* Rows per path of the last check_results(). */
static unsigned env_rows, incode_rows;

/* Every row: status ok, verified, binding_ok, and thread t bound to
 * exactly the t-th place of OMP_PLACES (in-code path: the same places,
 * bound by omp_set_ht_policy_num_threads(); none and none@incode:
 * unbound, the allowed set, with no places; os: bound in OS order, and
 * never an os@incode row).  path is "env" or "incode", and an in-code row's series
 * is POLICY@incode with a live hook (ht_hooks: GOMP wrapper or OMPT).
 * Returns the number of rows. */
static unsigned check_results(const char *dir, unsigned only_pu)
{
  char path[512], *text, *line, *save = NULL, *hdr[64], *cell[64], err[256], allowed[256];
  size_t len;
  unsigned nh, rows = 0;
  int c_status, c_ver, c_bind, c_bindings, c_places, c_threads, c_median, c_policy, c_path,
      c_hooks;

  snprintf(path, sizeof(path), "%s/results.csv", dir);
  text = htb_read_file(path, &len, err, sizeof(err));
  CU_ASSERT_FATAL(text != NULL);
  text = realloc(text, len + 1);
  text[len] = '\0';
  line = strtok_r(text, "\n", &save);
  CU_ASSERT_FATAL(line != NULL);
  nh = csv_split(line, hdr, 64);
  c_status = column(hdr, nh, "status");
  c_ver = column(hdr, nh, "verified");
  c_bind = column(hdr, nh, "binding_ok");
  c_bindings = column(hdr, nh, "bindings");
  c_places = column(hdr, nh, "places");
  c_threads = column(hdr, nh, "threads");
  c_median = column(hdr, nh, "median_s");
  c_policy = column(hdr, nh, "policy");
  c_path = column(hdr, nh, "path");
  c_hooks = column(hdr, nh, "ht_hooks");
  CU_ASSERT_FATAL(c_status >= 0 && c_ver >= 0 && c_bind >= 0 && c_bindings >= 0 &&
                  c_places >= 0 && c_threads >= 0 && c_median >= 0 && c_policy >= 0 &&
                  c_path >= 0 && c_hooks >= 0);
  allowed_list(allowed, sizeof(allowed));
  if (only_pu != ~0u) /* the sweep ran under taskset -c ONLY_PU */
    snprintf(allowed, sizeof(allowed), "%u", only_pu);
  env_rows = incode_rows = 0;
  while ((line = strtok_r(NULL, "\n", &save))) {
    unsigned n = csv_split(line, cell, 64), t, nt;
    char *p, *b, *at;
    int incode, hooks;
    CU_ASSERT_EQUAL(n, nh);
    if (n != nh)
      continue;
    rows++;
    incode = !strcmp(cell[c_path], "incode");
    CU_ASSERT(incode || !strcmp(cell[c_path], "env"));
    env_rows += !incode;
    incode_rows += incode;
    at = strchr(cell[c_policy], '@');
    hooks = atoi(cell[c_hooks]);
    if (incode) {
      CU_ASSERT(at != NULL && !strcmp(at, "@incode"));
      /* libgomp: the GOMP wrappers; libomp: the __kmpc_fork_call wrapper (or OMPT) */
      CU_ASSERT((hooks & (omp_ext_hook_gomp | omp_ext_hook_ompt | omp_ext_hook_kmpc)) != 0);
    } else {
      CU_ASSERT(at == NULL);
      CU_ASSERT_EQUAL(hooks, 0);
    }
    CU_ASSERT_STRING_EQUAL(cell[c_status], "ok");
    CU_ASSERT_STRING_EQUAL(cell[c_ver], "1");
    CU_ASSERT_STRING_EQUAL(cell[c_bind], "1");
    p = NULL;
    strtod(cell[c_median], &p); /* a number, whatever its value */
    CU_ASSERT(cell[c_median][0] != '\0' && p && *p == '\0');
    nt = (unsigned)atoi(cell[c_threads]);
    /* places "{a},{b}" and bindings "0:a;1:b": thread t sat on place t */
    p = cell[c_places];
    b = cell[c_bindings];
    CU_ASSERT(strcmp(cell[c_policy], "os@incode") != 0); /* in code, os is none */
    if (!strcmp(cell[c_policy], "none") || !strcmp(cell[c_policy], "none@incode")) {
      /* unbound: "0:ALLOWED;1:ALLOWED", no places */
      char want[HTB_STR] = "";
      size_t used = 0;
      for (t = 0; t < nt; t++)
        used += snprintf(want + used, sizeof(want) - used, "%s%u:%s", t ? ";" : "", t, allowed);
      CU_ASSERT_STRING_EQUAL(b, want);
      CU_ASSERT_STRING_EQUAL(p, "");
      continue;
    }
    for (t = 0; t < nt; t++) {
      unsigned place, th, cpu;
      int used;
      CU_ASSERT_FATAL(sscanf(p, "{%u}%n", &place, &used) == 1);
      p += used + (p[used] == ',');
      CU_ASSERT_FATAL(sscanf(b, "%u:%u%n", &th, &cpu, &used) == 2);
      b += used;
      CU_ASSERT(*b == ';' || *b == '\0'); /* one CPU only */
      b += *b == ';';
      CU_ASSERT_EQUAL(th, t);
      CU_ASSERT_EQUAL(cpu, place);
      if (only_pu != ~0u)
        CU_ASSERT_EQUAL(cpu, only_pu);
    }
    CU_ASSERT(*p == '\0' && *b == '\0');
  }
  free(text);
  return rows;
}

static int file_has(const char *dir, const char *name, const char *needle)
{
  char path[512], err[256], *text;
  size_t len;
  int found;
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  text = htb_read_file(path, &len, err, sizeof(err));
  if (!text)
    return 0;
  text = realloc(text, len + 1);
  text[len] = '\0';
  found = needle == NULL || strstr(text, needle) != NULL;
  free(text);
  return found;
}

/* PUs this process may use (the CI may restrict them). */
static unsigned allowed_pus(void)
{
  cpu_set_t set;
  CU_ASSERT_FATAL(sched_getaffinity(0, sizeof(set), &set) == 0);
  return (unsigned)CPU_COUNT(&set);
}

static int have_gnuplot(void)
{
  return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static void test_quick_sweep(void)
{
  char *dir = tmpdir();
  char *argv[] = {HTBENCH_BIN, "--quick", "--out", dir, SMALL, NULL};
  struct run_result r;
  unsigned rows;
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  if (r.status != 0)
    fprintf(stderr, "\n%s", r.err);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT(strstr(r.out, "Table 6 -- wordcount") != NULL);
  CU_ASSERT(strstr(r.out, "EPCC parallel overhead") != NULL);
  CU_ASSERT(strstr(r.out, "noht (N threads, one per core) vs ht") != NULL);
  CU_ASSERT(strstr(r.out, "Invalid") == NULL);
  run_free(&r);
  rows = check_results(dir, ~0u);
  /* 18 kernels x (none + every policy) x N = 1..allowed PUs */
  CU_ASSERT_EQUAL(rows, 18u * (1 + OMP_EXT_NPOLICIES) * allowed_pus());
  { /* unpaired (no --split-pair): /balanced from split-serial's row, no CI */
    char path[512], err[256];
    struct htb_result *res = NULL;
    unsigned n = 0, i, seen = 0;
    snprintf(path, sizeof(path), "%s/results.csv", dir);
    CU_ASSERT_FATAL(htb_read_csv(path, &res, &n, err, sizeof(err)) == 0);
    for (i = 0; i < n; i++)
      if (!strcmp(res[i].kernel, "split-tail") && res[i].threads == 2 && res[i].places[0]) {
        seen++;
        CU_ASSERT(res[i].vs_balanced > 0);
        CU_ASSERT(isnan(res[i].vs_balanced_lo) && isnan(res[i].ref_mean_s));
      }
    CU_ASSERT(allowed_pus() < 2 || seen == OMP_EXT_NPOLICIES);
    free(res);
  }
  CU_ASSERT(file_has(dir, "tables.txt", "Capacity-weighted split (split-*)"));
  CU_ASSERT(file_has(dir, "results.json", "\"results\": ["));
  CU_ASSERT(file_has(dir, "results.json", "\"openmp_runtime\""));
  CU_ASSERT(file_has(dir, "results.json", "\"energy_source\": \"modelled\"") ||
            file_has(dir, "results.json", "\"energy_source\": \"rapl\""));
  CU_ASSERT(!file_has(dir, "results.json", "inf,") && !file_has(dir, "results.json", "nan"));
  CU_ASSERT(file_has(dir, "tables.txt", "Table 6 -- triad"));
  CU_ASSERT(file_has(dir, "results.csv", "(= serial reference digest)"));
  CU_ASSERT(!file_has(dir, "results.partial.csv", NULL)); /* replaced by results.csv */
  CU_ASSERT(!file_has(dir, ".corpus-0.3MB-seed42.txt", NULL)); /* removed */
  if (have_gnuplot()) {
    CU_ASSERT(file_has(dir, "plots/wordcount.png", "PNG"));
    CU_ASSERT(file_has(dir, "plots/wordcount.svg", "<svg"));
    CU_ASSERT(file_has(dir, "plots/parallel.svg", "<svg"));
  } else {
    OMP_EXT_SKIP("gnuplot not installed: the plots not checked");
  }
  rmtree(dir);
  free(dir);
}

static void test_plot_mode(void)
{
  char *dir = tmpdir();
  char *argv[] = {HTBENCH_BIN, "--quick", "--out", dir, "--kernels", "sieve,barrier", "--policies",
                  "spn,os", SMALL, NULL};
  char *plot[] = {HTBENCH_BIN, "--plot", dir, NULL};
  char *nopath[] = {"PATH=/nonexistent", NULL};
  char png[512];
  struct run_result r;

  /* without gnuplot: the sweep succeeds, says so, and writes no plots */
  CU_ASSERT_FATAL(run_capture(argv, nopath, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT(strstr(r.err, "htbench: gnuplot not found: plots skipped") != NULL);
  run_free(&r);
  CU_ASSERT_EQUAL(check_results(dir, ~0u), 2 * 2 * allowed_pus());
  snprintf(png, sizeof(png), "%s/plots/sieve.png", dir);
  CU_ASSERT(access(png, F_OK) != 0);
  CU_ASSERT_FATAL(run_capture(plot, nopath, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT(strstr(r.err, "htbench: gnuplot not found") != NULL);
  run_free(&r);
  /* then --plot where gnuplot is installed */
  if (have_gnuplot()) {
    CU_ASSERT_FATAL(run_capture(plot, NULL, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    run_free(&r);
    CU_ASSERT(file_has(dir, "plots/sieve.png", "PNG"));
    CU_ASSERT(file_has(dir, "plots/barrier.svg", "<svg"));
    CU_ASSERT(file_has(dir, "plots/sieve-spn.dat", "# threads"));
  } else {
    OMP_EXT_SKIP("gnuplot not installed: --plot with gnuplot not checked");
  }
  rmtree(dir);
  free(dir);
}

/* One thread count (one x) and equal y values (speed-up 1, SPN 0): the
 * plot script sets those ranges itself, so gnuplot, which would widen
 * each empty range with a "Warning: empty x range [1:1] ..." line, says
 * nothing. */
static void test_plot_one_thread_count(void)
{
  char *dir = tmpdir();
  char *argv[] = {HTBENCH_BIN, "--quick", "--out", dir, "--kernels", "sieve,barrier", "--policies",
                  "spn,os", "--threads", "1", SMALL, NULL};
  struct run_result r;
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 0);
  if (have_gnuplot()) {
    if (strstr(r.err, "Warning:"))
      fprintf(stderr, "\n%s", r.err);
    CU_ASSERT(strstr(r.err, "Warning:") == NULL);
    CU_ASSERT(strstr(r.err, "warning:") == NULL);
    CU_ASSERT(file_has(dir, "plots/sieve.png", "PNG"));
    CU_ASSERT(file_has(dir, "plots/barrier.svg", "<svg"));
    CU_ASSERT(file_has(dir, "plots/plots.gp", "set xrange [0.5:1.5]"));
  } else {
    OMP_EXT_SKIP("gnuplot not installed: its warnings not checked");
  }
  run_free(&r);
  rmtree(dir);
  free(dir);
}

/* --out a/b/c creates the missing parents, as the help says; a path
 * through a file is refused with the file named. */
static void test_out_parents(void)
{
  char *dir = tmpdir(), out[512], file[512];
  char *argv[] = {HTBENCH_BIN, "--quick", "--out", out, "--kernels", "parallel", "--policies",
                  "os", "--threads", "1", NULL};
  struct run_result r;
  FILE *f;
  snprintf(out, sizeof(out), "%s/a/b/c", dir);
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 0);
  run_free(&r);
  CU_ASSERT(file_has(dir, "a/b/c/results.csv", "kernel"));
  /* a/b/file/x: "file" is a file */
  snprintf(file, sizeof(file), "%s/a/b/file", dir);
  f = fopen(file, "w");
  CU_ASSERT_FATAL(f != NULL);
  fclose(f);
  snprintf(out, sizeof(out), "%s/a/b/file/x", dir);
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT(strstr(r.err, "htbench: cannot create") != NULL && strstr(r.err, "a/b/file") != NULL);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  run_free(&r);
  {
    /* tables to a full stdout: the files are written, the loss is said,
     * exit 1 */
    char *full[] = {"sh", "-c", "exec \"$0\" \"$@\" >/dev/full", argv[0], argv[1], argv[2],
                    out, argv[4], argv[5], argv[6], argv[7], argv[8], argv[9], NULL};
    snprintf(out, sizeof(out), "%s/full", dir);
    CU_ASSERT_FATAL(run_capture(full, NULL, &r) == 0);
    CU_ASSERT_EQUAL(r.status, 1);
    CU_ASSERT(strstr(r.err, "htbench: cannot write to standard output\n") != NULL);
    CU_ASSERT(strstr(r.err, "invalid") == NULL);
    run_free(&r);
    CU_ASSERT(file_has(dir, "full/results.csv", "parallel,os,"));
    CU_ASSERT(file_has(dir, "full/tables.txt", "EPCC parallel overhead"));
  }
  rmtree(dir);
  free(dir);
}

/* Under taskset -c 1 only PU 1 is allowed: N = 1 only, every thread on 1. */
static void test_taskset(void)
{
  char *dir = tmpdir();
  char *argv[] = {"taskset", "-c", "1", HTBENCH_BIN, "--quick", "--out", dir, "--kernels",
                  "wordcount,triad,reduction", "--no-plot", SMALL, NULL};
  struct run_result r;
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
    OMP_EXT_SKIP("one online CPU: taskset -c 1 impossible");
    free(dir);
    return;
  }
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 0);
  run_free(&r);
  CU_ASSERT_EQUAL(check_results(dir, 1), 3 * (1 + OMP_EXT_NPOLICIES));
  rmtree(dir);
  free(dir);
}

/* OMP_PLACES and OMP_PROC_BIND in the caller's environment pin htbench's
 * own initial thread at load (libgomp: before main); the sweep must still
 * cover N = 1..allowed PUs, each thread on its place (check_results), as
 * without them, and say nothing about it. */
static void test_pinning_env(void)
{
  char *dir = tmpdir();
  char *argv[] = {HTBENCH_BIN, "--quick", "--out", dir, "--kernels", "barrier", "--policies",
                  "spn", "--no-plot", NULL};
  char *env[] = {"OMP_PLACES={1},{0}", "OMP_PROC_BIND=close", NULL};
  struct run_result r;
  cpu_set_t set;
  CU_ASSERT_FATAL(sched_getaffinity(0, sizeof(set), &set) == 0);
  if (!CPU_ISSET(0, &set) || !CPU_ISSET(1, &set)) {
    OMP_EXT_SKIP("needs PUs 0 and 1");
    free(dir);
    return;
  }
  CU_ASSERT_FATAL(run_capture(argv, env, &r) == 0);
  if (r.status != 0)
    fprintf(stderr, "\n%s", r.err);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT(strstr(r.err, "OMP_PLACES") == NULL);
  CU_ASSERT(strstr(r.err, "N=2 ") != NULL);
  run_free(&r);
  CU_ASSERT_EQUAL(check_results(dir, ~0u), allowed_pus());
  rmtree(dir);
  free(dir);
}

/* A thread that is not on its intended place makes the run invalid:
 * the worker told to expect PU 1 while OMP_PLACES puts thread 0 on PU 0. */
static void test_binding_mismatch(void)
{
  char *argv[] = {HTBENCH_BIN, "--worker", "--kernel", "sieve", "--threads", "1", "--expect", "1",
                  "--sieve-limit", "100000", "--target-ms", "1", NULL};
  char *env[] = {"OMP_PLACES={0}", "OMP_PROC_BIND=close", "OMP_NUM_THREADS=1", NULL};
  struct run_result r;
  cpu_set_t set;
  CU_ASSERT_FATAL(sched_getaffinity(0, sizeof(set), &set) == 0);
  if (!CPU_ISSET(0, &set) || !CPU_ISSET(1, &set)) {
    OMP_EXT_SKIP("needs PUs 0 and 1");
    return;
  }
  CU_ASSERT_FATAL(run_capture(argv, env, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 0); /* the result itself is right */
  CU_ASSERT(strstr(r.out, "\tbinding_ok=0\t") != NULL);
  CU_ASSERT(strstr(r.out, "\tstatus=binding differs\t") != NULL);
  CU_ASSERT(strstr(r.out, "\tbindings=0:0\t") != NULL);
  CU_ASSERT(strstr(r.out, "\tverified=1\t") != NULL);
  CU_ASSERT(strstr(r.err, "htbench: sieve N=1: invalid run: thread 0 bound to {0}, intended {1}") != NULL);
  run_free(&r);
}

/* The lines of the "env vs in-code" table in text: kernel, policy, N,
 * both medians and a ratio each (its value is a timing: an overhead median
 * may be <= 0 on a loaded machine, so no sign is asserted).  Returns how
 * many. */
static unsigned path_table_rows(const char *text)
{
  const char *p = strstr(text, "env vs in-code (");
  unsigned rows = 0;
  if (!p || !(p = strstr(p, "\nkernel ")) || !(p = strchr(p + 1, '\n')))
    return 0;
  for (p++; *p && *p != '\n'; p = strchr(p, '\n') + 1) {
    char kernel[32], policy[32], env[32], inc[32];
    unsigned n;
    double ratio;
    CU_ASSERT(sscanf(p, "%31s %31s %u %31s %31s %lf", kernel, policy, &n, env, inc, &ratio) == 6);
    CU_ASSERT(htb_kernel_by_name(kernel) != NULL);
    CU_ASSERT(strchr(policy, '@') == NULL);
    CU_ASSERT_EQUAL(n, allowed_pus()); /* the largest N */
    (void)ratio;
    rows++;
    if (!strchr(p, '\n'))
      break;
  }
  return rows;
}

/* --path both: every configuration on both paths, all bound as intended
 * (the in-code rows by omp_set_ht_policy_num_threads() in htbench-incode),
 * and the comparison table.  os is bound in OS order on the env path and
 * has no in-code series (omp_set_ht_policy(os) unbinds: that is
 * none@incode); none is unbound on both. */
static void test_path_both(void)
{
  char *dir = tmpdir();
  char *argv[] = {HTBENCH_BIN, "--quick", "--path", "both", "--out", dir, "--kernels",
                  "sieve,barrier", "--policies", "spn,os,none", "--no-plot", SMALL, NULL};
  char path[512], err[256], *tables;
  struct run_result r;
  size_t len;
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  if (r.status != 0)
    fprintf(stderr, "\n%s", r.err);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT(strstr(r.out, "Invalid") == NULL);
  CU_ASSERT(strstr(r.out, "| spn@incode ") != NULL); /* its own series in Table 6 */
  CU_ASSERT(strstr(r.out, "| none@incode ") != NULL);
  CU_ASSERT(strstr(r.out, "os@incode") == NULL);
  CU_ASSERT_EQUAL(path_table_rows(r.out), 2u * 2); /* spn, none */
  run_free(&r);
  CU_ASSERT_EQUAL(check_results(dir, ~0u), 2u * (3 + 2) * allowed_pus());
  CU_ASSERT_EQUAL(env_rows, 2u * 3 * allowed_pus());
  CU_ASSERT_EQUAL(incode_rows, 2u * 2 * allowed_pus());
  snprintf(path, sizeof(path), "%s/tables.txt", dir);
  tables = htb_read_file(path, &len, err, sizeof(err));
  CU_ASSERT_FATAL(tables != NULL);
  tables = realloc(tables, len + 1);
  tables[len] = '\0';
  CU_ASSERT_EQUAL(path_table_rows(tables), 2u * 2);
  free(tables);
  CU_ASSERT(file_has(dir, "results.json", "\"path\": \"incode\""));
  CU_ASSERT(file_has(dir, "results.json", "\"policy\": \"spn@incode\""));
  CU_ASSERT(file_has(dir, "results.json", "\"path\": \"both\""));
  rmtree(dir);
  free(dir);
}

/* os on the in-code path only: nothing to run, said (exit 2). */
static void test_path_incode_os(void)
{
  char *argv[] = {HTBENCH_BIN, "--quick", "--path", "incode", "--out", "/tmp/x", "--kernels",
                  "triad", "--policies", "os", "--no-plot", NULL};
  expect_usage_error(argv, "--path incode: os has no in-code series (omp_set_ht_policy(os) "
                           "unbinds: that is none@incode)");
}

/* --path incode alone: in-code rows only, no comparison (no env row). */
static void test_path_incode(void)
{
  char *dir = tmpdir();
  char *argv[] = {HTBENCH_BIN, "--quick", "--path", "incode", "--out", dir, "--kernels", "triad",
                  "--policies", "spread", "--no-plot", SMALL, NULL};
  struct run_result r;
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT(strstr(r.out, "spread@incode") != NULL);
  CU_ASSERT(strstr(r.out, "env vs in-code") == NULL);
  run_free(&r);
  CU_ASSERT_EQUAL(check_results(dir, ~0u), allowed_pus());
  CU_ASSERT_EQUAL(incode_rows, allowed_pus());
  rmtree(dir);
  free(dir);
}

/* htbench without htbench-incode beside it: --path incode|both refused
 * up front; --path env still runs.  htbench-incode alone is no sweep. */
static void test_path_missing_incode(void)
{
  char *dir = tmpdir(), bin[512], cmd[1100];
  char *both[] = {bin, "--quick", "--path", "both", "--out", dir, NULL};
  char *alone[] = {HTBENCH_INCODE_BIN, "--quick", "--out", dir, NULL};
  snprintf(bin, sizeof(bin), "%s/htbench", dir);
  snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", HTBENCH_BIN, bin);
  CU_ASSERT_FATAL(system(cmd) == 0);
  expect_usage_error(both, "--path: ");
  expect_usage_error(both, "/htbench-incode not found");
  expect_usage_error(alone, "htbench-incode is htbench's in-code worker");
  rmtree(dir);
  free(dir);
}

/* The issue-15 case: 3 threads on 2 places (spn N=2 --oversubscribe 1 on
 * 2 single-PU cores), under the real runtime: every thread on one of the
 * places, one place with two threads, the weights those of the bindings
 * (0.5 on the shared PU, 1 alone) whichever threads the runtime put
 * together, capacity 2, the split table with the balanced limit, each
 * kernel's /balanced from its own paired serial loops (--split-pair). */
static void test_oversubscribe(void)
{
  char *dir = tmpdir(), path[512], err[256];
  char *argv[] = {HTBENCH_BIN, "--quick", "--out", dir, "--kernels",
                  "split-static,split-weights,split-tail,split-steal,split-adaptive,split-serial",
                  "--policies",
                  "spn", "--threads", "2", "--oversubscribe", "1", "--split-pair", "1", "--no-plot",
                  SMALL, NULL};
  struct htb_result *res = NULL;
  struct run_result r;
  unsigned n = 0, i, t;
  if (allowed_pus() < 2) {
    OMP_EXT_SKIP("one allowed PU: no split pair");
    free(dir);
    return;
  }
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  if (r.status != 0)
    fprintf(stderr, "\n%s", r.err);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT(strstr(r.out, "Capacity-weighted split (split-*)") != NULL);
  CU_ASSERT(strstr(r.out, "balanced limit") != NULL);
  CU_ASSERT(strstr(r.out, "spn N=3 (1 thread beyond the places) on {") != NULL);
  CU_ASSERT(strstr(r.out, "\n  split-tail ") != NULL);
  CU_ASSERT(strstr(r.out, "\n  split-steal ") != NULL);
  CU_ASSERT(strstr(r.out, "median per region [95% CI of the mean\nin ms, clamped at 0]") != NULL);
  CU_ASSERT(strstr(r.out, "nan") == NULL); /* an SPN that cannot be computed is "-" */
  run_free(&r);
  snprintf(path, sizeof(path), "%s/results.csv", dir);
  CU_ASSERT_FATAL(htb_read_csv(path, &res, &n, err, sizeof(err)) == 0);
  CU_ASSERT_EQUAL(n, 6);
  for (i = 0; i < n; i++) {
    unsigned cpu[3] = {9, 9, 9}, on0 = 0;
    const char *b = res[i].bindings, *w = strstr(res[i].check, "weights ");
    double wt[3] = {0, 0, 0};
    CU_ASSERT_STRING_EQUAL(res[i].status, "ok");
    CU_ASSERT_EQUAL(res[i].threads, 3);
    CU_ASSERT_EQUAL(res[i].oversub, 1);
    CU_ASSERT_DOUBLE_EQUAL(res[i].capacity, 2, 1e-9);
    CU_ASSERT_FATAL(sscanf(b, "0:%u;1:%u;2:%u", &cpu[0], &cpu[1], &cpu[2]) == 3);
    CU_ASSERT_FATAL(w && sscanf(w, "weights %lf,%lf,%lf", &wt[0], &wt[1], &wt[2]) == 3);
    for (t = 0; t < 3; t++)
      on0 += cpu[t] == cpu[0];
    for (t = 0; t < 3; t++) { /* 0.5 where two threads share the PU, 1 alone */
      unsigned same = 0, u;
      for (u = 0; u < 3; u++)
        same += cpu[u] == cpu[t];
      CU_ASSERT_DOUBLE_EQUAL(wt[t], same == 2 ? 0.5 : 1.0, 1e-9);
      CU_ASSERT(same == 1 || same == 2);
    }
    CU_ASSERT(on0 == 1 || on0 == 2);
    if (strcmp(res[i].kernel, "split-serial")) { /* paired: a ratio per repetition */
      CU_ASSERT(res[i].vs_balanced > 0);
      CU_ASSERT(res[i].vs_balanced_lo <= res[i].vs_balanced_hi);
      CU_ASSERT(res[i].ref_mean_s > 0); /* the paired serial loop's mean */
    } else {
      CU_ASSERT(isnan(res[i].vs_balanced) && isnan(res[i].vs_balanced_lo));
    }
    if (!strcmp(res[i].kernel, "split-adaptive")) { /* adapted weights, still capacity 2 */
      const char *a = strstr(res[i].check, "; adapted ");
      double aw[3] = {0, 0, 0};
      CU_ASSERT_FATAL(a && sscanf(a, "; adapted %lf,%lf,%lf", &aw[0], &aw[1], &aw[2]) == 3);
      CU_ASSERT_DOUBLE_EQUAL(aw[0] + aw[1] + aw[2], 2, 0.02);
      CU_ASSERT(aw[0] > 0 && aw[1] > 0 && aw[2] > 0);
    }
  }
  free(res);
  rmtree(dir);
  free(dir);
}

/* A directory is not an input file. */
static void test_input_directory(void)
{
  char *argv[] = {HTBENCH_BIN, "--out", "/tmp/x", "--input", "/", NULL};
  expect_usage_error(argv, "--input: '/' is not a regular file");
}

/* Every kernel of --list has its row in benchmarks/README.md's kernel
 * table and its name in htbench(1) ("split\-tail" there). */
static void test_kernels_documented(void)
{
  const char *doc[2] = {OMP_EXT_TEST_DIR "/../benchmarks/README.md",
                        OMP_EXT_TEST_DIR "/../man/man1/htbench.1"};
  unsigned d, i;
  for (d = 0; d < 2; d++) {
    char err[256], *text, *table, *end, want[64];
    size_t len, j, k;
    text = htb_read_file(doc[d], &len, err, sizeof(err));
    CU_ASSERT_FATAL(text != NULL);
    text = realloc(text, len + 1);
    CU_ASSERT_FATAL(text != NULL);
    text[len] = '\0';
    /* README: the table under "### Kernels"; the page: its KERNELS part */
    table = strstr(text, d == 0 ? "### Kernels (" : ".SH KERNELS");
    CU_ASSERT_FATAL(table != NULL);
    if (d == 0)
      table = strstr(table, "|---|");
    CU_ASSERT_FATAL(table != NULL);
    if ((end = strstr(table, d == 0 ? "\n\n" : "\n.SH ")) != NULL)
      *end = '\0';
    for (i = 0; htb_kernels[i]; i++) {
      const char *name = htb_kernels[i]->name;
      if (d == 0) {
        snprintf(want, sizeof(want), "| `%s`", name);
        if (!strstr(table, want))
          snprintf(want, sizeof(want), " `%s` ", name);
        if (!strstr(table, want))
          snprintf(want, sizeof(want), " `%s` |", name);
      } else {
        for (j = k = 0; name[j] && k + 2 < sizeof(want); j++) {
          if (name[j] == '-')
            want[k++] = '\\';
          want[k++] = name[j];
        }
        want[k] = '\0';
      }
      if (!strstr(table, want))
        fprintf(stderr, "\n%s: kernel %s not documented\n", doc[d], name);
      CU_ASSERT(strstr(table, want) != NULL);
    }
    free(text);
  }
}

static CU_TestInfo unit_tests[] = {
  {"corpus: same seed same bytes, exact size", test_corpus_deterministic},
  {"corpus: 50,000 distinct pseudo-words", test_corpus_vocabulary},
  {"corpus: Zipf s=1 frequencies", test_corpus_zipf},
  {"word count: known text, 1..7 threads", test_wordcount_known},
  {"word count: chunks cut inside words", test_wordcount_boundaries},
  {"sieve: pi(x) for small and 10^7 limits", test_sieve_limits},
  {"modelled power: C6100 preset", test_modelled_power},
  {"results.csv round trip with quotes", test_csv_roundtrip},
  {"SPN, noht/ht speed-up and sigma tables", test_tables_smt},
  {"interval tables: CI of the mean, clamped times, none unbound", test_tables_intervals},
  {"every kernel in benchmarks/README.md and htbench(1)", test_kernels_documented},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo kernel_tests[] = {
  {"sieve verifies, fails loudly unrun", test_kernel_sieve},
  {"fadd/fmul/fdiv verify, fail loudly unrun", test_kernel_flops},
  {"triad verifies, fails loudly unrun", test_kernel_triad},
  {"word count verifies, fails loudly unrun", test_kernel_wordcount},
  {"word count against the serial digest", test_wordcount_digest},
  {"EPCC overhead kernels count what they did", test_kernel_overheads},
  {"split kernels: every iteration once, weights taken", test_kernel_split},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo command_tests[] = {
  {"bad options: one line, exit 2, nothing on stdout", test_bad_options},
  {"--quick smoke: files, verification, bindings", test_quick_sweep},
  {"--out a/b/c creates missing parents", test_out_parents},
  {"no gnuplot: sweep goes on; --plot remakes plots", test_plot_mode},
  {"one thread count: gnuplot prints no warning", test_plot_one_thread_count},
  {"taskset -c 1: only PU 1 used", test_taskset},
  {"thread off its place: run invalid", test_binding_mismatch},
  {"OMP_PLACES/OMP_PROC_BIND set by the caller: all N swept", test_pinning_env},
  {"--input directory refused", test_input_directory},
  {"--path both: env and in-code rows, comparison table", test_path_both},
  {"--path incode: in-code rows only", test_path_incode},
  {"--path incode --policies os: exit 2", test_path_incode_os},
  {"--path without htbench-incode: exit 2", test_path_missing_incode},
  {"--oversubscribe 1: 3 threads on 2 places, weights of the bindings", test_oversubscribe},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"htbench units", NULL, NULL, NULL, NULL, unit_tests},
  {"htbench kernels", NULL, NULL, NULL, NULL, kernel_tests},
  {"htbench command", NULL, NULL, NULL, NULL, command_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
