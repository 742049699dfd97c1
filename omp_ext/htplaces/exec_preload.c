/*
 * htplaces exec --plan and exec auto: run the program with libomp_ext
 * preloaded (found beside htplaces) and one of its variables set -- the
 * per-region control needs no change to the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htplaces.h"

int htp_exec_preloaded(const char *var, const char *value, char **argv)
{
  char lib[4096], *preload;
  const char *old = getenv("LD_PRELOAD");
  int status;
  if (!htp_find_libomp_ext(lib, sizeof(lib)))
    return htp_error(HTP_EXIT_FAIL, "libomp_ext.so not found beside htplaces");
  if ((status = htp_preload_path_error(lib, HTP_EXIT_FAIL)) != 0)
    return status;
  if (old && *old ? asprintf(&preload, "%s:%s", lib, old) < 0 : !(preload = strdup(lib)))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  /* Per-region control places every region: the runtime's own binding
   * would re-pin the threads at each fork (as exec POLICY, these are
   * replaced).  The user's places stay the base placement of a region not
   * yet learnt (OMP_EXT_PLACES, which only libomp_ext reads). */
  if (getenv("OMP_PLACES") && *getenv("OMP_PLACES") && !getenv("OMP_EXT_PLACES") &&
      setenv("OMP_EXT_PLACES", getenv("OMP_PLACES"), 1) != 0) {
    free(preload);
    return htp_error(HTP_EXIT_FAIL, "cannot set the environment");
  }
  unsetenv("OMP_PLACES");
  unsetenv("OMP_PROC_BIND");
  if (setenv(var, value, 1) != 0 || setenv("LD_PRELOAD", preload, 1) != 0) {
    free(preload);
    return htp_error(HTP_EXIT_FAIL, "cannot set the environment");
  }
  free(preload);
  fflush(stdout);
  execvp(argv[0], argv);
  return htp_error(errno == ENOENT ? 127 : 126, "cannot run '%s': %s", argv[0], strerror(errno));
}
