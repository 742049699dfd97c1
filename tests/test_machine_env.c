/*
 * hwloc's environment (HWLOC_XMLFILE, HWLOC_SYNTHETIC) replaces the machine
 * that hwloc discovers.  The commands that act on this machine (exec,
 * verify, doctor, calibrate) refuse with one line naming the variable; the
 * printing ones say whose places they print; the in-code API never reports
 * success for a binding that hwloc silently skipped (a topology that is not
 * this system).
 */
#define _GNU_SOURCE
#include <hwloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "testutil.h"

#define FIXTURE OMP_EXT_TEST_DIR "/topologies/amd-epyc-7742-rome-2s-64c-smt2-far128-nps4.xml"

/* run_capture() writes into "NAME=" entries while unsetting: writable. */
static char unset_this[] = "HWLOC_THISSYSTEM=";

static struct run_result run(char *const env[], ...)
{
  char *argv[16];
  struct run_result r = {0};
  va_list ap;
  unsigned n = 0;
  va_start(ap, env);
  while (n < 15 && (argv[n] = va_arg(ap, char *)) != NULL)
    n++;
  argv[n] = NULL;
  va_end(ap);
  if (run_capture(argv, env, &r) != 0)
    r.status = -1;
  return r;
}

static void test_printing_commands_say_so(void)
{
  char *const xml[] = {"HWLOC_XMLFILE=" FIXTURE, unset_this, NULL};
  struct run_result r = run(xml, HTPLACES_BIN, "spn", "4", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{0},{128},{1},{129}\n"); /* the fixture's places */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "htplaces: note: describing HWLOC_XMLFILE="));
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
  r = run(xml, HTPLACES_BIN, "topo", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "HWLOC_XMLFILE=" FIXTURE " (hwloc's environment: not "
                                       "this machine)"));
  CU_ASSERT_PTR_NULL(strstr(r.out, "topology:  this machine"));
  run_free(&r);
}

static void refused(char *const env[], const char *var, const char *cmd, struct run_result r)
{
  char want[128];
  snprintf(want, sizeof(want), "htplaces: %s acts on this machine, but %s is set", cmd, var);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  if (strncmp(r.err, want, strlen(want)) != 0)
    fprintf(stderr, "\n  want '%s...', got '%s'", want, r.err);
  CU_ASSERT_EQUAL(strncmp(r.err, want, strlen(want)), 0);
  (void)env;
}

static void test_acting_commands_refuse(void)
{
  char *const xml[] = {"HWLOC_XMLFILE=" FIXTURE, unset_this, NULL};
  char *const syn[] = {"HWLOC_SYNTHETIC=pack:2 core:4 pu:2", unset_this, NULL};
  struct run_result r;
  r = run(xml, HTPLACES_BIN, "exec", "spn", "4", "--", "true", NULL);
  refused(xml, "HWLOC_XMLFILE", "exec", r);
  run_free(&r);
  r = run(syn, HTPLACES_BIN, "exec", "spn", "--", "true", NULL);
  refused(syn, "HWLOC_SYNTHETIC", "exec", r);
  run_free(&r);
  r = run(xml, HTPLACES_BIN, "doctor", "--no-saturation", NULL);
  refused(xml, "HWLOC_XMLFILE", "doctor", r);
  run_free(&r);
  r = run(syn, HTPLACES_BIN, "verify", "--", "true", NULL);
  refused(syn, "HWLOC_SYNTHETIC", "verify", r);
  run_free(&r);
  r = run(xml, HTPLACES_BIN, "calibrate", NULL);
  refused(xml, "HWLOC_XMLFILE", "calibrate", r);
  run_free(&r);
}

/* ht_probe's lines "REGION THREAD LIST": every LIST a single PU? */
static int all_single(const char *out)
{
  const char *line = out;
  int n = 0;
  while (*line) {
    const char *end = strchr(line, '\n'), *last = end;
    if (!end)
      return 0;
    while (last > line && last[-1] != ' ')
      last--;
    if (memchr(last, ',', (size_t)(end - last)) || memchr(last, '-', (size_t)(end - last)))
      return 0;
    n++;
    line = end + 1;
  }
  return n > 0;
}

/* HWLOC_XMLFILE = this machine's own export: hwloc calls the topology not
 * this system and its binding calls do nothing.  omp_set_ht_policy must
 * then fail (ht_probe exits 1), never return 0 with threads unbound.  With
 * HWLOC_THISSYSTEM=1 hwloc binds for real, and so does omp_ext. */
static void test_api_never_success_without_binding(void)
{
  char path[] = "/tmp/omp_ext_own_XXXXXX";
  char xmlvar[64], *env[3], *env_this[3];
  hwloc_topology_t hw;
  struct run_result r;
  long npus = sysconf(_SC_NPROCESSORS_ONLN);
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  CU_ASSERT_FATAL(hwloc_topology_init(&hw) == 0 && hwloc_topology_load(hw) == 0);
  CU_ASSERT_FATAL(hwloc_topology_export_xml(hw, path, 0) == 0);
  hwloc_topology_destroy(hw);
  snprintf(xmlvar, sizeof(xmlvar), "HWLOC_XMLFILE=%s", path);
  env[0] = xmlvar;
  env[1] = unset_this;
  env[2] = NULL;
  r = run(env, HT_PROBE_BIN, "spn", NULL);
  if (r.status == 0 && npus > 1)
    fprintf(stderr, "\n  omp_set_ht_policy returned 0; threads: %s", r.out);
  CU_ASSERT(r.status != 0 || all_single(r.out));
  if (r.status != 0)
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "ht_probe: "));
  run_free(&r);
  env_this[0] = xmlvar;
  env_this[1] = "HWLOC_THISSYSTEM=1";
  env_this[2] = NULL;
  r = run(env_this, HT_PROBE_BIN, "spn", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT(all_single(r.out));
  run_free(&r);
  unlink(path);
}

/* omp_ext_share() weighs the threads' real bindings: on a machine that
 * hwloc's environment puts in place of this one it fails
 * (omp_ext_err_topology), as omp_set_ht_policy() does. */
static void test_share_refuses(void)
{
  char *const syn[] = {"HWLOC_SYNTHETIC=pack:1 core:4 pu:2", unset_this, NULL};
  char *const none[] = {unset_this, NULL};
  char want[160];
  struct run_result r = run(syn, HT_PROBE_BIN, "share", NULL);
  snprintf(want, sizeof(want), "ht_probe: omp_ext_share: %s\n",
           omp_ext_strerror(omp_ext_err_topology));
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, want);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  run_free(&r);
  r = run(none, HT_PROBE_BIN, "share", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "share 0 OK\n");
  run_free(&r);
}

static CU_TestInfo env_tests[] = {
  {"omp_ext_share refuses another machine's topology", test_share_refuses},
  {"printing commands say they describe another machine", test_printing_commands_say_so},
  {"exec, doctor, verify, calibrate refuse, naming the variable", test_acting_commands_refuse},
  {"omp_set_ht_policy never succeeds without binding", test_api_never_success_without_binding},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"hwloc environment replacing this machine", NULL, NULL, NULL, NULL, env_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
