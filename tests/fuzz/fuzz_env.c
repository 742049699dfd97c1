/*
 * libFuzzer target: htplaces doctor's reading of the environment
 * (htp_env_check): OMP_PLACES, OMP_PROC_BIND, OMP_NUM_THREADS,
 * GOMP_CPU_AFFINITY and KMP_AFFINITY values and their conflicts.  Input: one
 * NAME=VALUE a line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htplaces.h"

#define MAX_VARS 32

static omp_ext_topo_t *topo;
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  if (omp_ext_topo_load(&topo, "pack:2 core:4 pu:2(indexes=core:pack)", 0) != 0 ||
      !(sink = fopen("/dev/null", "w")))
    abort();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1), *line, *save = NULL, *envp[MAX_VARS + 1];
  unsigned n = 0;
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  for (line = strtok_r(text, "\n", &save); line && n < MAX_VARS;
       line = strtok_r(NULL, "\n", &save))
    if (strchr(line, '='))
      envp[n++] = line;
  envp[n] = NULL;
  if (htp_env_check(sink, envp, topo) > 64)
    abort(); /* at most a handful of conflicts exist */
  free(text);
  return 0;
}
