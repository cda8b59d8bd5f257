/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-edf.c - the order of the scheduling classes on one vCPU (run with
 * --cpus 1): seven children get ready, then start together when the
 * parent closes a pipe. Deadline tasks run first, earliest deadline first;
 * then real-time ones by priority, FIFO and RR compared alike; then the
 * fair one. A deadline task whose work needs three times its runtime is
 * throttled by its constant bandwidth server until its next period each
 * time, so it finishes last, two periods (200 ms) later. Each child prints
 * when it is done, so stdout is the finishing order. */
#define _GNU_SOURCE
#include "guest.h"
#include "sched-attr.h"

#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>

struct child {
    const char *name;
    int policy, prio;
    uint64_t runtime, deadline; /* ms; the period is 100 ms */
    long work;                  /* loop iterations: 6 instructions, 12 ns each */
};

static const struct child children[] = {
    {"fair", SCHED_OTHER, 0, 0, 0, 200000},
    {"fifo40", SCHED_FIFO, 40, 0, 0, 200000},
    /* 240000 (was 300000, then 250000): an iteration costs 12 ns since
     * time counts instructions (docs/timing.md); 2.88 ms of work, three
     * periods' runtime, now that the budget ends at its virtual time (3.0 ms
     * and the loop's start needed a fourth period; with the budget counted
     * in blocks each period had overrun by 0.16 ms). */
    {"dl-throttled", SCHED_DEADLINE, 0, 1, 10, 240000},
    {"rr50", SCHED_RR, 50, 0, 0, 200000},
    {"dl-late", SCHED_DEADLINE, 0, 20, 80, 200000},
    {"fifo60", SCHED_FIFO, 60, 0, 0, 200000},
    {"dl-early", SCHED_DEADLINE, 0, 20, 40, 200000},
};
#define NCHILDREN (sizeof children / sizeof children[0])

static void run_child(const struct child *c, int ready, int go)
{
    struct attr a = {.size = sizeof a,
                     .policy = (uint32_t)c->policy,
                     .priority = (uint32_t)c->prio,
                     .runtime = c->runtime * MS,
                     .deadline = c->deadline * MS,
                     .period = 100 * MS};
    char byte = setattr(0, &a, 0) == 0 ? 'y' : 'n';
    write(ready, &byte, 1);
    read(go, &byte, 1); /* EOF: everyone starts at once */
    long long start = now_ns(CLOCK_MONOTONIC);
    for (volatile long i = 0; i < c->work; i++)
        ;
    long long took = now_ns(CLOCK_MONOTONIC) - start;
    if (c->runtime == 1)
        printf("%s done (after 200 ms: %s)\n", c->name,
               took >= 200 * MS && took < 300 * MS ? "yes" : "no");
    else
        printf("%s done\n", c->name);
    _exit(0);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int ready[2], go[2];
    if (pipe(ready) || pipe(go))
        return 1;
    pid_t pids[NCHILDREN];
    for (unsigned i = 0; i < NCHILDREN; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            close(go[1]);
            run_child(&children[i], ready[1], go[0]);
        }
        char byte;
        read(ready[0], &byte, 1);
        if (byte != 'y')
            printf("%s: sched_setattr refused\n", children[i].name);
    }
    close(go[1]);
    for (unsigned i = 0; i < NCHILDREN; i++)
        waitpid(pids[i], NULL, 0);
    printf("all done\n");
    return 0;
}
