/*
 * Private text helpers of libomp_ext and of the tools: the one whole-number
 * parser, the one environment lookup, the one sysfs/cgroup file reader,
 * hwloc's environment and the one JSON string writer.  util.c is compiled
 * into the library (hidden: no OMP_EXT_API, not part of libomp_ext.so's
 * interface) and into the tools' helper library omp_ext_misc (misc.h), so
 * htplaces and htbench get them from there, not from the library's
 * internals.
 */
#ifndef OMP_EXT_UTIL_H
#define OMP_EXT_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include <hwloc.h>

/* omp_ext_parse_uint's results. */
#define OMP_EXT_UINT_OK 0
#define OMP_EXT_UINT_MALFORMED (-1) /* empty, or not decimal digits only */
#define OMP_EXT_UINT_BELOW (-2)     /* digits, but below min */
#define OMP_EXT_UINT_ABOVE (-3)     /* digits, but above max (overflow too) */

/* util.c: the decimal number at the start of s, digits only (no sign, no
 * space, no 0x); *end just after its digits.  0, MALFORMED (no digit: *end
 * = s) or ABOVE (above max: *v = max, *end still after the digits). */
int omp_ext_scan_uint(const char *s, const char **end, unsigned long long max,
                      unsigned long long *v);

/* util.c: the whole text as a decimal number min..max, digits only.
 * OMP_EXT_UINT_OK (*v set) or one of the negative results above. */
int omp_ext_parse_uint(const char *text, unsigned long long min, unsigned long long max,
                       unsigned long long *v);

/* util.c: the largest OS index of a CPU list omp_ext_parse_cpulist() takes
 * from a user (-r, --restrict): OMP_EXT_PLACES_MAX_CPU's 65535, as the
 * place lists. */
#define OMP_EXT_CPULIST_MAX 65535ULL
/* ... and from the kernel, a runtime or a timing file: hwloc's limit. */
#define OMP_EXT_CPULIST_ANY 0x7fffffffULL

/* util.c: a CPU list in the kernel's and hwloc's list syntax ("0-3,8";
 * "4-": 4 and every index after it), strictly: items "N", "N-M" or "N-"
 * separated by single commas, decimal digits only, each index at most max
 * (max <= INT_MAX, hwloc's limit; so 4294967297 is above 65535, never 1).  "" is the empty set.  set is
 * emptied first.  OMP_EXT_UINT_OK, OMP_EXT_UINT_MALFORMED (also N > M) or
 * OMP_EXT_UINT_ABOVE (*above, when not NULL, then points at the index). */
int omp_ext_parse_cpulist(const char *text, unsigned long long max, hwloc_bitmap_t set,
                          const char **above);

/* util.c: NAME's value in envp ("NAME=VALUE" strings, NULL-terminated), or
 * NULL; envp NULL reads the process environment (getenv). */
const char *omp_ext_env_get(char *const *envp, const char *name);

/* util.c: OMP_EXT_HT_POLICY's per-region value: "auto", then ":WORD"
 * options, each at most once -- one objective, "time" (the default) or
 * "energy", and "threads" (per-region control may also choose a region's
 * team size, up to nthreads-var: for programs correct under
 * OMP_DYNAMIC=true).  1: such a value (*energy, *threads set); 0: not an
 * auto value (the text does not start with the word "auto"); -1: it does,
 * but an option is unknown, repeated or empty. */
int omp_ext_auto_value(const char *text, int *energy, int *threads);
/* The allowed forms, for messages. */
#define OMP_EXT_AUTO_FORMS "auto, auto:time, auto:energy, each optionally followed by :threads"

/* util.c: \p name as one blank-separated field of a plan line: '%',
 * blanks, control bytes and DEL written %XX (the plan format, plan_int.h;
 * the reader decodes them). */
void omp_ext_put_field(FILE *f, const char *name);

/* util.c: what a file of mode \p mode is, for a message that refuses one
 * that is not a regular file: "a folder", "a FIFO", "a device", "a
 * socket" ("a regular file" for one). */
const char *omp_ext_file_kind(unsigned mode);

/* util.c: the most bytes of a value omp_ext_quote() shows. */
#define OMP_EXT_QUOTE_MAX 64

/* util.c: \p text for a one-line message, in buf (size >= 4 *
 * OMP_EXT_QUOTE_MAX + 32 shows all of it): quote, backslash and every byte
 * outside printable ASCII escaped (\', \\, \n, \xNN), at most
 * OMP_EXT_QUOTE_MAX bytes of text, then "... (N bytes)" when longer.
 * Returns buf. */
char *omp_ext_quote(const char *text, char *buf, size_t size);

/* util.c: the first line of DIR/FILE, malloc'ed, without its newline and
 * trailing spaces ("" for an empty file); NULL if unreadable or no memory. */
char *omp_ext_read_text(const char *dir, const char *file);

/* util.c: a cpulist file of DIR/FILE ("0-3,8", the kernel's list format)
 * as a new bitmap; an empty file is the empty set; NULL if unreadable or
 * malformed. */
hwloc_bitmap_t omp_ext_read_cpulist(const char *dir, const char *file);

/* util.c: the variable of hwloc's environment (HWLOC_FSROOT,
 * HWLOC_SYNTHETIC, HWLOC_XMLFILE, in the order hwloc checks them) that
 * replaces this machine's discovery in the process environment, or NULL
 * when none is set or HWLOC_THISSYSTEM=1 says it is this machine.  For the
 * commands that act on this machine (htplaces exec/verify/..., htbench). */
const char *omp_ext_hwloc_env_var(void);

/* util.c: \p s as a JSON string (RFC 8259), with its quotes: '"' and '\\'
 * escaped, newline and tab as \n and \t, other control characters and DEL
 * as \u00XX, valid UTF-8 (RFC 3629) as is, any other byte as \ufffd (JSON
 * text is UTF-8).  NULL: "".  The one JSON string writer: htplaces -f json,
 * tune's and htbench's results.json, and the library's timing file. */
void omp_ext_json_string(FILE *out, const char *s);

#endif /* OMP_EXT_UTIL_H */
