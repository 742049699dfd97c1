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
 * multi-package machines.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"

static omp_ext_topo_t *topo;
/* The oracle and its runtime: this build's, or OMP_EXT_ORACLE_BIN and
 * OMP_EXT_ORACLE_RUNTIME (libgomp|libomp) to check another build's. */
static const char *oracle_bin = ORACLE_BIN;
static omp_ext_runtime_t oracle_rt = ORACLE_RUNTIME;

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

/* Run the oracle with only the variable of syntax set; "N:..." or "crash". */
static char *run_oracle(const char *syntax, const char *text)
{
  int fd[2], status;
  pid_t pid;
  char buf[4096];
  size_t len = 0;
  ssize_t n;
  if (pipe(fd) != 0)
    return NULL;
  pid = fork();
  if (pid == 0) {
    char *value = NULL;
    dup2(fd[1], 1);
    close(fd[0]);
    if (!freopen("/dev/null", "w", stderr))
      _exit(126);
    unsetenv("OMP_PLACES");
    unsetenv("GOMP_CPU_AFFINITY");
    unsetenv("KMP_AFFINITY");
    unsetenv("OMP_PROC_BIND");
    if (strcmp(syntax, "omp") == 0)
      setenv("OMP_PLACES", text, 1);
    else if (strcmp(syntax, "gomp") == 0)
      setenv("GOMP_CPU_AFFINITY", text, 1);
    else if (asprintf(&value, "granularity=fine,explicit,proclist=[%s]", text) > 0)
      setenv("KMP_AFFINITY", value, 1);
    execl(oracle_bin, oracle_bin, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  while ((n = read(fd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
    len += (size_t)n;
  close(fd[0]);
  buf[len] = '\0';
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return strdup("crash");
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

static void test_corpus(void)
{
  FILE *f = fopen(OMP_EXT_TEST_DIR "/places-corpus.txt", "r");
  char line[1024];
  unsigned total = 0, agree = 0;
  omp_ext_runtime_t rt = oracle_rt;
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  while (fgets(line, sizeof(line), f)) {
    char *tab = strchr(line, '\t'), *real, *pred;
    const char *why = NULL;
    if (line[0] == '#' || !tab)
      continue;
    *tab = '\0';
    tab[1 + strcspn(tab + 1, "\n")] = '\0';
    real = run_oracle(line, tab + 1);
    pred = predicted(line, tab + 1, rt, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(real);
    total++;
    if (strcmp(real, pred) == 0)
      agree++;
    else
      fprintf(stderr, "\n%s %s='%s': runtime %s, predicted %s (%s)", omp_ext_runtime_name(rt),
              line, tab + 1, real, pred, why ? why : "-");
    free(real);
    free(pred);
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
