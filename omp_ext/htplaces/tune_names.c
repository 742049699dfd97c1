/*
 * htplaces tune: the names of the parallel regions, given once after the
 * runs to every region of every configuration (tune_name_regions), in
 * batches: per module, its symbol table read once (tune_symbols.c) and one
 * addr2line (binutils) process for all its addresses -- 5000 regions are
 * one process, not 5000.
 *
 * A region is named FILE:LINE where its module has debug information, else
 * by function.  The function holding the call that starts the region (the
 * caller) is where the construct's code was placed, which is not always
 * where it was written: GCC outlines the region's body into NAME._omp_fn.K
 * after the source function NAME, and when NAME is inlined into its caller
 * (a C++ template method into main) only the outlined body still says
 * NAME.  So the outlined body's source function names the region when its
 * symbol carries one (the timing file records the body's address under
 * libgomp: "outlined_offset"), the caller otherwise (clang's
 * ".omp_outlined." carries none), and both where they differ: "NAME (in
 * CALLER)".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune_int.h"

char *tune_function_name(const char *text)
{
  const char *clone = strstr(text, " [clone ."), *dot = strchr(text + 1, '.');
  size_t len = strlen(text);
  if (clone)
    len = (size_t)(clone - text);
  else if (text[0] != '.' && dot && !strchr(text, '('))
    len = (size_t)(dot - text);
  return strndup(text, len);
}

char *tune_outlined_source(const char *symbol)
{
  static const char *const marks[] = {"._omp_fn.", ".omp_outlined"};
  char *d, *clone, *prefix, *out;
  const char *at = NULL;
  unsigned i;
  if (!symbol || symbol[0] == '.')
    return NULL; /* (".omp_outlined.": no source function) */
  if (!(d = tune_demangle(symbol)))
    return NULL;
  if ((clone = strstr(d, " [clone ._omp_fn.")) || (clone = strstr(d, " [clone .omp_outlined"))) {
    *clone = '\0'; /* C++: "a::b() [clone ._omp_fn.0]" */
    out = tune_function_name(d);
    free(d);
    return out;
  }
  free(d);
  for (i = 0; i < 2 && !at; i++)
    at = strstr(symbol, marks[i]);
  if (!at || at == symbol || !(prefix = strndup(symbol, (size_t)(at - symbol))))
    return NULL;
  d = tune_demangle(prefix); /* ("_Z3foov.omp_outlined" -> "foo()") */
  free(prefix);
  out = d ? tune_function_name(d) : NULL;
  free(d);
  return out;
}

/* addr2line's "FILE:LINE (discriminator N)" as "FILE:LINE" (base name), or
 * NULL ("??:0", "??:?", no line). */
static char *file_line(char *text)
{
  char *p, *colon, *file;
  if ((p = strstr(text, " (discriminator")) != NULL)
    *p = '\0';
  colon = strrchr(text, ':');
  if (!colon || strncmp(text, "??", 2) == 0 || colon[1] < '1' || colon[1] > '9')
    return NULL;
  file = strrchr(text, '/');
  return strdup(file ? file + 1 : text);
}

/* A file of addresses, one a line ("0x1a2b"), for addr2line's stdin
 * (a file: no pipe to fill both ways); -1 when it cannot be made. */
static int address_file(const unsigned long *addr, size_t n)
{
  const char *dir = getenv("TMPDIR");
  char path[4200];
  FILE *f;
  size_t i;
  int fd = -1;
  if (!dir || !*dir)
    dir = "/tmp";
  if (snprintf(path, sizeof(path), "%s/htplaces-addr-XXXXXX", dir) >= (int)sizeof(path) ||
      (fd = mkstemp(path)) < 0)
    return -1;
  unlink(path);
  if (!(f = fdopen(dup(fd), "w"))) {
    close(fd);
    return -1;
  }
  for (i = 0; i < n; i++)
    fprintf(f, "0x%lx\n", addr[i]);
  if (fclose(f) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/* FILE:LINE of each address of one module (lines[i] malloc'd, or NULL),
 * from one addr2line process.  0; 127 when addr2line cannot be run; -1
 * when it failed (lines all NULL). */
static int addr2line(const char *module, const unsigned long *addr, size_t n, char **lines)
{
  char *argv[] = {"addr2line", "-e", (char *)module, NULL}, *p, *nl;
  struct sweep_spawn s;
  struct sweep_spawned w;
  size_t i = 0;
  int in = address_file(addr, n), null = open("/dev/null", O_WRONLY | O_CLOEXEC), got;
  memset(lines, 0, n * sizeof(*lines));
  if (in < 0) {
    if (null >= 0)
      close(null);
    return -1;
  }
  memset(&s, 0, sizeof(s));
  s.argv = argv, s.search = 1, s.in = in, s.out = SWEEP_CAPTURE, s.err = null;
  got = sweep_spawn(&s, &w);
  close(in);
  if (null >= 0)
    close(null);
  if (got != 0 || w.exit_status != 0 || !w.out) {
    free(w.out);
    return got == 0 && w.exec_errno ? 127 : -1;
  }
  for (p = w.out; i < n && *p; p = nl + 1, i++) {
    if (!(nl = strchr(p, '\n')))
      nl = p + strlen(p) - 1;
    *nl = '\0';
    lines[i] = file_line(p);
  }
  free(w.out);
  return 0;
}

/* The function part of a name: the outlined body's source, the caller's,
 * or "SOURCE (in CALLER)"; malloc'd, NULL when neither is known. */
static char *function_part(const char *caller_sym, const char *outlined_sym)
{
  char *caller = NULL, *source = outlined_sym ? tune_outlined_source(outlined_sym) : NULL, *d,
       *out;
  if (caller_sym && (d = tune_demangle(caller_sym))) {
    caller = tune_function_name(d);
    free(d);
  }
  if (source && caller && strcmp(source, caller) != 0) {
    if (asprintf(&out, "%s (in %s)", source, caller) < 0)
      out = NULL;
    free(source);
    free(caller);
    return out;
  }
  if (source) {
    free(caller);
    return source;
  }
  return caller;
}

/* The whole name: FILE:LINE, else the function ("lib.so: " before it in a
 * library), the process label before either; NULL when neither is known. */
static char *compose(const struct tune_site *site, char *line, const char *caller_sym,
                     const char *outlined_sym)
{
  char *fn = line ? NULL : function_part(caller_sym, outlined_sym), *out = NULL;
  const char *what = line ? line : fn, *slash = strrchr(site->module, '/');
  int k;
  if (!what)
    return NULL;
  if (site->shared && !line)
    k = asprintf(&out, "%s%s%s: %s", site->label ? site->label : "", site->label ? ": " : "",
                 slash ? slash + 1 : site->module, what);
  else
    k = asprintf(&out, "%s%s%s", site->label ? site->label : "", site->label ? ": " : "", what);
  free(fn);
  return k < 0 ? NULL : out;
}

/* A region to name: its site and where its name goes. */
struct ref {
  const struct tune_site *site;
  char **name;
};

static int by_module(const void *a, const void *b)
{
  const struct ref *x = a, *y = b;
  int c = strcmp(x->site->module, y->site->module);
  return c ? c : (x->site->offset > y->site->offset) - (x->site->offset < y->site->offset);
}

/* What the batch keeps across modules. */
struct namer {
  int no_addr2line; /* it could not be run: no FILE:LINE from now on */
};

/* Name refs[0..n-1], all of one module. 0 or -1 (out of memory). */
static int name_module(struct namer *nm, struct ref *refs, size_t n)
{
  const char *module = refs[0].site->module;
  struct tune_symtab *t = tune_symtab_open(module), *o = NULL;
  unsigned long *addr = malloc(n * sizeof(*addr));
  char **lines = calloc(n, sizeof(*lines)), *name;
  const char *outlined_module = NULL;
  size_t i, m = 0;
  int err = 0;
  if (!addr || !lines) {
    free(addr), free(lines);
    tune_symtab_close(t);
    return -1;
  }
  for (i = 0; i < n; i++) /* distinct addresses (refs are sorted by offset) */
    if (refs[i].site->offset && (m == 0 || addr[m - 1] != refs[i].site->offset - 1))
      addr[m++] = refs[i].site->offset - 1; /* (the call before the return address) */
  if (m && !nm->no_addr2line && addr2line(module, addr, m, lines) == 127)
    nm->no_addr2line = 1;
  for (i = 0, m = 0; i < n && !err; i++) {
    const struct tune_site *s = refs[i].site;
    const char *caller = NULL, *body = NULL;
    char *line = NULL;
    if (s->offset) {
      while (addr[m] != s->offset - 1)
        m++;
      line = lines[m];
      caller = tune_symtab_at(t, s->offset - 1);
    }
    if (s->outlined_module && s->outlined) {
      if (strcmp(s->outlined_module, module) == 0) {
        body = tune_symtab_start(t, s->outlined);
      } else {
        if (!outlined_module || strcmp(outlined_module, s->outlined_module) != 0) {
          tune_symtab_close(o);
          o = tune_symtab_open(outlined_module = s->outlined_module);
        }
        body = tune_symtab_start(o, s->outlined);
      }
    }
    if ((name = compose(s, line, caller, body)) != NULL) {
      free(*refs[i].name);
      *refs[i].name = name;
    } else {
      err = errno == ENOMEM ? -1 : 0;
    }
  }
  for (i = 0; i < n; i++)
    free(lines[i]);
  free(lines), free(addr);
  tune_symtab_close(t);
  tune_symtab_close(o);
  return err;
}

int tune_name_regions(struct tune_config *c, unsigned n)
{
  struct namer nm = {0};
  struct ref *refs;
  size_t total = 0, k = 0, from, to;
  unsigned i, j;
  int err = 0;
  for (i = 0; i < n; i++)
    total += c[i].nregions;
  if (!(refs = malloc((total + 1) * sizeof(*refs))))
    return -1;
  for (i = 0; i < n; i++)
    for (j = 0; j < c[i].nregions; j++)
      if (c[i].regions[j].site && c[i].regions[j].site->module)
        refs[k++] = (struct ref){c[i].regions[j].site, &c[i].regions[j].name};
  qsort(refs, k, sizeof(*refs), by_module);
  for (from = 0; from < k && !err; from = to) {
    for (to = from + 1; to < k && strcmp(refs[to].site->module, refs[from].site->module) == 0;
         to++)
      ;
    err = name_module(&nm, refs + from, to - from);
  }
  free(refs);
  return err;
}

char *tune_site_name(const struct tune_site *site)
{
  char *name = NULL;
  struct ref r = {site, &name};
  struct namer nm = {0};
  if (!site || !site->module || name_module(&nm, &r, 1) != 0)
    return NULL;
  return name;
}
