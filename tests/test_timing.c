/*
 * Region timing (OMP_EXT_TIMING=FILE): timing_probe's two regions, with
 * their exact instance counts and team sizes, positive times, the serial
 * part and a named measurement; the same program without libomp_ext,
 * injected through OMP_TOOL_LIBRARIES (libomp) or LD_PRELOAD (libgomp).
 * Several root threads timing the same region at once: every instance
 * counted.  A region sleeping 20 ms reads at least that, within the wall
 * time.  Values, never timings: times are only checked to be positive and
 * ordered (min <= median <= max), the serial part to hold its 50 ms sleep.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cunit_main.h"
#include "testutil.h"

#include "omp_ext.h"

static int is_libomp(void)
{
  return dlsym(RTLD_DEFAULT, "kmp_set_affinity") != NULL;
}

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "r");
  char *buf;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  rewind(f);
  buf = calloc(1, (size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static double num_after(const char *obj, const char *key)
{
  const char *p = strstr(obj, key);
  return p ? atof(p + strlen(key)) : -1;
}

/* (Not a strstr loop: ASan's strstr reads the whole rest of the string at
 * each call, quadratic on test_many_names' megabytes: past ctest's timeout
 * in the sanitizer build.) */
static unsigned count(const char *s, const char *needle)
{
  size_t len = strlen(needle);
  unsigned n = 0;
  for (; *s; s++)
    if (*s == *needle && strncmp(s, needle, len) == 0)
      n++;
  return n;
}

/* The object of the region whose name starts with \p name (copied). */
static void region(const char *json, const char *name, char *obj, size_t len)
{
  char key[128];
  const char *p, *end;
  snprintf(key, sizeof(key), "{\"name\": \"%s", name);
  obj[0] = '\0';
  if (!(p = strstr(json, key)) || !(end = strchr(p, '}')))
    return;
  snprintf(obj, len, "%.*s", (int)(end - p + 1), p);
}

static void check_region(const char *json, const char *name, unsigned long instances,
                         const char *sizes)
{
  char obj[1024];
  double min, med, max, total;
  region(json, name, obj, sizeof(obj));
  CU_ASSERT_FATAL(obj[0] != '\0');
  CU_ASSERT_EQUAL((unsigned long)num_after(obj, "\"instances\": "), instances);
  CU_ASSERT_PTR_NOT_NULL(strstr(obj, sizes));
  total = num_after(obj, "\"total_s\": ");
  min = num_after(obj, "\"min_s\": ");
  med = num_after(obj, "\"median_s\": ");
  max = num_after(obj, "\"max_s\": ");
  CU_ASSERT(min > 0 && min <= med && med <= max && max <= total);
}

/* Is OS PU 0 and 1 allowed to this process (OMP_PLACES={0},{1} binds)? */
static int pus_0_1_allowed(void)
{
  cpu_set_t set;
  return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_ISSET(0, &set) &&
         CPU_ISSET(1, &set);
}

/* Run argv with the "NAME=VALUE" entries of extra (NULL-terminated), then
 * OMP_EXT_TIMING set to a fresh file, then inject ("NAME=VALUE", or NULL);
 * asserts exit 0 and, unless want_out is NULL, that standard output.
 * Returns the timing file's text (the caller frees it). */
static char *timed_run(char *const argv[], char *const extra[], const char *inject,
                       const char *want_out)
{
  char file[] = "/tmp/omp_ext_timing_XXXXXX", envt[128], envi[512], *env[16], *json;
  unsigned k = 0;
  struct run_result r;
  int fd = mkstemp(file);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  while (extra && extra[k] && k < 13) {
    env[k] = extra[k];
    k++;
  }
  snprintf(envt, sizeof(envt), "OMP_EXT_TIMING=%s", file);
  env[k++] = envt;
  if (inject) {
    snprintf(envi, sizeof(envi), "%s", inject);
    env[k++] = envi;
  }
  env[k] = NULL;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  if (want_out)
    CU_ASSERT_STRING_EQUAL(r.out, want_out);
  run_free(&r);
  json = slurp(file);
  unlink(file);
  CU_ASSERT_PTR_NOT_NULL_FATAL(json);
  return json;
}

/* \p bound: run under OMP_PLACES={0},{1} OMP_PROC_BIND=close, and check
 * the bindings the file records: thread 0 on PU 0, thread 1 on PU 1. */
static void run_and_check(const char *bin, const char *inject, int timer, int bound)
{
  char e1[] = "OMP_EXT_HT_POLICY=", e2[] = "OMP_TOOL_LIBRARIES=", e3[] = "LD_PRELOAD=";
  char p1[] = "OMP_PLACES={0},{1}", p2[] = "OMP_PROC_BIND=close";
  char *extra[] = {e1, e2, e3, p1, p2, NULL}, *argv[] = {(char *)bin, NULL}, obj[2048], *json;
  if (!bound)
    extra[3] = NULL; /* (no places) */
  json = timed_run(argv, extra, inject, "done\n");
  /* exactly the two outermost regions (the nested one counts in its outer) */
  CU_ASSERT_EQUAL(count(json, "\"kind\": \"parallel\""), 2);
  check_region(json, "region_scales+", 5, "\"team_sizes\": [2]");
  check_region(json, "region_flat+", 3, "\"team_sizes\": [1, 2]");
  CU_ASSERT(num_after(json, "\"serial_s\": ") >= 0.05);
  CU_ASSERT(num_after(json, "\"regions_s\": ") > 0);
  /* every thread's binding, once per (region, team size): one record for
   * region_scales' team of 2, two for region_flat's teams of 1 and 2 */
  CU_ASSERT_EQUAL(count(json, "{\"team\": 2, \"threads\": [{\"cpus\": \""), 2);
  CU_ASSERT_EQUAL(count(json, "{\"team\": 1, \"threads\": [{\"cpus\": \""), 1);
  CU_ASSERT_EQUAL(count(json, "{\"cpus\": "), 5);
  if (bound) {
    obj[0] = '\0';
    { /* its line (the region's object holds braces of its own) */
      const char *p = strstr(json, "{\"name\": \"region_scales+");
      const char *e = p ? strchr(p, '\n') : NULL;
      if (p && e)
        snprintf(obj, sizeof(obj), "%.*s", (int)(e - p), p);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(obj, "\"bindings\": [{\"team\": 2, \"threads\": "
                                       "[{\"cpus\": \"0\", \"pu\": 0}, {\"cpus\": \"1\", \"pu\": 1}]}]"));
  }
  if (timer) {
    CU_ASSERT_EQUAL(count(json, "\"kind\": \"timer\""), 1);
    check_region(json, "setup", 2, "\"team_sizes\": [1]");
  }
  free(json);
}

/* A timing file that cannot be written, also only at its end (a full
 * device): one line on stderr, the program's own exit status kept. */
static void test_unwritable(void)
{
  char e1[] = "OMP_EXT_HT_POLICY=", e2[] = "OMP_EXT_TIMING=/dev/full",
       e3[] = "OMP_EXT_TIMING=/nonexistent/t.json";
  char *env[] = {e1, e2, NULL}, *argv[] = {(char *)TIMING_PROBE_BIN, NULL};
  struct run_result r;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "done\n");
  CU_ASSERT_STRING_EQUAL(r.err, "omp_ext: OMP_EXT_TIMING: cannot write '/dev/full': "
                                "No space left on device\n");
  run_free(&r);
  env[1] = e3;
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "omp_ext: OMP_EXT_TIMING: cannot write '/nonexistent/t.json': "
                                "No such file or directory\n");
  run_free(&r);
}

/* A fresh folder for timing files: dir[] "/tmp/omp_ext_timing_dir_XXXXXX". */
static void make_dir(char *dir)
{
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

/* The names in \p dir (not . and ..), newline-separated, sorted, into
 * out[len]; returns how many. */
static unsigned list_dir(const char *dir, char *out, size_t len)
{
  struct dirent **e;
  int n = scandir(dir, &e, NULL, alphasort), i;
  unsigned k = 0;
  out[0] = '\0';
  for (i = 0; i < n; i++) {
    if (strcmp(e[i]->d_name, ".") && strcmp(e[i]->d_name, "..")) {
      snprintf(out + strlen(out), len - strlen(out), "%s\n", e[i]->d_name);
      k++;
    }
    free(e[i]);
  }
  free(e);
  return k;
}

/* Remove dir and the files in it. */
static void remove_dir(const char *dir)
{
  char names[4096], *p, *nl, path[8192];
  list_dir(dir, names, sizeof(names));
  for (p = names; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
    *nl = '\0';
    snprintf(path, sizeof(path), "%s/%s", dir, p);
    unlink(path);
  }
  rmdir(dir);
}

static void write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs(text, f);
  fclose(f);
}

/* Run timing_probe (bin) with args and OMP_EXT_TIMING=\p timing (plus the
 * injection for the plain build): its result. */
static void probe(const char *bin, const char *arg1, const char *arg2, const char *timing,
                  struct run_result *r)
{
  char envt[600], e1[] = "OMP_EXT_HT_POLICY=", inj[512] = "OMP_EXT_UNUSED=";
  char *env[] = {e1, envt, inj, NULL};
  char *argv[] = {(char *)bin, (char *)arg1, (char *)arg2, NULL};
  snprintf(envt, sizeof(envt), "OMP_EXT_TIMING=%s", timing);
  if (strcmp(bin, TIMING_PROBE_PLAIN_BIN) == 0)
    snprintf(inj, sizeof(inj), "%s",
             is_libomp() ? "OMP_TOOL_LIBRARIES=" LIBOMP_EXT : "LD_PRELOAD=" LIBOMP_EXT);
  CU_ASSERT_EQUAL_FATAL(run_capture(argv, env, r), 0);
}

/* A full device while the file is written (here: the file size limit) leaves
 * no truncated JSON: the old file stays whole, no temporary file is left,
 * and the error names the reason. */
static void test_atomic_write(void)
{
  char dir[] = "/tmp/omp_ext_timing_dir_XXXXXX", path[128], want[256], names[4096], *text;
  struct run_result r;
  make_dir(dir);
  snprintf(path, sizeof(path), "%s/t.json", dir);
  write_text(path, "old\n");
  probe(TIMING_PROBE_BIN, "big", NULL, path, &r);
  CU_ASSERT_EQUAL(r.status, 0);
  snprintf(want, sizeof(want), "omp_ext: OMP_EXT_TIMING: cannot write '%s': File too large\n",
           path);
  CU_ASSERT_STRING_EQUAL(r.err, want);
  run_free(&r);
  text = slurp(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_STRING_EQUAL(text, "old\n");
  free(text);
  CU_ASSERT_EQUAL(list_dir(dir, names, sizeof(names)), 1);
  CU_ASSERT_STRING_EQUAL(names, "t.json\n");
  remove_dir(dir);
}

/* A process that recorded nothing writes nothing: an existing file is
 * kept; under "%p" an OpenMP process writes a file that lists no region
 * (watched, none ran), a process without OpenMP (a wrapper script,
 * `timeout`) none at all. */
static void test_nothing_recorded(void)
{
#ifdef OMP_EXT_SANITIZED
  OMP_EXT_SKIP("sanitizer build: libomp_ext preloaded into /bin/sh needs ASan first in the library list");
  if (1)
    return;
#endif
  const char *bins[] = {TIMING_PROBE_BIN, TIMING_PROBE_PLAIN_BIN};
  char dir[] = "/tmp/omp_ext_timing_dir_XXXXXX", path[128], pattern[128], names[4096], *text;
  char envt[200], pre[] = "LD_PRELOAD=" LIBOMP_EXT, *p, *nl;
  char *env[] = {envt, pre, NULL}, *sh[] = {"/bin/sh", "-c", "true", NULL};
  struct run_result r;
  unsigned b;
  make_dir(dir);
  snprintf(path, sizeof(path), "%s/t.json", dir);
  snprintf(pattern, sizeof(pattern), "%s/t.%%p.json", dir);
  for (b = 0; b < 2; b++) {
    write_text(path, "old\n");
    probe(bins[b], "none", NULL, path, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    run_free(&r);
    text = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "old\n");
    free(text);
    probe(bins[b], "none", NULL, pattern, &r);
    run_free(&r);
    /* (injected into libomp by OMP_TOOL_LIBRARIES, the layer is loaded only
     * when the runtime starts: a program that runs no OpenMP construct
     * never loads it, and writes nothing) */
    CU_ASSERT_EQUAL(list_dir(dir, names, sizeof(names)), is_libomp() && b == 1 ? 1 : 2);
    for (p = names; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
      char file[4400];
      *nl = '\0';
      if (strcmp(p, "t.json") == 0)
        continue;
      snprintf(file, sizeof(file), "%s/%s", dir, p);
      CU_ASSERT_PTR_NOT_NULL_FATAL(text = slurp(file));
      CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"omp_ext_timing\": 1"));
      CU_ASSERT_PTR_NULL(strstr(text, "\"kind\""));
      free(text);
      unlink(file);
    }
  }
  snprintf(envt, sizeof(envt), "OMP_EXT_TIMING=%s", pattern);
  CU_ASSERT_EQUAL_FATAL(run_capture(sh, env, &r), 0);
  CU_ASSERT_EQUAL(r.status, 0);
  run_free(&r);
  CU_ASSERT_EQUAL(list_dir(dir, names, sizeof(names)), 1);
  remove_dir(dir);
}

/* "%p": each process its own file, named by its PID, which the file
 * records; a forked child's regions in its own file, not its parent's. */
static void test_per_process(void)
{
#ifdef OMP_EXT_SANITIZED
  OMP_EXT_SKIP("sanitizer build: a forked child's stderr carries the sanitizer's own lines");
  if (1)
    return;
#endif
  const char *bins[] = {TIMING_PROBE_BIN, TIMING_PROBE_PLAIN_BIN};
  char dir[] = "/tmp/omp_ext_timing_dir_XXXXXX", pattern[128], names[4096];
  char *nl, *json, *parent = NULL, *child = NULL, *p, path[8192];
  struct run_result r;
  unsigned b;
  for (b = 0; b < 2; b++) {
    strcpy(dir, "/tmp/omp_ext_timing_dir_XXXXXX");
    make_dir(dir);
    snprintf(pattern, sizeof(pattern), "%s/t.%%p.json", dir);
    probe(bins[b], "fork", NULL, pattern, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out, "done\n");
    CU_ASSERT_STRING_EQUAL(r.err, "");
    run_free(&r);
    CU_ASSERT_EQUAL(list_dir(dir, names, sizeof(names)), 2);
    parent = child = NULL;
    for (p = names; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
      char pid[32];
      *nl = '\0';
      CU_ASSERT_EQUAL(strncmp(p, "t.", 2), 0);
      CU_ASSERT_EQUAL(sscanf(p, "t.%31[0-9].json", pid), 1);
      snprintf(path, sizeof(path), "%s/%s", dir, p);
      json = slurp(path);
      CU_ASSERT_PTR_NOT_NULL_FATAL(json);
      CU_ASSERT_EQUAL((long)num_after(json, "\"pid\": "), atol(pid));
      CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"program\": \"/"));
      if (strstr(json, "region_flat+"))
        parent = json;
      else
        child = json;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(parent);
    CU_ASSERT_PTR_NOT_NULL_FATAL(child);
    check_region(parent, "region_flat+", 2, "\"team_sizes\": [1, 2]");
    CU_ASSERT_PTR_NULL(strstr(parent, "region_tiny+"));
    check_region(child, "region_tiny+", 2, "\"team_sizes\": [1]");
    CU_ASSERT_PTR_NULL(strstr(child, "region_flat+"));
    free(parent);
    free(child);
    remove_dir(dir);
  }
}

/* Bounded memory per region: a million instances keep at most
 * OMP_EXT_TIMING_MAXSAMPLES samples (the median's), and the peak resident
 * set grows by less than every instance's 8 bytes would take. */
static void test_bounded(void)
{
#ifdef OMP_EXT_SANITIZED
  OMP_EXT_SKIP("sanitizer build: ASan's shadow memory and quarantine, not the layer, set the peak RSS");
  if (1)
    return;
#endif
  const char *bins[] = {TIMING_PROBE_BIN, TIMING_PROBE_PLAIN_BIN};
  char file[] = "/tmp/omp_ext_timing_XXXXXX", obj[2048], *json;
  struct run_result r;
  unsigned b;
  int fd = mkstemp(file);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  for (b = 0; b < 2; b++) {
    long rss = -1;
    probe(bins[b], "many", "1000000", file, &r);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_EQUAL(sscanf(r.out, "rss_kb %ld", &rss), 1);
    CU_ASSERT(rss >= 0 && rss < 4096); /* (every instance: 7.8 MB) */
    run_free(&r);
    json = slurp(file);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    check_region(json, "region_tiny+", 1000000, "\"team_sizes\": [1]");
    region(json, "region_tiny+", obj, sizeof(obj));
    CU_ASSERT_EQUAL((long)num_after(obj, "\"median_samples\": "), 1024);
    free(json);
  }
  unlink(file);
}

/* Many named measurements (a hash table finds each): every one with its
 * own 2 instances; a name of 600 characters whole. */
static void test_many_names(void)
{
  char file[] = "/tmp/omp_ext_timing_XXXXXX", obj[2048], name[700], *json;
  struct run_result r;
  int fd = mkstemp(file);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  probe(TIMING_PROBE_BIN, "names", "40000", file, &r);
  CU_ASSERT_EQUAL(r.status, 0);
  run_free(&r);
  json = slurp(file);
  CU_ASSERT_PTR_NOT_NULL_FATAL(json);
  CU_ASSERT_EQUAL(count(json, "\"kind\": \"timer\""), 40001);
  CU_ASSERT_EQUAL(count(json, "\"instances\": 2,"), 40000);
  region(json, "name-39999\"", obj, sizeof(obj));
  CU_ASSERT_PTR_NOT_NULL(strstr(obj, "\"instances\": 2,"));
  memset(name, 'x', 600);
  name[600] = '\0';
  snprintf(obj, sizeof(obj), "{\"name\": \"%s\", \"kind\": \"timer\"", name);
  CU_ASSERT_PTR_NOT_NULL(strstr(json, obj));
  free(json);
  unlink(file);
}

static void test_linked(void)
{
  run_and_check(TIMING_PROBE_BIN, NULL, 1, 0);
  if (pus_0_1_allowed())
    run_and_check(TIMING_PROBE_BIN, NULL, 1, 1);
}

static void test_injected(void)
{
  const char *inject =
    is_libomp() ? "OMP_TOOL_LIBRARIES=" LIBOMP_EXT : "LD_PRELOAD=" LIBOMP_EXT;
  run_and_check(TIMING_PROBE_PLAIN_BIN, inject, 0, 0);
  if (pus_0_1_allowed())
    run_and_check(TIMING_PROBE_PLAIN_BIN, inject, 0, 1);
}

/* A region whose thread 0 sleeps 20 ms, 3 times: each instance at least
 * 20 ms, all of them within the wall time (the region clock's ticks, the
 * TSC where the kernel keeps time with it, converted at the right rate). */
static void test_clock(void)
{
  char w[] = "OMP_WAIT_POLICY=passive", e1[] = "OMP_EXT_HT_POLICY=";
  char *extra[] = {w, e1, NULL}, *json;
  const char *bins[] = {TIMING_PROBE_BIN, TIMING_PROBE_PLAIN_BIN};
  char obj[1024];
  unsigned b;
  for (b = 0; b < 2; b++) {
    char *argv[] = {(char *)bins[b], (char *)"sleep", NULL};
    json = timed_run(argv, extra,
                     b == 0 ? NULL
                     : is_libomp() ? "OMP_TOOL_LIBRARIES=" LIBOMP_EXT
                                   : "LD_PRELOAD=" LIBOMP_EXT,
                     NULL);
    check_region(json, "region_sleep+", 3, "\"team_sizes\": [2]");
    region(json, "region_sleep+", obj, sizeof(obj));
    CU_ASSERT(num_after(obj, "\"min_s\": ") >= 0.020);
    CU_ASSERT(num_after(obj, "\"total_s\": ") <= num_after(json, "\"wall_s\": "));
    CU_ASSERT(num_after(json, "\"regions_s\": ") <= num_after(json, "\"wall_s\": "));
    free(json);
  }
}

/* Several root threads run the same region at the same time (each thread
 * adds its instances to its own part of the region, merged at exit):
 * every instance counted, one team size, one binding record. */
static void run_roots(const char *bin, const char *inject)
{
  char w[] = "OMP_WAIT_POLICY=passive", e1[] = "OMP_EXT_HT_POLICY=";
  char *extra[] = {w, e1, NULL}, *argv[] = {(char *)bin, (char *)"roots", NULL};
  char *json = timed_run(argv, extra, inject, "done\n");
  CU_ASSERT_EQUAL(count(json, "\"kind\": \"parallel\""), 1);
  check_region(json, "region_roots+", 3 * 100, "\"team_sizes\": [2]");
  CU_ASSERT_EQUAL(count(json, "{\"team\": 2, \"threads\": ["), 1);
  free(json);
}

static void test_roots(void)
{
  run_roots(TIMING_PROBE_BIN, NULL);
  run_roots(TIMING_PROBE_PLAIN_BIN,
            is_libomp() ? "OMP_TOOL_LIBRARIES=" LIBOMP_EXT : "LD_PRELOAD=" LIBOMP_EXT);
}

/* The in-code API: statistics of a named measurement, and its errors. */
static void test_timer_api(void)
{
  omp_ext_timer_stats_t s;
  CU_ASSERT_EQUAL(omp_ext_timer_start(NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_timer_start(""), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_timer_stop("never"), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_timer_stats("never", &s), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_timer_stats("x", NULL), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_timer_start("api"), 0);
  CU_ASSERT_EQUAL(omp_ext_timer_stop("api"), 0);
  CU_ASSERT_EQUAL(omp_ext_timer_stop("api"), omp_ext_err_invalid); /* not started again */
  CU_ASSERT_EQUAL(omp_ext_timer_start("api"), 0);
  usleep(1000);
  CU_ASSERT_EQUAL(omp_ext_timer_stop("api"), 0);
  CU_ASSERT_EQUAL_FATAL(omp_ext_timer_stats("api", &s), 0);
  CU_ASSERT_EQUAL(s.instances, 2);
  CU_ASSERT(s.max_s >= 0.001 && s.min_s <= s.median_s && s.median_s <= s.max_s);
  CU_ASSERT(s.total_s >= s.max_s && s.mean_s * 2 > s.total_s - 1e-12);
}

static CU_TestInfo timing_tests[] = {
  {"OMP_EXT_TIMING, linked: regions, instances, team sizes, serial part, timer", test_linked},
  {"OMP_EXT_TIMING injected (OMP_TOOL_LIBRARIES / LD_PRELOAD)", test_injected},
  {"OMP_EXT_TIMING: a region's clock against a 20 ms sleep and the wall time", test_clock},
  {"OMP_EXT_TIMING, 3 root threads in the same region at once: every instance", test_roots},
  {"omp_ext_timer_* statistics and errors", test_timer_api},
  {"OMP_EXT_TIMING that cannot be written (missing folder, full device)", test_unwritable},
  {"OMP_EXT_TIMING written atomically: a full device keeps the old file whole", test_atomic_write},
  {"OMP_EXT_TIMING: a process that recorded nothing writes nothing", test_nothing_recorded},
  {"OMP_EXT_TIMING=DIR/t.%p.json: a file per process, a forked child's own", test_per_process},
  {"OMP_EXT_TIMING: a million instances in bounded memory", test_bounded},
  {"OMP_EXT_TIMING: 40000 named measurements, a 600-character name", test_many_names},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"timing (" OMP_RUNTIME_NAME ")", NULL, NULL, NULL, NULL, timing_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
