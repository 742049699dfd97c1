/*
 * htplaces tune's options: each parsed and checked (one_option), the
 * command line cut at "--" (tune_parse_options), the options checked
 * together and against the environment (tune_check_options).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune_int.h"
#include "private/util.h"

enum {
  OPT_POLICIES = 256, OPT_THREADS, OPT_WAIT, OPT_REPS, OPT_SEED, OPT_BUDGET, OPT_TIMEOUT,
  OPT_DRY_RUN, OPT_OBJECTIVE, OPT_OUT, OPT_POWER, OPT_TIMING_LIB, OPT_NO_REGIONS, OPT_STDIN,
  OPT_LAUNCHER, OPT_RANKS
};

static int positive_seconds(const char *opt, const char *text, double *v)
{
  if (htp_parse_double(text, v) != 0 || !(*v > 0))
    return htp_error(HTP_EXIT_USAGE, "invalid %s '%s'; allowed: seconds > 0", opt, text);
  return HTP_EXIT_OK;
}

/* --timeout: a deadline that fits (1e19 s would overflow the wait). */
static int parse_timeout(const char *text, double *v)
{
  if (htp_parse_double(text, v) != 0 || !(*v > 0) || *v > TUNE_MAX_TIMEOUT_S)
    return htp_error(HTP_EXIT_USAGE, "invalid --timeout '%s'; allowed: seconds > 0 and <= %.0f "
                     "(11.5 days)", text, TUNE_MAX_TIMEOUT_S);
  return HTP_EXIT_OK;
}

/* --stdin FILE: read again from its start by every run, so a file or a
 * device, not a pipe. */
static int parse_stdin(const char *path, const char **out)
{
  struct stat st;
  if (stat(path, &st) != 0 || access(path, R_OK) != 0)
    return htp_error(HTP_EXIT_USAGE, "cannot read --stdin '%s': %s", path, strerror(errno));
  if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
    return htp_error(HTP_EXIT_USAGE, "invalid --stdin '%s': not a file; allowed: a file or a "
                     "device, which every run reads from its start", path);
  *out = path;
  return HTP_EXIT_OK;
}

/* --timing-lib PATH: omp_ext's library, whose timing entry points it
 * exports (its timer API, the libgomp wrapper, the OMPT tool's start):
 * another library (libm.so.6) would be preloaded for nothing and an auto
 * configuration measured without auto. */
static int parse_timing_lib(const char *path, const char **out)
{
  static const char *const entries[] = {"omp_ext_timer_start", "omp_ext_timer_stop",
                                        "GOMP_parallel", "ompt_start_tool"};
  const char *missing;
  int n;
  if (access(path, R_OK) != 0)
    return htp_error(HTP_EXIT_USAGE, "cannot read --timing-lib '%s': %s", path, strerror(errno));
  if (htp_preload_path_error(path, HTP_EXIT_USAGE) != 0)
    return HTP_EXIT_USAGE;
  if ((n = tune_elf_exports(path, entries, sizeof(entries) / sizeof(entries[0]), &missing)) < 0)
    return htp_error(HTP_EXIT_USAGE, "invalid --timing-lib '%s': not an ELF64 shared library; "
                     "give omp_ext's libomp_ext.so (by default the one beside htplaces)", path);
  if (n > 0)
    return htp_error(HTP_EXIT_USAGE, "invalid --timing-lib '%s': it does not export %s%s, one "
                     "of omp_ext's timing entry points: not omp_ext's libomp_ext.so", path,
                     missing, n > 1 ? " (and more)" : "");
  *out = path;
  return HTP_EXIT_OK;
}

static int parse_reps(const char *text, unsigned *k)
{
  unsigned long long v;
  if (omp_ext_parse_uint(text, 3, 1000, &v) != OMP_EXT_UINT_OK)
    return htp_error(HTP_EXIT_USAGE, "invalid --reps '%s'; allowed: 3..1000 rounds (fewer than "
                     "3 give no confidence interval worth the name)", text);
  *k = (unsigned)v;
  return HTP_EXIT_OK;
}

static int parse_objective(const char *text, enum tune_objective *o)
{
  const char *names[TUNE_NOBJECTIVES];
  char allowed[128];
  int i;
  for (i = 0; i < TUNE_NOBJECTIVES; i++) {
    names[i] = tune_objective_name((enum tune_objective)i);
    if (strcmp(text, names[i]) == 0) {
      *o = (enum tune_objective)i;
      return HTP_EXIT_OK;
    }
  }
  return htp_error(HTP_EXIT_USAGE, "unknown --objective '%s'; allowed: %s", text,
                   htp_join(allowed, sizeof(allowed), names, TUNE_NOBJECTIVES, ", "));
}

static int one_option(struct tune_opts *o, int c, const char *arg)
{
  unsigned long long seed;
  switch (c) {
  case OPT_POLICIES: o->policies = arg; return HTP_EXIT_OK;
  case OPT_THREADS: o->threads = arg; return HTP_EXIT_OK;
  case OPT_WAIT: o->waits = arg; return HTP_EXIT_OK;
  case OPT_REPS: return parse_reps(arg, &o->reps);
  case OPT_SEED:
    if (omp_ext_parse_uint(arg, 0, ULONG_MAX, &seed) != OMP_EXT_UINT_OK)
      return htp_error(HTP_EXIT_USAGE, "invalid --seed '%s'; allowed: a whole number", arg);
    o->seed = (unsigned long)seed;
    return HTP_EXIT_OK;
  case OPT_BUDGET: return positive_seconds("--budget", arg, &o->budget_s);
  case OPT_TIMEOUT: return parse_timeout(arg, &o->timeout_s);
  case OPT_STDIN: return parse_stdin(arg, &o->stdin_path);
  case OPT_DRY_RUN: o->dry_run = 1; return HTP_EXIT_OK;
  case OPT_OBJECTIVE: return parse_objective(arg, &o->objective);
  case OPT_OUT:
    if (!*arg)
      return htp_error(HTP_EXIT_USAGE, "empty --out; give a folder");
    o->out = arg;
    return HTP_EXIT_OK;
  case OPT_TIMING_LIB: return parse_timing_lib(arg, &o->timing_lib);
  case OPT_NO_REGIONS: o->no_regions = 1; return HTP_EXIT_OK;
  case OPT_LAUNCHER: o->launcher = arg; return HTP_EXIT_OK;
  case OPT_RANKS: o->ranks = arg; return HTP_EXIT_OK;
  case OPT_POWER:
    if (omp_ext_power_model_parse(arg, &o->power) != 0)
      return htp_power_model_error("--power-model", arg);
    o->power_text = arg;
    return HTP_EXIT_OK;
  default: return htp_error(HTP_EXIT_USAGE, "unknown option; see htplaces --help");
  }
}

/* The options of htplaces tune (main.c's table: htplaces list options). */
const struct option htp_tune_longopts[] = {
  HTP_COMMON_LONGOPTS,
  {"policies", required_argument, NULL, OPT_POLICIES},
  {"threads", required_argument, NULL, OPT_THREADS},
  {"wait-policy", required_argument, NULL, OPT_WAIT},
  {"reps", required_argument, NULL, OPT_REPS},
  {"seed", required_argument, NULL, OPT_SEED},
  {"budget", required_argument, NULL, OPT_BUDGET},
  {"timeout", required_argument, NULL, OPT_TIMEOUT},
  {"dry-run", no_argument, NULL, OPT_DRY_RUN},
  {"objective", required_argument, NULL, OPT_OBJECTIVE},
  {"out", required_argument, NULL, OPT_OUT},
  {"power-model", required_argument, NULL, OPT_POWER},
  {"timing-lib", required_argument, NULL, OPT_TIMING_LIB},
  {"no-regions", no_argument, NULL, OPT_NO_REGIONS},
  {"stdin", required_argument, NULL, OPT_STDIN},
  {"launcher", required_argument, NULL, OPT_LAUNCHER},
  {"ranks", required_argument, NULL, OPT_RANKS},
  {0}};

int tune_parse_options(struct htp_ctx *ctx, int argc, char **argv, struct tune_opts *o, int *sep)
{
  int c, status;
  optind = 0;
  while ((c = getopt_long(argc, argv, "+:" HTP_COMMON_SHORTOPTS, htp_tune_longopts, NULL)) != -1)
    if (!htp_common_option(ctx, c, optarg, optopt, argv) &&
        (status = one_option(o, c, optarg)) != 0)
      return status;
  if (optind > 1 && strcmp(argv[optind - 1], "--") == 0)
    *sep = optind - 1;
  else if (optind < argc && strcmp(argv[optind], "--") == 0)
    *sep = optind;
  else if (optind < argc)
    return htp_error(HTP_EXIT_USAGE, "unexpected argument '%s'; usage: htplaces tune [options] "
                     "-- PROGRAM [ARGS]", argv[optind]);
  else
    *sep = argc;
  if (*sep + 1 >= argc)
    return htp_error(HTP_EXIT_USAGE, "missing '-- PROGRAM'; usage: htplaces tune [options] -- "
                     "PROGRAM [ARGS]");
  return HTP_EXIT_OK;
}

/* The user's OMP_NUM_THREADS, which each run replaces by the team it
 * measures: said once (tune measures team sizes unless --threads says). */
static void note_nthreads(const struct tune_opts *o)
{
  const char *v = getenv("OMP_NUM_THREADS");
  char shown[4 * OMP_EXT_QUOTE_MAX + 32];
  if (v && *v && strcmp(o->threads, "auto") == 0)
    fprintf(stderr, "htplaces tune: note: OMP_NUM_THREADS=%s is not what the runs get: each "
            "gets the team size it measures; --threads N measures N alone (htplaces exec "
            "--plan honours OMP_NUM_THREADS)\n", omp_ext_quote(v, shown, sizeof(shown)));
}

int tune_check_options(const struct htp_ctx *ctx, const struct tune_opts *o, int *json)
{
  int status;
  static const char *const conflicting[] = {"KMP_AFFINITY", "GOMP_CPU_AFFINITY",
                                            "OMP_EXT_HT_POLICY"};
  unsigned i;
  if (ctx->input && !o->dry_run)
    return htp_error(HTP_EXIT_USAGE, "tune runs the program on this machine: -i does not apply "
                     "(except to --dry-run: the plan on another machine)");
  if (o->ranks && !o->launcher)
    return htp_error(HTP_EXIT_USAGE, "--ranks needs --launcher, e.g. --launcher 'mpirun -np {R}'");
  if (o->launcher && (ctx->ranks_opt || ctx->rank_opt))
    return htp_error(HTP_EXIT_USAGE, "--ranks-per-node and --local-rank do not apply with "
                     "--launcher: --ranks gives the ranks tune tries");
  if ((status = htp_report_format(ctx, "tune", json)) != 0)
    return status;
  for (i = 0; i < sizeof(conflicting) / sizeof(conflicting[0]); i++)
    if (getenv(conflicting[i]))
      return htp_error(HTP_EXIT_USAGE, "%s is set and would override the places; unset it to "
                       "use 'htplaces tune'", conflicting[i]);
  note_nthreads(o);
  return HTP_EXIT_OK;
}
