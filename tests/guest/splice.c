/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splice.c - splice(2), tee(2) and vmsplice(2) as Linux 5.15's fs/splice.c has them:
 * a pipe to a file at an offset or at its position, a file to a pipe, a
 * pipe to a pipe and to a socket, tee leaving the bytes, a blocking splice
 * woken by a write, and the errnos: EINVAL (flags, no pipe, one pipe on
 * both sides, O_APPEND, a negative offset, an eventfd, tee without two
 * pipes), ESPIPE (an offset on a pipe), EBADF, EFAULT, EAGAIN, EPIPE;
 * vmsplice of buffers into a pipe and out of one.
 * Prints one line per check. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <sys/socket.h>
#include <sys/wait.h>

static void say(const char *what, long r)
{
    if (r < 0)
        printf("%s: -1 %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

/* What fd (a pipe or socket) holds now, read without waiting. */
static void show(const char *what, int fd)
{
    char buf[256];
    int fl = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    ssize_t n = read(fd, buf, sizeof buf);
    fcntl(fd, F_SETFL, fl);
    if (n < 0)
        printf("%s: -1 %s\n", what, err_name(errno));
    else
        printf("%s: \"%.*s\"\n", what, (int)n, buf);
}

static void show_file(const char *what, int fd)
{
    char buf[256];
    ssize_t n = pread(fd, buf, sizeof buf, 0);
    printf("%s: \"%.*s\" (position %ld)\n", what, (int)(n < 0 ? 0 : n), buf,
           (long)lseek(fd, 0, SEEK_CUR));
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    int a[2], b[2];
    pipe(a);
    pipe(b);
    int fd = open("/tmp/splice-file", O_RDWR | O_CREAT | O_TRUNC, 0644);
    write(fd, "abc", 3);
    lseek(fd, 0, SEEK_SET);

    printf("--- pipe to file\n");
    write(a[1], "hello splice", 12);
    loff_t off = 3;
    say("splice pipe -> file at 3", splice(a[0], NULL, fd, &off, 100, 0));
    printf("  offset now %ld\n", (long)off);
    show_file("  file", fd);
    write(a[1], "xy", 2);
    lseek(fd, 15, SEEK_SET);
    say("splice pipe -> file at its position", splice(a[0], NULL, fd, NULL, 100, SPLICE_F_MOVE));
    show_file("  file", fd);

    printf("--- file to pipe\n");
    off = 3;
    say("splice file at 3 -> pipe, 5", splice(fd, &off, b[1], NULL, 5, 0));
    printf("  offset now %ld\n", (long)off);
    show("  pipe", b[0]);
    lseek(fd, 8, SEEK_SET);
    say("splice file at its position 8 -> pipe", splice(fd, NULL, b[1], NULL, 100, 0));
    show_file("  file", fd);
    show("  pipe", b[0]);
    say("splice file at its end -> pipe", splice(fd, NULL, b[1], NULL, 100, 0));

    printf("--- pipe to pipe, tee\n");
    write(a[1], "abcdef", 6);
    say("splice pipe -> pipe, 4", splice(a[0], NULL, b[1], NULL, 4, 0));
    show("  out", b[0]);
    show("  in", a[0]);
    write(a[1], "tee!", 4);
    say("tee, 100", tee(a[0], b[1], 100, 0));
    show("  out", b[0]);
    show("  in", a[0]);
    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    write(a[1], "sock", 4);
    say("splice pipe -> socket", splice(a[0], NULL, sv[0], NULL, 100, 0));
    show("  socket", sv[1]);
    write(sv[1], "back", 4);
    say("splice socket -> pipe", splice(sv[0], NULL, b[1], NULL, 100, 0));
    show("  pipe", b[0]);

    printf("--- errors\n");
    say("len 0, bad fds", splice(-1, NULL, -1, NULL, 0, 0));
    say("flags 0x10", splice(a[0], NULL, fd, NULL, 1, 0x10));
    say("bad fd in", splice(99, NULL, a[1], NULL, 1, 0));
    say("bad fd out", splice(fd, NULL, 99, NULL, 1, 0));
    off = 0;
    say("offset on the pipe in", splice(a[0], &off, fd, NULL, 1, 0));
    say("offset on the pipe out", splice(fd, NULL, a[1], &off, 1, 0));
    say("file -> file", splice(fd, NULL, fd, NULL, 1, 0));
    say("pipe -> the same pipe", splice(a[0], NULL, a[1], NULL, 1, 0));
    say("from a pipe's write end", splice(a[1], NULL, b[1], NULL, 1, 0));
    int ro = open("/tmp/splice-file", O_RDONLY);
    write(a[1], "z", 1);
    say("to an O_RDONLY file", splice(a[0], NULL, ro, NULL, 1, 0));
    int ap = open("/tmp/splice-file", O_WRONLY | O_APPEND);
    say("to an O_APPEND file", splice(a[0], NULL, ap, NULL, 1, 0));
    off = -1;
    say("to a negative offset", splice(a[0], NULL, fd, &off, 1, 0));
    int ev = eventfd(0, 0);
    say("to an eventfd", splice(a[0], NULL, ev, NULL, 1, 0));
    say("from an eventfd", splice(ev, NULL, b[1], NULL, 8, 0));
    say("offset at a bad address", splice(fd, (loff_t *)8, b[1], NULL, 1, 0));
    say("tee pipe -> the same pipe", tee(a[0], a[1], 1, 0));
    say("tee file -> pipe", tee(fd, b[1], 1, 0));
    say("tee flags 0x10", tee(a[0], b[1], 1, 0x10));
    show("  the byte left", a[0]);
    say("empty pipe, SPLICE_F_NONBLOCK", splice(a[0], NULL, fd, NULL, 1, SPLICE_F_NONBLOCK));
    say("tee empty pipe, SPLICE_F_NONBLOCK", tee(a[0], b[1], 1, SPLICE_F_NONBLOCK));
    int n[2];
    pipe2(n, O_NONBLOCK);
    say("empty O_NONBLOCK pipe -> pipe", splice(n[0], NULL, b[1], NULL, 1, 0));
    fcntl(n[1], F_SETPIPE_SZ, 4096);
    char page[4096];
    memset(page, 'p', sizeof page);
    write(n[1], page, sizeof page);
    say("file -> full O_NONBLOCK pipe", splice(fd, NULL, n[1], NULL, 1, 0));
    close(n[0]);
    say("file -> pipe without readers", splice(fd, NULL, n[1], NULL, 1, 0));
    close(b[1]);
    say("empty pipe without writers -> file", splice(b[0], NULL, fd, NULL, 1, 0));

    printf("--- vmsplice\n");
    int v[2];
    pipe(v);
    struct iovec in[2] = {{"ab", 2}, {"cde", 3}};
    say("vmsplice 2 + 3 bytes into the write end", vmsplice(v[1], in, 2, 0));
    char b1[2], b2[10];
    struct iovec out[2] = {{b1, sizeof b1}, {b2, sizeof b2}};
    say("vmsplice out of the read end into 2 + 10", vmsplice(v[0], out, 2, 0));
    printf("  \"%.2s\" \"%.3s\"\n", b1, b2);
    say("vmsplice out of the empty pipe, SPLICE_F_NONBLOCK",
        vmsplice(v[0], out, 2, SPLICE_F_NONBLOCK));
    say("vmsplice of nothing", vmsplice(v[0], out, 0, 0));
    say("vmsplice flags 0x10", vmsplice(v[1], in, 2, 0x10));
    say("vmsplice 1025 buffers", vmsplice(v[1], in, 1025, 0));
    say("vmsplice into a file", vmsplice(fd, in, 2, 0));
    say("vmsplice into a bad fd", vmsplice(99, in, 2, 0));
    struct iovec bad[1] = {{(void *)8, 4}};
    say("vmsplice of a bad buffer", vmsplice(v[1], bad, 1, 0));
    int v2[2];
    pipe(v2);
    fcntl(v2[1], F_SETPIPE_SZ, 4096);
    static char big[8192] __attribute__((aligned(4096))); /* a page a slot, as Linux fills them */
    struct iovec whole[1] = {{big, sizeof big}};
    say("vmsplice 8192 bytes into a pipe of 4096", vmsplice(v2[1], whole, 1, 0));
    say("vmsplice into it full, SPLICE_F_NONBLOCK", vmsplice(v2[1], in, 2, SPLICE_F_NONBLOCK));
    close(v2[0]);
    say("vmsplice into a pipe without readers", vmsplice(v2[1], in, 2, 0));
    close(v[1]);
    say("vmsplice out of an empty pipe without writers", vmsplice(v[0], out, 2, 0));

    printf("--- blocking\n");
    fflush(stdout);
    int c[2];
    pipe(c);
    pid_t child = fork();
    if (child == 0) {
        /* (how long it waited is not shown: under qemu-user the child may
         * start after the write) */
        long r = splice(c[0], NULL, a[1], NULL, 100, 0);
        printf("child: splice from the empty pipe: %ld\n", r);
        fflush(stdout);
        _exit(0);
    }
    usleep(2000);
    write(c[1], "late", 4);
    waitpid(child, NULL, 0);
    show("  moved", a[0]);
    unlink("/tmp/splice-file");
    return 0;
}
