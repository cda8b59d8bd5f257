/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-rt.c - the real-time class across vCPUs (issue 27 item 4,
 * docs/scheduler.md rules R1-R8):
 *   push MS     - on vCPU 0, SCHED_FIFO 20, forks two CPU hogs A and B
 *                 pinned there, makes them SCHED_FIFO 10 and widens A's
 *                 affinity to every vCPU while a fair hog runs on vCPU 1
 *                 (when the task may run there): A is pushed to vCPU 1
 *                 (push_rt_task()), B stays; each spins MS ms of CPU time
 *                 and the vCPUs it ran on are printed;
 *   pull MS     - three vCPUs: C (FIFO 40) runs MS ms on vCPU 1, A (FIFO
 *                 30) 3*MS ms on vCPU 0; B (FIFO 20) waits behind A, may
 *                 run on 0-1, and is pulled to vCPU 1 when C ends there
 *                 (pull_rt_task()), though a fair hog runs there;
 *   throttle MS - one vCPU: a fair task counts its CPU time while a
 *                 SCHED_FIFO hog spins MS ms of wall time; RT throttling
 *                 (950 ms of every second) lets it run;
 *   nothrottle MS - the same after writing -1 to sched_rt_runtime_us. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

static int pin(pid_t pid, int lo, int hi)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = lo; cpu <= hi; cpu++)
        CPU_SET(cpu, &set);
    return sched_setaffinity(pid, sizeof set, &set);
}

static void set_fifo(pid_t pid, int prio)
{
    struct sched_param sp = {.sched_priority = prio};
    if (sched_setscheduler(pid, SCHED_FIFO, &sp) < 0)
        perror("sched_setscheduler"), exit(1);
}

/* Spins ms ms of the thread's CPU time; returns the vCPUs it ran on. */
static unsigned long spin_cpus(long long ms)
{
    unsigned long seen = 0;
    long long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ms * MS;
    volatile unsigned long n = 0;
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end) {
        seen |= 1ul << sched_getcpu();
        for (int i = 0; i < 4096; i++)
            n++;
    }
    return seen;
}

static void print_cpus(const char *who, unsigned long seen)
{
    printf("%s ran on cpus", who);
    for (int cpu = 0; cpu < 32; cpu++)
        if (seen & (1ul << cpu))
            printf(" %d", cpu);
    printf("\n");
}

/* A fair task spinning for ever on cpu (killed at the end), or 0 when it
 * may not run there (a 32-bit task and a 64-bit-only vCPU: EINVAL). */
static pid_t fair_hog(int cpu)
{
    pid_t pid = fork();
    if (pid < 0)
        perror("fork"), exit(1);
    if (pid == 0) {
        volatile unsigned long n = 0;
        for (;;)
            n++;
    }
    if (pin(pid, cpu, cpu) == 0)
        return pid;
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return 0;
}

/* A child that waits for a byte on its pipe, then spins ms ms of CPU time
 * and stores the vCPUs it ran on in *seen. */
static pid_t waiter(int cpu, long long ms, unsigned long *seen, int *fd)
{
    int p[2];
    if (pipe(p) < 0)
        perror("pipe"), exit(1);
    pid_t pid = fork();
    if (pid < 0)
        perror("fork"), exit(1);
    if (pid == 0) {
        char c;
        close(p[1]);
        if (pin(0, cpu, cpu) < 0 || read(p[0], &c, 1) != 1)
            _exit(1);
        *seen = spin_cpus(ms);
        _exit(0);
    }
    close(p[0]);
    *fd = p[1];
    return pid;
}

static void go(int fd)
{
    if (write(fd, "x", 1) != 1)
        perror("write"), exit(1);
    close(fd);
}

static unsigned long *shared(void)
{
    unsigned long *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        perror("mmap"), exit(1);
    return m;
}

static int push(long long ms)
{
    unsigned long *seen = shared();
    if (pin(0, 0, 0) < 0)
        return perror("sched_setaffinity"), 1;
    pid_t hog = fair_hog(1);
    set_fifo(0, 20);
    pid_t kid[2];
    for (int i = 0; i < 2; i++) {
        kid[i] = fork();
        if (kid[i] < 0)
            return perror("fork"), 1;
        if (kid[i] == 0) {
            seen[i] = spin_cpus(ms);
            _exit(0);
        }
    }
    /* Both wait behind this FIFO 20 task on vCPU 0; A may now run on
     * every vCPU, and both go down to FIFO 10. 5.15 pushes A when this
     * task blocks and B, the head of the FIFO 10 list (a lowered priority
     * queues at the head), is picked; asymu at the balance that follows
     * the first of these calls: A ends on vCPU 1 either way. */
    if (pin(kid[0], 0, CPU_SETSIZE - 1) < 0)
        return perror("sched_setaffinity"), 1;
    for (int i = 0; i < 2; i++)
        set_fifo(kid[i], 10);
    for (int i = 0; i < 2; i++)
        waitpid(kid[i], NULL, 0);
    if (hog) {
        kill(hog, SIGKILL);
        waitpid(hog, NULL, 0);
    }
    print_cpus("A", seen[0]);
    print_cpus("B", seen[1]);
    return 0;
}

static int pull(long long ms)
{
    unsigned long *seen = shared();
    if (pin(0, 2, 2) < 0)
        return perror("sched_setaffinity"), 1;
    pid_t hog = fair_hog(1);
    int fa, fb, fc;
    pid_t c = waiter(1, ms, &seen[2], &fc);
    pid_t a = waiter(0, 3 * ms, &seen[0], &fa);
    pid_t b = waiter(0, ms, &seen[1], &fb);
    /* Each child is blocked in read() once it has pinned itself. */
    struct timespec nap = ts_of(10 * MS);
    nanosleep(&nap, NULL);
    set_fifo(c, 40);
    set_fifo(a, 30);
    set_fifo(b, 20);
    go(fc);
    go(fa);
    go(fb);
    /* B waits behind A; vCPU 1 runs C (40): nothing to push it to. */
    if (pin(b, 0, 1) < 0)
        return perror("sched_setaffinity"), 1;
    waitpid(c, NULL, 0);
    waitpid(b, NULL, 0);
    waitpid(a, NULL, 0);
    if (hog) {
        kill(hog, SIGKILL);
        waitpid(hog, NULL, 0);
    }
    print_cpus("C", seen[2]);
    print_cpus("A", seen[0]);
    print_cpus("B", seen[1]);
    return 0;
}

static void show(const char *path)
{
    char buf[64] = "";
    int fd = open(path, O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (n < 0)
        perror(path), exit(1);
    buf[n] = '\0';
    printf("%s: %s", path + 17, buf);
    close(fd);
}

static int throttle(long long ms, int off)
{
    if (off) {
        int fd = open("/proc/sys/kernel/sched_rt_runtime_us", O_WRONLY);
        if (fd < 0 || write(fd, "-1\n", 3) != 3)
            return perror("sched_rt_runtime_us"), 1;
        close(fd);
    }
    show("/proc/sys/kernel/sched_rt_runtime_us");
    show("/proc/sys/kernel/sched_rt_period_us");
    long long end = now_ns(CLOCK_MONOTONIC) + ms * MS;
    pid_t fair = fork();
    if (fair < 0)
        return perror("fork"), 1;
    if (fair == 0) {
        volatile unsigned long n = 0;
        while (now_ns(CLOCK_MONOTONIC) < end)
            for (int i = 0; i < 1024; i++)
                n++;
        printf("fair task: %lld ms of CPU time\n", now_ns(CLOCK_THREAD_CPUTIME_ID) / MS);
        _exit(0);
    }
    set_fifo(0, 10);
    /* Work between the clock reads: one read per increment made the run
     * almost all syscall entries (17 s each in the sanitized suite). */
    volatile unsigned long n = 0;
    while (now_ns(CLOCK_MONOTONIC) < end)
        for (int i = 0; i < 1024; i++)
            n++;
    waitpid(fair, NULL, 0);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 3 && !strcmp(argv[1], "push"))
        return push(atoll(argv[2]));
    if (argc == 3 && !strcmp(argv[1], "pull"))
        return pull(atoll(argv[2]));
    if (argc == 3 && !strcmp(argv[1], "throttle"))
        return throttle(atoll(argv[2]), 0);
    if (argc == 3 && !strcmp(argv[1], "nothrottle"))
        return throttle(atoll(argv[2]), 1);
    fprintf(stderr, "usage: sched-rt push|pull|throttle|nothrottle MS\n");
    return 2;
}
