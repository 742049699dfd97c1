/*
 * htplaces tune --launcher ... --ranks LIST: the hybrid plan, ranks x
 * threads per rank x policy.  R ranks on the node each get a domain of
 * whole cores (omp_ext_domain_split, as `htplaces exec --ranks-per-node R`
 * cuts it in each rank), T threads in it by the policy.  A split fits when
 * R <= the allowed cores, T <= the PUs of the smallest domain (so R x T <=
 * the allowed PUs) and the launcher can give each rank whole cores
 * (tune_launcher_fits); the others are listed with the reason, never run.
 * The configuration's thread count is the job's, R x T: the speed-up,
 * Karp-Flatt, SPN, the CPU use and the cost order (fewer cores, then fewer
 * threads -- PUs in use --, then fewer ranks: tune_analysis.c) all count
 * every thread of every rank.  Its places are rank after rank.
 * Each run's timing files (one per rank) are read one at a time against the
 * domain of the rank whose places their threads are on.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune_int.h"
#include "private/util.h"

int tune_parse_ranks(const char *text, unsigned ncores, unsigned **ranks, unsigned *n)
{
  unsigned room = ncores + 64, r, last = 0;
  *n = 0;
  if (!(*ranks = malloc(room * sizeof(**ranks))))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (text)
    return tune_parse_counts(text, "ranks", OMP_EXT_TOPO_MAX_PUS, "", *ranks, room, n);
  for (r = 1; r <= ncores; r *= 2) /* 1, 2, 4, ... and every core */
    (*ranks)[(*n)++] = last = r;
  if (last != ncores)
    (*ranks)[(*n)++] = ncores;
  return HTP_EXIT_OK;
}

static void add_skip(struct tune_hybrid *h, unsigned ranks, unsigned threads, const char *why)
{
  struct tune_skip *more = realloc(h->skips, (h->nskips + 1) * sizeof(*more));
  if (!more)
    return; /* (a line less in the list) */
  h->skips = more;
  more[h->nskips].ranks = ranks;
  more[h->nskips].threads = threads;
  snprintf(more[h->nskips].why, sizeof(more[h->nskips].why), "%s", why);
  h->nskips++;
}

/* The R domains: each rank's topology, as `htplaces --ranks-per-node R
 * --local-rank r` loads it (the same -r, the same split). */
static int domains(struct htp_ctx *ctx, unsigned ranks, omp_ext_topo_t **sub)
{
  char k[16], r[16];
  unsigned i;
  int status = HTP_EXIT_OK;
  snprintf(k, sizeof(k), "%u", ranks);
  for (i = 0; i < ranks; i++)
    sub[i] = NULL;
  for (i = 0; i < ranks && !status; i++) {
    struct htp_ctx s = *ctx;
    snprintf(r, sizeof(r), "%u", i);
    s.topo = NULL;
    s.all_ranks = 0;
    s.ranks_opt = k;
    s.rank_opt = r;
    sub[i] = htp_topo(&s, &status);
  }
  return status;
}

static void free_domains(omp_ext_topo_t **sub, unsigned ranks)
{
  unsigned i;
  for (i = 0; i < ranks; i++)
    omp_ext_topo_destroy(sub[i]);
}

/* Rank r's T places appended to f (" | " between ranks); order[] the PUs. */
static int rank_places(FILE *f, const omp_ext_pu_t *order, unsigned t, unsigned r)
{
  char *text = NULL;
  if (omp_ext_places_format(order, t, omp_ext_format_omp, &text) != 0)
    return omp_ext_err_nomem;
  fprintf(f, "%s%s", r ? " | " : "", text);
  free(text);
  return omp_ext_success;
}

/* Configuration c (policy, ranks, threads set): every rank's order in its
 * domain; the usage, PUs and cores counted on the whole node. */
static int fill_ranks(const omp_ext_topo_t *node, omp_ext_topo_t *const *sub,
                      struct tune_config *c)
{
  unsigned t = tune_rank_threads(c), r, i;
  int placed = c->policy != TUNE_NONE, err = 0;
  omp_ext_pu_t *order = malloc(c->threads * sizeof(*order));
  char *text = NULL;
  size_t len = 0;
  FILE *f = placed ? open_memstream(&text, &len) : NULL;
  if (!order || (placed && !f)) {
    free(order);
    if (f)
      fclose(f);
    return omp_ext_err_nomem;
  }
  for (r = 0; r < c->ranks && !err; r++) {
    err = omp_ext_order(sub[r], NULL, placed ? (omp_ht_policy_t)c->policy
                                             : omp_ht_policy_speedup, t, &order[r * t]);
    if (!err && placed)
      err = rank_places(f, &order[r * t], t, r);
  }
  for (i = 0; !err && i < c->threads; i++) { /* (the node's numbering of cores, packages) */
    const omp_ext_pu_t *pu = omp_ext_topo_pu_by_os(node, order[i].os_index);
    if (pu)
      order[i] = *pu;
  }
  if (!err)
    err = omp_ext_usage_of(order, c->threads, &c->usage);
  if (f && fclose(f) == 0 && !err)
    c->places = text, text = NULL;
  if (!err && placed && !c->places)
    err = omp_ext_err_nomem;
  if (!err && placed && (!(c->place_pu = malloc(c->threads * sizeof(*c->place_pu))) ||
                         !(c->place_core = malloc(c->threads * sizeof(*c->place_core)))))
    err = omp_ext_err_nomem;
  for (i = 0; !err && placed && i < c->threads; i++) {
    c->place_pu[i] = order[i].os_index;
    c->place_core[i] = order[i].core;
  }
  free(text);
  free(order);
  return err;
}

/* The thread counts for R ranks: --threads as parsed, or auto on the
 * smallest domain. */
static unsigned thread_counts(omp_ext_topo_t *const *sub, unsigned ranks, const unsigned *given,
                              unsigned ngiven, unsigned *counts, unsigned room)
{
  unsigned r, cores = ~0u, pus = ~0u, smt = 1;
  for (r = 0; r < ranks; r++) {
    if (omp_ext_topo_ncores(sub[r]) < cores)
      cores = omp_ext_topo_ncores(sub[r]);
    if (omp_ext_topo_npus(sub[r]) < pus)
      pus = omp_ext_topo_npus(sub[r]);
    if (omp_ext_topo_max_smt(sub[r]) > smt)
      smt = omp_ext_topo_max_smt(sub[r]);
  }
  if (!given)
    return tune_auto_threads(cores, pus, smt, counts, room);
  memcpy(counts, given, ngiven * sizeof(*counts));
  return ngiven;
}

static unsigned smallest_domain(omp_ext_topo_t *const *sub, unsigned ranks)
{
  unsigned r, pus = ~0u;
  for (r = 0; r < ranks; r++)
    if (omp_ext_topo_npus(sub[r]) < pus)
      pus = omp_ext_topo_npus(sub[r]);
  return pus;
}

/* What the plan is made of, for one R. */
struct plan_in {
  const int *policies;
  unsigned npol;
  const unsigned *given;   /* --threads, NULL: auto */
  unsigned ngiven;
  const enum tune_wait *waits;
  unsigned nwaits;
};

/* Append R's configurations to c[*n] (room for them), its skips to h. */
static int plan_one(struct htp_ctx *ctx, struct tune_hybrid *h, unsigned ranks,
                    const struct plan_in *in, struct tune_config **c, unsigned *n)
{
  omp_ext_topo_t **sub = calloc(ranks, sizeof(*sub));
  unsigned room = omp_ext_topo_npus(ctx->topo) + 64, *counts = malloc(room * sizeof(*counts));
  unsigned k, t, p, w, pus, nc;
  char why[200];
  int status = HTP_EXIT_OK, err = 0;
  if (!sub || !counts || (status = domains(ctx, ranks, sub)) != 0) {
    free_domains(sub, sub ? ranks : 0), free(sub), free(counts);
    return status ? status : htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  pus = smallest_domain(sub, ranks);
  nc = thread_counts(sub, ranks, in->given, in->ngiven, counts, room);
  for (k = 0; k < nc && !err; k++) {
    struct tune_config *more;
    if ((t = counts[k]) > pus) {
      snprintf(why, sizeof(why), "more threads than the %u PU%s of the smallest of %u "
               "domains (%u x %u = %u of %u allowed PUs)", pus, pus == 1 ? "" : "s", ranks, ranks,
               t, ranks * t, omp_ext_topo_npus(ctx->topo));
      add_skip(h, ranks, t, why);
      continue;
    }
    if (!(more = realloc(*c, (*n + in->npol * in->nwaits) * sizeof(*more)))) {
      err = omp_ext_err_nomem;
      break;
    }
    *c = more;
    for (p = 0; p < in->npol && !err; p++)
      for (w = 0; w < in->nwaits && !err; w++) {
        struct tune_config *x = &(*c)[(*n)++];
        memset(x, 0, sizeof(*x));
        x->policy = in->policies[p];
        x->ranks = ranks;
        x->launcher = &h->launcher;
        x->threads = ranks * t;
        x->wait = in->waits[w];
        err = fill_ranks(ctx->topo, sub, x);
        x->policies = tune_policy_bits(x);
      }
  }
  free_domains(sub, ranks);
  free(sub);
  free(counts);
  if (err)
    return htp_error(HTP_EXIT_FAIL, "cannot make the plan: %s", omp_ext_strerror(err));
  return HTP_EXIT_OK;
}

/* The first skip's text, for the error when nothing fits. */
static void skip_text(const struct tune_skip *s, char *buf, size_t len)
{
  if (s->threads)
    snprintf(buf, len, "%ux%u: %s", s->ranks, s->threads, s->why);
  else
    snprintf(buf, len, "%u ranks: %s", s->ranks, s->why);
}

int tune_ranks_plan(struct htp_ctx *ctx, struct tune_hybrid *h, const int *policies,
                    unsigned npol, const char *threads_text, const enum tune_wait *waits,
                    unsigned nwaits, struct tune_config **configs, unsigned *n)
{
  unsigned i, room = omp_ext_topo_npus(ctx->topo) + 64, ngiven = 0;
  unsigned ncores = omp_ext_topo_ncores(ctx->topo), *given = NULL;
  struct plan_in in = {policies, npol, NULL, 0, waits, nwaits};
  char why[200];
  int status = HTP_EXIT_OK;
  *configs = NULL;
  *n = 0;
  if (strcmp(threads_text, "auto") != 0) {
    if (!(given = malloc(room * sizeof(*given))))
      return htp_error(HTP_EXIT_FAIL, "out of memory");
    if ((status = tune_parse_counts(threads_text, "threads", OMP_EXT_TOPO_MAX_PUS, "", given,
                                    room, &ngiven)) != 0) {
      free(given);
      return status;
    }
    in.given = given, in.ngiven = ngiven;
  }
  for (i = 0; i < h->nranks && !status; i++) {
    unsigned r = h->ranks[i];
    if (r > ncores) {
      snprintf(why, sizeof(why), "more ranks than the %u allowed cores (each rank needs whole "
               "cores)", ncores);
      add_skip(h, r, 0, why);
    } else if (!tune_launcher_fits(&h->launcher, r, why, sizeof(why))) {
      add_skip(h, r, 0, why);
    } else {
      status = plan_one(ctx, h, r, &in, configs, n);
    }
  }
  free(given);
  if (status) {
    tune_free_plan(*configs, *n);
    *configs = NULL, *n = 0;
    return status;
  }
  *n = tune_merge_identical(*configs, *n);
  if (*n == 0) {
    char text[260];
    skip_text(&h->skips[0], text, sizeof(text));
    free(*configs);
    *configs = NULL;
    return htp_error(HTP_EXIT_USAGE, "no ranks x threads split fits the %u allowed PUs (%u "
                     "cores): %u skipped, e.g. %s", omp_ext_topo_npus(ctx->topo), ncores,
                     h->nskips, text);
  }
  return HTP_EXIT_OK;
}

int tune_ranks_check_args(const struct tune_launcher *l, char *const *prog, int find)
{
  unsigned i;
  for (i = 1; prog[i]; i++)
    if (strstr(prog[i], "{PLACES}"))
      return htp_error(HTP_EXIT_USAGE, "{PLACES} in the program's arguments has no value with "
                       "--launcher: each rank has its own places ({N} is the threads per rank)");
  return find ? tune_find_program(l->words[0]) : HTP_EXIT_OK;
}

void tune_ranks_free(struct tune_hybrid *h)
{
  tune_launcher_free(&h->launcher);
  free(h->ranks);
  free(h->skips);
  h->ranks = NULL;
  h->skips = NULL;
  h->nranks = h->nskips = 0;
}

/* ------------------------------------------------------------ printing */

/* The launcher's words as given, shell-quoted. */
static void print_words(FILE *out, char *const *w, unsigned n)
{
  unsigned i;
  for (i = 0; i < n; i++) {
    if (i)
      fputc(' ', out);
    if (*w[i] && strspn(w[i], "{}abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                              "0123456789_-./=:,+@%") == strlen(w[i]))
      fputs(w[i], out); /* ({R} needs no quotes) */
    else
      htp_shell_word(out, w[i]);
  }
}

void tune_ranks_print_plan(FILE *out, const struct tune_hybrid *h)
{
  char added[128], text[260];
  unsigned i;
  fputs("launcher: ", out);
  print_words(out, h->launcher.words, h->launcher.nwords);
  tune_launcher_added(&h->launcher, added, sizeof(added));
  fprintf(out, "%s%s%s; each rank: htplaces exec --ranks-per-node R POLICY T -- PROGRAM\n",
          added[0] ? " (tune adds " : "", added, added[0] ? ")" : "");
  if (h->launcher.kind == TUNE_LAUNCHER_OTHER)
    fprintf(out, "note: tune cannot tell whether '%s' binds the ranks: a binding of its own "
            "makes their runs INVALID\n", h->launcher.words[0]);
  if (h->nskips)
    fprintf(out, "not run: %u split%s that do%s not fit (%u allowed PUs, %u cores):\n", h->nskips,
            h->nskips == 1 ? "" : "s", h->nskips == 1 ? "es" : "", h->launcher.pus,
            h->launcher.cores);
  for (i = 0; i < h->nskips; i++) {
    skip_text(&h->skips[i], text, sizeof(text));
    fprintf(out, "  %s\n", text);
  }
}

void tune_ranks_print_skips(FILE *out, const struct tune_hybrid *h)
{
  char text[260];
  unsigned i;
  for (i = 0; i < h->nskips; i++) {
    skip_text(&h->skips[i], text, sizeof(text));
    fprintf(out, "htplaces tune: not run: %s\n", text);
  }
}

void tune_ranks_plan_json(FILE *out, const struct tune_hybrid *h)
{
  static const char *const kinds[] = {"mpirun", "srun", "other"};
  char added[128];
  unsigned i;
  fputs(", \"launcher\": {\"words\": [", out);
  for (i = 0; i < h->launcher.nwords; i++) {
    fputs(i ? ", " : "", out);
    omp_ext_json_string(out, h->launcher.words[i]);
  }
  fprintf(out, "], \"kind\": \"%s\", \"added\": ", kinds[h->launcher.kind]);
  omp_ext_json_string(out, tune_launcher_added(&h->launcher, added, sizeof(added)));
  fputs("},\n   \"skipped\": [", out);
  for (i = 0; i < h->nskips; i++) {
    fprintf(out, "%s{\"ranks\": %u, \"threads_per_rank\": ", i ? ", " : "", h->skips[i].ranks);
    if (h->skips[i].threads)
      fprintf(out, "%u", h->skips[i].threads);
    else
      fputs("null", out);
    fputs(", \"why\": ", out);
    omp_ext_json_string(out, h->skips[i].why);
    fputc('}', out);
  }
  fputc(']', out);
}

void tune_ranks_config_json(FILE *out, const struct tune_config *c)
{
  if (c->ranks)
    fprintf(out, ", \"ranks\": %u, \"threads_per_rank\": %u", c->ranks, tune_rank_threads(c));
}

int tune_ranks_command(FILE *f, const struct tune_config *c, char *const *prog)
{
  char **v = tune_launcher_argv(c, prog);
  unsigned i;
  if (!v)
    return -1;
  if (c->policy == TUNE_NONE)
    fprintf(f, "OMP_NUM_THREADS=%u ", tune_rank_threads(c));
  for (i = 0; v[i]; i++) {
    if (i)
      fputc(' ', f);
    htp_shell_word(f, v[i]);
    free(v[i]);
  }
  free(v);
  return 0;
}

/* ------------------------------------------------------- timing files */

/* Rank r's view of c: one process of T threads on rank r's places. */
static void rank_view(const struct tune_config *c, unsigned r, struct tune_config *v)
{
  unsigned t = tune_rank_threads(c);
  memset(v, 0, sizeof(*v));
  v->policy = c->policy;
  v->policies = c->policies;
  v->threads = t;
  v->wait = c->wait;
  v->usage = c->usage;
  if (c->place_pu) {
    v->place_pu = c->place_pu + (size_t)r * t;
    v->place_core = c->place_core + (size_t)r * t;
  }
}

/* Region g of one rank into c (moved: g is left empty): a new region, or
 * this run's value of one c has (nb: c's regions before this run, runs[k]
 * their runs then): the larger, the slowest rank's. */
static int fold_region(struct tune_config *c, struct tune_region *g, unsigned nb,
                       const unsigned *runs)
{
  struct tune_region *x = NULL, *more;
  unsigned k;
  double *tot, *med;
  for (k = 0; k < c->nregions && !x; k++)
    if (strcmp(c->regions[k].key, g->key) == 0)
      x = &c->regions[k];
  if (!x) {
    if (!(more = realloc(c->regions, (c->nregions + 1) * sizeof(*more))))
      return -1;
    c->regions = more;
    more[c->nregions++] = *g;
    memset(g, 0, sizeof(*g));
    return 0;
  }
  k = (unsigned)(x - c->regions);
  if (g->nruns == 0)
    return 0;
  if (k >= nb || x->nruns > runs[k]) { /* another rank's value of this run */
    if (g->total_s[0] > x->total_s[x->nruns - 1])
      x->total_s[x->nruns - 1] = g->total_s[0];
    if (g->median_s[0] > x->median_s[x->nruns - 1])
      x->median_s[x->nruns - 1] = g->median_s[0];
  } else {
    if (!(tot = realloc(x->total_s, (x->nruns + 1) * sizeof(*tot))))
      return -1;
    x->total_s = tot;
    if (!(med = realloc(x->median_s, (x->nruns + 1) * sizeof(*med))))
      return -1;
    x->median_s = med;
    x->runs_room = x->nruns + 1;
    free(x->round); /* (ranks' runs are not paired by round) */
    x->round = NULL, x->no_rounds = 1;
    x->total_s[x->nruns] = g->total_s[0];
    x->median_s[x->nruns++] = g->median_s[0];
  }
  if (g->instances > x->instances)
    x->instances = g->instances;
  if (g->team_max > x->team_max)
    x->team_max = g->team_max;
  return 0;
}

/* One process's file as the rank whose places its threads are on: 0 with
 * v filled (*rank: the rank, or -1 when every rank's places would do: no
 * thread told where it was), 1 invalid (why), -1 not omp_ext's. */
static int read_as_rank(const char *file, const struct tune_config *c, struct tune_config *v,
                        int *rank, double *serial, char *why, size_t len)
{
  struct tune_config other;
  unsigned r;
  int got = -1;
  char first[160] = "";
  *rank = -1;
  for (r = 0; r < c->ranks; r++) {
    rank_view(c, r, v);
    if ((got = tune_read_timing(file, v, serial, why, len)) != 1)
      break;
    if (r == 0)
      snprintf(first, sizeof(first), "%s", why);
  }
  if (got == 1)
    snprintf(why, len, "a rank's threads are in no rank's domain (against rank 0's: %s)", first);
  if (got != 0 || !c->place_pu)
    return got;
  *rank = (int)r;
  if (c->ranks > 1 && v->nregions) { /* would another rank's places do as well? */
    double s;
    char w[8];
    rank_view(c, (r + 1) % c->ranks, &other);
    if (tune_read_timing(file, &other, &s, w, sizeof(w)) == 0)
      *rank = -1;
    tune_free_regions(&other);
  }
  return 0;
}

/* The run's processes, each read as its rank: 0 all valid (v[*n]), 1
 * invalid (why), -1 none of omp_ext's. */
static int read_ranks(const glob_t *g, const struct tune_config *c, struct tune_config *v,
                      double *serial, unsigned *n, char *why, size_t len)
{
  unsigned char *taken = calloc(c->ranks + 1, 1);
  size_t i;
  int got, status = -1, rank;
  *n = 0;
  if (!taken)
    return -1;
  for (i = 0; i < g->gl_pathc && status != 1; i++) {
    if ((got = read_as_rank(g->gl_pathv[i], c, &v[*n], &rank, &serial[*n], why, len)) == 0 &&
        rank >= 0 && taken[rank]) {
      snprintf(why, len, "two processes ran on rank %d's places (the launcher bound the ranks "
               "to the same PUs?)", rank);
      got = 1;
    }
    if (got != 0) {
      tune_free_regions(&v[*n]);
      status = got == 1 ? 1 : status;
      continue;
    }
    if (rank >= 0)
      taken[rank] = 1;
    (*n)++;
    status = 0;
  }
  free(taken);
  return status;
}

int tune_ranks_read_timing(const char *path, struct tune_config *c, double *serial_s,
                           char *invalid, size_t len)
{
  glob_t g;
  unsigned nb = c->nregions, *runs = NULL, n = 0, k, j;
  struct tune_config *v = NULL;
  double *serial = NULL;
  int status = -1;
  *serial_s = NAN;
  invalid[0] = '\0';
  if (tune_timing_files(path, &g) != 0)
    return -1;
  if ((runs = malloc((nb + 1) * sizeof(*runs))) && (v = calloc(g.gl_pathc, sizeof(*v))) &&
      (serial = malloc(g.gl_pathc * sizeof(*serial))))
    status = read_ranks(&g, c, v, serial, &n, invalid, len);
  for (k = 0; k < nb && status == 0; k++)
    runs[k] = c->regions[k].nruns;
  for (k = 0; k < n; k++) { /* all valid: every rank's regions into c */
    for (j = 0; status == 0 && j < v[k].nregions; j++)
      if (fold_region(c, &v[k].regions[j], nb, runs) != 0)
        status = -1;
    if (status == 0 && isfinite(serial[k]) && !(serial[k] <= *serial_s))
      *serial_s = serial[k];
    c->self_bound |= status == 0 && v[k].self_bound;
    tune_free_regions(&v[k]);
  }
  globfree(&g);
  free(runs);
  free(v);
  free(serial);
  return status;
}
