/*
 * htplaces verify: run an OpenMP program with OMP_PLACES (from a policy, or
 * as the user set it), OMP_PROC_BIND=close, OMP_DISPLAY_AFFINITY=TRUE and a
 * known OMP_AFFINITY_FORMAT (OpenMP 5.2 §21.2.4-5), read what each thread
 * reports and compare it with the intended place.
 *
 * libgomp prints the affinity lines on stderr, libomp on stdout; both are
 * read.  %A is "0-3,8" in libgomp and "0,1,2,3,8" in libomp: both are cpu
 * lists.  The program's other output is passed through unchanged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "htplaces.h"
#include "util.h"

extern char **environ;

#define TAG "htplaces-verify "

struct thread_report {
  hwloc_bitmap_t actual; /* first report; NULL if none */
  int changed;           /* a later report differed */
};

struct verify {
  unsigned nthreads;
  hwloc_bitmap_t *intended; /* per thread */
  struct thread_report *rep;
  unsigned extra; /* reports from threads >= nthreads */
  unsigned nreports;
};

/* "thread=N affinity=LIST" after the tag. */
static void parse_report(struct verify *v, const char *line)
{
  unsigned long long t;
  const char *end, *aff;
  hwloc_bitmap_t set;
  if (strncmp(line, "thread=", 7) != 0)
    return;
  if (omp_ext_scan_uint(line + 7, &end, ~0UL, &t) == OMP_EXT_UINT_MALFORMED ||
      strncmp(end, " affinity=", 10) != 0)
    return;
  aff = end + 10;
  if (!*aff || strspn(aff, "0123456789,-") != strlen(aff) || !(set = hwloc_bitmap_alloc()))
    return;
  if (hwloc_bitmap_list_sscanf(set, aff) < 0) {
    hwloc_bitmap_free(set);
    return;
  }
  v->nreports++;
  if (t >= v->nthreads) {
    v->extra++;
    hwloc_bitmap_free(set);
    return;
  }
  if (!v->rep[t].actual) {
    v->rep[t].actual = set;
    return;
  }
  if (!hwloc_bitmap_isequal(v->rep[t].actual, set))
    v->rep[t].changed = 1;
  hwloc_bitmap_free(set);
}

/* Feed bytes of one stream; complete lines are reports or passed through. */
struct stream {
  int fd;
  FILE *out;
  char *buf;
  size_t len;
};

static void flush_line(struct verify *v, struct stream *s, char *line, size_t len, int nl)
{
  line[len] = '\0';
  if (strncmp(line, TAG, strlen(TAG)) == 0) {
    char *cr = strchr(line, '\r');
    if (cr)
      *cr = '\0';
    parse_report(v, line + strlen(TAG));
  } else {
    fwrite(line, 1, len, s->out);
    if (nl)
      fputc('\n', s->out);
  }
}

static int pump(struct verify *v, struct stream *s)
{
  char chunk[4096], *nl, *p;
  ssize_t n = read(s->fd, chunk, sizeof(chunk));
  if (n <= 0) {
    if (s->len)
      flush_line(v, s, s->buf, s->len, 0);
    s->len = 0;
    return -1;
  }
  if (!(p = realloc(s->buf, s->len + (size_t)n + 1)))
    return -1;
  s->buf = p;
  memcpy(s->buf + s->len, chunk, (size_t)n);
  s->len += (size_t)n;
  while ((nl = memchr(s->buf, '\n', s->len)) != NULL) {
    size_t l = (size_t)(nl - s->buf);
    flush_line(v, s, s->buf, l, 1);
    memmove(s->buf, nl + 1, s->len - l - 1);
    s->len -= l + 1;
  }
  return 0;
}

/* Run argv with the current environment; read both streams; wait. */
static int run_program(struct verify *v, char **argv, int *wstatus)
{
  int po[2], pe[2], err;
  posix_spawn_file_actions_t fa;
  struct stream s[2] = {{-1, stdout, NULL, 0}, {-1, stderr, NULL, 0}};
  struct pollfd fds[2];
  pid_t pid;
  unsigned i;
  if (pipe(po) < 0 || pipe(pe) < 0)
    return errno;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, po[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
  posix_spawn_file_actions_addclose(&fa, po[0]);
  posix_spawn_file_actions_addclose(&fa, pe[0]);
  fflush(stdout);
  htp_forward_signals();
  err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (!err)
    htp_running_child(pid);
  close(po[1]);
  close(pe[1]);
  if (err) {
    close(po[0]);
    close(pe[0]);
    return err;
  }
  s[0].fd = po[0];
  s[1].fd = pe[0];
  while (s[0].fd >= 0 || s[1].fd >= 0) {
    for (i = 0; i < 2; i++)
      fds[i] = (struct pollfd){s[i].fd, POLLIN, 0};
    if (poll(fds, 2, -1) < 0 && errno != EINTR)
      break;
    for (i = 0; i < 2; i++)
      if (s[i].fd >= 0 && fds[i].revents && pump(v, &s[i]) < 0) {
        close(s[i].fd);
        s[i].fd = -1;
      }
  }
  free(s[0].buf);
  free(s[1].buf);
  while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
    ;
  htp_running_child(0);
  return 0;
}

/* Close binding (OpenMP 5.2 §10.1.3): T <= P: thread t on place t; T > P:
 * consecutive threads share a place, the first T mod P places one more. */
static int intended_close(struct verify *v, const omp_ext_placelist_t *l)
{
  unsigned t, p = 0, inplace = 0, P = l->nplaces, T = v->nthreads;
  for (t = 0; t < T; t++) {
    unsigned cap = T <= P ? 1 : T / P + (p < T % P);
    if (!(v->intended[t] = hwloc_bitmap_dup(l->places[p])))
      return omp_ext_err_nomem;
    if (++inplace == cap) {
      inplace = 0;
      p = (p + 1) % P;
    }
  }
  return omp_ext_success;
}

static int print_table(const struct verify *v)
{
  unsigned t, bad = 0;
  printf("thread  intended PUs    actual affinity  verdict\n");
  for (t = 0; t < v->nthreads; t++) {
    char *want = NULL, *got = NULL;
    const char *verdict;
    hwloc_bitmap_list_asprintf(&want, v->intended[t]);
    if (v->rep[t].actual)
      hwloc_bitmap_list_asprintf(&got, v->rep[t].actual);
    if (!v->rep[t].actual)
      verdict = "NO REPORT";
    else if (!hwloc_bitmap_isequal(v->rep[t].actual, v->intended[t]))
      verdict = "MISMATCH";
    else if (v->rep[t].changed)
      verdict = "MOVED (a later region differs)";
    else
      verdict = "ok";
    bad += strcmp(verdict, "ok") != 0;
    printf("%6u  %-14s  %-15s  %s\n", t, want ? want : "?", got ? got : "-", verdict);
    free(want);
    free(got);
  }
  if (v->extra)
    printf("%u reports came from threads beyond the %u intended\n", v->extra, v->nthreads);
  return (int)bad;
}

/* The intended places: POLICY [N], or OMP_PLACES as set; sets the
 * variables the program will see. */
static int plan(struct htp_ctx *ctx, int argc, char **argv, omp_ext_placelist_t **list,
                unsigned *nthreads)
{
  omp_ext_parse_error_t perr = {0, NULL};
  omp_ht_policy_t policy;
  omp_ext_pu_t *order = NULL;
  omp_ext_topo_t *topo;
  const char *places = getenv("OMP_PLACES"), *nth = getenv("OMP_NUM_THREADS");
  char *text = NULL, num[32];
  unsigned n;
  int status = HTP_EXIT_OK, err;
  if (argc > 0) {
    if ((status = htp_policy_order(ctx, argc, argv, &policy, &order, &n)) != 0)
      return status;
    err = omp_ext_places_format(order, n, omp_ext_format_omp, &text);
    free(order);
    if (err)
      return htp_error(HTP_EXIT_FAIL, "out of memory");
    setenv("OMP_PLACES", text, 1);
    snprintf(num, sizeof(num), "%u", n);
    setenv("OMP_NUM_THREADS", num, 1);
    places = getenv("OMP_PLACES");
    nth = getenv("OMP_NUM_THREADS");
    free(text);
  } else if (!places || !*places) {
    return htp_error(HTP_EXIT_USAGE, "give POLICY [N] or set OMP_PLACES; usage: htplaces verify "
                     "[POLICY [N]] -- PROGRAM [ARGS]");
  }
  if (!(topo = htp_topo(ctx, &status)))
    return status;
  err = omp_ext_places_parse(topo, places, omp_ext_syntax_omp, list, &perr);
  if (err == omp_ext_err_parse)
    return htp_error(HTP_EXIT_USAGE, "cannot parse OMP_PLACES '%s' at character %zu: %s", places,
                     perr.pos + 1, perr.what);
  if (err)
    return htp_error(HTP_EXIT_FAIL, "OMP_PLACES: %s", omp_ext_strerror(err));
  if ((*list)->nplaces == 0) {
    omp_ext_placelist_destroy(*list);
    return htp_error(HTP_EXIT_USAGE, "OMP_PLACES '%s' has no place on this machine", places);
  }
  *nthreads = (*list)->nplaces;
  if (nth && *nth) {
    const char *end;
    unsigned long long v;
    if (omp_ext_scan_uint(nth, &end, 4096, &v) != OMP_EXT_UINT_OK || v == 0 ||
        (*end && *end != ',')) {
      omp_ext_placelist_destroy(*list);
      return htp_error(HTP_EXIT_USAGE, "OMP_NUM_THREADS='%s' is not a number 1..4096", nth);
    }
    *nthreads = (unsigned)v;
  } else {
    snprintf(num, sizeof(num), "%u", *nthreads);
    setenv("OMP_NUM_THREADS", num, 1);
  }
  setenv("OMP_PROC_BIND", "close", 1);
  setenv("OMP_DISPLAY_AFFINITY", "TRUE", 1);
  setenv("OMP_AFFINITY_FORMAT", TAG "thread=%n affinity=%A", 1);
  return HTP_EXIT_OK;
}

static int split_program(int argc, char **argv, int *cut)
{
  int k;
  for (k = 1; k < argc; k++)
    if (strcmp(argv[k], "--") == 0)
      break;
  if (k >= argc - 1)
    return htp_error(HTP_EXIT_USAGE, "missing '-- PROGRAM'; usage: htplaces verify [POLICY [N]] "
                     "-- PROGRAM [ARGS]");
  *cut = k;
  return HTP_EXIT_OK;
}

static void free_verify(struct verify *v)
{
  unsigned t;
  for (t = 0; t < v->nthreads; t++) {
    hwloc_bitmap_free(v->intended ? v->intended[t] : NULL);
    hwloc_bitmap_free(v->rep ? v->rep[t].actual : NULL);
  }
  free(v->intended);
  free(v->rep);
}

static int report(struct verify *v, char **prog, int wstatus)
{
  int bad;
  printf("verify: OMP_PLACES=%s OMP_PROC_BIND=close OMP_NUM_THREADS=%s %s\n",
         getenv("OMP_PLACES"), getenv("OMP_NUM_THREADS"), prog[0]);
  if (v->nreports == 0) {
    printf("no thread reported its affinity: the program ran no parallel region, its OpenMP "
           "runtime predates OpenMP 5.0 (OMP_DISPLAY_AFFINITY), or the team had one thread "
           "(libgomp displays affinity only when it starts threads)\n");
    bad = 1;
  } else {
    bad = print_table(v);
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0) {
    printf("the program exited with status %d\n", WEXITSTATUS(wstatus));
    bad++;
  } else if (WIFSIGNALED(wstatus)) {
    printf("the program was killed by signal %d\n", WTERMSIG(wstatus));
    bad++;
  }
  printf("%s\n", bad ? "verify: MISMATCH" : "verify: every thread is where intended");
  if (fflush(stdout) != 0)
    return htp_error(HTP_EXIT_FAIL, "cannot write output");
  return bad ? HTP_EXIT_FAIL : HTP_EXIT_OK;
}

int htp_cmd_verify(struct htp_ctx *ctx, int argc, char **argv)
{
  static const struct option longopts[] = {HTP_COMMON_LONGOPTS, {0}};
  omp_ext_placelist_t *list = NULL;
  struct verify v = {0, NULL, NULL, 0, 0};
  int c, status, cut = 0, wstatus = 0, err;
  if ((status = split_program(argc, argv, &cut)) != 0)
    return status;
  optind = 0;
  while ((c = getopt_long(cut, argv, ":" HTP_COMMON_SHORTOPTS, longopts, NULL)) != -1)
    htp_common_option(ctx, c, optarg, optopt, argv);
  if ((status = htp_no_format(ctx, "verify")) != 0)
    return status;
  if ((status = htp_this_machine("verify")) != 0)
    return status;
  if (ctx->input)
    return htp_error(HTP_EXIT_USAGE, "verify runs the program on this machine: -i does not "
                     "apply");
  if (cut - optind > 2)
    return htp_error(HTP_EXIT_USAGE, "unexpected argument '%s'; usage: htplaces verify "
                     "[POLICY [N]] -- PROGRAM [ARGS]", argv[optind + 2]);
  if ((status = plan(ctx, cut - optind, argv + optind, &list, &v.nthreads)) != 0)
    return status;
  v.intended = calloc(v.nthreads, sizeof(*v.intended));
  v.rep = calloc(v.nthreads, sizeof(*v.rep));
  if (!v.intended || !v.rep || intended_close(&v, list) != 0) {
    status = htp_error(HTP_EXIT_FAIL, "out of memory");
  } else if (htp_program_env(ctx), (err = run_program(&v, argv + cut + 1, &wstatus)) != 0) {
    /* as exec and the shell: 127 not found, 126 found but not runnable */
    status = htp_error(err == ENOENT ? 127 : err == EACCES || err == EISDIR || err == ENOEXEC ? 126
                                                                                          : HTP_EXIT_FAIL,
                       "cannot run '%s': %s", argv[cut + 1], strerror(err));
  } else {
    status = report(&v, argv + cut + 1, wstatus);
  }
  omp_ext_placelist_destroy(list);
  free_verify(&v);
  return status;
}
