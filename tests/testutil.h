/*
 * Test helpers: run a program and capture what it prints.
 */
#ifndef OMP_EXT_TESTUTIL_H
#define OMP_EXT_TESTUTIL_H

/** What a finished program printed and how it ended. */
struct run_result {
  char *out;    /**< everything on stdout, NUL-terminated (never NULL) */
  char *err;    /**< everything on stderr, NUL-terminated (never NULL) */
  int status;   /**< exit status, or 128 + signal number */
};

/**
 * Run argv[0] (searched in PATH) with argv, after setting each "NAME=VALUE"
 * of \p env (NULL-terminated; may be NULL) in the child; "NAME=" alone
 * unsets NAME.  stdin is /dev/null.
 * \return 0, or -1 if the program could not be started.
 */
int run_capture(char *const argv[], char *const env[], struct run_result *res);

/** Free the buffers of a run_result. */
void run_free(struct run_result *res);

/**
 * Every policy's order over this machine's allowed PUs (omp_ext_order()),
 * sized from the topology: element [p * *npus + t] is the OS index of
 * thread t's PU under policy p (use POLICY_ORDER()).  Free with free().
 * \return the array, or NULL if the topology cannot be loaded.
 */
unsigned *policy_orders_new(unsigned *npus);
#define POLICY_ORDER(order, npus, p, t) ((order)[(unsigned)(p) * (npus) + (unsigned)(t)])

/** Most PUs policy_orders() handles (the fixed-size form, for test_tune
 *  only: new code uses policy_orders_new()). */
#define TEST_MAXPU 64

/**
 * policy_orders_new() into a fixed array: order[p][t].
 * \return 0, or -1 if the topology cannot be loaded or has more than
 *         TEST_MAXPU allowed PUs.
 */
int policy_orders(unsigned order[][TEST_MAXPU], unsigned *npus);

/** "taskset -c CPUS" into argv[0..2] when cpus is not NULL; returns how
 *  many arguments it wrote (3 or 0). */
unsigned taskset_prefix(char **argv, const char *cpus);

/** Number of '\n' in s. */
unsigned count_lines(const char *s);

/** The whole of file \p path, NUL-ended, malloc'd; NULL when unreadable. */
char *read_text(const char *path);

#endif
