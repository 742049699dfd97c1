/*
 * htplaces verify: what the program's threads reported (verify.c) and the
 * report printed from it (verify_report.c).  verify.c calls the report;
 * the report reads only this data (no call back into verify.c).
 */
#ifndef HTPLACES_VERIFY_H
#define HTPLACES_VERIFY_H

#include <hwloc.h>

/* A thread of the outermost team (nesting level 1). */
struct verify_thread {
  hwloc_bitmap_t actual; /* first report; NULL if none */
  /* Later reports that differ from the first, in order: at most one per
   * level-1 thread (more, or no memory: overflow).  Thread 0's can be other
   * threads' lines read part-way (claim_torn() in verify.c); any left after
   * that means the thread moved. */
  hwloc_bitmap_t *later;
  unsigned nlater;
  int overflow;
  /* A level-1 line numbered thread 0 was this thread's (claim_torn()). */
  int torn;
  /* First report as thread 0 of a level-2 team it leads: the same OS
   * thread (OpenMP: the encountering thread is the new team's primary).
   * Used only when the level-1 report is missing: libgomp 12 prints a
   * reused pool thread's line from its live state (team.c reads
   * pool->threads[i]->ts after releasing it), which can already be the
   * nested team's. */
  hwloc_bitmap_t led;
  /* The OS thread id the runtime gave (%i: libomp prints the kernel's
   * thread id; libgomp a pthread_t, not kept): 0 if unknown. */
  long tid;
  /* Where the thread really was: its last Cpus_allowed_list sampled from
   * /proc/PID/task/TID/status while the program ran (owned by tasks[]);
   * NULL if not known. */
  hwloc_const_bitmap_t real;
};

/* A thread of the program as sampled from /proc/PID/task. */
struct verify_task {
  long tid;
  hwloc_bitmap_t last; /* its last Cpus_allowed_list */
  unsigned seen;       /* consecutive samples that found last: 2 or more is
                          a settled affinity, not a new thread's inherited one */
};

/* A report from a nested team (level >= 2), once per distinct line. */
struct verify_nested {
  unsigned level, outer, thread; /* %L, %a (the thread number one level up), %n */
  hwloc_bitmap_t actual;
};

/* Which threads share a place when there are more threads than places. */
enum verify_rule {
  verify_rule_one_each, /* no more threads than places: thread t on place t */
  verify_rule_spec,     /* OpenMP's close (libomp): the first T mod P places one more */
  verify_rule_libgomp,  /* libgomp: T / P per place, then the rest one each from place 0 */
};

struct verify {
  unsigned nthreads;
  enum verify_rule rule; /* how the intended places were assigned */
  hwloc_bitmap_t *intended; /* per level-1 thread */
  struct verify_thread *rep;
  unsigned extra;    /* level-1 reports from threads >= nthreads */
  unsigned nreports; /* level-1 reports */
  struct verify_nested *nested;
  unsigned nnested;
  /* The initial thread's affinity when the program ended (Cpus_allowed_list
   * of the zombie, /proc/PID/status); NULL if it could not be read.  Thread
   * 0's only evidence when a one-thread team reports nothing (libgomp). */
  hwloc_bitmap_t at_exit;
  /* The program's output relayed to where the report goes did not end a
   * line: the report starts with a newline. */
  int newline;
  unsigned long relayed; /* pass-throughs so far: orders the two streams */
  /* The program's threads, sampled while it ran (sample_tasks()). */
  struct verify_task *tasks;
  unsigned ntasks;
};

/* Print the report on stdout (sorts v->nested); returns verify's exit status: 0 every
 * level-1 thread where intended and the program exited 0; the program's
 * status when it failed (128 + N when killed by signal N); 1 otherwise.
 * wstatus: the program's wait status; stopped: SIGTTIN or SIGTTOU when it
 * stopped on the terminal and was killed, else 0. */
int verify_report(struct verify *v, char **prog, int wstatus, int stopped);

#endif
