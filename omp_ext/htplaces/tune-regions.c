/*
 * htplaces tune: per-region figures.  Each run is made with
 * OMP_EXT_TIMING=FILE and libomp_ext preloaded (LD_PRELOAD: the GOMP
 * wrappers under libgomp, the OMPT tool under libomp/libiomp5), so the
 * timing layer (include/omp_ext/timing.h) writes, at the program's exit, one
 * line per outermost parallel region.  This file reads those lines (the
 * writer is omp_ext's own timing.c: one region object per line) and keeps,
 * per configuration and region, the total seconds of every run.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tune.h"

/* The JSON string after "key": at p, unescaped into out[len]; 0 or -1. */
static int string_after(const char *line, const char *key, char *out, size_t len)
{
  const char *p = strstr(line, key);
  size_t k = 0;
  if (!p || !(p = strchr(p + strlen(key), '"')))
    return -1;
  for (p++; *p && *p != '"' && k + 1 < len; p++) {
    if (*p == '\\' && p[1])
      p++;
    out[k++] = *p;
  }
  out[k] = '\0';
  return *p == '"' ? 0 : -1;
}

/* The number after "key": at p; NAN if absent. */
static double number_after(const char *line, const char *key)
{
  const char *p = strstr(line, key);
  char *end;
  double v;
  if (!p)
    return NAN;
  v = strtod(p + strlen(key), &end);
  return end == p + strlen(key) ? NAN : v;
}

/* file:line of one address, by addr2line (binutils), remembered: every run
 * names the same regions. */
struct resolved {
  char *module;
  unsigned long offset;
  char name[128]; /* "" when addr2line could not say */
};
static struct resolved *cache;
static unsigned ncache;
static int no_addr2line; /* it could not be run: function+offset from now on */

/* Run addr2line -e module 0xADDR; its first line into out[len]. 0 or -1. */
static int run_addr2line(const char *module, unsigned long addr, char *out, size_t len)
{
  char arg[32];
  int fd[2], status, got = 0;
  ssize_t n;
  pid_t pid;
  snprintf(arg, sizeof(arg), "0x%lx", addr);
  if (pipe(fd) != 0)
    return -1;
  fflush(NULL);
  if ((pid = fork()) < 0) {
    close(fd[0]), close(fd[1]);
    return -1;
  }
  if (pid == 0) {
    int null = open("/dev/null", O_RDWR);
    dup2(fd[1], 1);
    if (null >= 0)
      dup2(null, 0), dup2(null, 2);
    close(fd[0]);
    execlp("addr2line", "addr2line", "-e", module, arg, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  while ((size_t)got + 1 < len && (n = read(fd[0], out + got, len - 1 - (size_t)got)) > 0)
    got += (int)n;
  out[got] = '\0';
  close(fd[0]);
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
      no_addr2line = 1;
    return -1;
  }
  return 0;
}

/* "FILE:LINE" (FILE's base name) for the return address \p offset in
 * \p module, into name[len]; 0, or -1 (no debug info, no addr2line). */
static int source_line(const char *module, unsigned long offset, char *name, size_t len)
{
  char out[4096], *nl, *file, *colon;
  struct resolved *r;
  unsigned i;
  for (i = 0; i < ncache; i++)
    if (cache[i].offset == offset && strcmp(cache[i].module, module) == 0) {
      snprintf(name, len, "%s", cache[i].name);
      return cache[i].name[0] ? 0 : -1;
    }
  if (no_addr2line || offset == 0)
    return -1;
  /* (the address follows the call that starts the region: its line is
   * the call's, one byte before) */
  if (run_addr2line(module, offset - 1, out, sizeof(out)) != 0) {
    out[0] = '\0';
  } else {
    if ((nl = strchr(out, '\n')) != NULL)
      *nl = '\0';
    if ((nl = strstr(out, " (discriminator")) != NULL)
      *nl = '\0';
    colon = strrchr(out, ':');
    if (!colon || strncmp(out, "??", 2) == 0 || colon[1] < '1' || colon[1] > '9') {
      out[0] = '\0';
    } else {
      file = strrchr(out, '/');
      memmove(out, file ? file + 1 : out, strlen(file ? file + 1 : out) + 1);
    }
  }
  if (no_addr2line)
    return -1;
  /* A FILE:LINE too long for a region name (a file name of over 120
   * characters) is not cut: cut, it would lose its line and two regions
   * could share a name.  The region keeps its function+offset name. */
  if (strlen(out) >= sizeof(cache->name))
    out[0] = '\0';
  if ((r = realloc(cache, (ncache + 1) * sizeof(*r))) != NULL) {
    cache = r;
    if ((cache[ncache].module = strdup(module)) != NULL) {
      cache[ncache].offset = offset;
      if (snprintf(cache[ncache].name, sizeof(cache[ncache].name), "%s", out) >=
          (int)sizeof(cache[ncache].name))
        cache[ncache].name[0] = '\0'; /* (not reached: out fits) */
      ncache++;
    }
  }
  if (snprintf(name, len, "%s", out) >= (int)len)
    return -1; /* (name[len] shorter than a region name) */
  return out[0] ? 0 : -1;
}

int tune_region_name(const char *line, char *name, size_t len)
{
  char module[4096], offset[32];
  if (string_after(line, "\"name\": ", name, len) != 0)
    return -1;
  if (string_after(line, "\"module\": ", module, sizeof(module)) == 0 &&
      string_after(line, "\"offset\": ", offset, sizeof(offset)) == 0) {
    char where[128];
    if (source_line(module, strtoul(offset, NULL, 16), where, sizeof(where)) == 0)
      snprintf(name, len, "%s", where);
  }
  return 0;
}

static struct tune_region *find_or_add(struct tune_config *c, const char *name)
{
  struct tune_region *more;
  unsigned i;
  for (i = 0; i < c->nregions; i++)
    if (strcmp(c->regions[i].key, name) == 0)
      return &c->regions[i];
  if (!(more = realloc(c->regions, (c->nregions + 1) * sizeof(*more))))
    return NULL;
  c->regions = more;
  memset(&more[c->nregions], 0, sizeof(*more));
  /* (until the timing helper's keys land: key = name) */
  if (!(more[c->nregions].key = strdup(name)) || !(more[c->nregions].name = strdup(name))) {
    free(more[c->nregions].key);
    return NULL;
  }
  return &more[c->nregions++];
}

static int add_total(struct tune_region *r, double total, double median,
                     unsigned long instances, unsigned team_max)
{
  double *more = realloc(r->total_s, (r->nruns + 1) * sizeof(*more)), *med;
  if (!more)
    return -1;
  r->total_s = more;
  if (!(med = realloc(r->median_s, (r->nruns + 1) * sizeof(*med))))
    return -1;
  r->median_s = med;
  r->median_s[r->nruns] = median;
  r->total_s[r->nruns++] = total;
  r->instances = instances;
  if (team_max > r->team_max)
    r->team_max = team_max;
  return 0;
}

/* The largest team size of a region line: the last number of its
 * "team_sizes": [..] list (ascending). */
static unsigned team_max_of(const char *line)
{
  const char *p = strstr(line, "\"team_sizes\": ["), *end;
  unsigned v = 0;
  if (!p || !(end = strchr(p, ']')))
    return 0;
  while (end > p && (end[-1] < '0' || end[-1] > '9'))
    end--;
  while (end > p && end[-1] >= '0' && end[-1] <= '9')
    end--;
  if (end > p)
    v = (unsigned)strtoul(end, NULL, 10);
  return v;
}

/* A CPU list "0-3,8" at *p (up to the closing quote) as a bitmask of the
 * CPUs below 64 * words; -1 on bad text or a CPU beyond. */
static int parse_cpus(const char **p, unsigned long long *mask, unsigned words)
{
  const char *s = *p;
  memset(mask, 0, words * sizeof(*mask));
  while (*s && *s != '"') {
    char *end;
    unsigned long a = strtoul(s, &end, 10), b = a, i;
    if (end == s)
      return -1;
    s = end;
    if (*s == '-') {
      b = strtoul(s + 1, &end, 10);
      if (end == s + 1 || b < a)
        return -1;
      s = end;
    }
    if (b >= 64UL * words)
      return -1;
    for (i = a; i <= b; i++)
      mask[i / 64] |= 1ULL << (i % 64);
    if (*s == ',')
      s++;
    else if (*s != '"')
      return -1;
  }
  *p = s;
  return *s == '"' ? 0 : -1;
}

#define CPU_WORDS 128 /* 8192 CPUs, Linux's largest NR_CPUS on x86_64 */

/* Is the set exactly {pu}? */
static int only_pu(const unsigned long long *mask, unsigned pu)
{
  unsigned w;
  for (w = 0; w < CPU_WORDS; w++)
    if (mask[w] != (w == pu / 64 ? 1ULL << (pu % 64) : 0))
      return 0;
  return 1;
}

int tune_check_binding(const char *line, const struct tune_config *c, char *why, size_t len)
{
  const char *p = strstr(line, "\"bindings\": [");
  char name[128] = "?";
  unsigned long long mask[CPU_WORDS];
  if (!c->place_pu || !p)
    return 0;
  tune_region_name(line, name, sizeof(name));
  while ((p = strstr(p, "{\"team\": ")) != NULL) {
    unsigned team = (unsigned)strtoul(p + 9, NULL, 10), t, place;
    const char *q = strstr(p, "\"threads\": ["), *end;
    if (!q)
      return 0;
    end = strchr(q, ']');
    for (p = q + 12, t = 0; p && end && p < end; t++) {
      const char *next = strchr(p, ',');
      char *e;
      long pu = -1;
      int have = 0, place_ok;
      while (*p == ' ')
        p++;
      if (*p == '{') { /* {"cpus": "LIST", "pu": P} */
        const char *cpus = strstr(p, "\"cpus\": \""), *list, *pq;
        if (!cpus || cpus > end)
          return 0;
        list = cpus += 9;
        have = *cpus != '"';
        if (parse_cpus(&cpus, mask, CPU_WORDS) != 0)
          return 0; /* not one of omp_ext's: no verdict */
        if ((pq = strstr(cpus, "\"pu\": ")) != NULL)
          pu = strtol(pq + 6, &e, 10);
        next = strchr(cpus, '}');
        next = next ? strchr(next, ',') : NULL;
        /* thread t: place t when the team fits the places, else any one */
        place_ok = 0;
        for (place = team <= c->threads ? t : 0;
             place < (team <= c->threads ? t + 1 : c->threads) && place < c->threads; place++)
          if ((!have || only_pu(mask, c->place_pu[place])) &&
              (pu < 0 || (unsigned long)pu == c->place_pu[place]))
            place_ok = 1;
        if (!place_ok) {
          char placetext[32] = "any of its places";
          if (team <= c->threads)
            snprintf(placetext, sizeof(placetext), "its place {%u}", c->place_pu[t]);
          snprintf(why, len, "thread %u of %s (team of %u) ran on PU %ld bound to {%.*s}, not on %s",
                   t, name, team, pu, (int)(cpus - list), list, placetext);
          return 1;
        }
      }
      p = next && next < end ? next + 1 : NULL;
    }
    p = end;
  }
  return 0;
}

int tune_read_timing(const char *path, struct tune_config *c, double *serial_s, char *invalid,
                     size_t len)
{
  FILE *f = fopen(path, "r");
  char *line = NULL, name[128];
  size_t cap = 0;
  int ok = 0, err = 0;
  *serial_s = NAN;
  invalid[0] = '\0';
  if (!f)
    return -1;
  while (getline(&line, &cap, f) > 0) /* first: were the threads where intended? */
    if (tune_check_binding(line, c, invalid, len)) {
      free(line);
      fclose(f);
      return 1;
    }
  rewind(f);
  while (!err && getline(&line, &cap, f) > 0) {
    if (strstr(line, "{\"omp_ext_timing\": 1,")) {
      ok = 1;
      *serial_s = number_after(line, "\"serial_s\": ");
    } else if (ok && strstr(line, "{\"name\": ") &&
               tune_region_name(line, name, sizeof(name)) == 0) {
      struct tune_region *r = find_or_add(c, name);
      double total = number_after(line, "\"total_s\": ");
      double inst = number_after(line, "\"instances\": ");
      double median = number_after(line, "\"median_s\": ");
      err = !r || !isfinite(total) || !isfinite(inst) || !isfinite(median) ||
            add_total(r, total, median, (unsigned long)inst, team_max_of(line));
    }
  }
  free(line);
  fclose(f);
  return ok && !err ? 0 : -1;
}

void tune_free_regions(struct tune_config *c)
{
  unsigned i;
  for (i = 0; i < c->nregions; i++) {
    free(c->regions[i].key);
    free(c->regions[i].name);
    free(c->regions[i].total_s);
    free(c->regions[i].median_s);
  }
  free(c->regions);
  free(c->serial_s);
  c->regions = NULL;
  c->serial_s = NULL;
  c->nregions = c->nserial = 0;
}
