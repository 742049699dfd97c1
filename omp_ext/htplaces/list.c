/*
 * htplaces list [WHAT [NAME]]: the policies, one line each (name and
 * description, from the library's policy table); or the names of WHAT, one
 * a line, each from its own table -- the commands (main.c's table), the
 * runtimes (the library's prediction table), tune's objectives, a
 * command's or POLICY [N]'s options (its getopt_long table), the options
 * that take a value, the formats of POLICY [N] (the library's).
 * Scripts read them rather than keep copies: the bash completion does.
 */
#include <stdio.h>
#include <string.h>

#include "htplaces.h"
#include "tune_int.h" /* tune_objective_name() */

static void policies(void)
{
  unsigned i;
  for (i = 0; i < OMP_EXT_NPOLICIES_ALL; i++)
    printf("%-9s %s\n", omp_ext_policy_name(htp_all_policies[i]),
           omp_ext_policy_description(htp_all_policies[i]));
}

/* An option's words: "-c" when it has a short form (a letter), "--name". */
static void option_words(const struct option *o)
{
  if (o->val > 0 && o->val < 128 && strchr(HTP_COMMON_SHORTOPTS "V", o->val))
    printf("-%c\n", o->val);
  printf("--%s\n", o->name);
}

/* The options of \p cmd (NULL: those before a command): every command
 * takes -h, --help (main.c); "--" when PROG follows it. */
static void options(const struct htp_ctx *ctx, const struct htp_command *cmd)
{
  const struct option *o = cmd ? cmd->longopts : ctx->global_longopts;
  int help = 0;
  for (; o && o->name; o++) {
    option_words(o);
    help |= strcmp(o->name, "help") == 0;
  }
  if (!help)
    printf("-h\n--help\n");
  if (cmd && strstr(cmd->synopsis, " -- "))
    printf("--\n");
}

/* Is \p name among the required_argument options of tables [0, upto)? */
static int seen(const struct htp_ctx *ctx, unsigned upto, const char *name)
{
  unsigned t;
  for (t = 0; t < upto; t++) {
    const struct option *o = t ? ctx->commands[t - 1].longopts : ctx->global_longopts;
    for (; o && o->name; o++)
      if (o->has_arg == required_argument && strcmp(o->name, name) == 0)
        return 1;
  }
  return 0;
}

/* Every option that takes a value, of any command or before one, once. */
static void value_options(const struct htp_ctx *ctx)
{
  unsigned t;
  for (t = 0; t <= ctx->ncommands; t++) {
    const struct option *o = t ? ctx->commands[t - 1].longopts : ctx->global_longopts;
    for (; o && o->name; o++)
      if (o->has_arg == required_argument && !seen(ctx, t, o->name))
        option_words(o);
  }
}

/* htplaces POLICY [N] (places.c), as a row for options(). */
static const struct htp_command places = {"POLICY", "[options] POLICY [N]", "", NULL, "",
                                          htp_places_longopts};

static const char *const whats[] = {"policies", "commands", "runtimes", "objectives", "options",
                                    "value-options", "formats"};
#define NWHATS (sizeof(whats) / sizeof(*whats))

static int list_what(const struct htp_ctx *ctx, unsigned what, const struct htp_command *cmd)
{
  unsigned i;
  switch (what) {
  case 0: policies(); break;
  case 1:
    for (i = 0; i < ctx->ncommands; i++)
      printf("%s\n", ctx->commands[i].name);
    break;
  case 2:
    for (i = 0; i < OMP_EXT_NRUNTIMES; i++)
      printf("%s\n", omp_ext_runtime_name((omp_ext_runtime_t)i));
    break;
  case 3:
    for (i = 0; i < TUNE_NOBJECTIVES; i++)
      printf("%s\n", tune_objective_name((enum tune_objective)i));
    break;
  case 4: options(ctx, cmd); break;
  case 5: value_options(ctx); break;
  default:
    for (i = 0; i < OMP_EXT_NFORMATS; i++)
      printf("%s\n", omp_ext_format_name((omp_ext_format_t)i));
    break;
  }
  return HTP_EXIT_OK;
}

int htp_cmd_list(struct htp_ctx *ctx, int argc, char **argv)
{
  const struct htp_command *cmd = NULL;
  unsigned what = 0, i;
  char names[256];
  if (argc > 1) {
    for (what = 0; what < NWHATS && strcmp(argv[1], whats[what]) != 0; what++)
      ;
    if (what == NWHATS)
      return htp_error(HTP_EXIT_USAGE, "list: unknown '%s'; allowed: %s", argv[1],
                       htp_join(names, sizeof(names), whats, NWHATS, " or "));
  }
  if (argc > 2 && what == 4) {
    omp_ht_policy_t policy;
    for (i = 0; i < ctx->ncommands && strcmp(argv[2], ctx->commands[i].name) != 0; i++)
      ;
    if (i < ctx->ncommands)
      cmd = &ctx->commands[i];
    else if (omp_ext_policy_from_name(argv[2], &policy) == 0)
      cmd = &places; /* htplaces POLICY [N]'s own options */
    else
      return htp_error(HTP_EXIT_USAGE, "list options: unknown command or policy '%s'; see "
                       "htplaces list commands, htplaces list", argv[2]);
  }
  if (argc > (what == 4 ? 3 : 2))
    return htp_error(HTP_EXIT_USAGE, "'list %s' takes %s, got '%s'", argv[1],
                     what == 4 ? "at most one command" : "no other argument",
                     argv[what == 4 ? 3 : 2]);
  list_what(ctx, what, cmd);
  return fflush(stdout) == 0 ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot write output");
}
