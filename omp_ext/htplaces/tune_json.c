/*
 * htplaces tune: results.json (one documented shape, see htplaces-tune(1);
 * also -f json on stdout) and results.csv (one row per run).  Nothing here
 * computes a figure: tune_analysis.c does.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_int.h"

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


/* , "rounds": [..], "totals_s": [..]: the region's total in each run and
 * that run's round (exec --plan pairs them with another configuration's);
 * nothing when a run's round is not known (--launcher). */
static void region_rounds(FILE *f, const struct tune_region *r)
{
  unsigned i;
  if (!r->round || r->no_rounds)
    return;
  fputs(", \"rounds\": [", f);
  for (i = 0; i < r->nruns; i++)
    fprintf(f, "%s%u", i ? ", " : "", r->round[i]);
  fputs("], \"totals_s\": [", f);
  for (i = 0; i < r->nruns; i++) {
    fputs(i ? ", " : "", f);
    json_num(f, r->total_s[i]);
  }
  fputc(']', f);
}
/* {n, median, mean, ci95 [lo, hi], ci95_clipped (lo was below 0: shown
 * as 0), min, max} */
static void json_stats(FILE *f, const omp_ext_stats_t *st, int clipped)
{
  fprintf(f, "{\"n\": %u, \"median\": ", st->n);
  json_num(f, st->n ? st->median : NAN);
  fputs(", \"mean\": ", f);
  json_num(f, st->n ? st->mean : NAN);
  fputs(", \"ci95\": [", f);
  json_num(f, st->n ? st->ci95_lo : NAN);
  fputs(", ", f);
  json_num(f, st->n ? st->ci95_hi : NAN);
  fprintf(f, "], \"ci95_clipped\": %s, \"min\": ", clipped ? "true" : "false");
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
  if (tune_no_region(t))
    omp_ext_json_string(f, TUNE_NO_REGION_VERDICT);
  else
    fputs("null", f);
  fputs(", \"command\": ", f);
  if (!tune_no_region(t) && s->best[o] >= 0 && (line = tune_exec_line(t, s->best[o]))) {
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
  tune_config_label(c, label, sizeof(label));
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
          tune_status_word(c, r), r->invalid);
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
  json_stats(f, &r->time, (r->clipped >> TUNE_TIME) & 1);
  for (o = 1; o < TUNE_NOBJECTIVES; o++) {
    fprintf(f, ",\n     \"%s\": ", o == TUNE_ENERGY ? "energy_j" : o == TUNE_SPN ? "spn" : "edp");
    json_stats(f, &r->metric[o], (r->clipped >> o) & 1);
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
  json_num(f, tune_serial_median(c));
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
    json_num(f, tune_region_total(&c->regions[k]));
    region_rounds(f, &c->regions[k]);
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
  const struct tune_region *x = tune_auto_region(t, g);
  if (tune_auto_config(t) < 0)
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
  json_num(f, tune_region_total(x));
  fputc('}', f);
}

/* The summary of region \p i of the report ("summary"."regions"[i]). */
static void json_region_summary(FILE *f, const struct tune_report *t, unsigned i)
{
  const struct tune_region_summary *g = &t->s->regions[i];
  fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
  omp_ext_json_string(f, g->name);
  json_key_parts(f, g->key);
  fprintf(f, ", \"kind\": \"%s\"", g->timer ? "timer" : "parallel");
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
  fputs(", \"share_of\": ", f);
  if (s->share_from >= 0)
    fprintf(f, "%d", s->share_from);
  else
    fputs("null", f);
  fputs(", \"serial_share\": ", f);
  json_num(f, s->serial_share);
  fputs(", \"regions\": [", f);
  for (i = 0; i < s->nregions; i++)
    json_region_summary(f, t, i);
  fprintf(f, "], \"timed\": %s, \"verdict\": ", s->timed ? "true" : "false");
  if (tune_no_region(t))
    omp_ext_json_string(f, TUNE_NO_REGION_VERDICT);
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
