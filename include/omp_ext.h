/*
 * omp_ext -- SMT-aware placement of OpenMP threads.
 *
 * The one header users include: an umbrella over the focused headers in
 * include/omp_ext/ (one per concept, below in data-path order).  One prefix
 * (omp_ext_, and the OpenMP-style omp_ht_ names for the policy type and the
 * in-code API); enumerators are lowercase, as OpenMP's omp_sched_t.  Only
 * functions declared OMP_EXT_API are exported from libomp_ext.  The data
 * path is
 *
 *     topology (hwloc)  ->  order (policy)  ->  places (text) / binding
 *
 * and each step lives in its own source file of the same name under omp_ext/.
 *
 * Source: Lin, Feng et al., "Study on Hyper Threading Scheduling towards
 * Power Efficiency of Computing", 2017 (below: "the paper").  OpenMP
 * references are to the OpenMP 5.2 specification.
 */
#ifndef OMP_EXT_H
#define OMP_EXT_H

/* OMP_EXT_VERSION, OMP_EXT_VERSION_MAJOR/MINOR/PATCH/HEX: generated from
 * CMake's project() version (include/omp_ext/config.h.in). */
#include "omp_ext/config.h"
#include "omp_ext/error.h"
#include "omp_ext/policy.h"
#include "omp_ext/topology.h"
#include "omp_ext/order.h"
#include "omp_ext/places.h"
#include "omp_ext/rank.h"
#include "omp_ext/model.h"
#include "omp_ext/incode.h"
#include "omp_ext/share.h"
#include "omp_ext/steal.h"
#include "omp_ext/hooks.h"
#include "omp_ext/timing.h"
#include "omp_ext/parse.h"
#include "omp_ext/version.h"
#include "omp_ext/plan.h"

#endif /* OMP_EXT_H */
