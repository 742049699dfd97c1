/*
 * omp_ext/export.h -- the one export macro.
 *
 * libomp_ext is built with hidden visibility (-fvisibility=hidden): only the
 * declarations marked OMP_EXT_API in include/omp_ext/ are exported from
 * libomp_ext.so.  Users never need this header directly; every public header
 * includes it.
 */
#ifndef OMP_EXT_EXPORT_H
#define OMP_EXT_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define OMP_EXT_API __attribute__((visibility("default")))
#else
#define OMP_EXT_API
#endif

#endif /* OMP_EXT_EXPORT_H */
