/*
 * Test helpers: run a program and capture what it prints.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omp_ext.h"
#include "testutil.h"

struct buf {
  char *data;
  size_t len;
};

static int slurp(int fd, struct buf *b)
{
  char chunk[4096];
  ssize_t n = read(fd, chunk, sizeof(chunk));
  if (n > 0) {
    char *p = realloc(b->data, b->len + (size_t)n + 1);
    if (!p)
      return -1;
    b->data = p;
    memcpy(b->data + b->len, chunk, (size_t)n);
    b->len += (size_t)n;
    b->data[b->len] = '\0';
  }
  return (int)n;
}

static void child(char *const argv[], char *const env[], int out, int err)
{
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0)
    dup2(devnull, 0);
  dup2(out, 1);
  dup2(err, 2);
  for (; env && *env; env++) {
    char *eq = strchr(*env, '=');
    if (eq && eq[1] == '\0') {
      *eq = '\0';
      unsetenv(*env);
      *eq = '=';
    } else {
      putenv(*env);
    }
  }
  execvp(argv[0], argv);
  _exit(127);
}

int run_capture(char *const argv[], char *const env[], struct run_result *res)
{
  int po[2], pe[2], wstatus, i;
  struct buf out = {calloc(1, 1), 0}, err = {calloc(1, 1), 0};
  struct buf *bufs[2] = {&out, &err};
  struct pollfd fds[2];
  pid_t pid;
  if (pipe(po) < 0 || pipe(pe) < 0)
    return -1;
  pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0)
    child(argv, env, po[1], pe[1]);
  close(po[1]);
  close(pe[1]);
  fds[0] = (struct pollfd){po[0], POLLIN, 0};
  fds[1] = (struct pollfd){pe[0], POLLIN, 0};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    if (poll(fds, 2, -1) < 0)
      break;
    for (i = 0; i < 2; i++)
      if (fds[i].fd >= 0 && fds[i].revents && slurp(fds[i].fd, bufs[i]) <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
      }
  }
  waitpid(pid, &wstatus, 0);
  res->out = out.data;
  res->err = err.data;
  res->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  return 0;
}

void run_free(struct run_result *res)
{
  free(res->out);
  free(res->err);
  res->out = res->err = NULL;
}

unsigned count_lines(const char *s)
{
  unsigned n = 0;
  for (; s && *s; s++)
    n += *s == '\n';
  return n;
}

char *read_text(const char *path)
{
  FILE *f = fopen(path, "r");
  char *buf = NULL;
  size_t len = 0;
  if (!f)
    return NULL;
  if (getdelim(&buf, &len, '\0', f) < 0) { /* (empty) */
    free(buf);
    buf = strdup("");
  }
  fclose(f);
  return buf;
}

unsigned *policy_orders_new(unsigned *npus)
{
  omp_ext_topo_t *topo;
  omp_ext_pu_t *pus;
  unsigned *order, p, i;
  if (omp_ext_topo_load(&topo, NULL, 0) != 0)
    return NULL;
  *npus = omp_ext_topo_npus(topo);
  pus = calloc(*npus ? *npus : 1, sizeof(*pus));
  order = calloc((size_t)OMP_EXT_NPOLICIES * (*npus ? *npus : 1), sizeof(*order));
  for (p = 0; pus && order && p < OMP_EXT_NPOLICIES; p++) {
    if (omp_ext_order(topo, NULL, (omp_ht_policy_t)p, *npus, pus) != 0)
      break;
    for (i = 0; i < *npus; i++)
      POLICY_ORDER(order, *npus, p, i) = pus[i].os_index;
  }
  omp_ext_topo_destroy(topo);
  free(pus);
  if (p != OMP_EXT_NPOLICIES) {
    free(order);
    return NULL;
  }
  return order;
}

int policy_orders(unsigned order[][TEST_MAXPU], unsigned *npus)
{
  unsigned *all = policy_orders_new(npus), p, i;
  if (!all || *npus > TEST_MAXPU) {
    free(all);
    return -1;
  }
  for (p = 0; p < OMP_EXT_NPOLICIES; p++)
    for (i = 0; i < *npus; i++)
      order[p][i] = POLICY_ORDER(all, *npus, p, i);
  free(all);
  return 0;
}

unsigned taskset_prefix(char **argv, const char *cpus)
{
  if (!cpus)
    return 0;
  argv[0] = "taskset";
  argv[1] = "-c";
  argv[2] = (char *)cpus;
  return 3;
}
