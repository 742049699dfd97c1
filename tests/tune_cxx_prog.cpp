/*
 * tune_cxx_prog: a C++ OpenMP program built WITHOUT -g whose parallel
 * region is in a function with a mangled name of over 128 characters
 * (_ZN36very_long_namespace_name_for_testing35another_rather_long_inner_
 * namespace26container_with_a_long_nameIdE47compute_the_sum_...: 180), as
 * in real C++ applications, exported (-rdynamic, as in a shared library:
 * the timing file names it by that mangled name): htplaces tune names the
 * region by the demangled function from the symbol table.
 *   tune_cxx_prog inline   instead, a template method holding a region,
 *                          inlined into main (always_inline), as GROMACS'
 *                          dispatchNonbondedKernel: GCC's outlined body
 *                          still carries its name, the caller is main
 */
#include <cstdio>
#include <string>
#include <vector>

namespace very_long_namespace_name_for_testing {
namespace another_rather_long_inner_namespace {
template <typename T> struct container_with_a_long_name {
  static double __attribute__((noinline))
  compute_the_sum_of_all_the_elements_in_parallel(const std::vector<T> &values,
                                                  const std::vector<T> &more, int factor)
  {
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < (long)values.size(); i++)
      s += values[i] * more[i] * factor;
    return s;
  }
};
} // namespace another_rather_long_inner_namespace
} // namespace very_long_namespace_name_for_testing

namespace md {
template <typename T> struct force_field {
  static inline __attribute__((always_inline)) double
  dispatch_nonbonded_kernel(const std::vector<T> &x, int k)
  {
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < (long)x.size(); i++)
      s += x[i] * k;
    return s;
  }
};
} // namespace md

int main(int argc, char **argv)
{
  using namespace very_long_namespace_name_for_testing::another_rather_long_inner_namespace;
  std::vector<double> v(1000, 1.0), w(1000, 2.0);
  double s = 0;
  if (argc > 1 && std::string(argv[1]) == "inline") {
    for (volatile int k = 0; k < 3; k = k + 1) /* (volatile: one call site, not unrolled) */
      s += md::force_field<double>::dispatch_nonbonded_kernel(v, k);
    std::printf("%g\n", s);
    return 0;
  }
  for (int k = 0; k < 3; k++)
    s += container_with_a_long_name<double>::compute_the_sum_of_all_the_elements_in_parallel(v, w, k);
  std::printf("%g\n", s);
  return 0;
}
