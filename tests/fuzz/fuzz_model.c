/*
 * libFuzzer target: the power-model strings (omp_ext_power_model_parse: a
 * preset name or "Pn,Ps,Pc,Pt" watts) and the model's environment variables
 * (omp_ext_model_default reads OMP_EXT_POWER_MODEL, OMP_EXT_SIGMA,
 * OMP_EXT_SERIAL_FRACTION).  Input: "MODEL\nSIGMA\nSERIAL".  Invariants: an
 * accepted power model passes omp_ext_model_check() (finite watts >= 0,
 * Pn + Ps + Pc > 0); an accepted default model does too.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"

static void set_or_unset(const char *name, const char *value)
{
  if (value)
    setenv(name, value, 1);
  else
    unsetenv(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char *text = malloc(size + 1), *sigma = NULL, *serial = NULL;
  omp_ext_power_model_t pm;
  omp_ext_model_t m;
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
  set_or_unset("OMP_EXT_POWER_MODEL", text);
  set_or_unset("OMP_EXT_SIGMA", sigma);
  set_or_unset("OMP_EXT_SERIAL_FRACTION", serial);
  if (omp_ext_model_default(&m) == 0 && omp_ext_model_check(&m) != 0)
    abort();
  free(text);
  return 0;
}
