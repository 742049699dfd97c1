/*
 * htplaces tune --launcher 'CMD ... {R} ...': the launcher of a hybrid MPI
 * + OpenMP program.  Its text is split into words as a POSIX shell splits
 * them (blanks, '...', "...", backslash), never expanded: tune runs it
 * without a shell, so what a shell would expand or redirect ($, `, globs,
 * |, ;, <, >) is refused rather than passed on literally.  {R}, the ranks,
 * must appear.  Its own binding is turned off, since tune places each rank
 * in its domain itself (`htplaces exec --ranks-per-node R POLICY T`):
 *   mpirun, mpiexec, orterun, prterun (Open MPI; MPICH's Hydra takes the same
 *     option): --bind-to none after the command, unless the text says it;
 *     --bind-to X, --cpu-set, --cpu-list, --rankfile/-rf, --map-by ...:PE=n
 *     are refused;
 *   srun: --cpu-bind=none, unless the text says it; --cpu-bind=X, --hint,
 *     --threads-per-core (and SLURM_HINT, SLURM_THREADS_PER_CORE, which srun
 *     reads), omp_ext's plugin --ht-policy=X but off are refused; without -c in the text, --cpus-per-task=PUs/R, so
 *     that the step holds every allowed PU (Slurm binds a step's tasks to the
 *     step's CPUs even with --cpu-bind=none: a smaller step would leave the
 *     ranks sharing those);
 *   any other command runs as given (a wrapper script): a binding of its
 *   own shows as threads outside their places (the run is INVALID).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune_int.h"

/* ----------------------------------------------------------- the words */

static int blank(char c)
{
  return c == ' ' || c == '\t' || c == '\n';
}

/* One word from *p into f (its quotes removed); *p moves past it.  0, or
 * the character a shell would expand or that is not closed (why[len]). */
static int one_word(const char **p, FILE *f, char *why, size_t len)
{
  const char *s = *p, *start = s;
  for (; *s && !blank(*s);) {
    if (*s == '\'') {
      const char *end = strchr(s + 1, '\'');
      if (!end)
        return snprintf(why, len, "a ' is not closed"), -1;
      fwrite(s + 1, 1, (size_t)(end - s - 1), f);
      s = end + 1;
    } else if (*s == '"') {
      for (s++; *s && *s != '"'; s++) {
        if (*s == '$' || *s == '`')
          return snprintf(why, len, "'%c' inside \"...\" would be expanded by a shell", *s), -1;
        if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
          s++;
        fputc(*s, f);
      }
      if (!*s)
        return snprintf(why, len, "a \" is not closed"), -1;
      s++;
    } else if (*s == '\\') {
      if (!s[1])
        return snprintf(why, len, "it ends with a backslash"), -1;
      fputc(s[1], f);
      s += 2;
    } else if (strchr("$`|&;<>()*?[", *s) || (s == start && (*s == '#' || *s == '~'))) {
      return snprintf(why, len, "an unquoted '%c', which a shell would expand or act on", *s),
             -1;
    } else {
      fputc(*s++, f);
    }
  }
  *p = s;
  return 0;
}

/* The text's words into l->words; 0 or -1 with why[len]. */
static int split_words(const char *text, struct tune_launcher *l, char *why, size_t len)
{
  const char *p = text;
  while (*p) {
    char *buf = NULL, **more;
    size_t size = 0;
    FILE *f;
    while (blank(*p))
      p++;
    if (!*p)
      break;
    if (!(f = open_memstream(&buf, &size)))
      return snprintf(why, len, "out of memory"), -1;
    if (one_word(&p, f, why, len) != 0) {
      fclose(f);
      free(buf);
      return -1;
    }
    if (fclose(f) != 0 || !(more = realloc(l->words, (l->nwords + 2) * sizeof(*more)))) {
      free(buf);
      return snprintf(why, len, "out of memory"), -1;
    }
    l->words = more;
    l->words[l->nwords++] = buf;
    l->words[l->nwords] = NULL;
  }
  return 0;
}

/* ------------------------------------------------------- their binding */

static const char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static enum tune_launcher_kind kind_of(const char *command)
{
  const char *b = base_name(command);
  if (strncmp(b, "mpirun", 6) == 0 || strncmp(b, "mpiexec", 7) == 0 ||
      strcmp(b, "orterun") == 0 || strcmp(b, "prterun") == 0)
    return TUNE_LAUNCHER_MPIRUN;
  return strcmp(b, "srun") == 0 ? TUNE_LAUNCHER_SRUN : TUNE_LAUNCHER_OTHER;
}

/* Option word i: its name without dashes (length *nlen) and its value
 * ("--opt=V", or the next word); NULL when word i is not an option. */
static const char *option(char *const *w, unsigned n, unsigned i, size_t *nlen,
                          const char **value)
{
  const char *name = w[i], *eq;
  if (name[0] != '-' || !name[1])
    return NULL;
  name += name[1] == '-' ? 2 : 1;
  eq = strchr(name, '=');
  *nlen = eq ? (size_t)(eq - name) : strlen(name);
  *value = eq ? eq + 1 : i + 1 < n ? w[i + 1] : "";
  return name;
}

static int is(const char *name, size_t nlen, const char *want)
{
  return strlen(want) == nlen && strncmp(name, want, nlen) == 0;
}

/* srun's --cpu-bind value: "none" or "no", with quiet/verbose beside. */
static int cpu_bind_none(const char *v)
{
  char *copy = strdup(v), *item, *save = NULL;
  int none = 0, other = 0;
  for (item = copy ? strtok_r(copy, ",", &save) : NULL; item; item = strtok_r(NULL, ",", &save))
    if (strcmp(item, "none") == 0 || strcmp(item, "no") == 0)
      none = 1;
    else if (strcmp(item, "quiet") && strcmp(item, "verbose") && strcmp(item, "q") &&
             strcmp(item, "v"))
      other = 1;
  free(copy);
  return none && !other;
}

/* mpirun's options that bind: the one found into bad[len]; 0 none. */
static int mpirun_binds(struct tune_launcher *l, char *bad, size_t len)
{
  unsigned i;
  for (i = 1; i < l->nwords; i++) {
    size_t n;
    const char *v, *name = option(l->words, l->nwords, i, &n, &v);
    if (!name)
      continue;
    if (is(name, n, "bind-to") && strcmp(v, "none") == 0)
      l->bind_off = 1;
    else if (is(name, n, "bind-to") || is(name, n, "cpu-set") || is(name, n, "cpu-list") ||
             is(name, n, "rankfile") || is(name, n, "rf") || is(name, n, "bind-to-core") ||
             is(name, n, "bind-to-socket") || is(name, n, "binding") ||
             (is(name, n, "map-by") && strcasestr(v, "pe=")))
      return snprintf(bad, len, "%s%s%s", l->words[i], strchr(l->words[i], '=') ? "" : " ",
                      strchr(l->words[i], '=') ? "" : v), 1;
  }
  return 0;
}

/* srun's: as mpirun_binds; notes -c. */
static int srun_binds(struct tune_launcher *l, char *bad, size_t len)
{
  unsigned i;
  for (i = 1; i < l->nwords; i++) {
    const char *w = l->words[i], *v, *name;
    size_t n;
    if (strncmp(w, "-c", 2) == 0 || strncmp(w, "--cpus-per-task", 15) == 0)
      l->cpus_given = 1;
    if (!(name = option(l->words, l->nwords, i, &n, &v)))
      continue;
    if ((is(name, n, "cpu-bind") || is(name, n, "cpu_bind")) && cpu_bind_none(v))
      l->bind_off = 1;
    else if (is(name, n, "cpu-bind") || is(name, n, "cpu_bind") || is(name, n, "hint") ||
             is(name, n, "threads-per-core") || (is(name, n, "ht-policy") && strcmp(v, "off")))
      return snprintf(bad, len, "%s%s%s", w, strchr(w, '=') ? "" : " ", strchr(w, '=') ? "" : v),
             1;
  }
  if (getenv("SLURM_HINT"))
    return snprintf(bad, len, "SLURM_HINT=%s in the environment", getenv("SLURM_HINT")), 1;
  if (getenv("SLURM_THREADS_PER_CORE"))
    return snprintf(bad, len, "SLURM_THREADS_PER_CORE=%s in the environment",
                    getenv("SLURM_THREADS_PER_CORE")), 1;
  return 0;
}

void tune_launcher_free(struct tune_launcher *l)
{
  unsigned i;
  for (i = 0; i < l->nwords; i++)
    free(l->words[i]);
  free(l->words);
  free(l->htplaces);
  free(l->restrict_list);
  memset(l, 0, sizeof(*l));
}

int tune_launcher_parse(const char *text, struct tune_launcher *l)
{
  char why[256], bad[256];
  unsigned i;
  int has_r = 0;
  memset(l, 0, sizeof(*l));
  if (split_words(text, l, why, sizeof(why)) != 0) {
    tune_launcher_free(l);
    return htp_error(HTP_EXIT_USAGE, "invalid --launcher '%s': %s (tune runs the launcher "
                     "without a shell; quote or give the value itself)", text, why);
  }
  if (l->nwords == 0) {
    tune_launcher_free(l);
    return htp_error(HTP_EXIT_USAGE, "empty --launcher; give the command that starts the "
                     "ranks, e.g. --launcher 'mpirun -np {R}'");
  }
  for (i = 0; i < l->nwords; i++)
    has_r |= strstr(l->words[i], "{R}") != NULL;
  l->kind = kind_of(l->words[0]);
  if (!has_r) {
    tune_launcher_free(l);
    return htp_error(HTP_EXIT_USAGE, "invalid --launcher '%s': no {R}; give where the ranks go, "
                     "e.g. --launcher 'mpirun -np {R}' or 'srun -n {R}'", text);
  }
  if ((l->kind == TUNE_LAUNCHER_MPIRUN && mpirun_binds(l, bad, sizeof(bad))) ||
      (l->kind == TUNE_LAUNCHER_SRUN && srun_binds(l, bad, sizeof(bad)))) {
    int srun = l->kind == TUNE_LAUNCHER_SRUN;
    tune_launcher_free(l);
    return htp_error(HTP_EXIT_USAGE, "--launcher '%s' binds the ranks itself (%s): tune places "
                     "each rank in its own domain; leave the binding out (tune adds %s)", text,
                     bad, srun ? "--cpu-bind=none" : "--bind-to none");
  }
  return HTP_EXIT_OK;
}

/* Does $PATH find `name` as the file st describes? */
static int path_finds(const char *name, const struct stat *st)
{
  const char *path = getenv("PATH"), *p, *colon;
  char buf[4096];
  struct stat found;
  for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";; p = colon + 1) {
    size_t len;
    colon = strchr(p, ':');
    len = colon ? (size_t)(colon - p) : strlen(p);
    if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? p : ".", name) <
        (int)sizeof(buf) && access(buf, X_OK) == 0 && stat(buf, &found) == 0)
      return found.st_dev == st->st_dev && found.st_ino == st->st_ino;
    if (!colon)
      return 0;
  }
}

int tune_launcher_setup(struct tune_launcher *l, const omp_ext_topo_t *topo,
                        const char *restrict_list)
{
  char exe[4096];
  ssize_t got = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  struct stat me;
  l->pus = omp_ext_topo_npus(topo);
  l->cores = omp_ext_topo_ncores(topo);
  if (got > 0)
    exe[got] = '\0';
  /* (the runs and the printed command run this htplaces) */
  if (got <= 0 || (stat(exe, &me) == 0 && path_finds("htplaces", &me)))
    l->htplaces = strdup("htplaces");
  else
    l->htplaces = strdup(exe);
  if (!l->htplaces || (restrict_list && !(l->restrict_list = strdup(restrict_list))))
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  return HTP_EXIT_OK;
}

int tune_launcher_fits(const struct tune_launcher *l, unsigned ranks, char *why, size_t len)
{
  if (l->kind != TUNE_LAUNCHER_SRUN || l->cpus_given)
    return 1;
  if (l->pus % ranks == 0 && l->cores % ranks == 0)
    return 1;
  snprintf(why, len, "srun's --cpus-per-task cannot give each rank whole cores: the %u "
           "allowed cores (%u PUs) are not a multiple of %u (give -c in --launcher to choose)",
           l->cores, l->pus, ranks);
  return 0;
}

int tune_launcher_owns_ranks(const struct tune_launcher *l)
{
  return l->kind != TUNE_LAUNCHER_SRUN;
}

const char *tune_launcher_added(const struct tune_launcher *l, char *buf, size_t len)
{
  buf[0] = '\0';
  if (l->kind == TUNE_LAUNCHER_MPIRUN && !l->bind_off)
    snprintf(buf, len, "--bind-to none");
  else if (l->kind == TUNE_LAUNCHER_SRUN)
    snprintf(buf, len, "%s%s%s", l->bind_off ? "" : "--cpu-bind=none",
             l->bind_off || l->cpus_given ? "" : " ",
             l->cpus_given ? "" : "--cpus-per-task={PUs/R}");
  return buf;
}

/* ------------------------------------------------------------ one run */

/* w with every {R} replaced by r (malloc'd). */
static char *with_ranks(const char *w, unsigned r)
{
  static const char *const from[] = {"{R}"};
  char text[16];
  const char *to[] = {text};
  snprintf(text, sizeof(text), "%u", r);
  return tune_replace(w, from, to, 1);
}

/* Append a word (malloc'd copy of the format's text); -1 out of memory. */
static int add(char **v, unsigned *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int add(char **v, unsigned *n, const char *fmt, ...)
{
  va_list ap;
  int r;
  va_start(ap, fmt);
  r = vasprintf(&v[*n], fmt, ap);
  va_end(ap);
  if (r < 0) {
    v[*n] = NULL;
    return -1;
  }
  (*n)++;
  return 0;
}

/* The launcher's words for R ranks, binding off, into v from *n. */
static int launcher_words(const struct tune_launcher *l, unsigned ranks, char **v, unsigned *n)
{
  unsigned i;
  int err = 0;
  for (i = 0; i < l->nwords && !err; i++) {
    if (!(v[*n] = with_ranks(l->words[i], ranks)))
      return -1;
    (*n)++;
    if (i > 0)
      continue;
    if (l->kind == TUNE_LAUNCHER_MPIRUN && !l->bind_off)
      err = add(v, n, "--bind-to") || add(v, n, "none");
    else if (l->kind == TUNE_LAUNCHER_SRUN && !l->bind_off)
      err = add(v, n, "--cpu-bind=none");
    if (!err && l->kind == TUNE_LAUNCHER_SRUN && !l->cpus_given)
      err = add(v, n, "--cpus-per-task=%u", l->pus / ranks);
  }
  return err;
}

char **tune_launcher_argv(const struct tune_config *c, char *const *prog)
{
  const struct tune_launcher *l = c->launcher;
  unsigned nprog = 0, n = 0, i;
  char **v;
  int err;
  while (prog[nprog])
    nprog++;
  if (!(v = calloc(l->nwords + nprog + 16, sizeof(*v))))
    return NULL;
  err = launcher_words(l, c->ranks, v, &n);
  if (!err && c->policy != TUNE_NONE) { /* each rank: exec in its domain */
    err = add(v, &n, "%s", l->htplaces) || add(v, &n, "exec") ||
          (l->restrict_list && (add(v, &n, "-r") || add(v, &n, "%s", l->restrict_list))) ||
          add(v, &n, "--ranks-per-node") || add(v, &n, "%u", c->ranks) ||
          add(v, &n, "%s", tune_policy_name(c->policy)) ||
          add(v, &n, "%u", tune_rank_threads(c)) || add(v, &n, "--");
  }
  for (i = 0; !err && i < nprog; i++)
    err = !(v[n++] = i ? tune_substitute(prog[i], c) : strdup(prog[0]));
  if (err) {
    for (i = 0; i < n; i++)
      free(v[i]);
    free(v);
    return NULL;
  }
  return v;
}
