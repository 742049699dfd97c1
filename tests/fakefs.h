/*
 * Test helpers: crafted sysfs and cgroup trees under a scratch root, for the
 * doctor tests (test_doctor, test_findings, test_golden).
 */
#ifndef OMP_EXT_FAKEFS_H
#define OMP_EXT_FAKEFS_H

/* Write ROOT/REL, making its folders, with CONTENT as is (raw) or followed
 * by a newline (as the kernel writes its files).  0, or -1. */
int fakefs_put_raw(const char *root, const char *rel, const char *content);
int fakefs_put(const char *root, const char *rel, const char *content);

/* The shared cgroup trees: cg2 (v2, 1.5 CPUs on the job leaf), cg2n (v2,
 * 0.5 CPU on the parent, none on the leaf), cg2c (v2, cpuset CPU 1, no
 * quota), cg1 (v1, 1.5 CPUs), cg1none (v1, no quota).  0, or -1. */
int fakefs_cgroups(const char *root);

/* rm -rf ROOT.  0, or -1. */
int fakefs_remove(const char *root);

#endif
