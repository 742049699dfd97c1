/*
 * htplaces tune: per-region figures.  Each run is made with
 * OMP_EXT_TIMING=DIR/timing.%p.json and libomp_ext preloaded (LD_PRELOAD:
 * the GOMP wrappers under libgomp, the OMPT tool under libomp/libiomp5), so
 * the timing layer (include/omp_ext/timing.h) writes, at exit, one JSON
 * file per process that recorded something: the program itself behind a
 * wrapper script, `timeout` or GNU time, and its forked children.  This
 * file reads all of a run's files (cJSON), checks the bindings they
 * record against the configuration's places, and keeps, per configuration
 * and region, the total seconds of every run.
 *
 * A region is keyed by its code address, "MODULE+0xOFFSET", never by its
 * name (two constructs on one line are two regions), found by key through a
 * hash index (thousands of regions per run), and keeps where it is (struct
 * tune_site) for tune_names.c, which names every region once after the
 * runs.  Where more than one process of a run recorded regions, key and
 * name start with the process's program ("app: ", "app#2: " for its second
 * process by start time).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <glob.h>
#include <hwloc.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stddef.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tune_int.h"
#include "private/util.h"

static const char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static const cJSON *get(const cJSON *o, const char *key)
{
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str_of(const cJSON *o, const char *key)
{
  return cJSON_GetStringValue(get(o, key));
}

/* The first element of an array (NULL: none, or not an array). */
static const cJSON *first(const cJSON *a)
{
  return cJSON_IsArray(a) ? a->child : NULL;
}

/* Is v a JSON number with an integer value (no fraction; at most 2^53,
 * where a double still holds every integer)? */
static int is_integer(const cJSON *v)
{
  return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
         fabs(v->valuedouble) <= 9007199254740992.0;
}

/* v's integer value, -1 when it has none. */
static long long int_of(const cJSON *v)
{
  return is_integer(v) ? (long long)v->valuedouble : -1;
}

/* An offset "0x1a2c" (0: none or malformed). */
static unsigned long offset_of(const char *text)
{
  char *end;
  unsigned long v;
  if (!text || strncmp(text, "0x", 2) != 0)
    return 0;
  v = strtoul(text + 2, &end, 16);
  return *end ? 0 : v;
}

/* Where parallel region \p reg is (malloc'd), for the process labelled
 * \p label ("" when it is the run's only one) running \p program; NULL
 * for a named measurement, a region without module, or out of memory. */
static struct tune_site *site_of(const cJSON *reg, const char *program, const char *label)
{
  const char *module = str_of(reg, "module"), *kind = str_of(reg, "kind"),
             *om = str_of(reg, "outlined_module");
  struct tune_site *s;
  if (!module || (kind && strcmp(kind, "timer") == 0) || !(s = calloc(1, sizeof(*s))))
    return NULL;
  s->offset = offset_of(str_of(reg, "offset"));
  s->outlined = offset_of(str_of(reg, "outlined_offset"));
  s->shared = program ? strcmp(module, program) != 0 : strstr(base_name(module), ".so") != NULL;
  if (!(s->module = strdup(module)) || (om && !(s->outlined_module = strdup(om))) ||
      (*label && !(s->label = strdup(label)))) {
    tune_free_site(s);
    return NULL;
  }
  return s;
}

void tune_free_site(struct tune_site *s)
{
  if (!s)
    return;
  free(s->module);
  free(s->outlined_module);
  free(s->label);
  free(s);
}

/* Region \p reg's key, for the process labelled \p label ("" when it is
 * the run's only one), into *key (a buffer reused, grown as needed), and
 * its first name: the timing file's (tune names it after the runs,
 * tune_name_regions).  0 or -1. */
static int region_key(const cJSON *reg, const char *label, char **key, size_t *cap,
                      const char **name)
{
  const char *module = str_of(reg, "module"), *offset = str_of(reg, "offset"),
             *kind = str_of(reg, "kind");
  int k;
  if (!(*name = str_of(reg, "name")))
    return -1;
  if (kind && strcmp(kind, "timer") == 0)
    module = offset = NULL;
  for (;;) {
    if (module && offset)
      k = snprintf(*key, *cap, "%s%s%s+%s", label, *label ? ": " : "", module, offset);
    else /* (a named measurement, or no module: the timing file's name, as unique as it is) */
      k = snprintf(*key, *cap, "%s%sname:%s", label, *label ? ": " : "", *name);
    if (k >= 0 && (size_t)k < *cap)
      return 0;
    if (k < 0 || !(*key = realloc(*key, *cap = (size_t)k + 64)))
      return -1;
  }
}

/* The first name of a region: "LABEL: NAME" or NAME (malloc'd). */
static char *first_name(const char *label, const char *name)
{
  char *out;
  return asprintf(&out, "%s%s%s", label, *label ? ": " : "", name) < 0 ? NULL : out;
}

/* Is the CPU set exactly {pu}? */
static int only_pu(hwloc_const_bitmap_t set, unsigned pu)
{
  return hwloc_bitmap_weight(set) == 1 && hwloc_bitmap_first(set) == (int)pu;
}

/* The binding check of one region object (see tune_check_binding). */
static int check_region(const cJSON *reg, const struct tune_config *c, const char *program,
                        char *why, size_t len)
{
  const cJSON *binds = get(reg, "bindings"), *b, *th;
  hwloc_bitmap_t set;
  size_t t;
  int bad = 0;
  if (!c->place_pu || !cJSON_IsArray(binds) || !(set = hwloc_bitmap_alloc()))
    return 0;
  cJSON_ArrayForEach(b, binds) {
    unsigned team = (unsigned)int_of(get(b, "team")), place;
    for (th = first(get(b, "threads")), t = 0; th; th = th->next, t++) {
      const char *cpus = str_of(th, "cpus");
      const cJSON *pj = get(th, "pu");
      long pu = (long)int_of(pj);
      int have, place_ok = 0;
      if (!cJSON_IsObject(th))
        continue; /* null: the thread did not take part */
      if (!cpus || omp_ext_parse_cpulist(cpus, OMP_EXT_CPULIST_ANY, set, NULL) != OMP_EXT_UINT_OK) {
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
        char placetext[32] = "any of its places", *named;
        struct tune_site *site = site_of(reg, program, "");
        const char *name = str_of(reg, "name");
        if (team <= c->threads && t < c->threads)
          snprintf(placetext, sizeof(placetext), "its place {%u}", c->place_pu[t]);
        named = tune_site_name(site); /* (one region: its own addr2line) */
        snprintf(why, len, "thread %u of %s (team of %u) ran on PU %ld bound to {%s}, not on %s",
                 (unsigned)t, named ? named : name ? name : "?", team, pu, cpus, placetext);
        free(named);
        tune_free_site(site);
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
  cJSON *reg = cJSON_Parse(region);
  int bad = cJSON_IsObject(reg) ? check_region(reg, c, NULL, why, len) : 0;
  cJSON_Delete(reg);
  return bad;
}

/* Under "none" (no places): did the program bind its own threads?  Any
 * recorded thread whose CPU set is not the whole set the run started with
 * (tune's own: the program inherits it). */
static int self_bound(const cJSON *regions)
{
  const cJSON *reg, *b, *th;
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
  cJSON_ArrayForEach(reg, regions)
    cJSON_ArrayForEach(b, get(reg, "bindings"))
      cJSON_ArrayForEach(th, get(b, "threads")) {
        const char *cpus = str_of(th, "cpus");
        if (cpus && *cpus && omp_ext_parse_cpulist(cpus, OMP_EXT_CPULIST_ANY, set, NULL) == OMP_EXT_UINT_OK &&
            !hwloc_bitmap_isequal(set, own))
          bound = 1;
      }
  hwloc_bitmap_free(set), hwloc_bitmap_free(own);
  return bound;
}

/* A configuration's regions by key: open addressing, linear probing; a
 * slot holds a region's index + 1 (0: empty), at most half of them full. */
struct tune_region_index {
  unsigned *slot;
  size_t cap;    /* a power of two */
  unsigned room; /* regions the array has room for */
};

static size_t hash_key(const char *key, size_t cap)
{
  unsigned long long h = 14695981039346656037ULL; /* FNV-1a */
  for (; *key; key++)
    h = (h ^ (unsigned char)*key) * 1099511628211ULL;
  return (size_t)h & (cap - 1);
}

/* The slot of key: its region's, or the empty one where it would go. */
static size_t probe(const struct tune_config *c, const char *key)
{
  const struct tune_region_index *x = c->index;
  size_t i = hash_key(key, x->cap);
  while (x->slot[i] && strcmp(c->regions[x->slot[i] - 1].key, key) != 0)
    i = (i + 1) & (x->cap - 1);
  return i;
}

/* Room for one more region in the index (rebuilt twice as large). 0, -1. */
static int index_room(struct tune_config *c)
{
  struct tune_region_index *x = c->index;
  unsigned *slot, k;
  size_t cap;
  if (x && (size_t)(c->nregions + 1) * 2 <= x->cap)
    return 0;
  if (!x && !(x = c->index = calloc(1, sizeof(*x))))
    return -1;
  for (cap = x->cap ? x->cap * 2 : 64; cap < (size_t)(c->nregions + 1) * 2;)
    cap *= 2;
  if (!(slot = calloc(cap, sizeof(*slot))))
    return -1;
  free(x->slot);
  x->slot = slot, x->cap = cap;
  for (k = 0; k < c->nregions; k++)
    x->slot[probe(c, c->regions[k].key)] = k + 1;
  return 0;
}

/* The region of key in c, or a new one (its key and first name copied,
 * the site of \p reg kept for its name); NULL when out of memory. */
static struct tune_region *find_or_add(struct tune_config *c, const char *key, const char *name,
                                       const cJSON *reg, const char *program, const char *label)
{
  struct tune_region *more, *r;
  size_t at;
  if (index_room(c) != 0)
    return NULL;
  if (c->index->slot[at = probe(c, key)])
    return &c->regions[c->index->slot[at] - 1];
  if (c->nregions >= c->index->room) { /* (room for twice as many: no copy per region) */
    unsigned room = c->index->room ? 2 * c->index->room : 16;
    if (!(more = realloc(c->regions, room * sizeof(*more))))
      return NULL;
    c->regions = more;
    c->index->room = room;
  }
  r = &c->regions[c->nregions];
  memset(r, 0, sizeof(*r));
  if (!(r->key = strdup(key)) || !(r->name = first_name(label, name))) {
    free(r->key), free(r->name);
    return NULL;
  }
  r->site = site_of(reg, program, label);
  r->timer = str_of(reg, "kind") && strcmp(str_of(reg, "kind"), "timer") == 0;
  c->index->slot[at] = c->nregions + 1;
  c->nregions++;
  return r;
}

/* Run \p round1 - 1's round kept beside its total (0: not known: the
 * region's rounds are then not used). */
static int add_round(struct tune_region *r, unsigned room, int grew, unsigned round1)
{
  if (r->no_rounds || round1 == 0) {
    free(r->round);
    r->round = NULL, r->no_rounds = 1;
    return 0;
  }
  if (grew || !r->round) {
    unsigned *more = realloc(r->round, room * sizeof(*more));
    if (!more)
      return -1;
    r->round = more;
  }
  r->round[r->nruns] = round1 - 1;
  return 0;
}

static int add_total(struct tune_region *r, double total, double median,
                     unsigned long instances, unsigned team_max, unsigned round1)
{
  int grew = r->nruns == r->runs_room;
  if (grew) { /* room for 4, 8, 16 ... runs: no realloc a run */
    unsigned room = r->runs_room ? 2 * r->runs_room : 4;
    double *more = realloc(r->total_s, room * sizeof(*more)), *med;
    if (!more)
      return -1;
    r->total_s = more;
    if (!(med = realloc(r->median_s, room * sizeof(*med))))
      return -1;
    r->median_s = med;
    r->runs_room = room;
  }
  if (add_round(r, r->runs_room, grew, round1) != 0)
    return -1;
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
static int keep_control(struct tune_region *r, const cJSON *control)
{
  const char *config = cJSON_GetStringValue(get(control, "config"));
  char *text;
  if (!config)
    return 0;
  if (asprintf(&text, "%s%s", config,
               cJSON_IsFalse(get(control, "settled")) ? " exploring" : "") < 0)
    return -1;
  free(r->control);
  r->control = text;
  return 0;
}

/* The largest team size of a region: the last of "team_sizes" (ascending). */
static unsigned team_max_of(const cJSON *reg)
{
  const cJSON *sizes = get(reg, "team_sizes");
  const cJSON *last = NULL, *v;
  cJSON_ArrayForEach(v, sizes)
    last = v;
  return last ? (unsigned)int_of(last) : 0;
}

/* One process's file of a run. */
struct proc {
  cJSON *root;
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

/* cJSON's allocations while a run's files are read: bump allocation in
 * blocks of 1 MB, nothing freed one by one, the blocks kept for the next
 * run (a 5000-region file is about 150,000 small objects; fresh blocks
 * each run would cost as much in page faults).  cJSON's hooks are
 * process-wide: it is set
 * for tune_read_timing's duration only (tune reads from one thread), and
 * the blocks go with tune_read_timing_done().  The blocks are mapped
 * MADV_DONTFORK: each run forks tune, and a fork write-protects every page
 * the child shares, so the next run's reuse of 25 MB of blocks took a
 * copy-on-write fault per page (6,300 a run, the bulk of reading a
 * 5000-region file on a VM); the child execs at once and never needs them. */
struct arena_block {
  struct arena_block *next;
  size_t used, size; /* in max_align_t units */
  max_align_t data[];
};
static struct arena_block *arena, *spare; /* in use; free for the next run */
static char *read_buf; /* load_file's, kept for the next run */
static size_t read_cap;

static void *arena_malloc(size_t size)
{
  struct arena_block *b = arena;
  size_t need = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t), words;
  if (!b || b->used + need > b->size) {
    if (spare && spare->size >= need) {
      b = spare;
      spare = b->next;
    } else {
      size_t bytes;
      void *m;
      words = (1 << 20) / sizeof(max_align_t);
      if (need > words)
        words = need;
      bytes = sizeof(*b) + words * sizeof(max_align_t);
      m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED)
        return NULL;
      (void)madvise(m, bytes, MADV_DONTFORK); /* (an optimisation: may fail) */
      b = m;
      b->size = words;
    }
    b->used = 0;
    b->next = arena;
    arena = b;
  }
  b->used += need;
  return b->data + (b->used - need);
}

static void arena_free(void *p)
{
  (void)p; /* (the whole arena is reused after the run's files) */
}

static cJSON_Hooks arena_hooks = {arena_malloc, arena_free};

/* cJSON back on malloc and free; the blocks kept for the next run. */
static void arena_end(void)
{
  cJSON_InitHooks(NULL);
  while (arena) {
    struct arena_block *next = arena->next;
    arena->next = spare;
    spare = arena;
    arena = next;
  }
}

void tune_read_timing_done(void)
{
  if (read_buf)
    munmap(read_buf, read_cap);
  read_buf = NULL, read_cap = 0;
  while (spare) {
    struct arena_block *next = spare->next;
    munmap(spare, sizeof(*spare) + spare->size * sizeof(max_align_t));
    spare = next;
  }
}

/* A JSON file read whole, then parsed (cJSON: a 2 MB file of 5000 regions
 * in about 10 ms, where jansson took 50); NULL when unreadable, not a
 * regular file or not JSON. */
static cJSON *load_file(const char *path)
{
  struct stat st;
  size_t got = 0;
  ssize_t r = 1;
  void *m;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  if ((size_t)st.st_size >= read_cap) { /* the run's buffer: as the arena's blocks */
    size_t cap = ((size_t)st.st_size + 1 + 4095) & ~(size_t)4095; /* (+ its '\0') */
    if ((m = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) ==
        MAP_FAILED) {
      close(fd);
      return NULL;
    }
    (void)madvise(m, cap, MADV_DONTFORK);
    if (read_buf)
      munmap(read_buf, read_cap);
    read_buf = m, read_cap = cap;
  }
  while (got < (size_t)st.st_size && (r = read(fd, read_buf + got, (size_t)st.st_size - got)) > 0)
    got += (size_t)r;
  close(fd);
  if (r <= 0)
    return NULL;
  read_buf[got] = '\0'; /* (cJSON: the length counts the '\0' that must end the text) */
  return cJSON_ParseWithLengthOpts(read_buf, got + 1, NULL, 1);
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
    cJSON *root = load_file(g.gl_pathv[i]);
    const cJSON *v = get(root, "omp_ext_timing");
    if (int_of(v) != 1 ||
        !cJSON_IsArray(get(root, "regions"))) {
      cJSON_Delete(root);
      continue;
    }
    ok = 1;
    if (!first(get(root, "regions"))) {
      cJSON_Delete(root);
      continue;
    }
    (*procs)[*n].root = root;
    (*procs)[*n].program = str_of(root, "program");
    (*procs)[*n].started = cJSON_GetNumberValue(get(root, "started_s"));
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
    cJSON_Delete(procs[k].root);
  free(procs);
}

int tune_read_timing(const char *path, struct tune_config *c, double *serial_s, char *invalid,
                     size_t len)
{
  struct proc *procs;
  unsigned n, k;
  size_t cap = 256;
  const cJSON *reg;
  char *key;
  int err;
  *serial_s = NAN;
  invalid[0] = '\0';
  cJSON_InitHooks(&arena_hooks);
  if (read_procs(path, &procs, &n) != 0) {
    free_procs(procs, n);
    arena_end();
    return -1;
  }
  for (k = 0; k < n; k++) /* first: were the threads where intended? */
    cJSON_ArrayForEach(reg, get(procs[k].root, "regions"))
      if (check_region(reg, c, procs[k].program, invalid, len)) {
        free_procs(procs, n);
        arena_end();
        return 1;
      }
  err = !(key = malloc(cap));
  /* the serial part: the first process's (the program, or its parent) */
  *serial_s = n ? cJSON_GetNumberValue(get(procs[0].root, "serial_s")) : 0;
  for (k = 0; k < n && !err; k++) {
    if (c->policy == TUNE_NONE && self_bound(get(procs[k].root, "regions")))
      c->self_bound = 1;
    cJSON_ArrayForEach(reg, get(procs[k].root, "regions")) {
      const cJSON *total = get(reg, "total_s"), *inst = get(reg, "instances"),
                   *median = get(reg, "median_s");
      struct tune_region *r;
      const char *name;
      if (region_key(reg, procs[k].label, &key, &cap, &name) != 0)
        continue; /* (a region without a name) */
      r = find_or_add(c, key, name, reg, procs[k].program, procs[k].label);
      err = !r || !cJSON_IsNumber(total) || !is_integer(inst) || !cJSON_IsNumber(median) ||
            add_total(r, total->valuedouble, median->valuedouble,
                      (unsigned long)int_of(inst), team_max_of(reg), c->reading_round);
      if (!err && TUNE_IS_AUTO(c))
        err = keep_control(r, get(reg, "control"));
      if (err)
        break;
    }
  }
  free_procs(procs, n);
  free(key);
  arena_end();
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
    tune_free_site(c->regions[i].site);
    free(c->regions[i].total_s);
    free(c->regions[i].median_s);
    free(c->regions[i].round);
    free(c->regions[i].control);
  }
  free(c->regions);
  free(c->serial_s);
  if (c->index)
    free(c->index->slot);
  free(c->index);
  c->index = NULL;
  c->regions = NULL;
  c->serial_s = NULL;
  c->nregions = c->nserial = 0;
}

/* Is PROGRAM (searched as execvp does) a statically linked ELF file: ELF,
 * no PT_INTERP?  1 yes, 0 no or unknown (a script, not found). */
static int static_elf(const char *program)
{
  char buf[4096];
  Elf64_Ehdr eh;
  Elf64_Phdr ph;
  int fd = sweep_which(program, buf, sizeof(buf)) == 0 ? open(buf, O_RDONLY | O_CLOEXEC) : -1;
  int interp = 0, i;
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
