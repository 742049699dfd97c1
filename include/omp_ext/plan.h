/*
 * omp_ext/plan.h -- Per-region plans (OMP_EXT_PLAN).
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_PLAN_H
#define OMP_EXT_PLAN_H

#include <stddef.h>

#include "omp_ext/export.h"
#include "omp_ext/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Check a plan of per-region configurations whole, as libomp_ext reads
 * OMP_EXT_PLAN and as `htplaces exec --plan` and `htplaces doctor` check
 * it (one function for all three).
 *
 * The format (omp_set_ht_policy(3), "OMP_EXT_PLAN"): a first line
 * "omp_ext_plan 2" (or 1), then "machine", "build", "team", "wait",
 * "learnt", "default" and "region MODULE OFFSET THREADS PLACES [LABEL
 * [KEY=VALUE ...]]" lines.  Every field is checked: OFFSET hexadecimal,
 * THREADS 0 (the program's team) to the allowed PUs, PLACES explicit
 * places each inside the allowed PUs (or '-', unbound), LABEL a known
 * POLICY:N with N = THREADS, no region twice for the same THREADS, no
 * second default or setting, a machine line of this machine, and the
 * fields of a learnt state.  A path is opened without blocking (O_NONBLOCK)
 * and read only if it is a regular file of at most 1 MiB: a FIFO, a folder
 * or a device is refused at once, without a read.
 *
 * \param value  an OMP_EXT_PLAN value: a path, or the plan text itself
 *               (a value that starts with "omp_ext_plan " and a blank).
 * \param topo   the machine whose allowed PUs the places must be inside
 *               (omp_ext_topo_load()); NULL: this process's, as libomp_ext
 *               binds (the allowed PUs when it was loaded, the MPI rank's
 *               domain).
 * \param msg    on error, one line of at most \p len bytes: where (the
 *               file, its line, the field and its value, escaped) and why,
 *               with what is allowed; "" on success.  May be NULL when \p
 *               len is 0.
 * \param len    the size of \p msg.
 * \return 0; omp_ext_err_invalid (value NULL or empty); omp_ext_err_parse
 *         (unreadable, not a regular file, too large, or a field is wrong:
 *         \p msg says which); omp_ext_err_unsupported (well formed, but its
 *         machine line is another machine's: PUs, cores, packages, SMT or
 *         the allowed PUs differ); omp_ext_err_nomem; a topology error when
 *         \p topo is NULL and this machine's cannot be read.
 * Source: the plan format of omp_ext/plan_int.h; OpenMP 5.2 §6.5
 * (OMP_PLACES, the syntax of PLACES).
 */
OMP_EXT_API int omp_ext_plan_check(const char *value, const omp_ext_topo_t *topo, char *msg,
                                   size_t len);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_PLAN_H */
