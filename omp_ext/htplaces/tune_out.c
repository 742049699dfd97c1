/*
 * htplaces tune --out DIR: the folder of results (program-stdout.txt,
 * results.csv, results.json, recommendation.txt, table.txt, stderr-tails.txt,
 * plots.gp and the plots), complete or not at all.
 *
 * Every file is written into a staging folder on the same file system --
 * DIR/.htplaces-tune-XXXXXX when DIR exists, else .NAME.htplaces-tune-XXXXXX
 * beside it -- each one checked (every write, fflush, fsync, fclose) and the
 * plots too (gnuplot's exit status; each plot not empty and complete: PNG
 * up to its IEND chunk, SVG up to </svg>).  Only then are they put in place:
 * a new DIR is the staging folder renamed (one rename); into an existing
 * DIR each file is renamed over its old self, results.json (what exec
 * --plan reads) removed first and renamed last, and every file of tune's
 * that this tune did not make (plots without gnuplot now) removed: never a
 * mix of two tunes.  A failure, or a signal before that, removes the
 * staging folder and leaves DIR as it was (or not made).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune_int.h"

/* Every file tune puts in DIR; results.json last (put in place last). */
static const char *const tune_files[] = {
  "program-stdout.txt", "stderr-tails.txt", "results.csv", "recommendation.txt", "table.txt",
  "plots.gp", "gnuplot.log", "tune-time.png", "tune-time.svg", "tune-spn.png", "tune-spn.svg",
  "results.json"};
#define NFILES (sizeof(tune_files) / sizeof(tune_files[0]))
static const char *const plot_files[] = {"tune-time.png", "tune-time.svg", "tune-spn.png",
                                         "tune-spn.svg"};

/* The process's umask (mkdtemp makes 0700; the folder gets mkdir's mode). */
static mode_t umask_of(void)
{
  mode_t m = umask(0);
  umask(m);
  return m;
}

/* "(the folder is left as it was)" or "(nothing was made)". */
static const char *kept(const struct tune_out *o)
{
  return o->existed ? "the folder is left as it was" : "nothing was made";
}

/* Write failures: one line naming the file, the folder and the reason. */
static int write_error(const struct tune_out *o, const char *name, int err)
{
  return htp_error(HTP_EXIT_FAIL, "cannot write %s for --out '%s': %s (%s)", name, o->dir,
                   strerror(err), kept(o));
}

/* DIR/NAME into path[len] ("" when too long: no such file). */
static const char *join(char *path, size_t len, const char *dir, const char *name)
{
  if (snprintf(path, len, "%s/%s", dir, name) >= (int)len)
    path[0] = '\0';
  return path;
}

/* Does DIR hold a file of tune's? */
static int holds_results(const char *dir)
{
  char path[4200];
  struct stat st;
  unsigned i;
  for (i = 0; i < NFILES; i++)
    if (lstat(join(path, sizeof(path), dir, tune_files[i]), &st) == 0)
      return 1;
  return 0;
}

int tune_out_open(const char *dir, struct tune_out *o)
{
  char copy[4096], failed[4096], *base, *parent;
  struct stat st;
  size_t len;
  int err;
  memset(o, 0, sizeof(*o));
  o->stdout_fd = -1;
  if ((len = strlen(dir)) >= sizeof(o->dir))
    return htp_error(HTP_EXIT_FAIL, "--out '%s': %s", dir, strerror(ENAMETOOLONG));
  while (len > 1 && dir[len - 1] == '/') /* ("out/" is "out") */
    len--;
  memcpy(o->dir, dir, len);
  o->dir[len] = '\0';
  if (stat(o->dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return htp_error(HTP_EXIT_FAIL, "cannot use --out '%s': %s", dir, strerror(ENOTDIR));
    o->existed = 1;
    o->empty = !holds_results(o->dir);
    snprintf(o->stage, sizeof(o->stage), "%s/.htplaces-tune-XXXXXX", o->dir);
  } else {
    o->empty = 1;
    memcpy(copy, o->dir, len + 1);
    base = basename(copy);
    snprintf(failed, sizeof(failed), "%s", o->dir);
    parent = dirname(failed);
    if ((err = sweep_make_dir(parent, copy, sizeof(copy))) != 0)
      return htp_error(HTP_EXIT_FAIL, "cannot make --out folder '%s': %s", copy, strerror(err));
    memcpy(copy, o->dir, len + 1);
    base = basename(copy);
    if (snprintf(o->stage, sizeof(o->stage), "%s/.%s.htplaces-tune-XXXXXX", parent, base) >=
        (int)sizeof(o->stage))
      return htp_error(HTP_EXIT_FAIL, "--out '%s': %s", dir, strerror(ENAMETOOLONG));
  }
  if (!mkdtemp(o->stage))
    return htp_error(HTP_EXIT_FAIL, "cannot write into --out '%s': %s", dir, strerror(errno));
  chmod(o->stage, 0777 & ~umask_of()); /* (as mkdir would make it: mkdtemp makes 0700) */
  join(copy, sizeof(copy), o->stage, "program-stdout.txt");
  if ((o->stdout_fd = open(copy, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0) {
    err = errno;
    tune_out_abort(o);
    return htp_error(HTP_EXIT_FAIL, "cannot write into --out '%s': %s", dir, strerror(err));
  }
  return HTP_EXIT_OK;
}

void tune_out_abort(struct tune_out *o)
{
  if (o->stdout_fd >= 0)
    close(o->stdout_fd);
  o->stdout_fd = -1;
  if (o->stage[0])
    tune_remove_temp_dir(o->stage);
  o->stage[0] = '\0';
}

/* One file of the staging folder, checked to the disk. */
static int write_one(const struct tune_out *o, const char *name, const void *arg,
                     void (*print)(FILE *, const void *))
{
  char path[4200];
  FILE *f;
  int err = 0;
  join(path, sizeof(path), o->stage, name);
  if (!(f = fopen(path, "w")))
    return write_error(o, name, errno);
  print(f, arg);
  if (fflush(f) != 0 || ferror(f))
    err = errno ? errno : EIO;
  else if (fsync(fileno(f)) != 0)
    err = errno;
  if (fclose(f) != 0 && !err)
    err = errno;
  return err ? write_error(o, name, err) : HTP_EXIT_OK;
}

void tune_print_recommendation(FILE *f, const struct tune_report *t)
{
  int o;
  char *line;
  if (tune_no_region(t)) {
    fprintf(f, "%s\n", TUNE_NO_REGION_VERDICT);
    return;
  }
  for (o = 0; o < TUNE_NOBJECTIVES; o++)
    if (t->s->best[o] >= 0 && (line = tune_exec_line(t, t->s->best[o]))) {
      fprintf(f, "%s: %s\n", tune_objective_name((enum tune_objective)o), line);
      free(line);
    }
}

/* The printers, as write_one takes them. */
static void print_csv(FILE *f, const void *t) { tune_print_csv(f, t); }
static void print_json(FILE *f, const void *t) { tune_print_json(f, t); }
static void print_rec(FILE *f, const void *t) { tune_print_recommendation(f, t); }
static void print_table(FILE *f, const void *t) { tune_print_table(f, t); }
static void print_plots(FILE *f, const void *t) { tune_print_plot_script(f, t); }

/* stderr-tails.txt: each configuration's last failing run's last words. */
struct tails {
  const struct tune_config *c;
  unsigned n;
};

static void print_tails(FILE *f, const void *arg)
{
  const struct tails *x = arg;
  unsigned i;
  for (i = 0; i < x->n; i++)
    if (x->c[i].last_words)
      fputs(x->c[i].last_words, f);
}

static int any_tail(const struct tune_config *c, unsigned n)
{
  unsigned i;
  for (i = 0; i < n; i++)
    if (c[i].last_words)
      return 1;
  return 0;
}

/* The program's output (written while it ran) to the disk. */
static int close_stdout(struct tune_out *o)
{
  int err = 0;
  if (o->stdout_fd < 0)
    return HTP_EXIT_OK;
  if (fsync(o->stdout_fd) != 0)
    err = errno;
  if (close(o->stdout_fd) != 0 && !err)
    err = errno;
  o->stdout_fd = -1;
  return err && err != EINVAL ? write_error(o, "program-stdout.txt", err) : HTP_EXIT_OK;
}

/* The last non-blank line of dir/name into buf[len] ("" when none). */
static void last_log_line(const char *dir, const char *name, char *buf, size_t len)
{
  char path[4200], line[512];
  FILE *f;
  buf[0] = '\0';
  join(path, sizeof(path), dir, name);
  if (!(f = fopen(path, "r")))
    return;
  while (fgets(line, sizeof(line), f)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[strspn(line, " \t")])
      snprintf(buf, len, "%s", line + strspn(line, " \t"));
  }
  fclose(f);
}

/* Is the plot complete: not empty, a PNG up to its IEND chunk, an SVG up
 * to its closing tag?  0, or why not (static text). */
static const char *plot_incomplete(const char *path)
{
  static const unsigned char iend[] = {'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
  unsigned char tail[64];
  struct stat st;
  ssize_t got;
  size_t n;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return "not made";
  if (fstat(fd, &st) != 0 || st.st_size == 0) {
    close(fd);
    return "empty";
  }
  n = st.st_size < (off_t)sizeof(tail) ? (size_t)st.st_size : sizeof(tail);
  got = pread(fd, tail, n, st.st_size - (off_t)n);
  if (got == (ssize_t)n && fsync(fd) != 0)
    got = -1;
  close(fd);
  if (got != (ssize_t)n)
    return "unreadable";
  if (strstr(path, ".png"))
    return n >= sizeof(iend) && memcmp(tail + n - sizeof(iend), iend, sizeof(iend)) == 0
             ? NULL : "cut short (no IEND chunk at its end)";
  while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == ' '))
    n--;
  return n >= 6 && memcmp(tail + n - 6, "</svg>", 6) == 0 ? NULL : "cut short (no </svg> at its end)";
}

/* gnuplot in the staging folder.  Not found, or failing on its own: no
 * plots (a warning; the files it left removed).  Exit 0 with a plot empty
 * or cut short: a write error. */
static int make_plots(const struct tune_out *o)
{
  char path[4200], log[256];
  unsigned i;
  const char *why;
  int status = sweep_gnuplot(o->stage, "plots.gp", "gnuplot.log");
  if (status == 127) {
    fprintf(stderr, "htplaces tune: gnuplot not found: no plots (the script is %s/plots.gp)\n",
            o->dir);
    return HTP_EXIT_OK;
  }
  if (status != 0) {
    last_log_line(o->stage, "gnuplot.log", log, sizeof(log));
    fprintf(stderr, "htplaces tune: gnuplot failed (%s %d%s%s): no plots (the script is "
            "%s/plots.gp, its messages in gnuplot.log)\n", status > 128 ? "signal" : "exit",
            status > 128 ? status - 128 : status, log[0] ? ": " : "", log, o->dir);
    for (i = 0; i < sizeof(plot_files) / sizeof(plot_files[0]); i++) {
      join(path, sizeof(path), o->stage, plot_files[i]);
      unlink(path);
    }
    return HTP_EXIT_OK;
  }
  for (i = 0; i < sizeof(plot_files) / sizeof(plot_files[0]); i++) {
    join(path, sizeof(path), o->stage, plot_files[i]);
    if ((why = plot_incomplete(path)) != NULL)
      return htp_error(HTP_EXIT_FAIL, "cannot write %s for --out '%s': gnuplot exited 0 but "
                       "left it %s: is the file system full? (%s)", plot_files[i], o->dir, why,
                       kept(o));
  }
  return HTP_EXIT_OK;
}

int tune_out_write(struct tune_out *o, const struct tune_report *t)
{
  struct tails x = {t->c, t->n};
  int status;
  if ((status = close_stdout(o)) != 0 ||
      (any_tail(t->c, t->n) && (status = write_one(o, "stderr-tails.txt", &x, print_tails)) != 0) ||
      (status = write_one(o, "results.csv", t, print_csv)) != 0 ||
      (status = write_one(o, "results.json", t, print_json)) != 0 ||
      (status = write_one(o, "recommendation.txt", t, print_rec)) != 0 ||
      (status = write_one(o, "table.txt", t, print_table)) != 0 ||
      (status = write_one(o, "plots.gp", t, print_plots)) != 0)
    return status;
  return make_plots(o);
}

int tune_out_write_failure(struct tune_out *o, const struct tune_config *c, unsigned n)
{
  struct tails x = {c, n};
  int status;
  if ((status = close_stdout(o)) != 0)
    return status;
  return any_tail(c, n) ? write_one(o, "stderr-tails.txt", &x, print_tails) : HTP_EXIT_OK;
}

/* fsync a folder (its entries: the renames). */
static void sync_dir(const char *dir)
{
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

/* Into an existing DIR: each file over its old self, results.json removed
 * first and put last; tune's files this tune did not make removed. */
static int commit_files(struct tune_out *o)
{
  char from[4200], to[4200];
  struct stat st;
  unsigned i;
  snprintf(to, sizeof(to), "%s/results.json", o->dir);
  if (unlink(to) != 0 && errno != ENOENT)
    return htp_error(HTP_EXIT_FAIL, "cannot replace %s: %s (the folder is left as it was)", to,
                     strerror(errno));
  for (i = 0; i < NFILES; i++) {
    join(from, sizeof(from), o->stage, tune_files[i]);
    join(to, sizeof(to), o->dir, tune_files[i]);
    if (lstat(from, &st) == 0) {
      if (rename(from, to) != 0)
        return htp_error(HTP_EXIT_FAIL, "cannot put %s in place in --out '%s': %s (its previous "
                         "results.json is removed: no plan is read from a mix)", tune_files[i],
                         o->dir, strerror(errno));
    } else if (unlink(to) != 0 && errno != ENOENT) {
      return htp_error(HTP_EXIT_FAIL, "cannot remove the previous %s: %s", to, strerror(errno));
    }
  }
  rmdir(o->stage);
  sync_dir(o->dir);
  return HTP_EXIT_OK;
}

int tune_out_commit(struct tune_out *o)
{
  char parent[4096];
  int status = HTP_EXIT_OK;
  sync_dir(o->stage);
  if (!o->existed && rename(o->stage, o->dir) == 0) {
    snprintf(parent, sizeof(parent), "%s", o->dir);
    sync_dir(dirname(parent));
  } else if (!o->existed && errno != EEXIST && errno != ENOTEMPTY) {
    status = htp_error(HTP_EXIT_FAIL, "cannot make --out '%s': %s (nothing was made)", o->dir,
                       strerror(errno));
  } else { /* (DIR exists, or appeared while tune ran) */
    o->existed = 1;
    status = commit_files(o);
  }
  tune_out_abort(o); /* (the staging folder, if anything is left of it) */
  return status;
}
