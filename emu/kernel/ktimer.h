/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktimer.h - callbacks at virtual times (ktimer.c), fired by the machine
 * loop. */
#ifndef ASYMU_KTIMER_H
#define ASYMU_KTIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct machine;

/* A callback at a virtual time: POSIX timers, itimers, timerfd, the timeout
 * of a task's timed wait. fire runs from the machine loop with no task
 * loaded. Timers due at the same time fire in the order they were armed. */
struct ktimer {
    uint64_t when; /* virtual ns; armed while in the machine's heap */
    bool armed;
    void (*fire)(struct ktimer *k);
    uint64_t seq;   /* arming order, for timers due at the same time */
    size_t heap_at; /* its place in the machine's heap while armed */
};

/* Arms k for virtual time `when` (re-arming moves it). */
void ktimer_arm(struct machine *m, struct ktimer *k, uint64_t when);
void ktimer_cancel(struct machine *m, struct ktimer *k);
/* The earliest armed timer, or NULL. */
struct ktimer *ktimer_next(const struct machine *m);
void ktimer_heap_free(struct machine *m);

#endif
