/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clonesig.c - clone's exit signal beyond the last signal (128): Linux's
 * legacy clone accepts it, sends the parent no signal when the child exits
 * (do_notify_parent sends only valid signals), and waitpid(__WALL) reaps
 * the child; clone3 refuses it with EINVAL. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static volatile sig_atomic_t signals_seen;

static void count(int sig)
{
    (void)sig;
    signals_seen++;
}

int main(void)
{
    for (int sig = 1; sig < 32; sig++)
        signal(sig, count); /* fails harmlessly for SIGKILL and SIGSTOP */
    long pid = syscall(SYS_clone, 128L, 0L, 0L, 0L, 0L);
    if (pid == 0)
        syscall(SYS_exit, 7);
    if (pid < 0) {
        printf("clone(128): %s\n", err_name(errno));
        return 1;
    }
    int status = 0;
    long r = waitpid((pid_t)pid, &status, __WALL);
    printf("clone(128): waitpid(__WALL) %s, exit status %d, signals %d\n",
           r == pid ? "reaped it" : "failed", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
           (int)signals_seen);
    uint64_t args[11] = {0};
    args[4] = 128; /* exit_signal */
    r = syscall(SYS_clone3, args, sizeof args);
    printf("clone3 exit_signal 128: %s\n", r < 0 ? err_name(errno) : "succeeded");
    return 0;
}
