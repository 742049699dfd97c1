/*
 * htplaces tune: the table on stdout (and --out's table.txt), and what the
 * other reports share with it (tune_json.c: results.json and results.csv;
 * tune_plots.c: the gnuplot script; tune_out.c: the --out folder).
 * Nothing here computes a figure: tune_analysis.c does.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *tune_status_word(const struct tune_config *c, const struct tune_result *r)
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
int tune_no_region(const struct tune_report *t)
{
  return t->s->timed && t->s->nregions == 0;
}


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
  if (tune_no_region(t)) {
    fprintf(out, "%s%s: %s\n", lead, tune_objective_name(o), TUNE_NO_REGION_VERDICT);
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
double tune_serial_median(const struct tune_config *c)
{
  return median_copy(c->serial_s, c->nserial); /* (no valid run: serial_s may be NULL) */
}

/* The median total seconds of one configuration's region. */
double tune_region_total(const struct tune_region *g)
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
int tune_auto_config(const struct tune_report *t)
{
  unsigned i;
  for (i = 0; i < t->n; i++)
    if (TUNE_IS_AUTO(&t->c[i]))
      return (int)i;
  return -1;
}

/* Region g under the first auto configuration, or NULL. */
const struct tune_region *tune_auto_region(const struct tune_report *t,
                                             const struct tune_region_summary *g)
{
  int a = tune_auto_config(t);
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
  snprintf(share, sizeof(share), !isfinite(g->share) ? "-" : g->timer ? "(%.1f%%)" : "%.1f%%",
           100 * g->share);
  fprintf(out, " %10s %7s %9lu %4u  %-24s", fmt_seconds(g->best >= 0 ? g->best_s : NAN, sec,
                                                        sizeof(sec)),
          share, g->instances, g->team_max, name);
  if (g->only_multi)
    fprintf(out, " %8s", "N>1 only");
  else
    print_num(out, " %*.2f", g->speedup, 8);
  print_num(out, " %*.3f", g->serial, 7);
  print_num(out, " %*.3f", g->npairs ? g->sigma : NAN, 7);
  if (tune_auto_config(t) >= 0) { /* what auto chose for it, and its total there */
    const struct tune_region *x = tune_auto_region(t, g);
    char chose[160];
    snprintf(chose, sizeof(chose), "%s %s", x && x->control ? x->control : "-",
             fmt_seconds(x ? tune_region_total(x) : NAN, sec, sizeof(sec)));
    fprintf(out, "  %s", chose);
  }
  if (g->same_name)
    fprintf(out, "  [%s]", g->key);
  fputc('\n', out);
}

static void print_regions(FILE *out, const struct tune_report *t)
{
  const struct tune_summary *s = t->s;
  unsigned k, untimed = untimed_runs(t), multi = 0, clash = 0, timers = 0;
  char name[160], sec[32];
  if (tune_no_region(t)) {
    fprintf(out, "\nParallel regions: none -- the timing layer watched every run and %s\n",
            TUNE_NO_REGION_VERDICT);
    return;
  }
  if (!s->nregions) {
    fprintf(out, "\nParallel regions: not available (%s%s)\n",
            untimed ? "no run wrote a timing file: " : "--no-regions, or no libomp_ext.so",
            untimed ? tune_untimed_reason(t->argv[0]) : "");
    return;
  }
  if (s->share_from >= 0)
    config_name(&t->c[s->share_from], name, sizeof(name));
  fprintf(out, "\nParallel regions (omp_ext's timing layer; by total time at each region's "
          "best configuration, median per run; share: of the time at %s, where the regions "
          "and the serial part make 100%%):\n", s->share_from >= 0 ? name : "-");
  fprintf(out, "  %-*s %10s %7s %9s %4s  %-24s %8s %7s %7s%s\n", REGION_WIDTH, "region",
          "total", "share", "instances", "team", "best configuration", "speedup", "serial",
          "sigma", tune_auto_config(t) >= 0 ? "  auto chose, total" : "");
  for (k = 0; k < s->nregions; k++) {
    print_region_row(out, t, &s->regions[k]);
    multi += s->regions[k].only_multi != 0;
    clash += s->regions[k].same_name != 0;
    timers += s->regions[k].timer && isfinite(s->regions[k].share);
  }
  if (multi)
    fprintf(out, "  N>1 only: %u region%s exist%s only at N > 1 (no 1-thread run timed %s): no "
            "speed-up against one thread\n", multi, multi > 1 ? "s" : "", multi > 1 ? "" : "s",
            multi > 1 ? "them" : "it");
  if (clash)
    fprintf(out, "  %u regions share a name with another: each is its own code address "
            "[shown], never merged\n", clash);
  if (s->share_from >= 0) {
    config_name(&t->c[s->share_from], name, sizeof(name));
    fprintf(out, "  serial part (outside any region): median %s at %s, %.1f%%\n",
            fmt_seconds(tune_serial_median(&t->c[s->share_from]), sec, sizeof(sec)), name,
            100 * s->serial_share);
  }
  if (timers)
    fprintf(out, "  (N%%): a named measurement's share of the same time; it may overlap the "
            "regions, and is not part of the 100%%\n");
  if (untimed)
    fprintf(out, "  %u successful runs wrote no timing file (no process of theirs recorded a "
            "region): the figures above are of the others\n", untimed);
}

/* Against the objective's fastest: "fastest", "+3.2% tied (5)" (over 5
 * paired rounds), "+25.0%". */
static void print_vs_fastest(FILE *out, const struct tune_report *t, unsigned i)
{
  enum tune_objective o = t->objective;
  const struct tune_result *r = &t->r[i];
  char text[48];
  if ((int)i == t->s->fastest[o])
    snprintf(text, sizeof(text), "fastest");
  else if (isfinite(r->ratio[o]) && r->tied[o])
    snprintf(text, sizeof(text), "%+.1f%% tied (%u)", 100 * (r->ratio[o] - 1), r->paired[o]);
  else if (isfinite(r->ratio[o]))
    snprintf(text, sizeof(text), "%+.1f%%", 100 * (r->ratio[o] - 1));
  else
    snprintf(text, sizeof(text), "-");
  fprintf(out, " %17s", text);
}

/* A CI's low end: clipped at 0 (the interval reached below it), it reads
 * "< 0.1 ms" (the smallest time the table shows in the high end's unit):
 * never "0 s", which no run took. */
static const char *ci_low(double lo, double hi, int clipped, char *buf, size_t len)
{
  if (!clipped)
    return fmt_seconds(lo, buf, len);
  snprintf(buf, len, "< 0.1 %s", hi >= 1e-3 ? "ms" : hi >= 1e-6 ? "us" : "ns");
  return buf;
}

/* Is a configuration other than the fastest tied with it? */
static int some_tied(const struct tune_report *t)
{
  unsigned i;
  for (i = 0; i < t->n; i++)
    if ((int)i != t->s->fastest[t->objective] && t->r[i].tied[t->objective] &&
        isfinite(t->r[i].ratio[t->objective]))
      return 1;
  return 0;
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
    ci_low(r->time.ci95_lo, r->time.ci95_hi, r->clipped & (1u << TUNE_TIME), a, sizeof(a));
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
  fprintf(out, " %s", tune_status_word(c, r));
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
    if (!tune_no_region(t) && s->best[o] >= 0 && s->runner_up[o] >= 0 && !s->significant[o] &&
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
  fprintf(out, "%-*s %5s %4s %10s %24s %17s %8s %7s %8s %9s %8s %s\n", width, "configuration",
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
  if (tune_auto_config(t) >= 0)
    fprintf(out, "auto: OMP_EXT_HT_POLICY=auto, libomp_ext preloaded (each region's places chosen "
            "at run time, its team as OpenMP gives it unless OMP_DYNAMIC=true): shown beside "
            "the global configurations, never recommended -- to use it, htplaces exec auto "
            "[--learn DIR] -- PROGRAM; to apply tune's own per-region answer, htplaces exec "
            "--plan\n");
  fprintf(out, "vs fastest: geometric mean of the per-round ratios to the fastest %s; tied (R): "
          "not significantly %s over R paired rounds (%s)%s\n", tune_objective_name(t->objective),
          t->objective == TUNE_SPN ? "lower" : "higher", TUNE_TEST_NAME,
          !some_tied(t) ? ""
          : !t->adaptive ? "; more rounds may separate them: --budget SECONDS adds rounds of the "
                           "tied configurations until the best is significantly ahead"
          : strcmp(t->adaptive, "budget") == 0 ? "; the --budget ended before they separated: "
                                                 "a larger one may separate them"
                                               : "");
  if (isfinite(t->load.during))
    fprintf(out, "load from other processes during the runs: %.2f of %u CPUs\n", t->load.during,
            t->load.ncpus);
  print_model_inputs(out, t);
  print_regions(out, t);
  fprintf(out, "\nRecommendation:\n");
  print_pick(out, t, t->objective, "  ");
  if (!tune_no_region(t) && s->best[t->objective] >= 0 &&
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
