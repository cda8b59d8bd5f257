/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-attr.h - struct sched_attr for the guests that call
 * sched_setattr/sched_getattr themselves (glibc 2.36 has no wrapper). */
#ifndef GUEST_SCHED_ATTR_H
#define GUEST_SCHED_ATTR_H

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

struct attr {
    uint32_t size, policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
    uint32_t util_min, util_max;
};

static inline long setattr(int pid, void *a, unsigned flags)
{
    return syscall(SYS_sched_setattr, pid, a, flags);
}

#endif
