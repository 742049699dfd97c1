/*
 * The plan of per-region configurations (OMP_EXT_PLAN=FILE), as
 * `htplaces exec --plan` writes it from `htplaces tune`'s answer.  A small
 * line format, so that the library needs no JSON reader:
 *
 *   omp_ext_plan 1
 *   default THREADS PLACES
 *   region MODULE OFFSET THREADS PLACES
 *   ...
 *
 * MODULE: the file name (no folder) of the executable or shared object
 * holding the region, '%', blanks and control characters written %XX (hex); OFFSET: the region's code address in it, hex "0x..."
 * (the timing file's "offset"); THREADS: the team size (0: the program's);
 * PLACES: an OMP_PLACES list of explicit places ("{0},{2}"; thread t runs
 * on place t modulo their number), or "-" for unbound.  "default" (at most
 * one) applies to the regions no "region" line names; without it they are
 * left alone.  Lines starting with '#' and empty lines are skipped.
 * Configurations are made (places cut to the allowed PUs) when a region
 * first needs them.  A process that ran regions of which the plan names
 * none (a plan made for another program, or another build of it) says so
 * at exit, once: its regions only got the plan's default.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "omp_ext.h"
#include "region_int.h"
#include "util.h"

struct entry {
  char module[256]; /* "" for the default */
  unsigned long offset;
  unsigned threads;
  omp_ext_placelist_t *places; /* NULL: unbound */
  struct omp_ext_rcfg *cfg;    /* made at first use */
  int failed;                  /* its places are outside the allowed PUs */
  char label[48];
};

static struct entry *entries;
static unsigned nentries, nregion_lines;
static int plan_loaded;
static pid_t plan_pid; /* the process that read it (not a forked child) */
static unsigned long seen, named; /* regions looked up, and named by a line (atomic) */
static pthread_mutex_t plan_lock = PTHREAD_MUTEX_INITIALIZER;

int omp_ext_plan_on(void)
{
  return plan_loaded;
}

/* MODULE's %XX escapes decoded into \p out (\p len bytes); NULL, or why not. */
static const char *decode_module(const char *w, char *out, size_t len)
{
  size_t k = 0;
  unsigned v;
  for (; *w; w++) {
    if (*w == '%') {
      if (sscanf(w + 1, "%2x", &v) != 1 || !w[1] || !w[2] || v == 0)
        return "MODULE has a '%' not followed by two hex digits";
      w += 2;
    } else {
      v = (unsigned char)*w;
    }
    if (k + 1 >= len)
      return "MODULE must be a file name without a folder";
    out[k++] = (char)v;
  }
  out[k] = '\0';
  return strchr(out, '/') ? "MODULE must be a file name without a folder" : NULL;
}

/* One "default" or "region" line (\p words, \p n of them) into \p e. */
static const char *parse_entry(char **w, int n, struct entry *e, unsigned index)
{
  unsigned long long v;
  char *end;
  int k = 1;
  memset(e, 0, sizeof(*e));
  if (strcmp(w[0], "region") == 0) {
    if (n != 5)
      return "expected 'region MODULE OFFSET THREADS PLACES'";
    const char *why = decode_module(w[1], e->module, sizeof(e->module));
    if (why)
      return why;
    if (strncmp(w[2], "0x", 2) != 0 || !w[2][2] || (v = strtoull(w[2] + 2, &end, 16), *end))
      return "OFFSET must be hexadecimal, as 0x1a2c";
    e->offset = (unsigned long)v;
    k = 3;
    snprintf(e->label, sizeof(e->label), "plan:%u", index);
  } else if (strcmp(w[0], "default") == 0) {
    if (n != 3)
      return "expected 'default THREADS PLACES'";
    snprintf(e->label, sizeof(e->label), "plan:default");
  } else {
    return "expected 'default' or 'region'";
  }
  if (omp_ext_parse_uint(w[k], 0, 1 << 20, &v) != OMP_EXT_UINT_OK)
    return "THREADS must be a whole number (0: the program's)";
  e->threads = (unsigned)v;
  if (strcmp(w[k + 1], "-") != 0 &&
      omp_ext_places_parse(NULL, w[k + 1], omp_ext_syntax_omp, &e->places, NULL) != 0)
    return "PLACES must be an explicit OMP_PLACES list such as {0},{1}, or '-'";
  if (e->places && e->places->nplaces == 0)
    return "PLACES is empty";
  return NULL;
}

static void free_entries(void)
{
  unsigned i;
  for (i = 0; i < nentries; i++)
    omp_ext_placelist_destroy(entries[i].places);
  free(entries);
  entries = NULL, nentries = 0;
}

int omp_ext_plan_init(const char *path)
{
  FILE *f = fopen(path, "r");
  char line[65536], *w[8], *save, *tok;
  const char *why = NULL;
  unsigned lineno = 0, cap = 0, defaults = 0;
  int n, header = 0;
  if (!f) {
    fprintf(stderr, "omp_ext: OMP_EXT_PLAN: cannot read '%s': per-region control is off\n", path);
    return -1;
  }
  while (!why && fgets(line, sizeof(line), f)) {
    lineno++;
    if (!strchr(line, '\n') && !feof(f)) {
      why = "line too long";
      break;
    }
    for (n = 0, tok = strtok_r(line, " \t\r\n", &save); tok && n < 8;
         tok = strtok_r(NULL, " \t\r\n", &save))
      w[n++] = tok;
    if (n == 0 || w[0][0] == '#')
      continue;
    if (!header) {
      if (n != 2 || strcmp(w[0], "omp_ext_plan") != 0 || strcmp(w[1], "1") != 0)
        why = "the first line must be 'omp_ext_plan 1'";
      header = 1;
      continue;
    }
    if (nentries == cap) {
      struct entry *ne = realloc(entries, (cap = cap ? 2 * cap : 16) * sizeof(*ne));
      if (!ne) {
        why = "out of memory";
        break;
      }
      entries = ne;
    }
    if ((why = parse_entry(w, n, &entries[nentries], nentries)) == NULL) {
      defaults += entries[nentries].module[0] == '\0';
      nregion_lines += entries[nentries].module[0] != '\0';
      nentries++;
      if (defaults > 1)
        why = "more than one 'default' line";
    }
  }
  fclose(f);
  if (!why && !header)
    why = "empty file (expected 'omp_ext_plan 1' first)";
  if (why) {
    fprintf(stderr, "omp_ext: OMP_EXT_PLAN '%s' line %u: %s: per-region control is off\n", path,
            lineno, why);
    free_entries();
    return -1;
  }
  plan_loaded = 1;
  plan_pid = getpid();
  return 0;
}

/* At exit: regions ran, the plan names regions, and none of them ran. */
__attribute__((destructor)) static void plan_unmatched(void)
{
  unsigned long s = __atomic_load_n(&seen, __ATOMIC_RELAXED);
  if (!plan_loaded || !nregion_lines || !s || __atomic_load_n(&named, __ATOMIC_RELAXED) ||
      getpid() != plan_pid)
    return;
  fprintf(stderr, "omp_ext: OMP_EXT_PLAN: none of the plan's %u regions ran in this program "
          "(its %lu regions got the plan's default): a plan made for another program or "
          "build? run htplaces tune on this one\n", nregion_lines, s);
}

/* The configuration of entry \p e, made now if needed; NULL when its places
 * are outside the allowed PUs (said once). */
static const struct omp_ext_rcfg *config_of(struct entry *e)
{
  struct omp_ext_rcfg *c;
  pthread_mutex_lock(&plan_lock);
  if (!e->cfg && !e->failed) {
    c = omp_ext_rcfg_new(e->threads, e->places ? (hwloc_const_bitmap_t *)e->places->places : NULL,
                         e->places ? e->places->nplaces : 0, e->label);
    if (!c) {
      e->failed = 1;
      fprintf(stderr, "omp_ext: OMP_EXT_PLAN: %s has a place with no allowed PU (or no memory):"
              " those regions are left to the runtime\n", e->label);
    }
    e->cfg = c;
  }
  c = e->cfg;
  pthread_mutex_unlock(&plan_lock);
  return c;
}

const struct omp_ext_rcfg *omp_ext_plan_config(const char *module, unsigned long offset)
{
  struct entry *def = NULL;
  unsigned i;
  __atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED);
  for (i = 0; i < nentries; i++) {
    if (!entries[i].module[0]) {
      def = &entries[i];
    } else if (entries[i].offset == offset && strcmp(entries[i].module, module) == 0) {
      __atomic_add_fetch(&named, 1, __ATOMIC_RELAXED);
      return config_of(&entries[i]);
    }
  }
  return def ? config_of(def) : NULL;
}
