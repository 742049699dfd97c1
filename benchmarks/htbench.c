/*
 * htbench: OpenMP kernels timed per region under every placement policy
 * and thread count (issue 5).  Options: see usage() and benchmarks/README.md and htbench.1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "htbench.h"
#include "omp_ext.h"

/* Defaults: --quick is the CI/smoke size (well under 2 minutes on 2 cores);
 * the full sweep is sized for about 5 minutes on 16 cores (see benchmarks/RESULTS.md). */
static const struct htb_sizes quick_sizes = {NULL, 2, 42, 1000000, 1000000, 1000000, 10, 0.001, NULL,
                                             100000, 100, 16, 10, 0};
static const struct htb_sizes full_sizes = {NULL, 8, 42, 10000000, 4000000, 10000000, 10, 0.001, NULL,
                                            1000000, 100, 16, 10, 0};
#define FULL_BUDGET_S 330 /* default --budget of the full sweep */

enum {
  O_QUICK = 256, O_PLOT, O_CORPUS, O_SEED, O_SIEVE, O_FLOPS, O_TRIAD, O_TARGET, O_BUDGET,
  O_NOPLOT, O_WORKER, O_KERNEL, O_EXPECT, O_VERSION, O_LIST, O_WCEXPECT, O_PATH, O_INCODE,
  O_SPLITN, O_SPLITLEN, O_SPLITCHUNK, O_SPLITTAIL, O_SPLITPAIR, O_OVERSUB,
};

/* The OpenMP runtime pins the initial thread from these at load (libgomp:
 * before main), so a parent started with them would see only their first
 * place as its allowed PUs; the workers get them set or unset each. */
static const char *const pinning_vars[] = {"OMP_PLACES", "OMP_PROC_BIND", "GOMP_CPU_AFFINITY",
                                           "KMP_AFFINITY"};

/* The process's mask before any library's initialiser ran: the executable's
 * .preinit_array runs before the shared libraries' constructors (libgomp's
 * initialize_env) and before the init_array of a static one. */
#define START_MASK_CPUS 8192
static union {
  cpu_set_t set;
  unsigned long words[START_MASK_CPUS / (8 * sizeof(unsigned long))];
} start_mask;
static int start_mask_ok;

static void save_start_mask(int argc, char **argv, char **envp)
{
  (void)argc;
  (void)argv;
  (void)envp;
  start_mask_ok = sched_getaffinity(0, sizeof(start_mask), &start_mask.set) == 0;
}
__attribute__((section(".preinit_array"), used)) static void (*const preinit_save_mask)(
    int, char **, char **) = save_start_mask;

/* Parent only: with a pinning variable in the environment, run again
 * without them (/proc/self/exe, same arguments) from the mask the process
 * started with, so the sweep sees every allowed PU.  Returns only when
 * none is set, or with the error status. */
static int start_unpinned(char **argv)
{
  size_t i;
  int found = 0;
  for (i = 0; i < sizeof(pinning_vars) / sizeof(pinning_vars[0]); i++)
    if (getenv(pinning_vars[i])) {
      unsetenv(pinning_vars[i]);
      found = 1;
    }
  if (!found)
    return HTB_EXIT_OK;
  if (!start_mask_ok || sched_setaffinity(0, sizeof(start_mask), &start_mask.set) != 0)
    return htb_error(HTB_EXIT_FAIL, "cannot restore the starting CPU mask: %s", strerror(errno));
  execv("/proc/self/exe", argv);
  return htb_error(HTB_EXIT_FAIL, "cannot run again without OMP_PLACES and the like: %s",
                   strerror(errno));
}

static const struct option longopts[] = {
  {"quick", no_argument, NULL, O_QUICK},
  {"out", required_argument, NULL, 'o'},
  {"plot", required_argument, NULL, O_PLOT},
  {"kernels", required_argument, NULL, 'k'},
  {"policies", required_argument, NULL, 'p'},
  {"threads", required_argument, NULL, 't'},
  {"input", required_argument, NULL, 'i'},
  {"corpus-mb", required_argument, NULL, O_CORPUS},
  {"seed", required_argument, NULL, O_SEED},
  {"sieve-limit", required_argument, NULL, O_SIEVE},
  {"flops-iters", required_argument, NULL, O_FLOPS},
  {"triad-n", required_argument, NULL, O_TRIAD},
  {"split-n", required_argument, NULL, O_SPLITN},
  {"split-length", required_argument, NULL, O_SPLITLEN},
  {"split-chunk", required_argument, NULL, O_SPLITCHUNK},
  {"split-tail", required_argument, NULL, O_SPLITTAIL},
  {"split-pair", required_argument, NULL, O_SPLITPAIR},
  {"oversubscribe", required_argument, NULL, O_OVERSUB},
  {"reps", required_argument, NULL, 'r'},
  {"target-ms", required_argument, NULL, O_TARGET},
  {"budget", required_argument, NULL, O_BUDGET},
  {"no-plot", no_argument, NULL, O_NOPLOT},
  {"path", required_argument, NULL, O_PATH},
  {"list", no_argument, NULL, O_LIST},
  {"help", no_argument, NULL, 'h'},
  {"version", no_argument, NULL, O_VERSION},
  /* internal: one configuration in a fresh process */
  {"worker", no_argument, NULL, O_WORKER},
  {"kernel", required_argument, NULL, O_KERNEL},
  {"expect", required_argument, NULL, O_EXPECT},
  {"wc-expect", required_argument, NULL, O_WCEXPECT},
  {"incode", required_argument, NULL, O_INCODE},
  {0, 0, 0, 0},
};

static void usage(FILE *out)
{
  fputs("Usage: htbench [OPTION]... --out DIR     run the sweep, write DIR/results.{csv,json},\n"
        "                                         DIR/tables.txt and DIR/plots/\n"
        "       htbench --plot DIR                remake the plots from DIR/results.csv\n"
        "Every configuration (kernel x policy x N) runs in a fresh process with OMP_PLACES\n"
        "(from omp_ext), OMP_PROC_BIND=close and OMP_NUM_THREADS=N; each thread's binding\n"
        "is checked inside the region and every kernel verifies its result.\n\n"
        "  -o, --out DIR          output directory (created if missing)\n"
        "      --quick            short sweep with small inputs (CI; < 2 min on 2 cores)\n"
        "  -k, --kernels LIST     comma list of kernels (default: all; see --list)\n"
        "  -p, --policies LIST    comma list of policies (default: none and all of omp_ext's)\n"
        "  -t, --threads LIST     thread counts: \"1,2,8\" or \"1-4\" (default: 1..allowed PUs)\n"
        "  -i, --input FILE       word count input text (default: generated corpus)\n"
        "      --corpus-mb MB     generated corpus size (full 8, quick 2)\n"
        "      --seed N           corpus seed (default 42)\n"
        "      --sieve-limit N    sieve: primes up to N (full 1e7, quick 1e6)\n"
        "      --flops-iters N    add/mul/div: dependent operations per region\n"
        "                         (full 4e6, quick 1e6)\n"
        "      --triad-n N        triad: elements per array (full 1e7, quick 1e6)\n"
        "      --split-n N        split-*: iterations of the loop (full 1e6, quick 1e5)\n"
        "      --split-length L   split-*: dependent additions per iteration (100)\n"
        "      --split-chunk C    split-dynamic: schedule(dynamic, C); split-tail: the\n"
        "                         tail's chunk; split-steal: the chunk (16)\n"
        "      --split-tail PCT   split-tail: percent of the loop in the dynamic tail,\n"
        "                         0-100 (10)\n"
        "      --split-pair MS    split-* but serial: time the serial loop next to each\n"
        "                         repetition, after MS ms of rest (the runtime's spin-wait:\n"
        "                         libomp 200 ms), for a paired /balanced (0: off; default)\n"
        "      --oversubscribe K  N + K threads on each configuration's N places\n"
        "                         (threads time-share PUs; env path only; default 0)\n"
        "  -r, --reps N           outer repetitions, >= 10 (default 10)\n"
        "      --target-ms MS     inner repetitions calibrated to MS per outer rep\n"
        "                         (default 1, EPCC's default test time)\n"
        "      --budget SECONDS   start no configuration after SECONDS (they are listed\n"
        "                         as skipped); full default 330, 0 = none\n"
        "      --path WHICH       env (default): OMP_PLACES + OMP_PROC_BIND=close;\n"
        "                         incode: omp_set_ht_policy_num_threads() in the worker\n"
        "                         (htbench-incode, next to htbench; series POLICY@incode);\n"
        "                         both: each configuration both ways\n"
        "      --no-plot          do not run gnuplot\n"
        "      --list             list kernels and policies\n"
        "  -h, --help             this help;   --version   version\n",
        out);
}

static int parse_u64(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *v)
{
  char *end;
  double d;
  errno = 0;
  d = strtod(text, &end); /* accepts 2e7 */
  if (errno || end == text || *end || d < (double)min || d > (double)max || d != floor(d) ||
      strchr(text, '-'))
    return htb_error(HTB_EXIT_USAGE, "%s: '%s' is not a whole number in %llu..%llu", opt, text,
                     (unsigned long long)min, (unsigned long long)max);
  *v = (uint64_t)d;
  return 0;
}

static int parse_pos(const char *opt, const char *text, double min, double max, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(text, &end);
  if (errno || end == text || *end || !(*v >= min && *v <= max))
    return htb_error(HTB_EXIT_USAGE, "%s: '%s' is not a number in %g..%g", opt, text, min, max);
  return 0;
}

static int parse_path(const char *text, unsigned *paths)
{
  if (!strcmp(text, "env"))
    *paths = HTB_PATH_ENV;
  else if (!strcmp(text, "incode"))
    *paths = HTB_PATH_INCODE;
  else if (!strcmp(text, "both"))
    *paths = HTB_PATH_ENV | HTB_PATH_INCODE;
  else
    return htb_error(HTB_EXIT_USAGE, "--path: '%s' is not a path (allowed: env, incode, both)",
                     text);
  return 0;
}

#if HTB_INCODE
/* htbench-incode: the in-code API, linked in (libomp_ext before the
 * OpenMP runtime: see benchmarks/CMakeLists.txt). */
static const struct htb_incode_api incode_api = {omp_set_ht_policy_num_threads, omp_ext_ht_hooks};
#define INCODE_API (&incode_api)
#else
#define HTB_INCODE 0
#define INCODE_API NULL
#endif

static void list_all(void)
{
  unsigned i;
  printf("kernels:\n");
  for (i = 0; htb_kernels[i]; i++)
    printf("  %-10s %s\n", htb_kernels[i]->name, htb_kernels[i]->description);
  printf("policies:\n");
  printf("  %-10s %s\n", "none", "unbound: no OMP_PLACES, OMP_PROC_BIND=false (in code: "
         "omp_set_ht_policy(os)); the baseline");
  for (i = 0; i < OMP_EXT_NPOLICIES; i++)
    printf("  %-10s %s\n", omp_ext_policy_name((omp_ht_policy_t)i),
           i == omp_ht_policy_os ? "ascending OS index, bound as the others (no in-code series: "
                                   "in code, os unbinds)"
                                 : omp_ext_policy_description((omp_ht_policy_t)i));
}

/* The sizes of the run: --quick's or the full ones, those given explicitly
 * in \p set (0 / NAN / UINT64_MAX where not given) instead; the full
 * run's budget unless --budget.  0, or the usage error of --input. */
static int apply_sizes(struct htb_options *opt, const struct htb_sizes *set, int budget_set)
{
  opt->sizes = opt->quick ? quick_sizes : full_sizes;
  opt->sizes.input = set->input;
  opt->sizes.wc_expect = set->wc_expect;
  if (!opt->quick && !budget_set)
    opt->budget_s = FULL_BUDGET_S;
  if (!isnan(set->corpus_mb))
    opt->sizes.corpus_mb = set->corpus_mb;
  if (set->seed != UINT64_MAX)
    opt->sizes.seed = set->seed;
  if (set->sieve_limit)
    opt->sizes.sieve_limit = set->sieve_limit;
  if (set->flops_iters)
    opt->sizes.flops_iters = set->flops_iters;
  if (set->triad_n)
    opt->sizes.triad_n = set->triad_n;
  if (set->split_n)
    opt->sizes.split_n = set->split_n;
  if (set->split_len)
    opt->sizes.split_len = set->split_len;
  if (set->split_chunk)
    opt->sizes.split_chunk = set->split_chunk;
  if (set->split_tail != UINT64_MAX)
    opt->sizes.split_tail = set->split_tail;
  if (set->split_pair_ms != UINT64_MAX)
    opt->sizes.split_pair_ms = set->split_pair_ms;
  if (set->outer_reps)
    opt->sizes.outer_reps = set->outer_reps;
  if (!isnan(set->target_s))
    opt->sizes.target_s = set->target_s;
  if (set->input) {
    struct stat st;
    if (access(set->input, R_OK) != 0 || stat(set->input, &st) != 0)
      return htb_error(HTB_EXIT_USAGE, "--input: cannot read '%s': %s", set->input, strerror(errno));
    if (!S_ISREG(st.st_mode))
      return htb_error(HTB_EXIT_USAGE, "--input: '%s' is not a regular file", set->input);
  }
  return 0;
}

/* htbench --plot DIR (the plots again), or the sweep into --out DIR. */
static int plot_or_sweep(struct htb_options *opt)
{
  char self[PATH_MAX], incode_bin[PATH_MAX + 32];
  ssize_t n;
  int rc;

  if (opt->plot_only) {
    struct htb_result *r;
    unsigned count;
    char path[PATH_MAX], err[512];
    if (opt->out)
      return htb_error(HTB_EXIT_USAGE, "--plot DIR and --out DIR cannot be combined");
    snprintf(path, sizeof(path), "%s/results.csv", opt->plot_only);
    if (htb_read_csv(path, &r, &count, err, sizeof(err)) < 0)
      return htb_error(HTB_EXIT_FAIL, "%s", err);
    rc = htb_plot(opt->plot_only, r, count);
    free(r);
    if (rc == 3)
      return htb_error(HTB_EXIT_FAIL, "gnuplot not found in PATH (apt-get install gnuplot-nox)");
    return rc;
  }
  if (!opt->out)
    return htb_error(HTB_EXIT_USAGE, "--out DIR is required (or --plot DIR; see htbench --help)");
  if ((rc = htb_this_machine()) != 0)
    return rc;
  n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0)
    return htb_error(HTB_EXIT_FAIL, "cannot find my own executable: %s", strerror(errno));
  self[n] = '\0';
  if (opt->paths & HTB_PATH_INCODE) { /* htbench-incode, next to this htbench */
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s", self);
    snprintf(incode_bin, sizeof(incode_bin), "%s/htbench-incode", dirname(dir));
    if (access(incode_bin, X_OK) != 0)
      return htb_error(HTB_EXIT_USAGE, "--path: %s not found (the in-code worker is installed "
                                       "next to htbench)", incode_bin);
    opt->incode_bin = incode_bin;
  }
  return htb_sweep(opt, self);
}

int main(int argc, char **argv)
{
  struct htb_options opt;
  struct htb_sizes set; /* explicitly given sizes; 0 / NAN = default */
  const char *kernel = NULL, *expect = NULL, *incode = NULL;
  uint64_t v;
  double d;
  int c, worker = 0, rc, budget_set = 0;

  memset(&opt, 0, sizeof(opt));
  memset(&set, 0, sizeof(set));
  set.corpus_mb = set.target_s = NAN;
  set.seed = UINT64_MAX;
  set.split_tail = UINT64_MAX; /* 0 is a value: no tail */
  set.split_pair_ms = UINT64_MAX;
  opt.paths = HTB_PATH_ENV;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":o:k:p:t:i:r:h", longopts, NULL)) != -1) {
    rc = 0;
    switch (c) {
    case O_QUICK: opt.quick = 1; break;
    case 'o': opt.out = optarg; break;
    case O_PLOT: opt.plot_only = optarg; break;
    case 'k': opt.kernels = optarg; break;
    case 'p': opt.policies = optarg; break;
    case 't': opt.threads = optarg; break;
    case 'i': set.input = optarg; break;
    case O_CORPUS: rc = parse_pos("--corpus-mb", optarg, 0.001, 100000, &set.corpus_mb); break;
    case O_SEED: rc = parse_u64("--seed", optarg, 0, 1ULL << 53, &set.seed); break;
    case O_SIEVE: rc = parse_u64("--sieve-limit", optarg, 3, 1ULL << 36, &set.sieve_limit); break;
    case O_FLOPS: rc = parse_u64("--flops-iters", optarg, 512, 1ULL << 40, &set.flops_iters); break;
    case O_TRIAD: rc = parse_u64("--triad-n", optarg, 1, 1ULL << 34, &set.triad_n); break;
    case O_SPLITN: rc = parse_u64("--split-n", optarg, 1, 1ULL << 32, &set.split_n); break;
    case O_SPLITLEN: rc = parse_u64("--split-length", optarg, 1, 1ULL << 32, &set.split_len); break;
    case O_SPLITCHUNK:
      rc = parse_u64("--split-chunk", optarg, 1, 1ULL << 30, &set.split_chunk);
      break;
    case O_SPLITTAIL: rc = parse_u64("--split-tail", optarg, 0, 100, &set.split_tail); break;
    case O_SPLITPAIR: rc = parse_u64("--split-pair", optarg, 0, 10000, &set.split_pair_ms); break;
    case O_OVERSUB:
      rc = parse_u64("--oversubscribe", optarg, 0, 1024, &v);
      opt.oversub = (unsigned)v;
      break;
    case 'r':
      rc = parse_u64("--reps", optarg, 10, 100000, &v);
      set.outer_reps = (unsigned)v;
      break;
    case O_TARGET:
      rc = parse_pos("--target-ms", optarg, 0.001, 60000, &d);
      set.target_s = d / 1e3;
      break;
    case O_BUDGET:
      rc = parse_pos("--budget", optarg, 0, 1e7, &opt.budget_s);
      budget_set = 1;
      break;
    case O_NOPLOT: opt.no_plot = 1; break;
    case O_PATH: rc = parse_path(optarg, &opt.paths); break;
    case O_INCODE: incode = optarg; break;
    case O_WORKER: worker = 1; break;
    case O_KERNEL: kernel = optarg; break;
    case O_EXPECT: expect = optarg; break;
    case O_WCEXPECT: set.wc_expect = optarg; break;
    case O_LIST: list_all(); return htb_stdout_done();
    case O_VERSION: {
      char line[256];
      omp_ext_version_line("htbench (omp_ext)", line, sizeof(line));
      printf("%s\n", line);
      return htb_stdout_done();
    }
    case 'h':
      usage(stdout);
      return htb_stdout_done();
    case ':':
      return htb_error(HTB_EXIT_USAGE, "option '%s' needs a value (see htbench --help)",
                       argv[optind - 1]);
    default:
      return htb_error(HTB_EXIT_USAGE, "unknown option '%s' (see htbench --help)",
                       argv[optind - 1]);
    }
    if (rc)
      return rc;
  }
  if (optind < argc)
    return htb_error(HTB_EXIT_USAGE, "unexpected argument '%s' (see htbench --help)", argv[optind]);
  if (!worker && (rc = start_unpinned(argv)) != 0)
    return rc;
  if ((rc = htb_check_model_env()) != 0)
    return rc;

  if ((rc = apply_sizes(&opt, &set, budget_set)) != 0)
    return rc;

  if (worker) {
    uint64_t nt = 0;
    if (opt.threads && (rc = parse_u64("--threads", opt.threads, 1, 1u << 16, &nt)))
      return rc;
    return htb_worker(kernel, (unsigned)nt, expect, &opt.sizes, incode, INCODE_API);
  }
  if (kernel || expect || set.wc_expect || incode)
    return htb_error(HTB_EXIT_USAGE,
                     "--kernel, --expect, --wc-expect and --incode are for --worker; use --kernels");
  if (opt.oversub && (opt.paths & HTB_PATH_INCODE))
    return htb_error(HTB_EXIT_USAGE, "--oversubscribe works on the env path only (the in-code "
                                     "path places one thread per PU)");
  if (HTB_INCODE)
    return htb_error(HTB_EXIT_USAGE, "htbench-incode is htbench's in-code worker; run "
                                     "'htbench --path incode' (or both)");
  return plot_or_sweep(&opt);
}
