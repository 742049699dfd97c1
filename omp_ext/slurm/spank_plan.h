/*
 * The Slurm plugin's logic, apart from Slurm: what srun's --ht-* options and
 * plugstack.conf's arguments mean (spank_settings.c), when Slurm's own
 * binding or the job's variables conflict with them (spank_settings.c), and
 * each task's PUs and places (spank_plan.c).  Pure: the environment comes
 * in as arrays, the topology as an input string for tests (NULL: this
 * machine), errors as one line of text; nothing is printed, nothing bound.
 * omp_ext_spank.c calls it from Slurm's callbacks; test_spank_plan tests it.
 */
#ifndef OMP_EXT_SPANK_PLAN_H
#define OMP_EXT_SPANK_PLAN_H

#include <stddef.h>

#include <omp_ext.h>

/* The messages' prefix: every line the plugin prints starts with it. */
#define HTS_PREFIX "omp_ext-slurm: "

/* Most bytes of an error line. */
#define HTS_ERRLEN 512

/* The error line \p fmt in err (len bytes); returns -1. */
int hts_fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A step's settings: plugstack.conf's defaults, then srun's options. */
struct hts_settings {
  int policy_set;          /* a policy (or off) was given */
  int off;                 /* --ht-policy=off / default=off: place nothing */
  int is_auto;             /* auto[:time|:energy]: libomp_ext preloaded */
  omp_ht_policy_t policy;  /* the policy, when !off */
  unsigned n;              /* POLICY:N's N; 0 when not given */
  char text[32];           /* the policy as given ("spn:4", "auto:energy") */
  unsigned smt;            /* --ht-smt K: at most K PUs of each core; 0: all */
  int smt_set;
  int verbose;             /* --ht-verbose: one line per task */
  int strict;              /* --ht-strict: a task omp_ext cannot place fails */
  char preload[1024];      /* plugstack.conf preload=PATH ("" = beside the plugin) */
};

/* --ht-policy's value: POLICY[:N] (a policy of htplaces, N >= 1), auto,
 * auto:time, auto:energy, or off.  0, or -1 with one line in err naming
 * \p what (the option or argument) and what is allowed. */
int hts_parse_policy(const char *what, const char *text, struct hts_settings *s, char *err,
                     size_t len);

/* --ht-smt's value: a whole number >= 1.  0, or -1 with one line in err. */
int hts_parse_smt(const char *what, const char *text, struct hts_settings *s, char *err,
                  size_t len);

/* One plugstack.conf argument: default=POLICY[:N], smt=K, verbose, strict,
 * preload=PATH.  0, or -1 with one line in err. */
int hts_parse_arg(const char *arg, struct hts_settings *s, char *err, size_t len);

/* The step's settings: \p site's, each replaced by the user's where the
 * user gave it (--ht-smt or --ht-verbose alone bring policy speedup when
 * the site has none). */
void hts_merge(const struct hts_settings *site, const struct hts_settings *user,
               struct hts_settings *out);

/* Whether omp_ext places this step's tasks. */
int hts_active(const struct hts_settings *s);

/*
 * What in the job's environment \p envp fights the placement: Slurm's own
 * binding (SLURM_CPU_BIND_TYPE other than empty or "none", as srun sets it
 * from --cpu-bind, --hint or SLURM_CPU_BIND; but not "cores" with
 * SLURM_NTASKS_PER_CORE set, nor "sockets" with SLURM_NTASKS_PER_SOCKET:
 * srun implies those levels from --ntasks-per-core/-socket), or a variable that would
 * override the places under some runtime (KMP_AFFINITY, GOMP_CPU_AFFINITY,
 * OMP_EXT_HT_POLICY, OMP_EXT_PLAN).  \p asked: the user gave --ht-policy or
 * --ht-smt (then the conflict is refused); otherwise only the site's default
 * is in force and it steps aside for the user's own binding, also for a set
 * OMP_PLACES or OMP_PROC_BIND.  Returns 0 (none), or 1 with one line in err
 * (a refusal when \p asked, else why the default is not applied).
 */
int hts_conflict(const struct hts_settings *s, int asked, char *const *envp, char *err,
                 size_t len);

/* Inputs of a node's plan, as the step on this node sees them. */
struct hts_node_in {
  const char *topo_input;   /* NULL: this machine; else an hwloc synthetic string (tests) */
  const char *alloc_cores;  /* the step's cores on the node in Slurm's numbering
                               (S_STEP_ALLOC_CORES: "0-3,8") */
  unsigned ntasks;          /* the step's tasks on this node */
  unsigned threads_cap;     /* PUs per core Slurm lets the step use (0: all): from
                               SLURM_THREADS_PER_CORE (--threads-per-core) */
};

/* A node's plan: the step's PUs and each task's domain. */
struct hts_node {
  hwloc_bitmap_t alloc;     /* the step's allowed PUs on this node (OS indexes) */
  unsigned ntasks;
  hwloc_bitmap_t *domain;   /* ntasks domains of whole cores, disjoint, in alloc */
};

/*
 * The node's plan.  Slurm numbers a node's cores socket by socket, core by
 * core, in hwloc's logical order over the whole machine (slurmd's
 * xcpuinfo.c), so core c of \p alloc_cores is hwloc's core of logical index
 * c with every PU the machine has, allowed or not; the step's PUs are those
 * of its cores that the process may use (hwloc's allowed set: cgroup,
 * online), at most smt (and threads_cap) of each core.  Those are cut into
 * ntasks domains of whole cores as omp_ext_domain_split() cuts a node
 * between MPI ranks.  0, or -1 with one line in err (node left empty).
 */
int hts_node_plan(const struct hts_settings *s, const struct hts_node_in *in,
                  struct hts_node *node, char *err, size_t len);

void hts_node_free(struct hts_node *node);

/* One task's placement. */
struct hts_task {
  hwloc_bitmap_t pus;       /* bind the task here: its domain */
  char *places;             /* OMP_PLACES; NULL under auto */
  unsigned nthreads;        /* OMP_NUM_THREADS to set; 0: the job's own value stays */
  char *pus_text;           /* pus as a list ("0-3"), for messages and OMP_EXT_SLURM */
};

/*
 * Task \p r's placement in \p node: its domain, the policy's order in it
 * (N from POLICY:N, else the job's OMP_NUM_THREADS when it is a number up to
 * the domain's PUs -- a larger one keeps all the places and its value --,
 * else every PU; the energy policy's model from \p envp as htplaces reads
 * it).  \p current: the task's binding as Slurm left it (NULL: unknown);
 * one outside the step's PUs means Slurm's numbering was not understood
 * (slurm.conf's node line unlike the machine) and is an error.  0, or -1
 * with one line in err.
 */
int hts_task_plan(const struct hts_settings *s, const struct hts_node *node, unsigned r,
                  const char *topo_input, char *const *envp, hwloc_const_cpuset_t current,
                  struct hts_task *task, char *err, size_t len);

void hts_task_free(struct hts_task *task);

#endif /* OMP_EXT_SPANK_PLAN_H */
