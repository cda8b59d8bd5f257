/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crash.h - what happens when asymu itself dies (crash.c). */
#ifndef ASYMU_CRASH_H
#define ASYMU_CRASH_H

struct machine;

/* asymu's own exit status when a fatal host signal ended it. */
#define EXIT_HOST_CRASH 125

/* Reports a fatal host signal (and exits) from now on. */
void crash_guard_start(struct machine *m);
void crash_guard_stop(void);
/* What the janitor cleans up: the guest's private host directories (/tmp,
 * /dev/shm, a scenario's programs; NULL or "": none or kept), the control
 * socket (--control, if a socket; NULL: none) and the FUSE mount point
 * (NULL: none). */
struct janitor_paths {
    const char *dirs[3];
    const char *control;
    const char *mount;
};
/* Forks the janitor that cleans up p when asked or once asymu is gone. */
int crash_janitor_start(const struct janitor_paths *p);
/* Tells the janitor that the FUSE export is mounted now. */
void crash_janitor_mounted(void);
/* Asks the janitor to clean up now and waits until it has: 0, or a
 * negative errno when there is no janitor or it did not answer. Once. */
int crash_janitor_clean(void);

#endif
