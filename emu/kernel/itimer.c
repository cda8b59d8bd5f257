/* SPDX-License-Identifier: GPL-2.0-or-later */
/* itimer.c - setitimer and getitimer: ITIMER_REAL sends SIGALRM on virtual
 * time (rearmed when the signal is taken, as Linux does), ITIMER_VIRTUAL
 * SIGVTALRM on the process's user time and ITIMER_PROF SIGPROF on its user
 * and system time (looked at after each slice, rearmed at once). They are
 * kept across execve and not inherited by fork. */
#include "abi.h"
#include "abi_user.h"
#include "ktimer.h"
#include "machine.h"
#include "mm.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "timers.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>

#define NSEC 1000000000ull
#define USEC 1000ull
#define ITIMER_REAL_ 0
#define ITIMER_VIRTUAL_ 1
#define ITIMER_PROF_ 2
#define TICK_NS 4000000ull /* HZ 250: a CPU itimer already due reads as one tick */

static void on_real_expiry(struct ktimer *k)
{
    struct proc_timers *tm = (struct proc_timers *)((char *)k - offsetof(struct proc_timers, real));
    struct siginfo_lite info = {.code = SI_KERNEL};
    signal_queue_process(tm->proc, SIGALRM, &info);
}

static void fire_cpu_itimer(struct process *p, uint64_t *expiry, uint64_t interval,
                            uint64_t now, int sig)
{
    if (!*expiry || now < *expiry)
        return;
    *expiry = interval ? *expiry + interval : 0;
    struct siginfo_lite info = {.code = SI_KERNEL};
    signal_queue_process(p, sig, &info);
}

void cpu_itimers_check(struct task *t)
{
    struct process *p = t->proc;
    struct proc_timers *tm = p->timers;
    if (!tm || p->exiting || !(tm->prof_expiry | tm->virt_expiry))
        return;
    uint64_t all = process_cpu_ns(p), user = all - process_sys_ns(p);
    fire_cpu_itimer(p, &tm->prof_expiry, tm->prof_interval, all, SIGPROF);
    fire_cpu_itimer(p, &tm->virt_expiry, tm->virt_interval, user, SIGVTALRM);
}

/* The itimer's value (time to the next expiry) and interval now. */
static void get_itimer(struct process *p, int which, uint64_t *value, uint64_t *interval)
{
    struct proc_timers *tm = p->timers;
    *value = *interval = 0;
    if (!tm)
        return;
    uint64_t now, expiry;
    if (which == ITIMER_REAL_) {
        now = machine_now(p->machine);
        *interval = tm->real_interval;
        if (tm->real.armed)
            *value = tm->real.when > now ? tm->real.when - now : USEC;
        return;
    }
    uint64_t all = process_cpu_ns(p);
    now = which == ITIMER_PROF_ ? all : all - process_sys_ns(p);
    expiry = which == ITIMER_PROF_ ? tm->prof_expiry : tm->virt_expiry;
    *interval = which == ITIMER_PROF_ ? tm->prof_interval : tm->virt_interval;
    if (expiry)
        *value = expiry > now ? expiry - now : TICK_NS;
}

static void set_itimer(struct process *p, struct proc_timers *tm, int which, uint64_t value,
                       uint64_t interval)
{
    if (which == ITIMER_REAL_) {
        tm->real.fire = on_real_expiry;
        ktimer_cancel(p->machine, &tm->real);
        tm->real_interval = value ? interval : 0;
        if (value)
            ktimer_arm(p->machine, &tm->real, machine_now(p->machine) + value);
        return;
    }
    uint64_t all = process_cpu_ns(p);
    uint64_t now = which == ITIMER_PROF_ ? all : all - process_sys_ns(p);
    uint64_t *expiry = which == ITIMER_PROF_ ? &tm->prof_expiry : &tm->virt_expiry;
    *expiry = value ? now + value : 0;
    *(which == ITIMER_PROF_ ? &tm->prof_interval : &tm->virt_interval) = interval;
}

/* struct itimerval: it_interval, it_value, timevals of the ABI's longs. */
static int get_itimerval(struct task *t, uint64_t addr, uint64_t *value, uint64_t *interval)
{
    int64_t f[4];
    if (get_user_longs(t, addr, f, 4) < 0)
        return -EFAULT;
    for (int i = 0; i < 4; i += 2)
        if (f[i] < 0 || f[i + 1] < 0 || f[i + 1] >= (int64_t)(NSEC / USEC))
            return -EINVAL;
    *interval = (uint64_t)f[0] * NSEC + (uint64_t)f[1] * USEC;
    *value = (uint64_t)f[2] * NSEC + (uint64_t)f[3] * USEC;
    return 0;
}

static int put_itimerval(struct task *t, uint64_t addr, uint64_t value, uint64_t interval)
{
    int64_t f[4] = {(int64_t)(interval / NSEC), (int64_t)(interval % NSEC / USEC),
                    (int64_t)(value / NSEC), (int64_t)(value % NSEC / USEC)};
    return put_user_longs(t, addr, f, 4);
}

/* getitimer(which, curr) */
SYSCALL_DECL(getitimer)
{
    int which = (int)a[0];
    if (which < ITIMER_REAL_ || which > ITIMER_PROF_)
        return -EINVAL;
    uint64_t value, interval;
    get_itimer(t->proc, which, &value, &interval);
    return put_itimerval(t, a[1], value, interval);
}

/* setitimer(which, new, old): a NULL new value disarms, as Linux 5.15. */
SYSCALL_DECL(setitimer)
{
    int which = (int)a[0];
    uint64_t value = 0, interval = 0, old_value, old_interval;
    if (a[1]) {
        int err = get_itimerval(t, a[1], &value, &interval);
        if (err < 0)
            return err;
    }
    if (which < ITIMER_REAL_ || which > ITIMER_PROF_)
        return -EINVAL;
    struct proc_timers *tm = proc_timers_get(t->proc);
    if (!tm)
        return -ENOMEM;
    get_itimer(t->proc, which, &old_value, &old_interval);
    set_itimer(t->proc, tm, which, value, interval);
    if (a[2] && put_itimerval(t, a[2], old_value, old_interval) < 0)
        return -EFAULT;
    return 0;
}
