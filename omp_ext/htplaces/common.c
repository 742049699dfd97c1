/*
 * htplaces: what every subcommand shares -- errors, the common options, the
 * topology (with --restrict and the MPI rank), POLICY and N.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "htplaces.h"
#include "private/util.h"

int htp_error(int status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  status = omp_ext_tool_verror("htplaces", status, fmt, ap);
  va_end(ap);
  return status;
}

char *htp_cpuset_text(hwloc_const_bitmap_t set)
{
  char *s = NULL;
  if (!set || hwloc_bitmap_list_asprintf(&s, set) < 0)
    return NULL;
  return s;
}

int htp_common_option(struct htp_ctx *ctx, int c, const char *optarg_, int optopt_,
                      char *const argv[])
{
  switch (c) {
  case 'i':
    if (ctx->input)
      exit(htp_error(HTP_EXIT_USAGE, "--input given twice; give one topology"));
    if (!*optarg_)
      exit(htp_error(HTP_EXIT_USAGE, "empty --input; give an hwloc XML file or synthetic "
                     "string, or leave -i out for this machine"));
    ctx->input = optarg_;
    return 1;
  case 'r':
    if (ctx->restrict_list)
      exit(htp_error(HTP_EXIT_USAGE, "--restrict given twice; give one list of PUs"));
    ctx->restrict_list = optarg_;
    return 1;
  case 'e': ctx->do_export = 1; return 1;
  case HTP_OPT_RANKS: ctx->ranks_opt = optarg_; return 1;
  case HTP_OPT_LOCAL_RANK: ctx->rank_opt = optarg_; return 1;
  case 'f': ctx->format = optarg_; return 1; /* checked by the subcommand: htp_format() */
  case 'h':
    if (ctx->help)
      ctx->help(stdout, ctx->command);
    if (fflush(stdout) != 0 || ferror(stdout))
      exit(htp_error(HTP_EXIT_FAIL, "cannot write to standard output"));
    exit(HTP_EXIT_OK);
  case ':':
    exit(htp_error(HTP_EXIT_USAGE, "option '%s' needs a value; see htplaces --help",
                   argv[optind - 1]));
  case '?':
    if (optopt_ >= '0' && optopt_ <= '9')
      exit(htp_error(HTP_EXIT_USAGE, "N must be a positive whole number, got one with a minus "
                     "sign; allowed: 1 up to the allowed PUs (htplaces topo lists them)"));
    if (optopt_)
      exit(htp_error(HTP_EXIT_USAGE, "unknown option '-%c'; see htplaces --help", optopt_));
    exit(htp_error(HTP_EXIT_USAGE, "unknown option '%s'; see htplaces --help",
                   argv[optind - 1]));
  default: return 0;
  }
}

int htp_format(const struct htp_ctx *ctx, const char *command, const char *const *names,
               unsigned n, unsigned *index)
{
  char allowed[256];
  unsigned i;
  if (index)
    *index = 0;
  if (!ctx->format)
    return HTP_EXIT_OK;
  if (n == 0)
    return htp_error(HTP_EXIT_USAGE, "--format and --export apply to 'htplaces POLICY [N]', "
                     "not to '%s'", command);
  for (i = 0; i < n; i++)
    if (strcmp(ctx->format, names[i]) == 0) {
      if (index)
        *index = i;
      return HTP_EXIT_OK;
    }
  htp_join(allowed, sizeof(allowed), names, n, ", ");
  if (!command)
    return htp_error(HTP_EXIT_USAGE, "unknown format '%s'; allowed: %s", ctx->format, allowed);
  return htp_error(HTP_EXIT_USAGE, "unknown format '%s' for '%s'; allowed: %s", ctx->format,
                   command, allowed);
}

int htp_report_format(const struct htp_ctx *ctx, const char *command, int *json)
{
  static const char *const names[] = {"text", "json"};
  unsigned i;
  int status;
  *json = 0;
  if (ctx->do_export)
    return htp_error(HTP_EXIT_USAGE, "--export applies to 'htplaces POLICY [N]', not to '%s'",
                     command);
  if ((status = htp_format(ctx, command, names, 2, &i)) != 0)
    return status;
  *json = i == 1;
  return HTP_EXIT_OK;
}

int htp_no_format(const struct htp_ctx *ctx, const char *command)
{
  if (ctx->do_export)
    return htp_error(HTP_EXIT_USAGE, "--format and --export apply to 'htplaces POLICY [N]', "
                     "not to '%s'", command);
  return htp_format(ctx, command, NULL, 0, NULL);
}

const char *htp_join(char *buf, size_t len, const char *const *names, unsigned n,
                     const char *last)
{
  size_t used = 0;
  unsigned i;
  buf[0] = '\0';
  for (i = 0; i < n && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s",
                             i == 0 ? "" : i + 1 == n ? last : ", ", names[i]);
  return buf;
}

const char *htp_policy_names(int base_only)
{
  static char names[256];
  const char *list[OMP_EXT_NPOLICIES];
  unsigned i, n = 0;
  for (i = 0; i < OMP_EXT_NPOLICIES; i++)
    if (!base_only || omp_ext_policy_is_base((omp_ht_policy_t)i) == 1)
      list[n++] = omp_ext_policy_name((omp_ht_policy_t)i);
  return htp_join(names, sizeof(names), list, n, ", ");
}

const omp_ht_policy_t htp_all_policies[OMP_EXT_NPOLICIES_ALL] = {
#define HTP_POLICY_VALUE_(name, value, base, candidate, description) omp_ht_policy_##name,
  OMP_EXT_POLICIES(HTP_POLICY_VALUE_)
#undef HTP_POLICY_VALUE_
};

int htp_parse_policy(const char *text, omp_ht_policy_t *policy)
{
  if (omp_ext_policy_from_name(text, policy) != omp_ext_success)
    return htp_error(HTP_EXIT_USAGE, "unknown policy '%s'; allowed: %s", text,
                     htp_policy_names(0));
  if (omp_ext_policy_has_order(*policy) == 1)
    return HTP_EXIT_OK;
  return htp_error(HTP_EXIT_USAGE, "policy '%s' is run time only (per region, as the program "
                   "runs: htplaces exec %s -- PROGRAM, OMP_EXT_HT_POLICY=%s, or htplaces exec "
                   "--plan) and has no place list; allowed here: %s", text, text, text,
                   htp_policy_names(0));
}

int htp_parse_count(const char *text, unsigned max, unsigned *n)
{
  unsigned long long v;
  int r = omp_ext_parse_uint(text, 1, max, &v);
  if (r == OMP_EXT_UINT_MALFORMED || r == OMP_EXT_UINT_BELOW)
    return htp_error(HTP_EXIT_USAGE, "N must be a positive whole number, got '%s'; allowed: "
                     "1..%u", text, max);
  if (r == OMP_EXT_UINT_ABOVE)
    return htp_error(HTP_EXIT_USAGE, "N=%s is larger than the %u allowed PUs; allowed: 1..%u",
                     text, max, max);
  *n = (unsigned)v;
  return HTP_EXIT_OK;
}

int htp_print(const char *text)
{
  if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout) == EOF)
    return htp_error(HTP_EXIT_FAIL, "cannot write to standard output");
  return HTP_EXIT_OK;
}

/* A whole finite number. */
int htp_parse_double(const char *text, double *v)
{
  char *end;
  if (!*text)
    return -1;
  *v = strtod(text, &end);
  return *end || !isfinite(*v) ? -1 : 0;
}

/* Why a power model text is wrong, for the error line. */
int htp_power_model_error(const char *what, const char *text)
{
  unsigned fields = 1;
  const char *p;
  for (p = text; *p; p++)
    fields += *p == ',';
  if (fields == 1)
    return htp_error(HTP_EXIT_USAGE, "invalid %s '%s'; allowed: c6100, dl380p, or four watts "
                     "Pn,Ps,Pc,Pt", what, text);
  if (fields != 4)
    return htp_error(HTP_EXIT_USAGE, "invalid %s '%s': %u numbers; allowed: four watts "
                     "Pn,Ps,Pc,Pt, each >= 0", what, text, fields);
  return htp_error(HTP_EXIT_USAGE, "invalid %s '%s'; allowed: four finite watts Pn,Ps,Pc,Pt, "
                   "each >= 0 and <= 1e6, with Pn+Ps+Pc > 0", what, text);
}

void htp_handoff_clear(void)
{
  unsetenv(OMP_EXT_HANDOFF_XML_VAR);
  unsetenv(OMP_EXT_HANDOFF_STAMP_VAR);
}

void htp_program_env(const struct htp_ctx *ctx)
{
  if (ctx->hwloc_env_ours)
    unsetenv("HWLOC_PLUGINS_BLACKLIST");
  htp_handoff_clear(); /* (an outer exec's: exec auto and --plan make their own) */
}

/* A shell word: bare when safe, else single-quoted. */
void htp_shell_word(FILE *f, const char *s)
{
  const char *p;
  if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
      strlen(s)) {
    fputs(s, f);
    return;
  }
  fputc('\'', f);
  for (p = s; *p; p++)
    if (*p == '\'')
      fputs("'\\''", f);
    else
      fputc(*p, f);
  fputc('\'', f);
}

#ifndef OMP_EXT_LIBDIR_REL /* (set by CMake for htplaces_cli; the fuzzers, */
#define OMP_EXT_LIBDIR_REL "lib" /* which build this file too, run no program) */
#endif
#ifndef OMP_EXT_SOVERSION
#define OMP_EXT_SOVERSION "0"
#endif

/* libomp_ext.so beside this htplaces: PREFIX/LIBDIR when installed
 * (bin/../LIBDIR), omp_ext/ in a build tree (bin/../omp_ext); NULL if
 * neither is there. */
int htp_preload_path_error(const char *lib, int status)
{
  if (!strpbrk(lib, " :\t\n"))
    return HTP_EXIT_OK;
  return htp_error(status, "the library's path '%s' has a space or ':', which LD_PRELOAD cannot "
                   "carry (the loader splits there): install omp_ext under a path without them",
                   lib);
}

const char *htp_find_libomp_ext(char *buf, size_t len)
{
  static const char *const rel[] = {"../" OMP_EXT_LIBDIR_REL "/libomp_ext.so." OMP_EXT_SOVERSION,
                                    "../omp_ext/libomp_ext.so." OMP_EXT_SOVERSION};
  char exe[4096], *slash;
  ssize_t got = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  unsigned i;
  if (got <= 0)
    return NULL;
  exe[got] = '\0';
  if (!(slash = strrchr(exe, '/')))
    return NULL;
  *slash = '\0';
  for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
    if (snprintf(buf, len, "%s/%s", exe, rel[i]) < (int)len && access(buf, R_OK) == 0)
      return buf;
  return NULL;
}
