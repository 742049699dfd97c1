/*
 * The real runtime as the oracle (issue 13): every string of
 * tests/places-corpus.txt goes through this build's OpenMP runtime
 * (places_oracle: gcc -> libgomp, clang -> libomp) and through
 * omp_ext_places_predict() for that runtime; any difference fails.  The
 * agreement figure is printed ("oracle: libgomp: 236/236 agree").
 *
 * On this 2-PU machine without SMT threads and cores coincide and sockets,
 * ll_caches and numa_domains are one place: the corpus checks the parsers,
 * the limits and the fallbacks, not the order of abstract names on SMT or
 * multi-package machines.  Where libomp sees another machine than hwloc
 * (its own cpuid decoding: align_views()), the corpus runs under libomp's
 * KMP_TOPOLOGY_METHOD=cpuinfo, which reads the kernel's view.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "private/tools.h" /* the tools interface: not exported (libomp_ext.a) */

static omp_ext_topo_t *topo;
/* The oracle and its runtime: this build's, or OMP_EXT_ORACLE_BIN and
 * OMP_EXT_ORACLE_RUNTIME (libgomp|libomp) to check another build's. */
static const char *oracle_bin = ORACLE_BIN;
static omp_ext_runtime_t oracle_rt = ORACLE_RUNTIME;
/* NULL, or "KMP_TOPOLOGY_METHOD=cpuinfo" for every oracle (align_views()). */
static const char *kmp_method;

static int setup(void)
{
  const char *bin = getenv("OMP_EXT_ORACLE_BIN"), *rt = getenv("OMP_EXT_ORACLE_RUNTIME");
  if (bin && rt) {
    oracle_bin = bin;
    oracle_rt = strcmp(rt, "libomp") == 0 ? omp_ext_runtime_libomp : omp_ext_runtime_libgomp;
  }
  return omp_ext_topo_load(&topo, NULL, 0) != 0;
}
static int teardown(void)
{
  omp_ext_topo_destroy(topo);
  return 0;
}

extern char **environ;

/* One run of the oracle, started by start_oracle() and read by
 * finish_oracle(). */
struct oracle_run {
  pid_t pid;
  int fd;
};

/* Start the oracle with only the variable of syntax set.  posix_spawn: a
 * sanitized test process is slow to fork.  Its output (one short line) fits
 * in the pipe, so it never waits for the reader. */
static struct oracle_run start_oracle(const char *syntax, const char *text)
{
  static const char *const drop[] = {"OMP_PLACES=", "GOMP_CPU_AFFINITY=", "KMP_AFFINITY=",
                                     "OMP_PROC_BIND=", "ASAN_OPTIONS=",
                                     "KMP_TOPOLOGY_METHOD="};
  struct oracle_run run = {-1, -1};
  int fd[2], got;
  char *value = NULL, **envp, *argv[] = {(char *)oracle_bin, NULL};
  size_t n = 0, i, j;
  posix_spawn_file_actions_t fa;
  for (i = 0; environ[i]; i++)
    ;
  envp = calloc(i + 4, sizeof(*envp));
  if (!envp || pipe(fd) != 0) {
    free(envp);
    return run;
  }
  for (i = 0; environ[i]; i++) {
    for (j = 0; j < sizeof(drop) / sizeof(drop[0]); j++)
      if (strncmp(environ[i], drop[j], strlen(drop[j])) == 0)
        break;
    if (j == sizeof(drop) / sizeof(drop[0]))
      envp[n++] = environ[i];
  }
  if (strcmp(syntax, "omp") == 0)
    got = asprintf(&value, "OMP_PLACES=%s", text);
  else if (strcmp(syntax, "gomp") == 0)
    got = asprintf(&value, "GOMP_CPU_AFFINITY=%s", text);
  else if (strcmp(syntax, "kmpa") == 0)
    got = asprintf(&value, "KMP_AFFINITY=%s", text);
  else
    got = asprintf(&value, "KMP_AFFINITY=granularity=fine,explicit,proclist=[%s]", text);
  CU_ASSERT_FATAL(got > 0);
  envp[n++] = value;
  /* A sanitized oracle: the runtime's own exit-time leaks are not the point. */
  envp[n++] = (char *)"ASAN_OPTIONS=detect_leaks=0";
  if (kmp_method)
    envp[n++] = (char *)kmp_method;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  if (posix_spawn(&run.pid, oracle_bin, &fa, NULL, argv, envp) != 0)
    run.pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  free(value);
  free(envp);
  close(fd[1]);
  run.fd = fd[0];
  return run;
}

/* "N:...", "crash" (killed by a signal: SIGSEGV, SIGABRT) or "exit N";
 * NULL when the oracle could not run. */
static char *finish_oracle(struct oracle_run run)
{
  char buf[4096];
  size_t len = 0;
  ssize_t got;
  int status;
  if (run.fd < 0)
    return NULL;
  while ((got = read(run.fd, buf + len, sizeof(buf) - 1 - len)) > 0)
    len += (size_t)got;
  close(run.fd);
  buf[len] = '\0';
  if (run.pid < 0 || waitpid(run.pid, &status, 0) != run.pid)
    return NULL;
  if (WIFSIGNALED(status))
    return strdup("crash");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char *out = NULL;
    return asprintf(&out, "exit %d", WEXITSTATUS(status)) > 0 ? out : NULL;
  }
  buf[strcspn(buf, "\n")] = '\0';
  return strdup(buf);
}

static char *predicted(const char *syntax, const char *text, omp_ext_runtime_t rt,
                       const char **why)
{
  omp_ext_prediction_t p;
  omp_ext_syntax_t s = strcmp(syntax, "omp") == 0    ? omp_ext_syntax_omp
                       : strcmp(syntax, "gomp") == 0 ? omp_ext_syntax_gomp
                                                     : omp_ext_syntax_kmp;
  char *canon = NULL, *out = NULL;
  CU_ASSERT_EQUAL_FATAL(omp_ext_places_predict(topo, text, s, rt, &p), 0);
  *why = p.why;
  if (p.outcome == omp_ext_outcome_crash) {
    omp_ext_prediction_clear(&p);
    return strdup("crash");
  }
  CU_ASSERT_EQUAL_FATAL(omp_ext_placelist_canonical(p.list, &canon), 0);
  CU_ASSERT_FATAL(asprintf(&out, "%u:%s", p.list->nplaces, canon) > 0);
  free(canon);
  omp_ext_prediction_clear(&p);
  return out;
}

/* How many of threads, cores and sockets the runtime builds otherwise
 * than predicted on hwloc's topology; each difference said on stderr. */
static unsigned views_differ(omp_ext_runtime_t rt)
{
  static const char *const names[] = {"threads", "cores", "sockets"};
  unsigned i, differ = 0;
  for (i = 0; i < 3; i++) {
    const char *why;
    char *real = finish_oracle(start_oracle("omp", names[i]));
    char *pred = predicted("omp", names[i], rt, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(real);
    if (strcmp(real, pred) != 0) {
      fprintf(stderr, "\noracle: %s%s builds %s as %s, hwloc's topology %s",
              omp_ext_runtime_name(rt), kmp_method ? " (KMP_TOPOLOGY_METHOD=cpuinfo)" : "",
              names[i], real, pred);
      differ++;
    }
    free(real);
    free(pred);
  }
  return differ;
}

/* The runtime must see the machine as hwloc does: the corpus checks its
 * parsers, limits and fallbacks, and a syntax error falls back to cores.
 * libomp 14 reads the topology itself (cpuid), and where cpuid has no leaf
 * 11 it decodes legacy APIC ids: on an AMD EPYC VM it saw the 2 cores as 1
 * core x 2 threads, with thread ids that changed from run to run (so
 * "threads" listed the 2 PUs in a random order).  Then the oracle runs
 * with KMP_TOPOLOGY_METHOD=cpuinfo (the kernel's /proc/cpuinfo, as hwloc
 * reads it), and the views must agree.  0, or the names still different. */
static unsigned align_views(omp_ext_runtime_t rt)
{
  if (!views_differ(rt) || rt != omp_ext_runtime_libomp)
    return 0;
  kmp_method = "KMP_TOPOLOGY_METHOD=cpuinfo";
  fprintf(stderr, "\noracle: libomp sees another machine than hwloc; the corpus runs with %s",
          kmp_method);
  return views_differ(rt);
}

/* How many oracles run at once: OMP_EXT_ORACLE_JOBS, else 2 (the runs are
 * independent; inside an emulated SMT guest each start takes about 0.15 s,
 * and two keep both host cores busy). */
#define MAX_JOBS 16
static unsigned oracle_jobs(void)
{
  const char *e = getenv("OMP_EXT_ORACLE_JOBS");
  long n = e ? strtol(e, NULL, 10) : 2;
  return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (unsigned)n;
}

struct corpus_line {
  char *syntax, *text;
  struct oracle_run run;
};

/* Compare one finished line; 1 when the runtime and the prediction agree. */
static int compare(struct corpus_line *c, omp_ext_runtime_t rt)
{
  const char *why = NULL, *text = c->text;
  char *real = finish_oracle(c->run), *pred, *as_sockets = NULL;
  int same;
  /* libomp's cpuinfo method knows no caches: ll_caches are its sockets
   * ("topology layer LL cache is equivalent to socket"). */
  if (kmp_method && strcmp(c->syntax, "omp") == 0 && strncasecmp(text, "ll_caches", 9) == 0) {
    CU_ASSERT_FATAL(asprintf(&as_sockets, "sockets%s", text + 9) > 0);
    text = as_sockets;
  }
  pred = predicted(c->syntax, text, rt, &why);
  free(as_sockets);
  CU_ASSERT_PTR_NOT_NULL_FATAL(real);
  same = strcmp(real, pred) == 0;
  if (!same)
    fprintf(stderr, "\n%s %s='%s': runtime %s, predicted %s (%s)", omp_ext_runtime_name(rt),
            c->syntax, c->text, real, pred, why ? why : "-");
  free(real);
  free(pred);
  free(c->syntax);
  free(c->text);
  return same;
}

static void test_corpus(void)
{
  FILE *f = fopen(OMP_EXT_TEST_DIR "/places-corpus.txt", "r");
  char line[1024];
  struct corpus_line busy[MAX_JOBS];
  unsigned total = 0, agree = 0, jobs = oracle_jobs(), n = 0, i;
  omp_ext_runtime_t rt = oracle_rt;
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL(align_views(rt), 0);
  for (;;) {
    char *tab = NULL;
    int more = fgets(line, sizeof(line), f) != NULL;
    if (more && (line[0] == '#' || !(tab = strchr(line, '\t'))))
      continue;
    if (more) {
      *tab = '\0';
      tab[1 + strcspn(tab + 1, "\n")] = '\0';
      busy[n].syntax = strdup(line);
      busy[n].text = strdup(tab + 1);
      CU_ASSERT_FATAL(busy[n].syntax && busy[n].text);
      busy[n].run = start_oracle(line, tab + 1);
      n++;
      total++;
    }
    if (n == jobs || (!more && n > 0)) { /* oldest first: the corpus order */
      agree += (unsigned)compare(&busy[0], rt);
      for (i = 1; i < n; i++)
        busy[i - 1] = busy[i];
      n--;
    }
    if (!more && n == 0)
      break;
  }
  fclose(f);
  fprintf(stderr, "\noracle: %s: %u/%u agree\n", omp_ext_runtime_name(rt), agree, total);
  CU_ASSERT(total >= 150);
  CU_ASSERT_EQUAL(agree, total);
}

static CU_TestInfo oracle_tests[] = {
  {"corpus through the real runtime and the prediction", test_corpus},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"oracle", setup, teardown, NULL, NULL, oracle_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
