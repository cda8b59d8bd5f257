/* crash.h - what happens when asymu itself dies (crash.c). */
#ifndef ASYMU_CRASH_H
#define ASYMU_CRASH_H

#include <stdbool.h>

struct machine;

/* asymu's own exit status when a fatal host signal ended it. */
#define EXIT_HOST_CRASH 125

/* Reports a fatal host signal (and exits) from now on. */
void crash_guard_start(struct machine *m);
void crash_guard_stop(void);
/* Forks the janitor that removes tmp (NULL: none) and unmounts mount
 * (NULL: none) once asymu is gone without doing it itself. */
int crash_janitor_start(const char *tmp, const char *mount);
/* Tells the janitor whether the FUSE export is mounted now. */
void crash_janitor_mounted(bool mounted);

#endif
