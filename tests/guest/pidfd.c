/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pidfd.c - pidfds: pidfd_open's errnos, readiness once the process has
 * exited (poll and epoll), waitid(P_PIDFD) (with PIDFD_NONBLOCK's EAGAIN),
 * and pidfd_send_signal to a live, an exited and a reaped process. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#define PIDFD_NONBLOCK O_NONBLOCK

static int pidfd_open(pid_t pid, unsigned flags)
{
    return (int)syscall(SYS_pidfd_open, pid, flags);
}

static int send(int fd, int sig)
{
    return (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
}

static void show(const char *what, int r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %d\n", what, r);
}

static void pl(const char *what, int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1, 0);
    printf("%s: %d %#x\n", what, n, p.revents);
}

static pid_t child(int code, int delay_ms)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (delay_ms < 0)
            pause();
        usleep((useconds_t)delay_ms * 1000);
        _exit(code);
    }
    return pid;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    show("pid 0", pidfd_open(0, 0));
    show("bad flags", pidfd_open(getpid(), 1));
    show("no such pid", pidfd_open(99999, 0));
    int self = pidfd_open(getpid(), 0);
    printf("cloexec %d\n", fcntl(self, F_GETFD) & FD_CLOEXEC);
    char link[64] = "", path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", self);
    readlink(path, link, sizeof link - 1);
    printf("link %s\n", link);
    pl("poll self", self);
    show("signal 0 to self", send(self, 0));
    show("bad flags to send", (int)syscall(SYS_pidfd_send_signal, self, 0, NULL, 8));
    show("send on a pipe", send(1, 0));
    show("bad signal", send(self, 99));
    siginfo_t si;
    show("waitid self", waitid(P_PIDFD, self, &si, WEXITED));
    show("waitid not a pidfd", waitid(P_PIDFD, 1, &si, WEXITED));

    pid_t pid = child(3, 30);
    int fd = pidfd_open(pid, 0);
    int nb = pidfd_open(pid, PIDFD_NONBLOCK);
    pl("running", fd);
    show("nonblocking waitid", waitid(P_PIDFD, nb, &si, WEXITED));
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 9}, out;
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    int n = epoll_wait(ep, &out, 1, 1000);
    printf("epoll exit: %d %#x/%llu\n", n, out.events, (unsigned long long)out.data.u64);
    pl("exited", fd);
    show("signal to a zombie", send(fd, SIGTERM));
    memset(&si, 0, sizeof si);
    show("waitid", waitid(P_PIDFD, fd, &si, WEXITED));
    printf("si: pid %d code %d status %d\n", si.si_pid == pid, si.si_code, si.si_status);
    /* Linux 6.9 added POLLHUP once reaped; 5.15 has POLLIN alone. */
    struct pollfd p = {.fd = fd, .events = POLLIN};
    printf("reaped: %d %#x\n", poll(&p, 1, 0), p.revents & POLLIN);
    show("signal after reap", send(fd, SIGTERM));
    show("waitid after reap", waitid(P_PIDFD, fd, &si, WEXITED));
    close(fd);
    close(nb);

    pid = child(0, -1);
    fd = pidfd_open(pid, 0);
    show("sigterm", send(fd, SIGTERM));
    int status;
    waitpid(pid, &status, 0);
    printf("killed by %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    return 0;
}
