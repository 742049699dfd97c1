/*
 * The build identity a plan carries for each module (plan_int.h): the ELF
 * build-id note the linker writes, as `file` and debuggers read it (the
 * PT_NOTE segments of the loaded object, found with dl_iterate_phdr), else
 * the size and modification time of its file; and the machine line a plan
 * carries (htplaces writes it too: tools_plan.h).  (A module's field is
 * util.c's.)
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "private/plan_int.h"

struct find {
  const char *module;
  char path[4096];
  char *id;
  size_t len;
  int found;
};

/* The GNU build-id note among the notes p .. end, as "gnu:HEX"; 1, or 0. */
static int notes_id(const char *p, const char *end, char *id, size_t len)
{
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
    const char *name = p + sizeof(*nh);
    const unsigned char *desc = (const unsigned char *)name + ((nh->n_namesz + 3) & ~3u);
    if ((const char *)desc + nh->n_descsz > end)
      break;
    if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
        nh->n_descsz > 0 && 4 + 2 * (size_t)nh->n_descsz < len) {
      size_t k, n = (size_t)snprintf(id, len, "gnu:");
      for (k = 0; k < nh->n_descsz; k++)
        n += (size_t)snprintf(id + n, len - n, "%02x", desc[k]);
      return 1;
    }
    p = (const char *)desc + ((nh->n_descsz + 3) & ~3u);
  }
  return 0;
}

/* The GNU build-id note among \p info's PT_NOTE segments, as hex. */
static int note_id(struct dl_phdr_info *info, char *id, size_t len)
{
  int i;
  for (i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
    if (ph->p_type == PT_NOTE && notes_id(p, p + ph->p_memsz, id, len))
      return 1;
  }
  return 0;
}

/* Without a build-id: the file's size and modification time. */
static void stat_id(const char *path, char *id, size_t len)
{
  struct stat st;
  if (stat(path, &st) == 0)
    snprintf(id, len, "stat:%lld:%lld", (long long)st.st_size, (long long)st.st_mtime);
  else
    snprintf(id, len, "stat:0:0");
}

int omp_ext_plan_file_build_id(const char *path, char *id, size_t len)
{
  ElfW(Ehdr) eh;
  ElfW(Phdr) ph;
  char notes[65536];
  int fd = open(path, O_RDONLY | O_CLOEXEC), i, found = 0;
  ssize_t n;
  if (fd < 0)
    return -1;
  if (pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh) &&
      memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_phentsize == sizeof(ph))
    for (i = 0; i < eh.e_phnum && !found; i++)
      if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (ElfW(Off))i * sizeof(ph))) ==
              (ssize_t)sizeof(ph) && ph.p_type == PT_NOTE &&
          (n = pread(fd, notes, ph.p_filesz < sizeof(notes) ? ph.p_filesz : sizeof(notes),
                     (off_t)ph.p_offset)) > 0)
        found = notes_id(notes, notes + n, id, len);
  close(fd);
  if (!found)
    stat_id(path, id, len);
  return 0;
}

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
  struct find *f = arg;
  const char *path = info->dlpi_name, *base;
  ssize_t n;
  (void)size;
  if (!path || !*path) { /* the executable */
    if ((n = readlink("/proc/self/exe", f->path, sizeof(f->path) - 1)) <= 0)
      return 0;
    f->path[n] = '\0';
    path = f->path;
  }
  base = strrchr(path, '/');
  base = base ? base + 1 : path;
  if (strcmp(base, f->module) != 0)
    return 0;
  if (path != f->path)
    snprintf(f->path, sizeof(f->path), "%s", path);
  f->found = 1;
  if (!note_id(info, f->id, f->len))
    stat_id(f->path, f->id, f->len);
  return 1;
}

int omp_ext_plan_build_id(const char *module, char *id, size_t len)
{
  struct find f;
  memset(&f, 0, sizeof(f));
  f.module = module, f.id = id, f.len = len;
  dl_iterate_phdr(find_object, &f);
  return f.found ? 0 : -1;
}

/* (tools_plan.h) */
int omp_ext_machine_line(const struct omp_ext_topo *topo, char *buf, size_t len)
{
  char *list = NULL;
  int n;
  if (hwloc_bitmap_list_asprintf(&list, omp_ext_topo_allowed(topo)) < 0)
    return -1;
  n = snprintf(buf, len, "machine %u %u %u %u %s", omp_ext_topo_npus(topo),
               omp_ext_topo_ncores(topo), omp_ext_topo_npackages(topo),
               omp_ext_topo_max_smt(topo), list);
  free(list);
  return n > 0 && (size_t)n < len ? 0 : -1;
}
