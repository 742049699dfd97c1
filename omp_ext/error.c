/*
 * Error codes: one-line explanations of omp_ext_error_t.
 */
#include "omp_ext.h"

const char *omp_ext_strerror(int err)
{
  switch (err) {
  case omp_ext_success: return "success";
  case omp_ext_err_invalid: return "invalid argument";
  case omp_ext_err_nomem: return "out of memory";
  case omp_ext_err_topology: return "the topology could not be read or is invalid";
  case omp_ext_err_range: return "thread count out of range (1 .. allowed PUs)";
  case omp_ext_err_empty: return "no PU is allowed";
  case omp_ext_err_policy: return "unknown placement policy";
  case omp_ext_err_format: return "unknown output format";
  case omp_ext_err_in_parallel: return "not allowed inside a parallel region";
  case omp_ext_err_bind: return "the operating system refused the binding";
  case omp_ext_err_runtime: return "no usable OpenMP runtime found";
  case omp_ext_err_parse: return "the text could not be parsed";
  case omp_ext_err_unsupported: return "not supported on this system";
  case omp_ext_err_not_in_parallel: return "only allowed inside a parallel region";
  default: return "unknown error";
  }
}
