/*
 * Does a program link libomp (LLVM's, or Intel's libiomp5) itself?  The
 * ELF file's DT_NEEDED entries, read from its PT_DYNAMIC segment (64-bit
 * ELF of this machine's byte order; anything else: not known, 0).
 *
 * exec auto --learn and exec --plan do not take their one-configuration
 * shortcut (OMP_PLACES, nothing preloaded) for such a program: libomp 14
 * crashes in a fork() child's first region when OMP_PLACES is a list of
 * places ("free(): invalid size"), which the preloaded run -- binding in
 * code, OMP_PLACES removed -- does not (htplaces-exec(1), NOTES).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htplaces.h"

#define NEEDED_MAX_PHDRS 256
#define NEEDED_MAX_DYN 4096

/* The file offset of virtual address \p va in a PT_LOAD of \p ph; -1. */
static off_t file_offset(const Elf64_Phdr *ph, unsigned n, Elf64_Addr va)
{
  unsigned i;
  for (i = 0; i < n; i++)
    if (ph[i].p_type == PT_LOAD && va >= ph[i].p_vaddr && va < ph[i].p_vaddr + ph[i].p_filesz)
      return (off_t)(va - ph[i].p_vaddr + ph[i].p_offset);
  return -1;
}

/* Is the NUL-terminated name at \p off a libomp? */
static int is_libomp(int fd, off_t off)
{
  char name[64] = {0};
  if (off < 0 || pread(fd, name, sizeof(name) - 1, off) <= 0)
    return 0;
  return strncmp(name, "libomp.so", 9) == 0 || strncmp(name, "libiomp5.so", 11) == 0;
}

/* The dynamic entries of \p fd's PT_DYNAMIC: any DT_NEEDED a libomp? */
static int needs_libomp(int fd, const Elf64_Phdr *ph, unsigned n, const Elf64_Phdr *dyn)
{
  size_t k, count = dyn->p_filesz / sizeof(Elf64_Dyn);
  Elf64_Dyn *d;
  Elf64_Addr strtab = 0;
  off_t base;
  int found = 0;
  if (count == 0 || count > NEEDED_MAX_DYN || !(d = malloc(count * sizeof(*d))))
    return 0;
  if (pread(fd, d, count * sizeof(*d), (off_t)dyn->p_offset) != (ssize_t)(count * sizeof(*d)))
    count = 0;
  for (k = 0; k < count && d[k].d_tag != DT_NULL; k++)
    if (d[k].d_tag == DT_STRTAB)
      strtab = d[k].d_un.d_ptr;
  base = strtab ? file_offset(ph, n, strtab) : -1;
  for (k = 0; base >= 0 && k < count && d[k].d_tag != DT_NULL && !found; k++)
    if (d[k].d_tag == DT_NEEDED)
      found = is_libomp(fd, base + (off_t)d[k].d_un.d_val);
  free(d);
  return found;
}

int htp_links_libomp(const char *path)
{
  Elf64_Ehdr eh;
  Elf64_Phdr *ph = NULL;
  unsigned i;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), found = 0;
  if (fd < 0)
    return 0;
  if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) &&
      memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
      eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum > 0 && eh.e_phnum <= NEEDED_MAX_PHDRS &&
      (ph = malloc(eh.e_phnum * sizeof(*ph))) != NULL &&
      pread(fd, ph, eh.e_phnum * sizeof(*ph), (off_t)eh.e_phoff) ==
          (ssize_t)(eh.e_phnum * sizeof(*ph)))
    for (i = 0; i < eh.e_phnum && !found; i++)
      if (ph[i].p_type == PT_DYNAMIC)
        found = needs_libomp(fd, ph, eh.e_phnum, &ph[i]);
  free(ph);
  close(fd);
  return found;
}
