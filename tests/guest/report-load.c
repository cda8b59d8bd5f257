/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report-load.c - workloads whose `asymu report` answer is known
 * (docs/tracing.md "asymu report", tests/e2e/report.cmake):
 *   pin CPU MS      - pins itself to CPU and spins until MS ms of virtual time
 *                     have passed: it runs there and nowhere else;
 *   pair CPU MS     - forks; parent and child both pinned to CPU spin until
 *                     MS ms from the fork: two hogs sharing one vCPU;
 *   spread N MS     - forks N hogs, unpinned, that spin until MS ms from the
 *                     first fork (a 32-bit program's run only on the 32-bit
 *                     vCPUs);
 *   sleep N US [CPU] - sleeps US microseconds N times (wake-up latencies);
 *                     with CPU, pinned there beside a hog child pinned
 *                     there too, which it kills at the end;
 *   affinity        - moves itself to cpu 1, then to 2-3, then back to
 *                     every CPU, spinning a little on each (affinity
 *                     changes with their rule, and the migrations they make). */
#define _GNU_SOURCE
#include "guest.h"

#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0)
        return perror("sched_setaffinity"), -1;
    return 0;
}

/* Spins until CLOCK_MONOTONIC reaches end_ns. */
static void spin_until(long long end_ns)
{
    volatile unsigned long count = 0;
    while (now_ns(CLOCK_MONOTONIC) < end_ns)
        for (int i = 0; i < 256; i++)
            count++;
}

static int pair(int cpu, long long ms)
{
    if (pin(cpu) < 0)
        return 1;
    long long end = now_ns(CLOCK_MONOTONIC) + ms * MS;
    pid_t child = fork();
    if (child < 0)
        return perror("fork"), 1;
    spin_until(end);
    if (child == 0)
        _exit(0);
    int status;
    if (waitpid(child, &status, 0) != child)
        return perror("waitpid"), 1;
    printf(ISA ": pair done\n");
    return 0;
}

static int spread(int n, long long ms)
{
    long long end = now_ns(CLOCK_MONOTONIC) + ms * MS;
    for (int i = 0; i < n; i++) {
        pid_t child = fork();
        if (child < 0)
            return perror("fork"), 1;
        if (child == 0) {
            spin_until(end);
            _exit(0);
        }
    }
    for (int i = 0; i < n; i++)
        if (wait(NULL) < 0)
            return perror("wait"), 1;
    printf(ISA ": spread done\n");
    return 0;
}

static int sleeper(int n, long long us, int cpu)
{
    pid_t hog = 0;
    if (cpu >= 0) {
        if (pin(cpu) < 0)
            return 1;
        hog = fork();
        if (hog < 0)
            return perror("fork"), 1;
        if (hog == 0)
            for (;;)
                spin_until(now_ns(CLOCK_MONOTONIC) + MS);
    }
    for (int i = 0; i < n; i++) {
        struct timespec ts = ts_of(us * 1000);
        if (nanosleep(&ts, NULL) < 0)
            return perror("nanosleep"), 1;
    }
    if (hog > 0 && (kill(hog, SIGKILL) < 0 || waitpid(hog, NULL, 0) != hog))
        return perror("kill"), 1;
    printf(ISA ": slept %d times\n", n);
    return 0;
}

static int affinity(void)
{
    cpu_set_t all;
    if (sched_getaffinity(0, sizeof all, &all) < 0)
        return perror("sched_getaffinity"), 1;
    if (pin(1) < 0)
        return 1;
    spin_until(now_ns(CLOCK_MONOTONIC) + MS);
    cpu_set_t two;
    CPU_ZERO(&two);
    CPU_SET(2, &two);
    CPU_SET(3, &two);
    if (sched_setaffinity(0, sizeof two, &two) < 0)
        return perror("sched_setaffinity"), 1;
    spin_until(now_ns(CLOCK_MONOTONIC) + MS);
    if (sched_setaffinity(0, sizeof all, &all) < 0)
        return perror("sched_setaffinity"), 1;
    printf(ISA ": affinity done\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "pin") == 0) {
        if (pin(atoi(argv[2])) < 0)
            return 1;
        spin_until(now_ns(CLOCK_MONOTONIC) + atoll(argv[3]) * MS);
        printf(ISA ": pin done\n");
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "pair") == 0)
        return pair(atoi(argv[2]), atoll(argv[3]));
    if (argc == 4 && strcmp(argv[1], "spread") == 0)
        return spread(atoi(argv[2]), atoll(argv[3]));
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "sleep") == 0)
        return sleeper(atoi(argv[2]), atoll(argv[3]), argc == 5 ? atoi(argv[4]) : -1);
    if (argc == 2 && strcmp(argv[1], "affinity") == 0)
        return affinity();
    fprintf(stderr, "usage: report-load pin CPU MS | pair CPU MS | spread N MS | sleep N US [CPU] "
                    "| affinity\n");
    return 2;
}
