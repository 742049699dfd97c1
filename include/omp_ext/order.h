/*
 * omp_ext/order.h -- Orders.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_ORDER_H
#define OMP_EXT_ORDER_H

#include <stddef.h>

#include <hwloc.h>

#include "omp_ext/export.h"
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
 * answer for a smaller n.  Paper §3 (strategies 1 and 2).
 *
 * \param policy  an omp_ht_policy_t.
 * \param n       number of threads, 1 .. omp_ext_topo_npus(topo).
 * \param out     an array of at least \p n elements.
 * \return 0; omp_ext_err_invalid (NULL pointer); omp_ext_err_policy (not a
 *         policy); omp_ext_err_range (n is 0 or above the allowed PUs);
 *         omp_ext_err_nomem; for omp_ht_policy_energy also omp_ext_err_parse
 *         (OMP_EXT_POWER_MODEL, OMP_EXT_SIGMA or OMP_EXT_SERIAL_FRACTION is
 *         set to an invalid value, see omp_ext_model_default()).
 */
OMP_EXT_API int omp_ext_order(const omp_ext_topo_t *topo, omp_ht_policy_t policy, unsigned n,
                  omp_ext_pu_t *out);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_ORDER_H */
