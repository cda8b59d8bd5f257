/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ioctls: the requests every file takes (FIONREAD, FIONBIO, FIOASYNC,
 * FIOCLEX/FIONCLEX, FIOQSIZE) on each kind of file, with the errno Linux
 * gives where the kind has no such request. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *what, int r, long value)
{
    if (r < 0)
        printf("%-28s %s\n", what, strerrorname_np(errno));
    else
        printf("%-28s %ld\n", what, value);
}

static void nread(const char *what, int fd)
{
    int n = -1;
    int r = ioctl(fd, FIONREAD, &n);
    show(what, r, n);
}

static void async(const char *what, int fd, int on)
{
    int r = ioctl(fd, FIOASYNC, &on);
    char line[64];
    snprintf(line, sizeof line, "%s FIOASYNC %d", what, on);
    show(line, r, (fcntl(fd, F_GETFL) & O_ASYNC) ? 1 : 0);
}

static void qsize(const char *what, int fd)
{
    int64_t bytes = -1;
    struct stat st;
    int r = ioctl(fd, FIOQSIZE, &bytes);
    fstat(fd, &st);
    char line[64];
    snprintf(line, sizeof line, "%s FIOQSIZE", what);
    show(line, r, r < 0 ? 0 : bytes == (int64_t)st.st_blocks * 512);
}

int main(void)
{
    int p[2];
    if (pipe(p) < 0 || write(p[1], "hello", 5) != 5)
        return 1;
    nread("pipe FIONREAD", p[0]);
    async("pipe", p[0], 1);
    async("pipe", p[0], 0);
    qsize("pipe", p[0]);
    int on = 1;
    ioctl(p[0], FIONBIO, &on);
    printf("%-28s %d\n", "pipe FIONBIO 1: O_NONBLOCK", (fcntl(p[0], F_GETFL) & O_NONBLOCK) != 0);
    ioctl(p[0], FIOCLEX);
    printf("%-28s %d\n", "pipe FIOCLEX: FD_CLOEXEC", fcntl(p[0], F_GETFD));
    ioctl(p[0], FIONCLEX);
    printf("%-28s %d\n", "pipe FIONCLEX: FD_CLOEXEC", fcntl(p[0], F_GETFD));

    char path[] = "/tmp/ioctls.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, "0123456789", 10) != 10 || lseek(fd, 3, SEEK_SET) != 3)
        return 1;
    nread("file at 3 of 10 FIONREAD", fd);
    lseek(fd, 12, SEEK_SET);
    nread("file at 12 of 10 FIONREAD", fd);
    async("file", fd, 0);
    async("file", fd, 1);
    qsize("file", fd);
    unlink(path);

    int dir = open("/tmp", O_RDONLY | O_DIRECTORY);
    nread("directory FIONREAD", dir);
    qsize("directory", dir);

    char fifo[] = "/tmp/ioctls-fifo";
    unlink(fifo);
    if (mkfifo(fifo, 0600) < 0)
        return 1;
    int fr = open(fifo, O_RDONLY | O_NONBLOCK), fw = open(fifo, O_WRONLY);
    if (fr < 0 || fw < 0 || write(fw, "abcd", 4) != 4)
        return 1;
    nread("fifo FIONREAD", fr);
    async("fifo", fr, 1);
    unlink(fifo);

    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 || write(sv[0], "sixsix", 6) != 6)
        return 1;
    nread("socket FIONREAD", sv[1]);
    async("socket", sv[1], 1);

    int efd = eventfd(3, 0);
    nread("eventfd FIONREAD", efd);
    async("eventfd", efd, 1);

    int null = open("/dev/null", O_RDONLY);
    nread("/dev/null FIONREAD", null);
    async("/dev/null", null, 1);
    int rnd = open("/dev/urandom", O_RDONLY);
    nread("/dev/urandom FIONREAD", rnd);
    async("/dev/urandom", rnd, 1);

    /* The console: stdin is a 42-byte file (the test's STDIN), 5 read. */
    char head[5];
    if (read(0, head, sizeof head) != sizeof head)
        return 1;
    nread("console FIONREAD", 0);
    return 0;
}
