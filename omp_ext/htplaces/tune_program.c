/*
 * htplaces tune: where the program (and a launcher's first word) is, as
 * execvp would find it -- checked before any run, so that a missing
 * program is one line, not one failed run per configuration.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune_int.h"

static int executable(const char *path, int *err)
{
  struct stat st;
  if (stat(path, &st) != 0) {
    *err = errno;
    return 0;
  }
  if (S_ISDIR(st.st_mode) || access(path, X_OK) != 0) {
    *err = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
    return -1;
  }
  return 1;
}

int tune_find_program(const char *program)
{
  const char *path = getenv("PATH"), *p, *colon;
  char buf[4096];
  int err = ENOENT, found = 0, r;
  if (!*program) /* (the PATH search made it "DIR/": "Is a directory") */
    return htp_error(127, "cannot run '': No such file or directory (an empty program name)");
  if (strchr(program, '/'))
    found = executable(program, &err);
  else
    for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; !found || found < 0; p = colon + 1) {
      size_t len;
      colon = strchr(p, ':');
      len = colon ? (size_t)(colon - p) : strlen(p);
      if (snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, len ? p : ".", "/", program) <
          (int)sizeof(buf) && (r = executable(buf, &err)) != 0)
        found = r;
      if (found > 0 || !colon)
        break;
    }
  if (found > 0)
    return HTP_EXIT_OK;
  if (found < 0 || err == EACCES)
    return htp_error(126, "cannot run '%s': %s", program, strerror(err == ENOENT ? EACCES : err));
  return htp_error(127, "cannot run '%s': %s", program, strerror(err));
}
