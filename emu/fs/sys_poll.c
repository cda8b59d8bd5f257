/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_poll.c - ppoll and pselect6 (and arm's poll): readiness of pipes and
 * files, blocking until a pipe changes, a signal arrives or the timeout
 * passes in virtual time. */
#include "abi_user.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "waitq.h"

#include <errno.h>
#include <poll.h>
#include <string.h>

#define POLL_MAX FD_MAX

/* wait_args[5] of a poll or select wait; wait_args[4] is the guest
 * timespec that gets the time left (ppoll, pselect6), or 0. */
#define WAIT_ZERO_TIMEOUT 1u
#define WAIT_RESTART_BLOCK 2u /* poll with a timeout: continued by restart_syscall */
#define WAIT_TIMESPEC64 4u    /* wait_args[4] has 64-bit fields */
#define WAIT_TIMEVAL32 8u     /* wait_args[4] is a struct old_timeval32 */

struct pollfd_guest {
    int32_t fd;
    int16_t events, revents;
};

/* Fills revents for each entry and watches each file (waitq_add), so that
 * a change to any of them wakes the task if it blocks; returns how many
 * are ready. */
static int scan_pollfds(struct task *t, struct pollfd_guest *p, unsigned n)
{
    int ready = 0;
    for (unsigned i = 0; i < n; i++) {
        p[i].revents = 0;
        if (p[i].fd < 0)
            continue;
        struct file *f = file_get(t, p[i].fd);
        if (f && waitq_add(t, file_notify_key(f)) < 0)
            return -ENOMEM;
        short r = f ? file_poll(t, f) : POLLNVAL;
        p[i].revents = (int16_t)(r & (p[i].events | POLLHUP | POLLERR | POLLNVAL));
        if (p[i].revents)
            ready++;
    }
    return ready;
}

static int64_t poll_once(struct task *t)
{
    struct pollfd_guest fds[POLL_MAX];
    unsigned n = (unsigned)t->wait_args[1];
    if (copy_from_guest(task_mm(t), fds, t->wait_args[0], n * sizeof *fds) < 0)
        return -EFAULT;
    int ready = scan_pollfds(t, fds, n);
    if (ready < 0)
        return ready;
    /* revents are written even when nothing is ready: they come back 0. */
    if (copy_to_guest(task_mm(t), t->wait_args[0], fds, n * sizeof *fds) < 0)
        return -EFAULT;
    return ready;
}

static int64_t do_poll(struct task *t, uint64_t ufds, unsigned nfds, int64_t timeout_ns,
                       unsigned flags, uint64_t uts);

/* restart_syscall after poll with a timeout was interrupted: on to the same
 * deadline. */
static int64_t restart_poll(struct task *t)
{
    uint64_t now = machine_now(t->machine), deadline = t->restart_args[2];
    int64_t left = deadline > now ? (int64_t)(deadline - now) : 0;
    return do_poll(t, t->restart_args[0], t->restart_args[1], left, WAIT_RESTART_BLOCK, 0);
}

/* Ready now, timed out, interrupted, or block. A signal ends ppoll,
 * pselect6 and poll without a timeout with ERESTARTNOHAND, poll with one
 * with ERESTART_RESTARTBLOCK (restart.h). */
static int64_t ready_or_interrupted(struct task *t, int64_t (*once)(struct task *t))
{
    int64_t r = once(t);
    if (r != 0)
        return r;
    if ((t->wait_args[5] & WAIT_ZERO_TIMEOUT) ||
        (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns))
        return 0;
    if (!signal_pending(t))
        return RESUME_BLOCK;
    if (!(t->wait_args[5] & WAIT_RESTART_BLOCK))
        return -ERESTARTNOHAND;
    t->restart_args[0] = t->wait_args[0];
    t->restart_args[1] = t->wait_args[1];
    t->restart_args[2] = t->deadline_ns;
    restart_block_set(t, restart_poll);
    return -ERESTART_RESTARTBLOCK;
}

/* Shared by poll and select. ppoll and pselect6 leave the time left in
 * their timespec whatever the result, so that the call, run again after a
 * stop, waits only for the rest; if that fails it cannot run again. */
static int64_t resume_ready(struct task *t, int64_t (*once)(struct task *t))
{
    int64_t r = ready_or_interrupted(t, once);
    if (r == RESUME_BLOCK || !t->wait_args[4])
        return r;
    uint64_t now = machine_now(t->machine);
    uint64_t left = t->deadline_ns > now ? t->deadline_ns - now : 0;
    unsigned field = (t->wait_args[5] & WAIT_TIMESPEC64) ? 8 : 4;
    int err;
    if (t->wait_args[5] & WAIT_TIMEVAL32) {
        /* poll_select_finish(), PT_OLD_TIMEVAL: whole microseconds left */
        int32_t tv[2] = {(int32_t)(left / 1000000000), (int32_t)(left % 1000000000 / 1000)};
        err = copy_to_guest(task_mm(t), t->wait_args[4], tv, sizeof tv);
    } else {
        err = timespec_to_guest(t, t->wait_args[4], left, field);
    }
    if (err < 0 && r == -ERESTARTNOHAND)
        return -EINTR;
    return r;
}

static int64_t resume_poll(struct task *t)
{
    return resume_ready(t, poll_once);
}

/* A timeout in ns (-1: none) to a deadline in wait_args/deadline_ns. */
static int64_t wait_ready(struct task *t, int64_t timeout_ns, resume_fn resume)
{
    t->wait_args[5] |= timeout_ns == 0 ? WAIT_ZERO_TIMEOUT : 0;
    if (timeout_ns <= 0)
        t->wait_args[4] = 0; /* Linux leaves a zero timeout alone */
    uint64_t deadline = timeout_ns > 0 ? machine_now(t->machine) + (uint64_t)timeout_ns : 0;
    t->deadline_ns = deadline;
    /* The scan watches every file it looks at: kept if the task blocks. */
    waitq_drop_extra(t);
    int64_t r = resume(t);
    if (r != RESUME_BLOCK) {
        waitq_drop_extra(t);
        return r;
    }
    task_block(t, resume, NULL, deadline);
    return -EBLOCK;
}

/* nfds is Linux's unsigned int (the register's upper half is not looked
 * at); flags: WAIT_*; uts: the timespec that gets the time left, or 0. */
static int64_t do_poll(struct task *t, uint64_t ufds, unsigned nfds, int64_t timeout_ns,
                       unsigned flags, uint64_t uts)
{
    if (nfds > POLL_MAX)
        return -EINVAL;
    t->wait_args[0] = ufds;
    t->wait_args[1] = nfds;
    t->wait_args[4] = uts;
    t->wait_args[5] = flags;
    return wait_ready(t, timeout_ns, resume_poll);
}

/* The signal mask ppoll and pselect6 wait with: it stands until the call
 * returns (or a handler it let in has run), as rt_sigsuspend's does. */
int wait_with_mask(struct task *t, uint64_t umask, uint64_t size)
{
    uint64_t mask;
    if (!umask)
        return 0;
    if (size != 8)
        return -EINVAL;
    if (copy_from_guest(task_mm(t), &mask, umask, sizeof mask) < 0)
        return -EFAULT;
    t->saved_sigmask = t->sigmask;
    t->restore_sigmask = true;
    t->sigmask = mask & ~(SIGBIT(9) | SIGBIT(19));
    return 0;
}

int64_t do_ppoll(struct task *t, const uint64_t a[6], unsigned field)
{
    int64_t ns = -1;
    if (a[2] && (ns = timespec_from_guest(t, a[2], field)) < 0)
        return ns;
    int err = wait_with_mask(t, a[3], a[4]);
    if (err < 0)
        return err;
    return do_poll(t, a[0], a[1], ns, field == 8 ? WAIT_TIMESPEC64 : 0, a[2]);
}

SYSCALL_DECL(ppoll)
{
    return do_ppoll(t, a, abi_time_field(t));
}

SYSCALL_DECL(poll)
{
    int32_t ms = (int32_t)a[2];
    if (ms < 0)
        return do_poll(t, a[0], a[1], -1, 0, 0);
    return do_poll(t, a[0], a[1], (int64_t)ms * 1000000, WAIT_RESTART_BLOCK, 0);
}

/* ---- select: fd_set bitmaps of longs ---- */

/* The bytes of each fd_set select reads and writes: nfds bits
 * (wait_args[0], at most FD_MAX) in whole longs of the ABI. */
static size_t fd_set_bytes(struct task *t)
{
    size_t long_bits = 8 * abi_longs_size(t, 1);
    return abi_longs_size(t, (unsigned)((t->wait_args[0] + long_bits - 1) / long_bits));
}

static int64_t select_once(struct task *t)
{
    int nfds = (int)t->wait_args[0];
    size_t bytes = fd_set_bytes(t);
    uint8_t in[FD_MAX / 8] = {0}, out[FD_MAX / 8] = {0}, ex[FD_MAX / 8] = {0};
    uint8_t rin[FD_MAX / 8] = {0}, rout[FD_MAX / 8] = {0};
    struct mm *mm = task_mm(t);
    if ((t->wait_args[1] && copy_from_guest(mm, in, t->wait_args[1], bytes) < 0) ||
        (t->wait_args[2] && copy_from_guest(mm, out, t->wait_args[2], bytes) < 0) ||
        (t->wait_args[3] && copy_from_guest(mm, ex, t->wait_args[3], bytes) < 0))
        return -EFAULT;
    int ready = 0;
    for (int fd = 0; fd < nfds; fd++) {
        bool want_in = in[fd / 8] & (1 << (fd % 8)), want_out = out[fd / 8] & (1 << (fd % 8));
        if (!want_in && !want_out)
            continue;
        struct file *f = file_get(t, fd);
        if (!f)
            return -EBADF;
        if (waitq_add(t, file_notify_key(f)) < 0)
            return -ENOMEM;
        short r = file_poll(t, f);
        if (want_in && (r & (POLLIN | POLLHUP | POLLERR))) {
            rin[fd / 8] |= (uint8_t)(1 << (fd % 8));
            ready++;
        }
        if (want_out && (r & (POLLOUT | POLLERR))) {
            rout[fd / 8] |= (uint8_t)(1 << (fd % 8));
            ready++;
        }
    }
    if (ready) {
        memset(ex, 0, sizeof ex);
        if ((t->wait_args[1] && copy_to_guest(mm, t->wait_args[1], rin, bytes) < 0) ||
            (t->wait_args[2] && copy_to_guest(mm, t->wait_args[2], rout, bytes) < 0) ||
            (t->wait_args[3] && copy_to_guest(mm, t->wait_args[3], ex, bytes) < 0))
            return -EFAULT;
    }
    return ready;
}

static int64_t resume_select(struct task *t)
{
    int64_t r = resume_ready(t, select_once);
    if (r == 0) {
        /* Timed out: every set comes back empty. */
        uint8_t zero[FD_MAX / 8] = {0};
        for (int i = 1; i <= 3; i++)
            if (t->wait_args[i])
                copy_to_guest(task_mm(t), t->wait_args[i], zero, fd_set_bytes(t));
    }
    return r;
}

/* nfds is an int: a negative one is EINVAL, one past the descriptor table
 * is cut to it (core_sys_select). */
int64_t do_pselect6(struct task *t, const uint64_t a[6], unsigned field)
{
    int nfds = (int)a[0];
    if (nfds < 0)
        return -EINVAL;
    if (nfds > FD_MAX)
        nfds = FD_MAX;
    int64_t ns = -1;
    if (a[4] && (ns = timespec_from_guest(t, a[4], field)) < 0)
        return ns;
    if (a[5]) {
        /* The sixth argument points at {const sigset_t *, size_t}. */
        uint64_t pair[2] = {0, 0};
        if (get_user_ulongs(t, a[5], pair, 2) < 0)
            return -EFAULT;
        int err = wait_with_mask(t, pair[0], pair[1]);
        if (err < 0)
            return err;
    }
    t->wait_args[0] = (uint64_t)nfds;
    for (int i = 1; i < 4; i++)
        t->wait_args[i] = a[i];
    t->wait_args[4] = a[4];
    t->wait_args[5] = field == 8 ? WAIT_TIMESPEC64 : 0;
    return wait_ready(t, ns, resume_select);
}

/* arm's _newselect(n, in, out, ex, tvp) (compat_sys_select): a struct
 * old_timeval32 whose microseconds may exceed a second (they carry into
 * the seconds, do_compat_select()); a negative time is EINVAL. */
SYSCALL_DECL(select_time32)
{
    int nfds = (int)a[0];
    if (nfds < 0)
        return -EINVAL;
    if (nfds > FD_MAX)
        nfds = FD_MAX;
    int64_t ns = -1;
    if (a[4]) {
        int32_t tv[2];
        if (copy_from_guest(task_mm(t), tv, a[4], sizeof tv) < 0)
            return -EFAULT;
        int64_t sec = (int64_t)tv[0] + tv[1] / 1000000, nsec = (int64_t)(tv[1] % 1000000) * 1000;
        if (sec < 0 || nsec < 0)
            return -EINVAL;
        ns = sec * 1000000000 + nsec;
    }
    t->wait_args[0] = (uint64_t)nfds;
    for (int i = 1; i < 4; i++)
        t->wait_args[i] = a[i];
    t->wait_args[4] = a[4];
    t->wait_args[5] = WAIT_TIMEVAL32;
    return wait_ready(t, ns, resume_select);
}

SYSCALL_DECL(pselect6)
{
    return do_pselect6(t, a, abi_time_field(t));
}
