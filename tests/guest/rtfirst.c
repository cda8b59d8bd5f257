/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rtfirst.c - a real-time task runs before the others of its CPU: parent
 * and child share vCPU 0 with the same work; the child makes itself
 * SCHED_FIFO and finishes first although the parent started first. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void work(void)
{
    for (volatile long i = 0; i < 3000000; i++)
        ;
}

int main(void)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct sched_param p = {.sched_priority = 10};
        int r = sched_setscheduler(0, SCHED_FIFO, &p);
        work();
        printf("child (SCHED_FIFO: %s, policy %d) done\n", r == 0 ? "set" : "refused",
               sched_getscheduler(0));
        fflush(stdout);
        _exit(0);
    }
    work();
    printf("parent (SCHED_OTHER) done\n");
    fflush(stdout);
    waitpid(pid, NULL, 0);
    return 0;
}
