/*
 * htplaces tune: one run of the user's program in one configuration, in the
 * production path of `htplaces exec` (OMP_PLACES, OMP_PROC_BIND=close,
 * OMP_NUM_THREADS; "none": OMP_NUM_THREADS only), with OMP_WAIT_POLICY when
 * the plan says.  Its stdout goes where tune says (a file or /dev/null), its
 * stderr to a temporary file whose tail is kept when the run fails; a run
 * past --timeout is killed with its whole process group.  Wall time from
 * CLOCK_MONOTONIC, CPU time of all its threads from wait4()'s rusage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tune.h"

extern char **environ;

static int executable(const char *path, int *err)
{
  struct stat st;
  if (stat(path, &st) != 0) {
    *err = errno;
    return 0;
  }
  if (S_ISDIR(st.st_mode) || access(path, X_OK) != 0) {
    *err = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
    return -1;
  }
  return 1;
}

int tune_find_program(const char *program)
{
  const char *path = getenv("PATH"), *p, *colon;
  char buf[4096];
  int err = ENOENT, found = 0, r;
  if (strchr(program, '/'))
    found = executable(program, &err);
  else
    for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; !found || found < 0; p = colon + 1) {
      size_t len;
      colon = strchr(p, ':');
      len = colon ? (size_t)(colon - p) : strlen(p);
      if (snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, len ? p : ".", "/", program) <
          (int)sizeof(buf) && (r = executable(buf, &err)) != 0)
        found = r;
      if (found > 0 || !colon)
        break;
    }
  if (found > 0)
    return HTP_EXIT_OK;
  if (found < 0 || err == EACCES)
    return htp_error(126, "cannot run '%s': %s", program, strerror(err == ENOENT ? EACCES : err));
  return htp_error(127, "cannot run '%s': %s", program, strerror(err));
}

static void put_env(const struct tune_config *c)
{
  char count[16];
  /* (tune refuses to start when KMP_AFFINITY, GOMP_CPU_AFFINITY or
   * OMP_EXT_HT_POLICY are set, as exec does; OMP_WAIT_POLICY stays the
   * user's unless the plan varies it.) */
  unsetenv("OMP_PLACES");
  unsetenv("OMP_PROC_BIND");
  snprintf(count, sizeof(count), "%u", c->threads);
  setenv("OMP_NUM_THREADS", count, 1);
  if (c->places) {
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

/* In the child: the configuration's environment, own process group, stdout
 * and stderr redirected, then the program. */
static void child(const struct tune_exec *x, const struct tune_config *c, int errfd)
{
  setpgid(0, 0);
  put_env(c);
  put_timing_env(x);
  if (dup2(x->stdout_fd, 1) < 0 || dup2(errfd, 2) < 0)
    _exit(126);
  execvp(x->argv[0], x->argv);
  dprintf(2, "htplaces tune: cannot run '%s': %s\n", x->argv[0], strerror(errno));
  _exit(errno == ENOENT ? 127 : 126);
}

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Wait for pid, killing its group after timeout_s (0: none); -1 timed out. */
static int wait_child(pid_t pid, double timeout_s, const sigset_t *chld, int *status,
                      struct rusage *ru)
{
  double deadline = timeout_s > 0 ? now() + timeout_s : 0;
  int timed_out = 0;
  for (;;) {
    pid_t w = wait4(pid, status, WNOHANG, ru);
    if (w == pid)
      return timed_out ? -1 : 0;
    if (w < 0 && errno != EINTR)
      return -2;
    if (deadline && !timed_out && now() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      timed_out = 1;
    }
    if (deadline && !timed_out) {
      double left = deadline - now();
      struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
      sigtimedwait(chld, NULL, &ts);
    } else {
      sigwaitinfo(chld, NULL);
    }
  }
}

static void keep_tail(int fd, char *tail, size_t len)
{
  off_t end = lseek(fd, 0, SEEK_END), from = end > (off_t)len - 1 ? end - (off_t)len + 1 : 0;
  ssize_t got;
  char *p;
  tail[0] = '\0';
  if (end <= 0 || lseek(fd, from, SEEK_SET) < 0 || (got = read(fd, tail, len - 1)) <= 0)
    return;
  tail[got] = '\0';
  while (got > 0 && tail[got - 1] == '\n')
    tail[--got] = '\0';
  for (p = tail; *p; p++) /* one line for the table and JSON */
    if (*p == '\n' || (unsigned char)*p < 0x20)
      *p = ' ';
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
  int got = tune_read_timing(x->timing_file, c, &serial, r->invalid, sizeof(r->invalid));
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

int tune_run_once(const struct tune_exec *x, struct tune_config *c, struct tune_run *r)
{
  char errpath[] = "/tmp/htplaces-tune-XXXXXX";
  int errfd = mkstemp(errpath), status = 0, w;
  sigset_t chld, old;
  struct rusage ru;
  double t0, e0;
  pid_t pid;
  if (errfd < 0)
    return htp_error(HTP_EXIT_FAIL, "cannot make a temporary file: %s", strerror(errno));
  unlink(errpath);
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &old);
  fflush(NULL);
  if (x->timing_lib)
    tune_clear_timing(x->timing_file);
  e0 = energy_now(x);
  t0 = now();
  if ((pid = fork()) < 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(errfd);
    return htp_error(HTP_EXIT_FAIL, "cannot start a run: %s", strerror(errno));
  }
  if (pid == 0) {
    sigprocmask(SIG_SETMASK, &old, NULL);
    child(x, c, errfd);
  }
  setpgid(pid, pid); /* also here: no race with the timeout's kill */
  htp_running_child(-pid); /* its whole process group */
  w = wait_child(pid, x->timeout_s, &chld, &status, &ru);
  htp_running_child(0);
  r->wall_s = now() - t0;
  r->energy_j = energy_now(x) - e0;
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (!isfinite(r->energy_j))
    r->energy_j = omp_ext_model_power(x->power, &c->usage) * r->wall_s;
  r->cpu_s = w == -2 ? 0 : (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
                              (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
  r->signal = 0;
  if (w == -1)
    r->status = -1;
  else if (w == -2)
    r->status = 1;
  else if (WIFEXITED(status))
    r->status = WEXITSTATUS(status);
  else
    r->status = 128 + (r->signal = WTERMSIG(status));
  if (r->status != 0)
    keep_tail(errfd, c->tail, sizeof(c->tail));
  close(errfd);
  r->invalid[0] = '\0';
  if (r->status == 0 && x->timing_lib)
    keep_timing(x, c, r);
  return HTP_EXIT_OK;
}

void tune_run_outcome(const struct tune_run *r, char *buf, size_t len)
{
  if (r->status < 0)
    snprintf(buf, len, "timed out (--timeout)");
  else if (r->signal)
    snprintf(buf, len, "killed by signal %d (%s)", r->signal, strsignal(r->signal));
  else
    snprintf(buf, len, "exit %d", r->status);
}
