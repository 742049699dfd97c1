/*
 * libFuzzer target: the command line's POLICY and N arguments
 * (htp_parse_policy, htp_parse_count of htplaces) and the library's name
 * parsers (omp_ext_policy_from_name, omp_ext_format_from_name).  Input:
 * "POLICY\nN".  Invariants: an accepted policy's name is the text; an
 * accepted N is within 1..max.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "htplaces.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1), *count;
  omp_ht_policy_t policy;
  omp_ext_format_t format;
  unsigned n = 0, max = 1 + (size ? data[0] : 0);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  count = strchr(text, '\n');
  if (count)
    *count++ = '\0';
  else
    count = text;
  if (htp_parse_policy(text, &policy) == 0 &&
      ((unsigned)policy >= OMP_EXT_NPOLICIES || strcmp(omp_ext_policy_name(policy), text) != 0))
    abort();
  /* Every name of the list round-trips; one with an order is below
   * OMP_EXT_NPOLICIES, a run-time one (auto) is not. */
  if (omp_ext_policy_from_name(text, &policy) == 0 &&
      (strcmp(omp_ext_policy_name(policy), text) != 0 ||
       ((unsigned)policy < OMP_EXT_NPOLICIES) != (omp_ext_policy_has_order(policy) == 1)))
    abort();
  if (omp_ext_format_from_name(text, &format) == 0 &&
      strcmp(omp_ext_format_name(format), text) != 0)
    abort();
  if (htp_parse_count(count, max, &n) == 0 && (n == 0 || n > max))
    abort();
  free(text);
  return 0;
}
