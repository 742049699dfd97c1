/*
 * htplaces tune: one run of the user's program in one configuration, in the
 * production path of `htplaces exec` (OMP_PLACES, OMP_PROC_BIND=close,
 * OMP_NUM_THREADS; "none": OMP_NUM_THREADS only; "auto": OMP_EXT_HT_POLICY=auto
 * only, with libomp_ext preloaded), with OMP_WAIT_POLICY when
 * the plan says, {N} and {PLACES} in its arguments replaced.  Each run is
 * isolated: stdin from --stdin FILE re-opened (or /dev/null), its own
 * process group, killed whole when the run ends (background children too),
 * past --timeout, when it stops on the terminal (SIGTTIN/SIGTTOU), and after
 * a grace period when SIGINT, SIGTERM or SIGHUP reach tune (forwarded to it
 * first).  Its stdout goes where tune says (program-stdout.txt, labelled, or
 * a file of tune's temporary folder), its stderr to a file there; the last
 * non-empty line of either is kept when the run fails.  The launch, the
 * wait, wall time (CLOCK_MONOTONIC) and CPU time of all its threads
 * (wait4()'s rusage) are the sweep engine's (sweep_spawn, isolated); what
 * other processes used meanwhile is from /proc/stat.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tune_int.h"

static void put_env(const struct tune_config *c)
{
  char count[16];
  /* (tune refuses to start when KMP_AFFINITY, GOMP_CPU_AFFINITY or
   * OMP_EXT_HT_POLICY are set, as exec does; OMP_WAIT_POLICY stays the
   * user's unless the plan varies it.) */
  unsetenv("OMP_PLACES");
  unsetenv("OMP_PROC_BIND");
  snprintf(count, sizeof(count), "%u", tune_rank_threads(c)); /* (--launcher: per rank) */
  setenv("OMP_NUM_THREADS", count, 1);
  if (TUNE_IS_AUTO(c)) { /* per region, by the preloaded libomp_ext (tune.c checks it is) */
    unsetenv("OMP_NUM_THREADS");
    setenv("OMP_EXT_HT_POLICY", "auto", 1);
  }
  if (c->places && !c->ranks) { /* (--launcher: each rank's exec sets its own) */
    setenv("OMP_PLACES", c->places, 1);
    setenv("OMP_PROC_BIND", "close", 1);
  }
  if (c->wait != TUNE_WAIT_UNSET)
    setenv("OMP_WAIT_POLICY", tune_wait_name(c->wait), 1);
}

/* Per-region times: omp_ext's timing layer preloaded into the program. */
static void put_timing_env(const struct tune_exec *x)
{
  const char *old = getenv("LD_PRELOAD");
  char *preload;
  if (!x->timing_lib)
    return;
  setenv("OMP_EXT_TIMING", x->timing_file, 1);
  if (old && *old && asprintf(&preload, "%s:%s", x->timing_lib, old) >= 0)
    setenv("LD_PRELOAD", preload, 1); /* (the child execs next: no free) */
  else
    setenv("LD_PRELOAD", x->timing_lib, 1);
}

/* ------------------------------------------------------------ the folder */

int tune_make_temp_dir(char *path, size_t len)
{
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  if (snprintf(path, len, "%s/htplaces-tune-XXXXXX", dir) >= (int)len)
    return htp_error(HTP_EXIT_FAIL, "TMPDIR '%s' is too long for a temporary folder", dir);
  if (!mkdtemp(path))
    return htp_error(HTP_EXIT_FAIL, "cannot make a temporary folder in '%s' (TMPDIR): %s", dir,
                     strerror(errno));
  return HTP_EXIT_OK;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st, (void)ftw;
  if (flag == FTW_DP)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

void tune_remove_temp_dir(const char *path)
{
  if (path && *path)
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* --------------------------------------------------------------- the run */

/* PROGRAM and its arguments with {N} and {PLACES} replaced (NULL-ended;
 * free_argv). */
static char **run_argv(const struct tune_exec *x, const struct tune_config *c)
{
  unsigned n = 0, i;
  char **v;
  if (c->ranks) /* --launcher: the launcher, each rank's exec, then the program */
    return tune_launcher_argv(c, x->argv);
  while (x->argv[n])
    n++;
  if (!(v = calloc(n + 1, sizeof(*v))))
    return NULL;
  for (i = 0; i < n; i++)
    if (!(v[i] = i ? tune_substitute(x->argv[i], c) : strdup(x->argv[0]))) {
      while (i > 0)
        free(v[--i]);
      free(v);
      return NULL;
    }
  return v;
}

static void free_argv(char **v)
{
  unsigned i;
  for (i = 0; v && v[i]; i++)
    free(v[i]);
  free(v);
}

/* The run's files: stdin, stderr (in tune's folder, emptied). */
struct run_files {
  int in, err;
  off_t out_from; /* where this run's stdout starts in x->stdout_fd */
};

/* In the child (sweep_spawn's setup): default dispositions for what tune
 * catches, tune's signal mask, the configuration's environment. */
struct child_ctx {
  const struct tune_exec *x;
  const struct tune_config *c;
  const sigset_t *mask;
};

static void child_setup(void *ctx)
{
  const struct child_ctx *k = ctx;
  sweep_signals_default();
  sigprocmask(SIG_SETMASK, k->mask, NULL);
  put_env(k->c);
  put_timing_env(k->x);
}

/* The last TUNE_LAST_WORDS bytes at most of fd from offset `from` to its
 * end, from a line's start when cut, without blanks at the end, malloc'd;
 * NULL when there is nothing but blanks. */
static char *read_tail(int fd, off_t from)
{
  off_t end = lseek(fd, 0, SEEK_END), at = end - TUNE_LAST_WORDS;
  char *buf, *start;
  ssize_t got;
  if (at < from)
    at = from;
  if (end <= at || !(buf = malloc((size_t)(end - at) + 1)))
    return NULL;
  if ((got = pread(fd, buf, (size_t)(end - at), at)) <= 0) {
    free(buf);
    return NULL;
  }
  buf[got] = '\0';
  while (got > 0 && (unsigned char)buf[got - 1] <= ' ') /* trailing blanks and newlines */
    buf[--got] = '\0';
  start = buf;
  if (at > from && (start = strchr(buf, '\n')) != NULL) /* (cut: from the next line) */
    memmove(buf, start + 1, strlen(start + 1) + 1);
  if (!buf[0]) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* Does a line read as a message: a word of two letters or more?  A rule
 * ("-------", "=====", "*** ***"), a number, a blank line do not. */
static int message_like(const char *p, size_t len)
{
  size_t i, run = 0;
  for (i = 0; i < len; i++) {
    int c = (unsigned char)p[i];
    run = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ? run + 1 : 0;
    if (run >= 2)
      return 1;
  }
  return 0;
}

/* Where a launcher's own closing words start in \p text (Open MPI's boxed
 * "Primary job terminated ..." / "mpirun detected that one or more
 * processes exited ...", with the rules and blank lines above them;
 * srun's "srun: error: ... Exited with exit code N"), NULL when none: the
 * program's message is above them. */
static const char *launcher_epilogue(const char *text)
{
  static const char *const marks[] = {"Primary job", "mpirun detected", "mpirun noticed",
                                      "prterun detected", "prterun noticed", "srun: error:"};
  const char *first = NULL, *p, *q;
  unsigned i;
  for (i = 0; text && i < sizeof(marks) / sizeof(*marks); i++)
    if ((p = strstr(text, marks[i])) && (!first || p < first))
      first = p;
  if (!first)
    return NULL;
  while (first > text && first[-1] != '\n')
    first--;
  for (q = first; q > text; q = p) { /* the rules and blank lines just above */
    for (p = q - 1; p > text && p[-1] != '\n';)
      p--;
    if (message_like(p, (size_t)(q - 1 - p)))
      break;
  }
  return q;
}

int tune_failure_line(const char *text, char *line, size_t len)
{
  const char *p, *end, *pick = NULL, *last = NULL, *epi = launcher_epilogue(text), *before = NULL;
  size_t n;
  int message;
  line[0] = '\0';
  for (p = text; p && *p; p = *end ? end + 1 : end) {
    const char *q = p;
    end = p + strcspn(p, "\n");
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
      q++;
    if (q == end)
      continue;
    last = q;
    if (message_like(q, (size_t)(end - q)))
      pick = q, before = epi && q < epi ? q : before;
  }
  if (before)
    pick = before; /* (the program's message, not the launcher's words after it) */
  else if (epi) /* (none: the launcher's first words, not its last "Exit code: 1") */
    for (p = epi; *p; p = *end ? end + 1 : end) {
      end = p + strcspn(p, "\n");
      if (message_like(p, (size_t)(end - p))) {
        pick = p + strspn(p, " \t");
        break;
      }
    }
  message = pick != NULL;
  if (!pick)
    pick = last; /* (no line reads as a message: the last one that is not blank) */
  if (!pick)
    return -1;
  n = strcspn(pick, "\n");
  while (n > 0 && (unsigned char)pick[n - 1] <= ' ')
    n--;
  if (n >= len)
    n = len - 1;
  memcpy(line, pick, n);
  line[n] = '\0';
  for (n = 0; line[n]; n++)
    if ((unsigned char)line[n] < 0x20 || line[n] == 0x7f)
      line[n] = ' ';
  return message;
}

static double energy_now(const struct tune_exec *x)
{
  double j;
  return x->rapl && omp_ext_rapl_read(x->rapl, &j) == 0 ? j : NAN;
}

/* The run's timing file into c's regions; a run without one counts as
 * untimed (statically linked, or its runtime started no hook). */
static void keep_timing(const struct tune_exec *x, struct tune_config *c, struct tune_run *r)
{
  double serial, *more;
  int got;
  c->reading_round = c->ranks ? 0 : r->round + 1; /* (ranks' rounds: not paired) */
  got = c->ranks ? tune_ranks_read_timing(x->timing_file, c, &serial, r->invalid,
                                          sizeof(r->invalid))
                 : tune_read_timing(x->timing_file, c, &serial, r->invalid, sizeof(r->invalid));
  c->reading_round = 0;
  if (got != 0) {
    if (got < 0)
      c->untimed++;
    return; /* (an invalid run: none of its figures) */
  }
  if ((more = realloc(c->serial_s, (c->nserial + 1) * sizeof(*more))) != NULL) {
    c->serial_s = more;
    c->serial_s[c->nserial++] = serial;
  }
}

/* stdout: program-stdout.txt gets "==> htplaces tune: spn 4, run 2 <==" (on
 * a line of its own) before the run's output; tune's own file is emptied. */
static int start_stdout(const struct tune_exec *x, const struct tune_config *c, int warmup,
                        off_t *from)
{
  off_t end;
  char last = '\n', label[160];
  if (!x->stdout_labelled) {
    *from = 0;
    return ftruncate(x->stdout_fd, 0) == 0 && lseek(x->stdout_fd, 0, SEEK_SET) == 0 ? 0 : -1;
  }
  if ((end = lseek(x->stdout_fd, 0, SEEK_END)) < 0 ||
      (end > 0 && pread(x->stdout_fd, &last, 1, end - 1) != 1))
    return -1;
  tune_config_label(c, label, sizeof(label));
  if ((warmup ? dprintf(x->stdout_fd, "%s==> htplaces tune: warm-up, %s <==\n",
                        last == '\n' ? "" : "\n", label)
              : dprintf(x->stdout_fd, "%s==> htplaces tune: %s, run %u <==\n",
                        last == '\n' ? "" : "\n", label, c->nruns + 1)) < 0)
    return -1;
  *from = lseek(x->stdout_fd, 0, SEEK_END);
  return *from < 0 ? -1 : 0;
}

static int open_run_files(const struct tune_exec *x, const struct tune_config *c, int warmup,
                          struct run_files *f)
{
  char path[4200];
  const char *in = x->stdin_path ? x->stdin_path : "/dev/null";
  f->in = f->err = -1;
  f->out_from = 0;
  if ((f->in = open(in, O_RDONLY | O_CLOEXEC)) < 0)
    return htp_error(HTP_EXIT_FAIL, "cannot open %s for the program's stdin: %s", in,
                     strerror(errno));
  snprintf(path, sizeof(path), "%s/stderr", x->tmp_dir ? x->tmp_dir : "/tmp");
  if ((f->err = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0 ||
      start_stdout(x, c, warmup, &f->out_from) != 0) {
    int status = f->err < 0 ? htp_error(HTP_EXIT_FAIL, "cannot prepare the run's output (%s): "
                                        "%s", path, strerror(errno))
                 : x->stdout_labelled ? htp_error(HTP_EXIT_FAIL, "cannot write program-stdout.txt "
                                                  "for --out: %s", strerror(errno))
                                      : htp_error(HTP_EXIT_FAIL, "cannot prepare the run's output "
                                                  "(%s/stdout): %s", x->tmp_dir, strerror(errno));
    close(f->in);
    if (f->err >= 0)
      close(f->err);
    return status;
  }
  return HTP_EXIT_OK;
}

/* The run's last words: "==> htplaces tune: LABEL, run K: HOW; its
 * standard error, last lines <==", those lines, then the same for its
 * standard output; malloc'd, or NULL. */
static char *last_words(const struct tune_config *c, const struct tune_run *r, int warmup,
                        const char *err, const char *out)
{
  char label[160], run[32], how[96], *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return NULL;
  tune_config_label(c, label, sizeof(label));
  tune_run_outcome(r, how, sizeof(how));
  if (warmup)
    snprintf(run, sizeof(run), "warm-up");
  else
    snprintf(run, sizeof(run), "run %u", c->nruns + 1);
  fprintf(f, "==> htplaces tune: %s, %s: %s; %s <==\n", label, run, how,
          err ? "its standard error, last lines" : out ? "nothing on its standard error"
                                                     : "no output");
  if (err)
    fprintf(f, "%s\n", err);
  if (out)
    fprintf(f, "==> htplaces tune: %s, %s: its standard output, last lines <==\n%s\n", label,
            run, out);
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* How it ended, into r; when it failed, its message into c->tail (the
 * last line that reads as a message, of its stderr, else of this run's
 * stdout) and its last lines of both into c->last_words. */
static void outcome(const struct sweep_spawned *w, const struct run_files *f, int out_fd,
                    int warmup, struct tune_config *c, struct tune_run *r)
{
  char *err, *out, line[sizeof(c->tail)];
  r->cpu_s = w->user_s + w->sys_s;
  r->signal = 0;
  r->stopped = w->stopped;
  if (w->timed_out)
    r->status = -1;
  else if (w->exit_status >= 0)
    r->status = w->exit_status;
  else
    r->status = 128 + (r->signal = w->signal);
  if (r->status == 0)
    return;
  err = read_tail(f->err, 0);
  out = read_tail(out_fd, f->out_from);
  if (tune_failure_line(err, c->tail, sizeof(c->tail)) <= 0 &&
      (tune_failure_line(out, line, sizeof(line)) > 0 || !c->tail[0]))
    memcpy(c->tail, line, sizeof(line));
  free(c->last_words);
  c->last_words = last_words(c, r, warmup, err, out);
  free(err);
  free(out);
}

/* tune's own CPU seconds (it reads /proc/stat and waits during a run). */
static double self_cpu_s(void)
{
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0)
    return 0;
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
         (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/* The run's launch: the program on $PATH, in its own process group
 * (sweep_spawn), under --timeout and the grace period. */
static void spawn_of(const struct tune_exec *x, char **argv, const struct run_files *f,
                     const sigset_t *set, struct child_ctx *k, struct sweep_spawn *s)
{
  memset(s, 0, sizeof(*s));
  s->argv = argv;
  s->search = 1;
  s->who = "htplaces tune";
  s->setup = child_setup;
  s->ctx = k;
  s->in = f->in;
  s->out = x->stdout_fd;
  s->err = f->err;
  s->group = 1;
  s->timeout_s = x->timeout_s;
  s->wake = set;
  s->interrupt = sweep_take_signal;
  s->grace_s = TUNE_GRACE_S;
}

static int run(const struct tune_exec *x, struct tune_config *c, struct tune_run *r, int warmup,
               unsigned round)
{
  struct run_files f;
  struct sweep_spawn s;
  struct sweep_spawned w;
  struct child_ctx k;
  sigset_t set, old;
  double e0, b0, b1, s0;
  char **argv;
  int status, got, err;
  memset(r, 0, sizeof(*r));
  r->warmup = warmup;
  r->round = round;
  sweep_signals_wake(&set);
  sigprocmask(SIG_BLOCK, &set, &old);
  if (sweep_signal_caught()) { /* (before the run: it is not started) */
    sigprocmask(SIG_SETMASK, &old, NULL);
    return 128 + sweep_signal_caught();
  }
  if ((status = open_run_files(x, c, warmup, &f)) != 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    return status;
  }
  if (!(argv = run_argv(x, c))) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(f.in), close(f.err);
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  }
  if (x->timing_lib)
    tune_clear_timing(x->timing_file);
  k.x = x, k.c = c, k.mask = &old;
  spawn_of(x, argv, &f, &set, &k, &s);
  s0 = self_cpu_s();
  b0 = tune_busy_now(x->allowed);
  e0 = energy_now(x);
  got = sweep_spawn(&s, &w);
  err = errno;
  free_argv(argv);
  if (got == SWEEP_SPAWN_START) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(f.in), close(f.err);
    return htp_error(HTP_EXIT_FAIL, "cannot start a run: %s", strerror(err));
  }
  r->wall_s = w.wall_s;
  r->energy_j = energy_now(x) - e0;
  b1 = tune_busy_now(x->allowed) - (self_cpu_s() - s0); /* less tune's own */
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (got != 0) {
    close(f.in), close(f.err);
    return htp_error(HTP_EXIT_FAIL, "cannot wait for a run: %s", strerror(err));
  }
  if (!isfinite(r->energy_j))
    r->energy_j = omp_ext_model_power(x->power, &c->usage) * r->wall_s;
  outcome(&w, &f, x->stdout_fd, warmup, c, r);
  if (c->launcher && !tune_launcher_owns_ranks(c->launcher))
    r->cpu_s = NAN; /* (srun: the ranks are slurmstepd's children, not the run's) */
  r->other_cpu_s = b1 - b0 - r->cpu_s; /* (NAN when /proc/stat is unreadable) */
  if (r->other_cpu_s < 0)
    r->other_cpu_s = 0; /* (its ticks are coarser than rusage) */
  close(f.in), close(f.err);
  if (w.interrupted)
    return 128 + w.interrupted;
  if (r->status == 0 && x->timing_lib)
    keep_timing(x, c, r);
  return HTP_EXIT_OK;
}

int tune_run_once(const struct tune_exec *x, struct tune_config *c, unsigned round,
                  struct tune_run *r)
{
  return run(x, c, r, 0, round);
}

int tune_warm_up(const struct tune_exec *x, struct tune_config *c, struct tune_run *r)
{
  return run(x, c, r, 1, 0);
}

/* ----------------------------------------------------------------- load */

double tune_busy_seconds(const char *stat, hwloc_const_cpuset_t allowed, double hz)
{
  const char *line;
  double busy = 0;
  int seen = 0;
  for (line = stat; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
    unsigned long long v[8] = {0};
    unsigned cpu;
    int n;
    if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
      continue; /* (the "cpu " total counts CPUs outside the allowed ones) */
    n = sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
               &v[3], &v[4], &v[5], &v[6], &v[7]);
    if (n < 5 || (allowed && !hwloc_bitmap_isset(allowed, cpu)))
      continue;
    /* user nice system idle iowait irq softirq steal: all but idle and
     * iowait (guest time is in user already) */
    busy += (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz;
    seen = 1;
  }
  return seen ? busy : NAN;
}

double tune_busy_now(hwloc_const_cpuset_t allowed)
{
  char *buf = NULL;
  size_t len = 0, got;
  FILE *f = fopen("/proc/stat", "r");
  long hz = sysconf(_SC_CLK_TCK);
  double busy;
  if (!f || hz <= 0) {
    if (f)
      fclose(f);
    return NAN;
  }
  got = getdelim(&buf, &len, '\0', f) > 0; /* the whole file */
  fclose(f);
  busy = got ? tune_busy_seconds(buf, allowed, (double)hz) : NAN;
  free(buf);
  return busy;
}

void tune_load_mark(struct tune_load_mark *m, hwloc_const_cpuset_t allowed)
{
  m->self_s = self_cpu_s(), m->busy_s = tune_busy_now(allowed), m->at_s = sweep_now();
}

double tune_load_since(const struct tune_load_mark *m, hwloc_const_cpuset_t allowed,
                       double min_seconds)
{
  double left = min_seconds - (sweep_now() - m->at_s);
  if (left > 0) {
    struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !sweep_signal_caught())
      ;
  }
  return (tune_busy_now(allowed) - m->busy_s - (self_cpu_s() - m->self_s)) /
         (sweep_now() - m->at_s);
}

void tune_machine_load(const struct tune_config *c, unsigned n, double before,
                       unsigned ncpus, struct tune_load *load)
{
  double other = 0, wall = 0, *u;
  unsigned i, k;
  load->before = before > ncpus ? ncpus : before < 0 ? 0 : before; /* (tick rounding) */
  load->ncpus = ncpus;
  load->low_util = -1;
  load->util = NAN;
  for (i = 0; i < n; i++) {
    unsigned m = 0;
    if (!(u = malloc((c[i].nruns + 1) * sizeof(*u))))
      continue;
    for (k = 0; k < c[i].nruns; k++) {
      const struct tune_run *r = &c[i].runs[k];
      if (isfinite(r->other_cpu_s) && r->wall_s > 0)
        other += r->other_cpu_s, wall += r->wall_s;
      if (r->status == 0 && !r->invalid[0] && r->wall_s > 0 && isfinite(r->cpu_s))
        u[m++] = r->cpu_s / (r->wall_s * c[i].threads);
    }
    if (c[i].threads >= 2 && m) {
      double med = tune_median(u, m);
      if (load->low_util < 0 || med < load->util)
        load->low_util = (int)i, load->util = med;
    }
    free(u);
  }
  load->during = wall > 0 ? other / wall : NAN;
  if (load->during > ncpus)
    load->during = ncpus;
}

void tune_run_outcome(const struct tune_run *r, char *buf, size_t len)
{
  if (r->stopped)
    snprintf(buf, len, "stopped %s the terminal (%s), killed",
             r->stopped == SIGTTIN ? "reading" : "writing to",
             r->stopped == SIGTTIN ? "SIGTTIN" : "SIGTTOU");
  else if (r->status < 0)
    snprintf(buf, len, "timed out (--timeout)");
  else if (r->signal)
    snprintf(buf, len, "killed by signal %d (%s)", r->signal, strsignal(r->signal));
  else
    snprintf(buf, len, "exit %d", r->status);
}
