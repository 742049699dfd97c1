/*
 * htplaces model: the paper's §2 model over N = 1 .. allowed PUs, a row per
 * N per policy (power, capacity, speed-up, SPN, energy, the §2.3 rule), with
 * the best N and policy for speed, SPN and energy marked.
 *
 *   htplaces model [--serial-fraction s | --speedup N:S] [--sigma x]
 *                  [--power-model c6100|dl380p|Pn,Ps,Pc,Pt] [--format table|csv|json]
 *                  [POLICY...]
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htplaces.h"

enum model_format { FMT_TABLE, FMT_CSV, FMT_JSON };

enum { OPT_SERIAL = 256, OPT_SPEEDUP, OPT_SIGMA, OPT_POWER };

#define NOBJ 3
static const char *const objective_names[NOBJ] = {"speed", "spn", "energy"};

/* One policy's rows: estimates for N = 1 .. npus. */
struct model_rows {
  omp_ht_policy_t policy;
  omp_ext_estimate_t *est;
  unsigned bound; /* §2.3 */
};

struct model_opts {
  omp_ext_model_t m;
  const char *power_text; /* the --power-model or OMP_EXT_POWER_MODEL text */
  const char *serial_from; /* "--speedup 4:3.2" etc. or NULL */
  enum model_format format;
};

/* --speedup N:S -> serial fraction by Karp-Flatt. */
static int parse_speedup(const char *text, double *serial)
{
  const char *colon = strchr(text, ':');
  char nbuf[32];
  double n, s;
  if (!colon || (size_t)(colon - text) >= sizeof(nbuf))
    return htp_error(HTP_EXIT_USAGE, "invalid --speedup '%s'; allowed: N:S, a speed-up S "
                     "measured with N threads on N cores, 1 < S <= N", text);
  memcpy(nbuf, text, (size_t)(colon - text));
  nbuf[colon - text] = '\0';
  if (htp_parse_double(nbuf, &n) != 0 || n < 2 || n > 1e9 || n != (double)(long)n)
    return htp_error(HTP_EXIT_USAGE, "invalid --speedup '%s': N must be a whole number >= 2",
                     text);
  if (htp_parse_double(colon + 1, &s) != 0 || s <= 0)
    return htp_error(HTP_EXIT_USAGE, "invalid --speedup '%s': S must be a number > 0", text);
  if (s > n)
    return htp_error(HTP_EXIT_USAGE, "invalid --speedup '%s': S above N (super-linear) is "
                     "outside the model; allowed: 1 < S <= N", text);
  if (omp_ext_karp_flatt(n, s, serial) != 0)
    return htp_error(HTP_EXIT_USAGE, "invalid --speedup '%s': S <= 1 means a serial fraction "
                     ">= 1; allowed: 1 < S <= N", text);
  return HTP_EXIT_OK;
}

/* model's -f names, in enum model_format's order (table the default). */
static const char *const format_names[] = {"table", "csv", "json"};

/* A malloc'ed copy of environ without the variables a, b, c (NULL: none). */
static int env_without(const char *a, const char *b, const char *c, char ***out)
{
  const char *drop[3] = {a, b, c};
  size_t n = 0, k = 0, i, len;
  unsigned d;
  char **copy;
  int keep;
  while (environ[n])
    n++;
  if (!(copy = malloc((n + 1) * sizeof(*copy))))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  for (i = 0; i < n; i++) {
    keep = 1;
    for (d = 0; d < 3; d++)
      if (drop[d] && strncmp(environ[i], drop[d], len = strlen(drop[d])) == 0 &&
          environ[i][len] == '=')
        keep = 0;
    if (keep)
      copy[k++] = environ[i];
  }
  copy[k] = NULL;
  *out = copy;
  return HTP_EXIT_OK;
}

/* Options of model; command-line values override the environment's. */
/* The options of htplaces model (main.c's table: htplaces list options). */
const struct option htp_model_longopts[] = {
  HTP_COMMON_LONGOPTS, {"serial-fraction", required_argument, NULL, OPT_SERIAL},
  {"speedup", required_argument, NULL, OPT_SPEEDUP},
  {"sigma", required_argument, NULL, OPT_SIGMA},
  {"power-model", required_argument, NULL, OPT_POWER}, {0}};

static int model_options(struct htp_ctx *ctx, int argc, char **argv, struct model_opts *o)
{
  const char *serial = NULL, *speedup = NULL, *sigma = NULL, *power = NULL, *env;
  char **envp = NULL;
  int c, status;
  double v;

  unsigned f;

  if (ctx->do_export)
    return htp_error(HTP_EXIT_USAGE, "--export applies to 'htplaces POLICY [N]', not to 'model'");
  optind = 0;
  while ((c = getopt_long(argc, argv, ":" HTP_COMMON_SHORTOPTS, htp_model_longopts, NULL)) != -1) {
    switch (c) {
    case 'e': return htp_error(HTP_EXIT_USAGE, "--export applies to 'htplaces POLICY [N]', "
                               "not to 'model'");
    case OPT_SERIAL: serial = optarg; break;
    case OPT_SPEEDUP: speedup = optarg; break;
    case OPT_SIGMA: sigma = optarg; break;
    case OPT_POWER: power = optarg; break;
    default: htp_common_option(ctx, c, optarg, optopt, argv);
    }
  }
  if ((status = htp_format(ctx, "model", format_names, 3, &f)) != 0)
    return status;
  o->format = (enum model_format)f;
  if (serial && speedup)
    return htp_error(HTP_EXIT_USAGE, "give --serial-fraction or --speedup, not both");
  /* Each command-line value replaces its variable. */
  if (power && omp_ext_power_model_parse(power, &o->m.power) != 0)
    return htp_power_model_error("--power-model", power);
  if (sigma && (htp_parse_double(sigma, &v) != 0 || !(v > 0 && v <= 1)))
    return htp_error(HTP_EXIT_USAGE, "invalid --sigma '%s'; allowed: a number in (0, 1]", sigma);
  if (serial && (htp_parse_double(serial, &v) != 0 || !(v >= 0 && v < 1)))
    return htp_error(HTP_EXIT_USAGE, "invalid --serial-fraction '%s'; allowed: a number in "
                     "[0, 1)", serial);
  if (speedup && (status = parse_speedup(speedup, &v)) != 0)
    return status;
  /* The environment's model, without the variables the options replace. */
  if ((status = env_without(power ? "OMP_EXT_POWER_MODEL" : NULL,
                            sigma ? "OMP_EXT_SIGMA" : NULL,
                            serial || speedup ? "OMP_EXT_SERIAL_FRACTION" : NULL, &envp)) != 0)
    return status;
  status = htp_model_from_env(envp, &o->m);
  free(envp);
  if (status != 0)
    return status;
  if (power)
    omp_ext_power_model_parse(power, &o->m.power);
  if (sigma)
    htp_parse_double(sigma, &o->m.sigma);
  if (serial)
    htp_parse_double(serial, &o->m.serial);
  if (speedup)
    o->m.serial = v;
  env = getenv("OMP_EXT_POWER_MODEL");
  o->power_text = power ? power : env && *env ? env : OMP_EXT_MODEL_PRESET;
  o->serial_from = speedup;
  return HTP_EXIT_OK;
}

/* The default policies, from the policy table: the energy candidates
 * (speedup, spn, spread), then the other base policies (os); ties go to the
 * first listed, so the paper's strategies come first. */
static unsigned default_policies(omp_ht_policy_t *out)
{
  unsigned i, n = 0;
  for (i = 0; i < OMP_EXT_NPOLICIES; i++)
    if (omp_ext_policy_is_energy_candidate((omp_ht_policy_t)i) == 1)
      out[n++] = (omp_ht_policy_t)i;
  for (i = 0; i < OMP_EXT_NPOLICIES; i++)
    if (omp_ext_policy_is_base((omp_ht_policy_t)i) == 1 &&
        omp_ext_policy_is_energy_candidate((omp_ht_policy_t)i) == 0)
      out[n++] = (omp_ht_policy_t)i;
  return n;
}

/* Policies from the arguments; default: default_policies(). */
static int model_policies(int argc, char **argv, omp_ht_policy_t **pols, unsigned *n)
{
  omp_ht_policy_t defaults[OMP_EXT_NPOLICIES];
  unsigned ndefaults = default_policies(defaults);
  int i, status;
  *n = argc > 0 ? (unsigned)argc : ndefaults;
  if (!(*pols = malloc(*n * sizeof(**pols))))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  for (i = 0; i < (int)*n; i++) {
    if (argc == 0)
      (*pols)[i] = defaults[i];
    else if ((status = htp_parse_policy(argv[i], &(*pols)[i])) != 0) {
      free(*pols);
      return status;
    }
  }
  return HTP_EXIT_OK;
}

static int fill_rows(const omp_ext_topo_t *topo, const omp_ext_model_t *m, struct model_rows *r)
{
  unsigned npus = omp_ext_topo_npus(topo);
  omp_ext_pu_t *order = malloc(npus * sizeof(*order));
  int err = omp_ext_err_nomem;
  r->est = malloc(npus * sizeof(*r->est));
  if (order && r->est) {
    err = omp_ext_order(topo, m, r->policy, npus, order);
    if (!err)
      err = omp_ext_model_eval_prefixes(m, order, npus, r->est);
    if (!err)
      err = omp_ext_model_bound(topo, m, r->policy, &r->bound);
  }
  free(order);
  return err;
}

/* "yes"/"no" for the §2.3 step into row k (k >= 1), "-" for k == 0. */
static const char *worth(const omp_ext_estimate_t *e, unsigned k)
{
  if (k == 0)
    return "-";
  return omp_ext_energy_worth(1 / e[k - 1].speedup, e[k - 1].power, 1 / e[k].speedup,
                              e[k].power) == 1 ? "yes" : "no";
}

/* "speed,energy"-style marks of a row, "" if none. */
static void marks(const omp_ht_policy_t *bp, const unsigned *bn, omp_ht_policy_t p, unsigned n,
                  const char *sep, char *buf, size_t len)
{
  unsigned o;
  buf[0] = '\0';
  for (o = 0; o < NOBJ; o++)
    if (bp[o] == p && bn[o] == n)
      snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? sep : "",
               objective_names[o]);
}

struct model_out {
  const omp_ext_topo_t *topo;
  const struct model_opts *o;
  const struct model_rows *rows;
  unsigned nrows, npus;
  omp_ht_policy_t bp[NOBJ];
  unsigned bn[NOBJ];
};

static void print_table(const struct model_out *t)
{
  const omp_ext_power_model_t *pm = &t->o->m.power;
  unsigned i, k, o;
  char mk[32];
  printf("power model: %s (Pn %.2f W, Ps %.2f W, Pc %.2f W, Pt %.2f W)\n", t->o->power_text,
         pm->pn, pm->ps, pm->pc, pm->pt);
  printf("sigma %.3g, serial fraction %.4g%s%s%s\n", t->o->m.sigma, t->o->m.serial,
         t->o->serial_from ? " (Karp-Flatt from --speedup " : "",
         t->o->serial_from ? t->o->serial_from : "", t->o->serial_from ? ")" : "");
  printf("topology: %s, %u allowed PUs on %u cores\n\n", omp_ext_topo_source(t->topo), t->npus,
         omp_ext_topo_ncores(t->topo));
  printf("%-8s %4s %4s %5s %5s %8s %8s %8s %7s %7s %5s  %s\n", "policy", "N", "pkgs", "cores",
         "extra", "capacity", "speedup", "power_W", "SPN", "energy", "worth", "best");
  for (i = 0; i < t->nrows; i++)
    for (k = 0; k < t->npus; k++) {
      const omp_ext_estimate_t *e = &t->rows[i].est[k];
      marks(t->bp, t->bn, t->rows[i].policy, k + 1, ",", mk, sizeof(mk));
      printf("%-8s %4u %4u %5u %5u %8.2f %8.3f %8.2f %7.3f %7.4f %5s%s%s\n",
             omp_ext_policy_name(t->rows[i].policy), k + 1, e->usage.packages, e->usage.cores,
             e->usage.extra, e->capacity, e->speedup, e->power, e->spn, e->energy,
             worth(t->rows[i].est, k), mk[0] ? "  " : "", mk);
    }
  putchar('\n');
  for (o = 0; o < NOBJ; o++) {
    const omp_ext_estimate_t *e = NULL;
    for (i = 0; i < t->nrows && !e; i++)
      if (t->rows[i].policy == t->bp[o])
        e = &t->rows[i].est[t->bn[o] - 1];
    printf("best %-7s %s N=%u: speed-up %.3f, %.2f W, SPN %.3f, energy %.4f\n",
           objective_names[o], omp_ext_policy_name(t->bp[o]), t->bn[o], e->speedup, e->power,
           e->spn, e->energy);
  }
  printf("§2.3 bound (largest N while each added thread saves energy):");
  for (i = 0; i < t->nrows; i++)
    printf(" %s %u%s", omp_ext_policy_name(t->rows[i].policy), t->rows[i].bound,
           i + 1 < t->nrows ? "," : "\n");
}

static void print_csv(const struct model_out *t)
{
  unsigned i, k;
  char mk[32];
  printf("policy,n,packages,cores,extra,capacity,speedup,power_w,spn,energy,worth,best\n");
  for (i = 0; i < t->nrows; i++)
    for (k = 0; k < t->npus; k++) {
      const omp_ext_estimate_t *e = &t->rows[i].est[k];
      marks(t->bp, t->bn, t->rows[i].policy, k + 1, ";", mk, sizeof(mk));
      printf("%s,%u,%u,%u,%u,%.10g,%.10g,%.10g,%.10g,%.10g,%s,%s\n",
             omp_ext_policy_name(t->rows[i].policy), k + 1, e->usage.packages, e->usage.cores,
             e->usage.extra, e->capacity, e->speedup, e->power, e->spn, e->energy,
             k ? worth(t->rows[i].est, k) : "", mk);
    }
}

static void print_json(const struct model_out *t)
{
  const omp_ext_model_t *m = &t->o->m;
  unsigned i, k, o;
  printf("{\"model\":{\"pn\":%.10g,\"ps\":%.10g,\"pc\":%.10g,\"pt\":%.10g,\"sigma\":%.10g,"
         "\"serial\":%.10g},\"topology\":", m->power.pn, m->power.ps, m->power.pc, m->power.pt,
         m->sigma, m->serial);
  omp_ext_json_string(stdout, omp_ext_topo_source(t->topo));
  printf(",\"rows\":[");
  for (i = 0; i < t->nrows; i++)
    for (k = 0; k < t->npus; k++) {
      const omp_ext_estimate_t *e = &t->rows[i].est[k];
      printf("%s{\"policy\":\"%s\",\"n\":%u,\"packages\":%u,\"cores\":%u,\"extra\":%u,"
             "\"capacity\":%.10g,\"speedup\":%.10g,\"power_w\":%.10g,\"spn\":%.10g,"
             "\"energy\":%.10g,\"worth\":%s}", i || k ? "," : "",
             omp_ext_policy_name(t->rows[i].policy), k + 1, e->usage.packages, e->usage.cores,
             e->usage.extra, e->capacity, e->speedup, e->power, e->spn, e->energy,
             k == 0 ? "null" : strcmp(worth(t->rows[i].est, k), "yes") == 0 ? "true" : "false");
    }
  printf("],\"best\":{");
  for (o = 0; o < NOBJ; o++)
    printf("%s\"%s\":{\"policy\":\"%s\",\"n\":%u}", o ? "," : "", objective_names[o],
           omp_ext_policy_name(t->bp[o]), t->bn[o]);
  printf("},\"bound\":{");
  for (i = 0; i < t->nrows; i++)
    printf("%s\"%s\":%u", i ? "," : "", omp_ext_policy_name(t->rows[i].policy), t->rows[i].bound);
  printf("}}\n");
}

int htp_cmd_model(struct htp_ctx *ctx, int argc, char **argv)
{
  struct model_opts o;
  struct model_out t;
  struct model_rows *rows = NULL;
  omp_ht_policy_t *pols;
  unsigned npols, i, obj;
  int status, err = 0;

  memset(&o, 0, sizeof(o));
  if ((status = model_options(ctx, argc, argv, &o)) != 0)
    return status;
  if ((status = model_policies(argc - optind, argv + optind, &pols, &npols)) != 0)
    return status;
  if (!(t.topo = htp_topo(ctx, &status))) {
    free(pols);
    return status;
  }
  if (!(rows = calloc(npols, sizeof(*rows))))
    err = omp_ext_err_nomem;
  for (i = 0; !err && i < npols; i++) {
    rows[i].policy = pols[i];
    err = fill_rows(t.topo, &o.m, &rows[i]);
  }
  for (obj = 0; !err && obj < NOBJ; obj++)
    err = omp_ext_model_best(t.topo, &o.m, pols, npols, (omp_ext_objective_t)obj, &t.bp[obj],
                             &t.bn[obj], NULL);
  if (!err) {
    t.o = &o;
    t.rows = rows;
    t.nrows = npols;
    t.npus = omp_ext_topo_npus(t.topo);
    if (o.format == FMT_TABLE)
      print_table(&t);
    else if (o.format == FMT_CSV)
      print_csv(&t);
    else
      print_json(&t);
    status = fflush(stdout) == 0 ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot write output");
  } else {
    status = htp_error(HTP_EXIT_FAIL, "model: %s", omp_ext_strerror(err));
  }
  for (i = 0; rows && i < npols; i++)
    free(rows[i].est);
  free(rows);
  free(pols);
  return status;
}
