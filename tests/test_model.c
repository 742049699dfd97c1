/*
 * The energy model (paper §2): values worked by hand from the formulas,
 * properties on every fixture topology, the energy policy, and htplaces
 * model's output and its errors.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cunit_main.h"
#include "omp_ext.h"
#include "private/tools.h" /* the tools interface: not exported (libomp_ext.a) */
#include "testutil.h"

#define C6100 "pack:2 core:4 pu:2(indexes=core:pack)"
#define ASSERT_NEAR(x, y) CU_ASSERT(near_(x, y))

/* Equal up to rounding: 1e-9 relative (absolute below 1). */
static int near_(double x, double y)
{
  return fabs(x - y) <= 1e-9 * (fabs(y) > 1 ? fabs(y) : 1);
}

static const omp_ext_model_t c6100_s0 = {{76.11, 25.19, 9.68, 2.61}, 0.3, 0.0};

/* Estimate of the first n PUs of policy on topology input under m. */
static omp_ext_estimate_t estimate(const char *input, omp_ht_policy_t policy, unsigned n,
                                   const omp_ext_model_t *m)
{
  omp_ext_topo_t *topo;
  omp_ext_pu_t *order;
  omp_ext_estimate_t e;
  memset(&e, 0, sizeof(e));
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, input, 0) == 0);
  order = malloc(omp_ext_topo_npus(topo) * sizeof(*order));
  CU_ASSERT_FATAL(order != NULL);
  CU_ASSERT_FATAL(omp_ext_order(topo, NULL, policy, n, order) == 0);
  CU_ASSERT_FATAL(omp_ext_model_eval(m, order, n, &e) == 0);
  free(order);
  omp_ext_topo_destroy(topo);
  return e;
}

/* ---- values worked by hand -------------------------------------------- */

static void test_power_c6100(void)
{
  /* spn, 4 threads: 2 cores of package 0, 2 siblings:
   * 76.11 + 25.19 + 2*9.68 + 2*2.61 = 125.88 W */
  omp_ext_estimate_t e = estimate(C6100, omp_ht_policy_spn, 4, &c6100_s0);
  CU_ASSERT_EQUAL(e.usage.threads, 4);
  CU_ASSERT_EQUAL(e.usage.packages, 1);
  CU_ASSERT_EQUAL(e.usage.cores, 2);
  CU_ASSERT_EQUAL(e.usage.extra, 2);
  ASSERT_NEAR(e.power, 125.88);
  /* speedup, 4 threads: 4 cores of package 0: 76.11 + 25.19 + 4*9.68 = 140.02 W */
  e = estimate(C6100, omp_ht_policy_speedup, 4, &c6100_s0);
  CU_ASSERT_EQUAL(e.usage.packages, 1);
  CU_ASSERT_EQUAL(e.usage.cores, 4);
  CU_ASSERT_EQUAL(e.usage.extra, 0);
  ASSERT_NEAR(e.power, 140.02);
  /* speedup, 8 threads: 8 cores over 2 packages: 76.11 + 2*25.19 + 8*9.68 = 203.93 W */
  e = estimate(C6100, omp_ht_policy_speedup, 8, &c6100_s0);
  CU_ASSERT_EQUAL(e.usage.packages, 2);
  CU_ASSERT_EQUAL(e.usage.cores, 8);
  ASSERT_NEAR(e.power, 203.93);
}

static void test_power_dl380p_preset(void)
{
  omp_ext_model_t m = c6100_s0;
  omp_ext_estimate_t e;
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("dl380p", &m.power), 0);
  /* speedup, 8 threads: 106.41 + 2*39.74 + 8*11.13 = 274.93 W;
   * all 16: + 8*2.83 = 297.57 W */
  e = estimate(C6100, omp_ht_policy_speedup, 8, &m);
  ASSERT_NEAR(e.power, 274.93);
  e = estimate(C6100, omp_ht_policy_speedup, 16, &m);
  ASSERT_NEAR(e.power, 297.57);
}

static void test_capacity_speedup_spn_energy(void)
{
  /* spn, 4 threads, s = 0.1: C = 2 + 2*0.3 = 2.6, S = 1/(0.1 + 0.9/2.6)
   * = 2.2413793103..., SPN = 1000 S / (125.88 * 2) = 8.9028412..., energy =
   * (125.88 / S) / (76.11 + 25.19 + 9.68) = 56.16185 / 110.98 = 0.5060538 */
  omp_ext_model_t m = c6100_s0;
  omp_ext_estimate_t e;
  m.serial = 0.1;
  e = estimate(C6100, omp_ht_policy_spn, 4, &m);
  ASSERT_NEAR(e.capacity, 2.6);
  CU_ASSERT(fabs(e.speedup - 2.2413793103) < 1e-9);
  CU_ASSERT(fabs(e.spn - 8.902841239) < 1e-8);
  CU_ASSERT(fabs(e.energy - 0.5060537588) < 1e-9);
  /* One thread: S = 1 and energy 1 whatever s. */
  e = estimate(C6100, omp_ht_policy_spn, 1, &m);
  ASSERT_NEAR(e.speedup, 1);
  ASSERT_NEAR(e.energy, 1);
  /* Scalar functions. */
  ASSERT_NEAR(omp_ext_model_speedup(0, 10.4), 10.4);
  ASSERT_NEAR(omp_ext_model_speedup(0.5, 4), 1.6);
  CU_ASSERT_EQUAL(omp_ext_model_speedup(1, 4), 0);
  CU_ASSERT_EQUAL(omp_ext_model_speedup(0.1, 0), 0);
  ASSERT_NEAR(omp_ext_model_spn(2, 125, 4), 4);
  CU_ASSERT_EQUAL(omp_ext_model_spn(2, 0, 4), 0);
  CU_ASSERT_EQUAL(omp_ext_model_spn(2, 100, 0), 0);
}

static void test_karp_flatt(void)
{
  double e;
  /* S = 3.2 on 4: (1/3.2 - 1/4)/(1 - 1/4) = 0.0625/0.75 = 1/12, and the
   * paper's form (4 - 3.2)/(3.2 * 3) = 0.8/9.6 = 1/12. */
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(4, 3.2, &e), 0);
  ASSERT_NEAR(e, 1.0 / 12);
  ASSERT_NEAR(e, (4 - 3.2) / (3.2 * 3));
  /* S = 6 on 8: (1/6 - 1/8)/(7/8) = (1/24)/(7/8) = 1/21 */
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(8, 6, &e), 0);
  ASSERT_NEAR(e, 1.0 / 21);
  /* Round trip: the model with s = e gives back the measured S on 8 cores. */
  ASSERT_NEAR(omp_ext_model_speedup(e, 8), 6);
  /* Linear speed-up: no serial part. */
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(16, 16, &e), 0);
  ASSERT_NEAR(e, 0);
  /* Outside the domain. */
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(1, 1, &e), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(4, 5, &e), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(4, 0, &e), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(4, -2, &e), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(4, 1, &e), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_karp_flatt(4, 2, NULL), omp_ext_err_invalid);
}

static void test_rule_hand(void)
{
  omp_ext_topo_t *topo;
  omp_ext_model_t m = c6100_s0;
  unsigned n;
  /* T1/T0 = 0.6 < P0/P1 = 100/150: worth it; 0.7 > 0.667: not. */
  CU_ASSERT_EQUAL(omp_ext_energy_worth(10, 100, 6, 150), 1);
  CU_ASSERT_EQUAL(omp_ext_energy_worth(10, 100, 7, 150), 0);
  /* Equal energy is not a saving. */
  CU_ASSERT_EQUAL(omp_ext_energy_worth(10, 100, 5, 200), 0);
  CU_ASSERT_EQUAL(omp_ext_energy_worth(0, 100, 5, 200), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_energy_worth(10, -1, 5, 200), omp_ext_err_invalid);
  /* C6100, speedup order, s = 0.5, T = s + (1-s)/N (T1 = 1):
   *   N=2: T 0.75,     P 120.66;  N=3: T 0.666667, P 130.34;  N=4: T 0.625, P 140.02
   *   2->3: T3/T2 = 0.8889 < P2/P3 = 0.9257: worth it
   *   3->4: T4/T3 = 0.9375 > P3/P4 = 0.9309: not worth it  => bound 3 */
  CU_ASSERT_EQUAL(omp_ext_energy_worth(0.75, 120.66, 2.0 / 3, 130.34), 1);
  CU_ASSERT_EQUAL(omp_ext_energy_worth(2.0 / 3, 130.34, 0.625, 140.02), 0);
  m.serial = 0.5;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, C6100, 0) == 0);
  CU_ASSERT_EQUAL(omp_ext_model_bound(topo, &m, omp_ht_policy_speedup, &n), 0);
  CU_ASSERT_EQUAL(n, 3);
  /* s = 0: every added thread pays off, up to all 16. */
  CU_ASSERT_EQUAL(omp_ext_model_bound(topo, &c6100_s0, omp_ht_policy_speedup, &n), 0);
  CU_ASSERT_EQUAL(n, 16);
  omp_ext_topo_destroy(topo);
}

static void test_best(void)
{
  /* C6100, s = 0.5, energy relative to P/S at N=1 (110.98 W):
   *   speedup N=4: 140.02 / 1.6       = 87.51
   *   spn N=4:     125.88 / 1.444444  = 87.15  (C 2.6)
   *   spn N=5:     135.56 / 1.565217  = 86.61  (C 3.6)  <- least
   *   spn N=6:     138.17 / 1.591837  = 86.80  (C 3.9)
   *   spn N=7:     147.85 / 1.661017  = 89.01  (C 4.9)
   * SPN is highest at spn N=2: 1000 * 1.130435 / (113.59 * 1) = 9.952. */
  static const omp_ht_policy_t pols[] = {omp_ht_policy_speedup, omp_ht_policy_spn,
                                         omp_ht_policy_spread};
  omp_ext_topo_t *topo;
  omp_ext_model_t m = c6100_s0;
  omp_ext_estimate_t e;
  omp_ht_policy_t p;
  unsigned n;
  m.serial = 0.5;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, C6100, 0) == 0);
  CU_ASSERT_EQUAL(omp_ext_model_best(topo, &m, pols, 3, omp_ext_objective_energy, &p, &n, &e), 0);
  CU_ASSERT_EQUAL(p, omp_ht_policy_spn);
  CU_ASSERT_EQUAL(n, 5);
  CU_ASSERT(fabs(e.energy - 135.56 / (1 / (0.5 + 0.5 / 3.6)) / 110.98) < 1e-9);
  CU_ASSERT_EQUAL(omp_ext_model_best(topo, &m, pols, 3, omp_ext_objective_spn, &p, &n, &e), 0);
  CU_ASSERT_EQUAL(p, omp_ht_policy_spn);
  CU_ASSERT_EQUAL(n, 2);
  CU_ASSERT(fabs(e.spn - 1000 / (0.5 + 0.5 / 1.3) / 113.59) < 1e-9);
  /* Speed: all 16 PUs; every order reaches the same set, the first listed wins. */
  CU_ASSERT_EQUAL(omp_ext_model_best(topo, &m, pols, 3, omp_ext_objective_speed, &p, &n, &e), 0);
  CU_ASSERT_EQUAL(p, omp_ht_policy_speedup);
  CU_ASSERT_EQUAL(n, 16);
  /* The energy policy under this model: spn, 5 threads. */
  CU_ASSERT_EQUAL(omp_ext_energy_choice(topo, &m, &p, &n), 0);
  CU_ASSERT_EQUAL(p, omp_ht_policy_spn);
  CU_ASSERT_EQUAL(n, 5);
  /* s = 0: energy P/C falls all the way to 16 PUs (224.81 / 10.4). */
  CU_ASSERT_EQUAL(omp_ext_energy_choice(topo, &c6100_s0, &p, &n), 0);
  CU_ASSERT_EQUAL(p, omp_ht_policy_speedup);
  CU_ASSERT_EQUAL(n, 16);
  CU_ASSERT_EQUAL(omp_ext_model_best(topo, &m, pols, 0, omp_ext_objective_speed, &p, &n, &e),
                  omp_ext_err_invalid);
  omp_ext_topo_destroy(topo);
}

/* ---- the energy policy and the environment ----------------------------- */

/* omp_ext_order() under the model of the environment, as htplaces and the
 * in-code API read it at their edges (omp_ext_model_from_env()). */
static int order_env(const omp_ext_topo_t *topo, omp_ht_policy_t p, unsigned n, omp_ext_pu_t *out)
{
  omp_ext_model_t m;
  int err = omp_ext_model_from_env(environ, &m, NULL);
  return err ? err : omp_ext_order(topo, &m, p, n, out);
}

/* The model of the environment (the paper's default if invalid). */
static const omp_ext_model_t *env_model(omp_ext_model_t *m)
{
  if (omp_ext_model_from_env(environ, m, NULL) != 0)
    omp_ext_model_default(m);
  return m;
}

static void test_energy_policy_order(void)
{
  omp_ext_model_t em;
  omp_ext_topo_t *topo;
  omp_ext_pu_t energy[16], spn[16], speedup[16];
  omp_ht_policy_t p;
  unsigned n, i;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, C6100, 0) == 0);
  CU_ASSERT_EQUAL(omp_ext_policy_from_name("energy", &p), 0);
  CU_ASSERT_EQUAL(p, omp_ht_policy_energy);
  CU_ASSERT_STRING_EQUAL(omp_ext_policy_name(omp_ht_policy_energy), "energy");
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_spn, 16, spn), 0);
  CU_ASSERT_EQUAL(omp_ext_order(topo, NULL, omp_ht_policy_speedup, 16, speedup), 0);
  setenv("OMP_EXT_SERIAL_FRACTION", "0.5", 1);
  CU_ASSERT_EQUAL(order_env(topo, omp_ht_policy_energy, 16, energy), 0);
  for (i = 0; i < 16; i++)
    CU_ASSERT_EQUAL(energy[i].os_index, spn[i].os_index);
  CU_ASSERT_EQUAL(omp_ext_energy_choice(topo, env_model(&em), &p, &n), 0);
  CU_ASSERT_EQUAL(n, 5);
  unsetenv("OMP_EXT_SERIAL_FRACTION");
  CU_ASSERT_EQUAL(order_env(topo, omp_ht_policy_energy, 16, energy), 0);
  for (i = 0; i < 16; i++)
    CU_ASSERT_EQUAL(energy[i].os_index, speedup[i].os_index);
  setenv("OMP_EXT_POWER_MODEL", "1,2,3", 1);
  CU_ASSERT_EQUAL(order_env(topo, omp_ht_policy_energy, 4, energy), omp_ext_err_parse);
  unsetenv("OMP_EXT_POWER_MODEL");
  omp_ext_topo_destroy(topo);
}

static void test_parse_and_default(void)
{
  omp_ext_power_model_t pm;
  omp_ext_model_t m;
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("c6100", &pm), 0);
  ASSERT_NEAR(pm.pn, 76.11);
  ASSERT_NEAR(pm.pt, 2.61);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1.5,2,3,0", &pm), 0);
  ASSERT_NEAR(pm.pn, 1.5);
  ASSERT_NEAR(pm.pc, 3);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1,2,3", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1,2,3,4,5", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("-1,2,3,4", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1,2,3,-0.5", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("0,0,0,4", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1,,3,4", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1,2,3,4,", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("nan,2,3,4", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("inf,2,3,4", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1e308,1e308,1e308,1e308", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1000000,0,0,0", &pm), 0);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("1000001,0,0,0", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse("C6100", &pm), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_power_model_parse(NULL, &pm), omp_ext_err_invalid);

  unsetenv("OMP_EXT_POWER_MODEL");
  unsetenv("OMP_EXT_SIGMA");
  unsetenv("OMP_EXT_SERIAL_FRACTION");
  CU_ASSERT_EQUAL(omp_ext_model_from_env(environ, &m, NULL), 0);
  ASSERT_NEAR(m.power.pn, 76.11);
  ASSERT_NEAR(m.sigma, 0.3);
  ASSERT_NEAR(m.serial, 0);
  setenv("OMP_EXT_POWER_MODEL", "dl380p", 1);
  setenv("OMP_EXT_SIGMA", "0.25", 1);
  setenv("OMP_EXT_SERIAL_FRACTION", "0.05", 1);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(environ, &m, NULL), 0);
  ASSERT_NEAR(m.power.pn, 106.41);
  ASSERT_NEAR(m.sigma, 0.25);
  ASSERT_NEAR(m.serial, 0.05);
  setenv("OMP_EXT_SIGMA", "0", 1);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(environ, &m, NULL), omp_ext_err_parse);
  ASSERT_NEAR(m.sigma, 0.25); /* unchanged */
  setenv("OMP_EXT_SIGMA", "1", 1);
  setenv("OMP_EXT_SERIAL_FRACTION", "1", 1);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(environ, &m, NULL), omp_ext_err_parse);
  unsetenv("OMP_EXT_POWER_MODEL");
  unsetenv("OMP_EXT_SIGMA");
  unsetenv("OMP_EXT_SERIAL_FRACTION");

  m = c6100_s0;
  CU_ASSERT_EQUAL(omp_ext_model_check(&m), 0);
  m.sigma = 1.01;
  CU_ASSERT_EQUAL(omp_ext_model_check(&m), omp_ext_err_invalid);
  m.sigma = 0.3;
  m.serial = -0.1;
  CU_ASSERT_EQUAL(omp_ext_model_check(&m), omp_ext_err_invalid);
}

/* omp_ext_model_from_env() on crafted environments: each variable valid and
 * invalid; the first bad one is named; the model is left alone on error. */
static void test_model_from_env(void)
{
  static char *none[] = {"PATH=/bin", NULL};
  static char *all[] = {"OMP_EXT_POWER_MODEL=dl380p", "OMP_EXT_SIGMA=0.25",
                        "OMP_EXT_SERIAL_FRACTION=0.05", NULL};
  static char *empty[] = {"OMP_EXT_POWER_MODEL=", "OMP_EXT_SIGMA=", "OMP_EXT_SERIAL_FRACTION=",
                          NULL};
  static char *watts[] = {"OMP_EXT_POWER_MODEL=1,2,3,4", NULL};
  static char *bad_power[] = {"OMP_EXT_POWER_MODEL=1,2,3", "OMP_EXT_SIGMA=2", NULL};
  static char *bad_sigma[] = {"OMP_EXT_SIGMA=0", NULL};
  static char *bad_sigma2[] = {"OMP_EXT_SIGMA=x", NULL};
  static char *sigma_one[] = {"OMP_EXT_SIGMA=1", NULL};
  static char *bad_serial[] = {"OMP_EXT_SERIAL_FRACTION=1", NULL};
  static char *bad_serial2[] = {"OMP_EXT_SERIAL_FRACTION=-0.1", NULL};
  static char *prefix[] = {"OMP_EXT_SIGMAX=2", "OMP_EXT_SIGMA_=0", NULL};
  omp_ext_model_t m, d;
  const char *bad = "x";
  CU_ASSERT_EQUAL(omp_ext_model_default(&d), 0);
  ASSERT_NEAR(d.power.pn, 76.11);
  ASSERT_NEAR(d.power.pt, 2.61);
  ASSERT_NEAR(d.sigma, OMP_EXT_MODEL_SIGMA);
  ASSERT_NEAR(d.serial, OMP_EXT_MODEL_SERIAL);
  CU_ASSERT_EQUAL(omp_ext_model_default(NULL), omp_ext_err_invalid);

  CU_ASSERT_EQUAL(omp_ext_model_from_env(none, &m, &bad), 0);
  CU_ASSERT_PTR_NULL(bad);
  CU_ASSERT_EQUAL(memcmp(&m, &d, sizeof(m)), 0);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(empty, &m, NULL), 0);
  CU_ASSERT_EQUAL(memcmp(&m, &d, sizeof(m)), 0);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(prefix, &m, &bad), 0);
  CU_ASSERT_PTR_NULL(bad);
  ASSERT_NEAR(m.sigma, 0.3);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(all, &m, &bad), 0);
  ASSERT_NEAR(m.power.pn, 106.41);
  ASSERT_NEAR(m.sigma, 0.25);
  ASSERT_NEAR(m.serial, 0.05);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(watts, &m, &bad), 0);
  ASSERT_NEAR(m.power.pn, 1);
  ASSERT_NEAR(m.power.pt, 4);
  ASSERT_NEAR(m.sigma, 0.3);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(sigma_one, &m, &bad), 0);
  ASSERT_NEAR(m.sigma, 1);

  CU_ASSERT_EQUAL(omp_ext_model_from_env(bad_power, &m, &bad), omp_ext_err_parse);
  CU_ASSERT_STRING_EQUAL(bad, "OMP_EXT_POWER_MODEL");
  ASSERT_NEAR(m.sigma, 1); /* unchanged */
  CU_ASSERT_EQUAL(omp_ext_model_from_env(bad_sigma, &m, &bad), omp_ext_err_parse);
  CU_ASSERT_STRING_EQUAL(bad, "OMP_EXT_SIGMA");
  CU_ASSERT_EQUAL(omp_ext_model_from_env(bad_sigma2, &m, &bad), omp_ext_err_parse);
  CU_ASSERT_STRING_EQUAL(bad, "OMP_EXT_SIGMA");
  CU_ASSERT_EQUAL(omp_ext_model_from_env(bad_serial, &m, &bad), omp_ext_err_parse);
  CU_ASSERT_STRING_EQUAL(bad, "OMP_EXT_SERIAL_FRACTION");
  CU_ASSERT_EQUAL(omp_ext_model_from_env(bad_serial2, &m, NULL), omp_ext_err_parse);
  CU_ASSERT_EQUAL(omp_ext_model_from_env(none, NULL, &bad), omp_ext_err_invalid);
}

/* The policy table and the resolver: base policies are themselves with all
 * PUs, energy resolves under the model given (NULL: the paper's default). */
static void test_policy_table_resolve(void)
{
  omp_ext_topo_t *topo;
  omp_ext_model_t half = c6100_s0;
  omp_ht_policy_t base;
  unsigned n, p, candidates = 0;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, C6100, 0) == 0);
  for (p = 0; p < OMP_EXT_NPOLICIES; p++) {
    int is_base = omp_ext_policy_is_base((omp_ht_policy_t)p);
    int cand = omp_ext_policy_is_energy_candidate((omp_ht_policy_t)p);
    CU_ASSERT(is_base == 0 || is_base == 1);
    CU_ASSERT(cand == 0 || (cand == 1 && is_base == 1));
    candidates += cand == 1;
    CU_ASSERT_EQUAL(omp_ext_policy_resolve(topo, NULL, (omp_ht_policy_t)p, &base, &n), 0);
    CU_ASSERT_EQUAL(omp_ext_policy_is_base(base), 1);
    if (is_base) {
      CU_ASSERT_EQUAL(base, p);
      CU_ASSERT_EQUAL(n, 16);
    }
  }
  CU_ASSERT_EQUAL(candidates, 3);
  CU_ASSERT_EQUAL(omp_ext_policy_is_base(omp_ht_policy_os), 1);
  CU_ASSERT_EQUAL(omp_ext_policy_is_base(omp_ht_policy_energy), 0);
  CU_ASSERT_EQUAL(omp_ext_policy_is_energy_candidate(omp_ht_policy_os), 0);
  CU_ASSERT_EQUAL(omp_ext_policy_is_energy_candidate(omp_ht_policy_spread), 1);
  CU_ASSERT_EQUAL(omp_ext_policy_is_base((omp_ht_policy_t)OMP_EXT_NPOLICIES), omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_ext_policy_is_energy_candidate((omp_ht_policy_t)-1), omp_ext_err_policy);
  /* energy: s = 0 -> speedup on all 16; s = 0.5 -> spn, N = 5. */
  CU_ASSERT_EQUAL(omp_ext_policy_resolve(topo, NULL, omp_ht_policy_energy, &base, &n), 0);
  CU_ASSERT_EQUAL(base, omp_ht_policy_speedup);
  CU_ASSERT_EQUAL(n, 16);
  half.serial = 0.5;
  CU_ASSERT_EQUAL(omp_ext_policy_resolve(topo, &half, omp_ht_policy_energy, &base, &n), 0);
  CU_ASSERT_EQUAL(base, omp_ht_policy_spn);
  CU_ASSERT_EQUAL(n, 5);
  half.sigma = 0;
  CU_ASSERT_EQUAL(omp_ext_policy_resolve(topo, &half, omp_ht_policy_energy, &base, &n),
                  omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_policy_resolve(topo, &half, omp_ht_policy_spn, &base, &n), 0);
  CU_ASSERT_EQUAL(omp_ext_policy_resolve(topo, NULL, (omp_ht_policy_t)9, &base, &n),
                  omp_ext_err_policy);
  CU_ASSERT_EQUAL(omp_ext_policy_resolve(NULL, NULL, omp_ht_policy_spn, &base, &n),
                  omp_ext_err_invalid);
  omp_ext_topo_destroy(topo);
}

/* ---- properties on every fixture -------------------------------------- */

static void check_properties(const char *input, const omp_ext_model_t *m)
{
  omp_ext_topo_t *topo;
  omp_ext_pu_t *order;
  omp_ext_estimate_t prev, e, *all;
  unsigned npus, p, k;
  double p1 = m->power.pn + m->power.ps + m->power.pc;
  CU_ASSERT_FATAL(omp_ext_topo_load(&topo, input, 0) == 0);
  npus = omp_ext_topo_npus(topo);
  order = malloc(npus * sizeof(*order));
  all = malloc(npus * sizeof(*all));
  CU_ASSERT_FATAL(order != NULL && all != NULL);
  for (p = 0; p < OMP_EXT_NPOLICIES; p++) {
    if (p == omp_ht_policy_energy)
      continue;
    CU_ASSERT_FATAL(omp_ext_order(topo, NULL, (omp_ht_policy_t)p, npus, order) == 0);
    CU_ASSERT_FATAL(omp_ext_model_eval_prefixes(m, order, npus, all) == 0);
    for (k = 1; k <= npus; k++) {
      CU_ASSERT_FATAL(omp_ext_model_eval(m, order, k, &e) == 0);
      /* the one-pass prefixes are the same estimates */
      CU_ASSERT(memcmp(&all[k - 1].usage, &e.usage, sizeof(e.usage)) == 0);
      ASSERT_NEAR(all[k - 1].speedup, e.speedup);
      ASSERT_NEAR(all[k - 1].power, e.power);
      ASSERT_NEAR(all[k - 1].energy, e.energy);
      CU_ASSERT_EQUAL(e.usage.threads, k);
      CU_ASSERT_EQUAL(e.usage.extra, k - e.usage.cores);
      CU_ASSERT(e.usage.packages >= 1 && e.usage.packages <= e.usage.cores);
      ASSERT_NEAR(e.power, m->power.pn + m->power.ps * e.usage.packages +
                               m->power.pc * e.usage.cores + m->power.pt * e.usage.extra);
      ASSERT_NEAR(e.capacity, e.usage.cores + m->sigma * e.usage.extra);
      ASSERT_NEAR(e.speedup, 1 / (m->serial + (1 - m->serial) / e.capacity));
      ASSERT_NEAR(e.spn, 1000 * e.speedup / (e.power * e.usage.cores));
      ASSERT_NEAR(e.energy, e.power / e.speedup / p1);
      if (k > 1) {
        /* One more busy PU never lowers power, capacity or speed-up, and
         * more busy cores never lower power. */
        CU_ASSERT(e.power >= prev.power);
        CU_ASSERT(e.capacity > prev.capacity);
        CU_ASSERT(e.speedup >= prev.speedup);
        if (e.usage.cores > prev.usage.cores)
          CU_ASSERT(e.power >= prev.power + m->power.pc - 1e-9);
      }
      prev = e;
    }
  }
  free(order);
  free(all);
  omp_ext_topo_destroy(topo);
}

static void test_properties_fixtures(void)
{
  omp_ext_model_t models[3] = {c6100_s0, {{106.41, 39.74, 11.13, 2.83}, 0.3, 0.08},
                               {{50, 0, 1, 0}, 1, 0.9}};
  DIR *dir = opendir(OMP_EXT_TEST_DIR "/topologies");
  struct dirent *d;
  unsigned nfiles = 0, i;
  CU_ASSERT_FATAL(dir != NULL);
  while ((d = readdir(dir)) != NULL) {
    char path[4096];
    size_t len = strlen(d->d_name);
    if (len < 5 || strcmp(d->d_name + len - 4, ".xml") != 0)
      continue;
    snprintf(path, sizeof(path), "%s/topologies/%s", OMP_EXT_TEST_DIR, d->d_name);
    for (i = 0; i < 3; i++)
      check_properties(path, &models[i]);
    nfiles++;
  }
  closedir(dir);
  CU_ASSERT(nfiles >= 15);
  check_properties(C6100, &models[0]);
}

static void test_usage_errors(void)
{
  omp_ext_pu_t twice[2];
  omp_ext_usage_t u;
  omp_ext_estimate_t e;
  memset(twice, 0, sizeof(twice));
  CU_ASSERT_EQUAL(omp_ext_usage_of(twice, 2, &u), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_usage_of(NULL, 0, &u), 0);
  CU_ASSERT_EQUAL(u.threads + u.cores + u.packages + u.extra, 0);
  CU_ASSERT_EQUAL(omp_ext_model_eval(&c6100_s0, twice, 0, &e), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_model_eval_prefixes(&c6100_s0, twice, 0, &e), omp_ext_err_invalid);
  CU_ASSERT_EQUAL(omp_ext_model_eval_prefixes(&c6100_s0, NULL, 1, &e), omp_ext_err_invalid);
  {
    omp_ext_estimate_t two[2];
    CU_ASSERT_EQUAL(omp_ext_model_eval_prefixes(&c6100_s0, twice, 2, two), omp_ext_err_invalid);
  }
}

/* ---- htplaces model ---------------------------------------------------- */

/* Run htplaces with args (NULL-terminated) and env (may be NULL). */
static struct run_result htplaces(const char *const *args, char *const *env)
{
  char *argv[32];
  struct run_result r;
  unsigned i = 0;
  argv[i++] = (char *)HTPLACES_BIN;
  for (; *args && i < 31; args++)
    argv[i++] = (char *)*args;
  argv[i] = NULL;
  CU_ASSERT_FATAL(run_capture(argv, env, &r) == 0);
  return r;
}

static void expect_usage_error(const char *const *args, char *const *env, const char *needle)
{
  struct run_result r = htplaces(args, env);
  CU_ASSERT_EQUAL(r.status, 2);
  CU_ASSERT_STRING_EQUAL(r.out, "");
  CU_ASSERT_EQUAL(strncmp(r.err, "htplaces: ", 10), 0);
  CU_ASSERT_EQUAL(count_lines(r.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.err, needle));
  if (r.status != 2 || !strstr(r.err, needle))
    fprintf(stderr, "\n  args %s...: status %d, stderr %s", args[0], r.status, r.err);
  run_free(&r);
}

#define ARGS(...) ((const char *const[]){"-i", C6100, "model", __VA_ARGS__, NULL})

static void test_cli_bad_input(void)
{
  static char *bad_env[] = {"OMP_EXT_POWER_MODEL=1,2", NULL};
  static char *bad_sigma[] = {"OMP_EXT_SIGMA=2", NULL};
  expect_usage_error(ARGS("--power-model", "-1,25,9,2"), NULL, ">= 0");
  expect_usage_error(ARGS("--power-model", "76,25,9"), NULL, "3 numbers");
  expect_usage_error(ARGS("--power-model", "1,2,3,4,5"), NULL, "5 numbers");
  expect_usage_error(ARGS("--power-model", "c6200"), NULL, "c6100, dl380p");
  expect_usage_error(ARGS("--sigma", "0"), NULL, "(0, 1]");
  expect_usage_error(ARGS("--sigma", "1.2"), NULL, "(0, 1]");
  expect_usage_error(ARGS("--sigma", "-0.3"), NULL, "(0, 1]");
  expect_usage_error(ARGS("--serial-fraction", "1"), NULL, "[0, 1)");
  expect_usage_error(ARGS("--serial-fraction", "-0.01"), NULL, "[0, 1)");
  expect_usage_error(ARGS("--serial-fraction", "abc"), NULL, "[0, 1)");
  expect_usage_error(ARGS("--speedup", "4:5"), NULL, "S <= N");
  expect_usage_error(ARGS("--speedup", "4:0"), NULL, "> 0");
  expect_usage_error(ARGS("--speedup", "4:-2"), NULL, "> 0");
  expect_usage_error(ARGS("--speedup", "4:1"), NULL, "1 < S <= N");
  expect_usage_error(ARGS("--speedup", "4"), NULL, "N:S");
  expect_usage_error(ARGS("--speedup", "1:1"), NULL, ">= 2");
  expect_usage_error(ARGS("--speedup", "4:3", "--serial-fraction", "0.1"), NULL, "not both");
  expect_usage_error(ARGS("--format", "omp"), NULL, "table, csv, json");
  expect_usage_error(ARGS("--export"), NULL, "--export");
  expect_usage_error(ARGS("spin"), NULL, "energy");
  expect_usage_error(ARGS("spn"), bad_env, "OMP_EXT_POWER_MODEL");
  expect_usage_error(ARGS("spn"), bad_sigma, "OMP_EXT_SIGMA");
  expect_usage_error((const char *const[]){"-i", C6100, "energy", NULL}, bad_env,
                     "OMP_EXT_POWER_MODEL");
  expect_usage_error((const char *const[]){"-i", C6100, "energy", "3", NULL}, bad_sigma,
                     "OMP_EXT_SIGMA");
}

/* The CSV line of policy at N, or NULL. */
static const char *csv_row(const char *csv, const char *policy, unsigned n)
{
  char key[64];
  const char *p;
  snprintf(key, sizeof(key), "\n%s,%u,", policy, n);
  p = strstr(csv, key);
  return p ? p + 1 : NULL;
}

static void test_cli_csv(void)
{
  struct run_result r = htplaces(ARGS("--format", "csv", "speedup", "spn"), NULL);
  unsigned pk, co, ex;
  double cap, s, w;
  const char *row;
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.err, "");
  CU_ASSERT_EQUAL(count_lines(r.out), 1 + 2 * 16);
  row = csv_row(r.out, "spn", 4);
  CU_ASSERT_FATAL(row != NULL);
  CU_ASSERT_EQUAL(sscanf(row, "spn,4,%u,%u,%u,%lf,%lf,%lf", &pk, &co, &ex, &cap, &s, &w), 6);
  CU_ASSERT(pk == 1 && co == 2 && ex == 2);
  ASSERT_NEAR(cap, 2.6);
  ASSERT_NEAR(w, 125.88);
  row = csv_row(r.out, "speedup", 4);
  CU_ASSERT_FATAL(row != NULL);
  CU_ASSERT_EQUAL(sscanf(row, "speedup,4,%u,%u,%u,%lf,%lf,%lf", &pk, &co, &ex, &cap, &s, &w), 6);
  ASSERT_NEAR(w, 140.02);
  row = csv_row(r.out, "speedup", 8);
  CU_ASSERT_FATAL(row != NULL);
  CU_ASSERT_EQUAL(sscanf(row, "speedup,8,%u,%u,%u,%lf,%lf,%lf", &pk, &co, &ex, &cap, &s, &w), 6);
  ASSERT_NEAR(w, 203.93);
  /* s = 0: SPN is best at spn N=2 (1000 * 1.3 / 113.59), speed and energy at 16. */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nspn,2,1,1,1,"));
  row = csv_row(r.out, "spn", 2);
  CU_ASSERT(row && strstr(row, ",spn\n") == strchr(row, '\n') - 4);
  /* All 16 PUs: the same set in both orders; the tie goes to speedup, listed first. */
  row = csv_row(r.out, "spn", 16);
  CU_ASSERT_FATAL(row != NULL);
  CU_ASSERT_EQUAL(strncmp(strchr(row, '\n') - 5, ",yes,\n", 6), 0);
  row = csv_row(r.out, "speedup", 16);
  CU_ASSERT_FATAL(row != NULL);
  CU_ASSERT_EQUAL(strncmp(strchr(row, '\n') - 13, ",speed;energy", 13), 0);
  run_free(&r);
}

static void test_cli_speedup_and_json(void)
{
  /* --speedup 4:3.2: s = 1/12; spn 4 threads: S = 1/(1/12 + (11/12)/2.6). */
  struct run_result r = htplaces(ARGS("--speedup", "4:3.2", "-f", "csv", "spn"), NULL);
  double s, want = 1 / (1.0 / 12 + (11.0 / 12) / 2.6);
  const char *row = csv_row(r.out, "spn", 4);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_FATAL(row != NULL);
  CU_ASSERT_EQUAL(sscanf(row, "spn,4,%*u,%*u,%*u,%*f,%lf", &s), 1);
  CU_ASSERT(fabs(s - want) < 1e-8);
  run_free(&r);
  /* JSON; the global -f json before the command works too. */
  r = htplaces((const char *const[]){"-i", C6100, "-f", "json", "model", "--serial-fraction",
                                      "0.5", "--power-model", "c6100", NULL}, NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_EQUAL(r.out[0], '{');
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"best\":{\"speed\":{\"policy\":\"speedup\",\"n\":16},"
                                       "\"spn\":{\"policy\":\"spn\",\"n\":2},"
                                       "\"energy\":{\"policy\":\"spn\",\"n\":5}}"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"bound\":{\"speedup\":3,"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"serial\":0.5}"));
  run_free(&r);
}

static void test_cli_table_and_export(void)
{
  static char *half[] = {"OMP_EXT_SERIAL_FRACTION=0.5", NULL};
  struct run_result r = htplaces(ARGS("--serial-fraction", "0.5"), NULL);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "best energy  spn N=5:"));
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "best spn     spn N=2:"));
  /* 4 policies x 16 rows, each with its "worth" column. */
  CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\nspn         5    1     3     2     3.60"));
  run_free(&r);
  /* The energy policy picks N itself, and --export sets OMP_NUM_THREADS to it. */
  r = htplaces((const char *const[]){"-i", C6100, "-e", "energy", NULL}, half);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "export OMP_PLACES='{0},{8},{1},{9},{2}' OMP_PROC_BIND=close "
                                "OMP_NUM_THREADS=5\n");
  run_free(&r);
  r = htplaces((const char *const[]){"-i", C6100, "energy", "3", NULL}, half);
  CU_ASSERT_EQUAL(r.status, 0);
  CU_ASSERT_STRING_EQUAL(r.out, "{0},{8},{1}\n");
  run_free(&r);
}

static CU_TestInfo hand_tests[] = {
  {"power, C6100 preset: 125.88, 140.02, 203.93 W", test_power_c6100},
  {"power, DL380p preset", test_power_dl380p_preset},
  {"capacity, speed-up, SPN, energy", test_capacity_speedup_spn_energy},
  {"Karp-Flatt from known speed-ups", test_karp_flatt},
  {"§2.3 rule and bound on a hand-worked case", test_rule_hand},
  {"best N and policy per objective", test_best},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo api_tests[] = {
  {"energy policy order and N", test_energy_policy_order},
  {"power model text and environment", test_parse_and_default},
  {"model from a crafted environment", test_model_from_env},
  {"policy table and resolver", test_policy_table_resolve},
  {"usage errors", test_usage_errors},
  {"properties on every fixture", test_properties_fixtures},
  CU_TEST_INFO_NULL,
};

static CU_TestInfo cli_tests[] = {
  {"bad input: one line, empty stdout, exit 2", test_cli_bad_input},
  {"csv values", test_cli_csv},
  {"--speedup and json", test_cli_speedup_and_json},
  {"table and energy --export", test_cli_table_and_export},
  CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
  {"model by hand", NULL, NULL, NULL, NULL, hand_tests},
  {"model API", NULL, NULL, NULL, NULL, api_tests},
  {"htplaces model", NULL, NULL, NULL, NULL, cli_tests},
  CU_SUITE_INFO_NULL,
};

OMP_EXT_CUNIT_MAIN(suites)
