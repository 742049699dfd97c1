/*
 * omp_ext/policy.h -- Placement policies.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_POLICY_H
#define OMP_EXT_POLICY_H

#include <stddef.h>

#include <hwloc.h>

#include "omp_ext/export.h"
#include "omp_ext/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup policy Placement policies                                      */
/* ------------------------------------------------------------------------ */

/**
 * The order in which PUs (hardware threads) go to OpenMP threads 0, 1, 2...
 * Named in the style of OpenMP's omp_proc_bind_t (OpenMP 5.2 §18.8.1).
 *
 * Cores are always ordered first by CPU kind (hwloc cpukinds, most
 * performant kind first: highest hwloc efficiency), then in hwloc's logical
 * order (package after package).  SMT siblings always come from hwloc core
 * objects, never from OS index arithmetic.
 */
typedef enum omp_ht_policy_t {
  /** Ascending OS index: the baseline an unbound program sees. */
  omp_ht_policy_os = 0,
  /** Paper strategy 1 ("full-resource units first", best speed-up): the first
   *  PU of every core, packages one after another, then the second PU of each
   *  core in the same core order, and so on. */
  omp_ht_policy_speedup = 1,
  /** Paper strategy 2 (best SPN, speed-up per watt per physical core, paper
   *  §2.2): every PU of a core before the next core, cores in package order. */
  omp_ht_policy_spn = 2,
  /** First PU of each core, round-robin across packages and, inside a
   *  package, across NUMA nodes; then the siblings in the same way.  For
   *  memory-bandwidth-bound loops. */
  omp_ht_policy_spread = 3,
  /** The order of whichever of speedup, spn, spread (in that order of
   *  preference on ties) reaches the lowest modelled energy to solution at
   *  its best thread count, under the default model (see
   *  omp_ext_model_default() and omp_ext_energy_choice(), paper §2).  The
   *  recommended thread count comes from omp_ext_energy_choice(). */
  omp_ht_policy_energy = 4
} omp_ht_policy_t;

/** Number of policies: valid values are 0 .. OMP_EXT_NPOLICIES - 1. */
#define OMP_EXT_NPOLICIES 5

/**
 * Policy from its name ("os", "speedup", "spn", "spread", "energy";
 * case-sensitive).
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

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_POLICY_H */
