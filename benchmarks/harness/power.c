/*
 * Energy: RAPL package counters (the library's powercap reader) where
 * readable, else the library's power model (labelled "modelled" in every
 * output).
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "htbench.h"

/* Paper §2.1: P = Pn + Ps * packages + Pc * cores + Pt * extra siblings,
 * watts, with the default model (OMP_EXT_POWER_MODEL, else the C6100
 * preset) -- the same figure htplaces model gives. */
double htb_modelled_power_w(unsigned packages, unsigned cores, unsigned extra_siblings)
{
  omp_ext_usage_t u = {cores + extra_siblings, packages, cores, extra_siblings};
  return omp_ext_model_power(&htb_model()->power, &u);
}

const omp_ext_model_t *htb_model(void)
{
  static omp_ext_model_t m;
  static int done;
  /* main() refused an invalid model environment (htb_check_model_env). */
  if (!done && omp_ext_model_from_env(environ, &m, NULL) != 0)
    omp_ext_model_default(&m);
  done = 1;
  return &m;
}

int htb_check_model_env(void)
{
  omp_ext_model_t m;
  const char *bad = NULL, *value;
  if (omp_ext_model_from_env(environ, &m, &bad) == 0)
    return HTB_EXIT_OK;
  if (!bad)
    return htb_error(HTB_EXIT_FAIL, "out of memory");
  value = getenv(bad);
  return htb_error(HTB_EXIT_USAGE, "invalid %s='%s' (the energy model: see htplaces-model(1) "
                   "for what is allowed)", bad, value ? value : "");
}

omp_ext_rapl_t *htb_rapl_open(void)
{
  omp_ext_rapl_t *rapl = NULL;
  return omp_ext_rapl_open(NULL, &rapl, NULL, 0) == 0 ? rapl : NULL;
}

int htb_rapl_readable(void)
{
  omp_ext_rapl_t *rapl = htb_rapl_open();
  omp_ext_rapl_close(rapl);
  return rapl != NULL;
}
