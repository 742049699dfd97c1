/*
 * htplaces exec POLICY [N] -- PROG [ARGS]: run PROG with OMP_PLACES,
 * OMP_PROC_BIND=close and OMP_NUM_THREADS set to the policy's first N PUs
 * (OpenMP 5.2 §6.5, §6.4, §6.2).  Under an MPI launcher the PUs are the
 * rank's domain (htp_topo applies it); the process is then bound to that
 * domain (hwloc_set_cpubind) so the MPI library's own threads stay in it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "htplaces.h"

/* Variables that would override or fight the places under some runtime. */
static const char *const conflicting[] = {"KMP_AFFINITY", "GOMP_CPU_AFFINITY",
                                          "OMP_EXT_HT_POLICY", "OMP_EXT_PLAN"};

static int check_env(void)
{
  unsigned i;
  for (i = 0; i < sizeof(conflicting) / sizeof(conflicting[0]); i++)
    if (getenv(conflicting[i]))
      return htp_error(HTP_EXIT_USAGE, "%s is set and would override the places; unset it to "
                       "use 'htplaces exec'", conflicting[i]);
  return HTP_EXIT_OK;
}

static int set_env(const omp_ext_pu_t *order, unsigned n)
{
  char *places, count[16];
  int ok;
  if (omp_ext_places_format(order, n, omp_ext_format_omp, &places) != 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  snprintf(count, sizeof(count), "%u", n);
  ok = setenv("OMP_PLACES", places, 1) == 0 && setenv("OMP_PROC_BIND", "close", 1) == 0 &&
       setenv("OMP_NUM_THREADS", count, 1) == 0;
  free(places);
  return ok ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot set the environment");
}

/* Keep the whole process in the rank's domain (and, \p restricted, in -r's
 * PUs: what auto's candidates are made of). */
static int bind_domain(const struct htp_ctx *ctx, int restricted)
{
  if ((ctx->rank.mode != omp_ext_rank_split && !restricted) ||
      !omp_ext_topo_is_thissystem(ctx->topo))
    return HTP_EXIT_OK;
  if (hwloc_set_cpubind(omp_ext_topo_hwloc(ctx->topo), omp_ext_topo_allowed(ctx->topo),
                        HWLOC_CPUBIND_PROCESS) < 0)
    return htp_error(HTP_EXIT_FAIL, "cannot bind to the rank's PUs: %s", strerror(errno));
  return HTP_EXIT_OK;
}

/* Can a file be made in \p abs, as the library will at exit (temp +
 * rename)?  access() says yes to root on read-only file systems (/sys). */
static int learn_dir_writable(const char *dir, char *abs)
{
  char *probe = NULL;
  int fd, err;
  if (asprintf(&probe, "%s/.htplaces-learn-XXXXXX", abs) < 0) {
    free(abs);
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  fd = mkstemp(probe);
  err = errno;
  if (fd >= 0) {
    close(fd);
    unlink(probe);
  }
  free(probe);
  if (fd >= 0)
    return HTP_EXIT_OK;
  free(abs);
  return htp_error(HTP_EXIT_USAGE, "--learn %s: cannot make a file there (%s): give a folder "
                   "you can write", dir, strerror(err));
}

/* --learn DIR: the folder of auto's learnt states, made if missing (one
 * level), as an absolute path in *out (malloc'd). */
static int learn_dir(const char *dir, char **out)
{
  struct stat st;
  if (stat(dir, &st) != 0 && (errno != ENOENT || mkdir(dir, 0777) != 0 || stat(dir, &st) != 0))
    return htp_error(HTP_EXIT_USAGE, "--learn %s: %s; give a folder (made if its parent exists)",
                     dir, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return htp_error(HTP_EXIT_USAGE, "--learn %s: not a folder; give a folder you can write", dir);
  if (!(*out = realpath(dir, NULL)))
    return htp_error(HTP_EXIT_FAIL, "--learn %s: %s", dir, strerror(errno));
  if (learn_dir_writable(dir, *out) != HTP_EXIT_OK) {
    *out = NULL; /* (freed) */
    return HTP_EXIT_USAGE;
  }
  return HTP_EXIT_OK;
}

/* The user's OMP_NUM_THREADS, which per-region control keeps (nthreads-var):
 * a comma list of positive integers (OpenMP 5.2 section 21.1.3), else
 * refused -- libomp aborts on it, libgomp ignores it. */
static int user_threads_ok(void)
{
  const char *v = getenv("OMP_NUM_THREADS"), *p, *end;
  char shown[4 * OMP_EXT_QUOTE_MAX + 32];
  unsigned long long n;
  if (!v)
    return HTP_EXIT_OK; /* (set but empty or blank: refused, libomp aborts on it) */
  for (p = v;; p = end + 1) {
    while (isspace((unsigned char)*p))
      p++;
    if (omp_ext_scan_uint(p, &end, 1ULL << 20, &n) != OMP_EXT_UINT_OK || n == 0)
      end = p = NULL;
    while (end && isspace((unsigned char)*end))
      end++;
    if (!end || (*end != ',' && *end))
      return htp_error(HTP_EXIT_USAGE, "OMP_NUM_THREADS '%s': a positive integer, or a comma list "
                       "of them, is expected", omp_ext_quote(v, shown, sizeof(shown)));
    if (!*end)
      return HTP_EXIT_OK;
  }
}

/* exec auto[:time|:energy][:threads] [--learn DIR] [--team-sizes] -- PROGRAM:
 * libomp_ext preloaded with OMP_EXT_HT_POLICY=auto... (each region's
 * places, and with :threads its team size, learnt as the program runs;
 * with --learn kept across runs in DIR); the process kept in the rank's
 * domain. */
static int is_auto_word(const char *w)
{
  return strncmp(w, "auto", 4) == 0 && (w[4] == '\0' || w[4] == ':');
}

static int exec_auto(struct htp_ctx *ctx, const char *word, const char *extra, const char *learn,
                     int team_free, char **argv)
{
  char value[64], *dir = NULL;
  int status, energy, threads;
  if (omp_ext_auto_value(word, &energy, &threads) != 1 || strlen(word) > 40)
    return htp_error(HTP_EXIT_USAGE, "unknown option in '%s'; allowed: %s", word,
                     OMP_EXT_AUTO_FORMS);
  if (extra)
    return htp_error(HTP_EXIT_USAGE, "auto takes no N ('%s'): it keeps each region's team "
                     "(OpenMP's rules; auto:threads lets it choose smaller ones); usage: htplaces "
                     "exec auto[:time|:energy][:threads] [--learn DIR] -- PROGRAM [ARGS]", extra);
  snprintf(value, sizeof(value), "%s%s", word, team_free && !threads ? ":threads" : "");
  if (learn && (status = learn_dir(learn, &dir)) != 0)
    return status;
  if (!htp_topo(ctx, &status)) /* (the rank's domain) */
    return free(dir), status;
  htp_rank_warn(ctx);
  if ((status = bind_domain(ctx, ctx->restrict_list != NULL)) != 0)
    return free(dir), status;
  if (dir && !threads && !team_free && (status = htp_exec_learnt(ctx, dir, value, argv)) != 0)
    return free(dir), status; /* (returns only when it does not run the program) */
  if (dir && setenv("OMP_EXT_LEARN", dir, 1) != 0)
    status = htp_error(HTP_EXIT_FAIL, "cannot set the environment");
  free(dir);
  if (status)
    return status;
  htp_program_env(ctx);
  return htp_exec_preloaded(ctx, "OMP_EXT_HT_POLICY", value, argv);
}

#define OPT_PLAN 256
#define OPT_LEARN 257
#define OPT_THREADS 258

/* The options of htplaces exec (main.c's table: htplaces list options). */
const struct option htp_exec_longopts[] = {HTP_COMMON_LONGOPTS,
                                           {"plan", required_argument, NULL, OPT_PLAN},
                                           {"learn", required_argument, NULL, OPT_LEARN},
                                           {"team-sizes", no_argument, NULL, OPT_THREADS}, {0}};

int htp_cmd_exec(struct htp_ctx *ctx, int argc, char **argv)
{
  struct htp_policy policy = {0};
  omp_ext_pu_t *order;
  const char *plan = NULL, *learn = NULL;
  unsigned n;
  int c, status, sep, team_free = 0, auto_at = -1;

  optind = 0;
  for (;;) {
    if ((c = getopt_long(argc, argv, "+:" HTP_COMMON_SHORTOPTS, htp_exec_longopts, NULL)) == -1) {
      /* (exec auto --learn DIR: options after the auto word too) */
      if (auto_at < 0 && optind < argc && is_auto_word(argv[optind]) &&
          (optind < 2 || strcmp(argv[optind - 1], "--") != 0)) {
        auto_at = optind++;
        continue;
      }
      break;
    }
    if ((c == OPT_PLAN || c == OPT_LEARN) && strcmp(optarg, "--") == 0)
      return htp_error(HTP_EXIT_USAGE, "option '--%s' needs a value before '--' (%s)",
                       c == OPT_PLAN ? "plan" : "learn",
                       c == OPT_PLAN ? "DIR|FILE" : "DIR, made if its parent exists");
    if ((c == OPT_PLAN && plan) || (c == OPT_LEARN && learn))
      return htp_error(HTP_EXIT_USAGE, "--%s given twice ('%s', '%s'): give one",
                       c == OPT_PLAN ? "plan" : "learn", c == OPT_PLAN ? plan : learn, optarg);
    if (c == OPT_PLAN)
      plan = optarg;
    else if (c == OPT_LEARN)
      learn = optarg;
    else if (c == OPT_THREADS)
      team_free = 1;
    else
      htp_common_option(ctx, c, optarg, optopt, argv);
  }
  if ((status = htp_no_format(ctx, "exec")) != 0 || (status = check_env()) != 0)
    return status;
  if ((status = htp_this_machine("exec")) != 0)
    return status;
  if (ctx->input)
    return htp_error(HTP_EXIT_USAGE, "exec runs the program on this machine: -i does not apply "
                     "(use 'htplaces -i X POLICY' to see another machine's places)");
  if (optind > 1 && strcmp(argv[optind - 1], "--") == 0)
    sep = --optind; /* getopt took the "--": no POLICY before it */
  else
    for (sep = optind; sep < argc && strcmp(argv[sep], "--") != 0; sep++)
      ;
  if (sep + 1 >= argc)
    return htp_error(HTP_EXIT_USAGE, "missing '-- PROGRAM'; usage: htplaces exec POLICY [N] -- "
                     "PROGRAM [ARGS], htplaces exec --plan DIR|FILE -- PROGRAM [ARGS], or "
                     "htplaces exec auto [--learn DIR] -- PROGRAM [ARGS]");
  if (plan && (sep > optind || auto_at >= 0))
    return htp_error(HTP_EXIT_USAGE, "--plan takes no POLICY or N ('%s'); usage: htplaces exec "
                     "--plan DIR|FILE -- PROGRAM [ARGS]", argv[auto_at >= 0 ? auto_at : optind]);
  if (learn && auto_at < 0)
    return htp_error(HTP_EXIT_USAGE, "--learn applies to auto only: htplaces exec auto --learn "
                     "DIR -- PROGRAM (to apply what it learnt: --plan DIR/PROGRAM.plan)");
  if (team_free && auto_at < 0 && !plan)
    return htp_error(HTP_EXIT_USAGE, "--team-sizes applies to auto and --plan only (per region); "
                     "a policy's N is its team: htplaces exec POLICY N");
  for (c = optind; c < sep; c++) { /* (a policy's words: per-region options after them) */
    const char *w = argv[c];
    if (strcmp(w, "--plan") == 0 || strncmp(w, "--plan=", 7) == 0)
      return htp_error(HTP_EXIT_USAGE, "--plan takes no POLICY or N ('%s'); usage: htplaces "
                       "exec --plan DIR|FILE -- PROGRAM [ARGS]", argv[optind]);
    if (strcmp(w, "--learn") == 0 || strncmp(w, "--learn=", 8) == 0 ||
        strcmp(w, "--team-sizes") == 0)
      return htp_error(HTP_EXIT_USAGE, "%s applies to per-region control, not to a policy "
                       "('%s'): htplaces exec auto %s -- PROGRAM", w[2] == 'l' ? "--learn" : w,
                       argv[optind], w[2] == 'l' ? "--learn DIR" : "--team-sizes (or --plan "
                       "DIR|FILE --team-sizes)");
  }
  if ((plan || auto_at >= 0) && (status = user_threads_ok()) != HTP_EXIT_OK)
    return status;
  if (plan)
    return htp_exec_plan(ctx, plan, team_free, argv + sep + 1);
  if (auto_at >= 0)
    return exec_auto(ctx, argv[auto_at], sep > optind ? argv[optind] : NULL, learn, team_free,
                     argv + sep + 1);
  if (sep == optind)
    return htp_error(HTP_EXIT_USAGE, "missing POLICY; allowed: %s, auto[:time|:energy][:threads] "
                     "(or exec --plan DIR|FILE)", htp_policy_names(0));
  if (sep > optind && htp_policy_name(argv[optind], &policy) != omp_ext_success)
    return htp_error(HTP_EXIT_USAGE, "unknown policy '%s'; allowed: %s, auto[:time|:energy]"
                     "[:threads] (or exec --plan DIR|FILE)", argv[optind], htp_policy_names(0));
  if ((status = htp_policy_parse(sep - optind, argv + optind, &policy)) != 0 ||
      (status = htp_policy_order(ctx, &policy, &order)) != 0)
    return status;
  n = policy.n;
  htp_rank_warn(ctx);
  status = set_env(order, n);
  free(order);
  if (!status)
    status = bind_domain(ctx, 0);
  if (status)
    return status;
  fflush(stdout);
  htp_program_env(ctx);
  execvp(argv[sep + 1], argv + sep + 1);
  return htp_error(errno == ENOENT ? 127 : 126, "cannot run '%s': %s", argv[sep + 1],
                   strerror(errno));
}
