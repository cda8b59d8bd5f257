/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipewrite.c - a blocking write to a pipe writes everything, waiting for
 * the reader as often as it must; a signal ends it with what it wrote (the
 * pipe's 64 KiB), and EINTR only when it wrote nothing. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define BIG 300000

static char buf[BIG];

static void on_alarm(int sig)
{
    (void)sig;
}

static void alarm_in_50ms(void)
{
    struct itimerval it = {{0, 0}, {0, 50000}};
    setitimer(ITIMER_REAL, &it, NULL);
}

int main(void)
{
    int p[2];
    if (pipe(p))
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        close(p[1]);
        long total = 0, n;
        char in[4096];
        while ((n = read(p[0], in, sizeof in)) > 0)
            total += n;
        printf("reader got %ld\n", total);
        return 0;
    }
    close(p[0]);
    printf("write to a slow reader: %zd\n", write(p[1], buf, BIG));
    close(p[1]);
    waitpid(pid, NULL, 0);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART */
    sigaction(SIGALRM, &sa, NULL);
    if (pipe(p))
        return 1;
    alarm_in_50ms();
    printf("write interrupted after filling the pipe: %zd\n", write(p[1], buf, BIG));
    alarm_in_50ms();
    ssize_t n = write(p[1], buf, BIG);
    printf("write interrupted with the pipe full: %zd %s\n", n, n < 0 ? err_name(errno) : "");
    return 0;
}
