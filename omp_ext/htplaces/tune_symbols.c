/*
 * htplaces tune: ELF symbol tables.  One module's function symbols read
 * once (.symtab, static functions too; else .dynsym in a stripped library)
 * and sorted by address, so that naming thousands of regions is a binary
 * search each: the function holding a code address (only when the address
 * lies inside the symbol: a stripped library's static function is not
 * named after the exported one before it), or starting at one (an outlined
 * region's body).  Also what a library exports (--timing-lib's check).
 * C++ names are demangled with libstdc++'s __cxa_demangle (loaded when
 * present).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune_int.h"

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

char *tune_demangle(const char *name)
{
  static demangle_fn fn; /* (set once, before any thread: tune has one) */
  static int tried;
  char *out;
  int status = -1;
  if (strncmp(name, "_Z", 2) != 0)
    return strdup(name);
  if (!tried) {
    void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
    tried = 1;
    if (lib)
      *(void **)&fn = dlsym(lib, "__cxa_demangle");
  }
  if (fn && (out = fn(name, NULL, NULL, &status)) != NULL && status == 0)
    return out;
  return strdup(name);
}

/* A mapped ELF64 file, its section headers checked to lie in it. */
struct elf_file {
  unsigned char *base;
  size_t size;
  const Elf64_Ehdr *eh;
};

static int elf_open(const char *path, struct elf_file *e)
{
  struct stat st;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  memset(e, 0, sizeof(*e));
  if (fd < 0)
    return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof(Elf64_Ehdr) ||
      (e->base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
    close(fd);
    e->base = NULL;
    return -1;
  }
  close(fd);
  e->size = (size_t)st.st_size;
  e->eh = (const Elf64_Ehdr *)e->base;
  if (memcmp(e->eh->e_ident, ELFMAG, SELFMAG) == 0 && e->eh->e_ident[EI_CLASS] == ELFCLASS64 &&
      e->eh->e_shentsize == sizeof(Elf64_Shdr) && e->eh->e_shoff <= e->size &&
      (size_t)e->eh->e_shnum * sizeof(Elf64_Shdr) <= e->size - e->eh->e_shoff)
    return 0;
  munmap(e->base, e->size);
  e->base = NULL;
  return -1;
}

static void elf_close(struct elf_file *e)
{
  if (e->base)
    munmap(e->base, e->size);
  e->base = NULL;
}

/* Section i's header, or NULL. */
static const Elf64_Shdr *section(const struct elf_file *e, unsigned i)
{
  if (i >= e->eh->e_shnum)
    return NULL;
  return (const Elf64_Shdr *)(e->base + e->eh->e_shoff + (size_t)i * sizeof(Elf64_Shdr));
}

/* Symbol table tab's symbols and string table, checked; 0 or -1. */
static int symbols(const struct elf_file *e, const Elf64_Shdr *tab, const Elf64_Sym **sym,
                   size_t *n, const char **str, size_t *strsize)
{
  const Elf64_Shdr *s = section(e, tab->sh_link);
  if (!s || tab->sh_entsize != sizeof(Elf64_Sym) || tab->sh_offset > e->size ||
      tab->sh_size > e->size - tab->sh_offset || s->sh_offset > e->size ||
      s->sh_size > e->size - s->sh_offset)
    return -1;
  *sym = (const Elf64_Sym *)(e->base + tab->sh_offset);
  *n = tab->sh_size / sizeof(Elf64_Sym);
  *str = (const char *)e->base + s->sh_offset;
  *strsize = s->sh_size;
  return 0;
}

/* A function symbol's name, when it is one (defined, named, its name
 * inside the string table); else NULL. */
static const char *function_symbol(const Elf64_Sym *sym, const char *str, size_t strsize)
{
  unsigned type = ELF64_ST_TYPE(sym->st_info);
  const char *name;
  if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym->st_shndx == SHN_UNDEF ||
      sym->st_name >= strsize)
    return NULL;
  name = str + sym->st_name;
  return *name && memchr(name, '\0', strsize - sym->st_name) ? name : NULL;
}

struct tune_sym {
  unsigned long addr, size;
  size_t index; /* its place in the table: of two holding an address, the first wins */
  char *name;   /* as in the table (mangled) */
};

struct tune_symtab {
  struct tune_sym *s;
  size_t n;
  unsigned long max_size; /* the largest symbol: how far back a holder can start */
};

static int by_addr(const void *a, const void *b)
{
  const struct tune_sym *x = a, *y = b;
  if (x->addr != y->addr)
    return (x->addr > y->addr) - (x->addr < y->addr);
  return (x->index > y->index) - (x->index < y->index);
}

/* The function symbols of table tab into t->s (appended). 0 or -1. */
static int collect(const struct elf_file *e, const Elf64_Shdr *tab, struct tune_symtab *t)
{
  const Elf64_Sym *sym;
  const char *str, *name;
  size_t n, strsize, i;
  struct tune_sym *more;
  if (symbols(e, tab, &sym, &n, &str, &strsize) != 0)
    return 0;
  if (!(more = realloc(t->s, (t->n + n + 1) * sizeof(*more))))
    return -1;
  t->s = more;
  for (i = 0; i < n; i++)
    if ((name = function_symbol(&sym[i], str, strsize)) != NULL) {
      if (!(t->s[t->n].name = strdup(name)))
        return -1;
      t->s[t->n].addr = sym[i].st_value;
      t->s[t->n].index = t->n;
      t->s[t->n++].size = sym[i].st_size;
      if (sym[i].st_size > t->max_size)
        t->max_size = sym[i].st_size;
    }
  return 0;
}

struct tune_symtab *tune_symtab_open(const char *module)
{
  struct elf_file e;
  struct tune_symtab *t = calloc(1, sizeof(*t));
  unsigned i, pass;
  if (!t || elf_open(module, &e) != 0) {
    free(t);
    return NULL;
  }
  for (pass = 0; pass < 2 && t->n == 0; pass++) /* .symtab first, then .dynsym */
    for (i = 0; i < e.eh->e_shnum; i++) {
      const Elf64_Shdr *s = section(&e, i);
      if (s->sh_type == (pass ? SHT_DYNSYM : SHT_SYMTAB) && collect(&e, s, t) != 0) {
        elf_close(&e);
        tune_symtab_close(t);
        return NULL;
      }
    }
  elf_close(&e);
  qsort(t->s, t->n, sizeof(*t->s), by_addr);
  return t;
}

void tune_symtab_close(struct tune_symtab *t)
{
  size_t i;
  if (!t)
    return;
  for (i = 0; i < t->n; i++)
    free(t->s[i].name);
  free(t->s);
  free(t);
}

/* The first symbol at an address above addr (t->n: none). */
static size_t upper(const struct tune_symtab *t, unsigned long addr)
{
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->s[mid].addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

const char *tune_symtab_at(const struct tune_symtab *t, unsigned long addr)
{
  size_t i = t ? upper(t, addr) : 0;
  const struct tune_sym *best = NULL;
  /* (symbols may alias or nest: of those holding addr, the first in the
   * table; none starts further back than the largest symbol's size) */
  while (i-- > 0 && addr - t->s[i].addr < t->max_size)
    if (addr - t->s[i].addr < t->s[i].size && (!best || t->s[i].index < best->index))
      best = &t->s[i];
  return best ? best->name : NULL;
}

const char *tune_symtab_start(const struct tune_symtab *t, unsigned long addr)
{
  size_t i = t ? upper(t, addr) : 0;
  const struct tune_sym *best = NULL;
  while (i-- > 0 && t->s[i].addr == addr) /* (aliases: the first in the table) */
    if (!best || t->s[i].index < best->index)
      best = &t->s[i];
  return best ? best->name : NULL;
}

int tune_elf_exports(const char *path, const char *const *names, unsigned n,
                     const char **missing)
{
  struct elf_file e;
  unsigned i, k, found = 0;
  unsigned char *seen = calloc(n + 1, 1);
  *missing = NULL;
  if (!seen || elf_open(path, &e) != 0) {
    free(seen);
    return -1;
  }
  for (i = 0; i < e.eh->e_shnum; i++) {
    const Elf64_Shdr *s = section(&e, i);
    const Elf64_Sym *sym;
    const char *str, *name;
    size_t count, strsize, j;
    if (s->sh_type != SHT_DYNSYM || symbols(&e, s, &sym, &count, &str, &strsize) != 0)
      continue;
    for (j = 0; j < count; j++) {
      unsigned bind = ELF64_ST_BIND(sym[j].st_info);
      if ((bind != STB_GLOBAL && bind != STB_WEAK) || ELF64_ST_VISIBILITY(sym[j].st_other) != STV_DEFAULT ||
          !(name = function_symbol(&sym[j], str, strsize)))
        continue;
      for (k = 0; k < n; k++)
        if (!seen[k] && strcmp(name, names[k]) == 0)
          seen[k] = 1, found++;
    }
  }
  elf_close(&e);
  for (k = 0; k < n && !*missing; k++)
    if (!seen[k])
      *missing = names[k];
  free(seen);
  return (int)(n - found);
}
