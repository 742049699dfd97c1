/*
 * omp_ext/places.h -- Place lists.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_PLACES_H
#define OMP_EXT_PLACES_H

#include "omp_ext/export.h"
#include "omp_ext/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup places Place lists                                             */
/* ------------------------------------------------------------------------ */

/**
 * The output formats, as an X-macro: one row per format,
 *
 *   X(NAME, VALUE, PREFIX, ITEM, SEPARATOR, SUFFIX, VARIABLE, ALSO)
 *
 * NAME the enumerator suffix and the name omp_ext_format_from_name() takes;
 * the text is PREFIX, then ITEM for each PU (a printf format taking the PU's
 * OS index as unsigned; NULL: the JSON object below) with SEPARATOR between
 * items, then SUFFIX; VARIABLE the environment variable the text is a value
 * of (NULL: none, so no export line), ALSO what an export line sets with it
 * ("" for nothing).  The enum, omp_ext_places_format(),
 * omp_ext_places_export(), htplaces' format lists and the Fortran module's
 * constants are generated from it; a new format is one row here.
 *
 *  - omp:  OMP_PLACES value, one PU a place: "{0},{8},{1}" (OpenMP 5.2 §6.5).
 *  - gomp: GOMP_CPU_AFFINITY value (libgomp): "0 8 1".
 *  - kmp:  KMP_AFFINITY value (libomp, libiomp5):
 *          "granularity=fine,explicit,proclist=[0,8,1]" -- fine granularity,
 *          or Intel's default (core) would give each thread all PUs of its core.
 *  - list: plain comma list, for taskset -c or likwid-pin -c: "0,8,1".
 *  - json: JSON array, one object per thread: {"thread","pu","pu_logical",
 *          "core","core_os","package","numa","sibling","kind"} (numa is null
 *          if unknown).
 */
#define OMP_EXT_FORMATS(X)                                                          \
  X(omp, 0, "", "{%u}", ",", "", "OMP_PLACES", "OMP_PROC_BIND=close")              \
  X(gomp, 1, "", "%u", " ", "", "GOMP_CPU_AFFINITY", "")                            \
  X(kmp, 2, "granularity=fine,explicit,proclist=[", "%u", ",", "]", "KMP_AFFINITY", "") \
  X(list, 3, "", "%u", ",", "", NULL, "")                                           \
  X(json, 4, "[", NULL, ",", "]", NULL, "")

/** Text formats of an order: omp_ext_format_omp, _gomp, ... (OMP_EXT_FORMATS). */
typedef enum omp_ext_format_t {
#define OMP_EXT_FORMAT_ENUM_(name, value, prefix, item, sep, suffix, var, also) \
  omp_ext_format_##name = (value),
  OMP_EXT_FORMATS(OMP_EXT_FORMAT_ENUM_)
#undef OMP_EXT_FORMAT_ENUM_
} omp_ext_format_t;

/** Number of formats: valid values are 0 .. OMP_EXT_NFORMATS - 1. */
#define OMP_EXT_NFORMATS (0 OMP_EXT_FORMATS(OMP_EXT_COUNT_ROW_))
#ifndef OMP_EXT_COUNT_ROW_
/** Counts the rows of an X-macro list (any number of fields). */
#define OMP_EXT_COUNT_ROW_(...) + 1
#endif

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

/**
 * The environment variable a format's text is a value of: "OMP_PLACES"
 * (omp), "GOMP_CPU_AFFINITY" (gomp), "KMP_AFFINITY" (kmp); NULL for a format
 * that is no variable's value (list, json) or a value that is not a format.
 */
OMP_EXT_API const char *omp_ext_format_variable(omp_ext_format_t format);

/**
 * A shell line that exports an order for eval, without a trailing newline:
 *
 *     export VARIABLE='TEXT' [ALSO] OMP_NUM_THREADS=n
 *
 * e.g. "export OMP_PLACES='{0},{8}' OMP_PROC_BIND=close OMP_NUM_THREADS=2"
 * (VARIABLE and ALSO from the format's row in OMP_EXT_FORMATS).
 *
 * \param order   n PUs, order[t] the PU of thread t.
 * \param n       number of PUs, >= 1.
 * \param format  a format with a variable (omp_ext_format_variable()).
 * \param line    receives a malloc'ed NUL-terminated string; free() it.
 * \return 0; omp_ext_err_invalid (NULL pointer or n == 0);
 *         omp_ext_err_format (not a format, or one without a variable);
 *         omp_ext_err_nomem.
 */
OMP_EXT_API int omp_ext_places_export(const omp_ext_pu_t *order, unsigned n, omp_ext_format_t format,
                          char **line);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_PLACES_H */
