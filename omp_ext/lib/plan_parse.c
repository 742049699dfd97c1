/*
 * The plan format read and checked whole, in one place (plan_int.h): the
 * plan applied to regions (OMP_EXT_PLAN: plan.c), auto's learnt state
 * (OMP_EXT_LEARN: learn.c) and, through omp_ext_plan_check(), htplaces
 * exec --plan and doctor all read a plan here, so that a plan exec accepts
 * is a plan the library applies, and a plan either refuses is refused by
 * both, with the same line.
 *
 * Reading never blocks and never reads much: a path is opened with
 * O_NONBLOCK (a FIFO with no writer opens at once), and only a regular
 * file of at most OMP_EXT_PLAN_MAX_BYTES is read (a FIFO, a folder,
 * /dev/zero are refused by fstat, before any read).  An OMP_EXT_PLAN value
 * that starts with the header word is the plan text itself (what htplaces
 * exec --plan passes: it survives wrappers that close inherited file
 * descriptors).
 *
 * Every field is checked: the header, each directive once, MODULE (a file
 * name, %XX escapes), OFFSET (hexadecimal), THREADS (0, the program's team,
 * or 1 .. the allowed PUs; a learnt kept team may be larger), PLACES
 * (explicit places, each inside the allowed PUs, or '-'), LABEL
 * (POLICY:N, POLICY a known one, N = THREADS), no region given twice for
 * the same THREADS, no second default, the machine line against this
 * machine, and a learnt state's fields.  The first problem refuses the
 * whole plan: a plan is applied entirely or not at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "private/bind.h"
#include "private/plan_int.h"
#include "private/util.h"

#define MAXWORDS (16 + 2 * OMP_EXT_PLAN_MAXC)

struct ctx {
  struct omp_ext_plan *p;
  hwloc_const_bitmap_t allowed;
  const omp_ext_topo_t *topo;
  unsigned npus;
  unsigned lineno;
  char *why;
  size_t len;
};

/* "SOURCE line N: " + the message; returns omp_ext_err_parse. */
__attribute__((format(printf, 2, 3))) static int bad(struct ctx *c, const char *fmt, ...)
{
  va_list ap;
  int n = c->lineno ? snprintf(c->why, c->len, "%s line %u: ", c->p->source, c->lineno)
                    : snprintf(c->why, c->len, "%s: ", c->p->source);
  if (n >= 0 && (size_t)n < c->len) {
    va_start(ap, fmt);
    vsnprintf(c->why + n, c->len - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return omp_ext_err_parse;
}

/* A value for a message: quoted, escaped, shortened. */
static const char *shown(const char *v, char *buf, size_t size)
{
  size_t n;
  buf[0] = '\'';
  omp_ext_quote(v, buf + 1, size - 2);
  n = strlen(buf);
  buf[n] = '\'', buf[n + 1] = '\0';
  return buf;
}
#define SHOWN(v) shown((v), (char[4 * OMP_EXT_QUOTE_MAX + 40]){0}, 4 * OMP_EXT_QUOTE_MAX + 40)

int omp_ext_plan_is_text(const char *value)
{
  return value && strncmp(value, "omp_ext_plan", 12) == 0 &&
         (value[12] == ' ' || value[12] == '\t');
}

/* The whole regular file \p path, NUL-terminated, in *text. */
static int read_file(struct ctx *c, const char *path, char **text)
{
  struct stat st;
  size_t got = 0;
  ssize_t n;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  char *buf;
  if (fd < 0)
    return bad(c, "cannot open it: %s", strerror(errno));
  if (fstat(fd, &st) != 0) {
    close(fd);
    return bad(c, "cannot read it: %s", strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return bad(c, "not a regular file (%s); give a plan file", omp_ext_file_kind(st.st_mode));
  }
  if ((unsigned long long)st.st_size > OMP_EXT_PLAN_MAX_BYTES) {
    close(fd);
    return bad(c, "%lld bytes, more than a plan's limit of %lu", (long long)st.st_size,
               OMP_EXT_PLAN_MAX_BYTES);
  }
  if (!(buf = malloc(OMP_EXT_PLAN_MAX_BYTES + 1))) {
    close(fd);
    return omp_ext_err_nomem;
  }
  /* (A file that grows while it is read: at most the limit, then refused.) */
  while (got <= OMP_EXT_PLAN_MAX_BYTES &&
         (n = read(fd, buf + got, OMP_EXT_PLAN_MAX_BYTES + 1 - got)) > 0)
    got += (size_t)n;
  close(fd);
  if (got > OMP_EXT_PLAN_MAX_BYTES) {
    free(buf);
    return bad(c, "more than a plan's limit of %lu bytes", OMP_EXT_PLAN_MAX_BYTES);
  }
  buf[got] = '\0';
  if (strlen(buf) != got) {
    free(buf);
    return bad(c, "a NUL byte: not a text file");
  }
  *text = buf;
  return omp_ext_success;
}

/* MODULE's %XX escapes decoded into \p out. */
static int module_field(struct ctx *c, const char *w, char *out, size_t len)
{
  const char *at = w;
  size_t k = 0;
  unsigned v;
  for (; *w; w++) {
    if (*w == '%') {
      if (sscanf(w + 1, "%2x", &v) != 1 || !w[1] || !w[2] || v == 0)
        return bad(c, "MODULE %s: a '%%' not followed by two hex digits", SHOWN(at));
      w += 2;
    } else {
      v = (unsigned char)*w;
    }
    if (k + 1 >= len)
      return bad(c, "MODULE %s: longer than %zu bytes", SHOWN(at), len - 1);
    out[k++] = (char)v;
  }
  out[k] = '\0';
  if (strchr(out, '/'))
    return bad(c, "MODULE %s: a file name without a folder is expected", SHOWN(at));
  return omp_ext_success;
}

static int count_field(struct ctx *c, const char *name, const char *w, unsigned long long min,
                       unsigned long long max, unsigned long long *v)
{
  if (omp_ext_parse_uint(w, min, max, v) != OMP_EXT_UINT_OK)
    return bad(c, "%s %s: a whole number %llu..%llu is expected", name, SHOWN(w), min, max);
  return omp_ext_success;
}

/* The label words besides the policies with a place order: an unbound
 * configuration, a plan's own places. */
static const char *const label_extra[] = {"none", "places"};

/* "POLICY:N": the policies per-region control and tune name (those of the
 * policy table with a place order, then label_extra). */
static int label_ok(const char *w, unsigned long long *n)
{
  const char *colon = strchr(w, ':');
  size_t i, len = colon ? (size_t)(colon - w) : 0;
  char name[OMP_EXT_PLAN_LABEL];
  omp_ht_policy_t p;
  int known = 0;
  if (!colon || strlen(w) >= OMP_EXT_PLAN_LABEL)
    return 0;
  memcpy(name, w, len);
  name[len] = '\0';
  known = omp_ext_policy_from_name(name, &p) == 0 && omp_ext_policy_has_order(p) == 1;
  for (i = 0; i < sizeof(label_extra) / sizeof(*label_extra); i++)
    known |= strcmp(name, label_extra[i]) == 0;
  return known && omp_ext_parse_uint(colon + 1, 1, 1 << 16, n) == OMP_EXT_UINT_OK;
}

/* "os, speedup, spn, spread, energy, none, places": what label_ok() takes. */
static const char *label_names(char *buf, size_t size)
{
  size_t len = 0, i;
  for (i = 0; i < OMP_EXT_NPOLICIES + sizeof(label_extra) / sizeof(*label_extra); i++)
    if (len < size)
      len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
                              i < OMP_EXT_NPOLICIES ? omp_ext_policy_name((omp_ht_policy_t)i)
                                                    : label_extra[i - OMP_EXT_NPOLICIES]);
  return buf;
}

static int label_field(struct ctx *c, const char *w, unsigned threads, char *out)
{
  unsigned long long n;
  char names[128];
  if (!label_ok(w, &n))
    return bad(c, "LABEL %s: POLICY:N is expected, POLICY one of %s", SHOWN(w),
               label_names(names, sizeof(names)));
  if (threads && n != threads)
    return bad(c, "LABEL %s: N is not THREADS (%u)", SHOWN(w), threads);
  snprintf(out, OMP_EXT_PLAN_LABEL, "%s", w);
  return omp_ext_success;
}

/* PLACES: '-' (unbound) or explicit places, each inside the allowed PUs. */
static int places_field(struct ctx *c, const char *w, omp_ext_placelist_t **out)
{
  omp_ext_parse_error_t e = {0, NULL};
  unsigned i;
  int err;
  *out = NULL;
  if (strcmp(w, "-") == 0)
    return omp_ext_success;
  err = omp_ext_places_parse(NULL, w, omp_ext_syntax_omp, out, &e);
  if (err == omp_ext_err_nomem)
    return err;
  if (err)
    return bad(c, "PLACES %s: %s at character %zu; explicit places such as {0},{1}, or '-'",
               SHOWN(w), e.what ? e.what : "not an explicit list", e.pos + 1);
  if ((*out)->nplaces == 0)
    return bad(c, "PLACES %s: no place", SHOWN(w));
  for (i = 0; i < (*out)->nplaces; i++)
    if (hwloc_bitmap_iszero((*out)->places[i]) ||
        !hwloc_bitmap_isincluded((*out)->places[i], c->allowed)) {
      char *list = NULL;
      int r;
      hwloc_bitmap_list_asprintf(&list, c->allowed);
      r = bad(c, "PLACES %s: place %u is %s the allowed PUs (%s)", SHOWN(w), i + 1,
              hwloc_bitmap_iszero((*out)->places[i]) ? "empty, not within" : "not within",
              list ? list : "?");
      free(list);
      return r;
    }
  return omp_ext_success;
}

/* One sample list "v,v,..." of a state's candidate: '-' none, 'x'
 * skipped, a number of seconds ('s' after it: it followed a switch). */
static int samples_field(struct ctx *c, const char *w, struct omp_ext_plan_cand *k,
                         unsigned *n)
{
  const char *at = w;
  for (*n = 0; *w; (*n)++) {
    char *end;
    double v;
    if (*n == OMP_EXT_PLAN_MAXSAMP)
      return bad(c, "c=%s: more than %d samples", SHOWN(at), OMP_EXT_PLAN_MAXSAMP);
    k->sw[*n] = 0;
    if ((*w == '-' || *w == 'x') && (w[1] == ',' || !w[1])) {
      k->s[*n] = *w == '-' ? NAN : INFINITY;
      end = (char *)w + 1;
    } else {
      v = strtod(w, &end);
      if (end == w || !isfinite(v) || v < 0 || (*w < '0' || *w > '9'))
        return bad(c, "c=%s: a sample is '-', 'x' or seconds >= 0", SHOWN(at));
      k->s[*n] = v;
      if (*end == 's')
        k->sw[*n] = 1, end++;
    }
    if (*end != ',' && *end)
      return bad(c, "c=%s: samples are separated by ','", SHOWN(at));
    w = *end ? end + 1 : end;
  }
  return omp_ext_success;
}

static int state_key(struct ctx *c, struct omp_ext_plan_state *s, const char *key,
                     const char *v, unsigned *nsamp_of)
{
  unsigned long long x;
  int err = omp_ext_success;
  unsigned i;
  if (strcmp(key, "team") == 0) {
    s->team_free = strncmp(v, "free:", 5) == 0;
    if (strncmp(v, "keep:", 5) != 0 && !s->team_free)
      return bad(c, "team=%s: keep:T or free:T is expected", SHOWN(v));
    if ((err = count_field(c, "team=", v + 5, 1, 1 << 16, &x)) == 0)
      s->team = (unsigned)x;
  } else if (strcmp(key, "phase") == 0) {
    static const char *const phases[] = {"warm", "explore", "settled"};
    for (i = 0; i < 3 && strcmp(v, phases[i]) != 0; i++)
      ;
    if (i == 3)
      return bad(c, "phase=%s: warm, explore or settled is expected", SHOWN(v));
    s->phase = (int)i;
  } else if (strcmp(key, "n") == 0 && (err = count_field(c, "n=", v, 0, 1ULL << 62, &x)) == 0) {
    s->n = (unsigned long)x;
  } else if (strcmp(key, "step") == 0 &&
             (err = count_field(c, "step=", v, 0, OMP_EXT_PLAN_MAXC * OMP_EXT_PLAN_MAXSAMP,
                                &x)) == 0) {
    s->step = (unsigned)x;
  } else if (strcmp(key, "block") == 0 &&
             (err = count_field(c, "block=", v, 1, OMP_EXT_PLAN_MAXSAMP, &x)) == 0) {
    s->block = (unsigned)x;
  } else if (strcmp(key, "nsamp") == 0 &&
             (err = count_field(c, "nsamp=", v, 1, OMP_EXT_PLAN_MAXSAMP, &x)) == 0) {
    s->nsamp = (unsigned)x;
  } else if (strcmp(key, "drift") == 0 &&
             (err = count_field(c, "drift=", v, 0, 1000, &x)) == 0) {
    s->drift = (unsigned)x;
  } else if (strcmp(key, "reexplores") == 0 &&
             (err = count_field(c, "reexplores=", v, 0, 1000, &x)) == 0) {
    s->reexplores = (unsigned)x;
  } else if (strcmp(key, "runs") == 0 &&
             (err = count_field(c, "runs=", v, 0, 1000, &x)) == 0) {
    s->runs = (unsigned)x;
  } else if (strcmp(key, "ref") == 0) {
    char *end;
    s->ref = strtod(v, &end);
    if (end == v || *end || !isfinite(s->ref) || s->ref < 0)
      return bad(c, "ref=%s: seconds >= 0 are expected", SHOWN(v));
  } else if (strcmp(key, "c") == 0) {
    struct omp_ext_plan_cand *k = &s->cand[s->ncand];
    const char *slash = strchr(v, '/');
    char label[OMP_EXT_PLAN_LABEL];
    if (s->ncand == OMP_EXT_PLAN_MAXC)
      return bad(c, "more than %d candidates (c=)", OMP_EXT_PLAN_MAXC);
    if (!slash || (size_t)(slash - v) >= sizeof(label))
      return bad(c, "c=%s: LABEL/SAMPLES is expected", SHOWN(v));
    memcpy(label, v, (size_t)(slash - v));
    label[slash - v] = '\0';
    if (!label_ok(label, &x))
      return bad(c, "c=%s: LABEL POLICY:N is expected", SHOWN(v));
    for (i = 0; i < s->ncand; i++)
      if (strcmp(s->cand[i].label, label) == 0)
        return bad(c, "c=%s: candidate given twice", SHOWN(label));
    memcpy(k->label, label, sizeof(label));
    if ((err = samples_field(c, slash + 1, k, &nsamp_of[s->ncand])) == 0)
      s->ncand++;
  } else if (strcmp(key, "drop") == 0) {
    for (i = 0; i < s->ncand && strcmp(s->cand[i].label, v) != 0; i++)
      ;
    if (i == s->ncand)
      return bad(c, "drop=%s: not a candidate given before (c=)", SHOWN(v));
    s->cand[i].dropped = 1;
  } else if (!err) {
    return bad(c, "%s=: unknown field; allowed: team, phase, n, step, block, nsamp, ref, "
               "drift, reexplores, runs, c, drop", SHOWN(key));
  }
  return err;
}

/* The learnt state of a region line: words \p w[0 .. n-1], KEY=VALUE. */
static int state_fields(struct ctx *c, char **w, int n, const char *label, unsigned threads,
                        struct omp_ext_plan_state **out)
{
  struct omp_ext_plan_state *s = calloc(1, sizeof(*s));
  unsigned nsamp_of[OMP_EXT_PLAN_MAXC], i;
  int k, err = omp_ext_success, have_team = 0, have_phase = 0;
  if (!s)
    return omp_ext_err_nomem;
  s->phase = -1;
  for (k = 0; k < n && !err; k++) {
    char *eq = strchr(w[k], '=');
    if (!eq || eq == w[k]) {
      err = bad(c, "%s: KEY=VALUE is expected after LABEL", SHOWN(w[k]));
      break;
    }
    *eq = '\0';
    have_team |= strcmp(w[k], "team") == 0;
    have_phase |= strcmp(w[k], "phase") == 0;
    err = state_key(c, s, w[k], eq + 1, nsamp_of);
    *eq = '=';
  }
  if (!err && (!have_team || !have_phase || !s->ncand || !s->block || !s->nsamp))
    err = bad(c, "a learnt state needs team=, phase=, block=, nsamp= and c=");
  if (!err && s->nsamp % s->block)
    err = bad(c, "nsamp=%u is not a multiple of block=%u", s->nsamp, s->block);
  if (!err && s->step > s->ncand * s->nsamp)
    err = bad(c, "step=%u is beyond the exploration (%u candidates x nsamp=%u)", s->step,
              s->ncand, s->nsamp);
  for (i = 0; !err && i < s->ncand; i++)
    if (nsamp_of[i] != s->nsamp)
      err = bad(c, "c=%s: %u samples, not nsamp=%u", SHOWN(s->cand[i].label), nsamp_of[i],
                s->nsamp);
  for (i = 0; !err && i < s->ncand && strcmp(s->cand[i].label, label) != 0; i++)
    ;
  if (!err && i == s->ncand)
    err = bad(c, "LABEL %s is none of the state's candidates (c=)", SHOWN(label));
  if (!err && !s->team_free && threads != s->team)
    err = bad(c, "THREADS %u is not the kept team of team=keep:%u", threads, s->team);
  if (err) {
    free(s);
    return err;
  }
  *out = s;
  return omp_ext_success;
}

/* "default THREADS PLACES [LABEL]", "region MODULE OFFSET THREADS PLACES
 * [LABEL [KEY=VALUE ...]]". */
static int entry_line(struct ctx *c, char **w, int n, struct omp_ext_plan_line *e)
{
  unsigned long long v;
  char *end;
  int k = 1, err, region = strcmp(w[0], "region") == 0;
  e->kind = region ? OMP_EXT_PLAN_REGION : OMP_EXT_PLAN_DEFAULT;
  e->lineno = c->lineno;
  if (region ? n < 5 || (c->p->version == 1 && n != 5) : n < 3 || n > 4 ||
                                                         (c->p->version == 1 && n != 3))
    return bad(c, region ? "expected 'region MODULE OFFSET THREADS PLACES%s'"
                         : "expected 'default THREADS PLACES%s'",
               c->p->version == 1 ? "" : region ? " [LABEL [KEY=VALUE ...]]" : " [LABEL]");
  if (region) {
    if ((err = module_field(c, w[1], e->module, sizeof(e->module))) != 0)
      return err;
    if (strncmp(w[2], "0x", 2) != 0 || !w[2][2] || strlen(w[2]) > 18 ||
        (v = strtoull(w[2] + 2, &end, 16), *end))
      return bad(c, "OFFSET %s: hexadecimal such as 0x1a2c is expected", SHOWN(w[2]));
    e->offset = (unsigned long)v;
    k = 3;
  }
  if ((err = count_field(c, "THREADS", w[k], 0, 1 << 16, &v)) != 0)
    return err;
  e->threads = (unsigned)v;
  if ((err = places_field(c, w[k + 1], &e->places)) != 0)
    return err;
  if (n > k + 2 && (err = label_field(c, w[k + 2], e->threads, e->label)) != 0)
    return err;
  if (n > k + 3 && (err = state_fields(c, w + k + 3, n - k - 3, e->label, e->threads,
                                       &e->state)) != 0)
    return err;
  /* (A learnt kept team may exceed the PUs: OMP_NUM_THREADS above them.) */
  if (e->threads > c->npus && !(e->state && !e->state->team_free))
    return bad(c, "THREADS '%u': more than the %u allowed PUs; 0 (the program's team) or "
               "1..%u", e->threads, c->npus, c->npus);
  return omp_ext_success;
}

/* A region line given twice for the same THREADS, or a second default. */
static int duplicate(struct ctx *c, const struct omp_ext_plan_line *e)
{
  unsigned i;
  for (i = 0; i < c->p->nlines; i++) {
    const struct omp_ext_plan_line *o = &c->p->lines[i];
    if (o->kind != e->kind || (e->kind == OMP_EXT_PLAN_REGION &&
                               (o->offset != e->offset || o->threads != e->threads ||
                                strcmp(o->module, e->module) != 0)))
      continue;
    return e->kind == OMP_EXT_PLAN_DEFAULT
             ? bad(c, "a second 'default' line (the first: line %u)", o->lineno)
             : bad(c, "region %s %#lx with THREADS %u given twice (the first: line %u)",
                   SHOWN(e->module), e->offset, e->threads, o->lineno);
  }
  return omp_ext_success;
}

/* "machine PUS CORES PACKAGES SMT ALLOWED": this machine's? */
static int machine_line(struct ctx *c, char **w, int n)
{
  unsigned long long v[4];
  unsigned here[4];
  char mine[256];
  int i, err;
  static const char *const names[] = {"PUS", "CORES", "PACKAGES", "SMT"};
  if (n != 6)
    return bad(c, "expected 'machine PUS CORES PACKAGES SMT ALLOWED'");
  for (i = 0; i < 4; i++)
    if ((err = count_field(c, names[i], w[i + 1], 1, 1 << 16, &v[i])) != 0)
      return err;
  if (strlen(w[5]) >= sizeof(c->p->mallowed))
    return bad(c, "ALLOWED %s: longer than %zu bytes", SHOWN(w[5]), sizeof(c->p->mallowed) - 1);
  c->p->has_machine = 1;
  c->p->mpus = (unsigned)v[0], c->p->mcores = (unsigned)v[1];
  c->p->mpackages = (unsigned)v[2], c->p->msmt = (unsigned)v[3];
  snprintf(c->p->mallowed, sizeof(c->p->mallowed), "%s", w[5]);
  here[0] = omp_ext_topo_npus(c->topo), here[1] = omp_ext_topo_ncores(c->topo);
  here[2] = omp_ext_topo_npackages(c->topo), here[3] = omp_ext_topo_max_smt(c->topo);
  if (omp_ext_machine_line(c->topo, mine, sizeof(mine)) != 0)
    return bad(c, "this machine's allowed PUs do not fit a machine line");
  for (i = 0; i < 4 && v[i] == here[i]; i++)
    ;
  if (i < 4 || strcmp(strrchr(mine, ' ') + 1, w[5]) != 0) {
    bad(c, "made on another machine (%llu PUs, %llu cores, %llu packages, SMT %llu, "
        "allowed %s; here %u, %u, %u, %u, %s): make it here", v[0], v[1], v[2], v[3],
        SHOWN(w[5]), here[0], here[1], here[2], here[3], strrchr(mine, ' ') + 1);
    return omp_ext_err_unsupported; /* (well formed: another machine's, or allowed PUs') */
  }
  return omp_ext_success;
}

/* "build MODULE ID": gnu:HEX or stat:SIZE:MTIME. */
static int build_line(struct ctx *c, char **w, int n)
{
  struct omp_ext_plan_build b, *nb;
  unsigned long long x;
  const char *colon;
  unsigned i;
  int err, gnu, st;
  if (n != 3)
    return bad(c, "expected 'build MODULE ID'");
  if ((err = module_field(c, w[1], b.module, sizeof(b.module))) != 0)
    return err;
  gnu = strncmp(w[2], "gnu:", 4) == 0 && w[2][4] &&
        strspn(w[2] + 4, "0123456789abcdef") == strlen(w[2] + 4);
  st = strncmp(w[2], "stat:", 5) == 0 &&
       omp_ext_scan_uint(w[2] + 5, &colon, 1ULL << 62, &x) == OMP_EXT_UINT_OK && *colon == ':' &&
       omp_ext_parse_uint(colon + 1, 0, 1ULL << 62, &x) == OMP_EXT_UINT_OK;
  if (strlen(w[2]) >= sizeof(b.id) || (!gnu && !st))
    return bad(c, "ID %s: gnu:HEX or stat:SIZE:MTIME is expected", SHOWN(w[2]));
  for (i = 0; i < c->p->nbuilds; i++)
    if (strcmp(c->p->builds[i].module, b.module) == 0)
      return bad(c, "build %s given twice", SHOWN(b.module));
  snprintf(b.id, sizeof(b.id), "%s", w[2]);
  if (!(nb = realloc(c->p->builds, (c->p->nbuilds + 1) * sizeof(*nb))))
    return omp_ext_err_nomem;
  c->p->builds = nb;
  nb[c->p->nbuilds++] = b;
  return omp_ext_success;
}

/* run [TEAM] SECONDS: once per team (TEAM absent: any team, an older
 * state's), OMP_EXT_PLAN_MAXRUNS at most. */
static int run_line(struct ctx *c, char **w, int n)
{
  struct omp_ext_plan_run r = {0, 0};
  char *end;
  unsigned i;
  unsigned long long t = 0;
  int err;
  if (n != 2 && n != 3)
    return bad(c, "expected 'run [TEAM] SECONDS'");
  if (n == 3 && (err = count_field(c, "run TEAM", w[1], 1, 1 << 16, &t)) != 0)
    return err;
  r.team = n == 3 ? (unsigned)t : 0;
  r.s = strtod(w[n - 1], &end);
  if (end == w[n - 1] || *end || !isfinite(r.s) || r.s <= 0)
    return bad(c, "run %s: seconds > 0 are expected", SHOWN(w[n - 1]));
  for (i = 0; i < c->p->nruns; i++)
    if (c->p->runs[i].team == r.team)
      return bad(c, "a second 'run' line for %s", r.team ? "its team" : "any team");
  if (c->p->nruns == OMP_EXT_PLAN_MAXRUNS)
    return bad(c, "more than %d 'run' lines", OMP_EXT_PLAN_MAXRUNS);
  c->p->runs[c->p->nruns++] = r;
  return omp_ext_success;
}

/* team, wait, learnt: once each. */
static int setting_line(struct ctx *c, char **w, int n, unsigned *seen)
{
  static const char *const names[] = {"team", "wait", "learnt"};
  int i, e, t;
  for (i = 0; i < 3 && strcmp(w[0], names[i]) != 0; i++)
    ;
  if (n != 2)
    return bad(c, "expected '%s VALUE'", names[i]);
  if (*seen & (1u << i))
    return bad(c, "a second '%s' line", names[i]);
  *seen |= 1u << i;
  if (i == 0 && (strcmp(w[1], "keep") == 0 || strcmp(w[1], "free") == 0))
    c->p->team_free = strcmp(w[1], "free") == 0;
  else if (i == 1 && (strcmp(w[1], "passive") == 0 || strcmp(w[1], "active") == 0))
    c->p->wait = strcmp(w[1], "passive") == 0 ? 1 : 2;
  else if (i == 2 && strlen(w[1]) < sizeof(c->p->learnt) && omp_ext_auto_value(w[1], &e, &t) > 0)
    snprintf(c->p->learnt, sizeof(c->p->learnt), "%s", w[1]);
  else
    return bad(c, "%s %s: %s is expected", names[i], SHOWN(w[1]),
               i == 0 ? "keep or free" : i == 1 ? "passive or active" : OMP_EXT_AUTO_FORMS);
  return omp_ext_success;
}

static int add_line(struct ctx *c, char **w, int n, unsigned *cap)
{
  struct omp_ext_plan_line e;
  int err;
  memset(&e, 0, sizeof(e));
  if ((err = entry_line(c, w, n, &e)) == 0 && (err = duplicate(c, &e)) == 0 &&
      c->p->nlines == *cap) {
    struct omp_ext_plan_line *nl = realloc(c->p->lines, (*cap ? 2 * *cap : 16) * sizeof(*nl));
    if (!nl)
      err = omp_ext_err_nomem;
    else
      c->p->lines = nl, *cap = *cap ? 2 * *cap : 16;
  }
  if (err) {
    omp_ext_placelist_destroy(e.places);
    free(e.state);
    return err;
  }
  c->p->lines[c->p->nlines++] = e;
  return omp_ext_success;
}

/* One line (NUL-terminated, newline removed) of the plan. */
static int one_line(struct ctx *c, char *line, int *header, unsigned *cap, unsigned *seen)
{
  char *w[MAXWORDS], *save = NULL, *tok;
  unsigned long long version;
  int n = 0;
  for (tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
    if (n == MAXWORDS)
      return bad(c, "more than %d fields", MAXWORDS);
    w[n++] = tok;
  }
  if (n == 0 || w[0][0] == '#')
    return omp_ext_success;
  if (!*header) {
    *header = 1;
    if (n != 2 || strcmp(w[0], "omp_ext_plan") != 0 ||
        omp_ext_parse_uint(w[1], 1, 2, &version) != OMP_EXT_UINT_OK)
      return bad(c, "the first line must be 'omp_ext_plan 2' (or 1)");
    c->p->version = (unsigned)version;
    return omp_ext_success;
  }
  if (strcmp(w[0], "default") == 0 || strcmp(w[0], "region") == 0)
    return add_line(c, w, n, cap);
  if (c->p->version >= 2 && strcmp(w[0], "machine") == 0)
    return (*seen & 16) ? bad(c, "a second 'machine' line")
                        : (*seen |= 16, machine_line(c, w, n));
  if (c->p->version >= 2 && strcmp(w[0], "build") == 0)
    return build_line(c, w, n);
  if (c->p->version >= 2 && strcmp(w[0], "run") == 0)
    return run_line(c, w, n);
  if (c->p->version >= 2 && (strcmp(w[0], "team") == 0 || strcmp(w[0], "wait") == 0 ||
                             strcmp(w[0], "learnt") == 0))
    return setting_line(c, w, n, seen);
  return bad(c, "%s: unknown line; allowed: %s", SHOWN(w[0]),
             c->p->version >= 2 ? "machine, build, team, wait, learnt, run, default, region"
                                : "default, region");
}

static int parse_text(struct ctx *c, char *text)
{
  unsigned cap = 0, seen = 0;
  int header = 0, err = omp_ext_success;
  char *line = text, *nl;
  for (c->lineno = 1; line && *line && !err; c->lineno++, line = nl) {
    if ((nl = strchr(line, '\n')) != NULL)
      *nl++ = '\0';
    if (strlen(line) >= OMP_EXT_PLAN_MAX_LINE)
      return bad(c, "longer than %d bytes", OMP_EXT_PLAN_MAX_LINE);
    err = one_line(c, line, &header, &cap, &seen);
  }
  if (!err && !header) {
    c->lineno = 0;
    err = bad(c, "empty (the first line must be 'omp_ext_plan 2')");
  }
  return err;
}

void omp_ext_plan_free(struct omp_ext_plan *p)
{
  unsigned i;
  if (!p)
    return;
  for (i = 0; i < p->nlines; i++) {
    omp_ext_placelist_destroy(p->lines[i].places);
    free(p->lines[i].state);
  }
  free(p->lines);
  free(p->builds);
  free(p);
}

int omp_ext_plan_read(const char *value, const omp_ext_topo_t *topo, struct omp_ext_plan **out,
                      char *why, size_t len)
{
  struct ctx c;
  char *text = NULL;
  int err;
  *out = NULL;
  if (len)
    why[0] = '\0';
  if (!value || !*value)
    return omp_ext_err_invalid;
  if (!topo && (err = omp_ext_bind_topology(&topo)) != 0)
    return err;
  memset(&c, 0, sizeof(c));
  if (!(c.p = calloc(1, sizeof(*c.p))))
    return omp_ext_err_nomem;
  c.topo = topo, c.allowed = omp_ext_topo_allowed(topo), c.npus = omp_ext_topo_npus(topo);
  c.why = why, c.len = len;
  if (omp_ext_plan_is_text(value)) {
    snprintf(c.p->source, sizeof(c.p->source), "the plan text");
    if (strlen(value) > OMP_EXT_PLAN_MAX_BYTES)
      err = bad(&c, "more than a plan's limit of %lu bytes", OMP_EXT_PLAN_MAX_BYTES);
    else
      err = (text = strdup(value)) ? omp_ext_success : omp_ext_err_nomem;
  } else {
    snprintf(c.p->source, sizeof(c.p->source), "%s", SHOWN(value));
    err = read_file(&c, value, &text);
  }
  if (!err)
    err = parse_text(&c, text);
  free(text);
  if (err) {
    if (err == omp_ext_err_nomem && len)
      snprintf(why, len, "%s: out of memory", c.p->source);
    omp_ext_plan_free(c.p);
    return err;
  }
  *out = c.p;
  return omp_ext_success;
}

int omp_ext_plan_check(const char *value, const omp_ext_topo_t *topo, char *msg, size_t len)
{
  struct omp_ext_plan *p;
  int err = omp_ext_plan_read(value, topo, &p, msg, len);
  omp_ext_plan_free(p);
  return err;
}
