/*
 * private/tools.h -- the library's tools interface: functions defined in
 * libomp_ext's own sources (one copy of each), hidden like the rest of the
 * library (no OMP_EXT_API, so not in libomp_ext.so's exports and no ABI
 * promise), which the project's tools (htplaces, htbench, the Slurm
 * plugin) and tests call.  They link the static libomp_ext.a, as hwloc's
 * utils link what they need of the library beside its exported API.
 *
 * What a user of libomp_ext calls is in include/omp_ext/ (OMP_EXT_API, a
 * man page each); what only the tools call is here: the power calibration
 * (tools_calibrate.h: htplaces calibrate, htbench's power readings), the
 * per-runtime place-list prediction (tools_predict.h: htplaces check), and
 * below the model's internals (htplaces model and tune), the abstract place
 * names and the process binding check; the topology a process or rank may
 * use (tools_scope.h: htplaces, the plugin, bind.c).  Each keeps its
 * docstring.
 */
#ifndef OMP_EXT_TOOLS_H
#define OMP_EXT_TOOLS_H

#include "omp_ext.h"
#include "private/tools_calibrate.h"
#include "private/tools_handoff.h"
#include "private/tools_plan.h"
#include "private/tools_predict.h"
#include "private/tools_scope.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (from include/omp_ext/model.h) */
/**
 * Usage of the first \p n PUs of an order (from omp_ext_order()); n may be 0
 * (idle).  Cores and packages are told apart by their hwloc logical index.
 * \return 0; omp_ext_err_invalid (order NULL with n > 0, or u NULL; a PU
 *         listed twice); omp_ext_err_nomem.
 */
int omp_ext_usage_of(const omp_ext_pu_t *order, unsigned n, omp_ext_usage_t *u);

/* (from include/omp_ext/model.h) */
/** Capacity in cores' worth: cores + sigma * extra (0 when idle or u NULL). */
double omp_ext_model_capacity(const omp_ext_usage_t *u, double sigma);

/* (from include/omp_ext/model.h) */
/**
 * Karp-Flatt metric: the experimentally determined serial fraction
 *     e = (1/S - 1/n) / (1 - 1/n)
 * of a measured speed-up S on n processors (equal to the paper's
 * (n - S) / (S (n - 1))).  Give n full cores (one thread per core) so that
 * capacity = n; e then serves as omp_ext_model_t.serial.
 *
 * \param n        processors, > 1.
 * \param speedup  measured speed-up, 1 < speedup <= n (S <= 1 gives e >= 1,
 *                 outside the model's [0, 1)).
 * \param serial   receives e, in [0, 1).
 * \return 0; omp_ext_err_invalid (NULL, n <= 1, S outside (1, n], not finite).
 */
int omp_ext_karp_flatt(double n, double speedup, double *serial);

/* (from include/omp_ext/model.h) */
/**
 * The paper's §2.3 rule: going from configuration 0 (time t0 seconds, power
 * p0 watts) to configuration 1 (one more unit: t1, p1) saves energy iff
 *     t1 / t0 < p0 / p1     (i.e. p1 * t1 < p0 * t0).
 * \return 1 (worth it), 0 (not worth it), omp_ext_err_invalid (an argument is
 *         not finite and > 0).
 */
int omp_ext_energy_worth(double t0, double p0, double t1, double p1);

/* (from include/omp_ext/model.h) */
/**
 * Model the first \p n PUs (n >= 1) of an order.
 * \return 0; omp_ext_err_invalid (NULL, n == 0, model outside its domains,
 *         a PU listed twice); omp_ext_err_nomem.
 */
int omp_ext_model_eval(const omp_ext_model_t *m, const omp_ext_pu_t *order, unsigned n,
                       omp_ext_estimate_t *e);

/* (from include/omp_ext/model.h) */
/**
 * Model every prefix of an order in one pass, linear in \p n: e[k] is
 * omp_ext_model_eval() of its first k + 1 PUs, for k = 0 .. n - 1 (what a
 * table of thread counts needs; n calls of omp_ext_model_eval() would
 * cost n^2 / 2 steps).
 * \param e an array of n estimates, filled.
 * \return 0; omp_ext_err_invalid (NULL, n == 0, model outside its domains,
 *         a PU listed twice); omp_ext_err_nomem.
 */
int omp_ext_model_eval_prefixes(const omp_ext_model_t *m, const omp_ext_pu_t *order,
                                            unsigned n, omp_ext_estimate_t *e);

/* (from include/omp_ext/model.h) */
/**
 * The policy and thread count (1 .. allowed PUs) that best meet an objective
 * under a model.  Remaining ties go to the policy listed first.
 * omp_ht_policy_energy in \p policies stands for its base order under \p m.
 *
 * \param policies   \p npolicies policies to consider, npolicies >= 1.
 * \param policy, n  receive the choice; \p est (may be NULL) its figures.
 * \return 0; omp_ext_err_invalid (NULL, npolicies == 0, bad model);
 *         omp_ext_err_policy; omp_ext_err_nomem.
 */
int omp_ext_model_best(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                       const omp_ht_policy_t *policies, unsigned npolicies,
                       omp_ext_objective_t objective, omp_ht_policy_t *policy, unsigned *n,
                       omp_ext_estimate_t *est);

/* (from include/omp_ext/model.h) */
/**
 * The §2.3 bound of a policy: the largest N reached by adding threads one at
 * a time in the policy's order while each addition is worth it for energy
 * (omp_ext_energy_worth() with T = 1 / S); 1 if even the second thread is not.
 * \return 0; omp_ext_err_invalid; omp_ext_err_policy; omp_ext_err_nomem.
 */
int omp_ext_model_bound(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                        omp_ht_policy_t policy, unsigned *n);

/* (from include/omp_ext/parse.h) */
/** Name of an abstract place name ("threads"...), or NULL for none/invalid. */
const char *omp_ext_abstract_name(omp_ext_abstract_t abstract);

/* (from include/omp_ext/rank.h) */
/**
 * Whether the launcher (srun --cpu-bind, mpirun --bind-to, taskset) already
 * bound this process to part of the machine: its binding
 * (hwloc_get_cpubind(HWLOC_CPUBIND_PROCESS)) is a strict, non-empty subset of
 * the machine's allowed PUs (hwloc_topology_get_allowed_cpuset()).
 *
 * \param topo     a topology of this machine (others are never bound).
 * \param binding  NULL, or receives the binding within the allowed PUs.
 * \return 1 if bound, 0 if not (or \p topo is not this machine);
 *         omp_ext_err_invalid (topo NULL); omp_ext_err_unsupported (the OS
 *         cannot tell the binding); omp_ext_err_nomem.
 */
int omp_ext_process_bound(const omp_ext_topo_t *topo, hwloc_cpuset_t binding);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_TOOLS_H */
