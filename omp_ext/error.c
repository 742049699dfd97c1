/*
 * Error codes: one-line explanations of omp_ext_error_t.
 */
#include "omp_ext.h"

const char *omp_ext_strerror(int err)
{
  switch (err) {
  case OMP_EXT_SUCCESS: return "success";
  case OMP_EXT_ERR_INVALID: return "invalid argument";
  case OMP_EXT_ERR_NOMEM: return "out of memory";
  case OMP_EXT_ERR_TOPOLOGY: return "the topology could not be read or is invalid";
  case OMP_EXT_ERR_RANGE: return "thread count out of range (1 .. allowed PUs)";
  case OMP_EXT_ERR_EMPTY: return "no PU is allowed";
  case OMP_EXT_ERR_POLICY: return "unknown placement policy";
  case OMP_EXT_ERR_FORMAT: return "unknown output format";
  case OMP_EXT_ERR_IN_PARALLEL: return "not allowed inside a parallel region";
  case OMP_EXT_ERR_BIND: return "the operating system refused the binding";
  case OMP_EXT_ERR_RUNTIME: return "no usable OpenMP runtime found";
  case OMP_EXT_ERR_PARSE: return "the text could not be parsed";
  case OMP_EXT_ERR_UNSUPPORTED: return "not supported on this system";
  default: return "unknown error";
  }
}
