/*
 * Runtime detection: the OpenMP runtime the program uses, found with dlsym
 * at run time, whichever family (no library name here: the families are
 * the backends' table, backends.c).  See runtime.h.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "private/runtime.h"

static pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
static struct omp_ext_runtime rt;
static void *rt_handle;
static int rt_found; /* written once under rt_lock, then read-only */

/* Function pointer from dlsym without a pedantic object-to-function cast. */
#define LOOKUP(handle, field, name) (*(void **)&(field) = dlsym((handle), (name)))

/* The loaded objects' file names (dl_iterate_phdr; the executable, which
 * the global scope sees, left out), copied so that no dlopen runs inside
 * the iteration. */
#define MAXOBJECTS 256
struct objects {
  char *names[MAXOBJECTS];
  unsigned n;
};

static int note_object(struct dl_phdr_info *info, size_t size, void *arg)
{
  struct objects *o = arg;
  (void)size;
  if (info->dlpi_name && *info->dlpi_name && o->n < MAXOBJECTS &&
      (o->names[o->n] = strdup(info->dlpi_name)) != NULL)
    o->n++;
  return 0;
}

void *omp_ext_runtime_find(const char *name, const void *self)
{
  struct objects o;
  void *found = NULL;
  unsigned i;
  o.n = 0;
  dl_iterate_phdr(note_object, &o);
  for (i = 0; i < o.n; i++) {
    void *h = found ? NULL : dlopen(o.names[i], RTLD_LAZY | RTLD_NOLOAD), *p;
    if (h && dlsym(h, "omp_get_thread_num") && (p = dlsym(h, name)) != NULL && p != self)
      found = p; /* (the NOLOAD reference is kept: the runtime stays loaded anyway) */
    else if (h)
      dlclose(h);
    free(o.names[i]);
  }
  return found;
}

static int detect(void)
{
  void *probe = dlsym(RTLD_DEFAULT, "omp_get_thread_num");
  Dl_info info;
  if (!probe) /* a runtime loaded where the global scope does not see it */
    probe = omp_ext_runtime_find("omp_get_thread_num", NULL);
  if (!probe || !dladdr(probe, &info) || !info.dli_fname)
    return 0;
  /* The object that holds omp_get_thread_num: every symbol comes from it. */
  rt_handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!rt_handle)
    rt_handle = RTLD_DEFAULT; /* runtime linked into the executable */
  rt.path = info.dli_fname;
  LOOKUP(rt_handle, rt.get_thread_num, "omp_get_thread_num");
  LOOKUP(rt_handle, rt.get_level, "omp_get_level");
  LOOKUP(rt_handle, rt.get_max_threads, "omp_get_max_threads");
  LOOKUP(rt_handle, rt.get_dynamic, "omp_get_dynamic");
  LOOKUP(rt_handle, rt.set_num_threads, "omp_set_num_threads");
  LOOKUP(rt_handle, rt.parallel, "GOMP_parallel");
  LOOKUP(rt_handle, rt.kmp_create_mask, "kmp_create_affinity_mask");
  LOOKUP(rt_handle, rt.kmp_destroy_mask, "kmp_destroy_affinity_mask");
  LOOKUP(rt_handle, rt.kmp_set_mask_proc, "kmp_set_affinity_mask_proc");
  LOOKUP(rt_handle, rt.kmp_set_affinity, "kmp_set_affinity");
  if (!rt.get_thread_num || !rt.get_level || !rt.get_max_threads || !rt.get_dynamic ||
      !rt.set_num_threads)
    return 0;
  if (!rt.kmp_create_mask || !rt.kmp_destroy_mask || !rt.kmp_set_mask_proc ||
      !rt.kmp_set_affinity)
    rt.kmp_create_mask = NULL, rt.kmp_destroy_mask = NULL, rt.kmp_set_mask_proc = NULL,
    rt.kmp_set_affinity = NULL;
  return 1;
}

const struct omp_ext_runtime *omp_ext_runtime(void)
{
  int found = __atomic_load_n(&rt_found, __ATOMIC_ACQUIRE);
  if (found)
    return &rt;
  /* Not cached while absent: a runtime may be dlopen'ed later. */
  pthread_mutex_lock(&rt_lock);
  if (!rt_found && detect())
    __atomic_store_n(&rt_found, 1, __ATOMIC_RELEASE);
  found = rt_found;
  pthread_mutex_unlock(&rt_lock);
  return found ? &rt : NULL;
}

void *omp_ext_runtime_sym(const char *name)
{
  return omp_ext_runtime() ? dlsym(rt_handle, name) : NULL;
}
