/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_class.h - scheduling classes: SCHED_DEADLINE (EDF with the constant
 * bandwidth server), the real-time SCHED_FIFO/SCHED_RR priorities and the
 * fair classes, as Linux 5.15 orders them on a runqueue, plus deadline
 * admission control. Included by scheduler.h; the code is in class.c and
 * deadline.c. */
#ifndef ASYMU_SCHED_CLASS_H
#define ASYMU_SCHED_CLASS_H

#include <stdbool.h>
#include <stdint.h>

/* The order in which classes run on a runqueue: higher first. Fair is 0,
 * what a new task starts in. */
enum sched_class {
    SCHED_CLASS_FAIR, /* SCHED_OTHER, SCHED_BATCH, SCHED_IDLE */
    SCHED_CLASS_RT,
    SCHED_CLASS_DEADLINE,
};

/* Linux's RR_TIMESLICE: 100 ms (25 jiffies at HZ=250). */
#define SCHED_RR_TIMESLICE_NS UINT64_C(100000000)
/* Bandwidths are fractions scaled by 2^20 (the kernel's BW_SHIFT). */
#define SCHED_BW_SHIFT 20
/* The sysctls sched_rt_runtime_us / sched_rt_period_us at boot: deadline
 * tasks may use 95% of each CPU. */
#define SCHED_RT_RUNTIME_US 950000
#define SCHED_RT_PERIOD_US 1000000

/* A deadline task's parameters and its constant bandwidth server. */
struct sched_dl {
    uint64_t runtime, deadline, period; /* as set; period 0 was made = deadline */
    uint64_t bw;                        /* runtime/period << 20: its admitted share */
    uint32_t flags;                     /* SCHED_FLAG_RECLAIM, _DL_OVERRUN as set */
    int64_t budget;                     /* runtime left in this period (may overrun) */
    uint64_t abs_deadline;              /* the EDF key */
    uint64_t replenish_at;              /* while throttled: the next period's start */
    bool throttled;                     /* budget spent: waits on its runqueue */
};

struct sched;
struct sched_task;
struct cpumask;

/* sched_setscheduler/sched_setattr for a non-deadline class: RT with
 * priority 1..99 (rr: SCHED_RR), or fair (prio 0). Gives back a deadline
 * task's bandwidth. Sets need_resched when t's place changed. */
void sched_task_set_class(struct sched *s, struct sched_task *t, enum sched_class cls, int prio,
                          bool rr);

/* SCHED_DEADLINE's parameter check (runtime >= 1024 ns, runtime <= deadline
 * <= period, 100 us <= period <= 2^22 us, no sign bit); period 0 means the
 * deadline. */
bool sched_dl_params_valid(uint64_t runtime, uint64_t deadline, uint64_t period);
/* Makes t a deadline task with valid parameters, or changes them: -EPERM
 * when admission control is on and A does not cover the root domain (every
 * active CPU), -EBUSY when the bandwidth does not fit; nothing changed then. */
int sched_task_set_deadline(struct sched *s, struct sched_task *t, uint64_t runtime,
                            uint64_t deadline, uint64_t period, uint32_t flags);
/* sched_setaffinity of a deadline task under admission control: the new
 * mask, cut to the active CPUs the task may use, must cover the root domain,
 * else -EBUSY (the kernel's dl_task_check_affinity). */
int sched_dl_check_affinity(const struct sched *s, const struct sched_task *t,
                            const struct cpumask *mask);
/* U9: a deadline task under admission control may not exec a 32-bit image
 * under upstream or linux-6.6 when the root domain has CPUs outside M:
 * -ENOEXEC (compat_elf_check_arch(), arch/arm64/kernel/process.c, the same
 * in 5.15 and 6.6). */
int sched_dl_exec_check(const struct sched *s, const struct sched_task *t, bool compat_image);
/* Writes of /proc/sys/kernel/sched_rt_runtime_us (period false) and
 * sched_rt_period_us: -EINVAL for a runtime below -1 or above the period,
 * a period below 1; -EBUSY when the admitted deadline bandwidth no longer
 * fits (sched_rt_handler() and sched_dl_global_validate()). */
int sched_dl_set_global(struct sched *s, bool period, int64_t value);
/* Deadline admission control is on unless sched_rt_runtime_us is -1. */
static inline bool sched_dl_admission_on(int64_t rt_runtime_us)
{
    return rt_runtime_us >= 0;
}

#endif
