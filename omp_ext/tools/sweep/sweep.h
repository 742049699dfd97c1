/*
 * omp_ext/tools/sweep/sweep.h -- the tools' sweep engine: one way to run a plan
 * of configurations round after round, used by `htplaces tune` (the user's
 * program) and by htbench (the built-in kernels).
 *
 *   plan       the caller's array of n configurations (tune: policy x N x
 *              OMP_WAIT_POLICY; htbench: kernel x N x policy x path)
 *   rounds     each configuration once per round, every round in its own
 *              order (sweep_order: a seeded shuffle, or the plan's order),
 *              an optional discarded warm-up run first, no run started once
 *              the time budget is spent (the run is skipped, or the round
 *              stopped)
 *   runs       the caller's runner: it executes one configuration once and
 *              keeps that run's samples with the configuration (tune: a
 *              child process, the samples its wall/CPU time and energy;
 *              htbench: a worker process timing one kernel, the samples
 *              its repetitions)
 *   statistics omp_ext/tools/misc.h: omp_ext_stats_compute, the t quantile
 *   processes  sweep_spawn.c: one launcher for a run's child process (tune
 *              and verify: the user's program, isolated in its own process
 *              group; htbench: a worker, its stdout captured);
 *              sweep_tree.c: the processes a run left outside its group;
 *              sweep_signals.c: SIGINT/TERM/HUP caught, forwarded to a run
 *   outputs    sweep_files.c: the output folder, the files, JSON text,
 *              gnuplot
 *
 * Built as the static library omp_ext_sweep (omp_ext/tools/sweep/CMakeLists.txt),
 * linked into htplaces and htbench only: libomp_ext does not export it.
 */
#ifndef OMP_EXT_SWEEP_H
#define OMP_EXT_SWEEP_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- sweep.c */

/** The rounds of a sweep. */
struct sweep_plan {
  unsigned n;          /**< configurations: indexes 0..n-1 of the caller's array */
  unsigned rounds;     /**< rounds every configuration runs (at least 1) */
  int shuffled;        /**< 1: each round in the seeded shuffled order; 0: plan order */
  unsigned long seed;  /**< the shuffle's seed (shuffled only) */
  double budget_s;     /**< 0: none; else no run starts once this many seconds
                        *   have passed since sweep_state.start */
};

/** Where a sweep stands: what progress lines and the budget read. */
struct sweep_state {
  double start;        /**< sweep_now() when the sweep (or the caller's work
                        *   before it) started: the budget counts from here */
  unsigned done;       /**< runs finished (the warm-up not counted) */
  unsigned total;      /**< runs planned so far: n x rounds (rounds the caller
                        *   adds, as tune's adaptive ones, add theirs) */
  double run_time;     /**< seconds the finished runs took (as the runner said) */
  double warmup_time;  /**< seconds the warm-up run took (0: none) */
  unsigned rounds;     /**< rounds begun */
  unsigned skipped;    /**< runs not started: the budget was spent */
  int budget_spent;    /**< 1: a run was skipped, or a round stopped, at the budget */
};

/** What runs a configuration: the caller's callbacks, each given ctx.  A
 * callback's non-zero return is an exit status that ends the sweep. */
struct sweep_runner {
  void *ctx;
  /** Run configuration `config` once for round `round` (0-based) and keep
   * its samples; *seconds: the run's wall time. */
  int (*run)(void *ctx, unsigned config, unsigned round, double *seconds);
  /** After each run (st counts it): the progress line; NULL: none. */
  void (*ran)(void *ctx, unsigned config, unsigned round, const struct sweep_state *st);
  /** A run not started: the budget was spent (st counts it); NULL: none. */
  int (*skip)(void *ctx, unsigned config, unsigned round, const struct sweep_state *st);
  /** The warm-up run (page cache, the runtime's first start), whose figures
   * are discarded, of the first configuration of round 0's order;
   * *seconds its wall time.  NULL: no warm-up. */
  int (*warm_up)(void *ctx, unsigned config, double *seconds);
};

/** What sweep_run and sweep_round return when out of memory (nothing
 * printed); every other non-zero value is a callback's exit status. */
#define SWEEP_NOMEM (-1)

/** Past the budget, sweep_round skips each remaining run (runner->skip) or
 * stops the round. */
enum sweep_past { SWEEP_SKIP = 0, SWEEP_STOP };

/**
 * Run the plan: st->total = n x rounds, the warm-up (runner->warm_up), then
 * rounds 0..rounds-1 by sweep_round (SWEEP_SKIP past the budget).
 * st->start: set by the caller (0: now).
 * \return 0, SWEEP_NOMEM, or the first non-zero status of a callback.
 */
int sweep_run(const struct sweep_plan *p, const struct sweep_runner *r, struct sweep_state *st);

/**
 * One round: configurations subset[0..k-1] (subset NULL: 0..k-1) in the
 * round's order (sweep_order over k), each run once, unless the budget is
 * spent: then each remaining one is skipped (SWEEP_SKIP) or the round ends
 * (SWEEP_STOP), and st->budget_spent is set.  st->rounds becomes round + 1.
 * \return 0, SWEEP_NOMEM, or the first non-zero status of a callback.
 */
int sweep_round(const struct sweep_plan *p, const struct sweep_runner *r, struct sweep_state *st,
                const unsigned *subset, unsigned k, unsigned round, enum sweep_past past);

/** The order of round `round` over n items: a permutation of 0..n-1, the
 * same for the same seed and round on every machine (splitmix64 and
 * Fisher-Yates) when p->shuffled, else 0..n-1. */
void sweep_order(const struct sweep_plan *p, unsigned *order, unsigned n, unsigned round);

/** The seeded shuffle itself: a permutation of 0..n-1 for (seed, round). */
void sweep_shuffle(unsigned *order, unsigned n, unsigned long seed, unsigned round);

/** Seconds from a monotonic clock. */
double sweep_now(void);

/* ---------------------------------------------------------- sweep_spawn.c */

/** sweep_spawn.out: the child's stdout into a pipe, read into
 * sweep_spawned.out (plain runs only). */
#define SWEEP_CAPTURE (-2)

/** One run of a program in a child process. */
struct sweep_spawn {
  char *const *argv;  /**< the program and its arguments, NULL-ended */
  int search;         /**< 1: argv[0] looked up on $PATH (execvp); 0: a path (execv) */
  const char *who;    /**< NULL: an exec failure exits 127 silently; else it
                       *   prints "WHO: cannot run 'PROGRAM': ERROR" on the
                       *   child's stderr and exits 127 (not found) or 126 */
  /** In the child, before its streams and exec: its environment (setenv),
   * signal dispositions and mask; NULL: none.  Given ctx. */
  void (*setup)(void *ctx);
  void *ctx;
  int in, out, err;   /**< the child's stdin, stdout, stderr: a descriptor,
                       *   or -1: the caller's; out may be SWEEP_CAPTURE */
  int group;          /**< 0 plain: the caller's process group, waited for
                       *   to its end (timeout_s, wake, interrupt, grace_s,
                       *   watch, ended unused).  1 isolated: its own process
                       *   group, killed whole (SIGKILL) when its leader
                       *   ends, on a stop on the terminal (SIGTTIN,
                       *   SIGTTOU), past timeout_s, and grace_s after a
                       *   forwarded signal; killed if the caller dies; the
                       *   group's orphans reaped (the caller becomes a
                       *   subreaper), then every process the run left
                       *   outside its group (setsid: a daemon) killed and
                       *   reaped as the caller's descendant
                       *   (sweep_kill_descendants), 2 s at most each.  The
                       *   caller blocks *wake before the call */
  double timeout_s;   /**< group: seconds from the start; 0: none */
  const sigset_t *wake; /**< group: SIGCHLD and the signals the caller catches,
                         *   blocked, which the wait takes (sigtimedwait) */
  /** group, may be NULL: told each signal of *wake the wait took besides
   * SIGCHLD (sig > 0), and asked (sig 0) which signal to forward to the
   * group (0: none); once one is forwarded it is not asked again. */
  int (*interrupt)(void *ctx, int sig);
  double grace_s;     /**< group: seconds from a forwarded signal to SIGKILL */
  /** group, may be NULL: the caller's work while the run goes on (verify:
   * relay the program's output, sample its threads), given the leader's
   * pid; called once at once after the fork with max_s 0 (the caller may
   * close its copies of the child's descriptors), then in place of the
   * wait's sleep, for at most max_s seconds (<= 1) each time. */
  void (*watch)(void *ctx, pid_t pid, double max_s);
  /** group, may be NULL: the leader has ended and is not reaped yet (its
   * /proc/PID entry is still there); the group not killed yet. */
  void (*ended)(void *ctx, pid_t pid);
};

/** How a run ended. */
struct sweep_spawned {
  int exit_status;    /**< its exit status 0..255, or -1: killed by a signal */
  int signal;         /**< the signal that killed it, or 0 */
  int timed_out;      /**< 1: killed past timeout_s */
  int stopped;        /**< SIGTTIN or SIGTTOU: killed after it stopped on the terminal; else 0 */
  int interrupted;    /**< the signal forwarded to it, or 0 */
  double wall_s;      /**< seconds from the fork to its end (group: to the
                       *   leader's exit, not the reaping) */
  double user_s;      /**< CPU seconds in user mode, all its threads (and its
                       *   reaped children), from wait4()'s rusage */
  double sys_s;       /**< CPU seconds in the kernel, likewise */
  char *out;          /**< SWEEP_CAPTURE: its stdout, NUL-ended, malloc'd (the
                       *   caller frees it); NULL when out of memory */
  int exec_errno;     /**< the program could not be run: execv's errno (the
                       *   child then exited 127 or 126); 0: it ran */
  int status;         /**< the leader's wait status (WIFEXITED...) */
};

/** sweep_spawn's returns besides 0. */
#define SWEEP_SPAWN_START (-1) /**< not started: pipe or fork failed (errno) */
#define SWEEP_SPAWN_WAIT  (-2) /**< started, but cannot be waited for (errno) */

/**
 * Run s->argv in a child process and wait for it (fflush(NULL) first).
 * \return 0 (*w says how it ended, whatever its exit status),
 * SWEEP_SPAWN_START or SWEEP_SPAWN_WAIT, with errno set.
 */
int sweep_spawn(const struct sweep_spawn *s, struct sweep_spawned *w);

/* ----------------------------------------------------------- sweep_tree.c */

/** The caller's children now, malloc'd into *pids (the caller frees it).
 * 0, or -1 (/proc unreadable, out of memory: none listed). */
int sweep_children(pid_t **pids, size_t *n);

/**
 * Kill (SIGKILL) every descendant of the caller (found from /proc) but
 * keep[0..nkeep-1] and theirs, reaping the caller's own children, until
 * none is left or \p seconds have passed.
 * \return how many were still there at the end (0: none).
 */
size_t sweep_kill_descendants(const pid_t *keep, size_t nkeep, double seconds);

/* -------------------------------------------------------- sweep_signals.c */

/** SIGINT, SIGTERM and SIGHUP, except those ignored now (nohup: they stay
 * ignored, for the program too), are caught from now on: the first one is
 * recorded (sweep_signal_caught).  sweep_signals_restore() puts the
 * dispositions back.  Signal dispositions are process-wide: one caller at
 * a time. */
void sweep_signals_catch(void);
void sweep_signals_restore(void);
/** From now on a signal caught interrupts a blocked system call (EINTR,
 * no SA_RESTART): a write to a pipe nobody reads ends. */
void sweep_signals_no_restart(void);
/** The first signal caught (or taken by sweep_take_signal), or 0. */
int sweep_signal_caught(void);
/** SIGCHLD and the signals caught: sweep_spawn.wake. */
void sweep_signals_wake(sigset_t *set);
/** In a child (sweep_spawn.setup): the signals caught back to SIG_DFL. */
void sweep_signals_default(void);
/** sweep_spawn.interrupt: a signal the wait took is recorded as caught;
 * the one to forward is the signal caught, before the run or during it. */
int sweep_take_signal(void *ctx, int sig);
/** "SIGINT", "SIGTERM", "SIGHUP" (else "a signal"). */
const char *sweep_signal_name(int sig);

/* ---------------------------------------------------------- sweep_files.c */

/**
 * mkdir -p: \p dir and every missing parent; an existing folder is fine.
 * \return 0, or the errno of the failure (ENOTDIR: \p dir exists and is no
 * folder; ENAMETOOLONG), with \p failed[len] the path that failed (\p dir
 * itself or one of its parents).
 */
int sweep_make_dir(const char *dir, char *failed, size_t len);

/** "DIR/NAME", malloc'd; NULL when out of memory. */
char *sweep_path(const char *dir, const char *name);

/** \p s as one quoted CSV field (RFC 4180): "s", each '"' doubled.  The
 * caller decides when a field is quoted (htbench: when it needs to be;
 * tune: its invalid column whenever not empty). */
void sweep_csv_quoted(FILE *f, const char *s);

/** The file execvp would run for \p name, into out[len]: \p name itself
 * when it has a '/', else the first executable DIR/NAME along $PATH (an
 * empty entry is ".", no PATH is /usr/local/bin:/usr/bin:/bin, as glibc's
 * execvp); 0, or -1 when none is found. */
int sweep_which(const char *name, char *out, size_t len);

/** 1 when an executable gnuplot is on $PATH, else 0. */
int sweep_have_gnuplot(void);

/**
 * gnuplot SCRIPT run in \p dir, by fork and exec (no shell: any folder
 * name is only a name).  \p log NULL: gnuplot's standard streams are the
 * caller's; else stdin and stdout /dev/null and stderr into dir/LOG.
 * \return 0 (it ran and exited 0); 127 gnuplot not found; 126 no such
 * folder; -1 fork failed; else its exit status, or 128 + the signal.
 */
int sweep_gnuplot(const char *dir, const char *script, const char *log);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_SWEEP_H */
