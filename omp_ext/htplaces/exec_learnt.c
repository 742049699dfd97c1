/*
 * htplaces exec auto --learn DIR: once what auto learnt for a program
 * amounts to one configuration (every region settled, one of their
 * choices within 2 % of per-region control for all of them:
 * omp_ext_plan_global), the program runs as `htplaces exec POLICY N`
 * runs it -- that configuration's places, close, N, nothing preloaded --
 * since per-region control would only add its start-up and bookkeeping.
 * Every OMP_EXT_LEARN_CHECK_EVERY-th run is preloaded again, so that auto
 * sees drift and rewrites the state; so is a run of a program newer than
 * its state (the library then checks its build identity), and every run of
 * a program that links libomp (exec_needed.c: libomp 14 crashes in a fork()
 * child under an OMP_PLACES list; the preloaded run binds in code).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "htplaces.h"
#include "sweep.h"
#include "private/plan_int.h"

/* One run in this many is preloaded to learn on (drift, new regions). */
#define OMP_EXT_LEARN_CHECK_EVERY 8

/* The program's file as execvp finds it, resolved (the library names the
 * state after /proc/self/exe's file name); 0 or -1. */
static int program_file(const char *prog, char *out)
{
  char buf[PATH_MAX];
  return sweep_which(prog, buf, sizeof(buf)) == 0 && realpath(buf, out) ? 0 : -1;
}

/* This run's turn in DIR/.NAME.global (counted, written back by a
 * temporary file renamed over it: never through a link; only a regular
 * file is read, never blocking on a FIFO): 1 when it is to be preloaded
 * (every OMP_EXT_LEARN_CHECK_EVERY-th, or the count unwritable), else 0. */
static int check_turn(const char *dir, const char *name)
{
  char *count = NULL, *tmp = NULL, text[32];
  unsigned n = 0;
  struct stat st;
  ssize_t got;
  int fd, ok;
  if (asprintf(&count, "%s/.%s.global", dir, name) < 0)
    return 1;
  if ((fd = open(count, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (got = read(fd, text, sizeof(text) - 1)) > 0) {
      text[got] = '\0';
      if (sscanf(text, "%u", &n) != 1)
        n = 0;
    }
    close(fd);
  }
  n = (n + 1) % OMP_EXT_LEARN_CHECK_EVERY;
  ok = asprintf(&tmp, "%s.XXXXXX", count) >= 0 && (fd = mkstemp(tmp)) >= 0;
  if (ok) {
    got = snprintf(text, sizeof(text), "%u\n", n);
    ok = write(fd, text, (size_t)got) == got;
    ok = close(fd) == 0 && ok && rename(tmp, count) == 0;
    if (!ok)
      unlink(tmp);
  }
  free(tmp), free(count);
  return !ok || n == 0; /* (not counted: learn) */
}

/* Was state \p p learnt for this build of the program \p exe, and only
 * for it (a shared library's regions: the library checks those)? */
static int same_build(const struct omp_ext_plan *p, const char *exe)
{
  char id[128];
  unsigned i;
  if (p->nbuilds == 0 || omp_ext_plan_file_build_id(exe, id, sizeof(id)) != 0)
    return 0;
  for (i = 0; i < p->nbuilds; i++)
    if (strcmp(p->builds[i].module, strrchr(exe, '/') + 1) != 0 || strcmp(p->builds[i].id, id) != 0)
      return 0;
  return 1;
}

int htp_shortcut_safe(const char *prog)
{
  char exe[PATH_MAX];
  return program_file(prog, exe) != 0 || !htp_links_libomp(exe);
}

int htp_learnt_for(const struct omp_ext_plan *p, const char *prog)
{
  char exe[PATH_MAX];
  return program_file(prog, exe) == 0 && same_build(p, exe);
}

/* The state DIR/NAME.plan, when one configuration for team size \p team
 * (its lines of other teams aside), learnt under this run's auto \p value
 * (another objective's costs are not this one's: preloaded, the library
 * refuses it): *places (malloc'd; NULL unbound); 1, else 0. */
static int learnt_global(struct htp_ctx *ctx, const char *state, const char *exe,
                         const char *value, long long team, char **places)
{
  struct omp_ext_plan *p = NULL;
  struct stat ss, es;
  char why[512];
  struct omp_ext_plan_conf conf;
  double cost;
  int status, one = 0;
  omp_ext_topo_t *topo = htp_topo(ctx, &status);
  *places = NULL;
  if (!topo || stat(state, &ss) != 0 || stat(exe, &es) != 0 || es.st_mtime > ss.st_mtime ||
      omp_ext_plan_read(state, topo, &p, why, sizeof(why)) != 0)
    return 0; /* (a state the library refuses: it says why, preloaded) */
  if (team > 0 && team <= UINT_MAX && same_build(p, exe) && strcmp(p->learnt, value) == 0 &&
      omp_ext_plan_global(p, (unsigned)team, &conf, &cost))
    one = conf.threads == team &&
          (!conf.places || omp_ext_placelist_canonical(conf.places, places) == 0);
  omp_ext_plan_free(p);
  return one;
}

int htp_exec_learnt(struct htp_ctx *ctx, const char *dir, const char *value, char **argv)
{
  const char *name;
  char exe[PATH_MAX], *state = NULL, *places = NULL;
  long long team;
  int status = HTP_EXIT_OK, one;
  if (getenv("OMP_EXT_TIMING") || getenv("OMP_EXT_PLACES") || getenv("OMP_PLACES") ||
      program_file(argv[0], exe) != 0 || htp_links_libomp(exe))
    return HTP_EXIT_OK; /* (the user's places: checked and used by the preloaded run) */
  name = strrchr(exe, '/') + 1;
  if (asprintf(&state, "%s/%s.plan", dir, name) < 0)
    return HTP_EXIT_OK;
  /* auto keeps the team (nthreads-var): so must this run -- OMP_NUM_THREADS
   * left as it is, one configuration only for the team the program gets */
  if (!htp_topo(ctx, &status)) {
    free(state);
    return status;
  }
  team = htp_program_team(ctx, 0);
  one = learnt_global(ctx, state, exe, value, team, &places);
  free(state);
  if (one && !check_turn(dir, name))
    status = htp_exec_global(ctx, 0, places, argv);
  free(places);
  return status;
}
