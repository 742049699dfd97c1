/*
 * htplaces tune: private declarations of its files.
 *
 *   tune.c           the command: options, the sweep's runner (the engine,
 *                    omp_ext/tools/sweep/sweep.h, runs the rounds), --budget's
 *                    adaptive rounds, exit status
 *   tune_plan.c      the plan: configurations (policy x N x wait policy),
 *                    the automatic thread counts, a configuration's words
 *                    ({N}, {PLACES} replaced)
 *   tune_run.c       one run of the program in one configuration
 *   tune_program.c   where the program is (as execvp finds it)
 *   tune_analysis.c  statistics, speed-up, Karp-Flatt, sigma, SPN, energy,
 *                    the recommendation (pure functions on crafted or
 *                    measured data; unit-tested on crafted data)
 *   tune_report.c    the table, and the helpers the other reports share
 *   tune_json.c      results.json (also -f json), results.csv
 *   tune_plots.c     the gnuplot script of the plots
 *   tune_out.c       the --out folder
 *   tune_launcher.c  --launcher: the launcher's words, its binding turned off,
 *                    one run's command line (hybrid MPI + OpenMP)
 *   tune_ranks.c     --launcher: the plan of ranks x threads per rank x
 *                    policy (what fits, what is skipped and why), each
 *                    rank's timing file checked against its domain
 */
#ifndef HTPLACES_TUNE_H
#define HTPLACES_TUNE_H

#include <glob.h>
#include <stdio.h>

#include "htplaces.h"
#include "sweep.h"

/* The most of a failing run's output kept for --out's stderr-tails.txt. */
#define TUNE_LAST_WORDS 4096

/* Successful runs a configuration needs to be analysed and recommended. */
#define TUNE_MIN_RUNS 3

/* The "none" pseudo-policy: the runtime's default, no OMP_PLACES nor
 * OMP_PROC_BIND (the baseline every user has today). */
#define TUNE_NONE (-1)
/* The "auto" configuration (--policies ...,auto): OMP_EXT_HT_POLICY=auto
 * with libomp_ext preloaded, no OMP_PLACES nor OMP_NUM_THREADS (threads: all
 * allowed PUs, the default team); one per wait policy.  Shown beside the
 * global configurations, never recommended nor a region's best: it is a
 * run-time choice, not a setting for htplaces exec. */
#define TUNE_AUTO ((int)omp_ht_policy_auto)
#define TUNE_IS_AUTO(c) ((c)->policy == TUNE_AUTO)
/* OMP_WAIT_POLICY: not set, passive, active. */
enum tune_wait { TUNE_WAIT_UNSET = 0, TUNE_WAIT_PASSIVE, TUNE_WAIT_ACTIVE };
enum tune_objective { TUNE_TIME = 0, TUNE_ENERGY, TUNE_SPN, TUNE_EDP, TUNE_NOBJECTIVES };

/* One run's outcome. */
struct tune_run {
  double wall_s;   /* wall-clock seconds */
  double cpu_s;    /* user + system CPU seconds of the program (all threads) */
  double energy_j; /* joules: measured (RAPL) or modelled */
  int status;      /* 0 ok; else the exit status, 128 + signal, or -1 (timeout) */
  int signal;      /* the signal that killed it, or 0 */
  unsigned round;  /* the round it belongs to (0-based): runs of one round are paired */
  int stopped;     /* SIGTTIN or SIGTTOU: it stopped on the terminal and was
                    * killed (status 128 + SIGKILL); else 0 */
  int warmup;      /* 1: the warm-up run, kept only because it failed */
  double other_cpu_s; /* CPU seconds other processes used on the allowed
                       * CPUs during the run (/proc/stat less cpu_s), NAN */
  char invalid[160]; /* "": valid; else why its threads were not where intended
                      * (a run of status 0 left out of every figure) */
};

struct tune_region_index;

/* One parallel region of the program (or named measurement) in one
 * configuration: its total seconds in each run that wrote a timing file. */
struct tune_region {
  char *key;               /* identity, malloc'd: "MODULE+0xOFFSET" of the construct
                            * (module = path as the timing file gives it), or
                            * "name:NAME" for a named measurement; "PROGRAM: " or
                            * "PROGRAM#K: " before it when more than one process of
                            * a run recorded regions.  Regions are matched by key only. */
  char *name;              /* display name, malloc'd, no length limit: FILE:LINE,
                            * the demangled function, "lib.so: function", or the
                            * timing file's name (until tune_name_regions); the
                            * same prefix as the key */
  struct tune_site *site;  /* where it is, to name it (NULL: a named measurement) */
  double *total_s;         /* per run */
  double *median_s;        /* per run: the median seconds of one instance */
  unsigned *round;         /* per run: its round (tune_run.round), to pair it with another
                            * configuration's; NULL when not known for every run */
  int no_rounds;           /* a run's round was not known (--launcher): round unused */
  unsigned nruns;
  unsigned runs_room;      /* total_s and median_s have room for this many runs */
  unsigned long instances; /* per run (the last run's count) */
  unsigned team_max;       /* the largest team size seen */
  char *control;           /* under auto: what it chose in the last run (the timing
                            * file's "control": "spn:2", "spn:2 exploring"), malloc'd;
                            * NULL: not recorded */
  int timer;               /* 1: a named measurement (omp_ext_timer_start), which may
                            * overlap the parallel regions */
};

/* Where a parallel region is, from the timing file: what names it. */
struct tune_site {
  char *module;            /* the object holding the construct (its path) */
  unsigned long offset;    /* the return address of the call that starts it, in the
                            * module's own terms ("offset") */
  char *outlined_module;   /* the outlined body (libgomp: the function GOMP_parallel
                            * runs), NULL: not recorded */
  unsigned long outlined;  /* its start in outlined_module */
  int shared;              /* 1: the module is a library, not the process's program */
  char *label;             /* "app", "app#2" when more than one process recorded; NULL */
};

/* One configuration of the plan, with its runs. */
struct tune_config {
  int policy;            /* omp_ht_policy_t, TUNE_NONE or TUNE_AUTO: the first policy
                          * giving it */
  unsigned policies;     /* every policy giving this placement: bit p for policy p,
                          * TUNE_NONE_BIT for none, TUNE_AUTO_BIT for auto
                          * (tune_make_plan merges identical placements); 0 counts
                          * as bit(policy) */
  unsigned threads;      /* N: OMP_NUM_THREADS */
  enum tune_wait wait;
  omp_ext_usage_t usage; /* cores/packages/extra PUs its places use (none: as speedup) */
  char *places;          /* OMP_PLACES text; NULL for none */
  unsigned *place_pu;    /* place t's PU (OS index), t < threads; NULL for none */
  unsigned *place_core;  /* place t's core (omp_ext_pu_t.core), t < threads; NULL for none */
  struct tune_run *runs; /* runs[0 .. nruns-1], in the order they ran */
  unsigned nruns;
  char tail[512];        /* the last failing run's message: the last line of its stderr
                          * (else stdout) that reads as a message, not decoration */
  char *last_words;      /* that run's last lines (TUNE_LAST_WORDS bytes at most) under
                          * "==> htplaces tune: LABEL, run K: HOW <==", malloc'd; NULL */
  struct tune_region *regions; /* from the timing files of its runs */
  unsigned nregions;
  struct tune_region_index *index; /* regions by key (tune_regions.c), NULL */
  double *serial_s;      /* per run with a timing file: time outside any region */
  unsigned nserial;
  unsigned untimed;      /* successful runs that wrote no timing file */
  unsigned reading_round; /* while a run's timing file is read: its round + 1 (0: unknown) */
  int self_bound;        /* "none" only: the timing layer saw the program's threads
                          * bound to less than the CPUs the run started with (the
                          * program pins its own threads: not an unbound baseline) */
  /* --launcher (tune_ranks.c): `ranks` processes of threads / ranks threads
   * each, started by the launcher, each in its domain; place_pu/place_core
   * rank after rank.  0 / NULL: one process (every other field as above). */
  unsigned ranks;
  const struct tune_launcher *launcher;
};

/* What the regions say across configurations (tune_analysis.c). */
struct tune_region_summary {
  char *key;               /* malloc'd, as tune_region's */
  char *name;              /* malloc'd; another region may have the same name */
  unsigned same_name;      /* how many other regions share this name (0: unique) */
  unsigned long instances;
  unsigned team_max;
  int best;                /* the configuration to run it at, -1: the one with the lowest
                            * median total, or the recommended global configuration
                            * when that is within TUNE_REGION_TIE of it (tune_analysis.c) */
  int fastest;             /* the configuration with the lowest median total, -1 */
  double fastest_s;        /* its median total seconds per run */
  double best_s;           /* its median total seconds per run */
  double best_median_s;    /* its median (over runs) of one instance's median seconds */
  double speedup;          /* baseline's median / best's, NAN without baseline */
  double serial;           /* Karp-Flatt at the summary's serial_from, NAN */
  double sigma;            /* median over the C / 2C pairs, NAN */
  unsigned npairs;
  double share;            /* its median total at the summary's share_from over that
                            * configuration's total (every parallel region's median
                            * total and the serial part's: they sum to 1); NAN when
                            * it did not run there.  A named measurement's is on the
                            * same total, outside the sum (it may overlap regions) */
  int timer;               /* a named measurement */
  int only_multi;          /* timed in some configuration, but in none with 1 thread that
                            * has timing: the region exists only at N > 1 */
};

/* One sigma pair: configurations one_per_core (C threads on C cores) and
 * two_per_core (2C threads, two on each of the same C cores). */
struct tune_sigma_pair {
  int one_per_core, two_per_core;
  double sigma;
};

/* Figures of one configuration over its successful runs. */
struct tune_result {
  unsigned ok;             /* successful runs (status 0, valid) */
  unsigned invalid;        /* runs of status 0 whose threads were elsewhere */
  int failed;              /* some run failed (configuration marked failed) */
  omp_ext_stats_t time;    /* seconds */
  omp_ext_stats_t metric[TUNE_NOBJECTIVES]; /* per-run time, energy, SPN, EDP */
  double speedup;          /* median T(1 thread) / median T; NAN without a baseline */
  double serial;           /* Karp-Flatt s at this N; NAN for N = 1 or no baseline */
  double power_w;          /* mean power: energy / time */
  double cpu_util;         /* CPU seconds / (wall seconds x N), median */
  /* Per objective, against the objective's fastest configuration: the
   * paired test's outcome (tune_paired_test). */
  int tied[TUNE_NOBJECTIVES]; /* 1: usable and not significantly worse than the fastest
                               * (the fastest itself included) */
  double ratio[TUNE_NOBJECTIVES]; /* geometric mean per-round ratio to the fastest, NAN */
  unsigned clipped;        /* bit o: metric o's 95% CI reached below 0, its low end
                            * clipped at 0 (times, energies, SPN are never negative) */
  unsigned paired[TUNE_NOBJECTIVES]; /* rounds paired with the fastest */
};

/* The significance test of tune: a paired t-test (two-sided, 95%) on the
 * per-round log ratios log(a / b) of the rounds where both a and b have a
 * successful run. */
/* A region keeps the recommended global configuration unless another one is
 * faster by more than this fraction of its time and by more than the spread
 * of its own runs: switching a region's place list or team size costs a
 * rebind (and, under libgomp, thread restarts), which a tie does not repay. */
#define TUNE_REGION_TIE 0.05
/* exec --plan warns when tune's recommendation is a tie beside a
 * configuration whose median is this many times faster. */
#define TUNE_TIE_MAX_RATIO 1.25
/* exec --plan: a region's line differs from the recommendation only when
 * faster in every round tune paired, of at least this many (a sign test). */
#define TUNE_PLAN_MIN_PAIRED 3

#define TUNE_TEST_NAME "paired t-test on per-round log ratios (95%, two-sided)"
#define TUNE_NONE_BIT (1u << 31)
#define TUNE_AUTO_BIT (1u << 30)

/* What the whole plan says. */
struct tune_summary {
  int baseline;            /* index of the 1-thread configuration used for S_N, -1 none */
  double serial;           /* program's serial fraction (Karp-Flatt), NAN if none */
  int serial_from;         /* configuration it was taken from, -1 */
  double sigma;            /* median sigma over the pairs, NAN if no pair */
  unsigned npairs;         /* (C one per core, 2C on the same C cores) pairs */
  struct tune_sigma_pair *pairs; /* the npairs pairs (malloc'd) */
  unsigned bound;          /* §2.3 useful thread count from serial and sigma, 0 unknown */
  /* Per objective: fastest = best median; best = the cheapest (fewer cores,
   * then fewer threads) among the tied ones (r[i].tied); runner_up = the
   * best median other than best; significant = 1 only when a runner-up
   * exists and no other configuration is tied with the fastest.  -1: none. */
  int fastest[TUNE_NOBJECTIVES], best[TUNE_NOBJECTIVES], runner_up[TUNE_NOBJECTIVES];
  int significant[TUNE_NOBJECTIVES];
  unsigned ntied[TUNE_NOBJECTIVES]; /* configurations tied with the fastest, itself included */
  int timed;               /* some run wrote a timing file */
  struct tune_region_summary *regions; /* every region any run timed */
  unsigned nregions;
  int share_from;          /* the configuration the regions' shares are of: the
                            * recommended one for time, else the fastest with timing
                            * files; -1 none */
  double serial_share;     /* the serial part's share there, NAN */
};

/* tune_plan.c ---------------------------------------------------------- */

/* "speedup,spn,spread,none" -> policies (TUNE_NONE for none); prints errors. */
int tune_parse_policies(const char *text, int *policies, unsigned max, unsigned *n);
/* "1,2,4" or "1-4,8" (htbench's --threads syntax) -> counts, each
 * 1..max_threads, a count listed twice kept once, at most max; prints
 * errors naming --threads. */
int tune_parse_threads(const char *text, unsigned max_threads, unsigned *counts, unsigned max,
                       unsigned *n);
/* The same for any --WHAT list of counts within 1..limit (limit_text, e.g.
 * " (the allowed PUs)", ends the error message). */
int tune_parse_counts(const char *text, const char *what, unsigned limit, const char *limit_text,
                      unsigned *counts, unsigned max, unsigned *n);
/* "passive,active" -> wait policies; prints errors. */
int tune_parse_waits(const char *text, enum tune_wait *waits, unsigned max, unsigned *n);
/* The automatic thread counts for ncores cores and npus PUs (max_smt PUs per
 * core at most): 1, C/4, C/2, C, all PUs, and 2c for each core count c
 * listed (so sigma can be measured where cores have siblings); ascending,
 * distinct.  Returns the count written (at most max). */
unsigned tune_auto_threads(unsigned ncores, unsigned npus, unsigned max_smt, unsigned *counts,
                           unsigned max);
/* Fill the configurations of policies x counts x waits on topo (places,
 * usage); returns 0 or prints the error and returns the exit status. */
int tune_make_plan(const omp_ext_topo_t *topo, const int *policies, unsigned npol,
                   const unsigned *counts, unsigned ncounts, const enum tune_wait *waits,
                   unsigned nwaits, struct tune_config **configs, unsigned *n);
void tune_free_plan(struct tune_config *configs, unsigned n);
/* Configurations with the same place list, N, ranks and wait policy are one
 * placement: measured once, named by all the policies giving it.  "none"
 * (no place list) is never the same as a placement.  Returns the new count;
 * the order of first appearance is kept (the others freed). */
unsigned tune_merge_identical(struct tune_config *c, unsigned n);
/* Free one configuration's places, runs and regions (zeroes it). */
void tune_free_plan_entry(struct tune_config *c);
/* "speedup/spn/spread 2" or "spn 2 active": the configuration as tables,
 * progress lines and --budget's skips name it (every policy giving it). */
void tune_config_label(const struct tune_config *c, char *buf, size_t len);
/* c->policies, or the bit of c->policy when it is 0 (crafted configurations). */
unsigned tune_policy_bits(const struct tune_config *c);
/* The policy of bit b of tune_policy_bits: "spn", "none", "auto". */
const char *tune_bit_name(unsigned b);
/* "spn", "none", "auto": the configuration's policy name. */
const char *tune_policy_name(int policy);
/* How a failed run ended, for people: "exit 3", "killed by signal 11
 * (Segmentation fault)", "timed out (--timeout)". */
void tune_run_outcome(const struct tune_run *r, char *buf, size_t len);
/* The names --policies takes, for messages (static buffer). */
const char *tune_policy_names(void);
const char *tune_wait_name(enum tune_wait w);
const char *tune_objective_name(enum tune_objective o);

/* Threads per rank: threads / ranks with --launcher, else threads. */
unsigned tune_rank_threads(const struct tune_config *c);
/* ARG with each "{N}" replaced by c's thread count and each "{PLACES}" by
 * its OMP_PLACES text ("" for none); malloc'ed, NULL when out of memory. */
char *tune_substitute(const char *arg, const struct tune_config *c);
/* ARG with each from[k] replaced by to[k] (k < n, the first that matches);
 * malloc'ed, NULL when out of memory. */
char *tune_replace(const char *arg, const char *const *from, const char *const *to, unsigned n);

/* tune_program.c ------------------------------------------------------- */
/* Where PROGRAM is, as execvp would find it: 0, 127 (not found) or 126 (not
 * executable); prints the error. */
int tune_find_program(const char *program);

/* tune_run.c ----------------------------------------------------------- */

/* The longest --timeout (seconds): a deadline past it overflows. */
#define TUNE_MAX_TIMEOUT_S 1e6
/* After SIGINT, SIGTERM or SIGHUP to tune: seconds the run's process group
 * has to end on the forwarded signal before it is killed (SIGKILL). */
#define TUNE_GRACE_S 2.0

struct tune_exec {
  char **argv;          /* PROGRAM ARGS; {N} and {PLACES} in ARGS replaced per run */
  const char *timing_lib;  /* libomp_ext.so to preload for per-region times, or NULL */
  const char *timing_file; /* where its timing layer writes (OMP_EXT_TIMING) */
  double timeout_s;     /* 0: none; else at most TUNE_MAX_TIMEOUT_S */
  int stdout_fd;        /* the program's stdout: program-stdout.txt (labelled) or
                         * a file of tmp_dir (emptied before each run) */
  int stdout_labelled;  /* 1: a "==> ... <==" line names each run's output */
  void *rapl;           /* omp_ext_rapl_t *, or NULL: energy is modelled */
  const omp_ext_power_model_t *power; /* for modelled energy */
  const char *stdin_path;  /* --stdin FILE, re-opened for every run; NULL: /dev/null */
  const char *tmp_dir;     /* tune's htplaces-tune-* folder (the run's stderr) */
  hwloc_const_cpuset_t allowed; /* CPUs whose load counts; NULL: all */
};
/* The failure line of a run's last words \p text (NULL: none): its last
 * line that reads as a message (a word of two letters or more: not a rule
 * such as "-------"), else its last line that is not blank; control
 * characters as blanks, into line[len] ("" for none).  1: a message; 0:
 * the last line (none reads as a message); -1: no line. */
int tune_failure_line(const char *text, char *line, size_t len);
/* Run the program once in configuration c, with stdin from x->stdin_path
 * (or /dev/null), in its own process group, which is killed (SIGKILL) when
 * the run ends: fills r (r->round = \p round, 0-based, also kept beside
 * each region's total of the run); c->tail on failure (the last non-empty line of its
 * stderr, else of its stdout).  A run that stops on the terminal (SIGTTIN,
 * SIGTTOU) is killed and reported (r->stopped).  Returns 0; HTP_EXIT_FAIL
 * when the run could not be started; 128 + SIG when SIGINT, SIGTERM or
 * SIGHUP reached tune (sweep_signals_catch) before or during the run: the
 * signal was forwarded to the run's group, which was killed after
 * TUNE_GRACE_S. */
int tune_run_once(const struct tune_exec *x, struct tune_config *c, unsigned round,
                  struct tune_run *r);
/* The same for the warm-up run (its output labelled "warm-up"). */
int tune_warm_up(const struct tune_exec *x, struct tune_config *c, struct tune_run *r);
/* tune's temporary folder: $TMPDIR (else /tmp)/htplaces-tune-XXXXXX into
 * path[len]; 0, or prints the error and returns HTP_EXIT_FAIL. */
int tune_make_temp_dir(char *path, size_t len);
/* Remove the folder and everything in it (timing files, the run's output). */
void tune_remove_temp_dir(const char *path);

/* Load on the machine, for the busy-machine warning. */
struct tune_load {
  double before;     /* CPUs kept busy by other processes just before the runs, NAN */
  double during;     /* ... during the runs: sum of other_cpu_s / sum of wall_s, NAN */
  unsigned ncpus;    /* the allowed CPUs these count over */
  int low_util;      /* configuration with the lowest CPU utilisation (N >= 2), -1 */
  double util;       /* its median CPU seconds / (wall seconds x N), NAN */
};
/* A machine whose other processes keep this many CPUs busy is "busy". */
#define TUNE_BUSY_CPUS 0.5
/* The load sample before the runs lasts at least this (seconds): 10 ticks
 * of /proc/stat's 100 Hz a CPU, the busy CPUs to 0.1. */
#define TUNE_LOAD_SAMPLE_S 0.1
/* A program using less than this share of its threads' CPUs (median, at
 * some N >= 2) is flagged: it waits, or shares the CPUs. */
#define TUNE_LOW_UTIL 0.5
/* CPU seconds the allowed CPUs (NULL: all) spent busy (user, nice, system,
 * irq, softirq, steal) per /proc/stat text \p stat (its "cpuN" lines,
 * ticks of hz); NAN when no line of an allowed CPU is there. */
double tune_busy_seconds(const char *stat, hwloc_const_cpuset_t allowed, double hz);
/* The same from this machine's /proc/stat; NAN when unreadable. */
double tune_busy_now(hwloc_const_cpuset_t allowed);
/* Where a load sample starts: tune's own CPU time, the allowed CPUs'
 * busy time, the clock. */
struct tune_load_mark {
  double self_s, busy_s, at_s;
};
/* The sample started now, by tune_load_mark, and ended by tune_load_since. */
void tune_load_mark(struct tune_load_mark *m, hwloc_const_cpuset_t allowed);
/* CPUs the allowed ones (NULL: all) kept busy since mark \p m, less tune's
 * own CPU time: other processes' load.  Sleeps first until at least
 * \p min_seconds have passed since the mark (tune's setup in between is
 * part of the sample: no time spent only waiting); NAN when /proc/stat is
 * unreadable. */
double tune_load_since(const struct tune_load_mark *m, hwloc_const_cpuset_t allowed,
                       double min_seconds);
/* The load figures over c's runs (before: as measured, NAN unknown). */
void tune_machine_load(const struct tune_config *c, unsigned n, double before,
                       unsigned ncpus, struct tune_load *load);

/* tune_regions.c ------------------------------------------------------- */

/* Add the regions of one run's timing files to c: \p path is
 * OMP_EXT_TIMING's value for the run; with "%p" every file where a process
 * ID stands for it (each process that recorded something wrote one: the
 * program behind a wrapper script or `timeout`, forked children).
 * *serial_s the first process's time outside any region.  Under "none"
 * (no places) c->self_bound is set when the program bound its own threads.
 * 0, or -1 when no file is there or none is omp_ext's, or 1 when the
 * bindings they record put a thread outside its place (tune_check_binding):
 * then nothing is added and invalid[len] says why. */
int tune_read_timing(const char *path, struct tune_config *c, double *serial_s, char *invalid,
                     size_t len);
/* The memory tune_read_timing keeps from one run to the next, released. */
void tune_read_timing_done(void);
/* Remove a run's timing files (\p path as for tune_read_timing), and the
 * temporary files a killed process left. */
void tune_clear_timing(const char *path);
/* The files of a run: \p path itself, or with "%p" every file where digits
 * stand for it (globfree it); 0, or -1
 * when there is none. */
int tune_timing_files(const char *path, glob_t *g);
/* One region object of a timing file (JSON text) against c's places
 * (OMP_PROC_BIND=close: in a team of T <= N threads, thread t on place t;
 * in a larger one, each thread on one of the places): 0, or 1 with why[len]
 * naming the first thread elsewhere (its CPU set or the PU it ran on
 * outside its place).  "none" (no places) and regions without bindings
 * are never invalid. */
int tune_check_binding(const char *region, const struct tune_config *c, char *why, size_t len);
void tune_free_regions(struct tune_config *c);
void tune_free_site(struct tune_site *s);
/* Why no run wrote a timing file, for people: "a statically linked
 * program" when PROGRAM (as execvp finds it) is an ELF file without an
 * interpreter, else "no parallel region ran, or the program's OpenMP
 * runtime started no hook" (static buffer). */
const char *tune_untimed_reason(const char *program);

/* tune_names.c --------------------------------------------------------- */

/* Name every parallel region of c[0..n-1] (tune_region.name replaced):
 * FILE:LINE where its module has debug information (addr2line, binutils:
 * one process per module for all its regions); else its function from the
 * symbol table: the outlined body's source function when its name carries
 * one (GCC's NAME._omp_fn.K -> NAME), the caller's (the function holding
 * the call: clang's .omp_outlined. carries none), "NAME (in CALLER)" when
 * they differ (a function inlined into its caller), demangled, without
 * clone suffixes; "lib.so: " before it in a library; the process label
 * before all.  Without either: the timing file's name.  0, or -1 when out
 * of memory (the names left as they were). */
int tune_name_regions(struct tune_config *c, unsigned n);
/* The name one site would get (for a message), malloc'd; NULL: none. */
char *tune_site_name(const struct tune_site *site);
/* A function name without the compiler's clone suffix: "f.constprop.0",
 * "f.part.1", "f.isra.0", "f.cold" (GCC) -> "f"; "g(int) [clone
 * .constprop.0]" (demangled) -> "g(int)"; ".omp_outlined." kept (malloc'd). */
char *tune_function_name(const char *text);
/* The source function an outlined body's symbol names, demangled and
 * without clone suffixes (malloc'd): "main._omp_fn.2" -> "main",
 * "_ZN1a1bEv._omp_fn.0" -> "a::b()", "foo.omp_outlined" -> "foo"; NULL when
 * it names none (".omp_outlined.", ".omp_outlined._debug__"). */
char *tune_outlined_source(const char *symbol);

/* tune_symbols.c ------------------------------------------------------- */

/* One module's function symbols, sorted by address (.symtab, static
 * functions too, else .dynsym); NULL when the file is no readable ELF64
 * object or out of memory. */
struct tune_symtab;
struct tune_symtab *tune_symtab_open(const char *module);
void tune_symtab_close(struct tune_symtab *t);
/* The function holding \p addr (in the module's own terms), only when the
 * address is inside the symbol; of aliases, the first in the table; its
 * name as in the table (mangled), or NULL. */
const char *tune_symtab_at(const struct tune_symtab *t, unsigned long addr);
/* The function starting exactly at \p addr, or NULL. */
const char *tune_symtab_start(const struct tune_symtab *t, unsigned long addr);
/* \p name demangled (C++: __cxa_demangle), else a copy; malloc'd. */
char *tune_demangle(const char *name);
/* How many of names[0..n-1] the ELF64 object at \p path does not export as
 * functions (.dynsym: defined, global or weak, default visibility), the
 * first of them in *missing; -1 when it is no readable ELF64 object. */
int tune_elf_exports(const char *path, const char *const *names, unsigned n,
                     const char **missing);

/* tune_analysis.c ------------------------------------------------------ */

/* Figures of every configuration and the summary, from the runs.  topo and
 * power: for the §2.3 bound (omp_ext_model_bound with the measured serial
 * fraction and sigma; topo may be NULL: no bound).  Returns 0 or
 * omp_ext_err_nomem. */
int tune_analyse(const struct tune_config *c, unsigned n, const omp_ext_topo_t *topo,
                 const omp_ext_power_model_t *power, struct tune_result *r,
                 struct tune_summary *s);
void tune_free_summary(struct tune_summary *s);
/* The median of x[0..n-1] (sorted in place); NAN for n 0. */
double tune_median(double *x, unsigned n);
/* sigma from a pair: T(C threads, one per core) / T(2C threads on the same
 * C cores) - 1. */
double tune_sigma(double t_one_per_core, double t_two_per_core);
/* The recommendation for objective o among the usable configurations (in
 * s: fastest, best, runner_up, significant, ntied; in r[]: tied, ratio,
 * paired): every configuration is tested against the fastest by
 * tune_paired_test; the cheapest (fewer cores, then fewer threads, then the
 * better median) of those not significantly worse is recommended. */
void tune_recommend(const struct tune_config *c, struct tune_result *r, unsigned n,
                    enum tune_objective o, struct tune_summary *s);
/* Paired test of a against b on metric o over the rounds both ran
 * successfully: *ratio the geometric mean of a/b, *paired the rounds used.
 * Returns 1 when a is significantly larger than b, -1 significantly
 * smaller, 0 not significant (or fewer than 2 paired rounds). */
int tune_paired_test(const struct tune_config *a, const struct tune_config *b, double t1,
                     enum tune_objective o, double *ratio, unsigned *paired);
/* The value of metric o of one run (NAN when the run does not count);
 * t1: the baseline's median time, for SPN. */
double tune_run_metric(const struct tune_config *c, const struct tune_run *run, double t1,
                       enum tune_objective o);

/* tune_report.c -------------------------------------------------------- */

struct tune_report {
  const struct tune_config *c;
  const struct tune_result *r;
  unsigned n;
  const struct tune_summary *s;
  char *const *argv;       /* the program and its arguments */
  const omp_ext_topo_t *topo;
  unsigned rounds;
  unsigned long seed;
  enum tune_objective objective;
  int energy_measured;     /* 1: RAPL, 0: modelled */
  const omp_ext_power_model_t *power;
  const char *power_name;  /* the --power-model text */
  char **skipped;          /* runs not started (budget): "spn 2 round 3" */
  unsigned nskipped;
  unsigned rounds_run;     /* rounds run, the adaptive ones included (0: as rounds) */
  const char *adaptive;    /* NULL: no --budget; "separated", "budget", "nothing to
                            * separate" or "round limit": how the adaptive rounds ended */
  struct tune_load load;   /* other processes' load, the program's CPU use */
};
void tune_print_table(FILE *out, const struct tune_report *t);
/* What every report says of a configuration: "ok", "failed (some runs)",
 * "invalid", "too few runs (--budget)", "not run". */
const char *tune_status_word(const struct tune_config *c, const struct tune_result *r);
/* 1: no parallel region ran although the timing layer watched (no
 * placement is recommended: TUNE_NO_REGION_VERDICT). */
int tune_no_region(const struct tune_report *t);
#define TUNE_NO_REGION_VERDICT "no parallel region ran: the thread count cannot matter"
/* The median of a configuration's serial seconds, of one region's totals
 * (NAN: none). */
double tune_serial_median(const struct tune_config *c);
double tune_region_total(const struct tune_region *g);
/* The first auto configuration (-1: none), and region g's entry there (NULL). */
int tune_auto_config(const struct tune_report *t);
const struct tune_region *tune_auto_region(const struct tune_report *t,
                                           const struct tune_region_summary *g);

/* tune_json.c ---------------------------------------------------------- */

void tune_print_json(FILE *out, const struct tune_report *t);
void tune_print_csv(FILE *out, const struct tune_report *t);

/* tune_plots.c --------------------------------------------------------- */

/* The gnuplot script: tune-time and tune-spn, .png and .svg. */
void tune_print_plot_script(FILE *f, const struct tune_report *t);

/* tune_out.c ----------------------------------------------------------- */

/* recommendation.txt: "OBJECTIVE: COMMAND" per objective. */
void tune_print_recommendation(FILE *f, const struct tune_report *t);
/* --out DIR while tune runs: a staging folder on DIR's file system (inside
 * DIR when it exists, else beside it), the program's stdout already there
 * (stdout_fd: program-stdout.txt). */
struct tune_out {
  char dir[4096];   /* --out, without trailing slashes */
  char stage[4200]; /* the staging folder ("" once removed or renamed) */
  int existed;      /* DIR existed: its files are replaced one by one */
  int empty;        /* DIR held none of tune's files (or did not exist) */
  int stdout_fd;    /* program-stdout.txt in the staging folder, -1 once closed */
};
/* Make DIR's parents and the staging folder with program-stdout.txt; 0, or
 * prints the error and returns HTP_EXIT_FAIL (nothing made but the parents). */
int tune_out_open(const char *dir, struct tune_out *o);
/* Every file of the report into the staging folder, checked (each write,
 * fsync), gnuplot's plots checked (exit status; not empty, complete); 0, or
 * prints the one error line and returns HTP_EXIT_FAIL.  No gnuplot, or
 * gnuplot failing on its own: a warning, no plots. */
int tune_out_write(struct tune_out *o, const struct tune_report *t);
/* The program failed in every configuration: program-stdout.txt and
 * stderr-tails.txt only (the caller commits them only into a DIR that held
 * no results: o->empty); 0 or HTP_EXIT_FAIL (printed). */
int tune_out_write_failure(struct tune_out *o, const struct tune_config *c, unsigned n);
/* Put the staging folder's files in place (see tune_out.c); 0 or
 * HTP_EXIT_FAIL (printed). */
int tune_out_commit(struct tune_out *o);
/* Remove the staging folder: DIR as it was. */
void tune_out_abort(struct tune_out *o);
/* The exact command for configuration i: "htplaces exec spn 6 -- ./app",
 * preceded by "OMP_EXT_SIGMA=0.270 " when sigma was measured (in (0, 1]):
 * what omp_ext_share() and the in-code model read. */
char *tune_exec_line(const struct tune_report *t, int i);

/* tune_launcher.c ------------------------------------------------------ */

/* How --launcher's ranks start: "mpirun"/"mpiexec" (Open MPI, MPICH Hydra),
 * "srun", or another command, whose binding tune cannot switch off. */
enum tune_launcher_kind { TUNE_LAUNCHER_MPIRUN, TUNE_LAUNCHER_SRUN, TUNE_LAUNCHER_OTHER };

struct tune_launcher {
  char **words;             /* the --launcher text split as a shell would (malloc'd) */
  unsigned nwords;
  enum tune_launcher_kind kind;
  int bind_off;             /* the text itself says --bind-to none / --cpu-bind=none */
  int cpus_given;           /* srun: the text gives -c / --cpus-per-task */
  unsigned pus, cores;      /* the allowed PUs and cores (tune_launcher_setup) */
  char *htplaces;           /* the word that runs this htplaces: "htplaces" when
                             * $PATH finds this one, else its absolute path */
  char *restrict_list;      /* tune's -r LIST, passed to each rank's exec; NULL */
};

/* Split --launcher's text into l's words (NULL-ended) and check it: {R}
 * present, nothing a shell would expand ($, `, globs, |, ;, <, >, ...),
 * no binding of its own (mpirun --bind-to X but none, --cpu-set,
 * --rankfile, --map-by ...:PE=n; srun --cpu-bind=X but none, --hint,
 * --threads-per-core; SLURM_HINT set).  0, or prints the one-line error
 * and returns HTP_EXIT_USAGE (l left empty). */
int tune_launcher_parse(const char *text, struct tune_launcher *l);
/* The allowed PUs and cores (topo), the htplaces word, -r LIST; 0 or
 * prints the error and returns HTP_EXIT_FAIL. */
int tune_launcher_setup(struct tune_launcher *l, const omp_ext_topo_t *topo,
                        const char *restrict_list);
void tune_launcher_free(struct tune_launcher *l);
/* Whether R ranks can each get whole cores through this launcher: srun
 * without -c in the text gets --cpus-per-task=PUs/R, which must give each
 * rank whole cores of a step that holds every allowed PU (Slurm binds a
 * step's tasks to its CPUs even with --cpu-bind=none).  1 fits; 0 with
 * why[len]. */
int tune_launcher_fits(const struct tune_launcher *l, unsigned ranks, char *why, size_t len);
/* What tune adds to the launcher's words, "--bind-to none" (static); ""
 * when nothing. */
const char *tune_launcher_added(const struct tune_launcher *l, char *buf, size_t len);
/* The command of one run of configuration c (c->ranks, c->launcher): the
 * launcher's words with {R} replaced and its binding turned off, then
 * `htplaces exec --ranks-per-node R POLICY T --` (none: nothing) and
 * PROGRAM ARGS (each with tune_substitute).  NULL-ended, malloc'd (each
 * word too); NULL when out of memory. */
char **tune_launcher_argv(const struct tune_config *c, char *const *prog);
/* Whether the ranks are the launcher's descendants (mpirun forks them; srun's
 * tasks are slurmstepd's): only then is the run's CPU time theirs. */
int tune_launcher_owns_ranks(const struct tune_launcher *l);

/* tune_ranks.c --------------------------------------------------------- */

/* A ranks x threads split that does not fit (listed by --dry-run and the
 * report); threads 0: every thread count. */
struct tune_skip {
  unsigned ranks, threads;
  char why[200];
};

/* What --launcher adds to the plan. */
struct tune_hybrid {
  struct tune_launcher launcher;
  unsigned *ranks;          /* --ranks, in the order given */
  unsigned nranks;
  struct tune_skip *skips;  /* the splits that do not fit */
  unsigned nskips;
};

/* --ranks "1,2,4" or "1-4" (as --threads): each 1..65536, a count listed
 * twice kept once; prints errors naming --ranks.  NULL text: 1, 2, 4, ...
 * up to the allowed cores, and the cores. */
int tune_parse_ranks(const char *text, unsigned ncores, unsigned **ranks, unsigned *n);
/* The hybrid plan on ctx's topology: for each R of h->ranks, each thread
 * count T (threads_text, or "auto": tune_auto_threads on the smallest of
 * the R domains) and each policy and wait policy, the configuration of R
 * ranks of T threads, rank r's places those of `htplaces --ranks-per-node R
 * --local-rank r POLICY T`; the splits that do not fit into h->skips.
 * Identical placements merged.  0, or prints the error and returns the exit
 * status (2 when no split fits). */
int tune_ranks_plan(struct htp_ctx *ctx, struct tune_hybrid *h, const int *policies,
                    unsigned npol, const char *threads_text, const enum tune_wait *waits,
                    unsigned nwaits, struct tune_config **configs, unsigned *n);
void tune_ranks_free(struct tune_hybrid *h);
/* The program's arguments and the launcher under --launcher: no {PLACES}
 * (each rank has its own list); with \p find, the launcher found (as
 * tune_find_program: --dry-run shows a plan where it is not installed).
 * 0, or prints the error and returns the exit status. */
int tune_ranks_check_args(const struct tune_launcher *l, char *const *prog, int find);
/* --dry-run: the launcher line and the skipped splits (text), or their JSON
 * members ("launcher": ..., "skipped": [...], with a leading comma). */
void tune_ranks_print_plan(FILE *out, const struct tune_hybrid *h);
/* Before the runs: one "htplaces tune: not run: 2x4: why" line per split
 * that does not fit. */
void tune_ranks_print_skips(FILE *out, const struct tune_hybrid *h);
void tune_ranks_plan_json(FILE *out, const struct tune_hybrid *h);
/* A configuration's JSON members for --launcher (", \"ranks\": R,
 * \"threads_per_rank\": T"); nothing without it. */
void tune_ranks_config_json(FILE *out, const struct tune_config *c);
/* The command of configuration c under --launcher, for people, after the
 * environment tune_exec_line puts first: none's OMP_NUM_THREADS=T, then the
 * run's words (tune_launcher_argv), shell-quoted.  0, or -1 out of memory. */
int tune_ranks_command(FILE *f, const struct tune_config *c, char *const *prog);
/* A run's timing files under --launcher (path as tune_read_timing's, with
 * %p): each process's file read alone and checked against the domain of the
 * rank its threads are on (no two processes on one rank's places); the
 * regions of all ranks folded into c, each region's time in the run the
 * slowest rank's; *serial_s the largest.  Returns as tune_read_timing. */
int tune_ranks_read_timing(const char *path, struct tune_config *c, double *serial_s,
                           char *invalid, size_t len);

/* tune's options (tune_options.c), as given or defaulted by htp_cmd_tune. */
struct tune_opts {
  const char *policies, *threads, *waits, *out, *power_text, *timing_lib;
  int no_regions;
  unsigned reps;
  unsigned long seed;
  double budget_s, timeout_s;
  int dry_run;
  enum tune_objective objective;
  omp_ext_power_model_t power;
  const char *stdin_path; /* --stdin FILE, or NULL: /dev/null */
  const char *launcher, *ranks; /* --launcher TEXT, --ranks LIST (tune_ranks.c); NULL */
};

/* tune's command line: its options into \p o (ctx's common ones into ctx),
 * *sep the index of "--" before PROGRAM; prints errors. */
int tune_parse_options(struct htp_ctx *ctx, int argc, char **argv, struct tune_opts *o, int *sep);

/* The options checked together (-i only with --dry-run, --ranks with
 * --launcher, the format: *json) and against the environment (no variable
 * that would override the places); prints errors. */
int tune_check_options(const struct htp_ctx *ctx, const struct tune_opts *o, int *json);

#endif /* HTPLACES_TUNE_H */
