/* SPDX-License-Identifier: GPL-2.0-or-later */
/* threads.c - pthreads on futexes: mutexes, condition variables, joins,
 * pthread_exit, exit() from a thread, timed waits, and a multithreaded
 * process killed by a signal. The first argument names the case:
 *
 *   prodcons   2 producers and 2 consumers through a bounded buffer
 *              (mutex + two condvars), and 4 threads sharing a counter
 *   ids        gettid/getpid in threads, pthread_exit values, detached
 *   exit       a thread calls exit(42) while the others block (status 42)
 *   mainexit   main calls pthread_exit; the last thread ends the process
 *   timedwait  pthread_cond_timedwait on CLOCK_MONOTONIC times out
 *   kill SIG   a child with a spinning, a reading and a sleeping thread is
 *              sent SIG by its parent; the parent prints the status
 *   fault      a non-main thread faults: the whole process dies (139) */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ITEMS 20000 /* per producer */
#define SLOTS 16
#define PRODUCERS 2
#define CONSUMERS 2
#define INCREMENTS 50000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static long slots[SLOTS];
static int head, used;

static void put(long v)
{
    pthread_mutex_lock(&lock);
    while (used == SLOTS)
        pthread_cond_wait(&not_full, &lock);
    slots[(head + used) % SLOTS] = v;
    used++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&lock);
}

static long take(void)
{
    pthread_mutex_lock(&lock);
    while (used == 0)
        pthread_cond_wait(&not_empty, &lock);
    long v = slots[head];
    head = (head + 1) % SLOTS;
    used--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&lock);
    return v;
}

struct consumed {
    long count;
    long long sum;
};

static void *producer(void *arg)
{
    long id = (long)arg;
    for (long i = 1; i <= ITEMS; i++)
        put(id * 1000000 + i);
    return (void *)(id * 100 + 1);
}

static void *consumer(void *arg)
{
    struct consumed *c = arg;
    for (;;) {
        long v = take();
        if (v < 0)
            return c;
        c->count++;
        c->sum += v;
    }
}

static long counter;

static void *incrementer(void *arg)
{
    (void)arg;
    for (int i = 0; i < INCREMENTS; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static int run_prodcons(void)
{
    pthread_t prod[PRODUCERS], cons[CONSUMERS];
    struct consumed got[CONSUMERS];
    memset(got, 0, sizeof got);
    for (long i = 0; i < CONSUMERS; i++)
        pthread_create(&cons[i], NULL, consumer, &got[i]);
    for (long i = 0; i < PRODUCERS; i++)
        pthread_create(&prod[i], NULL, producer, (void *)(i + 1));
    for (int i = 0; i < PRODUCERS; i++) {
        void *r;
        pthread_join(prod[i], &r);
        printf("producer %d returned %ld\n", i + 1, (long)r);
    }
    for (int i = 0; i < CONSUMERS; i++)
        put(-1);
    long count = 0;
    long long sum = 0;
    for (int i = 0; i < CONSUMERS; i++) {
        void *r;
        pthread_join(cons[i], &r);
        if (r != &got[i])
            printf("consumer %d returned the wrong pointer\n", i);
        count += got[i].count;
        sum += got[i].sum;
    }
    printf("consumed %ld items, sum %lld\n", count, sum);

    pthread_t inc[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&inc[i], NULL, incrementer, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(inc[i], NULL);
    printf("counter %ld\n", counter);
    return 0;
}

static pid_t main_pid;

static void *identify(void *arg)
{
    long tid = syscall(SYS_gettid);
    int ok = getpid() == main_pid && tid != main_pid;
    if ((long)arg == 2)
        pthread_exit((void *)(long)(ok ? 222 : -1));
    return (void *)(long)(ok ? 111 : -1);
}

static volatile int detached_ran;

static void *detached(void *arg)
{
    (void)arg;
    detached_ran = 1;
    return NULL;
}

static int run_ids(void)
{
    main_pid = getpid();
    printf("main: gettid == getpid %s\n", syscall(SYS_gettid) == main_pid ? "yes" : "no");
    for (long i = 1; i <= 2; i++) {
        pthread_t t;
        void *r;
        pthread_create(&t, NULL, identify, (void *)i);
        pthread_join(t, &r);
        printf("thread %ld (%s): %ld\n", i, i == 2 ? "pthread_exit" : "return", (long)r);
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    pthread_create(&t, &attr, detached, NULL);
    while (!detached_ran)
        sched_yield();
    printf("detached thread ran\n");
    return 0;
}

static void *block_forever(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;)
        pthread_cond_wait(&not_empty, &lock);
    return NULL;
}

static void *sleep_long(void *arg)
{
    (void)arg;
    struct timespec ts = {1000, 0};
    nanosleep(&ts, NULL);
    return NULL;
}

static void *call_exit(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 10 * 1000000L};
    nanosleep(&ts, NULL);
    printf("thread calling exit(42)\n");
    exit(42);
}

static int run_exit(void)
{
    pthread_t a, b, c;
    pthread_create(&a, NULL, block_forever, NULL);
    pthread_create(&b, NULL, sleep_long, NULL);
    pthread_create(&c, NULL, call_exit, NULL);
    printf("main joining a thread that never ends\n");
    pthread_join(a, NULL);
    printf("join returned\n");
    return 1;
}

static void *last_thread(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
    printf("last thread done\n");
    return NULL;
}

static int run_mainexit(void)
{
    pthread_t t;
    pthread_create(&t, NULL, last_thread, NULL);
    printf("main calls pthread_exit\n");
    pthread_exit(NULL);
}

static void *try_lock(void *mutex)
{
    return (void *)(intptr_t)pthread_mutex_trylock(mutex);
}

static int run_timedwait(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_t cond;
    pthread_cond_init(&cond, &attr);
    struct timespec start, deadline, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    deadline = start;
    deadline.tv_nsec += 30 * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&lock);
    int r = pthread_cond_timedwait(&cond, &lock, &deadline);
    pthread_mutex_unlock(&lock);
    clock_gettime(CLOCK_MONOTONIC, &end);
    long long ms = (end.tv_sec - start.tv_sec) * 1000LL + (end.tv_nsec - start.tv_nsec) / 1000000;
    printf("pthread_cond_timedwait: %s, waited at least 30 ms %s\n",
           r == ETIMEDOUT ? "ETIMEDOUT" : strerror(r), ms >= 30 ? "yes" : "no");

    r = pthread_mutex_trylock(&lock);
    printf("trylock free: %d\n", r);
    pthread_t t;
    void *res;
    pthread_create(&t, NULL, try_lock, &lock);
    pthread_join(t, &res);
    int busy = (int)(intptr_t)res;
    printf("trylock held by another thread: %s\n", busy == EBUSY ? "EBUSY" : "?");
    pthread_mutex_unlock(&lock);
    return 0;
}

static volatile long spins;
static int ready_pipe[2];

static void *spin(void *arg)
{
    (void)arg;
    write(ready_pipe[1], "s", 1);
    for (;;)
        spins++;
    return NULL;
}

static void *read_forever(void *arg)
{
    (void)arg;
    int p[2];
    pipe(p);
    write(ready_pipe[1], "r", 1);
    char c;
    read(p[0], &c, 1);
    return NULL;
}

static void *sleep_long_ready(void *arg)
{
    write(ready_pipe[1], "n", 1);
    return sleep_long(arg);
}

/* The child: three threads that each say they started, and main joining. */
static void threaded_victim(void)
{
    pthread_t a, b, c;
    pthread_create(&a, NULL, spin, NULL);
    pthread_create(&b, NULL, read_forever, NULL);
    pthread_create(&c, NULL, sleep_long_ready, NULL);
    pthread_join(a, NULL);
    _exit(0);
}

static int run_kill(int sig)
{
    pipe(ready_pipe);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        threaded_victim();
    char c[3];
    for (size_t got = 0; got < sizeof c;) {
        ssize_t n = read(ready_pipe[0], c + got, sizeof c - got);
        if (n <= 0)
            return 1;
        got += (size_t)n;
    }
    printf("child has 4 threads; sending signal %d\n", sig);
    kill(pid, sig);
    int status;
    pid_t r = waitpid(pid, &status, 0);
    printf("waitpid %s: WIFSIGNALED %d WTERMSIG %d\n", r == pid ? "ok" : "failed",
           WIFSIGNALED(status), WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    return 0;
}

static void *fault(void *arg)
{
    (void)arg;
    volatile int *volatile p = NULL;
    *p = 1;
    return NULL;
}

static int run_fault(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, sleep_long, NULL);
    printf("a thread stores through NULL\n");
    fflush(stdout);
    pthread_create(&b, NULL, fault, NULL);
    pthread_join(a, NULL);
    printf("still alive\n");
    return 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "prodcons") == 0)
        return run_prodcons();
    if (strcmp(mode, "ids") == 0)
        return run_ids();
    if (strcmp(mode, "exit") == 0)
        return run_exit();
    if (strcmp(mode, "mainexit") == 0)
        return run_mainexit();
    if (strcmp(mode, "timedwait") == 0)
        return run_timedwait();
    if (strcmp(mode, "kill") == 0 && argc > 2)
        return run_kill(atoi(argv[2]));
    if (strcmp(mode, "fault") == 0)
        return run_fault();
    printf("usage: threads prodcons | ids | exit | mainexit | timedwait | kill SIG | fault\n");
    return 2;
}
