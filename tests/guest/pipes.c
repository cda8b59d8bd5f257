/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipes.c - pipes between processes. The first argument names the case:
 *
 *   bulk          the parent writes 200000 bytes in uneven chunks to a child
 *                 that counts and checksums them until EOF
 *   pingpong N    N round trips of a counter through two pipes
 *   dup2exec PROG ARGS...  a child with the pipe as stdout execs PROG; the
 *                 parent prints what came through
 *   nonblock      O_NONBLOCK: EAGAIN when empty and when full, the capacity,
 *                 poll's POLLIN and POLLHUP, EOF after the writer closes */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define BULK_BYTES 200000

static unsigned char pattern(size_t i)
{
    return (unsigned char)(i * 31 + (i >> 9));
}

static uint32_t fnv1a(uint32_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static int wait_exit(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run_bulk(void)
{
    int p[2];
    if (pipe(p) != 0)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[1]);
        unsigned char buf[5000];
        size_t total = 0;
        uint32_t h = 2166136261u;
        int in_order = 1;
        ssize_t n;
        while ((n = read(p[0], buf, sizeof buf)) > 0) {
            for (ssize_t i = 0; i < n; i++)
                in_order &= buf[i] == pattern(total + (size_t)i);
            h = fnv1a(h, buf, (size_t)n);
            total += (size_t)n;
        }
        printf("child: read %zu bytes until %s, fnv1a %#x, in order %s\n", total,
               n == 0 ? "EOF" : err_name(errno), h, in_order ? "yes" : "no");
        fflush(stdout);
        _exit(0);
    }
    close(p[0]);
    static unsigned char data[BULK_BYTES];
    for (size_t i = 0; i < BULK_BYTES; i++)
        data[i] = pattern(i);
    static const size_t chunks[] = {1, 100, 4096, 70000, 333, 65536};
    size_t off = 0;
    for (int k = 0; off < BULK_BYTES; k++) {
        size_t len = chunks[k % 6];
        if (len > BULK_BYTES - off)
            len = BULK_BYTES - off;
        ssize_t n = write(p[1], data + off, len);
        if (n <= 0) {
            printf("write failed: %s\n", err_name(errno));
            return 1;
        }
        off += (size_t)n;
    }
    close(p[1]);
    int status = wait_exit(pid);
    printf("parent: wrote %zu bytes, fnv1a %#x, child exited %d\n", off,
           fnv1a(2166136261u, data, BULK_BYTES), status);
    return 0;
}

static int run_pingpong(int rounds)
{
    int to_child[2], to_parent[2];
    if (pipe(to_child) != 0 || pipe(to_parent) != 0)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(to_child[1]);
        close(to_parent[0]);
        int v;
        while (read(to_child[0], &v, sizeof v) == sizeof v) {
            v++;
            write(to_parent[1], &v, sizeof v);
        }
        _exit(0);
    }
    close(to_child[0]);
    close(to_parent[1]);
    int v = 0;
    for (int i = 0; i < rounds; i++) {
        v++;
        write(to_child[1], &v, sizeof v);
        if (read(to_parent[0], &v, sizeof v) != sizeof v) {
            printf("short read at round %d\n", i);
            return 1;
        }
    }
    close(to_child[1]);
    printf("after %d round trips: %d, child exited %d\n", rounds, v, wait_exit(pid));
    return 0;
}

static int run_dup2exec(char **argv)
{
    int p[2];
    if (pipe(p) != 0)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        close(p[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    char buf[4096];
    size_t total = 0;
    ssize_t n;
    while (total < sizeof buf - 1 && (n = read(p[0], buf + total, sizeof buf - 1 - total)) > 0)
        total += (size_t)n;
    buf[total] = '\0';
    int status = wait_exit(pid);
    int lines = 0;
    for (size_t i = 0; i < total; i++)
        lines += buf[i] == '\n';
    printf("parent read %d lines, child exited %d:\n", lines, status);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        printf("| %s\n", line);
    return 0;
}

static void show_poll(const char *what, struct pollfd *pfd)
{
    pfd->revents = 0;
    int r = poll(pfd, 1, 0);
    printf("poll %s: %d revents %#x\n", what, r, pfd->revents);
}

static int run_nonblock(void)
{
    int p[2];
    if (pipe2(p, O_NONBLOCK) != 0)
        return 1;
    printf("F_GETFL O_NONBLOCK %s, F_GETPIPE_SZ %d\n",
           (fcntl(p[0], F_GETFL) & O_NONBLOCK) ? "set" : "clear", fcntl(p[0], F_GETPIPE_SZ));
    char c;
    errno = 0;
    ssize_t n = read(p[0], &c, 1);
    printf("read from empty: %zd %s\n", n, err_name(errno));
    struct pollfd pfd = {.fd = p[0], .events = POLLIN};
    show_poll("empty", &pfd);

    static char block[4096];
    size_t total = 0;
    while ((n = write(p[1], block, sizeof block)) > 0)
        total += (size_t)n;
    printf("filled with %zu bytes, then write %zd %s\n", total, n, err_name(errno));
    struct pollfd wfd = {.fd = p[1], .events = POLLOUT};
    show_poll("full for writing", &wfd);
    show_poll("full for reading", &pfd);

    close(p[1]);
    size_t drained = 0;
    static char buf[8192];
    while ((n = read(p[0], buf, sizeof buf)) > 0)
        drained += (size_t)n;
    printf("drained %zu bytes, then read %zd\n", drained, n);
    show_poll("after writer closed", &pfd);

    fcntl(p[0], F_SETFL, 0);
    printf("F_SETFL 0: O_NONBLOCK %s\n", (fcntl(p[0], F_GETFL) & O_NONBLOCK) ? "set" : "clear");
    return 0;
}

/* FIONBIO, FIOCLEX and FIONCLEX work on any descriptor (do_vfs_ioctl). */
static void fionbio(const char *what, int fd)
{
    char c;
    int on = 1, off = 0;
    printf("%s FIONBIO 1: %d\n", what, ioctl(fd, FIONBIO, &on));
    printf("%s O_NONBLOCK: %d\n", what, !!(fcntl(fd, F_GETFL) & O_NONBLOCK));
    ssize_t n = read(fd, &c, 1);
    printf("%s read: %zd %s\n", what, n, n < 0 ? err_name(errno) : "");
    printf("%s FIONBIO 0: %d\n", what, ioctl(fd, FIONBIO, &off));
    printf("%s O_NONBLOCK: %d\n", what, !!(fcntl(fd, F_GETFL) & O_NONBLOCK));
    printf("%s FIOCLEX: %d FD_CLOEXEC %d\n", what, ioctl(fd, FIOCLEX), fcntl(fd, F_GETFD));
    printf("%s FIONCLEX: %d FD_CLOEXEC %d\n", what, ioctl(fd, FIONCLEX), fcntl(fd, F_GETFD));
}

static int run_ioctls(void)
{
    int p[2], s[2];
    if (pipe(p) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, s) != 0)
        return 1;
    fionbio("pipe", p[0]);
    fionbio("socket", s[0]);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "bulk") == 0)
        return run_bulk();
    if (strcmp(mode, "pingpong") == 0 && argc > 2)
        return run_pingpong(atoi(argv[2]));
    if (strcmp(mode, "dup2exec") == 0 && argc > 2)
        return run_dup2exec(argv + 2);
    if (strcmp(mode, "nonblock") == 0)
        return run_nonblock();
    if (strcmp(mode, "ioctls") == 0)
        return run_ioctls();
    printf("usage: pipes bulk | pingpong N | dup2exec PROG ARGS... | nonblock | ioctls\n");
    return 2;
}
