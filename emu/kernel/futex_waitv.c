/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futex_waitv.c - futex_waitv(2), Linux 5.16's kernel/futex/syscalls.c and
 * waitwake.c (futex_parse_waitv(), futex_wait_multiple_setup(),
 * futex_wait_multiple()), on both tables (449): wait on up to 128 32-bit
 * futexes at once until one is woken, the absolute timeout on
 * CLOCK_MONOTONIC or CLOCK_REALTIME passes, or a signal comes. The task
 * waits on the first futex's queue and on each other's as an extra wait
 * (waitq_add_key); futex.c's wake() notes which futex woke it. Not in
 * 5.15's tables (docs/syscalls.md lists up to 448); asked for by stress-ng's
 * futex stressor and Wine/Proton. */
#include "futex.h"

#include "abi.h"
#include "machine.h"
#include "restart.h"
#include "mm.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "waitq.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define FUTEX_WAITV_MAX 128
#define FUTEX_32 2u
#define FUTEX_PRIVATE_FLAG 128u

/* struct futex_waitv: the same 24 bytes in both ABIs. */
struct waitv_entry {
    uint64_t val, uaddr;
    uint32_t flags, reserved;
};

/* futex_parse_waitv(): n entries from the guest, each a 32-bit futex
 * (FUTEX_32, maybe FUTEX_PRIVATE_FLAG), aligned, its reserved word 0, at
 * an address the caller's pointers can hold (a 32-bit task's below 4 GiB). */
static int64_t read_entries(struct task *t, uint64_t uwaiters, unsigned n, struct waitv_entry *w)
{
    if (copy_from_guest(task_mm(t), w, uwaiters, n * sizeof *w) < 0)
        return -EFAULT;
    for (unsigned i = 0; i < n; i++)
        if ((w[i].flags & ~(FUTEX_32 | FUTEX_PRIVATE_FLAG)) || !(w[i].flags & FUTEX_32) ||
            w[i].reserved || w[i].uaddr % 4 || w[i].uaddr > abi_ulong_max(task_abi(t)))
            return -EINVAL;
    return 0;
}

static struct futex_key key_of(struct task *t, const struct waitv_entry *w)
{
    return futex_key_of(t, w->uaddr, w->flags & FUTEX_PRIVATE_FLAG);
}

/* Woken: the index of the futex whose wake ended the wait (wake() noted
 * its queue); the array is read again from wait_args[3], wait_args[2]
 * entries. */
static int64_t resume_waitv(struct task *t)
{
    if (t->woken) {
        struct waitv_entry w[FUTEX_WAITV_MAX];
        unsigned n = (unsigned)t->wait_args[2];
        if (read_entries(t, t->wait_args[3], n, w) == 0)
            for (unsigned i = 0; i < n; i++) {
                struct futex_key k = key_of(t, &w[i]);
                if (k.obj == t->woken_obj && k.key == t->woken_key)
                    return i;
            }
        return 0;
    }
    if (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns)
        return -ETIMEDOUT;
    return signal_pending(t) ? -ERESTARTSYS : RESUME_BLOCK;
}

SYSCALL_DECL(futex_waitv)
{
    uint64_t uwaiters = a[0], uts = a[3];
    unsigned n = (unsigned)a[1];
    int clock = (int)a[4];
    if (a[2] || !uwaiters || n == 0 || n > FUTEX_WAITV_MAX)
        return -EINVAL;
    uint64_t deadline = 0;
    if (uts) {
        if (clock != CLOCK_MONOTONIC && clock != CLOCK_REALTIME)
            return -EINVAL;
        int64_t ns = timespec_from_guest(t, uts, 8); /* struct __kernel_timespec */
        if (ns < 0)
            return ns;
        uint64_t now = machine_now(t->machine);
        uint64_t offset = clock == CLOCK_REALTIME ? machine_realtime_ns(t->machine) - now : 0;
        deadline = (uint64_t)ns > offset ? (uint64_t)ns - offset : 1;
    }
    struct waitv_entry w[FUTEX_WAITV_MAX];
    int64_t err = read_entries(t, uwaiters, n, w);
    if (err < 0)
        return err;
    /* futex_wait_multiple_setup(): every value first, then the queues */
    for (unsigned i = 0; i < n; i++) {
        uint32_t cur;
        if (copy_from_guest(task_mm(t), &cur, w[i].uaddr, sizeof cur) < 0)
            return -EFAULT;
        if (cur != (uint32_t)w[i].val)
            return -EAGAIN;
    }
    if (deadline && deadline <= machine_now(t->machine))
        return -ETIMEDOUT;
    t->wait_args[0] = w[0].uaddr;
    t->wait_args[1] = FUTEX_BITSET_ANY;
    t->wait_args[2] = n;
    t->wait_args[3] = uwaiters;
    for (unsigned i = 1; i < n; i++) {
        struct futex_key k = key_of(t, &w[i]);
        if ((err = waitq_add_key(t, k.obj, k.key)) < 0) {
            waitq_drop_extra(t);
            return err;
        }
    }
    struct futex_key k = key_of(t, &w[0]);
    t->wait_key = k.key;
    task_block(t, resume_waitv, k.obj, deadline);
    return -EBLOCK;
}
