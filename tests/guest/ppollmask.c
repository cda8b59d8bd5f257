/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ppollmask.c - ppoll's signal mask: SIGUSR1 is blocked, ppoll waits with a
 * mask that lets it in, the handler runs and ppoll fails with EINTR, and
 * afterwards SIGUSR1 is blocked again. A ppoll that times out restores the
 * mask too. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
    caught = sig;
}

static int usr1_blocked(void)
{
    sigset_t now;
    sigprocmask(SIG_SETMASK, NULL, &now);
    return sigismember(&now, SIGUSR1);
}

int main(void)
{
    struct sigaction sa = {.sa_handler = on_usr1};
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t block, during;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, NULL);
    sigemptyset(&during);

    struct timespec short_wait = {0, 1000000};
    int r = ppoll(NULL, 0, &short_wait, &during);
    printf("ppoll timed out: %d, SIGUSR1 blocked after: %s\n", r, usr1_blocked() ? "yes" : "no");

    fflush(stdout);
    pid_t parent = getpid(), child = fork();
    if (child == 0) {
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
        kill(parent, SIGUSR1);
        _exit(0);
    }
    struct timespec long_wait = {10, 0};
    errno = 0;
    r = ppoll(NULL, 0, &long_wait, &during);
    printf("ppoll: %d %s, handler ran: %s, SIGUSR1 blocked after: %s\n", r,
           errno == EINTR ? "EINTR" : strerror(errno), caught == SIGUSR1 ? "yes" : "no",
           usr1_blocked() ? "yes" : "no");
    waitpid(child, NULL, 0);
    return 0;
}
