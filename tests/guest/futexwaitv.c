/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futexwaitv.c - futex_waitv(2) (emu/kernel/futex_waitv.c): the argument
 * checks, a wait on three futexes ended by a wake of one (the result is its
 * index), a timeout and a value that changed (tests/e2e/newcalls.cmake). */
#define _GNU_SOURCE
#include "guest.h"

#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif

static uint32_t words[3];

static long waitv(struct futex_waitv *w, unsigned n, unsigned flags, struct timespec *ts, int clock)
{
    return syscall(SYS_futex_waitv, w, n, flags, ts, clock);
}

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static void fill(struct futex_waitv *w)
{
    for (int i = 0; i < 3; i++)
        w[i] = (struct futex_waitv){.val = words[i], .uaddr = (uintptr_t)&words[i],
                                    .flags = FUTEX_32 | FUTEX_PRIVATE_FLAG};
}

static volatile int waiting;
static long result;

static void *waiter(void *arg)
{
    (void)arg;
    struct futex_waitv w[3];
    fill(w);
    waiting = 1;
    result = waitv(w, 3, 0, NULL, 0);
    return NULL;
}

/* Starts a waiter on the three futexes and wakes futex `which`. */
static void wake_one(int which)
{
    pthread_t th;
    waiting = 0;
    pthread_create(&th, NULL, waiter, NULL);
    while (!waiting)
        sched_yield();
    long woken = 0;
    for (int i = 0; i < 100 && woken == 0; i++) {
        usleep(1000);
        woken = syscall(SYS_futex, &words[which], FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
    pthread_join(th, NULL);
    printf("wake futex %d: woke %ld, waitv returned %ld\n", which, woken, result);
}

int main(void)
{
    struct futex_waitv w[3];
    fill(w);
    show("flags 1", waitv(w, 3, 1, NULL, 0));
    show("no futexes", waitv(w, 0, 0, NULL, 0));
    show("129 futexes", waitv(w, 129, 0, NULL, 0));
    show("null array", waitv(NULL, 1, 0, NULL, 0));
    show("bad array", waitv((void *)8, 1, 0, NULL, 0));
    fill(w);
    w[1].flags = FUTEX_PRIVATE_FLAG;
    show("no FUTEX_32", waitv(w, 3, 0, NULL, 0));
    fill(w);
    w[2].__reserved = 1;
    show("reserved", waitv(w, 3, 0, NULL, 0));
    fill(w);
    w[0].uaddr += 1;
    show("unaligned", waitv(w, 3, 0, NULL, 0));
    fill(w);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    show("clock 7", waitv(w, 3, 0, &ts, 7));
    show("timeout passed", waitv(w, 3, 0, &ts, CLOCK_MONOTONIC));
    w[1].val = 5;
    show("value changed", waitv(w, 3, 0, NULL, 0));
    fill(w);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 10000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    show("10 ms timeout", waitv(w, 3, 0, &ts, CLOCK_MONOTONIC));
    wake_one(2);
    wake_one(0);
    wake_one(1);
    return 0;
}
