/*
 * The sweep: kernels x thread counts x policies, each configuration in a
 * fresh worker process launched the production way (OMP_PLACES from
 * omp_ext_order() + omp_ext_places_format(), OMP_PROC_BIND=close,
 * OMP_NUM_THREADS) and/or the in-code way (htbench-incode calling
 * omp_set_ht_policy_num_threads(); --path), then the files, the tables and
 * the plots.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../htbench.h"
#include "omp_ext.h"
#include "sweep.h"

/* htbench's policies: the library's (omp_ht_policy_t), bound to their
 * places on both paths -- except os, whose in-code call unbinds
 * (omp_set_ht_policy(3)) and so has no in-code series -- and none, the
 * unbound baseline: no places and OMP_PROC_BIND=false on the env path,
 * omp_set_ht_policy_num_threads(omp_ht_policy_os, N) on the in-code path. */
#define HTB_POLICY_NONE (-1)

static const char *policy_label(int pol)
{
  return pol == HTB_POLICY_NONE ? "none" : omp_ext_policy_name((omp_ht_policy_t)pol);
}

struct plan {
  const struct htb_kernel *kernels[32];
  unsigned nk;
  int policies[OMP_EXT_NPOLICIES + 1]; /* omp_ht_policy_t or HTB_POLICY_NONE */
  unsigned np;
  unsigned *threads;
  unsigned nn;
};

/* Split a comma list; calls fn(item) for each, empty items included (",,",
 * a leading or trailing ',': fn refuses them); stops at the first error. */
static int each_item(const char *list, int (*fn)(void *, const char *), void *ctx)
{
  char *copy = strdup(list), *item, *comma;
  int rc = 0;
  if (!copy)
    return htb_error(HTB_EXIT_FAIL, "out of memory");
  for (item = copy; !rc; item = comma + 1) {
    if ((comma = strchr(item, ',')) != NULL)
      *comma = '\0';
    rc = fn(ctx, item);
    if (!comma)
      break;
  }
  free(copy);
  return rc;
}

static int add_kernel(void *ctx, const char *name)
{
  struct plan *p = ctx;
  const struct htb_kernel *k = htb_kernel_by_name(name);
  unsigned i;
  if (!k) {
    char all[256] = "";
    for (i = 0; htb_kernels[i]; i++)
      snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? ", " : "",
               htb_kernels[i]->name);
    if (!*name)
      return htb_error(HTB_EXIT_USAGE, "--kernels: empty entry in the list (allowed: %s)", all);
    return htb_error(HTB_EXIT_USAGE, "--kernels: unknown kernel '%s' (allowed: %s)", name, all);
  }
  for (i = 0; i < p->nk; i++)
    if (p->kernels[i] == k)
      return 0;
  p->kernels[p->nk++] = k;
  return 0;
}

static int add_policy(void *ctx, const char *name)
{
  struct plan *p = ctx;
  omp_ht_policy_t lib;
  int pol;
  unsigned i;
  if (!strcmp(name, "none")) {
    pol = HTB_POLICY_NONE;
  } else if (omp_ext_policy_from_name(name, &lib) == 0 && omp_ext_policy_has_order(lib) == 1) {
    pol = (int)lib;
  } else {
    char all[256] = "none";
    for (i = 0; i < OMP_EXT_NPOLICIES; i++)
      snprintf(all + strlen(all), sizeof(all) - strlen(all), ", %s",
               omp_ext_policy_name((omp_ht_policy_t)i));
    if (!*name)
      return htb_error(HTB_EXIT_USAGE, "--policies: empty entry in the list (allowed: %s)", all);
    return htb_error(HTB_EXIT_USAGE, "--policies: unknown policy '%s' (allowed: %s)", name, all);
  }
  for (i = 0; i < p->np; i++)
    if (p->policies[i] == pol)
      return 0;
  p->policies[p->np++] = pol;
  return 0;
}

struct threads_ctx {
  struct plan *plan;
  unsigned max;
};

static int add_threads(void *ctx, const char *item)
{
  struct threads_ctx *c = ctx;
  char *end;
  unsigned long lo, hi, n;
  unsigned i;
  int dup;
  if (!*item)
    return htb_error(HTB_EXIT_USAGE,
                     "--threads: empty entry in the list (allowed: thread counts or ranges "
                     "within 1..%u, the allowed PUs)", c->max);
  errno = 0;
  lo = strtoul(item, &end, 10);
  hi = lo;
  if (end != item && *end == '-') {
    const char *h = end + 1;
    hi = strtoul(h, &end, 10);
    if (end == h)
      hi = 0;
  }
  if (errno || end == item || *end || lo < 1 || hi < lo || hi > c->max || item[0] == '-' ||
      item[0] == '+')
    return htb_error(HTB_EXIT_USAGE,
                     "--threads: '%s' is not a thread count or range within 1..%u (allowed PUs)",
                     item, c->max);
  for (n = lo; n <= hi; n++) {
    for (dup = 0, i = 0; i < c->plan->nn; i++)
      dup |= c->plan->threads[i] == n;
    if (!dup)
      c->plan->threads[c->plan->nn++] = (unsigned)n;
  }
  return 0;
}

static int make_plan(const struct htb_options *opt, unsigned npus, struct plan *p)
{
  struct threads_ctx tc = {p, npus};
  unsigned i;
  int rc;
  memset(p, 0, sizeof(*p));
  p->threads = calloc(npus, sizeof(unsigned));
  if (!p->threads)
    return htb_error(HTB_EXIT_FAIL, "out of memory");
  if (opt->kernels) {
    if ((rc = each_item(opt->kernels, add_kernel, p)))
      return rc;
  } else {
    for (i = 0; htb_kernels[i]; i++)
      p->kernels[p->nk++] = htb_kernels[i];
  }
  if (opt->policies) {
    if ((rc = each_item(opt->policies, add_policy, p)))
      return rc;
  } else {
    p->policies[p->np++] = HTB_POLICY_NONE; /* the unbound baseline, then */
    for (i = 0; i < OMP_EXT_NPOLICIES; i++) /* every policy the library has */
      p->policies[p->np++] = (int)i;
  }
  if (opt->threads) {
    if ((rc = each_item(opt->threads, add_threads, &tc)))
      return rc;
  } else {
    for (i = 1; i <= npus; i++)
      p->threads[p->nn++] = i;
  }
  if (!p->nk || !p->np || !p->nn)
    return htb_error(HTB_EXIT_USAGE, "empty --kernels, --policies or --threads list");
  if (opt->paths == HTB_PATH_INCODE && p->np == 1 && p->policies[0] == (int)omp_ht_policy_os)
    return htb_error(HTB_EXIT_USAGE, "--path incode: os has no in-code series "
                                     "(omp_set_ht_policy(os) unbinds: that is none@incode)");
  return 0;
}

/* ------------------------------------------------------------ workers */

/* Fields the parent sets from the configuration (not the worker's). */
static int parent_owned(const char *name)
{
  static const char *const own[] = {"kernel", "policy", "path", "threads", "cores", "packages",
                                    "extra", "oversub", "places", "wall_s", NULL};
  unsigned i;
  for (i = 0; own[i]; i++)
    if (!strcmp(name, own[i]))
      return 1;
  return 0;
}

/* Parse the worker's result line into r (worker fields only). */
static int parse_result(char *out, struct htb_result *r)
{
  char *line = strstr(out, "htbench-result\t"), *save = NULL, *tok, *nl;
  if (!line)
    return -1;
  if ((nl = strchr(line, '\n')))
    *nl = '\0';
  strtok_r(line, "\t", &save);
  while ((tok = strtok_r(NULL, "\t", &save))) {
    char *eq = strchr(tok, '=');
    const struct htb_field *f;
    if (!eq)
      return -1;
    *eq = '\0';
    f = htb_field_by_name(tok);
    /* the parent owns the configuration fields */
    if (!f || parent_owned(tok))
      continue;
    if (htb_field_set(r, f, eq + 1) < 0)
      return -1;
  }
  return 0;
}

struct worker_cmd {
  const char *self;
  const struct htb_sizes *sz;
  const char *input; /* corpus or text file */
  const char *wc_expect; /* digest of the serial word count, computed once */
  const char *incode_bin; /* htbench-incode (in-code path) */
};

/* The worker's environment: the env path gets the places (none: no places
 * and OMP_PROC_BIND=false); the in-code path none of them (the API binds),
 * only the team size. */
struct worker_env {
  const char *incode, *places, *nbuf;
};

static void worker_env(void *ctx)
{
  const struct worker_env *e = ctx;
  const char *incode = e->incode, *places = e->places, *nbuf = e->nbuf;
  if (incode) {
    unsetenv("OMP_PLACES");
    unsetenv("OMP_PROC_BIND");
  } else if (!*places) {
    unsetenv("OMP_PLACES");
    setenv("OMP_PROC_BIND", "false", 1);
    if (!getenv("OMP_TOOL"))
      setenv("OMP_TOOL", "disabled", 1);
  } else {
    setenv("OMP_PLACES", places, 1);
    setenv("OMP_PROC_BIND", "close", 1);
    /* The env path times the runtime as a program without omp_ext meets
     * it: htbench links libomp_ext statically, whose OMPT tool libomp would
     * start (a per-region cost by itself, see omp_ext/lib/hooks.c). */
    if (!getenv("OMP_TOOL"))
      setenv("OMP_TOOL", "disabled", 1);
  }
  setenv("OMP_NUM_THREADS", nbuf, 1);
  setenv("OMP_DYNAMIC", "false", 1);
  unsetenv("GOMP_CPU_AFFINITY"); /* these would override OMP_PLACES */
  unsetenv("KMP_AFFINITY");
  unsetenv("OMP_EXT_HT_POLICY"); /* the in-code worker sets its policy itself */
}

/* incode: the policy's name for the in-code path (htbench-incode), NULL
 * for the env path. */
static void run_worker(const struct worker_cmd *w, const struct htb_kernel *k, unsigned n,
                       const char *places, const char *expect, const char *incode,
                       struct htb_result *r)
{
  const char *exe = incode ? w->incode_bin : w->self;
  char nbuf[16], reps[16], target[32], limit[32], iters[32], triad[32], sn[32], sl[32], sc[32], stl[32], spr[32];
  const char *argv[44];
  struct worker_env env = {incode, places, nbuf};
  struct sweep_spawn s;
  struct sweep_spawned done;
  int i = 0;
  char *out;

  snprintf(nbuf, sizeof(nbuf), "%u", n);
  snprintf(reps, sizeof(reps), "%u", w->sz->outer_reps);
  snprintf(target, sizeof(target), "%.6g", w->sz->target_s * 1e3);
  snprintf(limit, sizeof(limit), "%llu", (unsigned long long)w->sz->sieve_limit);
  snprintf(iters, sizeof(iters), "%llu", (unsigned long long)w->sz->flops_iters);
  snprintf(triad, sizeof(triad), "%llu", (unsigned long long)w->sz->triad_n);
  snprintf(sn, sizeof(sn), "%llu", (unsigned long long)w->sz->split_n);
  snprintf(sl, sizeof(sl), "%llu", (unsigned long long)w->sz->split_len);
  snprintf(sc, sizeof(sc), "%llu", (unsigned long long)w->sz->split_chunk);
  snprintf(stl, sizeof(stl), "%llu", (unsigned long long)w->sz->split_tail);
  snprintf(spr, sizeof(spr), "%llu", (unsigned long long)w->sz->split_pair_ms);
  argv[i++] = exe;
  argv[i++] = "--worker";
  if (incode) {
    argv[i++] = "--incode";
    argv[i++] = incode;
  }
  argv[i++] = "--kernel";
  argv[i++] = k->name;
  argv[i++] = "--threads";
  argv[i++] = nbuf;
  argv[i++] = "--expect";
  argv[i++] = expect;
  argv[i++] = "--reps";
  argv[i++] = reps;
  argv[i++] = "--target-ms";
  argv[i++] = target;
  argv[i++] = "--sieve-limit";
  argv[i++] = limit;
  argv[i++] = "--flops-iters";
  argv[i++] = iters;
  argv[i++] = "--triad-n";
  argv[i++] = triad;
  argv[i++] = "--split-n";
  argv[i++] = sn;
  argv[i++] = "--split-length";
  argv[i++] = sl;
  argv[i++] = "--split-chunk";
  argv[i++] = sc;
  argv[i++] = "--split-tail";
  argv[i++] = stl;
  argv[i++] = "--split-pair";
  argv[i++] = spr;
  if (w->input) {
    argv[i++] = "--input";
    argv[i++] = w->input;
  }
  if (w->wc_expect && k == &htb_kernel_wordcount) {
    argv[i++] = "--wc-expect";
    argv[i++] = w->wc_expect;
  }
  argv[i] = NULL;

  snprintf(r->status, sizeof(r->status), "worker failed");
  memset(&s, 0, sizeof(s));
  s.argv = (char *const *)argv;
  s.setup = worker_env;
  s.ctx = &env;
  s.in = s.err = -1;
  s.out = SWEEP_CAPTURE;
  if (sweep_spawn(&s, &done) != 0) {
    free(done.out);
    return;
  }
  out = done.out;
  if (out && parse_result(out, r) == 0) {
    /* a result line, then a crash or an exit status other than the
     * verification's 1: the run does not count */
    if (done.signal)
      snprintf(r->status, sizeof(r->status), "worker killed by signal %d", done.signal);
    else if (done.exit_status != (r->verified ? 0 : 1))
      snprintf(r->status, sizeof(r->status), "worker failed (exit %d)", done.exit_status);
    else if (!r->verified)
      snprintf(r->status, sizeof(r->status), "verification failed");
  } else if (done.signal) {
    snprintf(r->status, sizeof(r->status), "worker killed by signal %d", done.signal);
  } else {
    snprintf(r->status, sizeof(r->status), "worker failed (exit %d)", done.exit_status);
  }
  free(out);
}

/* ------------------------------------------------------------ machine */

static char *cpu_model(void)
{
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512], *model = NULL;
  while (f && fgets(line, sizeof(line), f) && !model) {
    char *colon = strchr(line, ':');
    if (colon && (!strncmp(line, "model name", 10) || !strncmp(line, "cpu model", 9))) {
      colon += 2;
      colon[strcspn(colon, "\n")] = '\0';
      model = strdup(colon);
    }
  }
  if (f)
    fclose(f);
  return model ? model : strdup("unknown");
}

static const char *openmp_runtime(void)
{
  if (dlsym(RTLD_DEFAULT, "__kmpc_fork_call"))
    return dlsym(RTLD_DEFAULT, "kmp_set_defaults") ? "libomp (LLVM/Intel)" : "libomp-compatible";
  if (dlsym(RTLD_DEFAULT, "GOMP_parallel"))
    return "libgomp (GNU)";
  return "unknown";
}

static const char *compiler(void)
{
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "gcc " __VERSION__;
#else
  return "unknown";
#endif
}

/* The "machine" object of results.json. */
static char *machine_json(omp_ext_topo_t *topo, const char *corpus_note)
{
  char *buf = NULL, *model = cpu_model(), *allowed = NULL, host[256] = "";
  size_t len = 0;
  struct utsname u;
  time_t now = time(NULL);
  char date[64];
  FILE *f = open_memstream(&buf, &len);
  unsigned v = hwloc_get_api_version();

  if (!f)
    return NULL;
  uname(&u);
  gethostname(host, sizeof(host) - 1);
  hwloc_bitmap_list_asprintf(&allowed, omp_ext_topo_allowed(topo));
  strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  fputs("{\"hostname\": ", f);
  omp_ext_json_string(f, host);
  fputs(", \"os\": ", f);
  {
    char os[600];
    snprintf(os, sizeof(os), "%s %s %s", u.sysname, u.release, u.machine);
    omp_ext_json_string(f, os);
  }
  fputs(", \"cpu_model\": ", f);
  omp_ext_json_string(f, model);
  fprintf(f, ", \"date\": \"%s\", \"topology\": {\"packages\": %u, \"cores\": %u, \"pus\": %u, "
             "\"numa_nodes\": %u, \"cpu_kinds\": %u, \"max_smt\": %u, \"allowed_pus\": ",
          date, omp_ext_topo_npackages(topo), omp_ext_topo_ncores(topo), omp_ext_topo_npus(topo),
          omp_ext_topo_nnuma(topo), omp_ext_topo_nkinds(topo), omp_ext_topo_max_smt(topo));
  omp_ext_json_string(f, allowed ? allowed : "");
  fprintf(f, "}, \"hwloc_api\": \"%u.%u.%u\", \"omp_ext\": \"%s\", \"compiler\": ",
          v >> 16, (v >> 8) & 0xff, v & 0xff, OMP_EXT_VERSION);
  omp_ext_json_string(f, compiler());
  fputs(", \"openmp_runtime\": ", f);
  omp_ext_json_string(f, openmp_runtime());
  fprintf(f, ", \"openmp_version\": %d, \"rapl_readable\": %s, \"corpus\": ", _OPENMP,
          htb_rapl_readable() ? "true" : "false");
  omp_ext_json_string(f, corpus_note);
  fputs(", \"environment\": {\"OMP_PROC_BIND\": \"close\", \"OMP_DYNAMIC\": \"false\", "
        "\"GOMP_CPU_AFFINITY\": null, \"KMP_AFFINITY\": null, \"OMP_WAIT_POLICY\": ", f);
  if (getenv("OMP_WAIT_POLICY"))
    omp_ext_json_string(f, getenv("OMP_WAIT_POLICY"));
  else
    fputs("null", f);
  fputs("}}", f);
  fclose(f);
  free(model);
  free(allowed);
  return buf;
}

/* ------------------------------------------------------------- config */

/* Places, the worker's --expect and the counts of cores and packages.
 * none: no places, --expect "unbound"; its counts are those of the OS
 * order (what an unbound team of N would use if the kernel kept one thread
 * per PU in OS order: counted, not measured). */
static int configure(omp_ext_topo_t *topo, int pol, unsigned n, struct htb_result *r,
                     char **expect)
{
  omp_ext_pu_t *order = calloc(n, sizeof(*order));
  char *places = NULL;
  omp_ext_usage_t u;
  int rc;
  if (!order)
    return omp_ext_err_nomem;
  rc = omp_ext_order(topo, htb_model(),
                     pol == HTB_POLICY_NONE ? omp_ht_policy_os : (omp_ht_policy_t)pol, n, order);
  if (!rc && pol == HTB_POLICY_NONE) {
    rc = (places = strdup("")) && (*expect = strdup("unbound")) ? 0 : omp_ext_err_nomem;
  } else {
    if (!rc)
      rc = omp_ext_places_format(order, n, omp_ext_format_omp, &places);
    if (!rc)
      rc = omp_ext_places_format(order, n, omp_ext_format_list, expect);
  }
  if (!rc) /* distinct cores and packages among the places */
    rc = omp_ext_usage_of(order, n, &u);
  if (!rc) {
    snprintf(r->places, sizeof(r->places), "%s", places);
    r->threads = n;
    r->cores = u.cores;
    r->packages = u.packages;
    r->extra = u.extra;
  }
  free(places);
  free(order);
  return rc;
}

/* ------------------------------------------------------------- rounds */

/* One configuration of the sweep: its row of results, and how to run it. */
struct bench_config {
  const struct htb_kernel *kernel;
  const char *incode;    /* the policy's name on the in-code path, NULL: env path */
  char *expect;          /* the worker's --expect; NULL: no places (not run) */
  unsigned threads;      /* N + --oversubscribe K */
};

/* The sweep's runner (omp_ext/tools/sweep/sweep.h): a worker process timing one
 * kernel in one configuration; its repetitions are the samples, their
 * statistics the worker's (EPCC's method: one round of the plan). */
struct bench {
  const struct htb_options *opt;
  const struct worker_cmd *w;
  struct bench_config *c;
  struct htb_result *res;
  unsigned n;
  unsigned skipped;      /* configurations not started: --budget reached */
  FILE *partial;         /* results.partial.csv: rows as they finish */
};

static int run_config(void *ctx, unsigned i, unsigned round, double *seconds)
{
  struct bench *b = ctx;
  struct bench_config *c = &b->c[i];
  struct htb_result *r = &b->res[i];
  double t0 = sweep_now();
  (void)round;
  *seconds = 0;
  if (!c->expect) /* no places: status says why */
    return HTB_EXIT_OK;
  /* --oversubscribe K: N + K threads on the N places */
  r->threads = c->threads;
  r->oversub = b->opt->oversub;
  run_worker(b->w, c->kernel, r->threads, r->places, c->expect, c->incode, r);
  *seconds = r->wall_s = sweep_now() - t0;
  return HTB_EXIT_OK;
}

static void progress(void *ctx, unsigned i, unsigned round, const struct sweep_state *st)
{
  struct bench *b = ctx;
  const struct htb_result *r = &b->res[i];
  (void)round;
  fprintf(stderr, "htbench: [%u/%u] %-9s %-14s N=%-3u %s (%.2f s)\n", st->done + st->skipped,
          b->n, r->kernel, r->policy, r->threads, r->status, isnan(r->wall_s) ? 0 : r->wall_s);
  htb_csv_row(b->partial, r);
  fflush(b->partial);
}

static int skip_config(void *ctx, unsigned i, unsigned round, const struct sweep_state *st)
{
  struct bench *b = ctx;
  if (b->c[i].expect) { /* (a configuration without places keeps that status) */
    snprintf(b->res[i].status, sizeof(b->res[i].status), "skipped (budget)");
    b->skipped++;
  }
  progress(ctx, i, round, st);
  return HTB_EXIT_OK;
}

/* The plan: kernels x thread counts x policies x paths, policies (and
 * paths) alternating inside each thread count, so that slow drifts of the
 * machine spread over all policies; each row's configuration fields and
 * places.  Returns the count. */
static unsigned plan_rows(const struct htb_options *opt, const struct plan *p,
                          omp_ext_topo_t *topo, struct bench_config *c, struct htb_result *res)
{
  unsigned ik, in, ip, ipath, n = 0;
  for (ik = 0; ik < p->nk; ik++)
    for (in = 0; in < p->nn; in++)
      for (ip = 0; ip < p->np; ip++)
        for (ipath = 0; ipath < 2; ipath++) {
          const char *pname = policy_label(p->policies[ip]);
          const char *incode = ipath ? pname : NULL;
          struct htb_result *r = &res[n];
          int rc;
          if (!(opt->paths & (ipath ? HTB_PATH_INCODE : HTB_PATH_ENV)))
            continue;
          if (ipath && p->policies[ip] == (int)omp_ht_policy_os)
            continue; /* in code, os unbinds: that is none@incode */
          c[n] = (struct bench_config){p->kernels[ik], incode, NULL, p->threads[in] + opt->oversub};
          n++;
          htb_result_init(r);
          snprintf(r->kernel, sizeof(r->kernel), "%s", p->kernels[ik]->name);
          /* the in-code series is its own policy label: reports group by it */
          snprintf(r->policy, sizeof(r->policy), "%s%s", pname, incode ? "@incode" : "");
          snprintf(r->path, sizeof(r->path), "%s", incode ? "incode" : "env");
          r->threads = p->threads[in] + opt->oversub;
          if ((rc = configure(topo, p->policies[ip], p->threads[in], r, &c[n - 1].expect)) != 0) {
            snprintf(r->status, sizeof(r->status), "no places: %s", omp_ext_strerror(rc));
            r->threads = p->threads[in] + opt->oversub;
            free(c[n - 1].expect);
            c[n - 1].expect = NULL;
          }
        }
  return n;
}

/* mkdir -p: \p dir and any missing parent. */
static int make_dir(const char *dir)
{
  char failed[4096];
  int err = sweep_make_dir(dir, failed, sizeof(failed));
  return err ? htb_error(HTB_EXIT_FAIL, "cannot create '%s': %s", failed, strerror(err)) : 0;
}

static int write_outputs(const struct htb_options *opt, const char *machine,
                         struct htb_result *res, unsigned n, unsigned max_smt)
{
  char *csv = sweep_path(opt->out, "results.csv"), *json = sweep_path(opt->out, "results.json");
  char *tables = sweep_path(opt->out, "tables.txt");
  FILE *tf;
  int rc = 0;

  htb_derive(res, n);
  if (!csv || !json || !tables || htb_write_csv(csv, res, n) < 0 ||
      htb_write_json(json, machine, opt, res, n) < 0) {
    rc = htb_error(HTB_EXIT_FAIL, "cannot write results in '%s': %s", opt->out, strerror(errno));
  } else {
    htb_print_tables(stdout, res, n, max_smt);
    rc = htb_stdout_done();
    if (!(tf = fopen(tables, "w")))
      rc = htb_error(HTB_EXIT_FAIL, "cannot write '%s': %s", tables, strerror(errno));
    else {
      htb_print_tables(tf, res, n, max_smt);
      if (ferror(tf) | fclose(tf))
        rc = htb_error(HTB_EXIT_FAIL, "cannot write '%s'", tables);
    }
    if (!opt->no_plot) {
      int prc = htb_plot(opt->out, res, n);
      if (prc == 3)
        htb_error(0, "gnuplot not found: plots skipped (make them later with "
                     "'htbench --plot %s' where gnuplot is installed)", opt->out);
      else if (prc)
        rc = HTB_EXIT_FAIL;
    }
  }
  free(csv);
  free(json);
  free(tables);
  return rc;
}

/* The serial word count of the input, once for all workers. */
static int reference_count(const char *path, char *digest, size_t len)
{
  char err[512], *text;
  size_t size;
  int rc;
  text = htb_read_file(path, &size, err, sizeof(err));
  if (!text)
    return htb_error(HTB_EXIT_FAIL, "%s", err);
  rc = htb_wordcount_reference(text, size, digest, len);
  free(text);
  return rc ? htb_error(HTB_EXIT_FAIL, "out of memory counting '%s'", path) : 0;
}

int htb_sweep(const struct htb_options *opt, const char *self)
{
  omp_ext_topo_t *topo = NULL;
  struct plan p;
  struct htb_result *res = NULL;
  struct worker_cmd w = {self, &opt->sizes, opt->sizes.input, NULL, opt->incode_bin};
  char *corpus = NULL, *machine = NULL, *partial = NULL, note[256], digest[96];
  FILE *pf = NULL;
  struct bench_config *c = NULL;
  struct sweep_state st = {0};
  unsigned ik, ip, n = 0, bad = 0, skipped = 0, total, npaths;
  int rc, need_corpus = 0, need_text = 0;

  st.start = sweep_now(); /* --budget counts from here */
  if ((rc = omp_ext_topo_load(&topo, NULL, 0)) != 0)
    return htb_error(HTB_EXIT_FAIL, "cannot read this machine's topology: %s",
                     omp_ext_strerror(rc));
  if ((rc = make_plan(opt, omp_ext_topo_npus(topo), &p)))
    goto out;
  if ((rc = make_dir(opt->out)))
    goto out;
  for (ik = 0; ik < p.nk; ik++)
    need_text |= p.kernels[ik] == &htb_kernel_wordcount;
  need_corpus = need_text && !opt->sizes.input;
  if (need_corpus) { /* generated once, read by every worker */
    char name[96];
    snprintf(name, sizeof(name), ".corpus-%gMB-seed%llu.txt", opt->sizes.corpus_mb,
             (unsigned long long)opt->sizes.seed);
    corpus = sweep_path(opt->out, name);
    if (!corpus || htb_corpus_write(corpus, (size_t)(opt->sizes.corpus_mb * 1e6), opt->sizes.seed) < 0) {
      rc = htb_error(HTB_EXIT_FAIL, "cannot write the corpus in '%s': %s", opt->out,
                     strerror(errno));
      goto out;
    }
    w.input = corpus;
  }
  if (need_text && (rc = reference_count(w.input, digest, sizeof(digest))))
    goto out;
  w.wc_expect = need_text ? digest : NULL;
  /* rows are appended here as they finish, in case the sweep is cut short */
  partial = sweep_path(opt->out, "results.partial.csv");
  if (!partial || !(pf = fopen(partial, "w"))) {
    rc = htb_error(HTB_EXIT_FAIL, "cannot write in '%s': %s", opt->out, strerror(errno));
    goto out;
  }
  htb_csv_header(pf);
  if (opt->sizes.input)
    snprintf(note, sizeof(note), "file %s", opt->sizes.input);
  else
    snprintf(note, sizeof(note), "generated: %g MB, Zipf s=1 over %d pseudo-words, seed %llu",
             opt->sizes.corpus_mb, HTB_CORPUS_WORDS, (unsigned long long)opt->sizes.seed);
  machine = machine_json(topo, note);
  { /* the machine's topology beside the results (hwloc XML, lstopo -i) */
    char *xml = sweep_path(opt->out, "topology.xml");
    if (!xml || hwloc_topology_export_xml(omp_ext_topo_hwloc(topo), xml, 0) < 0)
      htb_error(0, "warning: cannot write %s/topology.xml", opt->out);
    free(xml);
  }
  npaths = (opt->paths & HTB_PATH_ENV ? 1 : 0) + (opt->paths & HTB_PATH_INCODE ? 1 : 0);
  total = p.nk * p.nn * p.np * npaths;
  for (ip = 0; ip < p.np; ip++) /* os has no in-code series */
    if (p.policies[ip] == (int)omp_ht_policy_os && (opt->paths & HTB_PATH_INCODE))
      total -= p.nk * p.nn;
  res = calloc(total, sizeof(*res));
  c = calloc(total, sizeof(*c));
  if (!res || !c || !machine) {
    rc = htb_error(HTB_EXIT_FAIL, "out of memory");
    goto out;
  }
  n = plan_rows(opt, &p, topo, c, res);
  { /* one round in the plan's order (sweep.h), no run started past --budget */
    const struct sweep_plan sp = {n, 1, 0, 0, opt->budget_s};
    struct bench b = {opt, &w, c, res, n, 0, pf};
    const struct sweep_runner runner = {&b, run_config, progress, skip_config, NULL};
    if (sweep_run(&sp, &runner, &st) == SWEEP_NOMEM) {
      rc = htb_error(HTB_EXIT_FAIL, "out of memory");
      goto out;
    }
    skipped = b.skipped;
  }
  for (ik = 0; ik < n; ik++)
    bad += strcmp(res[ik].status, "ok") != 0 && strcmp(res[ik].status, "skipped (budget)") != 0;
  rc = write_outputs(opt, machine, res, n, omp_ext_topo_max_smt(topo));
  if (!rc)
    unlink(partial);
  fprintf(stderr, "htbench: %u configurations in %.0f s; results in %s\n", n - skipped,
          sweep_now() - st.start, opt->out);
  if (skipped)
    htb_error(0, "%u configurations skipped: --budget %.0f s reached", skipped, opt->budget_s);
  if (bad && !rc)
    rc = htb_error(HTB_EXIT_FAIL, "%u configurations invalid (verification or binding): see "
                                  "the status column of %s/results.csv", bad, opt->out);
out:
  if (pf)
    fclose(pf);
  free(partial);
  if (corpus)
    unlink(corpus);
  free(corpus);
  free(machine);
  for (ik = 0; c && ik < n; ik++)
    free(c[ik].expect);
  free(c);
  free(res);
  free(p.threads);
  omp_ext_topo_destroy(topo);
  return rc;
}
