/*
 * htplaces verify's report: the command, the outermost team against the
 * intended places, the nested teams as reported, and one verdict line.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "htplaces.h"
#include "verify_int.h"

/* Whether level-1 thread t moved: a later report differed (after
 * verify.c's claim_torn()). */
static int moved(const struct verify *v, unsigned t)
{
  return v->rep[t].nlater > 0 || v->rep[t].overflow;
}

/* Thread 0 of a one-thread team that reported nothing: its affinity when
 * the program ended, if known. */
static int use_at_exit(const struct verify *v)
{
  return v->nthreads == 1 && v->nreports == 0 && v->at_exit;
}

/* The level-1 table; returns the number of threads not "ok". */
static unsigned print_table(const struct verify *v)
{
  unsigned t, bad = 0, led = 0, torn = 0, really = 0;
  printf("thread  intended PUs    actual affinity  verdict\n");
  for (t = 0; t < v->nthreads; t++) {
    hwloc_const_bitmap_t actual = v->rep[t].actual;
    char *want, *got;
    const char *verdict;
    if (!actual && t == 0 && use_at_exit(v))
      actual = v->at_exit;
    if (!actual && v->rep[t].led) {
      actual = v->rep[t].led;
      led++;
      torn += v->rep[t].torn;
    }
    want = htp_cpuset_text(v->intended[t]);
    if (v->rep[t].real && !hwloc_bitmap_isequal(v->rep[t].real, v->intended[t]))
      actual = v->rep[t].real, really++; /* the kernel's answer wins */
    got = htp_cpuset_text(actual);
    if (!actual)
      verdict = "NO REPORT";
    else if (!hwloc_bitmap_isequal(actual, v->intended[t]))
      verdict = actual == v->rep[t].real ? "MISMATCH (real affinity)" : "MISMATCH";
    else if (moved(v, t))
      verdict = "MOVED (a later region differs)";
    else
      verdict = "ok";
    bad += strcmp(verdict, "ok") != 0;
    printf("%6u  %-14s  %-15s  %s\n", t, want ? want : "?", got ? got : "-", verdict);
    free(want);
    free(got);
  }
  if (really)
    printf("%u thread(s) ran elsewhere than the runtime's line says: the affinity shown is the "
           "kernel's (/proc/PID/task/TID/status, sampled while the program ran), moved by the "
           "program, a library or taskset after the runtime placed it\n", really);
  if (use_at_exit(v))
    printf("thread 0 reported nothing (libgomp displays no team of one thread): its affinity "
           "is the initial thread's when the program ended (/proc/PID/status)\n");
  if (led)
    printf("%u thread(s) had no level-1 line: their affinity is from the nested team each "
           "leads (level 2, thread 0, the same thread); libgomp prints a reused thread's line "
           "from its live state, which can already be the nested team's\n", led);
  if (torn)
    printf("%u line(s) numbered level 1, thread 0 carried such a thread's affinity: libgomp "
           "read its state part-way into the nested team (thread number 0, level still 1); "
           "counted as that thread's\n", torn);
  if (v->rule == verify_rule_libgomp)
    printf("more threads than places: libgomp's assignment (%s per place, the rest one each "
           "from the first place)\n", "T / P");
  else if (v->rule == verify_rule_spec)
    printf("more threads than places: OpenMP's close assignment (libomp: consecutive threads "
           "share a place, the first T mod P places take one more)\n");
  if (v->extra)
    printf("%u report%s came from threads beyond the %u intended\n", v->extra,
           v->extra == 1 ? "" : "s", v->nthreads);
  return bad;
}

static int by_level_outer_thread(const void *a, const void *b)
{
  const struct verify_nested *x = a, *y = b;
  if (x->level != y->level)
    return x->level < y->level ? -1 : 1;
  if (x->outer != y->outer)
    return x->outer < y->outer ? -1 : 1;
  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  return hwloc_bitmap_compare(x->actual, y->actual);
}

/* Nested teams: what each thread reported (each distinct line once, in
 * level, outer thread, thread order), not compared with the places. */
static void print_nested(struct verify *v)
{
  unsigned i;
  if (!v->nnested)
    return;
  qsort(v->nested, v->nnested, sizeof(*v->nested), by_level_outer_thread);
  printf("nested teams (level 2 and deeper), as reported; not compared with the places:\n");
  printf("level  outer thread  thread  actual affinity\n");
  for (i = 0; i < v->nnested; i++) {
    const struct verify_nested *n = &v->nested[i];
    char *got = htp_cpuset_text(n->actual);
    printf("%5u  %12u  %6u  %s\n", n->level, n->outer, n->thread, got ? got : "?");
    free(got);
  }
}

int verify_report(struct verify *v, char **prog, int wstatus, int stopped)
{
  unsigned bad = 0;
  int status;
  char **a;
  if (v->newline)
    putchar('\n');
  printf("verify: OMP_PLACES=%s OMP_PROC_BIND=close OMP_NUM_THREADS=%s --",
         getenv("OMP_PLACES"), getenv("OMP_NUM_THREADS"));
  for (a = prog; *a; a++) {
    putchar(' ');
    htp_shell_word(stdout, *a);
  }
  putchar('\n');
  if (v->nreports == 0 && !use_at_exit(v))
    printf("no thread reported its affinity: the program ran no parallel region, its OpenMP "
           "runtime predates OpenMP 5.0 (OMP_DISPLAY_AFFINITY), or it failed first\n");
  else
    bad = print_table(v);
  print_nested(v);
  if (stopped) { /* (killed: SIGKILL) */
    printf("verify: the program stopped %s the terminal (%s) and was killed: verify runs it "
           "in a process group of its own; give its input with < FILE\n",
           stopped == SIGTTIN ? "reading" : "writing to", stopped == SIGTTIN ? "SIGTTIN" : "SIGTTOU");
    status = 128 + WTERMSIG(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    printf("verify: the program was killed by signal %d\n", WTERMSIG(wstatus));
    status = 128 + WTERMSIG(wstatus);
  } else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0) {
    printf("verify: the program failed (exit %d)\n", WEXITSTATUS(wstatus));
    status = WEXITSTATUS(wstatus);
  } else if (v->nreports == 0 && !use_at_exit(v)) {
    printf("verify: no thread reported\n");
    status = HTP_EXIT_FAIL;
  } else if (bad) {
    printf("verify: MISMATCH\n");
    status = HTP_EXIT_FAIL;
  } else {
    printf("verify: every thread is where intended\n");
    status = HTP_EXIT_OK;
  }
  if (fflush(stdout) != 0 || ferror(stdout))
    return htp_error(HTP_EXIT_FAIL, "cannot write output");
  return status;
}
