/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procdir-signal.c - pidfd_send_signal takes a descriptor of a /proc/PID
 * directory as a pidfd, as Linux does (CPython's test_signal opens
 * /proc/<pid> with O_DIRECTORY); other descriptors are EBADF (proc.cmake). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
    (void)sig;
    got++;
}

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s = -1 %s\n", what, err_name(errno));
    else
        printf("%s = %ld\n", what, r);
}

static long send(int fd, int sig, unsigned flags)
{
    return syscall(SYS_pidfd_send_signal, fd, sig, NULL, flags);
}

static int open_proc(int pid, int flags)
{
    char path[32];
    snprintf(path, sizeof path, "/proc/%d", pid);
    return open(path, flags);
}

int main(void)
{
    signal(SIGUSR1, on_usr1);
    int null = open("/dev/null", O_RDONLY);
    show("send(/dev/null)", send(null, SIGUSR1, 0));
    int self = open_proc(getpid(), O_RDONLY | O_DIRECTORY);
    show("send(/proc/PID, SIGUSR1)", send(self, SIGUSR1, 0));
    printf("handler ran %d time(s)\n", got);
    show("send(/proc/PID, flags 1)", send(self, SIGUSR1, 1));
    int link = open("/proc/self", O_RDONLY | O_DIRECTORY);
    show("send(/proc/self, SIGUSR1)", send(link, SIGUSR1, 0));
    printf("handler ran %d time(s)\n", got);
    char task[48];
    snprintf(task, sizeof task, "/proc/%d/task/%d", getpid(), getpid());
    show("send(/proc/PID/task/TID)", send(open(task, O_RDONLY | O_DIRECTORY), SIGUSR1, 0));
    show("send(O_PATH /proc/PID)", send(open_proc(getpid(), O_PATH), SIGUSR1, 0));

    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(1);
    }
    int cfd = open_proc(child, O_RDONLY | O_DIRECTORY);
    show("send(/proc/CHILD, SIGTERM)", send(cfd, SIGTERM, 0));
    siginfo_t si;
    waitid(P_PID, child, &si, WEXITED | WNOWAIT);
    printf("child: %s by signal %d\n", si.si_code == CLD_KILLED ? "killed" : "?", si.si_status);
    show("send(/proc/ZOMBIE, 0)", send(cfd, 0, 0));
    waitpid(child, NULL, 0);
    show("send(/proc/REAPED, 0)", send(cfd, 0, 0));
    return 0;
}
