/*
 * htbench: OpenMP benchmark suite of omp_ext (issue 5).  Private header
 * shared by the kernels (one file each), the statistics, the worker, the
 * sweep, the report and the plots.
 *
 * Process model: the parent (sweep) computes each configuration's places
 * with omp_ext_order() + omp_ext_places_format() and re-executes itself as
 * `htbench --worker ...` with OMP_PLACES, OMP_PROC_BIND=close and
 * OMP_NUM_THREADS set; the worker times one kernel (EPCC's method), records
 * each thread's binding inside the kernel's region and prints one result
 * line ("key=value" fields separated by tabs) on stdout.
 */
#ifndef HTBENCH_H
#define HTBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "omp_ext.h"
#include "misc.h"

#define HTB_EXIT_OK 0
#define HTB_EXIT_FAIL 1
#define HTB_EXIT_USAGE 2

/* Print "htbench: MESSAGE" on stderr, one line (control characters
 * become '?'); returns status. */
int htb_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A sweep acts on this machine: HTB_EXIT_OK, or the one-line usage error
 * (HTB_EXIT_USAGE) naming the hwloc variable (HWLOC_FSROOT,
 * HWLOC_SYNTHETIC, HWLOC_XMLFILE) that replaces this machine, unless
 * HWLOC_THISSYSTEM=1 (as htplaces exec, verify, doctor, tune). */
int htb_this_machine(void);

/* After writing to stdout: HTB_EXIT_OK if everything reached it, else
 * "cannot write to standard output" and HTB_EXIT_FAIL. */
int htb_stdout_done(void);

/* (Seconds from a monotonic clock: sweep_now(), omp_ext/tools/sweep/sweep.h.) */
/* CPU seconds used by this process (all threads). */
double htb_cpu_now(void);

/* ---------------------------------------------------------------- sizes */

/* Problem sizes and timing settings, shared by parent and worker. */
struct htb_sizes {
  const char *input;       /* word count: text file; NULL = generated corpus */
  double corpus_mb;        /* generated corpus size in MB (10^6 bytes) */
  uint64_t seed;           /* corpus seed */
  uint64_t sieve_limit;    /* sieve: count primes <= limit */
  uint64_t flops_iters;    /* flops: dependent operations per region (total) */
  uint64_t triad_n;        /* triad: elements per array */
  unsigned outer_reps;     /* >= 10 */
  double target_s;         /* inner reps calibrated so one outer rep lasts this long */
  const char *wc_expect;   /* word count: "total,distinct,checksum" of the serial
                            * reference (computed once by the parent); NULL = the
                            * worker compares word by word itself */
  uint64_t split_n;        /* split-*: iterations of the loop */
  uint64_t split_len;      /* split-*: dependent additions per iteration */
  uint64_t split_chunk;    /* split-dynamic, split-tail, split-steal: the chunk of schedule(dynamic, chunk) */
  uint64_t split_tail;     /* split-tail: percent of the loop in the dynamic tail */
  uint64_t split_pair_ms;  /* split-* but serial: 0, or pair each repetition with a serial
                            * loop run after this many ms of rest (worker.c) */
};

/* ------------------------------------------------------- binding probe */

#define HTB_PROBE_LEN 512 /* bytes of each cpus[t] */

/* What each thread saw inside a kernel's region (filled in the warm-up). */
struct htb_probe {
  unsigned nthreads;      /* expected team size */
  int *team;              /* team[t]: omp_get_num_threads() seen by thread t */
  char **cpus;            /* cpus[t]: sched_getaffinity of thread t, "0-3" list */
  int *cpu_count;         /* number of CPUs in cpus[t] */
  int *first_cpu;         /* lowest CPU in cpus[t] */
};

/* Record the calling thread's binding (call inside the region, once per
 * thread, when probe != NULL). */
void htb_probe_here(struct htb_probe *probe);

/* ------------------------------------------------------------- kernels */

enum htb_kernel_kind { HTB_WORK = 0, HTB_OVERHEAD = 1 };

/* A kernel.  setup() allocates a state for `nthreads` threads (returns NULL
 * and fills err on failure); run() executes `inner` repetitions of the
 * timed region(s) (probe non-NULL only in the warm-up); reference(), for
 * EPCC overhead kernels, executes `inner` repetitions of the serial
 * reference; verify() checks the last result, returns 1 if right and
 * writes a one-line summary (or the error) in msg. */
struct htb_kernel {
  const char *name;
  const char *description;
  enum htb_kernel_kind kind;
  const char *unit;       /* rate unit ("MB/s", "Mop/s"), NULL if none */
  void *(*setup)(const struct htb_sizes *sz, unsigned nthreads, char *err, size_t errlen);
  void (*run)(void *state, unsigned long inner, struct htb_probe *probe);
  void (*reference)(void *state, unsigned long inner);
  int (*verify)(void *state, char *msg, size_t msglen);
  double (*work)(void *state); /* units of `unit` per region (e.g. MB), or 0 */
  void (*teardown)(void *state);
  /* The team's capacity seen in the warm-up (sum of omp_ext_team_weights()),
   * or NULL: the split kernels' balanced limit. */
  double (*capacity)(void *state);
};

extern const struct htb_kernel htb_kernel_wordcount, htb_kernel_sieve, htb_kernel_fadd,
    htb_kernel_fmul, htb_kernel_fdiv, htb_kernel_triad, htb_kernel_parallel, htb_kernel_for,
    htb_kernel_barrier, htb_kernel_reduction, htb_kernel_split_static, htb_kernel_split_dynamic,
    htb_kernel_split_share, htb_kernel_split_weights, htb_kernel_split_tail,
    htb_kernel_split_steal, htb_kernel_split_adaptive, htb_kernel_split_serial;

/* All kernels, NULL-terminated, in report order. */
extern const struct htb_kernel *const htb_kernels[];
const struct htb_kernel *htb_kernel_by_name(const char *name);

/* -------------------------------------------------------------- corpus */

/* English-like corpus: Zipf (s = 1) over HTB_CORPUS_WORDS pseudo-words,
 * sentences with capitals, commas and periods, lines of about 72 columns.
 * Exactly `bytes` bytes, deterministic for a seed.  Returns a malloc'ed
 * buffer (not NUL-terminated) or NULL. */
#define HTB_CORPUS_WORDS 50000
char *htb_corpus_generate(size_t bytes, uint64_t seed);
/* The pseudo-word of rank r (0 = most frequent) for a seed, in buf (>= 16). */
size_t htb_corpus_word(uint64_t seed, unsigned rank, char *buf);
/* Write a corpus file; 0 or -1 (errno set). */
int htb_corpus_write(const char *path, size_t bytes, uint64_t seed);

/* Read a whole file; NULL and err filled on failure. */
char *htb_read_file(const char *path, size_t *len, char *err, size_t errlen);

/* --------------------------------------------------------------- words */

/* Word count on a buffer, usable without the harness (tests): returns
 * distinct words, fills total words; top[0..k-1] (malloc'ed words) and
 * counts of the k most frequent words (ties by word). */
struct htb_wc_top {
  char word[64];
  uint64_t count;
};
int htb_wordcount_buffer(const char *buf, size_t len, unsigned nthreads, uint64_t *total,
                         uint64_t *distinct, struct htb_wc_top *top, unsigned k, char *msg,
                         size_t msglen);

/* The serial reference's digest of a text, as "total,distinct,checksum"
 * (checksum = sum over words of (hash | 1) * count, mod 2^64), written in
 * out; 0, or -1 when out of memory. */
int htb_wordcount_reference(const char *buf, size_t len, char *out, size_t outlen);

/* -------------------------------------------------------------- stats */

/* The tools' helpers: omp_ext_stats_compute(), omp_ext_student_t975()
 * (omp_ext/tools/misc.h, not exported by libomp_ext). */

/* -------------------------------------------------------------- power */

/* Modelled power in watts of a placement (paper §2.1): P = Pn + Ps*packages
 * + Pc*cores + Pt*extra_siblings, with htb_model(). */
double htb_modelled_power_w(unsigned packages, unsigned cores, unsigned extra_siblings);

/* The energy model of the environment (omp_ext_model_from_env():
 * OMP_EXT_POWER_MODEL, OMP_EXT_SIGMA, OMP_EXT_SERIAL_FRACTION), else the
 * paper's default; read once. */
const omp_ext_model_t *htb_model(void);

/* An invalid OMP_EXT_POWER_MODEL, OMP_EXT_SIGMA or OMP_EXT_SERIAL_FRACTION:
 * the usage error naming it (HTB_EXIT_USAGE), never a silent default;
 * HTB_EXIT_OK when valid or unset. */
int htb_check_model_env(void);

/* An open reader of the RAPL package counters (omp_ext_rapl_open()), or
 * NULL where none is readable. */
omp_ext_rapl_t *htb_rapl_open(void);

/* 1 if the RAPL package counters are readable here. */
int htb_rapl_readable(void);

/* ------------------------------------------------------------- results */

#define HTB_STR 4096
/* One configuration's result: worker fields, then parent-derived fields. */
struct htb_result {
  /* configuration (parent) */
  char kernel[32];
  char policy[32];       /* the series: "spn", or "spn@incode" on the in-code path */
  char path[8];          /* "env" (OMP_PLACES) or "incode" (omp_set_ht_policy()) */
  unsigned threads;
  unsigned cores;        /* busy cores */
  unsigned packages;     /* busy packages */
  unsigned extra;        /* threads beyond one per core (extra siblings) */
  unsigned oversub;      /* threads beyond one per place (--oversubscribe): time-sharing */
  char places[HTB_STR];  /* intended places: OMP_PLACES given on the env path */
  /* measurement (worker) */
  unsigned long inner_reps;
  unsigned outer_reps;
  double median_s, min_s, max_s, mean_s, sd_s, ci95_lo_s, ci95_hi_s;
  unsigned outliers;
  double ref_mean_s;     /* overhead kernels: reference time per rep; split kernels:
                          * the paired serial loop's mean time */
  double work;           /* rate units per region */
  double rate;           /* work / median */
  char unit[16];
  int verified;
  char check[512];       /* verification summary or error */
  int binding_ok;
  int ht_hooks;          /* in-code path: omp_ext_ht_hooks() after the warm-up; env: 0 */
  char bindings[HTB_STR]; /* "thread:cpulist;..." */
  double rapl_w;         /* RAPL package power over the timed repetitions (W), -1 if none */
  double cpu_util;       /* process CPU time / (wall time x threads) over the timed
                          * repetitions: well below 1 = the machine was contended */
  double capacity;       /* split kernels: sum of the team's weights (NaN: none) */
  /* derived (parent) */
  double power_w;
  double energy_j;       /* one region: power_w x median_s */
  char energy_source[16]; /* "rapl" or "modelled" */
  double speedup;        /* T(1 thread, same policy) / T; NaN for overhead */
  double spn;            /* 1000 * speedup / (power * cores) */
  double vs_balanced;    /* split kernels: median over the repetitions of time /
                          * (the paired serial time / capacity) (worker); else, for a
                          * kernel without its pairs, median / (split-serial's
                          * median / capacity), same policy and places (parent);
                          * NaN without them */
  double vs_balanced_lo, vs_balanced_hi; /* 95% CI of the paired ratios' mean (NaN: none) */
  int valid;             /* verified && binding_ok && ran */
  double wall_s;         /* the worker process's wall time (parent) */
  char status[64];       /* "ok", or why not */
};

/* Field table driving the worker line, CSV and JSON. */
enum htb_ftype { HTB_F_STR, HTB_F_UINT, HTB_F_ULONG, HTB_F_INT, HTB_F_DBL };
struct htb_field {
  const char *name;
  enum htb_ftype type;
  size_t offset;
  size_t size;
};
extern const struct htb_field htb_fields[];
extern const unsigned htb_nfields;
const struct htb_field *htb_field_by_name(const char *name);
/* Set a field from text; 0 or -1. */
int htb_field_set(struct htb_result *r, const struct htb_field *f, const char *text);
/* Format a field as text (numbers: %.9g; NaN/negative energy: empty). */
void htb_field_get(const struct htb_result *r, const struct htb_field *f, char *buf, size_t len);
void htb_result_init(struct htb_result *r);

/* ---------------------------------------------------------- components */

struct htb_options {
  int quick;
  const char *out;            /* output directory */
  const char *plot_only;      /* --plot DIR */
  const char *kernels;        /* comma list or NULL = all */
  const char *policies;       /* comma list or NULL = all */
  const char *threads;        /* list "1,2,4" / "1-8" or NULL = 1..PUs */
  double budget_s;            /* stop starting configurations after this; 0 = none */
  int no_plot;
  unsigned paths;             /* HTB_PATH_* bits (--path) */
  unsigned oversub;           /* --oversubscribe K: N + K threads on N places */
  const char *incode_bin;     /* htbench-incode, for the in-code workers */
  struct htb_sizes sizes;
};

/* --path: how each configuration's workers are placed. */
#define HTB_PATH_ENV 1u    /* OMP_PLACES + OMP_PROC_BIND=close + OMP_NUM_THREADS */
#define HTB_PATH_INCODE 2u /* omp_set_ht_policy_num_threads() in htbench-incode */

/* The in-code API, handed to the worker by htbench-incode only: htbench
 * itself must not link it (its GOMP_* wrappers and OMPT tool would then
 * be live on the env path too; see benchmarks/CMakeLists.txt). */
struct htb_incode_api {
  int (*set_policy)(omp_ht_policy_t policy, int num_threads); /* omp_set_ht_policy_num_threads */
  int (*hooks)(void);                                         /* omp_ext_ht_hooks */
};

/* Worker: time one kernel on nthreads threads whose intended places are
 * the OS indexes in `expect` ("3,5"; fewer places than threads: the team
 * oversubscribes them, each thread must sit on one of them, the places'
 * thread counts differing by at most one); prints the result line; returns the
 * exit status.  incode_policy non-NULL: the in-code path, the worker calls
 * api->set_policy(policy, nthreads) first (api NULL: usage error); for
 * policy os the threads must stay unbound (the process's mask). */
int htb_worker(const char *kernel, unsigned nthreads, const char *expect,
               const struct htb_sizes *sz, const char *incode_policy,
               const struct htb_incode_api *api);
/* Sweep: run every configuration and write the files. */
int htb_sweep(const struct htb_options *opt, const char *self);
/* Report: results.csv, results.json and the tables on stdout. */
struct htb_machine;
int htb_write_csv(const char *path, const struct htb_result *r, unsigned n);
void htb_csv_header(FILE *f);
void htb_csv_row(FILE *f, const struct htb_result *r);
int htb_read_csv(const char *path, struct htb_result **r, unsigned *n, char *err, size_t errlen);
int htb_write_json(const char *path, const char *machine_json, const struct htb_options *opt,
                   const struct htb_result *r, unsigned n);
void htb_print_tables(FILE *out, const struct htb_result *r, unsigned n, unsigned max_smt);
/* Plots from results (gnuplot); 0, 1 on failure, 3 if gnuplot is absent. */
int htb_plot(const char *dir, const struct htb_result *r, unsigned n);
/* Parent-derived fields (power, energy, speed-up, SPN, validity). */
void htb_derive(struct htb_result *r, unsigned n);
/* JSON strings: omp_ext_json_string() (omp_ext/tools/misc.h). */

#endif /* HTBENCH_H */
