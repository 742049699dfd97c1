/*
 * htplaces tune: printing -- the table on stdout, results.csv and
 * results.json (one documented shape, see htplaces-tune(1)), the
 * recommendation, and gnuplot plots (time and SPN against N per policy).
 * Nothing here computes a figure: tune_analysis.c does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "tune_int.h"

/* The first invalid run's reason, or NULL. */
static const char *first_invalid(const struct tune_config *c)
{
  unsigned k;
  for (k = 0; k < c->nruns; k++)
    if (c->runs[k].status == 0 && c->runs[k].invalid[0])
      return c->runs[k].invalid;
  return NULL;
}

static const char *status_word(const struct tune_config *c, const struct tune_result *r)
{
  if (r->invalid && !r->ok && !r->failed)
    return "invalid";
  if (r->failed)
    return r->ok ? "failed (some runs)" : "failed";
  if (c->nruns && r->ok < TUNE_MIN_RUNS)
    return "too few runs (--budget)";
  return c->nruns ? "ok" : "not run";
}

/* How the configuration's first failed run ended, and the program's last
 * stderr words. */
static void print_failure(FILE *out, const struct tune_config *c)
{
  unsigned k;
  char how[96];
  for (k = 0; k < c->nruns && c->runs[k].status == 0; k++)
    ;
  if (k < c->nruns) {
    tune_run_outcome(&c->runs[k], how, sizeof(how));
    fprintf(out, " (%s)", how);
  }
  if (c->tail[0])
    fprintf(out, ": %.60s", c->tail);
}

/* "speedup/spn/spread 2" or "spn 2 active". */
static void config_name(const struct tune_config *c, char *buf, size_t len)
{
  tune_config_label(c, buf, len);
}

/* Seconds in a readable unit: "1.234 s", "12.3 ms", "4.56 us", "789 ns";
 * never "0.0000" for a time that is not 0. */
static const char *fmt_seconds(double v, char *buf, size_t len)
{
  double a = fabs(v);
  if (!isfinite(v))
    snprintf(buf, len, "-");
  else if (v == 0)
    snprintf(buf, len, "0 s");
  else if (a >= 1)
    snprintf(buf, len, "%.3f s", v);
  else if (a >= 1e-3)
    snprintf(buf, len, "%.3g ms", v * 1e3);
  else if (a >= 1e-6)
    snprintf(buf, len, "%.3g us", v * 1e6);
  else
    snprintf(buf, len, "%.3g ns", v * 1e9);
  return buf;
}

char *tune_exec_line(const struct tune_report *t, int i)
{
  const struct tune_config *c = &t->c[i];
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  char *const *a;
  if (!f)
    return NULL;
  /* sigma as measured, for omp_ext_share() and the in-code model (only a
   * value OMP_EXT_SIGMA takes: (0, 1]) */
  if (t->s && t->s->npairs && t->s->sigma > 0 && t->s->sigma <= 1)
    fprintf(f, "OMP_EXT_SIGMA=%.3f ", t->s->sigma);
  if (c->wait)
    fprintf(f, "OMP_WAIT_POLICY=%s ", tune_wait_name(c->wait));
  if (c->ranks) { /* --launcher: the launcher, each rank's exec, the program */
    int err = tune_ranks_command(f, c, t->argv);
    if (fclose(f) != 0 || err) {
      free(buf);
      return NULL;
    }
    return buf;
  }
  if (c->policy == TUNE_NONE)
    fprintf(f, "OMP_NUM_THREADS=%u", c->threads);
  else
    fprintf(f, "htplaces exec %s %u --", tune_policy_name(c->policy), c->threads);
  for (a = t->argv; *a; a++) { /* ({N} and {PLACES} as in its runs) */
    char *arg = a == t->argv ? NULL : tune_substitute(*a, c);
    fputc(' ', f);
    htp_shell_word(f, arg ? arg : *a);
    free(arg);
  }
  fclose(f);
  return buf;
}

static void print_num(FILE *f, const char *fmt, double v, int width)
{
  if (isfinite(v))
    fprintf(f, fmt, width, v);
  else
    fprintf(f, "%*s", width, "-");
}

static const char *metric_unit[TUNE_NOBJECTIVES] = {"s", "J", "1/(kW core)", "J s"};

/* No parallel region ran although the timing layer watched: the thread
 * count cannot matter, and no placement is recommended. */
static int no_region(const struct tune_report *t)
{
  return t->s->timed && t->s->nregions == 0;
}

#define NO_REGION_VERDICT "no parallel region ran: the thread count cannot matter"

/* "a, b and c" of the tied configurations other than skip. */
static void print_tied(FILE *out, const struct tune_report *t, enum tune_objective o, int skip)
{
  unsigned i, k = 0, n = t->s->ntied[o] - 1;
  char name[160];
  for (i = 0; i < t->n; i++)
    if (t->r[i].tied[o] && (int)i != skip && !TUNE_IS_AUTO(&t->c[i])) {
      config_name(&t->c[i], name, sizeof(name));
      fprintf(out, "%s%s (%.4g %s)", k == 0 ? "" : k + 1 == n ? " and " : ", ", name,
              t->r[i].metric[o].median, metric_unit[o]);
      k++;
    }
}

static void print_pick(FILE *out, const struct tune_report *t, enum tune_objective o,
                       const char *lead)
{
  const struct tune_summary *s = t->s;
  int b = s->best[o], u = s->runner_up[o], f = s->fastest[o];
  char name[160], other[160];
  if (no_region(t)) {
    fprintf(out, "%s%s: %s\n", lead, tune_objective_name(o), NO_REGION_VERDICT);
    return;
  }
  if (b < 0) {
    fprintf(out, "%s%s: %s\n", lead, tune_objective_name(o),
            o == TUNE_SPN && t->s->baseline < 0
              ? "not measurable (SPN needs a 1-thread configuration: add 1 to --threads)"
              : "no configuration has 3 successful runs");
    return;
  }
  config_name(&t->c[b], name, sizeof(name));
  fprintf(out, "%s%s: %s (median %.4g %s", lead, tune_objective_name(o), name,
          t->r[b].metric[o].median, metric_unit[o]);
  if (u < 0) {
    fprintf(out, "; no other configuration to compare with)\n");
    return;
  }
  config_name(&t->c[u], other, sizeof(other));
  if (s->significant[o]) {
    fprintf(out, "): significantly %s every other configuration (runner-up %s: %.4g %s; %s)\n",
            o == TUNE_SPN ? "above" : "below", other, t->r[u].metric[o].median, metric_unit[o],
            TUNE_TEST_NAME);
    return;
  }
  fprintf(out, "): tied with ");
  print_tied(out, t, o, b);
  fprintf(out, " -- not significantly %s than the %s (%s); the cheapest of them (fewer "
          "cores, then fewer threads%s) is recommended\n", o == TUNE_SPN ? "lower" : "higher",
          f == b ? "recommended one" : "best median", TUNE_TEST_NAME,
          t->c[b].ranks ? " of all ranks, then fewer ranks" : "");
}

/* The median of n values, v left as it is; NAN for none (v may be NULL). */
static double median_copy(const double *v, unsigned n)
{
  double *buf = n ? malloc(n * sizeof(*buf)) : NULL, m;
  if (!buf)
    return NAN;
  memcpy(buf, v, n * sizeof(*buf));
  m = tune_median(buf, n);
  free(buf);
  return m;
}

/* The median of a configuration's serial seconds (outside any region). */
static double serial_median(const struct tune_config *c)
{
  return median_copy(c->serial_s, c->nserial); /* (no valid run: serial_s may be NULL) */
}

/* The median total seconds of one configuration's region. */
static double region_total(const struct tune_region *g)
{
  return median_copy(g->total_s, g->nruns);
}

static unsigned untimed_runs(const struct tune_report *t)
{
  unsigned i, n = 0;
  for (i = 0; i < t->n; i++)
    n += t->c[i].untimed;
  return n;
}

#define REGION_WIDTH 40 /* a longer name gets a line of its own */

/* The first auto configuration, -1 when the plan has none. */
static int auto_config(const struct tune_report *t)
{
  unsigned i;
  for (i = 0; i < t->n; i++)
    if (TUNE_IS_AUTO(&t->c[i]))
      return (int)i;
  return -1;
}

/* Region g under the first auto configuration, or NULL. */
static const struct tune_region *auto_region(const struct tune_report *t,
                                             const struct tune_region_summary *g)
{
  int a = auto_config(t);
  unsigned k;
  for (k = 0; a >= 0 && k < t->c[a].nregions; k++)
    if (strcmp(t->c[a].regions[k].key, g->key) == 0)
      return &t->c[a].regions[k];
  return NULL;
}

static void print_region_row(FILE *out, const struct tune_report *t,
                             const struct tune_region_summary *g)
{
  char name[160], sec[32], share[16];
  if (g->best >= 0)
    config_name(&t->c[g->best], name, sizeof(name));
  else
    snprintf(name, sizeof(name), "-");
  if (strlen(g->name) > REGION_WIDTH) /* never cut: the full name, then its figures */
    fprintf(out, "  %s\n  %-*s", g->name, REGION_WIDTH, "");
  else
    fprintf(out, "  %-*s", REGION_WIDTH, g->name);
  snprintf(share, sizeof(share), isfinite(g->share) ? "%.1f%%" : "-", 100 * g->share);
  fprintf(out, " %10s %6s %9lu %4u  %-24s", fmt_seconds(g->best >= 0 ? g->best_s : NAN, sec,
                                                        sizeof(sec)),
          share, g->instances, g->team_max, name);
  if (g->only_multi)
    fprintf(out, " %8s", "N>1 only");
  else
    print_num(out, " %*.2f", g->speedup, 8);
  print_num(out, " %*.3f", g->serial, 7);
  print_num(out, " %*.3f", g->npairs ? g->sigma : NAN, 7);
  if (auto_config(t) >= 0) { /* what auto chose for it, and its total there */
    const struct tune_region *x = auto_region(t, g);
    char chose[160];
    snprintf(chose, sizeof(chose), "%s %s", x && x->control ? x->control : "-",
             fmt_seconds(x ? region_total(x) : NAN, sec, sizeof(sec)));
    fprintf(out, "  %s", chose);
  }
  if (g->same_name)
    fprintf(out, "  [%s]", g->key);
  fputc('\n', out);
}

static void print_regions(FILE *out, const struct tune_report *t)
{
  const struct tune_summary *s = t->s;
  unsigned k, untimed = untimed_runs(t), multi = 0, clash = 0;
  char name[160], sec[32];
  if (no_region(t)) {
    fprintf(out, "\nParallel regions: none -- the timing layer watched every run and %s\n",
            NO_REGION_VERDICT);
    return;
  }
  if (!s->nregions) {
    fprintf(out, "\nParallel regions: not available (%s%s)\n",
            untimed ? "no run wrote a timing file: " : "--no-regions, or no libomp_ext.so",
            untimed ? tune_untimed_reason(t->argv[0]) : "");
    return;
  }
  fprintf(out, "\nParallel regions (omp_ext's timing layer; by total time at each region's "
          "best configuration, median per run; share: of that configuration's run time):\n");
  fprintf(out, "  %-*s %10s %6s %9s %4s  %-24s %8s %7s %7s%s\n", REGION_WIDTH, "region",
          "total", "share", "instances", "team", "best configuration", "speedup", "serial",
          "sigma", auto_config(t) >= 0 ? "  auto chose, total" : "");
  for (k = 0; k < s->nregions; k++) {
    print_region_row(out, t, &s->regions[k]);
    multi += s->regions[k].only_multi != 0;
    clash += s->regions[k].same_name != 0;
  }
  if (multi)
    fprintf(out, "  N>1 only: %u region%s exist%s only at N > 1 (no 1-thread run timed %s): no "
            "speed-up against one thread\n", multi, multi > 1 ? "s" : "", multi > 1 ? "" : "s",
            multi > 1 ? "them" : "it");
  if (clash)
    fprintf(out, "  %u regions share a name with another: each is its own code address "
            "[shown], never merged\n", clash);
  if (s->best[TUNE_TIME] >= 0 && t->c[s->best[TUNE_TIME]].nserial) {
    config_name(&t->c[s->best[TUNE_TIME]], name, sizeof(name));
    fprintf(out, "  serial part (outside any region): median %s at %s\n",
            fmt_seconds(serial_median(&t->c[s->best[TUNE_TIME]]), sec, sizeof(sec)), name);
  }
  if (untimed)
    fprintf(out, "  %u successful runs wrote no timing file (no process of theirs recorded a "
            "region): the figures above are of the others\n", untimed);
}

/* Against the objective's fastest: "fastest", "+3.2% tied", "+25.0%". */
static void print_vs_fastest(FILE *out, const struct tune_report *t, unsigned i)
{
  enum tune_objective o = t->objective;
  const struct tune_result *r = &t->r[i];
  char text[32];
  if ((int)i == t->s->fastest[o])
    snprintf(text, sizeof(text), "fastest");
  else if (isfinite(r->ratio[o]))
    snprintf(text, sizeof(text), "%+.1f%%%s", 100 * (r->ratio[o] - 1), r->tied[o] ? " tied" : "");
  else
    snprintf(text, sizeof(text), "-");
  fprintf(out, " %12s", text);
}

static void print_config_row(FILE *out, const struct tune_report *t, unsigned i, int width)
{
  const struct tune_config *c = &t->c[i];
  const struct tune_result *r = &t->r[i];
  char name[160], a[32], b[32], m[32], ci[80];
  config_name(c, name, sizeof(name));
  fprintf(out, "%-*s %5u %4u %10s", width, name, c->usage.cores, r->ok,
          fmt_seconds(r->ok ? r->time.median : NAN, m, sizeof(m)));
  if (r->ok) {
    fmt_seconds(r->time.ci95_lo, a, sizeof(a));
    fmt_seconds(r->time.ci95_hi, b, sizeof(b));
    snprintf(ci, sizeof(ci), "[%s, %s]", a, b);
    fprintf(out, " %24s", ci);
  } else {
    fprintf(out, " %24s", "-");
  }
  print_vs_fastest(out, t, i);
  print_num(out, " %*.2f", r->speedup, 8);
  print_num(out, " %*.3f", r->serial, 7);
  print_num(out, " %*.1f", r->power_w, 8);
  print_num(out, " %*.2f", r->metric[TUNE_ENERGY].n ? r->metric[TUNE_ENERGY].median : NAN, 9);
  print_num(out, " %*.2f", r->metric[TUNE_SPN].n ? r->metric[TUNE_SPN].median : NAN, 8);
  fprintf(out, " %s", status_word(c, r));
  if (r->failed)
    print_failure(out, c);
  if (r->invalid)
    fprintf(out, " (%u run%s invalid: %s)", r->invalid, r->invalid > 1 ? "s" : "",
            first_invalid(c));
  fputc('\n', out);
}

static void print_model_inputs(FILE *out, const struct tune_report *t)
{
  const struct tune_summary *s = t->s;
  char name[160], other[160];
  unsigned p;
  fprintf(out, "\nModel inputs measured:\n");
  if (isfinite(s->serial)) {
    config_name(&t->c[s->serial_from], name, sizeof(name));
    fprintf(out, "  serial fraction s = %.4f (Karp-Flatt at %s, S_N = %.3f%s)", s->serial, name,
            t->r[s->serial_from].speedup,
            s->serial >= 1 ? ": no speed-up over one thread" : "");
    if (s->bound)
      fprintf(out, "; the §2.3 useful thread count (speedup order) is %u", s->bound);
    fputc('\n', out);
  } else {
    fprintf(out, "  serial fraction: not measurable (needs a 1-thread configuration and one "
            "with more threads, one per core, no faster than N times it)\n");
  }
  if (s->npairs) {
    fprintf(out, "  sigma = %.3f (median of %u pair%s: C threads one per core vs 2C threads, "
            "two on each of the same C cores):\n", s->sigma, s->npairs, s->npairs > 1 ? "s" : "");
    for (p = 0; p < s->npairs; p++) {
      config_name(&t->c[s->pairs[p].one_per_core], name, sizeof(name));
      config_name(&t->c[s->pairs[p].two_per_core], other, sizeof(other));
      fprintf(out, "    %s vs %s: %.3f\n", name, other, s->pairs[p].sigma);
    }
  } else {
    fprintf(out, "  sigma: not measurable here (needs cores with SMT siblings and both C threads "
            "one per core and 2C threads on exactly those C cores: e.g. speedup C and spn 2C)\n");
  }
  /* (The model takes s in [0, 1): a measured s >= 1, or none, is left out
   * rather than replaced by another value.) */
  if (isfinite(s->serial) && s->serial >= 1)
    fprintf(out, "  (s >= 1 is outside the model's [0, 1): the line below leaves it out)\n");
  fprintf(out, "  htplaces model");
  if (isfinite(s->serial) && s->serial >= 0 && s->serial < 1)
    fprintf(out, " --serial-fraction %.4f", s->serial);
  fprintf(out, " --sigma %.3f --power-model %s\n",
          s->npairs && s->sigma > 0 && s->sigma <= 1 ? s->sigma : OMP_EXT_MODEL_SIGMA,
          t->power_name);
}

static void print_rounds(FILE *out, const struct tune_report *t)
{
  unsigned rounds = t->rounds_run ? t->rounds_run : t->rounds;
  const struct tune_summary *s = t->s;
  enum tune_objective o = t->objective;
  if (t->adaptive == NULL) {
    /* The cheapest tied configuration is recommended although another had
     * the better median: say that more rounds may separate them. */
    if (!no_region(t) && s->best[o] >= 0 && s->runner_up[o] >= 0 && !s->significant[o] &&
        s->fastest[o] >= 0 && s->fastest[o] != s->best[o])
      fprintf(out, "  (tied after %u rounds, though another configuration had the better "
              "median: --budget SECONDS adds rounds until one is significantly ahead)\n",
              rounds);
    return;
  }
  if (strcmp(t->adaptive, "separated") == 0)
    fprintf(out, "Adaptive rounds: %u rounds (%u the minimum); stopped when the best was "
            "significantly ahead of every other (%s)\n", rounds, t->rounds, TUNE_TEST_NAME);
  else if (strcmp(t->adaptive, "budget") == 0)
    fprintf(out, "Adaptive rounds: %u rounds (%u the minimum); the --budget ended with %u "
            "configurations still tied for %s\n", rounds, t->rounds,
            t->s->ntied[t->objective], tune_objective_name(t->objective));
  else
    fprintf(out, "Adaptive rounds: %u rounds (%u the minimum); stopped: %s\n", rounds,
            t->rounds, t->adaptive);
}

void tune_print_table(FILE *out, const struct tune_report *t)
{
  const struct tune_summary *s = t->s;
  unsigned i;
  int o, width = 22;
  char name[160], *line;
  for (i = 0; i < t->n; i++) {
    config_name(&t->c[i], name, sizeof(name));
    if ((int)strlen(name) > width)
      width = (int)strlen(name);
  }
  fprintf(out, "%-*s %5s %4s %10s %24s %12s %8s %7s %8s %9s %8s %s\n", width, "configuration",
          "cores", "runs", "median", "95% CI of mean", "vs fastest", "speedup", "serial",
          "power_W", t->energy_measured ? "energy_J" : "energy_J*", "SPN", "status");
  for (i = 0; i < t->n; i++)
    print_config_row(out, t, i, width);
  if (!t->energy_measured)
    fprintf(out, "* energy modelled (power model %s x time): no readable RAPL counter\n",
            t->power_name);
  for (i = 0; i < t->n; i++)
    if (t->c[i].self_bound) {
      config_name(&t->c[i], name, sizeof(name));
      fprintf(out, "note: under %s the program bound its own threads (the timing layer saw them "
              "bound to fewer CPUs than the run had): a bound baseline, not the runtime's "
              "default\n", name);
    }
  if (auto_config(t) >= 0)
    fprintf(out, "auto: OMP_EXT_HT_POLICY=auto, libomp_ext preloaded (each region's team size and "
            "places chosen at run time): shown beside the global configurations, never "
            "recommended -- to use it, htplaces exec auto -- PROGRAM; to apply "
            "tune's own per-region answer, htplaces exec --plan\n");
  fprintf(out, "vs fastest: geometric mean of the per-round ratios to the fastest %s; tied: "
          "not significantly %s (%s)\n", tune_objective_name(t->objective),
          t->objective == TUNE_SPN ? "lower" : "higher", TUNE_TEST_NAME);
  if (isfinite(t->load.during))
    fprintf(out, "load from other processes during the runs: %.2f of %u CPUs\n", t->load.during,
            t->load.ncpus);
  print_model_inputs(out, t);
  print_regions(out, t);
  fprintf(out, "\nRecommendation:\n");
  print_pick(out, t, t->objective, "  ");
  if (!no_region(t) && s->best[t->objective] >= 0 &&
      (line = tune_exec_line(t, s->best[t->objective]))) {
    fprintf(out, "  %s\n", line);
    free(line);
  }
  print_rounds(out, t);
  fprintf(out, "Other objectives:\n");
  for (o = 0; o < TUNE_NOBJECTIVES; o++)
    if (o != (int)t->objective)
      print_pick(out, t, (enum tune_objective)o, "  ");
  if (t->nskipped) {
    fprintf(out, "Not run (--budget reached): %u runs:", t->nskipped);
    for (i = 0; i < t->nskipped; i++)
      fprintf(out, "%s %s", i ? "," : "", t->skipped[i]);
    fputc('\n', out);
  }
}

static void json_num(FILE *f, double v)
{
  if (isfinite(v))
    fprintf(f, "%.9g", v);
  else
    fputs("null", f);
}

/* "key", "module" and "offset" of a region key "MODULE+0xOFFSET" (module
 * and offset null for a named measurement, "name:NAME"). */
static void json_key_parts(FILE *f, const char *key)
{
  const char *plus = strstr(key, "+0x"), *p;
  fputs(", \"key\": ", f);
  omp_ext_json_string(f, key);
  while (plus && (p = strstr(plus + 1, "+0x")) != NULL)
    plus = p;
  if (strncmp(key, "name:", 5) == 0 || !plus) {
    fputs(", \"module\": null, \"offset\": null", f);
    return;
  }
  fputs(", \"module\": ", f);
  {
    char *module = strndup(key, (size_t)(plus - key));
    omp_ext_json_string(f, module ? module : "");
    free(module);
  }
  fputs(", \"offset\": ", f);
  omp_ext_json_string(f, plus + 1);
}

static void json_stats(FILE *f, const omp_ext_stats_t *st)
{
  fprintf(f, "{\"n\": %u, \"median\": ", st->n);
  json_num(f, st->n ? st->median : NAN);
  fputs(", \"mean\": ", f);
  json_num(f, st->n ? st->mean : NAN);
  fputs(", \"ci95\": [", f);
  json_num(f, st->n ? st->ci95_lo : NAN);
  fputs(", ", f);
  json_num(f, st->n ? st->ci95_hi : NAN);
  fputs("], \"min\": ", f);
  json_num(f, st->n ? st->min : NAN);
  fputs(", \"max\": ", f);
  json_num(f, st->n ? st->max : NAN);
  fputc('}', f);
}

static void json_pick(FILE *f, const struct tune_report *t, enum tune_objective o)
{
  const struct tune_summary *s = t->s;
  char *line;
  unsigned i, k;
  fprintf(f, "{\"objective\": \"%s\", \"best\": ", tune_objective_name(o));
  if (s->best[o] >= 0)
    fprintf(f, "%d", s->best[o]);
  else
    fputs("null", f);
  fputs(", \"runner_up\": ", f);
  if (s->runner_up[o] >= 0)
    fprintf(f, "%d", s->runner_up[o]);
  else
    fputs("null", f);
  fputs(", \"fastest\": ", f);
  if (s->fastest[o] >= 0)
    fprintf(f, "%d", s->fastest[o]);
  else
    fputs("null", f);
  fputs(", \"tied\": [", f);
  for (i = 0, k = 0; i < t->n; i++)
    if (t->r[i].tied[o] && !TUNE_IS_AUTO(&t->c[i])) /* (auto: its vs_fastest says) */
      fprintf(f, "%s%u", k++ ? ", " : "", i);
  fprintf(f, "], \"significant\": %s, \"test\": \"%s\", \"verdict\": ",
          s->significant[o] ? "true" : "false", TUNE_TEST_NAME);
  if (no_region(t))
    omp_ext_json_string(f, NO_REGION_VERDICT);
  else
    fputs("null", f);
  fputs(", \"command\": ", f);
  if (!no_region(t) && s->best[o] >= 0 && (line = tune_exec_line(t, s->best[o]))) {
    omp_ext_json_string(f, line);
    free(line);
  } else {
    fputs("null", f);
  }
  fputc('}', f);
}

static void json_config(FILE *f, const struct tune_report *t, unsigned i)
{
  const struct tune_config *c = &t->c[i];
  const struct tune_result *r = &t->r[i];
  unsigned k, bits = tune_policy_bits(c);
  int o, first = 1;
  char label[160];
  config_name(c, label, sizeof(label));
  fprintf(f, "    {\"index\": %u, \"label\": ", i);
  omp_ext_json_string(f, label);
  fprintf(f, ", \"policy\": \"%s\", \"policies\": [", tune_policy_name(c->policy));
  for (k = 0; k < 32; k++)
    if (bits & (1u << k)) {
      fprintf(f, "%s\"%s\"", first ? "" : ", ", tune_bit_name(k));
      first = 0;
    }
  fprintf(f, "], \"threads\": %u, \"wait\": \"%s\", \"wait_policy\": \"%s\", "
          "\"cores\": %u, \"packages\": %u, \"smt_siblings\": %u, \"places\": ",
          c->threads, tune_wait_name(c->wait), tune_wait_name(c->wait), c->usage.cores,
          c->usage.packages, c->usage.extra);
  if (c->places)
    omp_ext_json_string(f, c->places);
  else
    fputs("null", f);
  tune_ranks_config_json(f, c); /* --launcher: ranks, threads per rank */
  fputs(", \"omp_places\": ", f);
  if (c->places && !c->ranks) /* (--launcher: one list per rank, in "places") */
    omp_ext_json_string(f, c->places);
  else
    fputs("null", f);
  fprintf(f, ",\n     \"status\": \"%s\", \"invalid_runs\": %u, \"stderr_tail\": ",
          status_word(c, r), r->invalid);
  omp_ext_json_string(f, c->tail);
  fputs(",\n     \"runs\": [", f);
  for (k = 0; k < c->nruns; k++) {
    fprintf(f, "%s{\"wall_s\": ", k ? ", " : "");
    json_num(f, c->runs[k].wall_s);
    fputs(", \"cpu_s\": ", f);
    json_num(f, c->runs[k].cpu_s);
    fputs(", \"energy_j\": ", f);
    json_num(f, c->runs[k].energy_j);
    fprintf(f, ", \"round\": %u, \"status\": %d, \"invalid\": ", c->runs[k].round + 1,
            c->runs[k].status);
    if (c->runs[k].invalid[0])
      omp_ext_json_string(f, c->runs[k].invalid);
    else
      fputs("null", f);
    fputc('}', f);
  }
  fputs("],\n     \"time_s\": ", f);
  json_stats(f, &r->time);
  for (o = 1; o < TUNE_NOBJECTIVES; o++) {
    fprintf(f, ",\n     \"%s\": ", o == TUNE_ENERGY ? "energy_j" : o == TUNE_SPN ? "spn" : "edp");
    json_stats(f, &r->metric[o]);
  }
  fputs(",\n     \"speedup\": ", f);
  json_num(f, r->speedup);
  fputs(", \"serial_fraction\": ", f);
  json_num(f, r->serial);
  fputs(", \"power_w\": ", f);
  json_num(f, r->power_w);
  fputs(", \"cpu_util\": ", f);
  json_num(f, r->cpu_util);
  fputs(",\n     \"vs_fastest\": [", f);
  for (o = 0; o < TUNE_NOBJECTIVES; o++) {
    fprintf(f, "%s{\"objective\": \"%s\", \"ratio\": ", o ? ", " : "",
            tune_objective_name((enum tune_objective)o));
    json_num(f, r->ratio[o]);
    fprintf(f, ", \"paired_rounds\": %u, \"tied\": %s}", r->paired[o],
            r->tied[o] ? "true" : "false");
  }
  fputc(']', f);
  fputs(",\n     \"serial_s\": ", f);
  json_num(f, serial_median(c));
  fprintf(f, ", \"self_bound\": %s, \"run_time\": %s", c->self_bound ? "true" : "false",
          TUNE_IS_AUTO(c) ? "true" : "false");
  fputs(", \"regions\": [", f);
  for (k = 0; k < c->nregions; k++) {
    fprintf(f, "%s{\"name\": ", k ? ", " : "");
    omp_ext_json_string(f, c->regions[k].name);
    fputs(", \"key\": ", f);
    omp_ext_json_string(f, c->regions[k].key);
    fprintf(f, ", \"instances\": %lu, \"team_sizes\": [%u], \"runs\": %u, \"total_s\": ",
            c->regions[k].instances, c->regions[k].team_max, c->regions[k].nruns);
    json_num(f, region_total(&c->regions[k]));
    if (c->regions[k].control) {
      fputs(", \"control\": ", f);
      omp_ext_json_string(f, c->regions[k].control);
    }
    fputc('}', f);
  }
  fputs("]}", f);
}

/* , "auto": {"config": "spn:2", "total_s": 0.12}: what auto chose for the
 * region and its median total per run there (null: no auto configuration,
 * or the region did not run under it). */
static void json_auto_region(FILE *f, const struct tune_report *t,
                             const struct tune_region_summary *g)
{
  const struct tune_region *x = auto_region(t, g);
  if (auto_config(t) < 0)
    return;
  fputs(", \"auto\": ", f);
  if (!x) {
    fputs("null", f);
    return;
  }
  fputs("{\"config\": ", f);
  if (x->control)
    omp_ext_json_string(f, x->control);
  else
    fputs("null", f);
  fputs(", \"total_s\": ", f);
  json_num(f, region_total(x));
  fputc('}', f);
}

void tune_print_json(FILE *f, const struct tune_report *t)
{
  const struct tune_summary *s = t->s;
  unsigned i;
  int o;
  char *const *a;
  fputs("{\n  \"program\": [", f);
  for (a = t->argv; *a; a++) {
    if (a != t->argv)
      fputs(", ", f);
    omp_ext_json_string(f, *a);
  }
  fprintf(f, "],\n  \"machine\": {\"source\": ");
  omp_ext_json_string(f, omp_ext_topo_source(t->topo));
  fprintf(f, ", \"pus\": %u, \"cores\": %u, \"packages\": %u, \"max_smt\": %u},\n",
          omp_ext_topo_npus(t->topo), omp_ext_topo_ncores(t->topo),
          omp_ext_topo_npackages(t->topo), omp_ext_topo_max_smt(t->topo));
  fprintf(f, "  \"settings\": {\"rounds\": %u, \"seed\": %lu, \"objective\": \"%s\", "
          "\"energy\": \"%s\", \"power_model\": ", t->rounds, t->seed,
          tune_objective_name(t->objective), t->energy_measured ? "measured" : "modelled");
  omp_ext_json_string(f, t->power_name);
  fputs("},\n  \"configurations\": [\n", f);
  for (i = 0; i < t->n; i++) {
    json_config(f, t, i);
    fputs(i + 1 < t->n ? ",\n" : "\n", f);
  }
  fputs("  ],\n  \"summary\": {\"baseline\": ", f);
  if (s->baseline >= 0)
    fprintf(f, "%d", s->baseline);
  else
    fputs("null", f);
  fputs(", \"serial_fraction\": ", f);
  json_num(f, s->serial);
  fputs(", \"sigma\": ", f);
  json_num(f, s->npairs ? s->sigma : NAN);
  fprintf(f, ", \"sigma_npairs\": %u, \"sigma_pairs\": [", s->npairs);
  for (i = 0; i < s->npairs; i++) {
    fprintf(f, "%s{\"one_per_core\": %d, \"two_per_core\": %d, \"sigma\": ", i ? ", " : "",
            s->pairs[i].one_per_core, s->pairs[i].two_per_core);
    json_num(f, s->pairs[i].sigma);
    fputc('}', f);
  }
  fputs("], \"thread_bound\": ", f);
  if (s->bound)
    fprintf(f, "%u", s->bound);
  else
    fputs("null", f);
  fputs(", \"regions\": [", f);
  for (i = 0; i < s->nregions; i++) {
    const struct tune_region_summary *g = &s->regions[i];
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    omp_ext_json_string(f, g->name);
    json_key_parts(f, g->key);
    fprintf(f, ", \"same_name\": %u, \"only_multi_thread\": %s, \"instances\": %lu, "
            "\"team_sizes\": [%u], \"best\": ", g->same_name, g->only_multi ? "true" : "false",
            g->instances, g->team_max);
    if (g->best >= 0)
      fprintf(f, "%d", g->best);
    else
      fputs("null", f);
    fputs(", \"fastest\": ", f);
    if (g->fastest >= 0)
      fprintf(f, "%d", g->fastest);
    else
      fputs("null", f);
    fputs(", \"fastest_s\": ", f);
    json_num(f, g->fastest >= 0 ? g->fastest_s : NAN);
    fputs(", \"total_s\": ", f);
    json_num(f, g->best >= 0 ? g->best_s : NAN);
    fputs(", \"median_s\": ", f);
    json_num(f, g->best >= 0 ? g->best_median_s : NAN);
    fputs(", \"speedup\": ", f);
    json_num(f, g->speedup);
    fputs(", \"serial_fraction\": ", f);
    json_num(f, g->serial);
    fputs(", \"sigma\": ", f);
    json_num(f, g->npairs ? g->sigma : NAN);
    fputs(", \"share\": ", f);
    json_num(f, g->share);
    json_auto_region(f, t, g);
    fputc('}', f);
  }
  fprintf(f, "], \"timed\": %s, \"verdict\": ", s->timed ? "true" : "false");
  if (no_region(t))
    omp_ext_json_string(f, NO_REGION_VERDICT);
  else
    fputs("null", f);
  fprintf(f, ", \"rounds\": %u, \"adaptive\": ", t->rounds_run ? t->rounds_run : t->rounds);
  if (t->adaptive)
    omp_ext_json_string(f, t->adaptive);
  else
    fputs("null", f);
  fputs(", \"load\": {\"before\": ", f);
  json_num(f, t->load.before);
  fputs(", \"during\": ", f);
  json_num(f, t->load.during);
  fprintf(f, ", \"cpus\": %u, \"low_util\": ", t->load.ncpus);
  if (t->load.low_util >= 0)
    fprintf(f, "%d", t->load.low_util);
  else
    fputs("null", f);
  fputs(", \"util\": ", f);
  json_num(f, t->load.util);
  fputc('}', f);
  fputs("},\n  \"recommendation\": ", f);
  json_pick(f, t, t->objective);
  fputs(",\n  \"objectives\": [", f);
  for (o = 0; o < TUNE_NOBJECTIVES; o++) {
    fputs(o ? ", " : "", f);
    json_pick(f, t, (enum tune_objective)o);
  }
  fputs("],\n  \"skipped\": [", f);
  for (i = 0; i < t->nskipped; i++) {
    fputs(i ? ", " : "", f);
    omp_ext_json_string(f, t->skipped[i]);
  }
  fputs("]\n}\n", f);
}

void tune_print_csv(FILE *f, const struct tune_report *t)
{
  unsigned i, k;
  int ranks = t->n && t->c[0].ranks; /* --launcher: a last column, the ranks */
  fprintf(f, "policy,threads,wait_policy,cores,round_index,wall_s,cpu_s,energy_j,energy_source,"
          "status,invalid%s\n", ranks ? ",ranks" : "");
  for (i = 0; i < t->n; i++)
    for (k = 0; k < t->c[i].nruns; k++) {
      unsigned b, bits = tune_policy_bits(&t->c[i]);
      for (b = 0; b < 32; b++) /* every policy giving the placement: "speedup/spn" */
        if (bits & (1u << b))
          fprintf(f, "%s%s", bits & ((1u << b) - 1) ? "/" : "", tune_bit_name(b));
      fprintf(f, ",%u,%s,%u,%u,%.9g,%.9g,%.9g,%s,%d,",
              t->c[i].threads, tune_wait_name(t->c[i].wait), t->c[i].usage.cores,
              t->c[i].runs[k].round,
              t->c[i].runs[k].wall_s, t->c[i].runs[k].cpu_s, t->c[i].runs[k].energy_j,
              t->energy_measured ? "rapl" : "modelled", t->c[i].runs[k].status);
      if (t->c[i].runs[k].invalid[0]) /* a quoted CSV field */
        sweep_csv_quoted(f, t->c[i].runs[k].invalid);
      if (ranks)
        fprintf(f, ",%u", t->c[i].ranks);
      fputc('\n', f);
    }
}

static int write_file(const char *dir, const char *name, const struct tune_report *t,
                      void (*print)(FILE *, const struct tune_report *))
{
  char *path = sweep_path(dir, name);
  FILE *f;
  int ok;
  if (!path)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (!(f = fopen(path, "w"))) {
    ok = htp_error(HTP_EXIT_FAIL, "cannot write %s: %s", path, strerror(errno));
    free(path);
    return ok;
  }
  print(f, t);
  ok = fclose(f) == 0;
  if (!ok)
    htp_error(HTP_EXIT_FAIL, "cannot write %s: %s", path, strerror(errno));
  free(path);
  return ok ? HTP_EXIT_OK : HTP_EXIT_FAIL;
}

static void print_recommendation(FILE *f, const struct tune_report *t)
{
  int o;
  char *line;
  if (no_region(t)) {
    fprintf(f, "%s\n", NO_REGION_VERDICT);
    return;
  }
  for (o = 0; o < TUNE_NOBJECTIVES; o++)
    if (t->s->best[o] >= 0 && (line = tune_exec_line(t, t->s->best[o]))) {
      fprintf(f, "%s: %s\n", tune_objective_name((enum tune_objective)o), line);
      free(line);
    }
}

/* Is there a configuration before i with policy bit b and i's wait policy? */
static int series_seen(const struct tune_report *t, unsigned i, unsigned b)
{
  unsigned j;
  for (j = 0; j < i; j++)
    if ((tune_policy_bits(&t->c[j]) & (1u << b)) && t->c[j].wait == t->c[i].wait)
      return 1;
  return 0;
}

static unsigned largest_n(const struct tune_report *t)
{
  unsigned i, m = 1;
  for (i = 0; i < t->n; i++)
    if (t->c[i].threads > m)
      m = t->c[i].threads;
  return m;
}

/* One series' points: N, median, CI low, CI high (a configuration giving
 * several policies is a point of each of their series). */
static void plot_points(FILE *f, const struct tune_report *t, unsigned i, unsigned b, int spn)
{
  unsigned j;
  for (j = i; j < t->n; j++) {
    const omp_ext_stats_t *st = spn ? &t->r[j].metric[TUNE_SPN] : &t->r[j].time;
    if ((tune_policy_bits(&t->c[j]) & (1u << b)) && t->c[j].wait == t->c[i].wait &&
        t->r[j].ok && !t->r[j].failed && st->n)
      fprintf(f, "%u %.9g %.9g %.9g\n", t->c[j].threads, st->median, st->ci95_lo, st->ci95_hi);
  }
  fputs("e\n", f);
}

/* The gnuplot script: time and SPN against N, one line per policy (and
 * wait policy), the 95% CI as error bars, whole thread counts on the x
 * axis, the legend outside the data. */
static void print_plot_script(FILE *f, const struct tune_report *t)
{
  unsigned i, b, k, step = largest_n(t) / 16 + 1;
  int first, m;
  static const char *const term[2][2] = {{"pngcairo size 1000,600", "png"},
                                          {"svg size 1000,600", "svg"}};
  for (k = 0; k < 2; k++)
    for (m = 0; m < 2; m++) {
      fprintf(f, "set terminal %s\nset output 'tune-%s.%s'\n", term[k][0], m ? "spn" : "time",
              term[k][1]);
      fprintf(f, "set title 'htplaces tune: %s against threads (error bars: 95%% CI)%s'\n"
              "set xlabel 'threads (N)'\nset ylabel '%s'\nset xtics %u\nset mxtics 1\n"
              "set format x '%%.0f'\nset xrange [0.5:%u.5]\nset key outside right top\n"
              "set grid\n", m ? "SPN" : "median time",
              m && !t->energy_measured ? " (modelled power)" : "",
              m ? (t->energy_measured ? "SPN, 1000 S / (P C)"
                                      : "SPN, 1000 S / (P C), P modelled")
                : "seconds", step, largest_n(t));
      fputs("plot ", f);
      first = 1;
      for (i = 0; i < t->n; i++)
        for (b = 0; b < 32; b++)
          if ((tune_policy_bits(&t->c[i]) & (1u << b)) && !series_seen(t, i, b)) {
            fprintf(f, "%s'-' using 1:2:3:4 with yerrorlines title '%s%s%s'", first ? "" : ", ",
                    tune_bit_name(b), t->c[i].wait ? " " : "",
                    t->c[i].wait ? tune_wait_name(t->c[i].wait) : "");
            first = 0;
          }
      fputc('\n', f);
      for (i = 0; i < t->n; i++)
        for (b = 0; b < 32; b++)
          if ((tune_policy_bits(&t->c[i]) & (1u << b)) && !series_seen(t, i, b))
            plot_points(f, t, i, b, m);
    }
}

int tune_write_dir(const char *dir, const struct tune_report *t)
{
  int status;
  if ((status = write_file(dir, "results.csv", t, tune_print_csv)) != 0 ||
      (status = write_file(dir, "results.json", t, tune_print_json)) != 0 ||
      (status = write_file(dir, "recommendation.txt", t, print_recommendation)) != 0 ||
      (status = write_file(dir, "table.txt", t, tune_print_table)) != 0 ||
      (status = write_file(dir, "plots.gp", t, print_plot_script)) != 0)
    return status;
  status = sweep_gnuplot(dir, "plots.gp", "gnuplot.log");
  if (status == 127)
    fprintf(stderr, "htplaces tune: gnuplot not found: no plots (the script is %s/plots.gp)\n",
            dir);
  else if (status != 0)
    fprintf(stderr, "htplaces tune: gnuplot failed: see %s/gnuplot.log\n", dir);
  return HTP_EXIT_OK;
}
