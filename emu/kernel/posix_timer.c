/* SPDX-License-Identifier: GPL-2.0-or-later */
/* posix_timer.c - timer_create and friends. A timer counts on a wall clock
 * (a ktimer on virtual time) or on a CPU clock (looked at after each slice
 * the process runs, cpu_timers_check). As in Linux, an interval timer whose
 * signal is queued is not rearmed until the signal is taken: the expiries
 * missed meanwhile become si_overrun and timer_getoverrun's count. */
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
#include <stdlib.h>
#include <time.h>

#define NSEC 1000000000ull
#define GUEST_SIGEV_SIGNAL 0
#define GUEST_SIGEV_NONE 1
#define GUEST_SIGEV_THREAD 2
#define GUEST_SIGEV_THREAD_ID 4
#define GUEST_TIMER_ABSTIME 1
#define TIMERS_MAX 32768
/* Linux rearms an ignored interval timer no sooner than a tick (HZ 250)
 * ahead, so that a tiny interval cannot keep the machine busy. */
#define TICK_NS 4000000ull
#define CPUCLOCK_VIRT 1
#define CPUCLOCK_SCHED 2
#define CPUCLOCK_PERTHREAD 4

struct ptimer {
    struct proc_timers *owner;
    struct ptimer *next;
    int id;
    int clock;          /* a wall clock, or a CPU clockid naming its pid or tid */
    int notify, signo;  /* SIGEV_*, the signal */
    int target_tid;     /* SIGEV_THREAD_ID: the thread signalled */
    uint64_t value;     /* sigev_value, the signal's si_value */
    struct ktimer kt;   /* wall clocks: the next expiry */
    bool armed;
    uint64_t expiry, interval; /* on the timer's clock */
    bool requeue_pending; /* its signal is queued: rearmed when taken */
    int64_t overrun;      /* expiries skipped since the last signal, minus one */
    int overrun_last;     /* timer_getoverrun */
};

uint64_t timer_forward(uint64_t *expiry, uint64_t interval, uint64_t now)
{
    if (now < *expiry)
        return 0;
    uint64_t n = (now - *expiry) / interval + 1;
    *expiry += n * interval;
    return n;
}

struct proc_timers *proc_timers_get(struct process *p)
{
    if (!p->timers && (p->timers = calloc(1, sizeof *p->timers)))
        p->timers->proc = p;
    return p->timers;
}

static bool wall_clock(int clk)
{
    return !cpu_clock_id(clk);
}

/* A CPU clockid of Linux's layout: ~pid (or ~tid) above three bits. */
static int cpu_clockid(int id, int bits)
{
    return (int)((~(uint32_t)id << 3) | (uint32_t)bits);
}

/* Now on the timer's clock: virtual time for wall clocks (their offsets
 * are applied when the timer is set). */
static uint64_t timer_now(const struct ptimer *pt)
{
    struct process *p = pt->owner->proc;
    if (wall_clock(pt->clock))
        return machine_now(p->machine);
    uint64_t all = 0, sys = 0;
    if (pt->clock & CPUCLOCK_PERTHREAD) {
        /* A thread that has exited is freed soon after (lifetime.h): its
         * clock reads 0 then, so its timers never fire, as Linux stops
         * them when the thread goes. */
        for (struct task *o = p->threads; o; o = o->next_thread)
            if (o->tid == ~(pt->clock >> 3))
                all = task_cpu_ns(o), sys = task_sys_ns(o);
    } else {
        all = process_cpu_ns(p), sys = process_sys_ns(p);
    }
    return (pt->clock & 3) == CPUCLOCK_VIRT ? all - sys : all;
}

static void arm_wall(struct ptimer *pt)
{
    if (wall_clock(pt->clock) && pt->notify != GUEST_SIGEV_NONE)
        ktimer_arm(pt->owner->proc->machine, &pt->kt, pt->expiry);
}

static bool timer_info_in(const struct sigpending *sp, int sig, int id)
{
    if (!(sp->set & SIGBIT(sig)))
        return false;
    if (sig < SIGRTMIN_GUEST)
        return sp->info[sig].code == SI_TIMER && sp->info[sig].timerid == id;
    for (unsigned i = 0; i < sp->nrt; i++)
        if (sp->rt[i].sig == sig && sp->rt[i].info.code == SI_TIMER &&
            sp->rt[i].info.timerid == id)
            return true;
    return false;
}

/* Sends the timer's signal: whether it is now queued (not ignored). */
static bool send_signal(struct ptimer *pt)
{
    struct process *p = pt->owner->proc;
    struct siginfo_lite info = {.code = SI_TIMER, .timerid = pt->id, .value = pt->value};
    if (pt->notify != GUEST_SIGEV_THREAD_ID) {
        signal_queue_process(p, pt->signo, &info);
        return timer_info_in(&p->pending, pt->signo, pt->id);
    }
    struct task *target = task_find(p->machine, pt->target_tid);
    if (!target || target->proc != p)
        return false;
    signal_queue_task(target, pt->signo, &info);
    return timer_info_in(&target->pending, pt->signo, pt->id);
}

static void expire(struct ptimer *pt)
{
    if (!pt->interval)
        pt->armed = false;
    if (send_signal(pt)) {
        pt->requeue_pending = pt->interval != 0;
        return;
    }
    if (pt->interval) {
        uint64_t now = timer_now(pt) + (pt->interval < TICK_NS ? TICK_NS : 0);
        pt->overrun += (int64_t)timer_forward(&pt->expiry, pt->interval, now);
        arm_wall(pt);
    }
}

static void on_wall_expiry(struct ktimer *k)
{
    expire((struct ptimer *)((char *)k - offsetof(struct ptimer, kt)));
}

static struct ptimer *find_timer(struct process *p, int id)
{
    if (!p->timers)
        return NULL;
    for (struct ptimer *pt = p->timers->list; pt; pt = pt->next)
        if (pt->id == id)
            return pt;
    return NULL;
}

void timer_signal_taken(struct task *t, int sig, struct siginfo_lite *info)
{
    struct proc_timers *tm = t->proc->timers;
    if (!tm)
        return;
    if (sig == SIGALRM && !tm->real.armed && tm->real_interval && tm->real.when) {
        /* ITIMER_REAL rearms when SIGALRM is taken, whoever sent it. */
        uint64_t next = tm->real.when;
        timer_forward(&next, tm->real_interval, machine_now(t->machine));
        ktimer_arm(t->machine, &tm->real, next);
    }
    struct ptimer *pt = info->code == SI_TIMER ? find_timer(t->proc, info->timerid) : NULL;
    if (!pt || !pt->requeue_pending)
        return;
    pt->overrun += (int64_t)timer_forward(&pt->expiry, pt->interval, timer_now(pt));
    arm_wall(pt);
    pt->overrun_last = pt->overrun > INT32_MAX ? INT32_MAX : (int)pt->overrun;
    info->overrun = pt->overrun_last;
    pt->overrun = -1;
    pt->requeue_pending = false;
}

void cpu_timers_check(struct task *t)
{
    struct proc_timers *tm = t->proc->timers;
    if (!tm || t->proc->exiting)
        return;
    for (struct ptimer *pt = tm->list; pt; pt = pt->next)
        if (!wall_clock(pt->clock) && pt->armed && !pt->requeue_pending &&
            pt->notify != GUEST_SIGEV_NONE && timer_now(pt) >= pt->expiry)
            expire(pt);
    cpu_itimers_check(t);
}

static void timer_free(struct ptimer *pt)
{
    ktimer_cancel(pt->owner->proc->machine, &pt->kt);
    pt->owner->count--;
    free(pt);
}

void posix_timers_exec(struct process *p)
{
    struct proc_timers *tm = p->timers;
    while (tm && tm->list) {
        struct ptimer *pt = tm->list;
        tm->list = pt->next;
        timer_free(pt);
    }
}

void proc_timers_release(struct process *p)
{
    posix_timers_exec(p);
    if (p->timers)
        ktimer_cancel(p->machine, &p->timers->real);
    free(p->timers);
    p->timers = NULL;
}

/* ---- syscalls ---- */

/* The clock a new timer counts on, its CPU clocks made explicit (pid or
 * tid), or -EINVAL / -EOPNOTSUPP as Linux's timer_create. */
static int timer_clock(struct task *t, int clk, int *out)
{
    uint64_t ns;
    switch (clk) {
    case CLOCK_REALTIME:
    case CLOCK_MONOTONIC:
    case CLOCK_BOOTTIME:
    case CLOCK_TAI:
        *out = clk;
        return 0;
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_REALTIME_ALARM:
    case CLOCK_BOOTTIME_ALARM:
        return -EOPNOTSUPP; /* no timers on these (no RTC for the alarm clocks) */
    case CLOCK_PROCESS_CPUTIME_ID:
        *out = cpu_clockid(t->proc->pid, CPUCLOCK_SCHED);
        return 0;
    case CLOCK_THREAD_CPUTIME_ID:
        *out = cpu_clockid(t->tid, CPUCLOCK_SCHED | CPUCLOCK_PERTHREAD);
        return 0;
    default:
        if (clk >= 0 || cpu_clock_now(t, clk, &ns) < 0)
            return -EINVAL;
        int id = ~(clk >> 3);
        if (!(clk & CPUCLOCK_PERTHREAD) && id && id != t->proc->pid)
            return -EINVAL; /* asymu: no timers on another process's clock */
        if (!id)
            id = (clk & CPUCLOCK_PERTHREAD) ? t->tid : t->proc->pid;
        *out = cpu_clockid(id, clk & 7);
        return 0;
    }
}

/* struct sigevent: sigev_value (a sigval_t, a long of the ABI),
 * sigev_signo, sigev_notify, then the union whose first member is the
 * thread id. */
static int read_sigevent(struct task *t, uint64_t addr, struct ptimer *pt)
{
    uint64_t value;
    int32_t ints[3];
    if (get_user_ulongs(t, addr, &value, 1) < 0 ||
        copy_from_guest(task_mm(t), ints, addr + abi_longs_size(t, 1), sizeof ints) < 0)
        return -EFAULT;
    pt->value = value;
    pt->signo = ints[0];
    pt->notify = ints[1];
    pt->target_tid = ints[2];
    return 0;
}

static int check_sigevent(struct task *t, const struct ptimer *pt)
{
    switch (pt->notify) {
    case GUEST_SIGEV_THREAD_ID: {
        struct task *target = task_find(t->machine, pt->target_tid);
        if (!target || target->proc != t->proc)
            return -EINVAL;
    }
        /* fall through */
    case GUEST_SIGEV_SIGNAL:
    case GUEST_SIGEV_THREAD:
        return pt->signo > 0 && pt->signo <= NSIG_GUEST ? 0 : -EINVAL;
    case GUEST_SIGEV_NONE:
        return 0;
    default:
        return -EINVAL;
    }
}

/* timer_create(clockid, sevp, timerid) */
SYSCALL_DECL(timer_create)
{
    struct ptimer ev = {0};
    if (a[1] && read_sigevent(t, a[1], &ev) < 0)
        return -EFAULT;
    int clock, err = timer_clock(t, (int)a[0], &clock);
    if (err < 0)
        return err;
    struct proc_timers *tm = proc_timers_get(t->proc);
    struct ptimer *pt = tm && tm->count < TIMERS_MAX ? calloc(1, sizeof *pt) : NULL;
    if (!pt)
        return -EAGAIN;
    /* The id is used up even if the rest fails, as in Linux. */
    int id = tm->next_id;
    tm->next_id = (tm->next_id + 1) & INT32_MAX;
    if (a[1]) {
        err = check_sigevent(t, &ev);
    } else {
        ev.notify = GUEST_SIGEV_SIGNAL;
        ev.signo = SIGALRM;
        ev.value = (uint64_t)id;
    }
    int32_t id32 = id;
    if (err == 0 && copy_to_guest(task_mm(t), a[2], &id32, sizeof id32) < 0)
        err = -EFAULT;
    if (err < 0) {
        free(pt);
        return err;
    }
    *pt = ev;
    pt->owner = tm;
    pt->id = id;
    pt->clock = clock;
    pt->overrun = -1;
    pt->kt.fire = on_wall_expiry;
    struct ptimer **tail = &tm->list;
    while (*tail)
        tail = &(*tail)->next;
    *tail = pt;
    tm->count++;
    return 0;
}

/* What timer_gettime reports: the time to the next expiry (1 ns when it
 * is due but not yet fired) and the interval. */
static void current_setting(struct ptimer *pt, uint64_t *value, uint64_t *interval)
{
    *value = 0;
    *interval = pt->interval;
    if (!pt->armed)
        return;
    uint64_t now = timer_now(pt);
    if (pt->interval && (pt->requeue_pending || pt->notify == GUEST_SIGEV_NONE))
        pt->overrun += (int64_t)timer_forward(&pt->expiry, pt->interval, now);
    if (pt->expiry > now)
        *value = pt->expiry - now;
    else if (pt->notify != GUEST_SIGEV_NONE)
        *value = 1;
}

/* struct itimerspec: it_interval, then it_value, timespecs of `field`-byte
 * members. */
static int put_itimerspec(struct task *t, uint64_t addr, uint64_t value, uint64_t interval,
                          unsigned field)
{
    if (timespec_to_guest(t, addr, interval, field) < 0 ||
        timespec_to_guest(t, addr + 2 * field, value, field) < 0)
        return -EFAULT;
    return 0;
}

int64_t do_timer_gettime(struct task *t, int id, uint64_t addr, unsigned field)
{
    struct ptimer *pt = find_timer(t->proc, id);
    if (!pt)
        return -EINVAL;
    uint64_t value, interval;
    current_setting(pt, &value, &interval);
    return put_itimerspec(t, addr, value, interval, field);
}

int64_t do_timer_settime(struct task *t, int id, int flags, uint64_t unew, uint64_t uold,
                         unsigned field)
{
    uint8_t raw[32];
    if (copy_from_guest(task_mm(t), raw, unew, 4 * field) < 0)
        return -EFAULT;
    int64_t interval = timespec_from_guest(t, unew, field);
    int64_t value = timespec_from_guest(t, unew + 2 * field, field);
    if (interval < 0 || value < 0)
        return -EINVAL;
    struct ptimer *pt = find_timer(t->proc, id);
    if (!pt)
        return -EINVAL;
    uint64_t old_value, old_interval;
    current_setting(pt, &old_value, &old_interval);
    ktimer_cancel(t->machine, &pt->kt);
    pt->armed = false;
    pt->requeue_pending = false;
    pt->overrun = -1;
    pt->overrun_last = 0;
    pt->interval = 0;
    if (value) {
        uint64_t now = timer_now(pt);
        pt->interval = (uint64_t)interval;
        pt->expiry = now + (uint64_t)value;
        if (flags & GUEST_TIMER_ABSTIME) {
            /* The realtime clocks run at a fixed offset from virtual time. */
            uint64_t offset = pt->clock == CLOCK_REALTIME || pt->clock == CLOCK_TAI
                                  ? machine_realtime_ns(t->machine) - now
                                  : 0;
            pt->expiry = (uint64_t)value > offset ? (uint64_t)value - offset : 0;
        }
        pt->armed = true;
        arm_wall(pt);
    }
    if (uold && put_itimerspec(t, uold, old_value, old_interval, field) < 0)
        return -EFAULT;
    return 0;
}

SYSCALL_DECL(timer_settime)
{
    return do_timer_settime(t, (int)a[0], (int)a[1], a[2], a[3], abi_time_field(t));
}

SYSCALL_DECL(timer_gettime)
{
    return do_timer_gettime(t, (int)a[0], a[1], abi_time_field(t));
}

SYSCALL_DECL(timer_getoverrun)
{
    struct ptimer *pt = find_timer(t->proc, (int)a[0]);
    return pt ? pt->overrun_last : -EINVAL;
}

SYSCALL_DECL(timer_delete)
{
    struct ptimer *pt = find_timer(t->proc, (int)a[0]);
    if (!pt)
        return -EINVAL;
    struct ptimer **pp = &pt->owner->list;
    while (*pp != pt)
        pp = &(*pp)->next;
    *pp = pt->next;
    timer_free(pt);
    return 0;
}
