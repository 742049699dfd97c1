/*
 * The sweep engine's signals (sweep.h): SIGINT, SIGTERM and SIGHUP sent to
 * a tool that runs a program in an isolated child (htplaces tune, htplaces
 * verify) are caught, unless they were ignored when it started (under
 * nohup they stay ignored, for the program too); the handler only records
 * the first one.  While a run goes on they are blocked and taken by
 * sigtimedwait() in sweep_spawn's wait (sweep_take_signal), which forwards
 * the signal to the run's process group: none is missed between a check
 * and the wait.
 *
 * Global state, as signal dispositions are: the dispositions saved, which
 * signals are caught, and the first signal caught (a sig_atomic_t, the one
 * thing the handler writes).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>

#include "sweep.h"

static const int forwarded[3] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction saved[3];
static int catching[3];
static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
  if (!caught)
    caught = sig;
}

void sweep_signals_catch(void)
{
  struct sigaction sa;
  unsigned i;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART; /* (the caller's reads and waits between runs go on) */
  sigemptyset(&sa.sa_mask);
  for (i = 0; i < 3; i++)
    catching[i] = sigaction(forwarded[i], NULL, &saved[i]) == 0 &&
                  saved[i].sa_handler != SIG_IGN && sigaction(forwarded[i], &sa, NULL) == 0;
}

void sweep_signals_no_restart(void)
{
  struct sigaction sa;
  unsigned i;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (i = 0; i < 3; i++)
    if (catching[i])
      sigaction(forwarded[i], &sa, NULL);
}

void sweep_signals_restore(void)
{
  unsigned i;
  for (i = 0; i < 3; i++)
    if (catching[i]) {
      sigaction(forwarded[i], &saved[i], NULL);
      catching[i] = 0;
    }
}

int sweep_signal_caught(void)
{
  return (int)caught;
}

void sweep_signals_wake(sigset_t *set)
{
  unsigned i;
  sigemptyset(set);
  sigaddset(set, SIGCHLD);
  for (i = 0; i < 3; i++)
    if (catching[i])
      sigaddset(set, forwarded[i]);
}

void sweep_signals_default(void)
{
  unsigned i;
  for (i = 0; i < 3; i++)
    if (catching[i])
      signal(forwarded[i], SIG_DFL);
}

int sweep_take_signal(void *ctx, int sig)
{
  (void)ctx;
  if (sig > 0 && !caught)
    caught = sig;
  return (int)caught;
}

const char *sweep_signal_name(int sig)
{
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}
