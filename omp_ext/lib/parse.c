/*
 * Parse: place lists as the OpenMP runtimes read them -- OMP_PLACES (OpenMP
 * 5.2 §6.5), GOMP_CPU_AFFINITY (libgomp) and KMP_AFFINITY proclists (libomp)
 * -- into lists of cpusets, with the character position of every place and
 * of the first error.
 *
 * The parsers are recursive-descent over a NUL-terminated string; every
 * number is bounded (OMP_EXT_PLACES_MAX_CPU) and so is the total expansion,
 * so no input can make them allocate without limit.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "private/internal.h"

/* Two budgets bound an expansion, whatever the syntax:
 *   work: every CPU number set (once per number an interval or a place
 *         interval writes, repeats included), OMP_EXT_PLACES_MAX_NUMBERS;
 *   memory: the words (64 CPUs) of every place's cpuset, charged when the
 *         place is added, OMP_EXT_PLACES_MAX_SET_WORDS.
 * Both are charged the same way by the three syntaxes, so the canonical text
 * of a list that parsed (which sets each number of each place once) costs no
 * more than the text it came from, and parses back. */
struct parser {
  const char *s;
  size_t i;           /* current offset */
  size_t base;        /* offset of s inside the caller's text (kmp brackets) */
  omp_ext_placelist_t *l;
  unsigned cap;       /* allocated places */
  unsigned long work; /* numbers set so far */
  unsigned long words; /* cpuset words of the places added so far */
  unsigned long max_cpu; /* OMP_EXT_PLACES_MAX_CPU, or a runtime's lower cap */
  omp_ext_parse_error_t *err;
};

static const char *const abstract_names[] = {NULL, "threads", "cores", "ll_caches",
                                             "numa_domains", "sockets"};

const char *omp_ext_abstract_name(omp_ext_abstract_t abstract)
{
  if ((unsigned)abstract >= sizeof(abstract_names) / sizeof(abstract_names[0]))
    return NULL;
  return abstract_names[abstract];
}

static int fail(struct parser *p, size_t pos, const char *what)
{
  if (p->err) {
    p->err->pos = p->base + pos;
    p->err->what = what;
  }
  return omp_ext_err_parse;
}

static void skip_ws(struct parser *p)
{
  while (isspace((unsigned char)p->s[p->i]))
    p->i++;
}

static int at(const struct parser *p, char c) { return p->s[p->i] == c; }

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static void note(struct parser *p, omp_ext_note_kind_t kind, size_t pos, unsigned long value)
{
  omp_ext_placelist_t *l = p->l;
  if (l->nnotes >= OMP_EXT_PLACES_MAX_NOTES) {
    l->dropped_notes++;
    return;
  }
  l->notes[l->nnotes].kind = kind;
  l->notes[l->nnotes].pos = p->base + pos;
  l->notes[l->nnotes].value = value;
  l->nnotes++;
}

/* Decimal number 0..max at the current position. */
static int number(struct parser *p, unsigned long max, unsigned long *v, const char *what)
{
  size_t start = p->i;
  unsigned long x = 0;
  if (!is_digit(p->s[p->i]))
    return fail(p, p->i, what);
  while (is_digit(p->s[p->i])) {
    x = x * 10 + (unsigned long)(p->s[p->i] - '0');
    if (x > max)
      return fail(p, start, max == OMP_EXT_PLACES_MAX_CPU ? "number above 65535"
                                                          : "number above 65536");
    p->i++;
  }
  *v = x;
  return omp_ext_success;
}

/* Positive length 1..OMP_EXT_PLACES_MAX_PLACES. */
static int length(struct parser *p, unsigned long *v)
{
  size_t start = p->i;
  int err = number(p, OMP_EXT_PLACES_MAX_PLACES, v, "expected a length (a positive number)");
  if (!err && *v == 0)
    return fail(p, start, "a length must be at least 1");
  return err;
}

/* Signed stride: optional '+' or '-', then a number. */
static int stride(struct parser *p, long *v)
{
  unsigned long x;
  int neg = 0, err;
  if (at(p, '+') || at(p, '-')) {
    neg = at(p, '-');
    p->i++;
    skip_ws(p);
  }
  err = number(p, OMP_EXT_PLACES_MAX_CPU, &x, "expected a stride (an integer)");
  if (!err)
    *v = neg ? -(long)x : (long)x;
  return err;
}

/* ":len[:stride]" after a number or a place, if present. */
static int interval_tail(struct parser *p, unsigned long *len, long *str)
{
  int err;
  *len = 1;
  *str = 1;
  skip_ws(p);
  if (!at(p, ':'))
    return omp_ext_success;
  p->i++;
  skip_ws(p);
  if ((err = length(p, len)) != 0)
    return err;
  skip_ws(p);
  if (!at(p, ':'))
    return omp_ext_success;
  p->i++;
  skip_ws(p);
  if ((err = stride(p, str)) != 0)
    return err;
  skip_ws(p);
  return omp_ext_success;
}

static int spend(struct parser *p, unsigned long n, size_t pos)
{
  p->work += n;
  if (p->work > OMP_EXT_PLACES_MAX_NUMBERS)
    return fail(p, pos, "the list sets more than 1048576 CPU numbers in all (omp_ext's limit)");
  return omp_ext_success;
}

/* Charge the cpuset of a new place whose highest number is last (-1: empty). */
static int spend_words(struct parser *p, int last, size_t pos)
{
  p->words += last > 0 ? (unsigned long)last / 64 + 1 : 1;
  if (p->words > OMP_EXT_PLACES_MAX_SET_WORDS)
    return fail(p, pos, "the places' cpusets need more than 64 MiB (omp_ext's limit: fewer "
                        "places or lower CPU numbers)");
  return omp_ext_success;
}

/* Set start, start+stride, ... (len numbers) in set. */
static int set_interval(struct parser *p, hwloc_bitmap_t set, unsigned long start,
                        unsigned long len, long str, size_t pos)
{
  unsigned long k;
  int err;
  long top = str > 0 ? (long)start + (long)(len - 1) * str : (long)start;
  if (p->max_cpu < OMP_EXT_PLACES_MAX_CPU && top > (long)p->max_cpu)
    return fail(p, pos, OMP_EXT_PARSE_CAPPED);
  err = spend(p, len, pos);
  for (k = 0; !err && k < len; k++) {
    long v = (long)start + (long)k * str;
    if (v < 0 || v > OMP_EXT_PLACES_MAX_CPU)
      return fail(p, pos, "the interval leaves 0..65535");
    if (hwloc_bitmap_set(set, (unsigned)v) < 0)
      return omp_ext_err_nomem;
  }
  return err;
}

/* Append a place (ownership of set passes to the list). */
static int add_place(struct parser *p, hwloc_bitmap_t set, size_t pos)
{
  omp_ext_placelist_t *l = p->l;
  int err = spend_words(p, hwloc_bitmap_last(set), pos);
  if (!err && l->nplaces >= OMP_EXT_PLACES_MAX_PLACES)
    err = fail(p, pos, "more than 65536 places (libgomp's limit)");
  if (!err && l->nplaces == p->cap) {
    unsigned cap = p->cap ? p->cap * 2 : 16;
    hwloc_bitmap_t *places = realloc(l->places, cap * sizeof(*places));
    size_t *where = places ? realloc(l->pos, cap * sizeof(*where)) : NULL;
    if (places)
      l->places = places;
    if (where)
      l->pos = where;
    if (!places || !where)
      err = omp_ext_err_nomem;
    else
      p->cap = cap;
  }
  if (err) {
    hwloc_bitmap_free(set);
    return err;
  }
  l->places[l->nplaces] = set;
  l->pos[l->nplaces] = p->base + pos;
  l->nplaces++;
  return omp_ext_success;
}

/* A one-number place (one number set: charged as "{cpu}" is). */
static int add_single(struct parser *p, unsigned long cpu, size_t pos)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  int err = set ? set_interval(p, set, cpu, 1, 1, pos) : omp_ext_err_nomem;
  if (err) {
    hwloc_bitmap_free(set);
    return err;
  }
  return add_place(p, set, pos);
}

/* ------------------------------------------------------------------ */
/* OMP_PLACES, explicit                                                 */

struct exclusion {
  unsigned long cpu;
  size_t pos;
};

/* Inside braces: res-interval {',' res-interval} '}'; additions first, then
 * exclusions, as libgomp applies them. */
static int res_list(struct parser *p, hwloc_bitmap_t set)
{
  struct exclusion *ex = NULL;
  unsigned nex = 0, cap = 0, k;
  int err = omp_ext_success;
  for (;;) {
    size_t item = (skip_ws(p), p->i);
    int neg = at(p, '!');
    unsigned long start, len;
    long str;
    if (neg) {
      note(p, omp_ext_note_exclude_resource, item, 0);
      p->i++;
      skip_ws(p);
    }
    if ((err = number(p, OMP_EXT_PLACES_MAX_CPU, &start, "expected a CPU number")) != 0)
      break;
    skip_ws(p);
    if (neg && at(p, ':')) {
      err = fail(p, p->i, "'!' excludes a single number: no ':' after it");
      break;
    }
    if ((err = interval_tail(p, &len, &str)) != 0)
      break;
    if (neg) {
      if (nex == cap) {
        struct exclusion *n = realloc(ex, (cap = cap ? cap * 2 : 8) * sizeof(*n));
        if (!n) {
          err = omp_ext_err_nomem;
          break;
        }
        ex = n;
      }
      if ((err = spend(p, 1, item)) != 0)
        break;
      ex[nex].cpu = start;
      ex[nex++].pos = item;
    } else if ((err = set_interval(p, set, start, len, str, item)) != 0) {
      break;
    }
    if (at(p, '}')) {
      p->i++;
      break;
    }
    if (!at(p, ',')) {
      err = fail(p, p->i, "expected ',' or '}'");
      break;
    }
    p->i++;
  }
  for (k = 0; !err && k < nex; k++) {
    if (!hwloc_bitmap_isset(set, (unsigned)ex[k].cpu))
      note(p, omp_ext_note_exclude_missing, ex[k].pos, ex[k].cpu);
    hwloc_bitmap_clr(set, (unsigned)ex[k].cpu);
  }
  free(ex);
  return err;
}

/* Copy of src with every number moved by str. */
static int shifted(struct parser *p, hwloc_const_bitmap_t src, long str, size_t pos,
                   hwloc_bitmap_t *out)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  unsigned cpu;
  int err = set ? omp_ext_success : omp_ext_err_nomem;
  if (!err && p->max_cpu < OMP_EXT_PLACES_MAX_CPU &&
      (long)hwloc_bitmap_last(src) + str > (long)p->max_cpu)
    err = fail(p, pos, OMP_EXT_PARSE_CAPPED);
  if (!err)
    err = spend(p, (unsigned long)hwloc_bitmap_weight(src), pos);
  if (!err) {
    hwloc_bitmap_foreach_begin(cpu, src) {
      long v = (long)cpu + str;
      if (v < 0 || v > OMP_EXT_PLACES_MAX_CPU) {
        err = fail(p, pos, "the place interval leaves 0..65535");
        break;
      }
      hwloc_bitmap_set(set, (unsigned)v);
    }
    hwloc_bitmap_foreach_end();
  }
  if (err) {
    hwloc_bitmap_free(set);
    return err;
  }
  *out = set;
  return omp_ext_success;
}

/* "!place": remove an identical earlier place (libgomp's reading). */
static void exclude_place(struct parser *p, hwloc_bitmap_t set, size_t pos)
{
  omp_ext_placelist_t *l = p->l;
  unsigned k;
  for (k = 0; k < l->nplaces; k++)
    if (hwloc_bitmap_isequal(l->places[k], set))
      break;
  if (k == l->nplaces) {
    note(p, omp_ext_note_exclude_place_missing, pos, 0);
  } else {
    hwloc_bitmap_free(l->places[k]);
    memmove(&l->places[k], &l->places[k + 1], (l->nplaces - k - 1) * sizeof(*l->places));
    memmove(&l->pos[k], &l->pos[k + 1], (l->nplaces - k - 1) * sizeof(*l->pos));
    l->nplaces--;
  }
  hwloc_bitmap_free(set);
}

/* p-interval: ['!'] place [':' len [':' stride]] */
static int p_interval(struct parser *p)
{
  size_t item = (skip_ws(p), p->i), place_at;
  int neg = at(p, '!'), err;
  hwloc_bitmap_t set, next;
  unsigned long len, k, cpu;
  long str;
  if (neg) {
    note(p, omp_ext_note_exclude_place, item, 0);
    p->i++;
    skip_ws(p);
  }
  place_at = p->i;
  if (!(set = hwloc_bitmap_alloc()))
    return omp_ext_err_nomem;
  if (at(p, '{')) {
    p->i++;
    err = res_list(p, set);
    if (!err && hwloc_bitmap_iszero(set))
      note(p, omp_ext_note_empty_place, place_at, 0);
  } else if (is_digit(p->s[p->i])) {
    err = number(p, OMP_EXT_PLACES_MAX_CPU, &cpu, "expected a CPU number");
    if (!err)
      err = set_interval(p, set, cpu, 1, 1, place_at);
  } else {
    err = fail(p, p->i, "expected a place: '{', a CPU number or '!'");
  }
  skip_ws(p);
  if (!err && neg && at(p, ':'))
    err = fail(p, p->i, "'!' excludes a single place: no ':' after it");
  if (!err)
    err = interval_tail(p, &len, &str);
  if (err) {
    hwloc_bitmap_free(set);
    return err;
  }
  if (neg) {
    exclude_place(p, set, item);
    return omp_ext_success;
  }
  for (k = 0; k < len; k++) {
    next = NULL;
    if (k + 1 < len && (err = shifted(p, set, str, place_at, &next)) != 0) {
      hwloc_bitmap_free(set);
      return err;
    }
    if ((err = add_place(p, set, place_at)) != 0) {
      hwloc_bitmap_free(next);
      return err;
    }
    set = next;
  }
  return omp_ext_success;
}

static int explicit_list(struct parser *p)
{
  int err;
  for (;;) {
    if ((err = p_interval(p)) != 0)
      return err;
    skip_ws(p);
    if (!p->s[p->i])
      return omp_ext_success;
    if (!at(p, ','))
      return fail(p, p->i, "expected ',' or the end of the value");
    p->i++;
  }
}

/* ------------------------------------------------------------------ */
/* OMP_PLACES, abstract names                                           */

/* Key grouping PU i into a place for an abstract name. */
static long pu_key(const omp_ext_topo_t *t, omp_ext_abstract_t a, unsigned i, int *nocache)
{
  const omp_ext_pu_t *pu = &t->pus[i];
  hwloc_obj_t obj, cache = NULL;
  switch (a) {
  case omp_ext_abstract_cores: return (long)pu->core;
  case omp_ext_abstract_sockets: return (long)pu->package;
  case omp_ext_abstract_numa_domains: return (long)pu->numa;
  case omp_ext_abstract_ll_caches:
    obj = hwloc_get_pu_obj_by_os_index(t->hw, pu->os_index);
    for (; obj; obj = obj->parent)
      if (hwloc_obj_type_is_cache(obj->type))
        cache = obj;
    if (cache)
      return ((long)cache->depth << 32) | (long)cache->logical_index;
    *nocache = 1;
    return -2 - (long)pu->package;
  default: return (long)i;
  }
}

/* Group the allowed PUs, in topology order, by key. */
static int expand_abstract(struct parser *p, const omp_ext_topo_t *t)
{
  omp_ext_abstract_t a = p->l->abstract;
  unsigned n = t->npus, i, j;
  long *key = malloc(n * sizeof(*key));
  char *done = calloc(n, 1);
  int err = (key && done) ? omp_ext_success : omp_ext_err_nomem, nocache = 0;
  unsigned long want = p->l->count ? p->l->count : ~0UL;
  for (i = 0; !err && i < n; i++)
    key[i] = pu_key(t, a, i, &nocache);
  for (i = 0; !err && i < n && p->l->nplaces < want; i++) {
    hwloc_bitmap_t set;
    if (done[i])
      continue;
    if (!(set = hwloc_bitmap_alloc())) {
      err = omp_ext_err_nomem;
      break;
    }
    for (j = i; j < n; j++)
      if (!done[j] && key[j] == key[i]) {
        hwloc_bitmap_set(set, t->pus[j].os_index);
        done[j] = 1;
      }
    err = add_place(p, set, 0);
  }
  if (!err && nocache)
    note(p, omp_ext_note_no_cache, 0, 0);
  if (!err && p->l->count && p->l->count > p->l->nplaces)
    note(p, omp_ext_note_count_capped, 0, p->l->count);
  free(key);
  free(done);
  return err;
}

static int abstract_list(struct parser *p, const omp_ext_topo_t *topo)
{
  size_t start = p->i, len;
  unsigned k;
  int err;
  while (isalnum((unsigned char)p->s[p->i]) || at(p, '_'))
    p->i++;
  len = p->i - start;
  for (k = 1; k < sizeof(abstract_names) / sizeof(abstract_names[0]); k++)
    if (strlen(abstract_names[k]) == len && strncasecmp(p->s + start, abstract_names[k], len) == 0)
      break;
  if (k == sizeof(abstract_names) / sizeof(abstract_names[0]))
    return fail(p, start, "unknown abstract name; allowed: threads, cores, ll_caches, "
                          "numa_domains, sockets, or explicit places such as {0,1},{2,3}");
  p->l->abstract = (omp_ext_abstract_t)k;
  skip_ws(p);
  if (at(p, '(')) {
    p->i++;
    skip_ws(p);
    if ((err = number(p, OMP_EXT_PLACES_MAX_PLACES, &p->l->count,
                      "expected the number of places")) != 0)
      return err;
    if (p->l->count == 0)
      return fail(p, p->i - 1, "the number of places must be at least 1");
    skip_ws(p);
    if (!at(p, ')'))
      return fail(p, p->i, "expected ')'");
    p->i++;
    skip_ws(p);
  }
  if (p->s[p->i])
    return fail(p, p->i, "unexpected text after the abstract name");
  if (!topo)
    return omp_ext_err_invalid;
  return expand_abstract(p, topo);
}

static int omp_places(struct parser *p, const omp_ext_topo_t *topo)
{
  skip_ws(p);
  if (!p->s[p->i])
    return fail(p, p->i, "empty value");
  if (isalpha((unsigned char)p->s[p->i]))
    return abstract_list(p, topo);
  return explicit_list(p);
}

/* ------------------------------------------------------------------ */
/* GOMP_CPU_AFFINITY                                                    */

static int xdigit(char c)
{
  if (is_digit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* A number as strtoul(s, &end, 0) reads it: 0x hex, leading-0 octal. */
static int gomp_number(struct parser *p, unsigned long *v)
{
  size_t start = p->i;
  unsigned base = 10;
  unsigned long x = 0;
  int d;
  if (!is_digit(p->s[p->i]))
    return fail(p, p->i, "expected a CPU number");
  if (p->s[p->i] == '0' && (p->s[p->i + 1] == 'x' || p->s[p->i + 1] == 'X') &&
      xdigit(p->s[p->i + 2]) >= 0) {
    base = 16;
    p->i += 2;
  } else if (p->s[p->i] == '0') {
    base = 8;
  }
  while ((d = xdigit(p->s[p->i])) >= 0 && (unsigned)d < base) {
    x = x * base + (unsigned long)d;
    if (x > OMP_EXT_PLACES_MAX_CPU)
      return fail(p, start, "number above 65535 (libgomp rejects CPU numbers >= 65536)");
    p->i++;
  }
  if (base != 10 && p->i - start > 1)
    note(p, omp_ext_note_radix, start, x);
  *v = x;
  return omp_ext_success;
}

static int gomp_list(struct parser *p)
{
  int err;
  skip_ws(p);
  if (!p->s[p->i])
    return fail(p, p->i, "empty value");
  for (;;) {
    size_t item = (skip_ws(p), p->i);
    unsigned long beg, end, str = 1, v;
    if ((err = gomp_number(p, &beg)) != 0)
      return err;
    end = beg;
    if (at(p, '-')) {
      p->i++;
      if ((err = gomp_number(p, &end)) != 0)
        return err;
      if (end < beg)
        return fail(p, item, "a range must not go down (libgomp)");
      if (at(p, ':')) {
        size_t s = ++p->i;
        if ((err = gomp_number(p, &str)) != 0)
          return err;
        if (str == 0)
          return fail(p, s, "a stride must be at least 1");
      }
    }
    for (v = beg; v <= end; v += str)
      if ((err = add_single(p, v, item)) != 0)
        return err;
    skip_ws(p);
    if (at(p, ','))
      p->i++;
    else if (!p->s[p->i])
      return omp_ext_success;
  }
}

/* ------------------------------------------------------------------ */
/* KMP_AFFINITY proclist                                                */

static int kmp_set(struct parser *p, size_t item)
{
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  unsigned long cpu;
  int err = set ? omp_ext_success : omp_ext_err_nomem;
  p->i++; /* '{' */
  while (!err) {
    skip_ws(p);
    if ((err = number(p, OMP_EXT_PLACES_MAX_CPU, &cpu, "expected a CPU number")) != 0)
      break;
    if ((err = set_interval(p, set, cpu, 1, 1, item)) != 0)
      break;
    skip_ws(p);
    if (at(p, '}')) {
      p->i++;
      break;
    }
    if (!at(p, ','))
      err = fail(p, p->i, "expected ',' or '}'");
    else
      p->i++;
  }
  if (err) {
    hwloc_bitmap_free(set);
    return err;
  }
  return add_place(p, set, item);
}

static int kmp_range(struct parser *p, size_t item)
{
  unsigned long beg, end, mag;
  long str = 1, v;
  int err;
  if ((err = number(p, OMP_EXT_PLACES_MAX_CPU, &beg, "expected a CPU number")) != 0)
    return err;
  skip_ws(p);
  if (!at(p, '-'))
    return add_single(p, beg, item);
  p->i++;
  skip_ws(p);
  if ((err = number(p, OMP_EXT_PLACES_MAX_CPU, &end, "expected the end of the range")) != 0)
    return err;
  skip_ws(p);
  if (at(p, ':')) {
    int neg;
    p->i++;
    skip_ws(p);
    neg = at(p, '-');
    if (neg) {
      p->i++;
      skip_ws(p);
    }
    if ((err = number(p, OMP_EXT_PLACES_MAX_CPU, &mag, "expected a stride")) != 0)
      return err;
    if (mag == 0)
      return fail(p, p->i - 1, "a stride must not be 0");
    str = neg ? -(long)mag : (long)mag;
  }
  if ((str > 0 && beg > end) || (str < 0 && beg < end))
    return fail(p, item, "the range goes the other way than its stride");
  for (v = (long)beg; str > 0 ? v <= (long)end : v >= (long)end; v += str)
    if ((err = add_single(p, (unsigned long)v, item)) != 0)
      return err;
  return omp_ext_success;
}

/* Point the parser at the proclist inside "...proclist=[...]" or "[...]". */
static int kmp_locate(struct parser *p, const char *text, char **inner)
{
  const char *open = strstr(text, "proclist=");
  const char *close;
  size_t off = 0;
  while (isspace((unsigned char)text[off]))
    off++;
  if (open)
    open += strlen("proclist=");
  else if (text[off] == '[')
    open = text + off;
  if (open && *open != '[')
    return fail(p, (size_t)(open - text), "expected '[' after proclist=");
  if (!open && isalpha((unsigned char)text[off]))
    return fail(p, off, "no explicit proclist to check: a KMP_AFFINITY such as \"compact\" "
                        "or \"scatter\" builds its places from the topology; a proclist is "
                        "\"explicit,proclist=[0,1,{2,3}]\"");
  if (!open) {
    *inner = strdup(text);
    return *inner ? omp_ext_success : omp_ext_err_nomem;
  }
  if (!(close = strchr(open, ']')))
    return fail(p, strlen(text), "missing ']' at the end of the proclist");
  p->base = (size_t)(open + 1 - text);
  *inner = strndup(open + 1, (size_t)(close - open - 1));
  return *inner ? omp_ext_success : omp_ext_err_nomem;
}

static int kmp_list(struct parser *p, const char *text)
{
  char *inner = NULL;
  int err = kmp_locate(p, text, &inner);
  if (err)
    return err;
  p->s = inner;
  skip_ws(p);
  if (!p->s[p->i])
    err = fail(p, p->i, "empty proclist");
  while (!err) {
    size_t item = (skip_ws(p), p->i);
    err = at(p, '{') ? kmp_set(p, item) : kmp_range(p, item);
    if (err)
      break;
    skip_ws(p);
    if (!p->s[p->i])
      break;
    if (!at(p, ','))
      err = fail(p, p->i, "expected ',' or the end of the proclist");
    else
      p->i++;
  }
  free(inner);
  return err;
}

/* ------------------------------------------------------------------ */

int omp_ext_places_parse(const omp_ext_topo_t *topo, const char *text, omp_ext_syntax_t syntax,
                         omp_ext_placelist_t **list, omp_ext_parse_error_t *err)
{
  return omp_ext_places_parse_capped(topo, text, syntax, OMP_EXT_PLACES_MAX_CPU, list, err);
}

int omp_ext_places_parse_capped(const omp_ext_topo_t *topo, const char *text,
                                omp_ext_syntax_t syntax, unsigned long max_cpu,
                                omp_ext_placelist_t **list, omp_ext_parse_error_t *err)
{
  struct parser p;
  int rc;
  if (!text || !list || (unsigned)syntax > omp_ext_syntax_kmp)
    return omp_ext_err_invalid;
  *list = NULL;
  memset(&p, 0, sizeof(p));
  p.s = text;
  p.err = err;
  p.max_cpu = max_cpu < OMP_EXT_PLACES_MAX_CPU ? max_cpu : OMP_EXT_PLACES_MAX_CPU;
  if (!(p.l = calloc(1, sizeof(*p.l))))
    return omp_ext_err_nomem;
  p.l->syntax = syntax;
  if (syntax == omp_ext_syntax_omp)
    rc = omp_places(&p, topo);
  else if (syntax == omp_ext_syntax_gomp)
    rc = gomp_list(&p);
  else
    rc = kmp_list(&p, text);
  if (rc) {
    omp_ext_placelist_destroy(p.l);
    return rc;
  }
  *list = p.l;
  return omp_ext_success;
}
