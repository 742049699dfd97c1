/*
 * Predict, libomp (also libiomp5): what libomp 14 builds from OMP_PLACES,
 * GOMP_CPU_AFFINITY and KMP_AFFINITY proclists on a machine; its predictor
 * in predict.c's table (predict_int.h).
 *
 * Its own small parsers, after kmp_settings.cpp / kmp_affinity.cpp and the
 * real libomp 14's behaviour on tests/places-corpus.txt.  The rules are
 * listed in omp_ext/lib/private/tools_predict.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "private/predict_int.h"

/* Largest CPU number libomp's parsers below keep (others are dropped). */
#define KMP_ID_MAX 65535L

struct kscan {
  const char *s;
  size_t i;
  unsigned long work; /* CPU numbers set: bounded by OMP_EXT_PLACES_MAX_NUMBERS */
};

/* Charge n numbers; 1 when the value is beyond omp_ext's limits. */
static int kspend(struct kscan *k, unsigned long n)
{
  k->work += n;
  return k->work > OMP_EXT_PLACES_MAX_NUMBERS;
}

static void kws(struct kscan *k)
{
  while (k->s[k->i] == ' ' || k->s[k->i] == '\t')
    k->i++;
}

/* Digits; values above KMP_ID_MAX saturate (their CPUs are dropped). */
static int kdigits(struct kscan *k, long *v)
{
  long x = 0;
  if (!isdigit((unsigned char)k->s[k->i]))
    return 0;
  while (isdigit((unsigned char)k->s[k->i])) {
    x = x * 10 + (k->s[k->i++] - '0');
    if (x > KMP_ID_MAX + 1)
      x = KMP_ID_MAX + 1;
  }
  *v = x;
  return 1;
}

/* Signs folded, then digits: "--1" is 1, "+-1" is -1. */
static int ksigned(struct kscan *k, long *v)
{
  int neg = 0;
  while (k->s[k->i] == '+' || k->s[k->i] == '-') {
    neg ^= k->s[k->i] == '-';
    k->i++;
    kws(k);
  }
  if (!kdigits(k, v))
    return 0;
  if (neg)
    *v = -*v;
  return 1;
}

/* Set v in set if 0 <= v <= KMP_ID_MAX (others are "invalid OS proc IDs"). */
static void kset(hwloc_bitmap_t set, long v)
{
  if (v >= 0 && v <= KMP_ID_MAX)
    hwloc_bitmap_set(set, (unsigned)v);
}

/* v is a valid OS proc ID for libomp's OMP_PLACES: an allowed CPU (its
 * topology holds the allowed CPUs only, its table of masks ends at the
 * largest of them). */
static int kvalid(hwloc_const_bitmap_t allowed, long v)
{
  return v >= 0 && v <= KMP_ID_MAX && hwloc_bitmap_isset(allowed, (unsigned)v);
}

/* OMP_PLACES place "{...}" or a number into set, valid CPUs only (*invalid
 * set when one was ignored); 0 ok, -1 syntax error, -2 crash, -3 beyond
 * omp_ext's limits.  An interval inside braces ends at its first CPU that
 * is not valid (libomp: "don't proliferate warnings"), so it crashes only
 * when it reaches a negative CPU before any invalid one. */
static int kmp_place(struct kscan *k, hwloc_const_bitmap_t allowed, hwloc_bitmap_t set,
                     int *invalid)
{
  long a, len, str, j;
  kws(k);
  if (k->s[k->i] != '{') {
    if (!kdigits(k, &a))
      return -1;
    if (kvalid(allowed, a))
      hwloc_bitmap_set(set, (unsigned)a);
    else
      *invalid = 1;
    return 0;
  }
  k->i++;
  for (;;) {
    kws(k);
    if (!kdigits(k, &a))
      return -1;
    len = 1;
    str = 1;
    kws(k);
    if (k->s[k->i] == ':') {
      k->i++;
      kws(k);
      if (!kdigits(k, &len))
        return -1;
      kws(k);
      if (k->s[k->i] == ':') {
        k->i++;
        kws(k);
        if (!ksigned(k, &str))
          return -1;
        kws(k);
      }
    }
    if (kspend(k, (unsigned long)len))
      return -3;
    for (j = 0; j < len && j <= KMP_ID_MAX + 1; j++) {
      if (a + j * str < 0)
        return -2;
      if (!kvalid(allowed, a + j * str)) {
        *invalid = 1;
        break;
      }
      hwloc_bitmap_set(set, (unsigned)(a + j * str));
      if (str == 0)
        break;
    }
    if (k->s[k->i] == '}') {
      k->i++;
      return 0;
    }
    if (k->s[k->i] != ',')
      return -1;
    k->i++;
  }
}

/* libomp's next place of "P:n:s" (__kmp_affinity_process_placelist): each
 * CPU of cur moved by str, when both it and its move are valid; the others
 * are dropped for good.  *cut set when a CPU was dropped. */
static hwloc_bitmap_t kmp_next_place(hwloc_const_bitmap_t cur, long str,
                                     hwloc_const_bitmap_t allowed, int *cut)
{
  hwloc_bitmap_t next = hwloc_bitmap_alloc();
  unsigned cpu;
  if (!next)
    return NULL;
  hwloc_bitmap_foreach_begin(cpu, cur) {
    if (kvalid(allowed, (long)cpu) && kvalid(allowed, (long)cpu + str))
      hwloc_bitmap_set(next, (unsigned)((long)cpu + str));
    else
      *cut = 1;
  }
  hwloc_bitmap_foreach_end();
  return next;
}

/* A place's optional ":len[:stride]" (then blanks): 1, or 0 for a syntax
 * error; *len and *str kept when absent. */
static int kmp_interval(struct kscan *k, long *len, long *str)
{
  kws(k);
  if (k->s[k->i] != ':')
    return 1;
  k->i++;
  kws(k);
  if (!kdigits(k, len))
    return 0;
  kws(k);
  if (k->s[k->i] == ':') {
    k->i++;
    kws(k);
    if (!ksigned(k, str))
      return 0;
    kws(k);
  }
  return 1;
}

/* OMP_PLACES explicit places as libomp 14 builds them.  A place keeps its
 * valid CPUs; one without any is not added, even complemented ("!" of a
 * place with no valid CPU adds nothing; of one with, the allowed CPUs not
 * in it, possibly none).  "P:n:s" adds P, then each next place from the
 * previous one (kmp_next_place()); an empty one ends the interval. */
static int kmp_omp_explicit(const omp_ext_topo_t *t, const char *text, omp_ext_prediction_t *pr)
{
  struct kscan k = {text, 0, 0};
  omp_ext_placelist_t *l = omp_ext_pred_list(omp_ext_syntax_omp);
  hwloc_bitmap_t allowed = omp_ext_pred_allowed(t);
  int err = (l && allowed) ? omp_ext_success : omp_ext_err_nomem, dc = 0, dp = 0, cut = 0;
  int syntax = 0, crash = 0;
  while (!err) {
    hwloc_bitmap_t set, cur;
    int neg, rc;
    long len = 1, str = 1, j;
    kws(&k);
    neg = text[k.i] == '!';
    if (neg) {
      k.i++;
      kws(&k);
    }
    if (!(set = hwloc_bitmap_alloc())) {
      err = omp_ext_err_nomem;
      break;
    }
    rc = kmp_place(&k, allowed, set, &dc);
    if (rc < 0) {
      hwloc_bitmap_free(set);
      syntax = rc == -1;
      crash = rc == -2;
      if (rc == -3)
        err = omp_ext_err_parse;
      break;
    }
    if (!kmp_interval(&k, &len, &str)) {
      hwloc_bitmap_free(set);
      syntax = 1;
      break;
    }
    if (l->nplaces + (unsigned long)len > OMP_EXT_PLACES_MAX_PLACES ||
        kspend(&k, (unsigned long)len * (unsigned long)hwloc_bitmap_weight(set)))
      err = omp_ext_err_parse; /* beyond omp_ext's limits */
    if (!err && hwloc_bitmap_iszero(set)) {
      dp = dp || len > 0; /* no valid CPU: nothing added */
      len = 0;
    }
    if (!err && neg)
      hwloc_bitmap_andnot(set, allowed, set);
    cur = set; /* owned here until pushed */
    for (j = 0; !err && cur && j < len; j++) {
      hwloc_bitmap_t next = NULL;
      if (j + 1 < len && !(next = kmp_next_place(cur, str, allowed, &cut))) {
        err = omp_ext_err_nomem;
        break;
      }
      if (next && hwloc_bitmap_iszero(next)) { /* the interval ends here */
        hwloc_bitmap_free(next);
        next = NULL;
        cut = 1;
      }
      err = omp_ext_pred_push(l, cur); /* takes cur, even on failure */
      cur = next;
    }
    hwloc_bitmap_free(cur); /* not pushed: none left, "P:0" or an error */
    if (err)
      break;
    if (!text[k.i])
      break;
    if (text[k.i] != ',') {
      syntax = 1;
      break;
    }
    k.i++;
  }
  if (!err && !syntax && !crash) {
    if (l->nplaces == 0) {
      hwloc_bitmap_t all = hwloc_bitmap_dup(allowed);
      err = omp_ext_pred_push(l, all);
      omp_ext_pred_set(pr, omp_ext_outcome_disabled,
                       "libomp: no valid OS proc ID in the places: affinity disabled");
    } else {
      omp_ext_pred_set(pr, omp_ext_outcome_places,
                       cut  ? "libomp: an interval of places ends where its CPUs leave the "
                              "allowed set"
                       : dp ? "libomp: places without a valid OS proc ID dropped"
                       : dc ? "libomp: invalid OS proc IDs ignored (warnings)" : NULL);
    }
  }
  hwloc_bitmap_free(allowed);
  if (err || syntax || crash) {
    omp_ext_placelist_destroy(l);
    l = NULL;
  }
  if (err)
    return err;
  if (crash) {
    omp_ext_pred_set(pr, omp_ext_outcome_crash,
                     "libomp: an interval inside braces goes below CPU 0: libomp crashes "
                     "(SIGSEGV)");
    return omp_ext_success;
  }
  if (syntax) {
    if ((err = omp_ext_pred_abstract(t, "cores", 0, &l)) != 0)
      return err;
    omp_ext_pred_set(pr, omp_ext_outcome_fallback,
                           "libomp: OMP_PLACES syntax error, using \"cores\"");
  }
  omp_ext_placelist_destroy(pr->list);
  pr->list = l;
  return omp_ext_success;
}

/* libomp's warning #250 per abstract name (the count is dropped). */
static const char *const kmp_syntax_warning[] = {
    "libomp: OMP_PLACES: syntax error, using thread (all threads: the count is ignored)",
    "libomp: OMP_PLACES: syntax error, using core (all cores: the count is ignored)",
    "libomp: OMP_PLACES: syntax error, using socket (all sockets: the count is ignored)",
    "libomp: OMP_PLACES: syntax error, using ll_cache (all caches: the count is ignored)",
    "libomp: OMP_PLACES: syntax error, using numa_domain (the count is ignored)"};

static const char kmp_trailing_warning[] =
    "libomp: OMP_PLACES: extra trailing characters ignored (a warning)";

static int kmp_omp_places(const omp_ext_topo_t *t, const char *text, omp_ext_prediction_t *pr)
{
  unsigned k;
  for (k = 0; k < OMP_EXT_PRED_NNAMES; k++) {
    size_t n = strlen(omp_ext_pred_names[k]);
    unsigned long count = 0;
    const char *s = text + n, *name = omp_ext_pred_names[k], *warn = NULL;
    int err;
    if (strncasecmp(text, omp_ext_pred_names[k], n) != 0)
      continue;
    while (*s == ' ' || *s == '\t')
      s++;
    /* kmp_settings.cpp, __kmp_stg_parse_places: after the name, "(" or
     * the end; digits and ")" (else "syntax error, using <kind>": all
     * places); text after ")" is ignored with a warning. */
    if (*s && *s != '(') {
      warn = kmp_syntax_warning[k];
    } else if (*s == '(') {
      s++;
      while (*s == ' ' || *s == '\t')
        s++;
      while (isdigit((unsigned char)*s) && count <= 0x7fffffffUL)
        count = count * 10 + (unsigned long)(*s++ - '0');
      while (*s == ' ' || *s == '\t')
        s++;
      if (count > 0x7fffffffUL || *s != ')') {
        count = 0; /* "threads(1,2)", "threads(+1)", "sockets(": all */
        warn = kmp_syntax_warning[k];
      } else {
        s++;
        while (*s == ' ' || *s == '\t')
          s++;
        if (*s)
          warn = kmp_trailing_warning;
      }
    }
    /* libomp sees NUMA domains only through hwloc (its KMP_HW_NUMA level);
     * Debian's libomp 14 is built without it: "NUMA domain does not exist
     * in topology", one place per core, with one NUMA node or many (seen
     * with the real runtime in the numa2 SMT guest). */
    if (strcmp(name, "numa_domains") == 0)
      name = "cores";
    omp_ext_placelist_destroy(pr->list);
    pr->list = NULL;
    if ((err = omp_ext_pred_abstract(t, name, count, &pr->list)) != 0)
      return err;
    /* a syntax error after the name, or NUMA domains it cannot see: libomp
     * rejects what was asked and builds other places (a fallback, as
     * "syntax error, using cores"); trailing text is only ignored */
    omp_ext_pred_set(pr,
                     name != omp_ext_pred_names[k] || (warn && warn != kmp_trailing_warning)
                         ? omp_ext_outcome_fallback
                         : omp_ext_outcome_places,
                     name != omp_ext_pred_names[k]
                         ? "libomp: NUMA domain does not exist in topology: one place per core"
                         : warn);
    pr->changed = warn || name != omp_ext_pred_names[k];
    return omp_ext_success;
  }
  return kmp_omp_explicit(t, text, pr);
}

/* KMP_AFFINITY proclist or GOMP_CPU_AFFINITY: 0 ok, 1 syntax error at the
 * first item, 2 later, or an omp_ext error (negative). */
static int kmp_proclist(const char *text, omp_ext_placelist_t *l)
{
  struct kscan k = {text, 0, 0};
  unsigned items = 0;
  int err;
  kws(&k);
  for (;;) {
    hwloc_bitmap_t set;
    long a, b, s = 1, v;
    int bad = items ? 2 : 1;
    if (text[k.i] == '{') {
      k.i++;
      if (!(set = hwloc_bitmap_alloc()))
        return omp_ext_err_nomem;
      for (;;) {
        kws(&k);
        if (!kdigits(&k, &a)) {
          hwloc_bitmap_free(set);
          return bad;
        }
        kset(set, a);
        kws(&k);
        if (text[k.i] == '}')
          break;
        if (text[k.i] != ',') {
          hwloc_bitmap_free(set);
          return bad;
        }
        k.i++;
      }
      k.i++;
      if ((err = omp_ext_pred_push(l, set)) != 0)
        return err;
    } else {
      if (!kdigits(&k, &a))
        return bad;
      b = a;
      kws(&k);
      if (text[k.i] == '-') {
        k.i++;
        kws(&k);
        if (!kdigits(&k, &b))
          return bad;
        kws(&k);
        if (text[k.i] == ':') {
          k.i++;
          kws(&k);
          if (!ksigned(&k, &s))
            return bad;
        }
        if (s == 0 || (s > 0 && a > b) || (s < 0 && a < b))
          return bad;
      }
      for (v = a; s > 0 ? v <= b : v >= b; v += s) {
        if (v > KMP_ID_MAX || v < 0)
          continue; /* dropped later as invalid anyway */
        set = hwloc_bitmap_alloc();
        if (set)
          hwloc_bitmap_set(set, (unsigned)v);
        if ((err = omp_ext_pred_push(l, set)) != 0)
          return err;
      }
    }
    items++;
    kws(&k);
    if (!text[k.i])
      return 0;
    if (text[k.i] == ',') {
      k.i++;
      kws(&k);
    } else if (!(k.i > 0 && (text[k.i - 1] == ' ' || text[k.i - 1] == '\t'))) {
      return 2;
    }
  }
}

/* The granularity of a KMP_AFFINITY value: each CPU of a proclist item
 * stands for the allowed CPUs of its unit (kmp_affinity.cpp: osId2Mask). */
enum kmp_gran { kmp_gran_thread, kmp_gran_core, kmp_gran_package };

/* Widen every place of l to the allowed PUs of the units its CPUs are in. */
static int kmp_widen(const omp_ext_topo_t *t, omp_ext_placelist_t *l, enum kmp_gran gran)
{
  unsigned i, j, cpu;
  int wider = 0;
  if (gran == kmp_gran_thread)
    return 0;
  for (i = 0; i < l->nplaces; i++) {
    hwloc_bitmap_t wide = hwloc_bitmap_dup(l->places[i]);
    if (!wide)
      continue;
    hwloc_bitmap_foreach_begin(cpu, l->places[i]) {
      const omp_ext_pu_t *pu = omp_ext_topo_pu_by_os(t, cpu), *q;
      for (j = 0; pu && j < omp_ext_topo_npus(t); j++) {
        q = omp_ext_topo_pu(t, j);
        if (gran == kmp_gran_core ? q->core == pu->core : q->package == pu->package)
          hwloc_bitmap_set(wide, q->os_index);
      }
    }
    hwloc_bitmap_foreach_end();
    wider |= !hwloc_bitmap_isequal(wide, l->places[i]);
    hwloc_bitmap_free(l->places[i]);
    l->places[i] = wide;
  }
  return wider;
}

/* Case-insensitive: does the item s[0..n) equal word? */
static int kmp_word(const char *s, size_t n, const char *word)
{
  return strlen(word) == n && strncasecmp(s, word, n) == 0;
}

/* A whole KMP_AFFINITY value ("granularity=fine,explicit,proclist=[0,1]",
 * in any order, case-insensitive): libomp's reading in kmp_settings.cpp
 * (__kmp_parse_affinity_env).  On success *inner is the proclist (malloc'ed)
 * and *gran its granularity (default: core); *inner NULL when libomp uses
 * no proclist (missing, unterminated or empty: "proclist not specified with
 * explicit affinity type, using none").  omp_ext_err_parse: a value this
 * does not predict (another affinity type, another granularity). */
static int kmp_unwrap(const char *text, char **inner, enum kmp_gran *gran)
{
  static const char *const types[] = {"compact", "scatter", "balanced", "none", "disabled",
                                      "logical", "physical", "default"};
  const char *s = text;
  size_t k;
  *inner = NULL;
  *gran = kmp_gran_core;
  while (*s) {
    size_t n;
    while (*s == ' ' || *s == '\t' || *s == ',')
      s++;
    if (!*s) /* (a trailing separator: "a,") */
      break;
    n = strcspn(s, ",= \t");
    if (kmp_word(s, n, "proclist")) {
      const char *open = s + n, *close;
      while (*open == ' ' || *open == '\t')
        open++;
      if (*open == '=')
        open++;
      while (*open == ' ' || *open == '\t')
        open++;
      close = *open == '[' ? strchr(open, ']') : NULL;
      if (!close) /* "parameter invalid": the rest is that parameter */
        return omp_ext_success;
      if (!*inner && !(*inner = strndup(open + 1, (size_t)(close - open - 1))))
        return omp_ext_err_nomem;
      s = close + 1;
      continue;
    }
    if (kmp_word(s, n, "granularity")) {
      const char *v = s + n;
      size_t m;
      while (*v == ' ' || *v == '\t' || *v == '=')
        v++;
      m = strcspn(v, ", \t");
      if (kmp_word(v, m, "fine") || kmp_word(v, m, "thread"))
        *gran = kmp_gran_thread;
      else if (kmp_word(v, m, "core"))
        *gran = kmp_gran_core;
      else if (kmp_word(v, m, "socket") || kmp_word(v, m, "package"))
        *gran = kmp_gran_package;
      else
        break;
      s = v + m;
      continue;
    }
    for (k = 0; k < sizeof(types) / sizeof(types[0]); k++)
      if (kmp_word(s, n, types[k]))
        break;
    if (k < sizeof(types) / sizeof(types[0]))
      break;
    s += n ? n : 1; /* explicit, verbose, warnings, respect, ... */
  }
  if (!*s)
    return omp_ext_success;
  free(*inner);
  *inner = NULL;
  return omp_ext_err_parse;
}

static int kmp_list(const omp_ext_topo_t *t, const char *text, omp_ext_syntax_t syntax,
                    omp_ext_prediction_t *pr)
{
  omp_ext_placelist_t *l = omp_ext_pred_list(syntax);
  hwloc_bitmap_t allowed = omp_ext_pred_allowed(t);
  char *inner = NULL;
  enum kmp_gran gran = kmp_gran_thread;
  const char *lead = text + strspn(text, " \t");
  int rc = (l && allowed) ? 0 : omp_ext_err_nomem, dc = 0, dp = 0, wider = 0;
  /* KMP_AFFINITY: the proclist alone (bare or in brackets) is read as with
   * granularity=fine; a whole value by its own settings. */
  if (!rc && syntax == omp_ext_syntax_kmp && isalpha((unsigned char)*lead)) {
    rc = kmp_unwrap(text, &inner, &gran);
    if (!rc && !inner)
      rc = 1; /* no proclist: affinity none */
    if (inner && !inner[strspn(inner, " \t")])
      rc = 1; /* "proclist=[]": syntax error, affinity none */
  } else if (!rc && syntax == omp_ext_syntax_kmp && *lead == '[') {
    const char *close = strchr(lead, ']');
    if (!(inner = strndup(lead + 1, close ? (size_t)(close - lead - 1) : strlen(lead + 1))))
      rc = omp_ext_err_nomem;
  }
  if (!rc)
    rc = kmp_proclist(inner ? inner : text, l);
  free(inner);
  if (rc == 2 && syntax == omp_ext_syntax_kmp)
    rc = 1;
  if (rc < 0) {
    omp_ext_placelist_destroy(l);
    hwloc_bitmap_free(allowed);
    return rc;
  }
  if (rc == 2 && syntax == omp_ext_syntax_gomp) {
    omp_ext_placelist_destroy(l);
    hwloc_bitmap_free(allowed);
    l = omp_ext_pred_list(syntax);
    omp_ext_pred_set(pr, omp_ext_outcome_crash,
                     "libomp: GOMP_CPU_AFFINITY syntax error after the first item: libomp aborts");
  } else {
    if (rc == 0) {
      omp_ext_pred_keep_allowed(l, allowed, NULL, &dc, &dp);
      wider = kmp_widen(t, l, gran);
    }
    if (rc > 0 || l->nplaces == 0) {
      unsigned i;
      for (i = 0; i < l->nplaces; i++)
        hwloc_bitmap_free(l->places[i]);
      l->nplaces = 0;
      omp_ext_pred_push(l, hwloc_bitmap_dup(allowed));
      omp_ext_pred_set(pr, omp_ext_outcome_disabled,
                       rc > 0 ? "libomp: proclist syntax error, missing or empty: affinity disabled"
                              : "libomp: no valid OS proc ID: affinity disabled");
    } else {
      omp_ext_pred_set(pr, omp_ext_outcome_places,
                       dp || dc ? "libomp: invalid OS proc IDs ignored (warnings)"
                       : wider  ? "libomp: KMP_AFFINITY granularity (core unless "
                                  "granularity=fine): "
                                  "each CPU stands for all allowed CPUs of its core or package"
                                : NULL);
    }
    hwloc_bitmap_free(allowed);
  }
  if (!l)
    return omp_ext_err_nomem;
  omp_ext_placelist_destroy(pr->list);
  pr->list = l;
  return omp_ext_success;
}

static int kmp_predict(const omp_ext_topo_t *t, const char *text, omp_ext_syntax_t syntax,
                       omp_ext_prediction_t *pr)
{
  if (syntax == omp_ext_syntax_omp)
    return kmp_omp_places(t, text, pr);
  return kmp_list(t, text, syntax, pr);
}

const struct omp_ext_predictor omp_ext_predictor_kmp = {
  "libomp",
  (1u << omp_ext_syntax_omp) | (1u << omp_ext_syntax_gomp) | (1u << omp_ext_syntax_kmp),
  kmp_predict,
  NULL,
};
