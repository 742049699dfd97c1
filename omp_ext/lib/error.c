/*
 * Error codes: one-line explanations of omp_ext_error_t, from the list in
 * include/omp_ext/error.h (OMP_EXT_ERRORS).
 */
#include "omp_ext.h"

const char *omp_ext_strerror(int err)
{
  switch (err) {
#define OMP_EXT_ERROR_CASE_(name, value, text) case (value): return text;
  OMP_EXT_ERRORS(OMP_EXT_ERROR_CASE_)
#undef OMP_EXT_ERROR_CASE_
  default: return "unknown error";
  }
}
