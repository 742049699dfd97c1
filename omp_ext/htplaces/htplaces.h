/*
 * htplaces: private declarations shared by the command's source files.
 * The command is a thin client of libomp_ext; each subcommand lives in its
 * own NAME.c and parses its own options with getopt_long.  Layers, no cycle:
 * main.c -> subcommand files -> common.c -> libomp_ext.
 */
#ifndef HTPLACES_H
#define HTPLACES_H

#include <getopt.h>
#include <stdio.h>

#include "omp_ext.h"
#include "misc.h" /* the tools' helpers, and the library's tools interface (tools.h) */

/* Exit statuses: 2 for usage errors (bad option, policy, N...), 1 for other
 * failures (unreadable topology, OS errors). */
#define HTP_EXIT_OK 0
#define HTP_EXIT_FAIL 1
#define HTP_EXIT_USAGE 2

struct htp_command;

/* What every subcommand shares: the topology options and the topology. */
struct htp_ctx {
  const char *input;    /* -i: XML path or synthetic string; NULL = this machine */
  const char *restrict_list; /* -r: OS index list to keep */
  const char *format;        /* -f NAME as given; each subcommand checks it
                                against its own list (htp_format()) */
  int do_export;             /* -e */
  omp_ext_topo_t *topo; /* loaded on demand by htp_topo() */
  const char *ranks_opt;     /* --ranks-per-node K, or NULL */
  const char *rank_opt;      /* --local-rank R, or NULL */
  int all_ranks;             /* show: draw every rank, do not restrict to one */
  omp_ext_rank_t rank;       /* the rank htp_topo() applied (mode none: none) */
  int hwloc_env_ours;        /* main set HWLOC_PLUGINS_BLACKLIST (htp_program_env) */
  /* -h prints help(out, command): main's usage, or with the subcommand
   * being run its own; NULL: nothing. */
  void (*help)(FILE *out, const struct htp_command *command);
  const struct htp_command *command; /* the subcommand being run, or NULL */
  /* main.c's table of subcommands (htplaces list commands, options) and
   * main's own options (those before a command). */
  const struct htp_command *commands;
  unsigned ncommands;
  const struct option *global_longopts;
};

/* A subcommand (main.c's table): returns the exit status. argv[0] is its
 * name.  synopsis and summary make its line in htplaces --help; options,
 * one "  -x, --opt VALUE   text\n" line each, its own --help (a word
 * @NAME@ in it is a list made from its table: main.c's help_list());
 * longopts, the getopt_long table it parses (NULL: none but -h, --help,
 * which every command takes), for htplaces list options. */
struct htp_command {
  const char *name;
  const char *synopsis;
  const char *summary;
  int (*run)(struct htp_ctx *ctx, int argc, char **argv);
  const char *options;
  const struct option *longopts;
};

/* Each subcommand's getopt_long table, {0}-terminated (its file). */
extern const struct option htp_calibrate_longopts[], htp_check_longopts[],
  htp_doctor_longopts[], htp_exec_longopts[], htp_model_longopts[], htp_places_longopts[],
  htp_show_longopts[], htp_topo_longopts[], htp_tune_longopts[], htp_verify_longopts[];

/* Long options every subcommand accepts; end of a table is {0}. */
#define HTP_COMMON_LONGOPTS \
  {"input", required_argument, NULL, 'i'}, {"restrict", required_argument, NULL, 'r'}, \
  {"format", required_argument, NULL, 'f'}, {"export", no_argument, NULL, 'e'}, \
  {"help", no_argument, NULL, 'h'}, \
  {"ranks-per-node", required_argument, NULL, HTP_OPT_RANKS}, \
  {"local-rank", required_argument, NULL, HTP_OPT_LOCAL_RANK}
/* Long-only common options use values from 0x1000 up; a subcommand's own
 * long-only options use 256 .. 0xfff. */
#define HTP_OPT_RANKS 0x1001
#define HTP_OPT_LOCAL_RANK 0x1002
#define HTP_COMMON_SHORTOPTS "i:r:f:eh"

/* For the commands that act on this machine (exec, verify, doctor,
 * calibrate): HTP_EXIT_OK, or the one-line error (exit 2) naming the hwloc
 * variable (HWLOC_FSROOT, HWLOC_SYNTHETIC, HWLOC_XMLFILE) that replaces this
 * machine, unless HWLOC_THISSYSTEM=1 says it is this machine. */
int htp_this_machine(const char *command);

/* exec --plan (exec_plan.c): run \p argv with the per-region plan of
 * htplaces tune's results in \p plan (a folder or its results.json) or a
 * plan file; \p team_free: the plan may change team sizes (--team-sizes);
 * returns only on error. */
int htp_exec_plan(struct htp_ctx *ctx, const char *plan, int team_free, char **argv);
/* exec_preload.c: run argv with libomp_ext preloaded and \p var=\p value
 * (OMP_PLACES and OMP_PROC_BIND removed); returns only on an error (its
 * exit status, the line printed). */
int htp_exec_preloaded(struct htp_ctx *ctx, const char *var, const char *value, char **argv);
/* exec_preload.c: run argv as `htplaces exec POLICY N` does, with one
 * configuration for every region: OMP_NUM_THREADS=\p threads (0: left as
 * it is), OMP_PLACES
 * \p places and OMP_PROC_BIND=close (\p places NULL: both removed, unbound),
 * nothing preloaded; returns only on an error. */
int htp_exec_global(struct htp_ctx *ctx, long long threads, const char *places, char **argv);
/* exec_preload.c: the team the program's regions get (nthreads-var): the
 * user's OMP_NUM_THREADS (its first level), else \p threads when > 0 (a
 * plan's N), else the allowed PUs. */
long long htp_program_team(struct htp_ctx *ctx, long long threads);
/* exec_learnt.c: under exec auto --learn \p dir (absolute), a learnt state
 * of argv[0] learnt under auto \p value ("auto", "auto:energy"; another
 * value's state runs preloaded) that amounts to one configuration (omp_ext_plan_global) is
 * run as htp_exec_global, but for every OMP_EXT_LEARN_CHECK_EVERY-th run
 * (its count in DIR/.PROGRAM.global), a program newer than its state, or
 * the user's OMP_NUM_THREADS of another team, OMP_EXT_PLACES or
 * OMP_EXT_TIMING: then 0 (run it preloaded); else returns only on an
 * error. */
int htp_exec_learnt(struct htp_ctx *ctx, const char *dir, const char *value, char **argv);
/* exec_needed.c: does the ELF file \p path (64-bit) name libomp.so* or
 * libiomp5.so* among its DT_NEEDED?  1, else 0 (also when not known). */
int htp_links_libomp(const char *path);
/* exec_learnt.c: may program \p prog (as execvp finds it) take the
 * one-configuration shortcut (OMP_PLACES, nothing preloaded)?  0 when it
 * links libomp (libomp 14 crashes in a fork() child under an OMP_PLACES
 * list), else 1. */
int htp_shortcut_safe(const char *prog);
/* exec_learnt.c: was learnt state \p p learnt for this build of program
 * \p prog (as execvp finds it), and only for it?  1, else 0. */
struct omp_ext_plan;
int htp_learnt_for(const struct omp_ext_plan *p, const char *prog);

/* Print "htplaces: MESSAGE" on stderr; returns \p status for `return htp_error(...)`. */
int htp_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Handle -i/-r/-f/-e (returns 1), -h (prints help, exits 0) and getopt errors
 * ('?', ':': message, exit 2).  Returns 0 for other option characters. */
int htp_common_option(struct htp_ctx *ctx, int c, const char *optarg_, int optopt_,
                      char *const argv[]);

/* The topology, loaded on the first call by one library call
 * (omp_ext_scope_load: -i, --restrict, then the MPI rank's domain from
 * --ranks-per-node/--local-rank, else the launcher's variables; fills
 * ctx->rank), so every subcommand works inside the rank's domain; prints
 * the error itself and returns NULL on failure (exit status then
 * HTP_EXIT_FAIL or _USAGE in *status). */
omp_ext_topo_t *htp_topo(struct htp_ctx *ctx, int *status);

/* The -f name's position in names[0..n) into *index (0, the default, when
 * -f was not given); prints "unknown format 'X' for 'COMMAND'; allowed:
 * NAMES" (command NULL: 'htplaces POLICY [N]') and returns HTP_EXIT_USAGE.
 * With n == 0 the command has no formats: any -f is refused. */
int htp_format(const struct htp_ctx *ctx, const char *command, const char *const *names,
               unsigned n, unsigned *index);

/* Fail with a usage error if -f/-e were given to a command without them
 * (htp_format() with no format). */
int htp_no_format(const struct htp_ctx *ctx, const char *command);

/* The format of a report command (check, doctor): text (default) or json
 * (htp_format() with those two names); *json = 1 for json.  -e and other
 * names: the usage error (exit 2). */
int htp_report_format(const struct htp_ctx *ctx, const char *command, int *json);

/* POLICY [N] of a command line, parsed once (htp_policy_parse) and
 * resolved once on the topology (htp_policy_order: the energy
 * meta-policy's choice and the team size), then passed down. */
struct htp_policy {
  const char *word;       /* POLICY as given; NULL until looked up */
  const char *count;      /* N as given; NULL: the policy's own team size */
  omp_ht_policy_t policy; /* as named (energy, spn, ...) */
  omp_ht_policy_t base;   /* resolved: the base policy whose order is used */
  unsigned n;             /* resolved: the team size (N, else the policy's) */
};

/* Look POLICY up in the policy table (run-time ones too) into p->word and
 * p->policy: 0, or omp_ext_err_policy; prints nothing (main's and exec's
 * own lines). */
int htp_policy_name(const char *word, struct htp_policy *p);

/* POLICY [N] (argv[0], argv[1] of argc words) into p: one or two words,
 * the name looked up unless p->word is set (htp_policy_name), a policy with
 * a place order; N kept as text (checked against the allowed PUs by
 * htp_policy_order).  Prints errors. */
int htp_policy_parse(int argc, char **argv, struct htp_policy *p);

/* Resolve p on ctx's topology (once: p->base, p->n) and make its order, a
 * malloc'ed array of p->n PUs; prints errors. */
int htp_policy_order(struct htp_ctx *ctx, struct htp_policy *p, omp_ext_pu_t **order);

/* "os, speedup, spn, spread, energy": the names of the policies with a
 * place order from the policy table, only the base policies if \p
 * base_only, for messages (static buffer). */
const char *htp_policy_names(int base_only);

/* tune's default --policies: the candidates of the policy table (CANDIDATE
 * 1: those the energy meta-policy and auto choose among), then none. */
const char *htp_tune_default_policies(void);

/* Every row of OMP_EXT_POLICIES in list order, the run-time policies (auto)
 * included: htplaces list and --help. */
extern const omp_ht_policy_t htp_all_policies[OMP_EXT_NPOLICIES_ALL];

/* names[0..n) joined into buf[len] as "a, b, c", the last two joined by
 * \p last (", " or " or "); returns buf. */
const char *htp_join(char *buf, size_t len, const char *const *names, unsigned n,
                     const char *last);

/* Parse POLICY; prints the error (listing allowed names). */
int htp_parse_policy(const char *text, omp_ht_policy_t *policy);

/* A whole finite number (strtod, nothing after it): 0, or -1. */
int htp_parse_double(const char *text, double *v);

/* Why a power model text (WHAT: the option or variable) is wrong: the
 * error line; returns HTP_EXIT_USAGE. */
int htp_power_model_error(const char *what, const char *text);

/* Parse N as a whole number 1..max (max = allowed PUs); prints the error. */
int htp_parse_count(const char *text, unsigned max, unsigned *n);

/* Before running the user's program (exec, verify, tune): take out of the
 * environment what htplaces put there for itself (HWLOC_PLUGINS_BLACKLIST,
 * unless the user had set it), so the program sees the user's environment,
 * and an outer htplaces exec's topology hand-off (htp_handoff_clear). */
void htp_program_env(const struct htp_ctx *ctx);
/* Take OMP_EXT_TOPO_XML and OMP_EXT_TOPO_STAMP out of the environment. */
void htp_handoff_clear(void);

/* Write \p s on \p f as one shell word: bare when safe, else single-quoted. */
void htp_shell_word(FILE *f, const char *s);

/* Write \p text and a newline on stdout; 0 or HTP_EXIT_FAIL on write error. */
int htp_print(const char *text);

/* --ranks-per-node K: 1 .. ncores; prints the error. */
int htp_parse_ranks(const char *text, unsigned ncores, unsigned *k);

/* The allowed PUs of topo as text ("PUs 0-3", malloc'ed; NULL: no memory). */
char *htp_pu_list_text(const omp_ext_topo_t *topo);

/* common.c: a cpuset as a list ("0-3,8"), malloc'ed; NULL if set is NULL or
 * no memory.  The one bitmap-to-text wrapper of the reports. */
char *htp_cpuset_text(hwloc_const_bitmap_t set);

/* One line on the rank for show ("" if none); malloc'ed, NULL if no memory. */
char *htp_rank_summary(const struct htp_ctx *ctx);

/* A launcher-bound rank whose binding other ranks must share (more ranks x
 * PUs than the node has); htp_rank_warn prints a warning line on stderr. */
int htp_rank_shared(const struct htp_ctx *ctx);
int htp_rank_warn(const struct htp_ctx *ctx);

/* show --ranks-per-node K without --local-rank: every rank's domain and order. */
int htp_show_ranks(struct htp_ctx *ctx, int argc, char **argv);

/* The picture of packages, cores and PUs; thread[i] (and rank[i] if not
 * NULL) label topology PU i, -1 for none. */
/* picture.c: what holds the cores in the pictures: "Package", or
 * "Machine" where hwloc has no Package object (a PS3's Cell, some VMs and
 * synthetic strings such as "core:2 pu:2"). */
const char *htp_package_label(const omp_ext_topo_t *topo);
void htp_show_picture(const omp_ext_topo_t *topo, const int *thread, const int *rank);

/* Subcommands. */
/* htplaces POLICY [N]: \p policy as main looked it up (htp_policy_name). */
int htp_cmd_places(struct htp_ctx *ctx, struct htp_policy *policy, int argc, char **argv);
int htp_cmd_show(struct htp_ctx *ctx, int argc, char **argv);
int htp_cmd_topo(struct htp_ctx *ctx, int argc, char **argv);
int htp_cmd_list(struct htp_ctx *ctx, int argc, char **argv);
int htp_cmd_exec(struct htp_ctx *ctx, int argc, char **argv);
int htp_cmd_model(struct htp_ctx *ctx, int argc, char **argv);
int htp_cmd_calibrate(struct htp_ctx *ctx, int argc, char **argv);

/* The energy model of envp (environ, or a copy without the variables
 * options replace): OMP_EXT_POWER_MODEL, OMP_EXT_SIGMA and
 * OMP_EXT_SERIAL_FRACTION (omp_ext_model_from_env()); prints which variable
 * is invalid (exit 2). */
int htp_model_from_env(char *const *envp, omp_ext_model_t *m);

int htp_cmd_check(struct htp_ctx *ctx, int argc, char **argv);

/* check --runtime: a runtime's name (omp_ext_runtime_name()) or "both"
 * (all of them) -> a mask of 1 << omp_ext_runtime_t; prints the error,
 * which lists the names. */
int htp_parse_runtimes(const char *text, int *mask);
/* What the runtimes of mask build from value (text, JSON, or --expand of
 * one runtime); the exit status: 0, 1 (a runtime does not build the places
 * as written, or they differ), 2 (beyond omp_ext's limits). */
int htp_check_runtimes(const omp_ext_topo_t *topo, const char *value, omp_ext_syntax_t syntax,
                       int mask, int expand, int json);
int htp_cmd_doctor(struct htp_ctx *ctx, int argc, char **argv);
int htp_cmd_verify(struct htp_ctx *ctx, int argc, char **argv);
int htp_cmd_tune(struct htp_ctx *ctx, int argc, char **argv);

/* doctor: list the OMP_* / KMP_* / GOMP_* variables of envp on \p out and
 * their conflicts (libgomp and libomp rules); returns the conflict count. */
unsigned htp_env_check(FILE *out, char *const envp[], const omp_ext_topo_t *topo);

/* libomp_ext.so beside this htplaces (tune preloads it, exec --plan too):
 * PREFIX/LIBDIR when installed, omp_ext/ in a build tree; in buf, or NULL. */
const char *htp_find_libomp_ext(char *buf, size_t len);
/* 0 when \p lib can be named in LD_PRELOAD; else an error line ("has a
 * space or ':'") and \p status. */
int htp_preload_path_error(const char *lib, int status);

#endif /* HTPLACES_H */
