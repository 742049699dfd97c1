/*
 * omp_ext_plan_check(): a plan of per-region configurations checked whole,
 * in the one place the library, htplaces exec --plan and doctor share
 * (issue 30).  On the paper's C6100 (synthetic, 16 PUs, every PU allowed):
 *  - valid plans (version 1, version 2 with every kind of line, a learnt
 *    state's fields, the text itself instead of a path) pass;
 *  - each wrong field is refused with one line naming the file, the line,
 *    the field and its value: header, OFFSET, THREADS, PLACES (syntax,
 *    outside the allowed PUs, an abstract name), LABEL, a duplicate region
 *    or default, a setting given twice, another machine, a build ID, a
 *    state's unknown key and wrong sample count, a MODULE with a folder, a
 *    line too long, a NUL byte;
 *  - a FIFO (no writer: it would block a reader), a folder, /dev/zero, a
 *    file over 1 MiB, a missing one: refused at once, nothing read.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"

static omp_ext_topo_t *topo;
static char dir[] = "/tmp/omp_ext_test_plan_XXXXXX";

static int setup(void)
{
  return omp_ext_topo_load(&topo, C6100, 0) != 0 || !mkdtemp(dir);
}

static int cleanup(void)
{
  char cmd[128];
  omp_ext_topo_destroy(topo);
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
  return system(cmd) != 0;
}

/* \p text written to a file of the test folder; its path (static). */
static const char *file_of(const char *text)
{
  static char path[256];
  FILE *f;
  snprintf(path, sizeof(path), "%s/plan", dir);
  if (!(f = fopen(path, "w")))
    return NULL;
  fputs(text, f);
  fclose(f);
  return path;
}

/* Check \p text as a file: 0, or the error and the message in msg. */
static int check_text(const char *text, char *msg, size_t len)
{
  const char *path = file_of(text);
  CU_ASSERT_PTR_NOT_NULL_FATAL(path);
  return omp_ext_plan_check(path, topo, msg, len);
}

static void test_valid(void)
{
  static const char *const good[] = {
    "omp_ext_plan 1\ndefault 2 {0},{8}\nregion app 0x10 1 {0}\n",
    "# a comment first\n\nomp_ext_plan 2\nmachine 16 8 2 2 0-15\nbuild app gnu:0123abcd\n"
    "build lib%20x.so stat:1234:1700000000\nteam free\nwait passive\nlearnt auto:threads\n"
    "run 16 2.5\nrun 1 9\nrun 0.25\n"
    "default 16 - none:16\nregion app 0x10 2 {0},{8} spn:2\nregion app 0x10 1 {0} spn:1\n"
    "region lib%20x.so 0xfffffffffff 0 - none:4\n",
    /* a learnt state's line */
    "omp_ext_plan 2\nregion app 0x20 16 {0},{1} speedup:16 team=keep:16 phase=settled n=3 "
    "step=2 block=1 nsamp=1 ref=0.5 drift=0 reexplores=0 c=speedup:16/0.5 c=none:16/0.7s\n",
    "omp_ext_plan 2\nregion app 0x20 2 {0},{1} speedup:2 team=free:4 phase=explore n=9 step=4 "
    "block=3 nsamp=6 drift=1 reexplores=2 c=speedup:2/1,2,3,-,-,- c=spn:1/x,x,x,x,x,x "
    "drop=spn:1\n",
    /* a kept team above the PUs (OMP_NUM_THREADS=32) in a learnt state */
    "omp_ext_plan 2\nregion app 0x20 32 {0},{1} speedup:32 team=keep:32 phase=explore n=1 "
    "step=1 block=1 nsamp=1 c=speedup:32/0.1 c=none:32/-\n",
  };
  char msg[512];
  unsigned i;
  for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
    CU_ASSERT_EQUAL(check_text(good[i], msg, sizeof(msg)), 0);
    CU_ASSERT_STRING_EQUAL(msg, "");
    if (msg[0])
      fprintf(stderr, "\n  plan %u: %s", i, msg);
  }
  /* the text itself, as htplaces exec --plan passes it */
  CU_ASSERT_EQUAL(omp_ext_plan_check("omp_ext_plan 2\ndefault 1 {3} spn:1", topo, msg,
                                     sizeof(msg)), 0);
  CU_ASSERT_EQUAL(omp_ext_plan_check("", topo, msg, sizeof(msg)), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_plan_check(NULL, topo, NULL, 0), omp_ext_err_invalid);
}

/* Each wrong field: omp_ext_err_parse, one line "'PATH' line N: ...". */
static void test_fields(void)
{
  static const struct {
    const char *text, *want;
  } bad[] = {
    {"", "': empty (the first line must be 'omp_ext_plan 2')"},
    {"omp_ext_plan 3\n", "' line 1: the first line must be 'omp_ext_plan 2' (or 1)"},
    {"default 1 {0}\n", "' line 1: the first line must be"},
    {"omp_ext_plan 1\nregion x 12 1 {0}\n",
     "' line 2: OFFSET '12': hexadecimal such as 0x1a2c is expected"},
    {"omp_ext_plan 2\nregion x 0x10 17 {0}\n",
     "' line 2: THREADS '17': more than the 16 allowed PUs; 0 (the program's team) or 1..16"},
    {"omp_ext_plan 2\nregion x 0x10 20000 {0}\n", "' line 2: THREADS '20000': more than"},
    {"omp_ext_plan 2\nregion x 0x10 1x {0}\n", "' line 2: THREADS '1x': a whole number 0..65536"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0\n", "' line 2: PLACES '{0': "},
    {"omp_ext_plan 2\nregion x 0x10 2 {0},{99}\n",
     "' line 2: PLACES '{0},{99}': place 2 is not within the allowed PUs (0-15)"},
    {"omp_ext_plan 2\nregion x 0x10 1 cores\n", "' line 2: PLACES 'cores': "},
    {"omp_ext_plan 2\nregion x 0x10 1 {0}\nregion x 0x10 1 {1}\n",
     "' line 3: region 'x' 0x10 with THREADS 1 given twice (the first: line 2)"},
    {"omp_ext_plan 2\ndefault 1 {0}\ndefault 2 {0},{1}\n",
     "' line 3: a second 'default' line (the first: line 2)"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} bogus:1\n", "' line 2: LABEL 'bogus:1': POLICY:N"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} auto:1\n", "' line 2: LABEL 'auto:1': POLICY:N"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:2\n", "' line 2: LABEL 'spn:2': N is not THREADS"},
    {"omp_ext_plan 2\nteam maybe\n", "' line 2: team 'maybe': keep or free is expected"},
    {"omp_ext_plan 2\nwait busy\n", "' line 2: wait 'busy': passive or active is expected"},
    {"omp_ext_plan 2\nteam keep\nteam free\n", "' line 3: a second 'team' line"},
    {"omp_ext_plan 2\nlearnt auto:fast\n", "' line 2: learnt 'auto:fast': auto, auto:time"},
    {"omp_ext_plan 2\nrun 2 1.0\nrun 2 0.5\n", "' line 3: a second 'run' line for its team"},
    {"omp_ext_plan 2\nrun 1.0\nrun 0.5\n", "' line 3: a second 'run' line for any team"},
    {"omp_ext_plan 2\nrun x 1.0\n", "' line 2: run TEAM 'x': a whole number 1..65536"},
    {"omp_ext_plan 2\nrun 2 0\n", "' line 2: run '0': seconds > 0 are expected"},
    {"omp_ext_plan 2\nrun 2 1 3\n", "' line 2: expected 'run [TEAM] SECONDS'"},
    {"omp_ext_plan 2\nrun 1 1\nrun 2 1\nrun 3 1\nrun 4 1\nrun 5 1\nrun 6 1\nrun 7 1\nrun 8 1\n"
     "run 9 1\n", "' line 10: more than 8 'run' lines"},
    {"omp_ext_plan 2\nmachine 4 2 1 2 0-3\n",
     "' line 2: made on another machine (4 PUs, 2 cores, 1 packages, SMT 2, allowed '0-3'; "
     "here 16, 8, 2, 2, 0-15): make it here"},
    {"omp_ext_plan 2\nbuild app zz\n", "' line 2: ID 'zz': gnu:HEX or stat:SIZE:MTIME"},
    {"omp_ext_plan 2\nbuild app gnu:00\nbuild app gnu:11\n", "' line 3: build 'app' given twice"},
    {"omp_ext_plan 2\nregion a/b 0x10 1 {0}\n", "' line 2: MODULE 'a/b': a file name without"},
    {"omp_ext_plan 2\nregion a%2 0x10 1 {0}\n", "' line 2: MODULE 'a%2': a '%' not followed"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:1 foo=1\n", "' line 2: 'foo'=: unknown field"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:1 team=keep:1 phase=settled block=1 nsamp=2 "
     "c=spn:1/0.1\n", "' line 2: c='spn:1': 1 samples, not nsamp=2"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:1 team=keep:1 phase=settled block=1 nsamp=1 "
     "c=spn:1/abc\n", "' line 2: c='abc': a sample is '-', 'x' or seconds >= 0"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:1 team=keep:1 phase=settled block=1 nsamp=1 "
     "c=spn:1/-0.5\n", "' line 2: c='-0.5': a sample is '-', 'x' or seconds >= 0"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:1 team=keep:1 phase=explore step=3 block=1 "
     "nsamp=1 c=spn:1/0.1\n", "' line 2: step=3 is beyond the exploration (1 candidates x "
     "nsamp=1)"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:1 team=keep:1 phase=explore block=2 nsamp=3 "
     "c=spn:1/0.1,0.2,0.3\n", "' line 2: nsamp=3 is not a multiple of block=2"},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:1 team=keep:1 phase=explore runs=-1 block=1 "
     "nsamp=1 c=spn:1/0.1\n", "' line 2: runs="},
    {"omp_ext_plan 2\nregion x 0x10 1 {0} spn:1 team=keep:2 phase=settled block=1 nsamp=1 "
     "c=spn:1/0.1\n", "' line 2: THREADS 1 is not the kept team of team=keep:2"},
    {"omp_ext_plan 2\nnonsense 1\n", "' line 2: 'nonsense': unknown line"},
    {"omp_ext_plan 1\nteam free\n", "' line 2: 'team': unknown line; allowed: default, region"},
  };
  char msg[512];
  unsigned i;
  for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
    /* (a machine line of another machine is well formed: "unsupported") */
    CU_ASSERT_EQUAL(check_text(bad[i].text, msg, sizeof(msg)),
                    strstr(bad[i].want, "another machine") ? omp_ext_err_unsupported
                                                           : omp_ext_err_parse);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, bad[i].want));
    CU_ASSERT_PTR_NULL(strchr(msg, '\n')); /* one line */
    CU_ASSERT(strncmp(msg, "'", 1) == 0 && strstr(msg, "/plan'") != NULL); /* the file named */
    if (!strstr(msg, bad[i].want))
      fprintf(stderr, "\n  plan %u: got \"%s\",\n  want \"...%s...\"", i, msg, bad[i].want);
  }
}

/* A line too long, a NUL byte, a file over the limit; a FIFO, a folder, a
 * device and a missing path refused at once. */
static void test_files(void)
{
  char msg[512], path[300];
  struct timespec t0, t1;
  char *big = malloc((1 << 20) + 100);
  FILE *f;
  int fd;
  CU_ASSERT_PTR_NOT_NULL_FATAL(big);
  memset(big, '#', 70000);
  memcpy(big, "omp_ext_plan 2\n", 15);
  big[70000] = '\0';
  CU_ASSERT_EQUAL(check_text(big, msg, sizeof(msg)), omp_ext_err_parse);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "' line 2: longer than 65536 bytes"));
  memset(big, '\n', (1 << 20) + 99);
  memcpy(big, "omp_ext_plan 2\n", 15);
  big[(1 << 20) + 99] = '\0';
  CU_ASSERT_EQUAL(check_text(big, msg, sizeof(msg)), omp_ext_err_parse);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "bytes, more than a plan's limit of 1048576"));
  free(big);
  snprintf(path, sizeof(path), "%s/nul", dir);
  CU_ASSERT_FATAL((f = fopen(path, "w")) != NULL);
  fwrite("omp_ext_plan 2\n\0x\n", 1, 18, f);
  fclose(f);
  CU_ASSERT_EQUAL(omp_ext_plan_check(path, topo, msg, sizeof(msg)), omp_ext_err_parse);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "a NUL byte: not a text file"));
  snprintf(path, sizeof(path), "%s/fifo", dir);
  CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  CU_ASSERT_EQUAL(omp_ext_plan_check(path, topo, msg, sizeof(msg)), omp_ext_err_parse);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "/fifo': not a regular file (a FIFO); give a plan file"));
  CU_ASSERT((t1.tv_sec - t0.tv_sec) < 1); /* (no writer: a blocking open would wait forever) */
  /* a FIFO with a writer that never writes: still nothing read */
  fd = open(path, O_RDWR | O_NONBLOCK);
  CU_ASSERT(fd >= 0);
  CU_ASSERT_EQUAL(omp_ext_plan_check(path, topo, msg, sizeof(msg)), omp_ext_err_parse);
  if (fd >= 0)
    close(fd);
  CU_ASSERT_EQUAL(omp_ext_plan_check(dir, topo, msg, sizeof(msg)), omp_ext_err_parse);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "': not a regular file (a folder)"));
  CU_ASSERT_EQUAL(omp_ext_plan_check("/dev/zero", topo, msg, sizeof(msg)), omp_ext_err_parse);
  CU_ASSERT_STRING_EQUAL(msg, "'/dev/zero': not a regular file (a device); give a plan file");
  CU_ASSERT_EQUAL(omp_ext_plan_check("/nonexistent/plan", topo, msg, sizeof(msg)),
                  omp_ext_err_parse);
  CU_ASSERT_STRING_EQUAL(msg, "'/nonexistent/plan': cannot open it: No such file or directory");
  /* a value with control characters is shown escaped and shortened */
  CU_ASSERT_EQUAL(omp_ext_plan_check("/nonexistent/\033[31mred", topo, msg, sizeof(msg)),
                  omp_ext_err_parse);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "'/nonexistent/\\x1b[31mred': cannot open it"));
}

static CU_TestInfo plan_tests[] = {
  {"valid plans, by path and as text", test_valid},
  {"each wrong field refused with its file, line and value", test_fields},
  {"FIFO, folder, device, too large, too long, NUL: refused at once", test_files},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"omp_ext_plan_check (C6100: 16 PUs)", setup, cleanup, NULL, NULL, plan_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
