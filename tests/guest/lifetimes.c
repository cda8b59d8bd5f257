/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lifetimes.c - a vfork parent that dies while it waits for its child, and
 * the signals that may or may not end that wait. The first argument names
 * the case; pid 1 starts the vfork parent P, which vforks the child C, and
 * reports when each ended (tenths of a second, which virtual time and real
 * Linux agree on).
 *   exit-group  a thread of P calls exit_group(3) at 0.1 s while P's main
 *               thread waits in vfork (P is reaped before C exits)
 *   kill        SIGKILL to P at 0.1 s: it dies at once (the wait is killable)
 *   term        SIGTERM, which P does not handle: it dies at once too
 *   quit        SIGQUIT: fatal but dumps core, so it waits for C, as Linux
 *               converts only the other fatal signals to a group SIGKILL
 *   handler     SIGUSR1 to a handler at 0.1 s: vfork is not interruptible,
 *               the handler runs when vfork returns at 0.3 s
 *   threads     no vfork: 200 threads run a little and exit, one after the
 *               other; the process's CPU time still counts theirs once
 *               they are gone (asymu frees an exited thread's task)
 * C sleeps 0.3 s (0.9 s for kill and term), says whether P is gone, and
 * exits 5; pid 1 sees it go when the pipe C holds reaches its end (C is
 * not its child, and on the host its orphan goes to the host's reaper). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static long long start_ns;
static volatile long long handled_ns = -1;

static double elapsed(long long ns)
{
    return (double)((ns - start_ns + 50 * MS) / (100 * MS)) / 10;
}

static void sleep_ms(long long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * MS};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Runs in the vfork child: stdio and the heap belong to the parent, so it
 * formats on its own stack and writes directly. */
static void child(long long sleep)
{
    pid_t parent = getppid();
    sleep_ms(sleep);
    char line[64];
    int n = snprintf(line, sizeof line, "child: parent %s\n",
                     getppid() == parent ? "still there" : "gone");
    write(1, line, (size_t)n);
    _exit(5);
}

static void *exit_group_later(void *arg)
{
    (void)arg;
    sleep_ms(100);
    _exit(3);
}

static void on_usr1(int sig)
{
    (void)sig;
    handled_ns = now_ns(CLOCK_MONOTONIC);
}

static long long cpu_ns(clockid_t clk)
{
    struct timespec ts;
    if (clock_gettime(clk, &ts) != 0)
        return -errno;
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long threads_cpu_ns;

static void *spin_and_exit(void *arg)
{
    (void)arg;
    for (volatile int i = 0; i < 20000; i++)
        ;
    __atomic_add_fetch(&threads_cpu_ns, cpu_ns(CLOCK_THREAD_CPUTIME_ID), __ATOMIC_SEQ_CST);
    return NULL;
}

static int exited_threads(void)
{
    for (int i = 0; i < 200; i++) {
        pthread_t th;
        pthread_create(&th, NULL, spin_and_exit, NULL);
        pthread_join(th, NULL);
    }
    long long others = cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu_ns(CLOCK_THREAD_CPUTIME_ID);
    printf("process CPU time counts the exited threads': %s\n",
           threads_cpu_ns > 0 && others >= threads_cpu_ns ? "yes" : "no");
    return 0;
}

static void vfork_parent(const char *how)
{
    long long sleep = strcmp(how, "kill") == 0 || strcmp(how, "term") == 0 ? 900 : 300;
    if (strcmp(how, "exit-group") == 0) {
        pthread_t th;
        pthread_create(&th, NULL, exit_group_later, NULL);
    }
    if (strcmp(how, "handler") == 0)
        signal(SIGUSR1, on_usr1);
    pid_t c = vfork();
    if (c == 0)
        child(sleep);
    long long back = now_ns(CLOCK_MONOTONIC);
    printf("P: vfork returned at %.1f s, handler ran %s%.1f s\n", elapsed(back),
           handled_ns < 0 ? "never " : "at ", handled_ns < 0 ? 0.0 : elapsed(handled_ns));
    int st;
    waitpid(c, &st, 0);
    printf("P: child exited %d\n", WEXITSTATUS(st));
    exit(0);
}


int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: lifetimes exit-group|kill|term|quit|handler|threads\n");
        return 2;
    }
    const char *how = argv[1];
    setvbuf(stdout, NULL, _IONBF, 0);
    if (strcmp(how, "threads") == 0)
        return exited_threads();
    start_ns = now_ns(CLOCK_MONOTONIC);
    int gone[2];
    pipe(gone);
    pid_t p = fork();
    if (p == 0) {
        close(gone[0]);
        vfork_parent(how);
    }
    close(gone[1]);
    int sig = strcmp(how, "kill") == 0 ? SIGKILL : strcmp(how, "term") == 0 ? SIGTERM
            : strcmp(how, "quit") == 0 ? SIGQUIT : strcmp(how, "handler") == 0 ? SIGUSR1 : 0;
    if (sig) {
        sleep_ms(100);
        kill(p, sig);
    }
    int st;
    waitpid(p, &st, 0);
    if (WIFEXITED(st))
        printf("P exited %d at %.1f s\n", WEXITSTATUS(st), elapsed(now_ns(CLOCK_MONOTONIC)));
    else
        printf("P killed by SIG%s%s at %.1f s\n", sigabbrev_np(WTERMSIG(st)),
               WCOREDUMP(st) ? " (core dumped)" : "", elapsed(now_ns(CLOCK_MONOTONIC)));
    char byte;
    while (read(gone[0], &byte, 1) > 0)
        ;
    printf("C gone at %.1f s\n", elapsed(now_ns(CLOCK_MONOTONIC)));
    return 0;
}
