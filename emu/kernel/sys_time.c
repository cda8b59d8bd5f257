/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_time.c - clocks and randomness, all virtual: time is the machine's
 * virtual clock, randomness comes from the --seed generator. */
#include "abi.h"
#include "abi_user.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "timers.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define NSEC 1000000000ull


/* Writes a timespec/timeval of two fields of `field` bytes each. */
static int put_time_pair(struct task *t, uint64_t addr, uint64_t sec, uint64_t sub,
                         unsigned field)
{
    uint8_t buf[16];
    memcpy(buf, &sec, field);
    memcpy(buf + field, &sub, field);
    return copy_to_guest(task_mm(t), addr, buf, 2 * field);
}

static int get_time_pair(struct task *t, uint64_t addr, int64_t *sec, int64_t *sub,
                         unsigned field)
{
    uint8_t buf[16];
    if (copy_from_guest(task_mm(t), buf, addr, 2 * field) < 0)
        return -EFAULT;
    if (field == 8) {
        memcpy(sec, buf, 8);
        memcpy(sub, buf + 8, 8);
    } else {
        int32_t s, n;
        memcpy(&s, buf, 4);
        memcpy(&n, buf + 4, 4);
        *sec = s, *sub = n;
    }
    return 0;
}

static int clock_now(struct task *t, int clk, uint64_t *ns)
{
    switch (clk) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
        *ns = machine_realtime_ns(t->machine);
        return 0;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
        *ns = machine_now(t->machine);
        return 0;
    default:
        return cpu_clock_now(t, clk, ns);
    }
}

int64_t do_clock_gettime(struct task *t, int clk, uint64_t addr, unsigned field)
{
    uint64_t ns;
    int err = clock_now(t, clk, &ns);
    if (err < 0)
        return err;
    return put_time_pair(t, addr, ns / NSEC, ns % NSEC, field);
}

int64_t do_clock_getres(struct task *t, int clk, uint64_t addr, unsigned field)
{
    uint64_t ns;
    int err = clock_now(t, clk, &ns);
    if (err < 0 || !addr)
        return err;
    return put_time_pair(t, addr, 0, 1, field);
}

/* CLOCK_REALTIME, for a caller with CAP_SYS_TIME (cap_settime(), asked
 * once the time is read and the clock known settable), moves for the whole
 * machine, as the wall clock does (do_sys_settimeofday64: EINVAL below
 * CLOCK_MONOTONIC); the other clocks cannot be set. Timers already armed
 * on CLOCK_REALTIME keep their deadline in virtual time (Linux would move
 * absolute ones with the clock). */
int64_t do_clock_settime(struct task *t, int clk, uint64_t addr, unsigned field)
{
    uint64_t now;
    int err = clock_now(t, clk, &now);
    if (err < 0)
        return err;
    int64_t ns = timespec_from_guest(t, addr, field);
    if (ns < 0)
        return ns;
    if (clk != CLOCK_REALTIME)
        return -EINVAL;
    if (!capable(t, CAP_SYS_TIME))
        return -EPERM;
    if (ns < (int64_t)machine_now(t->machine)) /* wall_to_monotonic */
        return -EINVAL;
    t->machine->realtime_offset_ns += ns - (int64_t)now;
    return 0;
}

SYSCALL_DECL(clock_settime)
{
    return do_clock_settime(t, (int)a[0], a[1], abi_time_field(t));
}

int timespec_to_guest(struct task *t, uint64_t addr, uint64_t ns, unsigned field)
{
    return put_time_pair(t, addr, ns / NSEC, ns % NSEC, field);
}

int64_t timespec_from_guest(struct task *t, uint64_t addr, unsigned field)
{
    int64_t sec, nsec;
    if (get_time_pair(t, addr, &sec, &nsec, field) < 0)
        return -EFAULT;
    /* A 32-bit task's 64-bit timespec has a tv_nsec of its long and padding
     * (glibc's __timespec64): Linux ignores the upper half (get_timespec64()
     * when in_compat_syscall()). */
    if (field == 8)
        nsec = (int64_t)abi_ulong(task_abi(t), (uint64_t)nsec);
    if (sec < 0 || nsec < 0 || nsec >= (int64_t)NSEC)
        return -EINVAL;
    /* Beyond what int64_t nanoseconds hold, every time is "never" (Linux
     * saturates at KTIME_MAX): the clamp leaves room for nsec. */
    const int64_t max_sec = (INT64_MAX - (int64_t)NSEC) / (int64_t)NSEC;
    if (sec > max_sec)
        sec = max_sec;
    return sec * (int64_t)NSEC + nsec;
}

static int64_t sleep_until(struct task *t, uint64_t deadline, uint64_t rem, unsigned field,
                           bool absolute);

/* restart_syscall after a relative sleep was interrupted: on to the same
 * deadline. */
static int64_t restart_sleep(struct task *t)
{
    return sleep_until(t, t->restart_args[0], t->restart_args[1], (unsigned)t->restart_args[2],
                       false);
}

/* A sleep ends at its deadline, or early when a signal comes: an absolute
 * one with ERESTARTNOHAND (run again, it waits for the same time), a
 * relative one with ERESTART_RESTARTBLOCK after writing the time left to
 * wait_args[1]'s timespec, as Linux's nanosleep (restart.h). */
static int64_t resume_sleep(struct task *t)
{
    uint64_t now = machine_now(t->machine);
    if (now >= t->deadline_ns)
        return 0;
    if (!signal_pending(t))
        return RESUME_BLOCK;
    if (t->wait_args[3])
        return -ERESTARTNOHAND;
    if (t->wait_args[1]) {
        uint64_t left = t->deadline_ns - now;
        if (put_time_pair(t, t->wait_args[1], left / NSEC, left % NSEC,
                          (unsigned)t->wait_args[2]) < 0)
            return -EFAULT;
    }
    t->restart_args[0] = t->deadline_ns;
    t->restart_args[1] = t->wait_args[1];
    t->restart_args[2] = t->wait_args[2];
    restart_block_set(t, restart_sleep);
    return -ERESTART_RESTARTBLOCK;
}

static int64_t sleep_until(struct task *t, uint64_t deadline, uint64_t rem, unsigned field,
                           bool absolute)
{
    if (deadline <= machine_now(t->machine))
        return 0;
    t->wait_args[1] = rem;
    t->wait_args[2] = field;
    t->wait_args[3] = absolute;
    task_block(t, resume_sleep, NULL, deadline);
    return -EBLOCK;
}

int64_t do_nanosleep(struct task *t, uint64_t req, uint64_t rem, unsigned field)
{
    int64_t ns = timespec_from_guest(t, req, field);
    if (ns < 0)
        return ns;
    return sleep_until(t, machine_now(t->machine) + (uint64_t)ns, rem, field, false);
}

SYSCALL_DECL(clock_gettime)
{
    return do_clock_gettime(t, (int)a[0], a[1], abi_time_field(t));
}

SYSCALL_DECL(clock_getres)
{
    return do_clock_getres(t, (int)a[0], a[1], abi_time_field(t));
}

SYSCALL_DECL(nanosleep)
{
    return do_nanosleep(t, a[0], a[1], abi_time_field(t));
}

#define TIMER_ABSTIME 1

int64_t do_clock_nanosleep(struct task *t, int clk, int flags, uint64_t req, uint64_t rem,
                           unsigned field)
{
    uint64_t now;
    int err = clock_now(t, clk, &now);
    if (err < 0)
        return err;
    if (!(flags & TIMER_ABSTIME))
        return do_nanosleep(t, req, rem, field);
    int64_t until = timespec_from_guest(t, req, field);
    if (until < 0)
        return until;
    /* now - vtime is the clock's offset from virtual time. */
    uint64_t deadline = (uint64_t)until > now ? machine_now(t->machine) + ((uint64_t)until - now) : 0;
    return sleep_until(t, deadline, 0, field, true);
}

SYSCALL_DECL(clock_nanosleep)
{
    return do_clock_nanosleep(t, (int)a[0], (int)a[1], a[2], a[3], abi_time_field(t));
}

SYSCALL_DECL(gettimeofday)
{
    uint64_t ns = machine_realtime_ns(t->machine);
    if (a[0] && put_time_pair(t, a[0], ns / NSEC, ns % NSEC / 1000, abi_time_field(t)) < 0)
        return -EFAULT;
    if (a[1]) {
        /* settimeofday's sys_tz (adjtimex.c) */
        int32_t tz[2] = {t->machine->ntp.tz_minuteswest, t->machine->ntp.tz_dsttime};
        if (copy_to_guest(task_mm(t), a[1], tz, sizeof tz) < 0)
            return -EFAULT;
    }
    return 0;
}

#define GETRANDOM_MAX 33554431u

SYSCALL_DECL(getrandom)
{
    uint64_t len = a[1] < GETRANDOM_MAX ? a[1] : GETRANDOM_MAX;
    uint8_t chunk[4096];
    for (uint64_t done = 0; done < len;) {
        size_t n = len - done < sizeof chunk ? (size_t)(len - done) : sizeof chunk;
        machine_random_bytes(t->machine, chunk, n);
        if (copy_to_guest(task_mm(t), a[0] + done, chunk, n) < 0)
            return done ? (int64_t)done : -EFAULT;
        done += n;
    }
    return (int64_t)len;
}
