/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cputime.c - CPU time on the virtual clock: what each thread has run (the
 * scheduler's sum_exec_ns plus the slice running now), the part spent in
 * syscalls, the CPU clocks of clock_gettime, and times and getrusage. */
#include "abi.h"
#include "abi_user.h"
#include "kcost.h"
#include "machine.h"
#include "mm.h"
#include "scheduler.h"
#include "syscalls.h"
#include "task.h"
#include "timers.h"

#include <errno.h>
#include <time.h>

#define NSEC 1000000000ull
#define USER_HZ 100
#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD 1
/* The sums of a CPU clockid (Linux's CPUCLOCK_WHICH). */
#define CPUCLOCK_PROF 0
#define CPUCLOCK_VIRT 1
#define CPUCLOCK_SCHED 2
#define CPUCLOCK_PERTHREAD 4

uint64_t task_cpu_ns(const struct task *t)
{
    const struct machine *m = t->machine;
    uint64_t ns = t->se.sum_exec_ns;
    if (m->current == t)
        ns += machine_slice_fs(m) / FS_PER_NS;
    return ns;
}

uint64_t task_sys_ns(const struct task *t)
{
    return t->sys_ns;
}

uint64_t process_cpu_ns(const struct process *p)
{
    uint64_t ns = p->exited_cpu_ns;
    for (const struct task *t = p->threads; t; t = t->next_thread)
        ns += task_cpu_ns(t);
    return ns;
}

uint64_t process_sys_ns(const struct process *p)
{
    uint64_t ns = p->exited_sys_ns;
    for (const struct task *t = p->threads; t; t = t->next_thread)
        ns += t->sys_ns;
    return ns;
}

bool cpu_clock_id(int clk)
{
    return clk < 0 || clk == CLOCK_PROCESS_CPUTIME_ID || clk == CLOCK_THREAD_CPUTIME_ID;
}

int cpu_clock_now(struct task *t, int clk, uint64_t *ns)
{
    if (clk == CLOCK_PROCESS_CPUTIME_ID) {
        *ns = process_cpu_ns(t->proc);
        return 0;
    }
    if (clk == CLOCK_THREAD_CPUTIME_ID) {
        *ns = task_cpu_ns(t);
        return 0;
    }
    int which = clk & 3;
    if (clk >= 0 || which > CPUCLOCK_SCHED)
        return -EINVAL;
    int id = ~(clk >> 3); /* Linux's CPUCLOCK_PID: 0 is the caller */
    uint64_t all, sys;
    if (clk & CPUCLOCK_PERTHREAD) {
        struct task *o = id ? task_find(t->machine, id) : t;
        if (!o || o->proc != t->proc)
            return -EINVAL;
        all = task_cpu_ns(o), sys = task_sys_ns(o);
    } else {
        struct process *p = id ? process_find(t->machine, id) : t->proc;
        if (!p)
            return -EINVAL;
        all = process_cpu_ns(p), sys = process_sys_ns(p);
    }
    *ns = which == CPUCLOCK_VIRT ? all - sys : all;
    return 0;
}

void cputime_reap(struct process *p)
{
    struct process *parent = p->parent;
    if (!parent)
        return;
    parent->child_cpu_ns += process_cpu_ns(p) + p->child_cpu_ns;
    parent->child_sys_ns += process_sys_ns(p) + p->child_sys_ns;
}

int rusage_to_guest(struct task *t, uint64_t addr, uint64_t utime_ns, uint64_t stime_ns)
{
    /* struct rusage: two timevals, then 14 longs (zero: no faults, no
     * context switch counts, no maximum RSS), all longs of the ABI. */
    int64_t times[4] = {(int64_t)(utime_ns / NSEC), (int64_t)(utime_ns % NSEC / 1000),
                        (int64_t)(stime_ns / NSEC), (int64_t)(stime_ns % NSEC / 1000)};
    int64_t counts[14] = {0};
    if (put_user_longs(t, addr, times, 4) < 0)
        return -EFAULT;
    return put_user_longs(t, addr + abi_longs_size(t, 4), counts, 14);
}

SYSCALL_DECL(getrusage)
{
    int who = (int)a[0];
    uint64_t all, sys;
    if (who == RUSAGE_SELF) {
        all = process_cpu_ns(t->proc), sys = process_sys_ns(t->proc);
    } else if (who == RUSAGE_THREAD) {
        all = task_cpu_ns(t), sys = task_sys_ns(t);
    } else if (who == RUSAGE_CHILDREN) {
        all = t->proc->child_cpu_ns, sys = t->proc->child_sys_ns;
    } else {
        return -EINVAL;
    }
    return rusage_to_guest(t, a[1], all - sys, sys);
}

static uint64_t ticks(uint64_t ns)
{
    return ns / (NSEC / USER_HZ);
}

/* times(buf): CPU times in clock ticks, and the ticks since boot. */
SYSCALL_DECL(times)
{
    if (a[0]) {
        const struct process *p = t->proc;
        uint64_t all = process_cpu_ns(p), sys = process_sys_ns(p);
        /* struct tms: four clock_t, longs of the ABI */
        int64_t tms[4] = {(int64_t)ticks(all - sys), (int64_t)ticks(sys),
                          (int64_t)ticks(p->child_cpu_ns - p->child_sys_ns),
                          (int64_t)ticks(p->child_sys_ns)};
        if (put_user_longs(t, a[0], tms, 4) < 0)
            return -EFAULT;
    }
    /* the ticks since boot, a clock_t (compat_clock_t on arm) */
    return abi_long(task_abi(t), ticks(machine_now(t->machine)));
}
