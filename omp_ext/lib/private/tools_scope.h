/*
 * private/tools_scope.h -- the topology a process, or an MPI rank, may use:
 * one call (omp_ext_scope_load(), scope.c) from a topology source, the PUs
 * to keep, the SMT siblings to keep and the rank with its domain rule.
 * htplaces (every subcommand's topology, exec's binding), the Slurm plugin
 * (the step's PUs, each task's domain) and the library's own binding
 * topology (bind.c) call it.  Not exported (no ABI promise): a user of
 * libomp_ext composes omp_ext_topo_load(), omp_ext_topo_restrict() and
 * omp_ext_rank_restrict(), or lets omp_set_ht_policy() do it.  Included by
 * private/tools.h.
 */
#ifndef OMP_EXT_TOOLS_SCOPE_H
#define OMP_EXT_TOOLS_SCOPE_H

#include "omp_ext.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a rank gets its share of the node (struct omp_ext_scope's split). */
typedef enum omp_ext_split_t {
  /** The rank came from the launcher's variables: a process the launcher
   *  bound already keeps that binding (mode omp_ext_rank_bound), else it is
   *  restricted to its domain -- omp_ext_rank_restrict()'s rule. */
  omp_ext_split_unless_bound = 0,
  /** The rank count was given (htplaces --ranks-per-node, a Slurm step's
   *  tasks): always the rank's domain (omp_ext_domain_split()). */
  omp_ext_split_always = 1
} omp_ext_split_t;

/** The step of omp_ext_scope_load() that failed. */
typedef enum omp_ext_scope_step_t {
  omp_ext_scope_load_step = 0, /**< loading the topology (*topo NULL) */
  omp_ext_scope_within_step,   /**< keeping the PUs of within */
  omp_ext_scope_smt_step,      /**< keeping max_smt PUs per core */
  omp_ext_scope_rank_step      /**< the rank's domain */
} omp_ext_scope_step_t;

/** What the topology is made of, in the order the steps apply. */
struct omp_ext_scope {
  const char *input;           /**< NULL: this machine; else an hwloc XML file or
                                *   synthetic string (omp_ext_topo_load()) */
  const char *xml;             /**< without input: this machine as hwloc XML handed
                                *   over by htplaces exec, its stamp checked by the
                                *   caller (omp_ext_handoff_usable()); NULL: discover */
  unsigned long flags;         /**< omp_ext_topo_load()'s flags */
  int lean;                    /**< nonzero: the binding topology, without caches
                                *   (omp_ext_topo_load_as()) */
  hwloc_const_cpuset_t within; /**< keep only these PUs (OS indexes); NULL: all allowed */
  unsigned max_smt;            /**< keep at most this many PUs of each core
                                *   (omp_ext_pu_t.sibling below it); 0: all */
  omp_ext_rank_t rank;         /**< the rank: launcher NULL for none; else rank and
                                *   size (< size, >= 1), as the caller read them
                                *   (omp_ext_rank_from_env(), or its options); its
                                *   mode is set by the call */
  omp_ext_split_t split;       /**< the domain rule */
};

/**
 * The topology \p s describes: loaded from s->input (s->flags, s->lean),
 * restricted to s->within, to s->max_smt PUs per core, then to the rank's
 * domain (omp_ext_domain_split(topo, s->rank.size, s->rank.rank) under
 * s->split; s->rank.mode says what was done: omp_ext_rank_none, _split or
 * _bound).  The environment is not read: the caller reads the launcher's
 * variables at its edge and passes them in s->rank.
 *
 * \param topo    receives the topology, to be destroyed by the caller
 *                (omp_ext_topo_destroy()) whatever the result: on an error
 *                after the load, as the steps before the failing one left it
 *                (for the caller's message: the PUs that were allowed, the
 *                cores a rank count exceeds); NULL when the load failed.
 * \param failed  receives the step that failed (may be NULL).
 * \return 0; omp_ext_topo_load()'s errors (load step); omp_ext_err_empty
 *         (within or max_smt leave no PU); omp_ext_err_range (a rank size
 *         above the allowed cores); omp_ext_err_invalid (NULL, a rank not
 *         below its size); omp_ext_err_unsupported (the process binding
 *         cannot be read); omp_ext_err_nomem.
 */
int omp_ext_scope_load(struct omp_ext_scope *s, omp_ext_topo_t **topo,
                       omp_ext_scope_step_t *failed);

/**
 * The rank step alone, on a loaded topology: nothing without s->rank.launcher,
 * else the domain rule \p split (omp_ext_rank_restrict() is it under
 * omp_ext_split_unless_bound, the rank read from the environment).  Sets
 * rank->mode.  Errors as omp_ext_scope_load()'s rank step.
 */
int omp_ext_rank_apply(omp_ext_topo_t *topo, omp_ext_rank_t *rank, omp_ext_split_t split);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_TOOLS_SCOPE_H */
