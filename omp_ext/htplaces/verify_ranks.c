/*
 * htplaces verify under an MPI launcher: `mpirun --bind-to none -np 4
 * htplaces verify spn -- ./app` or `srun --cpu-bind=none ... htplaces
 * verify spn -- ./app`.  Every rank runs its own verify, which takes the
 * rank's domain from the launcher's variables (htp_topo, as exec does) and
 * checks the rank's threads against the places of that domain; the job's
 * exit status is non-zero when any rank's is (mpirun and srun pass on the
 * ranks' failures).  The launcher interleaves the ranks' lines, so each
 * line of a rank's report starts with the rank ("rank 3 (local 1 of 2 on
 * node7): "), its verdict included, and the report opens with the rank's
 * domain.  A rank the launcher bound to PUs that other ranks must share
 * (htp_rank_shared: the ranks on the node times its PUs exceed the node's)
 * is a mismatch too: its threads may be where its places say, but those
 * places are not its own.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htplaces.h"
#include "verify_int.h"

/* The launcher's global rank variable, NULL if none is set. */
static const char *global_rank(void)
{
  static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                     "SLURM_PROCID"};
  unsigned i;
  for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
    if (getenv(vars[i]) && *getenv(vars[i]))
      return getenv(vars[i]);
  return NULL;
}

/* "rank 3 (local 1 of 2 on node7)", or "local rank 1 of 2 on node7". */
static void rank_label(const struct htp_ctx *ctx, char *buf, size_t len)
{
  char host[256] = "?";
  const char *g = global_rank();
  gethostname(host, sizeof(host) - 1);
  host[sizeof(host) - 1] = '\0';
  if (g)
    snprintf(buf, len, "rank %s (local %u of %u on %s)", g, ctx->rank.rank, ctx->rank.size, host);
  else
    snprintf(buf, len, "local rank %u of %u on %s", ctx->rank.rank, ctx->rank.size, host);
}

/* The report from file f, each line after "LABEL: ". */
static void relay_labelled(FILE *f, const char *label)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t got;
  rewind(f);
  while ((got = getline(&line, &cap, f)) > 0)
    printf("%s: %s%s", label, line, line[got - 1] == '\n' ? "" : "\n");
  free(line);
}

int verify_ranks_report(const struct htp_ctx *ctx, struct verify *v, char **prog, int wstatus,
                        int stopped)
{
  FILE *f = tmpfile();
  char label[400], *summary = htp_rank_summary(ctx);
  int saved, status, shared = htp_rank_shared(ctx);
  if (v->newline) /* (the program's output did not end its line) */
    putchar('\n');
  v->newline = 0;
  fflush(stdout);
  if (!f || !summary || (saved = dup(1)) < 0 || dup2(fileno(f), 1) < 0) {
    if (f)
      fclose(f);
    free(summary);
    return htp_error(HTP_EXIT_FAIL, "cannot write the report: out of memory or descriptors");
  }
  printf("verify: %s\n", summary);
  status = verify_report(v, prog, wstatus, stopped);
  if (shared) {
    printf("verify: MISMATCH: the launcher bound this rank to %u PUs that the node's %u ranks "
           "cannot each have (use mpirun --bind-to none or srun --cpu-bind=none)\n",
           omp_ext_topo_npus(ctx->topo), ctx->rank.size);
    status = status ? status : HTP_EXIT_FAIL;
  }
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  rank_label(ctx, label, sizeof(label));
  relay_labelled(f, label);
  fclose(f);
  free(summary);
  if (fflush(stdout) != 0)
    return htp_error(HTP_EXIT_FAIL, "cannot write output");
  return status;
}
