/*
 * main() for the fuzz targets outside libFuzzer: run LLVMFuzzerTestOneInput
 * on every file named on the command line or found in a named folder (the
 * seed corpus and the regression inputs).  Any gcc or clang build runs them
 * this way as ordinary tests; a failed invariant aborts.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  size_t len = 0, cap = 0, n;
  if (!f) {
    fprintf(stderr, "fuzz: cannot read %s\n", path);
    return 1;
  }
  do {
    if (len == cap) {
      unsigned char *p = realloc(buf, cap = cap ? cap * 2 : 4096);
      if (!p) {
        free(buf);
        fclose(f);
        return 1;
      }
      buf = p;
    }
    n = fread(buf + len, 1, cap - len, f);
    len += n;
  } while (n > 0);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int run_path(const char *path, unsigned *count)
{
  struct stat st;
  DIR *d;
  struct dirent *e;
  int err = 0;
  if (stat(path, &st) != 0)
    return 0; /* a missing folder (no regression inputs yet) is fine */
  if (!S_ISDIR(st.st_mode)) {
    (*count)++;
    return run_file(path);
  }
  if (!(d = opendir(path)))
    return 1;
  while ((e = readdir(d)) != NULL) {
    char child[4096];
    if (e->d_name[0] == '.')
      continue;
    snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
    err |= run_path(child, count);
  }
  closedir(d);
  return err;
}

int main(int argc, char **argv)
{
  unsigned count = 0;
  int i, err = 0;
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  for (i = 1; i < argc; i++)
    err |= run_path(argv[i], &count);
  printf("%s: %u inputs\n", argv[0], count);
  return err;
}
