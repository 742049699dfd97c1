/*
 * htplaces check --runtime NAME|both: what each real runtime (NAME: one
 * that omp_ext predicts, omp_ext_runtime_name(); both: every one)
 * builds from the value (omp_ext_places_predict(), omp_ext/lib/private/tools_predict.h):
 * its places in its own order, or that it ignores the value, falls back to
 * cores, disables affinity or crashes, and why; and whether they differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "findings.h"
#include "htplaces.h"

/* Every runtime omp_ext predicts, as a mask of 1 << omp_ext_runtime_t. */
static int all_runtimes(void)
{
  return (1 << OMP_EXT_NRUNTIMES) - 1;
}

int htp_parse_runtimes(const char *text, int *mask)
{
  char allowed[256] = "";
  unsigned r;
  size_t n = 0;
  for (r = 0; r < OMP_EXT_NRUNTIMES; r++)
    if (strcmp(text, omp_ext_runtime_name((omp_ext_runtime_t)r)) == 0) {
      *mask = 1 << r;
      return HTP_EXIT_OK;
    }
  if (strcmp(text, "both") == 0) {
    *mask = all_runtimes();
    return HTP_EXIT_OK;
  }
  for (r = 0; r < OMP_EXT_NRUNTIMES && n < sizeof(allowed); r++)
    n += (size_t)snprintf(allowed + n, sizeof(allowed) - n, "%s, ",
                          omp_ext_runtime_name((omp_ext_runtime_t)r));
  return htp_error(HTP_EXIT_USAGE, "unknown --runtime '%s'; allowed: %sboth", text, allowed);
}

static const char *outcome_text(omp_ext_outcome_t o)
{
  switch (o) {
  case omp_ext_outcome_places: return "places";
  case omp_ext_outcome_ignored: return "ignored";
  case omp_ext_outcome_fallback: return "fallback";
  case omp_ext_outcome_disabled: return "disabled";
  case omp_ext_outcome_crash: return "crash";
  }
  return "?";
}

static const char *outcome_sentence(omp_ext_outcome_t o)
{
  switch (o) {
  case omp_ext_outcome_places: return "builds";
  case omp_ext_outcome_ignored:
    return "ignores the value: no place list, threads not bound by places (with OMP_PROC_BIND set: "
           "one place per allowed CPU)";
  case omp_ext_outcome_fallback: return "rejects the value and builds places of its own instead";
  case omp_ext_outcome_disabled: return "disables affinity: one place of all allowed CPUs";
  case omp_ext_outcome_crash: return "crashes or aborts on this value";
  }
  return "?";
}

struct predicted {
  omp_ext_prediction_t pred;
  char *places; /* canonical text, "" for none */
  int done;
  struct htp_view view; /* how the runtime sees this machine, where it differs */
};

static int predict(const omp_ext_topo_t *topo, const char *value, omp_ext_syntax_t syntax,
                   omp_ext_runtime_t rt, struct predicted *p)
{
  int err = omp_ext_places_predict(topo, value, syntax, rt, &p->pred);
  if (err == omp_ext_err_parse)
    return htp_error(HTP_EXIT_USAGE, "cannot predict %s for '%s': %s",
                     omp_ext_runtime_name(rt), value,
                     syntax == omp_ext_syntax_kmp
                         ? "beyond omp_ext's limits, or a KMP_AFFINITY type or granularity "
                           "other than explicit and fine, thread, core, socket or package"
                         : "beyond omp_ext's limits");
  if (err)
    return htp_error(HTP_EXIT_FAIL, "%s", omp_ext_strerror(err));
  p->done = 1;
  if (p->pred.list->nplaces == 0)
    p->places = strdup("");
  else if (omp_ext_placelist_canonical(p->pred.list, &p->places) != 0)
    p->places = NULL;
  return p->places ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "out of memory");
}

void htp_print_prediction(FILE *out, const omp_ext_prediction_t *pred)
{
  char *places = NULL;
  fprintf(out, "%s: %s", omp_ext_runtime_name(pred->runtime), outcome_sentence(pred->outcome));
  if (pred->outcome == omp_ext_outcome_places || pred->outcome == omp_ext_outcome_fallback ||
      pred->outcome == omp_ext_outcome_disabled) {
    if (pred->list->nplaces && omp_ext_placelist_canonical(pred->list, &places) != 0)
      places = NULL;
    fprintf(out, "%s%u place%s: %s", pred->outcome == omp_ext_outcome_places ? " " : "; ",
            pred->list->nplaces, pred->list->nplaces == 1 ? "" : "s", places ? places : "");
    free(places);
  }
  if (pred->why)
    fprintf(out, " (%s)", pred->why);
}

static void print_text(FILE *out, const struct predicted *p, int differ, int both)
{
  unsigned r;
  for (r = 0; r < OMP_EXT_NRUNTIMES; r++) {
    if (!p[r].done)
      continue;
    htp_print_prediction(out, &p[r].pred);
    fputc('\n', out);
    if (p[r].view.name)
      htp_print_view(out, &p[r].view);
  }
  if (both)
    fprintf(out, "%s\n", differ ? "the two runtimes build different place lists from this value"
                                : "both runtimes build the same place list");
}

/* {"name": ..., "runtime_places": ..., "predicted": ...} or null. */
static void print_view_json(FILE *out, const struct htp_view *v)
{
  if (!v->name) {
    fputs("null", out);
    return;
  }
  fprintf(out, "{\"name\": \"%s\", \"runtime_places\": ", v->name);
  omp_ext_json_string(out, v->real);
  fputs(", \"predicted\": ", out);
  omp_ext_json_string(out, v->predicted);
  fputc('}', out);
}

static void print_json(FILE *out, const char *value, const struct predicted *p, int differ,
                       int both)
{
  unsigned r, first = 1;
  fputs("{\"command\": \"check\", \"value\": ", out);
  omp_ext_json_string(out, value);
  fputs(", \"runtimes\": [", out);
  for (r = 0; r < OMP_EXT_NRUNTIMES; r++) {
    if (!p[r].done)
      continue;
    fprintf(out, "%s{\"runtime\": \"%s\", \"outcome\": \"%s\", \"places\": ", first ? "" : ", ",
            omp_ext_runtime_name((omp_ext_runtime_t)r), outcome_text(p[r].pred.outcome));
    omp_ext_json_string(out, p[r].places);
    fprintf(out, ", \"changed\": %s, \"why\": ", p[r].pred.changed ? "true" : "false");
    if (p[r].pred.why)
      omp_ext_json_string(out, p[r].pred.why);
    else
      fputs("null", out);
    fputs(", \"view\": ", out);
    print_view_json(out, &p[r].view);
    fputc('}', out);
    first = 0;
  }
  fputs("]", out);
  if (both)
    fprintf(out, ", \"differ\": %s", differ ? "true" : "false");
  fputs("}\n", out);
}

/* Do the predictions done differ (outcome or places)? */
static int differ_any(const struct predicted *p)
{
  const struct predicted *first = NULL;
  unsigned r;
  for (r = 0; r < OMP_EXT_NRUNTIMES; r++) {
    if (!p[r].done)
      continue;
    if (first && (first->pred.outcome != p[r].pred.outcome || strcmp(first->places, p[r].places)))
      return 1;
    if (!first)
      first = &p[r];
  }
  return 0;
}

/* The first runtime of mask. */
static unsigned first_runtime(int mask)
{
  unsigned r = 0;
  while (r + 1 < OMP_EXT_NRUNTIMES && !(mask & (1 << r)))
    r++;
  return r;
}

int htp_check_runtimes(const omp_ext_topo_t *topo, const char *value, omp_ext_syntax_t syntax,
                       int mask, int expand, int json)
{
  struct predicted p[OMP_EXT_NRUNTIMES];
  int status = HTP_EXIT_OK, both = (mask & (mask - 1)) != 0, differ = 0, problem = 0;
  unsigned r;
  memset(p, 0, sizeof(p));
  if (expand && both)
    return htp_error(HTP_EXIT_USAGE, "--expand prints one runtime's list: give --runtime "
                     "NAME, not both");
  for (r = 0; r < OMP_EXT_NRUNTIMES && !status; r++)
    if (mask & (1 << r))
      status = predict(topo, value, syntax, (omp_ext_runtime_t)r, &p[r]);
  if (!status) {
    for (r = 0; r < OMP_EXT_NRUNTIMES; r++)
      problem |= p[r].done && p[r].pred.changed;
    differ = both && differ_any(p);
    for (r = 0; r < OMP_EXT_NRUNTIMES && !expand; r++)
      if (p[r].done)
        htp_runtime_view(topo, (omp_ext_runtime_t)r, &p[r].view);
    if (expand) {
      const struct predicted *q = &p[first_runtime(mask)];
      status = q->pred.outcome == omp_ext_outcome_places
                 ? htp_print(q->places)
                 : htp_error(HTP_EXIT_FAIL, "%s %s", omp_ext_runtime_name(q->pred.runtime),
                             outcome_sentence(q->pred.outcome));
    } else {
      if (json)
        print_json(stdout, value, p, differ, both);
      else
        print_text(stdout, p, differ, both);
      status = fflush(stdout) != 0 || ferror(stdout)
                 ? htp_error(HTP_EXIT_FAIL, "cannot write output")
                 : (problem || differ) ? HTP_EXIT_FAIL : HTP_EXIT_OK;
    }
  }
  for (r = 0; r < OMP_EXT_NRUNTIMES; r++) {
    if (p[r].done)
      omp_ext_prediction_clear(&p[r].pred);
    htp_view_clear(&p[r].view);
    free(p[r].places);
  }
  return status;
}
