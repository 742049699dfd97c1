/*
 * Construct: which threads are inside a construct that the rest of their
 * team does not run -- single, masked, master, critical -- so that the
 * collective calls (omp_ext_share(), omp_ext_team_weights(),
 * omp_ext_steal_init()) return omp_ext_err_in_construct there instead of
 * waiting in the runtime's barrier for teammates that never come.
 *
 * The library exports the runtime entry points that the compilers emit at
 * both ends of these constructs; when libomp_ext comes before the runtime
 * in the program's link order (as for hooks.c's GOMP_parallel and
 * __kmpc_fork_call), the program's calls reach these, which forward to the
 * runtime's own (omp_ext_runtime_sym(), else dlsym(RTLD_NEXT)) and keep a
 * per-thread count of open constructs per nesting level (omp_get_level()):
 * a nested parallel region inside a single is a new team, where the
 * collective calls are allowed again.
 *
 * What the compilers emit (GCC 12 omp-low/omp-expand, clang 14 CGOpenMPRuntime;
 * checked with -S on both, see tests/test_share.c):
 *
 *   construct          clang -> libomp / libiomp5     gcc -> libgomp
 *   single             __kmpc_single ...              GOMP_single_start only:
 *                      __kmpc_end_single (the         the body's end emits no
 *                      executing thread)              call (nowait: nothing)
 *   single copyprivate __kmpc_single ...              GOMP_single_copy_start
 *                      __kmpc_end_single              ... GOMP_single_copy_end
 *   masked, master     __kmpc_masked / __kmpc_master  inline omp_get_thread_num()
 *                      ... __kmpc_end_masked/_master  == filter: no call at all
 *   critical           __kmpc_critical[_with_hint]    GOMP_critical_start /
 *                      ... __kmpc_end_critical        _name_start ... _end
 *
 * So under libgomp a plain single and masked/master are not seen: the
 * thread inside a single cannot be told from one past a `single nowait`
 * (both only returned true from GOMP_single_start), and flagging it would
 * turn a correct `single nowait` followed by omp_ext_share() into a hang of
 * the other threads.  Those cases still hang (omp_ext_share(3), BUGS).
 *
 * Cost: one call of the runtime's omp_get_level() per construct entered
 * and left, and a thread-local counter.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "omp_ext.h"
#include "private/runtime.h"

/* Open constructs of the calling thread, per nesting level 0 ..
 * CONSTRUCT_LEVELS - 1 (deeper levels are not tracked: never flagged). */
#define CONSTRUCT_LEVELS 16
static __thread unsigned short tl_open[CONSTRUCT_LEVELS]
  __attribute__((tls_model("initial-exec")));

static int level_now(void)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  return rt ? rt->get_level() : -1;
}

static void open_construct(void)
{
  int level = level_now();
  if (level >= 0 && level < CONSTRUCT_LEVELS && tl_open[level] < 0xffff)
    tl_open[level]++;
}

static void close_construct(void)
{
  int level = level_now();
  /* (An end without its start -- a runtime's own unbalanced call, e.g.
   * libomp's __kmpc_master at level 0 when it pauses -- changes nothing.) */
  if (level >= 0 && level < CONSTRUCT_LEVELS && tl_open[level] > 0)
    tl_open[level]--;
}

int omp_ext_construct_open(int level)
{
  return level >= 0 && level < CONSTRUCT_LEVELS && tl_open[level] > 0;
}

/* The runtime's own \p name, never this library's wrapper \p self; cached
 * in \p cache.  None: a program that calls an OpenMP entry point with no
 * OpenMP runtime loaded cannot go on (as hooks.c's wrappers). */
__attribute__((noinline, cold)) static void *real_lookup(const char *name, void *self,
                                                         void **cache)
{
  void *p = omp_ext_runtime_sym(name);
  if (!p || p == self)
    p = dlsym(RTLD_NEXT, name);
  if (!p || p == self) {
    static const char msg[] = "omp_ext: no OpenMP runtime provides an entry point the program "
                              "calls (GOMP_single_copy_*, GOMP_critical_*, __kmpc_single, "
                              "__kmpc_master, __kmpc_masked, __kmpc_critical)\n";
    if (write(2, msg, sizeof(msg) - 1) < 0) { /* nothing more to do */ }
    abort();
  }
  __atomic_store_n(cache, p, __ATOMIC_RELEASE);
  return p;
}

static inline void *real(const char *name, void *self, void **cache)
{
  void *p = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  return __builtin_expect(p != NULL, 1) ? p : real_lookup(name, self, cache);
}

/* Weak: where a runtime's own definition is linked into the same program
 * (libgomp.a beside libomp_ext.a: htbench-portable), it wins without a
 * clash, and the construct is not seen there.  (A shared library's weak
 * symbol interposes as any other: glibc's lookup ignores weakness.) */
#define WEAK __attribute__((weak))

#define REAL(fp, name)                                                                       \
  do {                                                                                       \
    static void *cache_;                                                                     \
    *(void **)&(fp) = real(#name, (void *)(uintptr_t)name, &cache_);                         \
  } while (0)

/* ------------------------------------------------------------- libgomp --- */

OMP_EXT_API WEAK void *GOMP_single_copy_start(void);
OMP_EXT_API WEAK void GOMP_single_copy_end(void *data);
OMP_EXT_API WEAK void GOMP_critical_start(void);
OMP_EXT_API WEAK void GOMP_critical_end(void);
OMP_EXT_API WEAK void GOMP_critical_name_start(void **pptr);
OMP_EXT_API WEAK void GOMP_critical_name_end(void **pptr);

/* NULL: the calling thread runs the single's body, up to
 * GOMP_single_copy_end (the others wait in the runtime for its data). */
void *GOMP_single_copy_start(void)
{
  void *(*fn)(void);
  void *data;
  REAL(fn, GOMP_single_copy_start);
  if ((data = fn()) == NULL)
    open_construct();
  return data;
}

void GOMP_single_copy_end(void *data)
{
  void (*fn)(void *);
  REAL(fn, GOMP_single_copy_end);
  close_construct();
  fn(data);
}

void GOMP_critical_start(void)
{
  void (*fn)(void);
  REAL(fn, GOMP_critical_start);
  fn();
  open_construct();
}

void GOMP_critical_end(void)
{
  void (*fn)(void);
  REAL(fn, GOMP_critical_end);
  close_construct();
  fn();
}

void GOMP_critical_name_start(void **pptr)
{
  void (*fn)(void **);
  REAL(fn, GOMP_critical_name_start);
  fn(pptr);
  open_construct();
}

void GOMP_critical_name_end(void **pptr)
{
  void (*fn)(void **);
  REAL(fn, GOMP_critical_name_end);
  close_construct();
  fn(pptr);
}

/* ---------------------------------------------------- libomp, libiomp5 --- */

struct ident; /* libomp's ident_t: passed through */

OMP_EXT_API WEAK int __kmpc_single(struct ident *loc, int gtid);
OMP_EXT_API WEAK void __kmpc_end_single(struct ident *loc, int gtid);
OMP_EXT_API WEAK int __kmpc_master(struct ident *loc, int gtid);
OMP_EXT_API WEAK void __kmpc_end_master(struct ident *loc, int gtid);
OMP_EXT_API WEAK int __kmpc_masked(struct ident *loc, int gtid, int filter);
OMP_EXT_API WEAK void __kmpc_end_masked(struct ident *loc, int gtid);
OMP_EXT_API WEAK void __kmpc_critical(struct ident *loc, int gtid, void *crit);
OMP_EXT_API WEAK void __kmpc_critical_with_hint(struct ident *loc, int gtid, void *crit,
                                           uint32_t hint);
OMP_EXT_API WEAK void __kmpc_end_critical(struct ident *loc, int gtid, void *crit);

/* Nonzero: the calling thread runs the body, up to __kmpc_end_single
 * (clang emits it in the executing thread only, nowait or not). */
int __kmpc_single(struct ident *loc, int gtid)
{
  int (*fn)(struct ident *, int);
  int r;
  REAL(fn, __kmpc_single);
  if ((r = fn(loc, gtid)) != 0)
    open_construct();
  return r;
}

void __kmpc_end_single(struct ident *loc, int gtid)
{
  void (*fn)(struct ident *, int);
  REAL(fn, __kmpc_end_single);
  close_construct();
  fn(loc, gtid);
}

int __kmpc_master(struct ident *loc, int gtid)
{
  int (*fn)(struct ident *, int);
  int r;
  REAL(fn, __kmpc_master);
  if ((r = fn(loc, gtid)) != 0)
    open_construct();
  return r;
}

void __kmpc_end_master(struct ident *loc, int gtid)
{
  void (*fn)(struct ident *, int);
  REAL(fn, __kmpc_end_master);
  close_construct();
  fn(loc, gtid);
}

int __kmpc_masked(struct ident *loc, int gtid, int filter)
{
  int (*fn)(struct ident *, int, int);
  int r;
  REAL(fn, __kmpc_masked);
  if ((r = fn(loc, gtid, filter)) != 0)
    open_construct();
  return r;
}

void __kmpc_end_masked(struct ident *loc, int gtid)
{
  void (*fn)(struct ident *, int);
  REAL(fn, __kmpc_end_masked);
  close_construct();
  fn(loc, gtid);
}

void __kmpc_critical(struct ident *loc, int gtid, void *crit)
{
  void (*fn)(struct ident *, int, void *);
  REAL(fn, __kmpc_critical);
  fn(loc, gtid, crit);
  open_construct();
}

void __kmpc_critical_with_hint(struct ident *loc, int gtid, void *crit, uint32_t hint)
{
  void (*fn)(struct ident *, int, void *, uint32_t);
  REAL(fn, __kmpc_critical_with_hint);
  fn(loc, gtid, crit, hint);
  open_construct();
}

void __kmpc_end_critical(struct ident *loc, int gtid, void *crit)
{
  void (*fn)(struct ident *, int, void *);
  REAL(fn, __kmpc_end_critical);
  close_construct();
  fn(loc, gtid, crit);
}
