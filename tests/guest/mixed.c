/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mixed.c - a mixed workload for the determinism test (tests/e2e/determinism.cmake):
 * threads that compute and sched_yield under a mutex, an interval timer
 * interrupting a compute loop, a sleep, a forked process writing through a
 * pipe, and a forked child that execs a 32-bit program. It prints what it
 * computed, the order the threads took their turns in, and the virtual time
 * each phase took, so the expected output pins the machine's virtual time:
 * anything that changes how guest code is counted or scheduled changes it.
 *
 *   mixed start    execs SELF run with no environment, so the workload's
 *                  stack does not depend on the host's path or environment
 *   mixed run      the workload
 *   mixed child32  what the 32-bit child runs: a loop, then exit 7
 *
 * It runs with --sysroot set to the folder holding both builds, which the
 * guest sees as /mixed-aarch64 and /mixed-armhf. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "guest.h"

#define THREADS 3
#define TURNS 40    /* turns each thread takes */
#define TURN_WORK 5000
#define TIMER_WORK 3000000
#define PIPE_RECORDS 64
#define PROG32 "/mixed-armhf"
#ifdef __aarch64__
#define SELF "/mixed-aarch64"
#else
#define SELF PROG32
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char turn_order[THREADS * TURNS + 1];
static unsigned turns_taken;
static volatile unsigned long sink;

/* A few thousand blocks of arithmetic the compiler cannot drop. */
static unsigned long work(unsigned long n, unsigned long seed)
{
    unsigned long x = seed;
    for (unsigned long i = 0; i < n; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul + (x >> 17);
    sink = x;
    return x;
}

static void *thread_main(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    for (unsigned k = 0; k < TURNS; k++) {
        work(TURN_WORK * (id + 1), k);
        pthread_mutex_lock(&lock);
        turn_order[turns_taken++] = (char)('a' + id);
        pthread_mutex_unlock(&lock);
        sched_yield();
    }
    return NULL;
}

static void phase_threads(void)
{
    long long t0 = now_ns(CLOCK_MONOTONIC);
    pthread_t th[THREADS];
    for (unsigned i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, thread_main, (void *)(uintptr_t)i);
    for (unsigned i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    printf("threads: %u turns, order %s\n", turns_taken, turn_order);
    printf("threads: %lld ns\n", now_ns(CLOCK_MONOTONIC) - t0);
}

static volatile sig_atomic_t ticks;
static void on_alarm(int sig)
{
    (void)sig;
    ticks++;
}

static void phase_timers(void)
{
    long long t0 = now_ns(CLOCK_MONOTONIC);
    signal(SIGALRM, on_alarm);
    struct itimerval every_ms = {.it_interval = {0, 1000}, .it_value = {0, 1000}};
    setitimer(ITIMER_REAL, &every_ms, NULL);
    unsigned long x = work(TIMER_WORK, 1);
    struct itimerval off = {0};
    setitimer(ITIMER_REAL, &off, NULL);
    printf("timer: result %lx, %d ticks, %lld ns\n", x, (int)ticks, now_ns(CLOCK_MONOTONIC) - t0);
    long long t1 = now_ns(CLOCK_MONOTONIC);
    struct timespec two_ms = ts_of(2 * MS);
    nanosleep(&two_ms, NULL);
    printf("sleep: %lld ns\n", now_ns(CLOCK_MONOTONIC) - t1);
}

static void phase_pipe(void)
{
    long long t0 = now_ns(CLOCK_MONOTONIC);
    int fds[2];
    if (pipe(fds) < 0) {
        printf("pipe: %s\n", err_name(errno));
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        for (unsigned long r = 0; r < PIPE_RECORDS; r++) {
            unsigned long rec[4] = {r, work(200 * r, r), r * r, ~r};
            if (write(fds[1], rec, sizeof rec) != (ssize_t)sizeof rec)
                _exit(1);
        }
        _exit(0);
    }
    close(fds[1]);
    unsigned char buf[256];
    unsigned long sum = 0, bytes = 0, reads = 0;
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) {
        reads++;
        bytes += (unsigned long)n;
        for (ssize_t i = 0; i < n; i++)
            sum = sum * 31 + buf[i];
    }
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    printf("pipe: %lu bytes in %lu reads, checksum %lx, child exit %d\n", bytes, reads, sum,
           WEXITSTATUS(status));
    printf("pipe: %lld ns\n", now_ns(CLOCK_MONOTONIC) - t0);
}

static void phase_exec32(void)
{
    long long t0 = now_ns(CLOCK_MONOTONIC);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl(PROG32, PROG32, "child32", (char *)NULL);
        printf("exec32: %s\n", err_name(errno));
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("exec32: child exit %d, %lld ns\n", WEXITSTATUS(status), now_ns(CLOCK_MONOTONIC) - t0);
}

int main(int argc, char **argv)
{
    const char *what = argc == 2 ? argv[1] : "";
    if (strcmp(what, "start") == 0) {
        char *const args[] = {SELF, "run", NULL}, *const no_env[] = {NULL};
        execve(SELF, args, no_env);
        printf("start: %s\n", err_name(errno));
        return 127;
    }
    if (strcmp(what, "child32") == 0) {
        printf("child32: %zu-byte pointers, result %lx\n", sizeof(void *), work(100000, 3));
        return 7;
    }
    if (strcmp(what, "run") != 0) {
        fprintf(stderr, "usage: mixed start | run | child32\n");
        return 2;
    }
    /* Start on the next 100 ms of virtual time, with a fresh time slice:
     * what ran before (the exec from a path of any length) leaves no trace. */
    struct timespec start = ts_of((now_ns(CLOCK_MONOTONIC) / (100 * MS) + 1) * 100 * MS);
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &start, NULL);
    long long t0 = now_ns(CLOCK_MONOTONIC);
    printf("start: %lld ns\n", t0);
    phase_threads();
    phase_timers();
    phase_pipe();
    phase_exec32();
    printf("total: %lld ns\n", now_ns(CLOCK_MONOTONIC) - t0);
    return 0;
}
