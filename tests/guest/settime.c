/* SPDX-License-Identifier: GPL-2.0-or-later */
/* settime.c - clock_settime: the guest is root, so CLOCK_REALTIME moves
 * (for every process of the machine: a child sees it too), the monotonic
 * clock does not; the errors of a bad clock, time or pointer. Never run it
 * on a host as root: it would set the host's clock. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static void say(const char *what, int r)
{
    printf("%s: %s\n", what, r ? err_name(errno) : "0");
}

int main(void)
{
    long long real0 = now_ns(CLOCK_REALTIME), mono0 = now_ns(CLOCK_MONOTONIC);
    struct timespec later = ts_of(real0 + 1000000000000LL); /* + 1000 s */
    say("set CLOCK_REALTIME 1000 s ahead", clock_settime(CLOCK_REALTIME, &later));
    long long real_moved = now_ns(CLOCK_REALTIME) - real0;
    long long mono_moved = now_ns(CLOCK_MONOTONIC) - mono0;
    printf("realtime moved by 1000 s: %s\n",
           real_moved >= 1000000000000LL && real_moved < 1001000000000LL ? "yes" : "no");
    printf("monotonic moved by under 1 s: %s\n", mono_moved < 1000000000LL ? "yes" : "no");
    fflush(stdout);
    if (fork() == 0) {
        printf("a child sees it: %s\n",
               now_ns(CLOCK_REALTIME) - real0 >= 1000000000000LL ? "yes" : "no");
        return 0;
    }
    wait(NULL);
    struct timespec zero = {0, 0}, bad = {1, 1000000000};
    say("set CLOCK_MONOTONIC", clock_settime(CLOCK_MONOTONIC, &zero));
    say("set CLOCK_REALTIME tv_nsec 1e9", clock_settime(CLOCK_REALTIME, &bad));
    say("set clock 99", clock_settime(99, &zero));
    /* glibc reads the timespec itself: the call, not the library. */
    say("set from a bad pointer", (int)syscall(SYS_clock_settime, CLOCK_REALTIME, 16));
    struct timespec back = ts_of(real0);
    say("set it back", clock_settime(CLOCK_REALTIME, &back));
    printf("back within 1 s: %s\n", now_ns(CLOCK_REALTIME) - real0 < 1000000000LL ? "yes" : "no");
    return 0;
}
