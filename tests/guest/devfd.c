/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devfd.c - /dev/stdin, /dev/fd/N and /proc/self/fd/N open the file the
 * descriptor has open, as Linux's magic links do: a pipe's end again (a new
 * reader or writer), a file again (its own offset), ENXIO for a socket
 * (proc.cmake). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest.h"

static int open_fd_link(const char *fmt, int fd, int flags)
{
    char path[64];
    snprintf(path, sizeof path, fmt, fd);
    return open(path, flags);
}

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s = -1 %s\n", what, err_name(errno));
    else
        printf("%s = %ld\n", what, r);
}

static const char *kind(mode_t m)
{
    return S_ISFIFO(m) ? "fifo" : S_ISREG(m) ? "file" : S_ISLNK(m) ? "symlink" : "other";
}

int main(void)
{
    char buf[64];
    struct stat st;
    int p[2];
    pipe(p);
    write(p[1], "abc", 3);
    dup2(p[0], 0);

    int in = open("/dev/stdin", O_RDONLY);
    show("open(/dev/stdin) is a new descriptor", in > 2 ? 1 : in);
    show("read(/dev/stdin)", read(in, buf, sizeof buf));
    show("stat(/dev/stdin) is a fifo", stat("/dev/stdin", &st) == 0 && S_ISFIFO(st.st_mode));
    lstat("/dev/stdin", &st);
    printf("lstat(/dev/stdin): %s\n", kind(st.st_mode));
    ssize_t n = readlink("/dev/stdin", buf, sizeof buf);
    printf("readlink(/dev/stdin) = %.*s\n", (int)n, buf);

    /* A second writer: the reader sees end of file only once both close. */
    int w = open_fd_link("/dev/fd/%d", p[1], O_WRONLY);
    show("write(/dev/fd/W)", write(w, "xy", 2));
    close(p[1]);
    show("read after closing the first writer", read(in, buf, sizeof buf));
    fcntl(in, F_SETFL, O_NONBLOCK);
    show("read, empty, one writer left", read(in, buf, sizeof buf));
    close(w);
    show("read, no writer left", read(in, buf, sizeof buf));

    int q[2];
    pipe(q);
    close(q[0]);
    show("open(/proc/self/fd/W, O_WRONLY|O_NONBLOCK), no reader",
         open_fd_link("/proc/self/fd/%d", q[1], O_WRONLY | O_NONBLOCK));
    show("open(/proc/self/fd/W, O_NOFOLLOW)",
         open_fd_link("/proc/self/fd/%d", q[1], O_WRONLY | O_NOFOLLOW));

    int f = open("/tmp/devfd-file", O_RDWR | O_CREAT | O_TRUNC, 0600);
    write(f, "hello", 5);
    int again = open_fd_link("/proc/self/fd/%d", f, O_RDONLY);
    show("read(reopened file) from its own offset", read(again, buf, sizeof buf));
    show("lseek(first descriptor) unchanged", lseek(f, 0, SEEK_CUR));
    show("fstat(reopened file) is a file", fstat(again, &st) == 0 && S_ISREG(st.st_mode));
    show("write(reopened O_RDONLY)", write(again, "x", 1));
    unlink("/tmp/devfd-file");

    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    show("open(/proc/self/fd/SOCKET)", open_fd_link("/proc/self/fd/%d", sv[0], O_RDWR));
    show("open(/dev/fd/99)", open("/dev/fd/99", O_RDONLY));
    show("stat(/dev/fd/99)", stat("/dev/fd/99", &st));
    return 0;
}
