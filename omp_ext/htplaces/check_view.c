/*
 * htplaces check --runtime: how each real runtime sees this machine.  The
 * predictions take hwloc's topology; libomp reads the topology itself
 * (cpuid leaves 11/4, else legacy APIC ids, else /proc/cpuinfo), and where
 * its decoding differs (a VM without cpuid leaf 11: 2 cores seen as 1 core
 * of 2 threads) its abstract names build other places than predicted.
 * Where the runtime is installed, a child process loads it with
 * OMP_PLACES=threads, then cores, bound to the topology's allowed PUs, and
 * asks it for its places (omp_get_place_proc_ids, OpenMP 5.2 §18.3); a
 * difference from the prediction is a note.  Only for this machine.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis.h"
#include "htplaces.h"

/* The shared object of each runtime family, as its backend loads it
 * (omp_ext/backend_*.c: libraries); NULL: not looked at. */
static const char *const view_library[OMP_EXT_NRUNTIMES] = {"libgomp.so.1", "libomp.so.5"};

/* The names compared: a machine seen otherwise shows in one of them. */
static const char *const view_names[] = {"threads", "cores"};

static int cmp_int(const void *a, const void *b)
{
  return *(const int *)a - *(const int *)b;
}

/* In the child: the runtime's places for OMP_PLACES=name, as "{0},{1}"
 * (each place's ids ascending) on fd; exit 0, or 1 if the runtime is not there. */
static void child_places(const char *library, const char *name, int fd)
{
  int (*num)(void), (*nprocs)(int);
  void (*ids)(int, int *);
  void *h;
  int i, j, n;
  FILE *out;
  setenv("OMP_PLACES", name, 1);
  unsetenv("KMP_AFFINITY");
  unsetenv("GOMP_CPU_AFFINITY");
  unsetenv("OMP_PROC_BIND");
  setenv("KMP_WARNINGS", "0", 1);
  if (!(h = dlopen(library, RTLD_NOW | RTLD_LOCAL)) || !(out = fdopen(fd, "w")))
    _exit(1);
  *(void **)&num = dlsym(h, "omp_get_num_places");
  *(void **)&nprocs = dlsym(h, "omp_get_place_num_procs");
  *(void **)&ids = dlsym(h, "omp_get_place_proc_ids");
  if (!num || !nprocs || !ids)
    _exit(1);
  for (i = 0, n = num(); i < n; i++) {
    int k = nprocs(i), *p = calloc(k > 0 ? (size_t)k : 1, sizeof(*p));
    if (!p)
      _exit(1);
    ids(i, p);
    qsort(p, k > 0 ? (size_t)k : 0, sizeof(*p), cmp_int); /* a place is a set */
    fputs(i ? ",{" : "{", out);
    for (j = 0; j < k; j++)
      fprintf(out, "%s%d", j ? "," : "", p[j]);
    fputc('}', out);
    free(p);
  }
  _exit(fclose(out) == 0 ? 0 : 1);
}

/* The places \p library builds for OMP_PLACES=name on the topology's
 * allowed PUs, canonical ("{0},{1}"), or NULL (not installed, failed). */
static char *runtime_places(const omp_ext_topo_t *topo, const char *library, const char *name)
{
  char buf[65536];
  size_t len = 0;
  ssize_t got;
  int fd[2], status;
  pid_t pid;
  if (pipe(fd) != 0)
    return NULL;
  fflush(stdout);
  if ((pid = fork()) == 0) {
    close(fd[0]);
    hwloc_set_cpubind(omp_ext_topo_hwloc(topo), omp_ext_topo_allowed(topo), HWLOC_CPUBIND_PROCESS);
    child_places(library, name, fd[1]);
  }
  close(fd[1]);
  while (pid > 0 && (got = read(fd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
    len += (size_t)got;
  close(fd[0]);
  buf[len] = '\0';
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
    return NULL;
  return strdup(buf);
}

/* The prediction's places for OMP_PLACES=name, canonical, or NULL. */
static char *predicted_places(const omp_ext_topo_t *topo, omp_ext_runtime_t rt, const char *name)
{
  omp_ext_prediction_t p;
  char *text = NULL;
  if (omp_ext_places_predict(topo, name, omp_ext_syntax_omp, rt, &p) != 0)
    return NULL;
  if (p.list->nplaces && omp_ext_placelist_canonical(p.list, &text) != 0)
    text = NULL;
  omp_ext_prediction_clear(&p);
  return text;
}

int htp_runtime_view(const omp_ext_topo_t *topo, omp_ext_runtime_t rt, struct htp_view *v)
{
  unsigned i;
  memset(v, 0, sizeof(*v));
  v->runtime = rt;
  if ((unsigned)rt >= OMP_EXT_NRUNTIMES || !view_library[rt] || !omp_ext_topo_is_thissystem(topo))
    return 0;
  for (i = 0; i < sizeof(view_names) / sizeof(view_names[0]); i++) {
    char *real = runtime_places(topo, view_library[rt], view_names[i]);
    char *pred = real ? predicted_places(topo, rt, view_names[i]) : NULL;
    if (real && pred && strcmp(real, pred) != 0) {
      v->name = view_names[i];
      v->real = real;
      v->predicted = pred;
      return 1;
    }
    free(real);
    free(pred);
  }
  return 0;
}

void htp_view_clear(struct htp_view *v)
{
  free(v->real);
  free(v->predicted);
  memset(v, 0, sizeof(*v));
}

void htp_print_view(FILE *out, const struct htp_view *v)
{
  fprintf(out, "note: %s sees this machine otherwise than hwloc (its own topology detection): "
          "OMP_PLACES=%s builds %s there, %s on hwloc's topology; the predictions of abstract "
          "names follow hwloc%s\n", omp_ext_runtime_name(v->runtime), v->name, v->real,
          v->predicted, v->runtime == omp_ext_runtime_libomp
                          ? " (KMP_AFFINITY=verbose shows libomp's view; "
                            "KMP_TOPOLOGY_METHOD=cpuinfo makes it read the kernel's)"
                          : "");
}
