/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmem.c - kernel-side buffers a guest makes the kernel hold end at the
 * machine's kernel memory (--max-kmem, emu/machine/kmem.h), each call
 * failing as Linux's does when the kernel cannot allocate (issue 24 item 4).
 * Run as root, with --max-kmem 16M (msgq, sockfill) or 1M (pipes).
 *   kmem msgq      root raises msg_qbytes to 1 GiB and queues 8 KiB
 *                  messages (IPC_NOWAIT, then blocking) until msgsnd fails;
 *                  a receive makes room for one more; after IPC_RMID a new
 *                  queue takes as much again
 *   kmem pipes     pipes until pipe() fails, F_SETPIPE_SZ past what is
 *                  left, and again once the pipes are closed
 *   kmem sockopt   SO_RCVBUF/SO_SNDBUF clamp to net.core.[rw]mem_max and
 *                  double; the FORCE options (root) skip that clamp
 *   kmem sockfill  an AF_UNIX stream pair with 1 GiB buffers (FORCE) fills
 *                  until send fails; reading drains it and sends go again

 *   kmem ptys      opens /dev/ptmx until it fails; closing one makes room
 *   kmem ptymax    five processes open /dev/ptmx, up to 900 each, until it
 *                  fails: kernel.pty.max (4096) is the bound
 *   kmem yield     3,000 slices (sched_yield) of a computation in one
 *                  process, whose engine asymu may close between them */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/msg.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define KIB 1024L
#define MIB (1024L * 1024)
#define MSG_TEXT 8192

struct big_msg {
    long type;
    char text[MSG_TEXT];
};

static struct big_msg msg = {.type = 1};

/* Messages queued with IPC_NOWAIT until msgsnd fails; *err: its errno. */
static long fill_queue(int id, int *err)
{
    long n = 0;
    while (n < (1L << 30) / MSG_TEXT && msgsnd(id, &msg, MSG_TEXT, IPC_NOWAIT) == 0)
        n++;
    *err = errno;
    return n;
}

static int big_queue(void)
{
    int id = msgget(IPC_PRIVATE, 0600);
    struct msqid_ds ds;
    if (id < 0 || msgctl(id, IPC_STAT, &ds) < 0)
        return -1;
    ds.msg_qbytes = 1UL << 30;
    printf("raise msg_qbytes to 1 GiB: %s\n", msgctl(id, IPC_SET, &ds) < 0 ? err_name(errno) : "0");
    return id;
}

static int msgq(void)
{
    int id = big_queue();
    if (id < 0)
        return 1;
    int err;
    long n = fill_queue(id, &err);
    /* The failure point is the machine's count, not the host's memory:
     * between 15 and 16 MiB of text (each message has its header). */
    printf("msgsnd IPC_NOWAIT: %s after 15-16 MiB: %s\n", err_name(err),
           n * MSG_TEXT > 15 * MIB && n * MSG_TEXT <= 16 * MIB ? "yes" : "no");
    /* Not a full queue: a blocking send fails too instead of waiting. */
    int r = msgsnd(id, &msg, MSG_TEXT, 0);
    printf("msgsnd blocking: %s\n", r < 0 ? err_name(errno) : "0");
    struct big_msg in;
    r = (int)msgrcv(id, &in, MSG_TEXT, 0, IPC_NOWAIT);
    printf("msgrcv: %d\n", r);
    r = msgsnd(id, &msg, MSG_TEXT, IPC_NOWAIT);
    printf("msgsnd after it: %s\n", r < 0 ? err_name(errno) : "0");
    r = msgsnd(id, &msg, MSG_TEXT, IPC_NOWAIT);
    printf("and once more: %s\n", r < 0 ? err_name(errno) : "0");
    printf("IPC_RMID: %s\n", msgctl(id, IPC_RMID, NULL) < 0 ? err_name(errno) : "0");
    id = big_queue();
    long again = fill_queue(id, &err);
    printf("a new queue: %s after as many: %s\n", err_name(err), again == n ? "yes" : "no");
    msgctl(id, IPC_RMID, NULL);
    return 0;
}

#define MAX_PIPES 64

static int pipes(void)
{
    int fds[MAX_PIPES][2];
    int n = 0;
    while (n < MAX_PIPES && pipe(fds[n]) == 0)
        n++;
    printf("pipe: %s after %d pipes of 64 KiB\n", err_name(errno), n);
    if (n < 2)
        return 1;
    int r = fcntl(fds[0][1], F_SETPIPE_SZ, (int)MIB);
    printf("F_SETPIPE_SZ 1 MiB: %s\n", r < 0 ? err_name(errno) : "ok");
    r = fcntl(fds[0][1], F_SETPIPE_SZ, 4096);
    printf("F_SETPIPE_SZ 4 KiB: %d\n", r);
    r = pipe(fds[n]);
    printf("one more pipe: %s\n", r < 0 ? err_name(errno) : "0");
    if (r == 0)
        n++;
    for (int i = 1; i < n; i++) {
        close(fds[i][0]);
        close(fds[i][1]);
    }
    r = fcntl(fds[0][1], F_SETPIPE_SZ, (int)(512 * KIB));
    printf("F_SETPIPE_SZ 512 KiB with the others closed: %d\n", r);
    return 0;
}

static void show_buf(int fd, int name, const char *what, int val)
{
    int r = setsockopt(fd, SOL_SOCKET, name, &val, sizeof val);
    int got = -1;
    socklen_t len = sizeof got;
    int opt = name == SO_RCVBUFFORCE ? SO_RCVBUF : name == SO_SNDBUFFORCE ? SO_SNDBUF : name;
    getsockopt(fd, SOL_SOCKET, opt, &got, &len);
    printf("%s %d: %s, reads %d\n", what, val, r < 0 ? err_name(errno) : "0", got);
}

static int sockopt(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return 1;
    show_buf(fd, SO_RCVBUF, "SO_RCVBUF", 1 << 30);
    show_buf(fd, SO_RCVBUF, "SO_RCVBUF", -1);
    show_buf(fd, SO_RCVBUF, "SO_RCVBUF", 0);
    show_buf(fd, SO_RCVBUF, "SO_RCVBUF", 100000);
    show_buf(fd, SO_SNDBUF, "SO_SNDBUF", 1 << 30);
    show_buf(fd, SO_SNDBUF, "SO_SNDBUF", 0);
    show_buf(fd, SO_RCVBUFFORCE, "SO_RCVBUFFORCE", 1 << 30);
    show_buf(fd, SO_RCVBUFFORCE, "SO_RCVBUFFORCE", 300000);
    show_buf(fd, SO_RCVBUFFORCE, "SO_RCVBUFFORCE", -5);
    show_buf(fd, SO_SNDBUFFORCE, "SO_SNDBUFFORCE", 0x7fffffff);
    close(fd);
    return 0;
}

#define CHUNK (64 * 1024)

static int sockfill(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) < 0)
        return 1;
    int big = 1 << 30;
    for (int i = 0; i < 2; i++) {
        setsockopt(sv[i], SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big);
        setsockopt(sv[i], SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof big);
    }
    static char chunk[CHUNK];
    long sent = 0;
    ssize_t r;
    while (sent < (1L << 30) && (r = send(sv[0], chunk, CHUNK, 0)) > 0)
        sent += r;
    int err = errno;
    printf("send: %s after 15-16 MiB: %s\n", err_name(err),
           sent > 15 * MIB && sent <= 16 * MIB ? "yes" : "no");
    long got = 0;
    while ((r = recv(sv[1], chunk, CHUNK, 0)) > 0)
        got += r;
    printf("read back all of it: %s\n", got == sent ? "yes" : "no");
    r = send(sv[0], chunk, CHUNK, 0);
    printf("send after: %zd\n", r);
    return 0;
}

#define MAX_PTYS 512

static int ptys(void)
{
    static int fds[MAX_PTYS];
    int n = 0;
    while (n < MAX_PTYS && (fds[n] = open("/dev/ptmx", O_RDWR | O_NOCTTY)) >= 0)
        n++;
    /* A pair holds two 4 KiB rings of 16-bit cells: more than 16 KiB. */
    printf("open /dev/ptmx: %s after 16-64 pairs: %s\n", err_name(errno),
           n >= 16 && n <= 64 ? "yes" : "no");
    if (n == 0)
        return 1;
    close(fds[n - 1]);
    int fd = open("/dev/ptmx", O_RDWR | O_NOCTTY);
    printf("after closing one: %s\n", fd < 0 ? err_name(errno) : "opened");
    return 0;
}

#define PTY_CHILDREN 5
#define PTYS_EACH 900

static int ptymax(void)
{
    int report[2], hold[2];
    if (pipe(report) < 0 || pipe(hold) < 0)
        return 1;
    int total = 0, last = 0;
    for (int c = 0; c < PTY_CHILDREN; c++) {
        if (fork() == 0) {
            close(hold[1]); /* EOF on hold once the parent closes its end */
            int n = 0, err = 0;
            while (n < PTYS_EACH && open("/dev/ptmx", O_RDWR | O_NOCTTY) >= 0)
                n++;
            if (n < PTYS_EACH)
                err = errno;
            int msg[2] = {n, err};
            write(report[1], msg, sizeof msg);
            char b;
            read(hold[0], &b, 1); /* keep them open until the parent has seen all */
            _exit(0);
        }
        int msg[2];
        if (read(report[0], msg, sizeof msg) != sizeof msg)
            return 1;
        total += msg[0];
        if (msg[1])
            last = msg[1];
    }
    printf("opened %d pairs, then %s\n", total, err_name(last));
    close(hold[1]);
    for (int c = 0; c < PTY_CHILDREN; c++)
        wait(NULL);
    return 0;
}

#define YIELDS 3000

static int yield(void)
{
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < YIELDS; i++) {
        for (int j = 0; j < 100; j++)
            h = (h ^ (unsigned)(i * 100 + j)) * 1099511628211ULL;
        sched_yield();
    }
    printf("%d slices, hash %016llx\n", YIELDS, h);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (!strcmp(c, "msgq"))
        return msgq();
    if (!strcmp(c, "pipes"))
        return pipes();
    if (!strcmp(c, "sockopt"))
        return sockopt();
    if (!strcmp(c, "sockfill"))
        return sockfill();
    if (!strcmp(c, "yield"))
        return yield();
    if (!strcmp(c, "ptys"))
        return ptys();
    if (!strcmp(c, "ptymax"))
        return ptymax();
    fprintf(stderr, "usage: kmem msgq|pipes|sockopt|sockfill|ptys|yield\n");
    return 2;
}
