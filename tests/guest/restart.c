/* SPDX-License-Identifier: GPL-2.0-or-later */
/* restart.c - what becomes of a blocking call a signal interrupts, by
 * Linux's four restart kinds. The first argument names the call and how it
 * is interrupted; a helper process sends the signals at fixed times, and the
 * call runs in a child (pid 1 would ignore SIGSTOP on Linux). Times are
 * printed in tenths of a second, which virtual time and real Linux agree on.
 *
 * How the call is interrupted (the second part of the name):
 *   handler    SIGUSR1 to a handler without SA_RESTART at 0.1 s
 *   restart    the same with SA_RESTART
 *   stop       SIGSTOP at 0.1 s, SIGCONT at 0.3 s: no handler runs
 *   ignored    SIGUSR1 at 0.1 s with SIG_IGN
 * The calls:
 *   read-*         read of a pipe written at 0.5 s (ERESTARTSYS)
 *   wait-*         waitpid of a child that exits 7 at 0.5 s (ERESTARTSYS)
 *   futex-*        FUTEX_WAIT woken by a thread at 0.5 s (ERESTARTSYS)
 *   futex-timed-*  FUTEX_WAIT with a 1 s timeout (ERESTART_RESTARTBLOCK)
 *   sigsuspend-*   sigsuspend, SIGUSR2 to a handler at 0.5 s (ERESTARTNOHAND)
 *   pause-*        the same with pause
 *   ppoll-*        ppoll without a timeout on a pipe written at 0.5 s
 *                  (ERESTARTNOHAND)
 *   poll-*         poll with a 1 s timeout (ERESTART_RESTARTBLOCK)
 *   nanosleep-*    a 1 s nanosleep: EINTR and the time left after a handler,
 *                  else the whole second (ERESTART_RESTARTBLOCK)
 *   absleep-*      clock_nanosleep TIMER_ABSTIME to 1 s from now
 *                  (ERESTARTNOHAND)
 *   restart_syscall  the guest calls restart_syscall itself: EINTR */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static volatile sig_atomic_t handled;
static long long start_ns;
static int pipe_fd[2];

static void sleep_until_ms(long long ms)
{
    struct timespec ts = ts_of(start_ns + ms * MS);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* Seconds since the start, to a tenth. */
static double elapsed(void)
{
    return (double)((now_ns(CLOCK_MONOTONIC) - start_ns + 50 * MS) / (100 * MS)) / 10;
}

static void on_signal(int sig)
{
    (void)sig;
    handled++;
}

static void install(int sig, void (*handler)(int), int flags)
{
    struct sigaction sa = {.sa_handler = handler, .sa_flags = flags};
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* How the call is interrupted: SIGUSR1's disposition, and the signals the
 * helper sends to the subject. */
static void arrange(const char *how, pid_t subject)
{
    pid_t helper = fork();
    if (helper != 0)
        return;
    if (strcmp(how, "stop") == 0) {
        sleep_until_ms(100);
        kill(subject, SIGSTOP);
        sleep_until_ms(300);
        kill(subject, SIGCONT);
    } else {
        sleep_until_ms(100);
        kill(subject, SIGUSR1);
    }
    _exit(0);
}

static void dispose(const char *how)
{
    if (strcmp(how, "handler") == 0)
        install(SIGUSR1, on_signal, 0);
    else if (strcmp(how, "restart") == 0)
        install(SIGUSR1, on_signal, SA_RESTART);
    else if (strcmp(how, "ignored") == 0)
        install(SIGUSR1, SIG_IGN, 0);
}

static void result(const char *call, long r)
{
    printf("%s %ld %s, handler ran %d, after %.1f s\n", call, r, r < 0 ? err_name(errno) : "ok",
           (int)handled, elapsed());
}

/* Something that happens at 0.5 s in another process or thread. */
static void later_write(void)
{
    if (fork() == 0) {
        sleep_until_ms(500);
        write(pipe_fd[1], "x", 1);
        _exit(0);
    }
}

static int call_read(void)
{
    later_write();
    char c;
    long r = read(pipe_fd[0], &c, 1);
    result("read", r);
    return 0;
}

static int call_wait(void)
{
    pid_t child = fork();
    if (child == 0) {
        sleep_until_ms(500);
        _exit(7);
    }
    int status = 0;
    long r = waitpid(child, &status, 0);
    result("waitpid", r == child ? 0 : r);
    if (r == child)
        printf("child exited %d\n", WEXITSTATUS(status));
    return 0;
}

static uint32_t futex_word;

static void *waker(void *arg)
{
    (void)arg;
    sleep_until_ms(500);
    __atomic_store_n(&futex_word, 1, __ATOMIC_SEQ_CST);
    syscall(SYS_futex, &futex_word, FUTEX_WAKE, 1, NULL, NULL, 0);
    return NULL;
}

static int call_futex(bool timed)
{
    pthread_t th;
    pthread_create(&th, NULL, waker, NULL);
    struct timespec ts = ts_of(1000 * MS);
    long r = syscall(SYS_futex, &futex_word, FUTEX_WAIT, 0, timed ? &ts : NULL, NULL, 0);
    result(timed ? "futex timed" : "futex", r);
    pthread_join(th, NULL);
    return 0;
}

static int call_sigsuspend(bool use_pause)
{
    /* SIGUSR2 comes at 0.5 s to a handler: the wait ends then at the latest. */
    install(SIGUSR2, on_signal, SA_RESTART);
    pid_t self = getpid();
    if (fork() == 0) {
        sleep_until_ms(500);
        kill(self, SIGUSR2);
        _exit(0);
    }
    sigset_t none;
    sigemptyset(&none);
    long r = use_pause ? pause() : sigsuspend(&none);
    result(use_pause ? "pause" : "sigsuspend", r);
    return 0;
}

static int call_ppoll(void)
{
    later_write();
    struct pollfd p = {.fd = pipe_fd[0], .events = POLLIN};
    long r = ppoll(&p, 1, NULL, NULL);
    result("ppoll", r);
    return 0;
}

static int call_poll(void)
{
    struct pollfd p = {.fd = pipe_fd[0], .events = POLLIN};
    long r = poll(&p, 1, 1000);
    result("poll", r);
    return 0;
}

static int call_nanosleep(void)
{
    struct timespec ts = ts_of(1000 * MS), rem = {0, 0};
    long r = nanosleep(&ts, &rem);
    result("nanosleep", r);
    if (r < 0)
        printf("time left %.1f s\n", (double)((rem.tv_sec * 1000 + rem.tv_nsec / MS + 50) / 100) / 10);
    return 0;
}

static int call_absleep(void)
{
    struct timespec ts = ts_of(start_ns + 1000 * MS);
    int e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    errno = e;
    result("clock_nanosleep abs", e ? -1 : 0);
    return 0;
}

static int run_call(const char *call)
{
    if (strcmp(call, "read") == 0)
        return call_read();
    if (strcmp(call, "wait") == 0)
        return call_wait();
    if (strcmp(call, "futex") == 0)
        return call_futex(false);
    if (strcmp(call, "futex-timed") == 0)
        return call_futex(true);
    if (strcmp(call, "sigsuspend") == 0)
        return call_sigsuspend(false);
    if (strcmp(call, "pause") == 0)
        return call_sigsuspend(true);
    if (strcmp(call, "ppoll") == 0)
        return call_ppoll();
    if (strcmp(call, "poll") == 0)
        return call_poll();
    if (strcmp(call, "nanosleep") == 0)
        return call_nanosleep();
    if (strcmp(call, "absleep") == 0)
        return call_absleep();
    printf("unknown call %s\n", call);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    setvbuf(stdout, NULL, _IONBF, 0);
    if (strcmp(argv[1], "restart_syscall") == 0) {
        long r = syscall(SYS_restart_syscall);
        printf("restart_syscall %ld %s\n", r, r < 0 ? err_name(errno) : "ok");
        return 0;
    }
    char call[64];
    const char *dash = strrchr(argv[1], '-');
    if (!dash || (size_t)(dash - argv[1]) >= sizeof call)
        return 2;
    memcpy(call, argv[1], (size_t)(dash - argv[1]));
    call[dash - argv[1]] = '\0';
    const char *how = dash + 1;
    if (pipe(pipe_fd) != 0)
        return 1;
    start_ns = now_ns(CLOCK_MONOTONIC);
    pid_t subject = fork();
    if (subject == 0) {
        dispose(how);
        /* The disposition is in place before the helper can signal. */
        arrange(how, getpid());
        _exit(run_call(call));
    }
    int status;
    while (wait(&status) != subject)
        ;
    while (wait(NULL) > 0)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
