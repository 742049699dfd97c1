/*
 * doctor: what libomp ignores in KMP_AFFINITY.  libomp 14 reads the value
 * item by item (kmp_settings.cpp, __kmp_parse_affinity_env): a keyword
 * matched case-insensitively at the start of the item, then ',' or the end.
 * What it cannot read it warns about and ignores, and the program runs
 * with the rest: "garbage" (#58 "parameter invalid, ignoring"), "compactt"
 * (#81 "extra trailing characters ignored"), a third number (#59), a
 * parameter given twice (#57), "explicit" without a proclist (#62: type
 * none).  A granularity the machine lacks (tile, die, l2_cache ...: #192)
 * is the machine's, not the value's: not flagged.  The real libomp is the
 * oracle (test_findings).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analysis.h"

/* What each keyword sets: a parameter given twice is ignored (#57). */
enum kmp_param { P_TYPE, P_VERBOSE, P_WARNINGS, P_RESPECT, P_DUPS, P_GRAN, P_PROCLIST, P_N };

static const struct kmp_word {
  const char *word;
  enum kmp_param param;
} kmp_words[] = {
    {"none", P_TYPE},          {"scatter", P_TYPE},       {"compact", P_TYPE},
    {"logical", P_TYPE},       {"physical", P_TYPE},      {"explicit", P_TYPE},
    {"balanced", P_TYPE},      {"disabled", P_TYPE},      {"verbose", P_VERBOSE},
    {"noverbose", P_VERBOSE},  {"warnings", P_WARNINGS},  {"nowarnings", P_WARNINGS},
    {"respect", P_RESPECT},    {"norespect", P_RESPECT},  {"duplicates", P_DUPS},
    {"dups", P_DUPS},          {"noduplicates", P_DUPS},  {"nodups", P_DUPS},
    {"granularity", P_GRAN},   {"gran", P_GRAN},          {"proclist", P_PROCLIST}};

/* The granularities libomp 14 reads (Debian's, without hwloc), and digits. */
static const char *const kmp_grans[] = {"fine",    "thread",      "core",     "package",
                                        "socket",  "ll_cache",    "die",      "tile",
                                        "module",  "node",        "numa_domain",
                                        "l1_cache", "l2_cache",   "l3_cache"};

/* The longest word of \p words (n of them, stride apart) that starts s,
 * case-insensitively; its length in *len, or -1. */
static int match(const char *s, const char *const *words, size_t n, size_t stride, size_t *len)
{
  int best = -1;
  size_t i;
  *len = 0;
  for (i = 0; i < n; i++) {
    const char *w = *(const char *const *)((const char *)words + i * stride);
    size_t l = strlen(w);
    if (l > *len && strncasecmp(s, w, l) == 0)
      best = (int)i, *len = l;
  }
  return best;
}

static const char *skip_ws(const char *s)
{
  return s + strspn(s, " \t");
}

/* The end of one item's value after the keyword (granularity=..., proclist=
 * [...]); NULL when libomp finds it invalid. */
static const char *item_value(enum kmp_param p, const char *s)
{
  size_t len;
  if (p != P_GRAN && p != P_PROCLIST)
    return s;
  if (*(s = skip_ws(s)) != '=')
    return NULL;
  s = skip_ws(s + 1);
  if (p == P_PROCLIST)
    return *s == '[' && strchr(s, ']') ? strchr(s, ']') + 1 : NULL;
  if (*s >= '0' && *s <= '9')
    return s + strspn(s, "0123456789");
  return match(s, kmp_grans, sizeof(kmp_grans) / sizeof(kmp_grans[0]), sizeof(kmp_grans[0]),
               &len) >= 0 ? s + len : NULL;
}

/* Set *why and copy the item at s (up to its ',') into buf. */
static int ignored(const char *s, const char *reason, char *buf, size_t len, const char **why)
{
  snprintf(buf, len, "%.*s", (int)strcspn(s, ","), s);
  *why = reason;
  return 1;
}

int htp_kmp_affinity_ignored(const char *value, char *item, size_t len, const char **why)
{
  int seen[P_N] = {0}, numbers = 0, type_explicit = 0, proclist = 0;
  const char *s = skip_ws(value);
  while (*s) {
    const char *start = s, *end;
    size_t wlen;
    int w = match(s, &kmp_words[0].word, sizeof(kmp_words) / sizeof(kmp_words[0]),
                  sizeof(kmp_words[0]), &wlen);
    if (w < 0 && *s >= '0' && *s <= '9') {
      end = s + strspn(s, "0123456789");
      if (++numbers > 2)
        return ignored(start, "too many integer parameters", item, len, why);
    } else if (w < 0 || !(end = item_value(kmp_words[w].param, s + wlen))) {
      return ignored(start, "parameter invalid", item, len, why);
    } else if (seen[kmp_words[w].param]++) {
      return ignored(start, "parameter given twice", item, len, why);
    } else {
      type_explicit |= strcasecmp(kmp_words[w].word, "explicit") == 0;
      proclist |= kmp_words[w].param == P_PROCLIST;
    }
    if (*(end = skip_ws(end)) != ',' && *end)
      return ignored(end, "extra trailing characters", item, len, why);
    s = *end ? skip_ws(end + 1) : end;
  }
  if (type_explicit && !proclist)
    return ignored("explicit", "explicit without a proclist: affinity none", item, len, why);
  return 0;
}
