/*
 * The hooks' cost model, as counts (never timings): no per-region callback
 * while no policy is set; with a policy and a team that keeps its size,
 * one hook call per region (libomp: the implicit-task callback is off once
 * the team is bound); a grown team re-bound; a user's OMPT tool
 * (OMP_TOOL_LIBRARIES) chained: it receives every region and implicit task
 * while omp_ext keeps the team bound (libomp only: libgomp has no OMPT).
 * hook_probe (see there) prints the counts.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunit_main.h"
#include "testutil.h"

#include "omp_ext.h"

/* 200 + 1 + 150 + 1 + 50 + 10 regions, 2 threads each but 1 of 3 and 5 of 4. */
#define REGIONS 412
#define IMPLICIT (2 * 406 + 3 + 4 * 5)
#define CHECKED (150 * 2 + 3 + 50 * 2 + 5 * 4 + 5 * 2)

struct counts {
  unsigned long nopolicy, policy50, policy150, grown, cycled;
  unsigned ok, bad;
  int hooks;
};

static int parse(const char *out, struct counts *c)
{
  return sscanf(out, "nopolicy %lu\npolicy50 %lu\npolicy150 %lu\ngrown %lu\ncycled %lu\n"
                "bound %u %u\nhooks %d",
                &c->nopolicy, &c->policy50, &c->policy150, &c->grown, &c->cycled, &c->ok,
                &c->bad, &c->hooks) == 8;
}

static int is_libomp(void)
{
  return dlsym(RTLD_DEFAULT, "kmp_set_affinity") != NULL;
}

/* Do this build's regions reach omp_ext's __kmpc_fork_call (clang, libomp
 * after libomp_ext)?  Not for a gcc program with libiomp5 preloaded: its
 * GOMP regions are seen through OMPT. */
static int kmpc_path(void)
{
  Dl_info info;
  void *fork = dlsym(RTLD_DEFAULT, "__kmpc_fork_call");
  return fork && dladdr(fork, &info) && info.dli_fname && strstr(info.dli_fname, "omp_ext");
}

static void run_probe(char *const env[], struct counts *c, struct run_result *r)
{
  char *argv[] = {HOOK_PROBE_BIN, NULL};
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, r), 0);
  CU_ASSERT_EQUAL(r->status, 0);
  if (r->status)
    fprintf(stderr, "hook_probe: status %d: %s", r->status, r->err);
  CU_ASSERT_FATAL(parse(r->out, c));
}

static void check_counts(const struct counts *c)
{
  /* No policy: not one hook call in 200 regions. */
  CU_ASSERT_EQUAL(c->nopolicy, 0);
  /* A bound team of a constant size: exactly one call per region (libomp:
   * parallel_begin in the primary thread, no implicit-task callback). */
  CU_ASSERT_EQUAL(c->policy150 - c->policy50, 100);
  /* Grown to 3 and back to 2: checked again, then one per region. */
  CU_ASSERT(c->grown - c->policy150 >= 51);
  CU_ASSERT(c->grown - c->policy150 <= 51 + 3 + 2);
  /* A size change every region: each one checked again (libgomp ends the
   * surplus threads of a smaller team and starts new, unbound ones for a
   * larger one: a hook that trusted the earlier size would miss them).
   * libgomp: one wrapper check per region; OMPT: parallel_begin, plus the
   * implicit-task callback of each thread while the team is re-checked. */
  if (is_libomp()) {
    CU_ASSERT(c->cycled - c->grown >= 10 && c->cycled - c->grown <= 10 + 5 * 4 + 5 * 2);
  } else {
    CU_ASSERT_EQUAL(c->cycled - c->grown, 10);
  }
  /* Every thread of every region on its PU, the grown one too. */
  CU_ASSERT_EQUAL(c->ok, CHECKED);
  CU_ASSERT_EQUAL(c->bad, 0);
  if (is_libomp() && kmpc_path()) { /* the __kmpc_fork_call wrapper binds, no OMPT callback */
    CU_ASSERT((c->hooks & omp_ext_hook_kmpc_ready) && (c->hooks & omp_ext_hook_kmpc) &&
              !(c->hooks & omp_ext_hook_ompt));
  } else if (is_libomp()) {
    CU_ASSERT((c->hooks & omp_ext_hook_ompt_ready) && (c->hooks & omp_ext_hook_ompt));
  } else {
    CU_ASSERT(c->hooks & omp_ext_hook_gomp);
  }
}

static void test_no_policy_no_callback(void)
{
  static char e1[] = "OMP_EXT_HT_POLICY=", e2[] = "OMP_TOOL_LIBRARIES=", e3[] = "OMP_PLACES=",
              e4[] = "OMP_PROC_BIND=";
  char *env[] = {e1, e2, e3, e4, NULL}; /* (run_capture writes into them) */
  struct run_result r;
  struct counts c;
  run_probe(env, &c, &r);
  check_counts(&c);
  /* libomp: the __kmpc_fork_call wrapper binds; no OMPT tool is started
   * (a started one costs every region, callbacks or not). */
  if (is_libomp() && kmpc_path())
    CU_ASSERT(!(c.hooks & omp_ext_hook_ompt_ready));
  run_free(&r);
}

static void test_user_tool_chained(void)
{
  static char e1[] = "OMP_EXT_HT_POLICY=", e2[] = "OMP_TOOL_LIBRARIES=" OMPT_COUNT_TOOL,
              e3[] = "OMP_PLACES=", e4[] = "OMP_PROC_BIND=";
  char *env[] = {e1, e2, e3, e4, NULL};
  struct run_result r;
  struct counts c;
  const char *line;
  unsigned long pb = 0, it = 0;
  if (!is_libomp()) {
    OMP_EXT_SKIP("this runtime (libgomp) has no OMPT");
    return;
  }
  run_probe(env, &c, &r);
  /* omp_ext's hooks behave as without the tool ... */
  check_counts(&c);
  /* ... and the tool saw every region and every implicit task. */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "ompt_count_tool: initialized"));
  line = strstr(r.err, "ompt_count_tool: parallel_begin");
  CU_ASSERT_PTR_NOT_NULL_FATAL(line);
  CU_ASSERT_EQUAL(sscanf(line, "ompt_count_tool: parallel_begin %lu implicit_task %lu", &pb, &it),
                  2);
  CU_ASSERT_EQUAL(pb, REGIONS);
  CU_ASSERT_EQUAL(it, IMPLICIT);
  run_free(&r);
}

static CU_TestInfo hooks_tests[] = {
  {"no per-region callback without a policy; one per bound region", test_no_policy_no_callback},
  {"a user's OMPT tool chained (OMP_TOOL_LIBRARIES)", test_user_tool_chained},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"hooks (" OMP_RUNTIME_NAME ")", NULL, NULL, NULL, NULL, hooks_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
