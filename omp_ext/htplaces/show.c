/*
 * htplaces show: a picture of the machine with each thread of a placement
 * on its PU (the picture: picture.c; --ranks-per-node without --local-rank:
 * rank.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "htplaces.h"

/* thread[i] = thread number placed on topology PU i, or -1. */
static int *threads_by_pu(const omp_ext_topo_t *topo, const omp_ext_pu_t *order, unsigned n)
{
  unsigned npus = omp_ext_topo_npus(topo), i, t;
  int *thread = malloc(npus * sizeof(*thread));
  if (!thread)
    return NULL;
  for (i = 0; i < npus; i++) {
    thread[i] = -1;
    for (t = 0; t < n; t++)
      if (order[t].os_index == omp_ext_topo_pu(topo, i)->os_index)
        thread[i] = (int)t;
  }
  return thread;
}

/* The options of htplaces show (main.c's table: htplaces list options). */
const struct option htp_show_longopts[] = {HTP_COMMON_LONGOPTS, {0}};

int htp_cmd_show(struct htp_ctx *ctx, int argc, char **argv)
{
  struct htp_policy policy = {0};
  omp_ext_pu_t *order;
  unsigned n;
  int c, status, *thread;
  char *rank_line;

  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, htp_show_longopts, NULL)) != -1)
    htp_common_option(ctx, c, optarg, optopt, argv);
  if ((status = htp_no_format(ctx, "show")) != 0)
    return status;
  if (ctx->ranks_opt && !ctx->rank_opt)
    return htp_show_ranks(ctx, argc - optind, argv + optind);
  if ((status = htp_policy_parse(argc - optind, argv + optind, &policy)) != 0 ||
      (status = htp_policy_order(ctx, &policy, &order)) != 0)
    return status;
  n = policy.n;
  thread = threads_by_pu(ctx->topo, order, n);
  if (!thread) {
    free(order);
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  printf("%s: %u threads on %u allowed PUs (%u cores) of %s\n", omp_ext_policy_name(policy.policy), n,
         omp_ext_topo_npus(ctx->topo), omp_ext_topo_ncores(ctx->topo),
         omp_ext_topo_source(ctx->topo));
  htp_rank_warn(ctx);
  if ((rank_line = htp_rank_summary(ctx)) != NULL && *rank_line)
    printf("%s\n", rank_line);
  free(rank_line);
  htp_show_picture(ctx->topo, thread, NULL);
  free(thread);
  free(order);
  return fflush(stdout) == 0 ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot write output");
}
