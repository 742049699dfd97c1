/*
 * cmdbench: time whole commands side by side, alternating them, and print
 * the median, minimum and mean wall time of each (milliseconds).
 *
 *   cmdbench REPS -- CMD1 ARGS... -- CMD2 ARGS... [-- CMD3 ...]
 *
 * Each repetition runs every command once, in turn, with stdout and stderr
 * sent to /dev/null (posix_spawnp + waitpid, CLOCK_MONOTONIC).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAXCMDS 8

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double run_once(char **argv)
{
  posix_spawn_file_actions_t fa;
  pid_t pid;
  int status;
  double t0;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  t0 = now_ms();
  if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
    fprintf(stderr, "cmdbench: cannot run '%s'\n", argv[0]);
    exit(1);
  }
  waitpid(pid, &status, 0);
  t0 = now_ms() - t0;
  posix_spawn_file_actions_destroy(&fa);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "cmdbench: '%s' failed\n", argv[0]);
    exit(1);
  }
  return t0;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  char **cmds[MAXCMDS];
  double *times[MAXCMDS];
  int ncmds = 0, i, r, reps;
  if (argc < 4 || (reps = atoi(argv[1])) < 1 || strcmp(argv[2], "--") != 0) {
    fprintf(stderr, "usage: cmdbench REPS -- CMD1 ARGS... -- CMD2 ARGS...\n");
    return 2;
  }
  for (i = 3; i < argc && ncmds < MAXCMDS; i++) {
    cmds[ncmds++] = &argv[i];
    while (i < argc && strcmp(argv[i], "--") != 0)
      i++;
    if (i < argc)
      argv[i] = NULL;
  }
  for (i = 0; i < ncmds; i++)
    if (!(times[i] = malloc((size_t)reps * sizeof(double))))
      return 1;
  for (i = 0; i < ncmds; i++)
    run_once(cmds[i]); /* warm-up */
  for (r = 0; r < reps; r++)
    for (i = 0; i < ncmds; i++)
      times[i][r] = run_once(cmds[i]);
  printf("%-48s %9s %9s %9s\n", "command", "median_ms", "min_ms", "mean_ms");
  for (i = 0; i < ncmds; i++) {
    char name[256] = "";
    double sum = 0;
    int a;
    for (a = 0; cmds[i][a] && strlen(name) + strlen(cmds[i][a]) + 2 < sizeof(name); a++) {
      strcat(name, a ? " " : "");
      strcat(name, cmds[i][a]);
    }
    for (r = 0; r < reps; r++)
      sum += times[i][r];
    qsort(times[i], (size_t)reps, sizeof(double), cmp_double);
    printf("%-48s %9.3f %9.3f %9.3f\n", name, times[i][reps / 2], times[i][0], sum / reps);
    free(times[i]);
  }
  return 0;
}
