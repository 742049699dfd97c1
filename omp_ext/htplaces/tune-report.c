/*
 * htplaces tune: printing -- the table on stdout, results.csv and
 * results.json (one documented shape, see htplaces-tune(1)), the
 * recommendation, and gnuplot plots (time and SPN against N per policy).
 * Nothing here computes a figure: tune-analysis.c does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "findings.h"
#include "tune.h"

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

/* "spn 2" or "spn 2 active". */
static void config_name(const struct tune_config *c, char *buf, size_t len)
{
  snprintf(buf, len, "%s %u%s%s", tune_policy_name(c->policy), c->threads,
           c->wait ? " " : "", c->wait ? tune_wait_name(c->wait) : "");
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

static void print_pick(FILE *out, const struct tune_report *t, enum tune_objective o,
                       const char *lead)
{
  const struct tune_summary *s = t->s;
  int b = s->best[o], u = s->runner_up[o];
  char name[64], other[64];
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
    fprintf(out, "; no runner-up)\n");
    return;
  }
  config_name(&t->c[u], other, sizeof(other));
  /* The tie rule changed the order when the recommended one has the worse
   * median: say so. */
  fprintf(out, "); runner-up %s (%.4g %s): %s\n", other, t->r[u].metric[o].median,
          metric_unit[o], s->significant[o] ? "significant difference (95% CIs disjoint)"
          : (o == TUNE_SPN ? t->r[b].metric[o].median < t->r[u].metric[o].median
                           : t->r[b].metric[o].median > t->r[u].metric[o].median)
            ? "no significant difference (95% CIs overlap): the one with fewer cores is "
              "recommended"
            : "no significant difference (95% CIs overlap)");
}

/* The median of a configuration's serial seconds (outside any region). */
static double serial_median(const struct tune_config *c)
{
  double buf[256];
  unsigned n = c->nserial < 256 ? c->nserial : 256;
  if (n) /* (no valid run: serial_s may be NULL) */
    memcpy(buf, c->serial_s, n * sizeof(*buf));
  return tune_median(buf, n);
}

static unsigned untimed_runs(const struct tune_report *t)
{
  unsigned i, n = 0;
  for (i = 0; i < t->n; i++)
    n += t->c[i].untimed;
  return n;
}

static void print_regions(FILE *out, const struct tune_report *t)
{
  const struct tune_summary *s = t->s;
  unsigned k, untimed = untimed_runs(t);
  char name[64];
  if (!s->nregions) {
    fprintf(out, "\nParallel regions: not available (no run wrote a timing file: a statically "
            "linked program, a runtime that started no hook, or --no-regions)\n");
    return;
  }
  fprintf(out, "\nParallel regions (omp_ext's timing layer; median total seconds per run):\n");
  fprintf(out, "  %-32s %9s %4s  %-22s %9s %8s %7s %7s\n", "region", "instances", "team",
          "best configuration", "best_s", "speedup", "serial", "sigma");
  for (k = 0; k < s->nregions; k++) {
    const struct tune_region_summary *g = &s->regions[k];
    if (g->best >= 0)
      config_name(&t->c[g->best], name, sizeof(name));
    else
      snprintf(name, sizeof(name), "-");
    fprintf(out, "  %-32.32s %9lu %4u  %-22s ", g->name, g->instances, g->team_max, name);
    print_num(out, "%*.4f", g->best >= 0 ? g->best_s : NAN, 9);
    print_num(out, " %*.2f", g->speedup, 8);
    print_num(out, " %*.3f", g->serial, 7);
    print_num(out, " %*.3f", g->npairs ? g->sigma : NAN, 7);
    fputc('\n', out);
  }
  if (s->best[TUNE_TIME] >= 0 && t->c[s->best[TUNE_TIME]].nserial) {
    config_name(&t->c[s->best[TUNE_TIME]], name, sizeof(name));
    fprintf(out, "  serial part (outside any region): median %.4f s at %s\n",
            serial_median(&t->c[s->best[TUNE_TIME]]), name);
  }
  if (untimed)
    fprintf(out, "  %u successful runs wrote no timing file: the figures above are of the others\n",
            untimed);
}

void tune_print_table(FILE *out, const struct tune_report *t)
{
  const struct tune_summary *s = t->s;
  unsigned i;
  int o;
  char name[64], *line;
  fprintf(out, "%-22s %6s %4s %12s %23s %8s %7s %8s %9s %8s %s\n", "configuration", "cores",
          "runs", "median_s", "95% CI of mean (s)", "speedup", "serial", "power_W",
          t->energy_measured ? "energy_J" : "energy_J*", "SPN", "status");
  for (i = 0; i < t->n; i++) {
    const struct tune_config *c = &t->c[i];
    const struct tune_result *r = &t->r[i];
    config_name(c, name, sizeof(name));
    fprintf(out, "%-22s %6u %4u ", name, c->usage.cores, r->ok);
    print_num(out, "%*.4f", r->ok ? r->time.median : NAN, 12);
    if (r->ok)
      fprintf(out, "  [%9.4f, %9.4f]", r->time.ci95_lo, r->time.ci95_hi);
    else
      fprintf(out, " %23s", "-");
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
  if (!t->energy_measured)
    fprintf(out, "* energy modelled (power model %s x time): no readable RAPL counter\n",
            t->power_name);
  fprintf(out, "\nModel inputs measured:\n");
  if (isfinite(s->serial)) {
    config_name(&t->c[s->serial_from], name, sizeof(name));
    fprintf(out, "  serial fraction s = %.4f (Karp-Flatt at %s)", s->serial, name);
    if (s->bound)
      fprintf(out, "; the §2.3 useful thread count (speedup order) is %u", s->bound);
    fputc('\n', out);
  } else {
    fprintf(out, "  serial fraction: not measurable (needs a 1-thread configuration and one "
            "with more threads, one per core, faster than it)\n");
  }
  if (s->npairs)
    fprintf(out, "  sigma = %.3f (median of %u pairs: C threads one per core vs 2C on the "
            "same C cores)\n", s->sigma, s->npairs);
  else
    fprintf(out, "  sigma: not measurable here (needs cores with SMT siblings and both C and 2C "
            "threads on C cores: e.g. speedup C and spn 2C)\n");
  fprintf(out, "  htplaces model --serial-fraction %.4f --sigma %.3f --power-model %s\n",
          isfinite(s->serial) && s->serial > 0 ? s->serial : 0.0,
          s->npairs && s->sigma > 0 && s->sigma <= 1 ? s->sigma : OMP_EXT_MODEL_SIGMA,
          t->power_name);
  print_regions(out, t);
  fprintf(out, "\nRecommendation:\n");
  print_pick(out, t, t->objective, "  ");
  if (s->best[t->objective] >= 0 && (line = tune_exec_line(t, s->best[t->objective]))) {
    fprintf(out, "  %s\n", line);
    free(line);
  }
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
  fprintf(f, ", \"significant\": %s, \"command\": ", s->significant[o] ? "true" : "false");
  if (s->best[o] >= 0 && (line = tune_exec_line(t, s->best[o]))) {
    htp_json_string(f, line);
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
  unsigned k;
  int o;
  fprintf(f, "    {\"index\": %u, \"policy\": \"%s\", \"threads\": %u, \"wait_policy\": \"%s\", "
          "\"cores\": %u, \"packages\": %u, \"smt_siblings\": %u, \"omp_places\": ", i,
          tune_policy_name(c->policy), c->threads, tune_wait_name(c->wait), c->usage.cores,
          c->usage.packages, c->usage.extra);
  if (c->places)
    htp_json_string(f, c->places);
  else
    fputs("null", f);
  fprintf(f, ",\n     \"status\": \"%s\", \"invalid_runs\": %u, \"stderr_tail\": ",
          status_word(c, r), r->invalid);
  htp_json_string(f, c->tail);
  fputs(",\n     \"runs\": [", f);
  for (k = 0; k < c->nruns; k++) {
    fprintf(f, "%s{\"wall_s\": ", k ? ", " : "");
    json_num(f, c->runs[k].wall_s);
    fputs(", \"cpu_s\": ", f);
    json_num(f, c->runs[k].cpu_s);
    fputs(", \"energy_j\": ", f);
    json_num(f, c->runs[k].energy_j);
    fprintf(f, ", \"status\": %d, \"invalid\": ", c->runs[k].status);
    if (c->runs[k].invalid[0])
      htp_json_string(f, c->runs[k].invalid);
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
  fputs(",\n     \"serial_s\": ", f);
  json_num(f, serial_median(c));
  fputs(", \"regions\": [", f);
  for (k = 0; k < c->nregions; k++) {
    double buf[256];
    unsigned m = c->regions[k].nruns < 256 ? c->regions[k].nruns : 256;
    memcpy(buf, c->regions[k].total_s, m * sizeof(*buf));
    fprintf(f, "%s{\"name\": ", k ? ", " : "");
    htp_json_string(f, c->regions[k].name);
    fprintf(f, ", \"instances\": %lu, \"team_sizes\": [%u], \"runs\": %u, \"total_s\": ",
            c->regions[k].instances, c->regions[k].team_max, c->regions[k].nruns);
    json_num(f, tune_median(buf, m));
    fputc('}', f);
  }
  fputs("]}", f);
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
    htp_json_string(f, *a);
  }
  fprintf(f, "],\n  \"machine\": {\"source\": ");
  htp_json_string(f, omp_ext_topo_source(t->topo));
  fprintf(f, ", \"pus\": %u, \"cores\": %u, \"packages\": %u, \"max_smt\": %u},\n",
          omp_ext_topo_npus(t->topo), omp_ext_topo_ncores(t->topo),
          omp_ext_topo_npackages(t->topo), omp_ext_topo_max_smt(t->topo));
  fprintf(f, "  \"settings\": {\"rounds\": %u, \"seed\": %lu, \"objective\": \"%s\", "
          "\"energy\": \"%s\", \"power_model\": ", t->rounds, t->seed,
          tune_objective_name(t->objective), t->energy_measured ? "measured" : "modelled");
  htp_json_string(f, t->power_name);
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
  fprintf(f, ", \"sigma_pairs\": %u, \"thread_bound\": ", s->npairs);
  if (s->bound)
    fprintf(f, "%u", s->bound);
  else
    fputs("null", f);
  fputs(", \"regions\": [", f);
  for (i = 0; i < s->nregions; i++) {
    const struct tune_region_summary *g = &s->regions[i];
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    htp_json_string(f, g->name);
    fprintf(f, ", \"instances\": %lu, \"team_sizes\": [%u], \"best\": ", g->instances,
            g->team_max);
    if (g->best >= 0)
      fprintf(f, "%d", g->best);
    else
      fputs("null", f);
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
    fputc('}', f);
  }
  fputs("]},\n  \"recommendation\": ", f);
  json_pick(f, t, t->objective);
  fputs(",\n  \"objectives\": [", f);
  for (o = 0; o < TUNE_NOBJECTIVES; o++) {
    fputs(o ? ", " : "", f);
    json_pick(f, t, (enum tune_objective)o);
  }
  fputs("],\n  \"skipped\": [", f);
  for (i = 0; i < t->nskipped; i++) {
    fputs(i ? ", " : "", f);
    htp_json_string(f, t->skipped[i]);
  }
  fputs("]\n}\n", f);
}

void tune_print_csv(FILE *f, const struct tune_report *t)
{
  unsigned i, k;
  fputs("policy,threads,wait_policy,cores,round_index,wall_s,cpu_s,energy_j,energy_source,"
        "status,invalid\n", f);
  for (i = 0; i < t->n; i++)
    for (k = 0; k < t->c[i].nruns; k++) {
      const char *p;
      fprintf(f, "%s,%u,%s,%u,%u,%.9g,%.9g,%.9g,%s,%d,", tune_policy_name(t->c[i].policy),
              t->c[i].threads, tune_wait_name(t->c[i].wait), t->c[i].usage.cores, k,
              t->c[i].runs[k].wall_s, t->c[i].runs[k].cpu_s, t->c[i].runs[k].energy_j,
              t->energy_measured ? "rapl" : "modelled", t->c[i].runs[k].status);
      if (t->c[i].runs[k].invalid[0]) { /* a quoted CSV field */
        fputc('"', f);
        for (p = t->c[i].runs[k].invalid; *p; p++)
          fputs(*p == '"' ? "\"\"" : (char[]){*p, 0}, f);
        fputc('"', f);
      }
      fputc('\n', f);
    }
}

static int write_file(const char *dir, const char *name, const struct tune_report *t,
                      void (*print)(FILE *, const struct tune_report *))
{
  char *path;
  FILE *f;
  int ok;
  if (asprintf(&path, "%s/%s", dir, name) < 0)
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
  for (o = 0; o < TUNE_NOBJECTIVES; o++)
    if (t->s->best[o] >= 0 && (line = tune_exec_line(t, t->s->best[o]))) {
      fprintf(f, "%s: %s\n", tune_objective_name((enum tune_objective)o), line);
      free(line);
    }
}

/* Is configuration i the first of its series (policy and wait policy)? */
static int first_of_series(const struct tune_report *t, unsigned i)
{
  unsigned j;
  for (j = 0; j < i; j++)
    if (t->c[j].policy == t->c[i].policy && t->c[j].wait == t->c[i].wait)
      return 0;
  return 1;
}

/* Data files for gnuplot: DIR/plot-POLICY.dat with N, median time, SPN. */
static void print_plot_script(FILE *f, const struct tune_report *t)
{
  unsigned i, k;
  int first = 1;
  static const char *const term[2][2] = {{"pngcairo size 900,600", "png"},
                                          {"svg size 900,600", "svg"}};
  for (k = 0; k < 2; k++) {
    int m;
    for (m = 0; m < 2; m++) {
      fprintf(f, "set terminal %s\nset output 'tune-%s.%s'\n", term[k][0],
              m ? "spn" : "time", term[k][1]);
      fprintf(f, "set title 'htplaces tune: %s against threads'\nset xlabel 'threads (N)'\n"
              "set ylabel '%s'\nset key top right\nset grid\n", m ? "SPN" : "median time",
              m ? "SPN, 1000 S / (P C)" : "seconds");
      fputs("plot ", f);
      first = 1;
      for (i = 0; i < t->n; i++) {
        if (!first_of_series(t, i))
          continue;
        fprintf(f, "%s'-' using 1:2 with linespoints title '%s%s%s'", first ? "" : ", ",
                tune_policy_name(t->c[i].policy), t->c[i].wait ? " " : "",
                t->c[i].wait ? tune_wait_name(t->c[i].wait) : "");
        first = 0;
      }
      fputc('\n', f);
      for (i = 0; i < t->n; i++) {
        unsigned j;
        if (!first_of_series(t, i))
          continue;
        for (j = i; j < t->n; j++)
          if (t->c[j].policy == t->c[i].policy && t->c[j].wait == t->c[i].wait &&
              t->r[j].ok && !t->r[j].failed) {
            double v = m ? t->r[j].metric[TUNE_SPN].median : t->r[j].time.median;
            if (!m || t->r[j].metric[TUNE_SPN].n)
              fprintf(f, "%u %.9g\n", t->c[j].threads, v);
          }
        fputs("e\n", f);
      }
    }
  }
}

static int have_gnuplot(void)
{
  return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

int tune_write_dir(const char *dir, const struct tune_report *t)
{
  int status;
  char *cmd;
  if ((status = write_file(dir, "results.csv", t, tune_print_csv)) != 0 ||
      (status = write_file(dir, "results.json", t, tune_print_json)) != 0 ||
      (status = write_file(dir, "recommendation.txt", t, print_recommendation)) != 0 ||
      (status = write_file(dir, "table.txt", t, tune_print_table)) != 0 ||
      (status = write_file(dir, "plots.gp", t, print_plot_script)) != 0)
    return status;
  if (!have_gnuplot()) {
    fprintf(stderr, "htplaces tune: gnuplot not found: no plots (the script is %s/plots.gp)\n",
            dir);
    return HTP_EXIT_OK;
  }
  if (asprintf(&cmd, "cd '%s' && gnuplot plots.gp 2>gnuplot.log", dir) < 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  status = system(cmd);
  free(cmd);
  if (status != 0)
    fprintf(stderr, "htplaces tune: gnuplot failed: see %s/gnuplot.log\n", dir);
  return HTP_EXIT_OK;
}
