/*
 * omp_ext/error.h -- Error codes.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_ERROR_H
#define OMP_EXT_ERROR_H

#include <stddef.h>

#include <hwloc.h>

#include "omp_ext/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup errors Error codes                                             */
/* ------------------------------------------------------------------------ */

/**
 * Return codes of every omp_ext function that returns int: 0 on success,
 * one of these negative values on failure.  omp_ext_strerror() gives a
 * one-line English explanation of each.
 */
typedef enum omp_ext_error_t {
  omp_ext_success = 0,
  omp_ext_err_invalid = -1,     /**< an argument is NULL or out of its domain */
  omp_ext_err_nomem = -2,       /**< memory allocation failed */
  omp_ext_err_topology = -3,    /**< the topology could not be read or is invalid */
  omp_ext_err_range = -4,       /**< a count (N) is 0 or above the allowed PUs */
  omp_ext_err_empty = -5,       /**< no PU is allowed (empty cpuset) */
  omp_ext_err_policy = -6,      /**< unknown placement policy */
  omp_ext_err_format = -7,      /**< unknown output format */
  omp_ext_err_in_parallel = -8, /**< called inside a parallel region (active or not) */
  omp_ext_err_bind = -9,        /**< the OS refused a binding */
  omp_ext_err_runtime = -10,    /**< no usable OpenMP runtime was found */
  omp_ext_err_parse = -11,      /**< text could not be parsed */
  omp_ext_err_unsupported = -12 /**< not supported on this system */
} omp_ext_error_t;

/**
 * One-line explanation of an omp_ext return code.
 *
 * \param err  a value of omp_ext_error_t (0 or negative).
 * \return     a static string, never NULL; "unknown error" for other values.
 */
OMP_EXT_API const char *omp_ext_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_ERROR_H */
