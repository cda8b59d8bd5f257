/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signalfd.c - signalfd: argument errnos, reading pending signals of the
 * mask as struct signalfd_siginfo (kill, sigqueue values, several records
 * per read, SIGCHLD's status), EAGAIN and blocking, poll and epoll
 * readiness, and a new mask for an existing signalfd. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static void rd(const char *what, int fd, size_t records)
{
    struct signalfd_siginfo si[3];
    memset(si, 0, sizeof si);
    ssize_t n = read(fd, si, records * sizeof *si);
    if (n < 0) {
        printf("%s: %s\n", what, err_name(errno));
        return;
    }
    printf("%s: %zd", what, n);
    for (size_t i = 0; i < (size_t)n / sizeof *si; i++)
        printf(" [signo %u code %d self %d int %d ptr %llu status %d]", si[i].ssi_signo,
               si[i].ssi_code, si[i].ssi_pid == (uint32_t)getpid(), si[i].ssi_int,
               (unsigned long long)si[i].ssi_ptr, si[i].ssi_status);
    printf("\n");
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    printf("sizeof %zu\n", sizeof(struct signalfd_siginfo));
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGUSR1);
    sigaddset(&mask, SIGUSR2);
    sigaddset(&mask, SIGRTMIN);
    sigaddset(&mask, SIGCHLD);
    sigprocmask(SIG_BLOCK, &mask, NULL);

    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigaddset(&usr1, SIGRTMIN);
    printf("bad flags: %s\n", signalfd(-1, &usr1, 1) < 0 ? err_name(errno) : "ok");
    printf("bad mask: %s\n", syscall(SYS_signalfd4, -1, 8, 8, 0) < 0 ? err_name(errno) : "ok");
    printf("not a signalfd: %s\n", signalfd(1, &usr1, 0) < 0 ? err_name(errno) : "ok");
    printf("bad fd: %s\n", signalfd(99, &usr1, 0) < 0 ? err_name(errno) : "ok");
    int fd = signalfd(-1, &usr1, SFD_NONBLOCK | SFD_CLOEXEC);
    printf("cloexec %d\n", fcntl(fd, F_GETFD) & FD_CLOEXEC);
    char link[64] = "", path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    readlink(path, link, sizeof link - 1);
    printf("link %s\n", link);
    rd("empty", fd, 1);
    struct pollfd p = {.fd = fd, .events = POLLIN};
    printf("poll empty: %d %#x\n", poll(&p, 1, 0), p.revents);
    kill(getpid(), SIGUSR1);
    printf("poll: %d %#x\n", poll(&p, 1, 0), p.revents);
    char small[100];
    printf("short read: %s\n", read(fd, small, sizeof small) < 0 ? err_name(errno) : "ok");
    rd("kill", fd, 1);
    union sigval v1 = {.sival_int = 1}, v2 = {.sival_int = 2};
    sigqueue(getpid(), SIGRTMIN, v1);
    sigqueue(getpid(), SIGRTMIN, v2);
    kill(getpid(), SIGUSR2); /* pending but not in the mask */
    rd("two queued", fd, 3);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 5}, out;
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    printf("epoll usr2 not in mask: %d\n", epoll_wait(ep, &out, 1, 0));
    sigaddset(&usr1, SIGUSR2);
    printf("new mask: %d\n", signalfd(fd, &usr1, 0) == fd);
    int n = epoll_wait(ep, &out, 1, 0);
    printf("epoll with usr2: %d %#x/%llu\n", n, out.events, (unsigned long long)out.data.u64);
    rd("usr2", fd, 1);

    /* Blocking: a child signals, and SIGCHLD carries its exit status. */
    sigaddset(&usr1, SIGCHLD);
    int b = signalfd(-1, &usr1, 0);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        usleep(20000);
        kill(parent, SIGUSR1);
        _exit(7);
    }
    struct signalfd_siginfo si;
    read(b, &si, sizeof si);
    printf("blocked read: signo %u from child %d\n", si.ssi_signo, si.ssi_pid == (uint32_t)pid);
    read(b, &si, sizeof si);
    printf("child: signo %u code %d status %d from child %d\n", si.ssi_signo, si.ssi_code,
           si.ssi_status, si.ssi_pid == (uint32_t)pid);
    waitpid(pid, NULL, 0);
#ifdef SYS_signalfd
    int legacy = (int)syscall(SYS_signalfd, -1, &usr1, 8);
#else
    int legacy = signalfd(-1, &usr1, 0);
#endif
    raise(SIGUSR2);
    rd("legacy", legacy, 1);
    return 0;
}
