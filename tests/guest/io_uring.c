/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io_uring.c - io_uring (fs/io_uring.c of 5.15) through raw syscalls and
 * the uapi <linux/io_uring.h>, without liburing: io_uring_setup's errors
 * and params, the three regions mapped, NOP, write/read/writev/readv on a
 * file (IORING_FEAT_RW_CUR_POS), fsync, openat/statx/close, a bad SQ
 * index, bad SQE flags and opcodes, linked chains (a prep failure, a
 * short read, a hard link), the probe, an eventfd told of completions,
 * registered files, a disabled ring. Prints one line per check. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <linux/io_uring.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_enter 426
#define SYS_io_uring_register 427
#endif

/* The features asymu offers (the host kernel has more). */
#define FEATS (IORING_FEAT_SUBMIT_STABLE | IORING_FEAT_RW_CUR_POS | IORING_FEAT_CUR_PERSONALITY)

static void say(const char *what, long r)
{
    if (r < 0)
        printf("%s: -1 %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static long setup(unsigned entries, struct io_uring_params *p)
{
    return syscall(SYS_io_uring_setup, entries, p);
}

static long enter(int fd, unsigned n, unsigned min, unsigned flags)
{
    return syscall(SYS_io_uring_enter, fd, n, min, flags, NULL, 0);
}

static long reg(int fd, unsigned op, void *arg, unsigned nr)
{
    return syscall(SYS_io_uring_register, fd, op, arg, nr);
}

struct uring {
    int fd;
    struct io_uring_params p;
    uint8_t *sq, *cq;
    struct io_uring_sqe *sqes;
    unsigned *sq_tail, *sq_array, *cq_head, *cq_tail;
    struct io_uring_cqe *cqes;
    unsigned pending;
};

static int uring_open(struct uring *u, unsigned entries, unsigned flags)
{
    memset(u, 0, sizeof *u);
    u->p.flags = flags;
    if ((u->fd = (int)setup(entries, &u->p)) < 0)
        return -1;
    size_t sqlen = u->p.sq_off.array + u->p.sq_entries * 4;
    size_t cqlen = u->p.cq_off.cqes + u->p.cq_entries * sizeof(struct io_uring_cqe);
    u->sq = mmap(NULL, sqlen, PROT_READ | PROT_WRITE, MAP_SHARED, u->fd, IORING_OFF_SQ_RING);
    u->cq = mmap(NULL, cqlen, PROT_READ | PROT_WRITE, MAP_SHARED, u->fd, IORING_OFF_CQ_RING);
    u->sqes = mmap(NULL, u->p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
                   MAP_SHARED, u->fd, IORING_OFF_SQES);
    if (u->sq == MAP_FAILED || u->cq == MAP_FAILED || u->sqes == MAP_FAILED)
        return -1;
    u->sq_tail = (unsigned *)(u->sq + u->p.sq_off.tail);
    u->sq_array = (unsigned *)(u->sq + u->p.sq_off.array);
    u->cq_head = (unsigned *)(u->cq + u->p.cq_off.head);
    u->cq_tail = (unsigned *)(u->cq + u->p.cq_off.tail);
    u->cqes = (struct io_uring_cqe *)(u->cq + u->p.cq_off.cqes);
    return 0;
}

/* The next SQE, cleared, its index queued (the tail moves at submit). */
static struct io_uring_sqe *sqe_get(struct uring *u, unsigned op, int fd, uint64_t data)
{
    unsigned mask = u->p.sq_entries - 1, slot = (*u->sq_tail + u->pending) & mask;
    struct io_uring_sqe *s = &u->sqes[slot];
    memset(s, 0, sizeof *s);
    s->opcode = (uint8_t)op;
    s->fd = fd;
    s->user_data = data;
    u->sq_array[slot] = slot;
    u->pending++;
    return s;
}

/* Moves the tail over the queued SQEs and enters: what enter says. */
static long submit_min(struct uring *u, const char *what, unsigned min)
{
    unsigned n = u->pending;
    __atomic_store_n(u->sq_tail, *u->sq_tail + n, __ATOMIC_RELEASE);
    u->pending = 0;
    long r = enter(u->fd, n, min, IORING_ENTER_GETEVENTS);
    say(what, r);
    return r;
}

/* Submits, waiting for every CQE (the host kernel completes some in task
 * work run by the wait; asymu has them all by then). */
static long submit(struct uring *u, const char *what)
{
    return submit_min(u, what, u->pending);
}

static int by_data(const void *a, const void *b)
{
    const struct io_uring_cqe *x = a, *y = b;
    return x->user_data < y->user_data ? -1 : x->user_data > y->user_data;
}

/* Prints and consumes every CQE, by user_data (the host kernel posts a
 * cancelled request's and its canceller's in either order). */
static void reap(struct uring *u)
{
    unsigned head = *u->cq_head, tail = __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE);
    struct io_uring_cqe got[64];
    unsigned n = 0;
    for (; head != tail && n < 64; head++)
        got[n++] = u->cqes[head & (u->p.cq_entries - 1)];
    qsort(got, n, sizeof got[0], by_data);
    for (unsigned i = 0; i < n; i++) {
        struct io_uring_cqe *c = &got[i];
        if (c->res < 0)
            printf("  cqe %llu: %s\n", (unsigned long long)c->user_data, err_name(-c->res));
        else
            printf("  cqe %llu: %d\n", (unsigned long long)c->user_data, c->res);
    }
    __atomic_store_n(u->cq_head, head, __ATOMIC_RELEASE);
}

static void setup_errors(void)
{
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    say("setup 0 entries", setup(0, &p));
    say("setup 40000 entries", setup(40000, &p));
    p.flags = IORING_SETUP_CLAMP;
    long fd = setup(40000, &p);
    printf("setup 40000 clamped: %s sq %u cq %u\n", fd < 0 ? err_name(errno) : "ok", p.sq_entries,
           p.cq_entries);
    close((int)fd);
    memset(&p, 0, sizeof p);
    p.resv[1] = 1;
    say("setup resv", setup(4, &p));
    memset(&p, 0, sizeof p);
    p.flags = 1u << 30;
    say("setup unknown flag", setup(4, &p));
    p.flags = IORING_SETUP_SQ_AFF;
    say("setup SQ_AFF without SQPOLL", setup(4, &p));
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_CQSIZE;
    say("setup CQSIZE 0", setup(4, &p));
    p.cq_entries = 2;
    say("setup CQSIZE below SQ", setup(4, &p));
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_CQSIZE;
    p.cq_entries = 5;
    fd = setup(3, &p);
    printf("setup CQSIZE 5: %s sq %u cq %u\n", fd < 0 ? err_name(errno) : "ok", p.sq_entries,
           p.cq_entries);
    close((int)fd);
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_ATTACH_WQ;
    p.wq_fd = 1;
    say("setup ATTACH_WQ to stdout", setup(4, &p));
    say("setup NULL params", setup(4, NULL));
}

static void file_ops(struct uring *u, int fd)
{
    struct io_uring_sqe *s = sqe_get(u, IORING_OP_WRITE, fd, 1);
    s->flags = IOSQE_IO_LINK; /* in order */
    s->addr = (uintptr_t) "hello io_uring\n";
    s->len = 15;
    s->off = 0;
    s = sqe_get(u, IORING_OP_READ, fd, 2);
    static char buf[32], a[4], b[4];
    s->addr = (uintptr_t)buf;
    s->len = 8;
    s->off = 6;
    submit(u, "write then read");
    reap(u);
    printf("  read: %.8s\n", buf);
    /* offset -1: the file's own position, which moves */
    struct iovec w[2] = {{"AB", 2}, {"CD", 2}};
    s = sqe_get(u, IORING_OP_WRITEV, fd, 3);
    s->flags = IOSQE_IO_LINK;
    s->addr = (uintptr_t)w;
    s->len = 2;
    s->off = (uint64_t)-1;
    struct iovec r[2] = {{a, 4}, {b, 4}};
    s = sqe_get(u, IORING_OP_READV, fd, 4);
    s->addr = (uintptr_t)r;
    s->len = 2;
    s->off = 0;
    submit(u, "writev at the position, readv");
    reap(u);
    printf("  readv: %.4s|%.4s, position %ld\n", a, b, (long)lseek(fd, 0, SEEK_CUR));
    sqe_get(u, IORING_OP_FSYNC, fd, 5);
    submit(u, "fsync");
    reap(u);
    s = sqe_get(u, IORING_OP_FSYNC, fd, 6);
    s->fsync_flags = 2;
    submit(u, "fsync bad flags");
    reap(u);
    int pfd[2];
    if (pipe(pfd) < 0)
        return;
    sqe_get(u, IORING_OP_FSYNC, pfd[0], 7);
    submit(u, "fsync of a pipe");
    reap(u);
    s = sqe_get(u, IORING_OP_FADVISE, fd, 11);
    s->fadvise_advice = POSIX_FADV_SEQUENTIAL;
    submit(u, "fadvise");
    reap(u);
    s = sqe_get(u, IORING_OP_FADVISE, fd, 12);
    s->fadvise_advice = 99;
    submit(u, "fadvise 99");
    reap(u);
    sqe_get(u, IORING_OP_FADVISE, pfd[0], 13);
    submit(u, "fadvise of a pipe");
    reap(u);
    s = sqe_get(u, IORING_OP_MADVISE, -1, 14);
    s->addr = (uintptr_t)u->sqes;
    s->len = 4096;
    s->fadvise_advice = MADV_WILLNEED;
    submit(u, "madvise");
    reap(u);
    s = sqe_get(u, IORING_OP_MADVISE, -1, 15);
    s->addr = (uintptr_t)u->sqes + 1;
    s->len = 4096;
    submit(u, "madvise unaligned");
    reap(u);
    /* a pipe read with data there */
    if (write(pfd[1], "xyz", 3) != 3)
        return;
    s = sqe_get(u, IORING_OP_READ, pfd[0], 8);
    s->addr = (uintptr_t)buf;
    s->len = 10;
    s->off = 1234; /* ignored for a stream */
    submit(u, "pipe read");
    reap(u);
    s = sqe_get(u, IORING_OP_WRITE, pfd[0], 10);
    s->addr = (uintptr_t)buf;
    s->len = 1;
    submit(u, "write to the read end");
    reap(u);
    close(pfd[0]);
    close(pfd[1]);
}

static void path_ops(struct uring *u)
{
    struct io_uring_sqe *s = sqe_get(u, IORING_OP_OPENAT, AT_FDCWD, 1);
    s->addr = (uintptr_t) "/tmp/io_uring-test";
    s->open_flags = O_RDWR | O_CREAT | O_TRUNC;
    s->len = 0640;
    submit(u, "openat");
    unsigned head = *u->cq_head;
    int fd = u->cqes[head & (u->p.cq_entries - 1)].res;
    printf("  opened: %s\n", fd >= 0 ? "a descriptor" : err_name(-fd));
    *u->cq_head = head + 1;
    if (write(fd, "12345", 5) != 5)
        return;
    static struct statx sx;
    s = sqe_get(u, IORING_OP_STATX, AT_FDCWD, 2);
    s->addr = (uintptr_t) "/tmp/io_uring-test";
    s->statx_flags = 0;
    s->len = STATX_SIZE | STATX_MODE;
    s->off = (uintptr_t)&sx;
    submit(u, "statx");
    reap(u);
    printf("  size %llu mode %o\n", (unsigned long long)sx.stx_size, sx.stx_mode & 07777);
    sqe_get(u, IORING_OP_CLOSE, fd, 3);
    submit(u, "close");
    reap(u);
    sqe_get(u, IORING_OP_CLOSE, fd, 4);
    submit(u, "close again");
    reap(u);
    sqe_get(u, IORING_OP_CLOSE, u->fd, 5);
    submit(u, "close the ring");
    reap(u);
    s = sqe_get(u, IORING_OP_CLOSE, 0, 6);
    s->off = 1;
    submit(u, "close with an offset");
    reap(u);
    unlink("/tmp/io_uring-test");
}

static void bad_sqes(struct uring *u)
{
    sqe_get(u, IORING_OP_NOP, -1, 1)->flags = 0x80;
    submit(u, "bad SQE flags");
    reap(u);
    sqe_get(u, 200, -1, 2);
    submit(u, "opcode 200");
    reap(u);
    sqe_get(u, IORING_OP_NOP, -1, 3)->personality = 7;
    submit(u, "unregistered personality");
    reap(u);
    sqe_get(u, IORING_OP_READ, 999, 4);
    submit(u, "read of a closed descriptor");
    reap(u);
    /* an index past the SQEs: dropped, the batch ends */
    unsigned slot = *u->sq_tail & (u->p.sq_entries - 1);
    sqe_get(u, IORING_OP_NOP, -1, 5);
    u->sq_array[slot] = 100;
    submit_min(u, "bad SQ index", 0);
    reap(u);
    printf("  dropped %u\n", *(unsigned *)(u->sq + u->p.sq_off.dropped));
    /* a failed lone request ends the batch: the NOP after it waits */
    sqe_get(u, 200, -1, 6);
    sqe_get(u, IORING_OP_NOP, -1, 7);
    submit_min(u, "bad opcode then NOP", 1);
    reap(u);
    say("enter the rest", enter(u->fd, 1, 1, IORING_ENTER_GETEVENTS));
    reap(u);
}

static void links(struct uring *u, int fd)
{
    static char buf[100];
    /* a prep failure: nothing of the chain runs */
    sqe_get(u, IORING_OP_NOP, -1, 1)->flags = IOSQE_IO_LINK;
    struct io_uring_sqe *s = sqe_get(u, IORING_OP_FSYNC, fd, 2);
    s->flags = IOSQE_IO_LINK;
    s->fsync_flags = 2;
    sqe_get(u, IORING_OP_NOP, -1, 3);
    submit(u, "chain with a bad fsync");
    reap(u);
    /* a short read fails a link, not a hard link */
    s = sqe_get(u, IORING_OP_READ, fd, 4);
    s->flags = IOSQE_IO_LINK;
    s->addr = (uintptr_t)buf;
    s->len = 100;
    sqe_get(u, IORING_OP_NOP, -1, 5)->flags = IOSQE_IO_LINK;
    sqe_get(u, IORING_OP_NOP, -1, 6);
    submit(u, "short read in a link");
    reap(u);
    s = sqe_get(u, IORING_OP_READ, fd, 7);
    s->flags = IOSQE_IO_HARDLINK;
    s->addr = (uintptr_t)buf;
    s->len = 100;
    sqe_get(u, IORING_OP_NOP, -1, 8);
    submit(u, "short read in a hard link");
    reap(u);
    s = sqe_get(u, IORING_OP_READ, fd, 9);
    s->flags = IOSQE_IO_LINK | IOSQE_IO_DRAIN;
    s->addr = (uintptr_t)buf;
    s->len = 4;
    sqe_get(u, IORING_OP_NOP, -1, 10);
    submit(u, "whole read, linked and drained");
    reap(u);
}

static void on_alarm(int sig)
{
    (void)sig;
}

/* Requests that wait for their object, completed by a later write or
 * cancelled; a wait for CQEs ended by a signal. */
static void waits(struct uring *u)
{
    int pfd[2];
    static char buf[16];
    if (pipe(pfd) < 0)
        return;
    struct io_uring_sqe *s = sqe_get(u, IORING_OP_READ, pfd[0], 1);
    s->addr = (uintptr_t)buf;
    s->len = sizeof buf;
    submit_min(u, "read of an empty pipe", 0);
    reap(u);
    say("write", write(pfd[1], "later", 5));
    say("wait", enter(u->fd, 0, 1, IORING_ENTER_GETEVENTS));
    reap(u);
    printf("  read: %.5s\n", buf);
    s = sqe_get(u, IORING_OP_POLL_ADD, pfd[0], 2);
    s->poll_events = POLLIN;
    submit_min(u, "poll of an empty pipe", 0);
    reap(u);
    say("write", write(pfd[1], "x", 1));
    say("wait", enter(u->fd, 0, 1, IORING_ENTER_GETEVENTS));
    reap(u);
    s = sqe_get(u, IORING_OP_POLL_ADD, pfd[0], 3);
    s->poll_events = POLLIN;
    submit(u, "poll of a pipe with data");
    reap(u);
    s = sqe_get(u, IORING_OP_POLL_ADD, pfd[1], 4);
    s->poll_events = POLLIN;
    submit_min(u, "poll for input of a write end", 0);
    reap(u);
    s = sqe_get(u, IORING_OP_ASYNC_CANCEL, -1, 5);
    s->addr = 4;
    submit(u, "cancel it");
    enter(u->fd, 0, 2, IORING_ENTER_GETEVENTS);
    reap(u);
    s = sqe_get(u, IORING_OP_ASYNC_CANCEL, -1, 6);
    s->addr = 4;
    submit(u, "cancel it again");
    reap(u);
    s = sqe_get(u, IORING_OP_POLL_ADD, pfd[1], 7);
    s->poll_events = POLLIN;
    submit_min(u, "poll for input of a write end", 0);
    s = sqe_get(u, IORING_OP_POLL_REMOVE, -1, 8);
    s->addr = 7;
    submit(u, "poll remove");
    enter(u->fd, 0, 2, IORING_ENTER_GETEVENTS);
    reap(u);
    /* TIMEOUT: by time (-ETIME), by a count of completions (0),
     * removed, refused */
    struct __kernel_timespec ts = {0, 10 * 1000 * 1000}, far = {10, 0}, neg = {-1, 0};
    s = sqe_get(u, IORING_OP_TIMEOUT, -1, 9);
    s->addr = (uintptr_t)&ts;
    s->len = 1;
    submit(u, "timeout of 10 ms");
    reap(u);
    s = sqe_get(u, IORING_OP_TIMEOUT, -1, 10);
    s->addr = (uintptr_t)&far;
    s->len = 1;
    s->off = 1;
    submit_min(u, "timeout of 10 s or one completion", 0);
    sqe_get(u, IORING_OP_NOP, -1, 11);
    submit_min(u, "NOP", 2);
    reap(u);
    s = sqe_get(u, IORING_OP_TIMEOUT, -1, 12);
    s->addr = (uintptr_t)&far;
    s->len = 1;
    submit_min(u, "timeout of 10 s", 0);
    s = sqe_get(u, IORING_OP_TIMEOUT_REMOVE, -1, 13);
    s->addr = 12;
    submit_min(u, "timeout remove", 2);
    reap(u);
    s = sqe_get(u, IORING_OP_TIMEOUT_REMOVE, -1, 14);
    s->addr = 12;
    submit(u, "timeout remove again");
    reap(u);
    s = sqe_get(u, IORING_OP_TIMEOUT, -1, 15);
    s->addr = (uintptr_t)&ts;
    s->len = 2;
    submit(u, "timeout with len 2");
    reap(u);
    s = sqe_get(u, IORING_OP_TIMEOUT, -1, 16);
    s->addr = (uintptr_t)&neg;
    s->len = 1;
    submit(u, "timeout of -1 s");
    reap(u);
    signal(SIGALRM, on_alarm);
    alarm(1);
    say("wait with nothing in flight", enter(u->fd, 0, 1, IORING_ENTER_GETEVENTS));
    close(pfd[0]);
    close(pfd[1]);
}

static void probe(struct uring *u)
{
    size_t size = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
    struct io_uring_probe *p = calloc(1, size);
    say("probe 257", reg(u->fd, IORING_REGISTER_PROBE, p, 257));
    say("probe NULL", reg(u->fd, IORING_REGISTER_PROBE, NULL, 4));
    p->ops[3].resv = 1;
    say("probe not zeroed", reg(u->fd, IORING_REGISTER_PROBE, p, 8));
    memset(p, 0, size);
    say("probe 24", reg(u->fd, IORING_REGISTER_PROBE, p, 24));
    printf("  last_op >= 39: %d, ops_len %u\n", p->last_op >= 39, p->ops_len);
    static const unsigned ours[] = {
        IORING_OP_NOP,          IORING_OP_READV,       IORING_OP_WRITEV,  IORING_OP_FSYNC,
        IORING_OP_POLL_ADD,     IORING_OP_POLL_REMOVE, IORING_OP_TIMEOUT, IORING_OP_TIMEOUT_REMOVE,
        IORING_OP_ASYNC_CANCEL, IORING_OP_OPENAT,      IORING_OP_CLOSE,   IORING_OP_STATX,
        IORING_OP_READ,         IORING_OP_WRITE,       IORING_OP_FADVISE, IORING_OP_MADVISE};
    for (unsigned i = 0; i < sizeof ours / sizeof ours[0]; i++)
        printf("  op %u: op %u flags %u\n", ours[i], p->ops[ours[i]].op,
               p->ops[ours[i]].flags & IO_URING_OP_SUPPORTED);
    free(p);
}

static void eventfd_and_files(struct uring *u, int fd)
{
    int efd = eventfd(0, EFD_NONBLOCK);
    say("register eventfd, 2 args", reg(u->fd, IORING_REGISTER_EVENTFD, &efd, 2));
    say("register eventfd", reg(u->fd, IORING_REGISTER_EVENTFD, &efd, 1));
    say("register eventfd again", reg(u->fd, IORING_REGISTER_EVENTFD, &efd, 1));
    sqe_get(u, IORING_OP_NOP, -1, 1)->flags = IOSQE_IO_LINK;
    sqe_get(u, IORING_OP_NOP, -1, 2);
    submit(u, "two NOPs");
    reap(u);
    uint64_t n = 0;
    say("eventfd read", read(efd, &n, 8));
    printf("  count %llu\n", (unsigned long long)n);
    say("unregister eventfd", reg(u->fd, IORING_UNREGISTER_EVENTFD, NULL, 0));
    say("unregister eventfd again", reg(u->fd, IORING_UNREGISTER_EVENTFD, NULL, 0));
    int bad = 1;
    say("register stdout as eventfd", reg(u->fd, IORING_REGISTER_EVENTFD, &bad, 1));
    close(efd);

    int fds[2] = {fd, -1};
    say("register 0 files", reg(u->fd, IORING_REGISTER_FILES, fds, 0));
    int badfds[1] = {999};
    say("register a closed descriptor", reg(u->fd, IORING_REGISTER_FILES, badfds, 1));
    int self[1] = {u->fd};
    say("register the ring itself", reg(u->fd, IORING_REGISTER_FILES, self, 1));
    say("register files", reg(u->fd, IORING_REGISTER_FILES, fds, 2));
    say("register files again", reg(u->fd, IORING_REGISTER_FILES, fds, 2));
    static char buf[8];
    static const char *const what[] = {"fixed read 0", "fixed read 1 (empty)", "fixed read 5"};
    for (int i = 0; i < 3; i++) {
        struct io_uring_sqe *s = sqe_get(u, IORING_OP_READ, i == 2 ? 5 : i, 3 + i);
        s->flags = IOSQE_FIXED_FILE;
        s->addr = (uintptr_t)buf;
        s->len = 5;
        s->off = 0;
        submit(u, what[i]);
        reap(u);
    }
    printf("  read: %.5s\n", buf);
    say("unregister files", reg(u->fd, IORING_UNREGISTER_FILES, NULL, 0));
    say("unregister files again", reg(u->fd, IORING_UNREGISTER_FILES, NULL, 0));
    say("register opcode 99", reg(u->fd, 99, NULL, 0));
    say("register on stdout", reg(1, IORING_REGISTER_PROBE, NULL, 0));
}

/* What asymu does where 5.15 would complete later or keep a CQE: a read
 * of an empty blocking pipe is -EAGAIN at once, a full CQ ring drops and
 * counts, SQPOLL's thread sleeps until SQ_WAKEUP, IOPOLL refuses. */
static int asymu_only(void)
{
    struct uring u;
    int pfd[2];
    static char buf[8];
    if (pipe(pfd) < 0 || uring_open(&u, 2, 0) < 0)
        return 1;
    struct io_uring_sqe *s = sqe_get(&u, IORING_OP_READ, pfd[0], 1);
    s->flags = IOSQE_IO_LINK;
    s->addr = (uintptr_t)buf;
    s->len = 8;
    sqe_get(&u, IORING_OP_NOP, -1, 2);
    submit(&u, "empty pipe read in a chain");
    reap(&u);
    s = sqe_get(&u, IORING_OP_READ, pfd[0], 3);
    s->addr = (uintptr_t)buf;
    s->len = 8;
    submit_min(&u, "empty pipe read left waiting", 0);
    close(u.fd); /* drops it */
    say("write after the ring went", write(pfd[1], "z", 1));

    if (uring_open(&u, 1, 0) < 0)
        return 1;
    sqe_get(&u, IORING_OP_NOP, -1, 1);
    submit(&u, "NOP");
    sqe_get(&u, IORING_OP_NOP, -1, 2);
    submit(&u, "NOP");
    sqe_get(&u, IORING_OP_NOP, -1, 3);
    submit_min(&u, "NOP into a full CQ ring", 0);
    printf("  overflow %u\n", *(unsigned *)(u.cq + u.p.cq_off.overflow));
    reap(&u);
    say("enter with a short EXT_ARG",
        syscall(SYS_io_uring_enter, u.fd, 0, 1, IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, buf,
                8));
    close(u.fd);

    if (uring_open(&u, 2, IORING_SETUP_SQPOLL) < 0)
        return 1;
    printf("SQPOLL: features %#x need wakeup %u\n", u.p.features,
           *(unsigned *)(u.sq + u.p.sq_off.flags) & IORING_SQ_NEED_WAKEUP);
    sqe_get(&u, IORING_OP_NOP, -1, 4);
    __atomic_store_n(u.sq_tail, *u.sq_tail + 1, __ATOMIC_RELEASE);
    u.pending = 0;
    say("enter without wakeup", enter(u.fd, 1, 0, 0));
    reap(&u);
    say("enter with wakeup", enter(u.fd, 5, 0, IORING_ENTER_SQ_WAKEUP));
    reap(&u);
    close(u.fd);

    if (uring_open(&u, 2, IORING_SETUP_IOPOLL) < 0)
        return 1;
    s = sqe_get(&u, IORING_OP_READ, pfd[0], 5);
    s->addr = (uintptr_t)buf;
    s->len = 8;
    submit(&u, "IOPOLL read");
    reap(&u);
    sqe_get(&u, IORING_OP_NOP, -1, 6);
    submit(&u, "IOPOLL NOP");
    reap(&u);
    close(u.fd);

    /* exit with a read and a timeout still waiting: freed with the ring */
    if (uring_open(&u, 2, 0) < 0)
        return 1;
    s = sqe_get(&u, IORING_OP_READ, pfd[0], 7);
    s->addr = (uintptr_t)buf;
    s->len = 8;
    submit_min(&u, "read left waiting at exit", 0);
    struct __kernel_timespec far = {100, 0};
    s = sqe_get(&u, IORING_OP_TIMEOUT, -1, 8);
    s->addr = (uintptr_t)&far;
    s->len = 1;
    submit_min(&u, "timeout left waiting at exit", 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "asymu"))
        return asymu_only();
    setup_errors();
    struct uring u;
    if (uring_open(&u, 5, 0) < 0) {
        say("setup", -1);
        return 1;
    }
    printf("setup 5: sq %u cq %u features %#x flags %u\n", u.p.sq_entries, u.p.cq_entries,
           u.p.features & FEATS, u.p.flags);
    printf("  ring entries %u %u masks %u %u\n", *(unsigned *)(u.sq + u.p.sq_off.ring_entries),
           *(unsigned *)(u.cq + u.p.cq_off.ring_entries),
           *(unsigned *)(u.sq + u.p.sq_off.ring_mask), *(unsigned *)(u.cq + u.p.cq_off.ring_mask));
    printf("  cloexec %d\n", fcntl(u.fd, F_GETFD) & FD_CLOEXEC);
    char link[64] = "";
    char path[32];
    snprintf(path, sizeof path, "/proc/self/fd/%d", u.fd);
    readlink(path, link, sizeof link - 1);
    printf("  link %s\n", link);
    errno = 0;
    void *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, u.fd, 0x40000000);
    say("mmap at 0x40000000", m == MAP_FAILED ? -1 : 0);
    say("enter bad flags", enter(u.fd, 0, 0, 1u << 30));
    say("enter on stdout", enter(1, 0, 0, 0));
    say("enter nothing", enter(u.fd, 0, 0, IORING_ENTER_GETEVENTS));
    sqe_get(&u, IORING_OP_NOP, -1, 42);
    submit(&u, "NOP");
    reap(&u);

    int fd = open("/tmp/io_uring-data", O_RDWR | O_CREAT | O_TRUNC, 0600);
    file_ops(&u, fd);
    path_ops(&u);
    bad_sqes(&u);
    lseek(fd, 0, SEEK_SET);
    links(&u, fd);
    waits(&u);
    probe(&u);
    eventfd_and_files(&u, fd);
    close(fd);
    unlink("/tmp/io_uring-data");

    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_R_DISABLED;
    int dfd = (int)setup(2, &p);
    say("disabled ring enter", enter(dfd, 0, 0, 0));
    say("enable rings", reg(dfd, IORING_REGISTER_ENABLE_RINGS, NULL, 0));
    say("enable rings again", reg(dfd, IORING_REGISTER_ENABLE_RINGS, NULL, 0));
    say("enabled ring enter", enter(dfd, 0, 0, 0));
    close(dfd);
    close(u.fd);
    return 0;
}
