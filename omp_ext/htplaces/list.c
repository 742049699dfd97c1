/*
 * htplaces list: the policies, one line each (name and description, from
 * the library's policy table).
 */
#include <stdio.h>

#include "htplaces.h"

int htp_cmd_list(struct htp_ctx *ctx, int argc, char **argv)
{
  unsigned i;
  (void)ctx;
  if (argc > 1)
    return htp_error(HTP_EXIT_USAGE, "'list' takes no argument, got '%s'", argv[1]);
  for (i = 0; i < OMP_EXT_NPOLICIES_ALL; i++)
    printf("%-9s %s\n", omp_ext_policy_name(htp_all_policies[i]),
           omp_ext_policy_description(htp_all_policies[i]));
  return fflush(stdout) == 0 ? HTP_EXIT_OK : htp_error(HTP_EXIT_FAIL, "cannot write output");
}
