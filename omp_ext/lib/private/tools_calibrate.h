/*
 * private/tools_calibrate.h -- Power model calibration from RAPL.
 *
 * Not exported: htplaces calibrate and htbench call it, linking
 * libomp_ext.a; through private/tools.h.
 */
#ifndef OMP_EXT_TOOLS_CALIBRATE_H
#define OMP_EXT_TOOLS_CALIBRATE_H

#include <stddef.h>

#include <hwloc.h>

#include "omp_ext/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup calibrate Power model calibration from RAPL                     */
/* ------------------------------------------------------------------------ */

/** Where the powercap tree is when neither an argument nor OMP_EXT_POWERCAP_ROOT says. */
#define OMP_EXT_POWERCAP_ROOT "/sys/class/powercap"

/** An open RAPL energy reader over the package zones of a powercap tree. */
typedef struct omp_ext_rapl omp_ext_rapl_t;

/**
 * Open the package energy counters of a Linux powercap tree: every folder
 * ROOT/intel-rapl:N (one colon: a package zone, not a subzone) whose "name"
 * starts with "package-", reading energy_uj (microjoules) and
 * max_energy_range_uj (where energy_uj wraps to 0).
 *
 * \param root  the tree; NULL for $OMP_EXT_POWERCAP_ROOT, else
 *              OMP_EXT_POWERCAP_ROOT.
 * \param why   if not NULL, receives on failure a one-line reason (what was
 *              missing or unreadable), NUL-terminated, at most \p whylen bytes.
 * \return 0; omp_ext_err_invalid (rapl NULL); omp_ext_err_unsupported (no
 *         package zone, or one is unreadable: energy_uj needs root on Linux
 *         >= 5.10); omp_ext_err_nomem.
 */
int omp_ext_rapl_open(const char *root, omp_ext_rapl_t **rapl, char *why, size_t whylen);

/** Number of package zones read (>= 1). */
unsigned omp_ext_rapl_nzones(const omp_ext_rapl_t *rapl);

/**
 * Energy in joules used by all package zones since omp_ext_rapl_open(),
 * counting each counter wrap (a value below the previous one means the
 * counter passed max_energy_range_uj).  Call it at least once per wrap period
 * (minutes on current parts).
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_unsupported (a counter
 *         could not be read, or is above its max_energy_range_uj; the reader
 *         is then unchanged); omp_ext_err_nomem.
 */
int omp_ext_rapl_read(omp_ext_rapl_t *rapl, double *joules);

/** Close a reader; NULL is ignored. */
void omp_ext_rapl_close(omp_ext_rapl_t *rapl);

/** Where the perf power PMU is when neither an argument nor OMP_EXT_PERF_POWER_PMU says. */
#define OMP_EXT_PERF_POWER_PMU "/sys/bus/event_source/devices/power"

/** An open perf power/energy-pkg reader: the other RAPL source. */
typedef struct omp_ext_perf_energy omp_ext_perf_energy_t;

/**
 * Open perf's package energy counters (perf stat -e power/energy-pkg/): one
 * system-wide perf_event_open() counter per CPU of PMU/cpumask (one CPU per
 * package), event and scale from PMU/type, PMU/events/energy-pkg and
 * PMU/events/energy-pkg.scale.
 *
 * \param pmu  the PMU's sysfs folder; NULL for $OMP_EXT_PERF_POWER_PMU, else
 *             OMP_EXT_PERF_POWER_PMU.
 * \param why  as for omp_ext_rapl_open().
 * 
 * \return 0; omp_ext_err_invalid (perf NULL); omp_ext_err_unsupported (no
 *         PMU, no energy-pkg event, or perf_event_open() refused: needs root,
 *         CAP_PERFMON or kernel.perf_event_paranoid <= 0); omp_ext_err_nomem.
 */
int omp_ext_perf_energy_open(const char *pmu, omp_ext_perf_energy_t **perf, char *why,
                             size_t whylen);

/**
 * Energy in joules counted by all packages since omp_ext_perf_energy_open().
 * 
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_unsupported (read failed).
 */
int omp_ext_perf_energy_read(omp_ext_perf_energy_t *perf, double *joules);

/** Close a perf reader; NULL is ignored. */
void omp_ext_perf_energy_close(omp_ext_perf_energy_t *perf);

/** A source of cumulative energy (joules) and time (seconds) to sample. */
typedef struct omp_ext_energy_source {
  int (*read)(void *arg, double *joules); /**< cumulative joules; 0 or an error code */
  double (*now)(void *arg); /**< seconds; NULL for CLOCK_MONOTONIC */
  void *arg;
} omp_ext_energy_source_t;

/** A RAPL reader as an energy source. */
omp_ext_energy_source_t omp_ext_rapl_source(omp_ext_rapl_t *rapl);

/** A perf reader as an energy source. */
omp_ext_energy_source_t omp_ext_perf_energy_source(omp_ext_perf_energy_t *perf);

/** One calibration measurement: what was busy and the mean power drawn. */
typedef struct omp_ext_power_sample {
  omp_ext_usage_t usage; /**< busy set */
  double watts;          /**< mean power over the sample */
  omp_ht_policy_t policy; /**< order the busy set was taken from */
} omp_ext_power_sample_t;

/** Bits of omp_ext_power_fit()'s \p determined: which coefficients the samples fix. */
enum omp_ext_fit_flags_e {
  omp_ext_fit_pn = 1, omp_ext_fit_ps = 2, omp_ext_fit_pc = 4, omp_ext_fit_pt = 8
};

/**
 * Least-squares fit of the §2.1 model to samples (a pure function).  A
 * coefficient whose count is 0 in every sample (e.g. Pt without SMT) cannot
 * be determined: it is set to 0 and its bit left clear in \p determined.
 * Fitted values are not clamped (noise may make one slightly negative).
 *
 * \param determined  if not NULL, receives OMP_EXT_FIT_* bits.
 * \return 0; omp_ext_err_invalid (NULL, n == 0, a non-finite watt value, or
 *         the samples do not separate the coefficients, e.g. no idle sample
 *         when every busy sample uses the same packages).
 */
int omp_ext_power_fit(const omp_ext_power_sample_t *samples, unsigned n,
                      omp_ext_power_model_t *pm, unsigned *determined);

/**
 * Measure power on this machine: an idle sample (nothing busy), then for
 * each policy and N = 1 .. allowed PUs, N busy-loop threads bound one per PU
 * to the policy's first N PUs (hwloc_set_thread_cpubind), each held
 * \p seconds; power = energy difference / time difference from \p src.
 * Samples go out in that order: 1 + npolicies * allowed PUs of them.
 *
 * \param seconds   length of each sample, > 0.
 * \param samples   an array of at least 1 + npolicies * omp_ext_topo_npus().
 * \param nsamples  receives the number written.
 * \return 0; omp_ext_err_invalid (NULL, npolicies == 0, seconds <= 0,
 *         a meta-policy such as omp_ht_policy_energy listed:
 *         omp_ext_policy_is_base()); omp_ext_err_unsupported (topo is not
 *         this machine); omp_ext_err_bind; omp_ext_err_policy;
 *         omp_ext_err_nomem; or the source's error.
 */
int omp_ext_calibrate(const omp_ext_topo_t *topo, const omp_ht_policy_t *policies,
                      unsigned npolicies, double seconds, omp_ext_energy_source_t src,
                      omp_ext_power_sample_t *samples, unsigned *nsamples);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_TOOLS_CALIBRATE_H */
