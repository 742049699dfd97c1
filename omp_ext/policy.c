/*
 * Policy: names and one-line meanings of the placement policies.
 */
#include <string.h>

#include "omp_ext.h"

static const struct {
  const char *name;
  const char *description;
} policies[OMP_EXT_NPOLICIES] = {
  [omp_ht_policy_os] = {"os", "ascending OS index: what an unbound program sees (baseline)"},
  [omp_ht_policy_speedup] = {"speedup", "one PU on every core first, SMT siblings last: best "
                                        "speed-up (paper strategy 1)"},
  [omp_ht_policy_spn] = {"spn", "all SMT siblings of a core before the next core: best speed-up "
                                "per watt per core (paper strategy 2)"},
  [omp_ht_policy_spread] = {"spread", "one PU per core, round-robin across packages and NUMA "
                                      "nodes, then siblings: memory-bandwidth-bound loops"},
  [omp_ht_policy_energy] = {"energy", "the order and N with the least modelled energy to "
                                      "solution (paper §2; htplaces model)"},
};

int omp_ext_policy_from_name(const char *name, omp_ht_policy_t *policy)
{
  unsigned i;
  if (!name || !policy)
    return omp_ext_err_invalid;
  for (i = 0; i < OMP_EXT_NPOLICIES; i++)
    if (strcmp(name, policies[i].name) == 0) {
      *policy = (omp_ht_policy_t)i;
      return omp_ext_success;
    }
  return omp_ext_err_policy;
}

const char *omp_ext_policy_name(omp_ht_policy_t policy)
{
  return (unsigned)policy < OMP_EXT_NPOLICIES ? policies[policy].name : NULL;
}

const char *omp_ext_policy_description(omp_ht_policy_t policy)
{
  return (unsigned)policy < OMP_EXT_NPOLICIES ? policies[policy].description : NULL;
}
