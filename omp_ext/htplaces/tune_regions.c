/*
 * htplaces tune: per-region figures.  Each run is made with
 * OMP_EXT_TIMING=DIR/timing.%p.json and libomp_ext preloaded (LD_PRELOAD:
 * the GOMP wrappers under libgomp, the OMPT tool under libomp/libiomp5), so
 * the timing layer (include/omp_ext/timing.h) writes, at exit, one JSON
 * file per process that recorded something: the program itself behind a
 * wrapper script, `timeout` or GNU time, and its forked children.  This
 * file reads all of a run's files (jansson), checks the bindings they
 * record against the configuration's places, and keeps, per configuration
 * and region, the total seconds of every run.
 *
 * A region is keyed by its code address, "MODULE+0xOFFSET", never by its
 * name (two constructs on one line are two regions), and named for people:
 * FILE:LINE where the module has debug information (`addr2line`, binutils,
 * run once per region), else the function holding it from the ELF symbol
 * table (tune_symbols.c: static functions too, demangled), prefixed
 * "lib.so: " in a shared library.  Where more than one process of a run
 * recorded regions, key and name start with the process's program
 * ("app: ", "app#2: " for its second process by start time).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <glob.h>
#include <hwloc.h>
#include <jansson.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tune_int.h"

/* What addr2line said of one address, remembered: every run names the same
 * regions. */
struct resolved {
  char *module;
  unsigned long offset;
  char *function; /* demangled, NULL when unknown */
  char *line;     /* "FILE:LINE" (FILE's base name), NULL without debug info */
};
static struct resolved *cache;
static unsigned ncache;
static int no_addr2line; /* it could not be run: no FILE:LINE from now on */

/* Run addr2line -f -e module 0xADDR (function, then FILE:LINE); its output
 * into out[len].  0 or -1. */
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
    execlp("addr2line", "addr2line", "-f", "-e", module, arg, (char *)NULL);
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

/* A function name without the compiler's clone suffix: "f.constprop.0",
 * "f.part.1", "f.isra.0", "f.cold" (GCC) -> "f"; "g(int) [clone
 * .constprop.0]" (demangled) -> "g(int)"; ".omp_outlined." kept. */
static char *function_name(const char *text)
{
  const char *clone = strstr(text, " [clone ."), *dot = strchr(text + 1, '.');
  size_t len = strlen(text);
  if (clone)
    len = (size_t)(clone - text);
  else if (text[0] != '.' && dot && !strchr(text, '('))
    len = (size_t)(dot - text);
  return strndup(text, len);
}

/* addr2line's "FILE:LINE (discriminator N)" as "FILE:LINE" (base name), or
 * NULL ("??:0", "??:?", no line). */
static char *file_line(char *text)
{
  char *p, *colon, *file;
  if ((p = strstr(text, " (discriminator")) != NULL)
    *p = '\0';
  colon = strrchr(text, ':');
  if (!colon || strncmp(text, "??", 2) == 0 || colon[1] < '1' || colon[1] > '9')
    return NULL;
  file = strrchr(text, '/');
  return strdup(file ? file + 1 : text);
}

/* The function and source line of the return address \p offset in
 * \p module (the cache's entry), or NULL. */
static const struct resolved *resolve(const char *module, unsigned long offset)
{
  char *out, *nl, *fn;
  struct resolved *r, e = {NULL, offset, NULL, NULL};
  unsigned i;
  const size_t len = 1 << 16;
  for (i = 0; i < ncache; i++)
    if (cache[i].offset == offset && strcmp(cache[i].module, module) == 0)
      return &cache[i];
  if (offset == 0)
    return NULL;
  /* (the address follows the call that starts the region: its function
   * and line are the call's, one byte before) */
  if ((fn = tune_symbol_at(module, offset - 1)) != NULL) {
    e.function = function_name(fn);
    free(fn);
  }
  if (!no_addr2line && (out = malloc(len)) != NULL) {
    if (run_addr2line(module, offset - 1, out, len) == 0 && (nl = strchr(out, '\n')) != NULL) {
      nl[strcspn(nl + 1, "\n") + 1] = '\0';
      e.line = file_line(nl + 1);
    }
    free(out);
  }
  if (!(e.module = strdup(module)) || !(r = realloc(cache, (ncache + 1) * sizeof(*r)))) {
    free(e.module), free(e.function), free(e.line);
    return NULL;
  }
  cache = r;
  cache[ncache] = e;
  return &cache[ncache++];
}

static const char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* A region's display name (malloc'd): FILE:LINE, else "lib.so: function"
 * or "function", else the timing file's name; NULL without any. */
static char *display_name(const char *name, const char *module, const char *offset,
                          const char *program)
{
  const struct resolved *r = NULL;
  char *out = NULL;
  if (module && offset)
    r = resolve(module, strtoul(offset, NULL, 16));
  if (r && r->line)
    return strdup(r->line);
  if (r && r->function) {
    int shared = program ? strcmp(module, program) != 0 : strstr(base_name(module), ".so") != NULL;
    if (!shared)
      return strdup(r->function);
    return asprintf(&out, "%s: %s", base_name(module), r->function) < 0 ? NULL : out;
  }
  return name ? strdup(name) : NULL;
}

static const char *str_of(const json_t *o, const char *key)
{
  return json_string_value(json_object_get(o, key));
}

/* Region \p reg's key and display name (malloc'd), for the process labelled
 * \p label ("" when it is the run's only one).  0 or -1. */
static int region_identity(const json_t *reg, const char *program, const char *label, char **key,
                           char **name)
{
  const char *n = str_of(reg, "name"), *module = str_of(reg, "module"),
             *offset = str_of(reg, "offset"), *kind = str_of(reg, "kind");
  char *disp;
  int k;
  *key = *name = NULL;
  if (!n)
    return -1;
  if (kind && strcmp(kind, "timer") == 0)
    disp = strdup(n), module = offset = NULL;
  else
    disp = display_name(n, module, offset, program);
  if (!disp)
    return -1;
  if (module && offset)
    k = asprintf(key, "%s%s%s+%s", label, *label ? ": " : "", module, offset);
  else if (kind && strcmp(kind, "timer") == 0)
    k = asprintf(key, "%s%sname:%s", label, *label ? ": " : "", n);
  else /* (no module: the timing file's name, as unique as it is) */
    k = asprintf(key, "%s%sname:%s", label, *label ? ": " : "", n);
  if (k < 0) {
    free(disp);
    return -1;
  }
  if (!*label) {
    *name = disp;
    return 0;
  }
  k = asprintf(name, "%s: %s", label, disp);
  free(disp);
  if (k < 0) {
    free(*key);
    return -1;
  }
  return 0;
}

/* Is the CPU set exactly {pu}? */
static int only_pu(hwloc_const_bitmap_t set, unsigned pu)
{
  return hwloc_bitmap_weight(set) == 1 && hwloc_bitmap_first(set) == (int)pu;
}

/* The binding check of one region object (see tune_check_binding). */
static int check_region(const json_t *reg, const struct tune_config *c, const char *program,
                        char *why, size_t len)
{
  const json_t *binds = json_object_get(reg, "bindings"), *b, *th;
  hwloc_bitmap_t set;
  size_t i, t;
  int bad = 0;
  if (!c->place_pu || !json_is_array(binds) || !(set = hwloc_bitmap_alloc()))
    return 0;
  json_array_foreach(binds, i, b) {
    unsigned team = (unsigned)json_integer_value(json_object_get(b, "team")), place;
    json_array_foreach(json_object_get(b, "threads"), t, th) {
      const char *cpus = str_of(th, "cpus");
      const json_t *pj = json_object_get(th, "pu");
      long pu = json_is_integer(pj) ? (long)json_integer_value(pj) : -1;
      int have, place_ok = 0;
      if (!json_is_object(th))
        continue; /* null: the thread did not take part */
      if (!cpus || hwloc_bitmap_list_sscanf(set, cpus) != 0) {
        hwloc_bitmap_free(set);
        return 0; /* not one of omp_ext's: no verdict */
      }
      have = *cpus != '\0';
      /* thread t: place t when the team fits the places, else any one */
      for (place = team <= c->threads ? (unsigned)t : 0;
           place < (team <= c->threads ? (unsigned)t + 1 : c->threads) && place < c->threads;
           place++)
        if ((!have || only_pu(set, c->place_pu[place])) &&
            (pu < 0 || (unsigned long)pu == c->place_pu[place]))
          place_ok = 1;
      if (!place_ok) {
        char placetext[32] = "any of its places", *name = NULL, *key = NULL;
        if (team <= c->threads && t < c->threads)
          snprintf(placetext, sizeof(placetext), "its place {%u}", c->place_pu[t]);
        region_identity(reg, program, "", &key, &name);
        snprintf(why, len, "thread %u of %s (team of %u) ran on PU %ld bound to {%s}, not on %s",
                 (unsigned)t, name ? name : "?", team, pu, cpus, placetext);
        free(name), free(key);
        bad = 1;
        break;
      }
    }
    if (bad)
      break;
  }
  hwloc_bitmap_free(set);
  return bad;
}

int tune_check_binding(const char *region, const struct tune_config *c, char *why, size_t len)
{
  json_t *reg = json_loads(region, JSON_DECODE_ANY, NULL);
  int bad = json_is_object(reg) ? check_region(reg, c, NULL, why, len) : 0;
  json_decref(reg);
  return bad;
}

/* Under "none" (no places): did the program bind its own threads?  Any
 * recorded thread whose CPU set is not the whole set the run started with
 * (tune's own: the program inherits it). */
static int self_bound(const json_t *regions)
{
  const json_t *reg, *b, *th;
  size_t i, j, t;
  hwloc_bitmap_t set = hwloc_bitmap_alloc(), own = hwloc_bitmap_alloc();
  cpu_set_t mask;
  int bound = 0, cpu;
  if (!set || !own || sched_getaffinity(0, sizeof(mask), &mask) != 0) {
    hwloc_bitmap_free(set), hwloc_bitmap_free(own);
    return 0;
  }
  for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, &mask))
      hwloc_bitmap_set(own, (unsigned)cpu);
  json_array_foreach(regions, i, reg)
    json_array_foreach(json_object_get(reg, "bindings"), j, b)
      json_array_foreach(json_object_get(b, "threads"), t, th) {
        const char *cpus = str_of(th, "cpus");
        if (cpus && *cpus && hwloc_bitmap_list_sscanf(set, cpus) == 0 &&
            !hwloc_bitmap_isequal(set, own))
          bound = 1;
      }
  hwloc_bitmap_free(set), hwloc_bitmap_free(own);
  return bound;
}

static struct tune_region *find_or_add(struct tune_config *c, char *key, char *name)
{
  struct tune_region *more;
  unsigned i;
  for (i = 0; i < c->nregions; i++)
    if (strcmp(c->regions[i].key, key) == 0) {
      free(key), free(name);
      return &c->regions[i];
    }
  if (!(more = realloc(c->regions, (c->nregions + 1) * sizeof(*more)))) {
    free(key), free(name);
    return NULL;
  }
  c->regions = more;
  memset(&more[c->nregions], 0, sizeof(*more));
  more[c->nregions].key = key;
  more[c->nregions].name = name;
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

/* Under auto: what it chose for the region in this run, from the timing
 * file's "control" {"source": "auto", "config": "spn:2", "settled": true}
 * ("spn:2 exploring" when not settled); nothing recorded: left as it was.
 * 0, or -1 out of memory. */
static int keep_control(struct tune_region *r, const json_t *control)
{
  const char *config = json_string_value(json_object_get(control, "config"));
  char *text;
  if (!config)
    return 0;
  if (asprintf(&text, "%s%s", config,
               json_is_false(json_object_get(control, "settled")) ? " exploring" : "") < 0)
    return -1;
  free(r->control);
  r->control = text;
  return 0;
}

/* The largest team size of a region: the last of "team_sizes" (ascending). */
static unsigned team_max_of(const json_t *reg)
{
  const json_t *sizes = json_object_get(reg, "team_sizes");
  size_t n = json_array_size(sizes);
  return n ? (unsigned)json_integer_value(json_array_get(sizes, n - 1)) : 0;
}

/* One process's file of a run. */
struct proc {
  json_t *root;
  const char *program; /* NULL in a file without it */
  double started;
  char label[256];     /* "" when the run's only process */
};

static int by_start(const void *a, const void *b)
{
  double x = ((const struct proc *)a)->started, y = ((const struct proc *)b)->started;
  return (x > y) - (x < y);
}

/* (a temporary file being written, or one a killed process left, does not
 * match: the rest must be digits) */
int tune_timing_files(const char *path, glob_t *g)
{
  const char *p = strstr(path, "%p");
  char *pattern;
  size_t i, k;
  int r;
  memset(g, 0, sizeof(*g));
  if (!p)
    return access(path, R_OK) == 0 && glob(path, GLOB_NOSORT | GLOB_NOESCAPE, NULL, g) == 0 &&
           g->gl_pathc == 1 ? 0 : -1;
  if (asprintf(&pattern, "%.*s[0-9]*%s", (int)(p - path), path, p + 2) < 0)
    return -1;
  r = glob(pattern, GLOB_NOESCAPE, NULL, g);
  free(pattern);
  if (r != 0)
    return -1;
  for (i = k = 0; i < g->gl_pathc; i++) { /* the digits, exactly */
    const char *name = g->gl_pathv[i] + (p - path), *end = name + strspn(name, "0123456789");
    if (strcmp(end, p + 2) == 0)
      g->gl_pathv[k++] = g->gl_pathv[i];
    else
      free(g->gl_pathv[i]);
  }
  for (i = k; i < g->gl_pathc; i++)
    g->gl_pathv[i] = NULL;
  g->gl_pathc = k;
  return k ? 0 : -1;
}

/* Read and validate the files of a run into procs[*n] (those with at least
 * one region), labelled; 0 or -1 (no file of omp_ext's). */
static int read_procs(const char *path, struct proc **procs, unsigned *n)
{
  glob_t g;
  size_t i;
  unsigned k, j, ok = 0;
  *procs = NULL, *n = 0;
  if (tune_timing_files(path, &g) != 0)
    return -1;
  if (!(*procs = calloc(g.gl_pathc, sizeof(**procs)))) {
    globfree(&g);
    return -1;
  }
  for (i = 0; i < g.gl_pathc; i++) {
    json_t *root = json_load_file(g.gl_pathv[i], 0, NULL);
    const json_t *v = json_object_get(root, "omp_ext_timing");
    if (!json_is_integer(v) || json_integer_value(v) != 1 ||
        !json_is_array(json_object_get(root, "regions"))) {
      json_decref(root);
      continue;
    }
    ok = 1;
    if (json_array_size(json_object_get(root, "regions")) == 0) {
      json_decref(root);
      continue;
    }
    (*procs)[*n].root = root;
    (*procs)[*n].program = str_of(root, "program");
    (*procs)[*n].started = json_number_value(json_object_get(root, "started_s"));
    (*n)++;
  }
  globfree(&g);
  qsort(*procs, *n, sizeof(**procs), by_start);
  for (k = 0; *n > 1 && k < *n; k++) { /* program, #2 for its second process */
    const char *prog = (*procs)[k].program ? base_name((*procs)[k].program) : "?";
    unsigned same = 1;
    for (j = 0; j < k; j++)
      same += strcmp((*procs)[j].program ? base_name((*procs)[j].program) : "?", prog) == 0;
    snprintf((*procs)[k].label, sizeof((*procs)[k].label), same > 1 ? "%s#%u" : "%s", prog, same);
  }
  return ok ? 0 : -1;
}

static void free_procs(struct proc *procs, unsigned n)
{
  unsigned k;
  for (k = 0; k < n; k++)
    json_decref(procs[k].root);
  free(procs);
}

int tune_read_timing(const char *path, struct tune_config *c, double *serial_s, char *invalid,
                     size_t len)
{
  struct proc *procs;
  unsigned n, k;
  size_t i;
  const json_t *reg;
  int err = 0;
  *serial_s = NAN;
  invalid[0] = '\0';
  if (read_procs(path, &procs, &n) != 0) {
    free_procs(procs, n);
    return -1;
  }
  for (k = 0; k < n; k++) /* first: were the threads where intended? */
    json_array_foreach(json_object_get(procs[k].root, "regions"), i, reg)
      if (check_region(reg, c, procs[k].program, invalid, len)) {
        free_procs(procs, n);
        return 1;
      }
  /* the serial part: the first process's (the program, or its parent) */
  *serial_s = n ? json_number_value(json_object_get(procs[0].root, "serial_s")) : 0;
  for (k = 0; k < n && !err; k++) {
    if (c->policy == TUNE_NONE && self_bound(json_object_get(procs[k].root, "regions")))
      c->self_bound = 1;
    json_array_foreach(json_object_get(procs[k].root, "regions"), i, reg) {
      const json_t *total = json_object_get(reg, "total_s"), *inst = json_object_get(reg, "instances"),
                   *median = json_object_get(reg, "median_s");
      struct tune_region *r;
      char *key, *name;
      if (region_identity(reg, procs[k].program, procs[k].label, &key, &name) != 0)
        continue; /* (a region without a name) */
      r = find_or_add(c, key, name);
      err = !r || !json_is_number(total) || !json_is_integer(inst) || !json_is_number(median) ||
            add_total(r, json_number_value(total), json_number_value(median),
                      (unsigned long)json_integer_value(inst), team_max_of(reg));
      if (!err && TUNE_IS_AUTO(c))
        err = keep_control(r, json_object_get(reg, "control"));
      if (err)
        break;
    }
  }
  free_procs(procs, n);
  return err ? -1 : 0;
}

void tune_clear_timing(const char *path)
{
  const char *p = strstr(path, "%p");
  char *pattern[2] = {NULL, NULL};
  glob_t g;
  size_t i;
  unsigned k;
  /* the files, and the temporary ones a killed process left */
  if (p ? asprintf(&pattern[0], "%.*s[0-9]*%s", (int)(p - path), path, p + 2) < 0 ||
              asprintf(&pattern[1], "%.*s[0-9]*%s.tmp-*", (int)(p - path), path, p + 2) < 0
        : asprintf(&pattern[0], "%s", path) < 0 || asprintf(&pattern[1], "%s.tmp-*", path) < 0) {
    free(pattern[0]);
    return;
  }
  for (k = 0; k < 2; k++) {
    if (glob(pattern[k], GLOB_NOESCAPE | GLOB_NOSORT, NULL, &g) == 0)
      for (i = 0; i < g.gl_pathc; i++)
        unlink(g.gl_pathv[i]);
    globfree(&g);
    free(pattern[k]);
  }
}

void tune_free_regions(struct tune_config *c)
{
  unsigned i;
  for (i = 0; i < c->nregions; i++) {
    free(c->regions[i].key);
    free(c->regions[i].name);
    free(c->regions[i].total_s);
    free(c->regions[i].median_s);
    free(c->regions[i].control);
  }
  free(c->regions);
  free(c->serial_s);
  c->regions = NULL;
  c->serial_s = NULL;
  c->nregions = c->nserial = 0;
}

/* Is PROGRAM (searched as execvp does) a statically linked ELF file: ELF,
 * no PT_INTERP?  1 yes, 0 no or unknown (a script, not found). */
static int static_elf(const char *program)
{
  char buf[4096];
  const char *path = getenv("PATH"), *p, *colon;
  Elf64_Ehdr eh;
  Elf64_Phdr ph;
  int fd = -1, interp = 0, i;
  if (strchr(program, '/'))
    fd = open(program, O_RDONLY | O_CLOEXEC);
  else
    for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; fd < 0; p = colon + 1) {
      size_t len;
      colon = strchr(p, ':');
      len = colon ? (size_t)(colon - p) : strlen(p);
      if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? p : ".", program) <
          (int)sizeof(buf) && access(buf, X_OK) == 0)
        fd = open(buf, O_RDONLY | O_CLOEXEC);
      if (!colon)
        break;
    }
  if (fd < 0)
    return 0;
  if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(ph)) {
    close(fd);
    return 0;
  }
  for (i = 0; i < eh.e_phnum; i++)
    if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (Elf64_Off)i * sizeof(ph))) ==
            (ssize_t)sizeof(ph) &&
        ph.p_type == PT_INTERP)
      interp = 1;
  close(fd);
  return !interp;
}

const char *tune_untimed_reason(const char *program)
{
  return program && static_elf(program)
           ? "a statically linked program: libomp_ext cannot be preloaded"
           : "no parallel region ran, or the program's OpenMP runtime started no hook";
}
