/* libFuzzer target: the GOMP_CPU_AFFINITY parser (omp_ext_places_parse). */
#include "fuzz_placelist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  return fuzz_placelist(data, size, omp_ext_syntax_gomp);
}
