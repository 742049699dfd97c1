/*
 * htplaces, the command: outputs on the paper's machines (-i) and every bad
 * input's one-line message, empty stdout and exit status.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "testutil.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"

/* Run htplaces with up to 8 arguments (NULL-terminated). */
static struct run_result htplaces(const char *a0, ...)
{
  char *argv[16] = {HTPLACES_BIN};
  struct run_result res;
  va_list ap;
  unsigned i = 1;
  va_start(ap, a0);
  for (const char *a = a0; a && i < 15; a = va_arg(ap, const char *))
    argv[i++] = (char *)a;
  va_end(ap);
  argv[i] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, NULL, &res), 0);
  return res;
}

#define ASSERT_OUT(expected, ...)                         \
  do {                                                    \
    struct run_result r_ = htplaces(__VA_ARGS__, NULL);   \
    CU_ASSERT_EQUAL(r_.status, 0);                        \
    CU_ASSERT_STRING_EQUAL(r_.out, expected);             \
    CU_ASSERT_STRING_EQUAL(r_.err, "");                   \
    run_free(&r_);                                        \
  } while (0)

/* A bad input: exit status, empty stdout, one stderr line starting
 * "htplaces: " and containing `needle`. */
#define ASSERT_BAD(status_, needle, ...)                          \
  do {                                                            \
    struct run_result r_ = htplaces(__VA_ARGS__, NULL);           \
    CU_ASSERT_EQUAL(r_.status, status_);                          \
    CU_ASSERT_STRING_EQUAL(r_.out, "");                           \
    CU_ASSERT_EQUAL(strncmp(r_.err, "htplaces: ", 10), 0);        \
    CU_ASSERT_EQUAL(count_lines(r_.err), 1);                      \
    CU_ASSERT_PTR_NOT_NULL(strstr(r_.err, needle));               \
    if (r_.status != status_ || !strstr(r_.err, needle))          \
      fprintf(stderr, "\n  got %d: %s", r_.status, r_.err);       \
    run_free(&r_);                                                \
  } while (0)

static void test_policies(void)
{
  ASSERT_OUT("{0},{8},{1},{9},{2},{10},{3},{11}\n", "-i", C6100, "spn", "8");
  ASSERT_OUT("{0},{1},{2},{3},{4},{5},{6},{7}\n", "-i", C6100, "speedup", "8");
  ASSERT_OUT("{0},{4},{1},{5},{2},{6},{3},{7}\n", "-i", C6100, "spread", "8");
  ASSERT_OUT("{0},{1},{2}\n", "--input", C6100, "os", "3");
  /* options after the policy, N defaulting to all allowed PUs */
  ASSERT_OUT("0,8,1,9,2,10,3,11,4,12,5,13,6,14,7,15\n", "spn", "-i", C6100, "--format", "list");
}

static void test_formats(void)
{
  ASSERT_OUT("0 8 1 9\n", "-i", C6100, "-f", "gomp", "spn", "4");
  ASSERT_OUT("granularity=fine,explicit,proclist=[0,8,1,9]\n", "-i", C6100, "--format=kmp", "spn", "4");
  ASSERT_OUT("0,8\n", "-i", C6100, "-f", "list", "spn", "2");
  ASSERT_OUT("[{\"thread\":0,\"pu\":4,\"pu_logical\":8,\"core\":4,\"core_os\":4,\"package\":1,"
             "\"numa\":0,\"sibling\":0,\"kind\":0}]\n",
             "-i", C6100, "-r", "4-7", "-f", "json", "spread", "1");
  ASSERT_OUT("export OMP_PLACES='{0},{8},{1},{9}' OMP_PROC_BIND=close OMP_NUM_THREADS=4\n",
             "-i", C6100, "--export", "spn", "4");
  ASSERT_OUT("{1},{9},{2},{10}\n", "-i", C6100, "--restrict", "1-2,9-10", "spn");
  ASSERT_OUT("{12},{13},{14},{15}\n", "-i", C6100, "--restrict", "12-", "os");
  ASSERT_OUT("export KMP_AFFINITY='granularity=fine,explicit,proclist=[0,8,1,9]' OMP_NUM_THREADS=4\n",
             "-i", C6100, "-e", "-f", "kmp", "spn", "4");
  ASSERT_OUT("export GOMP_CPU_AFFINITY='0 1 2 3' OMP_NUM_THREADS=4\n",
             "-i", C6100, "-e", "-f", "gomp", "speedup", "4");
}

/* -f means one thing everywhere: the common option stores the name, before
 * or after the command, and each command checks it against its own list. */
static void test_format_anywhere(void)
{
  struct run_result a, b;
  ASSERT_OUT("0 8 1 9\n", "-i", C6100, "spn", "4", "-f", "gomp");
  ASSERT_OUT("0 8 1 9\n", "-f", "list", "-i", C6100, "spn", "4", "-f", "gomp"); /* last wins */
  a = htplaces("-i", C6100, "-f", "csv", "model", "spn", NULL);
  b = htplaces("-i", C6100, "model", "-f", "csv", "spn", NULL);
  CU_ASSERT_EQUAL(a.status, 0);
  CU_ASSERT_EQUAL(b.status, 0);
  CU_ASSERT_EQUAL(strncmp(a.out, "policy,n,packages,", 18), 0);
  CU_ASSERT_STRING_EQUAL(a.out, b.out);
  CU_ASSERT_STRING_EQUAL(a.err, "");
  run_free(&a);
  run_free(&b);
  ASSERT_BAD(2, "unknown format 'csv'; allowed: omp, gomp, kmp, list, json", "-i", C6100, "-f",
             "csv", "spn");
  ASSERT_BAD(2, "unknown format 'omp' for 'model'; allowed: table, csv, json", "-i", C6100, "-f",
             "omp", "model");
  ASSERT_BAD(2, "unknown format 'xml' for 'model'; allowed: table, csv, json", "-i", C6100,
             "model", "--format", "xml");
  ASSERT_BAD(2, "--format and --export apply to 'htplaces POLICY [N]', not to 'topo'", "-i",
             C6100, "topo", "-f", "json");
  ASSERT_BAD(2, "unknown format 'gomp' for 'check'; allowed: text, json", "-i",
             C6100, "-f", "gomp", "check", "0");
}

static void test_show_topo_list(void)
{
  struct run_result r = htplaces("-i", C6100, "show", "spn", "3", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "spn: 3 threads on 16 allowed PUs (8 cores)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Package L#1\n"));
  CU_ASSERT_PTR_NULL(strstr(r.out, "NUMANode")); /* one NUMA node: no NUMA lines */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Core L#0    PU P#0    t0     PU P#8    t1"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Core L#1    PU P#1    t2     PU P#9    -"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Core L#7    PU P#7    -      PU P#15   -"));
  run_free(&r);

  r = htplaces("-i", C6100, "topo", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "packages:  2\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cores:     8\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "siblings:  far +8 "));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "allowed:   0-15\n"));
  run_free(&r);

  r = htplaces("-i", "pack:2 core:4 pu:2", "topo", NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "siblings:  adjacent"));
  run_free(&r);
  r = htplaces("-i", "pack:1 core:4 pu:1", "topo", NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "siblings:  none"));
  run_free(&r);
  r = htplaces("-i", OMP_EXT_TEST_DIR "/topologies/intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml",
               "topo", NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "CPU kinds: 2\nkind 0 (most performant): 6 cores, 12 PUs, 2 PU(s) per core"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "kind 1: 8 cores, 8 PUs, 1 PU(s) per core"));
  run_free(&r);
  /* Only the E-cores allowed: their kind, no empty kind 0 (was "0 cores, 0
   * PUs, 4294967295-0 PU(s) per core"). */
  r = htplaces("-i", OMP_EXT_TEST_DIR "/topologies/intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml",
               "-r", "12-19", "topo", NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "CPU kinds: 1\nkind 1 (most performant): 8 cores, 8 PUs, 1 PU(s) per core"));
  CU_ASSERT_PTR_NULL(strstr(r.out, "4294967295"));
  run_free(&r);

  r = htplaces("list", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(count_lines(r.out), 6); /* os speedup spn spread energy auto */
  CU_ASSERT_EQUAL(strncmp(r.out, "os ", 3), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nspn "));
  /* auto: the run-time policy, last, its one line saying it has no list */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nauto      run time only, no place list: "));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(OMP_EXT_HT_POLICY=auto)\n"));
  run_free(&r);

  r = htplaces("--version", NULL);
  CU_ASSERT_EQUAL(strncmp(r.out, "htplaces 0.1.0 (hwloc ", 22), 0);
  run_free(&r);
  r = htplaces("--help", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Usage: htplaces [options] POLICY [N]"));
  run_free(&r);
}

/* A topology without a Package object (a PS3's Cell, some VMs): the cores
 * hang below the machine, and the pictures say so (they said "Package
 * L#0"); the model still counts one package. */
static void test_no_package(void)
{
  struct run_result r = htplaces("-i", "core:2 pu:2", "show", "spn", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nMachine L#0\n    Core L#0"));
  CU_ASSERT_PTR_NULL(strstr(r.out, "Package"));
  run_free(&r);
  r = htplaces("-i", "core:2 pu:2", "topo", NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "packages:  1 (no Package object in the topology: the "
                                       "machine counts as one)\n"));
  run_free(&r);
  r = htplaces("-i", "core:2 pu:2", "check", "{0},{2}", NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Machine L#0"));
  run_free(&r);
  r = htplaces("-i", "pack:1 core:2 pu:2", "show", "spn", NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nPackage L#0\n"));
  run_free(&r);
}

static void test_this_machine(void)
{
  /* N defaults to all allowed PUs; the default list has one place each. */
  struct run_result r = htplaces("spn", NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(r.out[0], '{');
  CU_ASSERT_EQUAL(count_lines(r.out), 1);
  run_free(&r);
}

static void test_bad_policy_and_n(void)
{
  ASSERT_BAD(2, "unknown policy or command 'banana'", "banana");
  ASSERT_BAD(2, "unknown policy 'banana'; allowed: os, speedup, spn, spread", "show", "banana");
  /* exec takes auto and --plan too: its list says so (it omitted them) */
  ASSERT_BAD(2, "unknown policy 'AUTO'; allowed: os, speedup, spn, spread, energy, "
             "auto[:time|:energy][:threads] (or exec --plan DIR|FILE)", "exec", "AUTO", "--", "true");
  /* per-region options: a missing value, after a policy, a folder no file
   * can be made in (found by the new-user pass: "--learn --" made a folder
   * named "--", "exec spn --learn D" said "unexpected argument 'D'") */
  ASSERT_BAD(2, "option '--learn' needs a value before '--'", "exec", "auto", "--learn", "--",
             "true");
  ASSERT_BAD(2, "option '--plan' needs a value before '--'", "exec", "--plan", "--", "true");
  ASSERT_BAD(2, "--learn applies to per-region control, not to a policy ('spn')", "exec", "spn",
             "--learn", "d", "--", "true");
  ASSERT_BAD(2, "--team-sizes applies to per-region control, not to a policy ('spn')", "exec",
             "spn", "--team-sizes", "--", "true");
  ASSERT_BAD(2, "--plan takes no POLICY or N ('spn')", "exec", "spn", "2", "--plan", "x", "--",
             "true");
  ASSERT_BAD(2, "--learn /sys: cannot make a file there", "exec", "auto", "--learn", "/sys", "--",
             "true");
  /* a file that is neither a plan nor JSON: what --plan takes (it said only
   * "'[' or '{' expected") */
  ASSERT_BAD(2, "not a plan file, nor JSON (line 1: ", "exec", "--plan",
             OMP_EXT_TEST_DIR "/test_htplaces.c", "--", "true");
  ASSERT_BAD(2, "or a plan file (first line 'omp_ext_plan 2')", "exec", "--plan",
             OMP_EXT_TEST_DIR "/test_htplaces.c", "--", "true");
  ASSERT_BAD(2, "missing POLICY", "-i", C6100);
  ASSERT_BAD(2, "N must be a positive whole number, got '0'", "-i", C6100, "spn", "0");
  ASSERT_BAD(2, "N must be a positive whole number, got 'abc'", "-i", C6100, "spn", "abc");
  ASSERT_BAD(2, "N must be a positive whole number", "-i", C6100, "spn", "-3");
  ASSERT_BAD(2, "N must be a positive whole number, got '3.5'", "-i", C6100, "spn", "3.5");
  ASSERT_BAD(2, "N must be a positive whole number, got '+1'", "-i", C6100, "spn", "+1");
  ASSERT_BAD(2, "N=17 is larger than the 16 allowed PUs; allowed: 1..16", "-i", C6100, "spn", "17");
  ASSERT_BAD(2, "is larger than the 16 allowed PUs", "-i", C6100, "spn", "99999999999999999999999");
  ASSERT_BAD(2, "N=4294967297 is larger than the 16 allowed PUs", "-i", C6100, "spn", "4294967297");
  ASSERT_BAD(2, "N=18446744073709551616 is larger", "-i", C6100, "spn", "18446744073709551616");
  ASSERT_BAD(2, "--ranks-per-node must be a whole number 1..8", "-i", C6100, "--ranks-per-node",
             "4294967297", "spn");
  ASSERT_BAD(2, "--local-rank must be a whole number 0..1", "-i", C6100, "--ranks-per-node", "2",
             "--local-rank", "4294967296", "spn");
  ASSERT_BAD(2, "unexpected argument '2'", "-i", C6100, "spn", "1", "2");
}

static void test_bad_topology(void)
{
  char path[] = "/tmp/omp_ext_bad_XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  CU_ASSERT_EQUAL(write(fd, "<topology version=\"2.0\"><object", 32), 32);
  close(fd);
  ASSERT_BAD(1, "cannot load topology '/no/such/file.xml'", "-i", "/no/such/file.xml", "spn");
  ASSERT_BAD(1, "not a valid hwloc XML file", "-i", path, "spn");
  /* a bad synthetic string is a bad argument (2), as an oversized one;
   * counts are digits only ("-1" is not 2^64 - 1 PUs, "more than 65536
   * PUs" on main), a zero count is hwloc's to refuse (exit 1 on main) */
  ASSERT_BAD(2, "cannot load topology 'pack:2 banana:4': not an existing file nor a valid hwloc "
             "synthetic string", "-i", "pack:2 banana:4", "spn");
  ASSERT_BAD(2, "cannot load topology 'pu:-1': not an existing file nor a valid hwloc synthetic",
             "-i", "pu:-1", "spn");
  ASSERT_BAD(2, "cannot load topology 'pack:2 core:-3': not an existing file nor a valid", "-i",
             "pack:2 core:-3", "spn");
  ASSERT_BAD(2, "cannot load topology 'core:0': not an existing file nor a valid hwloc", "-i",
             "core:0", "spn");
  ASSERT_BAD(2, "cannot load topology 'foo': not an existing file nor a valid hwloc", "-i", "foo",
             "spn");
  ASSERT_BAD(1, "cannot load topology '/no/such/file.xml': No such file or directory", "-i",
             "/no/such/file.xml", "spn");
  ASSERT_BAD(1, "it is a directory", "-i", OMP_EXT_TEST_DIR, "spn");
  ASSERT_BAD(1, "not a regular file", "-i", "/dev/null", "spn");
  unlink(path);
}

/* A synthetic topology above OMP_EXT_TOPO_MAX_PUS (65536 PUs) is refused
 * before hwloc builds it (on main, hwloc built it: 65538 PUs took half a
 * minute and printed {0}; 10^9 PUs grew until memory ran out).  The
 * timeout only guards the machine running the test (10^9 PUs). */
static void test_topology_too_large(void)
{
  char *huge[] = {"timeout", "60", HTPLACES_BIN, "-i", "pack:1000 core:1000 pu:1000", "spn", "1",
                  NULL};
  char *env_huge[] = {"HWLOC_SYNTHETIC=pack:1000 core:1000 pu:1000", NULL};
  char *by_env[] = {"timeout", "60", HTPLACES_BIN, "spn", "1", NULL};
  struct run_result r;
  omp_ext_topo_t *topo = NULL;
  ASSERT_BAD(2, "cannot load topology 'pack:2 core:32769 pu:1': more than 65536 PUs", "-i",
             "pack:2 core:32769 pu:1", "spn", "1");
  ASSERT_BAD(2, "more than 65536 PUs", "-i", "pack:2(indexes=0,1) core:2 pu:16385", "spn");
  CU_ASSERT_EQUAL_FATAL(run_capture(huge, NULL, &r), 0);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "more than 65536 PUs (omp_ext's limit"));
  run_free(&r);
  CU_ASSERT_EQUAL_FATAL(run_capture(by_env, env_huge, &r), 0);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "from HWLOC_SYNTHETIC or HWLOC_XMLFILE: more than 65536"));
  run_free(&r);
  /* the library: refused, and memory children ([numa]) are not PUs */
  CU_ASSERT_EQUAL(omp_ext_topo_load(&topo, "pu:65537", 0), omp_ext_err_too_large);
  CU_ASSERT_PTR_NULL(topo);
  CU_ASSERT_EQUAL(omp_ext_topo_load(&topo, "pack:2 [numa(memory=1000000)] core:2 pu:2", 0), 0);
  CU_ASSERT_EQUAL(omp_ext_topo_npus(topo), 8u);
  omp_ext_topo_destroy(topo);
  CU_ASSERT_STRING_EQUAL(omp_ext_strerror(omp_ext_err_too_large),
                         "the topology has more than 65536 PUs (omp_ext's limit)");
}

static void test_bad_options(void)
{
  ASSERT_BAD(2, "unknown option '--bogus'", "--bogus", "spn");
  ASSERT_BAD(2, "unknown option '-z'", "spn", "-z");
  ASSERT_BAD(2, "unknown format 'xml'; allowed: omp, gomp, kmp, list, json", "spn", "-f", "xml");
  ASSERT_BAD(2, "option '-i' needs a value", "spn", "-i");
  ASSERT_BAD(2, "invalid --restrict list 'x'", "-r", "x", "spn");
  ASSERT_BAD(2, "invalid --restrict list '0-3,,8'", "-r", "0-3,,8", "spn");
  ASSERT_BAD(2, "invalid --restrict list '-1'", "-r", "-1", "spn");
  ASSERT_BAD(2, "invalid --restrict list '2-1'", "-r", "2-1", "spn");
  /* no index wraps (main: -r 4294967297 printed {1}, 4294967296 {0}) */
  ASSERT_BAD(2, "invalid --restrict list '4294967297': PU 4294967297 is above 65535", "-r",
             "4294967297", "spn");
  ASSERT_BAD(2, "invalid --restrict list '0,4294967296': PU 4294967296 is above 65535", "-r",
             "0,4294967296", "spn");
  ASSERT_BAD(2, "invalid --restrict list '4294967295': PU 4294967295 is above 65535", "-r",
             "4294967295", "spn");
  ASSERT_BAD(2, "PU 18446744073709551616 is above 65535", "-r", "0-18446744073709551616", "spn");
  ASSERT_BAD(2, "PU 65536 is above 65535", "-r", "65536", "spn");
  ASSERT_BAD(2, "--restrict 65535 leaves no allowed PU", "-i", C6100, "-r", "65535", "spn");
  ASSERT_BAD(2, "PU 4294967297 is above 65535", "exec", "-r", "4294967297", "spn", "--", "true");
  ASSERT_BAD(2, "--restrict 100 leaves no allowed PU; allowed PUs: 0-15", "-i", C6100, "-r",
             "100", "spn");
  ASSERT_BAD(2, "--restrict given twice", "-r", "0", "-r", "1", "spn");
  ASSERT_BAD(2, "empty --input", "-i", "", "spn");
  ASSERT_BAD(2, "--input given twice", "-i", C6100, "spn", "-i", C6100);
  ASSERT_BAD(2, "use it with --format omp, gomp or kmp, not list", "-e", "-f", "list", "spn");
  /* user text with a newline still gives one line */
  ASSERT_BAD(2, "got '2?x'", "-i", C6100, "spn", "2\nx");
  ASSERT_BAD(2, "minus sign", "-i", C6100, "spn", "-0");
  ASSERT_BAD(2, "--format and --export apply to", "-f", "json", "show", "spn");
  ASSERT_BAD(2, "'topo' takes no argument", "topo", "x");
  ASSERT_BAD(2, "list: unknown 'x'; allowed: policies, commands, runtimes", "list", "x");
  ASSERT_BAD(2, "'list commands' takes no other argument, got 'x'", "list", "commands", "x");
  ASSERT_BAD(2, "list options: unknown command or policy 'x'", "list", "options", "x");
  ASSERT_BAD(2, "missing POLICY or command", "-i", C6100);
  /* auto is a policy, but run time only: no place list, whatever asks one */
  ASSERT_BAD(2, "policy 'auto' is run time only (per region, as the program runs: "
                "htplaces exec auto -- PROGRAM, OMP_EXT_HT_POLICY=auto, or htplaces exec "
                "--plan) and has no place list; "
                "allowed here: os, speedup, spn, spread, energy", "-i", C6100, "auto", "4");
  ASSERT_BAD(2, "policy 'auto' is run time only", "-i", C6100, "auto");
  ASSERT_BAD(2, "policy 'auto' is run time only", "-i", C6100, "show", "auto");
  ASSERT_BAD(2, "policy 'auto' is run time only", "-i", C6100, "model", "spn", "auto");
  /* exec runs auto (test_region: the tuner on), but takes no N or other option */
  ASSERT_BAD(2, "auto takes no N ('2'): it keeps each region's team (OpenMP's rules; "
             "auto:threads lets it choose smaller ones)", "exec", "auto", "2", "--", "true");
  ASSERT_BAD(2, "unknown option in 'auto:speed'; allowed: auto, auto:time, auto:energy, each "
             "optionally followed by :threads", "exec", "auto:speed", "--", "true");
  ASSERT_BAD(2, "unknown option in 'auto:time:energy'", "exec", "auto:time:energy", "--",
             "true");
  ASSERT_BAD(2, "--learn applies to auto only", "exec", "--learn", "/tmp", "spn", "--", "true");
  ASSERT_BAD(2, "--team-sizes applies to auto and --plan only", "exec", "--team-sizes", "spn",
             "--", "true");
}

static CU_TestInfo output_tests[] = {
  {"policies on the C6100", test_policies},
  {"formats, --export, --restrict", test_formats},
  {"no Package object: the machine holds the cores", test_no_package},
  {"-f before or after the command", test_format_anywhere},
  {"show, topo, list, --version, --help", test_show_topo_list},
  {"this machine", test_this_machine},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo error_tests[] = {
  {"bad policy and N", test_bad_policy_and_n},
  {"bad topology", test_bad_topology},
  {"topology above 65536 PUs refused at once", test_topology_too_large},
  {"bad options", test_bad_options},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"htplaces output", NULL, NULL, NULL, NULL, output_tests},
  {"htplaces errors", NULL, NULL, NULL, NULL, error_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
