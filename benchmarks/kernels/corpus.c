/*
 * A generated English-like corpus for word count: Zipf-distributed (s = 1)
 * words over HTB_CORPUS_WORDS pseudo-words, in sentences (capitalised
 * first word, occasional commas, a period) on lines of at most 72 columns.
 * Deterministic for a seed (splitmix64), exactly the requested size.
 *
 * Pseudo-words are consonant-onset + vowel syllables with an optional
 * final consonant: the most frequent ranks get one syllable, so frequent
 * words are short as in English.  The syllable table is shuffled by the
 * seed; every rank gives a different word (the parse is unique).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "htbench.h"

static const char *const onsets[] = {
  "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "y",
  "z", "th", "sh", "ch", "st", "tr",
};
static const char *const vowels[] = {"a", "e", "i", "o", "u", "ea", "ou", "ai"};
static const char *const codas[] = {"t", "n", "s", "r", "d", "l", "m", "ng"};
#define NONSETS (sizeof(onsets) / sizeof(onsets[0]))
#define NVOWELS (sizeof(vowels) / sizeof(vowels[0]))
#define NSYLL (NONSETS * NVOWELS)
#define NCODAS (sizeof(codas) / sizeof(codas[0]))

static uint64_t splitmix64(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Syllable table order for a seed (Fisher-Yates). */
static void syllable_perm(uint64_t seed, unsigned *perm)
{
  uint64_t st = seed ^ 0x5eed5eed5eedULL;
  unsigned i;
  for (i = 0; i < NSYLL; i++)
    perm[i] = i;
  for (i = NSYLL - 1; i > 0; i--) {
    unsigned j = splitmix64(&st) % (i + 1), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
}

static size_t word_from_perm(const unsigned *perm, uint64_t seed, unsigned rank, char *buf)
{
  unsigned nsyl, idx = rank, k;
  uint64_t h = seed ^ (0xc0da0000ULL + rank);
  size_t len = 0;

  if (idx < NSYLL) {
    nsyl = 1;
  } else if ((idx -= NSYLL) < NSYLL * NSYLL) {
    nsyl = 2;
  } else {
    idx -= NSYLL * NSYLL;
    nsyl = 3;
  }
  for (k = 0; k < nsyl; k++) {
    unsigned s = perm[idx % NSYLL];
    const char *o = onsets[s / NVOWELS], *v = vowels[s % NVOWELS];
    idx /= NSYLL;
    memcpy(buf + len, o, strlen(o));
    len += strlen(o);
    memcpy(buf + len, v, strlen(v));
    len += strlen(v);
  }
  h = splitmix64(&h);
  if (h % 3 != 0) { /* two words in three end in a consonant */
    const char *c = codas[(h >> 8) % NCODAS];
    memcpy(buf + len, c, strlen(c));
    len += strlen(c);
  }
  buf[len] = '\0';
  return len;
}

size_t htb_corpus_word(uint64_t seed, unsigned rank, char *buf)
{
  unsigned perm[NSYLL];
  syllable_perm(seed, perm);
  return word_from_perm(perm, seed, rank, buf);
}

struct vocab {
  char (*words)[16];
  unsigned char *len;
  double *cdf; /* cdf[r] = H(r + 1), harmonic numbers */
};

static int vocab_init(struct vocab *v, uint64_t seed)
{
  unsigned perm[NSYLL], r;
  double h = 0;
  v->words = malloc(HTB_CORPUS_WORDS * sizeof(*v->words));
  v->len = malloc(HTB_CORPUS_WORDS);
  v->cdf = malloc(HTB_CORPUS_WORDS * sizeof(double));
  if (!v->words || !v->len || !v->cdf)
    return -1;
  syllable_perm(seed, perm);
  for (r = 0; r < HTB_CORPUS_WORDS; r++) {
    v->len[r] = (unsigned char)word_from_perm(perm, seed, r, v->words[r]);
    h += 1.0 / (r + 1); /* Zipf, s = 1 */
    v->cdf[r] = h;
  }
  return 0;
}

static void vocab_free(struct vocab *v)
{
  free(v->words);
  free(v->len);
  free(v->cdf);
}

static unsigned zipf_sample(const struct vocab *v, uint64_t *st)
{
  double u = (splitmix64(st) >> 11) * (1.0 / 9007199254740992.0) * v->cdf[HTB_CORPUS_WORDS - 1];
  unsigned lo = 0, hi = HTB_CORPUS_WORDS - 1;
  while (lo < hi) {
    unsigned mid = (lo + hi) / 2;
    if (v->cdf[mid] < u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

char *htb_corpus_generate(size_t bytes, uint64_t seed)
{
  struct vocab v;
  uint64_t st = seed;
  char *buf = malloc(bytes ? bytes : 1);
  size_t pos = 0, col = 0;
  unsigned left_in_sentence = 0;

  memset(&v, 0, sizeof(v));
  if (!buf || vocab_init(&v, seed) < 0) {
    free(buf);
    vocab_free(&v);
    return NULL;
  }
  /* Each step writes a separator and a word plus at most ", " or "." */
  while (pos + 16 + 3 < bytes) {
    unsigned r = zipf_sample(&v, &st), len = v.len[r];
    uint64_t x = splitmix64(&st);
    int start = left_in_sentence == 0;
    if (start)
      left_in_sentence = 4 + x % 15; /* 4..18 words */
    if (pos > 0) {
      if (col + 1 + len + 1 > 72) {
        buf[pos++] = '\n';
        col = 0;
      } else {
        buf[pos++] = ' ';
        col++;
      }
    }
    memcpy(buf + pos, v.words[r], len);
    if (start)
      buf[pos] = (char)(buf[pos] - 'a' + 'A');
    pos += len;
    col += len;
    if (--left_in_sentence == 0) {
      buf[pos++] = '.';
      col++;
    } else if ((x >> 32) % 12 == 0) {
      buf[pos++] = ',';
      col++;
    }
  }
  for (; pos < bytes; pos++)
    buf[pos] = pos + 1 == bytes ? '\n' : ' ';
  vocab_free(&v);
  return buf;
}

int htb_corpus_write(const char *path, size_t bytes, uint64_t seed)
{
  char *buf = htb_corpus_generate(bytes, seed);
  FILE *f;
  int ok;
  if (!buf) {
    errno = ENOMEM;
    return -1;
  }
  f = fopen(path, "wb");
  if (!f) {
    free(buf);
    return -1;
  }
  ok = fwrite(buf, 1, bytes, f) == bytes;
  ok = (fclose(f) == 0) && ok;
  free(buf);
  return ok ? 0 : -1;
}
