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
static int one_rank(struct htp_ctx *ctx, struct htp_policy *policy, unsigned r, int *thread,
                    int *rank, char **line)
{
  struct htp_ctx sub = *ctx;
  char rtext[16], *places = NULL, *set = NULL, *in = NULL;
  omp_ext_pu_t *order;
  unsigned n, t;
  int status;
  snprintf(rtext, sizeof(rtext), "%u", r);
  sub.topo = NULL;
  sub.all_ranks = 0;
  sub.rank_opt = rtext;
  /* (resolved on each rank's domain: the energy choice is the domain's) */
  if ((status = htp_policy_order(&sub, policy, &order)) != 0) {
    omp_ext_topo_destroy(sub.topo);
    return status;
  }
  n = policy->n;
  for (t = 0; t < n; t++) {
    unsigned i = pu_index(ctx->topo, order[t].os_index);
    thread[i] = (int)t;
    rank[i] = (int)r;
  }
  status = HTP_EXIT_FAIL;
  if (omp_ext_places_format(order, n, omp_ext_format_omp, &places) == 0 &&
      hwloc_bitmap_list_asprintf(&set, omp_ext_topo_allowed(sub.topo)) >= 0 &&
      (in = htp_pu_list_text(sub.topo)) != NULL &&
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
  struct htp_policy policy = {0};
  unsigned r;
  int status = htp_policy_parse(argc, argv, &policy);
  for (r = 0; r < k && status == HTP_EXIT_OK; r++)
    status = one_rank(ctx, &policy, r, thread, rank, &lines[r]);
  if (status)
    return status;
  printf("%s: %u ranks per node on %u allowed PUs (%u cores) of %s\n",
         omp_ext_policy_name(policy.policy), k, omp_ext_topo_npus(ctx->topo),
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
  if ((status = htp_parse_ranks(ctx->ranks_opt, omp_ext_topo_ncores(topo), &k)) != 0)
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
