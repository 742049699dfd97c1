/*
 * libFuzzer target: the power-model strings (omp_ext_power_model_parse: a
 * preset name or "Pn,Ps,Pc,Pt" watts) and the model's environment variables
 * (omp_ext_model_from_env reads OMP_EXT_POWER_MODEL, OMP_EXT_SIGMA,
 * OMP_EXT_SERIAL_FRACTION from a crafted environment).  Input: "MODEL\nSIGMA\nSERIAL".  Invariants: an
 * accepted power model passes omp_ext_model_check() (finite watts >= 0,
 * Pn + Ps + Pc > 0); an accepted environment's model does too.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"

/* "NAME=VALUE" as envp[*n] if value is not NULL (malloc'ed). */
static void add_var(char **envp, unsigned *n, const char *name, const char *value)
{
  size_t a, b;
  if (!value)
    return;
  a = strlen(name);
  b = strlen(value);
  if (!(envp[*n] = malloc(a + b + 2)))
    return;
  memcpy(envp[*n], name, a);
  envp[*n][a] = '=';
  memcpy(envp[*n] + a + 1, value, b + 1);
  (*n)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1), *sigma = NULL, *serial = NULL;
  omp_ext_power_model_t pm;
  omp_ext_model_t m;
  char *envp[4];
  unsigned nvars = 0;
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  if ((sigma = strchr(text, '\n')) != NULL) {
    *sigma++ = '\0';
    if ((serial = strchr(sigma, '\n')) != NULL)
      *serial++ = '\0';
  }
  if (omp_ext_power_model_parse(text, &pm) == 0) {
    omp_ext_model_t check = {pm, OMP_EXT_MODEL_SIGMA, OMP_EXT_MODEL_SERIAL};
    if (omp_ext_model_check(&check) != 0 || !isfinite(pm.pn + pm.ps + pm.pc + pm.pt))
      abort();
  }
  add_var(envp, &nvars, "OMP_EXT_POWER_MODEL", text);
  add_var(envp, &nvars, "OMP_EXT_SIGMA", sigma);
  add_var(envp, &nvars, "OMP_EXT_SERIAL_FRACTION", serial);
  envp[nvars] = NULL;
  if (omp_ext_model_from_env(envp, &m, NULL) == 0 && omp_ext_model_check(&m) != 0)
    abort();
  while (nvars > 0)
    free(envp[--nvars]);
  free(text);
  return 0;
}
