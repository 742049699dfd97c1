/*
 * htplaces doctor [options] [POLICY [N]]: the command -- its options, the
 * sysfs and cgroup roots, the saturation test's order, then the analysis
 * (doctor_analysis.c, env.c) and its printers (doctor_report.c).  Exit 0
 * when nothing limits parallel execution, 1 when something does, 2 for
 * usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis.h"
#include "htplaces.h"

extern char **environ;

enum { OPT_SYSFS = 256, OPT_CGROUP, OPT_NOSAT, OPT_DURATION };

/* The saturation test's order: POLICY [N] from the arguments (parsed
 * once), default all allowed PUs by 'speedup'; NULL order when the test
 * does not run. */
static int saturation_order(int saturation, struct htp_ctx *ctx, int argc, char **argv,
                            omp_ht_policy_t *policy, omp_ext_pu_t **order, unsigned *n)
{
  static char speedup[] = "speedup";
  char *dflt[2] = {speedup, NULL};
  struct htp_policy p = {0};
  int status;
  *order = NULL;
  *n = 0;
  if ((status = htp_policy_parse(argc ? argc : 1, argc ? argv : dflt, &p)) != 0)
    return status;
  *policy = p.policy;
  /* N is checked whether or not the saturation test runs. */
  if (!saturation || !omp_ext_topo_is_thissystem(ctx->topo)) {
    unsigned count;
    return p.count ? htp_parse_count(p.count, omp_ext_topo_npus(ctx->topo), &count) : HTP_EXIT_OK;
  }
  if ((status = htp_policy_order(ctx, &p, order)) != 0)
    return status;
  *n = p.n;
  return HTP_EXIT_OK;
}

/* --sysfs / --cgroup (or HTPLACES_SYSFS / HTPLACES_CGROUP, named by
 * what): a folder that can be read, else a usage error naming it. */
static int readable_dir(const char *what, const char *path)
{
  struct stat st;
  if (stat(path, &st) != 0)
    return htp_error(HTP_EXIT_USAGE, "cannot read %s '%s': %s", what, path, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return htp_error(HTP_EXIT_USAGE, "%s '%s' is not a folder; give the root of a sysfs or "
                     "cgroup tree", what, path);
  if (access(path, R_OK | X_OK) != 0)
    return htp_error(HTP_EXIT_USAGE, "cannot read %s '%s': %s", what, path, strerror(errno));
  return HTP_EXIT_OK;
}

static int parse_duration(const char *arg, double *out)
{
  double v;
  if (htp_parse_double(arg, &v) != 0 || !(v > 0 && v <= 60))
    return htp_error(HTP_EXIT_USAGE, "--duration must be seconds in (0, 60], got '%s'", arg);
  *out = v;
  return HTP_EXIT_OK;
}

/* The options of htplaces doctor (main.c's table: htplaces list options). */
const struct option htp_doctor_longopts[] = {
  HTP_COMMON_LONGOPTS, {"sysfs", required_argument, NULL, OPT_SYSFS},
  {"cgroup", required_argument, NULL, OPT_CGROUP},
  {"no-saturation", no_argument, NULL, OPT_NOSAT},
  {"duration", required_argument, NULL, OPT_DURATION}, {0}};

int htp_cmd_doctor(struct htp_ctx *ctx, int argc, char **argv)
{
  struct htp_doctor_input in = {"/sys", NULL, NULL, NULL, 1, omp_ht_policy_speedup, NULL, 0,
                                0.5};
  struct htp_doctor_report rep;
  const char *cgroup = getenv("HTPLACES_CGROUP"), *sysfs_what = "HTPLACES_SYSFS",
             *cgroup_what = "HTPLACES_CGROUP";
  char *cgdir = NULL, *cpuset_dir = NULL;
  omp_ext_topo_t *topo;
  omp_ext_pu_t *order = NULL;
  int c, status = HTP_EXIT_OK, json = 0, err;

  if (getenv("HTPLACES_SYSFS") && *getenv("HTPLACES_SYSFS"))
    in.sysfs = getenv("HTPLACES_SYSFS");
  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, htp_doctor_longopts, NULL)) != -1) {
    if (htp_common_option(ctx, c, optarg, optopt, argv))
      continue;
    if (c == OPT_SYSFS)
      in.sysfs = optarg, sysfs_what = "--sysfs";
    else if (c == OPT_CGROUP)
      cgroup = optarg, cgroup_what = "--cgroup";
    else if (c == OPT_NOSAT)
      in.saturation = 0;
    else if (c == OPT_DURATION && (status = parse_duration(optarg, &in.duration)) != 0)
      return status;
  }
  if ((status = htp_report_format(ctx, "doctor", &json)) != 0)
    return status;
  if (argc - optind > 2)
    return htp_error(HTP_EXIT_USAGE, "unexpected argument '%s'; usage: htplaces doctor "
                     "[options] [POLICY [N]]", argv[optind + 2]);
  if (!ctx->input && (status = htp_this_machine("doctor")) != 0)
    return status;
  if ((strcmp(in.sysfs, "/sys") != 0 && (status = readable_dir(sysfs_what, in.sysfs)) != 0) ||
      (cgroup && *cgroup && (status = readable_dir(cgroup_what, cgroup)) != 0))
    return status;
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  if ((status = saturation_order(in.saturation, ctx, argc - optind, argv + optind, &in.policy,
                                 &order, &in.n)) != 0)
    return status;
  if (cgroup && *cgroup)
    cgdir = strdup(cgroup);
  else
    cgdir = htp_find_cgroup("/sys/fs/cgroup", &cpuset_dir);
  in.cgroup = cgdir;
  in.cpuset_dir = cpuset_dir;
  in.envp = environ;
  in.order = order;

  err = htp_doctor_analyze(&in, topo, &rep);
  if (err)
    status = htp_error(HTP_EXIT_FAIL, "out of memory");
  else if (json)
    htp_doctor_print_json(stdout, topo, &rep);
  else
    htp_doctor_print_text(stdout, topo, &rep);
  if (!err)
    status = htp_findings_count(&rep.findings) ? HTP_EXIT_FAIL : HTP_EXIT_OK;
  htp_doctor_report_free(&rep);
  free(order);
  free(cgdir);
  free(cpuset_dir);
  if (!err && (fflush(stdout) != 0 || ferror(stdout)))
    return htp_error(HTP_EXIT_FAIL, "cannot write output");
  return status;
}
