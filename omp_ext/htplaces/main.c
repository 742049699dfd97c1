/*
 * htplaces: print SMT-aware OpenMP place lists.
 *
 *   htplaces [options] POLICY [N]       the place list (OMP_PLACES by default)
 *   htplaces [options] show POLICY [N]  a picture of the machine with the order
 *   htplaces [options] topo             a summary of the topology
 *   htplaces list                       the policies
 *
 *   htplaces help [COMMAND]             the usage, or a command's (as COMMAND --help)
 *
 * main.c holds the subcommand table, the usage texts and main(); the
 * subcommands (one file each) and common.c are the static library
 * htplaces_cli, which tests and fuzzers link without this file.
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
#define HTP_IO_PLUGINS "hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_cuda,hwloc_nvml,hwloc_rsmi," \
                       "hwloc_levelzero,hwloc_xml_libxml"

/* The common options, as each subcommand's help lists them: the topology
 * ones (HTP_HELP_TOPO), or without -i for the commands that act on this
 * machine (HTP_HELP_HERE). */
#define HTP_HELP_RANKS                                                              \
  "  -r, --restrict LIST  use only these PUs (OS indexes, e.g. 0-3,8)\n"            \
  "  --ranks-per-node K   MPI ranks on the node, with --local-rank R: the rank's\n" \
  "  --local-rank R       share of whole cores (default: from the MPI launcher)\n"  \
  "  -h, --help           this help\n"
#define HTP_HELP_TOPO                                                               \
  "  -i, --input X        topology from an hwloc XML file or synthetic string\n"    \
  HTP_HELP_RANKS
#define HTP_HELP_HERE HTP_HELP_RANKS "  (no -i: the program runs on this machine)\n"

/* The subcommands: name, synopsis, summary (htplaces --help) and options
 * (htplaces COMMAND --help, htplaces help COMMAND).  A new option of a
 * subcommand is one line of its options here. */
static const struct htp_command commands[] = {
  {"show", "show [options] POLICY [N]", "picture of packages, cores and PUs with thread numbers",
   htp_cmd_show, HTP_HELP_TOPO, htp_show_longopts},
  {"topo", "topo [options]", "summary: packages, NUMA nodes, cores, SMT, sibling numbering",
   htp_cmd_topo, HTP_HELP_TOPO, htp_topo_longopts},
  {"list", "list [WHAT [NAME]]", "the policies, one line each; or the names of WHAT",
   htp_cmd_list,
   "  WHAT                 policies (default; with their descriptions), commands,\n"
   "                       runtimes, objectives, options [COMMAND|POLICY] (its\n"
   "                       options; none: those before a command), value-options\n"
   "                       (the options that take a value) or formats (of POLICY\n"
   "                       [N]): one name a line, from the tables (for scripts,\n"
   "                       such as the bash completion)\n"
   "  -h, --help           this help\n", NULL},
  {"exec", "exec POLICY [N] -- PROG ...  |  exec --plan DIR|FILE [--team-sizes] -- PROG ...  |  "
   "exec auto[:time|:energy][:threads] [--learn DIR] -- PROG ...",
   "run PROG with OMP_PLACES, OMP_PROC_BIND=close, OMP_NUM_THREADS set (per MPI rank), "
   "or each parallel region with its own placement from tune's results, or learnt as it "
   "runs (auto); team sizes kept as OpenMP defines them", htp_cmd_exec,
   "  --plan DIR|FILE      htplaces tune --out DIR's results.json (each region's\n"
   "                       fastest measured configuration of its team, else the\n"
   "                       recommendation's), or a plan file such as auto's learnt\n"
   "                       state; checked whole first (refused for another machine)\n"
   "  --learn DIR          auto: keep what it learnt across runs in DIR/PROG.plan\n"
   "  --team-sizes         auto, --plan: team sizes may change too, below\n"
   "                       nthreads-var (programs correct under OMP_DYNAMIC=true)\n"
   HTP_HELP_HERE "  Options stop at the first non-option argument (but the word auto).\n",
   htp_exec_longopts},
  {"model", "model [options] [POLICY...]",
   "modelled power, speed-up, SPN, energy per N (paper §2)", htp_cmd_model,
   "  --serial-fraction s  the program's serial fraction in [0, 1) (default\n"
   "                       $OMP_EXT_SERIAL_FRACTION, else 0)\n"
   "  --speedup N:S        a measured speed-up S on N cores: the serial fraction\n"
   "                       by Karp-Flatt (not with --serial-fraction)\n"
   "  --sigma x            an SMT sibling's worth in (0, 1] (default $OMP_EXT_SIGMA,\n"
   "                       else 0.3)\n"
   "  --power-model M      c6100, dl380p or Pn,Ps,Pc,Pt in watts (default\n"
   "                       $OMP_EXT_POWER_MODEL, else c6100)\n"
   "  -f, --format F       table (default), csv or json\n"
   HTP_HELP_TOPO, htp_model_longopts},
  {"calibrate", "calibrate [opts] [POLICY...]", "fit the power model from RAPL energy counters",
   htp_cmd_calibrate,
   "  --powercap DIR       the powercap folder (default /sys/class/powercap)\n"
   "  --perf-pmu DIR       the perf power PMU (default\n"
   "                       /sys/bus/event_source/devices/power)\n"
   "  --seconds T          seconds measured per step (default 1)\n"
   HTP_HELP_HERE, htp_calibrate_longopts},
  {"check", "check [options] [PLACES]",
   "parse and check an OMP_PLACES, GOMP_CPU_AFFINITY or KMP proclist value; what each runtime "
   "builds from it",
   htp_cmd_check,
   "  --as S               the syntax: omp (OMP_PLACES, default), gomp\n"
   "                       (GOMP_CPU_AFFINITY) or kmp (a KMP_AFFINITY proclist)\n"
   "  --expand             print only the canonical expansion\n"
   "  --runtime R          what runtime R, or both (all), builds from the value;\n"
   "                       an unknown R lists the runtimes\n"
   "  -f, --format F       text (default) or json\n"
   HTP_HELP_TOPO
   "  Without PLACES: the variable itself (OMP_PLACES, or with --as\n"
   "  GOMP_CPU_AFFINITY / KMP_AFFINITY).\n", htp_check_longopts},
  {"doctor", "doctor [POLICY [N]]",
   "what limits parallel execution here: SMT, CPUs, cpusets, quota, variables, saturation",
   htp_cmd_doctor,
   "  --sysfs DIR          the sysfs root (default $HTPLACES_SYSFS, else /sys)\n"
   "  --cgroup DIR         the process's cgroup folder (default $HTPLACES_CGROUP)\n"
   "  --no-saturation      skip the saturation test\n"
   "  --duration S         seconds of the saturation test, in (0, 60] (default 0.5)\n"
   "  -f, --format F       text (default) or json\n"
   HTP_HELP_TOPO, htp_doctor_longopts},
  {"tune", "tune [options] -- PROG ...",
   "time PROG under every policy and thread count, measure sigma and the serial fraction, "
   "recommend", htp_cmd_tune,
   "  --policies LIST      none, @BASE_POLICIES@ (default\n"
   "                       @TUNE_DEFAULT@)\n"
   "  --threads LIST|auto  thread counts and ranges (1-4,8), each 1 .. the allowed PUs\n"
   "                       (default auto)\n"
   "  --wait-policy LIST   also vary OMP_WAIT_POLICY: passive, active\n"
   "  --reps K             rounds at least, 3 .. 1000 (default 5)\n"
   "  --seed S             seed of the shuffle (default 1)\n"
   "  --budget SECONDS     start no run after this long; add rounds until the best\n"
   "                       is significantly ahead or the budget ends\n"
   "  --timeout SECONDS    kill a run after this long, (0, 1e6] (it counts as failed)\n"
   "  --stdin FILE         each run's standard input, re-opened per run (default\n"
   "                       /dev/null)\n"
   "  --dry-run            print the plan and the estimated time; run nothing\n"
   "  --objective O        time (default), energy, spn or edp\n"
   "  --out DIR            also write results.csv, results.json, plots... into DIR\n"
   "  --power-model M      for modelled energy: c6100, dl380p or Pn,Ps,Pc,Pt\n"
   "  --timing-lib PATH    the libomp_ext.so to preload for per-region times\n"
   "  --no-regions         preload nothing: whole-program times only\n"
   "  -f json              print the JSON document instead of the table\n"
   "  --launcher 'CMD {R}' hybrid MPI + OpenMP: ranks x threads per rank x policy, each\n"
   "                       run CMD with {R} ranks (mpirun -np {R}, srun -n {R})\n"
   "  --ranks LIST         with --launcher: the rank counts (default 1, 2, 4 ... cores)\n"
   "  In PROG's arguments {N} is the thread count (per rank), {PLACES} the place list.\n"
   HTP_HELP_RANKS "  (-i X only with --dry-run: the plan on another machine)\n",
   htp_tune_longopts},
  {"verify", "verify [POLICY [N]] -- PROG",
   "run an OpenMP program, compare each thread's affinity with its place", htp_cmd_verify,
   HTP_HELP_HERE "  Without POLICY, the program runs with OMP_PLACES as set.\n",
   htp_verify_longopts},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
  unsigned i;
  int col;
  fprintf(out,
          "Usage: htplaces [options] POLICY [N]\n"
          "       htplaces COMMAND [options] ...\n"
          "       htplaces help [COMMAND]\n"
          "Print the first N PUs of a placement policy as an OpenMP place list:\n"
          "  OMP_PLACES=$(htplaces spn 8) OMP_PROC_BIND=close OMP_NUM_THREADS=8 ./app\n"
          "\nPolicies:\n");
  for (i = 0; i < OMP_EXT_NPOLICIES_ALL; i++)
    fprintf(out, "  %-9s %s\n", omp_ext_policy_name(htp_all_policies[i]),
            omp_ext_policy_description(htp_all_policies[i]));
  fprintf(out,
          "N defaults to all allowed PUs; for energy, to the modelled best N.\n"
          "\nOptions:\n"
          "  -i, --input X        topology from an hwloc XML file or synthetic string\n"
          "                       (e.g. \"pack:2 core:4 pu:2(indexes=core:pack)\")\n"
          "  -r, --restrict LIST  use only these PUs (OS indexes, e.g. 0-3,8)\n"
          "  -f, --format F       the output format, before or after the command; for\n"
          "                       POLICY [N]:");
  for (i = 0, col = 33; i < OMP_EXT_NFORMATS; i++) {
    const char *var = omp_ext_format_variable((omp_ext_format_t)i);
    char item[64];
    int len = snprintf(item, sizeof(item), "%s%s%s%s%s", omp_ext_format_name((omp_ext_format_t)i),
                       var || !i ? " (" : "", var ? var : "", !i ? ", default" : "",
                       var || !i ? ")" : "");
    if (col + 2 + len > 79) {
      fprintf(out, ",\n                      ");
      col = 22;
    } else if (i) {
      fputc(',', out);
      col++;
    }
    col += fprintf(out, " %s", item);
  }
  fprintf(out, "\n"
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
  fprintf(out, "\nA command's options: htplaces COMMAND --help, or htplaces help COMMAND.\n");
  fprintf(out, "\nExit status: 0 success, 1 failure (e.g. unreadable topology), 2 usage error.\n");
  fprintf(out, "check, doctor, verify: 1 when they find a problem; check: 2 when unparsable.\n");
}


/* The lists a command's help names as @NAME@, each from its table (static
 * buffers): BASE_POLICIES "os, speedup, spn, spread" (the base policies),
 * TUNE_DEFAULT "speedup,spn,spread,none" (tune's default --policies: the
 * policy table's candidates, then none).  NULL for an unknown name. */
static const char *help_list(const char *name, size_t len)
{
  if (len == 13 && strncmp(name, "BASE_POLICIES", len) == 0)
    return htp_policy_names(1);
  if (len == 12 && strncmp(name, "TUNE_DEFAULT", len) == 0)
    return htp_tune_default_policies();
  return NULL;
}

/* A command's options text, each @NAME@ in it the list help_list() makes
 * from its table. */
static void print_options(FILE *out, const char *text)
{
  const char *at, *end, *list;
  while ((at = strchr(text, '@')) != NULL && (end = strchr(at + 1, '@')) != NULL &&
         (list = help_list(at + 1, (size_t)(end - at - 1))) != NULL) {
    fprintf(out, "%.*s%s", (int)(at - text), text, list);
    text = end + 1;
  }
  fputs(text, out);
}

/* htplaces COMMAND --help, htplaces help COMMAND: from the command's row. */
static void command_usage(FILE *out, const struct htp_command *cmd)
{
  fprintf(out, "Usage: htplaces %s\n%c%s.\n\nOptions:\n", cmd->synopsis,
          cmd->summary[0] >= 'a' && cmd->summary[0] <= 'z' ? cmd->summary[0] - 'a' + 'A'
                                                            : cmd->summary[0],
          cmd->summary + 1);
  print_options(out, cmd->options);
  fprintf(out, "\nThe manual: man htplaces-%s.  All commands: htplaces --help.\n", cmd->name);
}

static void help(FILE *out, const struct htp_command *cmd)
{
  if (cmd)
    command_usage(out, cmd);
  else
    usage(out);
}

static int print_help(const struct htp_command *cmd)
{
  help(stdout, cmd);
  return fflush(stdout) != 0 || ferror(stdout)
             ? htp_error(HTP_EXIT_FAIL, "cannot write to standard output")
             : HTP_EXIT_OK;
}

/* A command that succeeded but whose standard output could not be written
 * (a full disk, /dev/full, a closed descriptor) fails: one line, exit 1.
 * A command that failed has said why already. */
static int output_status(int status)
{
  int flushed = fflush(stdout), err = errno;
  if (status != HTP_EXIT_OK || (flushed == 0 && !ferror(stdout)))
    return status;
  return flushed != 0 ? htp_error(HTP_EXIT_FAIL, "cannot write to standard output: %s",
                                  strerror(err))
                      : htp_error(HTP_EXIT_FAIL, "cannot write to standard output");
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

static const struct htp_command *find_command(const char *name)
{
  unsigned i;
  for (i = 0; i < NCOMMANDS; i++)
    if (strcmp(name, commands[i].name) == 0)
      return &commands[i];
  return NULL;
}

/* The options before a command (and of htplaces POLICY [N]'s line). */
static const struct option longopts[] = {
  HTP_COMMON_LONGOPTS, {"version", no_argument, NULL, 'V'}, {0}};

int main(int argc, char **argv)
{
  struct htp_ctx ctx = {.help = help, .commands = commands, .ncommands = NCOMMANDS,
                        .global_longopts = longopts};
  const struct htp_command *cmd;
  struct htp_policy policy; /* htplaces POLICY [N]: looked up here, once */
  int c, status;

  /* omp_ext keeps no I/O objects, so hwloc's I/O discovery plugins are
   * never useful here: not loading them saves about a fifth of a call.
   * Nor is libxml2's XML plugin (with ICU and libstdc++): hwloc's built-in
   * XML parser reads -i FILE.xml the same (every fixture of tests/topologies
   * gives the same topo and orders).  A user's own setting wins. */
  if (!getenv("HWLOC_PLUGINS_BLACKLIST")) {
    setenv("HWLOC_PLUGINS_BLACKLIST", HTP_IO_PLUGINS, 1);
    ctx.hwloc_env_ours = 1; /* taken out again before a program runs */
  }

  /* Global options before the command; the rest is the command's. */
  optind = 0;
  while ((c = getopt_long(argc, argv, "+:" HTP_COMMON_SHORTOPTS "V", longopts, NULL)) != -1) {
    if (htp_common_option(&ctx, c, optarg, optopt, argv))
      continue;
    if (c == 'V') {
      char line[256];
      omp_ext_version_line("htplaces", line, sizeof(line));
      return htp_print(line);
    }
  }
  if (optind >= argc)
    return htp_error(HTP_EXIT_USAGE, "missing POLICY or command; policies: %s; commands: %s "
                     "(see htplaces --help)", htp_policy_names(0), command_names());
  argv += optind - 1;
  argc -= optind - 1;
  argv[0] = "htplaces";
  if (strcmp(argv[1], "help") == 0) {
    /* htplaces help [COMMAND] */
    if (argc > 3)
      return htp_error(HTP_EXIT_USAGE, "help takes one command, got %d words; commands: %s",
                       argc - 2, command_names());
    if (argc == 3 && !(cmd = find_command(argv[2])))
      return htp_error(HTP_EXIT_USAGE, "help: unknown command '%s'; commands: %s", argv[2],
                       command_names());
    return print_help(argc == 3 ? cmd : NULL);
  }
  if ((cmd = find_command(argv[1])) != NULL) {
    /* COMMAND -h: its own help, also for a command without options (list) */
    if (argc > 2 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0))
      return print_help(cmd);
    ctx.command = cmd; /* -h later among its options: the same */
    status = output_status(cmd->run(&ctx, argc - 1, argv + 1));
  }
  else if (htp_policy_name(argv[1], &policy) == omp_ext_success)
    status = output_status(htp_cmd_places(&ctx, &policy, argc, argv));
  else
    status = htp_error(HTP_EXIT_USAGE, "unknown policy or command '%s'; policies: %s; "
                       "commands: %s (see htplaces --help)", argv[1], htp_policy_names(0),
                       command_names());
  omp_ext_topo_destroy(ctx.topo);
  return status;
}
