/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pol-common.h - what the policy tests' guest programs share besides
 * guest.h: the cpulist text format ("0-3,6") and busy work. Header-only:
 * each guest program is one static binary. */
#ifndef POL_COMMON_H
#define POL_COMMON_H

#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest.h"

/* "0-3,6" -> set; -1 on a malformed list. */
static inline int parse_cpulist(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    while (*s) {
        char *end;
        long lo = strtol(s, &end, 10);
        long hi = lo;
        if (end == s || lo < 0 || lo >= CPU_SETSIZE)
            return -1;
        if (*end == '-') {
            s = end + 1;
            hi = strtol(s, &end, 10);
            if (end == s || hi < lo || hi >= CPU_SETSIZE)
                return -1;
        }
        for (long c = lo; c <= hi; c++)
            CPU_SET(c, set);
        if (*end == ',')
            end++;
        else if (*end)
            return -1;
        s = end;
    }
    return 0;
}

/* set -> "0-3,6" in buf ("none" when empty). */
static inline const char *format_cpulist(const cpu_set_t *set, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int hi = c;
        while (hi + 1 < CPU_SETSIZE && CPU_ISSET(hi + 1, set))
            hi++;
        int n = hi == c ? snprintf(buf + at, len - at, "%s%d", at ? "," : "", c)
                        : snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", c, hi);
        if (n < 0 || (size_t)n >= len - at)
            break;
        at += (size_t)n;
        c = hi;
    }
    return at ? buf : "none";
}

/* Busy work that yields now and then: a task other tasks can share a vCPU with. */
static inline void spin(long n)
{
    volatile unsigned long x = 0;
    for (long i = 0; i < n; i++) {
        x += (unsigned long)i;
        if (i % 1000 == 999)
            sched_yield();
    }
}

#endif
