/*
 * Report: derived figures (power, energy, speed-up, SPN), results.csv
 * (written and read back for --plot), results.json and the tables of the
 * seed studies: "noht" vs "ht" speed-up per kernel with sigma, and the
 * paper's Table 6 (threads, time, power, SPN per policy).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "htbench.h"
#include "omp_ext.h"
#include "sweep.h"

static int is_overhead(const char *kernel)
{
  const struct htb_kernel *k = htb_kernel_by_name(kernel);
  return k && k->kind == HTB_OVERHEAD;
}

/* A kernel of the capacity-weighted split family (split-*). */
static int is_split(const char *kernel)
{
  const struct htb_kernel *k = htb_kernel_by_name(kernel);
  return k && k->capacity;
}

static int ok(const struct htb_result *r)
{
  return strcmp(r->status, "ok") == 0 && !isnan(r->median_s);
}

/* An in-code row (path "incode"; results.csv files older than --path
 * have no path: env). */
static int incode_row(const struct htb_result *r)
{
  return strcmp(r->path, "incode") == 0;
}

/* A valid row of kernel, policy (NULL: any policy of the env path: the
 * noht/ht tables compare placements, not paths), threads and cores (0:
 * any). */
static const struct htb_result *find(const struct htb_result *r, unsigned n, const char *kernel,
                                     const char *policy, unsigned threads, unsigned cores)
{
  unsigned i;
  for (i = 0; i < n; i++)
    if (ok(&r[i]) && !strcmp(r[i].kernel, kernel) &&
        (policy ? !strcmp(r[i].policy, policy) : !incode_row(&r[i])) &&
        r[i].threads == threads && (!cores || r[i].cores == cores))
      return &r[i];
  return NULL;
}

void htb_derive(struct htb_result *r, unsigned n)
{
  unsigned i;
  for (i = 0; i < n; i++) {
    const struct htb_result *one;
    r[i].valid = ok(&r[i]);
    if (isnan(r[i].median_s))
      continue;
    if (r[i].rapl_w >= 0) { /* measured */
      r[i].power_w = r[i].rapl_w;
      r[i].energy_j = r[i].rapl_w * r[i].median_s;
      snprintf(r[i].energy_source, sizeof(r[i].energy_source), "rapl");
    } else {
      r[i].power_w = htb_modelled_power_w(r[i].packages, r[i].cores, r[i].extra);
      r[i].energy_j = r[i].power_w * r[i].median_s;
      snprintf(r[i].energy_source, sizeof(r[i].energy_source), "modelled");
    }
    if (is_overhead(r[i].kernel))
      continue; /* overheads have no speed-up */
    if (is_split(r[i].kernel) && strcmp(r[i].kernel, "split-serial") && isnan(r[i].vs_balanced)) {
      const struct htb_result *serial = find(r, n, "split-serial", r[i].policy, r[i].threads, 0);
      double cap = r[i].capacity > 0 ? r[i].capacity : serial ? serial->capacity : NAN;
      if (serial && cap > 0 && serial->median_s > 0)
        r[i].vs_balanced = r[i].median_s / (serial->median_s / cap);
    }
    one = find(r, n, r[i].kernel, r[i].policy, 1, 0);
    if (one && r[i].median_s > 0) {
      r[i].speedup = one->median_s / r[i].median_s;
      r[i].spn = 1000 * r[i].speedup / (r[i].power_w * r[i].cores); /* paper §2.2 */
    }
  }
}

/* ---------------------------------------------------------------- CSV */

static void csv_cell(FILE *f, const char *s)
{
  if (strpbrk(s, ",\"\n;{ "))
    sweep_csv_quoted(f, s);
  else
    fputs(s, f);
}

void htb_csv_header(FILE *f)
{
  unsigned j;
  for (j = 0; j < htb_nfields; j++)
    fprintf(f, "%s%s", j ? "," : "", htb_fields[j].name);
  fputc('\n', f);
}

void htb_csv_row(FILE *f, const struct htb_result *r)
{
  char buf[HTB_STR];
  unsigned j;
  for (j = 0; j < htb_nfields; j++) {
    htb_field_get(r, &htb_fields[j], buf, sizeof(buf));
    if (j)
      fputc(',', f);
    csv_cell(f, buf);
  }
  fputc('\n', f);
}

int htb_write_csv(const char *path, const struct htb_result *r, unsigned n)
{
  FILE *f = fopen(path, "w");
  unsigned i;
  if (!f)
    return -1;
  htb_csv_header(f);
  for (i = 0; i < n; i++)
    htb_csv_row(f, &r[i]);
  return fclose(f) == 0 ? 0 : -1;
}

/* Next CSV cell of *p into out; returns 1 if the row goes on, 0 at its end. */
static int csv_next(char **p, char *out, size_t outlen)
{
  char *s = *p;
  size_t k = 0;
  int quoted = *s == '"';
  if (quoted)
    s++;
  for (; *s; s++) {
    if (quoted && *s == '"') {
      if (s[1] == '"') {
        s++;
      } else {
        quoted = 0;
        continue;
      }
    } else if (!quoted && (*s == ',' || *s == '\n')) {
      break;
    }
    if (k + 1 < outlen)
      out[k++] = *s;
  }
  out[k] = '\0';
  if (*s == ',') {
    *p = s + 1;
    return 1;
  }
  *p = *s ? s + 1 : s;
  return 0;
}

int htb_read_csv(const char *path, struct htb_result **res, unsigned *n, char *err, size_t errlen)
{
  size_t len;
  char *text = htb_read_file(path, &len, err, errlen), *p, *end, cell[HTB_STR];
  const struct htb_field *cols[64];
  unsigned ncols = 0, cap = 64, row = 1;
  int more;

  *res = NULL;
  *n = 0;
  if (!text)
    return -1;
  text = realloc(text, len + 1);
  text[len] = '\0';
  p = text;
  end = text + len;
  do { /* header */
    more = csv_next(&p, cell, sizeof(cell));
    if (ncols < 64)
      cols[ncols++] = htb_field_by_name(cell);
  } while (more);
  if (ncols < 3 || !cols[0] || strcmp(cols[0]->name, "kernel") != 0) {
    snprintf(err, errlen, "'%s' is not an htbench results.csv", path);
    free(text);
    return -1;
  }
  *res = malloc(cap * sizeof(**res));
  while (*res && p < end) {
    struct htb_result *r;
    unsigned c = 0;
    if (*n == cap) {
      struct htb_result *bigger = realloc(*res, (cap *= 2) * sizeof(**res));
      if (!bigger)
        break;
      *res = bigger;
    }
    r = &(*res)[*n];
    htb_result_init(r);
    row++;
    do {
      more = csv_next(&p, cell, sizeof(cell));
      if (c < ncols && cols[c] && htb_field_set(r, cols[c], cell) < 0) {
        snprintf(err, errlen, "'%s' line %u: bad %s '%s'", path, row, cols[c]->name, cell);
        free(text);
        return -1;
      }
      c++;
    } while (more);
    (*n)++;
  }
  free(text);
  if (!*res) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

/* --------------------------------------------------------------- JSON */

static void json_result(FILE *f, const struct htb_result *r)
{
  char buf[HTB_STR];
  unsigned j;
  fputs("    {", f);
  for (j = 0; j < htb_nfields; j++) {
    const struct htb_field *fd = &htb_fields[j];
    htb_field_get(r, fd, buf, sizeof(buf));
    fprintf(f, "%s\"%s\": ", j ? ", " : "", fd->name);
    if (fd->type == HTB_F_STR)
      omp_ext_json_string(f, buf);
    else if (!strcmp(fd->name, "valid") || !strcmp(fd->name, "verified") ||
             !strcmp(fd->name, "binding_ok"))
      fputs(buf[0] == '1' ? "true" : "false", f);
    else
      fputs(buf[0] ? buf : "null", f);
  }
  fputc('}', f);
}

/* sigma of a kernel: ht/noht - 1 at the largest N with both (see tables). */
static unsigned max_threads(const struct htb_result *r, unsigned n)
{
  unsigned i, m = 0;
  for (i = 0; i < n; i++)
    m = r[i].threads > m ? r[i].threads : m;
  return m;
}

static int sigma_of(const struct htb_result *r, unsigned n, const char *kernel, unsigned *at,
                    double *sigma)
{
  unsigned c, best = 0, maxn = max_threads(r, n);
  for (c = 1; 2 * c <= maxn; c++) {
    const struct htb_result *noht = find(r, n, kernel, NULL, c, c);
    const struct htb_result *ht = find(r, n, kernel, NULL, 2 * c, c);
    if (noht && ht) {
      best = c;
      *sigma = noht->median_s / ht->median_s - 1;
    }
  }
  *at = best;
  return best ? 0 : -1;
}

int htb_write_json(const char *path, const char *machine, const struct htb_options *opt,
                   const struct htb_result *r, unsigned n)
{
  FILE *f = fopen(path, "w");
  unsigned i, first = 1;
  if (!f)
    return -1;
  fprintf(f, "{\n  \"htbench\": \"%s\",\n  \"machine\": %s,\n", OMP_EXT_VERSION, machine);
  fprintf(f, "  \"settings\": {\"mode\": \"%s\", \"kernels\": ", opt->quick ? "quick" : "full");
  omp_ext_json_string(f, opt->kernels ? opt->kernels : "all");
  fputs(", \"policies\": ", f);
  omp_ext_json_string(f, opt->policies ? opt->policies : "all");
  fputs(", \"threads\": ", f);
  omp_ext_json_string(f, opt->threads ? opt->threads : "1..allowed PUs");
  fprintf(f, ", \"path\": \"%s\"",
          opt->paths == (HTB_PATH_ENV | HTB_PATH_INCODE) ? "both"
          : opt->paths == HTB_PATH_INCODE                 ? "incode"
                                                          : "env");
  fputs(", \"input\": ", f);
  if (opt->sizes.input)
    omp_ext_json_string(f, opt->sizes.input);
  else
    fputs("null", f);
  fprintf(f, ", \"corpus_mb\": %g, \"seed\": %llu, \"sieve_limit\": %llu, \"flops_iters\": %llu, "
             "\"triad_n\": %llu, \"split_n\": %llu, \"split_length\": %llu, "
             "\"split_chunk\": %llu, \"split_tail\": %llu, \"split_pair_ms\": %llu, "
             "\"oversubscribe\": %u, "
             "\"outer_reps\": %u, \"target_s\": %g, \"budget_s\": %g, "
             "\"warmup\": \"1 region, discarded\", \"ci\": \"95%% of the mean, Student t\", "
             "\"outliers\": \"|x - mean| > 3 sd\", \"power_model\": "
             "\"P = 76.11 + 25.19 packages + 9.68 cores + 2.61 extra siblings (W, C6100 preset)\", "
             "\"spn\": \"1000 * speedup / (power_w * busy cores)\"},\n",
          opt->sizes.corpus_mb, (unsigned long long)opt->sizes.seed,
          (unsigned long long)opt->sizes.sieve_limit, (unsigned long long)opt->sizes.flops_iters,
          (unsigned long long)opt->sizes.triad_n, (unsigned long long)opt->sizes.split_n,
          (unsigned long long)opt->sizes.split_len, (unsigned long long)opt->sizes.split_chunk,
          (unsigned long long)opt->sizes.split_tail, (unsigned long long)opt->sizes.split_pair_ms,
          opt->oversub, opt->sizes.outer_reps, opt->sizes.target_s,
          opt->budget_s);
  fputs("  \"sigma\": {", f);
  for (i = 0; htb_kernels[i]; i++) {
    unsigned at;
    double s;
    if (htb_kernels[i]->kind == HTB_WORK && sigma_of(r, n, htb_kernels[i]->name, &at, &s) == 0) {
      fprintf(f, "%s\"%s\": {\"sigma\": %.6g, \"cores\": %u}", first ? "" : ", ",
              htb_kernels[i]->name, s, at);
      first = 0;
    }
  }
  fprintf(f, "}%s,\n  \"results\": [\n",
          first ? ", \"sigma_note\": \"no ht run (2N threads on N cores): no SMT, or no such "
                  "thread counts in the sweep\"" : "");
  for (i = 0; i < n; i++) {
    json_result(f, &r[i]);
    fputs(i + 1 < n ? ",\n" : "\n", f);
  }
  fputs("  ]\n}\n", f);
  return fclose(f) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------- tables */

static void time_cell(FILE *out, double s)
{
  if (isnan(s))
    fprintf(out, "%10s", "-");
  else if (s < 1e-3)
    fprintf(out, "%8.2fus", s * 1e6);
  else if (s < 1)
    fprintf(out, "%8.2fms", s * 1e3);
  else
    fprintf(out, "%9.3fs", s);
}

/* " %7.Nf", or "-" where the value could not be computed (NaN). */
static void num_cell(FILE *out, double v, int decimals)
{
  if (isnan(v) || isinf(v))
    fprintf(out, " %7s", "-");
  else
    fprintf(out, " %7.*f", decimals, v);
}

static void list_policies(const struct htb_result *r, unsigned n, const char *kernel,
                          const char **pol, unsigned *np, unsigned *maxn)
{
  unsigned i, j;
  *np = 0;
  *maxn = 0;
  for (i = 0; i < n; i++) {
    if (strcmp(r[i].kernel, kernel))
      continue;
    if (r[i].threads > *maxn)
      *maxn = r[i].threads;
    for (j = 0; j < *np && strcmp(pol[j], r[i].policy); j++)
      ;
    if (j == *np && *np < 16)
      pol[(*np)++] = r[i].policy;
  }
}

/* The rows of a per-policy table of kernel (Table 6, EPCC overhead): one
 * per thread count 1..maxn that some policy has a result for, "N" then
 * cell(out, result or NULL, w) for each policy. */
static void policy_rows(FILE *out, const struct htb_result *r, unsigned n, const char *kernel,
                        const char *const *pol, unsigned np, unsigned maxn, int w,
                        void (*cell)(FILE *out, const struct htb_result *x, int w))
{
  unsigned t, p;
  for (t = 1; t <= maxn; t++) {
    for (p = 0; p < np && !find(r, n, kernel, pol[p], t, 0); p++)
      ;
    if (p == np)
      continue;
    fprintf(out, "%4u", t);
    for (p = 0; p < np; p++)
      cell(out, find(r, n, kernel, pol[p], t, 0), w);
    fputc('\n', out);
  }
}

static void table6_cell(FILE *out, const struct htb_result *x, int w)
{
  fprintf(out, " | %-*s ", w, "");
  time_cell(out, x ? x->median_s : NAN);
  if (x) {
    num_cell(out, x->power_w, 1);
    num_cell(out, x->spn, 2);
  } else
    fprintf(out, " %7s %7s", "-", "-");
}

static void overhead_cell(FILE *out, const struct htb_result *x, int w)
{
  (void)w;
  if (x)
    fprintf(out, " | %7.3fus [%5.2f,%5.2f]", x->median_s * 1e6, x->ci95_lo_s * 1e6,
            x->ci95_hi_s * 1e6);
  else
    fprintf(out, " | %21s", "-");
}

static void table6(FILE *out, const struct htb_result *r, unsigned n, const char *kernel)
{
  const char *pol[16];
  unsigned np, maxn, t, p;
  int w;
  const char *src = "modelled";
  list_policies(r, n, kernel, pol, &np, &maxn);
  for (t = 0; t < n; t++)
    if (!strcmp(r[t].kernel, kernel) && !strcmp(r[t].energy_source, "rapl"))
      src = "RAPL";
  fprintf(out, "\nTable 6 -- %s: median time, power (W, %s), SPN = 1000 S/(P cores)\n",
          kernel, src);
  for (w = 8, p = 0; p < np; p++) /* the widest series label ("speedup@incode") */
    w = (int)strlen(pol[p]) > w ? (int)strlen(pol[p]) : w;
  fprintf(out, "%4s", "N");
  for (p = 0; p < np; p++)
    fprintf(out, " | %-*s %10s %7s %7s", w, pol[p], "time", "P(W)", "SPN");
  fputc('\n', out);
  policy_rows(out, r, n, kernel, pol, np, maxn, w, table6_cell);
}

static void overhead_table(FILE *out, const struct htb_result *r, unsigned n, const char *kernel)
{
  const char *pol[16];
  unsigned np, maxn, p;
  list_policies(r, n, kernel, pol, &np, &maxn);
  fprintf(out, "\nEPCC %s overhead (median of test - reference per repetition; 95%% CI of the "
          "mean)\n", kernel);
  fprintf(out, "%4s", "N");
  for (p = 0; p < np; p++)
    fprintf(out, " | %-21s", pol[p]);
  fputc('\n', out);
  policy_rows(out, r, n, kernel, pol, np, maxn, 0, overhead_cell);
}

static void ht_table(FILE *out, const struct htb_result *r, unsigned n, unsigned max_smt)
{
  unsigned i, c;
  fprintf(out, "\nnoht (N threads, one per core) vs ht (2N threads on the same N cores)\n");
  if (max_smt < 2) {
    fprintf(out, "ht: not applicable on this machine (no SMT: one PU per core); sigma not "
                 "measured\n");
    return;
  }
  fprintf(out, "%-10s %5s %12s %12s %9s\n", "kernel", "cores", "noht", "ht", "speed-up");
  for (i = 0; htb_kernels[i]; i++) {
    const char *k = htb_kernels[i]->name;
    unsigned at;
    double s;
    if (htb_kernels[i]->kind != HTB_WORK)
      continue;
    for (c = 1; 2 * c <= max_threads(r, n); c++) {
      const struct htb_result *noht = find(r, n, k, NULL, c, c), *ht = find(r, n, k, NULL, 2 * c, c);
      if (!noht || !ht)
        continue;
      fprintf(out, "%-10s %5u ", k, c);
      time_cell(out, noht->median_s);
      fputs("   ", out);
      time_cell(out, ht->median_s);
      fprintf(out, " %+8.1f%%\n", (noht->median_s / ht->median_s - 1) * 100);
    }
    if (sigma_of(r, n, k, &at, &s) == 0)
      fprintf(out, "%-10s sigma = %.3f (ht/noht - 1 on %u cores)\n", k, s, at);
  }
}

/* The split kernels side by side per policy and team: median, 95% CI of
 * the mean (clamped at 0),
 * and the ratio to the balanced limit (paired: each repetition against the
 * serial loop run next to it; else split-serial / capacity). */
static void split_table(FILE *out, const struct htb_result *r, unsigned n)
{
  unsigned i, j, m, any = 0;
  for (j = 0; j < n; j++) {
    const struct htb_result *serial;
    if (!is_split(r[j].kernel) || !ok(&r[j]))
      continue;
    for (m = 0; m < j && !(is_split(r[m].kernel) && ok(&r[m]) && !strcmp(r[m].policy, r[j].policy) &&
                           r[m].threads == r[j].threads);
         m++)
      ;
    if (m < j)
      continue; /* not the first split row of this (policy, N) */
    if (!any++)
      fprintf(out, "\nCapacity-weighted split (split-*): median per region [95%% CI of the mean\n"
                   "in ms, clamped at 0], min; /balanced = median over the repetitions of\n"
                   "time / (the serial loop's time, run next to it, / capacity) [95%% CI of\n"
                   "the mean, clamped at 0], 1.000x = the balanced limit (without\n"
                   "--split-pair: median / (split-serial's median / capacity), no CI);\n"
                   "idle %%: each thread's share of the regions after it finished its part\n"
                   "(waiting for the others; threads time-sharing a PU also finish apart)\n");
    serial = find(r, n, "split-serial", r[j].policy, r[j].threads, 0);
    fprintf(out, "%s N=%u", r[j].policy, r[j].threads);
    if (!r[j].places[0]) /* none: no places, whatever --oversubscribe says */
      fputs(" unbound (no places)", out);
    else if (r[j].oversub)
      fprintf(out, " (%u thread%s beyond the places) on %s", r[j].oversub,
              r[j].oversub == 1 ? "" : "s", r[j].places);
    else
      fprintf(out, " on %s", r[j].places);
    fprintf(out, "; bindings %s; capacity %.4g\n", r[j].bindings, r[j].capacity);
    if (serial)
      fprintf(out, "  %-14s balanced limit %.2fms (split-serial / capacity)\n", "",
              serial->median_s / serial->capacity * 1e3);
    fprintf(out, "  %-14s %10s %-20s%10s %9s %-15s  %s\n", "kernel", "median", " [95% CI, ms]", "min",
            "/balanced", "[95% CI]", "idle % per thread");
    for (i = 0; htb_kernels[i]; i++) {
      const struct htb_result *x = find(r, n, htb_kernels[i]->name, r[j].policy, r[j].threads, 0);
      const char *idle;
      if (!htb_kernels[i]->capacity || !x)
        continue;
      fprintf(out, "  %-14s ", x->kernel);
      time_cell(out, x->median_s);
      /* a time is never negative: the interval's lower bound is clamped */
      fprintf(out, " [%8.2f,%8.2f] ", fmax(0, x->ci95_lo_s) * 1e3, x->ci95_hi_s * 1e3);
      time_cell(out, x->min_s);
      if (isnan(x->vs_balanced))
        fprintf(out, " %9s %15s", "-", "");
      else if (isnan(x->vs_balanced_lo))
        fprintf(out, " %8.3fx %15s", x->vs_balanced, "");
      else
        fprintf(out, " %8.3fx [%5.3f,%5.3f]", x->vs_balanced, fmax(0, x->vs_balanced_lo),
                x->vs_balanced_hi);
      idle = strstr(x->check, "idle %:");
      fprintf(out, "  %s\n", idle && strcmp(x->kernel, "split-serial") ? idle : "");
    }
  }
}

/* env vs in-code: per kernel and policy, the medians of both paths at the
 * largest N where both ran; ratio = in-code / env. */
static void path_table(FILE *out, const struct htb_result *r, unsigned n)
{
  unsigned i, j, m, t, paths = 0;
  for (j = 0; j < n; j++)
    paths |= incode_row(&r[j]) ? HTB_PATH_INCODE : HTB_PATH_ENV;
  if (paths != (HTB_PATH_ENV | HTB_PATH_INCODE))
    return; /* one path only: nothing to compare */
  fprintf(out, "\nenv vs in-code (median at the largest N with both; ratio = in-code / env;\n"
               "env: OMP_PLACES + OMP_PROC_BIND=close, in-code: omp_set_ht_policy_num_threads;\n"
               "none: unbound both ways)\n");
  fprintf(out, "%-10s %-8s %4s %10s %10s %7s\n", "kernel", "policy", "N", "env", "in-code",
          "ratio");
  for (i = 0; htb_kernels[i]; i++) {
    const char *k = htb_kernels[i]->name;
    for (j = 0; j < n; j++) {
      const struct htb_result *env = NULL, *inc = NULL;
      char label[48];
      if (strcmp(r[j].kernel, k) || incode_row(&r[j]))
        continue;
      for (m = 0; m < j && (strcmp(r[m].kernel, k) || strcmp(r[m].policy, r[j].policy)); m++)
        ;
      if (m < j)
        continue; /* not the first row of this (kernel, env policy) */
      /* the largest N with both */
      snprintf(label, sizeof(label), "%s@incode", r[j].policy);
      for (t = max_threads(r, n); t >= 1 && !(env && inc); t--) {
        env = find(r, n, k, r[j].policy, t, 0);
        inc = find(r, n, k, label, t, 0);
      }
      if (!env || !inc)
        continue;
      fprintf(out, "%-10s %-8s %4u ", k, r[j].policy, env->threads);
      time_cell(out, env->median_s);
      fputc(' ', out);
      time_cell(out, inc->median_s);
      fprintf(out, " %7.3f\n", inc->median_s / env->median_s);
    }
  }
}

void htb_print_tables(FILE *out, const struct htb_result *r, unsigned n, unsigned max_smt)
{
  unsigned i, j, bad = 0;
  for (i = 0; htb_kernels[i]; i++) {
    int present = 0;
    for (j = 0; j < n; j++)
      present |= !strcmp(r[j].kernel, htb_kernels[i]->name);
    if (!present)
      continue;
    if (htb_kernels[i]->kind == HTB_WORK)
      table6(out, r, n, htb_kernels[i]->name);
    else
      overhead_table(out, r, n, htb_kernels[i]->name);
  }
  split_table(out, r, n);
  ht_table(out, r, n, max_smt);
  path_table(out, r, n);
  /* Not the team split kernels: their threads that finish first wait for
   * the others, often asleep (split-static's lone thread half the time);
   * their idle column shows it and their /balanced is paired. */
  for (i = 0, j = 0; j < n; j++)
    i += r[j].cpu_util < 0.8 && (!is_split(r[j].kernel) || !strcmp(r[j].kernel, "split-serial"));
  if (i) /* NaN compares false */
    fprintf(out, "\nwarning: %u of %u runs got less than 80%% of their threads' CPU time "
                 "(cpu_util): the machine was busy, their times are not trustworthy\n", i, n);
  for (j = 0; j < n; j++)
    if (!r[j].valid) {
      if (!bad++)
        fprintf(out, "\nInvalid or missing runs:\n");
      fprintf(out, "  %s %s N=%u: %s\n", r[j].kernel, r[j].policy, r[j].threads, r[j].status);
    }
  fflush(out);
}
