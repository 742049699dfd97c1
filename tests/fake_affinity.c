/*
 * A machine with more PUs than this one, for the binding tests (ctest
 * test_bind_256): preloaded (LD_PRELOAD) with HWLOC_SYNTHETIC describing the
 * large machine and HWLOC_THISSYSTEM=1, it keeps each thread's affinity
 * itself instead of asking the kernel:
 *   sched_setaffinity/sched_getaffinity, pthread_setaffinity_np/
 *   pthread_getaffinity_np (the tests, taskset, libgomp),
 *   hwloc_set_cpubind/hwloc_get_cpubind (libomp_ext),
 *   pthread_attr_setaffinity_np and pthread_create (libgomp's bound
 *   threads); a new thread starts with its attribute's mask, else with its
 *   creator's, as under the kernel.
 * OMP_EXT_FAKE_CPUS (a cpulist, e.g. "0-255") is the process's mask at
 * start: every thread starts with it.  A new mask set by the main thread is
 * written back to OMP_EXT_FAKE_CPUS, so that a program it executes (taskset
 * -c 1 PROGRAM) starts with it, as the kernel's affinity would be inherited.
 * A mask with no CPU of the fake machine is refused (EINVAL), as the kernel
 * does.  Only libgomp goes through these calls (libomp asks the kernel with
 * syscall()): the test runs in the gcc build.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The project builds with -fvisibility=hidden: these must be seen. */
#define EXPORT __attribute__((visibility("default")))

static cpu_set_t machine;      /* the fake machine's CPUs (OMP_EXT_FAKE_CPUS at start) */
static cpu_set_t process_mask; /* what a thread starts with */
static __thread cpu_set_t thread_mask;
static __thread int thread_has_mask;

static void parse_list(const char *text, cpu_set_t *set)
{
  CPU_ZERO(set);
  while (text && *text) {
    char *end;
    long a = strtol(text, &end, 10), b = a;
    if (end == text)
      break;
    if (*end == '-')
      b = strtol(end + 1, &end, 10);
    for (; a <= b && a < CPU_SETSIZE; a++)
      CPU_SET((int)a, set);
    text = *end == ',' ? end + 1 : end;
    if (*end != ',')
      break;
  }
}

/* At the first call (other libraries' constructors may come before ours). */
static void fake_init(void)
{
  parse_list(getenv("OMP_EXT_FAKE_CPUS"), &process_mask);
  parse_list(getenv("OMP_EXT_FAKE_MACHINE"), &machine);
  if (!CPU_COUNT(&machine))
    machine = process_mask;
}

static pthread_once_t fake_once = PTHREAD_ONCE_INIT;

static cpu_set_t *mine(void)
{
  pthread_once(&fake_once, fake_init);
  if (!thread_has_mask) {
    thread_mask = process_mask;
    thread_has_mask = 1;
  }
  return &thread_mask;
}

static int is_self(pid_t pid)
{
  return pid == 0 || pid == (pid_t)syscall(SYS_gettid);
}

/* The main thread's new mask, for a program it executes. */
static void export_mask(const cpu_set_t *set)
{
  char text[8192];
  size_t used = 0;
  int i;
  if ((pid_t)syscall(SYS_gettid) != getpid())
    return;
  text[0] = '\0';
  for (i = 0; i < CPU_SETSIZE && used + 16 < sizeof(text); i++)
    if (CPU_ISSET(i, set))
      used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%d", used ? "," : "", i);
  setenv("OMP_EXT_FAKE_CPUS", text, 1);
}

static int set_mask(size_t size, const cpu_set_t *set)
{
  cpu_set_t in, on;
  pthread_once(&fake_once, fake_init);
  size_t n = size < sizeof(in) ? size : sizeof(in);
  CPU_ZERO(&in);
  memcpy(&in, set, n);
  CPU_AND(&on, &in, &machine);
  if (!CPU_COUNT(&on)) {
    errno = EINVAL;
    return -1;
  }
  *mine() = on;
  export_mask(&on);
  return 0;
}

static int get_mask(const cpu_set_t *from, size_t size, cpu_set_t *set)
{
  pthread_once(&fake_once, fake_init);
  if (size < sizeof(*from)) { /* the kernel's rule: room for every possible CPU */
    errno = EINVAL;
    return -1;
  }
  memset(set, 0, size);
  memcpy(set, from, sizeof(*from));
  return 0;
}

EXPORT int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
  if (!is_self(pid)) {
    errno = ESRCH; /* (the tests never bind another thread) */
    return -1;
  }
  return set_mask(size, set);
}

EXPORT int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
  return get_mask(is_self(pid) ? mine() : &process_mask, size, set);
}

EXPORT int pthread_setaffinity_np(pthread_t thread, size_t size, const cpu_set_t *set)
{
  if (!pthread_equal(thread, pthread_self()))
    return ESRCH;
  return set_mask(size, set) ? errno : 0;
}

EXPORT int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *set)
{
  return get_mask(pthread_equal(thread, pthread_self()) ? mine() : &process_mask, size, set)
             ? errno
             : 0;
}

EXPORT int hwloc_set_cpubind(hwloc_topology_t topology, hwloc_const_cpuset_t set, int flags)
{
  cpu_set_t mask;
  int i;
  (void)topology;
  CPU_ZERO(&mask);
  hwloc_bitmap_foreach_begin(i, set)
    if (i < CPU_SETSIZE)
      CPU_SET(i, &mask);
  hwloc_bitmap_foreach_end();
  if (set_mask(sizeof(mask), &mask) != 0)
    return -1;
  if (!(flags & HWLOC_CPUBIND_THREAD))
    process_mask = mask; /* (the process: approximated by the threads to come) */
  return 0;
}

EXPORT int hwloc_get_cpubind(hwloc_topology_t topology, hwloc_cpuset_t set, int flags)
{
  const cpu_set_t *from = mine(); /* (initialises) */
  if (!(flags & HWLOC_CPUBIND_THREAD))
    from = &process_mask;
  int i;
  (void)topology;
  hwloc_bitmap_zero(set);
  for (i = 0; i < CPU_SETSIZE; i++)
    if (CPU_ISSET(i, from))
      hwloc_bitmap_set(set, (unsigned)i);
  return 0;
}

/* pthread_attr_setaffinity_np()'s masks, by attribute object. */
static struct {
  const pthread_attr_t *attr;
  cpu_set_t mask;
} attrs[64];
static pthread_mutex_t attrs_lock = PTHREAD_MUTEX_INITIALIZER;

EXPORT int pthread_attr_setaffinity_np(pthread_attr_t *attr, size_t size, const cpu_set_t *set)
{
  cpu_set_t in, on;
  unsigned i, free_slot = 64;
  pthread_once(&fake_once, fake_init);
  CPU_ZERO(&in);
  memcpy(&in, set, size < sizeof(in) ? size : sizeof(in));
  CPU_AND(&on, &in, &machine);
  if (!CPU_COUNT(&on))
    return EINVAL;
  pthread_mutex_lock(&attrs_lock);
  for (i = 0; i < 64; i++) {
    if (attrs[i].attr == attr)
      break;
    if (!attrs[i].attr && free_slot == 64)
      free_slot = i;
  }
  if (i == 64)
    i = free_slot;
  if (i < 64) {
    attrs[i].attr = attr;
    attrs[i].mask = on;
  }
  pthread_mutex_unlock(&attrs_lock);
  return i < 64 ? 0 : ENOMEM;
}

struct start {
  void *(*fn)(void *);
  void *arg;
  cpu_set_t mask;
};

static void *trampoline(void *p)
{
  struct start s = *(struct start *)p;
  free(p);
  thread_mask = s.mask;
  thread_has_mask = 1;
  return s.fn(s.arg);
}

EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg)
{
  static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
  struct start *s = malloc(sizeof(*s));
  unsigned i;
  int err;
  if (!real)
    *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
  if (!s || !real)
    return EAGAIN;
  s->fn = fn;
  s->arg = arg;
  s->mask = *mine(); /* the creator's */
  pthread_mutex_lock(&attrs_lock);
  for (i = 0; attr && i < 64; i++)
    if (attrs[i].attr == attr)
      s->mask = attrs[i].mask;
  pthread_mutex_unlock(&attrs_lock);
  if ((err = real(thread, attr, trampoline, s)) != 0)
    free(s);
  return err;
}
