/*
 * htplaces: the context every subcommand works in -- the topology (-i, this
 * machine), restricted by --restrict and to the MPI rank's domain, the
 * energy model of the environment, and POLICY [N] turned into an order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "htplaces.h"
#include "private/util.h"

/* -r LIST into \p set: OMP_EXT_UINT_OK (and a non-empty set), or why not
 * (*above: where a number is too large); nothing printed. */
static int restrict_parse(const char *list, hwloc_bitmap_t set, const char **above)
{
  int err = omp_ext_parse_cpulist(list, OMP_EXT_CPULIST_MAX, set, above);
  return err == OMP_EXT_UINT_OK && hwloc_bitmap_iszero(set) ? OMP_EXT_UINT_MALFORMED : err;
}

/* The error line of a bad -r LIST (restrict_parse's err, above). */
static int restrict_parse_error(const char *list, int err, const char *above)
{
  if (err == OMP_EXT_UINT_ABOVE)
    return htp_error(HTP_EXIT_USAGE, "invalid --restrict list '%s': PU %.*s is above %llu; "
                     "allowed: OS indexes 0..%llu and ranges such as 0-3,8", list,
                     (int)strspn(above, "0123456789"), above, OMP_EXT_CPULIST_MAX,
                     OMP_EXT_CPULIST_MAX);
  return htp_error(HTP_EXIT_USAGE, "invalid --restrict list '%s'; allowed: OS indexes and "
                   "ranges such as 0-3,8", list);
}

/* The error line of a -r LIST the topology refused (\p topo as loaded). */
static int restrict_error(const omp_ext_topo_t *topo, const char *list, int err)
{
  char *allowed = NULL;
  if (err == omp_ext_err_empty) {
    hwloc_bitmap_list_asprintf(&allowed, omp_ext_topo_allowed(topo));
    err = htp_error(HTP_EXIT_USAGE, "--restrict %s leaves no allowed PU; allowed PUs: %s", list,
                    allowed ? allowed : "?");
    free(allowed);
    return err;
  }
  return htp_error(HTP_EXIT_FAIL, "--restrict: %s", omp_ext_strerror(err));
}

/* Why -i X could not be loaded, as precisely as the file system tells. */
static int topology_error(const char *input)
{
  struct stat st;
  if (stat(input, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': it is a directory; give an "
                       "hwloc XML file (lstopo --of xml) or a synthetic string", input);
    if (S_ISREG(st.st_mode) && access(input, R_OK) != 0)
      return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': %s", input, strerror(errno));
    if (S_ISREG(st.st_mode))
      return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': not a valid hwloc XML file "
                       "(make one with lstopo --of xml)", input);
    return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': not a regular file; give an "
                     "hwloc XML file or a synthetic string", input);
  }
  if (strchr(input, '/') || strstr(input, ".xml"))
    return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': %s", input, strerror(errno));
  /* neither a path nor a valid description: a bad argument, as an
   * oversized one (exit 2), not a failure to read something */
  return htp_error(HTP_EXIT_USAGE, "cannot load topology '%s': not an existing file nor a valid "
                   "hwloc synthetic string such as \"pack:2 core:4 pu:2\"", input);
}

int htp_this_machine(const char *command)
{
  const char *var = omp_ext_hwloc_env_var();
  if (var)
    return htp_error(HTP_EXIT_USAGE, "%s acts on this machine, but %s is set (hwloc would "
                     "describe another machine); unset it, or use 'htplaces -i X POLICY' to "
                     "print another machine's places", command, var);
  return HTP_EXIT_OK;
}

/* Why the load of -i X (or this machine) failed: the error line. */
static int load_error(const struct htp_ctx *ctx, int err)
{
  if (err == omp_ext_err_topology)
    return topology_error(ctx->input);
  if (err == omp_ext_err_too_large) /* refused before hwloc builds it */
    return htp_error(HTP_EXIT_USAGE, "cannot load topology %s%s%s: more than %d PUs "
                     "(omp_ext's limit, OMP_EXT_TOPO_MAX_PUS)", ctx->input ? "'" : "",
                     ctx->input ? ctx->input : "from HWLOC_SYNTHETIC or HWLOC_XMLFILE",
                     ctx->input ? "'" : "", OMP_EXT_TOPO_MAX_PUS);
  return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': %s",
                   ctx->input ? ctx->input : "this machine", omp_ext_strerror(err));
}

static int rank_request(const struct htp_ctx *ctx, omp_ext_rank_t *rank, omp_ext_split_t *split);
static int rank_error(struct htp_ctx *ctx, int err);
static int rank_check(const struct htp_ctx *ctx);

/* The one call for the topology (omp_ext_scope_load: -i, -r, the rank's
 * domain), and the error line of its failing step.  A -r list that does
 * not parse is reported after the load (as its note, and its errors,
 * come first); --ranks-per-node K too, as its error names the cores. */
omp_ext_topo_t *htp_topo(struct htp_ctx *ctx, int *status)
{
  struct omp_ext_scope s = {.input = ctx->input};
  omp_ext_scope_step_t step;
  hwloc_bitmap_t within = NULL;
  const char *above = NULL;
  int bad_list = OMP_EXT_UINT_OK, err;
  if (ctx->topo)
    return ctx->topo;
  if (ctx->restrict_list && !(within = hwloc_bitmap_alloc())) {
    *status = htp_error(HTP_EXIT_FAIL, "out of memory");
    return NULL;
  }
  if (within)
    bad_list = restrict_parse(ctx->restrict_list, within, &above);
  if (bad_list == OMP_EXT_UINT_OK) {
    s.within = within;
    if ((*status = rank_request(ctx, &s.rank, &s.split)) != 0) {
      hwloc_bitmap_free(within);
      return NULL;
    }
  }
  err = omp_ext_scope_load(&s, &ctx->topo, &step);
  hwloc_bitmap_free(within);
  ctx->rank = s.rank;
  /* hwloc's environment replaced this machine: the printing commands say
   * whose places they print (the acting ones refused before, see
   * htp_this_machine()). */
  if (ctx->topo && !ctx->input && !omp_ext_topo_is_thissystem(ctx->topo))
    fprintf(stderr, "htplaces: note: describing %s\n", omp_ext_topo_source(ctx->topo));
  if (err)
    *status = step == omp_ext_scope_load_step     ? load_error(ctx, err)
              : step == omp_ext_scope_rank_step   ? rank_error(ctx, err)
                                                  : restrict_error(ctx->topo, ctx->restrict_list,
                                                                   err);
  else if (bad_list != OMP_EXT_UINT_OK)
    *status = restrict_parse_error(ctx->restrict_list, bad_list, above);
  else
    *status = rank_check(ctx);
  if (*status) {
    omp_ext_topo_destroy(ctx->topo);
    ctx->topo = NULL;
  }
  return ctx->topo;
}

int htp_policy_name(const char *word, struct htp_policy *p)
{
  memset(p, 0, sizeof(*p));
  if (omp_ext_policy_from_name(word, &p->policy) != omp_ext_success)
    return omp_ext_err_policy;
  p->word = word;
  return omp_ext_success;
}

int htp_policy_parse(int argc, char **argv, struct htp_policy *p)
{
  int status;
  if (argc < 1)
    return htp_error(HTP_EXIT_USAGE, "missing POLICY; allowed: %s", htp_policy_names(0));
  if (argc > 2)
    return htp_error(HTP_EXIT_USAGE, "unexpected argument '%s'; usage: POLICY [N]", argv[2]);
  if (!p->word) {
    if ((status = htp_parse_policy(argv[0], &p->policy)) != 0)
      return status;
    p->word = argv[0];
  } else if (omp_ext_policy_has_order(p->policy) != 1) {
    return htp_parse_policy(p->word, &p->policy); /* (its run-time-only line) */
  }
  p->count = argc == 2 ? argv[1] : NULL;
  return HTP_EXIT_OK;
}

/* POLICY [N] resolved once and turned into the order: shared by the
 * places, show, exec, verify and doctor commands. */
int htp_policy_order(struct htp_ctx *ctx, struct htp_policy *p, omp_ext_pu_t **order)
{
  omp_ext_topo_t *topo;
  omp_ext_model_t m, *model = NULL;
  int status = HTP_EXIT_OK, err;
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  /* N defaults to the policy's team size (for energy, the modelled best);
   * only a meta-policy reads the model, and a bad one is a usage error. */
  if (omp_ext_policy_is_base(p->policy) != 1) {
    if ((status = htp_model_from_env(environ, &m)) != 0)
      return status;
    model = &m;
  }
  if ((err = omp_ext_policy_resolve(topo, model, p->policy, &p->base, &p->n)) != 0)
    return htp_error(HTP_EXIT_FAIL, "%s policy: %s", p->word, omp_ext_strerror(err));
  if (p->count && (status = htp_parse_count(p->count, omp_ext_topo_npus(topo), &p->n)) != 0)
    return status;
  if (!(*order = malloc(p->n * sizeof(**order))))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  /* the resolved base policy's order: the model's choice is not made again */
  if ((err = omp_ext_order(topo, NULL, p->base, p->n, *order)) != 0) {
    free(*order);
    return htp_error(HTP_EXIT_FAIL, "%s", omp_ext_strerror(err));
  }
  return HTP_EXIT_OK;
}

int htp_model_from_env(char *const *envp, omp_ext_model_t *m)
{
  const char *bad, *text;
  if (omp_ext_model_from_env(envp, m, &bad) == omp_ext_success)
    return HTP_EXIT_OK;
  if (!bad)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  text = omp_ext_env_get(envp, bad);
  if (strcmp(bad, "OMP_EXT_POWER_MODEL") == 0)
    return htp_power_model_error(bad, text ? text : "");
  if (strcmp(bad, "OMP_EXT_SIGMA") == 0)
    return htp_error(HTP_EXIT_USAGE, "invalid OMP_EXT_SIGMA '%s'; allowed: a number in (0, 1]",
                     text ? text : "");
  return htp_error(HTP_EXIT_USAGE, "invalid %s '%s'; allowed: a number in [0, 1)", bad,
                   text ? text : "");
}

/* A whole number 0 .. max - 1 (digits only); -1 otherwise. */
static long parse_below(const char *text, unsigned long max)
{
  unsigned long long v;
  if (max == 0 || omp_ext_parse_uint(text, 0, max - 1, &v) != OMP_EXT_UINT_OK)
    return -1;
  return (long)v;
}

int htp_parse_ranks(const char *text, unsigned ncores, unsigned *k)
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
static int env_error(const omp_ext_rank_t *i, const omp_ext_topo_t *topo, int err)
{
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
                     env_or_empty(i->size_var), omp_ext_topo_ncores(topo));
  return htp_error(HTP_EXIT_FAIL, "%s", omp_ext_strerror(err));
}

/* The rank to apply, before the topology is loaded: --ranks-per-node K
 * with --local-rank R or the launcher's rank, else the launcher's variables
 * (the environment read here, at the command's edge), into *rank and its
 * domain rule *split; launcher NULL for none.  K is checked against the
 * cores by the split (rank_error) or, when nothing is split (show's every
 * rank, a K that is no number), by htp_rank_check.  Prints errors. */
static int rank_request(const struct htp_ctx *ctx, omp_ext_rank_t *rank, omp_ext_split_t *split)
{
  long k, r;
  int err;
  memset(rank, 0, sizeof(*rank));
  rank->size = 1;
  *split = omp_ext_split_unless_bound;
  if (ctx->rank_opt && !ctx->ranks_opt)
    return htp_error(HTP_EXIT_USAGE, "--local-rank needs --ranks-per-node K");
  if (!ctx->ranks_opt) {
    err = omp_ext_rank_from_env(NULL, rank);
    return err ? env_error(rank, NULL, err) : HTP_EXIT_OK;
  }
  if (ctx->all_ranks || (k = parse_below(ctx->ranks_opt, 1000000)) < 1)
    return HTP_EXIT_OK;
  *split = omp_ext_split_always;
  if (ctx->rank_opt) {
    if ((r = parse_below(ctx->rank_opt, (unsigned long)k)) < 0)
      return htp_error(HTP_EXIT_USAGE, "--local-rank must be a whole number 0..%ld (below "
                       "--ranks-per-node %ld), got '%s'", k - 1, k, ctx->rank_opt);
    rank->launcher = "options";
    rank->rank_var = "--local-rank";
    rank->rank = (unsigned)r;
  } else if ((err = omp_ext_rank_from_env(NULL, rank)) != 0) {
    return env_error(rank, NULL, err);
  } else if (!rank->launcher) {
    return htp_error(HTP_EXIT_USAGE, "--ranks-per-node needs --local-rank R, or a launcher's "
                     "local rank (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, PMIX_LOCAL_RANK, "
                     "SLURM_LOCALID)");
  } else if (rank->rank >= (unsigned long)k) {
    return htp_error(HTP_EXIT_USAGE, "%s: %s=%u is not below --ranks-per-node %ld",
                     rank->launcher, rank->rank_var, rank->rank, k);
  }
  rank->size_var = "--ranks-per-node";
  rank->size = (unsigned)k;
  return HTP_EXIT_OK;
}

/* The error line of a failed rank step (ctx->topo: before it). */
static int rank_error(struct htp_ctx *ctx, int err)
{
  unsigned k;
  if (ctx->rank.size_var && strcmp(ctx->rank.size_var, "--ranks-per-node") == 0) {
    if (err == omp_ext_err_range) /* K above the cores: the option's own line */
      return htp_parse_ranks(ctx->ranks_opt, omp_ext_topo_ncores(ctx->topo), &k);
    return htp_error(HTP_EXIT_FAIL, "cannot split the node into %u domains: %s",
                     ctx->rank.size, omp_ext_strerror(err));
  }
  return env_error(&ctx->rank, ctx->topo, err);
}

/* After the topology: a --ranks-per-node K that split nothing is still
 * checked against the allowed cores (1 .. ncores). */
static int rank_check(const struct htp_ctx *ctx)
{
  unsigned k;
  if (!ctx->ranks_opt || ctx->rank.launcher)
    return HTP_EXIT_OK;
  return htp_parse_ranks(ctx->ranks_opt, omp_ext_topo_ncores(ctx->topo), &k);
}

/* "package 0, NUMA node 1" or "packages 0-1, NUMA nodes 0-3": where the
 * topology's allowed PUs lie (hwloc logical package, OS NUMA indexes). */
char *htp_pu_list_text(const omp_ext_topo_t *topo)
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
  if (!(in = htp_pu_list_text(ctx->topo)))
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
