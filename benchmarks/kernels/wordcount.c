/*
 * Word count, shared-memory MapReduce as Phoenix's word_count (the paper's
 * benchmark): the input is split among the threads at word boundaries,
 * each thread counts into its own open-addressing hash table (map), then
 * each thread merges one hash partition of all tables (reduce) and keeps
 * its top words; the partitions' tops are merged serially.
 *
 * A word is a maximal run of ASCII letters, digits, apostrophes and bytes
 * >= 0x80, compared case-insensitively (ASCII).  The result is verified
 * word by word against a serial count with glibc's hsearch_r.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <omp.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "htbench.h"

#define WC_TOP 10
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

struct wc_entry {
  uint64_t hash;
  uint64_t count;
  uint32_t off; /* the folded word in the table's arena */
  uint32_t len;
};

/* Open addressing over 4-byte slots (entry index + 1; 0 = empty); entries
 * (24 bytes) dense in first-seen order, so the frequent words of a Zipf
 * text stay together in cache. */
struct wc_table {
  uint32_t *slot;
  size_t cap;        /* slots, a power of two */
  struct wc_entry *e;
  size_t used, ecap; /* entries */
  char *arena;       /* folded words, back to back */
  size_t alen, acap;
  int nomem;
};

struct wc_state {
  const char *buf;
  char *owned; /* buffer to free, if ours */
  size_t len;
  unsigned nthreads;
  unsigned team;          /* threads (= hash partitions) of the last run */
  struct wc_table *map;   /* per thread */
  struct wc_table *part;  /* per hash partition */
  struct htb_wc_top (*top)[WC_TOP]; /* per partition */
  struct htb_wc_top result[WC_TOP];
  uint64_t total, distinct;
  int has_expect; /* digest of the serial reference given */
  uint64_t want_total, want_distinct, want_sum;
};

/* Character classes (ASCII; every byte >= 0x80 belongs to words). */
static inline int is_word(unsigned c)
{
  return ((c | 32) - 'a' < 26u) || (c - '0' < 10u) || c == '\'' || c >= 0x80;
}

static inline unsigned fold(unsigned c)
{
  return c - 'A' < 26u ? c + 32 : c;
}

/* Is the input word w the folded word `stored`? */
static inline int same_word(const char *stored, const char *w, uint32_t len)
{
  uint32_t i;
  for (i = 0; i < len; i++)
    if (stored[i] != (char)fold((unsigned char)w[i]))
      return 0;
  return 1;
}

static int table_alloc(struct wc_table *t, size_t cap, size_t ecap)
{
  t->slot = calloc(cap, sizeof(*t->slot));
  t->e = malloc(ecap * sizeof(*t->e));
  t->arena = malloc(ecap * 8);
  t->acap = ecap * 8;
  t->alen = 0;
  t->cap = cap;
  t->ecap = ecap;
  t->used = 0;
  t->nomem = 0;
  return t->slot && t->e && t->arena ? 0 : -1;
}

static void table_clear(struct wc_table *t)
{
  memset(t->slot, 0, t->cap * sizeof(*t->slot));
  t->used = 0;
  t->alen = 0;
  t->nomem = 0;
}

static void slot_insert(uint32_t *slot, size_t mask, uint64_t h, size_t idx)
{
  size_t i = h & mask;
  while (slot[i])
    i = (i + 1) & mask;
  slot[i] = (uint32_t)(idx + 1);
}

static void table_rehash(struct wc_table *t)
{
  uint32_t *bigger = calloc(t->cap * 2, sizeof(*bigger));
  size_t i;
  if (!bigger) {
    t->nomem = 1;
    return;
  }
  for (i = 0; i < t->used; i++)
    slot_insert(bigger, t->cap * 2 - 1, t->e[i].hash, i);
  free(t->slot);
  t->slot = bigger;
  t->cap *= 2;
}

static void table_put(struct wc_table *t, const char *w, uint32_t len, uint64_t h, uint64_t add)
{
  size_t mask = t->cap - 1, i = h & mask;
  uint32_t s;
  struct wc_entry *e;
  while ((s = t->slot[i]) != 0) {
    e = &t->e[s - 1];
    if (e->hash == h && e->len == len && same_word(t->arena + e->off, w, len)) {
      e->count += add;
      return;
    }
    i = (i + 1) & mask;
  }
  if (t->alen + len > 0xffffffffU || t->used >= 0xfffffffeU) {
    t->nomem = 1; /* 32-bit offsets and indexes */
    return;
  }
  if (t->alen + len > t->acap) {
    char *bigger = realloc(t->arena, 2 * t->acap + len);
    if (!bigger) {
      t->nomem = 1;
      return;
    }
    t->arena = bigger;
    t->acap = 2 * t->acap + len;
  }
  if (t->used == t->ecap) {
    struct wc_entry *bigger = realloc(t->e, 2 * t->ecap * sizeof(*bigger));
    if (!bigger || t->ecap >= 0x7fffffffU) {
      t->nomem = 1;
      return;
    }
    t->e = bigger;
    t->ecap *= 2;
  }
  e = &t->e[t->used];
  e->off = (uint32_t)t->alen;
  for (s = 0; s < len; s++)
    t->arena[t->alen++] = (char)fold((unsigned char)w[s]);
  e->len = len;
  e->hash = h;
  e->count = add;
  t->slot[i] = (uint32_t)(t->used + 1);
  if (++t->used * 2 > t->cap)
    table_rehash(t);
}

static const struct wc_entry *table_get(const struct wc_table *t, const char *w, uint32_t len,
                                        uint64_t h)
{
  size_t mask = t->cap - 1, i = h & mask;
  uint32_t s;
  for (; (s = t->slot[i]) != 0; i = (i + 1) & mask) {
    const struct wc_entry *e = &t->e[s - 1];
    if (e->hash == h && e->len == len && same_word(t->arena + e->off, w, len))
      return e;
  }
  return NULL;
}

/* FNV-1a's low bits mix poorly (they only see the low bits of the state);
 * the table index uses them, so finish with murmur3's fmix64. */
static inline uint64_t fmix64(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

static uint64_t word_hash(const char *w, size_t len)
{
  uint64_t h = FNV_OFFSET;
  size_t i;
  for (i = 0; i < len; i++)
    h = (h ^ fold((unsigned char)w[i])) * FNV_PRIME;
  return fmix64(h);
}

/* Start of chunk t of T: moved forward past a word cut in two. */
static size_t chunk_start(const struct wc_state *st, unsigned t, unsigned nt)
{
  size_t s = (size_t)((unsigned __int128)st->len * t / nt);
  if (t == 0)
    return 0;
  while (s < st->len && is_word((unsigned char)st->buf[s - 1]) &&
         is_word((unsigned char)st->buf[s]))
    s++;
  return s;
}

static void map_chunk(struct wc_table *t, const char *buf, size_t start, size_t stop)
{
  const unsigned char *p = (const unsigned char *)buf + start, *end = (const unsigned char *)buf + stop;
  while (p < end) {
    const unsigned char *w;
    uint64_t h = FNV_OFFSET;
    while (p < end && !is_word(*p))
      p++;
    if (p >= end)
      break;
    w = p;
    while (p < end && is_word(*p)) {
      h = (h ^ fold(*p)) * FNV_PRIME;
      p++;
    }
    table_put(t, (const char *)w, (uint32_t)(p - w), fmix64(h), 1);
  }
}

static void copy_word(char *dst, const char *w, uint32_t len)
{
  uint32_t i, n = len < 63 ? len : 63;
  for (i = 0; i < n; i++)
    dst[i] = (char)fold((unsigned char)w[i]);
  dst[n] = '\0';
}

/* Does (count a, word a) rank before (count b, word b)? */
static int top_before(uint64_t ca, const char *wa, uint64_t cb, const char *wb)
{
  return ca > cb || (ca == cb && strcmp(wa, wb) < 0);
}

static void top_insert(struct htb_wc_top *top, unsigned k, const char *w, uint64_t c)
{
  unsigned i;
  if (c == 0)
    return;
  if (top[k - 1].count != 0 && !top_before(c, w, top[k - 1].count, top[k - 1].word))
    return;
  for (i = k - 1; i > 0 && (top[i - 1].count == 0 || top_before(c, w, top[i - 1].count, top[i - 1].word)); i--)
    top[i] = top[i - 1];
  top[i].count = c;
  snprintf(top[i].word, sizeof(top[i].word), "%s", w);
}

static void reduce_partition(struct wc_state *st, unsigned p, unsigned nt)
{
  struct wc_table *out = &st->part[p];
  unsigned k;
  size_t i;
  char w[64];

  table_clear(out);
  memset(st->top[p], 0, sizeof(st->top[p]));
  for (k = 0; k < nt; k++) {
    const struct wc_table *in = &st->map[k];
    for (i = 0; i < in->used; i++) {
      const struct wc_entry *e = &in->e[i];
      if ((e->hash >> 40) % nt == p)
        table_put(out, in->arena + e->off, e->len, e->hash, e->count);
    }
  }
  for (i = 0; i < out->used; i++)
    if (out->e[i].count >= st->top[p][WC_TOP - 1].count) {
      copy_word(w, out->arena + out->e[i].off, out->e[i].len);
      top_insert(st->top[p], WC_TOP, w, out->e[i].count);
    }
}

static void wc_run_once(struct wc_state *st, struct htb_probe *probe)
{
  unsigned nt = st->nthreads, p, i;
  uint64_t total = 0, distinct = 0;

  /* The team the runtime really gives (never more than asked) splits the
   * work: a smaller team still counts everything. */
#pragma omp parallel num_threads(st->nthreads)
  {
    unsigned t = omp_get_thread_num();
#pragma omp single
    nt = omp_get_num_threads();
    htb_probe_here(probe);
    table_clear(&st->map[t]);
    map_chunk(&st->map[t], st->buf, chunk_start(st, t, nt),
              t + 1 == nt ? st->len : chunk_start(st, t + 1, nt));
#pragma omp barrier
    reduce_partition(st, t, nt);
  }
  memset(st->result, 0, sizeof(st->result));
  for (p = 0; p < nt; p++) {
    for (i = 0; i < st->part[p].used; i++)
      total += st->part[p].e[i].count;
    distinct += st->part[p].used;
    for (i = 0; i < WC_TOP && st->top[p][i].count; i++)
      top_insert(st->result, WC_TOP, st->top[p][i].word, st->top[p][i].count);
  }
  st->total = total;
  st->distinct = distinct;
  st->team = nt;
}

static void wc_free(struct wc_state *st)
{
  unsigned t;
  if (!st)
    return;
  for (t = 0; t < st->nthreads; t++) {
    if (st->map) {
      free(st->map[t].slot);
      free(st->map[t].arena);
      free(st->map[t].e);
    }
    if (st->part) {
      free(st->part[t].slot);
      free(st->part[t].arena);
      free(st->part[t].e);
    }
  }
  free(st->map);
  free(st->part);
  free(st->top);
  free(st->owned);
  free(st);
}

static struct wc_state *wc_new(const char *buf, size_t len, unsigned nthreads)
{
  struct wc_state *st = calloc(1, sizeof(*st));
  unsigned t;
  if (!st)
    return NULL;
  st->buf = buf;
  st->len = len;
  st->nthreads = st->team = nthreads;
  st->map = calloc(nthreads, sizeof(*st->map));
  st->part = calloc(nthreads, sizeof(*st->part));
  st->top = calloc(nthreads, sizeof(*st->top));
  if (!st->map || !st->part || !st->top) {
    wc_free(st);
    return NULL;
  }
  for (t = 0; t < nthreads; t++)
    if (table_alloc(&st->map[t], 1 << 16, 1 << 14) < 0 ||
        table_alloc(&st->part[t], 1 << 14, 1 << 12) < 0) {
      wc_free(st);
      return NULL;
    }
  return st;
}

static int wc_nomem(const struct wc_state *st)
{
  unsigned t;
  for (t = 0; t < st->nthreads; t++)
    if (st->map[t].nomem || st->part[t].nomem)
      return 1;
  return 0;
}

/* ---- the serial reference: an independent count with hsearch_r ---- */

struct serial_count {
  struct hsearch_data htab;
  size_t cap, n;
  char **keys;
  uint64_t *counts;
  uint64_t total;
};

static int serial_word_char(int c)
{
  return isascii(c) ? (isalnum(c) || c == '\'') : 1;
}

static int serial_rebuild(struct serial_count *sc, size_t cap)
{
  size_t i;
  char **keys = realloc(sc->keys, cap * sizeof(*keys));
  uint64_t *counts = realloc(sc->counts, cap * sizeof(*counts));
  if (keys)
    sc->keys = keys;
  if (counts)
    sc->counts = counts;
  if (!keys || !counts)
    return -1;
  if (sc->cap)
    hdestroy_r(&sc->htab);
  memset(&sc->htab, 0, sizeof(sc->htab));
  if (!hcreate_r(cap * 2, &sc->htab))
    return -1;
  sc->cap = cap;
  for (i = 0; i < sc->n; i++) {
    ENTRY e = {sc->keys[i], (void *)i}, *found;
    if (!hsearch_r(e, ENTER, &found, &sc->htab))
      return -1;
  }
  return 0;
}

static int serial_add(struct serial_count *sc, char *word)
{
  ENTRY e = {word, NULL}, *found;
  if (hsearch_r(e, FIND, &found, &sc->htab)) {
    sc->counts[(size_t)found->data]++;
    return 0;
  }
  if (sc->n + 1 > sc->cap && serial_rebuild(sc, sc->cap * 2) < 0)
    return -1;
  e.key = strdup(word);
  e.data = (void *)sc->n;
  if (!e.key || !hsearch_r(e, ENTER, &found, &sc->htab))
    return -1;
  sc->keys[sc->n] = e.key;
  sc->counts[sc->n++] = 1;
  return 0;
}

static void serial_free(struct serial_count *sc)
{
  size_t i;
  for (i = 0; i < sc->n; i++)
    free(sc->keys[i]);
  free(sc->keys);
  free(sc->counts);
  if (sc->cap)
    hdestroy_r(&sc->htab);
}

static int serial_count(const char *buf, size_t len, struct serial_count *sc)
{
  size_t i = 0, wl, wcap = 64;
  char *w = malloc(wcap);
  memset(sc, 0, sizeof(*sc));
  if (!w || serial_rebuild(sc, 4096) < 0)
    goto fail;
  while (i < len) {
    while (i < len && !serial_word_char((unsigned char)buf[i]))
      i++;
    if (i >= len)
      break;
    for (wl = 0; i < len && serial_word_char((unsigned char)buf[i]); i++) {
      if (wl + 1 >= wcap) {
        char *bigger = realloc(w, wcap *= 2);
        if (!bigger)
          goto fail;
        w = bigger;
      }
      w[wl++] = (char)tolower((unsigned char)buf[i]);
    }
    w[wl] = '\0';
    sc->total++;
    if (serial_add(sc, w) < 0)
      goto fail;
  }
  free(w);
  return 0;
fail:
  free(w);
  return -1;
}

static uint64_t serial_checksum(const struct serial_count *sc)
{
  uint64_t sum = 0;
  size_t i;
  for (i = 0; i < sc->n; i++)
    sum += (word_hash(sc->keys[i], strlen(sc->keys[i])) | 1) * sc->counts[i];
  return sum;
}

int htb_wordcount_reference(const char *buf, size_t len, char *out, size_t outlen)
{
  struct serial_count sc;
  int rc = serial_count(buf, len, &sc);
  if (rc == 0)
    snprintf(out, outlen, "%llu,%llu,%llu", (unsigned long long)sc.total,
             (unsigned long long)sc.n, (unsigned long long)serial_checksum(&sc));
  serial_free(&sc);
  return rc;
}

static void summary(const struct wc_state *st, char *msg, size_t msglen, const char *how)
{
  unsigned p;
  int n = snprintf(msg, msglen, "words=%llu distinct=%llu top=", (unsigned long long)st->total,
                   (unsigned long long)st->distinct);
  for (p = 0; p < 3 && st->result[p].count && n > 0 && (size_t)n < msglen; p++)
    n += snprintf(msg + n, msglen - n, "%s%s:%llu", p ? "," : "", st->result[p].word,
                  (unsigned long long)st->result[p].count);
  if (n > 0 && (size_t)n < msglen)
    snprintf(msg + n, msglen - n, " (%s)", how);
}

/* Compare with the digest of the serial reference (the parent's). */
static int wc_check_digest(struct wc_state *st, char *msg, size_t msglen)
{
  uint64_t sum = 0;
  unsigned p;
  size_t i;
  for (p = 0; p < st->team; p++)
    for (i = 0; i < st->part[p].used; i++)
      sum += (st->part[p].e[i].hash | 1) * st->part[p].e[i].count;
  if (st->total != st->want_total || st->distinct != st->want_distinct || sum != st->want_sum) {
    snprintf(msg, msglen, "word count WRONG: %llu words, %llu distinct, checksum %llu; serial "
             "reference: %llu, %llu, %llu", (unsigned long long)st->total,
             (unsigned long long)st->distinct, (unsigned long long)sum,
             (unsigned long long)st->want_total, (unsigned long long)st->want_distinct,
             (unsigned long long)st->want_sum);
    return 0;
  }
  summary(st, msg, msglen, "= serial reference digest");
  return 1;
}

static int wc_check(struct wc_state *st, char *msg, size_t msglen)
{
  struct serial_count sc;
  size_t i;
  unsigned p;
  int ok = 1;

  if (wc_nomem(st)) {
    snprintf(msg, msglen, "word count: out of memory in a hash table");
    return 0;
  }
  if (st->has_expect)
    return wc_check_digest(st, msg, msglen);
  if (serial_count(st->buf, st->len, &sc) < 0) {
    serial_free(&sc);
    snprintf(msg, msglen, "word count: out of memory in the serial reference");
    return 0;
  }
  if (sc.total != st->total || sc.n != st->distinct) {
    snprintf(msg, msglen, "word count WRONG: %llu words, %llu distinct; serial: %llu, %llu",
             (unsigned long long)st->total, (unsigned long long)st->distinct,
             (unsigned long long)sc.total, (unsigned long long)sc.n);
    ok = 0;
  }
  for (i = 0; ok && i < sc.n; i++) {
    size_t len = strlen(sc.keys[i]);
    uint64_t h = word_hash(sc.keys[i], len);
    const struct wc_entry *e;
    p = (unsigned)((h >> 40) % st->team);
    e = table_get(&st->part[p], sc.keys[i], (uint32_t)len, h);
    if (!e || e->count != sc.counts[i]) {
      snprintf(msg, msglen, "word count WRONG: '%.40s' counted %llu, serial %llu", sc.keys[i],
               e ? (unsigned long long)e->count : 0ULL, (unsigned long long)sc.counts[i]);
      ok = 0;
    }
  }
  if (ok)
    summary(st, msg, msglen, "= serial count, word by word");
  serial_free(&sc);
  return ok;
}

int htb_wordcount_buffer(const char *buf, size_t len, unsigned nthreads, uint64_t *total,
                         uint64_t *distinct, struct htb_wc_top *top, unsigned k, char *msg,
                         size_t msglen)
{
  struct wc_state *st = wc_new(buf, len, nthreads ? nthreads : 1);
  unsigned i;
  int ok;
  if (!st) {
    snprintf(msg, msglen, "word count: out of memory");
    return 0;
  }
  wc_run_once(st, NULL);
  ok = wc_check(st, msg, msglen);
  *total = st->total;
  *distinct = st->distinct;
  for (i = 0; i < k; i++)
    top[i] = i < WC_TOP ? st->result[i] : (struct htb_wc_top){"", 0};
  wc_free(st);
  return ok;
}

/* ---- kernel interface ---- */

static void *wc_setup(const struct htb_sizes *sz, unsigned nthreads, char *err, size_t errlen)
{
  struct wc_state *st;
  char *buf;
  size_t len;

  if (sz->input) {
    buf = htb_read_file(sz->input, &len, err, errlen);
  } else {
    len = (size_t)(sz->corpus_mb * 1e6);
    buf = htb_corpus_generate(len, sz->seed);
    if (!buf)
      snprintf(err, errlen, "out of memory for a %.1f MB corpus", sz->corpus_mb);
  }
  if (!buf)
    return NULL;
  st = wc_new(buf, len, nthreads);
  if (!st) {
    free(buf);
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  st->owned = buf;
  if (sz->wc_expect) {
    unsigned long long t, d, c;
    char extra;
    if (sscanf(sz->wc_expect, "%llu,%llu,%llu%c", &t, &d, &c, &extra) != 3) {
      snprintf(err, errlen, "--wc-expect '%s': need TOTAL,DISTINCT,CHECKSUM", sz->wc_expect);
      wc_free(st);
      return NULL;
    }
    st->has_expect = 1;
    st->want_total = t;
    st->want_distinct = d;
    st->want_sum = c;
  }
  return st;
}

static void wc_run(void *state, unsigned long inner, struct htb_probe *probe)
{
  unsigned long i;
  for (i = 0; i < inner; i++)
    wc_run_once(state, i == 0 ? probe : NULL);
}

static int wc_verify(void *state, char *msg, size_t msglen)
{
  return wc_check(state, msg, msglen);
}

static double wc_work(void *state)
{
  return ((struct wc_state *)state)->len / 1e6;
}

static void wc_teardown(void *state)
{
  wc_free(state);
}

const struct htb_kernel htb_kernel_wordcount = {
  "wordcount", "word count (Phoenix-style MapReduce, per-thread hash tables)",
  HTB_WORK, "MB/s", wc_setup, wc_run, NULL, wc_verify, wc_work, wc_teardown, NULL,
};
