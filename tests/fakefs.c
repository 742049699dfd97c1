/*
 * Crafted sysfs and cgroup trees for the doctor tests (see fakefs.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fakefs.h"

int fakefs_put_raw(const char *root, const char *rel, const char *content)
{
  char path[512], *p;
  FILE *f;
  snprintf(path, sizeof(path), "%s/%s", root, rel);
  for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  if (!(f = fopen(path, "w")))
    return -1;
  fputs(content, f);
  return fclose(f);
}

int fakefs_put(const char *root, const char *rel, const char *content)
{
  char line[512];
  snprintf(line, sizeof(line), "%s\n", content);
  return fakefs_put_raw(root, rel, line);
}

int fakefs_cgroups(const char *root)
{
  static const char *const files[][2] = {
    {"cg2/cgroup.controllers", "cpuset cpu"},
    {"cg2/job/cgroup.controllers", "cpuset cpu"},
    {"cg2/job/cpu.max", "150000 100000"},
    {"cg2n/cgroup.controllers", "cpuset cpu"},
    {"cg2n/cpu.max", "50000 100000"},
    {"cg2n/leaf/cgroup.controllers", "cpuset cpu"},
    {"cg2n/leaf/cpu.max", "max 100000"},
    {"cg2c/cgroup.controllers", "cpuset cpu"},
    {"cg2c/cpu.max", "max 100000"},
    {"cg2c/cpuset.cpus.effective", "1"},
    {"cg1/cpu.cfs_quota_us", "150000"},
    {"cg1/cpu.cfs_period_us", "100000"},
    {"cg1none/cpu.cfs_quota_us", "-1"},
    {"cg1none/cpu.cfs_period_us", "100000"},
  };
  unsigned i;
  int err = 0;
  for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
    err |= fakefs_put(root, files[i][0], files[i][1]);
  return err ? -1 : 0;
}

int fakefs_remove(const char *root)
{
  char cmd[600];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
  return system(cmd) == 0 ? 0 : -1;
}
