/*
 * omp_ext/order.h -- Orders.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_ORDER_H
#define OMP_EXT_ORDER_H

#include "omp_ext/export.h"
#include "omp_ext/model.h"
#include "omp_ext/policy.h"
#include "omp_ext/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup order Orders                                                   */
/* ------------------------------------------------------------------------ */

/**
 * The first \p n PUs of a policy's order: out[t] is the PU of thread t.
 *
 * The order is a permutation of the allowed PUs; every prefix of it is the
 * answer for a smaller n.  Paper §3 (strategies 1 and 2).  A meta-policy
 * (energy) takes the order of the base policy it resolves to under \p model
 * (omp_ext_policy_resolve()); base policies do not use the model.
 *
 * \param topo    the topology (omp_ext_topo_load()).
 * \param model   the energy model for meta-policies; NULL for the paper's
 *                default (omp_ext_model_default()).  The environment is
 *                never read: see omp_ext_model_from_env().
 * \param policy  an omp_ht_policy_t.
 * \param n       number of threads, 1 .. omp_ext_topo_npus(topo).
 * \param out     an array of at least \p n elements.
 * \return 0; omp_ext_err_invalid (NULL pointer; for a meta-policy, a model
 *         outside its domains); omp_ext_err_policy (not a policy, or a
 *         run-time policy without an order: omp_ht_policy_auto);
 *         omp_ext_err_range (n is 0 or above the allowed PUs);
 *         omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_order(const omp_ext_topo_t *topo, const omp_ext_model_t *model,
                              omp_ht_policy_t policy, unsigned n, omp_ext_pu_t *out);

/**
 * What a policy means on \p topo: the base policy whose order it binds in
 * and the team size it recommends.  A base policy (omp_ext_policy_is_base())
 * is itself, with all allowed PUs; the energy meta-policy is
 * omp_ext_energy_choice() under \p model.
 *
 * \param model   the energy model; NULL for the paper's default
 *                (omp_ext_model_default()); not used for base policies.
 * \param base    receives a base policy.
 * \param n       receives the team size, 1 .. omp_ext_topo_npus(topo).
 * \return 0; omp_ext_err_invalid (NULL topo/base/n; for a meta-policy, a
 *         model outside its domains); omp_ext_err_policy (not a policy, or
 *         omp_ht_policy_auto, which has no order: omp_ext_policy_has_order());
 *         omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_policy_resolve(const omp_ext_topo_t *topo, const omp_ext_model_t *model,
                                       omp_ht_policy_t policy, omp_ht_policy_t *base,
                                       unsigned *n);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_ORDER_H */
