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

/** Number of '\n' in s. */
unsigned count_lines(const char *s);

#endif
