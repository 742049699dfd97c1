/*
 * private/tools_handoff.h -- the topology hand-off of htplaces exec: the
 * topology htplaces loaded, as hwloc XML in OMP_EXT_TOPO_XML, and a stamp
 * of the process it was loaded for in OMP_EXT_TOPO_STAMP.  The preloaded
 * library (bind.c) imports it instead of discovering this machine again
 * (about 2 ms of a program's start) only when the stamp matches the process
 * it runs in: same host and boot, same cgroups, same CPU affinity, same
 * library and hwloc.  Anything else (another node under srun or mpirun, a
 * systemd-run or srun step, taskset, another build, a garbled or edited
 * variable) is a miss: the library discovers as without it, silently.
 * Included by private/tools.h.
 */
#ifndef OMP_EXT_TOOLS_HANDOFF_H
#define OMP_EXT_TOOLS_HANDOFF_H

#include <stddef.h>
#include <stdint.h>

#include "omp_ext.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OMP_EXT_HANDOFF_XML_VAR "OMP_EXT_TOPO_XML"
#define OMP_EXT_HANDOFF_STAMP_VAR "OMP_EXT_TOPO_STAMP"
/** The largest XML handed over, in bytes (a larger one: no hand-off). */
#define OMP_EXT_HANDOFF_MAX_XML 65536
/** A stamp's text: "1-" and 16 hexadecimal digits, with its NUL. */
#define OMP_EXT_HANDOFF_STAMP_LEN 19

/** What the stamp covers, one digest each (omp_ext_handoff_facts()). */
enum omp_ext_handoff_field {
  omp_ext_handoff_build = 0, /**< omp_ext's version and API, hwloc's (compiled, running) */
  omp_ext_handoff_node,      /**< uname(2)'s nodename */
  omp_ext_handoff_boot,      /**< /proc/sys/kernel/random/boot_id */
  omp_ext_handoff_cgroup,    /**< /proc/self/cgroup (every hierarchy's path) */
  omp_ext_handoff_affinity,  /**< sched_getaffinity(2) of the process */
  omp_ext_handoff_nfields
};

/** The calling process, as the stamp sees it: a 64-bit FNV-1a digest of each field. */
struct omp_ext_handoff_facts {
  uint64_t field[omp_ext_handoff_nfields];
};

/**
 * Read the facts of the calling process now (the environment's edge: uname,
 * two /proc files), its affinity the CPUs of \p affinity (a cpu_set_t of
 * \p size bytes:
 * the mask the library read as it was loaded), or with \p affinity NULL
 * the calling thread's now (sched_getaffinity).
 * \return 0; omp_ext_err_unsupported (a field could not be read: then no
 *         hand-off, either way).
 */
int omp_ext_handoff_facts(struct omp_ext_handoff_facts *f, const void *affinity,
                          size_t size);

/**
 * The stamp of \p xml (\p len bytes) handed over to a process of facts \p f,
 * into \p out (OMP_EXT_HANDOFF_STAMP_LEN bytes): "1-" and the hexadecimal
 * FNV-1a digest of the facts and the XML (any edit of either changes it).
 */
void omp_ext_handoff_stamp(const struct omp_ext_handoff_facts *f, const char *xml, size_t len,
                           char *out);

/**
 * Whether \p xml (NUL-terminated) and \p stamp, as read from the two
 * variables, were handed over to the calling process: 1 when both are set,
 * the XML is at most OMP_EXT_HANDOFF_MAX_XML bytes and the stamp equals
 * omp_ext_handoff_stamp() of this process's facts now (\p affinity and
 * \p size: as omp_ext_handoff_facts()); else 0.
 */
int omp_ext_handoff_usable(const char *xml, const char *stamp, const void *affinity,
                           size_t size);

/**
 * The hwloc XML of \p hw for the hand-off (hwloc_topology_export_xmlbuffer,
 * hwloc 2's format) and its stamp for the calling process now, into *xml
 * (to be freed with hwloc_free_xmlbuffer(hw, *xml)) and \p stamp
 * (OMP_EXT_HANDOFF_STAMP_LEN bytes), the affinity the calling thread's.
 * \return 0; omp_ext_err_range (the XML is over OMP_EXT_HANDOFF_MAX_XML:
 *         *xml NULL); omp_ext_err_unsupported (the facts could not be read,
 *         or hwloc could not export: *xml NULL).
 */
int omp_ext_handoff_export(hwloc_topology_t hw, char **xml, char *stamp);

#ifdef __cplusplus
}
#endif

#endif /* OMP_EXT_TOOLS_HANDOFF_H */
