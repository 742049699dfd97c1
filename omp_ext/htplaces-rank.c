/*
 * htplaces: MPI ranks.  --ranks-per-node K --local-rank R, or the launcher's
 * variables, restrict the topology to the rank's domain (omp_ext_domain_split,
 * omp_ext_rank_restrict); show --ranks-per-node K draws every rank.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htplaces.h"

/* A whole number 0 .. max - 1 (digits only); -1 otherwise. */
static long parse_below(const char *text, unsigned long max)
{
  char *end;
  unsigned long v;
  if (text[0] < '0' || text[0] > '9')
    return -1;
  v = strtoul(text, &end, 10);
  return (*end || v >= max) ? -1 : (long)v;
}

static int parse_ranks(const char *text, unsigned ncores, unsigned *k)
{
  long v = parse_below(text, 1000000);
  if (v < 1)
    return htp_error(HTP_EXIT_USAGE, "--ranks-per-node must be a whole number 1..%u (the "
                     "allowed cores), got '%s'", ncores, text);
  if ((unsigned long)v > ncores)
    return htp_error(HTP_EXIT_USAGE, "--ranks-per-node %s is larger than the %u allowed cores; "
                     "allowed: 1..%u", text, ncores, ncores);
  *k = (unsigned)v;
  return HTP_EXIT_OK;
}

static const char *env_or_empty(const char *name)
{
  const char *v = name ? getenv(name) : NULL;
  return v ? v : "";
}

/* The one-line error for a failed omp_ext_rank_from_env/_restrict. */
static int env_error(const struct htp_ctx *ctx, int err)
{
  const omp_ext_rank_t *i = &ctx->rank;
  const char *bad = i->bad_var, *l = i->launcher;
  int nodeid = bad && strcmp(bad, "SLURM_NODEID") == 0;
  if (err == omp_ext_err_parse && nodeid && !getenv(bad))
    return htp_error(HTP_EXIT_USAGE, "Slurm: %s='%s' differs between nodes and SLURM_NODEID is "
                     "not set", i->size_var, env_or_empty(i->size_var));
  if (err == omp_ext_err_parse && bad && !getenv(bad))
    return htp_error(HTP_EXIT_USAGE, "%s: %s is set but %s is not; set both, or use "
                     "--ranks-per-node K --local-rank R", l,
                     bad == i->rank_var ? i->size_var : i->rank_var, bad);
  if (err == omp_ext_err_parse && bad && strncmp(bad, "SLURM_", 6) == 0 && bad == i->size_var)
    return htp_error(HTP_EXIT_USAGE, "Slurm: %s='%s' is not a task list such as 4(x2),3", bad,
                     env_or_empty(bad));
  if (err == omp_ext_err_parse && bad)
    return htp_error(HTP_EXIT_USAGE, "%s: %s='%s' is not a whole number", l, bad,
                     env_or_empty(bad));
  if (err == omp_ext_err_range && bad && bad == i->rank_var)
    return htp_error(HTP_EXIT_USAGE, "%s: %s=%s is not below %s=%s", l, bad, env_or_empty(bad),
                     i->size_var, env_or_empty(i->size_var));
  if (err == omp_ext_err_range && nodeid)
    return htp_error(HTP_EXIT_USAGE, "Slurm: SLURM_NODEID=%s is past the nodes of %s='%s'",
                     env_or_empty(bad), i->size_var, env_or_empty(i->size_var));
  if (err == omp_ext_err_range && bad)
    return htp_error(HTP_EXIT_USAGE, "%s: %s=%s; the ranks per node must be at least 1", l, bad,
                     env_or_empty(bad));
  if (err == omp_ext_err_range)
    return htp_error(HTP_EXIT_USAGE, "%s runs %u ranks on this node (%s=%s) but only %u cores "
                     "are allowed; allowed: at most one rank per core", l, i->size, i->size_var,
                     env_or_empty(i->size_var), omp_ext_topo_ncores(ctx->topo));
  return htp_error(HTP_EXIT_FAIL, "%s", omp_ext_strerror(err));
}

static int split(struct htp_ctx *ctx, unsigned k, unsigned r)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  int err = set ? omp_ext_domain_split(ctx->topo, k, r, set) : omp_ext_err_nomem;
  if (!err)
    err = omp_ext_topo_restrict(ctx->topo, set);
  hwloc_bitmap_free(set);
  if (err)
    return htp_error(HTP_EXIT_FAIL, "cannot split the node into %u domains: %s", k,
                     omp_ext_strerror(err));
  ctx->rank.rank = r;
  ctx->rank.size = k;
  ctx->rank.mode = omp_ext_rank_split;
  return HTP_EXIT_OK;
}

/* --ranks-per-node K without --local-rank: R from the launcher. */
static int rank_from_launcher(struct htp_ctx *ctx, unsigned k)
{
  int err = omp_ext_rank_from_env(NULL, &ctx->rank);
  if (err)
    return env_error(ctx, err);
  if (!ctx->rank.launcher)
    return htp_error(HTP_EXIT_USAGE, "--ranks-per-node needs --local-rank R, or a launcher's "
                     "local rank (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, PMIX_LOCAL_RANK, "
                     "SLURM_LOCALID)");
  if (ctx->rank.rank >= k)
    return htp_error(HTP_EXIT_USAGE, "%s: %s=%u is not below --ranks-per-node %u",
                     ctx->rank.launcher, ctx->rank.rank_var, ctx->rank.rank, k);
  ctx->rank.size_var = "--ranks-per-node";
  return split(ctx, k, ctx->rank.rank);
}

int htp_apply_rank(struct htp_ctx *ctx)
{
  unsigned k = 0;
  long r;
  int status, err;
  memset(&ctx->rank, 0, sizeof(ctx->rank));
  ctx->rank.size = 1;
  if (ctx->rank_opt && !ctx->ranks_opt)
    return htp_error(HTP_EXIT_USAGE, "--local-rank needs --ranks-per-node K");
  if (!ctx->ranks_opt) {
    err = omp_ext_rank_restrict(ctx->topo, NULL, &ctx->rank);
    return err ? env_error(ctx, err) : HTP_EXIT_OK;
  }
  if ((status = parse_ranks(ctx->ranks_opt, omp_ext_topo_ncores(ctx->topo), &k)) != 0)
    return status;
  if (ctx->all_ranks)
    return HTP_EXIT_OK;
  if (!ctx->rank_opt)
    return rank_from_launcher(ctx, k);
  if ((r = parse_below(ctx->rank_opt, k)) < 0)
    return htp_error(HTP_EXIT_USAGE, "--local-rank must be a whole number 0..%u (below "
                     "--ranks-per-node %u), got '%s'", k - 1, k, ctx->rank_opt);
  ctx->rank.launcher = "options";
  ctx->rank.rank_var = "--local-rank";
  ctx->rank.size_var = "--ranks-per-node";
  return split(ctx, k, (unsigned)r);
}

/* "package 0, NUMA node 1" or "packages 0-1, NUMA nodes 0-3": where the
 * topology's allowed PUs lie (hwloc logical package, OS NUMA indexes). */
static char *where(const omp_ext_topo_t *topo)
{
  hwloc_bitmap_t pkgs = hwloc_bitmap_alloc(), numas = hwloc_bitmap_alloc();
  char *p = NULL, *n = NULL, *text = NULL;
  unsigned i;
  if (pkgs && numas) {
    for (i = 0; i < omp_ext_topo_npus(topo); i++) {
      const omp_ext_pu_t *pu = omp_ext_topo_pu(topo, i);
      hwloc_bitmap_set(pkgs, pu->package);
      if (pu->numa >= 0)
        hwloc_bitmap_set(numas, (unsigned)pu->numa);
    }
    const char *ps = hwloc_bitmap_weight(pkgs) > 1 ? "s" : "";
    const char *ns = hwloc_bitmap_weight(numas) > 1 ? "s" : "";
    if (hwloc_bitmap_list_asprintf(&p, pkgs) < 0 || hwloc_bitmap_list_asprintf(&n, numas) < 0 ||
        (hwloc_bitmap_iszero(numas) ? asprintf(&text, "package%s %s", ps, p)
                                    : asprintf(&text, "package%s %s, NUMA node%s %s", ps, p, ns,
                                               n)) < 0)
      text = NULL;
  }
  free(p);
  free(n);
  hwloc_bitmap_free(pkgs);
  hwloc_bitmap_free(numas);
  return text;
}

/* A bound rank whose binding cannot be its own: size ranks bound to this
 * many PUs need more than the machine's allowed PUs (e.g. mpirun's default
 * --bind-to socket with 2 ranks per socket).  0 if not sure. */
int htp_rank_shared(const struct htp_ctx *ctx)
{
  hwloc_topology_t hw = omp_ext_topo_hwloc(ctx->topo);
  hwloc_bitmap_t machine;
  int shared;
  if (ctx->rank.mode != omp_ext_rank_bound || !(machine = hwloc_bitmap_alloc()))
    return 0;
  hwloc_bitmap_and(machine, hwloc_topology_get_allowed_cpuset(hw),
                   hwloc_topology_get_topology_cpuset(hw));
  shared = (unsigned long)omp_ext_topo_npus(ctx->topo) * ctx->rank.size >
           (unsigned long)hwloc_bitmap_weight(machine);
  hwloc_bitmap_free(machine);
  return shared;
}

int htp_rank_warn(const struct htp_ctx *ctx)
{
  if (htp_rank_shared(ctx))
    fprintf(stderr, "htplaces: warning: the launcher bound this rank to %u PUs; %u ranks on "
            "this node cannot each have their own %u, so ranks share PUs (use mpirun --bind-to "
            "none or core, srun --cpu-bind=none or cores)\n", omp_ext_topo_npus(ctx->topo),
            ctx->rank.size, omp_ext_topo_npus(ctx->topo));
  return HTP_EXIT_OK;
}

char *htp_rank_summary(const struct htp_ctx *ctx)
{
  const omp_ext_rank_t *i = &ctx->rank;
  char *set = NULL, *line = NULL, *in;
  int n;
  if (i->mode == omp_ext_rank_none)
    return strdup("");
  if (!(in = where(ctx->topo)))
    return NULL;
  if (hwloc_bitmap_list_asprintf(&set, omp_ext_topo_allowed(ctx->topo)) < 0) {
    free(in);
    return NULL;
  }
  if (i->mode == omp_ext_rank_bound)
    n = asprintf(&line, "rank %u of %u (%s %s, %s): already bound by the launcher to PUs %s; "
                 "working inside that set, not splitting it again%s", i->rank, i->size,
                 i->launcher, i->rank_var, i->size_var, set,
                 htp_rank_shared(ctx) ? " (shared: see the warning)" : "");
  else
    n = asprintf(&line, "rank %u of %u (%s %s, %s): domain of %u cores, PUs %s (%s)", i->rank,
                 i->size, i->launcher, i->rank_var, i->size_var,
                 omp_ext_topo_ncores(ctx->topo), set, in);
  free(set);
  free(in);
  return n < 0 ? NULL : line;
}

/* Index of the PU with OS index os in the topology's PU table. */
static unsigned pu_index(const omp_ext_topo_t *topo, unsigned os)
{
  unsigned i;
  for (i = 0; i < omp_ext_topo_npus(topo); i++)
    if (omp_ext_topo_pu(topo, i)->os_index == os)
      break;
  return i;
}

/* Rank r's order on a fresh topology restricted to its domain; labels the
 * full topology's PUs and returns the rank's line of text in *line. */
static int one_rank(struct htp_ctx *ctx, int argc, char **argv, unsigned r, int *thread,
                    int *rank, char **line)
{
  struct htp_ctx sub = *ctx;
  char rtext[16], *places = NULL, *set = NULL, *in = NULL;
  omp_ht_policy_t policy;
  omp_ext_pu_t *order;
  unsigned n, t;
  int status;
  snprintf(rtext, sizeof(rtext), "%u", r);
  sub.topo = NULL;
  sub.all_ranks = 0;
  sub.rank_opt = rtext;
  if ((status = htp_policy_order(&sub, argc, argv, &policy, &order, &n)) != 0) {
    omp_ext_topo_destroy(sub.topo);
    return status;
  }
  for (t = 0; t < n; t++) {
    unsigned i = pu_index(ctx->topo, order[t].os_index);
    thread[i] = (int)t;
    rank[i] = (int)r;
  }
  status = HTP_EXIT_FAIL;
  if (omp_ext_places_format(order, n, omp_ext_format_omp, &places) == 0 &&
      hwloc_bitmap_list_asprintf(&set, omp_ext_topo_allowed(sub.topo)) >= 0 &&
      (in = where(sub.topo)) != NULL &&
      asprintf(line, "rank %u: %u threads, %u cores, PUs %s (%s): OMP_PLACES=%s", r, n,
               omp_ext_topo_ncores(sub.topo), set, in, places) >= 0)
    status = HTP_EXIT_OK;
  else
    htp_error(HTP_EXIT_FAIL, "out of memory");
  free(places);
  free(set);
  free(in);
  free(order);
  omp_ext_topo_destroy(sub.topo);
  return status;
}

static int show_ranks(struct htp_ctx *ctx, int argc, char **argv, unsigned k, char **lines,
                      int *thread, int *rank)
{
  omp_ht_policy_t policy;
  unsigned r;
  int status = HTP_EXIT_OK;
  for (r = 0; r < k && status == HTP_EXIT_OK; r++)
    status = one_rank(ctx, argc, argv, r, thread, rank, &lines[r]);
  if (status)
    return status;
  omp_ext_policy_from_name(argv[0], &policy);
  printf("%s: %u ranks per node on %u allowed PUs (%u cores) of %s\n",
         omp_ext_policy_name(policy), k, omp_ext_topo_npus(ctx->topo),
         omp_ext_topo_ncores(ctx->topo), omp_ext_topo_source(ctx->topo));
  for (r = 0; r < k; r++)
    printf("%s\n", lines[r]);
  htp_show_picture(ctx->topo, thread, rank);
  return fflush(stdout) == 0 ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot write output");
}

int htp_show_ranks(struct htp_ctx *ctx, int argc, char **argv)
{
  omp_ext_topo_t *topo;
  unsigned npus, k = 0, i;
  int status = HTP_EXIT_OK, *thread, *rank;
  char **lines;
  ctx->all_ranks = 1;
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  if ((status = parse_ranks(ctx->ranks_opt, omp_ext_topo_ncores(topo), &k)) != 0)
    return status;
  npus = omp_ext_topo_npus(topo);
  thread = malloc(npus * sizeof(*thread));
  rank = malloc(npus * sizeof(*rank));
  lines = calloc(k, sizeof(*lines));
  if (!thread || !rank || !lines) {
    status = htp_error(HTP_EXIT_FAIL, "out of memory");
  } else {
    for (i = 0; i < npus; i++)
      thread[i] = rank[i] = -1;
    status = show_ranks(ctx, argc, argv, k, lines, thread, rank);
  }
  for (i = 0; lines && i < k; i++)
    free(lines[i]);
  free(lines);
  free(thread);
  free(rank);
  return status;
}
