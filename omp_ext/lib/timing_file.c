/*
 * Region timing: the file OMP_EXT_TIMING names (timing_int.h), one JSON
 * object per process written whole at exit -- the run's wall, region and
 * serial time, then per region its statistics (timing_stats.c), team sizes,
 * module and offset, what per-region control did and the bindings
 * recorded.  The strings (symbols, the program's path, the user's names)
 * through omp_ext_json_string() (util.h), as every JSON writer of the
 * project.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "private/timing_int.h"
#include "private/util.h"

static int cmp_unsigned(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* A CPU set as a list: "0-3,8". */
static void cpulist(FILE *f, const cpu_set_t *set)
{
  int cpu, first = -1, sep = 0;
  for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
    int in = cpu < CPU_SETSIZE && CPU_ISSET(cpu, set);
    if (in && first < 0)
      first = cpu;
    else if (!in && first >= 0) {
      fprintf(f, sep ? ",%d" : "%d", first);
      if (cpu - 1 > first)
        fprintf(f, "-%d", cpu - 1);
      sep = 1, first = -1;
    }
  }
}

/* "bindings": [{"team": 2, "threads": [{"cpus": "0", "pu": 0}, null]}] */
static void write_bindings(FILE *f, const struct omp_ext_timing_region *r)
{
  unsigned b, i;
  fputs(", \"bindings\": [", f);
  for (b = 0; b < r->nbinds; b++) {
    const struct bindrec *br = &r->binds[b];
    fprintf(f, "%s{\"team\": %u, \"threads\": [", b ? ", " : "", br->team);
    for (i = 0; i < br->team; i++) {
      const struct tbind *t = &br->th[i];
      fputs(i ? ", " : "", f);
      if (!t->tid) {
        fputs("null", f);
        continue;
      }
      fputs("{\"cpus\": \"", f);
      if (t->have_cpus)
        cpulist(f, &t->cpus);
      fprintf(f, "\", \"pu\": %d}", t->pu);
    }
    fputs("]}", f);
  }
  fputc(']', f);
}

/* "PREFIXmodule": the object holding \p addr (its path), "PREFIXoffset":
 * addr's address in that object's own terms (minus its load bias), what
 * addr2line -e MODULE takes. */
static void write_module(FILE *f, const void *addr, const char *prefix)
{
  Dl_info info;
  struct link_map *lm = NULL;
  char exe[4096];
  const char *path;
  ssize_t n;
  if (!addr || !dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm)
    return;
  path = lm->l_name;
  if (!path || !*path) { /* the executable */
    if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0)
      return;
    exe[n] = '\0';
    path = exe;
  }
  fprintf(f, ", \"%smodule\": ", prefix);
  omp_ext_json_string(f, path);
  fprintf(f, ", \"%soffset\": \"0x%lx\"", prefix, (unsigned long)((uintptr_t)addr - lm->l_addr));
}

/* "function+0xOFF" or "file+0xOFF" for a code address (malloc'd, or
 * NULL). */
static char *region_name(const void *addr)
{
  Dl_info info;
  char *name = NULL;
  int n = -1;
  if (dladdr(addr, &info) && info.dli_sname && info.dli_saddr) {
    uintptr_t off = (uintptr_t)addr - (uintptr_t)info.dli_saddr;
    if (off)
      n = asprintf(&name, "%s+0x%lx", info.dli_sname, (unsigned long)off);
    else
      n = asprintf(&name, "%s", info.dli_sname);
  } else if (dladdr(addr, &info) && info.dli_fname) {
    const char *base = strrchr(info.dli_fname, '/');
    n = asprintf(&name, "%s+0x%lx", base ? base + 1 : info.dli_fname,
                 (unsigned long)((uintptr_t)addr - (uintptr_t)info.dli_fbase));
  } else {
    n = asprintf(&name, "%p", addr);
  }
  return n < 0 ? NULL : name;
}

/* region.c's writer of what per-region control did (omp_ext_timing_set_control). */
static omp_ext_timing_control_fn control_fn;

void omp_ext_timing_set_control(omp_ext_timing_control_fn fn)
{
  __atomic_store_n(&control_fn, fn, __ATOMIC_RELEASE);
}

/* The file's JSON object. */
static void write_json(FILE *f, struct omp_ext_timing_region *regions, size_t nregions,
                       double t_load, double wall, double tick_s)
{
  size_t i;
  double in_regions = 0;
  const struct omp_ext_timing_part *p;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  exe[n > 0 ? n : 0] = '\0';
  for (i = 0; i < nregions; i++) /* the outermost regions' time */
    for (p = regions[i].parts; p; p = p->next) {
      double t;
      __atomic_load(&p->total, &t, __ATOMIC_RELAXED);
      in_regions += t * tick_s;
    }
  fprintf(f, "{\"omp_ext_timing\": 1, \"wall_s\": %.9f, \"regions_s\": %.9f, \"serial_s\": %.9f,"
          "\n \"pid\": %ld, \"program\": ", wall, in_regions,
          wall > in_regions ? wall - in_regions : 0.0, (long)getpid());
  omp_ext_json_string(f, exe);
  fprintf(f, ", \"started_s\": %.9f,\n \"regions\": [", t_load);
  for (i = 0; i < nregions; i++) {
    struct omp_ext_timing_region *r = &regions[i];
    omp_ext_timer_stats_t s;
    char *name = r->name ? r->name : region_name(r->at);
    size_t nsamples;
    unsigned j;
    omp_ext_timing_region_stats(r, &s, tick_s, &nsamples);
    qsort(r->sizes, r->nsizes, sizeof(unsigned), cmp_unsigned);
    fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
    omp_ext_json_string(f, name ? name : "?");
    if (name != r->name)
      free(name);
    fprintf(f, ", \"kind\": \"%s\", \"address\": \"%p\", \"instances\": %lu, \"team_sizes\": [",
            r->name ? "timer" : "parallel", r->name ? NULL : r->at, s.instances);
    for (j = 0; j < r->nsizes; j++)
      fprintf(f, "%s%u", j ? ", " : "", r->sizes[j]);
    fprintf(f, "], \"total_s\": %.9f, \"mean_s\": %.9f, \"median_s\": %.9f, \"min_s\": %.9f, "
            "\"max_s\": %.9f, \"median_samples\": %lu", s.total_s, s.mean_s, s.median_s, s.min_s,
            s.max_s, (unsigned long)nsamples);
    if (!r->name) {
      omp_ext_timing_control_fn control = __atomic_load_n(&control_fn, __ATOMIC_ACQUIRE);
      write_module(f, r->at, "");
      if (r->key && r->key != r->at) /* libgomp: the outlined body, which names the region */
        write_module(f, r->key, "outlined_");
      if (control)
        control(f, r->at); /* what per-region control chose */
    }
    write_bindings(f, r);
    fputc('}', f);
  }
  fprintf(f, "\n]}\n");
}

/* OMP_EXT_TIMING's file name \p pattern for this process: each "%p" the
 * process ID (malloc'd, or NULL). */
static char *file_name(const char *pattern)
{
  size_t len = strlen(pattern) + 1, k = 0;
  const char *s;
  char *out, pid[24];
  int plen = snprintf(pid, sizeof(pid), "%ld", (long)getpid());
  for (s = pattern; (s = strstr(s, "%p")) != NULL; s += 2)
    len += (size_t)plen;
  if (!(out = malloc(len)))
    return NULL;
  for (s = pattern; *s; s++)
    if (s[0] == '%' && s[1] == 'p')
      memcpy(out + k, pid, (size_t)plen), k += (size_t)plen, s++;
    else
      out[k++] = *s;
  out[k] = '\0';
  return out;
}

/* Write len bytes of buf to fd.  0, or -1 with errno set. */
static int write_all(int fd, const char *buf, size_t len)
{
  while (len) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return n == 0 ? (errno = EIO, -1) : -1;
    buf += n, len -= (size_t)n;
  }
  return 0;
}

/* Write \p text to the file \p path through a temporary file in its
 * folder, renamed over it when complete (a reader never sees half a file;
 * a full device leaves the old one); a path that exists and is not a
 * regular file (/dev/stdout, a FIFO) is written in place.  0, or -1 with
 * errno set. */
static int write_file(const char *path, const char *text, size_t len)
{
  struct stat st;
  char *tmp = NULL;
  int fd, err = 0;
  mode_t mask;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) < 0)
      return -1;
  } else {
    if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0)
      return errno = ENOMEM, -1;
    if ((fd = mkstemp(tmp)) < 0) {
      err = errno;
      free(tmp);
      return errno = err, -1;
    }
    mask = umask(0); /* (the mode fopen would give) */
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0)
      err = errno;
  }
  if (!err && write_all(fd, text, len) != 0)
    err = errno;
  if (close(fd) != 0 && !err)
    err = errno;
  if (!err && tmp && rename(tmp, path) != 0)
    err = errno;
  if (tmp) {
    if (err)
      unlink(tmp);
    free(tmp);
  }
  return err ? (errno = err, -1) : 0;
}

void omp_ext_timing_write_file(const char *pattern, struct omp_ext_timing_region *regions,
                               size_t n, double t_load, double wall_s, double tick_s)
{
  char *text = NULL, *path;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  int ok = m != NULL;
  if (m) {
    write_json(m, regions, n, t_load, wall_s, tick_s);
    ok = fclose(m) == 0;
  }
  if (!(path = file_name(pattern)) || !ok)
    fprintf(stderr, "omp_ext: OMP_EXT_TIMING: cannot write '%s': %s\n", path ? path : pattern,
            strerror(ENOMEM));
  else if (write_file(path, text, len) != 0)
    fprintf(stderr, "omp_ext: OMP_EXT_TIMING: cannot write '%s': %s\n", path, strerror(errno));
  free(path);
  free(text);
}
