/*
 * Sysfs: the small file readers and the reason buffers shared by the energy
 * sources (powercap RAPL in calibrate.c, perf in perf-energy.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void omp_ext_say(char *why, size_t len, const char *fmt, ...)
{
  va_list ap;
  if (!why || !len)
    return;
  va_start(ap, fmt);
  vsnprintf(why, len, fmt, ap);
  va_end(ap);
}

int omp_ext_read_line(const char *dir, const char *file, char *buf, size_t len)
{
  char path[4096];
  FILE *f;
  size_t n;
  snprintf(path, sizeof(path), "%s/%s", dir, file);
  if (!(f = fopen(path, "r")))
    return -1;
  n = fread(buf, 1, len - 1, f);
  if (ferror(f)) {
    int e = errno ? errno : EIO;
    fclose(f);
    errno = e;
    return -1;
  }
  fclose(f);
  buf[n] = '\0';
  buf[strcspn(buf, "\n")] = '\0';
  if (!buf[0]) {
    errno = ENODATA;
    return -1;
  }
  return 0;
}
