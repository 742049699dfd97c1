/*
 * Private to the online tuner: a region's state (auto.c), shared with its
 * learnt state's writer and reader (auto_state.c).
 */
#ifndef OMP_EXT_AUTO_INT_H
#define OMP_EXT_AUTO_INT_H

#include "private/region_int.h"

#define AUTO_WARM 3
#define AUTO_MAXC OMP_EXT_PLAN_MAXC
#define AUTO_MAXSAMP OMP_EXT_PLAN_MAXSAMP
#define AUTO_WINDOW 8
/* Learnt (OMP_EXT_LEARN): an exploration spans at most this many runs; at
 * the end of the last it settles on what it measured. */
#define AUTO_LEARN_RUNS 3

enum auto_phase { AUTO_PHASE_WARM, AUTO_PHASE_EXPLORE, AUTO_PHASE_SETTLED };
enum auto_learnt { AUTO_LEARNT_NONE, AUTO_LEARNT_RESTORED, AUTO_LEARNT_REFUSED };

struct omp_ext_auto {
  const void *owner; /* the tuning root thread (its TLS address) */
  const struct omp_ext_cands *set; /* the team's candidates it learns for (atomic) */
  const struct omp_ext_plan_line *learnt; /* the learnt state of its set's team, if any */
  /* its learnt states, one per team it ran with (OMP_EXT_LEARN) */
  const struct omp_ext_plan_line *lines[OMP_EXT_LEARN_TEAMS];
  unsigned nlines;
  unsigned long n;   /* owner's instances since the set was chosen */
  unsigned long run_n; /* owner's instances in this run */
  enum auto_phase phase;
  unsigned step;     /* explore: instances run so far in this exploration */
  int best;          /* the settled candidate (SETTLED, atomic for others) */
  double ref;        /* drift reference (0: not yet) */
  double s[AUTO_MAXC][AUTO_MAXSAMP]; /* explore samples (objective) */
  unsigned char sw[AUTO_MAXC][AUTO_MAXSAMP]; /* the sample followed a switch */
  unsigned char dropped[AUTO_MAXC];  /* clearly worse in the first round */
  unsigned long follows;   /* owner's instances that followed another region */
  unsigned drifted;        /* consecutive windows out of the band */
  unsigned block, nsamp;             /* this region's exploration shape */
  double warm[AUTO_WARM];            /* warm-up times (s) */
  unsigned nwarm;
  double med[AUTO_MAXC];            /* the last exploration's costs (NAN: not run) */
  double window[AUTO_WINDOW];
  unsigned nwindow;
  unsigned long explored;  /* instances spent exploring, in all */
  unsigned reexplores;
  int have_med; /* med[] holds an exploration's result */
  int drop_done; /* the first round's drop decided */
  unsigned long early_drops; /* candidates dropped after their first samples */
  unsigned long peer_skips;  /* candidates not run: similar regions dropped them */
  unsigned char peer_skipped[AUTO_MAXC]; /* in this exploration; not yet checked */
  int no_peers;              /* a peers' verdict was wrong here: explore alone */
  int probe;                 /* settled: the candidate checked now (-1: none) */
  unsigned long settled_at;  /* n when it settled */
  enum auto_learnt learnt_as; /* what became of its learnt state */
  double xref;               /* restored settled: its expected cost (0: none) */
  unsigned xdrift;           /* runs in a row whose first instance was out of band */
  int xcheck;                /* restored settled: instances until the one checked
                                (2: the first is skipped, 1: this one, 0: done) */
  double xfirst;             /* the run's first instance, when the second is checked */
  unsigned xruns;            /* earlier runs its exploration spanned (learnt) */
};


/* auto_state.c: region \p a starts from its learnt state (a->learnt) on
 * the candidates a->set; 0, or -1 when the state does not fit them (it is
 * then learnt afresh). */
OMP_EXT_HIDDEN int omp_ext_auto_restore(struct omp_ext_auto *a);

/* auto_state.c: the THREADS of the region's state line (what it runs
 * now: its settled choice, else its base); 0 when it has none. */
OMP_EXT_HIDDEN unsigned omp_ext_auto_state_threads(const struct omp_ext_auto *a);

/* auto.c: the end of a learning run (learn.c, before the state is
 * written): an exploration that has spanned AUTO_LEARN_RUNS runs settles on
 * the candidate its samples so far favour (the base unless another is
 * clearly cheaper).  1 when it settled so, else 0. */
OMP_EXT_HIDDEN int omp_ext_auto_learnt_end(struct omp_ext_auto *a);

#endif /* OMP_EXT_AUTO_INT_H */
