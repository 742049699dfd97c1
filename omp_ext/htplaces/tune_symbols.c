/*
 * htplaces tune: the function holding a code address, from the ELF symbol
 * table of its module (.symtab, static functions too; else .dynsym in a
 * stripped library), only when the address lies inside the symbol (its
 * value and size): a stripped library's static function is not named
 * after the exported one before it.  C++ names are demangled with
 * libstdc++'s __cxa_demangle (loaded when present).
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

/* \p name demangled (malloc'd), or a copy of it. */
static char *demangle(const char *name)
{
  static demangle_fn fn;
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

/* Section \p i's header (the headers checked to lie in the file), or NULL. */
static const Elf64_Shdr *section(const unsigned char *base, const Elf64_Ehdr *eh, unsigned i)
{
  if (i >= eh->e_shnum)
    return NULL;
  return (const Elf64_Shdr *)(base + eh->e_shoff + (size_t)i * sizeof(Elf64_Shdr));
}

/* The name of the function symbol of table \p tab holding \p addr, or NULL. */
static const char *find_in(const unsigned char *base, size_t size, const Elf64_Ehdr *eh,
                           const Elf64_Shdr *tab, unsigned long addr)
{
  const Elf64_Shdr *str = section(base, eh, tab->sh_link);
  const Elf64_Sym *sym;
  size_t n, i;
  if (!str || tab->sh_entsize != sizeof(Elf64_Sym) || tab->sh_offset > size ||
      tab->sh_size > size - tab->sh_offset || str->sh_offset > size ||
      str->sh_size > size - str->sh_offset)
    return NULL;
  sym = (const Elf64_Sym *)(base + tab->sh_offset);
  n = tab->sh_size / sizeof(*sym);
  for (i = 0; i < n; i++) {
    unsigned type = ELF64_ST_TYPE(sym[i].st_info);
    const char *name;
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym[i].st_shndx == SHN_UNDEF ||
        addr < sym[i].st_value || addr - sym[i].st_value >= sym[i].st_size ||
        sym[i].st_name >= str->sh_size)
      continue;
    name = (const char *)base + str->sh_offset + sym[i].st_name;
    if (*name && memchr(name, '\0', str->sh_size - sym[i].st_name))
      return name;
  }
  return NULL;
}

char *tune_symbol_at(const char *module, unsigned long addr)
{
  struct stat st;
  unsigned char *base;
  const Elf64_Ehdr *eh;
  const char *name = NULL;
  char *out = NULL;
  unsigned i, pass;
  int fd = open(module, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(Elf64_Ehdr) ||
      (base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
    close(fd);
    return NULL;
  }
  close(fd);
  eh = (const Elf64_Ehdr *)base;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
      eh->e_shentsize == sizeof(Elf64_Shdr) && eh->e_shoff <= (size_t)st.st_size &&
      (size_t)eh->e_shnum * sizeof(Elf64_Shdr) <= (size_t)st.st_size - eh->e_shoff)
    for (pass = 0; pass < 2 && !name; pass++) /* .symtab first, then .dynsym */
      for (i = 0; i < eh->e_shnum && !name; i++) {
        const Elf64_Shdr *s = section(base, eh, i);
        if (s->sh_type == (pass ? SHT_DYNSYM : SHT_SYMTAB))
          name = find_in(base, (size_t)st.st_size, eh, s, addr);
      }
  if (name)
    out = demangle(name);
  munmap(base, (size_t)st.st_size);
  return out;
}
