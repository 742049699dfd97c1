/*
 * htplaces tune --out DIR: the folder of results (results.csv,
 * results.json, recommendation.txt, table.txt, plots).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_int.h"

static int write_file(const char *dir, const char *name, const struct tune_report *t,
                      void (*print)(FILE *, const struct tune_report *))
{
  char *path = sweep_path(dir, name);
  FILE *f;
  int ok;
  if (!path)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  if (!(f = fopen(path, "w"))) {
    ok = htp_error(HTP_EXIT_FAIL, "cannot write %s: %s", path, strerror(errno));
    free(path);
    return ok;
  }
  print(f, t);
  ok = fclose(f) == 0;
  if (!ok)
    htp_error(HTP_EXIT_FAIL, "cannot write %s: %s", path, strerror(errno));
  free(path);
  return ok ? HTP_EXIT_OK : HTP_EXIT_FAIL;
}

void tune_print_recommendation(FILE *f, const struct tune_report *t)
{
  int o;
  char *line;
  if (tune_no_region(t)) {
    fprintf(f, "%s\n", TUNE_NO_REGION_VERDICT);
    return;
  }
  for (o = 0; o < TUNE_NOBJECTIVES; o++)
    if (t->s->best[o] >= 0 && (line = tune_exec_line(t, t->s->best[o]))) {
      fprintf(f, "%s: %s\n", tune_objective_name((enum tune_objective)o), line);
      free(line);
    }
}

int tune_write_dir(const char *dir, const struct tune_report *t)
{
  int status;
  if ((status = write_file(dir, "results.csv", t, tune_print_csv)) != 0 ||
      (status = write_file(dir, "results.json", t, tune_print_json)) != 0 ||
      (status = write_file(dir, "recommendation.txt", t, tune_print_recommendation)) != 0 ||
      (status = write_file(dir, "table.txt", t, tune_print_table)) != 0 ||
      (status = write_file(dir, "plots.gp", t, tune_print_plot_script)) != 0)
    return status;
  status = sweep_gnuplot(dir, "plots.gp", "gnuplot.log");
  if (status == 127)
    fprintf(stderr, "htplaces tune: gnuplot not found: no plots (the script is %s/plots.gp)\n",
            dir);
  else if (status != 0)
    fprintf(stderr, "htplaces tune: gnuplot failed: see %s/gnuplot.log\n", dir);
  return HTP_EXIT_OK;
}
