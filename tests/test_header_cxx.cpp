// omp_ext.h from C++: compiles, links (extern "C" names) and answers.
#include <cstdio>
#include <cstring>

#include "omp_ext.h"

int main()
{
  int failures = 0;
  if (omp_get_ht_policy() != omp_ht_policy_os)
    failures++;
  if (omp_set_ht_policy(static_cast<omp_ht_policy_t>(OMP_EXT_NPOLICIES)) != omp_ext_err_policy)
    failures++;
  if (std::strcmp(omp_ext_strerror(omp_ext_err_in_parallel),
                  "not allowed inside a parallel region") != 0)
    failures++;
  if (failures)
    std::printf("test_header_cxx: %d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
