/* SPDX-License-Identifier: GPL-2.0-or-later */
/* epoll.c - epoll: errnos of epoll_ctl and epoll_wait, the struct layout,
 * level- and edge-triggered reports, EPOLLONESHOT, items living as long as
 * their file description, nesting, the ready order with a small maxevents,
 * and waits that block, time out or are interrupted (epoll_pwait's mask).
 * Subcommands: ctl, modes, lifetime, nested, order, wait, pwait2. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static void show(const char *what, int r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %d\n", what, r);
}

static int add(int ep, int fd, uint32_t events, uint64_t data)
{
    struct epoll_event ev = {.events = events, .data.u64 = data};
    return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

/* One epoll_wait, printed as "what: n [events/data]...". */
static void wait_show(const char *what, int ep, int max, int timeout)
{
    struct epoll_event ev[8];
    int n = epoll_wait(ep, ev, max, timeout);
    if (n < 0) {
        printf("%s: %s\n", what, err_name(errno));
        return;
    }
    printf("%s: %d", what, n);
    for (int i = 0; i < n; i++)
        printf(" %#x/%llu", ev[i].events, (unsigned long long)ev[i].data.u64);
    printf("\n");
}

static void cmd_ctl(void)
{
    printf("sizeof %zu offsetof data %zu\n", sizeof(struct epoll_event),
           offsetof(struct epoll_event, data));
    show("create1 bad flags", epoll_create1(1));
    show("create size 0", epoll_create(0));
    int ep = epoll_create1(EPOLL_CLOEXEC);
    printf("cloexec %d\n", fcntl(ep, F_GETFD) & FD_CLOEXEC);
    char link[64] = "";
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", ep);
    if (readlink(path, link, sizeof link - 1) < 0)
        strcpy(link, err_name(errno));
    printf("link %s\n", link);
    int p[2];
    pipe(p);
    int file = open("/proc/self/exe", O_RDONLY);
    struct epoll_event ev = {.events = EPOLLIN};
    show("regular file", epoll_ctl(ep, EPOLL_CTL_ADD, file, &ev));
    show("self", epoll_ctl(ep, EPOLL_CTL_ADD, ep, &ev));
    show("not an epoll", epoll_ctl(p[0], EPOLL_CTL_ADD, p[1], &ev));
    show("bad epfd", epoll_ctl(99, EPOLL_CTL_ADD, p[0], &ev));
    show("bad fd", epoll_ctl(ep, EPOLL_CTL_ADD, 99, &ev));
    show("bad event", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], (struct epoll_event *)8));
    show("del without event", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
    show("mod missing", epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
    show("add", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
    show("add again", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
    show("bad op", epoll_ctl(ep, 7, p[0], &ev));
    ev.events = EPOLLIN | EPOLLEXCLUSIVE;
    show("mod exclusive", epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
    show("add exclusive", epoll_ctl(ep, EPOLL_CTL_ADD, p[1], &ev));
    show("mod of exclusive", epoll_ctl(ep, EPOLL_CTL_MOD, p[1], &(struct epoll_event){.events = EPOLLOUT}));
    show("exclusive with pri", add(ep, dup(p[0]), EPOLLIN | EPOLLEXCLUSIVE | EPOLLPRI, 0));
    show("del", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
    show("del again", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
    int inner = epoll_create1(0), outer = epoll_create1(0);
    show("nest", add(outer, inner, EPOLLIN, 1));
    show("loop", add(inner, outer, EPOLLIN, 2));
    show("exclusive epoll", add(ep, inner, EPOLLIN | EPOLLEXCLUSIVE, 3));
    struct epoll_event out[1];
    show("maxevents 0", epoll_wait(ep, out, 0, 0));
    int minus_one = -1;
    show("maxevents -1", epoll_wait(ep, out, *(volatile int *)&minus_one, 0));
    show("wait bad fd", epoll_wait(99, out, 1, 0));
    show("wait not epoll", epoll_wait(p[0], out, 1, 0));
    show("wait nothing", epoll_wait(ep, out, 1, 0));
    sigset_t mask;
    sigemptyset(&mask);
    show("pwait bad sigsetsize", (int)syscall(SYS_epoll_pwait, ep, out, 1, 0, &mask, 4));
}

static void cmd_modes(void)
{
    int ep = epoll_create1(0), lt[2], et[2], one[2];
    pipe(lt);
    pipe(et);
    pipe(one);
    add(ep, lt[0], EPOLLIN, 1);
    add(ep, et[0], EPOLLIN | EPOLLET, 2);
    add(ep, one[0], EPOLLIN | EPOLLONESHOT, 3);
    wait_show("empty", ep, 8, 0);
    write(lt[1], "ab", 2);
    write(et[1], "ab", 2);
    write(one[1], "ab", 2);
    wait_show("written", ep, 8, 0);
    wait_show("again", ep, 8, 0);
    char c;
    read(lt[0], &c, 1);
    read(et[0], &c, 1);
    read(one[0], &c, 1);
    wait_show("after partial reads", ep, 8, 0);
    write(et[1], "c", 1);
    write(one[1], "c", 1);
    wait_show("more data", ep, 8, 0);
    struct epoll_event ev = {.events = EPOLLIN | EPOLLONESHOT, .data.u64 = 4};
    epoll_ctl(ep, EPOLL_CTL_MOD, one[0], &ev);
    wait_show("oneshot rearmed", ep, 8, 0);
    epoll_ctl(ep, EPOLL_CTL_DEL, lt[0], NULL);
    epoll_ctl(ep, EPOLL_CTL_DEL, one[0], NULL);
    close(et[1]);
    wait_show("writer closed", ep, 8, 0);
    wait_show("writer closed again", ep, 8, 0);

    /* The write end: EPOLLOUT while there is room, EPOLLERR once the
     * reader is gone. */
    int w[2];
    pipe(w);
    int ep2 = epoll_create1(0);
    add(ep2, w[1], EPOLLOUT | EPOLLET, 5);
    wait_show("writable", ep2, 8, 0);
    write(w[1], "x", 1);
    wait_show("writable after write", ep2, 8, 0);
    read(w[0], &c, 1);
    wait_show("writable after read", ep2, 8, 0);
    close(w[0]);
    wait_show("reader closed", ep2, 8, 0);
}

static void cmd_lifetime(void)
{
    int ep = epoll_create1(0), p[2];
    pipe(p);
    int copy = dup(p[0]);
    add(ep, p[0], EPOLLIN, 7);
    close(p[0]);
    write(p[1], "x", 1);
    wait_show("original closed", ep, 8, 0);
    show("del closed fd", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
    show("del the dup", epoll_ctl(ep, EPOLL_CTL_DEL, copy, NULL));
    show("add the dup", add(ep, copy, EPOLLIN, 8));
    wait_show("dup added", ep, 8, 0);
    close(copy);
    wait_show("description closed", ep, 8, 0);
    /* A child shares the description: the item stays while it lives. */
    int q[2];
    pipe(q);
    add(ep, q[0], EPOLLIN, 9);
    pid_t pid = fork();
    if (pid == 0) {
        usleep(20000);
        _exit(0);
    }
    close(q[0]);
    write(q[1], "y", 1);
    wait_show("shared with a child", ep, 8, 0);
    waitpid(pid, NULL, 0);
    wait_show("child gone", ep, 8, 0);
}

static void cmd_nested(void)
{
    int inner = epoll_create1(0), outer = epoll_create1(0), p[2];
    pipe(p);
    add(inner, p[0], EPOLLIN | EPOLLET, 1);
    add(outer, inner, EPOLLIN | EPOLLET, 2);
    struct pollfd pf = {.fd = inner, .events = POLLIN};
    printf("poll empty: %d %#x\n", poll(&pf, 1, 0), pf.revents);
    wait_show("outer empty", outer, 8, 0);
    write(p[1], "x", 1);
    printf("poll ready: %d %#x\n", poll(&pf, 1, 0), pf.revents);
    wait_show("outer", outer, 8, 0);
    wait_show("outer again", outer, 8, 0);
    wait_show("inner", inner, 8, 0);
    printf("poll drained: %d %#x\n", poll(&pf, 1, 0), pf.revents);
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(inner, &rd);
    struct timeval tv = {0, 0};
    printf("select drained: %d\n", select(inner + 1, &rd, NULL, NULL, &tv));
    write(p[1], "y", 1);
    FD_SET(inner, &rd);
    printf("select ready: %d %d\n", select(inner + 1, &rd, NULL, NULL, &tv), FD_ISSET(inner, &rd));
    wait_show("outer after write", outer, 8, 0);
}

static void cmd_order(void)
{
    int ep = epoll_create1(0), p[3][2];
    for (int i = 0; i < 3; i++) {
        pipe(p[i]);
        add(ep, p[i][0], EPOLLIN, (uint64_t)i);
    }
    write(p[2][1], "x", 1);
    write(p[0][1], "x", 1);
    write(p[1][1], "x", 1);
    wait_show("first two", ep, 2, 0);
    wait_show("next two", ep, 2, 0);
    wait_show("all", ep, 8, 0);
}

static volatile sig_atomic_t caught;
static void on_usr1(int sig)
{
    caught = sig;
}

static double elapsed_ms(const struct timespec *a)
{
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a->tv_sec) * 1e3 + (double)(b.tv_nsec - a->tv_nsec) / 1e6;
}

static void cmd_wait(void)
{
    int ep = epoll_create1(0), p[2];
    pipe(p);
    add(ep, p[0], EPOLLIN, 5);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    wait_show("timeout 30ms", ep, 8, 30);
    printf("waited at least 30ms: %d\n", elapsed_ms(&start) >= 30);
    struct epoll_event ev[2];

    pid_t pid = fork();
    if (pid == 0) {
        usleep(20000);
        write(p[1], "x", 1);
        _exit(0);
    }
    wait_show("blocked until written", ep, 8, -1);
    waitpid(pid, NULL, 0);
    char c;
    read(p[0], &c, 1);

    struct sigaction sa = {.sa_handler = on_usr1};
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t block, none;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigemptyset(&none);
    sigprocmask(SIG_BLOCK, &block, NULL);
    pid_t parent = getpid();
    pid = fork();
    if (pid == 0) {
        usleep(20000);
        kill(parent, SIGUSR1);
        _exit(0);
    }
    int r = epoll_pwait(ep, ev, 2, 200, &none);
    printf("pwait interrupted: %d %s caught %d\n", r, r < 0 ? err_name(errno) : "-", caught);
    sigset_t now;
    sigprocmask(SIG_SETMASK, NULL, &now);
    printf("usr1 blocked again: %d\n", sigismember(&now, SIGUSR1));
    waitpid(pid, NULL, 0);
}

/* epoll_pwait2 (which qemu-user lacks): a struct __kernel_timespec of
 * 64-bit fields on both ABIs, NULL for no timeout. */
static void cmd_pwait2(void)
{
    int ep = epoll_create1(0), p[2];
    pipe(p);
    add(ep, p[0], EPOLLIN, 6);
    struct epoll_event ev[2];
    struct {
        int64_t sec, nsec;
    } ts = {0, 20000000};
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    show("pwait2 20ms", (int)syscall(SYS_epoll_pwait2, ep, ev, 2, &ts, NULL, 8));
    printf("waited at least 20ms: %d\n", elapsed_ms(&start) >= 20);
    ts.nsec = 1000000000;
    show("pwait2 bad timespec", (int)syscall(SYS_epoll_pwait2, ep, ev, 2, &ts, NULL, 8));
    show("pwait2 bad pointer", (int)syscall(SYS_epoll_pwait2, ep, ev, 2, 8, NULL, 8));
    write(p[1], "x", 1);
    show("pwait2 no timeout", (int)syscall(SYS_epoll_pwait2, ep, ev, 2, NULL, NULL, 8));
    printf("event %#x/%llu\n", ev[0].events, (unsigned long long)ev[0].data.u64);
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!strcmp(cmd, "ctl"))
        cmd_ctl();
    else if (!strcmp(cmd, "modes"))
        cmd_modes();
    else if (!strcmp(cmd, "lifetime"))
        cmd_lifetime();
    else if (!strcmp(cmd, "nested"))
        cmd_nested();
    else if (!strcmp(cmd, "order"))
        cmd_order();
    else if (!strcmp(cmd, "wait"))
        cmd_wait();
    else if (!strcmp(cmd, "pwait2"))
        cmd_pwait2();
    else
        return 2;
    return 0;
}
