/*
 * htplaces tune: the plan -- which configurations (placement policy x
 * thread count x OMP_WAIT_POLICY) run.  The sweep engine runs them
 * (omp_ext/tools/sweep/sweep.h: each round in a seeded shuffled order).
 * And a configuration's words: its threads per rank, {N} and {PLACES} in
 * the program's and the launcher's arguments.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_int.h"
#include "private/util.h"

const char *tune_policy_name(int policy)
{
  return policy == TUNE_NONE ? "none" : omp_ext_policy_name((omp_ht_policy_t)policy);
}

const char *tune_wait_name(enum tune_wait w)
{
  static const char *const names[] = {"unset", "passive", "active"};
  return names[w];
}

const char *tune_objective_name(enum tune_objective o)
{
  static const char *const names[] = {"time", "energy", "spn", "edp"};
  return names[o];
}

/* "none, os, speedup, spn, spread, auto": what --policies takes, from the
 * policy table: none, the base policies, the run-time ones (not energy: a
 * recommendation, which tune measures). */
const char *tune_policy_names(void)
{
  static char names[256];
  size_t len = snprintf(names, sizeof(names), "none");
  unsigned i;
  for (i = 0; i < OMP_EXT_NPOLICIES_ALL && len < sizeof(names); i++)
    if (omp_ext_policy_is_base(htp_all_policies[i]) == 1 ||
        omp_ext_policy_has_order(htp_all_policies[i]) == 0)
      len += (size_t)snprintf(names + len, sizeof(names) - len, ", %s",
                              omp_ext_policy_name(htp_all_policies[i]));
  return names;
}

const char *htp_tune_default_policies(void)
{
  static char names[256];
  size_t len = 0;
  unsigned i;
  for (i = 0; i < OMP_EXT_NPOLICIES && len < sizeof(names); i++)
    if (omp_ext_policy_is_energy_candidate((omp_ht_policy_t)i) == 1)
      len += (size_t)snprintf(names + len, sizeof(names) - len, "%s,",
                              omp_ext_policy_name((omp_ht_policy_t)i));
  if (len < sizeof(names))
    snprintf(names + len, sizeof(names) - len, "none");
  return names;
}

/* Split a comma list in place; calls item(each) until one fails. */
static int each_item(const char *text, const char *what, int (*item)(const char *, void *),
                     void *arg)
{
  char *copy = strdup(text), *p, *save = NULL;
  int status = HTP_EXIT_OK, any = 0;
  if (!copy)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (!*text || text[strlen(text) - 1] == ',' || *text == ',' || strstr(text, ",,"))
    status = htp_error(HTP_EXIT_USAGE, "invalid --%s '%s': an empty item; give a comma list",
                       what, text);
  for (p = strtok_r(copy, ",", &save); !status && p; p = strtok_r(NULL, ",", &save), any = 1)
    status = item(p, arg);
  if (!status && !any)
    status = htp_error(HTP_EXIT_USAGE, "empty --%s; give a comma list", what);
  free(copy);
  return status;
}

struct collect {
  void *out;
  unsigned max, n, limit;
  const char *what, *limit_text; /* counts: "threads", " (the allowed PUs)" */
};

static int policy_item(const char *s, void *arg)
{
  struct collect *c = arg;
  omp_ht_policy_t p;
  int v, *out = c->out;
  unsigned i;
  if (strcmp(s, "none") == 0)
    v = TUNE_NONE;
  else if (omp_ext_policy_from_name(s, &p) == 0 && p == omp_ht_policy_auto)
    v = TUNE_AUTO; /* (run time: shown beside the others, never recommended) */
  else if (omp_ext_policy_from_name(s, &p) == 0 && p != omp_ht_policy_energy &&
           omp_ext_policy_has_order(p) == 1)
    v = (int)p;
  else
    return htp_error(HTP_EXIT_USAGE, "unknown policy '%s' in --policies; allowed: %s (energy "
                     "is a recommendation, not a placement: tune measures it)", s,
                     tune_policy_names());
  for (i = 0; i < c->n; i++)
    if (out[i] == v)
      return htp_error(HTP_EXIT_USAGE, "policy '%s' given twice in --policies", s);
  if (c->n == c->max)
    return htp_error(HTP_EXIT_USAGE, "too many --policies (at most %u)", c->max);
  out[c->n++] = v;
  return HTP_EXIT_OK;
}

int tune_parse_policies(const char *text, int *policies, unsigned max, unsigned *n)
{
  struct collect c = {policies, max, 0, 0, "policies", ""};
  int status = each_item(text, "policies", policy_item, &c);
  *n = c.n;
  if (!status && c.n == 1 && policies[0] == TUNE_AUTO)
    return htp_error(HTP_EXIT_USAGE, "--policies auto alone: auto is measured beside global "
                     "configurations, never recommended; add one, e.g. --policies spn,auto (to "
                     "run the program under auto: htplaces exec auto -- PROGRAM)");
  return status;
}

/* One item of --threads: a count N or a range LO-HI, within 1..limit (the
 * syntax of htbench --threads); a count already listed is kept once. */
static int thread_item(const char *s, void *arg)
{
  struct collect *c = arg;
  unsigned long long lo = 0, hi = 0, v;
  unsigned *out = c->out, i;
  const char *dash = strchr(s, '-');
  char first[32];
  int ok;
  if (dash && dash != s && (size_t)(dash - s) < sizeof(first)) {
    memcpy(first, s, (size_t)(dash - s));
    first[dash - s] = '\0';
    ok = omp_ext_parse_uint(first, 1, c->limit, &lo) == OMP_EXT_UINT_OK &&
         omp_ext_parse_uint(dash + 1, 1, c->limit, &hi) == OMP_EXT_UINT_OK && lo <= hi;
  } else {
    ok = !dash && omp_ext_parse_uint(s, 1, c->limit, &lo) == OMP_EXT_UINT_OK;
    hi = lo;
  }
  if (!ok)
    return htp_error(HTP_EXIT_USAGE, "invalid --%s item '%s': not a %.*s count or range LO-HI "
                     "within 1..%u%s", c->what, s, (int)strlen(c->what) - 1, c->what, c->limit,
                     c->limit_text);
  for (v = lo; v <= hi; v++) {
    for (i = 0; i < c->n && out[i] != v; i++)
      ;
    if (i < c->n)
      continue;
    if (c->n == c->max)
      return htp_error(HTP_EXIT_USAGE, "too many --%s (at most %u)", c->what, c->max);
    out[c->n++] = (unsigned)v;
  }
  return HTP_EXIT_OK;
}

int tune_parse_counts(const char *text, const char *what, unsigned limit, const char *limit_text,
                      unsigned *counts, unsigned max, unsigned *n)
{
  struct collect c = {counts, max, 0, limit, what, limit_text};
  int status = each_item(text, what, thread_item, &c);
  *n = c.n;
  return status;
}

int tune_parse_threads(const char *text, unsigned max_threads, unsigned *counts, unsigned max,
                       unsigned *n)
{
  return tune_parse_counts(text, "threads", max_threads, " (the allowed PUs)", counts, max, n);
}

static int wait_item(const char *s, void *arg)
{
  struct collect *c = arg;
  enum tune_wait *out = c->out, v;
  unsigned i;
  if (strcmp(s, "passive") == 0)
    v = TUNE_WAIT_PASSIVE;
  else if (strcmp(s, "active") == 0)
    v = TUNE_WAIT_ACTIVE;
  else
    return htp_error(HTP_EXIT_USAGE, "unknown wait policy '%s'; allowed: passive, active", s);
  for (i = 0; i < c->n; i++)
    if (out[i] == v)
      return htp_error(HTP_EXIT_USAGE, "wait policy '%s' given twice", s);
  if (c->n == c->max)
    return htp_error(HTP_EXIT_USAGE, "too many --wait-policy values");
  out[c->n++] = v;
  return HTP_EXIT_OK;
}

int tune_parse_waits(const char *text, enum tune_wait *waits, unsigned max, unsigned *n)
{
  struct collect c = {waits, max, 0, 0, "wait-policy", ""};
  int status = each_item(text, "wait-policy", wait_item, &c);
  *n = c.n;
  return status;
}

static int cmp_unsigned(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

static unsigned add_count(unsigned *counts, unsigned n, unsigned max, unsigned v, unsigned npus)
{
  unsigned i;
  if (v == 0 || v > npus || n == max)
    return n;
  for (i = 0; i < n; i++)
    if (counts[i] == v)
      return n;
  counts[n] = v;
  return n + 1;
}

unsigned tune_auto_threads(unsigned ncores, unsigned npus, unsigned max_smt, unsigned *counts,
                           unsigned max)
{
  unsigned n = 0, i, m;
  n = add_count(counts, n, max, 1, npus);
  n = add_count(counts, n, max, ncores / 4, npus);
  n = add_count(counts, n, max, ncores / 2, npus);
  n = add_count(counts, n, max, ncores, npus);
  n = add_count(counts, n, max, npus, npus);
  if (max_smt >= 2) /* sigma: 2c threads on the same c cores */
    for (i = 0, m = n; i < m; i++)
      if (counts[i] <= ncores)
        n = add_count(counts, n, max, 2 * counts[i], npus);
  qsort(counts, n, sizeof(*counts), cmp_unsigned);
  return n;
}

static int fill(const omp_ext_topo_t *topo, struct tune_config *c)
{
  omp_ext_pu_t *order = malloc(c->threads * sizeof(*order));
  int placed = c->policy != TUNE_NONE && !TUNE_IS_AUTO(c); /* none, auto: no places */
  omp_ht_policy_t base = placed ? (omp_ht_policy_t)c->policy : omp_ht_policy_speedup;
  int err;
  if (!order)
    return omp_ext_err_nomem;
  err = omp_ext_order(topo, NULL, base, c->threads, order);
  if (!err)
    err = omp_ext_usage_of(order, c->threads, &c->usage);
  if (!err && placed)
    err = omp_ext_places_format(order, c->threads, omp_ext_format_omp, &c->places);
  if (!err && placed) { /* one PU per place, in order, and its core */
    unsigned i;
    if (!(c->place_pu = malloc(c->threads * sizeof(*c->place_pu))) ||
        !(c->place_core = malloc(c->threads * sizeof(*c->place_core))))
      err = omp_ext_err_nomem;
    for (i = 0; !err && i < c->threads; i++) {
      c->place_pu[i] = order[i].os_index;
      c->place_core[i] = order[i].core;
    }
  }
  free(order);
  return err;
}

static unsigned policy_bit(int policy)
{
  return policy == TUNE_NONE ? TUNE_NONE_BIT : policy == TUNE_AUTO ? TUNE_AUTO_BIT : 1u << policy;
}

const char *tune_bit_name(unsigned b)
{
  return 1u << b == TUNE_NONE_BIT ? "none" : 1u << b == TUNE_AUTO_BIT
                                             ? "auto" : omp_ext_policy_name((omp_ht_policy_t)b);
}

unsigned tune_merge_identical(struct tune_config *c, unsigned n)
{
  unsigned i, j, k = 0;
  for (i = 0; i < n; i++) {
    for (j = 0; j < k; j++)
      if (c[j].places && c[i].places && c[j].threads == c[i].threads &&
          c[j].ranks == c[i].ranks && c[j].wait == c[i].wait &&
          strcmp(c[j].places, c[i].places) == 0)
        break;
    if (j < k) {
      c[j].policies |= c[i].policies;
      tune_free_plan_entry(&c[i]);
    } else {
      c[k++] = c[i];
    }
  }
  return k;
}

int tune_make_plan(const omp_ext_topo_t *topo, const int *policies, unsigned npol,
                   const unsigned *counts, unsigned ncounts, const enum tune_wait *waits,
                   unsigned nwaits, struct tune_config **configs, unsigned *n)
{
  unsigned p, t, w, k = 0, total = npol * ncounts * nwaits;
  struct tune_config *c = calloc(total ? total : 1, sizeof(*c));
  int err = 0;
  if (!c)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  for (p = 0; p < npol; p++)
    for (t = 0; t < ncounts; t++)
      for (w = 0; w < nwaits && !err; w++, k++) {
        if (policies[p] == TUNE_AUTO && t > 0) { /* auto: one per wait policy */
          k--;
          continue;
        }
        c[k].policy = policies[p];
        c[k].policies = policy_bit(policies[p]);
        c[k].threads = policies[p] == TUNE_AUTO ? omp_ext_topo_npus(topo) : counts[t];
        c[k].wait = waits[w];
        err = fill(topo, &c[k]);
      }
  if (err) {
    tune_free_plan(c, k);
    return htp_error(HTP_EXIT_FAIL, "cannot make the plan: %s", omp_ext_strerror(err));
  }
  *configs = c;
  *n = tune_merge_identical(c, k);
  return HTP_EXIT_OK;
}

void tune_free_plan_entry(struct tune_config *c)
{
  free(c->places);
  free(c->place_pu);
  free(c->place_core);
  free(c->runs);
  free(c->last_words);
  tune_free_regions(c);
  memset(c, 0, sizeof(*c));
}

void tune_free_plan(struct tune_config *configs, unsigned n)
{
  unsigned i;
  if (!configs)
    return;
  for (i = 0; i < n; i++)
    tune_free_plan_entry(&configs[i]);
  free(configs);
}

unsigned tune_policy_bits(const struct tune_config *c)
{
  return c->policies ? c->policies : policy_bit(c->policy);
}

void tune_config_label(const struct tune_config *c, char *buf, size_t len)
{
  unsigned bits = tune_policy_bits(c), p;
  size_t k = 0;
  int first = 1;
  buf[0] = '\0';
  for (p = 0; p < 32 && k < len; p++)
    if (bits & (1u << p)) {
      k += (size_t)snprintf(buf + k, len - k, "%s%s", first ? "" : "/", tune_bit_name(p));
      first = 0;
    }
  if (k < len && c->ranks) /* --launcher: "2x4", ranks x threads per rank */
    k += (size_t)snprintf(buf + k, len - k, " %ux%u", c->ranks, tune_rank_threads(c));
  else if (k < len && !TUNE_IS_AUTO(c)) /* (auto: no N, it chooses per region) */
    k += (size_t)snprintf(buf + k, len - k, " %u", c->threads);
  if (k < len)
    snprintf(buf + k, len - k, "%s%s", c->wait ? " " : "", c->wait ? tune_wait_name(c->wait) : "");
}

/* ------------------------------------------- a configuration's words */

unsigned tune_rank_threads(const struct tune_config *c)
{
  return c->ranks ? c->threads / c->ranks : c->threads;
}

char *tune_replace(const char *arg, const char *const *from, const char *const *to, unsigned n)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  const char *p;
  unsigned k;
  if (!f)
    return NULL;
  for (p = arg; *p;) {
    for (k = 0; k < n && strncmp(p, from[k], strlen(from[k])) != 0; k++)
      ;
    if (k < n) {
      fputs(to[k], f);
      p += strlen(from[k]);
    } else {
      fputc(*p++, f);
    }
  }
  if (fclose(f) != 0) {
    free(buf);
    return NULL;
  }
  return buf;
}

char *tune_substitute(const char *arg, const struct tune_config *c)
{
  static const char *const from[] = {"{N}", "{PLACES}"};
  char count[16];
  const char *to[] = {count, c->places ? c->places : ""};
  snprintf(count, sizeof(count), "%u", tune_rank_threads(c));
  return tune_replace(arg, from, to, 2);
}
