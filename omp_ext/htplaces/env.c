/*
 * htplaces doctor, environment part: the conflicts between the OMP_* /
 * KMP_* / GOMP_* variables as the two runtimes resolve them, as findings
 * (analysis.h; section environment, position the variable).  Prints
 * nothing: doctor_report.c prints.
 *
 *  - libgomp (env.c, initialize_env): OMP_PLACES is parsed first; when it is
 *    valid, GOMP_CPU_AFFINITY is parsed but not used.
 *  - libomp (kmp_settings.cpp, __kmp_stg_check_rivals): KMP_AFFINITY is a
 *    rival of OMP_PLACES and OMP_PROC_BIND and, when set, wins ("ignored
 *    because KMP_AFFINITY has been defined"); an invalid OMP_PLACES warns and
 *    falls back to cores (__kmp_places_syntax_error_fallback).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "private/util.h"

/* Value of NAME in envp, or NULL (no envp: nothing is set). */
static const char *env_get(char *const envp[], const char *name)
{
  return envp ? omp_ext_env_get(envp, name) : NULL;
}

int htp_is_runtime_var(const char *entry)
{
  return strncmp(entry, "OMP_", 4) == 0 || strncmp(entry, "KMP_", 4) == 0 ||
         strncmp(entry, "GOMP_", 5) == 0;
}

struct envrep {
  struct htp_findings *out;
  unsigned conflicts;
};

static struct htp_finding *conflict(struct envrep *r, enum htp_finding_kind kind,
                                    const char *variable)
{
  struct htp_finding *f = htp_finding_add(r->out, kind, htp_section_environment,
                                          htp_at_variable, 0);
  if (f)
    f->variable = variable;
  r->conflicts++;
  return f;
}

/* OMP_PROC_BIND: true, false, or a list of primary/master/close/spread. */
static int proc_bind_valid(const char *v, int *is_false)
{
  static const char *const words[] = {"true", "false", "primary", "master", "close", "spread"};
  unsigned items = 0, k;
  *is_false = 0;
  for (;;) {
    size_t len;
    while (isspace((unsigned char)*v))
      v++;
    len = strcspn(v, ", \t\n");
    for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
      if (strlen(words[k]) == len && strncasecmp(v, words[k], len) == 0)
        break;
    if (k == sizeof(words) / sizeof(words[0]) || (k < 2 && items > 0))
      return 0;
    if (k == 1)
      *is_false = 1;
    items++;
    v += len;
    while (isspace((unsigned char)*v))
      v++;
    if (!*v)
      return k >= 2 || items == 1;
    if (*v != ',' || k < 2)
      return 0;
    v++;
  }
}

/* First value of OMP_NUM_THREADS ("8" or "8,4"); 0 if invalid. */
static unsigned long num_threads(const char *v)
{
  const char *end;
  unsigned long long n;
  while (isspace((unsigned char)*v))
    v++;
  if (omp_ext_scan_uint(v, &end, ~0UL, &n) == OMP_EXT_UINT_MALFORMED)
    return 0;
  while (isspace((unsigned char)*end))
    end++;
  return (*end == '\0' || *end == ',') ? (unsigned long)n : 0;
}

/* What 'htplaces check' finds wrong with a valid list on this topology
 * (PUs outside the machine or the allowed set, shared PUs, places spanning
 * cores, siblings before cores...): one conflict naming the variable, the
 * number of problems and their kinds. */
static void check_problems(struct envrep *r, const omp_ext_topo_t *topo, const char *name,
                           const omp_ext_placelist_t *l)
{
  struct htp_check_report rep;
  struct htp_finding *f;
  char kinds[256] = "";
  unsigned i, problems = 0;
  size_t len = 0;
  if (htp_check_analyze(topo, l, &rep) == 0) {
    for (i = 0; i < rep.findings.n; i++) {
      const char *k = htp_finding_name(rep.findings.v[i].kind);
      if (htp_finding_severity(rep.findings.v[i].kind) != htp_severity_problem)
        continue;
      problems++;
      if (!strstr(kinds, k) && len + strlen(k) + 3 < sizeof(kinds))
        len += (size_t)snprintf(kinds + len, sizeof(kinds) - len, "%s%s", len ? ", " : "", k);
    }
    if (problems && (f = conflict(r, htp_finding_list_problems, name)) != NULL) {
      htp_put_uint(r->out, f, "problems", problems);
      htp_put_text(r->out, f, "kinds", kinds);
    }
  }
  htp_check_report_free(&rep);
}

/* Parse a variable's value; a conflict when invalid, or when check finds
 * problems with it here.  Returns the number of places, or -1 when invalid
 * or unset. */
static long check_list(struct envrep *r, const omp_ext_topo_t *topo, const char *name,
                       const char *value, omp_ext_syntax_t syntax)
{
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t e = {0, NULL};
  struct htp_finding *f;
  long n;
  int err;
  if (!value)
    return -1;
  err = omp_ext_places_parse(topo, value, syntax, &l, &e);
  if (err == omp_ext_err_parse) {
    f = conflict(r, htp_finding_invalid_list, name);
    htp_put_uint(r->out, f, "character", e.pos + 1);
    htp_put_text(r->out, f, "reason", e.what);
    return -1;
  }
  if (err)
    return -1;
  n = (long)l->nplaces;
  check_problems(r, topo, name, l);
  omp_ext_placelist_destroy(l);
  return n;
}

/* OMP_EXT_HT_POLICY as libomp_ext reads it (bind.c, auto.c): POLICY[:N]
 * (N a positive whole number) or auto[:time|:energy][:threads] (util.c's
 * reading, the library's). */
static int ht_policy_valid(const char *v)
{
  char name[16];
  size_t len = strcspn(v, ":");
  unsigned long long n;
  omp_ht_policy_t p;
  int energy, threads, a = omp_ext_auto_value(v, &energy, &threads);
  if (a != 0)
    return a > 0;
  if (len >= sizeof(name))
    return 0;
  memcpy(name, v, len);
  name[len] = '\0';
  return omp_ext_policy_from_name(name, &p) == 0 && omp_ext_policy_has_order(p) == 1 &&
         (!v[len] || omp_ext_parse_uint(v + len + 1, 1, 1 << 20, &n) == OMP_EXT_UINT_OK);
}

/* OMP_EXT_PLAN as libomp_ext reads it at the first region: a path or the
 * plan text itself, checked by the library's own check
 * (omp_ext_plan_check); a path that is missing or not a regular file is a
 * finding of its own. */
static void check_plan(struct envrep *r, const omp_ext_topo_t *topo, const char *v)
{
  struct htp_finding *f;
  struct stat st;
  char msg[1024];
  int text = strncmp(v, "omp_ext_plan", 12) == 0 && (v[12] == ' ' || v[12] == '\t');
  if (omp_ext_plan_check(v, topo, msg, sizeof(msg)) == 0)
    return;
  if (!text && stat(v, &st) != 0) {
    f = conflict(r, htp_finding_plan_missing, "OMP_EXT_PLAN");
    htp_put_text(r->out, f, "value", v);
    htp_put_text(r->out, f, "reason", strerror(errno));
  } else if (!text && !S_ISREG(st.st_mode)) {
    htp_put_text(r->out, conflict(r, htp_finding_plan_not_file, "OMP_EXT_PLAN"), "value", v);
  } else {
    f = conflict(r, htp_finding_plan_invalid, "OMP_EXT_PLAN");
    htp_put_text(r->out, f, "value", v);
    htp_put_text(r->out, f, "reason", msg[0] ? msg : "cannot be checked");
  }
}

/* OMP_EXT_LEARN as libomp_ext uses it: a folder it can make files in (the
 * state is written at exit, temp + rename), and only under
 * OMP_EXT_HT_POLICY=auto (else a note: nothing is learnt). */
static void check_learn(struct envrep *r, const char *ht, const char *v)
{
  struct htp_finding *f;
  struct stat st;
  char probe[4200];
  const char *why = NULL;
  int energy, threads, fd;
  if (!ht || omp_ext_auto_value(ht, &energy, &threads) != 1) {
    if ((f = htp_finding_add(r->out, htp_finding_learn_ignored, htp_section_environment,
                             htp_at_variable, 0)) != NULL)
      f->variable = "OMP_EXT_LEARN";
    return;
  }
  if (stat(v, &st) != 0)
    why = strerror(errno);
  else if (!S_ISDIR(st.st_mode))
    why = "not a folder";
  else if (snprintf(probe, sizeof(probe), "%s/.htplaces-doctor-XXXXXX", v) >= (int)sizeof(probe))
    why = "a path too long";
  else if ((fd = mkstemp(probe)) < 0)
    why = strerror(errno);
  else
    close(fd), unlink(probe);
  if (!why)
    return;
  f = conflict(r, htp_finding_learn_invalid, "OMP_EXT_LEARN");
  htp_put_text(r->out, f, "value", v);
  htp_put_text(r->out, f, "reason", why);
}

unsigned htp_env_analyze(char *const envp[], const omp_ext_topo_t *topo,
                         struct htp_findings *out)
{
  struct envrep r = {out, 0};
  const char *places = env_get(envp, "OMP_PLACES"), *bind = env_get(envp, "OMP_PROC_BIND");
  const char *gomp = env_get(envp, "GOMP_CPU_AFFINITY"), *kmp = env_get(envp, "KMP_AFFINITY");
  const char *nth = env_get(envp, "OMP_NUM_THREADS"), *ht = env_get(envp, "OMP_EXT_HT_POLICY");
  const char *plan = env_get(envp, "OMP_EXT_PLAN"), *learn = env_get(envp, "OMP_EXT_LEARN");
  struct htp_finding *f;
  char item[256];
  const char *why;
  long nplaces;
  int bind_false = 0;

  nplaces = check_list(&r, topo, "OMP_PLACES", places, omp_ext_syntax_omp);
  /* libomp 14 crashes in a fork() child's first region when OMP_PLACES is
   * a list ("free(): invalid size", seen with and without omp_ext; an
   * abstract name does not): a note, as whether the program forks under
   * libomp is not known here. */
  if (nplaces >= 0 && !isalpha((unsigned char)places[strspn(places, " \t")]) &&
      (f = htp_finding_add(out, htp_finding_libomp_fork_places, htp_section_environment,
                           htp_at_variable, 0)) != NULL)
    f->variable = "OMP_PLACES";
  check_list(&r, topo, "GOMP_CPU_AFFINITY", gomp, omp_ext_syntax_gomp);
  /* The KMP_AFFINITY proclist, if the value has one. */
  /* (a proclist found invalid is one finding, not two) */
  if ((kmp && strstr(kmp, "proclist=") ? check_list(&r, topo, "KMP_AFFINITY", kmp,
                                                     omp_ext_syntax_kmp) >= 0 : kmp != NULL) &&
      htp_kmp_affinity_ignored(kmp, item, sizeof(item), &why)) {
    f = conflict(&r, htp_finding_kmp_affinity_ignored, "KMP_AFFINITY");
    htp_put_text(out, f, "item", item);
    htp_put_text(out, f, "reason", why);
  }
  if (bind && !proc_bind_valid(bind, &bind_false))
    htp_put_text(out, conflict(&r, htp_finding_invalid_proc_bind, "OMP_PROC_BIND"), "value",
                 bind);
  if (kmp && (places || bind)) {
    f = conflict(&r, htp_finding_kmp_affinity_wins, "KMP_AFFINITY");
    htp_put_uint(out, f, "omp_places_set", places != NULL);
    htp_put_uint(out, f, "omp_proc_bind_set", bind != NULL);
  }
  if (gomp && places && nplaces >= 0)
    conflict(&r, htp_finding_gomp_affinity_ignored, "GOMP_CPU_AFFINITY");
  if (places && bind_false)
    conflict(&r, htp_finding_proc_bind_false, "OMP_PROC_BIND");
  if (nth && num_threads(nth) == 0)
    htp_put_text(out, conflict(&r, htp_finding_num_threads_invalid, "OMP_NUM_THREADS"),
                 "value", nth);
  if (nth && num_threads(nth) > omp_ext_topo_npus(topo)) {
    f = conflict(&r, htp_finding_num_threads_above_pus, "OMP_NUM_THREADS");
    htp_put_uint(out, f, "threads", num_threads(nth));
    htp_put_uint(out, f, "pus", omp_ext_topo_npus(topo));
  } else if (nth && nplaces > 0 && num_threads(nth) > (unsigned long)nplaces) {
    f = conflict(&r, htp_finding_num_threads_above_places, "OMP_NUM_THREADS");
    htp_put_uint(out, f, "threads", num_threads(nth));
    htp_put_uint(out, f, "places", (unsigned long)nplaces);
  }
  if (ht && *ht && !ht_policy_valid(ht))
    htp_put_text(out, conflict(&r, htp_finding_ht_policy_invalid, "OMP_EXT_HT_POLICY"), "value",
                 ht);
  if (plan && *plan)
    check_plan(&r, topo, plan);
  if (learn && *learn)
    check_learn(&r, ht, learn);
  return r.conflicts;
}
