/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sleep.c - sleeping: nanosleep and clock_nanosleep (relative, absolute,
 * CLOCK_REALTIME) advance CLOCK_MONOTONIC by at least the time asked for; a
 * sleeping child and a waiting parent; a sleep a signal interrupts. Prints
 * only whether each bound holds, never a time. The first argument:
 *
 *   sleeps      the sleeps above and their EINVAL cases
 *   child       a child sleeps 200 ms and exits 5 while the parent waits
 *   interrupt   a 10 s nanosleep interrupted after 50 ms: EINTR and the
 *               remaining time */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static void report(const char *what, int r, long long start, long long want)
{
    long long took = now_ns(CLOCK_MONOTONIC) - start;
    printf("%s: returned %d, advanced by at least %lld ms %s\n", what, r, want / MS,
           took >= want ? "yes" : "NO");
}

static int run_sleeps(void)
{
    long long t = now_ns(CLOCK_MONOTONIC);
    struct timespec ts = ts_of(50 * MS);
    report("nanosleep 50 ms", nanosleep(&ts, NULL), t, 50 * MS);

    t = now_ns(CLOCK_MONOTONIC);
    ts = ts_of(20 * MS);
    report("clock_nanosleep MONOTONIC 20 ms", clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL), t,
           20 * MS);

    t = now_ns(CLOCK_MONOTONIC);
    ts = ts_of(t + 30 * MS);
    report("clock_nanosleep MONOTONIC until now + 30 ms",
           clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL), t, 30 * MS);

    t = now_ns(CLOCK_MONOTONIC);
    ts = ts_of(10 * MS);
    report("clock_nanosleep REALTIME 10 ms", clock_nanosleep(CLOCK_REALTIME, 0, &ts, NULL), t,
           10 * MS);

    t = now_ns(CLOCK_MONOTONIC);
    report("sleep(1)", (int)sleep(1), t, 1000 * MS);

    t = now_ns(CLOCK_MONOTONIC);
    report("usleep(15000)", usleep(15000), t, 15 * MS);

    t = now_ns(CLOCK_MONOTONIC);
    ts = ts_of(t - 1000 * MS);
    int r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    printf("clock_nanosleep until a past time: returned %d, took under 10 ms %s\n", r,
           now_ns(CLOCK_MONOTONIC) - t < 10 * MS ? "yes" : "NO");

    ts = (struct timespec){.tv_sec = 0, .tv_nsec = 1000000000L};
    errno = 0;
    r = nanosleep(&ts, NULL);
    printf("nanosleep tv_nsec 1000000000: %d %s\n", r, err_name(errno));
    ts = (struct timespec){.tv_sec = -1, .tv_nsec = 0};
    errno = 0;
    r = nanosleep(&ts, NULL);
    printf("nanosleep tv_sec -1: %d %s\n", r, err_name(errno));
    ts = ts_of(MS);
    printf("clock_nanosleep on a bad clock: %s\n",
           err_name(clock_nanosleep((clockid_t)99, 0, &ts, NULL)));
    return 0;
}

static int run_child(void)
{
    long long t = now_ns(CLOCK_MONOTONIC);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct timespec ts = ts_of(200 * MS);
        nanosleep(&ts, NULL);
        _exit(5);
    }
    int status;
    pid_t r = waitpid(pid, &status, 0);
    printf("waitpid %s, child exited %d\n", r == pid ? "ok" : "failed", WEXITSTATUS(status));
    report("waiting for a child sleeping 200 ms", 0, t, 200 * MS);
    return 0;
}

static void on_usr1(int sig)
{
    (void)sig;
}

static int run_interrupt(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    fflush(stdout);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        struct timespec ts = ts_of(50 * MS);
        nanosleep(&ts, NULL);
        kill(parent, SIGUSR1);
        _exit(0);
    }
    long long t = now_ns(CLOCK_MONOTONIC);
    struct timespec ts = ts_of(10000 * MS), rem = {0, 0};
    errno = 0;
    int r = nanosleep(&ts, &rem);
    long long took = now_ns(CLOCK_MONOTONIC) - t;
    long long left = rem.tv_sec * 1000000000LL + rem.tv_nsec;
    printf("nanosleep 10 s: %d %s, woke before 5 s %s, remaining between 5 s and 10 s %s\n", r,
           err_name(errno), took < 5000 * MS ? "yes" : "NO",
           left > 5000 * MS && left <= 10000 * MS ? "yes" : "NO");
    waitpid(pid, NULL, 0);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "sleeps") == 0)
        return run_sleeps();
    if (strcmp(mode, "child") == 0)
        return run_child();
    if (strcmp(mode, "interrupt") == 0)
        return run_interrupt();
    printf("usage: sleep sleeps | child | interrupt\n");
    return 2;
}
