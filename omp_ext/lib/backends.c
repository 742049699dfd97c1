/*
 * The table of runtime backends (see runtime.h): one row per OpenMP
 * runtime family, each defined in its own file.  Adding a family = its
 * file (backend_NAME.c, defining omp_ext_backend_NAME) and its row here.
 */
#include <stdio.h>

#include "private/runtime.h"

extern const struct omp_ext_backend omp_ext_backend_gomp OMP_EXT_HIDDEN;
extern const struct omp_ext_backend omp_ext_backend_kmp OMP_EXT_HIDDEN;

/* Tried in order: the first whose detect() answers yes. */
static const struct omp_ext_backend *const backends[] = {
  &omp_ext_backend_kmp,  /* LLVM libomp, Intel libiomp5 */
  &omp_ext_backend_gomp, /* GCC libgomp */
};

const struct omp_ext_backend *omp_ext_backend_of(const struct omp_ext_runtime *rt)
{
  unsigned i;
  if (!rt)
    return NULL;
  for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
    if (backends[i]->detect(rt))
      return backends[i];
  return NULL;
}

void omp_ext_hooks_arm(void)
{
  const struct omp_ext_backend *b = omp_ext_backend_of(omp_ext_runtime());
  if (b && b->arm)
    b->arm();
}

void omp_ext_hooks_check(const struct omp_ext_runtime *rt)
{
  static int checked;
  const struct omp_ext_backend *b;
  const char *why;
  if (__atomic_exchange_n(&checked, 1, __ATOMIC_RELAXED))
    return;
  if (!(b = omp_ext_backend_of(rt)) || !(why = b->check(rt)))
    return;
  fprintf(stderr, "omp_ext: %s: threads that a team adds later are not bound; call "
          "omp_ht_rebind() first in such regions\n", why);
}
