/*
 * omp_ext/places.h -- Place lists.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_PLACES_H
#define OMP_EXT_PLACES_H

#include <stddef.h>

#include <hwloc.h>

#include "omp_ext/export.h"
#include "omp_ext/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup places Place lists                                             */
/* ------------------------------------------------------------------------ */

/** Text formats of an order. */
typedef enum omp_ext_format_t {
  /** OMP_PLACES value, one PU a place: "{0},{8},{1}" (OpenMP 5.2 §6.5). */
  omp_ext_format_omp = 0,
  /** GOMP_CPU_AFFINITY value (libgomp): "0 8 1". */
  omp_ext_format_gomp = 1,
  /** KMP_AFFINITY value (libomp, libiomp5):
   *  "granularity=fine,explicit,proclist=[0,8,1]" -- fine granularity, or
   *  Intel's default (core) would give each thread all PUs of its core. */
  omp_ext_format_kmp = 2,
  /** Plain comma list, for taskset -c or likwid-pin -c: "0,8,1". */
  omp_ext_format_list = 3,
  /** JSON array, one object per thread: {"thread","pu","pu_logical","core",
   *  "core_os","package","numa","sibling","kind"} (numa is null if unknown). */
  omp_ext_format_json = 4
} omp_ext_format_t;

/** Number of formats: valid values are 0 .. OMP_EXT_NFORMATS - 1. */
#define OMP_EXT_NFORMATS 5

/**
 * Format from its name ("omp", "gomp", "kmp", "list", "json").
 * \return 0; omp_ext_err_invalid (NULL); omp_ext_err_format (unknown name).
 */
OMP_EXT_API int omp_ext_format_from_name(const char *name, omp_ext_format_t *format);

/** Name of a format, or NULL for a value that is not one. */
OMP_EXT_API const char *omp_ext_format_name(omp_ext_format_t format);

/**
 * Write an order (from omp_ext_order()) as text, without a trailing newline.
 *
 * \param order   n PUs, order[t] the PU of thread t.
 * \param n       number of PUs, >= 1.
 * \param format  an omp_ext_format_t.
 * \param text    receives a malloc'ed NUL-terminated string; free() it.
 * \return 0; omp_ext_err_invalid (NULL pointer or n == 0);
 *         omp_ext_err_format (not a format); omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_places_format(const omp_ext_pu_t *order, unsigned n, omp_ext_format_t format,
                          char **text);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_PLACES_H */
