/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-pinned.c - two nice-0 hogs pinned to one vCPU, from the machine's
 * first task (issue 27 item 4, docs/scheduler.md C4):
 *   sched-pinned CPU MS - the first task (picked at a tick, time 0) pins
 *               itself to CPU and forks; both spin until MS ms after the
 *               fork. Prints when (CLOCK_MONOTONIC, from boot) the child
 *               first ran and when the parent's first turn ended, to the
 *               nearest tenth of a ms: ticks decide both, so they do not
 *               depend on how long the start took (the environment's size). */
#define _GNU_SOURCE
#include "guest.h"

#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>

/* ns to the nearest tenth of a ms: a turn ends at a tick plus at most a
 * block of instructions, its last read at most a loop turn before it. */
static long long tenths(long long ns)
{
    return (ns + MS / 20) / (MS / 10);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sched-pinned CPU MS\n");
        return 2;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(atoi(argv[1]), &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0)
        return perror("sched_setaffinity"), 1;
    volatile long long *first =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (first == MAP_FAILED)
        return perror("mmap"), 1;
    long long end = now_ns(CLOCK_MONOTONIC) + atoll(argv[2]) * MS;
    pid_t child = fork();
    if (child < 0)
        return perror("fork"), 1;
    if (child == 0) {
        *first = now_ns(CLOCK_MONOTONIC);
        while (now_ns(CLOCK_MONOTONIC) < end)
            ;
        _exit(0);
    }
    /* The parent's turn ends where its clock jumps: the child ran between
     * two of its reads (each read is far less than a tick apart). */
    long long last = now_ns(CLOCK_MONOTONIC), turn_end = -1;
    for (long long now; (now = now_ns(CLOCK_MONOTONIC)) < end; last = now)
        if (turn_end < 0 && now - last > MS)
            turn_end = last;
    if (waitpid(child, NULL, 0) != child)
        return perror("waitpid"), 1;
    if (!*first)
        return fprintf(stderr, "the child never ran\n"), 1;
    long long child_at = tenths(*first), parent_to = tenths(turn_end);
    printf("child first ran at %lld.%lld ms\n", child_at / 10, child_at % 10);
    if (turn_end < 0)
        printf("the parent's first turn lasted to its end\n");
    else
        printf("parent's first turn ended at %lld.%lld ms\n", parent_to / 10, parent_to % 10);
    return 0;
}
