/* SPDX-License-Identifier: GPL-2.0-or-later */
/* guest.h - what the guest test programs share: errno names and the ISA a
 * program was built for. Header-only: each guest program is one static
 * binary built for both ISAs. */
#ifndef GUEST_H
#define GUEST_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __aarch64__
#define ISA "aarch64"
#else
#define ISA "arm"
#endif

/* "ENOENT" for ENOENT; "?" for a number without a name. */
static inline const char *err_name(int e)
{
    const char *n = strerrorname_np(e);
    return n ? n : "?";
}

#define MS 1000000LL

/* CLOCK's time in nanoseconds. */
static inline long long now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* NS nanoseconds as a timespec. */
static inline struct timespec ts_of(long long ns)
{
    return (struct timespec){.tv_sec = ns / 1000000000LL, .tv_nsec = ns % 1000000000LL};
}

/* Reads one 8-byte counter (eventfd, timerfd) and prints the byte count
 * and the value, or the errno name. */
static inline void read_counter(const char *what, int fd)
{
    uint64_t v = 0;
    ssize_t n = read(fd, &v, sizeof v);
    if (n < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %zd %llu\n", what, n, (unsigned long long)v);
}

#endif
