/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timerfd.c - timerfd: a timer on the machine's virtual time (a ktimer)
 * whose expirations a read collects as an 8-byte count. Expirations are
 * counted from virtual time whenever the timer is looked at, so a late
 * look sees every period that has passed (Linux's overruns). The realtime
 * clock is the monotonic one plus the boot epoch, and it is never set, so
 * TFD_TIMER_CANCEL_ON_SET is accepted and never cancels. */
#include "abi_user.h"
#include "event.h"
#include "file.h"
#include "ktimer.h"
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>

#define NSEC 1000000000ll
#ifndef CLOCK_REALTIME_ALARM
#define CLOCK_REALTIME_ALARM 8
#define CLOCK_BOOTTIME_ALARM 9
#endif
#ifndef TFD_TIMER_CANCEL_ON_SET
#define TFD_TIMER_CANCEL_ON_SET 2
#endif

struct timerfd {
    struct machine *machine;
    struct ktimer timer; /* armed at the next expiration */
    bool realtime;       /* CLOCK_REALTIME: absolute times are on the wall clock */
    bool armed;
    int64_t next;        /* virtual ns of the next expiration (may precede boot) */
    int64_t interval;    /* ns between expirations, 0 for a one-shot timer */
    uint64_t ticks;      /* expirations not read yet */
};

/* Counts the expirations up to now and arms the timer for the next one. */
static void catch_up(struct timerfd *tf)
{
    struct machine *m = tf->machine;
    int64_t now = (int64_t)machine_now(m);
    if (!tf->armed || now < tf->next)
        return;
    uint64_t n = 1;
    if (tf->interval) {
        n += (uint64_t)((now - tf->next) / tf->interval);
        tf->next += (int64_t)n * tf->interval;
        ktimer_arm(m, &tf->timer, (uint64_t)tf->next);
    } else {
        tf->armed = false;
        ktimer_cancel(m, &tf->timer);
    }
    tf->ticks += n;
    file_notify_events(m, tf, POLLIN);
}

static void timerfd_fire(struct ktimer *k)
{
    catch_up((struct timerfd *)((char *)k - offsetof(struct timerfd, timer)));
}

static int64_t timerfd_read(struct task *t, struct file *f, void *buf, size_t len)
{
    struct timerfd *tf = f->priv;
    if (len < sizeof tf->ticks)
        return -EINVAL;
    catch_up(tf);
    if (!tf->ticks) {
        if (f->flags & O_NONBLOCK)
            return -EAGAIN;
        t->wait_obj = tf;
        return -EBLOCK;
    }
    memcpy(buf, &tf->ticks, sizeof tf->ticks);
    tf->ticks = 0;
    return sizeof tf->ticks;
}

static short timerfd_poll(struct task *t, struct file *f)
{
    (void)t;
    struct timerfd *tf = f->priv;
    catch_up(tf);
    return tf->ticks ? POLLIN : 0;
}

static void timerfd_release(struct file *f)
{
    struct timerfd *tf = f->priv;
    ktimer_cancel(tf->machine, &tf->timer);
    free(tf);
}

static const struct file_ops timerfd_ops = {
    .name = "anon_inode:[timerfd]",
    .read = timerfd_read,
    .poll = timerfd_poll,
    .release = timerfd_release,
    .mode = 0600,
};

/* timerfd_create(clockid, flags) */
SYSCALL_DECL(timerfd_create)
{
    int clk = (int)a[0], flags = (int)a[1];
    if ((flags & ~(TFD_CLOEXEC | TFD_NONBLOCK)) ||
        (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC && clk != CLOCK_BOOTTIME &&
         clk != CLOCK_REALTIME_ALARM && clk != CLOCK_BOOTTIME_ALARM))
        return -EINVAL;
    struct timerfd *tf = calloc(1, sizeof *tf);
    if (!tf)
        return -ENOMEM;
    tf->machine = t->machine;
    tf->timer.fire = timerfd_fire;
    tf->realtime = clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_ALARM;
    return anon_inode_fd(t, &timerfd_ops, tf, O_RDWR | (flags & TFD_NONBLOCK),
                         flags & TFD_CLOEXEC);
}

static struct timerfd *timerfd_get(struct task *t, int fd, int64_t *err)
{
    struct file *f = file_get(t, fd);
    *err = !f ? -EBADF : f->kind != FILE_OBJECT || f->ops != &timerfd_ops ? -EINVAL : 0;
    return *err ? NULL : f->priv;
}

/* The timer's setting now: {interval, time left}, in ns. */
struct setting {
    int64_t interval, left;
};

static struct setting current_setting(struct timerfd *tf)
{
    catch_up(tf);
    int64_t left = tf->armed ? tf->next - (int64_t)machine_now(tf->machine) : 0;
    return (struct setting){tf->interval, left};
}

/* Writes a setting as a struct itimerspec of `field`-byte members. */
static int put_itimerspec(struct task *t, uint64_t addr, struct setting set, unsigned field)
{
    int64_t v[4] = {set.interval / NSEC, set.interval % NSEC, set.left / NSEC, set.left % NSEC};
    uint8_t buf[32];
    for (int i = 0; i < 4; i++)
        memcpy(buf + i * field, &v[i], field);
    return copy_to_guest(task_mm(t), addr, buf, 4 * field);
}

/* timerfd_settime(fd, flags, new, old) with `field`-byte timespec members. */
static int64_t do_timerfd_settime(struct task *t, const uint64_t a[6], unsigned field)
{
    int flags = (int)a[1];
    int64_t interval = timespec_from_guest(t, a[2], field);
    int64_t value = interval < 0 ? interval : timespec_from_guest(t, a[2] + 2 * field, field);
    if (value < 0)
        return interval == -EFAULT || value == -EFAULT ? -EFAULT : -EINVAL;
    if (flags & ~(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET))
        return -EINVAL;
    int64_t err;
    struct timerfd *tf = timerfd_get(t, (int)a[0], &err);
    if (!tf)
        return err;
    struct setting old = current_setting(tf);
    int64_t now = (int64_t)machine_now(t->machine);
    tf->ticks = 0;
    tf->interval = value ? interval : 0;
    tf->armed = value != 0;
    if (!tf->armed) {
        ktimer_cancel(t->machine, &tf->timer);
    } else {
        if (!(flags & TFD_TIMER_ABSTIME))
            tf->next = now + value;
        else if (tf->realtime)
            tf->next = value - (int64_t)(machine_realtime_ns(t->machine) - machine_now(t->machine));
        else
            tf->next = value;
        ktimer_arm(t->machine, &tf->timer, tf->next > now ? (uint64_t)tf->next : (uint64_t)now);
        catch_up(tf); /* a time already past expires at once */
    }
    if (a[3] && put_itimerspec(t, a[3], old, field) < 0)
        return -EFAULT;
    return 0;
}

/* timerfd_gettime(fd, cur) with `field`-byte timespec members. */
static int64_t do_timerfd_gettime(struct task *t, const uint64_t a[6], unsigned field)
{
    int64_t err;
    struct timerfd *tf = timerfd_get(t, (int)a[0], &err);
    if (!tf)
        return err;
    return put_itimerspec(t, a[1], current_setting(tf), field) < 0 ? -EFAULT : 0;
}

SYSCALL_DECL(timerfd_settime)
{
    return do_timerfd_settime(t, a, abi_time_field(t));
}

SYSCALL_DECL(timerfd_gettime)
{
    return do_timerfd_gettime(t, a, abi_time_field(t));
}

/* armhf's timerfd_settime64/timerfd_gettime64: 64-bit timespec members. */
SYSCALL_DECL(timerfd_settime64)
{
    return do_timerfd_settime(t, a, 8);
}

SYSCALL_DECL(timerfd_gettime64)
{
    return do_timerfd_gettime(t, a, 8);
}
