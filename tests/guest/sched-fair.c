/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-fair.c - the fair class on an asymmetric machine (issue 27 item 4,
 * docs/scheduler.md):
 *   misfit MS  - a CPU hog pinned to cpu 0 for its start, then given back
 *                its whole affinity, spins for MS ms of CPU time and prints
 *                the vCPUs it was seen on and the one it finishes on (a
 *                64-bit hog on a little cpu 0 is pulled to a big vCPU; a
 *                32-bit one stays on the 32-bit vCPUs);
 *   idle MS    - a nice-0 hog and a SCHED_IDLE hog share one vCPU for MS ms
 *                of virtual time; prints the SCHED_IDLE task's work per 1024
 *                of the nice-0 one's, rounded (the weights: 3:1024);
 *   eas CPU N  - (issue 27 item 5) a small periodic task started on CPU
 *                wakes N times from 4 ms sleeps after 0.2 ms of work each;
 *                prints the vCPUs it woke on after the first three (with
 *                EAS, a little one; without, where it was);
 *   freq CPU MS - pinned to CPU: its cpufreq policy's scaling_cur_freq
 *                after a 100 ms sleep, and after a hog of MS ms of CPU
 *                time (schedutil raises it to the maximum). */
#define _GNU_SOURCE
#include "guest.h"

#include <sched.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

static int misfit(long long ms)
{
    cpu_set_t all, zero;
    if (sched_getaffinity(0, sizeof all, &all) < 0)
        return perror("sched_getaffinity"), 1;
    CPU_ZERO(&zero);
    CPU_SET(0, &zero);
    if (sched_setaffinity(0, sizeof zero, &zero) < 0)
        return perror("sched_setaffinity"), 1;
    printf(ISA ": started on cpu %d\n", sched_getcpu());
    if (sched_setaffinity(0, sizeof all, &all) < 0)
        return perror("sched_setaffinity"), 1;
    cpu_set_t seen;
    CPU_ZERO(&seen);
    long long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ms * MS;
    volatile unsigned long spin = 0;
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
        CPU_SET(sched_getcpu(), &seen);
        for (int i = 0; i < 4096; i++)
            spin++;
    }
    printf(ISA ": ran on cpus");
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &seen))
            printf(" %d", cpu);
    printf("\n" ISA ": finished on cpu %d\n", sched_getcpu());
    return 0;
}

/* The unit of work both hogs count: the same code, so on one vCPU the
 * counts are in the ratio of their CPU times. */
static void work(volatile unsigned long *count)
{
    for (int i = 0; i < 256; i++)
        (*count)++;
}

static int idle_share(long long ms)
{
    /* The SCHED_IDLE child only counts, in shared memory: no system calls,
     * so nothing but its weight decides its CPU time; the parent checks
     * the clock every 64 units and reads the child's count at the end. */
    volatile unsigned long *counts =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int ready[2];
    if (counts == MAP_FAILED || pipe(ready) < 0)
        return perror("setup"), 1;
    pid_t pid = fork();
    if (pid < 0)
        return perror("fork"), 1;
    if (pid == 0) {
        struct sched_param p = {0};
        if (sched_setscheduler(0, SCHED_IDLE, &p) < 0)
            return perror("sched_setscheduler"), 1;
        char c = 'r';
        if (write(ready[1], &c, 1) != 1)
            return 1;
        for (;;)
            work(&counts[1]);
    }
    char c;
    if (read(ready[0], &c, 1) != 1)
        return 1;
    printf("child policy: %s\n", sched_getscheduler(pid) == SCHED_IDLE ? "SCHED_IDLE" : "other");
    long long deadline = now_ns(CLOCK_MONOTONIC) + ms * MS;
    unsigned long child0 = counts[1];
    do {
        for (int i = 0; i < 64; i++)
            work(&counts[0]);
    } while (now_ns(CLOCK_MONOTONIC) < deadline);
    unsigned long mine = counts[0], its = counts[1] - child0;
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    printf("SCHED_IDLE:nice-0 CPU time = %lu:1024\n", (its * 1024 + mine / 2) / mine);
    return 0;
}

static void spin_cpu_ns(long long ns)
{
    long long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;
    volatile unsigned long spin = 0;
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
        for (int i = 0; i < 256; i++)
            spin++;
}

static int pin(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one);
}

static int eas(int cpu, int n)
{
    cpu_set_t all, seen;
    if (sched_getaffinity(0, sizeof all, &all) < 0 || pin(cpu) < 0)
        return perror("sched_setaffinity"), 1;
    spin_cpu_ns(MS / 5);
    printf(ISA ": started on cpu %d\n", sched_getcpu());
    if (sched_setaffinity(0, sizeof all, &all) < 0)
        return perror("sched_setaffinity"), 1;
    CPU_ZERO(&seen);
    struct timespec nap = {0, 4 * MS};
    for (int i = 0; i < n; i++) {
        nanosleep(&nap, NULL);
        if (i >= 3)
            CPU_SET(sched_getcpu(), &seen);
        spin_cpu_ns(MS / 5);
    }
    printf(ISA ": woke on cpus");
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &seen))
            printf(" %d", c);
    printf("\n");
    return 0;
}

static long cur_freq(int cpu)
{
    char path[96], buf[32] = "";
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
    FILE *f = fopen(path, "r");
    if (!f || !fgets(buf, sizeof buf, f))
        return -1;
    fclose(f);
    return atol(buf);
}

static int freq(int cpu, long long ms)
{
    if (pin(cpu) < 0)
        return perror("sched_setaffinity"), 1;
    struct timespec nap = {0, 100 * MS};
    nanosleep(&nap, NULL);
    printf(ISA ": cpu %d after sleeping: %ld kHz\n", cpu, cur_freq(cpu));
    spin_cpu_ns(ms * MS);
    printf(ISA ": cpu %d after a %lld ms hog: %ld kHz\n", cpu, ms, cur_freq(cpu));
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 3 && !strcmp(argv[1], "misfit"))
        return misfit(atoll(argv[2]));
    if (argc == 3 && !strcmp(argv[1], "idle"))
        return idle_share(atoll(argv[2]));
    if (argc == 4 && !strcmp(argv[1], "eas"))
        return eas(atoi(argv[2]), atoi(argv[3]));
    if (argc == 4 && !strcmp(argv[1], "freq"))
        return freq(atoi(argv[2]), atoll(argv[3]));
    fprintf(stderr, "usage: sched-fair misfit MS | idle MS | eas CPU N | freq CPU MS\n");
    return 2;
}
