/*
 * Plots with gnuplot, like the paper's Figures 2-4: for each work kernel a
 * 2x2 figure of time, speed-up, power and SPN against the thread count,
 * one line per policy; for each overhead kernel the overhead.  PNG
 * (pngcairo, else gd's png) and SVG, in DIR/plots.  Data files and the
 * script stay there, so the plots can be remade or edited by hand.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "htbench.h"
#include "sweep.h"

/* Distinct values of a string field, in first-seen order. */
static unsigned distinct(const struct htb_result *r, unsigned n, size_t off, const char **out,
                         unsigned max)
{
  unsigned i, j, k = 0;
  for (i = 0; i < n; i++) {
    const char *v = (const char *)&r[i] + off;
    for (j = 0; j < k && strcmp(out[j], v); j++)
      ;
    if (j == k && k < max)
      out[k++] = v;
  }
  return k;
}

/* Column col (2..5) of a row of the data files into text, as written
 * there (and so as gnuplot reads it back). */
static void column_text(const struct htb_result *r, int col, char *text, size_t len)
{
  switch (col) {
  case 2: snprintf(text, len, "%.9g", r->median_s); break;
  case 3: snprintf(text, len, "%.6g", isnan(r->speedup) ? 0 : r->speedup); break;
  case 4: snprintf(text, len, "%.6g", r->power_w); break;
  default: snprintf(text, len, "%.6g", isnan(r->spn) ? 0 : r->spn); break;
  }
}

static double column(const struct htb_result *r, int col)
{
  char text[64];
  column_text(r, col, text, sizeof(text));
  return strtod(text, NULL);
}

static int plotted(const struct htb_result *r, const char *kernel, const char *policy)
{
  return r->valid && !strcmp(r->kernel, kernel) && (!policy || !strcmp(r->policy, policy));
}

static int write_data(const char *dir, const struct htb_result *r, unsigned n, const char *kernel,
                      const char *policy)
{
  char path[8448];
  FILE *f;
  unsigned i;
  snprintf(path, sizeof(path), "%s/%s-%s.dat", dir, kernel, policy);
  if (!(f = fopen(path, "w")))
    return -1;
  fprintf(f, "# threads median_s speedup power_w spn (valid runs of %s, policy %s)\n", kernel,
          policy);
  for (i = 0; i < n; i++)
    if (plotted(&r[i], kernel, policy)) {
      char c[4][64];
      int col;
      for (col = 2; col <= 5; col++)
        column_text(&r[i], col, c[col - 2], sizeof(c[0]));
      fprintf(f, "%u %s %s %s %s\n", r[i].threads, c[0], c[1], c[2], c[3]);
    }
  return fclose(f);
}

/* The panel's ranges: gnuplot's autoscaling, except where every point has
 * the same x (one thread count) or the same y (a speed-up of 1, a power of
 * 0): gnuplot would widen that empty range itself, with a warning on
 * stderr for every panel.  x: the thread count +-0.5; y: from 0 to twice
 * the value (-1..1 for 0). */
static void ranges(FILE *g, const struct htb_result *r, unsigned n, const char *kernel, int col,
                   double scale)
{
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY, y;
  unsigned i;
  for (i = 0; i < n; i++)
    if (plotted(&r[i], kernel, NULL)) {
      xlo = fmin(xlo, r[i].threads), xhi = fmax(xhi, r[i].threads);
      if (isfinite(y = column(&r[i], col) * scale))
        ylo = fmin(ylo, y), yhi = fmax(yhi, y);
    }
  if (xlo == xhi)
    fprintf(g, "set xrange [%g:%g]\n", xlo - 0.5, xhi + 0.5);
  else
    fputs("set xrange [*:*]\n", g);
  if (!(ylo <= yhi) || (ylo == yhi && ylo == 0)) /* no finite y, or all 0 */
    fputs("set yrange [-1:1]\n", g);
  else if (ylo == yhi)
    fprintf(g, "set yrange [%.9g:%.9g]\n", ylo > 0 ? 0 : 2 * ylo, ylo > 0 ? 2 * ylo : 0);
  else
    fputs("set yrange [*:*]\n", g);
}

static void panel(FILE *g, const struct htb_result *r, unsigned n, const char *kernel,
                  const char *pols, const char *title, const char *ylabel, int col, double scale)
{
  ranges(g, r, n, kernel, col, scale);
  fprintf(g, "set title \"%s\"\nset ylabel \"%s\"\n", title, ylabel);
  fprintf(g, "plot for [p in \"%s\"] \"%s-\".p.\".dat\" using 1:($%d*%g) with linespoints title p noenhanced\n",
          pols, kernel, col, scale);
}

static void figure(FILE *g, const struct htb_result *r, unsigned n, const char *kernel,
                   const char *pols, int overhead, const char *power, const char *fmt)
{
  if (!strcmp(fmt, "png"))
    fputs("if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) { set terminal pngcairo size 1200,900 }"
          " else { set terminal png size 1200,900 }\n", g);
  else
    fputs("set terminal svg size 1200,900 dynamic\n", g);
  fprintf(g, "set output \"%s.%s\"\n", kernel, fmt);
  if (overhead) {
    char title[96];
    snprintf(title, sizeof(title), "EPCC %s overhead (test - reference)", kernel);
    panel(g, r, n, kernel, pols, title, "overhead per repetition (us)", 2, 1e6);
  } else {
    fprintf(g, "set multiplot layout 2,2 title \"%s\"\n", kernel);
    panel(g, r, n, kernel, pols, "time", "median time per region (s)", 2, 1);
    panel(g, r, n, kernel, pols, "speed-up", "T(1) / T(N)", 3, 1);
    panel(g, r, n, kernel, pols, power, "power (W)", 4, 1);
    panel(g, r, n, kernel, pols, "SPN", "1000 S / (P cores)", 5, 1);
    fputs("unset multiplot\n", g);
  }
  fputs("unset output\n", g);
}

int htb_plot(const char *dir, const struct htb_result *r, unsigned n)
{
  const char *kernels[64], *policies[16];
  unsigned nk, np, i, j, maxn;
  char pdir[4096], script[4200], pols[512] = "";
  FILE *g;

  if (!sweep_have_gnuplot())
    return 3;
  snprintf(pdir, sizeof(pdir), "%s/plots", dir);
  if (mkdir(pdir, 0777) < 0 && errno != EEXIST)
    return htb_error(HTB_EXIT_FAIL, "cannot create '%s': %s", pdir, strerror(errno));
  nk = distinct(r, n, offsetof(struct htb_result, kernel), kernels, 64);
  np = distinct(r, n, offsetof(struct htb_result, policy), policies, 16);
  for (j = 0; j < np; j++)
    snprintf(pols + strlen(pols), sizeof(pols) - strlen(pols), "%s%s", j ? " " : "", policies[j]);
  snprintf(script, sizeof(script), "%s/plots.gp", pdir);
  if (!(g = fopen(script, "w")))
    return htb_error(HTB_EXIT_FAIL, "cannot write '%s': %s", script, strerror(errno));
  fputs("# htbench plots: run `gnuplot plots.gp` in this directory\n"
        "set grid\nset key top left\nset xlabel \"threads\"\nset pointsize 0.8\n"
        "set format x \"%.0f\"\nset offsets 0.2, 0.2, 0, 0\n", g);
  for (maxn = 1, j = 0; j < n; j++)
    maxn = r[j].threads > maxn ? r[j].threads : maxn;
  fprintf(g, "set xtics %u\n", maxn <= 16 ? 1 : maxn <= 32 ? 2 : maxn / 16);
  for (i = 0; i < nk; i++) {
    const struct htb_kernel *k = htb_kernel_by_name(kernels[i]);
    const char *power = "power (modelled)";
    for (j = 0; j < n; j++)
      if (!strcmp(r[j].kernel, kernels[i]) && !strcmp(r[j].energy_source, "rapl"))
        power = "power (RAPL)";
    for (j = 0; j < np; j++)
      if (write_data(pdir, r, n, kernels[i], policies[j]) != 0) {
        fclose(g);
        return htb_error(HTB_EXIT_FAIL, "cannot write plot data in '%s'", pdir);
      }
    figure(g, r, n, kernels[i], pols, k && k->kind == HTB_OVERHEAD, power, "png");
    figure(g, r, n, kernels[i], pols, k && k->kind == HTB_OVERHEAD, power, "svg");
  }
  if (fclose(g) != 0)
    return htb_error(HTB_EXIT_FAIL, "cannot write '%s'", script);
  if (sweep_gnuplot(pdir, "plots.gp", NULL) != 0)
    return htb_error(HTB_EXIT_FAIL, "gnuplot failed on '%s'", script);
  return 0;
}
