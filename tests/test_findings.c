/*
 * Findings as data: htplaces check's and doctor's analysis functions
 * (omp_ext/htplaces/analysis.h) called directly on crafted inputs -- the
 * paper's C6100 string, real-machine fixtures, crafted sysfs and cgroup
 * folders, crafted environments -- asserting each finding's kind, position
 * and values; and the library's private helpers they share (util.h: the
 * whole-number parser, the environment lookup, the sysfs readers).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "cunit_main.h"
#include "fakefs.h"
#include "misc.h"
#include "private/util.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"
#define FIXTURE(name) OMP_EXT_TEST_DIR "/topologies/" name

static char root[] = "/tmp/htplaces-findings-XXXXXX";

static int setup(void)
{
  int err = 0;
  if (!mkdtemp(root))
    return 1;
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/smt/control", "off");
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/smt/active", "0");
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/online", "0-1");
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/offline", "2-3");
  err |= fakefs_put(root, "sys-smtoff/devices/system/cpu/present", "0-3");
  err |= fakefs_put(root, "sys-plain/devices/system/cpu/smt/control", "notsupported");
  err |= fakefs_put(root, "sys-plain/devices/system/cpu/online", "0-1");
  err |= fakefs_put(root, "sys-plain/devices/system/cpu/offline", "");
  err |= fakefs_put(root, "sys-plain/devices/system/cpu/present", "0-1");
  err |= fakefs_put(root, "sys-bad/devices/system/cpu/online", "0-x");
  err |= fakefs_cgroups(root); /* cg2, cg2n, cg2c, cg1, cg1none */
  err |= fakefs_put_raw(root, "files/spaces", "on  \n");
  err |= fakefs_put_raw(root, "files/empty", "");
  err |= fakefs_put_raw(root, "files/list", "0-3,8\n");
  return err != 0;
}

static int teardown(void)
{
  return fakefs_remove(root) != 0;
}

static char *path_in(char *buf, size_t len, const char *rel)
{
  snprintf(buf, len, "%s/%s", root, rel);
  return buf;
}

/* ---- util.h ---- */

static void test_parse_uint(void)
{
  unsigned long long v = 7;
  const char *end;
  CU_ASSERT_EQUAL(omp_ext_parse_uint("0", 0, 10, &v), OMP_EXT_UINT_OK);
  CU_ASSERT_EQUAL(v, 0);
  CU_ASSERT_EQUAL(omp_ext_parse_uint("0042", 0, 100, &v), OMP_EXT_UINT_OK);
  CU_ASSERT_EQUAL(v, 42);
  CU_ASSERT_EQUAL(omp_ext_parse_uint("18446744073709551615", 0, ~0ULL, &v), OMP_EXT_UINT_OK);
  CU_ASSERT_EQUAL(v, ~0ULL);
  CU_ASSERT_EQUAL(omp_ext_parse_uint("18446744073709551616", 0, ~0ULL, &v), OMP_EXT_UINT_ABOVE);
  CU_ASSERT_EQUAL(omp_ext_parse_uint("11", 1, 10, &v), OMP_EXT_UINT_ABOVE);
  CU_ASSERT_EQUAL(omp_ext_parse_uint("0", 1, 10, &v), OMP_EXT_UINT_BELOW);
  CU_ASSERT_EQUAL(omp_ext_parse_uint("5", 0, 0, &v), OMP_EXT_UINT_ABOVE);
  /* Digits only: no sign, space, radix prefix, or trailing text. */
  {
    static const char *const bad[] = {"", " 1", "1 ", "+1", "-1", "0x10", "1e3", "12a", "١"};
    unsigned i;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
      CU_ASSERT_EQUAL(omp_ext_parse_uint(bad[i], 0, 100, &v), OMP_EXT_UINT_MALFORMED);
  }
  CU_ASSERT_EQUAL(omp_ext_parse_uint(NULL, 0, 100, &v), OMP_EXT_UINT_MALFORMED);
  /* scan: a prefix, *end after it; above max still moves *end. */
  CU_ASSERT_EQUAL(omp_ext_scan_uint("4(x2)", &end, 100, &v), OMP_EXT_UINT_OK);
  CU_ASSERT_EQUAL(v, 4);
  CU_ASSERT_STRING_EQUAL(end, "(x2)");
  CU_ASSERT_EQUAL(omp_ext_scan_uint("999,1", &end, 100, &v), OMP_EXT_UINT_ABOVE);
  CU_ASSERT_STRING_EQUAL(end, ",1");
  CU_ASSERT_EQUAL(omp_ext_scan_uint("x", &end, 100, &v), OMP_EXT_UINT_MALFORMED);
  CU_ASSERT_STRING_EQUAL(end, "x");
}

/* The one CPU-list parser (-r, the kernel's lists, the threads' reports):
 * strict syntax, no index wraps modulo 2^32 (hwloc_bitmap_list_sscanf
 * read 4294967297 as 1). */
static void test_parse_cpulist(void)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  const char *above = NULL;
  char *text = NULL;
  CU_ASSERT_EQUAL(omp_ext_parse_cpulist("0-3,8", 65535, set, NULL), OMP_EXT_UINT_OK);
  hwloc_bitmap_list_asprintf(&text, set);
  CU_ASSERT_STRING_EQUAL(text, "0-3,8");
  free(text);
  CU_ASSERT_EQUAL(omp_ext_parse_cpulist("", 65535, set, NULL), OMP_EXT_UINT_OK);
  CU_ASSERT(hwloc_bitmap_iszero(set));
  CU_ASSERT_EQUAL(omp_ext_parse_cpulist("4-", 65535, set, NULL), OMP_EXT_UINT_OK);
  CU_ASSERT(hwloc_bitmap_isset(set, 4) && !hwloc_bitmap_isset(set, 3) && hwloc_bitmap_isset(set, 1000));
  CU_ASSERT_EQUAL(omp_ext_parse_cpulist("65535", 65535, set, NULL), OMP_EXT_UINT_OK);
  CU_ASSERT_EQUAL(hwloc_bitmap_first(set), 65535);
  {
    static const char *const big[] = {"4294967295", "4294967296", "4294967297",
                                      "18446744073709551616", "1,65536", "0-4294967297"};
    static const char *const bad[] = {"x", "1,,2", ",1", "1,", "-1", "2-1", "1-2-3", " 1",
                                      "+1", "0x3", "1;2"};
    unsigned i;
    for (i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
      CU_ASSERT_EQUAL(omp_ext_parse_cpulist(big[i], 65535, set, &above), OMP_EXT_UINT_ABOVE);
      CU_ASSERT_PTR_NOT_NULL(above);
      CU_ASSERT(above && strspn(above, "0123456789") >= 5);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
      CU_ASSERT_EQUAL(omp_ext_parse_cpulist(bad[i], 65535, set, NULL), OMP_EXT_UINT_MALFORMED);
  }
  hwloc_bitmap_free(set);
}

static void test_env_get(void)
{
  char *envp[] = {"OMP_PLACESX=1", "OMP_PLACES=cores", "EMPTY=", NULL};
  CU_ASSERT_STRING_EQUAL(omp_ext_env_get(envp, "OMP_PLACES"), "cores");
  CU_ASSERT_STRING_EQUAL(omp_ext_env_get(envp, "EMPTY"), "");
  CU_ASSERT_PTR_NULL(omp_ext_env_get(envp, "OMP_PLACE"));
  CU_ASSERT_PTR_NULL(omp_ext_env_get(envp, "KMP_AFFINITY"));
  setenv("HTP_FINDINGS_TEST", "yes", 1);
  CU_ASSERT_STRING_EQUAL(omp_ext_env_get(NULL, "HTP_FINDINGS_TEST"), "yes");
}

static void test_sysfs_readers(void)
{
  char dir[512];
  char *s;
  hwloc_bitmap_t set;
  path_in(dir, sizeof(dir), "files");
  s = omp_ext_read_text(dir, "spaces");
  CU_ASSERT_STRING_EQUAL(s, "on");
  free(s);
  s = omp_ext_read_text(dir, "empty");
  CU_ASSERT_PTR_NULL(s); /* no line at all */
  free(s);
  CU_ASSERT_PTR_NULL(omp_ext_read_text(dir, "missing"));
  set = omp_ext_read_cpulist(dir, "list");
  CU_ASSERT_FATAL(set != NULL);
  CU_ASSERT_EQUAL(hwloc_bitmap_weight(set), 5);
  CU_ASSERT(hwloc_bitmap_isset(set, 8));
  hwloc_bitmap_free(set);
  /* An empty line is the empty set; a malformed one is NULL. */
  set = omp_ext_read_cpulist(path_in(dir, sizeof(dir), "sys-plain/devices/system/cpu"),
                             "offline");
  CU_ASSERT_FATAL(set != NULL);
  CU_ASSERT(hwloc_bitmap_iszero(set));
  hwloc_bitmap_free(set);
  CU_ASSERT_PTR_NULL(omp_ext_read_cpulist(path_in(dir, sizeof(dir),
                                                  "sys-bad/devices/system/cpu"), "online"));
}

static void test_kind_names(void)
{
  unsigned k, j;
  /* Every kind has its own name; the severities are the listed ones. */
  for (k = 0; k < htp_finding_nkinds; k++) {
    CU_ASSERT(strcmp(htp_finding_name((enum htp_finding_kind)k), "unknown") != 0);
    for (j = 0; j < k; j++)
      CU_ASSERT(strcmp(htp_finding_name((enum htp_finding_kind)k),
                       htp_finding_name((enum htp_finding_kind)j)) != 0);
  }
  CU_ASSERT_STRING_EQUAL(htp_finding_name(htp_finding_shared_pu), "shared_pu");
  CU_ASSERT_EQUAL(htp_finding_severity(htp_finding_spn_siblings), htp_severity_note);
  CU_ASSERT_EQUAL(htp_finding_severity(htp_finding_smt_off), htp_severity_limit);
  CU_ASSERT_EQUAL(htp_finding_severity(htp_finding_invalid_list), htp_severity_conflict);
  CU_ASSERT_STRING_EQUAL(htp_severity_name(htp_severity_problem), "problem");
  CU_ASSERT_STRING_EQUAL(htp_section_name(htp_section_quota), "quota");
}

static void test_json_string(void)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CU_ASSERT_FATAL(f != NULL);
  omp_ext_json_string(f, "a\"b\\\n\t\x01\x7f \xc3\xa9 \xff \xed\xa0\x80 \xe2\x82");
  fputc(' ', f);
  omp_ext_json_string(f, NULL);
  fclose(f);
  /* Escapes; é kept; a stray byte, a surrogate and a cut sequence as U+FFFD. */
  CU_ASSERT_STRING_EQUAL(text, "\"a\\\"b\\\\\\n\\t\\u0001\\u007f \xc3\xa9 \\ufffd "
                               "\\ufffd\\ufffd\\ufffd \\ufffd\\ufffd\" \"\"");
  free(text);
}

/* ---- check ---- */

static char *setstr(hwloc_const_bitmap_t set)
{
  static char buf[128];
  char *s = NULL;
  if (!set || hwloc_bitmap_list_asprintf(&s, set) < 0)
    return "(null)";
  snprintf(buf, sizeof(buf), "%s", s);
  free(s);
  return buf;
}

/* Analyse VALUE (syntax) on INPUT (restricted to RESTRICT if not NULL). */
static int analyze(const char *input, const char *restrict_list, const char *value,
                   omp_ext_syntax_t syntax, struct htp_check_report *rep)
{
  omp_ext_topo_t *topo = NULL;
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t e = {0, NULL};
  int err;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, input, 0) == 0);
  if (restrict_list) {
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_list_sscanf(set, restrict_list);
    CU_ASSERT_FATAL(omp_ext_topo_restrict(topo, set) == 0);
    hwloc_bitmap_free(set);
  }
  CU_ASSERT_FATAL(omp_ext_places_parse(topo, value, syntax, &l, &e) == 0);
  err = htp_check_analyze(topo, l, rep);
  omp_ext_placelist_destroy(l);
  omp_ext_topo_destroy(topo);
  return err;
}

#define FIND(rep, kind) htp_findings_find(&(rep).findings, htp_finding_##kind)

static void test_check_clean(void)
{
  struct htp_check_report rep;
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0},{1},{2},{3}", omp_ext_syntax_omp, &rep), 0);
  CU_ASSERT_EQUAL(rep.findings.n, 0);
  CU_ASSERT_EQUAL(htp_findings_count(&rep.findings), 0);
  CU_ASSERT(rep.nmatched >= 1);
  CU_ASSERT(rep.matched[omp_ht_policy_speedup]);
  htp_check_report_free(&rep);
}

static void test_check_outside(void)
{
  struct htp_check_report rep;
  const struct htp_finding *f;
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0},{70}", omp_ext_syntax_omp, &rep), 0);
  CU_ASSERT_EQUAL(rep.findings.n, 3);
  f = FIND(rep, outside_machine);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "cpus")), "70");
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "machine")), "0-15");
  f = FIND(rep, libgomp_rejects_places);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "cpu"), 70);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "cpuset_bits"), 64);
  CU_ASSERT_PTR_NOT_NULL(FIND(rep, libomp_ignores_cpus));
  CU_ASSERT_PTR_NULL(FIND(rep, not_allowed));
  htp_check_report_free(&rep);

  /* Within libgomp's 64-bit cpuset: the CPU is dropped, one place left. */
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0},{20}", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, libgomp_drops_cpus);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "places_left"), 1);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "places"), 2);
  htp_check_report_free(&rep);

  /* GOMP_CPU_AFFINITY and KMP proclist. */
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "0 100", omp_ext_syntax_gomp, &rep), 0);
  f = FIND(rep, libgomp_skips_cpus);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "cpuset_bits"), 64);
  CU_ASSERT_PTR_NOT_NULL(FIND(rep, libomp_ignores_affinity_cpus));
  htp_check_report_free(&rep);
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "explicit,proclist=[0,40]", omp_ext_syntax_kmp, &rep), 0);
  f = FIND(rep, libomp_drops_places);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "places_left"), 1);
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "cpus")), "40");
  htp_check_report_free(&rep);
}

static void test_check_restricted(void)
{
  struct htp_check_report rep;
  const struct htp_finding *f;
  CU_ASSERT_EQUAL(analyze(C6100, "0-3", "{0},{8}", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, not_allowed);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "cpus")), "8");
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "allowed")), "0-3");
  CU_ASSERT_PTR_NULL(FIND(rep, outside_machine));
  htp_check_report_free(&rep);

  CU_ASSERT_EQUAL(analyze(FIXTURE("amd-opteron-6134-4s-8c-nosmt-cgroup2-disallowed.xml"), NULL,
                          "{0},{6},{31}", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, not_allowed);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "cpus")), "6,31");
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "allowed")), "0-5");
  htp_check_report_free(&rep);
}

static void test_check_notes(void)
{
  struct htp_check_report rep;
  const struct htp_finding *f;
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0:4,!2}", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, exclude_resource);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->at, htp_at_character);
  CU_ASSERT_EQUAL(f->index, 6);
  htp_check_report_free(&rep);

  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0:2,!7}", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, exclude_missing);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "cpu"), 7);
  htp_check_report_free(&rep);

  CU_ASSERT_EQUAL(analyze(C6100, NULL, "010", omp_ext_syntax_gomp, &rep), 0);
  f = FIND(rep, radix);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "value"), 8);
  CU_ASSERT_EQUAL(f->index, 1);
  htp_check_report_free(&rep);

  CU_ASSERT_EQUAL(analyze(C6100, NULL, "cores(99)", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, count_capped);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "abstract"), "cores");
  CU_ASSERT_EQUAL(htp_finding_uint(f, "requested"), 99);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "places"), 8);
  CU_ASSERT_EQUAL(f->at, htp_at_none);
  htp_check_report_free(&rep);

  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0},!{5}", omp_ext_syntax_omp, &rep), 0);
  CU_ASSERT_PTR_NOT_NULL(FIND(rep, exclude_place_missing));
  htp_check_report_free(&rep);
}

static void test_check_sharing(void)
{
  struct htp_check_report rep;
  const struct htp_finding *f;
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0},{1},{0}", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, shared_pu);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->at, htp_at_pu);
  CU_ASSERT_EQUAL(f->index, 0);
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "places")), "0,2");
  htp_check_report_free(&rep);

  /* C6100 siblings are +8: {0,1} is two cores, {0,4} two packages. */
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0,1},{4,12}", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, spans_cores);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->at, htp_at_place);
  CU_ASSERT_EQUAL(f->index, 0);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "cores"), 2);
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "cpus")), "0-1");
  htp_check_report_free(&rep);
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0,4}", omp_ext_syntax_omp, &rep), 0);
  f = FIND(rep, spans_packages);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->index, 0);
  htp_check_report_free(&rep);

  /* Hybrid: a place of a P-core PU and an E-core PU. */
  CU_ASSERT_EQUAL(analyze(FIXTURE("intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml"), NULL,
                          "{0,19}", omp_ext_syntax_omp, &rep), 0);
  CU_ASSERT_PTR_NOT_NULL(FIND(rep, mixes_kinds));
  htp_check_report_free(&rep);
}

static void test_check_siblings(void)
{
  struct htp_check_report rep;
  const struct htp_finding *f;
  /* {0},{8}: siblings first, exactly spn 2: a note, no problem. */
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0},{8}", omp_ext_syntax_omp, &rep), 0);
  CU_ASSERT(rep.matched[omp_ht_policy_spn]);
  f = FIND(rep, spn_siblings);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->index, 1);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "idle_cores"), 7);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "cores"), 8);
  CU_ASSERT_EQUAL(htp_findings_count(&rep.findings), 0);
  htp_check_report_free(&rep);

  /* {0},{1},{9}: PU 9 is 1's sibling while 6 cores are idle; not spn. */
  CU_ASSERT_EQUAL(analyze(C6100, NULL, "{0},{1},{9}", omp_ext_syntax_omp, &rep), 0);
  CU_ASSERT(!rep.matched[omp_ht_policy_spn]);
  f = FIND(rep, siblings_first);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->index, 2);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "pu"), 9);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "idle_cores"), 6);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "threads"), 3);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "suggest"), 3);
  CU_ASSERT_EQUAL(htp_findings_count(&rep.findings), 1);
  htp_check_report_free(&rep);
}

/* ---- doctor: environment ---- */

static unsigned env_findings(char **envp, struct htp_findings *l);

/* KMP_AFFINITY values and whether libomp 14 ignores part of them (a
 * warning #57, #58, #59, #62 or #81), as the real libomp answered on the
 * 2-core VM; in a clang build (libomp) each is asked of it again. */
static const struct {
  const char *value;
  int ignored;
} kmp_corpus[] = {
    {"compact", 0}, {"Compact", 0}, {"granularity=fine,compact,1,0", 0}, {"gran=fine,scatter", 0},
    {"noverbose,warnings,respect,granularity=fine,compact", 0}, {"none", 0}, {"disabled", 0},
    {"balanced", 0}, {"logical", 0}, {"compact ,1", 0}, {"nodups,compact", 0}, {"", 0},
    {"proclist=[0,1],explicit", 0}, {"granularity=core,compact,1", 0}, {"gran=ll_cache,compact", 0},
    {"gran=tile,compact", 0}, {"garbage", 1}, {"reset", 1}, {"compact,x", 1}, {"comp", 1},
    {"compactt", 1}, {"verbose=1", 1}, {"compact,1,2,3", 1}, {"respect,norespect", 1},
    {"compact,scatter", 1}, {"explicit", 1}, {"explicit,proclist=[0", 1}, {"granularity", 1},
    {"gran=numa,compact", 1}, {"gran=bogus", 1}, {"proclist=0,explicit", 1}};

/* Does the real libomp warn that it ignores part of KMP_AFFINITY=value? */
static int libomp_ignores(const char *value)
{
  char line[512];
  int warned = 0;
  FILE *p;
  setenv("KMP_AFFINITY", value, 1);
  p = popen(ORACLE_BIN " 2>&1", "r");
  unsetenv("KMP_AFFINITY");
  CU_ASSERT_FATAL(p != NULL);
  while (fgets(line, sizeof(line), p))
    warned |= strstr(line, "Warning #57") || strstr(line, "Warning #58") ||
              strstr(line, "Warning #59") || strstr(line, "Warning #62") ||
              strstr(line, "Warning #81");
  pclose(p);
  return warned;
}

/* doctor flags what libomp ignores in KMP_AFFINITY (issue 33: garbage was
 * not flagged); the expectations held against the real libomp where this
 * build has it. */
static void test_kmp_affinity(void)
{
  char item[256], var[300], *env[] = {var, NULL};
  const char *why;
  struct htp_findings l;
  const struct htp_finding *f;
  unsigned i;
  for (i = 0; i < sizeof(kmp_corpus) / sizeof(kmp_corpus[0]); i++) {
    int got = htp_kmp_affinity_ignored(kmp_corpus[i].value, item, sizeof(item), &why);
    CU_ASSERT_EQUAL(got, kmp_corpus[i].ignored);
    if (got != kmp_corpus[i].ignored)
      fprintf(stderr, "\n  KMP_AFFINITY='%s': %d, expected %d", kmp_corpus[i].value, got,
              kmp_corpus[i].ignored);
    if (ORACLE_RUNTIME == omp_ext_runtime_libomp && libomp_ignores(kmp_corpus[i].value) !=
                                                        kmp_corpus[i].ignored) {
      CU_FAIL("the real libomp disagrees");
      fprintf(stderr, "\n  libomp on KMP_AFFINITY='%s' differs", kmp_corpus[i].value);
    }
  }
  CU_ASSERT_EQUAL(htp_kmp_affinity_ignored("compact,garbage,1", item, sizeof(item), &why), 1);
  CU_ASSERT_STRING_EQUAL(item, "garbage");
  CU_ASSERT_STRING_EQUAL(why, "parameter invalid");
  CU_ASSERT_EQUAL(htp_kmp_affinity_ignored("compactt", item, sizeof(item), &why), 1);
  CU_ASSERT_STRING_EQUAL(item, "t");
  CU_ASSERT_STRING_EQUAL(why, "extra trailing characters");
  snprintf(var, sizeof(var), "KMP_AFFINITY=garbage");
  CU_ASSERT_EQUAL(env_findings(env, &l), 1);
  f = htp_findings_find(&l, htp_finding_kmp_affinity_ignored);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(f->variable, "KMP_AFFINITY");
  CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "item"), "garbage");
  htp_findings_free(&l);
  snprintf(var, sizeof(var), "KMP_AFFINITY=granularity=fine,compact");
  CU_ASSERT_EQUAL(env_findings(env, &l), 0);
  htp_findings_free(&l);
}

static unsigned env_findings(char **envp, struct htp_findings *l)
{
  omp_ext_topo_t *topo;
  unsigned n;
  memset(l, 0, sizeof(*l));
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, C6100, 0) == 0);
  n = htp_env_analyze(envp, topo, l);
  omp_ext_topo_destroy(topo);
  CU_ASSERT_EQUAL(n, htp_findings_count(l)); /* the conflicts; notes apart */
  return n;
}

static void test_env(void)
{
  char *none[] = {"PATH=/bin", NULL};
  char *kmp[] = {"KMP_AFFINITY=compact", "OMP_PLACES=cores", "OMP_PROC_BIND=close", NULL};
  char *bad[] = {"OMP_PLACES={0,", "OMP_PROC_BIND=sideways", "OMP_NUM_THREADS=64", NULL};
  char *more[] = {"OMP_PLACES={0},{1}", "GOMP_CPU_AFFINITY=0 1", "OMP_PROC_BIND=false",
                  "OMP_NUM_THREADS=3,2", NULL};
  char *nth[] = {"OMP_NUM_THREADS=x", "KMP_AFFINITY=explicit,proclist=[0,{1", NULL};
  char *shared[] = {"OMP_PLACES={0},{0},{99}", NULL};
  char *gshared[] = {"GOMP_CPU_AFFINITY=0 0", NULL};
  struct htp_findings l;
  const struct htp_finding *f;

  CU_ASSERT_EQUAL(env_findings(none, &l), 0);
  CU_ASSERT_EQUAL(env_findings(NULL, &l), 0);

  CU_ASSERT_EQUAL(env_findings(kmp, &l), 1);
  f = htp_findings_find(&l, htp_finding_kmp_affinity_wins);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->section, htp_section_environment);
  CU_ASSERT_EQUAL(f->at, htp_at_variable);
  CU_ASSERT_STRING_EQUAL(f->variable, "KMP_AFFINITY");
  CU_ASSERT_EQUAL(htp_finding_uint(f, "omp_places_set"), 1);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "omp_proc_bind_set"), 1);
  htp_findings_free(&l);

  CU_ASSERT_EQUAL(env_findings(bad, &l), 3);
  f = htp_findings_find(&l, htp_finding_invalid_list);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(f->variable, "OMP_PLACES");
  CU_ASSERT_EQUAL(htp_finding_uint(f, "character"), 4);
  f = htp_findings_find(&l, htp_finding_invalid_proc_bind);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "value"), "sideways");
  f = htp_findings_find(&l, htp_finding_num_threads_above_pus);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "threads"), 64);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "pus"), 16);
  htp_findings_free(&l);

  CU_ASSERT_EQUAL(env_findings(more, &l), 3);
  CU_ASSERT_PTR_NOT_NULL(htp_findings_find(&l, htp_finding_gomp_affinity_ignored));
  CU_ASSERT_PTR_NOT_NULL(htp_findings_find(&l, htp_finding_proc_bind_false));
  f = htp_findings_find(&l, htp_finding_num_threads_above_places);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "threads"), 3);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "places"), 2);
  htp_findings_free(&l);

  /* OMP_EXT_HT_POLICY as libomp_ext reads it: POLICY[:N], auto[:time|:energy] */
  {
    static const char *const good[] = {"spn", "speedup:4", "energy:1", "auto", "auto:time",
                                       "auto:energy", "auto:threads", "auto:energy:threads",
                                       "auto:threads:time", ""};
    static const char *const wrong[] = {"fast", "spn:0", "spn:", "spn:x", "auto:speed", "auto4",
                                        "SPN", "averyveryverylongpolicyname", "auto:",
                                        "auto:time:energy", "auto:threads:threads", "auto:\x1b[31m"};
    char var[64], *env[] = {var, NULL};
    unsigned i;
    for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
      snprintf(var, sizeof(var), "OMP_EXT_HT_POLICY=%s", good[i]);
      CU_ASSERT_EQUAL(env_findings(env, &l), 0);
      htp_findings_free(&l);
    }
    for (i = 0; i < sizeof(wrong) / sizeof(*wrong); i++) {
      snprintf(var, sizeof(var), "OMP_EXT_HT_POLICY=%s", wrong[i]);
      CU_ASSERT_EQUAL(env_findings(env, &l), 1);
      f = htp_findings_find(&l, htp_finding_ht_policy_invalid);
      CU_ASSERT_FATAL(f != NULL);
      CU_ASSERT_STRING_EQUAL(f->variable, "OMP_EXT_HT_POLICY");
      CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "value"), wrong[i]);
      htp_findings_free(&l);
    }
  }

  /* OMP_EXT_PLAN as libomp_ext reads it: a plan file or its text, checked by
   * the library's own check (omp_ext_plan_check) against the machine (the
   * C6100 fixture: 16 PUs); missing, not a regular file, or invalid. */
  {
    char dir[] = "/tmp/omp_ext_findings_XXXXXX", good[300], bad[300], fifo[300], var[400];
    char *env[] = {var, NULL};
    FILE *f1;
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(good, sizeof(good), "%s/good", dir);
    snprintf(bad, sizeof(bad), "%s/bad", dir);
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    CU_ASSERT_FATAL((f1 = fopen(good, "w")) != NULL);
    fputs("omp_ext_plan 2\ndefault 16 - none:16\nregion app 0x10 2 {0},{8} spn:2\n", f1);
    fclose(f1);
    CU_ASSERT_FATAL((f1 = fopen(bad, "w")) != NULL);
    fputs("omp_ext_plan 2\nregion app 0x10 2 {0},{99} spn:2\n", f1);
    fclose(f1);
    CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
    snprintf(var, sizeof(var), "OMP_EXT_PLAN=%s", good);
    CU_ASSERT_EQUAL(env_findings(env, &l), 0);
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_PLAN=omp_ext_plan 2\ndefault 1 {3} spn:1");
    CU_ASSERT_EQUAL(env_findings(env, &l), 0);
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_PLAN=%s/none", dir);
    CU_ASSERT_EQUAL(env_findings(env, &l), 1);
    f = htp_findings_find(&l, htp_finding_plan_missing);
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "reason"), "No such file or directory");
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_PLAN=%s", fifo); /* (never opened for reading) */
    CU_ASSERT_EQUAL(env_findings(env, &l), 1);
    CU_ASSERT_PTR_NOT_NULL(htp_findings_find(&l, htp_finding_plan_not_file));
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_PLAN=%s", dir);
    CU_ASSERT_EQUAL(env_findings(env, &l), 1);
    CU_ASSERT_PTR_NOT_NULL(htp_findings_find(&l, htp_finding_plan_not_file));
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_PLAN=%s", bad);
    CU_ASSERT_EQUAL(env_findings(env, &l), 1);
    f = htp_findings_find(&l, htp_finding_plan_invalid);
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(htp_finding_text(f, "reason"),
                                  "line 2: PLACES '{0},{99}': place 2 is not within the allowed "
                                  "PUs (0-15)"));
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_PLAN=omp_ext_plan 2\ndefault 17 - none:17");
    CU_ASSERT_EQUAL(env_findings(env, &l), 1);
    f = htp_findings_find(&l, htp_finding_plan_invalid);
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "reason"),
                           "the plan text line 2: THREADS '17': more than the 16 allowed PUs; 0 "
                           "(the program's team) or 1..16");
    htp_findings_free(&l);
    unlink(good), unlink(bad), unlink(fifo), rmdir(dir);
  }

  /* OMP_EXT_LEARN: a folder libomp_ext can write in, and only under auto
   * (the new-user pass: doctor said nothing of a missing folder, a file,
   * /sys, or a folder set without auto). */
  {
    char dir[] = "/tmp/omp_ext_learn_XXXXXX", file[300], var[400];
    char ht[] = "OMP_EXT_HT_POLICY=auto:energy";
    char *env[] = {var, ht, NULL}, *alone[] = {var, NULL};
    FILE *f1;
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    snprintf(file, sizeof(file), "%s/afile", dir);
    CU_ASSERT_FATAL((f1 = fopen(file, "w")) != NULL);
    fclose(f1);
    snprintf(var, sizeof(var), "OMP_EXT_LEARN=%s", dir);
    CU_ASSERT_EQUAL(env_findings(env, &l), 0);
    CU_ASSERT_PTR_NULL(htp_findings_find(&l, htp_finding_learn_ignored));
    htp_findings_free(&l);
    CU_ASSERT_EQUAL(env_findings(alone, &l), 0); /* (a note, not a conflict) */
    CU_ASSERT_PTR_NOT_NULL(htp_findings_find(&l, htp_finding_learn_ignored));
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_LEARN=%s/none", dir);
    CU_ASSERT_EQUAL(env_findings(env, &l), 1);
    f = htp_findings_find(&l, htp_finding_learn_invalid);
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "reason"), "No such file or directory");
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_LEARN=%s", file);
    CU_ASSERT_EQUAL(env_findings(env, &l), 1);
    f = htp_findings_find(&l, htp_finding_learn_invalid);
    CU_ASSERT_FATAL(f != NULL);
    CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "reason"), "not a folder");
    htp_findings_free(&l);
    snprintf(var, sizeof(var), "OMP_EXT_LEARN=/sys"); /* (no file can be made, root or not) */
    CU_ASSERT_EQUAL(env_findings(env, &l), 1);
    CU_ASSERT_PTR_NOT_NULL(htp_findings_find(&l, htp_finding_learn_invalid));
    htp_findings_free(&l);
    unlink(file), rmdir(dir);
  }

  /* A valid list with problems on this machine: check's findings, named. */
  CU_ASSERT_EQUAL(env_findings(shared, &l), 1);
  f = htp_findings_find(&l, htp_finding_list_problems);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->section, htp_section_environment);
  CU_ASSERT_STRING_EQUAL(f->variable, "OMP_PLACES");
  CU_ASSERT_EQUAL(htp_finding_uint(f, "problems"), 4);
  CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "kinds"),
                         "outside_machine, libgomp_rejects_places, libomp_ignores_cpus, shared_pu");
  htp_findings_free(&l);
  CU_ASSERT_EQUAL(env_findings(gshared, &l), 1);
  f = htp_findings_find(&l, htp_finding_list_problems);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(f->variable, "GOMP_CPU_AFFINITY");
  htp_findings_free(&l);

  /* A list of places (not an abstract name): the libomp-14 fork note
   * (issue 24), which is not a conflict. */
  f = NULL;
  CU_ASSERT_EQUAL(env_findings(shared, &l), 1);
  f = htp_findings_find(&l, htp_finding_libomp_fork_places);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(htp_finding_severity(f->kind), htp_severity_note);
  CU_ASSERT_STRING_EQUAL(f->variable, "OMP_PLACES");
  htp_findings_free(&l);
  CU_ASSERT_EQUAL(env_findings(kmp, &l), 1);
  CU_ASSERT_PTR_NULL(htp_findings_find(&l, htp_finding_libomp_fork_places));
  htp_findings_free(&l);

  CU_ASSERT_EQUAL(env_findings(nth, &l), 2);
  f = htp_findings_find(&l, htp_finding_num_threads_invalid);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "value"), "x");
  f = htp_findings_find(&l, htp_finding_invalid_list);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(f->variable, "KMP_AFFINITY");
  htp_findings_free(&l);
}

/* ---- doctor ---- */

static int doctor(const char *input, const char *sys, const char *cg,
                  struct htp_doctor_report *rep)
{
  char sysdir[512], cgdir[512];
  char *envp[] = {NULL};
  struct htp_doctor_input in = {NULL, NULL, NULL, envp, 0, omp_ht_policy_speedup, NULL, 0, 0.1};
  omp_ext_topo_t *topo;
  int err;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, input, 0) == 0);
  in.sysfs = path_in(sysdir, sizeof(sysdir), sys);
  in.cgroup = cg ? path_in(cgdir, sizeof(cgdir), cg) : NULL;
  err = htp_doctor_analyze(&in, topo, rep);
  omp_ext_topo_destroy(topo);
  rep->envp = NULL;
  rep->sysfs = rep->cgroup = NULL; /* pointed into this frame */
  return err;
}

static void test_doctor_smt_off(void)
{
  struct htp_doctor_report rep;
  const struct htp_finding *f;
  CU_ASSERT_EQUAL(doctor(C6100, "sys-smtoff", "cg1none", &rep), 0);
  CU_ASSERT_STRING_EQUAL(rep.smt_control, "off");
  CU_ASSERT_STRING_EQUAL(rep.smt_active, "0");
  CU_ASSERT_STRING_EQUAL(setstr(rep.present), "0-3");
  CU_ASSERT_STRING_EQUAL(setstr(rep.offline), "2-3");
  CU_ASSERT(rep.quota < 0);
  f = htp_findings_find(&rep.findings, htp_finding_smt_off);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->section, htp_section_smt);
  CU_ASSERT_STRING_EQUAL(htp_finding_text(f, "control"), "off");
  f = htp_findings_find(&rep.findings, htp_finding_cpus_offline);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "cpus")), "2-3");
  CU_ASSERT_EQUAL(htp_finding_uint(f, "online_count"), 2);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "present_count"), 4);
  CU_ASSERT_EQUAL(rep.saturation, htp_saturation_off);
  htp_doctor_report_free(&rep);
}

static void test_doctor_plain(void)
{
  struct htp_doctor_report rep;
  CU_ASSERT_EQUAL(doctor(C6100, "sys-plain", "cg1none", &rep), 0);
  CU_ASSERT_STRING_EQUAL(rep.smt_control, "notsupported");
  CU_ASSERT_PTR_NULL(rep.smt_active);
  CU_ASSERT(rep.offline && hwloc_bitmap_iszero(rep.offline));
  CU_ASSERT_PTR_NULL(htp_findings_find(&rep.findings, htp_finding_smt_off));
  CU_ASSERT_PTR_NULL(htp_findings_find(&rep.findings, htp_finding_cpus_offline));
  CU_ASSERT_PTR_NULL(htp_findings_find(&rep.findings, htp_finding_quota_below_cpus));
  CU_ASSERT_PTR_NULL(htp_findings_find(&rep.findings, htp_finding_hybrid_cpu));
  htp_doctor_report_free(&rep);

  /* A malformed online file: unknown, not a finding. */
  CU_ASSERT_EQUAL(doctor(C6100, "sys-bad", NULL, &rep), 0);
  CU_ASSERT_PTR_NULL(rep.online);
  CU_ASSERT_PTR_NULL(rep.smt_control);
  CU_ASSERT_EQUAL(rep.findings.n, 0);
  htp_doctor_report_free(&rep);
}

static void test_doctor_quota(void)
{
  static const struct {
    const char *cg;
    double quota;
    const char *source;
  } cases[] = {
    {"cg2/job", 1.5, "cpu.max '150000 100000' in "},
    {"cg2n/leaf", 0.5, "cpu.max '50000 100000' in "}, /* the parent's limit */
    {"cg1", 1.5, "cpu.cfs_quota_us 150000 / cpu.cfs_period_us 100000 in "},
  };
  struct htp_doctor_report rep;
  unsigned i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    const struct htp_finding *f;
    int usable;
    CU_ASSERT_EQUAL(doctor(C6100, "sys-plain", cases[i].cg, &rep), 0);
    CU_ASSERT_DOUBLE_EQUAL(rep.quota, cases[i].quota, 1e-9);
    CU_ASSERT_FATAL(rep.quota_source != NULL);
    CU_ASSERT(strncmp(rep.quota_source, cases[i].source, strlen(cases[i].source)) == 0);
    /* Below the usable CPUs (this process's share of online 0-1): a limit. */
    usable = rep.usable ? hwloc_bitmap_weight(rep.usable) : 0;
    f = htp_findings_find(&rep.findings, htp_finding_quota_below_cpus);
    CU_ASSERT_EQUAL(f != NULL, usable > 0 && cases[i].quota < usable);
    if (f) {
      CU_ASSERT_EQUAL(f->section, htp_section_quota);
      CU_ASSERT_DOUBLE_EQUAL(htp_finding_real(f, "quota"), cases[i].quota, 1e-9);
      CU_ASSERT_EQUAL(htp_finding_uint(f, "usable_cpus"), (unsigned)usable);
      CU_ASSERT_EQUAL(htp_finding_uint(f, "threads"), 1);
    }
    htp_doctor_report_free(&rep);
  }
  /* No quota: v1 -1, v2 "max". */
  CU_ASSERT_EQUAL(doctor(C6100, "sys-plain", "cg1none", &rep), 0);
  CU_ASSERT(rep.quota < 0);
  CU_ASSERT_PTR_NULL(rep.quota_source);
  htp_doctor_report_free(&rep);
}

static void test_doctor_cpuset(void)
{
  struct htp_doctor_report rep;
  const struct htp_finding *f;
  CU_ASSERT_EQUAL(doctor(C6100, "sys-plain", "cg2c", &rep), 0);
  CU_ASSERT_STRING_EQUAL(setstr(rep.cgroup_cpuset), "1");
  f = htp_findings_find(&rep.findings, htp_finding_cgroup_cpuset_restricted);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->section, htp_section_allowed);
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "cpus")), "1");
  CU_ASSERT_STRING_EQUAL(setstr(htp_finding_set(f, "online")), "0-1");
  htp_doctor_report_free(&rep);
}

static void test_doctor_hybrid(void)
{
  struct htp_doctor_report rep;
  const struct htp_finding *f;
  CU_ASSERT_EQUAL(doctor(FIXTURE("intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml"),
                         "sys-plain", "cg1none", &rep), 0);
  f = htp_findings_find(&rep.findings, htp_finding_hybrid_cpu);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(f->section, htp_section_topology);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "fast_pus"), 12);
  CU_ASSERT_EQUAL(htp_finding_uint(f, "pus"), 20);
  /* A note: it does not count as a limit. */
  CU_ASSERT_EQUAL(htp_findings_count(&rep.findings), rep.findings.n - 1);
  htp_doctor_report_free(&rep);
}

static void test_doctor_saturation_skipped(void)
{
  char sysdir[512];
  char *envp[] = {"OMP_PROC_BIND=sideways", NULL};
  struct htp_doctor_input in = {NULL, NULL, NULL, envp, 1, omp_ht_policy_os, NULL, 0, 0.1};
  struct htp_doctor_report rep;
  omp_ext_topo_t *topo;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, C6100, 0) == 0);
  in.sysfs = path_in(sysdir, sizeof(sysdir), "sys-plain");
  CU_ASSERT_EQUAL(htp_doctor_analyze(&in, topo, &rep), 0);
  CU_ASSERT_EQUAL(rep.saturation, htp_saturation_skipped);
  CU_ASSERT_PTR_NULL(rep.cgroup);
  CU_ASSERT_PTR_NOT_NULL(htp_findings_find(&rep.findings, htp_finding_invalid_proc_bind));
  htp_doctor_report_free(&rep);
  omp_ext_topo_destroy(topo);
}

static CU_TestInfo util_tests[] = {
  {"omp_ext_parse_uint / omp_ext_scan_uint: digits only, ranges", test_parse_uint},
  {"omp_ext_parse_cpulist: strict, no wrap at 2^32 or 2^64", test_parse_cpulist},
  {"omp_ext_env_get", test_env_get},
  {"omp_ext_read_text / omp_ext_read_cpulist", test_sysfs_readers},
  {"finding kinds: unique stable names, severities", test_kind_names},
  {"JSON strings: escapes, UTF-8 checked", test_json_string},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo check_tests[] = {
  {"clean list, policy match", test_check_clean},
  {"outside the machine: libgomp vs libomp, three syntaxes", test_check_outside},
  {"not in the allowed set (-r, cgroup fixture)", test_check_restricted},
  {"parser remarks: position and values", test_check_notes},
  {"shared PUs, spans, CPU kinds", test_check_sharing},
  {"siblings first: problem, or spn's note", test_check_siblings},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo doctor_tests[] = {
  {"environment conflicts", test_env},
  {"KMP_AFFINITY: what libomp ignores, against the real libomp", test_kmp_affinity},
  {"SMT off, offline CPUs", test_doctor_smt_off},
  {"plain and malformed sysfs", test_doctor_plain},
  {"quota: v2, nested, v1", test_doctor_quota},
  {"cgroup cpuset", test_doctor_cpuset},
  {"hybrid note", test_doctor_hybrid},
  {"saturation skipped on a foreign topology", test_doctor_saturation_skipped},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  /* One crafted folder for all suites: made by the first, removed by the last. */
  {"library helpers", setup, NULL, NULL, NULL, util_tests},
  {"check analysis", NULL, NULL, NULL, NULL, check_tests},
  {"doctor analysis", NULL, teardown, NULL, NULL, doctor_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
