/*
 * htplaces tune: the gnuplot script of --out's plots (plots.gp): time and
 * SPN against N, one line per policy and wait policy, PNG and SVG.
 */
#include <stdio.h>

#include "tune_int.h"

/* Is there a configuration before i with policy bit b and i's wait policy? */
static int series_seen(const struct tune_report *t, unsigned i, unsigned b)
{
  unsigned j;
  for (j = 0; j < i; j++)
    if ((tune_policy_bits(&t->c[j]) & (1u << b)) && t->c[j].wait == t->c[i].wait)
      return 1;
  return 0;
}

static unsigned largest_n(const struct tune_report *t)
{
  unsigned i, m = 1;
  for (i = 0; i < t->n; i++)
    if (t->c[i].threads > m)
      m = t->c[i].threads;
  return m;
}

/* One series' points: N, median, CI low, CI high (a configuration giving
 * several policies is a point of each of their series). */
static void plot_points(FILE *f, const struct tune_report *t, unsigned i, unsigned b, int spn)
{
  unsigned j;
  for (j = i; j < t->n; j++) {
    const omp_ext_stats_t *st = spn ? &t->r[j].metric[TUNE_SPN] : &t->r[j].time;
    if ((tune_policy_bits(&t->c[j]) & (1u << b)) && t->c[j].wait == t->c[i].wait &&
        t->r[j].ok && !t->r[j].failed && st->n)
      fprintf(f, "%u %.9g %.9g %.9g\n", t->c[j].threads, st->median, st->ci95_lo, st->ci95_hi);
  }
  fputs("e\n", f);
}

/* The gnuplot script: time and SPN against N, one line per policy (and
 * wait policy), the 95% CI as error bars, whole thread counts on the x
 * axis, the legend outside the data. */
void tune_print_plot_script(FILE *f, const struct tune_report *t)
{
  unsigned i, b, k, step = largest_n(t) / 16 + 1;
  int first, m;
  static const char *const term[2][2] = {{"pngcairo size 1000,600", "png"},
                                          {"svg size 1000,600", "svg"}};
  for (k = 0; k < 2; k++)
    for (m = 0; m < 2; m++) {
      fprintf(f, "set terminal %s\nset output 'tune-%s.%s'\n", term[k][0], m ? "spn" : "time",
              term[k][1]);
      fprintf(f, "set title 'htplaces tune: %s against threads (error bars: 95%% CI)%s'\n"
              "set xlabel 'threads (N)'\nset ylabel '%s'\nset xtics %u\nset mxtics 1\n"
              "set format x '%%.0f'\nset xrange [0.5:%u.5]\nset key outside right top\n"
              "set grid\n", m ? "SPN" : "median time",
              m && !t->energy_measured ? " (modelled power)" : "",
              m ? (t->energy_measured ? "SPN, 1000 S / (P C)"
                                      : "SPN, 1000 S / (P C), P modelled")
                : "seconds", step, largest_n(t));
      fputs("plot ", f);
      first = 1;
      for (i = 0; i < t->n; i++)
        for (b = 0; b < 32; b++)
          if ((tune_policy_bits(&t->c[i]) & (1u << b)) && !series_seen(t, i, b)) {
            fprintf(f, "%s'-' using 1:2:3:4 with yerrorlines title '%s%s%s'", first ? "" : ", ",
                    tune_bit_name(b), t->c[i].wait ? " " : "",
                    t->c[i].wait ? tune_wait_name(t->c[i].wait) : "");
            first = 0;
          }
      fputc('\n', f);
      for (i = 0; i < t->n; i++)
        for (b = 0; b < 32; b++)
          if ((tune_policy_bits(&t->c[i]) & (1u << b)) && !series_seen(t, i, b))
            plot_points(f, t, i, b, m);
    }
}
