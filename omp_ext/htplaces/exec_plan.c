/*
 * htplaces exec --plan DIR|FILE -- PROG [ARGS]: run PROG with per-region
 * configurations -- from `htplaces tune --out DIR` (DIR/results.json, read
 * with cJSON), or from a plan file (auto's learnt state, DIR/PROG.plan of
 * exec auto --learn, or one written by hand).
 *
 * From tune's results, a plan that applies only what tune measured:
 *  - the global recommendation ("recommendation"."best") is the plan's
 *    default line, and the program's team: OMP_NUM_THREADS is its N, as
 *    `htplaces exec POLICY N` sets it, so that regions without a clause
 *    get the team tune measured, and its wait policy (tune --wait-policy's
 *    winner) is OMP_WAIT_POLICY;
 *  - each region tune timed gets, per team size measured, the
 *    configuration where it was fastest at that size (with that wait
 *    policy; the recommended one when within TUNE_REGION_TIE of the
 *    fastest: fewer rebinds, or when not faster in every round tune ran
 *    both, paired by round: the least of several noisy medians is biased
 *    low), lines best first.  The library applies a
 *    region's line of its team (region_int.h's contract: the team is kept
 *    unless dyn-var is true or --team-sizes made the plan "team free"), else
 *    the default if it has that team, else its base placement -- never a
 *    configuration measured for another team, and a region seen only at
 *    other team sizes follows the global recommendation;
 *  - unless what the lines of the recommendation's team win over the
 *    global configuration, a run, is at most OMP_EXT_PLAN_GLOBAL_TIE of its
 *    run time (the rule learnt states follow too): then the plan has no
 *    region line of that team, and a run at it (every run but one where
 *    the user's OMP_NUM_THREADS asks for another measured team) is its
 *    default line alone, run as `htplaces exec POLICY N` does, nothing
 *    preloaded.
 * The plan text is checked as the library checks it (omp_ext_plan_check,
 * the same function) before the program starts, and passed in OMP_EXT_PLAN
 * itself (a path only when too large for the environment): no inherited
 * file descriptor, which wrappers that close them (Python's subprocess)
 * would lose.  A plan file is checked whole the same way and passed by its
 * path.  A plan measured on a machine of another shape is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "htplaces.h"
#include "tune_int.h"
#include "private/plan_int.h"
#include "private/tools_plan.h"

/* The most bytes of a plan passed in the environment (Linux limits one
 * string to 128 KiB: MAX_ARG_STRLEN); a larger one goes to a file beside
 * tune's results. */
#define PLAN_ENV_MAX 100000

static const cJSON *get(const cJSON *o, const char *key)
{
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* Is v a JSON number with an integer value (at most 2^53: exact in a
 * double)? */
static int is_integer(const cJSON *v)
{
  return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
         fabs(v->valuedouble) <= 9007199254740992.0;
}

static int machine_matches(struct htp_ctx *ctx, const cJSON *m, const char *path)
{
  static const char *const keys[] = {"pus", "cores", "packages", "max_smt"};
  unsigned here[4], i;
  long long v[4];
  int status;
  omp_ext_topo_t *topo = htp_topo(ctx, &status);
  if (!topo)
    return status;
  here[0] = omp_ext_topo_npus(topo), here[1] = omp_ext_topo_ncores(topo);
  here[2] = omp_ext_topo_npackages(topo), here[3] = omp_ext_topo_max_smt(topo);
  for (i = 0; i < 4; i++) {
    const cJSON *k = get(m, keys[i]);
    if (!is_integer(k))
      return htp_error(HTP_EXIT_USAGE, "plan %s: \"machine\".\"%s\" missing; expected htplaces "
                       "tune's results.json", path, keys[i]);
    v[i] = (long long)k->valuedouble;
  }
  for (i = 0; i < 4; i++)
    if (v[i] != (long long)here[i])
      return htp_error(HTP_EXIT_USAGE, "plan %s was made on another machine (%lld PUs, %lld "
                       "cores, %lld packages, SMT %lld; here %u, %u, %u, %u): run htplaces "
                       "tune here", path, (long long)v[0], (long long)v[1], (long long)v[2],
                       (long long)v[3], here[0], here[1], here[2], here[3]);
  return HTP_EXIT_OK;
}

/* One of tune's configurations, as a plan uses it. */
struct config {
  char policy[16];
  long long threads;
  const char *places; /* NULL: unbound */
  int wait;           /* 0 unset, 1 passive, 2 active */
  int run_time;       /* auto: measured beside, never a placement */
  double time_s;      /* its runs' median wall time (NAN: not given) */
  const cJSON *regions;
};

/* Configuration \p i of \p configs checked: a known policy, threads
 * 1 .. \p npus, places text (or null for none), a wait policy. */
static int config_of(const cJSON *configs, size_t i, long long npus, const char *path,
                     struct config *c)
{
  omp_ht_policy_t base;
  const cJSON *o = cJSON_GetArrayItem(configs, (int)i), *pl;
  const char *policy, *wait;
  size_t k;
  memset(c, 0, sizeof(*c));
  if (!cJSON_IsObject(o) || !is_integer(get(o, "threads")) ||
      !(policy = cJSON_GetStringValue(get(o, "policy"))))
    return htp_error(HTP_EXIT_USAGE, "plan %s: configuration %zu missing or without "
                     "\"policy\"/\"threads\"", path, i);
  c->run_time = cJSON_IsTrue(get(o, "run_time")) || strcmp(policy, "auto") == 0;
  c->threads = (long long)get(o, "threads")->valuedouble;
  c->regions = get(o, "regions");
  c->time_s = cJSON_IsNumber(get(get(o, "time_s"), "median"))
                ? get(get(o, "time_s"), "median")->valuedouble : NAN;
  if (c->run_time)
    return HTP_EXIT_OK;
  /* k 0: none; 1: a base policy (the policy table's) */
  k = strcmp(policy, "none") != 0;
  if (k && (omp_ext_policy_from_name(policy, &base) != 0 || omp_ext_policy_is_base(base) != 1))
    return htp_error(HTP_EXIT_USAGE, "plan %s: configuration %zu has policy '%s'; allowed: "
                     "none, %s (or auto, measured beside)", path, i, policy,
                     htp_policy_names(1));
  snprintf(c->policy, sizeof(c->policy), "%s", policy);
  pl = get(o, "omp_places");
  if (c->threads < 1 || c->threads > npus || (cJSON_IsString(pl) == (k == 0) && !(k == 0 && !pl)))
    return htp_error(HTP_EXIT_USAGE, "plan %s: configuration %zu has invalid \"threads\" "
                     "(%lld; allowed: 1..%lld, the machine's PUs) or \"omp_places\" (a list, "
                     "null for none)", path, i, (long long)c->threads, (long long)npus);
  c->places = cJSON_GetStringValue(pl);
  wait = cJSON_GetStringValue(get(o, "wait"));
  c->wait = !wait || strcmp(wait, "unset") == 0 ? 0 : strcmp(wait, "passive") == 0 ? 1
          : strcmp(wait, "active") == 0 ? 2 : -1;
  if (c->wait < 0)
    return htp_error(HTP_EXIT_USAGE, "plan %s: configuration %zu has \"wait\" '%s'; allowed: "
                     "unset, passive, active", path, i, wait);
  return HTP_EXIT_OK;
}

/* "THREADS PLACES LABEL" of \p c. */
static void put_config(FILE *f, const struct config *c)
{
  fprintf(f, "%lld %s %s:%lld", (long long)c->threads, c->places ? c->places : "-", c->policy,
          (long long)c->threads);
}

/* Region \p key's entry in configuration \p c's "regions" (NULL). */
static const cJSON *region_of(const struct config *c, const char *key)
{
  const cJSON *r;
  cJSON_ArrayForEach(r, c->regions) {
    const char *rk = cJSON_GetStringValue(get(r, "key"));
    if (rk && strcmp(rk, key) == 0)
      return r;
  }
  return NULL;
}

/* Region \p key's total seconds per run under configuration \p c (its
 * median; -1: not timed there). */
static double region_total(const struct config *c, const char *key)
{
  const cJSON *r = region_of(c, key);
  return cJSON_IsNumber(get(r, "total_s")) ? get(r, "total_s")->valuedouble : -1;
}

/* Region \p key's total in round \p round under \p c: its "totals_s" of
 * that round ("rounds"); -1 when not timed in that round. */
static double round_total(const cJSON *r, double round)
{
  const cJSON *rounds = get(r, "rounds"), *totals = get(r, "totals_s"), *x;
  int i = 0;
  cJSON_ArrayForEach(x, rounds) {
    const cJSON *t = cJSON_GetArrayItem(totals, i++);
    if (cJSON_IsNumber(x) && x->valuedouble == round && cJSON_IsNumber(t))
      return t->valuedouble;
  }
  return -1;
}

/* Is region \p key faster under \p a than under \p g in every round tune
 * ran both (paired by round: a sign test, 5 of 5 rounds p = 0.03)?  1 yes,
 * 0 no, -1 not known (fewer than TUNE_PLAN_MIN_PAIRED paired rounds: a
 * results.json without per-round totals). */
static int wins_every_round(const struct config *a, const struct config *g, const char *key)
{
  const cJSON *ra = region_of(a, key), *rg = region_of(g, key);
  const cJSON *rounds = get(ra, "rounds"), *totals = get(ra, "totals_s");
  unsigned paired = 0;
  int i, n = cJSON_GetArraySize(rounds);
  double tg;
  if (!ra || !rg)
    return -1;
  for (i = 0; i < n; i++) {
    const cJSON *x = cJSON_GetArrayItem(rounds, i), *t = cJSON_GetArrayItem(totals, i);
    if (!cJSON_IsNumber(x) || !cJSON_IsNumber(t) || (tg = round_total(rg, x->valuedouble)) < 0)
      continue;
    if (t->valuedouble >= tg)
      return 0;
    paired++;
  }
  return paired >= TUNE_PLAN_MIN_PAIRED ? 1 : -1;
}

struct choice {
  size_t config;
  double total;
};

static int by_total(const void *x, const void *y)
{
  double a = ((const struct choice *)x)->total, b = ((const struct choice *)y)->total;
  return (a > b) - (a < b);
}

/* The region lines of summary region \p r: per team size, its fastest
 * configuration (the global one when tied), best first, into \p f (NULL:
 * none written; those of team \p skip, when > 0, not written); *gain grows
 * by what its line of the global's team wins over the global
 * configuration, seconds a run. */
static void region_lines(FILE *f, const cJSON *r, const struct config *cs, size_t n, size_t global,
                         long long skip, double *gain)
{
  const char *module = cJSON_GetStringValue(get(r, "module"));
  const char *offset = cJSON_GetStringValue(get(r, "offset"));
  const char *key = cJSON_GetStringValue(get(r, "key")), *base;
  struct choice *best = calloc(n, sizeof(*best));
  size_t i, k, nbest = 0;
  if (!key)
    key = ""; /* (no per-configuration times to look up: the summary's best) */
  if (!module || !offset || !best) {
    free(best);
    return; /* (a region tune could not name) */
  }
  for (i = 0; i < n; i++) {
    double t;
    if (cs[i].run_time || cs[i].wait != cs[global].wait || (t = region_total(&cs[i], key)) < 0)
      continue;
    for (k = 0; k < nbest && cs[best[k].config].threads != cs[i].threads; k++)
      ;
    if (k == nbest)
      best[nbest++] = (struct choice){i, t};
    else if (t < best[k].total)
      best[k] = (struct choice){i, t};
  }
  if (nbest == 0 && is_integer(get(r, "best"))) {
    /* no configuration carries the region's times (results.json written
     * by hand or by a script): the summary's own "best", as measured */
    long long b = (long long)get(r, "best")->valuedouble;
    if (b >= 0 && (size_t)b < n && !cs[b].run_time && cs[b].wait == cs[global].wait)
      best[nbest++] = (struct choice){(size_t)b, 0};
  }
  for (k = 0; k < nbest; k++) { /* the recommended configuration when tied */
    double tg = cs[global].threads == cs[best[k].config].threads ? region_total(&cs[global], key)
                                                                 : -1;
    if (tg >= 0 && (tg <= best[k].total * (1 + TUNE_REGION_TIE) ||
                    wins_every_round(&cs[best[k].config], &cs[global], key) == 0))
      best[k] = (struct choice){global, tg};
  }
  qsort(best, nbest, sizeof(*best), by_total);
  base = strrchr(module, '/');
  for (k = 0; k < nbest; k++) {
    double tg = region_total(&cs[global], key);
    if (best[k].config != global && cs[best[k].config].threads == cs[global].threads && tg >= 0)
      *gain += tg - best[k].total;
    if (!f || cs[best[k].config].threads == skip)
      continue;
    fputs("region ", f);
    omp_ext_put_field(f, base ? base + 1 : module);
    fprintf(f, " %s ", offset);
    put_config(f, &cs[best[k].config]);
    fputc('\n', f);
  }
  free(best);
}

/* Does per-region control pay (what the regions' lines win over the
 * global configuration, a run, above OMP_EXT_PLAN_GLOBAL_TIE of its run's
 * time: its start-up and bookkeeping, and the measurements' noise)?  1, or
 * 0 with a comment line saying why the plan is one configuration. */
static int regions_pay(FILE *f, const cJSON *regions, const struct config *cs, size_t n,
                       size_t global)
{
  const cJSON *r;
  double gain = 0, run = cs[global].time_s;
  cJSON_ArrayForEach(r, regions)
    region_lines(NULL, r, cs, n, global, 0, &gain);
  if (!(run > 0) || gain > OMP_EXT_PLAN_GLOBAL_TIE * run)
    return 1;
  fprintf(f, "# per-region control would win %.3g s of a %.3g s run (%.1f%%; it pays from "
          "%.0f%%): one configuration for %lld threads\n", gain, run, 100 * gain / run,
          100 * OMP_EXT_PLAN_GLOBAL_TIE, (long long)cs[global].threads);
  return 0;
}

/* The plan text of tune's results \p root into \p f; *threads and *wait
 * the recommendation's team and wait policy. */
static int write_plan(FILE *f, const cJSON *root, const char *path, const omp_ext_topo_t *topo,
                      int team_free, long long *threads, int *wait)
{
  const cJSON *configs = get(root, "configurations"), *regions, *r, *best;
  long long npus = omp_ext_topo_npus(topo);
  struct config *cs;
  size_t i, n, global;
  long long skip;
  double gain = 0;
  char machine[8192];
  int status = HTP_EXIT_OK;
  best = get(get(root, "recommendation"), "best");
  regions = get(get(root, "summary"), "regions");
  if (!cJSON_IsArray(configs) || !is_integer(best) || best->valuedouble < 0 ||
      (global = (size_t)best->valuedouble) >= (size_t)cJSON_GetArraySize(configs))
    return htp_error(HTP_EXIT_USAGE, "plan %s: no \"configurations\" or no recommended "
                     "\"best\"; expected htplaces tune's results.json", path);
  n = (size_t)cJSON_GetArraySize(configs);
  if (!(cs = calloc(n, sizeof(*cs))))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  for (i = 0; i < n && !status; i++)
    status = config_of(configs, i, npus, path, &cs[i]);
  if (!status && cs[global].run_time)
    status = htp_error(HTP_EXIT_USAGE, "plan %s: the recommended configuration %zu is auto's "
                       "(run time), not a placement", path, global);
  if (!status && omp_ext_machine_line(topo, machine, sizeof(machine)) != 0)
    status = htp_error(HTP_EXIT_FAIL, "this machine's allowed PUs do not fit a plan line");
  if (!status) {
    fprintf(f, "omp_ext_plan 2\n# htplaces exec --plan %s: the recommendation, and per region "
            "and team size its fastest measured configuration\n%s\n", path, machine);
    if (cs[global].wait)
      fprintf(f, "wait %s\n", cs[global].wait == 1 ? "passive" : "active");
    if (team_free)
      fputs("team free\n", f);
    fputs("default ", f);
    put_config(f, &cs[global]);
    fputc('\n', f);
    /* (free: other teams win; else the lines of the other teams are kept
     * for a run at one of them) */
    skip = team_free || regions_pay(f, regions, cs, n, global) ? 0 : cs[global].threads;
    cJSON_ArrayForEach(r, regions)
      region_lines(f, r, cs, n, global, skip, &gain);
    *threads = cs[global].threads, *wait = cs[global].wait;
  }
  free(cs);
  return status;
}

/* Configuration \p i of tune's results: its median time (0: not given),
 * *label "POLICY N". */
static double median_of(const cJSON *root, const cJSON *index, char *label, size_t len)
{
  const cJSON *c;
  const char *policy;
  if (!is_integer(index) || index->valuedouble < 0 ||
      !(c = cJSON_GetArrayItem(get(root, "configurations"), (int)index->valuedouble)) ||
      !cJSON_IsNumber(get(get(c, "time_s"), "median")) || !is_integer(get(c, "threads")))
    return 0;
  policy = cJSON_GetStringValue(get(c, "policy"));
  snprintf(label, len, "%s %lld", policy ? policy : "?", (long long)get(c, "threads")->valuedouble);
  return get(get(c, "time_s"), "median")->valuedouble;
}

/* A recommendation that is a tie of noisy rounds beside a configuration
 * whose median is TUNE_TIE_MAX_RATIO or more faster (tune's rule: the
 * cheapest of those not significantly slower -- one disturbed round in
 * five is enough to tie a median several times slower): said, once; the
 * plan is still tune's. */
static void warn_noisy_tie(const cJSON *root, const char *path)
{
  const cJSON *rec = get(root, "recommendation");
  char best[64], fastest[64];
  double b = median_of(root, get(rec, "best"), best, sizeof(best)),
         f = median_of(root, get(rec, "fastest"), fastest, sizeof(fastest));
  if (cJSON_IsFalse(get(rec, "significant")) && f > 0 && b > TUNE_TIE_MAX_RATIO * f)
    fprintf(stderr, "htplaces: warning: plan %s: its recommendation, %s (median %.3g s), is a "
            "tie of noisy rounds beside %s (median %.3g s, %.2g x faster): tune again on a "
            "quiet machine or with --budget\n", path, best, b, fastest, f, b / f);
}

/* Results of another program than \p prog (by file name: tune's "program"
 * [0]): said once -- its regions will not match, the recommendation's
 * team and places were measured on the other. */
static void warn_other_program(const cJSON *root, const char *path, const char *prog)
{
  const char *was = cJSON_GetStringValue(cJSON_GetArrayItem(get(root, "program"), 0)), *a, *b;
  char shown[2][4 * OMP_EXT_QUOTE_MAX + 32];
  if (!was || !prog)
    return;
  a = strrchr(was, '/') ? strrchr(was, '/') + 1 : was;
  b = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
  if (strcmp(a, b) != 0)
    fprintf(stderr, "htplaces: warning: plan %s was measured on %s, not %s: its regions will "
            "not match, and its team and places are the other program's\n", path,
            omp_ext_quote(a, shown[0], sizeof(shown[0])),
            omp_ext_quote(b, shown[1], sizeof(shown[1])));
}

/* OMP_WAIT_POLICY for the plan's \p wait (0: none): set, or refused when
 * the user set another. */
static int set_wait(int wait, const char *path)
{
  const char *user = getenv("OMP_WAIT_POLICY"), *want = wait == 1 ? "passive" : "active";
  if (!wait)
    return HTP_EXIT_OK;
  if (user && strcasecmp(user, want) != 0)
    return htp_error(HTP_EXIT_USAGE, "OMP_WAIT_POLICY=%s is set, but the plan %s was measured "
                     "with %s: unset it", user, path, want);
  return setenv("OMP_WAIT_POLICY", want, 1) == 0 ? HTP_EXIT_OK
         : htp_error(HTP_EXIT_FAIL, "cannot set the environment");
}

/* OMP_NUM_THREADS for the plan's team, unless the user set it (honoured:
 * the regions then get their lines of that team, else the base). */
static int set_threads(long long threads)
{
  char count[32];
  const char *user = getenv("OMP_NUM_THREADS");
  if (threads < 1 || (user && *user))
    return HTP_EXIT_OK;
  snprintf(count, sizeof(count), "%lld", (long long)threads);
  return setenv("OMP_NUM_THREADS", count, 1) == 0 ? HTP_EXIT_OK
         : htp_error(HTP_EXIT_FAIL, "cannot set the environment");
}

/* A plan too large for the environment (\p *text) written beside tune's
 * results \p file as omp_ext.plan (a temporary file renamed: runs at once
 * never see half of it); *text becomes its path. */
static int save_plan(const char *file, char **text)
{
  char *dir = strdup(file), *slash, *path = NULL, *tmp = NULL;
  int fd = -1, status = HTP_EXIT_OK;
  size_t len = strlen(*text);
  if (!dir)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  if (asprintf(&path, "%s/omp_ext.plan", slash ? dir : ".") < 0 ||
      asprintf(&tmp, "%s.XXXXXX", path) < 0 || (fd = mkstemp(tmp)) < 0 ||
      write(fd, *text, len) != (ssize_t)len || fchmod(fd, 0644) != 0 || close(fd) != 0 ||
      (fd = -1, rename(tmp, path) != 0)) {
    status = htp_error(HTP_EXIT_FAIL, "the plan (%zu bytes) is too large for the environment "
                       "and cannot be written as %s: %s", len, path ? path : "omp_ext.plan",
                       strerror(errno));
    if (fd >= 0)
      close(fd);
    if (tmp)
      unlink(tmp);
  }
  free(dir);
  free(tmp);
  if (status) {
    free(path);
    return status;
  }
  free(*text);
  *text = path;
  return HTP_EXIT_OK;
}

/* A plan of one configuration (omp_ext_plan_one: its lines alike, or a
 * learnt state whose samples say per-region control does not pay) for
 * the team the program gets (the user's OMP_NUM_THREADS, else the plan's
 * \p threads, else the allowed PUs) is run as `htplaces exec POLICY N`
 * runs: OMP_PLACES (or none), OMP_PROC_BIND, OMP_NUM_THREADS and nothing
 * preloaded -- the same placement without per-region control's start and
 * bookkeeping.  Not when the user asked for another team, for timing
 * files (OMP_EXT_TIMING, which the preloaded library writes), or set
 * OMP_PLACES or OMP_EXT_PLACES: then 0 (run it preloaded); else only
 * returns on an error. */
static int exec_global(struct htp_ctx *ctx, const struct omp_ext_plan *p, long long threads,
                       char **argv)
{
  const char *user = getenv("OMP_NUM_THREADS");
  struct omp_ext_plan_conf conf;
  long long team = htp_program_team(ctx, threads);
  char *places = NULL;
  int status;
  if (getenv("OMP_EXT_TIMING") || getenv("OMP_EXT_PLACES") || getenv("OMP_PLACES") ||
      team < 1 || team > UINT_MAX || !omp_ext_plan_one(p, (unsigned)team, &conf))
    return HTP_EXIT_OK; /* (the user's places: checked and used by the preloaded run) */
  if (p->learnt[0] && !htp_learnt_for(p, argv[0]))
    return HTP_EXIT_OK; /* (another program's state: the library says so) */
  if (!htp_shortcut_safe(argv[0]))
    return HTP_EXIT_OK; /* (libomp: preloaded, no OMP_PLACES -- fork() safe) */
  if ((conf.threads ? conf.threads : threads) != team ||
      (conf.places && omp_ext_placelist_canonical(conf.places, &places) != 0))
    return HTP_EXIT_OK;
  status = htp_exec_global(ctx, user && *user ? 0 : team, places, argv);
  free(places);
  return status;
}

/* A plan file (the plan format): checked whole, passed by its path; its
 * default line's team and its wait policy set as for tune's. */
static int exec_plan_file(struct htp_ctx *ctx, const char *file, int team_free, char **argv)
{
  char msg[1024], abs[PATH_MAX];
  struct omp_ext_plan *p;
  long long threads = 0;
  unsigned i;
  int status;
  omp_ext_topo_t *topo = htp_topo(ctx, &status);
  if (!topo)
    return status;
  if (team_free)
    return htp_error(HTP_EXIT_USAGE, "--team-sizes applies to htplaces tune's results; a plan "
                     "file says 'team free' itself (learnt with auto:threads)");
  if (omp_ext_plan_read(file, topo, &p, msg, sizeof(msg)) != 0)
    return htp_error(HTP_EXIT_USAGE, "--plan %s", msg[0] ? msg : "cannot be read");
  if (!realpath(file, abs)) {
    omp_ext_plan_free(p);
    return htp_error(HTP_EXIT_FAIL, "--plan %s: %s", file, strerror(errno));
  }
  for (i = 0; i < p->nlines; i++)
    if (p->lines[i].kind == OMP_EXT_PLAN_DEFAULT)
      threads = p->lines[i].threads;
  status = set_wait(p->wait, file);
  if (!status) /* (returns only when not one configuration) */
    status = exec_global(ctx, p, threads, argv);
  omp_ext_plan_free(p);
  if (status || (status = set_threads(threads)) != 0)
    return status;
  htp_program_env(ctx); /* (the program gets the user's HWLOC_PLUGINS_BLACKLIST) */
  return htp_exec_preloaded(ctx, "OMP_EXT_PLAN", abs, argv);
}

/* Is the regular file \p path a plan file (its first word)?  1 yes, 0 no,
 * else the exit status of the error printed (not a regular file). */
static int is_plan_file(const char *path, int *status)
{
  struct stat st;
  char head[13] = {0};
  ssize_t n = 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  *status = HTP_EXIT_OK;
  if (fd < 0) {
    *status = htp_error(HTP_EXIT_USAGE, "--plan %s: %s; give htplaces tune's --out folder, its "
                        "results.json, or a plan file", path, strerror(errno));
    return 0;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    *status = htp_error(HTP_EXIT_USAGE, "--plan %s: not a regular file; give htplaces tune's "
                        "--out folder, its results.json, or a plan file", path);
    return 0;
  }
  n = read(fd, head, 12);
  close(fd);
  return n == 12 && strcmp(head, "omp_ext_plan") == 0;
}

/* tune's results \p file parsed (cJSON); NULL with the reason in \p why:
 * the system's, or where the text stops being JSON ("line L: ..."). */
static cJSON *load_results(const char *file, char *why, size_t len)
{
  FILE *f = fopen(file, "re");
  char *text = NULL;
  size_t size = 0;
  const char *end = NULL;
  cJSON *root = NULL;
  if (!f || getdelim(&text, &size, '\0', f) < 0) { /* (the whole file: it holds no '\0') */
    snprintf(why, len, "%s", f && !ferror(f) ? "empty" : strerror(errno));
    if (f)
      fclose(f);
    free(text);
    return NULL;
  }
  fclose(f);
  if (!(root = cJSON_ParseWithOpts(text, &end, 1))) {
    unsigned line = 1;
    const char *p;
    end = end ? end : cJSON_GetErrorPtr();
    for (p = text; end && p < end; p++)
      line += *p == '\n';
    char near[21], shown[4 * 20 + 32];
    snprintf(near, sizeof(near), "%s", end ? end : "");
    snprintf(why, len, "line %u: invalid JSON near %s", line,
             omp_ext_quote(near, shown, sizeof(shown)));
  }
  free(text);
  return root;
}

int htp_exec_plan(struct htp_ctx *ctx, const char *plan, int team_free, char **argv)
{
  struct stat st;
  char *file = NULL, *text = NULL, msg[1024];
  size_t len = 0;
  char why[128];
  cJSON *root;
  long long threads = 0;
  int status, wait = 0;
  omp_ext_topo_t *topo;
  struct omp_ext_plan *p = NULL;
  FILE *f;
  if (stat(plan, &st) != 0)
    return htp_error(HTP_EXIT_USAGE, "--plan %s: %s; give htplaces tune's --out folder, its "
                     "results.json, or a plan file", plan, strerror(errno));
  if (asprintf(&file, S_ISDIR(st.st_mode) ? "%s/results.json" : "%s", plan) < 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (is_plan_file(file, &status) || status) {
    status = status ? status : exec_plan_file(ctx, file, team_free, argv);
    free(file);
    return status;
  }
  if (!(root = load_results(file, why, sizeof(why)))) {
    status = strncmp(why, "line ", 5) == 0
           ? htp_error(HTP_EXIT_USAGE, "--plan %s: not a plan file, nor JSON (%s); give "
                       "htplaces tune's --out folder, its results.json, or a plan file (first "
                       "line 'omp_ext_plan 2')", file, why)
           : htp_error(HTP_EXIT_USAGE, "--plan %s: %s; give htplaces tune's --out folder, its "
                       "results.json, or a plan file (first line 'omp_ext_plan 2')", file, why);
    free(file);
    return status;
  }
  status = machine_matches(ctx, get(root, "machine"), file);
  topo = status ? NULL : htp_topo(ctx, &status);
  if (!status)
    warn_noisy_tie(root, file), warn_other_program(root, file, argv[0]);
  if (!status && !(f = open_memstream(&text, &len)))
    status = htp_error(HTP_EXIT_FAIL, "out of memory");
  if (!status) {
    status = write_plan(f, root, file, topo, team_free, &threads, &wait);
    if (fclose(f) != 0 && !status)
      status = htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  cJSON_Delete(root);
  /* The same check as the library's, before the program starts. */
  if (!status && omp_ext_plan_read(text, topo, &p, msg, sizeof(msg)) != 0)
    status = htp_error(HTP_EXIT_USAGE, "--plan %s: %s", file, msg);
  if (!status && (status = set_wait(wait, file)) == 0) /* (returns only when not one) */
    status = exec_global(ctx, p, threads, argv);
  omp_ext_plan_free(p);
  if (!status && len > PLAN_ENV_MAX)
    status = save_plan(file, &text);
  if (!status)
    status = set_threads(threads);
  free(file);
  if (!status) {
    htp_program_env(ctx);
    status = htp_exec_preloaded(ctx, "OMP_EXT_PLAN", text, argv);
  }
  free(text);
  return status;
}
