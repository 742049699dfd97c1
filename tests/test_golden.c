/*
 * Golden outputs of htplaces check and doctor, in hwloc's style: each
 * command's standard output must equal tests/golden/NAME byte for byte
 * (placeholders: see tests/golden/README.md).  The -f json reports are also
 * parsed back (a strict RFC 8259 reader below) and their shape checked.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <hwloc.h>

#include "cunit_main.h"
#include "fakefs.h"
#include "testutil.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"
#define GOLDEN(name) OMP_EXT_TEST_DIR "/golden/" name
#define TOPOLOGIES OMP_EXT_TEST_DIR "/topologies"

static char root[] = "/tmp/htplaces-golden-XXXXXX";
static char affinity[1024] = "?";

static int setup(void)
{
  cpu_set_t mask;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  char *s = NULL;
  int err = 0;
  unsigned i;
  if (!mkdtemp(root) || !set)
    return 1;
  /* No online file: the report does not depend on this machine's CPUs. */
  err |= fakefs_put(root, "sys-golden/devices/system/cpu/smt/control", "off");
  err |= fakefs_put(root, "sys-golden/devices/system/cpu/smt/active", "0");
  err |= fakefs_put(root, "sys-golden/devices/system/cpu/offline", "2-3");
  err |= fakefs_put(root, "sys-golden/devices/system/cpu/present", "0-3");
  err |= fakefs_cgroups(root); /* cg2, cg2n, cg2c, cg1, cg1none */
  /* This process's affinity, as doctor prints it. */
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0) {
    for (i = 0; i < CPU_SETSIZE; i++)
      if (CPU_ISSET(i, &mask))
        hwloc_bitmap_set(set, i);
    if (hwloc_bitmap_list_asprintf(&s, set) >= 0)
      snprintf(affinity, sizeof(affinity), "%s", s);
    free(s);
  }
  hwloc_bitmap_free(set);
  return err != 0;
}

static int teardown(void)
{
  return fakefs_remove(root) != 0;
}

/* A file's contents, with @ROOT@, @AFFINITY@ and @TOPOLOGIES@ replaced. */
static char *expected(const char *path)
{
  static const char *const keys[] = {"@ROOT@", "@AFFINITY@", "@TOPOLOGIES@"};
  const char *values[] = {root, affinity, TOPOLOGIES};
  FILE *f = fopen(path, "r");
  char *text = NULL, *out = NULL, *p;
  size_t len = 0, cap = 0;
  FILE *o;
  unsigned k;
  if (!f)
    return NULL;
  if (getdelim(&text, &cap, '\0', f) < 0) {
    free(text);
    text = strdup("");
  }
  fclose(f);
  if (!text || !(o = open_memstream(&out, &len))) {
    free(text);
    return NULL;
  }
  for (p = text; *p;) {
    for (k = 0; k < 3; k++)
      if (strncmp(p, keys[k], strlen(keys[k])) == 0)
        break;
    if (k < 3) {
      fputs(values[k], o);
      p += strlen(keys[k]);
    } else {
      fputc(*p++, o);
    }
  }
  fclose(o);
  free(text);
  return out;
}

/* Compare OUT with the golden file NAME; print the first differing line. */
static void compare(const char *name, const char *path, const char *out)
{
  char *want = expected(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(want);
  CU_ASSERT_STRING_EQUAL(out, want);
  if (strcmp(out, want) != 0) {
    size_t i = 0, line = 1;
    while (out[i] && out[i] == want[i])
      line += out[i++] == '\n';
    fprintf(stderr, "\n%s: output differs from the golden file at line %zu:\n--- got:\n%s\n",
            name, line, out);
  }
  free(want);
}

/* ---- a strict JSON reader (RFC 8259): is the whole text one value? ---- */

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
  while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
    p++;
  return p;
}

static const char *json_string(const char *p)
{
  if (*p++ != '"')
    return NULL;
  for (; *p && *p != '"'; p++) {
    if ((unsigned char)*p < 0x20)
      return NULL;
    if (*p == '\\') {
      p++;
      if (*p == 'u') {
        int k;
        for (k = 1; k <= 4; k++)
          if (!strchr("0123456789abcdefABCDEF", p[k]) || !p[k])
            return NULL;
        p += 4;
      } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
        return NULL;
      }
    }
  }
  return *p == '"' ? p + 1 : NULL;
}

static const char *json_number(const char *p)
{
  const char *start = p;
  if (*p == '-')
    p++;
  if (*p == '0')
    p++;
  else if (*p >= '1' && *p <= '9')
    while (*p >= '0' && *p <= '9')
      p++;
  else
    return NULL;
  if (*p == '.') {
    if (*++p < '0' || *p > '9')
      return NULL;
    while (*p >= '0' && *p <= '9')
      p++;
  }
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-')
      p++;
    if (*p < '0' || *p > '9')
      return NULL;
    while (*p >= '0' && *p <= '9')
      p++;
  }
  return p > start ? p : NULL;
}

static const char *json_members(const char *p, char close, int depth)
{
  p = json_ws(p + 1);
  if (*p == close)
    return p + 1;
  for (;;) {
    p = json_ws(p);
    if (close == '}') {
      if (!(p = json_string(p)))
        return NULL;
      p = json_ws(p);
      if (*p++ != ':')
        return NULL;
    }
    if (!(p = json_value(p, depth + 1)))
      return NULL;
    if (*p == close)
      return p + 1;
    if (*p++ != ',')
      return NULL;
  }
}

static const char *json_value(const char *p, int depth)
{
  p = json_ws(p);
  if (depth > 64)
    return NULL;
  if (*p == '{' || *p == '[')
    p = json_members(p, *p == '{' ? '}' : ']', depth);
  else if (*p == '"')
    p = json_string(p);
  else if (strncmp(p, "true", 4) == 0)
    p += 4;
  else if (strncmp(p, "false", 5) == 0)
    p += 5;
  else if (strncmp(p, "null", 4) == 0)
    p += 4;
  else
    p = json_number(p);
  return p ? json_ws(p) : NULL;
}

static int json_valid(const char *text)
{
  const char *end = json_value(text, 0);
  return end && *end == '\0';
}

static void test_json_reader(void)
{
  CU_ASSERT(json_valid("{\"a\": [1, -2.5e3, true, null, \"x\\n\\u00e9\"], \"b\": {}}\n"));
  CU_ASSERT(!json_valid("{\"a\": 1,}"));
  CU_ASSERT(!json_valid("{\"a\" 1}"));
  CU_ASSERT(!json_valid("[01]"));
  CU_ASSERT(!json_valid("\"tab\there\""));
  CU_ASSERT(!json_valid("{} {}"));
  CU_ASSERT(!json_valid("[nan]"));
}

/* ---- the goldens ---- */

struct golden {
  const char *file;
  int status;
  const char *args[12]; /* after htplaces; NULL-terminated */
};

static const struct golden check_goldens[] = {
  {"check-outside.txt", 1, {"-i", C6100, "check", "{0},{70}"}},
  {"check-siblings.txt", 1, {"-i", C6100, "check", "{0},{1},{9}"}},
  {"check-spn.txt", 0, {"-i", C6100, "check", "{0},{8}"}},
  {"check-gomp.txt", 1, {"-i", C6100, "check", "--as", "gomp", "0 3 100 3"}},
  {"check-remarks.txt", 1, {"-i", C6100, "check", "{0:2,!7},{010},{0,4},!{5}"}},
  {"check-hybrid.txt", 1, {"-i", TOPOLOGIES "/intel-raptorlake-i7-1370p-hybrid-6p-smt2-8e.xml",
                           "check", "{0,19},{2},{3}"}},
  {"check-outside.json", 1, {"-i", C6100, "check", "-f", "json", "{0},{70}"}},
  {"check-remarks.json", 1, {"-i", C6100, "check", "-f", "json", "{0:2,!7},{010},{0,4},!{5}"}},
  {"check-clean.json", 0, {"-i", C6100, "check", "-f", "json", "threads(4)"}},
  {"check-kmp.json", 1, {"-i", C6100, "check", "-f", "json", "--as", "kmp",
                         "explicit,proclist=[0,{1,9},40]"}},
};

/* Run htplaces ARGS with a clean environment (env -i) plus ENV. */
static struct run_result run_clean(const char *const *env, const char *const *args)
{
  char *argv[40];
  struct run_result r = {NULL, NULL, -1};
  unsigned n = 0, i;
  argv[n++] = "env";
  argv[n++] = "-i";
  for (i = 0; env && env[i] && n < 20; i++)
    argv[n++] = (char *)env[i];
  argv[n++] = HTPLACES_BIN;
  for (i = 0; args[i] && n < 39; i++)
    argv[n++] = (char *)args[i];
  argv[n] = NULL;
  CU_ASSERT_FATAL(run_capture(argv, NULL, &r) == 0);
  return r;
}

static void test_check_goldens(void)
{
  unsigned i;
  for (i = 0; i < sizeof(check_goldens) / sizeof(check_goldens[0]); i++) {
    const struct golden *g = &check_goldens[i];
    char path[512];
    struct run_result r = run_clean(NULL, g->args);
    snprintf(path, sizeof(path), "%s/golden/%s", OMP_EXT_TEST_DIR, g->file);
    CU_ASSERT_EQUAL(r.status, g->status);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    compare(g->file, path, r.out);
    if (strstr(g->file, ".json")) {
      CU_ASSERT(json_valid(r.out));
      CU_ASSERT_PTR_NOT_NULL(strstr(r.out, g->status ? "\"verdict\": \"problems\"" :
                                                       "\"verdict\": \"clean\""));
    }
    run_free(&r);
  }
}

static void test_doctor_golden(void)
{
  char sysarg[600], cgarg[600];
  const char *env[] = {"OMP_PLACES={0,", "OMP_PROC_BIND=sideways", "KMP_AFFINITY=compact",
                       "OMP_NUM_THREADS=64", NULL};
  const char *args[] = {"-i", C6100, "doctor", sysarg, cgarg, NULL};
  struct run_result r;
  snprintf(sysarg, sizeof(sysarg), "--sysfs=%s/sys-golden", root);
  snprintf(cgarg, sizeof(cgarg), "--cgroup=%s/cg2c", root);
  r = run_clean(env, args);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  compare("doctor-smtoff.txt", GOLDEN("doctor-smtoff.txt"), r.out);
  run_free(&r);
}

#define CONTAINS(hay, needle)                                      \
  do {                                                             \
    CU_ASSERT_PTR_NOT_NULL(strstr(hay, needle));                   \
    if (!strstr(hay, needle))                                      \
      fprintf(stderr, "\nmissing '%s' in:\n%s\n", needle, hay);    \
  } while (0)

static void test_doctor_json(void)
{
  char sysarg[600], cgarg[600], cgjob[600];
  const char *env[] = {"OMP_PLACES={0,", "OMP_PROC_BIND=sideways", "KMP_AFFINITY=compact",
                       "OMP_NUM_THREADS=64", NULL};
  const char *args[] = {"-i", C6100, "doctor", "-f", "json", sysarg, cgarg, NULL};
  const char *clean_args[] = {"-i", "pack:1 core:2 pu:1", "-f", "json", "doctor", sysarg,
                              cgjob, "--no-saturation", NULL};
  struct run_result r;
  snprintf(sysarg, sizeof(sysarg), "--sysfs=%s/sys-golden", root);
  snprintf(cgarg, sizeof(cgarg), "--cgroup=%s/cg2c", root);
  snprintf(cgjob, sizeof(cgjob), "--cgroup=%s/cg2/job", root);
  r = run_clean(env, args);
  CU_ASSERT_EQUAL(r.status, 1);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  CU_ASSERT(json_valid(r.out));
  CONTAINS(r.out, "\"command\": \"doctor\"");
  CONTAINS(r.out, "\"smt\": {\"control\": \"off\", \"active\": \"0\"");
  CONTAINS(r.out, "\"cpus\": {\"present\": \"0-3\", \"online\": null, \"offline\": \"2-3\", \"possible_not_present\": \"\"}");
  CONTAINS(r.out, "\"cgroup_cpuset\": \"1\"");
  CONTAINS(r.out, "\"cpus\": null, \"source\": null}");
  CONTAINS(r.out, "\"topology\": {\"source\": \"" C6100 "\", \"packages\": 2, \"cores\": 8, "
                  "\"pus\": 16, \"max_smt\": 2, \"kinds\": 1}");
  CONTAINS(r.out, "{\"name\": \"OMP_PLACES\", \"value\": \"{0,\"}");
  CONTAINS(r.out, "\"saturation\": {\"state\": \"skipped\"}");
  CONTAINS(r.out, "{\"kind\": \"smt_off\", \"severity\": \"limit\", \"section\": \"smt\", "
                  "\"position\": null, \"values\": {\"control\": \"off\"}}");
  CONTAINS(r.out, "{\"kind\": \"cpus_offline\", \"severity\": \"limit\", \"section\": \"cpus\", "
                  "\"position\": null, \"values\": {\"cpus\": \"2-3\", \"online_count\": 0, "
                  "\"present_count\": 4}}");
  CONTAINS(r.out, "{\"kind\": \"invalid_list\", \"severity\": \"conflict\", \"section\": "
                  "\"environment\", \"position\": {\"variable\": \"OMP_PLACES\"}, \"values\": "
                  "{\"character\": 4, \"reason\": \"expected a CPU number\"}}");
  CONTAINS(r.out, "\"kind\": \"num_threads_above_pus\"");
  CONTAINS(r.out, "\"limits\": 6,\n  \"verdict\": \"limits\"\n}\n");
  run_free(&r);

  /* -f json before the command; a quota; no variables. */
  r = run_clean(NULL, clean_args);
  CU_ASSERT(r.status == 0 || r.status == 1);
  CU_ASSERT(json_valid(r.out));
  CONTAINS(r.out, "\"environment\": []");
  CONTAINS(r.out, "\"cpus\": 1.5, \"source\": \"cpu.max '150000 100000' in ");
  CONTAINS(r.out, "\"saturation\": {\"state\": \"off\"}");
  run_free(&r);
}

static void test_format_option(void)
{
  static const char *const text[] = {"-i", C6100, "check", "-f", "text", "{0},{8}", NULL};
  static const char *const bad[] = {"-i", C6100, "check", "-f", "gomp", "{0}", NULL};
  static const char *const bad_doctor[] = {"-i", C6100, "doctor", "--format=csv", NULL};
  static const char *const export[] = {"-i", C6100, "-e", "check", "{0}", NULL};
  static const char *const expand[] = {"-i", C6100, "check", "-f", "json", "--expand", "{0}",
                                       NULL};
  struct run_result r = run_clean(NULL, text);
  char *want = expected(GOLDEN("check-spn.txt"));
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, want);
  free(want);
  run_free(&r);
  r = run_clean(NULL, bad);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_STRING_EQUAL(r.err, "htplaces: unknown format 'gomp' for 'check'; allowed: text, "
                                "json\n");
  run_free(&r);
  r = run_clean(NULL, bad_doctor);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_STRING_EQUAL(r.err, "htplaces: unknown format 'csv' for 'doctor'; allowed: text, "
                                "json\n");
  run_free(&r);
  r = run_clean(NULL, export);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
  r = run_clean(NULL, expand);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  run_free(&r);
}

static CU_TestInfo golden_tests[] = {
  {"the JSON reader itself", test_json_reader},
  {"check: text and JSON goldens", test_check_goldens},
  {"doctor: text golden (crafted sysfs, cgroup, environment)", test_doctor_golden},
  {"doctor -f json: parses, shape", test_doctor_json},
  {"-f text|json accepted, others refused", test_format_option},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"htplaces check/doctor goldens", setup, teardown, NULL, NULL, golden_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
