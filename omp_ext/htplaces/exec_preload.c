/*
 * htplaces exec --plan and exec auto: run the program with libomp_ext
 * preloaded (found beside htplaces) and one of its variables set -- the
 * per-region control needs no change to the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htplaces.h"
#include "private/util.h"

/* The user's OMP_PLACES, which exec moves to OMP_EXT_PLACES where no
 * runtime reads it (so none reports it): checked here as the runtimes
 * would.  Text that is no place list: one line, exit 2.  PUs outside the
 * allowed ones: a warning (libomp's "Ignoring invalid OS proc ID", which
 * libgomp does silently), and omp_ext leaves them out (auto_cands.c). */
static int check_user_places(struct htp_ctx *ctx, const char *text)
{
  char q[4 * OMP_EXT_QUOTE_MAX + 32], *out = NULL, *allowed = NULL;
  omp_ext_placelist_t *l = NULL;
  omp_ext_parse_error_t perr = {0, NULL};
  hwloc_bitmap_t all = hwloc_bitmap_alloc();
  unsigned i;
  int status, err;
  omp_ext_topo_t *topo = htp_topo(ctx, &status);
  if (!topo || !all) {
    hwloc_bitmap_free(all);
    return topo ? htp_error(HTP_EXIT_FAIL, "out of memory") : status;
  }
  if ((err = omp_ext_places_parse(topo, text, omp_ext_syntax_omp, &l, &perr)) != 0) {
    hwloc_bitmap_free(all);
    return err == omp_ext_err_parse
           ? htp_error(HTP_EXIT_USAGE, "OMP_PLACES %s: %s at character %zu; allowed: an "
                       "OpenMP place list ({0,1},{2,3}; {0}:4:2; threads, cores(4), sockets ...)",
                       omp_ext_quote(text, q, sizeof(q)), perr.what, perr.pos + 1)
           : htp_error(HTP_EXIT_FAIL, "OMP_PLACES: %s", omp_ext_strerror(err));
  }
  for (i = 0; i < l->nplaces; i++)
    hwloc_bitmap_or(all, all, l->places[i]);
  omp_ext_placelist_destroy(l);
  if (!hwloc_bitmap_isincluded(all, omp_ext_topo_allowed(topo))) {
    int none = !hwloc_bitmap_intersects(all, omp_ext_topo_allowed(topo));
    hwloc_bitmap_andnot(all, all, omp_ext_topo_allowed(topo));
    out = htp_cpuset_text(all), allowed = htp_cpuset_text(omp_ext_topo_allowed(topo));
    fprintf(stderr, "htplaces: warning: OMP_PLACES names PUs %s, outside the allowed PUs %s: %s\n",
            out ? out : "?", allowed ? allowed : "?",
            none ? "no place is left, the policy's placement is used" : "left out of its places");
    free(out), free(allowed);
  }
  hwloc_bitmap_free(all);
  return HTP_EXIT_OK;
}

long long htp_program_team(struct htp_ctx *ctx, long long threads)
{
  const char *user = getenv("OMP_NUM_THREADS");
  return user && *user ? atoll(user) : threads > 0 ? threads : (long long)omp_ext_topo_npus(ctx->topo);
}

int htp_exec_global(struct htp_ctx *ctx, long long threads, const char *places, char **argv)
{
  char count[32];
  int ok;
  snprintf(count, sizeof(count), "%lld", threads);
  ok = (threads <= 0 || setenv("OMP_NUM_THREADS", count, 1) == 0) &&
       (!places ? unsetenv("OMP_PLACES") == 0 && unsetenv("OMP_PROC_BIND") == 0
                : setenv("OMP_PLACES", places, 1) == 0 && setenv("OMP_PROC_BIND", "close", 1) == 0);
  if (!ok)
    return htp_error(HTP_EXIT_FAIL, "cannot set the environment");
  htp_program_env(ctx);
  fflush(stdout);
  execvp(argv[0], argv);
  return htp_error(errno == ENOENT ? 127 : 126, "cannot run '%s': %s", argv[0], strerror(errno));
}

/* Hand the topology htplaces loaded (this machine, unrestricted: -r and
 * the rank's domain are the process's binding by now) to the preloaded
 * library, which would discover it again in the program's start: as hwloc
 * XML in OMP_EXT_TOPO_XML with the stamp of this process, taken just before
 * the exec (private/tools_handoff.h).  None when it cannot be made or is
 * over 64 KiB: the library then discovers, as without it. */
static int hand_topology(const struct htp_ctx *ctx)
{
  char *xml = NULL, stamp[OMP_EXT_HANDOFF_STAMP_LEN];
  hwloc_topology_t hw;
  int ok;
  if (!ctx->topo || !omp_ext_topo_is_thissystem(ctx->topo))
    return HTP_EXIT_OK;
  hw = omp_ext_topo_hwloc(ctx->topo);
  if (omp_ext_handoff_export(hw, &xml, stamp) != omp_ext_success)
    return HTP_EXIT_OK;
  ok = setenv(OMP_EXT_HANDOFF_XML_VAR, xml, 1) == 0 &&
       setenv(OMP_EXT_HANDOFF_STAMP_VAR, stamp, 1) == 0;
  hwloc_free_xmlbuffer(hw, xml);
  if (!ok) {
    htp_handoff_clear();
    return htp_error(HTP_EXIT_FAIL, "cannot set the environment");
  }
  return HTP_EXIT_OK;
}

int htp_exec_preloaded(struct htp_ctx *ctx, const char *var, const char *value, char **argv)
{
  char lib[4096], *preload;
  const char *old = getenv("LD_PRELOAD"), *places = getenv("OMP_PLACES");
  int status;
  if (places && *places && !getenv("OMP_EXT_PLACES") &&
      (status = check_user_places(ctx, places)) != 0)
    return status;
  if (!htp_find_libomp_ext(lib, sizeof(lib)))
    return htp_error(HTP_EXIT_FAIL, "libomp_ext.so not found beside htplaces");
  if ((status = htp_preload_path_error(lib, HTP_EXIT_FAIL)) != 0)
    return status;
  if (old && *old ? asprintf(&preload, "%s:%s", lib, old) < 0 : !(preload = strdup(lib)))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  /* Per-region control places every region: the runtime's own binding
   * would re-pin the threads at each fork (as exec POLICY, these are
   * replaced).  The user's places stay the base placement of a region not
   * yet learnt (OMP_EXT_PLACES, which only libomp_ext reads). */
  if (getenv("OMP_PLACES") && *getenv("OMP_PLACES") && !getenv("OMP_EXT_PLACES") &&
      setenv("OMP_EXT_PLACES", getenv("OMP_PLACES"), 1) != 0) {
    free(preload);
    return htp_error(HTP_EXIT_FAIL, "cannot set the environment");
  }
  unsetenv("OMP_PLACES");
  unsetenv("OMP_PROC_BIND");
  if (setenv(var, value, 1) != 0 || setenv("LD_PRELOAD", preload, 1) != 0) {
    free(preload);
    return htp_error(HTP_EXIT_FAIL, "cannot set the environment");
  }
  free(preload);
  if ((status = hand_topology(ctx)) != 0)
    return status;
  fflush(stdout);
  execvp(argv[0], argv);
  return htp_error(errno == ENOENT ? 127 : 126, "cannot run '%s': %s", argv[0], strerror(errno));
}
