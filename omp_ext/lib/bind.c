/*
 * The in-code policy API: omp_set_ht_policy() and friends.
 *
 * State (one policy for the process, as OpenMP ICVs of the binding kind are
 * process-wide in practice) lives here, guarded by one mutex; the hooks read
 * a generation number without the lock and take it only when the calling
 * thread must be (re)bound.  The topology of this machine and the allowed
 * PUs are loaded once, at the first use, before anything is bound.
 *
 * Binding happens inside parallel regions, by each thread for itself:
 * kmp_set_affinity() where the runtime has it (libomp, libiomp5: it also
 * resets the runtime's place bookkeeping for that thread), else
 * hwloc_set_cpubind(HWLOC_CPUBIND_THREAD).  See docs for the paths.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "private/bind.h"
#include "private/internal.h"
#include "omp_ext.h"
#include "private/runtime.h"
#include "private/util.h"

static pthread_mutex_t bind_lock = PTHREAD_MUTEX_INITIALIZER;
static omp_ext_topo_t *topo;                    /* this machine; set once */
static int topo_err;                            /* why it could not be loaded (bind_lock) */
static unsigned npus;                           /* allowed PUs of topo */
static unsigned *orders[OMP_EXT_NPOLICIES];     /* OS indexes, npus each */
static int cur_policy = omp_ht_policy_os;       /* atomic */
static int always_rebind;                       /* runtime re-pins threads */
static int warned_wrap, warned_bind;
/* The initial thread's affinity when the library was loaded: before a
 * lazily initialised runtime (libomp) pins it for OMP_PROC_BIND. */
static cpu_set_t load_affinity;
static int load_affinity_ok;
/* The energy model of the environment at load (omp_ext_model_from_env()),
 * for meta-policies; model_err its error, if any. */
static omp_ext_model_t load_model;
static int load_model_err;

/* What the calling thread was last bound for. */
static __thread unsigned tl_gen __attribute__((tls_model("initial-exec")));
static __thread unsigned tl_index __attribute__((tls_model("initial-exec")));
/* The place of per-region control the calling thread is bound to
 * (omp_ext_bind_place; 0: none, or bound by the global policy since). */
static __thread unsigned tl_place __attribute__((tls_model("initial-exec")));

static int load_topology_any(omp_ext_topo_t **out);

/* The binding topology must be this machine: hwloc's environment
 * (HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_FSROOT without
 * HWLOC_THISSYSTEM=1) gives a topology on which hwloc's binding calls do
 * nothing and return 0, so a policy set on it would report success while
 * no thread is bound. */
static int load_topology(omp_ext_topo_t **out)
{
  int err = load_topology_any(out);
  if (!err && !omp_ext_topo_is_thissystem(*out)) {
    omp_ext_topo_destroy(*out);
    *out = NULL;
    err = omp_ext_err_topology;
  }
  return err;
}

/* hwloc's plugins that the binding topology never needs: I/O devices and
 * libxml2's XML reader (hwloc's own reads a fixture).  hwloc loads every
 * plugin of its folder when its first topology of the process is made
 * (hwloc_components_init), which pulls libxml2, ICU, libstdc++, X11 and
 * OpenCL into the program: 10 to 30 ms of a short OpenMP program's start,
 * the bulk of what `htplaces exec auto` added to a trivial one.  They stay
 * loaded for the process once loaded, so this applies only when omp_ext
 * makes the process's first topology. */
#define LEAN_PLUGINS "hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_cuda,hwloc_nvml,hwloc_rsmi," \
                     "hwloc_levelzero,hwloc_xml_libxml"

/* Do the user's places (per-region control reads them: auto_cands.c) name
 * ll_caches, which needs the caches the lean topology leaves out? */
static int user_places_need_caches(void)
{
  const char *v = getenv("OMP_EXT_PLACES"), *w = getenv("OMP_PLACES");
  return (v && strcasestr(v, "ll_caches")) || (w && strcasestr(w, "ll_caches"));
}

/* The binding topology (omp_ext_scope_load(): lean, no caches unless the
 * user's places need them, the PUs kept, the rank's domain) without those
 * plugins, unless the user set HWLOC_PLUGINS_BLACKLIST (even empty: then
 * hwloc's own choice).  The variable is set only around the load
 * (bind_lock held). */
static int scope_load_lean(struct omp_ext_scope *s, omp_ext_topo_t **out)
{
  int lean = getenv("HWLOC_PLUGINS_BLACKLIST") == NULL, err;
  if (lean && setenv("HWLOC_PLUGINS_BLACKLIST", LEAN_PLUGINS, 1) != 0)
    lean = 0;
  s->lean = !user_places_need_caches();
  err = omp_ext_scope_load(s, out, NULL);
  if (lean)
    unsetenv("HWLOC_PLUGINS_BLACKLIST");
  return err;
}

static int user_binding_env(void);

/* libgomp applies OMP_PLACES / OMP_PROC_BIND / GOMP_CPU_AFFINITY to the
 * initial thread in its constructor, which runs before omp_ext's: the
 * affinity at load is then the first place only.  The PUs the process may
 * use are then those of the runtime's own place list (OpenMP 5.2 §18.3:
 * omp_get_num_places, omp_get_place_num_procs, omp_get_place_proc_ids),
 * which libgomp built from the affinity it started with.  Into \p set; 1
 * when libgomp pinned the thread and its places gave PUs, else 0. */
static int gomp_places_pus(hwloc_bitmap_t set)
{
  void *gomp = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD); /* loaded at all? */
  int (*num)(void) = NULL, (*nprocs)(int) = NULL, p, k, n, *ids;
  void (*proc_ids)(int, int *) = NULL;
  if (!gomp)
    return 0;
  if (user_binding_env()) {
    *(void **)&num = dlsym(gomp, "omp_get_num_places");
    *(void **)&nprocs = dlsym(gomp, "omp_get_place_num_procs");
    *(void **)&proc_ids = dlsym(gomp, "omp_get_place_proc_ids");
  }
  hwloc_bitmap_zero(set);
  for (p = 0; num && nprocs && proc_ids && p < num(); p++) {
    if ((n = nprocs(p)) <= 0 || !(ids = malloc((size_t)n * sizeof(*ids))))
      continue;
    proc_ids(p, ids);
    for (k = 0; k < n; k++)
      if (ids[k] >= 0)
        hwloc_bitmap_set(set, (unsigned)ids[k]);
    free(ids);
  }
  dlclose(gomp);
  return !hwloc_bitmap_iszero(set);
}

/* htplaces exec's hand-off (private/tools_handoff.h): the XML of this
 * machine that htplaces loaded just before it ran the program, when its
 * stamp says it was made for this very process (host, boot, cgroups, the
 * affinity it had as omp_ext was loaded, build) and hwloc's environment names no other topology source;
 * else NULL, silently: discovery, as without it. */
static const char *handed_xml(void)
{
  const char *xml = getenv(OMP_EXT_HANDOFF_XML_VAR);
  if (!xml || omp_ext_hwloc_env_var() || getenv("HWLOC_THISSYSTEM") ||
      !omp_ext_handoff_usable(xml, getenv(OMP_EXT_HANDOFF_STAMP_VAR),
                              load_affinity_ok ? &load_affinity : NULL, sizeof(load_affinity)))
    return NULL;
  return xml;
}

/* This machine, allowed PUs = hwloc's allowed set and the affinity the
 * process had when omp_ext was loaded (as omp_ext_topo_load(), which reads
 * the binding now, when a runtime may already have pinned the thread) or
 * libgomp's places; under an MPI launcher, this rank's share of the node,
 * as htplaces and its exec wrapper use it (the launcher's variables read
 * here, the domain rule of omp_ext_rank_restrict()).  Loaded from htplaces
 * exec's hand-off when it was made for this process (handed_xml). */
static int load_topology_any(omp_ext_topo_t **out)
{
  struct omp_ext_scope s = {.split = omp_ext_split_unless_bound};
  omp_ext_rank_t rank;
  hwloc_bitmap_t set = NULL;
  int err, env_err, cpu;
  if ((env_err = omp_ext_rank_from_env(NULL, &rank)) == 0)
    s.rank = rank; /* (a bad variable: reported after the load's own errors) */
  if (load_affinity_ok) {
    if (!(set = hwloc_bitmap_alloc()))
      return omp_ext_err_nomem;
    if (!gomp_places_pus(set))
      for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &load_affinity))
          hwloc_bitmap_set(set, (unsigned)cpu);
    s.flags = omp_ext_topo_ignore_binding;
    s.within = set;
  }
  s.xml = handed_xml();
  err = scope_load_lean(&s, out);
  if (err && s.xml) { /* (an XML hwloc refused, or that left no PU: discover) */
    omp_ext_topo_destroy(*out);
    s.xml = NULL;
    err = scope_load_lean(&s, out);
  }
  hwloc_bitmap_free(set);
  if (!err && *out)
    err = env_err;
  if (err) {
    omp_ext_topo_destroy(*out);
    *out = NULL;
  }
  return err;
}

/* libgomp pinned the initial thread first (gomp_places_pus) and its
 * place list gave no PU: the "allowed" PUs are that one place.  Say so
 * instead of failing silently. */
static void warn_gomp_pinned(void)
{
  void *gomp = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD); /* loaded at all? */
  hwloc_bitmap_t places = hwloc_bitmap_alloc();
  char *list;
  int known = places && gomp_places_pus(places);
  hwloc_bitmap_free(places);
  if (gomp)
    dlclose(gomp);
  if (!gomp || !user_binding_env() || known)
    return;
  if (hwloc_bitmap_list_asprintf(&list, omp_ext_topo_allowed(topo)) < 0)
    return;
  fprintf(stderr, "omp_ext: OMP_PLACES, OMP_PROC_BIND or GOMP_CPU_AFFINITY is set: libgomp "
          "pinned the initial thread first; omp_ext binds within PUs %s only\n", list);
  free(list);
}

/* The topology and the policy's order; call with bind_lock held. */
static int prepare_locked(omp_ht_policy_t policy)
{
  omp_ext_pu_t *order;
  unsigned i;
  int err;
  if (!topo) {
    if (topo_err) /* (not read again: each region would pay for it) */
      return topo_err;
    if ((err = load_topology(&topo)) != 0)
      return topo_err = err;
    npus = omp_ext_topo_npus(topo);
    warn_gomp_pinned();
  }
  if (policy == omp_ht_policy_os || policy == omp_ht_policy_auto || orders[policy])
    return omp_ext_success; /* (auto: per region, region.c) */
  if (!(order = malloc(npus * sizeof(*order))) ||
      !(orders[policy] = malloc(npus * sizeof(**orders)))) {
    free(order);
    return omp_ext_err_nomem;
  }
  if (omp_ext_policy_is_base(policy) != 1 && load_model_err)
    err = load_model_err; /* a meta-policy under an invalid model environment */
  else
    err = omp_ext_order(topo, &load_model, policy, npus, order);
  if (err) {
    free(orders[policy]);
    orders[policy] = NULL;
  } else {
    for (i = 0; i < npus; i++)
      orders[policy][i] = order[i].os_index;
  }
  free(order);
  return err;
}

/* The PUs of thread \p index under \p policy; call with bind_lock held. */
static void cpuset_locked(omp_ht_policy_t policy, unsigned index, hwloc_bitmap_t set)
{
  if (policy == omp_ht_policy_os || policy == omp_ht_policy_auto)
    hwloc_bitmap_copy(set, omp_ext_topo_allowed(topo));
  else
    hwloc_bitmap_only(set, orders[policy][index % npus]);
}

/* Bind the calling thread to \p set (a subset of the allowed PUs). */
static int bind_thread(hwloc_const_bitmap_t set)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  /* kmp_set_affinity() marks the thread's place undefined; with
   * OMP_PROC_BIND active libomp then fails an assertion at the next fork
   * (seen with libomp 14), so it is used only while binding is off. */
  if (rt && rt->kmp_set_affinity && !__atomic_load_n(&always_rebind, __ATOMIC_RELAXED)) {
    void *mask = NULL;
    int ok = 1, i;
    rt->kmp_create_mask(&mask);
    hwloc_bitmap_foreach_begin(i, set)
      if (rt->kmp_set_mask_proc(i, &mask) != 0)
        ok = 0;
    hwloc_bitmap_foreach_end();
    ok = ok && rt->kmp_set_affinity(&mask) == 0;
    rt->kmp_destroy_mask(&mask);
    if (ok)
      return omp_ext_success;
  }
  if (hwloc_set_cpubind(omp_ext_topo_hwloc(topo), set, HWLOC_CPUBIND_THREAD) != 0)
    return omp_ext_err_bind;
  return omp_ext_success;
}

static void warn_once(int *flag, const char *fmt, unsigned a, unsigned b)
{
  if (!__atomic_exchange_n(flag, 1, __ATOMIC_RELAXED)) {
    fputs("omp_ext: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
  }
}

/* The policy of OMP_EXT_HT_POLICY could not be prepared at the first
 * region (the topology, or the energy model): said once; threads stay
 * where the runtime put them. */
static void prepare_failed(omp_ht_policy_t policy, int err)
{
  static int said;
  if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "omp_ext: policy %s: %s: threads are not bound\n",
            omp_ext_policy_name(policy), omp_ext_strerror(err));
}

/* Bind the calling thread, number \p index of a level-1 team, unless it is
 * already bound for the current policy. */
static int bind_self(unsigned index)
{
  unsigned gen = omp_ext_hooks_generation();
  hwloc_bitmap_t set;
  omp_ht_policy_t policy;
  int err;
  if (gen == 0 || (tl_gen == gen && tl_index == index &&
                   !__atomic_load_n(&always_rebind, __ATOMIC_RELAXED)))
    return omp_ext_success;
  if (!(set = hwloc_bitmap_alloc()))
    return omp_ext_err_nomem;
  pthread_mutex_lock(&bind_lock);
  gen = omp_ext_hooks_generation();
  policy = (omp_ht_policy_t)cur_policy;
  /* (OMP_EXT_HT_POLICY: the topology and order are made here, at the
   * first region, not as the library loads) */
  if ((err = prepare_locked(policy)) == 0)
    cpuset_locked(policy, index, set);
  pthread_mutex_unlock(&bind_lock);
  if (err) {
    prepare_failed(policy, err);
    hwloc_bitmap_free(set);
    return err;
  }
  if (index >= npus && policy != omp_ht_policy_os)
    warn_once(&warned_wrap, "a team of more than %u threads on %u allowed PUs: threads wrap "
              "around and share PUs", npus, npus);
  if ((err = bind_thread(set)) == 0) {
    tl_gen = gen;
    tl_index = index;
    tl_place = 0; /* (no longer a place of per-region control) */
  } else {
    warn_once(&warned_bind, "the OS refused to bind thread %u (allowed PUs: %u)", index, npus);
  }
  hwloc_bitmap_free(set);
  return err;
}

/* Per-region control (region.c): the topology binding uses, loaded once
 * (as for a policy), and binding the calling thread to a set of it. */
int omp_ext_bind_topology(const omp_ext_topo_t **out)
{
  int err;
  pthread_mutex_lock(&bind_lock);
  err = prepare_locked(omp_ht_policy_os);
  if (!err && omp_ext_hooks_generation() == 0) /* (no policy published it yet) */
    __atomic_store_n(&always_rebind, user_binding_env(), __ATOMIC_RELAXED);
  pthread_mutex_unlock(&bind_lock);
  *out = err ? NULL : topo;
  return err;
}

int omp_ext_bind_place(unsigned id, hwloc_const_bitmap_t set)
{
  int err, always = __atomic_load_n(&always_rebind, __ATOMIC_RELAXED);
  if (tl_place == id && !always)
    return omp_ext_success;
  if ((err = bind_thread(set)) != 0)
    return err;
  tl_place = id;
  tl_gen = 0; /* (the global policy's record is stale) */
  return always; /* 1: bound, but the runtime may re-pin it at the next fork */
}

/* The hooks' binder (omp_ext_hooks_set_binder): bind the calling thread,
 * number \p index of its level-1 team; 0 (bound, and stays so), 1 (bound,
 * but the runtime may re-pin it at the next fork), or an error code. */
static int bind_hook(unsigned index)
{
  int err = bind_self(index);
  return err ? err : __atomic_load_n(&always_rebind, __ATOMIC_RELAXED) ? 1 : 0;
}

/* Non-zero when the environment asks the runtime to bind threads itself. */
static int user_binding_env(void)
{
  const char *bind = getenv("OMP_PROC_BIND");
  return (bind && strncasecmp(bind, "false", 5) != 0) || getenv("OMP_PLACES") ||
         getenv("KMP_AFFINITY") || getenv("GOMP_CPU_AFFINITY");
}

/* Publish \p policy; call with bind_lock held. */
static void publish_locked(omp_ht_policy_t policy)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  int (*get_proc_bind)(void) = NULL;
  /* A runtime with OMP_PROC_BIND active may re-pin threads at each fork. */
  if (rt)
    *(void **)&get_proc_bind = omp_ext_runtime_sym("omp_get_proc_bind");
  __atomic_store_n(&always_rebind,
                   user_binding_env() || (get_proc_bind && get_proc_bind() != 0), __ATOMIC_RELAXED);
  __atomic_store_n(&cur_policy, (int)policy, __ATOMIC_RELAXED);
  omp_ext_hooks_new_generation();
}

int omp_ext_bind_publish(omp_ht_policy_t policy)
{
  int err;
  pthread_mutex_lock(&bind_lock);
  if ((err = prepare_locked(policy)) == 0)
    publish_locked(policy);
  pthread_mutex_unlock(&bind_lock);
  return err;
}

void omp_ext_bind_set_auto(void)
{
  __atomic_store_n(&cur_policy, (int)omp_ht_policy_auto, __ATOMIC_RELAXED);
}

int omp_ext_bind_self(unsigned index)
{
  return bind_self(index);
}

omp_ht_policy_t omp_get_ht_policy(void)
{
  return (omp_ht_policy_t)__atomic_load_n(&cur_policy, __ATOMIC_RELAXED);
}

int omp_get_ht_cpuset(int thread_num, hwloc_bitmap_t set)
{
  omp_ht_policy_t policy;
  int err;
  if (thread_num < 0 || !set)
    return omp_ext_err_invalid;
  pthread_mutex_lock(&bind_lock);
  policy = (omp_ht_policy_t)cur_policy;
  if ((err = prepare_locked(policy)) == 0)
    cpuset_locked(policy, (unsigned)thread_num, set);
  pthread_mutex_unlock(&bind_lock);
  return err;
}

int omp_get_ht_pu(int thread_num)
{
  int err, pu;
  hwloc_bitmap_t set;
  if (thread_num < 0)
    return omp_ext_err_invalid;
  if (omp_get_ht_policy() == omp_ht_policy_os || omp_get_ht_policy() == omp_ht_policy_auto)
    return omp_ext_err_unsupported;
  if (!(set = hwloc_bitmap_alloc()))
    return omp_ext_err_nomem;
  err = omp_get_ht_cpuset(thread_num, set);
  pu = err ? err : hwloc_bitmap_weight(set) == 1 ? hwloc_bitmap_first(set) : omp_ext_err_unsupported;
  hwloc_bitmap_free(set);
  return pu;
}

int omp_ht_rebind(void)
{
  const struct omp_ext_runtime *rt = omp_ext_runtime();
  if (!rt)
    return omp_ext_err_runtime;
  if (rt->get_level() != 1)
    return omp_ext_success;
  return bind_self((unsigned)rt->get_thread_num());
}

/*
 * OMP_EXT_HT_POLICY=POLICY[:N]: as if omp_set_ht_policy_num_threads() ran
 * before the first region.  Read when the library is loaded; the binding
 * itself is done by the hooks in the first region.
 */
static int parse_env(const char *text, omp_ht_policy_t *policy, int *n)
{
  char name[16];
  const char *colon = strchr(text, ':');
  size_t len = colon ? (size_t)(colon - text) : strlen(text);
  unsigned long long v;
  if (len >= sizeof(name))
    return -1;
  memcpy(name, text, len);
  name[len] = '\0';
  if (omp_ext_policy_from_name(name, policy) != 0)
    return -1;
  *n = 0;
  if (!colon)
    return 0;
  if (omp_ext_parse_uint(colon + 1, 1, 1 << 20, &v) != OMP_EXT_UINT_OK)
    return -1;
  *n = (int)v;
  return 0;
}

/* fork(): the child's only thread keeps the mask of the thread that forked,
 * and a runtime that starts again in the child (libomp re-initialises and
 * may give its initial thread the whole allowed set) would leave it there
 * while omp_get_ht_policy() still names the policy.  A new generation makes
 * every thread of the child's next level-1 region bind again (thread 0
 * included).  The lock may have been held by another thread of the parent:
 * the child starts it afresh. */
static void bind_atfork_child(void)
{
  pthread_mutex_init(&bind_lock, NULL);
  if (omp_ext_hooks_generation())
    omp_ext_hooks_new_generation();
}

/* "omp_ext: ignoring OMP_EXT_HT_POLICY='TEXT': WHY" from the constructor
 * (once per process), TEXT escaped and shortened (omp_ext_quote), WHY the
 * expected syntax when NULL.  Only in an OpenMP program: a process without
 * an OpenMP runtime loaded (ls, wc with libomp_ext preloaded) says nothing;
 * nor does one that loads its runtime later (dlopen), which the policy
 * does not bind either until then. */
static void env_warning(const char *text, const char *why)
{
  char shown[4 * OMP_EXT_QUOTE_MAX + 32];
  unsigned i;
  if (!omp_ext_runtime())
    return;
  fprintf(stderr, "omp_ext: ignoring OMP_EXT_HT_POLICY='%s': ",
          omp_ext_quote(text, shown, sizeof(shown)));
  if (why) {
    fprintf(stderr, "%s\n", why);
    return;
  }
  fprintf(stderr, "expected POLICY[:N], POLICY one of");
  for (i = 0; i < OMP_EXT_NPOLICIES; i++)
    fprintf(stderr, "%s %s", i ? "," : "", omp_ext_policy_name((omp_ht_policy_t)i));
  fprintf(stderr, ", N a positive whole number; or %s (per region)\n", OMP_EXT_AUTO_FORMS);
}

__attribute__((constructor)) static void omp_ext_env_init(void)
{
  const char *text = getenv("OMP_EXT_HT_POLICY");
  omp_ht_policy_t policy;
  int n, energy, threads, v;
  omp_ext_hooks_set_binder(bind_hook); /* before any generation: hooks then call it */
  pthread_atfork(NULL, NULL, bind_atfork_child);
  load_affinity_ok = sched_getaffinity(0, sizeof(load_affinity), &load_affinity) == 0;
  load_model_err = omp_ext_model_from_env(environ, &load_model, NULL);
  if (!text || !*text)
    return;
  if ((v = omp_ext_auto_value(text, &energy, &threads)) != 0) {
    if (v < 0) /* (an invalid value leaves the policy unset) */
      env_warning(text, "expected " OMP_EXT_AUTO_FORMS " (per region)");
    else if (!getenv("OMP_EXT_PLAN")) /* (a plan wins: region.c) */
      __atomic_store_n(&cur_policy, (int)omp_ht_policy_auto, __ATOMIC_RELAXED);
    return; /* per-region control (region.c) */
  }
  if (parse_env(text, &policy, &n) != 0) {
    env_warning(text, NULL);
    return;
  }
  if (omp_ext_policy_is_base(policy) != 1 && load_model_err) { /* (energy: its model) */
    env_warning(text, omp_ext_strerror(load_model_err));
    return;
  }
  /* Nothing heavy as the library loads (ls, timeout with libomp_ext
   * preloaded run no region): the topology and the policy's order are
   * made by the first region's hook (bind_self).  No runtime call in a
   * constructor: the environment tells if the runtime binds. */
  pthread_mutex_lock(&bind_lock);
  __atomic_store_n(&always_rebind, user_binding_env(), __ATOMIC_RELAXED);
  __atomic_store_n(&cur_policy, (int)policy, __ATOMIC_RELAXED);
  omp_ext_hooks_new_generation();
  pthread_mutex_unlock(&bind_lock);
  if (n > 0) {
    char num[16];
    snprintf(num, sizeof(num), "%d", n);
    setenv("OMP_NUM_THREADS", num, 1); /* runtimes that read it lazily (libomp) */
    omp_ext_hooks_set_pending_threads(n); /* libgomp: by the hook */
  }
}
