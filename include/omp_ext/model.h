/*
 * omp_ext/model.h -- Energy model (paper §2).
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_MODEL_H
#define OMP_EXT_MODEL_H

#include "omp_ext/export.h"
#include "omp_ext/policy.h"
#include "omp_ext/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup model Energy model (paper §2)                                  */
/* ------------------------------------------------------------------------ */

/**
 * Linear power model of a node (paper §2.1), in watts:
 *
 *     P = Pn + Ps * (packages with a busy PU) + Pc * (busy cores)
 *            + Pt * (busy PUs beyond the first of their core)
 *
 * The paper measured these at the wall socket; omp_ext_calibrate() fits them
 * from RAPL, which sees the packages only (Pn is then the packages' idle draw).
 */
typedef struct omp_ext_power_model {
  double pn; /**< W drawn by the node whatever runs (paper Pn) */
  double ps; /**< W per package with at least one busy PU (Ps) */
  double pc; /**< W per busy core (Pc) */
  double pt; /**< W per busy PU beyond the first of its core: SMT sibling (Pt) */
} omp_ext_power_model_t;

/**
 * Power model from text: a preset name, "c6100" (Dell C6100, 2x Xeon L5520:
 * Pn 76.11, Ps 25.19, Pc 9.68, Pt 2.61) or "dl380p" (HP DL380p Gen8:
 * Pn 106.41, Ps 39.74, Pc 11.13, Pt 2.83), the paper's measured coefficients;
 * or four comma-separated watts "Pn,Ps,Pc,Pt", each finite, >= 0 and at most
 * OMP_EXT_MODEL_MAX_WATTS, with Pn + Ps + Pc > 0 (a one-thread run must draw
 * power).
 *
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_parse (anything else).
 */
OMP_EXT_API int omp_ext_power_model_parse(const char *text, omp_ext_power_model_t *pm);

/** Largest coefficient accepted, in watts (1 MW), so that modelled power
 *  stays finite for any machine. */
#define OMP_EXT_MODEL_MAX_WATTS 1e6

/** Default capacity of a busy SMT sibling relative to a core (paper: 0.3). */
#define OMP_EXT_MODEL_SIGMA 0.3
/** Default serial fraction: 0, Amdahl's ideal; give yours for real programs. */
#define OMP_EXT_MODEL_SERIAL 0.0
/** Power model preset used when OMP_EXT_POWER_MODEL is not set. */
#define OMP_EXT_MODEL_PRESET "c6100"

/** The whole model: power, SMT capacity and the program's serial fraction. */
typedef struct omp_ext_model {
  omp_ext_power_model_t power; /**< watts */
  double sigma;  /**< capacity added by each busy PU beyond the first of its
                      core, in (0, 1]; a busy core counts 1 */
  double serial; /**< serial fraction s of Amdahl's law, in [0, 1) */
} omp_ext_model_t;

/**
 * The paper's default model: the OMP_EXT_MODEL_PRESET power model (C6100),
 * sigma OMP_EXT_MODEL_SIGMA (0.3), serial fraction OMP_EXT_MODEL_SERIAL (0):
 * what a NULL model means everywhere.  Reads no environment variable (see
 * omp_ext_model_from_env()).
 *
 * \return 0; omp_ext_err_invalid (NULL).
 */
OMP_EXT_API int omp_ext_model_default(omp_ext_model_t *m);

/**
 * The model an environment asks for: OMP_EXT_POWER_MODEL (as
 * omp_ext_power_model_parse(); unset or empty: OMP_EXT_MODEL_PRESET),
 * OMP_EXT_SIGMA (a number in (0, 1]; unset or empty: OMP_EXT_MODEL_SIGMA) and
 * OMP_EXT_SERIAL_FRACTION (a number in [0, 1); unset or empty:
 * OMP_EXT_MODEL_SERIAL).  The one place omp_ext reads these variables; the
 * library itself calls it only at load, for OMP_EXT_HT_POLICY and the
 * in-code API (omp_set_ht_policy()), and at the capacity split's first use
 * of sigma (omp_ext_get_share_sigma()).  Shaped like omp_ext_rank_from_env().
 *
 * \param envp          "NAME=VALUE" strings ending with NULL, as environ or
 *                      main's third argument; NULL for the process's environ.
 * \param m             receives the model (unchanged on error).
 * \param bad_variable  NULL, or receives the name of the first invalid
 *                      variable ("OMP_EXT_SIGMA"...; a static string), or
 *                      NULL when all are valid.
 * \return 0; omp_ext_err_invalid (m NULL); omp_ext_err_parse (a variable
 *         is set to a value outside its domain).
 */
OMP_EXT_API int omp_ext_model_from_env(char *const *envp, omp_ext_model_t *m,
                                       const char **bad_variable);

/**
 * Check a model's domains: watts in [0, OMP_EXT_MODEL_MAX_WATTS] with
 * Pn + Ps + Pc > 0,
 * sigma in (0, 1], serial in [0, 1).
 * \return 0 or omp_ext_err_invalid.
 */
OMP_EXT_API int omp_ext_model_check(const omp_ext_model_t *m);

/** What a placement keeps busy. */
typedef struct omp_ext_usage {
  unsigned threads;  /**< busy PUs (one thread each) */
  unsigned packages; /**< packages with at least one busy PU */
  unsigned cores;    /**< cores with at least one busy PU */
  unsigned extra;    /**< busy PUs beyond the first of their core (threads - cores) */
} omp_ext_usage_t;

/** Modelled power in watts of a usage (paper §2.1); 0 if an argument is
 *  NULL.  The model's domains are not checked (see omp_ext_model_check()). */
OMP_EXT_API double omp_ext_model_power(const omp_ext_power_model_t *pm, const omp_ext_usage_t *u);

/**
 * Amdahl speed-up over one thread: S = 1 / (s + (1 - s) / C).
 * \param serial    serial fraction s in [0, 1).
 * \param capacity  C > 0 (omp_ext_model_capacity()).
 * \return S, or 0 if an argument is outside its domain.
 */
OMP_EXT_API double omp_ext_model_speedup(double serial, double capacity);

/**
 * SPN, speed-up per power per physical core (paper §2.2):
 *     SPN = 1000 * S / (P * busy cores)
 * \return SPN (1 / (kW core)), or 0 if power <= 0 or cores == 0.
 */
OMP_EXT_API double omp_ext_model_spn(double speedup, double power, unsigned cores);

/** Modelled figures of one placement. */
typedef struct omp_ext_estimate {
  omp_ext_usage_t usage; /**< what it keeps busy */
  double capacity;       /**< cores' worth (omp_ext_model_capacity()) */
  double speedup;        /**< modelled speed-up S over one thread */
  double power;          /**< modelled power P, watts */
  double spn;            /**< 1000 S / (P cores), paper §2.2 */
  double energy;         /**< energy to solution relative to one thread on one
                              core: (P / S) / P(1 thread); time T = T1 / S */
} omp_ext_estimate_t;

/** What omp_ext_model_best() optimises. */
typedef enum omp_ext_objective_t {
  omp_ext_objective_speed = 0,  /**< highest speed-up; ties: lower energy, fewer threads */
  omp_ext_objective_spn = 1,    /**< highest SPN; ties: higher speed-up, fewer threads */
  omp_ext_objective_energy = 2  /**< lowest energy; ties: higher SPN, fewer threads */
} omp_ext_objective_t;

/**
 * What omp_ht_policy_energy means on \p topo: among the energy candidates
 * (omp_ext_policy_is_energy_candidate(): speedup, spn and spread, preferred
 * in that order on ties) and N = 1 .. allowed PUs, the pair with
 * the lowest modelled energy to solution, ties to the higher SPN then fewer
 * threads (omp_ext_model_best() with omp_ext_objective_energy).
 *
 * \param m     the model; NULL for the paper's default (omp_ext_model_default()).
 * \param base  receives speedup, spn or spread: the order energy uses.
 * \param n     receives the recommended number of threads.
 * \return 0; omp_ext_err_invalid (NULL topo/base/n, bad model);
 *         omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_energy_choice(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                          omp_ht_policy_t *base, unsigned *n);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_MODEL_H */
