/*
 * handoff_exec SOURCE BREAK PROGRAM [ARGS]: run PROGRAM with the topology
 * hand-off variables of htplaces exec (OMP_EXT_TOPO_XML, OMP_EXT_TOPO_STAMP:
 * omp_ext/lib/private/tools_handoff.h) set as this process, about to exec,
 * would have them -- or with one thing wrong (test_handoff.sh):
 *
 *   SOURCE  real     this machine's topology, as htplaces hands it over
 *           one      this machine restricted to its first allowed PU (a
 *                    topology the program must not use unless the stamp is
 *                    its own: every thread would then be on that PU)
 *           garbage  text that is no hwloc XML
 *   BREAK   none     the stamp of this process
 *           build, node, boot, cgroup, affinity: that field of the stamp
 *                    changed (another build, host, boot, cgroup, affinity)
 *           xml      the stamp of other XML (the XML edited after stamping)
 *           text     a stamp that is no stamp ("1-" and garbage)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "private/tools.h"

static const char *const fields[] = {"build", "node", "boot", "cgroup", "affinity"};

static char *machine_xml(int one)
{
  hwloc_topology_t hw;
  hwloc_bitmap_t first = hwloc_bitmap_alloc();
  char *buf = NULL, *copy;
  int len;
  if (hwloc_topology_init(&hw) < 0 || hwloc_topology_load(hw) < 0)
    return NULL;
  if (one) {
    if (hwloc_get_cpubind(hw, first, HWLOC_CPUBIND_PROCESS) < 0 ||
        hwloc_bitmap_and(first, first, hwloc_topology_get_allowed_cpuset(hw)) < 0 ||
        hwloc_bitmap_only(first, (unsigned)hwloc_bitmap_first(first)) < 0 ||
        hwloc_topology_restrict(hw, first, 0) < 0)
      return NULL;
  }
  if (hwloc_topology_export_xmlbuffer(hw, &buf, &len, 0) < 0)
    return NULL;
  copy = strdup(buf);
  hwloc_free_xmlbuffer(hw, buf);
  hwloc_bitmap_free(first);
  hwloc_topology_destroy(hw);
  return copy;
}

int main(int argc, char **argv)
{
  struct omp_ext_handoff_facts f;
  char stamp[OMP_EXT_HANDOFF_STAMP_LEN], *xml;
  const char *brk = argc > 2 ? argv[2] : "";
  size_t i, len;
  if (argc < 4) {
    fprintf(stderr, "usage: handoff_exec real|one|garbage none|build|node|boot|cgroup|affinity|"
            "xml|text PROGRAM [ARGS]\n");
    return 2;
  }
  xml = strcmp(argv[1], "garbage") == 0 ? strdup("<?xml version=\"1.0\"?><topology version=\"2.0\">"
                                                 "<object type=\"Machine\" cpuset=\"zz\">")
                                        : machine_xml(strcmp(argv[1], "one") == 0);
  if (!xml || omp_ext_handoff_facts(&f, NULL, 0) != 0) {
    fprintf(stderr, "handoff_exec: cannot make the XML or read this process's facts\n");
    return 1;
  }
  for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
    if (strcmp(brk, fields[i]) == 0)
      f.field[i] ^= 1;
  len = strlen(xml);
  if (strcmp(brk, "xml") == 0)
    xml[len - 1] ^= 1; /* (stamped with the last byte changed, handed as it was) */
  omp_ext_handoff_stamp(&f, xml, len, stamp);
  if (strcmp(brk, "xml") == 0)
    xml[len - 1] ^= 1;
  if (strcmp(brk, "text") == 0)
    memcpy(stamp + 2, "zzzzzzzzzzzzzzzz", 16);
  if (setenv(OMP_EXT_HANDOFF_XML_VAR, xml, 1) != 0 ||
      setenv(OMP_EXT_HANDOFF_STAMP_VAR, stamp, 1) != 0)
    return 1;
  execvp(argv[3], argv + 3);
  perror(argv[3]);
  return 127;
}
