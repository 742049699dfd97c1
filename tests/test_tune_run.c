/*
 * htplaces tune: how it runs the program (tune_run.c and the run side of
 * tune.c).  Each run reads the same stdin (--stdin FILE, or /dev/null:
 * never tune's own); {N} and {PLACES} in the arguments; program-stdout.txt
 * labelled per run; the failure line is the program's last words; a failed
 * warm-up reads FAILED; SIGINT/SIGTERM to tune leave no process of the run
 * and no temporary folder (in $TMPDIR) behind, exit 128 + signal; an
 * ignored SIGHUP (nohup) stays ignored; a program reading the terminal (in
 * a pseudo-terminal) does not hang tune; --timeout and --stdin checked;
 * /proc/stat parsed and the load figures on crafted text and runs.  The
 * programs are sh scripts: nothing here depends on the machine's PUs
 * beyond one.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cunit_main.h"
#include "testutil.h"
#include "tune_int.h"

static char tmpdir[] = "/tmp/test-tune-run-XXXXXX";

/* -------------------------------------------------------------- helpers */

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void pause_s(double s)
{
  struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* DIR/NAME into path[len]. */
static const char *in_tmp(char *path, size_t len, const char *name)
{
  snprintf(path, len, "%s/%s", tmpdir, name);
  return path;
}

/* The contents of PATH (malloc'ed; "" when unreadable). */
static char *slurp(const char *path)
{
  char chunk[4096], *buf = calloc(1, 1), *more;
  size_t len = 0, got;
  FILE *f = fopen(path, "r");
  while (f && buf && (got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
    if (!(more = realloc(buf, len + got + 1)))
      break;
    buf = more;
    memcpy(buf + len, chunk, got);
    len += got;
    buf[len] = '\0';
  }
  if (f)
    fclose(f);
  return buf;
}

static unsigned count_occurrences(const char *hay, const char *needle)
{
  unsigned n = 0;
  while ((hay = strstr(hay, needle)) != NULL) {
    n++;
    hay += strlen(needle);
  }
  return n;
}

/* How tune is started: its arguments after "tune", environment additions,
 * stdin, SIGHUP ignored (as nohup does). */
struct start {
  char **args;
  char **env;           /* "NAME=VALUE", NULL-ended; may be NULL */
  const char *stdin_path; /* NULL: /dev/null */
  int ignore_hup;
};

/* Start htplaces tune in its own process group (the test's signals stay
 * the test's), stdout and stderr into tmpdir/out, tmpdir/err. */
static pid_t start_tune(const struct start *s)
{
  char *argv[40], out[600], err[600];
  unsigned k = 0;
  pid_t pid;
  argv[k++] = HTPLACES_BIN;
  argv[k++] = "tune";
  while (s->args[k - 2] && k < 39) {
    argv[k] = s->args[k - 2];
    k++;
  }
  argv[k] = NULL;
  in_tmp(out, sizeof(out), "out");
  in_tmp(err, sizeof(err), "err");
  if ((pid = fork()) != 0)
    return pid;
  setpgid(0, 0);
  if (s->ignore_hup)
    signal(SIGHUP, SIG_IGN);
  {
    int in = open(s->stdin_path ? s->stdin_path : "/dev/null", O_RDONLY),
        o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600),
        e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char **v;
    if (in < 0 || o < 0 || e < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
      _exit(125);
    for (v = s->env; v && *v; v++)
      putenv(*v);
    putenv("ASAN_OPTIONS=verify_asan_link_order=0");
  }
  execv(argv[0], argv);
  _exit(127);
}

/* Wait for pid at most limit_s (a guard against a hang, not a speed goal):
 * its exit status (128 + signal when killed), or -1 after killing its
 * group when it had not ended. */
static int wait_tune(pid_t pid, double limit_s)
{
  double end = now() + limit_s;
  int status;
  while (now() < end) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    pause_s(0.05);
  }
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

static int run_tune(const struct start *s, double limit_s)
{
  pid_t pid = start_tune(s);
  return pid < 0 ? -1 : wait_tune(pid, limit_s);
}

/* tune's stdout or stderr of the last run_tune. */
static char *tune_output(const char *name)
{
  char path[600];
  return slurp(in_tmp(path, sizeof(path), name));
}

/* Process pid exists and is not a zombie. */
static int alive(pid_t pid)
{
  char path[64], *stat, *paren;
  int live;
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  stat = slurp(path);
  paren = strrchr(stat, ')');
  live = paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
  free(stat);
  return live;
}

/* Folders named htplaces-tune-* in dir. */
static unsigned tune_folders(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  unsigned n = 0;
  while (d && (e = readdir(d)) != NULL)
    n += strncmp(e->d_name, "htplaces-tune-", 14) == 0;
  if (d)
    closedir(d);
  return n;
}

/* Wait (at most limit_s) until PATH has at least `lines` lines. */
static int wait_lines(const char *path, unsigned lines, double limit_s)
{
  double end = now() + limit_s;
  while (now() < end) {
    char *text = slurp(path);
    unsigned n = count_lines(text);
    free(text);
    if (n >= lines)
      return 0;
    pause_s(0.05);
  }
  return -1;
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

/* -------------------------------------------------------------- pure code */

static void test_substitute(void)
{
  struct tune_config c;
  char *s;
  memset(&c, 0, sizeof(c));
  c.threads = 12;
  c.places = "{0},{4}";
  s = tune_substitute("-ntomp", &c);
  CU_ASSERT_STRING_EQUAL(s, "-ntomp");
  free(s);
  s = tune_substitute("{N}", &c);
  CU_ASSERT_STRING_EQUAL(s, "12");
  free(s);
  s = tune_substitute("-n{N}x{N} p={PLACES}.", &c);
  CU_ASSERT_STRING_EQUAL(s, "-n12x12 p={0},{4}.");
  free(s);
  s = tune_substitute("{n} {N {PLACE} }", &c); /* only the exact words */
  CU_ASSERT_STRING_EQUAL(s, "{n} {N {PLACE} }");
  free(s);
  c.places = NULL; /* none: no place list */
  s = tune_substitute("[{PLACES}]", &c);
  CU_ASSERT_STRING_EQUAL(s, "[]");
  free(s);
}

static void test_outcome_words(void)
{
  struct tune_run r;
  char buf[96];
  memset(&r, 0, sizeof(r));
  r.status = 128 + SIGKILL;
  r.signal = SIGKILL;
  r.stopped = SIGTTIN;
  tune_run_outcome(&r, buf, sizeof(buf));
  CU_ASSERT_STRING_EQUAL(buf, "stopped reading the terminal (SIGTTIN), killed");
  r.stopped = SIGTTOU;
  tune_run_outcome(&r, buf, sizeof(buf));
  CU_ASSERT_STRING_EQUAL(buf, "stopped writing to the terminal (SIGTTOU), killed");
  r.stopped = 0;
  tune_run_outcome(&r, buf, sizeof(buf));
  CU_ASSERT_PTR_NOT_NULL(strstr(buf, "killed by signal 9"));
}

/* /proc/stat: busy = user + nice + system + irq + softirq + steal of the
 * allowed CPUs' lines (the "cpu " total is never used). */
static void test_busy_seconds(void)
{
  static const char stat[] =
      "cpu  9000 9000 9000 9000 9000 9000 9000 9000 0 0\n"
      "cpu0 100 10 50 1000 7 3 2 5 40 0\n"     /* 100+10+50+3+2+5 = 170 */
      "cpu1 200 0 100 2000 0 0 0 0 0 0\n"      /* 300 */
      "cpu3 1 1 1 1\n"                         /* old kernels: 4 fields: 3 */
      "intr 123 4 5\nctxt 99\nbtime 1\n";
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  CU_ASSERT_DOUBLE_EQUAL(tune_busy_seconds(stat, NULL, 100), (170 + 300 + 3) / 100.0, 1e-12);
  hwloc_bitmap_only(set, 1);
  CU_ASSERT_DOUBLE_EQUAL(tune_busy_seconds(stat, set, 100), 3.0, 1e-12);
  hwloc_bitmap_set(set, 0);
  CU_ASSERT_DOUBLE_EQUAL(tune_busy_seconds(stat, set, 50), (170 + 300) / 50.0, 1e-12);
  hwloc_bitmap_only(set, 2); /* no line of an allowed CPU */
  CU_ASSERT(isnan(tune_busy_seconds(stat, set, 100)));
  CU_ASSERT(isnan(tune_busy_seconds("garbage\n", NULL, 100)));
  hwloc_bitmap_free(set);
  /* this machine's: a number, growing (or NAN without /proc) */
  {
    double a = tune_busy_now(NULL), b = tune_busy_now(NULL);
    CU_ASSERT(isnan(a) || (a > 0 && b >= a));
  }
}

/* Load over crafted runs: other CPU seconds / wall seconds; the lowest
 * median utilisation among N >= 2. */
static void test_machine_load(void)
{
  struct tune_run r1[2], r2[3], r4[1];
  struct tune_config c[3];
  struct tune_load l;
  memset(c, 0, sizeof(c));
  memset(r1, 0, sizeof(r1)), memset(r2, 0, sizeof(r2)), memset(r4, 0, sizeof(r4));
  r1[0] = (struct tune_run){.wall_s = 1, .cpu_s = 1, .other_cpu_s = 0.5};
  r1[1] = (struct tune_run){.wall_s = 1, .cpu_s = 1, .other_cpu_s = 1.5};
  /* 2 threads: utilisation 0.9, 0.3, 0.2 -> median 0.3 */
  r2[0] = (struct tune_run){.wall_s = 1, .cpu_s = 1.8, .other_cpu_s = NAN};
  r2[1] = (struct tune_run){.wall_s = 2, .cpu_s = 1.2, .other_cpu_s = 1};
  r2[2] = (struct tune_run){.wall_s = 1, .cpu_s = 0.4, .other_cpu_s = 0};
  /* 4 threads, failed: not in the utilisation */
  r4[0] = (struct tune_run){.wall_s = 1, .cpu_s = 0, .status = 3, .other_cpu_s = 0};
  c[0].threads = 1, c[0].runs = r1, c[0].nruns = 2;
  c[1].threads = 2, c[1].runs = r2, c[1].nruns = 3;
  c[2].threads = 4, c[2].runs = r4, c[2].nruns = 1;
  tune_machine_load(c, 3, 0.25, 8, &l);
  CU_ASSERT_DOUBLE_EQUAL(l.before, 0.25, 1e-12);
  CU_ASSERT_EQUAL(l.ncpus, 8);
  /* (0.5 + 1.5 + 1 + 0 + 0) / (1 + 1 + 2 + 1 + 1) */
  CU_ASSERT_DOUBLE_EQUAL(l.during, 3.0 / 6.0, 1e-12);
  CU_ASSERT_EQUAL(l.low_util, 1);
  CU_ASSERT_DOUBLE_EQUAL(l.util, 0.3, 1e-12);
  tune_machine_load(c, 3, 8.2, 8, &l); /* /proc/stat's ticks: never more than the CPUs */
  CU_ASSERT_DOUBLE_EQUAL(l.before, 8, 1e-12);
  tune_machine_load(c, 3, -0.01, 8, &l);
  CU_ASSERT_DOUBLE_EQUAL(l.before, 0, 1e-12);
  tune_machine_load(c, 1, NAN, 8, &l); /* 1 thread only: no utilisation verdict */
  CU_ASSERT_EQUAL(l.low_util, -1);
  CU_ASSERT(isnan(l.util));
  CU_ASSERT(isnan(l.before));
}

/* ------------------------------------------------------- the command */

/* Every run reads the same stdin: with --stdin FILE each (warm-up too)
 * reads (cat) its 5000 bytes; without, /dev/null, even when tune's own stdin is
 * that file.  Each run's output under its label in program-stdout.txt. */
static void test_same_stdin(void)
{
  char data[600], dir[600], out[700], tmp[600], *text, *line, *save;
  char *env[2];
  char tmpenv[700];
  unsigned runs = 0, labels = 0, bad = 0, pass;
  FILE *f = fopen(in_tmp(data, sizeof(data), "input"), "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  for (runs = 0; runs < 5000; runs++)
    fputc('a' + runs % 26, f);
  fclose(f);
  in_tmp(tmp, sizeof(tmp), "tmp-stdin");
  mkdir(tmp, 0700);
  snprintf(tmpenv, sizeof(tmpenv), "TMPDIR=%s", tmp);
  env[0] = tmpenv, env[1] = NULL;
  for (pass = 0; pass < 2; pass++) {
    char *with[] = {"--reps", "3", "--threads", "1", "--policies", "none,spn", "--no-regions",
                    "--stdin", data, "--out", dir, "--", "sh", "-c", "cat | wc -c", NULL};
    char *without[] = {"--reps", "3", "--threads", "1", "--policies", "none,spn",
                       "--no-regions", "--out", dir, "--", "sh", "-c", "cat | wc -c", NULL};
    struct start s = {pass ? without : with, env, pass ? data : NULL, 0};
    const char *want = pass ? "0" : "5000";
    snprintf(dir, sizeof(dir), "%s/stdin-%u", tmpdir, pass);
    CU_ASSERT_EQUAL(run_tune(&s, 120), 0);
    snprintf(out, sizeof(out), "%s/program-stdout.txt", dir);
    text = slurp(out);
    runs = labels = bad = 0;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
      if (strncmp(line, "==> htplaces tune: ", 19) == 0)
        labels++;
      else {
        runs++;
        bad += strcmp(line + strspn(line, " "), want) != 0;
      }
    CU_ASSERT_EQUAL(runs, 1 + 2 * 3); /* the warm-up and 3 rounds of 2 */
    CU_ASSERT_EQUAL(labels, 1 + 2 * 3);
    CU_ASSERT_EQUAL(bad, 0);
    if (runs != 7 || bad)
      fprintf(stderr, "\n  pass %u: %u runs, %u not reading %s bytes\n", pass, runs, bad, want);
    free(text);
    text = slurp(out);
    CU_ASSERT_EQUAL(count_occurrences(text, "==> htplaces tune: warm-up, "), 1);
    CU_ASSERT_EQUAL(count_occurrences(text, "==> htplaces tune: none 1, run 3 <==\n"), 1);
    CU_ASSERT_EQUAL(count_occurrences(text, "==> htplaces tune: spn 1, run 3 <==\n"), 1);
    free(text);
  }
  CU_ASSERT_EQUAL(tune_folders(tmp), 0); /* removed */
  { /* a folder is not a stdin; a missing file neither: usage errors */
    char *a[] = {"--stdin", tmpdir, "--", "true", NULL};
    struct start s = {a, NULL, NULL, 0};
    CU_ASSERT_EQUAL(run_tune(&s, 60), 2);
    text = tune_output("err");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "invalid --stdin '"));
    CU_ASSERT_EQUAL(count_lines(text), 1);
    free(text);
  }
  {
    char *a[] = {"--stdin", "/nonexistent/input", "--", "true", NULL};
    struct start s = {a, NULL, NULL, 0};
    CU_ASSERT_EQUAL(run_tune(&s, 60), 2);
    text = tune_output("err");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "cannot read --stdin '/nonexistent/input'"));
    free(text);
  }
}

/* {N} and {PLACES} in the program's arguments, in every run and in the
 * recommended command. */
static void test_substitution(void)
{
  unsigned order[OMP_EXT_NPOLICIES][TEST_MAXPU], npus = 0, n;
  char dir[600], out[700], places[64], want[200], *text;
  char *a[] = {"--reps", "3", "--threads", "1,2", "--policies", "spn,none", "--no-regions",
               "--out", dir, "--", "sh", "-c", "echo \"N=$1 P=$2\"", "sh", "-n{N}", "{PLACES}",
               NULL};
  struct start s = {a, NULL, NULL, 0};
  CU_ASSERT_EQUAL_FATAL(policy_orders(order, &npus), 0);
  if (npus < 2)
    a[3] = "1";
  snprintf(dir, sizeof(dir), "%s/subst", tmpdir);
  CU_ASSERT_EQUAL_FATAL(run_tune(&s, 120), 0);
  snprintf(out, sizeof(out), "%s/program-stdout.txt", dir);
  text = slurp(out);
  for (n = 1; n <= (npus < 2 ? 1u : 2u); n++) {
    snprintf(places, sizeof(places), n == 1 ? "{%u}" : "{%u},{%u}", order[omp_ht_policy_spn][0],
             order[omp_ht_policy_spn][1]);
    snprintf(want, sizeof(want), "spn %u, run 3 <==\nN=-n%u P=%s\n", n, n, places);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
    snprintf(want, sizeof(want), "none %u, run 3 <==\nN=-n%u P=\n", n, n);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
  }
  CU_ASSERT_PTR_NULL(strstr(text, "{N}"));
  free(text);
  text = tune_output("out"); /* the recommended command as run */
  CU_ASSERT(strstr(text, " sh -n1 ") || strstr(text, " sh -n2 "));
  CU_ASSERT_PTR_NULL(strstr(text, "{N}"));
  free(text);
}

/* A warm-up that fails reads FAILED (its configuration "failed (some
 * runs)"), with the program's last stderr line. */
static void test_failed_warm_up(void)
{
  char flag[600], script[2048], *text;
  char *a[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--no-regions", "--",
               "sh", "-c", script, NULL};
  struct start s = {a, NULL, NULL, 0};
  in_tmp(flag, sizeof(flag), "warm-up-done");
  snprintf(script, sizeof(script), "test -e '%s' && exit 0; : > '%s'; echo banner >&2; "
           "echo 'first start fails' >&2; exit 4", flag, flag);
  CU_ASSERT_EQUAL(run_tune(&s, 120), 0);
  text = tune_output("err");
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "[warm-up] none 1: "));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, " s FAILED (exit 4)\n"));
  free(text);
  text = tune_output("out");
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nnone 1 "));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "failed (some runs) (exit 4): first start fails\n"));
  free(text);
}

/* The failure line: the last non-empty line of stderr (not the banner's
 * first); of stdout when stderr is empty. */
static void test_failure_line(void)
{
  char *text;
  {
    char *a[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--no-regions", "--",
                 "sh", "-c", "echo banner >&2; echo more >&2; echo 'bad input: x' >&2; echo >&2;"
                 " exit 3", NULL};
    struct start s = {a, NULL, NULL, 0};
    CU_ASSERT_EQUAL(run_tune(&s, 120), 1);
    text = tune_output("err");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "(e.g. none 1: exit 3): bad input: x\n"));
    free(text);
  }
  {
    char *a[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--no-regions", "--",
                 "sh", "-c", "echo usage line; echo 'error: on stdout'; exit 5", NULL};
    struct start s = {a, NULL, NULL, 0};
    CU_ASSERT_EQUAL(run_tune(&s, 120), 1);
    text = tune_output("err");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "(e.g. none 1: exit 5): error: on stdout\n"));
    free(text);
  }
}

/* SIGINT to tune while the program (which ignores SIGINT) and its
 * background child run: both gone when tune has ended, exit 130, no
 * htplaces-tune-* folder left in $TMPDIR (where it was made).  SIGTERM:
 * exit 143. */
static void test_signals(void)
{
  static const int sigs[] = {SIGINT, SIGTERM};
  unsigned i;
  for (i = 0; i < 2; i++) {
    char pids[600], script[2048], tmp[600], tmpenv[700], name[32], *text, *line, *save;
    char *env[] = {tmpenv, NULL};
    char *a[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--no-regions", "--",
                 "sh", "-c", script, NULL};
    struct start s = {a, env, NULL, 0};
    unsigned left = 0, n = 0;
    pid_t tune;
    int status;
    snprintf(name, sizeof(name), "pids-%u", i);
    in_tmp(pids, sizeof(pids), name);
    snprintf(name, sizeof(name), "tmp-signal-%u", i);
    in_tmp(tmp, sizeof(tmp), name);
    mkdir(tmp, 0700);
    snprintf(tmpenv, sizeof(tmpenv), "TMPDIR=%s", tmp);
    snprintf(script, sizeof(script), "trap '' INT TERM; sleep 300 & echo $! >> '%s'; "
             "echo $$ >> '%s'; wait; wait; sleep 300", pids, pids);
    tune = start_tune(&s);
    CU_ASSERT_FATAL(tune > 0);
    CU_ASSERT_EQUAL(wait_lines(pids, 2, 60), 0);
    CU_ASSERT_EQUAL(tune_folders(tmp), 1); /* in $TMPDIR */
    kill(tune, sigs[i]);
    status = wait_tune(tune, 60);
    CU_ASSERT_EQUAL(status, 128 + sigs[i]);
    text = slurp(pids);
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++)
      left += alive((pid_t)atoi(line));
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_EQUAL(left, 0);
    if (left) { /* (clean up after a failure) */
      free(text);
      text = slurp(pids);
      for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        kill((pid_t)atoi(line), SIGKILL);
    }
    free(text);
    CU_ASSERT_EQUAL(tune_folders(tmp), 0);
    text = tune_output("err");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, sigs[i] == SIGINT ? "interrupted by SIGINT: "
                                                          : "interrupted by SIGTERM: "));
    free(text);
    text = tune_output("out");
    CU_ASSERT_STRING_EQUAL(text, ""); /* no report */
    free(text);
  }
}

/* A program that leaves a background child behind: the child is killed
 * when its run ends, not left running through the later runs. */
static void test_background_child(void)
{
  char pids[600], script[2048], *text, *line, *save;
  char *a[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--no-regions", "--",
               "sh", "-c", script, NULL};
  struct start s = {a, NULL, NULL, 0};
  unsigned n = 0, left = 0;
  in_tmp(pids, sizeof(pids), "pids-background");
  snprintf(script, sizeof(script), "sleep 300 & echo $! >> '%s'", pids);
  CU_ASSERT_EQUAL(run_tune(&s, 120), 0);
  text = slurp(pids);
  for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++)
    if (alive((pid_t)atoi(line))) {
      left++;
      kill((pid_t)atoi(line), SIGKILL); /* (clean up after a failure) */
    }
  CU_ASSERT_EQUAL(n, 4); /* warm-up and 3 rounds */
  CU_ASSERT_EQUAL(left, 0);
  free(text);
}

/* Started with SIGHUP ignored (nohup): a SIGHUP to tune changes nothing,
 * and the program inherits the ignored SIGHUP. */
static void test_nohup(void)
{
  char pids[600], script[2048], dir[600], out[700], *text, *ign;
  char *a[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--no-regions",
               "--out", dir, "--", "sh", "-c", script, NULL};
  struct start s = {a, NULL, NULL, 1};
  pid_t tune;
  in_tmp(pids, sizeof(pids), "pids-hup");
  in_tmp(dir, sizeof(dir), "hup");
  snprintf(script, sizeof(script), "grep '^SigIgn:' /proc/$$/status; echo $$ >> '%s'; "
           "sleep 0.3", pids);
  tune = start_tune(&s);
  CU_ASSERT_FATAL(tune > 0);
  CU_ASSERT_EQUAL(wait_lines(pids, 1, 60), 0);
  kill(tune, SIGHUP);
  CU_ASSERT_EQUAL(wait_tune(tune, 120), 0);
  text = tune_output("out");
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "Recommendation:"));
  free(text);
  snprintf(out, sizeof(out), "%s/program-stdout.txt", dir);
  text = slurp(out);
  CU_ASSERT_EQUAL(count_occurrences(text, "SigIgn:"), 4);
  ign = strstr(text, "SigIgn:");
  /* SIGHUP is signal 1: the lowest bit of the last hex digit */
  CU_ASSERT(ign && (strtoull(ign + 7, NULL, 16) & 1) == 1);
  free(text);
}

/* Under a pseudo-terminal (as from an interactive shell): a program
 * reading stdin gets /dev/null, not the terminal (it would stop on
 * SIGTTIN: tune hung); one that opens /dev/tty stops on SIGTTIN, is
 * killed, and tune says so in one line (exit 1: every run failed); Ctrl-C
 * (written to the terminal once ctrl_c_when has a line) ends tune with
 * 130 and the program with it, though it ignores SIGINT. */
static int run_in_pty(char *const script, const char *ctrl_c_when, char **output)
{
  char *argv[] = {HTPLACES_BIN, "tune", "--reps", "3", "--threads", "1", "--policies", "none",
                  "--no-regions", "--", "sh", "-c", script, NULL};
  size_t len = 0;
  FILE *mem = open_memstream(output, &len);
  double end = now() + 120;
  int master, status, ended = 0, sent = 0;
  pid_t pid = forkpty(&master, NULL, NULL, NULL);
  if (pid < 0 || !mem)
    return -2;
  if (pid == 0) {
    putenv("ASAN_OPTIONS=verify_asan_link_order=0");
    execv(argv[0], argv);
    _exit(127);
  }
  while (now() < end) {
    struct pollfd p = {master, POLLIN, 0};
    char buf[4096];
    ssize_t got;
    if (poll(&p, 1, 100) > 0) {
      if ((got = read(master, buf, sizeof(buf))) > 0)
        fwrite(buf, 1, (size_t)got, mem);
      else if (ended)
        break;
    }
    if (ctrl_c_when && !sent && access(ctrl_c_when, F_OK) == 0) { /* Ctrl-C on the terminal */
      char *started = slurp(ctrl_c_when);
      if (count_lines(started) >= 1)
        sent = write(master, "\003", 1) == 1;
      free(started);
    }
    if (!ended && waitpid(pid, &status, WNOHANG) == pid)
      ended = 1, end = now() + 2; /* (then drain what is left) */
  }
  fclose(mem);
  close(master);
  if (!ended) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_terminal(void)
{
  char *out = NULL;
  char pidfile[600], script[2048];
  int status = run_in_pty("wc -c", NULL, &out);
  CU_ASSERT_EQUAL(status, 0); /* -1: it hung */
  CU_ASSERT(out && strstr(out, "Recommendation:"));
  free(out);
  out = NULL;
  status = run_in_pty("cat /dev/tty", NULL, &out);
  CU_ASSERT_EQUAL(status, 1);
  CU_ASSERT(out && strstr(out, "[warm-up] none 1: "));
  CU_ASSERT(out && strstr(out, "failed in every configuration (e.g. none 1: "
                               "stopped reading the terminal (SIGTTIN), killed)"));
  if (status != 1)
    fprintf(stderr, "\n  got %d: %s\n", status, out ? out : "");
  free(out);
  /* Ctrl-C reaches tune (the terminal's foreground group), not the
   * program: tune forwards it; the program ignores it and is killed */
  in_tmp(pidfile, sizeof(pidfile), "pid-ctrl-c");
  snprintf(script, sizeof(script), "trap '' INT; echo $$ > '%s'; sleep 300", pidfile);
  out = NULL;
  status = run_in_pty(script, pidfile, &out);
  CU_ASSERT_EQUAL(status, 130);
  CU_ASSERT(out && strstr(out, "interrupted by SIGINT: "));
  free(out);
  out = slurp(pidfile);
  CU_ASSERT(atoi(out) > 0 && !alive((pid_t)atoi(out)));
  if (atoi(out) > 0 && alive((pid_t)atoi(out)))
    kill((pid_t)atoi(out), SIGKILL);
  free(out);
}

/* Bad --timeout (1e19 overflowed the deadline and busy-waited), bad
 * TMPDIR: one line each, nothing on stdout. */
static void test_bad_setup(void)
{
  static char *const values[] = {"1e19", "1000001", "0", "-1", "nan"};
  unsigned i;
  char *text;
  for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
    char want[96];
    char *a[] = {"--timeout", values[i], "--reps", "3", "--threads", "1", "--policies", "none",
                 "--", "true", NULL};
    struct start s = {a, NULL, NULL, 0};
    CU_ASSERT_EQUAL(run_tune(&s, 60), 2);
    text = tune_output("err");
    snprintf(want, sizeof(want), "invalid --timeout '%s'; allowed: seconds > 0 and <= 1000000",
             values[i]);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
    CU_ASSERT_EQUAL(count_lines(text), 1);
    free(text);
    text = tune_output("out");
    CU_ASSERT_STRING_EQUAL(text, "");
    free(text);
  }
  {
    char *a[] = {"--dry-run", "--timeout", "1000000", "--reps", "3", "--threads", "1",
                 "--policies", "none", "--", "true", NULL};
    struct start s = {a, NULL, NULL, 0};
    CU_ASSERT_EQUAL(run_tune(&s, 60), 0);
  }
  {
    char *env[] = {"TMPDIR=/nonexistent/tmp", NULL};
    char *a[] = {"--reps", "3", "--threads", "1", "--policies", "none", "--", "true", NULL};
    struct start s = {a, env, NULL, 0};
    CU_ASSERT_EQUAL(run_tune(&s, 60), 1);
    text = tune_output("err");
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "cannot make a temporary folder in '/nonexistent/tmp' "
                                        "(TMPDIR): "));
    free(text);
  }
}

/* The load line, always; the busy warning while a process of this test
 * spins (its CPU is other processes' load to tune); the utilisation
 * warning for a program that sleeps with 2 threads. */
static void test_busy_machine(void)
{
  unsigned order[OMP_EXT_NPOLICIES][TEST_MAXPU], npus = 0;
  char *a[] = {"--reps", "3", "--threads", "2", "--policies", "none", "--no-regions", "--",
               "sh", "-c", "sleep 0.3", NULL};
  struct start s = {a, NULL, NULL, 0};
  char *text;
  double before = -1, during = -1;
  pid_t spin;
  if (access("/proc/stat", R_OK) != 0)
    return;
  CU_ASSERT_EQUAL_FATAL(policy_orders(order, &npus), 0);
  if (npus < 2)
    a[3] = "1";
  if ((spin = fork()) == 0)
    for (;;)
      ;
  CU_ASSERT_FATAL(spin > 0);
  CU_ASSERT_EQUAL(run_tune(&s, 120), 0);
  kill(spin, SIGKILL);
  waitpid(spin, NULL, 0);
  text = tune_output("err");
  {
    const char *p = strstr(text, "other processes kept ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(sscanf(p, "other processes kept %lf CPUs busy before the runs, %lf during",
                           &before, &during), 2);
  }
  CU_ASSERT(before >= 0 && during >= 0);
  CU_ASSERT(before >= TUNE_BUSY_CPUS || during >= TUNE_BUSY_CPUS);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "warning: the machine is busy: other processes kept "));
  if (npus >= 2)
    CU_ASSERT(strstr(text, "warning: under none 2 the program kept ") &&
              strstr(text, " of its 2 threads busy (median CPU time / wall time"));
  free(text);
}

static CU_TestInfo pure_tests[] = {
  {"{N} and {PLACES}", test_substitute},
  {"how a run ended, in words", test_outcome_words},
  {"/proc/stat busy seconds", test_busy_seconds},
  {"load and utilisation over crafted runs", test_machine_load},
  CU_TEST_INFO_NULL};
static CU_TestInfo command_tests[] = {
  {"the same stdin in every run; labels", test_same_stdin},
  {"{N} and {PLACES} in the runs", test_substitution},
  {"a failed warm-up reads FAILED", test_failed_warm_up},
  {"the failure line: last words", test_failure_line},
  {"SIGINT, SIGTERM: nothing left", test_signals},
  {"a background child ends with its run", test_background_child},
  {"nohup: SIGHUP stays ignored", test_nohup},
  {"a terminal: no hang", test_terminal},
  {"--timeout range, TMPDIR", test_bad_setup},
  {"busy machine", test_busy_machine},
  CU_TEST_INFO_NULL};
static CU_SuiteInfo suites[] = {
  {"tune run: pure", NULL, NULL, NULL, NULL, pure_tests},
  {"tune run: command", suite_init, suite_clean, NULL, NULL, command_tests},
  CU_SUITE_INFO_NULL};

OMP_EXT_CUNIT_MAIN(suites)
