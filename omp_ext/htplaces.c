/*
 * htplaces: print SMT-aware OpenMP place lists.
 *
 *   htplaces [options] POLICY [N]       the place list (OMP_PLACES by default)
 *   htplaces [options] show POLICY [N]  a picture of the machine with the order
 *   htplaces [options] topo             a summary of the topology
 *   htplaces list                       the policies
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "htplaces.h"

/* hwloc's I/O discovery plugins (hwloc 2.x names). */
#define HTP_IO_PLUGINS "hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero"

static const struct htp_command commands[] = {
  {"show", "show [options] POLICY [N]", "picture of packages, cores and PUs with thread numbers",
   htp_cmd_show},
  {"topo", "topo [options]", "summary: packages, NUMA nodes, cores, SMT, sibling numbering",
   htp_cmd_topo},
  {"list", "list", "the policies, one line each", htp_cmd_list},
  {"exec", "exec POLICY [N] -- PROG ...", "run PROG with OMP_PLACES, OMP_PROC_BIND=close, "
   "OMP_NUM_THREADS set (per MPI rank)", htp_cmd_exec},
  {"model", "model [options] [POLICY...]",
   "modelled power, speed-up, SPN, energy per N (paper §2)", htp_cmd_model},
  {"calibrate", "calibrate [opts] [POLICY...]", "fit the power model from RAPL energy counters",
   htp_cmd_calibrate},
  {"check", "check [--expand] [PLACES]",
   "parse and check an OMP_PLACES value (--as gomp|kmp: GOMP_CPU_AFFINITY, KMP proclist)",
   htp_cmd_check},
  {"doctor", "doctor [POLICY [N]]",
   "what limits parallel execution here (--sysfs D, --cgroup D, --no-saturation)",
   htp_cmd_doctor},
  {"verify", "verify [POLICY [N]] -- PROG",
   "run an OpenMP program, compare each thread's affinity with its place", htp_cmd_verify},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
  unsigned i;
  fprintf(out,
          "Usage: htplaces [options] POLICY [N]\n"
          "       htplaces COMMAND [options] ...\n"
          "Print the first N PUs of a placement policy as an OpenMP place list:\n"
          "  OMP_PLACES=$(htplaces spn 8) OMP_PROC_BIND=close OMP_NUM_THREADS=8 ./app\n"
          "\nPolicies:\n");
  for (i = 0; i < OMP_EXT_NPOLICIES; i++)
    fprintf(out, "  %-9s %s\n", omp_ext_policy_name((omp_ht_policy_t)i),
            omp_ext_policy_description((omp_ht_policy_t)i));
  fprintf(out,
          "N defaults to all allowed PUs; for energy, to the modelled best N.\n"
          "\nOptions:\n"
          "  -i, --input X        topology from an hwloc XML file or synthetic string\n"
          "                       (e.g. \"pack:2 core:4 pu:2(indexes=core:pack)\")\n"
          "  -r, --restrict LIST  use only these PUs (OS indexes, e.g. 0-3,8)\n"
          "  -f, --format F       omp (OMP_PLACES, default), gomp (GOMP_CPU_AFFINITY),\n"
          "                       kmp (KMP_AFFINITY), list (taskset -c), json\n"
          "  -e, --export         print 'export OMP_PLACES=... OMP_PROC_BIND=close\n"
          "                       OMP_NUM_THREADS=N' for eval\n"
          "  --ranks-per-node K   MPI ranks on the node: use the PUs of rank R's share\n"
          "  --local-rank R       (K disjoint domains of whole cores); without these, R and\n"
          "                       K come from Open MPI, MPICH/Intel MPI, PMIx or srun\n"
          "  -h, --help           this help\n"
          "  -V, --version        the version\n"
          "\nCommands:\n");
  for (i = 0; i < NCOMMANDS; i++)
    fprintf(out, "  %-28s %s\n", commands[i].synopsis, commands[i].summary);
  fprintf(out,
          "\nmodel options: --serial-fraction s (default 0) | --speedup N:S (Karp-Flatt),\n"
          "  --sigma x (SMT sibling's worth, default 0.3), --power-model c6100|dl380p|Pn,Ps,Pc,Pt\n"
          "  (watts; default $OMP_EXT_POWER_MODEL or c6100), --format table|csv|json\n"
          "calibrate options: --powercap DIR (default /sys/class/powercap),\n"
          "  --perf-pmu DIR (default /sys/bus/event_source/devices/power), --seconds T (1)\n");
  fprintf(out, "\nExit status: 0 success, 1 failure (e.g. unreadable topology), 2 usage error.\n");
  fprintf(out, "check, doctor, verify: 1 when they find a problem; check: 2 when unparsable.\n");
}

int htp_error(int status, const char *fmt, ...)
{
  char msg[1024];
  size_t i;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  /* One line, whatever the user typed: control characters become '?'. */
  for (i = 0; msg[i]; i++)
    if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
      msg[i] = '?';
  fprintf(stderr, "htplaces: %s\n", msg);
  return status;
}

int htp_common_option(struct htp_ctx *ctx, int c, const char *optarg_, int optopt_,
                      char *const argv[])
{
  switch (c) {
  case 'i':
    if (ctx->input)
      exit(htp_error(HTP_EXIT_USAGE, "--input given twice; give one topology"));
    if (!*optarg_)
      exit(htp_error(HTP_EXIT_USAGE, "empty --input; give an hwloc XML file or synthetic "
                     "string, or leave -i out for this machine"));
    ctx->input = optarg_;
    return 1;
  case 'r':
    if (ctx->restrict_list)
      exit(htp_error(HTP_EXIT_USAGE, "--restrict given twice; give one list of PUs"));
    ctx->restrict_list = optarg_;
    return 1;
  case 'e': ctx->do_export = ctx->format_set = 1; return 1;
  case HTP_OPT_RANKS: ctx->ranks_opt = optarg_; return 1;
  case HTP_OPT_LOCAL_RANK: ctx->rank_opt = optarg_; return 1;
  case 'f':
    if (omp_ext_format_from_name(optarg_, &ctx->format) != 0)
      exit(htp_error(HTP_EXIT_USAGE, "unknown format '%s'; allowed: omp, gomp, kmp, list, json",
                     optarg_));
    ctx->format_set = 1;
    return 1;
  case 'h': usage(stdout); exit(HTP_EXIT_OK);
  case ':':
    exit(htp_error(HTP_EXIT_USAGE, "option '%s' needs a value; see htplaces --help",
                   argv[optind - 1]));
  case '?':
    if (optopt_ >= '0' && optopt_ <= '9')
      exit(htp_error(HTP_EXIT_USAGE, "N must be a positive whole number, got one with a minus "
                     "sign"));
    if (optopt_)
      exit(htp_error(HTP_EXIT_USAGE, "unknown option '-%c'; see htplaces --help", optopt_));
    exit(htp_error(HTP_EXIT_USAGE, "unknown option '%s'; see htplaces --help",
                   argv[optind - 1]));
  default: return 0;
  }
}

int htp_no_format(const struct htp_ctx *ctx, const char *command)
{
  if (ctx->format_set)
    return htp_error(HTP_EXIT_USAGE, "--format and --export apply to 'htplaces POLICY [N]', "
                     "not to '%s'", command);
  return HTP_EXIT_OK;
}

/* hwloc's list syntax, strictly: "N", "N-M" or "N-" items separated by
 * single commas. */
static int valid_list(const char *s)
{
  for (;;) {
    if (*s < '0' || *s > '9')
      return 0;
    s += strspn(s, "0123456789");
    if (*s == '-')
      s += 1 + strspn(s + 1, "0123456789");
    if (*s == '\0')
      return 1;
    if (*s++ != ',')
      return 0;
  }
}

static int apply_restrict(omp_ext_topo_t *topo, const char *list)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  char *allowed = NULL;
  int err;
  if (!set)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (!valid_list(list) || hwloc_bitmap_list_sscanf(set, list) < 0 || hwloc_bitmap_iszero(set)) {
    hwloc_bitmap_free(set);
    return htp_error(HTP_EXIT_USAGE, "invalid --restrict list '%s'; allowed: OS indexes and "
                     "ranges such as 0-3,8", list);
  }
  err = omp_ext_topo_restrict(topo, set);
  hwloc_bitmap_free(set);
  if (err == omp_ext_err_empty) {
    hwloc_bitmap_list_asprintf(&allowed, omp_ext_topo_allowed(topo));
    err = htp_error(HTP_EXIT_USAGE, "--restrict %s leaves no allowed PU; allowed PUs: %s", list,
                    allowed ? allowed : "?");
    free(allowed);
    return err;
  }
  if (err)
    return htp_error(HTP_EXIT_FAIL, "--restrict: %s", omp_ext_strerror(err));
  return HTP_EXIT_OK;
}

/* Why -i X could not be loaded, as precisely as the file system tells. */
static int topology_error(const char *input)
{
  struct stat st;
  if (stat(input, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': it is a directory; give an "
                       "hwloc XML file (lstopo --of xml) or a synthetic string", input);
    if (S_ISREG(st.st_mode))
      return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': not a valid hwloc XML file "
                       "(make one with lstopo --of xml)", input);
    return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': not a regular file; give an "
                     "hwloc XML file or a synthetic string", input);
  }
  if (strchr(input, '/') || strstr(input, ".xml"))
    return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': %s", input, strerror(errno));
  return htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': not an existing file nor a valid "
                   "hwloc synthetic string such as \"pack:2 core:4 pu:2\"", input);
}

int htp_this_machine(const char *command)
{
  static const char *const vars[] = {"HWLOC_FSROOT", "HWLOC_SYNTHETIC", "HWLOC_XMLFILE"};
  const char *this = getenv("HWLOC_THISSYSTEM");
  size_t i;
  if (this && strcmp(this, "1") == 0)
    return HTP_EXIT_OK;
  for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
    const char *v = getenv(vars[i]);
    if (v && *v)
      return htp_error(HTP_EXIT_USAGE, "%s acts on this machine, but %s is set (hwloc would "
                       "describe another machine); unset it, or use 'htplaces -i X POLICY' to "
                       "print another machine's places", command, vars[i]);
  }
  return HTP_EXIT_OK;
}

omp_ext_topo_t *htp_topo(struct htp_ctx *ctx, int *status)
{
  int err;
  if (ctx->topo)
    return ctx->topo;
  err = omp_ext_topo_load(&ctx->topo, ctx->input, 0);
  if (err == omp_ext_err_topology) {
    *status = topology_error(ctx->input);
    return NULL;
  }
  if (err) {
    *status = htp_error(HTP_EXIT_FAIL, "cannot load topology '%s': %s",
                        ctx->input ? ctx->input : "this machine", omp_ext_strerror(err));
    return NULL;
  }
  /* hwloc's environment replaced this machine: the printing commands say
   * whose places they print (the acting ones refused before, see
   * htp_this_machine()). */
  if (!ctx->input && !omp_ext_topo_is_thissystem(ctx->topo))
    fprintf(stderr, "htplaces: note: describing %s\n",
            omp_ext_topo_source(ctx->topo));
  if (ctx->restrict_list && (*status = apply_restrict(ctx->topo, ctx->restrict_list)) != 0) {
    omp_ext_topo_destroy(ctx->topo);
    ctx->topo = NULL;
    return NULL;
  }
  if ((*status = htp_apply_rank(ctx)) != 0) {
    omp_ext_topo_destroy(ctx->topo);
    ctx->topo = NULL;
    return NULL;
  }
  return ctx->topo;
}

const char *htp_policy_names(void)
{
  static char names[256];
  size_t len = 0;
  unsigned i;
  for (i = 0; i < OMP_EXT_NPOLICIES && len < sizeof(names); i++)
    len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
                            omp_ext_policy_name((omp_ht_policy_t)i));
  return names;
}

static const char *command_names(void)
{
  static char names[256];
  size_t len = 0;
  unsigned i;
  for (i = 0; i < NCOMMANDS && len < sizeof(names); i++)
    len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
                            commands[i].name);
  return names;
}

int htp_parse_policy(const char *text, omp_ht_policy_t *policy)
{
  if (omp_ext_policy_from_name(text, policy) == omp_ext_success)
    return HTP_EXIT_OK;
  return htp_error(HTP_EXIT_USAGE, "unknown policy '%s'; allowed: %s", text, htp_policy_names());
}

int htp_parse_count(const char *text, unsigned max, unsigned *n)
{
  char *end;
  unsigned long v;
  if (text[0] < '0' || text[0] > '9')
    return htp_error(HTP_EXIT_USAGE, "N must be a positive whole number, got '%s'; allowed: "
                     "1..%u", text, max);
  errno = 0;
  v = strtoul(text, &end, 10);
  if (*end || v == 0)
    return htp_error(HTP_EXIT_USAGE, "N must be a positive whole number, got '%s'; allowed: "
                     "1..%u", text, max);
  if (errno == ERANGE || v > max)
    return htp_error(HTP_EXIT_USAGE, "N=%s is larger than the %u allowed PUs; allowed: 1..%u",
                     text, max, max);
  *n = (unsigned)v;
  return HTP_EXIT_OK;
}

int htp_print(const char *text)
{
  if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout) == EOF)
    return htp_error(HTP_EXIT_FAIL, "cannot write to standard output");
  return HTP_EXIT_OK;
}

/* Turn POLICY [N] into the order; shared by the places and show commands. */
int htp_policy_order(struct htp_ctx *ctx, int argc, char **argv, omp_ht_policy_t *policy,
                     omp_ext_pu_t **order, unsigned *n)
{
  omp_ext_topo_t *topo;
  int status = HTP_EXIT_OK, err;
  if (argc < 1)
    return htp_error(HTP_EXIT_USAGE, "missing POLICY; allowed: %s", htp_policy_names());
  if (argc > 2)
    return htp_error(HTP_EXIT_USAGE, "unexpected argument '%s'; usage: POLICY [N]", argv[2]);
  if ((status = htp_parse_policy(argv[0], policy)) != 0)
    return status;
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  *n = omp_ext_topo_npus(topo);
  /* energy: N defaults to the modelled best; a bad model is a usage error. */
  if (*policy == omp_ht_policy_energy && (status = htp_energy_count(topo, n)) != 0)
    return status;
  if (argc == 2 && (status = htp_parse_count(argv[1], omp_ext_topo_npus(topo), n)) != 0)
    return status;
  if (!(*order = malloc(*n * sizeof(**order))))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if ((err = omp_ext_order(topo, *policy, *n, *order)) != 0) {
    free(*order);
    return htp_error(HTP_EXIT_FAIL, "%s", omp_ext_strerror(err));
  }
  return HTP_EXIT_OK;
}

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

static const struct htp_command *find_command(const char *name)
{
  unsigned i;
  for (i = 0; i < NCOMMANDS; i++)
    if (strcmp(name, commands[i].name) == 0)
      return &commands[i];
  return NULL;
}

int main(int argc, char **argv)
{
  static const struct option longopts[] = {
    HTP_COMMON_LONGOPTS, {"version", no_argument, NULL, 'V'}, {0}};
  struct htp_ctx ctx = {.format = omp_ext_format_omp};
  const struct htp_command *cmd;
  omp_ht_policy_t policy;
  int c, status;

  /* omp_ext keeps no I/O objects, so hwloc's I/O discovery plugins are
   * never useful here: not loading them saves about a fifth of a call.
   * A user's own setting wins. */
  setenv("HWLOC_PLUGINS_BLACKLIST", HTP_IO_PLUGINS, 0);

  /* Global options before the command; the rest is the command's. */
  optind = 0;
  while ((c = getopt_long(argc, argv, "+:" HTP_COMMON_SHORTOPTS "V", longopts, NULL)) != -1) {
    if (htp_common_option(&ctx, c, optarg, optopt, argv))
      continue;
    if (c == 'V') {
      printf("htplaces %s (hwloc %s)\n", OMP_EXT_VERSION, HWLOC_VERSION);
      return HTP_EXIT_OK;
    }
  }
  if (optind >= argc)
    return htp_error(HTP_EXIT_USAGE, "missing POLICY or command; policies: %s; commands: %s "
                     "(see htplaces --help)", htp_policy_names(), command_names());
  argv += optind - 1;
  argc -= optind - 1;
  argv[0] = "htplaces";
  if ((cmd = find_command(argv[1])) != NULL)
    status = cmd->run(&ctx, argc - 1, argv + 1);
  else if (omp_ext_policy_from_name(argv[1], &policy) == omp_ext_success)
    status = htp_cmd_places(&ctx, argc, argv);
  else
    status = htp_error(HTP_EXIT_USAGE, "unknown policy or command '%s'; policies: %s; "
                       "commands: %s (see htplaces --help)", argv[1], htp_policy_names(),
                       command_names());
  omp_ext_topo_destroy(ctx.topo);
  return status;
}
