/*
 * omp_ext/policy.h -- Placement policies.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_POLICY_H
#define OMP_EXT_POLICY_H

#include "omp_ext/export.h"
#include "omp_ext/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup policy Placement policies                                      */
/* ------------------------------------------------------------------------ */

/**
 * The placement policies, as an X-macro: one row per policy,
 *
 *   X(NAME, VALUE, BASE, ENERGY_CANDIDATE, DESCRIPTION)
 *
 * NAME the enumerator suffix and the name omp_ext_policy_from_name() takes;
 * BASE 1 for a policy with an order rule of its own (omp_ext_order()
 * computes it from the topology alone), 0 for a meta-policy that resolves to
 * a base policy and a team size under a model (omp_ext_policy_resolve()),
 * -1 for a run-time policy with no static order at all (no place list, no
 * htplaces POLICY N: its placement is chosen per parallel region while the
 * program runs; its VALUE is 0x100 or above, after the policies with an
 * order, which are numbered from 0 without a gap);
 * ENERGY_CANDIDATE 1 for a base policy the choosers choose among: the
 * energy meta-policy (preferred in list order on ties), the online tuner
 * (auto's candidate places per team) and htplaces tune's default
 * --policies (with none); DESCRIPTION the one-line meaning
 * (omp_ext_policy_description(), htplaces list).  The enum, the policy
 * table, htplaces' lists, help texts and defaults, the bash completion's
 * lists (htplaces list) and the Fortran module's constants are generated
 * from it: a new policy is one row here plus, for a base policy, its rule
 * in the library's order rules (and the tests and pages that name every
 * policy: omp_ext/DESIGN.md, Adding a policy).
 *
 * Cores are always ordered first by CPU kind (hwloc cpukinds, most
 * performant kind first: highest hwloc efficiency), then in hwloc's logical
 * order (package after package).  SMT siblings always come from hwloc core
 * objects, never from OS index arithmetic.  Named in the style of OpenMP's
 * omp_proc_bind_t (OpenMP 5.2 §18.8.1).
 *
 *  - os:      ascending OS index, SMT ignored (the order of htplaces os N
 *             and OMP_PLACES=threads on many machines); omp_set_ht_policy(os)
 *             unbinds instead: the baseline an unbound program sees.
 *  - speedup: paper strategy 1 ("full-resource units first", best
 *             speed-up): the first PU of every core, packages one after
 *             another, then the second PU of each core in the same core
 *             order, and so on.
 *  - spn:     paper strategy 2 (best SPN, speed-up per watt per physical
 *             core, paper §2.2): every PU of a core before the next core,
 *             cores in package order.
 *  - spread:  first PU of each core, round-robin across packages and,
 *             inside a package, across NUMA nodes; then the siblings in the
 *             same way.  For memory-bandwidth-bound loops.
 *  - energy:  the order of whichever energy candidate (speedup, spn, spread,
 *             in that order of preference on ties) reaches the lowest
 *             modelled energy to solution at its best thread count, under
 *             the model given (omp_ext_energy_choice(), paper §2); the
 *             recommended thread count comes with it.
 *  - auto:    run time only (BASE -1): each outermost parallel region gets
 *             the team size and base policy an online tuner learnt for it
 *             (OMP_EXT_HT_POLICY=auto[:time|energy],
 *             omp_set_ht_policy(omp_ht_policy_auto); htplaces exec --plan
 *             applies tune's per-region answer the same way).  No place
 *             list: omp_ext_order() and htplaces POLICY N refuse it.
 */
#define OMP_EXT_POLICIES(X)                                                          \
  X(os, 0, 1, 0, "ascending OS index, SMT ignored (in code: unbound, the "          \
                 "baseline)")                                                       \
  X(speedup, 1, 1, 1, "one PU on every core first, SMT siblings last: best "         \
                      "speed-up (paper strategy 1)")                                \
  X(spn, 2, 1, 1, "all SMT siblings of a core before the next core: best speed-up "  \
                  "per watt per core (paper strategy 2)")                           \
  X(spread, 3, 1, 1, "one PU per core, round-robin across packages and NUMA "        \
                     "nodes, then siblings: memory-bandwidth-bound loops")          \
  X(energy, 4, 0, 0, "the order and N with the least modelled energy to "            \
                     "solution (paper §2; htplaces model)")                         \
  X(auto, 0x100, -1, 0, "run time only, no place list: each parallel region's "      \
                        "team size and policy learnt per region "                   \
                        "(OMP_EXT_HT_POLICY=auto)")

/**
 * The order in which PUs (hardware threads) go to OpenMP threads 0, 1, 2...:
 * omp_ht_policy_os, omp_ht_policy_speedup, ... (OMP_EXT_POLICIES).
 */
typedef enum omp_ht_policy_t {
#define OMP_EXT_POLICY_ENUM_(name, value, base, candidate, description) \
  omp_ht_policy_##name = (value),
  OMP_EXT_POLICIES(OMP_EXT_POLICY_ENUM_)
#undef OMP_EXT_POLICY_ENUM_
} omp_ht_policy_t;

/**
 * Number of policies with a place order (BASE 1 or 0: os .. energy): their
 * values are 0 .. OMP_EXT_NPOLICIES - 1.  The run-time policies (BASE -1:
 * auto, 0x100) are rows of OMP_EXT_POLICIES too, outside this range.
 */
#define OMP_EXT_NPOLICIES (0 OMP_EXT_POLICIES(OMP_EXT_COUNT_ORDERED_POLICY_))
/** Counts a row of OMP_EXT_POLICIES that has a place order (BASE >= 0). */
#define OMP_EXT_COUNT_ORDERED_POLICY_(name, value, base, candidate, description) \
  + ((base) >= 0)
#ifndef OMP_EXT_COUNT_ROW_
/** Counts the rows of an X-macro list (any number of fields). */
#define OMP_EXT_COUNT_ROW_(...) + 1
#endif
/** Number of rows of OMP_EXT_POLICIES, run-time policies included. */
#define OMP_EXT_NPOLICIES_ALL (0 OMP_EXT_POLICIES(OMP_EXT_COUNT_ROW_))

/**
 * Policy from its name ("os", "speedup", "spn", "spread", "energy", "auto";
 * case-sensitive).  "auto" gives omp_ht_policy_auto, which has no place
 * order: see omp_ext_policy_has_order().
 *
 * \param name    the name, NUL-terminated.
 * \param policy  receives the policy on success.
 * \return 0, omp_ext_err_invalid if an argument is NULL, omp_ext_err_policy if
 *         the name is unknown.
 */
OMP_EXT_API int omp_ext_policy_from_name(const char *name, omp_ht_policy_t *policy);

/** Name of a policy ("spn"...), or NULL for a value that is not a policy. */
OMP_EXT_API const char *omp_ext_policy_name(omp_ht_policy_t policy);

/** One-line description of a policy, or NULL for a value that is not one. */
OMP_EXT_API const char *omp_ext_policy_description(omp_ht_policy_t policy);

/**
 * Whether a policy is a base policy, with an order rule of its own (os,
 * speedup, spn, spread), rather than a meta-policy that resolves to one
 * under a model (energy) or a run-time policy (auto): the BASE column of
 * OMP_EXT_POLICIES is 1.
 * \return 1 (base), 0 (meta-policy or run-time policy), omp_ext_err_policy
 *         (not a policy).
 */
OMP_EXT_API int omp_ext_policy_is_base(omp_ht_policy_t policy);

/**
 * Whether a policy has a place order that omp_ext_order() computes (and so a
 * place list, htplaces POLICY N): every policy but the run-time ones (auto,
 * whose placement is chosen per parallel region while the program runs;
 * BASE -1 in OMP_EXT_POLICIES).
 * \return 1 (an order: its value is below OMP_EXT_NPOLICIES), 0 (run time
 *         only), omp_ext_err_policy (not a policy).
 */
OMP_EXT_API int omp_ext_policy_has_order(omp_ht_policy_t policy);

/**
 * Whether the energy meta-policy chooses among this policy: the
 * ENERGY_CANDIDATE column of OMP_EXT_POLICIES (speedup, spn, spread).
 * \return 1 (candidate), 0 (not), omp_ext_err_policy (not a policy).
 */
OMP_EXT_API int omp_ext_policy_is_energy_candidate(omp_ht_policy_t policy);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_POLICY_H */
