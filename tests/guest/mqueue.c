/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mqueue.c - POSIX message queues (emu/ipc/mqueue.c), one case per run
 * (argv[1]):
 *   basic    create, attributes, close-on-exec, fstat, the QSIZE line a
 *            read gives, priority order (FIFO within one), unlink
 *   errors   each call's errnos: names, O_EXCL, attributes and limits
 *            (EINVAL, EMFILE from RLIMIT_MSGQUEUE, ENOSPC past queues_max
 *            for a user), access modes, sizes, priorities, timeouts, EBUSY
 *   block    a receive blocked until a child sends; a send blocked on a
 *            full queue until a child receives; blocked receivers are
 *            served by priority (nice), oldest first within one; a
 *            receiver killed while it waits takes nothing with it
 *   timeout  the absolute CLOCK_REALTIME timeout (ETIMEDOUT), O_NONBLOCK
 *            (EAGAIN), mq_setattr
 *   poll     poll, select and epoll readiness: POLLIN with a message,
 *            POLLOUT with room; a poll woken by a child's send
 *   notify   mq_notify with SIGEV_SIGNAL (si_code SI_MESGQ, si_value,
 *            si_pid), used up by one message, SIGEV_NONE, unregistering
 *   signal   a blocked receive ends with EINTR, or goes on with SA_RESTART
 *   thread   mq_notify with SIGEV_THREAD (glibc's netlink socket)
 *   kmem     (with --max-kmem 16M) root lifts RLIMIT_MSGQUEUE and queues
 *            1 MiB messages until mq_send fails with ENOMEM; a receive
 *            makes room for one more; a new queue after the old one is
 *            gone takes as many
 * glibc strips the name's leading '/' (EINVAL without one) and turns
 * mq_unlink's EPERM into EACCES. Names carry the ISA and pid so that runs
 * under qemu-user on one host kernel do not meet. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static char qname[64];

static const char *name_of(const char *tag)
{
    snprintf(qname, sizeof qname, "/asymu-mq-%s-%s-%d", ISA, tag, (int)getpid());
    return qname;
}

static const char *res(int r)
{
    return r < 0 ? err_name(errno) : "ok";
}

static void sleep_ms(long ms)
{
    struct timespec ts = ts_of(ms * MS);
    nanosleep(&ts, NULL);
}

static int child_status(pid_t pid)
{
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static mqd_t open_attr(const char *name, int flags, long maxmsg, long msgsize)
{
    struct mq_attr a = {.mq_maxmsg = maxmsg, .mq_msgsize = msgsize};
    return mq_open(name, flags, 0600, &a);
}

static void print_attr(const char *what, mqd_t q)
{
    struct mq_attr a;
    memset(&a, 0x55, sizeof a);
    if (mq_getattr(q, &a) < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: flags %#lx maxmsg %ld msgsize %ld curmsgs %ld\n", what, (long)a.mq_flags,
               (long)a.mq_maxmsg, (long)a.mq_msgsize, (long)a.mq_curmsgs);
}

static void send(mqd_t q, const char *text, unsigned prio)
{
    if (mq_send(q, text, strlen(text), prio) < 0)
        printf("send \"%s\" %u: %s\n", text, prio, err_name(errno));
}

static void recv(mqd_t q, size_t size)
{
    char buf[16384];
    unsigned prio = 12345;
    ssize_t n = mq_receive(q, buf, size, &prio);
    if (n < 0)
        printf("receive: %s\n", err_name(errno));
    else
        printf("receive: %zd bytes \"%.*s\" prio %u\n", n, (int)n, buf, prio);
}

/* The line a read of the queue gives (Linux's mqueue_read_file), by a
 * child's own descriptor: a close by the process that registered with
 * mq_notify would drop its registration. */
static void read_line(const char *name)
{
    pid_t pid = fork();
    if (pid == 0) {
        char buf[128];
        mqd_t q = mq_open(name, O_RDONLY);
        ssize_t n = read(q, buf, sizeof buf - 1);
        if (n < 0) {
            printf("read: %s\n", err_name(errno));
            exit(0);
        }
        buf[n] = 0;
        unsigned long qsize;
        int how, signo, pid;
        if (sscanf(buf, "QSIZE:%lu NOTIFY:%d SIGNO:%d NOTIFY_PID:%d", &qsize, &how, &signo, &pid) !=
            4)
            printf("read %zd: %s", n, buf);
        else
            printf("read %zd: QSIZE %lu NOTIFY %d SIGNO %d NOTIFY_PID %s\n", n, qsize, how, signo,
                   pid == 0           ? "0"
                   : pid == getppid() ? "parent"
                                      : "other");
        n = read(q, buf, sizeof buf);
        printf("read again: %zd\n", n);
        exit(0);
    }
    child_status(pid);
}

/* Whether /proc/self/fd/FD reads NAME, then SUFFIX. */
static int link_is(mqd_t q, const char *name, const char *suffix)
{
    char path[64], link[256], want[300];
    snprintf(path, sizeof path, "/proc/self/fd/%d", (int)q);
    ssize_t n = readlink(path, link, sizeof link - 1);
    link[n > 0 ? n : 0] = 0;
    snprintf(want, sizeof want, "%s%s", name, suffix);
    return strcmp(link, want) == 0;
}

static void basic(void)
{
    const char *name = name_of("basic");
    mqd_t q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0640, NULL);
    printf("open: %s\n", res(q));
    print_attr("attr", q);
    printf("cloexec: %d\n", fcntl(q, F_GETFD));
    printf("getfl: %#x\n", fcntl(q, F_GETFL) & (O_ACCMODE | O_NONBLOCK));
    struct stat st;
    fstat(q, &st);
    printf("fstat: mode %o size %lld nlink %lu uid %u\n", st.st_mode, (long long)st.st_size,
           (unsigned long)st.st_nlink, st.st_uid);
    send(q, "low", 1);
    send(q, "high", 5);
    send(q, "zero", 0);
    send(q, "high2", 5);
    send(q, "", 3);
    send(q, "mid", 3);
    print_attr("attr", q);
    read_line(name);
    /* the queue's own descriptor seeks as default_llseek, size 80 */
    char b[80];
    ssize_t n = pread(q, b, 7, 6);
    printf("pread at 6: %zd \"%.*s\"\n", n, n > 0 ? (int)n : 0, b);
    printf("lseek end: %lld\n", (long long)lseek(q, 0, SEEK_END));
    printf("read at 80: %zd\n", read(q, b, sizeof b));
    printf("lseek -1: %s\n", res((int)lseek(q, -1, SEEK_SET)));
    printf("lseek data 80: %s\n", res((int)lseek(q, 80, SEEK_DATA)));
    printf("lseek hole 3: %lld\n", (long long)lseek(q, 3, SEEK_HOLE));
    printf("lseek set 54: %lld\n", (long long)lseek(q, 54, SEEK_SET));
    n = read(q, b, sizeof b);
    printf("read at 54: %zd \"%.*s\"\n", n, n > 0 ? (int)n - 1 : 0, b);
    for (int i = 0; i < 6; i++)
        recv(q, 8192);
    read_line(name);
    mqd_t r = mq_open(name, O_RDONLY);
    printf("reopen: %s, same inode %d\n", res(r), ({
               struct stat s2;
               fstat(r, &s2);
               s2.st_ino == st.st_ino;
           }));
    printf("fd link is the name: %d\n", link_is(q, name, ""));
    printf("unlink: %s\n", res(mq_unlink(name)));
    printf("fd link is the name (deleted): %d\n", link_is(q, name, " (deleted)"));
    fstat(q, &st);
    printf("fstat after unlink: nlink %lu\n", (unsigned long)st.st_nlink);
    printf("open after unlink: %s\n", res(mq_open(name, O_RDONLY)));
    send(q, "still", 7);
    recv(r, 8192);
    printf("close: %s %s\n", res(mq_close(q)), res(mq_close(r)));
    printf("close again: %s\n", res(mq_close(q)));
}

static void errors(void)
{
    const char *name = name_of("errors");
    char longname[300];
    memset(longname, 'x', sizeof longname);
    longname[0] = '/';
    longname[256] = 0;
    printf("open 'noslash': %s\n", res(mq_open("noslash", O_RDONLY)));
    printf("open '/': %s\n", res(mq_open("/", O_RDONLY | O_CREAT, 0600, NULL)));
    printf("open '/a/b': %s\n", res(mq_open("/a/b", O_RDONLY | O_CREAT, 0600, NULL)));
    printf("open '/..': %s\n", res(mq_open("/..", O_RDONLY)));
    printf("open 255 x: %s\n", res(mq_open(longname, O_RDONLY)));
    longname[256] = 'x';
    longname[257] = 0;
    printf("open 256 x: %s\n", res(mq_open(longname, O_RDONLY | O_CREAT, 0600, NULL)));
    printf("open missing: %s\n", res(mq_open(name, O_RDONLY)));
    printf("maxmsg 0: %s\n", res(open_attr(name, O_CREAT | O_RDWR, 0, 10)));
    printf("msgsize -1: %s\n", res(open_attr(name, O_CREAT | O_RDWR, 10, -1)));
    printf("maxmsg 65537: %s\n", res(open_attr(name, O_CREAT | O_RDWR, 65537, 1)));
    printf("msgsize 16M+1: %s\n", res(open_attr(name, O_CREAT | O_RDWR, 1, 16 * 1024 * 1024 + 1)));
    /* RLIMIT_MSGQUEUE: maxmsg * (msgsize + 48) + min(maxmsg, 32768) * 48 bytes */
    struct rlimit rl, small = {82880, 82880};
    getrlimit(RLIMIT_MSGQUEUE, &rl);
    printf("rlimit: %lu\n", (unsigned long)rl.rlim_cur);
    setrlimit(RLIMIT_MSGQUEUE, &small);
    mqd_t q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, NULL);
    printf("default at the limit: %s\n", res(q));
    const char *name2 = "/asymu-mq-second";
    printf("one byte more: %s\n", res(open_attr(name2, O_CREAT | O_RDWR, 1, 1)));
    setrlimit(RLIMIT_MSGQUEUE, &rl);
    printf("exclusive: %s\n", res(mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, NULL)));
    printf("rdwr|wronly: %s\n", res(mq_open(name, O_RDWR | O_WRONLY)));
    mqd_t ro = mq_open(name, O_RDONLY), wo = mq_open(name, O_WRONLY | O_CREAT, 0600, NULL);
    printf("rdonly %s wronly %s\n", res(ro), res(wo));
    char buf[8192];
    printf("send on rdonly: %s\n", res(mq_send(ro, "x", 1, 0)));
    printf("receive on wronly: %s\n", res((int)mq_receive(wo, buf, sizeof buf, NULL)));
    int p[2];
    pipe(p);
    printf("send on a pipe: %s\n", res(mq_send(p[1], "x", 1, 0)));
    printf("receive on fd 999: %s\n", res((int)mq_receive(999, buf, sizeof buf, NULL)));
    printf("send 8193 bytes: %s\n", res(mq_send(q, buf, 8193, 0)));
    printf("send prio 32768: %s\n", res(mq_send(q, "x", 1, 32768)));
    printf("send prio 32767: %s\n", res(mq_send(q, "x", 1, 32767)));
    printf("send bad buffer: %s\n", res(mq_send(q, (const char *)8, 1, 0)));
    printf("receive 8191-byte buffer: %s\n", res((int)mq_receive(q, buf, 8191, NULL)));
    struct timespec bad = {.tv_sec = 0, .tv_nsec = 1000000000};
    printf("send bad timeout: %s\n", res(mq_timedsend(q, "x", 1, 0, &bad)));
    bad.tv_sec = -1;
    bad.tv_nsec = 0;
    printf("receive bad timeout: %s\n", res((int)mq_timedreceive(q, buf, sizeof buf, NULL, &bad)));
    printf("receive bad buffer: %s\n", res((int)mq_receive(q, (char *)8, 8192, NULL)));
    print_attr("attr", q);
    struct mq_attr na = {.mq_flags = O_RDWR};
    printf("setattr O_RDWR: %s\n", res(mq_setattr(q, &na, NULL)));
    printf("getattr on a pipe: %s\n", res(mq_getattr(p[0], &na)));
    struct sigevent ev = {.sigev_notify = 7};
    printf("notify kind 7: %s\n", res(mq_notify(q, &ev)));
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = 65;
    printf("notify signal 65: %s\n", res(mq_notify(q, &ev)));
    ev.sigev_signo = 0;
    printf("notify signal 0: %s\n", res(mq_notify(q, &ev)));
    printf("notify again: %s\n", res(mq_notify(q, &ev)));
    printf("notify on a pipe: %s\n", res(mq_notify(p[0], &ev)));
    pid_t pid = fork();
    if (pid == 0) {
        /* another process: EBUSY; another user: no access, no unlink */
        printf("child notify: %s\n", res(mq_notify(q, &ev)));
        printf("child unregister: %s\n", res(mq_notify(q, NULL)));
        if (setgid(1000) < 0 || setuid(1000) < 0)
            printf("setuid: %s\n", err_name(errno));
        printf("user open: %s\n", res(mq_open(name, O_RDONLY)));
        printf("user unlink: %s\n", res(mq_unlink(name)));
        printf("user maxmsg 11: %s\n", res(open_attr("/asymu-mq-user", O_CREAT | O_RDWR, 11, 1)));
        printf("user msgsize 8193: %s\n",
               res(open_attr("/asymu-mq-user", O_CREAT | O_RDWR, 1, 8193)));
        /* queues_max is 256 queues in all; root's two count */
        int made = 0, err = 0;
        for (int i = 0; i < 300 && !err; i++) {
            char n[64];
            snprintf(n, sizeof n, "/asymu-mq-%s-many-%d-%d", ISA, (int)getpid(), i);
            mqd_t m = open_attr(n, O_CREAT | O_RDWR, 1, 1);
            if (m < 0)
                err = errno;
            else
                made++;
            close(m);
        }
        printf("user queues: %d, then %s\n", made, err_name(err));
        for (int i = 0; i < made; i++) {
            char n[64];
            snprintf(n, sizeof n, "/asymu-mq-%s-many-%d-%d", ISA, (int)getpid(), i);
            mq_unlink(n);
        }
        exit(0);
    }
    child_status(pid);
    printf("unregister: %s\n", res(mq_notify(q, NULL)));
    printf("unlink: %s\n", res(mq_unlink(name)));
    printf("unlink missing: %s\n", res(mq_unlink(name)));
    printf("unlink noslash: %s\n", res(mq_unlink("noslash")));
    printf("unlink '/': %s\n", res(mq_unlink("/")));
}

static void block(void)
{
    const char *name = name_of("block");
    mqd_t q = open_attr(name, O_CREAT | O_RDWR, 2, 64);
    mq_unlink(name);
    pid_t pid = fork();
    if (pid == 0) {
        sleep_ms(50);
        send(q, "from child", 2);
        exit(0);
    }
    long long t0 = now_ns(CLOCK_MONOTONIC);
    recv(q, 64);
    printf("waited >= 50 ms: %d\n", now_ns(CLOCK_MONOTONIC) - t0 >= 50 * MS);
    printf("child: %d\n", child_status(pid));
    send(q, "one", 1);
    send(q, "two", 2);
    pid = fork();
    if (pid == 0) {
        sleep_ms(50);
        char buf[64];
        unsigned prio;
        exit(mq_receive(q, buf, sizeof buf, &prio) == 3 && memcmp(buf, "two", 3) == 0 ? prio : 99);
    }
    t0 = now_ns(CLOCK_MONOTONIC);
    send(q, "three", 9);
    printf("send waited >= 50 ms: %d\n", now_ns(CLOCK_MONOTONIC) - t0 >= 50 * MS);
    printf("child received \"two\", prio %d\n", child_status(pid));
    recv(q, 64);
    recv(q, 64);
    print_attr("attr", q);
    /* receivers at nice 10, 0, 5 and 0 block in that order */
    static const int nices[4] = {10, 0, 5, 0};
    pid_t kids[4];
    for (int i = 0; i < 4; i++) {
        if ((kids[i] = fork()) == 0) {
            if (setpriority(PRIO_PROCESS, 0, nices[i]) < 0)
                exit(100);
            char buf[64];
            ssize_t n = mq_receive(q, buf, sizeof buf, NULL);
            exit(n == 2 ? buf[1] - '0' : 99);
        }
        sleep_ms(100); /* qemu-user starts a child slowly */
    }
    for (int i = 1; i <= 4; i++) {
        char m[3] = {'m', (char)('0' + i), 0};
        send(q, m, 0);
    }
    for (int i = 0; i < 4; i++)
        printf("receiver %d (nice %d) got m%d\n", i, nices[i], child_status(kids[i]));
    /* a receiver killed while it waits takes nothing with it */
    pid = fork();
    if (pid == 0) {
        recv(q, 64);
        exit(0);
    }
    sleep_ms(100);
    kill(pid, SIGKILL);
    printf("killed receiver: %d\n", child_status(pid));
    send(q, "after the kill", 3);
    recv(q, 64);
}

/* arm's mq_timedsend_time64 and mq_timedreceive_time64, which glibc uses
 * only for times past 2038: called directly (arm64 has only the one form,
 * called the same way). q is full, with one message "c". */
struct ts64 {
    long long sec, nsec;
};

static long timed64(int receive, mqd_t q, char *buf, size_t len, const struct ts64 *ts)
{
#ifdef __aarch64__
    return syscall(receive ? SYS_mq_timedreceive : SYS_mq_timedsend, q, buf, len, 0, ts);
#else
    return syscall(receive ? __NR_mq_timedreceive_time64 : __NR_mq_timedsend_time64, q, buf, len, 0,
                   ts);
#endif
}

static void time64_calls(mqd_t q)
{
    char buf[16] = "x";
    struct ts64 past = {1, 0}, bad = {0, 1000000000}, far = {4102444800LL, 0}; /* 2100 */
    printf("time64 send, past: %s\n", res((int)timed64(0, q, buf, 1, &past)));
    printf("time64 send, bad: %s\n", res((int)timed64(0, q, buf, 1, &bad)));
    long long t0 = now_ns(CLOCK_MONOTONIC), now = now_ns(CLOCK_REALTIME);
    struct ts64 soon = {(now + 50 * MS) / 1000000000, (now + 50 * MS) % 1000000000};
    printf("time64 send, 50 ms: %s\n", res((int)timed64(0, q, buf, 1, &soon)));
    printf("time64 waited >= 50 ms: %d\n", now_ns(CLOCK_MONOTONIC) - t0 >= 50 * MS);
    long n = timed64(1, q, buf, sizeof buf, &far);
    printf("time64 receive, 2100: %s %.*s\n", res((int)n), n > 0 ? (int)n : 0, buf);
    printf("time64 receive, past: %s\n", res((int)timed64(1, q, buf, sizeof buf, &past)));
    mq_send(q, "c", 1, 0);
}

static void timeout(void)
{
    const char *name = name_of("timeout");
    mqd_t q = open_attr(name, O_CREAT | O_RDWR, 1, 16);
    mq_unlink(name);
    char buf[16];
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long long t0 = now_ns(CLOCK_MONOTONIC);
    ts.tv_nsec += 100 * MS;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    printf("timed receive: %s\n", res((int)mq_timedreceive(q, buf, sizeof buf, NULL, &ts)));
    long long waited = now_ns(CLOCK_MONOTONIC) - t0;
    printf("waited 100..500 ms: %d\n", waited >= 100 * MS && waited < 500 * MS);
    struct timespec past = {.tv_sec = 1, .tv_nsec = 0};
    printf("past receive: %s\n", res((int)mq_timedreceive(q, buf, sizeof buf, NULL, &past)));
    printf("past send, room: %s\n", res(mq_timedsend(q, "a", 1, 0, &past)));
    printf("past send, full: %s\n", res(mq_timedsend(q, "b", 1, 0, &past)));
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 0;
    ts.tv_nsec += 50 * MS;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    printf("timed send, full: %s\n", res(mq_timedsend(q, "b", 1, 0, &ts)));
    printf("past receive, a message: %s\n",
           res((int)mq_timedreceive(q, buf, sizeof buf, NULL, &past)));
    struct mq_attr na = {.mq_flags = O_NONBLOCK}, old;
    printf("setattr: %s\n", res(mq_setattr(q, &na, &old)));
    printf("old flags %#lx\n", (long)old.mq_flags);
    print_attr("attr", q);
    printf("getfl: %#x\n", fcntl(q, F_GETFL) & (O_ACCMODE | O_NONBLOCK));
    printf("receive empty: %s\n", res((int)mq_receive(q, buf, sizeof buf, NULL)));
    send(q, "c", 1);
    printf("send full: %s\n", res(mq_send(q, "d", 1, 0)));
    na.mq_flags = 0;
    mq_setattr(q, &na, NULL);
    print_attr("attr", q);
    time64_calls(q);
    mqd_t nb = mq_open(name_of("nonblock"), O_CREAT | O_RDWR | O_NONBLOCK, 0600, NULL);
    print_attr("nonblock attr", nb);
    printf("nonblock receive: %s\n", res((int)mq_receive(nb, buf, 8192, NULL)));
    mq_unlink(name_of("nonblock"));
}

static void show_poll(const char *what, mqd_t q, int timeout_ms)
{
    struct pollfd p = {.fd = q, .events = POLLIN | POLLOUT};
    int n = poll(&p, 1, timeout_ms);
    printf("%s: poll %d revents %#x\n", what, n, p.revents);
}

static void poll_case(void)
{
    const char *name = name_of("poll");
    mqd_t q = open_attr(name, O_CREAT | O_RDWR, 2, 16);
    mqd_t ro = mq_open(name, O_RDONLY);
    mq_unlink(name);
    show_poll("empty", q, 0);
    send(q, "a", 1);
    show_poll("one", q, 0);
    send(q, "b", 1);
    show_poll("full", q, 0);
    show_poll("full, read-only fd", ro, 0);
    fd_set rd, wr;
    FD_ZERO(&rd);
    FD_ZERO(&wr);
    FD_SET(q, &rd);
    FD_SET(q, &wr);
    struct timeval tv = {0, 0};
    int n = select(q + 1, &rd, &wr, NULL, &tv);
    printf("select full: %d read %d write %d\n", n, FD_ISSET(q, &rd), FD_ISSET(q, &wr));
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.u32 = 7};
    epoll_ctl(ep, EPOLL_CTL_ADD, q, &ev);
    char buf[16];
    mq_receive(q, buf, sizeof buf, NULL);
    mq_receive(q, buf, sizeof buf, NULL);
    show_poll("emptied", q, 0);
    struct epoll_event out;
    printf("epoll empty: %d\n", epoll_wait(ep, &out, 1, 0));
    pid_t pid = fork();
    if (pid == 0) {
        sleep_ms(30);
        send(q, "late", 4);
        exit(0);
    }
    n = epoll_wait(ep, &out, 1, 1000);
    printf("epoll woken: %d events %#x data %u\n", n, n > 0 ? out.events : 0,
           n > 0 ? out.data.u32 : 0);
    show_poll("after child", q, 1000);
    printf("child: %d\n", child_status(pid));
    mq_receive(q, buf, sizeof buf, NULL);
    pid = fork();
    if (pid == 0) {
        sleep_ms(30);
        send(q, "later", 5);
        exit(0);
    }
    struct pollfd p = {.fd = q, .events = POLLIN};
    n = poll(&p, 1, 1000);
    printf("poll woken: %d revents %#x\n", n, p.revents);
    printf("child: %d\n", child_status(pid));
}

static volatile int got_sig, got_code, got_pid, got_value;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    got_sig = sig;
    got_code = si->si_code;
    got_pid = si->si_pid;
    got_value = si->si_value.sival_int;
}

static void show_sig(const char *what)
{
    printf("%s: signal %d code %d (SI_MESGQ %d) pid self %d value %d\n", what, got_sig, got_code,
           SI_MESGQ, got_pid == getpid(), got_value);
    got_sig = got_code = got_pid = got_value = 0;
}

static void notify(void)
{
    struct sigaction sa = {.sa_sigaction = on_sig, .sa_flags = SA_SIGINFO};
    sigaction(SIGUSR1, &sa, NULL);
    const char *name = name_of("notify");
    mqd_t q = open_attr(name, O_CREAT | O_RDWR, 4, 16);
    struct sigevent ev = {
        .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1, .sigev_value.sival_int = 42};
    printf("notify: %s\n", res(mq_notify(q, &ev)));
    read_line(name);
    send(q, "a", 1);
    show_sig("first message");
    read_line(name);
    printf("registered again: %s\n", res(mq_notify(q, &ev)));
    send(q, "b", 1);
    show_sig("not empty before");
    char buf[16];
    mq_receive(q, buf, sizeof buf, NULL);
    mq_receive(q, buf, sizeof buf, NULL);
    send(q, "c", 1);
    show_sig("empty again");
    mq_receive(q, buf, sizeof buf, NULL);
    ev.sigev_value.sival_int = 7;
    mq_notify(q, &ev);
    pid_t pid = fork();
    if (pid == 0) {
        send(q, "from child", 1);
        exit(0);
    }
    child_status(pid);
    printf("%s: signal %d code %d pid child %d value %d\n", "child's message", got_sig, got_code,
           got_pid == pid, got_value);
    got_sig = got_code = got_pid = got_value = 0;
    mq_receive(q, buf, sizeof buf, NULL);
    mq_notify(q, &ev);
    printf("unregister: %s\n", res(mq_notify(q, NULL)));
    send(q, "d", 1);
    show_sig("unregistered");
    mq_receive(q, buf, sizeof buf, NULL);
    /* a receiver waiting takes the message: no notification */
    mq_notify(q, &ev);
    pid = fork();
    if (pid == 0) {
        sleep_ms(30);
        send(q, "e", 1);
        exit(0);
    }
    recv(q, 16);
    child_status(pid);
    show_sig("receiver waiting");
    read_line(name);
    /* closing any descriptor of the queue drops the registration */
    mqd_t other = mq_open(name, O_RDONLY);
    mq_close(other);
    read_line(name);
    struct sigevent none = {.sigev_notify = SIGEV_NONE};
    printf("SIGEV_NONE: %s\n", res(mq_notify(q, &none)));
    read_line(name);
    pid = fork();
    if (pid == 0) {
        printf("child SIGEV_SIGNAL: %s\n", res(mq_notify(q, &ev)));
        exit(0);
    }
    child_status(pid);
    send(q, "f", 1);
    show_sig("SIGEV_NONE");
    read_line(name);
    mq_unlink(name);
}

static void on_alarm(int sig)
{
    got_sig = sig;
}

static void signal_case(void)
{
    const char *name = name_of("signal");
    mqd_t q = open_attr(name, O_CREAT | O_RDWR, 1, 16);
    mq_unlink(name);
    struct sigaction sa = {.sa_handler = on_alarm};
    sigaction(SIGALRM, &sa, NULL);
    ualarm(30000, 0);
    recv(q, 16);
    printf("signal %d\n", got_sig);
    got_sig = 0;
    send(q, "full", 1);
    ualarm(30000, 0);
    printf("send full: %s\n", res(mq_send(q, "x", 1, 0)));
    printf("signal %d\n", got_sig);
    got_sig = 0;
    recv(q, 16);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    pid_t pid = fork();
    if (pid == 0) {
        sleep_ms(80);
        send(q, "after", 1);
        exit(0);
    }
    ualarm(30000, 0);
    recv(q, 16);
    printf("signal %d (SA_RESTART)\n", got_sig);
    printf("child: %d\n", child_status(pid));
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int fired;

static void on_thread(union sigval v)
{
    pthread_mutex_lock(&lock);
    fired = v.sival_int;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
}

static void thread_case(void)
{
    const char *name = name_of("thread");
    mqd_t q = open_attr(name, O_CREAT | O_RDWR, 4, 16);
    mq_unlink(name);
    struct sigevent ev = {.sigev_notify = SIGEV_THREAD,
                          .sigev_notify_function = on_thread,
                          .sigev_value.sival_int = 99};
    printf("notify thread: %s\n", res(mq_notify(q, &ev)));
    printf("again: %s\n", res(mq_notify(q, &ev)));
    send(q, "a", 1);
    pthread_mutex_lock(&lock);
    while (!fired)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    printf("thread ran with %d\n", fired);
    printf("registered again: %s\n", res(mq_notify(q, &ev)));
}

/* Sends 1 MiB messages without blocking until one fails: how many went. */
static int fill(mqd_t q, int *err)
{
    static char big[1 << 20];
    int n = 0;
    while (mq_send(q, big, sizeof big, 0) == 0)
        n++;
    *err = errno;
    return n;
}

static void kmem(void)
{
    struct rlimit inf = {RLIM_INFINITY, RLIM_INFINITY};
    printf("lift RLIMIT_MSGQUEUE: %s\n", res(setrlimit(RLIMIT_MSGQUEUE, &inf)));
    const char *name = name_of("kmem");
    mqd_t q = open_attr(name, O_CREAT | O_RDWR | O_NONBLOCK, 65536, 1 << 20);
    printf("open 65536 x 1 MiB: %s\n", res(q));
    int err, n = fill(q, &err);
    printf("send: %s after 14-16 MiB: %s\n", err_name(err), n >= 14 && n <= 16 ? "yes" : "no");
    static char buf[1 << 20];
    printf("receive: %s\n", res((int)mq_receive(q, buf, sizeof buf, NULL)));
    printf("send after it: %s\n", res(mq_send(q, buf, sizeof buf, 0)));
    printf("and once more: %s\n", res(mq_send(q, buf, sizeof buf, 0)));
    struct mq_attr blocking = {0};
    mq_setattr(q, &blocking, NULL);
    printf("blocking send: %s\n", res(mq_send(q, buf, sizeof buf, 0)));
    printf("unlink, close: %s %s\n", res(mq_unlink(name)), res(mq_close(q)));
    q = open_attr(name, O_CREAT | O_RDWR | O_NONBLOCK, 65536, 1 << 20);
    int again = fill(q, &err);
    printf("a new queue: %s after as many: %s\n", err_name(err), again == n ? "yes" : "no");
    mq_unlink(name);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *c = argc > 1 ? argv[1] : "";
    if (strcmp(c, "basic") == 0)
        basic();
    else if (strcmp(c, "errors") == 0)
        errors();
    else if (strcmp(c, "block") == 0)
        block();
    else if (strcmp(c, "timeout") == 0)
        timeout();
    else if (strcmp(c, "poll") == 0)
        poll_case();
    else if (strcmp(c, "notify") == 0)
        notify();
    else if (strcmp(c, "signal") == 0)
        signal_case();
    else if (strcmp(c, "thread") == 0)
        thread_case();
    else if (strcmp(c, "kmem") == 0)
        kmem();
    else
        return 2;
    return 0;
}
