/*
 * htplaces POLICY [N]: the place list (or an export line), the command
 * without a subcommand.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "htplaces.h"

/* "export VARIABLE='...' OMP_NUM_THREADS=N" for eval, for the formats that
 * are a variable's value (the format table, omp_ext_format_variable()). */
static int print_export(const omp_ext_pu_t *order, unsigned n, omp_ext_format_t format)
{
  const char *with[OMP_EXT_NFORMATS];
  char *line, names[128];
  unsigned i, k = 0;
  int status, err;
  if (!omp_ext_format_variable(format)) {
    for (i = 0; i < OMP_EXT_NFORMATS; i++)
      if (omp_ext_format_variable((omp_ext_format_t)i))
        with[k++] = omp_ext_format_name((omp_ext_format_t)i);
    return htp_error(HTP_EXIT_USAGE, "--export writes variables: use it with --format %s, "
                     "not %s", htp_join(names, sizeof(names), with, k, " or "),
                     omp_ext_format_name(format));
  }
  if ((err = omp_ext_places_export(order, n, format, &line)) != 0)
    return htp_error(HTP_EXIT_FAIL, "%s", omp_ext_strerror(err));
  status = htp_print(line);
  free(line);
  return status;
}

/* The options of htplaces POLICY [N] (main.c's table: htplaces list options). */
const struct option htp_places_longopts[] = {HTP_COMMON_LONGOPTS, {0}};

int htp_cmd_places(struct htp_ctx *ctx, struct htp_policy *policy, int argc, char **argv)
{
  omp_ext_pu_t *order;
  unsigned n;
  int c, status;
  char *text;

  const char *names[OMP_EXT_NFORMATS];
  omp_ext_format_t format;
  unsigned i;

  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, htp_places_longopts, NULL)) != -1)
    htp_common_option(ctx, c, optarg, optopt, argv);
  /* -f: a name of the format table (omp, the first, by default). */
  for (i = 0; i < OMP_EXT_NFORMATS; i++)
    names[i] = omp_ext_format_name((omp_ext_format_t)i);
  if ((status = htp_format(ctx, NULL, names, OMP_EXT_NFORMATS, &i)) != 0)
    return status;
  format = (omp_ext_format_t)i;
  if ((status = htp_policy_parse(argc - optind, argv + optind, policy)) != 0 ||
      (status = htp_policy_order(ctx, policy, &order)) != 0)
    return status;
  n = policy->n;
  if (ctx->do_export) {
    status = print_export(order, n, format);
  } else if (omp_ext_places_format(order, n, format, &text) == 0) {
    status = htp_print(text);
    free(text);
  } else {
    status = htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  free(order);
  return status;
}
