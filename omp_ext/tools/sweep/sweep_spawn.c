/*
 * The sweep engine's child-process launcher (sweep.h): one run of a
 * program, by fork and exec, with the caller's environment and standard
 * streams, timed (CLOCK_MONOTONIC wall time, wait4()'s rusage).  Plain: the
 * caller's process group, stdout optionally captured through a pipe
 * (htbench's workers).  Isolated (group): its own process group, killed
 * whole when it ends, past the timeout, when it stops on the terminal, and
 * after a grace period once the caller forwards a signal; orphans reaped
 * (the caller is a subreaper), and whatever left the group (setsid) killed
 * as the caller's descendant (sweep_tree.c) -- htplaces tune's runs and
 * htplaces verify's program.  An exec failure reaches the caller through a
 * close-on-exec pipe (exec_errno).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

/* In the child: the group, the caller's setup, the streams, the program;
 * an exec failure's errno written on exec_fd (close-on-exec). */
static void child(const struct sweep_spawn *s, int pipe_out, int exec_fd, pid_t parent)
{
  int err;
  if (s->group) {
    setpgid(0, 0);
    /* (best effort when the caller itself is killed by SIGKILL: the
     * program, not its children; every other end kills the whole group) */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(126);
  }
  if (s->setup)
    s->setup(s->ctx);
  if ((s->in >= 0 && dup2(s->in, 0) < 0) || (pipe_out >= 0 && dup2(pipe_out, 1) < 0) ||
      (s->out >= 0 && dup2(s->out, 1) < 0) || (s->err >= 0 && dup2(s->err, 2) < 0))
    _exit(126);
  if (pipe_out >= 0)
    close(pipe_out);
  if (s->search)
    execvp(s->argv[0], s->argv);
  else
    execv(s->argv[0], s->argv);
  err = errno;
  if (exec_fd >= 0 && write(exec_fd, &err, sizeof(err)) < 0)
    exec_fd = -1; /* (the parent then sees an exit 126 or 127 only) */
  if (s->who)
    dprintf(2, "%s: cannot run '%s': %s\n", s->who, s->argv[0], strerror(err));
  _exit(s->who && err != ENOENT ? 126 : 127);
}

/* The exec failure's errno the child wrote on fd (0: it ran the program). */
static int exec_result(int fd)
{
  int err = 0;
  ssize_t got;
  while ((got = read(fd, &err, sizeof(err))) < 0 && errno == EINTR)
    ;
  close(fd);
  return got == (ssize_t)sizeof(err) ? err : 0;
}

/* fd to its end, into *buf (malloc'd, NUL-ended; NULL when out of memory). */
static void read_all(int fd, char **buf)
{
  size_t len = 0, cap = 4096;
  ssize_t n;
  if (!(*buf = malloc(cap)))
    return;
  for (;;) {
    if (len + 1024 > cap) {
      char *bigger = realloc(*buf, cap *= 2);
      if (!bigger)
        break;
      *buf = bigger;
    }
    n = read(fd, *buf + len, cap - len - 1);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
  }
  (*buf)[len] = '\0';
}

static void kill_group(pid_t pid)
{
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL); /* (in case it is not yet its group's leader) */
}

/* Sleep until a signal of set arrives or until `until` (at most 1 s: a
 * lost SIGCHLD costs no more); the signal, or -1. */
static int next_signal(const sigset_t *set, double until)
{
  double left = until - sweep_now();
  struct timespec ts;
  left = left > 1 ? 1 : left < 0 ? 0 : left;
  ts.tv_sec = (time_t)left;
  ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
  return sigtimedwait(set, NULL, &ts);
}

/* The killed group's other processes, the caller's children since their
 * parents died (it is a subreaper): reaped as they die, so that none is
 * still exiting when the next run starts; 2 s at most (a process stuck in
 * the kernel is left behind). */
static void reap_group(pid_t pid, const sigset_t *set)
{
  double end = sweep_now() + 2;
  pid_t got;
  for (;;) {
    if ((got = waitpid(-pid, NULL, WNOHANG)) > 0 || (got < 0 && errno == EINTR))
      continue;
    if (got < 0 || sweep_now() >= end) /* (ECHILD: none left) */
      break;
    next_signal(set, sweep_now() + 0.01);
  }
}

/* The wait's pause: the caller's watch (verify relays the program's output
 * and samples its threads) for at most the time left, then a signal taken
 * if one is pending; else a sleep until a signal or `until`.  The signal,
 * or -1. */
static int pause_run(const struct sweep_spawn *s, pid_t pid, double until)
{
  const struct timespec zero = {0, 0};
  double left = until - sweep_now();
  if (!s->watch)
    return next_signal(s->wake, until);
  s->watch(s->ctx, pid, left > 1 ? 1 : left < 0 ? 0 : left);
  return sigtimedwait(s->wake, NULL, &zero);
}

/* The isolated run's wait: its end (the leader left a zombie, so its group
 * id cannot be reused), a stop on the terminal, the timeout, a signal the
 * caller forwards (the grace period, then SIGKILL).  Then the whole group
 * is killed, and every other process the run left below the caller
 * (sweep_tree.c), and the leader reaped.  0, or -1 (errno). */
static int wait_group(const struct sweep_spawn *s, pid_t pid, struct sweep_spawned *w,
                      int *status, struct rusage *ru, const pid_t *keep, size_t nkeep)
{
  double deadline = s->timeout_s > 0 ? sweep_now() + s->timeout_s : 0, grace = 0, t;
  int killed = 0, sig;
  siginfo_t si;
  if (s->watch)
    s->watch(s->ctx, pid, 0);
  for (;;) {
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 && errno != EINTR)
      return -1;
    if (si.si_pid == pid) {
      w->wall_s = sweep_now();
      break;
    }
    memset(&si, 0, sizeof(si));
    if (!killed && waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG) == 0 && si.si_pid == pid &&
        (si.si_status == SIGTTIN || si.si_status == SIGTTOU)) {
      w->stopped = si.si_status;
      kill_group(pid), killed = 1;
      continue;
    }
    t = sweep_now();
    if (!killed && ((deadline && t >= deadline) || (grace && t >= grace))) {
      w->timed_out = !w->interrupted;
      kill_group(pid), killed = 1;
      continue;
    }
    if (!w->interrupted && s->interrupt && (sig = s->interrupt(s->ctx, 0)) != 0) {
      w->interrupted = sig;
      kill(-pid, sig);
      grace = t + s->grace_s;
      continue;
    }
    sig = pause_run(s, pid, killed ? t + 1 : grace ? grace : deadline ? deadline : t + 1);
    if (sig > 0 && sig != SIGCHLD && s->interrupt)
      s->interrupt(s->ctx, sig); /* (blocked: taken here, not by a handler) */
  }
  if (s->ended)
    s->ended(s->ctx, pid); /* (before the reaping: /proc/PID is still there) */
  kill(-pid, SIGKILL); /* the run's background children */
  while (wait4(pid, status, 0, ru) < 0)
    if (errno != EINTR)
      return -1;
  reap_group(pid, s->wake);
  sweep_kill_descendants(keep, nkeep, 2); /* (what left the group: setsid) */
  return 0;
}

static double seconds(const struct timeval *tv)
{
  return (double)tv->tv_sec + tv->tv_usec * 1e-6;
}

/* Fork the child; in the parent, *exec_fd is the read end of the exec
 * failure pipe (-1 none) and fd[1] closed.  The child's pid, or -1. */
static pid_t start(const struct sweep_spawn *s, int fd[2], int *exec_fd)
{
  int ex[2] = {-1, -1}, err;
  pid_t pid, self = getpid();
  *exec_fd = -1;
  if (pipe2(ex, O_CLOEXEC) != 0)
    ex[0] = ex[1] = -1; /* (then an exec failure is only its exit 126 or 127) */
  fflush(NULL);
  if ((pid = fork()) == 0) {
    if (fd[0] >= 0)
      close(fd[0]);
    if (ex[0] >= 0)
      close(ex[0]);
    child(s, fd[1], ex[1], self);
  }
  err = errno;
  if (fd[1] >= 0)
    close(fd[1]);
  if (ex[1] >= 0)
    close(ex[1]);
  if (pid < 0) {
    if (ex[0] >= 0)
      close(ex[0]);
    errno = err;
    return -1;
  }
  *exec_fd = ex[0];
  return pid;
}

int sweep_spawn(const struct sweep_spawn *s, struct sweep_spawned *w)
{
  struct rusage ru;
  int fd[2] = {-1, -1}, status = 0, got = 0, exec_fd;
  double t0;
  pid_t pid, *keep = NULL;
  size_t nkeep = 0;
  memset(w, 0, sizeof(*w));
  memset(&ru, 0, sizeof(ru));
  if (s->out == SWEEP_CAPTURE && pipe(fd) < 0)
    return SWEEP_SPAWN_START;
  if (s->group) { /* orphans of the run become the caller's children, not init's */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    sweep_children(&keep, &nkeep); /* (the caller's own, left alone) */
  }
  t0 = sweep_now();
  if ((pid = start(s, fd, &exec_fd)) < 0) {
    got = errno;
    if (fd[0] >= 0)
      close(fd[0]);
    free(keep);
    errno = got;
    return SWEEP_SPAWN_START;
  }
  if (s->group)
    setpgid(pid, pid); /* also here: no race with the timeout's kill */
  if (exec_fd >= 0) /* (at once: the read ends when it runs the program or fails to) */
    w->exec_errno = exec_result(exec_fd);
  if (s->group) {
    got = wait_group(s, pid, w, &status, &ru, keep, nkeep);
    w->wall_s -= t0; /* (not the reaping of its background children) */
  } else {
    if (fd[0] >= 0) {
      read_all(fd[0], &w->out);
      close(fd[0]);
    }
    while ((got = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
      ;
    got = got < 0 ? -1 : 0;
    w->wall_s = sweep_now() - t0;
  }
  free(keep);
  if (got != 0)
    return SWEEP_SPAWN_WAIT;
  w->user_s = seconds(&ru.ru_utime);
  w->sys_s = seconds(&ru.ru_stime);
  w->status = status;
  w->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  w->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return 0;
}
