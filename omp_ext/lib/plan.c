/*
 * The plan of per-region configurations applied (OMP_EXT_PLAN=VALUE, what
 * `htplaces exec --plan` passes; the format and its checks: plan_parse.c).
 *
 * Read once, at the first region of the process (region.c): a process
 * that runs no region (ls, timeout, a shell under LD_PRELOAD) never opens
 * it, and a wrong plan is said once, by a process that would use it.  The
 * whole plan is refused (one line, per-region control off) when a field is
 * wrong or a module it names is loaded in another build.
 *
 * Which line a region gets, for its team (region_int.h, the contract):
 *  - a kept team of n threads (the default): the first line of the region
 *    with THREADS n (exec writes a region's lines best first: the best
 *    configuration tune measured for each team size), else the default
 *    line if its THREADS is n, else the base placement of n threads (the
 *    model's order, bound: auto_cands.c) -- never a configuration measured
 *    for another team size, whose places would not fit;
 *  - a team that may change (dyn-var true, or "team free"): the first
 *    line of the region with 1 .. n threads, else the default if it fits,
 *    else the base.
 * A process that ran regions of which the plan names none (a plan made for
 * another program, or another build of it) says so at exit, once.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "omp_ext.h"
#include "private/region_int.h"
#include "private/util.h"

static struct omp_ext_plan *plan;
static const struct omp_ext_rcfg **line_cfg; /* made at first use (plan_lock) */
static unsigned char *line_failed;
static int plan_loaded;
static unsigned nregion_lines;
static pid_t plan_pid; /* the process that read it (not a forked child) */
static unsigned long seen, named; /* regions looked up, and named by a line (atomic) */
static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;

int omp_ext_plan_on(void)
{
  return __atomic_load_n(&plan_loaded, __ATOMIC_ACQUIRE);
}

int omp_ext_plan_team_free(void)
{
  return plan && plan->team_free;
}

/* Every build line whose module is loaded: this build? */
static int builds_match(char *why, size_t len)
{
  unsigned i;
  char here[96];
  for (i = 0; i < plan->nbuilds; i++) {
    const struct omp_ext_plan_build *b = &plan->builds[i];
    if (omp_ext_plan_build_id(b->module, here, sizeof(here)) == 0 && strcmp(here, b->id) != 0) {
      char shown[4 * OMP_EXT_QUOTE_MAX + 32];
      snprintf(why, len, "%s: made for another build of %s (%s; this one %s): make it again",
               plan->source, omp_ext_quote(b->module, shown, sizeof(shown)), b->id, here);
      return 0;
    }
  }
  return 1;
}

/* The wait policy the plan was measured with, against the process's. */
static void check_wait(void)
{
  const char *w = getenv("OMP_WAIT_POLICY"), *want = plan->wait == 1 ? "passive" : "active";
  if (plan->wait && (!w || strcasecmp(w, want) != 0))
    fprintf(stderr, "omp_ext: OMP_EXT_PLAN: measured with OMP_WAIT_POLICY=%s, which this "
            "process does not have: set it so (htplaces exec --plan does)\n", want);
}

int omp_ext_plan_load(const char *value)
{
  char why[1024];
  unsigned i;
  int err = omp_ext_plan_read(value, NULL, &plan, why, sizeof(why));
  if (!err && !builds_match(why, sizeof(why)))
    err = omp_ext_err_parse;
  if (!err && (!(line_cfg = calloc(plan->nlines, sizeof(*line_cfg) + 1)) ||
               !(line_failed = calloc(plan->nlines + 1, 1)))) {
    err = omp_ext_err_nomem;
    snprintf(why, sizeof(why), "out of memory");
  }
  if (err) {
    if (!why[0])
      snprintf(why, sizeof(why), "%s", omp_ext_strerror(err));
    fprintf(stderr, "omp_ext: OMP_EXT_PLAN: %s: per-region control is off\n", why);
    omp_ext_plan_free(plan);
    plan = NULL;
    free(line_cfg);
    return -1;
  }
  for (i = 0; i < plan->nlines; i++) { /* (regions, not lines: one a team size) */
    const struct omp_ext_plan_line *e = &plan->lines[i];
    unsigned k;
    for (k = 0; k < i && (plan->lines[k].kind != OMP_EXT_PLAN_REGION ||
                          plan->lines[k].offset != e->offset ||
                          strcmp(plan->lines[k].module, e->module) != 0); k++)
      ;
    nregion_lines += e->kind == OMP_EXT_PLAN_REGION && k == i;
  }
  check_wait();
  plan_pid = getpid();
  __atomic_store_n(&plan_loaded, 1, __ATOMIC_RELEASE);
  return 0;
}

/* At exit: regions ran, the plan names regions, and none of them ran. */
__attribute__((destructor)) static void plan_unmatched(void)
{
  unsigned long s = __atomic_load_n(&seen, __ATOMIC_RELAXED);
  if (!plan_loaded || !nregion_lines || !s || __atomic_load_n(&named, __ATOMIC_RELAXED) ||
      getpid() != plan_pid)
    return;
  fprintf(stderr, "omp_ext: OMP_EXT_PLAN: none of the plan's %u regions ran in this program "
          "(its %lu regions got the plan's default): a plan made for another program or "
          "build? run htplaces tune on this one\n", nregion_lines, s);
}

/* The configuration of line \p i, made now if needed; NULL when it cannot
 * be made (no memory). */
static const struct omp_ext_rcfg *config_of(unsigned i)
{
  const struct omp_ext_plan_line *e = &plan->lines[i];
  const struct omp_ext_rcfg *c;
  char label[48];
  pthread_mutex_lock(&plan_lock);
  if (!line_cfg[i] && !line_failed[i]) {
    if (e->label[0])
      snprintf(label, sizeof(label), "%s", e->label);
    else
      snprintf(label, sizeof(label), "line %u", e->lineno);
    line_cfg[i] = omp_ext_rcfg_new(e->threads, e->places ? (hwloc_const_bitmap_t *)e->places->places
                                                         : NULL,
                                   e->places ? e->places->nplaces : 0, label);
    line_failed[i] = !line_cfg[i];
  }
  c = line_cfg[i];
  pthread_mutex_unlock(&plan_lock);
  return c;
}

/* Does line \p e fit team \p t? */
static int fits(const struct omp_ext_plan_line *e, const struct omp_ext_team *t)
{
  if (e->threads == 0 || e->threads == t->n)
    return 1;
  return t->free && e->threads <= t->n;
}

const struct omp_ext_rcfg *omp_ext_plan_config(const char *module, unsigned long offset,
                                               const struct omp_ext_team *team)
{
  const struct omp_ext_cands *base;
  unsigned i;
  int def = -1, any = 0;
  const struct omp_ext_rcfg *c = NULL;
  __atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED);
  for (i = 0; i < plan->nlines && !c; i++) {
    const struct omp_ext_plan_line *e = &plan->lines[i];
    if (e->kind == OMP_EXT_PLAN_DEFAULT) {
      def = fits(e, team) ? (int)i : def;
    } else if (e->offset == offset && strcmp(e->module, module) == 0) {
      any = 1;
      if (fits(e, team))
        c = config_of(i);
    }
  }
  if (any)
    __atomic_add_fetch(&named, 1, __ATOMIC_RELAXED);
  if (!c && def >= 0)
    c = config_of((unsigned)def);
  if (!c && (base = omp_ext_cands_get(team->n, 0, 0)) != NULL)
    c = base->c[0];
  return c;
}
