/*
 * omp_ext/error.h -- Error codes.
 *
 * Part of the public API; users include <omp_ext.h>, the umbrella header.
 */
#ifndef OMP_EXT_ERROR_H
#define OMP_EXT_ERROR_H

#include "omp_ext/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/** \defgroup errors Error codes                                             */
/* ------------------------------------------------------------------------ */

/**
 * The list of return codes, as an X-macro: X(NAME, VALUE, TEXT) for each,
 * NAME the enumerator without its omp_ext_ prefix, VALUE 0 or negative,
 * TEXT the one-line explanation omp_ext_strerror() gives.  The enum below,
 * omp_ext_strerror() and the Fortran module's constants are generated from
 * it; a new code is one line here.
 */
#define OMP_EXT_ERRORS(X)                                                          \
  X(success, 0, "success")                                                         \
  /* an argument is NULL or out of its domain */                                   \
  X(err_invalid, -1, "invalid argument")                                           \
  /* memory allocation failed */                                                   \
  X(err_nomem, -2, "out of memory")                                                \
  /* the topology could not be read or is invalid */                               \
  X(err_topology, -3, "the topology could not be read or is invalid")             \
  /* a count (N) is 0 or above the allowed PUs */                                  \
  X(err_range, -4, "thread count out of range (1 .. allowed PUs)")                \
  /* no PU is allowed (empty cpuset) */                                            \
  X(err_empty, -5, "no PU is allowed")                                             \
  /* unknown placement policy */                                                   \
  X(err_policy, -6, "unknown placement policy")                                    \
  /* unknown output format */                                                      \
  X(err_format, -7, "unknown output format")                                       \
  /* called inside a parallel region (active or not) */                            \
  X(err_in_parallel, -8, "not allowed inside a parallel region")                  \
  /* the OS refused a binding */                                                   \
  X(err_bind, -9, "the operating system refused the binding")                     \
  /* no usable OpenMP runtime was found */                                         \
  X(err_runtime, -10, "no usable OpenMP runtime found")                            \
  /* text could not be parsed */                                                   \
  X(err_parse, -11, "the text could not be parsed")                                \
  /* not supported on this system */                                               \
  X(err_unsupported, -12, "not supported on this system")                          \
  /* needs a parallel region: called outside one */                               \
  X(err_not_in_parallel, -13, "only allowed inside a parallel region")             \
  /* an iteration range's size (end - begin) does not fit a long */               \
  X(err_overflow, -14, "the range's size (end - begin) overflows a long")          \
  /* a topology with more than OMP_EXT_TOPO_MAX_PUS PUs */                          \
  X(err_too_large, -15, "the topology has more than 65536 PUs (omp_ext's limit)")   \
  /* the team's threads passed different arguments to a collective call */         \
  X(err_mismatch, -16, "the team's threads passed different ranges")              \
  /* a collective call from inside a single, masked, master or critical */       \
  X(err_in_construct, -17, "a collective call inside a single, masked, master or " \
                           "critical construct: call it from every thread, outside them")

/**
 * Return codes of every omp_ext function that returns int: 0 on success,
 * one of these negative values on failure (omp_ext_success = 0,
 * omp_ext_err_invalid = -1, ... as listed in OMP_EXT_ERRORS).
 * omp_ext_strerror() gives a one-line English explanation of each.
 */
typedef enum omp_ext_error_t {
#define OMP_EXT_ERROR_ENUM_(name, value, text) omp_ext_##name = (value),
  OMP_EXT_ERRORS(OMP_EXT_ERROR_ENUM_)
#undef OMP_EXT_ERROR_ENUM_
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
