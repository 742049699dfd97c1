/*
 * htplaces tune: how it reads and names the regions of real programs.
 * Crafted timing files: all of a run's files read ("%p"), regions keyed by
 * code address (two constructs of one name stay two), named after their
 * process when more than one recorded.  End to end, on programs built
 * without -g: a static function named from the symbol table; a C++
 * function whose mangled name has 180 characters, demangled; the program
 * behind `bash -c 'prog; true'` and `timeout`; a forked child's regions;
 * a program that pins its own threads under "none"; a program without a
 * parallel region is not called statically linked; --policies ...,auto:
 * auto's row beside the global ones, never recommended, and what it chose
 * per region from the timing files.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cunit_main.h"
#include "testutil.h"
#include "tune_int.h"

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
}

#define REGION(name, offset, total)                                                          \
  "  {\"name\": \"" name "\", \"kind\": \"parallel\", \"address\": \"0x1\", \"instances\": 2, " \
  "\"team_sizes\": [2], \"total_s\": " total ", \"mean_s\": 0.5, \"median_s\": 0.5, "         \
  "\"min_s\": 0.4, \"max_s\": 0.6, \"median_samples\": 2, \"module\": \"/nonexistent/app\", "  \
  "\"offset\": \"" offset "\"}"
#define FILE_OF(pid, started, serial, regions)                                               \
  "{\"omp_ext_timing\": 1, \"wall_s\": 2.5, \"regions_s\": 2.0, \"serial_s\": " serial ",\n"  \
  " \"pid\": " pid ", \"program\": \"/nonexistent/app\", \"started_s\": " started ",\n"        \
  " \"regions\": [\n" regions "\n]}\n"

/* A run's files under "%p": the process that recorded nothing wrote none;
 * two that did, of the same program, are "app" and "app#2" by start time;
 * two constructs named alike (app+0x10, app+0x20: the same function) are
 * two regions. */
static void test_read_run_files(void)
{
  char dir[] = "/tmp/test-tune-regions-XXXXXX", path[128], pattern[128], why[160];
  struct tune_config c;
  double serial;
  unsigned k;
  memset(&c, 0, sizeof(c));
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  snprintf(pattern, sizeof(pattern), "%s/timing.%%p.json", dir);
  /* one process: no label; two regions of one name, two keys */
  snprintf(path, sizeof(path), "%s/timing.300.json", dir);
  write_file(path, FILE_OF("300", "10.0", "0.5", REGION("work", "0x10", "1.0") ",\n"
                                                  REGION("work", "0x20", "2.0")));
  CU_ASSERT_EQUAL_FATAL(tune_read_timing(pattern, &c, &serial, why, sizeof(why)), 0);
  CU_ASSERT_DOUBLE_EQUAL(serial, 0.5, 1e-12);
  CU_ASSERT_EQUAL_FATAL(c.nregions, 2);
  CU_ASSERT_STRING_EQUAL(c.regions[0].key, "/nonexistent/app+0x10");
  CU_ASSERT_STRING_EQUAL(c.regions[1].key, "/nonexistent/app+0x20");
  CU_ASSERT_STRING_EQUAL(c.regions[0].name, "work"); /* (no such module: the file's name) */
  CU_ASSERT_STRING_EQUAL(c.regions[1].name, "work");
  CU_ASSERT_DOUBLE_EQUAL(c.regions[1].total_s[0], 2.0, 1e-12);
  CU_ASSERT_PTR_NULL(c.regions[1].round); /* (the run's round not given: none kept) */
  /* a run's round kept beside its total (reading_round: round + 1) */
  c.reading_round = 3;
  CU_ASSERT_EQUAL_FATAL(tune_read_timing(pattern, &c, &serial, why, sizeof(why)), 0);
  CU_ASSERT_EQUAL(c.regions[1].nruns, 2);
  CU_ASSERT_PTR_NULL(c.regions[1].round); /* (the first run's round unknown: rounds unused) */
  tune_free_regions(&c);
  memset(&c, 0, sizeof(c));
  for (k = 0; k < 5; k++) {
    c.reading_round = k + 1;
    CU_ASSERT_EQUAL_FATAL(tune_read_timing(pattern, &c, &serial, why, sizeof(why)), 0);
  }
  CU_ASSERT_EQUAL_FATAL(c.regions[1].nruns, 5);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c.regions[1].round);
  for (k = 0; k < 5; k++)
    CU_ASSERT_EQUAL(c.regions[1].round[k], k);
  tune_free_regions(&c);
  memset(&c, 0, sizeof(c));
  /* a temporary file and a foreign name do not count; a second process,
   * started first, is "app", the other "app#2" */
  snprintf(path, sizeof(path), "%s/timing.12.json.tmp-abcdef", dir);
  write_file(path, "{\"omp_ext_timing\": 1, ");
  snprintf(path, sizeof(path), "%s/timing.x.json", dir);
  write_file(path, "not json");
  snprintf(path, sizeof(path), "%s/timing.41.json", dir);
  write_file(path, FILE_OF("41", "9.0", "0.25", REGION("main", "0x30", "3.0")));
  CU_ASSERT_EQUAL_FATAL(tune_read_timing(pattern, &c, &serial, why, sizeof(why)), 0);
  CU_ASSERT_DOUBLE_EQUAL(serial, 0.25, 1e-12); /* the first process's */
  CU_ASSERT_EQUAL_FATAL(c.nregions, 3);
  CU_ASSERT_STRING_EQUAL(c.regions[0].key, "app: /nonexistent/app+0x30");
  CU_ASSERT_STRING_EQUAL(c.regions[0].name, "app: main");
  CU_ASSERT_STRING_EQUAL(c.regions[1].key, "app#2: /nonexistent/app+0x10");
  CU_ASSERT_STRING_EQUAL(c.regions[1].name, "app#2: work");
  CU_ASSERT_STRING_EQUAL(c.regions[2].name, "app#2: work");
  for (k = 0; k < c.nregions; k++)
    CU_ASSERT_EQUAL(c.regions[k].nruns, 1);
  tune_free_regions(&c);
  /* cleared: the run's files and the temporary one, not the foreign one */
  tune_clear_timing(pattern);
  CU_ASSERT_EQUAL(tune_read_timing(pattern, &c, &serial, why, sizeof(why)), -1);
  snprintf(path, sizeof(path), "%s/timing.12.json.tmp-abcdef", dir);
  CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
  snprintf(path, sizeof(path), "%s/timing.x.json", dir);
  CU_ASSERT_EQUAL(unlink(path), 0);
  CU_ASSERT_EQUAL(rmdir(dir), 0);
}

/* htplaces [-f json] tune --reps 3 --threads T --policies P -- argv... */
static void tune(struct run_result *res, int json, const char *threads, const char *policies,
                 char *const prog[])
{
  char *argv[40], asan[] = "ASAN_OPTIONS=verify_asan_link_order=0";
  char *env[] = {asan, NULL};
  unsigned k = 0;
  argv[k++] = HTPLACES_BIN;
  if (json)
    argv[k++] = "-f", argv[k++] = "json";
  argv[k++] = "tune", argv[k++] = "--reps", argv[k++] = "3";
  argv[k++] = "--threads", argv[k++] = (char *)threads;
  argv[k++] = "--policies", argv[k++] = (char *)policies;
  argv[k++] = "--";
  while (*prog && k < 39)
    argv[k++] = *prog++;
  argv[k] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, res), 0);
  CU_ASSERT_EQUAL(res->status, 0);
}

/* How many region objects of the JSON in out are named name (any key)
 * with that many instances. */
static unsigned count_region(const char *out, const char *name, unsigned long instances)
{
  char head[1024], inst[64];
  const char *p = out, *end;
  unsigned n = 0;
  snprintf(head, sizeof(head), "{\"name\": \"%s\", \"key\": \"", name);
  snprintf(inst, sizeof(inst), "\"instances\": %lu,", instances);
  while ((p = strstr(p, head)) != NULL) {
    const char *q;
    p += strlen(head);
    end = strchr(p, '}');
    if ((q = strstr(p, inst)) != NULL && end && q < end)
      n++;
  }
  return n;
}

/* A static function of a program without -g: its name from the symbol table. */
static void test_static_function(void)
{
  struct run_result res;
  char *prog[] = {TUNE_REGIONS_PROG_BIN, NULL};
  tune(&res, 1, "1", "none", prog);
  CU_ASSERT_EQUAL(count_region(res.out, "crunch_numbers", 3), 2);
  run_free(&res);
}

/* The program behind a wrapper script and behind timeout(1): its regions
 * read (the wrapper, which records nothing, writes no file over them). */
static void test_wrappers(void)
{
  struct run_result res;
  char script[600];
  char *bash[] = {"bash", "-c", script, NULL};
  char *timeout[] = {"timeout", "100", TUNE_REGIONS_PROG_BIN, NULL};
  snprintf(script, sizeof(script), "'%s'; true", TUNE_REGIONS_PROG_BIN);
  tune(&res, 1, "1", "none", bash);
  CU_ASSERT_EQUAL(count_region(res.out, "crunch_numbers", 3), 2);
  run_free(&res);
  tune(&res, 0, "1", "none", timeout);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "Parallel regions (omp_ext's timing layer"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\n  crunch_numbers "));
  CU_ASSERT_PTR_NULL(strstr(res.out, "statically"));
  run_free(&res);
}

/* A forked child's regions, named after their process (two recorded). */
static void test_forked_child(void)
{
  struct run_result res;
  char *prog[] = {TUNE_REGIONS_PROG_BIN, "fork", NULL};
  tune(&res, 1, "1", "none", prog);
  CU_ASSERT_EQUAL(count_region(res.out, "tune_names_prog: crunch_numbers", 3), 2);
  CU_ASSERT_EQUAL(count_region(res.out, "tune_names_prog#2: child_work", 2), 2);
  run_free(&res);
}

/* No parallel region: not "a statically linked program". */
static void test_no_region(void)
{
  struct run_result res;
  char *prog[] = {TUNE_REGIONS_PROG_BIN, "none", NULL};
  tune(&res, 0, "1", "none", prog);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "Parallel regions: none -- the timing layer watched every "
                                         "run and no parallel region ran"));
  CU_ASSERT_PTR_NULL(strstr(res.out, "statically"));
  run_free(&res);
  CU_ASSERT_STRING_EQUAL(tune_untimed_reason("/nonexistent/prog"),
                         "no parallel region ran, or the program's OpenMP runtime started no hook");
}

/* A program that pins its own threads: "none" is a bound baseline, said in
 * the table and the JSON; the same program unpinned is not. */
static void test_self_bound(void)
{
  struct run_result res;
  char *pin[] = {TUNE_REGIONS_PROG_BIN, "pin", NULL}, *plain[] = {TUNE_REGIONS_PROG_BIN, NULL};
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) < 2)
    return; /* (one CPU: pinned to it is not less than the run had) */
  tune(&res, 0, "2", "none", pin);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "note: under none 2 the program bound its own threads"));
  run_free(&res);
  tune(&res, 1, "2", "none", pin);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"self_bound\": true"));
  run_free(&res);
  tune(&res, 1, "2", "none", plain);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"self_bound\": false"));
  CU_ASSERT_PTR_NULL(strstr(res.out, "\"self_bound\": true"));
  run_free(&res);
}

/* C++ without -g, a function whose mangled name has 180 characters: the
 * region is there, named by its demangled function. */
static void test_cxx_long_name(void)
{
#ifdef TUNE_CXX_PROG_BIN
  struct run_result res;
  char *prog[] = {TUNE_CXX_PROG_BIN, NULL};
  const char *want =
    "very_long_namespace_name_for_testing::another_rather_long_inner_namespace::"
    "container_with_a_long_name<double>::compute_the_sum_of_all_the_elements_in_parallel("
    "std::vector<double, std::allocator<double> > const&, std::vector<double, "
    "std::allocator<double> > const&, int)";
  tune(&res, 1, "1", "none", prog);
  CU_ASSERT_EQUAL(count_region(res.out, want, 3), 2);
  run_free(&res);
#endif
}

/* A template method inlined into main (GROMACS' dispatchNonbondedKernel,
 * issue 33: named "main"): under GCC and libgomp its outlined body still
 * carries its name, which names the region, with the caller beside it;
 * clang's body is ".omp_outlined.", which names nothing: the caller. */
static void test_cxx_inlined_name(void)
{
#ifdef TUNE_CXX_PROG_BIN
  struct run_result res;
  char *prog[] = {TUNE_CXX_PROG_BIN, "inline", NULL};
  const char *method = "md::force_field<double>::dispatch_nonbonded_kernel(std::vector<double, "
                       "std::allocator<double> > const&, int)";
  char want[512];
  tune(&res, 1, "1", "none", prog);
  snprintf(want, sizeof(want), "%s (in main)", method);
  if (TUNE_CXX_GCC)
    CU_ASSERT_EQUAL(count_region(res.out, want, 3), 2)
  else
    CU_ASSERT_EQUAL(count_region(res.out, "main", 3), 2)
  if (count_region(res.out, TUNE_CXX_GCC ? want : "main", 3) != 2)
    fprintf(stderr, "\n%s\n", res.out);
  run_free(&res);
#endif
}

/* The names of outlined bodies and clones, as the symbol table has them. */
static void test_outlined_names(void)
{
  static const struct {
    const char *symbol, *source;
  } cases[] = {
    {"main._omp_fn.2", "main"},
    {"crunch_numbers.constprop.0._omp_fn.1", "crunch_numbers"},
    {"_ZN2md11force_fieldIdE25dispatch_nonbonded_kernelERKSt6vectorIdSaIdEEi._omp_fn.0",
     "md::force_field<double>::dispatch_nonbonded_kernel(std::vector<double, "
     "std::allocator<double> > const&, int)"},
    {"_Z5solvePdi.omp_outlined", "solve(double*, int)"},
    {"foo.omp_outlined_debug__", "foo"},
    {".omp_outlined.", NULL},
    {".omp_outlined._debug__", NULL},
    {"main", NULL},
  };
  unsigned i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char *got = tune_outlined_source(cases[i].symbol);
    if (cases[i].source)
      CU_ASSERT(got && strcmp(got, cases[i].source) == 0)
    else
      CU_ASSERT_PTR_NULL(got)
    if (cases[i].source ? !got || strcmp(got, cases[i].source) : got != NULL)
      fprintf(stderr, "\n%s: got '%s'\n", cases[i].symbol, got ? got : "(null)");
    free(got);
  }
}

/* The text after needle in hay, up to the next '"' (static buffer; "" when
 * needle is not there). */
static const char *string_after(const char *hay, const char *needle)
{
  static char buf[128];
  const char *p = strstr(hay, needle);
  size_t n = 0;
  buf[0] = '\0';
  if (p)
    for (p += strlen(needle); p[n] && p[n] != '"' && n + 1 < sizeof(buf); n++)
      buf[n] = p[n];
  buf[n] = '\0';
  return buf;
}

/* auto's label is one of auto's candidates: POLICY:N (a policy with an
 * order, or none: the team unbound) with N in 1..npus, maybe " exploring". */
static int auto_label(const char *text, unsigned npus)
{
  char policy[32];
  unsigned n;
  omp_ht_policy_t p;
  if (sscanf(text, "%31[a-z]:%u", policy, &n) != 2 || n < 1 || n > npus)
    return 0;
  return strcmp(policy, "none") == 0 || /* (the team unbound, measured best) */
         (omp_ext_policy_from_name(policy, &p) == 0 && omp_ext_policy_has_order(p) == 1);
}

/* --policies spn,auto on region_probe (two regions, 400 instances each):
 * auto's configuration (index 1: after spn 1) is in the table and the JSON,
 * run with OMP_EXT_HT_POLICY=auto, compared with the fastest global one, and
 * never recommended nor a region's best; each region's line says what auto
 * chose for it, as the timing files recorded. */
static void test_auto_beside(void)
{
  struct run_result res;
  char *prog[] = {REGION_PROBE_BIN, "400", NULL};
  cpu_set_t set;
  const char *p;
  unsigned npus, regions = 0;
  CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(set), &set), 0);
  npus = (unsigned)CPU_COUNT(&set);
  tune(&res, 1, "1", "spn,auto", prog);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "{\"index\": 1, \"label\": \"auto\", \"policy\": "
                                         "\"auto\", \"policies\": [\"auto\"], "));
  CU_ASSERT_PTR_NULL(strstr(res.out, "{\"index\": 2,")); /* one auto, one spn */
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"self_bound\": false, \"run_time\": true"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"self_bound\": false, \"run_time\": false"));
  /* recommended: spn 1, the one global configuration; auto in no tie list */
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"recommendation\": {\"objective\": \"time\", "
                                         "\"best\": 0, \"runner_up\": null, \"fastest\": 0, "
                                         "\"tied\": [0]"));
  CU_ASSERT_PTR_NULL(strstr(res.out, "\"best\": 1"));
  /* every region: auto's choice (a candidate's label) and its total */
  for (p = res.out; (p = strstr(p, "\"auto\": {\"config\": \"")) != NULL; p++) {
    const char *label = string_after(p, "\"auto\": {\"config\": \"");
    CU_ASSERT(auto_label(label, npus));
    if (!auto_label(label, npus))
      fprintf(stderr, "\n  auto chose '%s'", label);
    CU_ASSERT_PTR_NOT_NULL(strstr(p, "\"total_s\": "));
    regions++;
  }
  CU_ASSERT_EQUAL(regions, 2);
  CU_ASSERT_PTR_NULL(strstr(res.out, "\"auto\": null"));
  /* the configuration's own regions carry each run's total and round */
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"rounds\": [0, 1, 2], \"totals_s\": ["));
  /* the configuration's own regions carry the same "control" */
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\"control\": \""));
  if (!res.status && regions != 2)
    fprintf(stderr, "\n%s", res.out);
  run_free(&res);
  tune(&res, 0, "1", "spn,auto", prog);
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "\nauto    "));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "auto: OMP_EXT_HT_POLICY=auto, libomp_ext preloaded"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "never recommended"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "  auto chose, total\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(res.out, "Recommendation:\n  time: spn 1 (median "));
  run_free(&res);
}

static CU_TestInfo tests[] = {
  {"a run's files: keys by address, labels by process, cleared", test_read_run_files},
  {"a static function named without -g", test_static_function},
  {"behind bash -c 'prog; true' and timeout", test_wrappers},
  {"a forked child's regions", test_forked_child},
  {"no parallel region: not called statically linked", test_no_region},
  {"a program that pins its own threads under none", test_self_bound},
  {"C++ without -g, a 180-character mangled name: demangled", test_cxx_long_name},
  {"C++ method inlined into main: its outlined body names it", test_cxx_inlined_name},
  {"outlined bodies' source functions", test_outlined_names},
  {"--policies spn,auto: auto beside, never recommended", test_auto_beside},
  CU_TEST_INFO_NULL};

static CU_SuiteInfo suites[] = {{"tune regions", NULL, NULL, NULL, NULL, tests},
                                CU_SUITE_INFO_NULL};

OMP_EXT_CUNIT_MAIN(suites)
