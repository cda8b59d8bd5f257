/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futex.c - futex WAIT/WAKE (plain and bitset, private or not) with
 * timeouts in virtual time. A futex is an address in one address space, or
 * in shared memory a place in the object mapped there, which every process
 * mapping it reaches. The priority-inheritance operations are
 * futex_pi.c's, the robust list futex_robust.c's. */
#include "abi_user.h"
#include "futex.h"
#include "kcost.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "shmem.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "waitq.h"

#include <errno.h>

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK 0x7f
/* What a wake-up costs the waker, in blocks (10 us at the default 10 ns a
 * block): on Linux the woken thread starts on another CPU while the waker
 * is still leaving the kernel. */
#define FUTEX_WAKE_COST_BLOCKS 1000

struct futex_key futex_key_of(struct task *t, uint64_t uaddr, bool private)
{
    const struct vma *v = private ? NULL : mm_find_vma(task_mm(t), uaddr);
    if (v && v->shm)
        return (struct futex_key){v->shm, v->shm_off + (uaddr - v->start)};
    return (struct futex_key){task_mm(t), uaddr};
}

/* The address and bitset are also in wait_args. Waiters wake in the order
 * they started waiting. A waiter of FUTEX_WAIT_REQUEUE_PI there makes it
 * EINVAL (futex_wake()), those before it woken. */
static int wake(struct task *t, struct futex_key k, int n, uint32_t bitset)
{
    int woken = 0, err = 0;
    struct waiters w;
    waiters_get(&w, t->machine, k.obj, k.key);
    for (size_t i = 0; i < w.n && woken < n; i++) {
        struct task *o = w.task[i];
        if (o->state == TASK_BLOCKED && futex_pi_queued(o)) {
            err = -EINVAL;
            break;
        }
        if (o->state != TASK_BLOCKED || o->woken || !(o->wait_args[1] & bitset))
            continue;
        o->woken = true;
        o->woken_obj = k.obj;
        o->woken_key = k.key;
        task_wake(o);
        woken++;
    }
    waiters_put(&w);
    /* The waker ends its slice and pays for the wake-up, so that the woken
     * thread runs first, as it would on Linux, at once on another CPU.
     * Otherwise a thread that releases a lock and takes it back starves the
     * waiter for ever: CPython's GIL waiter (5 ms timed waits, each ended
     * by the holder's signal just before it takes the GIL again) never got
     * the GIL from a thread writing in a loop (test_io's daemon-thread
     * tests: CTest conformance-gil-handover-arm64). */
    if (woken) {
        t->stop = true;
        t->machine->slice_used += FUTEX_WAKE_COST_BLOCKS;
        /* ... and the time of those blocks, as before the cost table:
         * a scheduling device, not a measured cost (docs/timing.md). */
        t->machine->slice_fs +=
            sched_cpu_fs(&t->machine->sched, t->machine->slice_cpu,
                         FUTEX_WAKE_COST_BLOCKS * SCHED_DEFAULT_NS_PER_BLOCK * FS_PER_NS);
    }
    return err ? err : woken;
}

int futex_wake(struct task *t, uint64_t uaddr, int n)
{
    return wake(t, futex_key_of(t, uaddr, false), n, FUTEX_BITSET_ANY);
}

static int64_t wait_on(struct task *t, uint64_t uaddr, bool private, uint32_t val,
                       uint32_t bitset, uint64_t deadline);

/* restart_syscall after a timed wait was interrupted: the same wait, until
 * the same deadline, if the value has not changed. */
static int64_t restart_wait(struct task *t)
{
    return wait_on(t, t->restart_args[0], t->restart_args[2] >> 32, (uint32_t)t->restart_args[1],
                   (uint32_t)t->restart_args[2], t->restart_args[3]);
}

/* A signal ends an untimed wait with ERESTARTSYS (SA_RESTART waits again),
 * a timed one with ERESTART_RESTARTBLOCK, as Linux's futex_wait. */
static int64_t resume_wait(struct task *t)
{
    if (t->woken)
        return 0;
    if (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns)
        return -ETIMEDOUT;
    if (!signal_pending(t))
        return RESUME_BLOCK;
    if (!t->deadline_ns)
        return -ERESTARTSYS;
    t->restart_args[0] = t->wait_args[0];
    t->restart_args[1] = t->wait_args[2];
    t->restart_args[2] = t->wait_args[1] | t->wait_args[3] << 32; /* bitset, private */
    t->restart_args[3] = t->deadline_ns;
    restart_block_set(t, restart_wait);
    return -ERESTART_RESTARTBLOCK;
}

static int64_t wait_on(struct task *t, uint64_t uaddr, bool private, uint32_t val,
                       uint32_t bitset, uint64_t deadline)
{
    uint32_t cur;
    if (copy_from_guest(task_mm(t), &cur, uaddr, sizeof cur) < 0)
        return -EFAULT;
    if (cur != val)
        return -EAGAIN;
    if (deadline && deadline <= machine_now(t->machine))
        return -ETIMEDOUT;
    t->wait_args[0] = uaddr;
    t->wait_args[1] = bitset;
    t->wait_args[2] = val;
    t->wait_args[3] = private;
    struct futex_key k = futex_key_of(t, uaddr, private);
    t->wait_key = k.key;
    task_block(t, resume_wait, k.obj, deadline);
    return -EBLOCK;
}

/* sys_futex()'s futex_init_timeout(): FUTEX_WAIT's timeout is relative;
 * the others' absolute, on CLOCK_REALTIME for FUTEX_LOCK_PI and with
 * FUTEX_CLOCK_REALTIME, else CLOCK_MONOTONIC. 0: none, else a virtual
 * time (1 when already past), or an errno. */
static int64_t deadline_of(struct task *t, int op, int flags, uint64_t uts, unsigned field)
{
    if (!uts || (op != FUTEX_WAIT && op != FUTEX_WAIT_BITSET && op != FUTEX_LOCK_PI &&
                 op != FUTEX_LOCK_PI2 && op != FUTEX_WAIT_REQUEUE_PI))
        return 0;
    int64_t ns = timespec_from_guest(t, uts, field);
    if (ns < 0)
        return ns;
    uint64_t now = machine_now(t->machine), deadline;
    uint64_t offset = machine_realtime_ns(t->machine) - now;
    if (op == FUTEX_WAIT)
        deadline = now + (uint64_t)ns;
    else if (op != FUTEX_LOCK_PI && !(flags & FUTEX_CLOCK_REALTIME))
        deadline = (uint64_t)ns;
    else
        deadline = (uint64_t)ns > offset ? (uint64_t)ns - offset : 0;
    return deadline ? (int64_t)deadline : 1; /* already past: 0 would mean no timeout */
}

int64_t do_futex(struct task *t, const uint64_t a[6], unsigned field)
{
    int op = (int)a[1] & FUTEX_CMD_MASK;
    bool private = (int)a[1] & FUTEX_PRIVATE_FLAG;
    uint64_t uaddr = a[0];
    uint32_t val = (uint32_t)a[2], cur;
    /* do_futex(): the clock flag only where a timeout is absolute or
     * FUTEX_WAIT's. */
    if (((int)a[1] & FUTEX_CLOCK_REALTIME) && op != FUTEX_WAIT && op != FUTEX_WAIT_BITSET &&
        op != FUTEX_WAIT_REQUEUE_PI && op != FUTEX_LOCK_PI2)
        return -ENOSYS;
    int64_t deadline = deadline_of(t, op, (int)a[1], a[3], field);
    if (deadline < 0)
        return deadline;
    struct futex_key k = futex_key_of(t, uaddr, private);
    switch (op) {
    case FUTEX_WAKE:
        return wake(t, k, (int)val, FUTEX_BITSET_ANY);
    case FUTEX_WAKE_BITSET:
        if ((uint32_t)a[5] == 0)
            return -EINVAL;
        return wake(t, k, (int)val, (uint32_t)a[5]);
    case FUTEX_WAIT:
    case FUTEX_WAIT_BITSET: {
        uint32_t bitset = op == FUTEX_WAIT ? FUTEX_BITSET_ANY : (uint32_t)a[5];
        if (bitset == 0 || uaddr % 4)
            return -EINVAL;
        return wait_on(t, uaddr, private, val, bitset, (uint64_t)deadline);
    }
    case FUTEX_REQUEUE:
    case FUTEX_CMP_REQUEUE: {
        if (op == FUTEX_CMP_REQUEUE) {
            if (copy_from_guest(task_mm(t), &cur, uaddr, sizeof cur) < 0)
                return -EFAULT;
            if (cur != (uint32_t)a[5])
                return -EAGAIN;
        }
        int n = wake(t, k, (int)val, FUTEX_BITSET_ANY);
        if (n < 0)
            return n;
        /* Move up to val2 remaining waiters to the second futex; a
         * FUTEX_WAIT_REQUEUE_PI waiter is for FUTEX_CMP_REQUEUE_PI alone
         * (futex_requeue(): EINVAL). */
        int moved = 0, limit = (int)(uint32_t)a[3];
        struct futex_key k2 = futex_key_of(t, a[4], private);
        struct waiters w;
        waiters_get(&w, t->machine, k.obj, k.key);
        for (size_t i = 0; i < w.n && moved < limit; i++) {
            struct task *o = w.task[i];
            if (o->woken)
                continue;
            if (futex_pi_queued(o)) {
                waiters_put(&w);
                return -EINVAL;
            }
            o->wait_args[0] = a[4];
            o->wait_obj = k2.obj;
            o->wait_key = k2.key;
            waitq_update(o); /* onto the second futex's queue, at its end */
            moved++;
        }
        waiters_put(&w);
        return n + moved;
    }
    case FUTEX_LOCK_PI:
    case FUTEX_LOCK_PI2:
    case FUTEX_TRYLOCK_PI:
    case FUTEX_UNLOCK_PI:
    case FUTEX_WAIT_REQUEUE_PI:
    case FUTEX_CMP_REQUEUE_PI:
        return futex_pi_op(t, op, a, private, (uint64_t)deadline);
    default:
        return -ENOSYS;
    }
}

SYSCALL_DECL(futex)
{
    return do_futex(t, a, abi_time_field(t));
}
