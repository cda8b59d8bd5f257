/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timing.c - virtual time follows the vCPU's speed and kernel work costs
 * time (docs/timing.md). Run on a machine whose vCPU 0 has capacity 512 and
 * vCPU 1 capacity 1024:
 *   speed      the same busy loop pinned to vCPU 0 and to vCPU 1, timed by
 *              CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID and getrusage; prints
 *              the ratios rounded to 0.1 (2.0: the little one is half as fast)
 *   costs      getpid, fork+exit+wait, execve and a page fault, each timed on
 *              vCPU 1 and compared with the bounds docs/timing.md gives
 *   exit       (what costs execs) exits at once
 * A second argument -v also prints each time measured.
 * Only rounded ratios and "within bounds" verdicts are printed, so the
 * output says what the model promises, not its last nanosecond. */
#define _GNU_SOURCE
#include "guest.h"

#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define LOOPS 2000000u

static bool verbose; /* a second argument "-v": every time measured, for docs/timing.md */

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0) {
        printf("sched_setaffinity %d: %s\n", cpu, err_name(errno));
        exit(1);
    }
}

static long long rusage_ns(void)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
}

struct times {
    long long mono, cpu, rusage;
};

/* The same instructions on whichever vCPU the task is pinned to. */
static struct times busy(int cpu)
{
    pin(cpu);
    struct times t0 = {now_ns(CLOCK_MONOTONIC), now_ns(CLOCK_THREAD_CPUTIME_ID), rusage_ns()};
    for (volatile unsigned i = 0; i < LOOPS; i++)
        ;
    struct times t1 = {now_ns(CLOCK_MONOTONIC), now_ns(CLOCK_THREAD_CPUTIME_ID), rusage_ns()};
    return (struct times){t1.mono - t0.mono, t1.cpu - t0.cpu, t1.rusage - t0.rusage};
}

static void ratio(const char *clock, long long little, long long big)
{
    if (verbose)
        printf("%s: little %lld ns, big %lld ns\n", clock, little, big);
    double r = big > 0 ? (double)little / (double)big : 0;
    printf("%s little/big %.1f, within 2.0 +-10%%: %s\n", clock, r,
           r >= 1.8 && r <= 2.2 ? "yes" : "no");
}

static void speed(void)
{
    struct times little = busy(0), big = busy(1);
    ratio("CLOCK_MONOTONIC", little.mono, big.mono);
    ratio("CLOCK_THREAD_CPUTIME_ID", little.cpu, big.cpu);
    ratio("getrusage", little.rusage, big.rusage);
}

static void verdict(const char *what, long long ns, long long lo, long long hi)
{
    printf("%s within %lld..%lld ns: %s\n", what, lo, hi, ns >= lo && ns <= hi ? "yes" : "no");
    if (verbose || ns < lo || ns > hi)
        printf("  (took %lld ns)\n", ns);
}

/* Mean time of a fork whose child exits, or execs this program to exit, and is
 * waited for. */
static long long fork_wait(int rounds, const char *self, bool exec)
{
    long long t0 = now_ns(CLOCK_MONOTONIC);
    for (int i = 0; i < rounds; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            if (exec)
                execl(self, self, "exit", (char *)NULL);
            _exit(0);
        }
        int status;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status)) {
            printf("child status %#x\n", status);
            exit(1);
        }
    }
    return (now_ns(CLOCK_MONOTONIC) - t0) / rounds;
}

static void costs(const char *self)
{
    pin(1);
    enum { CALLS = 1000, PAGES = 256 };
    long long t0 = now_ns(CLOCK_MONOTONIC);
    for (int i = 0; i < CALLS; i++)
        syscall(SYS_getpid);
    verdict("getpid", (now_ns(CLOCK_MONOTONIC) - t0) / CALLS, 100, 1000);

    long long fork_ns = fork_wait(20, self, false);
    verdict("fork+exit+wait", fork_ns, 50000, 1000000);
    verdict("execve", fork_wait(10, self, true) - fork_ns, 100000, 2000000);

    /* A page's first touch: the heap grows and each new page is written. */
    char *heap = sbrk(0);
    t0 = now_ns(CLOCK_MONOTONIC);
    if (sbrk(PAGES * 4096) == (void *)-1) {
        printf("sbrk: %s\n", err_name(errno));
        exit(1);
    }
    for (int i = 0; i < PAGES; i++)
        heap[i * 4096] = 1;
    verdict("page fault", (now_ns(CLOCK_MONOTONIC) - t0) / PAGES, 300, 3000);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    verbose = argc > 2 && !strcmp(argv[2], "-v");
    if (!strcmp(mode, "speed"))
        speed();
    else if (!strcmp(mode, "costs"))
        costs(argv[0]);
    else if (strcmp(mode, "exit") != 0) {
        printf("usage: timing speed|costs|exit\n");
        return 2;
    }
    return 0;
}
