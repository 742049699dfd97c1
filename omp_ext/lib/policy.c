/*
 * Policy: the policy table (one row per policy, from OMP_EXT_POLICIES in
 * include/omp_ext/policy.h) and the resolver that turns any policy, the
 * energy meta-policy included, into a base policy and a team size under an
 * explicit model.  The public functions that accept meta-policies
 * (omp_ext_order(), omp_ext_model_best(), omp_ext_model_bound(),
 * omp_ext_energy_choice()) resolve here, then call the base layers:
 *
 *   policy.c -> model.c (model of base orders) -> order.c (base order rules)
 */
#include <stdlib.h>
#include <string.h>

#include "private/internal.h"

static const struct policy {
  omp_ht_policy_t value;
  const char *name;
  const char *description;
  int base;      /* 1: an order rule of its own (order.c); 0: meta; -1: run time only */
  int candidate; /* the energy meta-policy chooses among it */
} policies[OMP_EXT_NPOLICIES_ALL] = {
#define POLICY_ROW(name_, value_, base_, candidate_, description_) \
  {omp_ht_policy_##name_, #name_, description_, base_, candidate_},
  OMP_EXT_POLICIES(POLICY_ROW)
#undef POLICY_ROW
};

/* The policies with an order are numbered from 0 without a gap, below
 * OMP_EXT_NPOLICIES (the bound every caller checks); the run-time ones from
 * 0x100 (OMP_EXT_POLICIES). */
enum { NORDERED = OMP_EXT_NPOLICIES }; /* (not expandable inside the list) */
#define ORDERED_ROW_CHECK(name_, value_, base_, candidate_, description_) \
  _Static_assert((base_) < 0 ? (value_) >= 0x100 : (value_) < NORDERED, \
                 "OMP_EXT_POLICIES: " #name_ "'s value is out of place");
OMP_EXT_POLICIES(ORDERED_ROW_CHECK)
#undef ORDERED_ROW_CHECK

/* The row of a policy, NULL for a value that is not one. */
static const struct policy *row(omp_ht_policy_t policy)
{
  unsigned i;
  for (i = 0; i < OMP_EXT_NPOLICIES_ALL; i++)
    if (policies[i].value == policy)
      return &policies[i];
  return NULL;
}

int omp_ext_policy_from_name(const char *name, omp_ht_policy_t *policy)
{
  unsigned i;
  if (!name || !policy)
    return omp_ext_err_invalid;
  for (i = 0; i < OMP_EXT_NPOLICIES_ALL; i++)
    if (strcmp(name, policies[i].name) == 0) {
      *policy = policies[i].value;
      return omp_ext_success;
    }
  return omp_ext_err_policy;
}

const char *omp_ext_policy_name(omp_ht_policy_t policy)
{
  const struct policy *p = row(policy);
  return p ? p->name : NULL;
}

const char *omp_ext_policy_description(omp_ht_policy_t policy)
{
  const struct policy *p = row(policy);
  return p ? p->description : NULL;
}

int omp_ext_policy_is_base(omp_ht_policy_t policy)
{
  const struct policy *p = row(policy);
  return p ? p->base == 1 : omp_ext_err_policy;
}

int omp_ext_policy_has_order(omp_ht_policy_t policy)
{
  const struct policy *p = row(policy);
  return p ? p->base >= 0 : omp_ext_err_policy;
}

int omp_ext_policy_is_energy_candidate(omp_ht_policy_t policy)
{
  const struct policy *p = row(policy);
  return p ? p->candidate : omp_ext_err_policy;
}

int omp_ext_energy_choice(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                          omp_ht_policy_t *base, unsigned *n)
{
  omp_ht_policy_t candidates[OMP_EXT_NPOLICIES];
  omp_ext_model_t def;
  unsigned i, k = 0, index;
  int err;
  if (!topo || !base || !n)
    return omp_ext_err_invalid;
  if (!m) {
    omp_ext_model_default(&def);
    m = &def;
  }
  for (i = 0; i < OMP_EXT_NPOLICIES_ALL; i++)
    if (policies[i].candidate)
      candidates[k++] = policies[i].value;
  err = omp_ext_model_best_base(topo, m, candidates, k, omp_ext_objective_energy, &index, n,
                                NULL);
  if (!err)
    *base = candidates[index];
  return err;
}

int omp_ext_policy_resolve(const omp_ext_topo_t *topo, const omp_ext_model_t *model,
                           omp_ht_policy_t policy, omp_ht_policy_t *base, unsigned *n)
{
  if (!topo || !base || !n)
    return omp_ext_err_invalid;
  if ((unsigned)policy >= OMP_EXT_NPOLICIES)
    return omp_ext_err_policy;
  if (row(policy)->base == 1) {
    *base = policy;
    *n = omp_ext_topo_npus(topo);
    return omp_ext_success;
  }
  /* The one kind of meta-policy: the energy candidates' best under model. */
  return omp_ext_energy_choice(topo, model, base, n);
}

int omp_ext_order(const omp_ext_topo_t *topo, const omp_ext_model_t *model,
                  omp_ht_policy_t policy, unsigned n, omp_ext_pu_t *out)
{
  unsigned best_n;
  int err;
  if (!topo || !out)
    return omp_ext_err_invalid;
  if ((unsigned)policy >= OMP_EXT_NPOLICIES)
    return omp_ext_err_policy;
  if (n == 0 || n > topo->npus)
    return omp_ext_err_range;
  if ((err = omp_ext_policy_resolve(topo, model, policy, &policy, &best_n)) != 0)
    return err;
  return omp_ext_base_order(topo, policy, n, out);
}

int omp_ext_model_best(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                       const omp_ht_policy_t *policies_, unsigned npolicies,
                       omp_ext_objective_t objective, omp_ht_policy_t *policy, unsigned *n,
                       omp_ext_estimate_t *est)
{
  omp_ht_policy_t *bases;
  unsigned i, index, k;
  int err = omp_ext_success;
  if (!topo || !policies_ || !npolicies || !policy || !n || omp_ext_model_check(m) != 0)
    return omp_ext_err_invalid;
  if (!(bases = malloc(npolicies * sizeof(*bases))))
    return omp_ext_err_nomem;
  for (i = 0; !err && i < npolicies; i++)
    err = omp_ext_policy_resolve(topo, m, policies_[i], &bases[i], &k);
  if (!err)
    err = omp_ext_model_best_base(topo, m, bases, npolicies, objective, &index, n, est);
  if (!err)
    *policy = policies_[index];
  free(bases);
  return err;
}

int omp_ext_model_bound(const omp_ext_topo_t *topo, const omp_ext_model_t *m,
                        omp_ht_policy_t policy, unsigned *n)
{
  unsigned k;
  int err;
  if (!topo || !n || omp_ext_model_check(m) != 0)
    return omp_ext_err_invalid;
  if ((err = omp_ext_policy_resolve(topo, m, policy, &policy, &k)) != 0)
    return err;
  return omp_ext_model_bound_base(topo, m, policy, n);
}
