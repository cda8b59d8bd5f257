/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-balance.c - load balancing and wake-up placement of the fair class
 * (issue 27 item 4, docs/scheduler.md rules B1-B11):
 *   crowd N P MS - N CPU hogs start pinned, the first P to vCPU 0 and the
 *                  others to vCPU 1, and are then given every vCPU; after
 *                  MS ms the parent prints how many run on each vCPU and
 *                  every vCPU any of them ran on since;
 *   wake H       - a task last run on vCPU 1, where H hogs run, is woken by
 *                  its parent running on vCPU 0 and prints where it woke
 *                  (wake_affine() chooses between the two). */
#define _GNU_SOURCE
#include "guest.h"

#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define MAX_HOGS 16

struct shared {
    volatile int cpu[MAX_HOGS];            /* where each hog last saw itself */
    volatile unsigned long seen[MAX_HOGS]; /* the vCPUs it ran on after its release */
    volatile int released;
};

static int pin(pid_t pid, int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(pid, sizeof set, &set);
}

static void hog(struct shared *sh, int i)
{
    for (;;) {
        int cpu = sched_getcpu();
        sh->cpu[i] = cpu;
        if (sh->released)
            sh->seen[i] |= 1ul << cpu;
        for (volatile int k = 0; k < 2048; k++)
            ;
    }
}

static int crowd(int n, int p, long long ms)
{
    if (n < 1 || n > MAX_HOGS)
        return fprintf(stderr, "crowd: 1..%d hogs\n", MAX_HOGS), 2;
    struct shared *sh =
        mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    cpu_set_t all;
    if (sh == MAP_FAILED || sched_getaffinity(0, sizeof all, &all) < 0)
        return perror("setup"), 1;
    pid_t pids[MAX_HOGS];
    for (int i = 0; i < n; i++)
        sh->cpu[i] = -1;
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        if (pids[i] < 0)
            return perror("fork"), 1;
        if (pids[i] == 0) {
            if (pin(0, i < p ? 0 : 1) < 0)
                return perror("pin"), 1;
            hog(sh, i);
        }
    }
    /* Every hog has pinned itself and run: release them all at once. */
    for (int i = 0; i < n; i++)
        while (sh->cpu[i] != (i < p ? 0 : 1))
            sched_yield();
    sh->released = 1;
    for (int i = 0; i < n; i++)
        if (sched_setaffinity(pids[i], sizeof all, &all) < 0)
            return perror("sched_setaffinity"), 1;
    struct timespec ts = ts_of(ms * MS);
    nanosleep(&ts, NULL);
    int count[64] = {0};
    unsigned long seen = 0;
    for (int i = 0; i < n; i++) {
        count[sh->cpu[i] & 63]++;
        seen |= sh->seen[i];
    }
    for (int i = 0; i < n; i++)
        kill(pids[i], SIGKILL);
    for (int i = 0; i < n; i++)
        waitpid(pids[i], NULL, 0);
    printf("after %lld ms:", ms);
    for (int cpu = 0; cpu < 64; cpu++)
        if (count[cpu])
            printf(" cpu%d=%d", cpu, count[cpu]);
    printf("\nhogs ran on cpus");
    for (int cpu = 0; cpu < 64; cpu++)
        if (seen & (1ul << cpu))
            printf(" %d", cpu);
    printf("\n");
    return 0;
}

static int wake(int hogs)
{
    struct shared *sh =
        mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int go[2], ready[2];
    if (sh == MAP_FAILED || pipe(go) < 0 || pipe(ready) < 0 || pin(0, 0) < 0)
        return perror("setup"), 1;
    pid_t pids[MAX_HOGS + 1];
    for (int i = 0; i < hogs && i < MAX_HOGS; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            if (pin(0, 1) < 0)
                return perror("pin"), 1;
            hog(sh, i);
        }
    }
    pid_t wakee = fork();
    if (wakee == 0) {
        cpu_set_t both;
        CPU_ZERO(&both);
        CPU_SET(0, &both);
        CPU_SET(1, &both);
        /* Runs on vCPU 1, then may go anywhere: vCPU 1 is its prev. */
        if (pin(0, 1) < 0 || sched_setaffinity(0, sizeof both, &both) < 0)
            return perror("affinity"), 1;
        printf("wakee blocks on cpu %d\n", sched_getcpu());
        char c = 'r';
        if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
            return 1;
        printf("wakee woke on cpu %d\n", sched_getcpu());
        return 0;
    }
    char c;
    if (read(ready[0], &c, 1) != 1)
        return 1;
    struct timespec ts = ts_of(10 * MS);
    nanosleep(&ts, NULL);
    printf("waker on cpu %d\n", sched_getcpu());
    if (write(go[1], &c, 1) != 1)
        return 1;
    waitpid(wakee, NULL, 0);
    for (int i = 0; i < hogs && i < MAX_HOGS; i++) {
        kill(pids[i], SIGKILL);
        waitpid(pids[i], NULL, 0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 5 && !strcmp(argv[1], "crowd"))
        return crowd(atoi(argv[2]), atoi(argv[3]), atoll(argv[4]));
    if (argc == 3 && !strcmp(argv[1], "wake"))
        return wake(atoi(argv[2]));
    fprintf(stderr, "usage: sched-balance crowd N P MS | wake HOGS\n");
    return 2;
}
