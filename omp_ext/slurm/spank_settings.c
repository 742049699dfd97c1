/*
 * The Slurm plugin's settings: srun's --ht-policy, --ht-smt values and
 * plugstack.conf's arguments, merged per step, and what in the job's
 * environment conflicts with them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "spank_plan.h"
#include "private/util.h"

/* Most threads or PUs per core a value may name. */
#define HTS_MAX_NUM 1000000ULL

int hts_fail(char *err, size_t len, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, len, fmt, ap);
  va_end(ap);
  return -1;
}

/* The policy names for messages: "os, speedup, ..., auto[:time|:energy][:threads], off". */
static void policy_names(char *buf, size_t len)
{
  size_t used = 0;
  unsigned v;
  buf[0] = '\0';
  for (v = 0; v < OMP_EXT_NPOLICIES && used < len; v++)
    used += (size_t)snprintf(buf + used, len - used, "%s, ",
                             omp_ext_policy_name((omp_ht_policy_t)v));
  if (used < len)
    snprintf(buf + used, len - used, "auto[:time|:energy][:threads], off");
}

int hts_parse_policy(const char *what, const char *text, struct hts_settings *s, char *err,
                     size_t len)
{
  char name[32], names[160], q[4 * OMP_EXT_QUOTE_MAX + 32];
  const char *colon = strchr(text, ':');
  unsigned long long n = 0;
  size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
  omp_ht_policy_t policy = omp_ht_policy_os;
  int energy, threads;
  policy_names(names, sizeof(names));
  omp_ext_quote(text, q, sizeof(q));
  if (strcmp(text, "off") == 0) {
    memset(s->text, 0, sizeof(s->text));
    strcpy(s->text, "off");
    s->policy_set = s->off = 1;
    s->is_auto = 0;
    return 0;
  }
  if (strlen(text) <= 40 && omp_ext_auto_value(text, &energy, &threads) == 1) {
    /* (auto[:time|:energy][:threads]: libomp_ext's own grammar) */
    snprintf(s->text, sizeof(s->text), "%s", text);
    s->policy_set = s->is_auto = 1;
    s->off = 0;
    s->policy = omp_ht_policy_auto;
    s->n = 0;
    return 0;
  }
  if (nlen == 0 || nlen >= sizeof(name) || strncmp(text, "auto:", 5) == 0)
    return hts_fail(err, len, "%s '%s': unknown policy; allowed: %s (POLICY[:N])", what, q, names);
  memcpy(name, text, nlen);
  name[nlen] = '\0';
  if (omp_ext_policy_from_name(name, &policy) != 0 || policy == omp_ht_policy_auto)
    return hts_fail(err, len, "%s '%s': unknown policy; allowed: %s (POLICY[:N])", what, q, names);
  if (colon && omp_ext_parse_uint(colon + 1, 1, HTS_MAX_NUM, &n) != OMP_EXT_UINT_OK)
    return hts_fail(err, len, "%s '%s': N must be a whole number of threads >= 1", what, q);
  snprintf(s->text, sizeof(s->text), "%s", text);
  s->policy_set = 1;
  s->off = s->is_auto = 0;
  s->policy = policy;
  s->n = (unsigned)n;
  return 0;
}

int hts_parse_smt(const char *what, const char *text, struct hts_settings *s, char *err,
                  size_t len)
{
  unsigned long long k;
  char q[4 * OMP_EXT_QUOTE_MAX + 32];
  if (omp_ext_parse_uint(text, 1, HTS_MAX_NUM, &k) != OMP_EXT_UINT_OK)
    return hts_fail(err, len, "%s '%s': K must be a whole number >= 1 (PUs used per core)", what,
                    omp_ext_quote(text, q, sizeof(q)));
  s->smt = (unsigned)k;
  s->smt_set = 1;
  return 0;
}

int hts_parse_arg(const char *arg, struct hts_settings *s, char *err, size_t len)
{
  static const char allowed[] = "allowed: default=POLICY[:N], smt=K, verbose, strict, "
                                "preload=PATH";
  char q[4 * OMP_EXT_QUOTE_MAX + 32];
  if (strncmp(arg, "default=", 8) == 0)
    return hts_parse_policy("plugstack.conf default", arg + 8, s, err, len);
  if (strncmp(arg, "smt=", 4) == 0)
    return hts_parse_smt("plugstack.conf smt", arg + 4, s, err, len);
  if (strcmp(arg, "verbose") == 0)
    return s->verbose = 1, 0;
  if (strcmp(arg, "strict") == 0)
    return s->strict = 1, 0;
  if (strncmp(arg, "preload=", 8) == 0 && arg[8] == '/' && strlen(arg + 8) < sizeof(s->preload))
    return snprintf(s->preload, sizeof(s->preload), "%s", arg + 8), 0;
  if (strncmp(arg, "preload=", 8) == 0)
    return hts_fail(err, len, "plugstack.conf %s: PATH must be an absolute path to libomp_ext.so",
                    omp_ext_quote(arg, q, sizeof(q)));
  return hts_fail(err, len, "plugstack.conf: unknown argument '%s'; %s",
                  omp_ext_quote(arg, q, sizeof(q)), allowed);
}

void hts_merge(const struct hts_settings *site, const struct hts_settings *user,
               struct hts_settings *out)
{
  *out = *site;
  if (user->policy_set) {
    out->policy_set = 1;
    out->off = user->off;
    out->is_auto = user->is_auto;
    out->policy = user->policy;
    out->n = user->n;
    memcpy(out->text, user->text, sizeof(out->text));
  }
  if (user->smt_set) {
    out->smt = user->smt;
    out->smt_set = 1;
  }
  out->verbose |= user->verbose;
  out->strict |= user->strict;
  if (!out->policy_set && user->smt_set) {
    out->policy_set = 1;
    out->policy = omp_ht_policy_speedup;
    strcpy(out->text, "speedup");
  }
}

int hts_active(const struct hts_settings *s)
{
  return s->policy_set && !s->off;
}

/* Slurm's binding type as srun set it: "" / "none" (none), a level alone
 * that srun implies from --ntasks-per-core ("cores") or --ntasks-per-socket
 * ("sockets") (none either: the level of its automatic binding, which the
 * plugin replaces), or a binding the user asked for.  1 for the last. */
static int slurm_binds(char *const *envp, const char *type)
{
  if (!type || !*type || strcmp(type, "none") == 0)
    return 0;
  if (strcmp(type, "cores") == 0 && omp_ext_env_get(envp, "SLURM_NTASKS_PER_CORE"))
    return 0;
  if (strcmp(type, "sockets") == 0 && omp_ext_env_get(envp, "SLURM_NTASKS_PER_SOCKET"))
    return 0;
  return 1;
}

int hts_conflict(const struct hts_settings *s, int asked, char *const *envp, char *err,
                 size_t len)
{
  static const char *const vars[] = {"KMP_AFFINITY", "GOMP_CPU_AFFINITY", "OMP_EXT_HT_POLICY",
                                     "OMP_EXT_PLAN", "OMP_PLACES", "OMP_PROC_BIND"};
  const char *type = omp_ext_env_get(envp, "SLURM_CPU_BIND_TYPE");
  char q[4 * OMP_EXT_QUOTE_MAX + 32];
  unsigned i;
  if (slurm_binds(envp, type)) {
    omp_ext_quote(type, q, sizeof(q));
    if (asked)
      hts_fail(err, len, "--ht-policy=%s refused: Slurm binds the tasks itself "
               "(SLURM_CPU_BIND_TYPE=%s, from srun --cpu-bind, --hint or SLURM_CPU_BIND); use "
               "--cpu-bind=none, or drop the --ht-* options", s->text, q);
    else
      hts_fail(err, len, "the site's default %s is not applied: Slurm binds the tasks "
               "(SLURM_CPU_BIND_TYPE=%s)", s->text, q);
    return 1;
  }
  for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
    const char *v = omp_ext_env_get(envp, vars[i]);
    if (!v || (asked && i >= 4))
      continue;
    omp_ext_quote(v, q, sizeof(q));
    if (asked)
      hts_fail(err, len, "--ht-policy=%s refused: %s=%s is set and would override the places; "
               "unset it, or drop the --ht-* options", s->text, vars[i], q);
    else
      hts_fail(err, len, "the site's default %s is not applied: %s=%s is set", s->text, vars[i],
               q);
    return 1;
  }
  return 0;
}
