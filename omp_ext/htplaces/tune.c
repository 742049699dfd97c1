/*
 * htplaces tune [options] -- PROGRAM [ARGS]: run the user's program over a
 * plan of placements (policy x thread count x OMP_WAIT_POLICY), every round
 * in a seeded shuffled order after one discarded warm-up run, then fit the
 * paper's model (serial fraction by Karp-Flatt, sigma from paired runs, SPN,
 * energy) and recommend a placement per objective, with the statistics to
 * trust it (medians, 95% confidence intervals, significance).
 * See htplaces-tune(1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "findings.h"
#include "tune_int.h"
#include "private/util.h"

#define MAX_LIST 64

struct plan {
  int policies[MAX_LIST];
  unsigned *counts;      /* room for one per allowed PU */
  enum tune_wait waits[3];
  unsigned npol, ncounts, nwaits;
  struct tune_config *c;
  unsigned n;
  struct tune_hybrid *hybrid; /* --launcher: the ranks, the launcher, what is skipped */
};

/* --launcher: ranks x threads per rank x policy (tune_ranks.c). */
static int make_hybrid(struct htp_ctx *ctx, const struct tune_opts *o, struct plan *p)
{
  struct tune_hybrid *h = p->hybrid = calloc(1, sizeof(*p->hybrid));
  unsigned i;
  int status;
  if (!h)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  for (i = 0; i < p->npol; i++)
    if (p->policies[i] == TUNE_AUTO)
      return htp_error(HTP_EXIT_USAGE, "--policies auto is not measured with --launcher (each "
                       "rank would choose its own); run 'htplaces exec auto' under the launcher");
  if ((status = tune_launcher_parse(o->launcher, &h->launcher)) != 0 ||
      (status = tune_launcher_setup(&h->launcher, ctx->topo, ctx->restrict_list)) != 0 ||
      (status = tune_parse_ranks(o->ranks, omp_ext_topo_ncores(ctx->topo), &h->ranks,
                                 &h->nranks)) != 0)
    return status;
  return tune_ranks_plan(ctx, h, p->policies, p->npol, o->threads, p->waits, p->nwaits, &p->c,
                         &p->n);
}

static int make_plan(struct htp_ctx *ctx, const struct tune_opts *o, struct plan *p)
{
  const omp_ext_topo_t *topo = ctx->topo;
  unsigned npus = omp_ext_topo_npus(topo), room = npus > MAX_LIST ? npus : MAX_LIST;
  int status;
  if ((status = tune_parse_policies(o->policies, p->policies, MAX_LIST, &p->npol)) != 0)
    return status;
  p->nwaits = 1;
  p->waits[0] = TUNE_WAIT_UNSET;
  if (o->waits && (status = tune_parse_waits(o->waits, p->waits, 3, &p->nwaits)) != 0)
    return status;
  if (o->launcher)
    return make_hybrid(ctx, o, p);
  if (!(p->counts = malloc(room * sizeof(*p->counts))))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (strcmp(o->threads, "auto") == 0)
    p->ncounts = tune_auto_threads(omp_ext_topo_ncores(topo), npus, omp_ext_topo_max_smt(topo),
                                   p->counts, room);
  else if ((status = tune_parse_threads(o->threads, npus, p->counts, room, &p->ncounts)) != 0)
    return status;
  return tune_make_plan(topo, p->policies, p->npol, p->counts, p->ncounts, p->waits, p->nwaits,
                        &p->c, &p->n);
}

/* The plan as JSON (htplaces -f json tune --dry-run). */
static void print_plan_json(FILE *out, const struct plan *p, const struct tune_opts *o)
{
  unsigned i, runs = 1 + p->n * o->reps;
  char label[160];
  fprintf(out, "{\n  \"plan\": {\"rounds\": %u, \"adaptive\": %s, \"warmup_runs\": 1, "
          "\"runs\": %u, \"seed\": %lu, \"timeout_s\": ", o->reps,
          o->budget_s > 0 ? "true" : "false", runs, o->seed);
  if (o->timeout_s > 0)
    fprintf(out, "%.9g", o->timeout_s);
  else
    fputs("null", out);
  fputs(", \"budget_s\": ", out);
  if (o->budget_s > 0)
    fprintf(out, "%.9g", o->budget_s);
  else
    fputs("null", out);
  if (p->hybrid) /* --launcher: its words, what tune adds, the splits not run */
    tune_ranks_plan_json(out, p->hybrid);
  fputs(",\n   \"configurations\": [", out);
  for (i = 0; i < p->n; i++) {
    const struct tune_config *c = &p->c[i];
    unsigned b;
    int first = 1;
    tune_config_label(c, label, sizeof(label));
    fprintf(out, "%s\n    {\"index\": %u, \"label\": ", i ? "," : "", i);
    omp_ext_json_string(out, label);
    fprintf(out, ", \"policy\": \"%s\", \"policies\": [", tune_policy_name(c->policy));
    for (b = 0; b < 32; b++)
      if (tune_policy_bits(c) & (1u << b)) {
        fprintf(out, "%s\"%s\"", first ? "" : ", ", tune_bit_name(b));
        first = 0;
      }
    fprintf(out, "], \"threads\": %u", c->threads);
    tune_ranks_config_json(out, c);
    fprintf(out, ", \"wait\": \"%s\", \"cores\": %u, \"places\": ", tune_wait_name(c->wait),
            c->usage.cores);
    if (c->places)
      omp_ext_json_string(out, c->places);
    else
      fputs("null", out);
    fputc('}', out);
  }
  fputs("]}\n}\n", out);
}

static void print_plan(FILE *out, const struct plan *p, const struct tune_opts *o)
{
  unsigned i, runs = 1 + p->n * o->reps;
  char label[160];
  fprintf(out, "plan: %u configurations x %u rounds + 1 warm-up = %u runs (seed %lu)\n", p->n,
          o->reps, runs, o->seed);
  for (i = 0; i < p->n; i++) {
    tune_config_label(&p->c[i], label, sizeof(label));
    fprintf(out, "  %-24s %s\n", label,
            p->c[i].places ? p->c[i].places
            : TUNE_IS_AUTO(&p->c[i]) ? "(OMP_EXT_HT_POLICY=auto: per region, at run time)"
                                     : "(no OMP_PLACES: the runtime's default)");
  }
  if (p->hybrid) /* --launcher: the command, the splits not run */
    tune_ranks_print_plan(out, p->hybrid);
  if (o->timeout_s > 0)
    fprintf(out, "estimated time: at most %.0f s (%u runs x --timeout %.0f s); typically %u x "
            "the program's own time\n", runs * o->timeout_s, runs, o->timeout_s, runs);
  else
    fprintf(out, "estimated time: %u x the program's own time (no --timeout given)\n", runs);
  if (o->budget_s > 0)
    fprintf(out, "budget: no run starts after %.0f s; after the %u rounds, more rounds of the "
            "configurations still tied with the best until it is significantly ahead\n",
            o->budget_s, o->reps);
}

static int add_run(struct tune_config *c, const struct tune_run *r)
{
  struct tune_run *more = realloc(c->runs, (c->nruns + 1) * sizeof(*more));
  if (!more)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  c->runs = more;
  c->runs[c->nruns++] = *r;
  return HTP_EXIT_OK;
}

/* The sweep's runner (omp_ext/tools/sweep/sweep.h): the program in one
 * configuration, its runs kept with the configuration. */
struct loop {
  const struct tune_exec *x;
  struct plan *p;
  struct sweep_state st; /* the engine's counts: runs done, planned, rounds, time */
  unsigned nskipped;
  char **skipped;        /* runs not started (budget): "spn 2 round 3" */
  const char *adaptive;  /* NULL: no --budget; else how the adaptive rounds ended */
};

static int skip(void *ctx, unsigned i, unsigned round, const struct sweep_state *st)
{
  struct loop *l = ctx;
  char **more = realloc(l->skipped, (l->nskipped + 1) * sizeof(*more)), label[160];
  (void)st;
  tune_config_label(&l->p->c[i], label, sizeof(label));
  if (!more || asprintf(&more[l->nskipped], "%s round %u", label, round + 1) < 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  l->skipped = more;
  l->nskipped++;
  return HTP_EXIT_OK;
}

static void progress(void *ctx, unsigned i, unsigned round, const struct sweep_state *st)
{
  const struct tune_config *c = &((struct loop *)ctx)->p->c[i];
  const struct tune_run *r = &c->runs[c->nruns - 1];
  double left = st->done && st->total > st->done ? st->run_time / st->done * (st->total - st->done)
                                                 : 0;
  char label[160], how[96] = "";
  tune_config_label(c, label, sizeof(label));
  if (r->status > 0) /* (how it failed: a signal, a stop on the terminal) */
    tune_run_outcome(r, how, sizeof(how));
  fprintf(stderr, "htplaces tune: [%u/%u] %s, round %u: %.3f s %s%s%s%s (about %.0f s left)\n",
          st->done, st->total, label, round + 1, r->wall_s,
          r->status != 0 ? r->status < 0 ? "TIMEOUT" : "FAILED" : r->invalid[0] ? "INVALID" : "ok",
          how[0] ? " (" : "", how, how[0] ? ")" : "", left);
}

/* The warm-up run (page cache, the runtime's first start): its figures are
 * discarded, but a failure is kept as a run of its configuration (marked
 * FAILED there, with the program's last words), never hidden. */
static int warm_up(void *ctx, unsigned i, double *seconds)
{
  struct loop *l = ctx;
  struct tune_config *c = &l->p->c[i];
  struct tune_run r;
  char how[96] = "", label[160];
  int status = tune_warm_up(l->x, c, &r);
  if (status != 0)
    return status;
  *seconds = r.wall_s;
  if (r.status != 0)
    tune_run_outcome(&r, how, sizeof(how));
  tune_config_label(c, label, sizeof(label));
  fprintf(stderr, "htplaces tune: [warm-up] %s: %.3f s %s%s%s\n", label, r.wall_s,
          r.status ? "FAILED (" : "ok", how, r.status ? ")" : "");
  if (r.status != 0)
    return add_run(c, &r);
  c->tail[0] = '\0';
  free(c->last_words);
  c->last_words = NULL;
  tune_free_regions(c); /* its timing file too */
  c->untimed = 0;
  return HTP_EXIT_OK;
}

static int run_one(void *ctx, unsigned i, unsigned round, double *seconds)
{
  struct loop *l = ctx;
  struct tune_run r;
  int status;
  if ((status = tune_run_once(l->x, &l->p->c[i], round, &r)) != 0)
    return status;
  *seconds = r.wall_s;
  return add_run(&l->p->c[i], &r);
}

/* The configurations still in contention for objective o: usable and not
 * significantly worse than the fastest, into keep[]; their count (0 when
 * nothing can be analysed), *separated 1 when the best stands alone. */
static unsigned contenders(const struct plan *p, enum tune_objective o, const struct tune_opts *opt,
                           unsigned *keep, int *separated)
{
  struct tune_result *r = calloc(p->n, sizeof(*r));
  struct tune_summary s;
  unsigned i, k = 0;
  *separated = 0;
  if (!r || tune_analyse(p->c, p->n, NULL, &opt->power, r, &s) != 0) {
    free(r);
    return 0;
  }
  for (i = 0; i < p->n; i++)
    if (r[i].tied[o])
      keep[k++] = i;
  *separated = s.best[o] >= 0 && s.significant[o];
  tune_free_summary(&s);
  free(r);
  return k;
}

/* --budget: after the minimum rounds, rounds of the configurations still
 * tied with the best, shuffled, until it is significantly ahead of all of
 * them or the budget ends (a run is never started past it). */
static int adaptive_rounds(const struct sweep_plan *sp, const struct sweep_runner *runner,
                           const struct tune_opts *o, struct loop *l)
{
  unsigned round, k, *keep = malloc(l->p->n * sizeof(*keep));
  int separated, status = HTP_EXIT_OK;
  if (!keep)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  for (round = o->reps; !status; round++) {
    k = contenders(l->p, o->objective, o, keep, &separated);
    if (separated || k < 2) {
      l->adaptive = separated ? "separated" : "nothing to separate";
      break;
    }
    if (round >= 1000) { /* (--reps' own ceiling) */
      l->adaptive = "round limit";
      break;
    }
    l->st.total = l->st.done + k;
    status = sweep_round(sp, runner, &l->st, keep, k, round, SWEEP_STOP);
    if (!status && l->st.budget_spent) {
      l->adaptive = "budget";
      break;
    }
  }
  free(keep);
  return status;
}

/* The rounds: the sweep engine with the seeded shuffle and the warm-up,
 * then --budget's adaptive rounds when no run was skipped. */
static int run_rounds(const struct tune_exec *x, struct plan *p, const struct tune_opts *o,
                      struct loop *l)
{
  const struct sweep_plan sp = {p->n, o->reps, 1, o->seed, o->budget_s};
  const struct sweep_runner runner = {l, run_one, progress, skip, warm_up};
  int status;
  l->x = x;
  l->p = p;
  status = sweep_run(&sp, &runner, &l->st);
  if (!status && o->budget_s > 0)
    status = l->nskipped ? (l->adaptive = "budget", HTP_EXIT_OK)
                         : adaptive_rounds(&sp, &runner, o, l);
  return status == SWEEP_NOMEM ? htp_error(HTP_EXIT_FAIL, "out of memory") : status;
}

/* The program's stdout: program-stdout.txt of --out's staging folder (each
 * run's output labelled), else a file of tune's temporary folder, emptied
 * before each run (read back for a failing run's last words). */
static int open_stdout_sink(const struct tune_out *out, const char *tmp, struct tune_exec *x)
{
  char path[4200];
  x->stdout_labelled = out != NULL;
  if (out) {
    x->stdout_fd = out->stdout_fd; /* (tune_out's: it closes it) */
    return HTP_EXIT_OK;
  }
  snprintf(path, sizeof(path), "%s/stdout", tmp);
  if ((x->stdout_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
    return htp_error(HTP_EXIT_FAIL, "cannot open %s: %s", path, strerror(errno));
  return HTP_EXIT_OK;
}

/* No configuration has a valid run? */
static int none_valid(const struct plan *p, const struct tune_result *r)
{
  unsigned i;
  for (i = 0; i < p->n; i++)
    if (r[i].ok)
      return 0;
  return 1;
}

/* No valid run: exit 1 with one failure's message (the program's), and
 * what became of --out (\p out_note, "" without --out). */
static int all_failed(const struct plan *p, const char *out_note)
{
  unsigned i, k;
  for (i = 0; i < p->n; i++) /* threads elsewhere in every run that ran */
    for (k = 0; k < p->c[i].nruns; k++)
      if (p->c[i].runs[k].invalid[0])
        return htp_error(HTP_EXIT_FAIL, "no valid run: the program's threads were not where "
                         "intended (e.g. %s %u: %s)%s", tune_policy_name(p->c[i].policy),
                         p->c[i].threads, p->c[i].runs[k].invalid, out_note);
  for (i = 0; i < p->n; i++)
    if (p->c[i].nruns) {
      char how[96];
      tune_run_outcome(&p->c[i].runs[0], how, sizeof(how));
      return htp_error(HTP_EXIT_FAIL, "the program failed in every configuration (e.g. %s %u: "
                       "%s): %s%s", tune_policy_name(p->c[i].policy), p->c[i].threads, how,
                       p->c[i].tail[0] ? p->c[i].tail : "(no output)", out_note);
    }
  return htp_error(HTP_EXIT_FAIL, "no run was started (--budget too small?)%s", out_note);
}

/* No valid run, with --out: its record (program-stdout.txt,
 * stderr-tails.txt) put in a DIR that held no results; one that did is
 * left as it was.  Then the error line. */
static int failed_out(const struct plan *p, struct tune_out *out)
{
  char note[4400];
  int status;
  if (!out)
    return all_failed(p, "");
  if (!out->empty) {
    tune_out_abort(out);
    snprintf(note, sizeof(note), " (--out '%s' is left as it was)", out->dir);
    return all_failed(p, note);
  }
  if ((status = tune_out_write_failure(out, p->c, p->n)) != 0 ||
      (status = tune_out_commit(out)) != 0) {
    tune_out_abort(out);
    return status;
  }
  snprintf(note, sizeof(note), " (its output in --out '%s')", out->dir);
  return all_failed(p, note);
}

/* The report on stdout, then --out put in place (unless a signal came
 * meanwhile: then --out is left as it was). */
static int report(struct htp_ctx *ctx, const struct plan *p, const struct tune_opts *o,
                  const struct loop *l, char **argv, int measured, int json,
                  const struct tune_load *load, struct tune_out *out)
{
  struct tune_result *r = calloc(p->n, sizeof(*r));
  struct tune_summary s;
  struct tune_report t = {0};
  int status;
  if (!r || tune_analyse(p->c, p->n, ctx->topo, &o->power, r, &s) != 0) {
    free(r);
    if (out)
      tune_out_abort(out);
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  if (none_valid(p, r)) {
    tune_free_summary(&s);
    free(r);
    return failed_out(p, out);
  }
  t = (struct tune_report){p->c, r, p->n, &s, argv, ctx->topo, o->reps, o->seed, o->objective,
                           measured, &o->power, o->power_text, l->skipped, l->nskipped,
                           l->st.rounds, l->adaptive, *load};
  if (json)
    tune_print_json(stdout, &t);
  else
    tune_print_table(stdout, &t);
  if (sweep_signal_caught())
    status = 128 + sweep_signal_caught();
  else if (fflush(stdout) != 0 || ferror(stdout))
    status = htp_error(HTP_EXIT_FAIL, "cannot write output: %s%s%s%s", strerror(errno),
                       out ? " (--out '" : "", out ? out->dir : "",
                       out ? "' is left as it was)" : "");
  else
    status = out ? tune_out_write(out, &t) : HTP_EXIT_OK;
  if (!status && sweep_signal_caught())
    status = 128 + sweep_signal_caught();
  if (out)
    status = status ? (tune_out_abort(out), status) : tune_out_commit(out);
  tune_free_summary(&s);
  free(r);
  return status;
}

/* "0.25", or "unknown" for NAN. */
static const char *cpus_text(double v, char *buf, size_t len)
{
  if (!isfinite(v))
    return "unknown";
  snprintf(buf, len, "%.2f", v);
  return buf;
}

/* The busy-machine figures: one line, a warning when other processes kept
 * half a CPU busy or more; another when the program kept its threads busy
 * less than half the time at some N >= 2. */
static void print_load(const struct tune_load *ld, const struct plan *p)
{
  char b[32], d[32];
  int busy = ld->before >= TUNE_BUSY_CPUS || ld->during >= TUNE_BUSY_CPUS;
  fprintf(stderr, "htplaces tune: %sother processes kept %s CPUs busy before the runs, %s during "
          "them (of %u allowed%s)%s\n", busy ? "warning: the machine is busy: " : "",
          cpus_text(ld->before, b, sizeof(b)), cpus_text(ld->during, d, sizeof(d)), ld->ncpus,
          isfinite(ld->during) ? ""
          : p->hybrid && !tune_launcher_owns_ranks(&p->hybrid->launcher)
            ? "; srun's tasks are not tune's children: their own CPU time is unknown"
            : "; /proc/stat unreadable",
          busy ? ": the times are noisy, rerun when it is quiet" : "");
  if (ld->low_util >= 0 && ld->util < TUNE_LOW_UTIL) {
    const struct tune_config *c = &p->c[ld->low_util];
    char label[160];
    tune_config_label(c, label, sizeof(label)); /* (as the table names it: "auto", no N) */
    fprintf(stderr, "htplaces tune: warning: under %s the program kept %.1f of its %u "
            "threads busy (median CPU time / wall time, %.0f%%): it waits (I/O, locks, a long "
            "serial part) or shares the CPUs with other processes\n",
            label, ld->util * c->threads, c->threads, 100 * ld->util);
  }
}

/* tune's temporary folder (the run's stderr and stdout, the timing files)
 * and its signals: caught from before the folder exists; the folder is
 * removed whatever happens, then the signals are as they were. */
struct scratch {
  char dir[4096], timing_file[4200];
};

/* The timing layer to preload (x->timing_lib, x->timing_file), or none
 * with a warning; auto without it: the usage error. */
static int timing_setup(const struct tune_opts *o, const struct plan *p, struct scratch *tmp,
                        char *libbuf, size_t len, struct tune_exec *x)
{
  const char *unusable = NULL; /* libomp_ext.so found, its path unfit for LD_PRELOAD */
  unsigned i;
  if (!o->no_regions) {
    x->timing_lib = o->timing_lib ? o->timing_lib : htp_find_libomp_ext(libbuf, len);
    if (x->timing_lib && strpbrk(x->timing_lib, " :\t\n")) { /* (LD_PRELOAD splits there) */
      fprintf(stderr, "htplaces tune: per-region figures are not available: libomp_ext.so's "
              "path '%s' has a space or ':', which LD_PRELOAD cannot carry (install omp_ext "
              "under a path without them)\n", x->timing_lib);
      unusable = x->timing_lib;
      x->timing_lib = NULL;
    } else if (x->timing_lib) {
      snprintf(tmp->timing_file, sizeof(tmp->timing_file), "%s/timing.%%p.json", tmp->dir);
      x->timing_file = tmp->timing_file;
    } else {
      fprintf(stderr, "htplaces tune: per-region figures are not available (no libomp_ext.so "
              "found: --timing-lib PATH)\n");
    }
  }
  for (i = 0; i < p->n && !x->timing_lib; i++)
    if (TUNE_IS_AUTO(&p->c[i])) /* auto is libomp_ext's: it must be preloaded */
      return unusable /* found, but LD_PRELOAD cannot carry it (it said "none found") */
               ? htp_error(HTP_EXIT_FAIL, "--policies auto needs libomp_ext.so preloaded into "
                           "the program, and its path '%s' has a space or ':', which LD_PRELOAD "
                           "cannot carry: install omp_ext under a path without them, or give "
                           "--timing-lib PATH", unusable)
               : htp_error(HTP_EXIT_USAGE, "--policies auto needs libomp_ext.so preloaded into "
                           "the program: none found; give --timing-lib PATH");
  return HTP_EXIT_OK;
}

/* The runs, in tune's temporary folder and --out's staging one; both
 * removed after a failure or a signal (--out then as it was). */
static int runs(struct htp_ctx *ctx, struct plan *p, const struct tune_opts *o,
                struct tune_exec *x, struct tune_out *out, struct loop *l, double *before)
{
  struct scratch tmp;
  struct tune_load_mark mark;
  char libbuf[4096], why[256];
  omp_ext_rapl_t *rapl = NULL;
  int status;
  tune_load_mark(&mark, omp_ext_topo_allowed(ctx->topo)); /* (the setup inside the sample) */
  if ((status = tune_make_temp_dir(tmp.dir, sizeof(tmp.dir))) != 0)
    return status;
  x->tmp_dir = tmp.dir;
  x->allowed = omp_ext_topo_allowed(ctx->topo);
  if ((o->out && (status = tune_out_open(o->out, out)) != 0) ||
      (status = open_stdout_sink(o->out ? out : NULL, tmp.dir, x)) != 0 ||
      (status = timing_setup(o, p, &tmp, libbuf, sizeof(libbuf), x)) != 0) {
    if (o->out)
      tune_out_abort(out);
    else if (x->stdout_fd >= 0)
      close(x->stdout_fd);
    tune_remove_temp_dir(tmp.dir);
    return status;
  }
  if (omp_ext_rapl_open(NULL, &rapl, why, sizeof(why)) == 0)
    x->rapl = rapl;
  else
    fprintf(stderr, "htplaces tune: energy is modelled (%s): %s\n", o->power_text, why);
  htp_program_env(ctx); /* the topology is loaded: the runs see the user's environment */
  *before = tune_load_since(&mark, x->allowed, TUNE_LOAD_SAMPLE_S);
  status = run_rounds(x, p, o, l);
  tune_remove_temp_dir(tmp.dir);
  if (!o->out)
    close(x->stdout_fd);
  omp_ext_rapl_close(rapl); /* (x->rapl now only says energy was measured) */
  if (!status && sweep_signal_caught())
    status = 128 + sweep_signal_caught();
  if (status > 128)
    htp_error(status, "interrupted by %s: forwarded to the run, its process group killed (at "
              "the latest %.0f s later), the temporary folder removed%s%s%s",
              sweep_signal_name(status - 128), TUNE_GRACE_S, o->out ? ", --out '" : "",
              o->out ? out->dir : "", o->out ? "' left as it was" : "");
  if (status && o->out)
    tune_out_abort(out);
  return status;
}

static int measure(struct htp_ctx *ctx, struct plan *p, const struct tune_opts *o, char **argv,
                   int json)
{
  struct tune_exec x = {argv, NULL, NULL, o->timeout_s, -1, 0, NULL, &o->power, o->stdin_path,
                        NULL, NULL};
  struct loop l = {NULL, NULL, {0}, 0, NULL, NULL};
  struct tune_out out;
  struct tune_load load;
  double before = NAN;
  unsigned i;
  int status, measured;
  l.st.start = sweep_now();
  sweep_signals_catch(); /* (until --out is in place or removed) */
  status = runs(ctx, p, o, &x, &out, &l, &before);
  tune_read_timing_done();
  measured = x.rapl != NULL;
  if (!status && tune_name_regions(p->c, p->n) != 0) { /* (after the runs: all at once) */
    if (o->out)
      tune_out_abort(&out);
    status = htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  if (!status) {
    tune_machine_load(p->c, p->n, before, (unsigned)hwloc_bitmap_weight(x.allowed), &load);
    sweep_signals_no_restart(); /* (a signal now interrupts a blocked write of the report) */
    status = report(ctx, p, o, &l, argv, measured, json, &load, o->out ? &out : NULL);
    if (status > 128)
      htp_error(status, "interrupted by %s while writing the report%s%s%s",
                sweep_signal_name(status - 128), o->out ? ": --out '" : "",
                o->out ? out.dir : "", o->out ? "' left as it was" : "");
  }
  sweep_signals_restore();
  if (!status) { /* what tune itself cost, beyond the program's runs */
    double total = sweep_now() - l.st.start, ran = l.st.run_time + l.st.warmup_time;
    print_load(&load, p);
    fprintf(stderr, "htplaces tune: %u runs took %.3f s of %.3f s; tune's own time %.3f s "
            "(%.1f%%)\n", l.st.done + 1, ran, total, total - ran,
            total > 0 ? 100 * (total - ran) / total : 0.0);
  }
  for (i = 0; i < l.nskipped; i++)
    free(l.skipped[i]);
  free(l.skipped);
  return status;
}

int htp_cmd_tune(struct htp_ctx *ctx, int argc, char **argv)
{
  struct tune_opts o = {htp_tune_default_policies(), "auto", NULL, NULL, NULL, NULL, 0, 5, 1, 0,
                        0, 0, TUNE_TIME, {0, 0, 0, 0}, NULL, NULL, NULL};
  struct plan p = {0};
  omp_ext_model_t m;
  int status, sep = 0, json = 0;
  unsigned i;
  /* The power model for modelled energy: $OMP_EXT_POWER_MODEL or the
   * paper's C6100 preset, unless --power-model says. */
  if ((status = htp_model_from_env(environ, &m)) != 0)
    return status;
  o.power = m.power;
  o.power_text = omp_ext_env_get(environ, "OMP_EXT_POWER_MODEL");
  if (!o.power_text || !*o.power_text)
    o.power_text = OMP_EXT_MODEL_PRESET;
  if ((status = tune_parse_options(ctx, argc, argv, &o, &sep)) != 0 ||
      (status = tune_check_options(ctx, &o, &json)) != 0 || (status = htp_this_machine("tune")) != 0)
    return status;
  if (!htp_topo(ctx, &status))
    return status;
  if ((status = make_plan(ctx, &o, &p)) != 0 ||
      (o.launcher &&
       (status = tune_ranks_check_args(&p.hybrid->launcher, argv + sep + 1, !o.dry_run)))) {
    tune_free_plan(p.c, p.n);
    if (p.hybrid)
      tune_ranks_free(p.hybrid);
    free(p.hybrid);
    free(p.counts);
    return status;
  }
  for (i = 0; i < p.n && o.no_regions; i++)
    if (TUNE_IS_AUTO(&p.c[i]))
      status = HTP_EXIT_USAGE;
  if (status) {
    tune_free_plan(p.c, p.n);
    free(p.counts);
    return htp_error(status, "--policies auto needs libomp_ext.so preloaded into the program, "
                     "which --no-regions turns off");
  }
  if ((status = tune_find_program(argv[sep + 1])) == 0) {
    if (o.dry_run && json)
      print_plan_json(stdout, &p, &o);
    else if (o.dry_run)
      print_plan(stdout, &p, &o);
    else {
      if (p.hybrid) /* --launcher: what is not run, before the runs */
        tune_ranks_print_skips(stderr, p.hybrid);
      status = measure(ctx, &p, &o, argv + sep + 1, json);
    }
  }
  tune_free_plan(p.c, p.n);
  if (p.hybrid)
    tune_ranks_free(p.hybrid);
  free(p.hybrid);
  free(p.counts);
  return status;
}
