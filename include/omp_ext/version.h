/*
 * omp_ext/version.h -- versions at run time: of libomp_ext and of the hwloc
 * library it runs with (as `lstopo --version` reports hwloc's).
 */
#ifndef OMP_EXT_VERSION_H
#define OMP_EXT_VERSION_H

#include <stddef.h>

#include "omp_ext/config.h"
#include "omp_ext/export.h"

/**
 * The version of the exported API (the functions declared OMP_EXT_API in
 * include/omp_ext/), 0xMMmm00, separate from the package version
 * (OMP_EXT_VERSION_HEX), as hwloc's HWLOC_API_VERSION: MM grows when an
 * exported function is removed or changes its arguments or meaning (a
 * program must be rebuilt), mm when one is added; a release that changes no
 * export keeps it.  0x00010000: the first promised set (issue 32: the
 * functions only omp_ext's own tools call are no longer exported).  A
 * program checks at start that omp_ext_get_api_version() >> 16 equals
 * OMP_EXT_API_VERSION >> 16.
 */
#define OMP_EXT_API_VERSION 0x00010000

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The API version of the running libomp_ext: OMP_EXT_API_VERSION of the
 * headers it was built with (as hwloc_get_api_version()), to compare with
 * the OMP_EXT_API_VERSION a program was compiled against.
 *
 * \return 0xMMmm00 of the running library.
 */
OMP_EXT_API unsigned omp_ext_get_api_version(void);

/**
 * The version of the libomp_ext that is running, "MAJOR.MINOR.PATCH" (the
 * project() version of the build; OMP_EXT_VERSION in omp_ext/config.h is
 * the one a program was compiled against).
 *
 * \return a static string, never NULL.
 */
OMP_EXT_API const char *omp_ext_get_version(void);

/**
 * The version of the libomp_ext that is running, as one number 0xMMmmpp
 * (as libuv's uv_version()): OMP_EXT_VERSION_HEX of the library's build.  A
 * program compiled against OMP_EXT_VERSION_HEX may check at start that the
 * library it runs with is not older, as hwloc's programs compare
 * HWLOC_API_VERSION with hwloc_get_api_version().
 *
 * \return (MAJOR << 16) | (MINOR << 8) | PATCH of the running library.
 */
OMP_EXT_API unsigned omp_ext_version(void);

/**
 * The release of the hwloc library this process runs with, e.g. "2.9.0".
 *
 * Source: the "hwlocVersion" info attribute that hwloc (2.x) puts on the
 * root object of every topology it loads (hwloc_obj_get_info_by_name());
 * read from a one-PU synthetic topology ("pu:1"), so the machine is not
 * discovered.  When that attribute is missing, the run-time API version
 * from hwloc_get_api_version() is given instead, as "api 2.8.0".  (The
 * HWLOC_VERSION macro is the version compiled against, not the one run.)
 *
 * \param buf   receives the NUL-terminated version.
 * \param size  bytes at buf; 16 is always enough for real versions.
 * \return 0; omp_ext_err_invalid (buf NULL or size 0); omp_ext_err_range
 *         (too small: buf holds the truncated text); omp_ext_err_nomem or
 *         omp_ext_err_topology (hwloc could not build the synthetic
 *         topology; buf holds the API version then).
 */
OMP_EXT_API int omp_ext_hwloc_version(char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_VERSION_H */
