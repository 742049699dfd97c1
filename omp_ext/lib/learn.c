/*
 * Learning that lasts: OMP_EXT_LEARN=DIR (htplaces exec auto --learn DIR)
 * keeps what auto learnt per region across runs, in DIR/PROGRAM.plan --
 * one file per program (the executable's file name), in the plan format
 * (plan_int.h), so that `htplaces exec --plan DIR/PROGRAM.plan` applies it.
 *
 * At the first region the file is read and checked as any plan
 * (plan_parse.c: never blocking, a regular file only, every field), then
 * against this process: the machine (its "machine" line: PUs, cores,
 * packages, SMT, allowed PUs), each loaded module's build (its "build"
 * line: the ELF build-id, else size and modification time: a rebuilt
 * program learns afresh; a state none of whose modules is loaded was
 * another program's, copied under this one's name) and the auto value it was learnt under (another
 * objective's costs are not this one's).  A state that fails is refused
 * with one line and learnt afresh; the file is then replaced at exit.
 * DIR/PROGRAM.plan may be a symbolic link to a regular file (the target is
 * read and replaced, the link kept); another kind of file there (a folder,
 * a FIFO, a dangling link) is said once and nothing is kept.
 *
 * At exit (atexit, in every process that ran a region under auto: a forked
 * child too) each exploration that has spanned AUTO_LEARN_RUNS runs settles
 * on what it measured (auto.c), and the state -- with the run's time from
 * its first region ("run TEAM SECONDS", plan_global.c's yardstick, one
 * line per team size: nthreads-var at the first region) -- is written to a temporary file in DIR and renamed
 * over DIR/PROGRAM.plan: concurrent processes (MPI ranks, a program that
 * forks) never leave a torn file, the last one to exit wins.  Regions of
 * the file that did not run in this process are kept as they were.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "omp_ext.h"
#include "private/auto_int.h"
#include "private/bind.h"
#include "private/runtime.h"
#include "private/util.h"

static char learn_file[4096 + 300];
static omp_ext_region_each_fn each_region; /* region.c's table */
static struct omp_ext_plan *state; /* the file's, checked; NULL: none or refused */
static int learn_on;
static struct timespec learn_t0; /* the first region (learn_init) */
static unsigned learn_team;      /* nthreads-var then: the team the program gets */

/* "omp_ext: OMP_EXT_LEARN: ..." once per process (only from the first
 * region: an OpenMP process). */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
  va_list ap;
  fputs("omp_ext: OMP_EXT_LEARN: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* The state read: this process's to learn from? */
static int state_fits(const struct omp_ext_plan *p)
{
  char here[96], shown[4 * OMP_EXT_QUOTE_MAX + 32];
  unsigned i, loaded = 0;
  if (!p->learnt[0] || !p->has_machine) {
    say("%s is not a learnt state (no 'learnt' or 'machine' line): learning afresh",
        p->source);
    return 0;
  }
  if (strcmp(p->learnt, omp_ext_auto_value_now()) != 0) {
    say("%s was learnt under %s, this process runs %s: learning afresh", p->source, p->learnt,
        omp_ext_auto_value_now());
    return 0;
  }
  for (i = 0; i < p->nbuilds; i++) {
    if (omp_ext_plan_build_id(p->builds[i].module, here, sizeof(here)) != 0)
      continue;
    loaded++;
    if (strcmp(here, p->builds[i].id) != 0) {
      say("%s was learnt for another build of %s (%s; this one %s): learning afresh (one "
          "folder per build keeps both)",
          p->source, omp_ext_quote(p->builds[i].module, shown, sizeof(shown)),
          p->builds[i].id, here);
      return 0;
    }
  }
  if (p->nbuilds && !loaded) { /* (copied from another program's name) */
    say("%s was learnt for another program (its regions are in %s%s, not loaded here): learning "
        "afresh", p->source,
        omp_ext_quote(p->builds[0].module, shown, sizeof(shown)), p->nbuilds > 1 ? ", ..." : "");
    return 0;
  }
  return 1;
}

static void save(void);

/* learn_file usable: absent, a regular file, or a symbolic link to one --
 * then the link's target is read and replaced, the link kept (learn_file
 * becomes the target's path); anything else is said once, nothing kept. */
static int state_path_ok(void)
{
  char shown[4 * OMP_EXT_QUOTE_MAX + 32], *target;
  struct stat st;
  if (lstat(learn_file, &st) != 0)
    return 1;
  if (S_ISLNK(st.st_mode)) {
    if (!(target = realpath(learn_file, NULL)) || stat(target, &st) != 0 || !S_ISREG(st.st_mode) ||
        strlen(target) >= sizeof(learn_file)) {
      say("'%s' is a symbolic link to %s: nothing learnt is kept",
          omp_ext_quote(learn_file, shown, sizeof(shown)),
          !target ? "nothing" : omp_ext_file_kind(st.st_mode));
      free(target);
      return 0;
    }
    snprintf(learn_file, sizeof(learn_file), "%s", target);
    free(target);
  }
  if (!S_ISREG(st.st_mode)) {
    say("'%s' is not a regular file (%s): nothing learnt is kept",
        omp_ext_quote(learn_file, shown, sizeof(shown)), omp_ext_file_kind(st.st_mode));
    return 0;
  }
  return 1;
}

/* nthreads-var at the first region (the run's "run TEAM" line), else 0. */
static unsigned program_team(void)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  int n = rt && rt->get_max_threads ? rt->get_max_threads() : 0;
  return n > 0 && n <= 1 << 16 ? (unsigned)n : 0;
}

void omp_ext_learn_init(const char *dir, omp_ext_region_each_fn each)
{
  char exe[4096], why[1024], shown[4 * OMP_EXT_QUOTE_MAX + 32];
  const char *base;
  struct stat st;
  ssize_t n;
  int err;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
    say("'%s' is not a folder this process can write: nothing learnt is kept",
        omp_ext_quote(dir, shown, sizeof(shown)));
    return;
  }
  if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0)
    return;
  exe[n] = '\0';
  base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
  snprintf(learn_file, sizeof(learn_file), "%s/%s.plan", dir, base);
  if (!state_path_ok())
    return;
  if (access(learn_file, F_OK) == 0) {
    if ((err = omp_ext_plan_read(learn_file, NULL, &state, why, sizeof(why))) ==
        omp_ext_err_unsupported) { /* (another machine's, or another cpuset's: kept) */
      say("%s: learning for this run only, the state kept (one folder per machine type and "
          "set of allowed PUs keeps both)", why);
      return;
    } else if (err != 0) {
      say("%s: learning afresh", why[0] ? why : "cannot read the state");
      state = NULL;
    } else if (!state_fits(state)) {
      omp_ext_plan_free(state);
      state = NULL;
    }
  }
  each_region = each;
  learn_on = 1;
  learn_team = program_team();
  clock_gettime(CLOCK_MONOTONIC, &learn_t0);
  atexit(save);
}

unsigned omp_ext_learn_lines(const char *module, unsigned long offset,
                             const struct omp_ext_plan_line **out)
{
  unsigned i, n = 0;
  for (i = 0; state && i < state->nlines && n < OMP_EXT_LEARN_TEAMS; i++)
    if (state->lines[i].kind == OMP_EXT_PLAN_REGION && state->lines[i].state &&
        state->lines[i].offset == offset && strcmp(state->lines[i].module, module) == 0)
      out[n++] = &state->lines[i];
  return n;
}

/* ------------------------------------------------------------- write --- */

struct out {
  FILE *f;
  char (*modules)[256]; /* the modules of the regions written */
  unsigned nmodules, cap;
  int ok;
};

static void note_module(struct out *o, const char *module)
{
  unsigned i;
  for (i = 0; i < o->nmodules; i++)
    if (strcmp(o->modules[i], module) == 0)
      return;
  if (o->nmodules == o->cap) {
    char (*m)[256] = realloc(o->modules, (o->cap = o->cap ? 2 * o->cap : 8) * sizeof(*m));
    if (!m) {
      o->ok = 0;
      return;
    }
    o->modules = m;
  }
  snprintf(o->modules[o->nmodules++], 256, "%s", module);
}

static void region_line(const struct omp_ext_region *r, void *arg)
{
  struct out *o = arg;
  char *buf = NULL;
  size_t len = 0;
  FILE *m;
  if (!r->au || !r->module[0] || !(m = open_memstream(&buf, &len)))
    return;
  omp_ext_auto_learnt_end(r->au);
  if (omp_ext_auto_write_state(m, r->au) == 0 && fclose(m) == 0) {
    fputs("region ", o->f);
    omp_ext_put_field(o->f, r->module);
    fprintf(o->f, " %#lx %s", r->offset, buf);
    note_module(o, r->module);
  } else {
    fclose(m);
  }
  free(buf);
}

/* Was line \p e's region and team written from this run?  (A line of
 * another team is kept -- learning for one team size survives a run at
 * another -- unless it has the THREADS just written: one line per region
 * and THREADS.) */
struct seen_arg {
  const struct omp_ext_plan_line *e;
  int seen; /* a region of its key ran its team: its line is this run's */
  int ran;  /* a region of its key ran (one line of it written) */
};

static void seen_region(const struct omp_ext_region *r, void *arg)
{
  struct seen_arg *s = arg;
  const struct omp_ext_cands *set;
  if (!r->au || r->offset != s->e->offset || strcmp(r->module, s->e->module) != 0 ||
      !(set = r->au->set))
    return;
  s->ran = 1;
  s->seen |= (set->team == s->e->state->team && set->free == s->e->state->team_free) ||
             omp_ext_auto_state_threads(r->au) == s->e->threads;
}

/* A line of the state read, kept as it was (its region did not run). */
static void carried_line(struct out *o, const struct omp_ext_plan_line *e)
{
  const struct omp_ext_plan_state *st = e->state;
  char *places = NULL;
  unsigned c, i;
  if (e->places && omp_ext_placelist_canonical(e->places, &places) != 0)
    return;
  fputs("region ", o->f);
  omp_ext_put_field(o->f, e->module);
  fprintf(o->f, " %#lx %u %s %s team=%s:%u phase=%s n=%lu step=%u block=%u nsamp=%u", e->offset,
          e->threads, places ? places : "-", e->label, st->team_free ? "free" : "keep",
          st->team, st->phase == 2 ? "settled" : "explore", st->n, st->step, st->block,
          st->nsamp);
  free(places);
  if (st->ref > 0)
    fprintf(o->f, " ref=%.9g", st->ref);
  fprintf(o->f, " drift=%u reexplores=%u", st->drift, st->reexplores);
  if (st->runs)
    fprintf(o->f, " runs=%u", st->runs);
  for (c = 0; c < st->ncand; c++) {
    fprintf(o->f, " c=%s/", st->cand[c].label);
    for (i = 0; i < st->nsamp; i++) {
      double v = st->cand[c].s[i];
      fputs(i ? "," : "", o->f);
      if (v != v)
        fputc('-', o->f);
      else if (v > 1e308)
        fputc('x', o->f);
      else
        fprintf(o->f, "%.9g%s", v, st->cand[c].sw[i] ? "s" : "");
    }
  }
  for (c = 0; c < st->ncand; c++)
    if (st->cand[c].dropped)
      fprintf(o->f, " drop=%s", st->cand[c].label);
  fputc('\n', o->f);
  note_module(o, e->module);
}

/* "run TEAM S": this run's, then the state's of other teams (an older
 * state's "run S", of any team, is dropped: it may have been this one's). */
static void write_runs(FILE *f, double run_s)
{
  unsigned i, n = 0;
  if (run_s > 0 && learn_team)
    n++, fprintf(f, "run %u %.6f\n", learn_team, run_s);
  for (i = 0; state && i < state->nruns && n < OMP_EXT_PLAN_MAXRUNS; i++)
    if (state->runs[i].team && state->runs[i].team != learn_team)
      n++, fprintf(f, "run %u %.6f\n", state->runs[i].team, state->runs[i].s);
}

/* Lines of line \p i's region already carried (lines before it): a
 * region keeps OMP_EXT_LEARN_TEAMS lines at most, the reader's bound --
 * this run's first, then the state's in its order (the latest teams
 * first): the oldest team's line goes. */
static unsigned carried_of(const struct omp_ext_plan *p, const unsigned char *carried, unsigned i)
{
  unsigned k, n = 0;
  for (k = 0; k < i; k++)
    n += carried[k] && p->lines[k].offset == p->lines[i].offset &&
         strcmp(p->lines[k].module, p->lines[i].module) == 0;
  return n;
}

/* The header and every line into \p f. */
static int write_state(FILE *f)
{
  const omp_ext_topo_t *topo;
  struct out o = {f, NULL, 0, 0, 1};
  char machine[512], id[96];
  struct timespec now;
  double run_s;
  unsigned i;
  FILE *body;
  char *text = NULL;
  unsigned char *carried;
  size_t len = 0;
  if (omp_ext_bind_topology(&topo) != 0 ||
      omp_ext_machine_line(topo, machine, sizeof(machine)) != 0 ||
      !(body = open_memstream(&text, &len)))
    return -1;
  o.f = body;
  each_region(region_line, &o);
  carried = state ? calloc(state->nlines + 1, 1) : NULL;
  if (state && !carried)
    o.ok = 0;
  for (i = 0; carried && i < state->nlines; i++) {
    struct seen_arg s = {&state->lines[i], 0, 0};
    if (state->lines[i].kind != OMP_EXT_PLAN_REGION || !state->lines[i].state)
      continue;
    each_region(seen_region, &s);
    if (!s.seen && (unsigned)s.ran + carried_of(state, carried, i) < OMP_EXT_LEARN_TEAMS)
      carried[i] = 1, carried_line(&o, &state->lines[i]);
  }
  free(carried);
  if (fclose(body) != 0 || !o.ok) {
    free(text);
    free(o.modules);
    return -1;
  }
  clock_gettime(CLOCK_MONOTONIC, &now);
  fprintf(f, "omp_ext_plan 2\n# auto's learnt state (OMP_EXT_LEARN): per region, what it "
          "runs and its samples; htplaces exec --plan applies it\n%s\nlearnt %s\n", machine,
          omp_ext_auto_value_now());
  run_s = (double)(now.tv_sec - learn_t0.tv_sec) + (double)(now.tv_nsec - learn_t0.tv_nsec) * 1e-9;
  write_runs(f, run_s);
  if (omp_ext_auto_threads())
    fputs("team free\n", f);
  for (i = 0; i < o.nmodules; i++) {
    const char *old = NULL;
    unsigned k;
    for (k = 0; state && k < state->nbuilds; k++)
      if (strcmp(state->builds[k].module, o.modules[i]) == 0)
        old = state->builds[k].id;
    if (omp_ext_plan_build_id(o.modules[i], id, sizeof(id)) != 0 && !old)
      continue;
    fputs("build ", f);
    omp_ext_put_field(f, o.modules[i]);
    fprintf(f, " %s\n", omp_ext_plan_build_id(o.modules[i], id, sizeof(id)) == 0 ? id : old);
  }
  fputs(text, f);
  free(text);
  free(o.modules);
  return ferror(f) ? -1 : 0;
}

/* At exit: DIR/.omp_ext-learn.PID.XXXXXX, then renamed over the state
 * (over a symbolic link's target, in the target's folder). */
static void save(void)
{
  char tmp[sizeof(learn_file) + 64], shown[4 * OMP_EXT_QUOTE_MAX + 32];
  int fd, ok;
  FILE *f;
  if (!learn_on)
    return;
  /* (in the state's folder, a short name: a PROGRAM.plan of 255 bytes fits) */
  snprintf(tmp, sizeof(tmp), "%.*s/.omp_ext-learn.%ld.XXXXXX",
           (int)(strrchr(learn_file, '/') - learn_file), learn_file, (long)getpid());
  if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
    if (fd >= 0)
      close(fd);
    say("cannot write in the folder of '%s': %s: nothing learnt is kept",
        omp_ext_quote(learn_file, shown, sizeof(shown)), strerror(errno));
    return;
  }
  if (fchmod(fd, 0644) != 0) { /* (mkstemp made it 0600: readable by its owner still) */
  }
  ok = write_state(f) == 0;
  ok = fclose(f) == 0 && ok;
  if (!ok || rename(tmp, learn_file) != 0) {
    say("cannot write '%s': nothing learnt is kept",
        omp_ext_quote(learn_file, shown, sizeof(shown)));
    unlink(tmp);
  }
}
