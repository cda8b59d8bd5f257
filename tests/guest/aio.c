/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aio.c - Linux native AIO (fs/aio.c of 5.15) through raw syscalls, as
 * libaio makes them: io_setup's errors and ring header, aio-nr, pread,
 * pwrite, preadv, pwritev, fsync and fdsync on a file, the iocb checks and
 * io_submit's partial counts, IOCB_FLAG_RESFD with an eventfd, reaping from
 * the ring in user space, a pipe read completed by a child's write, POLL
 * and its io_cancel, io_getevents' timeouts and EINTR, io_pgetevents with
 * a signal mask, io_destroy, a forked child's contexts.
 * With the argument "deferred": what asymu does where Linux's io_submit
 * would block (a read of an empty blocking pipe completes later).
 * Prints one line per check. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <linux/aio_abi.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>

#ifndef SYS_io_pgetevents_time64
#define SYS_io_pgetevents_time64 SYS_io_pgetevents
#endif

struct ring {
    unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
    struct io_event events[];
};

/* The ABI's own timespec (time32 on armhf) and the 64-bit one. */
struct ts_long {
    long sec, nsec;
};
struct ts64 {
    int64_t sec, nsec;
};

static void say(const char *what, long r)
{
    if (r < 0)
        printf("%s: -1 %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static long setup(unsigned nr, aio_context_t *ctx)
{
    return syscall(SYS_io_setup, nr, ctx);
}

static long submit(aio_context_t ctx, long nr, struct iocb **cbs)
{
    return syscall(SYS_io_submit, ctx, nr, cbs);
}

static long submit1(aio_context_t ctx, struct iocb *cb)
{
    return submit(ctx, 1, &cb);
}

static long getevents(aio_context_t ctx, long min, long nr, struct io_event *ev, struct ts_long *ts)
{
    return syscall(SYS_io_getevents, ctx, min, nr, ev, ts);
}

static struct iocb cb_rw(int op, int fd, void *buf, uint64_t n, int64_t off, uint64_t data)
{
    struct iocb cb;
    memset(&cb, 0, sizeof cb);
    cb.aio_lio_opcode = (uint16_t)op;
    cb.aio_fildes = (uint32_t)fd;
    cb.aio_buf = (uint64_t)(uintptr_t)buf;
    cb.aio_nbytes = n;
    cb.aio_offset = off;
    cb.aio_data = data;
    cb.aio_key = 0x55; /* io_submit sets it to KIOCB_KEY, 0 */
    return cb;
}

/* One event, waited for: its data, whether obj is cb, res, res2. */
static void reap(const char *what, aio_context_t ctx, const struct iocb *cb)
{
    struct io_event ev;
    long n = getevents(ctx, 1, 1, &ev, NULL);
    if (n != 1) {
        say(what, n);
        return;
    }
    printf("%s: data=%llu obj=%s res=%lld res2=%lld\n", what, (unsigned long long)ev.data,
           ev.obj == (uint64_t)(uintptr_t)cb ? "iocb" : "other", (long long)ev.res,
           (long long)ev.res2);
}

static long aio_nr(void)
{
    char buf[32] = "";
    int fd = open("/proc/sys/fs/aio-nr", O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    return n > 0 ? atol(buf) : -1;
}

static void setup_checks(void)
{
    aio_context_t ctx = 0;
    say("setup nr 0", setup(0, &ctx));
    ctx = 1;
    say("setup ctx not 0", setup(4, &ctx));
    say("setup ctxp NULL", setup(4, NULL));
    ctx = 0;
    say("setup 65537", setup(65537, &ctx));
    say("setup 5000000", setup(5000000, &ctx));
    say("setup 0x80000000", setup(0x80000000u, &ctx));
    long before = aio_nr();
    say("setup 128", setup(128, &ctx));
    printf("aio-nr grew by %ld\n", aio_nr() - before);
    struct ring *r = (struct ring *)(uintptr_t)ctx;
    printf("ring id=%u nr=%u head=%u tail=%u magic=%#x compat=%u incompat=%u header=%u\n", r->id,
           r->nr, r->head, r->tail, r->magic, r->compat_features, r->incompat_features,
           r->header_length);
    aio_context_t big = 0, more = 0;
    say("setup 60000", setup(60000, &big));
    say("setup 10000 past aio-max-nr", setup(10000, &more));
    say("destroy 60000", syscall(SYS_io_destroy, big));
    say("setup 10000 again", setup(10000, &more));
    say("destroy 10000", syscall(SYS_io_destroy, more));
    say("destroy 128", syscall(SYS_io_destroy, ctx));
    printf("aio-nr over the start after io_destroy: %ld\n", aio_nr() - before);
    say("destroy again", syscall(SYS_io_destroy, ctx));
    say("ring unmapped (msync)", msync(r, 4096, MS_ASYNC));
    say("destroy 0", syscall(SYS_io_destroy, 0));
}

static void file_checks(aio_context_t ctx)
{
    int fd = open("/tmp/aio-file", O_RDWR | O_CREAT | O_TRUNC, 0644);
    char out[32] = "", a[8] = "", b[8] = "";
    struct iocb w = cb_rw(IOCB_CMD_PWRITE, fd, "hello world", 11, 0, 1);
    say("submit pwrite", submit1(ctx, &w));
    printf("aio_key after submit: %u\n", w.aio_key);
    reap("pwrite", ctx, &w);
    struct iocb rd = cb_rw(IOCB_CMD_PREAD, fd, out, 5, 6, 2);
    say("submit pread", submit1(ctx, &rd));
    reap("pread", ctx, &rd);
    printf("pread read \"%s\"\n", out);
    struct iovec wv[2] = {{"AB", 2}, {"CD", 2}};
    struct iocb wvec = cb_rw(IOCB_CMD_PWRITEV, fd, wv, 2, 11, 3);
    say("submit pwritev", submit1(ctx, &wvec));
    reap("pwritev", ctx, &wvec);
    struct iovec rv[2] = {{a, 3}, {b, 4}};
    struct iocb rvec = cb_rw(IOCB_CMD_PREADV, fd, rv, 2, 8, 4);
    say("submit preadv", submit1(ctx, &rvec));
    reap("preadv", ctx, &rvec);
    printf("preadv read \"%s\" \"%s\"\n", a, b);
    struct iocb fs = cb_rw(IOCB_CMD_FSYNC, fd, NULL, 0, 0, 5);
    struct iocb fds = cb_rw(IOCB_CMD_FDSYNC, fd, NULL, 0, 0, 6);
    struct iocb eof = cb_rw(IOCB_CMD_PREAD, fd, out, 8, 100, 7);
    struct iocb *batch[3] = {&fs, &fds, &eof};
    say("submit fsync fdsync pread-at-eof", submit(ctx, 3, batch));
    struct io_event ev[8];
    long n = getevents(ctx, 3, 8, ev, NULL);
    say("getevents 3..8", n);
    /* in data order: Linux's fsync completes from a workqueue */
    for (long i = 1; i < n; i++)
        for (long j = i; j > 0 && ev[j].data < ev[j - 1].data; j--) {
            struct io_event e = ev[j];
            ev[j] = ev[j - 1];
            ev[j - 1] = e;
        }
    for (long i = 0; i < n; i++)
        printf("  event data=%llu res=%lld\n", (unsigned long long)ev[i].data,
               (long long)ev[i].res);
    printf("file position: %ld\n", (long)lseek(fd, 0, SEEK_CUR));
    /* RWF_APPEND: at the end, whatever aio_offset says */
    struct iocb ap = cb_rw(IOCB_CMD_PWRITE, fd, "!", 1, 0, 9);
    ap.aio_rw_flags = 0x10; /* RWF_APPEND */
    say("submit pwrite with RWF_APPEND", submit1(ctx, &ap));
    reap("RWF_APPEND", ctx, &ap);
    printf("file size: %ld, first byte still '%c'\n", (long)lseek(fd, 0, SEEK_END),
           (pread(fd, out, 1, 0), out[0]));
    lseek(fd, 0, SEEK_SET);
    struct iocb fault = cb_rw(IOCB_CMD_PREAD, fd, (void *)16, 4, 0, 8);
    say("submit pread into unmapped", submit1(ctx, &fault));
    reap("pread into unmapped", ctx, &fault);
    close(fd);
}

static void iocb_checks(aio_context_t ctx)
{
    int fd = open("/tmp/aio-file", O_RDWR);
    int wo = open("/tmp/aio-file", O_WRONLY);
    int p[2];
    pipe(p);
    char buf[8];
    struct iocb cb = cb_rw(IOCB_CMD_PREAD, fd, buf, 4, 0, 9);
    cb.aio_reserved2 = 1;
    say("reserved2", submit1(ctx, &cb));
    cb = cb_rw(6 /* IOCB_CMD_NOOP */, fd, buf, 4, 0, 9);
    say("noop", submit1(ctx, &cb));
    cb = cb_rw(99, fd, buf, 4, 0, 9);
    say("opcode 99", submit1(ctx, &cb));
    cb = cb_rw(99, 999, buf, 4, 0, 9);
    say("opcode 99 on a bad fd", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PREAD, 999, buf, 4, 0, 9);
    say("bad fd", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PREAD, wo, buf, 4, 0, 9);
    say("pread of O_WRONLY", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PWRITE, p[0], buf, 4, 0, 9);
    say("pwrite of a read end", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PREAD, fd, buf, 4, 0, 9);
    cb.aio_rw_flags = 0x80000000u;
    say("rw_flags 0x80000000", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PREAD, fd, buf, 4, -1, 9);
    say("negative offset", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PREAD, p[0], buf, 4, -1, 9);
    say("negative offset on a pipe", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PREAD, fd, buf, UINT64_C(1) << 63, 0, 9);
    say("nbytes negative", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PREAD, fd, buf, 4, 0, 9);
    cb.aio_flags = IOCB_FLAG_IOPRIO;
    cb.aio_reqprio = (int16_t)(7 << 13);
    say("ioprio class 7", submit1(ctx, &cb));
    cb.aio_reqprio = (int16_t)((2 << 13) | 4);
    say("ioprio best-effort 4", submit1(ctx, &cb));
    reap("ioprio best-effort 4", ctx, &cb);
    cb = cb_rw(IOCB_CMD_PREAD, fd, buf, 4, 0, 9);
    cb.aio_flags = IOCB_FLAG_RESFD;
    cb.aio_resfd = (uint32_t)fd;
    say("resfd not an eventfd", submit1(ctx, &cb));
    cb.aio_resfd = 999;
    say("resfd not open", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_FSYNC, p[0], NULL, 0, 0, 9);
    say("fsync of a pipe", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_FSYNC, fd, NULL, 1, 0, 9);
    say("fsync with nbytes", submit1(ctx, &cb));
    static struct iovec many[1025];
    cb = cb_rw(IOCB_CMD_PREADV, fd, many, 1025, 0, 9);
    say("preadv of 1025", submit1(ctx, &cb));
    cb = cb_rw(IOCB_CMD_PREADV, fd, (void *)16, 2, 0, 9);
    say("preadv of an unmapped vector", submit1(ctx, &cb));
    say("submit nr -1", submit(ctx, -1, NULL));
    say("submit nr 0", submit(ctx, 0, NULL));
    say("submit bad ctx", submit(12345, 1, NULL));
    say("submit iocbpp NULL", submit(ctx, 1, NULL));
    struct iocb *bad = (struct iocb *)16;
    say("submit iocb unmapped", submit(ctx, 1, &bad));
    struct iocb good = cb_rw(IOCB_CMD_PREAD, fd, buf, 4, 0, 10);
    struct iocb wrong = cb_rw(IOCB_CMD_PREAD, 999, buf, 4, 0, 11);
    struct iocb *pair[3] = {&good, &wrong, &good};
    say("submit good, bad fd, good", submit(ctx, 3, pair));
    reap("the good one", ctx, &good);
    pair[0] = &wrong;
    say("submit bad fd first", submit(ctx, 3, pair));
    /* io_cancel: a completed request is not found */
    struct io_event res;
    say("cancel completed", syscall(SYS_io_cancel, ctx, &good, &res));
    good.aio_key = 1;
    say("cancel with aio_key 1", syscall(SYS_io_cancel, ctx, &good, &res));
    close(fd);
    close(wo);
    close(p[0]);
    close(p[1]);
}

static void resfd_and_ring(aio_context_t ctx)
{
    int fd = open("/tmp/aio-file", O_RDWR);
    int efd = eventfd(0, 0);
    char x[4], y[4];
    struct iocb r1 = cb_rw(IOCB_CMD_PREAD, fd, x, 3, 0, 21);
    struct iocb r2 = cb_rw(IOCB_CMD_PREAD, fd, y, 3, 3, 22);
    r1.aio_flags = r2.aio_flags = IOCB_FLAG_RESFD;
    r1.aio_resfd = r2.aio_resfd = (uint32_t)efd;
    struct iocb *two[2] = {&r1, &r2};
    say("submit 2 with resfd", submit(ctx, 2, two));
    uint64_t v = 0;
    say("eventfd read", read(efd, &v, sizeof v));
    printf("eventfd count %llu\n", (unsigned long long)v);
    /* Reap from the ring itself, as libaio's user-space io_getevents. */
    struct ring *r = (struct ring *)(uintptr_t)ctx;
    unsigned head = r->head, tail = r->tail;
    printf("ring holds %u events\n", (tail - head + r->nr) % r->nr);
    while (head != tail) {
        struct io_event *e = &r->events[head];
        printf("  ring event data=%llu res=%lld\n", (unsigned long long)e->data, (long long)e->res);
        head = (head + 1) % r->nr;
    }
    r->head = head;
    struct ts_long zero = {0, 0};
    struct io_event ev;
    say("getevents after user-space reaping", getevents(ctx, 0, 1, &ev, &zero));
    close(fd);
    close(efd);
}

static void pipe_checks(aio_context_t ctx)
{
    int p[2];
    pipe(p);
    char buf[16] = "";
    pid_t child = fork();
    if (child == 0) {
        /* Its address space has no context: the ring it inherited (Linux
         * does not mark it VM_DONTCOPY) names none. */
        struct io_event ev;
        long r = getevents(ctx, 0, 1, &ev, NULL);
        int e = r < 0 ? errno : 0;
        int mapped = msync((void *)(uintptr_t)ctx, 4096, MS_ASYNC) == 0;
        usleep(50000);
        write(p[1], "ping", 4);
        _exit(e | (mapped ? 0x80 : 0));
    }
    struct iocb rd = cb_rw(IOCB_CMD_PREAD, p[0], buf, sizeof buf, 0, 31);
    say("submit read of a pipe", submit1(ctx, &rd));
    reap("pipe read", ctx, &rd);
    printf("pipe read \"%s\"\n", buf);
    int status = 0;
    waitpid(child, &status, 0);
    printf("child: getevents on the parent's context: %s, the ring mapped: %s\n",
           err_name(WEXITSTATUS(status) & 0x7f), WEXITSTATUS(status) & 0x80 ? "yes" : "no");
    /* An O_NONBLOCK pipe: the event says EAGAIN. */
    int q[2];
    pipe2(q, O_NONBLOCK);
    struct iocb nb = cb_rw(IOCB_CMD_PREAD, q[0], buf, 4, 0, 32);
    say("submit read of an empty O_NONBLOCK pipe", submit1(ctx, &nb));
    reap("O_NONBLOCK read", ctx, &nb);
    /* RWF_NOWAIT on a blocking pipe: EAGAIN in the event too. */
    struct iocb nw = cb_rw(IOCB_CMD_PREAD, p[0], buf, 4, 0, 36);
    nw.aio_rw_flags = 0x8; /* RWF_NOWAIT */
    say("submit RWF_NOWAIT read of an empty blocking pipe", submit1(ctx, &nw));
    reap("RWF_NOWAIT read", ctx, &nw);
    struct iocb wr = cb_rw(IOCB_CMD_PWRITE, q[1], "pong", 4, 0, 33);
    say("submit write to a pipe", submit1(ctx, &wr));
    reap("pipe write", ctx, &wr);
    /* POLL: ready now, waiting until a write, cancelled. */
    struct iocb pl = cb_rw(IOCB_CMD_POLL, q[0], NULL, 0, 0, 34);
    pl.aio_buf = POLLIN;
    say("submit poll of a pipe with data", submit1(ctx, &pl));
    reap("poll ready", ctx, &pl);
    read(q[0], buf, sizeof buf);
    say("submit poll of an empty pipe", submit1(ctx, &pl));
    struct ts_long zero = {0, 0};
    struct io_event ev;
    say("getevents with a zero timeout", getevents(ctx, 1, 1, &ev, &zero));
    write(q[1], "x", 1);
    reap("poll after a write", ctx, &pl);
    read(q[0], buf, sizeof buf);
    say("submit poll to cancel", submit1(ctx, &pl));
    struct io_event res;
    say("cancel the poll", syscall(SYS_io_cancel, ctx, &pl, &res));
    reap("cancelled poll", ctx, &pl);
    say("cancel it again", syscall(SYS_io_cancel, ctx, &pl, &res));
    struct iocb bad = cb_rw(IOCB_CMD_POLL, q[0], NULL, 0, 8, 35);
    bad.aio_buf = POLLIN;
    say("poll with an offset", submit1(ctx, &bad));
    bad = cb_rw(IOCB_CMD_POLL, q[0], NULL, 0, 0, 35);
    bad.aio_buf = 0x10000;
    say("poll of events past 16 bits", submit1(ctx, &bad));
    close(p[0]);
    close(p[1]);
    close(q[0]);
    close(q[1]);
}

static volatile int caught;

static void on_signal(int sig)
{
    caught = sig;
}

static void getevents_checks(aio_context_t ctx)
{
    struct io_event ev[4];
    struct ts_long ts = {0, 30000000};
    say("getevents min > nr", getevents(ctx, 2, 1, ev, NULL));
    say("getevents min -1", getevents(ctx, -1, 1, ev, NULL));
    say("getevents bad ctx", getevents(12345, 0, 1, ev, NULL));
    say("getevents 30 ms, nothing", getevents(ctx, 1, 4, ev, &ts));
    int fd = open("/tmp/aio-file", O_RDWR);
    char buf[4];
    struct iocb rd = cb_rw(IOCB_CMD_PREAD, fd, buf, 2, 0, 41);
    submit1(ctx, &rd);
    say("getevents min 2, 30 ms, one there", getevents(ctx, 2, 4, ev, &ts));
    submit1(ctx, &rd);
    say("getevents into unmapped", getevents(ctx, 1, 4, (struct io_event *)16, &ts));
    say("getevents after the EFAULT", getevents(ctx, 1, 4, ev, &ts));
    close(fd);
    /* A signal with SA_RESTART still ends io_getevents with EINTR. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 0}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    say("getevents, SIGALRM with SA_RESTART", getevents(ctx, 1, 4, ev, NULL));
    printf("caught %d\n", caught);
    /* io_pgetevents: SIGUSR1 blocked but for the call. */
    caught = 0;
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t block, during, now;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, NULL);
    sigemptyset(&during);
    struct {
        const sigset_t *mask;
        size_t size;
    } usig = {&during, 8};
    pid_t parent = getpid();
    pid_t child = fork();
    if (child == 0) {
        usleep(20000);
        kill(parent, SIGUSR1);
        _exit(0);
    }
    say("pgetevents, SIGUSR1 let in", syscall(SYS_io_pgetevents, ctx, 1, 4, ev, NULL, &usig));
    printf("caught %d\n", caught);
    sigprocmask(SIG_BLOCK, NULL, &now);
    printf("SIGUSR1 blocked again: %d\n", sigismember(&now, SIGUSR1));
    waitpid(child, NULL, 0);
    usig.size = 4;
    say("pgetevents sigsetsize 4", syscall(SYS_io_pgetevents, ctx, 1, 4, ev, NULL, &usig));
    say("pgetevents usig unmapped", syscall(SYS_io_pgetevents, ctx, 1, 4, ev, NULL, (void *)16));
    struct ts64 t64 = {0, 20000000};
    say("pgetevents_time64 20 ms, no usig",
        syscall(SYS_io_pgetevents_time64, ctx, 1, 4, ev, &t64, NULL));
    sigprocmask(SIG_UNBLOCK, &block, NULL);
}

/* A thread waiting in io_getevents: woken by the main thread's
 * completion, then by its io_destroy (EINVAL). It prints nothing itself, so
 * the order of the lines is the main thread's. */
static aio_context_t thread_ctx;
static long thread_res[2];
static int thread_err[2];
static struct io_event thread_ev;

static void *waiter(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2; i++) {
        thread_res[i] = getevents(thread_ctx, 1, 1, &thread_ev, NULL);
        thread_err[i] = thread_res[i] < 0 ? errno : 0;
    }
    return NULL;
}

static void thread_checks(void)
{
    thread_ctx = 0;
    setup(8, &thread_ctx);
    int fd = open("/tmp/aio-file", O_RDONLY);
    char buf[4];
    pthread_t th;
    pthread_create(&th, NULL, waiter, NULL);
    usleep(20000);
    struct iocb rd = cb_rw(IOCB_CMD_PREAD, fd, buf, 3, 0, 61);
    say("main: submit while a thread waits", submit1(thread_ctx, &rd));
    usleep(20000);
    say("main: destroy while it waits again", syscall(SYS_io_destroy, thread_ctx));
    pthread_join(th, NULL);
    printf("thread: first wait %ld data=%llu, second wait %ld %s\n", thread_res[0],
           (unsigned long long)thread_ev.data, thread_res[1],
           thread_err[1] ? err_name(thread_err[1]) : "");
    close(fd);
}

static void maps_check(void)
{
    aio_context_t ctx = 0;
    setup(8, &ctx);
    char line[512];
    FILE *f = fopen("/proc/self/maps", "r");
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (strtoull(line, NULL, 16) == ctx && strstr(line, "rw-s") &&
            strstr(line, "/[aio] (deleted)"))
            found = 1;
    if (f)
        fclose(f);
    printf("maps: the ring is a shared /[aio] mapping: %d\n", found);
    syscall(SYS_io_destroy, ctx);
}

/* What asymu does where Linux's io_submit would wait: the request waits
 * instead, and completes when its pipe or eventfd is ready. */
static void deferred(void)
{
    aio_context_t ctx = 0;
    setup(16, &ctx);
    int p[2];
    pipe(p);
    char buf[16] = "";
    struct iocb rd = cb_rw(IOCB_CMD_PREAD, p[0], buf, sizeof buf, 0, 51);
    say("submit read of an empty pipe", submit1(ctx, &rd));
    struct ts_long zero = {0, 0};
    struct io_event ev;
    say("getevents at once", getevents(ctx, 1, 1, &ev, &zero));
    write(p[1], "late", 4);
    reap("read after the write", ctx, &rd);
    printf("read \"%s\"\n", buf);
    static char big[100000];
    memset(big, 'z', sizeof big);
    struct iocb wr = cb_rw(IOCB_CMD_PWRITE, p[1], big, sizeof big, 0, 52);
    say("submit write of 100000 to an empty pipe", submit1(ctx, &wr));
    say("getevents at once", getevents(ctx, 1, 1, &ev, &zero));
    static char sink[100000];
    long got = 0, n;
    while (got < (long)sizeof sink && (n = read(p[0], sink, sizeof sink)) > 0)
        got += n;
    printf("reader took %ld\n", got);
    reap("write", ctx, &wr);
    int efd = eventfd(0, 0);
    uint64_t v = 0;
    struct iocb ef = cb_rw(IOCB_CMD_PREAD, efd, &v, 8, 0, 53);
    say("submit read of an eventfd at 0", submit1(ctx, &ef));
    uint64_t five = 5;
    write(efd, &five, 8);
    reap("eventfd read", ctx, &ef);
    printf("eventfd gave %llu\n", (unsigned long long)v);
    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    char sbuf[8] = "";
    struct iocb sr = cb_rw(IOCB_CMD_PREAD, sv[0], sbuf, sizeof sbuf - 1, 0, 54);
    say("submit read of an empty socket", submit1(ctx, &sr));
    say("getevents at once", getevents(ctx, 1, 1, &ev, &zero));
    write(sv[1], "sock", 4);
    reap("socket read", ctx, &sr);
    printf("socket gave \"%s\"\n", sbuf);
    struct iocb sp = cb_rw(IOCB_CMD_POLL, sv[0], NULL, 0, 0, 55);
    sp.aio_buf = POLLIN;
    say("submit poll of the empty socket", submit1(ctx, &sp));
    shutdown(sv[1], SHUT_WR);
    reap("poll after the peer's shutdown", ctx, &sp);
    close(sv[0]);
    close(sv[1]);
    say("submit another read of the empty pipe", submit1(ctx, &rd));
    say("destroy with it pending", syscall(SYS_io_destroy, ctx));
    write(p[1], "gone", 4);
    say("its bytes stay in the pipe", read(p[0], buf, sizeof buf));
    /* The ring holds nr - 1 events: requests in flight and events not
     * reaped count (Linux's per-CPU batches make its limit vary). */
    aio_context_t small = 0;
    setup(1, &small);
    static struct iocb polls[200];
    long k = 0;
    for (; k < 200; k++) {
        polls[k] = cb_rw(IOCB_CMD_POLL, p[0], NULL, 0, 0, 60);
        polls[k].aio_buf = POLLIN;
        if (submit1(small, &polls[k]) != 1)
            break;
    }
    printf("ring nr %u: %ld polls waiting, then %s\n", ((struct ring *)(uintptr_t)small)->nr, k,
           err_name(errno));
    say("destroy it", syscall(SYS_io_destroy, small));
    /* A context and a pending request left at exit are freed with it. */
    ctx = 0;
    setup(16, &ctx);
    say("submit a read left pending at exit", submit1(ctx, &rd));
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1 && strcmp(argv[1], "deferred") == 0) {
        deferred();
        return 0;
    }
    setup_checks();
    aio_context_t ctx = 0;
    setup(64, &ctx);
    file_checks(ctx);
    iocb_checks(ctx);
    resfd_and_ring(ctx);
    pipe_checks(ctx);
    getevents_checks(ctx);
    thread_checks();
    maps_check();
    unlink("/tmp/aio-file");
    return 0;
}
