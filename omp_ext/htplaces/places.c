/*
 * htplaces POLICY [N]: the place list (or an export line); htplaces list.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "htplaces.h"

/* "export ..." for eval: OMP_PLACES (omp, the default), GOMP_CPU_AFFINITY
 * (gomp) or KMP_AFFINITY (kmp), with OMP_NUM_THREADS. */
static int print_export(const omp_ext_pu_t *order, unsigned n, omp_ext_format_t format)
{
  char *places, *line;
  int status, len;
  if (format != omp_ext_format_omp && format != omp_ext_format_gomp &&
      format != omp_ext_format_kmp)
    return htp_error(HTP_EXIT_USAGE, "--export writes variables: use it with --format omp, "
                     "gomp or kmp, not %s", omp_ext_format_name(format));
  if (omp_ext_places_format(order, n, format, &places) != 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (format == omp_ext_format_omp)
    len = asprintf(&line, "export OMP_PLACES='%s' OMP_PROC_BIND=close OMP_NUM_THREADS=%u",
                   places, n);
  else
    len = asprintf(&line, "export %s='%s' OMP_NUM_THREADS=%u",
                   format == omp_ext_format_gomp ? "GOMP_CPU_AFFINITY" : "KMP_AFFINITY", places, n);
  if (len < 0) {
    free(places);
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  status = htp_print(line);
  free(places);
  free(line);
  return status;
}

int htp_cmd_places(struct htp_ctx *ctx, int argc, char **argv)
{
  static const struct option longopts[] = {HTP_COMMON_LONGOPTS, {0}};
  omp_ht_policy_t policy;
  omp_ext_pu_t *order;
  unsigned n;
  int c, status;
  char *text;

  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, longopts, NULL)) != -1)
    htp_common_option(ctx, c, optarg, optopt, argv);
  if ((status = htp_policy_order(ctx, argc - optind, argv + optind, &policy, &order, &n)) != 0)
    return status;
  if (ctx->do_export) {
    status = print_export(order, n, ctx->format);
  } else if (omp_ext_places_format(order, n, ctx->format, &text) == 0) {
    status = htp_print(text);
    free(text);
  } else {
    status = htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  free(order);
  return status;
}

int htp_cmd_list(struct htp_ctx *ctx, int argc, char **argv)
{
  unsigned i;
  (void)ctx;
  if (argc > 1)
    return htp_error(HTP_EXIT_USAGE, "'list' takes no argument, got '%s'", argv[1]);
  for (i = 0; i < OMP_EXT_NPOLICIES; i++)
    printf("%-9s %s\n", omp_ext_policy_name((omp_ht_policy_t)i),
           omp_ext_policy_description((omp_ht_policy_t)i));
  return fflush(stdout) == 0 ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot write output");
}
