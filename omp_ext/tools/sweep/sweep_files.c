/*
 * The sweep engine's outputs (sweep.h): the output folder, file paths in
 * it, and gnuplot -- what htplaces tune's and htbench's reports share.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"

int sweep_make_dir(const char *dir, char *failed, size_t len)
{
  char path[4096], *p;
  struct stat sb;
  snprintf(failed, len, "%s", dir);
  if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
    return ENAMETOOLONG;
  for (p = path + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(path, 0777) < 0 && errno != EEXIST) {
      snprintf(failed, len, "%s", path);
      return errno;
    }
    *p = '/';
  }
  if (mkdir(path, 0777) < 0 && errno != EEXIST)
    return errno;
  if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
    return ENOTDIR;
  return 0;
}

char *sweep_path(const char *dir, const char *name)
{
  char *p = NULL;
  if (asprintf(&p, "%s/%s", dir, name) < 0)
    return NULL;
  return p;
}

int sweep_which(const char *name, char *out, size_t len)
{
  const char *path = getenv("PATH"), *p, *colon;
  if (strchr(name, '/'))
    return snprintf(out, len, "%s", name) < (int)len ? 0 : -1;
  for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";; p = colon + 1) {
    size_t n;
    colon = strchr(p, ':');
    n = colon ? (size_t)(colon - p) : strlen(p);
    if (snprintf(out, len, "%.*s/%s", (int)n, n ? p : ".", name) < (int)len &&
        access(out, X_OK) == 0)
      return 0;
    if (!colon)
      return -1;
  }
}

int sweep_have_gnuplot(void)
{
  char full[4096];
  return sweep_which("gnuplot", full, sizeof(full)) == 0;
}

int sweep_gnuplot(const char *dir, const char *script, const char *log)
{
  int status;
  pid_t pid;
  fflush(NULL);
  if ((pid = fork()) < 0)
    return -1;
  if (pid == 0) {
    if (chdir(dir) != 0)
      _exit(126);
    if (log) {
      int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666), null = open("/dev/null", O_RDWR);
      if (null >= 0)
        dup2(null, 0), dup2(null, 1);
      if (fd >= 0)
        dup2(fd, 2);
    }
    execlp("gnuplot", "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void sweep_csv_quoted(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}
