/*
 * htplaces exec --plan DIR|FILE -- PROG [ARGS]: run PROG with the per-region
 * configurations of `htplaces tune --out DIR` (DIR/results.json, read with
 * jansson).  Each region tune names by module and offset gets the
 * configuration where it was fastest ("summary"."regions"[]."best"), every
 * other region the recommended global one ("recommendation"."best").  The
 * plan goes to libomp_ext (preloaded: the program needs no change) in the
 * line format of omp_ext/plan.c, through an anonymous file (memfd) that PROG
 * inherits: OMP_EXT_PLAN=/proc/self/fd/N.  A plan measured on a machine of
 * another shape (PUs, cores, packages, SMT) is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "htplaces.h"


static int machine_matches(struct htp_ctx *ctx, json_t *m, const char *path)
{
  static const char *const keys[] = {"pus", "cores", "packages", "max_smt"};
  unsigned here[4], i;
  json_int_t v[4];
  int status;
  omp_ext_topo_t *topo = htp_topo(ctx, &status);
  if (!topo)
    return status;
  here[0] = omp_ext_topo_npus(topo), here[1] = omp_ext_topo_ncores(topo);
  here[2] = omp_ext_topo_npackages(topo), here[3] = omp_ext_topo_max_smt(topo);
  for (i = 0; i < 4; i++) {
    json_t *k = json_object_get(m, keys[i]);
    if (!json_is_integer(k))
      return htp_error(HTP_EXIT_USAGE, "plan %s: \"machine\".\"%s\" missing; expected htplaces "
                       "tune's results.json", path, keys[i]);
    v[i] = json_integer_value(k);
  }
  for (i = 0; i < 4; i++)
    if (v[i] != (json_int_t)here[i])
      return htp_error(HTP_EXIT_USAGE, "plan %s was made on another machine (%lld PUs, %lld "
                       "cores, %lld packages, SMT %lld; here %u, %u, %u, %u): run htplaces "
                       "tune here", path, (long long)v[0], (long long)v[1], (long long)v[2],
                       (long long)v[3], here[0], here[1], here[2], here[3]);
  return HTP_EXIT_OK;
}

/* "THREADS PLACES" of configuration \p i; its threads 1 .. \p npus (the
 * plan's machine's PUs, which are this machine's). */
static int config_text(json_t *configs, json_int_t i, json_int_t npus, const char *path,
                       char **out)
{
  json_t *c = json_array_get(configs, (size_t)i), *pl;
  json_int_t threads;
  const char *policy;
  if (!json_is_object(c) || !json_is_integer(json_object_get(c, "threads")) ||
      !(policy = json_string_value(json_object_get(c, "policy"))))
    return htp_error(HTP_EXIT_USAGE, "plan %s: configuration %lld missing or without "
                     "\"policy\"/\"threads\"", path, (long long)i);
  threads = json_integer_value(json_object_get(c, "threads"));
  pl = json_object_get(c, "omp_places");
  if (threads < 1 || threads > npus || (!json_is_string(pl) && !json_is_null(pl) && pl))
    return htp_error(HTP_EXIT_USAGE, "plan %s: configuration %lld has invalid \"threads\" "
                     "(%lld; allowed: 1..%lld, the machine's PUs) or \"omp_places\"", path,
                     (long long)i, (long long)threads, (long long)npus);
  if (asprintf(out, "%lld %s", (long long)threads, json_is_string(pl) ? json_string_value(pl) : "-") < 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  return HTP_EXIT_OK;
}

/* \p module for a plan line: '%', blanks and control characters as %XX
 * (the line's fields are blank-separated; plan.c decodes). */
static void put_module(FILE *f, const char *module)
{
  const unsigned char *c;
  for (c = (const unsigned char *)module; *c; c++)
    if (*c <= ' ' || *c == '%' || *c == 0x7f)
      fprintf(f, "%%%02X", *c);
    else
      fputc(*c, f);
}

/* The plan's lines into \p f. */
static int write_plan(FILE *f, json_t *root, const char *path, unsigned *nregions)
{
  json_t *configs = json_object_get(root, "configurations"), *regions, *r, *best;
  json_int_t npus = json_integer_value(json_object_get(json_object_get(root, "machine"), "pus"));
  size_t i;
  char *text;
  int status;
  *nregions = 0;
  best = json_object_get(json_object_get(root, "recommendation"), "best");
  regions = json_object_get(json_object_get(root, "summary"), "regions");
  if (!json_is_array(configs) || !json_is_integer(best))
    return htp_error(HTP_EXIT_USAGE, "plan %s: no \"configurations\" or no recommended "
                     "\"best\"; expected htplaces tune's results.json", path);
  fputs("omp_ext_plan 1\n", f);
  if ((status = config_text(configs, json_integer_value(best), npus, path, &text)) != 0)
    return status;
  fprintf(f, "default %s\n", text);
  free(text);
  json_array_foreach(regions, i, r) {
    const char *module = json_string_value(json_object_get(r, "module"));
    const char *offset = json_string_value(json_object_get(r, "offset"));
    const char *base;
    json_t *b = json_object_get(r, "best");
    if (!module || !offset || !json_is_integer(b))
      continue; /* (a region tune could not name or rank) */
    base = strrchr(module, '/');
    if ((status = config_text(configs, json_integer_value(b), npus, path, &text)) != 0)
      return status;
    fputs("region ", f);
    put_module(f, base ? base + 1 : module);
    fprintf(f, " %s %s\n", offset, text);
    free(text);
    (*nregions)++;
  }
  return HTP_EXIT_OK;
}

int htp_exec_plan(struct htp_ctx *ctx, const char *plan, char **argv)
{
  struct stat st;
  char *file = NULL, lib[4096], env[64];
  json_error_t jerr;
  json_t *root;
  unsigned nregions;
  FILE *f;
  int fd, status;
  if (stat(plan, &st) != 0)
    return htp_error(HTP_EXIT_USAGE, "--plan %s: %s; give htplaces tune's --out folder or its "
                     "results.json", plan, strerror(errno));
  if (asprintf(&file, S_ISDIR(st.st_mode) ? "%s/results.json" : "%s", plan) < 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (stat(file, &st) != 0) { /* (a folder without tune's results.json) */
    status = htp_error(HTP_EXIT_USAGE, "--plan %s: %s; give htplaces tune's --out folder or "
                       "its results.json", file, strerror(errno));
    free(file);
    return status;
  }
  root = json_load_file(file, 0, &jerr);
  if (!root) {
    status = jerr.line > 0
           ? htp_error(HTP_EXIT_USAGE, "--plan %s: line %d: %s", file, jerr.line, jerr.text)
           : htp_error(HTP_EXIT_USAGE, "--plan %s: %s", file, jerr.text);
    free(file);
    return status;
  }
  status = machine_matches(ctx, json_object_get(root, "machine"), file);
  if (!status && !htp_find_libomp_ext(lib, sizeof(lib)))
    status = htp_error(HTP_EXIT_FAIL, "libomp_ext.so not found beside htplaces");
  if (!status)
    status = htp_preload_path_error(lib, HTP_EXIT_FAIL);
  if (!status && ((fd = memfd_create("omp_ext_plan", 0)) < 0 || !(f = fdopen(fd, "w"))))
    status = htp_error(HTP_EXIT_FAIL, "cannot make the plan file: %s", strerror(errno));
  if (!status) {
    status = write_plan(f, root, file, &nregions);
    if (fflush(f) != 0 && !status)
      status = htp_error(HTP_EXIT_FAIL, "cannot write the plan: %s", strerror(errno));
  }
  json_decref(root);
  free(file);
  if (status)
    return status;
  snprintf(env, sizeof(env), "/proc/self/fd/%d", fd);
  return htp_exec_preloaded("OMP_EXT_PLAN", env, argv);
}
