/*
 * htplaces check [options] [PLACES]: the command -- its options, the value
 * (PLACES or the variable), parsing it on the topology, then --expand, the
 * analysis (check_analysis.c) and its printers (check_report.c), or
 * --runtime (check_runtime.c).  Exit 0 clean, 1 problems found, 2
 * unparsable.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "htplaces.h"

enum { OPT_AS = 256, OPT_EXPAND, OPT_RUNTIME };

static int parse_as(const char *arg, omp_ext_syntax_t *syntax)
{
  if (strcmp(arg, "omp") == 0)
    *syntax = omp_ext_syntax_omp;
  else if (strcmp(arg, "gomp") == 0)
    *syntax = omp_ext_syntax_gomp;
  else if (strcmp(arg, "kmp") == 0)
    *syntax = omp_ext_syntax_kmp;
  else
    return htp_error(HTP_EXIT_USAGE, "unknown --as '%s'; allowed: omp (OMP_PLACES), gomp "
                     "(GOMP_CPU_AFFINITY), kmp (KMP_AFFINITY proclist)", arg);
  return HTP_EXIT_OK;
}

static int report(const omp_ext_topo_t *topo, const omp_ext_placelist_t *l, const char *value,
                  int json)
{
  struct htp_check_report rep;
  int problems;
  if (htp_check_analyze(topo, l, &rep) != 0 ||
      htp_check_predict(topo, value, l->syntax, &rep) != 0) {
    htp_check_report_free(&rep);
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  if (json)
    htp_check_print_json(stdout, topo, l, value, &rep);
  else
    htp_check_print_text(stdout, topo, l, value, &rep);
  problems = htp_findings_count(&rep.findings) != 0 || rep.nchanged;
  htp_check_report_free(&rep);
  if (fflush(stdout) != 0 || ferror(stdout))
    return htp_error(HTP_EXIT_FAIL, "cannot write output");
  return problems ? HTP_EXIT_FAIL : HTP_EXIT_OK;
}

/* The options of htplaces check (main.c's table: htplaces list options). */
const struct option htp_check_longopts[] = {
  HTP_COMMON_LONGOPTS, {"as", required_argument, NULL, OPT_AS},
  {"expand", no_argument, NULL, OPT_EXPAND},
  {"runtime", required_argument, NULL, OPT_RUNTIME}, {0}};

int htp_cmd_check(struct htp_ctx *ctx, int argc, char **argv)
{
  omp_ext_syntax_t syntax = omp_ext_syntax_omp;
  omp_ext_placelist_t *list = NULL;
  omp_ext_parse_error_t perr = {0, NULL};
  omp_ext_topo_t *topo;
  int c, status = HTP_EXIT_OK, expand = 0, err, json = 0, runtimes = 0;
  const char *value;
  char *text;

  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, htp_check_longopts, NULL)) != -1) {
    if (htp_common_option(ctx, c, optarg, optopt, argv))
      continue;
    if (c == OPT_EXPAND)
      expand = 1;
    else if (c == OPT_AS && (status = parse_as(optarg, &syntax)) != 0)
      return status;
    else if (c == OPT_RUNTIME && (status = htp_parse_runtimes(optarg, &runtimes)) != 0)
      return status;
  }
  if ((status = htp_report_format(ctx, "check", &json)) != 0)
    return status;
  if (optind + 1 < argc)
    return htp_error(HTP_EXIT_USAGE, "unexpected argument '%s'; quote the value: "
                     "htplaces check '%s'", argv[optind + 1], argv[optind]);
  /* No PLACES: the variable's value in the environment. */
  value = optind < argc ? argv[optind] : getenv(htp_check_variable(syntax));
  if (!value)
    return htp_error(HTP_EXIT_USAGE, "missing PLACES and %s is not set; usage: htplaces check "
                     "[--as omp|gomp|kmp] [--expand] [--runtime R] [-f text|json] [PLACES], e.g. "
                     "'{0:4},{4:4}' or 'cores(4)'", htp_check_variable(syntax));
  if (expand && json)
    return htp_error(HTP_EXIT_USAGE, "--expand prints the list itself; it takes no -f json");
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  if (runtimes) /* what the real runtimes build, even from what omp_ext cannot parse */
    return htp_check_runtimes(topo, value, syntax, runtimes, expand, json);
  err = omp_ext_places_parse(topo, value, syntax, &list, &perr);
  if (err == omp_ext_err_parse && json) { /* scripts read the object, people the line */
    fputs("{\"command\": \"check\", \"variable\": ", stdout);
    omp_ext_json_string(stdout, htp_check_variable(syntax));
    fputs(", \"value\": ", stdout);
    omp_ext_json_string(stdout, value);
    printf(", \"error\": \"parse\", \"position\": %zu, \"message\": ", perr.pos + 1);
    omp_ext_json_string(stdout, perr.what);
    fputs("}\n", stdout);
    fflush(stdout);
  }
  if (err == omp_ext_err_parse)
    return htp_error(HTP_EXIT_USAGE, "cannot parse %s value '%s' at character %zu: %s",
                     htp_check_variable(syntax), value, perr.pos + 1, perr.what);
  if (err)
    return htp_error(HTP_EXIT_FAIL, "%s", omp_ext_strerror(err));
  if (expand) {
    if (omp_ext_placelist_canonical(list, &text) != 0) {
      status = htp_error(HTP_EXIT_FAIL, "out of memory");
    } else {
      status = htp_print(text);
      free(text);
    }
  } else {
    status = report(topo, list, value, json);
  }
  omp_ext_placelist_destroy(list);
  return status;
}
