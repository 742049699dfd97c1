/*
 * Private: the plan format, read and checked whole in one place
 * (plan_parse.c), for the plan applied to regions (plan.c), auto's learnt
 * state (learn.c, auto.c) and, through omp_ext_plan_check(), htplaces.
 *
 *   omp_ext_plan 2
 *   machine PUS CORES PACKAGES SMT ALLOWED    the machine it was made on
 *   build MODULE ID                           a module's build (gnu:HEX, stat:SIZE:MTIME)
 *   team keep|free                            free: team sizes may change
 *   wait passive|active                       the OMP_WAIT_POLICY it was measured with
 *   learnt AUTO                               auto's state, learnt under that value
 *   run SECONDS                               a learnt state's run: its first region to exit
 *   default THREADS PLACES [LABEL]
 *   region MODULE OFFSET THREADS PLACES [LABEL [KEY=VALUE ...]]
 *
 * Version 1 has the default and region lines only, without LABEL.  See
 * plan_parse.c for every field's rule.
 */
#ifndef OMP_EXT_PLAN_INT_H
#define OMP_EXT_PLAN_INT_H

#include <stddef.h>
#include <stdio.h>

#include "omp_ext.h"
#include "private/runtime.h"

/* The most bytes of a plan (file or text), of one line, of one state's
 * candidates and samples (auto's AUTO_MAXC, AUTO_MAXSAMP). */
#define OMP_EXT_PLAN_MAX_BYTES (1UL << 20)
#define OMP_EXT_PLAN_MAX_LINE 65536
#define OMP_EXT_PLAN_MAXC 24
#define OMP_EXT_PLAN_MAXSAMP 48
/* A state's "run" lines at most: one per team size. */
#define OMP_EXT_PLAN_MAXRUNS 8
#define OMP_EXT_PLAN_LABEL 48

/* A region's learnt state (the KEY=VALUE fields of its line). */
struct omp_ext_plan_state {
  int team_free;          /* team=free:T (1) or keep:T (0) */
  unsigned team;          /* T */
  int phase;              /* phase=warm|explore|settled: 0, 1, 2 */
  unsigned long n;        /* n=: instances in the run that wrote it */
  unsigned step, block, nsamp; /* step=, block=, nsamp=: the exploration's shape */
  double ref;             /* ref=: the settled choice's expected cost (0: none) */
  unsigned drift;         /* drift=: runs in a row out of its band */
  unsigned reexplores;    /* reexplores= */
  unsigned runs;          /* runs=: the runs its exploration spanned (0: not given) */
  unsigned ncand;         /* c= fields, in order */
  struct omp_ext_plan_cand {
    char label[OMP_EXT_PLAN_LABEL];
    int dropped;          /* drop=LABEL */
    double s[OMP_EXT_PLAN_MAXSAMP];          /* NAN: none; INFINITY: skipped */
    unsigned char sw[OMP_EXT_PLAN_MAXSAMP];  /* the sample followed a switch */
  } cand[OMP_EXT_PLAN_MAXC];
};

enum { OMP_EXT_PLAN_DEFAULT, OMP_EXT_PLAN_REGION };

struct omp_ext_plan_line {
  int kind;                       /* OMP_EXT_PLAN_DEFAULT or _REGION */
  unsigned lineno;
  char module[256];               /* region: the file name, decoded */
  unsigned long offset;
  unsigned threads;               /* 0: the program's team */
  omp_ext_placelist_t *places;    /* NULL: unbound ("-") */
  char label[OMP_EXT_PLAN_LABEL]; /* "spn:2"; "" when not given */
  struct omp_ext_plan_state *state; /* learnt state, or NULL */
};

struct omp_ext_plan_build {
  char module[256];
  char id[96];
};

struct omp_ext_plan {
  char source[512];               /* "'FILE'" or "the text", for messages */
  unsigned version;
  int team_free;                  /* team free */
  int wait;                       /* 0: not given; 1 passive; 2 active */
  int has_machine;
  unsigned mpus, mcores, mpackages, msmt;
  char mallowed[256];             /* the allowed PUs, a cpulist */
  char learnt[32];                /* the auto value of a learnt state, or "" */
  struct omp_ext_plan_run {       /* run [TEAM] S: a learnt state's last run at */
    unsigned team;                /* team TEAM (0: any, an older state), seconds */
    double s;                     /* from its first region to its exit */
  } runs[OMP_EXT_PLAN_MAXRUNS];
  unsigned nruns;
  struct omp_ext_plan_line *lines;
  unsigned nlines;
  struct omp_ext_plan_build *builds;
  unsigned nbuilds;
};

/* Is \p value (an OMP_EXT_PLAN value) the plan text itself, not a path? */
OMP_EXT_HIDDEN int omp_ext_plan_is_text(const char *value);


/* The build identity of the loaded object named \p module (file name):
 * "gnu:HEX" (its ELF build-id note), else "stat:SIZE:MTIME" of its file;
 * 0, or -1 when no loaded object has that name. */
OMP_EXT_HIDDEN int omp_ext_plan_build_id(const char *module, char *id, size_t len);

/* What the tools call of plans (htplaces exec: the learnt state): */
#include "private/tools_plan.h"

#endif /* OMP_EXT_PLAN_INT_H */
