/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs-poll.c - trace_pipe and per_cpu/cpuN/trace_pipe_raw as their
 * readers wait on them (issue 28, what was left). Mode "poll": poll(),
 * select() and epoll (trace_poll(), ring_buffer_poll_wait()): trace_pipe
 * readable when a record is there, trace_pipe_raw when a page is full,
 * woken by markers written by another task, the "block" option saying
 * always readable. Mode "splice": splice() of
 * trace_pipe_raw into a pipe (tracing_buffers_splice_read()): whole full
 * pages, EINVAL under a page or with an offset, EAGAIN without a full
 * page, a blocking splice woken when one fills. Only markers are recorded
 * (no event is enabled), each on the vCPU of its writer: the parent runs
 * on cpu1, a waiting child on cpu0. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"

static void put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        printf("write %s \"%s\": %s\n", path, text, strerror(errno));
    if (fd >= 0)
        close(fd);
}

static void marker(const char *text)
{
    put(T "trace_marker", text);
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
}

/* poll(path, POLLIN | POLLOUT, timeout 0): what it says now. */
static void poll_now(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct pollfd p = {.fd = fd, .events = POLLIN | POLLOUT | POLLRDNORM};
    int n = poll(&p, 1, 0);
    printf("poll %s: %d revents 0x%x\n", path + strlen(T), n, (unsigned)p.revents);
    close(fd);
}

/* Takes everything trace_pipe has (O_NONBLOCK reads until EAGAIN). */
static void drain(void)
{
    static char buf[4096];
    int fd = open(T "trace_pipe", O_RDONLY | O_NONBLOCK);
    size_t total = 0;
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        total += (size_t)n;
    printf("drained %zu bytes, then %s\n", total, n < 0 && errno == EAGAIN ? "EAGAIN" : "?");
    close(fd);
}

static long long since_us(const struct timespec *a)
{
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (b.tv_sec - a->tv_sec) * 1000000LL + (b.tv_nsec - a->tv_nsec) / 1000;
}

static void fill_page(int from, int count);

/* A child on cpu0 waits on path with how ("poll", "select", "epoll"),
 * for at most 100 ms; the parent on cpu1 writes a marker after 2 ms, and
 * with page set 100 more 2 ms later, which fill a page (or nothing, with
 * write_it 0: the wait times out). */
static void wait_on(const char *path, const char *how, int write_it, int page)
{
    put(T "trace", ""); /* empty buffers */
    pid_t child = fork();
    if (child == 0) {
        pin(0);
        int fd = open(path, O_RDONLY);
        struct timespec a;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int n;
        unsigned ev = 0;
        if (strcmp(how, "poll") == 0) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            n = poll(&p, 1, 100);
            ev = (unsigned)p.revents;
        } else if (strcmp(how, "select") == 0) {
            fd_set r;
            FD_ZERO(&r);
            FD_SET(fd, &r);
            struct timeval tv = {0, 100000};
            n = select(fd + 1, &r, NULL, NULL, &tv);
            ev = FD_ISSET(fd, &r) ? 1 : 0;
        } else {
            int ep = epoll_create1(0);
            struct epoll_event e = {.events = EPOLLIN}, got = {0};
            epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
            n = epoll_wait(ep, &got, 1, 100);
            ev = got.events;
            close(ep);
        }
        long long us = since_us(&a);
        printf("child: %s %s: %d, 0x%x, after %s\n", how, path + strlen(T), n, ev,
               us >= 100000 ? "the timeout"
               : us >= 3500 ? "the page"
               : us >= 1500 ? "the marker"
                            : "less than 1.5 ms");
        char buf[4096];
        ssize_t r = n > 0 ? read(fd, buf, sizeof buf) : 0;
        if (r > 0 && strstr(path, "raw")) {
            /* the page's one record: print's buf after its 16 bytes */
            printf("child: read %zd bytes, \"%.*s\"\n", r, (int)strcspn(buf + 36, "\n"), buf + 36);
        } else if (r > 0) {
            printf("child: read \"%.*s\"\n", (int)strcspn(strstr(buf, "write: ") + 7, "\n"),
                   strstr(buf, "write: ") + 7);
        }
        fflush(stdout);
        _exit(0);
    }
    usleep(2000);
    if (write_it)
        marker("wake up");
    if (page) {
        usleep(2000);
        fill_page(0, 100);
    }
    waitpid(child, NULL, 0);
}

static const char *err(long r)
{
    if (r >= 0)
        return "";
    return errno == EAGAIN ? "EAGAIN" : errno == EINVAL ? "EINVAL" : errno == EINTR ? "EINTR" : "?";
}

/* What one page of markers holds: their count, the first and the last. */
static void show_page(const char *what, const char *page, long len)
{
    int count = 0;
    const char *first = NULL, *last = NULL;
    for (const char *p = page; (p = memmem(p, (size_t)(page + len - p), "raw ", 4)); p += 4) {
        count++;
        first = first ? first : p;
        last = p;
    }
    printf("%s: %ld bytes, %d markers, first \"%.7s\", last \"%.7s\"\n", what, len, count,
           first ? first : "", last ? last : "");
}

static void fill_page(int from, int count)
{
    /* 100 markers of 60 bytes fill a page (4080 bytes of records) */
    char msg[64];
    for (int i = from; i < from + count; i++) {
        snprintf(msg, sizeof msg, "raw %03d ......................................................",
                 i);
        marker(msg);
    }
}

static void splices(void)
{
    static char page[65536];
    int p[2];
    pipe(p);
    put(T "trace", "");
    int raw = open(T "per_cpu/cpu1/trace_pipe_raw", O_RDONLY | O_NONBLOCK);
    long r = splice(raw, NULL, p[1], NULL, 4096, 0);
    printf("splice of an empty buffer: %ld %s\n", r, err(r));
    marker("one");
    r = splice(raw, NULL, p[1], NULL, 4096, 0);
    printf("splice of a page not full: %ld %s\n", r, err(r));
    r = splice(raw, NULL, p[1], NULL, 4095, 0);
    printf("splice of 4095 bytes: %ld %s\n", r, err(r));
    loff_t off = 0;
    r = splice(raw, &off, p[1], NULL, 4096, 0);
    printf("splice at an offset: %ld %s\n", r, err(r));
    fill_page(0, 40);
    r = splice(raw, NULL, p[1], NULL, 4096, 0);
    printf("splice of 41 markers: %ld %s\n", r, err(r));
    fill_page(40, 60);
    r = splice(raw, NULL, p[1], NULL, 6000, 0);
    printf("splice of 101 markers, 6000 bytes: %ld %s\n", r, err(r));
    show_page("  the pipe's page", page, read(p[0], page, sizeof page));
    r = splice(raw, NULL, p[1], NULL, 65536, 0);
    printf("splice again: %ld %s\n", r, err(r));
    show_page("  the pipe's page", page, read(p[0], page, sizeof page));
    r = splice(raw, NULL, p[1], NULL, 65536, 0);
    printf("splice with the writer's page left: %ld %s\n", r, err(r));
    show_page("  read() of the rest", page, read(raw, page, sizeof page));
    fill_page(200, 250);
    r = splice(raw, NULL, p[1], NULL, 65536, 0);
    printf("splice of 250 markers: %ld %s\n", r, err(r));
    long n = read(p[0], page, sizeof page);
    show_page("  page 1", page, n < 4096 ? n : 4096);
    show_page("  page 4", page + 3 * 4096, n < 4 * 4096 ? 0 : 4096);
    int small[2];
    pipe(small);
    fcntl(small[1], F_SETPIPE_SZ, 4096);
    fill_page(500, 200);
    r = splice(raw, NULL, small[1], NULL, 65536, 0);
    printf("splice into a pipe of one page: %ld %s\n", r, err(r));
    r = splice(raw, NULL, small[1], NULL, 65536, SPLICE_F_NONBLOCK);
    printf("splice into it full, SPLICE_F_NONBLOCK: %ld %s\n", r, err(r));
    close(raw);
    raw = open(T "per_cpu/cpu1/trace_pipe_raw", O_RDONLY);
    put(T "trace", "");
    r = splice(raw, NULL, p[1], NULL, 4096, SPLICE_F_NONBLOCK);
    printf("SPLICE_F_NONBLOCK on an empty buffer: %ld %s\n", r, err(r));
    close(raw);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        pin(0);
        raw = open(T "per_cpu/cpu1/trace_pipe_raw", O_RDONLY);
        struct timespec a;
        clock_gettime(CLOCK_MONOTONIC, &a);
        r = splice(raw, NULL, p[1], NULL, 65536, 0);
        long long us = since_us(&a);
        printf("child: blocking splice: %ld %s after %s\n", r, err(r),
               us >= 3500 ? "the page filled" : "less than 3.5 ms");
        show_page("child: its page", page, read(p[0], page, sizeof page));
        fflush(stdout);
        _exit(0);
    }
    usleep(2000);
    marker("not yet a page");
    usleep(2000);
    fill_page(500, 100);
    waitpid(child, NULL, 0);
}

int main(int argc, char **argv)
{
    pin(1);
    if (argc > 1 && strcmp(argv[1], "splice") == 0) {
        splices();
        return 0;
    }
    put(T "trace", "");
    poll_now(T "trace_pipe");
    poll_now(T "per_cpu/cpu1/trace_pipe_raw");
    marker("one");
    printf("--- a marker on cpu1\n");
    poll_now(T "trace_pipe");
    poll_now(T "per_cpu/cpu1/trace_pipe");
    poll_now(T "per_cpu/cpu0/trace_pipe");
    poll_now(T "per_cpu/cpu1/trace_pipe_raw");
    poll_now(T "per_cpu/cpu0/trace_pipe_raw");
    fill_page(0, 100);
    printf("--- 100 more: a page is full\n");
    poll_now(T "per_cpu/cpu1/trace_pipe_raw");
    poll_now(T "per_cpu/cpu0/trace_pipe_raw");
    drain();
    poll_now(T "trace_pipe");
    poll_now(T "per_cpu/cpu1/trace_pipe_raw");
    printf("--- options/block 1\n");
    put(T "options/block", "1");
    poll_now(T "trace_pipe");
    poll_now(T "per_cpu/cpu0/trace_pipe_raw");
    put(T "options/block", "0");
    fflush(stdout);
    wait_on(T "trace_pipe", "poll", 1, 0);
    wait_on(T "trace_pipe", "poll", 0, 0);
    wait_on(T "per_cpu/cpu1/trace_pipe", "select", 1, 0);
    wait_on(T "per_cpu/cpu1/trace_pipe_raw", "poll", 1, 0);
    wait_on(T "per_cpu/cpu1/trace_pipe_raw", "poll", 1, 1);
    wait_on(T "per_cpu/cpu1/trace_pipe_raw", "select", 1, 1);
    wait_on(T "per_cpu/cpu0/trace_pipe_raw", "poll", 1, 1);
    wait_on(T "trace_pipe", "epoll", 1, 0);
    wait_on(T "per_cpu/cpu1/trace_pipe_raw", "epoll", 1, 1);
    return 0;
}
