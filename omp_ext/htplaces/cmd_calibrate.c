/*
 * htplaces calibrate: fit the paper's §2.1 power model (Pn, Ps, Pc, Pt) on
 * this machine from RAPL package energy while busy loops run on growing
 * prefixes of the policy orders.
 *
 *   htplaces calibrate [--powercap DIR] [--perf-pmu DIR] [--seconds T] [-r LIST] [POLICY...]
 *
 * Energy comes from the powercap files if readable, else from perf's
 * power/energy-pkg event; if neither works, both reasons are printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htplaces.h"

enum { OPT_POWERCAP = 256, OPT_PERF, OPT_SECONDS };

struct calib_opts {
  const char *root;
  const char *pmu;
  double seconds;
  omp_ht_policy_t policies[OMP_EXT_NPOLICIES];
  unsigned npolicies;
};

/* The options of htplaces calibrate (main.c's table: htplaces list options). */
const struct option htp_calibrate_longopts[] = {
  HTP_COMMON_LONGOPTS, {"powercap", required_argument, NULL, OPT_POWERCAP},
  {"perf-pmu", required_argument, NULL, OPT_PERF},
  {"seconds", required_argument, NULL, OPT_SECONDS}, {0}};

static int calib_options(struct htp_ctx *ctx, int argc, char **argv, struct calib_opts *o)
{
  int c, i, status;
  char *end;
  o->root = o->pmu = NULL;
  o->seconds = 1.0;
  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, htp_calibrate_longopts,
                          NULL)) != -1) {
    if (c == OPT_POWERCAP) {
      o->root = optarg;
    } else if (c == OPT_PERF) {
      o->pmu = optarg;
    } else if (c == OPT_SECONDS) {
      o->seconds = strtod(optarg, &end);
      if (!*optarg || *end || !isfinite(o->seconds) || o->seconds <= 0 || o->seconds > 3600)
        return htp_error(HTP_EXIT_USAGE, "invalid --seconds '%s'; allowed: a number of "
                         "seconds per sample, > 0 and <= 3600", optarg);
    } else {
      htp_common_option(ctx, c, optarg, optopt, argv);
    }
  }
  if ((status = htp_no_format(ctx, "calibrate")) != 0)
    return status;
  if ((status = htp_this_machine("calibrate")) != 0)
    return status;
  if (ctx->input)
    return htp_error(HTP_EXIT_USAGE, "calibrate measures this machine; -i/--input is not "
                     "allowed (use -r to restrict the PUs)");
  if (argc - optind > OMP_EXT_NPOLICIES)
    return htp_error(HTP_EXIT_USAGE, "too many policies: at most %d", OMP_EXT_NPOLICIES);
  o->npolicies = 0;
  for (i = optind; i < argc; i++) {
    if ((status = htp_parse_policy(argv[i], &o->policies[o->npolicies])) != 0)
      return status;
    if (omp_ext_policy_is_base(o->policies[o->npolicies]) != 1)
      return htp_error(HTP_EXIT_USAGE, "calibrate runs base orders; allowed: %s",
                       htp_policy_names(1));
    o->npolicies++;
  }
  if (o->npolicies == 0) {
    o->policies[o->npolicies++] = omp_ht_policy_speedup;
    o->policies[o->npolicies++] = omp_ht_policy_spn;
  }
  return HTP_EXIT_OK;
}

/* No "-0.00" for a coefficient that is 0 up to rounding. */
static double tidy(double v)
{
  return fabs(v) < 0.005 ? 0 : v;
}

static void print_fit(const omp_ext_power_sample_t *s, unsigned n, const omp_ext_power_model_t *pm,
                      unsigned determined)
{
  static const char *const names[4] = {"Pn", "Ps", "Pc", "Pt"};
  static const char *const why[4] = {"", "no package was ever busy", "no core was ever busy",
                                     "no sample had a busy SMT sibling (no SMT, or -r)"};
  const double coef[4] = {tidy(pm->pn), tidy(pm->ps), tidy(pm->pc), tidy(pm->pt)};
  omp_ext_power_model_t check;
  char text[128];
  unsigned i;
  printf("%-8s %4s %4s %5s %5s %10s %8s\n", "policy", "N", "pkgs", "cores", "extra",
         "measured_W", "model_W");
  for (i = 0; i < n; i++)
    printf("%-8s %4u %4u %5u %5u %10.2f %8.2f\n",
           s[i].usage.threads ? omp_ext_policy_name(s[i].policy) : "idle", s[i].usage.threads,
           s[i].usage.packages, s[i].usage.cores, s[i].usage.extra, s[i].watts,
           omp_ext_model_power(pm, &s[i].usage));
  printf("\npower model (least squares, watts): Pn %.2f, Ps %.2f, Pc %.2f, Pt %.2f\n", coef[0],
         coef[1], coef[2], coef[3]);
  for (i = 0; i < 4; i++)
    if (!(determined & (1u << i)))
      printf("%s not determined: %s; set to 0\n", names[i], why[i]);
  printf("note: RAPL counts the packages (not the whole node): Pn is their idle draw\n");
  snprintf(text, sizeof(text), "%.2f,%.2f,%.2f,%.2f", coef[0], coef[1], coef[2], coef[3]);
  if (omp_ext_power_model_parse(text, &check) == 0)
    printf("use: --power-model %s   (or OMP_EXT_POWER_MODEL=%s)\n", text, text);
  else
    printf("the fit has a negative or zero coefficient sum and is not a usable model; "
           "measure longer (--seconds) on an idle machine\n");
}

/* The powercap files, else perf; prints both reasons if neither opens. */
struct energy {
  omp_ext_rapl_t *rapl;
  omp_ext_perf_energy_t *perf;
  omp_ext_energy_source_t src;
};

static int open_energy(const struct calib_opts *o, struct energy *e)
{
  char why_rapl[512] = "", why_perf[512] = "";
  int err;
  memset(e, 0, sizeof(*e));
  if ((err = omp_ext_rapl_open(o->root, &e->rapl, why_rapl, sizeof(why_rapl))) == 0) {
    e->src = omp_ext_rapl_source(e->rapl);
    return HTP_EXIT_OK;
  }
  if (err == omp_ext_err_nomem)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if ((err = omp_ext_perf_energy_open(o->pmu, &e->perf, why_perf, sizeof(why_perf))) == 0) {
    e->src = omp_ext_perf_energy_source(e->perf);
    return HTP_EXIT_OK;
  }
  return htp_error(HTP_EXIT_FAIL, "calibrate: no readable energy source: %s; %s", why_rapl,
                   why_perf[0] ? why_perf : omp_ext_strerror(err));
}

static void close_energy(struct energy *e)
{
  omp_ext_rapl_close(e->rapl);
  omp_ext_perf_energy_close(e->perf);
}

int htp_cmd_calibrate(struct htp_ctx *ctx, int argc, char **argv)
{
  struct calib_opts o;
  struct energy en;
  omp_ext_topo_t *topo;
  omp_ext_power_sample_t *samples = NULL;
  omp_ext_power_model_t pm;
  unsigned nsamples = 0, determined = 0;
  int status, err;

  if ((status = calib_options(ctx, argc, argv, &o)) != 0)
    return status;
  if ((status = open_energy(&o, &en)) != 0)
    return status;
  if (!(topo = htp_topo(ctx, &status))) {
    close_energy(&en);
    return status;
  }
  samples = malloc((1 + o.npolicies * omp_ext_topo_npus(topo)) * sizeof(*samples));
  if (!samples) {
    close_energy(&en);
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  err = omp_ext_calibrate(topo, o.policies, o.npolicies, o.seconds, en.src, samples, &nsamples);
  close_energy(&en);
  if (err == omp_ext_err_unsupported)
    status = htp_error(HTP_EXIT_FAIL, "calibrate: an energy counter became unreadable while "
                       "measuring");
  else if (err)
    status = htp_error(HTP_EXIT_FAIL, "calibrate: %s", omp_ext_strerror(err));
  else if ((err = omp_ext_power_fit(samples, nsamples, &pm, &determined)) != 0)
    status = htp_error(HTP_EXIT_FAIL, "calibrate: the samples do not determine the model");
  else {
    print_fit(samples, nsamples, &pm, determined);
    status = fflush(stdout) == 0 ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot write output");
  }
  free(samples);
  return status;
}
