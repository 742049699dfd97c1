/*
 * The sweep engine's process tree (sweep.h): the processes a run left that
 * are no longer in its process group -- a daemon that called setsid(), a
 * child that made its own group -- found from /proc as descendants of the
 * caller.  The caller is a subreaper (sweep_spawn's isolated runs), so an
 * orphan becomes its child rather than init's: every process the run
 * started, however it detached, stays below the caller until it is reaped.
 * The caller's children from before the run (keep[]) and theirs are left
 * alone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

struct proc_link {
  pid_t pid, ppid;
};

/* Every process's parent from /proc/PID/stat ("PID (COMM) S PPID ...": the
 * command may hold blanks and parentheses, the last ')' ends it), into
 * *links (malloc'd); their count, or -1. */
static long read_links(struct proc_link **links)
{
  DIR *d = opendir("/proc");
  struct dirent *e;
  struct proc_link *l = NULL, *more;
  size_t n = 0, cap = 0;
  if (!d)
    return -1;
  while ((e = readdir(d)) != NULL) {
    char path[64], buf[512], *paren;
    long pid = strtol(e->d_name, &paren, 10), ppid;
    ssize_t got;
    int fd;
    if (pid <= 0 || *paren)
      continue;
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
      continue; /* (it has ended) */
    got = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (got <= 0)
      continue;
    buf[got] = '\0';
    if (!(paren = strrchr(buf, ')')) || sscanf(paren + 1, " %*c %ld", &ppid) != 1)
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 256;
      if (!(more = realloc(l, cap * sizeof(*l)))) {
        free(l);
        closedir(d);
        return -1;
      }
      l = more;
    }
    l[n].pid = (pid_t)pid;
    l[n++].ppid = (pid_t)ppid;
  }
  closedir(d);
  *links = l;
  return (long)n;
}

static int kept(pid_t pid, const pid_t *keep, size_t nkeep)
{
  size_t i;
  for (i = 0; i < nkeep; i++)
    if (keep[i] == pid)
      return 1;
  return 0;
}

/* The caller's descendants, except keep[] and theirs, into out[] (room for
 * n); their count.  A breadth-first walk: out[] grows as it is read. */
static size_t descendants(const struct proc_link *l, size_t n, const pid_t *keep, size_t nkeep,
                          pid_t *out)
{
  pid_t self = getpid();
  size_t m = 0, head, i;
  for (i = 0; i < n; i++)
    if (l[i].ppid == self && !kept(l[i].pid, keep, nkeep))
      out[m++] = l[i].pid;
  for (head = 0; head < m; head++)
    for (i = 0; i < n && m < n; i++)
      if (l[i].ppid == out[head])
        out[m++] = l[i].pid;
  return m;
}

int sweep_children(pid_t **pids, size_t *n)
{
  struct proc_link *l = NULL;
  long got = read_links(&l);
  pid_t self = getpid();
  size_t i;
  *pids = NULL;
  *n = 0;
  if (got < 0)
    return -1;
  if (!(*pids = malloc(((size_t)got + 1) * sizeof(**pids)))) {
    free(l);
    return -1;
  }
  for (i = 0; i < (size_t)got; i++)
    if (l[i].ppid == self)
      (*pids)[(*n)++] = l[i].pid;
  free(l);
  return 0;
}

size_t sweep_kill_descendants(const pid_t *keep, size_t nkeep, double seconds)
{
  double end = sweep_now() + seconds;
  struct proc_link *l;
  pid_t *out;
  size_t m = 0, i;
  long n;
  for (;;) {
    const struct timespec tick = {0, 10000000L};
    if ((n = read_links(&l)) < 0)
      return 0;
    if (!(out = malloc(((size_t)n + 1) * sizeof(*out)))) {
      free(l);
      return 0;
    }
    m = descendants(l, (size_t)n, keep, nkeep, out);
    free(l);
    for (i = 0; i < m; i++) {
      kill(out[i], SIGKILL);
      waitpid(out[i], NULL, WNOHANG); /* (the caller's own: reaped; others: ECHILD) */
    }
    free(out);
    if (m == 0 || sweep_now() >= end)
      return m; /* (left: stuck in the kernel, past the time given) */
    nanosleep(&tick, NULL);
  }
}
