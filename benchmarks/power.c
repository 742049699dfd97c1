/*
 * Energy: RAPL package counters from Linux powercap where readable, else
 * the power model's figure (labelled "modelled" in every output).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "htbench.h"

/*
 * The one place the model lives in htbench.  Paper §2.3 / issue 4:
 * P = Pn + Ps * packages + Pc * cores + Pt * extra siblings, watts, with
 * the Dell C6100 preset.  At merge, replace this body with the library's
 * model (omp_ext power API) so htbench and htplaces agree.
 */
double htb_modelled_power_w(unsigned packages, unsigned cores, unsigned extra_siblings)
{
  const double pn = 76.11, ps = 25.19, pc = 9.68, pt = 2.61;
  return pn + ps * packages + pc * cores + pt * extra_siblings;
}

static int read_u64(const char *path, unsigned long long *v)
{
  FILE *f = fopen(path, "r");
  int ok;
  if (!f)
    return -1;
  ok = fscanf(f, "%llu", v) == 1;
  fclose(f);
  return ok ? 0 : -1;
}

/* Top-level zones are "intel-rapl:N" (packages); "intel-rapl:N:M" are
 * sub-zones counted inside them, so they are skipped. */
double htb_rapl_read_j(double *max_j)
{
  const char *base = "/sys/class/powercap";
  DIR *d = opendir(base);
  struct dirent *e;
  double total = 0, range = 0;
  int zones = 0;
  char path[512];
  unsigned long long v;

  if (!d)
    return -1;
  while ((e = readdir(d)) != NULL) {
    const char *colon;
    if (strncmp(e->d_name, "intel-rapl:", 11) != 0)
      continue;
    colon = strchr(e->d_name + 11, ':');
    if (colon)
      continue;
    snprintf(path, sizeof(path), "%s/%s/energy_uj", base, e->d_name);
    if (read_u64(path, &v) < 0) {
      closedir(d);
      return -1; /* a package we cannot read: no partial sums */
    }
    total += v / 1e6;
    snprintf(path, sizeof(path), "%s/%s/max_energy_range_uj", base, e->d_name);
    if (read_u64(path, &v) == 0)
      range += v / 1e6;
    zones++;
  }
  closedir(d);
  if (max_j)
    *max_j = range;
  return zones ? total : -1;
}
