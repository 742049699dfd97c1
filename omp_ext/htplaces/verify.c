/*
 * htplaces verify: run an OpenMP program with OMP_PLACES (from a policy, or
 * as the user set it), OMP_PROC_BIND=close, OMP_DISPLAY_AFFINITY=TRUE and a
 * known OMP_AFFINITY_FORMAT (OpenMP 5.2 §21.2.4-5), read what each thread
 * reports and compare it with the intended place.
 *
 * libgomp prints the affinity lines on stderr, libomp on stdout; both are
 * read.  %A is "0-3,8" in libgomp and "0,1,2,3,8" in libomp: both are cpu
 * lists.  %L (nesting level), %a (ancestor thread number one level up) and
 * %n separate the outermost team, which is compared with the places, from
 * nested teams, which are reported apart (libgomp 12 and libomp 14 print
 * all three).  The program's other output is passed through unchanged.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "htplaces.h"
#include "sweep.h"
#include "private/util.h"
#include "verify_int.h"

#define TAG "htplaces-verify "
/* After SIGINT, SIGTERM or SIGHUP to verify: seconds the program's process
 * group has to end on the forwarded signal before it is killed (SIGKILL),
 * as tune's runs. */
#define VERIFY_GRACE_S 2.0

/* A number after "KEY=", then a space; NULL if malformed. */
static const char *field(const char *p, const char *key, unsigned *val)
{
  unsigned long long x;
  const char *end;
  size_t k = strlen(key);
  if (strncmp(p, key, k) != 0 || p[k] != '=' ||
      omp_ext_scan_uint(p + k + 1, &end, ~0U, &x) != OMP_EXT_UINT_OK || *end != ' ')
    return NULL;
  *val = (unsigned)x;
  return end + 1;
}

static void add_nested(struct verify *v, unsigned level, unsigned outer, unsigned t,
                       hwloc_bitmap_t set)
{
  struct verify_nested *n;
  unsigned i;
  for (i = 0; i < v->nnested; i++) {
    n = &v->nested[i];
    if (n->level == level && n->outer == outer && n->thread == t &&
        hwloc_bitmap_isequal(n->actual, set)) {
      hwloc_bitmap_free(set);
      return;
    }
  }
  if (!(n = realloc(v->nested, (v->nnested + 1) * sizeof(*n)))) {
    hwloc_bitmap_free(set);
    return;
  }
  v->nested = n;
  v->nested[v->nnested++] = (struct verify_nested){level, outer, t, set};
}

/* A later level-1 report of r's thread that differs from its first (takes
 * set): kept, up to one per level-1 thread; beyond, only "it moved". */
static void add_later(struct verify_thread *r, unsigned nthreads, hwloc_bitmap_t set)
{
  hwloc_bitmap_t *l = NULL;
  if (r->nlater < nthreads && (l = realloc(r->later, (r->nlater + 1) * sizeof(*l)))) {
    r->later = l;
    r->later[r->nlater++] = set;
    return;
  }
  r->overflow = 1;
  hwloc_bitmap_free(set);
}

/* "tid=ID " (optional): a decimal kernel thread id (libomp) or anything
 * else without a blank (libgomp's pthread_t in hex): 0. */
static const char *tid_field(const char *p, long *tid)
{
  const char *end;
  unsigned long long x;
  *tid = 0;
  if (strncmp(p, "tid=", 4) != 0)
    return p;
  if (omp_ext_scan_uint(p + 4, &end, 0x7fffffffULL, &x) == OMP_EXT_UINT_OK && *end == ' ')
    *tid = (long)x;
  end = strchr(p, ' ');
  return end ? end + 1 : p + strlen(p);
}

/* "level=L outer=A thread=N [tid=ID] affinity=LIST" after the tag. */
static void parse_report(struct verify *v, const char *line)
{
  const char *p = line, *aff;
  unsigned level, outer, t;
  long tid = 0;
  hwloc_bitmap_t set;
  if (!(p = field(p, "level", &level)) || !(p = field(p, "outer", &outer)) ||
      !(p = field(p, "thread", &t)) || !(p = tid_field(p, &tid)) ||
      strncmp(p, "affinity=", 9) != 0)
    return;
  aff = p + 9;
  if (!*aff || !(set = hwloc_bitmap_alloc()))
    return;
  if (omp_ext_parse_cpulist(aff, OMP_EXT_CPULIST_ANY, set, NULL) != OMP_EXT_UINT_OK) {
    hwloc_bitmap_free(set);
    return;
  }
  if (level >= 2) {
    if (level == 2 && t == 0 && outer < v->nthreads && !v->rep[outer].led)
      v->rep[outer].led = hwloc_bitmap_dup(set);
    add_nested(v, level, outer, t, set);
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
    v->rep[t].tid = tid;
    return;
  }
  if (!hwloc_bitmap_isequal(v->rep[t].actual, set))
    add_later(&v->rep[t], v->nthreads, set);
  else
    hwloc_bitmap_free(set);
}

/* libgomp 12 prints a pool thread's level-1 line from that thread's live
 * team state (team.c, gomp_team_start: pool->threads[i]->ts, read after the
 * dock barrier released it).  A thread already starting its own nested team
 * can be read part-way: its team number set to 0, its level not yet 2.  The
 * line then says "level 1, thread 0" with thread X's affinity (%A is read
 * from X's handle), and X has no level-1 line of its own.  Such a line of
 * thread 0 that differs from thread 0's first one and matches the team X
 * leads (its level-2 thread 0, the same OS thread) is X's. */
static void claim_torn(struct verify *v)
{
  struct verify_thread *r0 = &v->rep[0];
  unsigned i = 0, x;
  while (v->nthreads > 0 && i < r0->nlater) {
    for (x = 1; x < v->nthreads; x++) {
      const struct verify_thread *r = &v->rep[x];
      if (!r->actual && !r->torn && r->led && hwloc_bitmap_isequal(r->led, r0->later[i]))
        break;
    }
    if (x >= v->nthreads) {
      i++;
      continue;
    }
    v->rep[x].torn = 1;
    hwloc_bitmap_free(r0->later[i]);
    memmove(&r0->later[i], &r0->later[i + 1], (r0->nlater - i - 1) * sizeof(*r0->later));
    r0->nlater--;
  }
}

/* Feed bytes of one stream; complete lines are reports or passed through. */
struct stream {
  int fd;
  FILE *out;
  char *buf;
  size_t len;
  int bol;           /* what was passed through ends a line (or is empty) */
  unsigned long seq; /* when it last passed something through (0: never) */
};

/* Pass the program's bytes through. */
static void relay(struct verify *v, struct stream *s, const char *p, size_t len)
{
  if (!len)
    return;
  fwrite(p, 1, len, s->out);
  s->bol = p[len - 1] == '\n';
  s->seq = ++v->relayed;
}

/* A report is the rest of a line from the marker on, wherever the marker
 * starts: a program that left a partial line ("progress: ") has the
 * runtime's line appended to it.  The text before the marker is the
 * program's and passes through unchanged (without the report's newline). */
static void flush_line(struct verify *v, struct stream *s, char *line, size_t len, int nl)
{
  char *tag = memmem(line, len, TAG, strlen(TAG));
  line[len] = '\0';
  if (tag) {
    char *cr = strchr(tag, '\r');
    if (cr)
      *cr = '\0';
    relay(v, s, line, (size_t)(tag - line));
    parse_report(v, tag + strlen(TAG));
  } else {
    if (nl)
      line[len++] = '\n'; /* over the '\n' read */
    relay(v, s, line, len);
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
    fflush(s->out);
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
  /* now: in order with the other stream when both go to one file */
  fflush(s->out);
  return 0;
}

/* Are fds a and b the same file (2>&1, one terminal)? */
static int same_file(int a, int b)
{
  struct stat x, y;
  return fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* A cpulist after "Cpus_allowed_list:" in a status file; NULL if none. */
static hwloc_bitmap_t status_cpus(const char *path)
{
  char line[4096];
  hwloc_bitmap_t set = NULL;
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  while (fgets(line, sizeof(line), f))
    if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
      char *l = line + 18;
      l += strspn(l, " \t");
      l[strcspn(l, "\n")] = '\0';
      if ((set = hwloc_bitmap_alloc()) &&
          omp_ext_parse_cpulist(l, OMP_EXT_CPULIST_ANY, set, NULL) != OMP_EXT_UINT_OK) {
        hwloc_bitmap_free(set);
        set = NULL;
      }
      break;
    }
  fclose(f);
  return set;
}

/* Once the program has ended, before it is reaped: its initial thread's
 * Cpus_allowed_list (a zombie's /proc/PID/status still has it). */
static void read_at_exit(struct verify *v, pid_t pid)
{
  siginfo_t si;
  char path[64];
  while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
    if (errno != EINTR)
      return;
  snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
  v->at_exit = status_cpus(path);
}


/* Sample every thread of the program: its Cpus_allowed_list now, the
 * kernel's answer (not the runtime's record), kept per thread id. */
static void sample_tasks(struct verify *v, pid_t pid)
{
  char path[96];
  DIR *d;
  struct dirent *e;
  snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
  if (!(d = opendir(path)))
    return;
  while ((e = readdir(d)) != NULL) {
    long tid = strtol(e->d_name, NULL, 10);
    hwloc_bitmap_t set;
    unsigned i;
    if (tid <= 0)
      continue;
    snprintf(path, sizeof(path), "/proc/%ld/task/%ld/status", (long)pid, tid);
    if (!(set = status_cpus(path)))
      continue;
    for (i = 0; i < v->ntasks && v->tasks[i].tid != tid; i++)
      ;
    if (i < v->ntasks) {
      v->tasks[i].seen = hwloc_bitmap_isequal(v->tasks[i].last, set) ? v->tasks[i].seen + 1 : 1;
      hwloc_bitmap_free(v->tasks[i].last);
      v->tasks[i].last = set;
    } else {
      struct verify_task *n = realloc(v->tasks, (v->ntasks + 1) * sizeof(*n));
      if (!n) {
        hwloc_bitmap_free(set);
        continue;
      }
      v->tasks = n;
      v->tasks[v->ntasks++] = (struct verify_task){tid, set, 1};
    }
  }
  closedir(d);
}

static int by_tid(const void *a, const void *b)
{
  const struct verify_task *x = a, *y = b;
  return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Each level-1 thread's real affinity: thread 0 is the initial thread (its
 * id is the process's; its affinity when the program ended, where known:
 * under load every sample may predate the runtime's binding); a thread whose line gave its kernel id (libomp's
 * %i) is that task; otherwise (libgomp), when the program had exactly the
 * team's threads, the workers by ascending id (the runtime starts them in
 * thread-number order).  A nested team or other threads: unknown; fewer
 * threads seen than the team has (it ended first, or the lines were not a
 * runtime's): none. */
static void assign_real(struct verify *v, pid_t pid)
{
  unsigned t, i, w = 0;
  int by_id = 1;
  if (v->ntasks < v->nthreads)
    return; /* the team's threads were never all seen: nothing to tell */
  qsort(v->tasks, v->ntasks, sizeof(*v->tasks), by_tid);
  for (t = 0; t < v->nthreads; t++)
    by_id &= t == 0 || v->rep[t].tid > 0;
  for (t = 0; t < v->nthreads; t++) {
    long want = t == 0 ? (long)pid : v->rep[t].tid;
    if (!want && (by_id || v->ntasks != v->nthreads || v->nnested))
      continue;
    for (i = 0; i < v->ntasks; i++) {
      if (want && v->tasks[i].tid == want)
        break;
      if (!want && v->tasks[i].tid != (long)pid && w++ == t - 1)
        break;
    }
    if (!want)
      w = 0;
    if (t == 0 && v->at_exit) /* (its samples may all predate the runtime's binding) */
      v->rep[t].real = v->at_exit;
    else if (i < v->ntasks && v->tasks[i].seen >= 2) /* settled, 5 ms apart at least */
      v->rep[t].real = v->tasks[i].last;
  }
}

/* The program's run: its two streams, read while it runs, and the 5 ms
 * clock of the samples of its threads. */
struct watch {
  struct verify *v;
  struct stream s[2];
  int child_out, child_err; /* the pipes' write ends, the child's: closed after the fork */
  struct timespec next;     /* the next sample */
  const sigset_t *mask;     /* verify's signal mask before the run: the child's */
  pid_t pid;                /* the program, once it has ended */
};

/* Read what is ready on the streams, waiting at most ms milliseconds. */
static void pump_ready(struct watch *x, int ms)
{
  struct pollfd fds[2];
  unsigned i;
  int ready;
  for (i = 0; i < 2; i++)
    fds[i] = (struct pollfd){x->s[i].fd, POLLIN, 0};
  if ((ready = poll(fds, 2, ms)) <= 0)
    return;
  for (i = 0; i < 2; i++)
    if (x->s[i].fd >= 0 && fds[i].revents && pump(x->v, &x->s[i]) < 0) {
      close(x->s[i].fd);
      x->s[i].fd = -1;
    }
}

/* sweep_spawn's watch: the program's output relayed as it comes, its
 * threads' real affinity sampled every 5 ms (at most that often however
 * much it writes). */
static void watch_run(void *ctx, pid_t pid, double max_s)
{
  struct watch *x = ctx;
  struct timespec now;
  long ms;
  if (x->child_out >= 0) { /* (the first call, right after the fork) */
    close(x->child_out), close(x->child_err);
    x->child_out = x->child_err = -1;
  }
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (now.tv_sec > x->next.tv_sec ||
      (now.tv_sec == x->next.tv_sec && now.tv_nsec >= x->next.tv_nsec)) {
    sample_tasks(x->v, pid);
    x->next = now;
    if ((x->next.tv_nsec += 5000000L) >= 1000000000L) {
      x->next.tv_nsec -= 1000000000L;
      x->next.tv_sec++;
    }
  }
  ms = (long)(max_s * 1000);
  pump_ready(x, ms > 5 ? 5 : (int)ms);
}

/* sweep_spawn's ended: the leader is a zombie, its status file still there. */
static void ended_run(void *ctx, pid_t pid)
{
  struct watch *x = ctx;
  read_at_exit(x->v, pid);
  x->pid = pid;
}

/* After the run (its processes killed and reaped): what is left in the
 * pipes, to their end (a process stuck in the kernel that still holds one
 * open: 100 ms without a byte ends the wait). */
static void drain(struct watch *x)
{
  unsigned i, quiet = 0;
  while ((x->s[0].fd >= 0 || x->s[1].fd >= 0) && quiet < 20) {
    int open_before = (x->s[0].fd >= 0) + (x->s[1].fd >= 0);
    unsigned long relayed = x->v->relayed;
    pump_ready(x, 5);
    quiet = relayed == x->v->relayed && open_before == (x->s[0].fd >= 0) + (x->s[1].fd >= 0)
              ? quiet + 1 : 0;
  }
  for (i = 0; i < 2; i++)
    if (x->s[i].fd >= 0) {
      if (x->s[i].len) /* (a last line without its newline) */
        flush_line(x->v, &x->s[i], x->s[i].buf, x->s[i].len, 0);
      fflush(x->s[i].out);
      close(x->s[i].fd);
    }
}

/* In the child: the signals verify catches back to their defaults, its
 * signal mask as before the run. */
static void child_setup(void *ctx)
{
  sweep_signals_default();
  sigprocmask(SIG_SETMASK, ((const struct watch *)ctx)->mask, NULL);
}

/* Run argv with the current environment, isolated as tune's runs are
 * (sweep_spawn: its own process group, killed whole when it ends or a
 * grace period after SIGINT, SIGTERM or SIGHUP reached verify, which
 * forwards them; daemons it left killed too); read both streams while it
 * runs.  0 (*w: how it ended; w->exec_errno: it could not be run), or an
 * errno. */
static int run_program(struct verify *v, char **argv, struct sweep_spawned *w)
{
  int po[2], pe[2], got, err;
  struct watch x;
  struct sweep_spawn s;
  sigset_t set, old;
  memset(&x, 0, sizeof(x));
  if (pipe2(po, O_CLOEXEC) < 0)
    return errno;
  if (pipe2(pe, O_CLOEXEC) < 0) {
    err = errno;
    close(po[0]), close(po[1]);
    return err;
  }
  x.v = v;
  x.s[0] = (struct stream){po[0], stdout, NULL, 0, 1, 0};
  x.s[1] = (struct stream){pe[0], stderr, NULL, 0, 1, 0};
  x.child_out = po[1], x.child_err = pe[1];
  memset(&s, 0, sizeof(s));
  x.mask = &old;
  s.argv = argv, s.search = 1, s.setup = child_setup, s.ctx = &x;
  s.in = -1, s.out = po[1], s.err = pe[1];
  s.group = 1, s.wake = &set, s.interrupt = sweep_take_signal, s.grace_s = VERIFY_GRACE_S;
  s.watch = watch_run, s.ended = ended_run;
  sweep_signals_wake(&set);
  sigprocmask(SIG_BLOCK, &set, &old);
  got = sweep_spawn(&s, w);
  err = errno;
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (x.child_out >= 0) /* (not started: the watch never ran) */
    close(x.child_out), close(x.child_err);
  if (got == 0) {
    drain(&x);
    assign_real(v, x.pid); /* (with every report read: libomp's carry thread ids) */
  } else {
    close(x.s[0].fd), close(x.s[1].fd);
  }
  free(x.s[0].buf);
  free(x.s[1].buf);
  if (got != 0)
    return err ? err : EIO;
  /* The report goes on stdout: on a line of its own after the program's
   * output there, or after its stderr when that is the same file and
   * written last. */
  if (same_file(1, 2) && x.s[1].seq > x.s[0].seq)
    v->newline = !x.s[1].bol;
  else
    v->newline = !x.s[0].bol;
  return 0;
}

/* Close binding (OpenMP 5.2 §10.1.3), place of thread t of T on P places.
 * T <= P: place t.  T > P, as the runtimes really do it:
 *  - the specification and libomp: consecutive threads share a place, the
 *    first T mod P places take one more;
 *  - libgomp 12 (team.c, gomp_team_start: s = T / P threads per place,
 *    then the T mod P threads left one per place from the first): 3
 *    threads on {0},{1} are 0 -> {0}, 1 -> {1}, 2 -> {0}. */
static unsigned close_place(unsigned t, unsigned T, unsigned P, enum verify_rule rule)
{
  unsigned s = T / P, r = T % P;
  if (T <= P)
    return t;
  if (rule == verify_rule_libgomp)
    return t < s * P ? t / s : t - s * P;
  return t < r * (s + 1) ? t / (s + 1) : r + (t - r * (s + 1)) / s;
}

static int intended_close(struct verify *v, const omp_ext_placelist_t *l, enum verify_rule rule)
{
  unsigned t;
  for (t = 0; t < v->nthreads; t++) {
    hwloc_bitmap_free(v->intended[t]);
    v->intended[t] = hwloc_bitmap_dup(l->places[close_place(t, v->nthreads, l->nplaces, rule)]);
    if (!v->intended[t])
      return omp_ext_err_nomem;
  }
  v->rule = v->nthreads > l->nplaces ? rule : verify_rule_one_each;
  return omp_ext_success;
}

/* Level-1 threads whose report differs from the intended place. */
static unsigned misplaced(const struct verify *v)
{
  unsigned t, n = 0;
  for (t = 0; t < v->nthreads; t++) {
    hwloc_bitmap_t a = v->rep[t].actual ? v->rep[t].actual : v->rep[t].led;
    n += a && !hwloc_bitmap_isequal(a, v->intended[t]);
  }
  return n;
}

/* More threads than places: the program's runtime decides which threads
 * share a place, and verify does not know which runtime that is; take the
 * rule its threads followed (libomp's, the specification's, unless
 * libgomp's fits better). */
static int choose_rule(struct verify *v, const omp_ext_placelist_t *l)
{
  unsigned spec;
  int err;
  if (v->nthreads <= l->nplaces)
    return omp_ext_success;
  spec = misplaced(v);
  if ((err = intended_close(v, l, verify_rule_libgomp)) != 0)
    return err;
  return misplaced(v) < spec ? omp_ext_success : intended_close(v, l, verify_rule_spec);
}

/* The intended places: POLICY [N], or OMP_PLACES as set; sets the
 * variables the program will see. */
static int plan(struct htp_ctx *ctx, int argc, char **argv, omp_ext_placelist_t **list,
                unsigned *nthreads)
{
  omp_ext_parse_error_t perr = {0, NULL};
  struct htp_policy policy = {0};
  omp_ext_pu_t *order = NULL;
  omp_ext_topo_t *topo;
  const char *places = getenv("OMP_PLACES"), *nth = getenv("OMP_NUM_THREADS");
  char *text = NULL, num[32];
  unsigned n;
  int status = HTP_EXIT_OK, err;
  if (argc > 0) {
    if ((status = htp_policy_parse(argc, argv, &policy)) != 0 ||
        (status = htp_policy_order(ctx, &policy, &order)) != 0)
      return status;
    n = policy.n;
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
  /* Every place outside the allowed CPUs: the runtimes drop them all
   * (libgomp: "None of the places contain usable logical CPUs") and the
   * program runs on places of their choosing: a usage error, as
   * htplaces-verify(1) says, and the program is not run. */
  if (htp_check_places_left(topo, *list) == 0) {
    char *allowed = NULL;
    omp_ext_placelist_destroy(*list);
    hwloc_bitmap_list_asprintf(&allowed, omp_ext_topo_allowed(topo));
    status = htp_error(HTP_EXIT_USAGE, "OMP_PLACES '%s' has no usable place: none of its CPUs "
                       "is on this machine and allowed; allowed CPUs: %s", places,
                       allowed ? allowed : "?");
    free(allowed);
    return status;
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
  setenv("OMP_AFFINITY_FORMAT", TAG "level=%L outer=%a thread=%n tid=%i affinity=%A", 1);
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
  unsigned t, k;
  for (t = 0; t < v->nthreads; t++) {
    hwloc_bitmap_free(v->intended ? v->intended[t] : NULL);
    hwloc_bitmap_free(v->rep ? v->rep[t].actual : NULL);
    hwloc_bitmap_free(v->rep ? v->rep[t].led : NULL);
    for (k = 0; v->rep && k < v->rep[t].nlater; k++)
      hwloc_bitmap_free(v->rep[t].later[k]);
    free(v->rep ? v->rep[t].later : NULL);
  }
  for (t = 0; t < v->nnested; t++)
    hwloc_bitmap_free(v->nested[t].actual);
  for (t = 0; t < v->ntasks; t++)
    hwloc_bitmap_free(v->tasks[t].last);
  free(v->tasks);
  free(v->intended);
  free(v->rep);
  free(v->nested);
  hwloc_bitmap_free(v->at_exit);
}

/* The program could not be run (w->exec_errno), or was interrupted: the
 * line; else 0. */
static int run_failed(const struct sweep_spawned *w, const char *program)
{
  int err = w->exec_errno;
  if (err) /* as exec and the shell: 127 not found, 126 found but not runnable */
    return htp_error(err == ENOENT ? 127 : err == EACCES || err == EISDIR || err == ENOEXEC ? 126
                                                                                       : HTP_EXIT_FAIL,
                     "cannot run '%s': %s", program, strerror(err));
  if (w->interrupted)
    return htp_error(128 + w->interrupted, "verify: interrupted by %s: forwarded to the program, "
                     "its process group killed (at the latest %.0f s later)",
                     sweep_signal_name(w->interrupted), VERIFY_GRACE_S);
  return 0;
}

/* Run the program and report; the signals verify catches while it runs are
 * put back after.  Interrupted: verify ends by the same signal. */
static int run_and_report(struct htp_ctx *ctx, struct verify *v, const omp_ext_placelist_t *list,
                          char **prog)
{
  struct sweep_spawned w;
  int status, err, sig;
  htp_program_env(ctx);
  sweep_signals_catch();
  err = run_program(v, prog, &w);
  sig = sweep_signal_caught();
  sweep_signals_restore();
  if (err)
    status = htp_error(HTP_EXIT_FAIL, "cannot run '%s': %s", prog[0], strerror(err));
  else if ((status = run_failed(&w, prog[0])) != 0)
    ;
  else if (sig) /* (after the program ended on its own) */
    status = htp_error(128 + sig, "verify: interrupted by %s", sweep_signal_name(sig));
  else if (claim_torn(v), choose_rule(v, list) != 0)
    return htp_error(HTP_EXIT_FAIL, "out of memory");
  else
    return ctx->rank.launcher ? verify_ranks_report(ctx, v, prog, w.status, w.stopped)
                              : verify_report(v, prog, w.status, w.stopped);
  if (status > 128 && status == 128 + sig) { /* end as the signal says */
    fflush(NULL);
    signal(sig, SIG_DFL);
    raise(sig);
  }
  return status;
}

/* The options of htplaces verify (main.c's table: htplaces list options). */
const struct option htp_verify_longopts[] = {HTP_COMMON_LONGOPTS, {0}};

int htp_cmd_verify(struct htp_ctx *ctx, int argc, char **argv)
{
  omp_ext_placelist_t *list = NULL;
  struct verify v = {0};
  int c, status, cut = 0;
  if ((status = split_program(argc, argv, &cut)) != 0)
    return status;
  optind = 0;
  while ((c = getopt_long(cut, argv, ":" HTP_COMMON_SHORTOPTS, htp_verify_longopts, NULL)) != -1)
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
  if (!v.intended || !v.rep || intended_close(&v, list, verify_rule_spec) != 0)
    status = htp_error(HTP_EXIT_FAIL, "out of memory");
  else
    status = run_and_report(ctx, &v, list, argv + cut + 1);
  omp_ext_placelist_destroy(list);
  free_verify(&v);
  return status;
}
