/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futex.c - futex WAIT/WAKE (plain and bitset, private or not) with
 * timeouts in virtual time. A futex is an address in one address space, or
 * in shared memory a place in the object mapped there, which every process
 * mapping it reaches. */
#include "abi.h"
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
#define FUTEX_BITSET_ANY 0xffffffffu
/* What a wake-up costs the waker, in blocks (10 us at the default 10 ns a
 * block): on Linux the woken thread starts on another CPU while the waker
 * is still leaving the kernel. */
#define FUTEX_WAKE_COST_BLOCKS 1000

/* A futex's wait queue: (the address space, the address), or for one in
 * shared memory that is not FUTEX_PRIVATE_FLAG (the shared object, the
 * offset in it). */
struct futex_key {
    const void *obj;
    uint64_t key;
};

static struct futex_key key_of(struct task *t, uint64_t uaddr, bool private)
{
    const struct vma *v = private ? NULL : mm_find_vma(task_mm(t), uaddr);
    if (v && v->shm)
        return (struct futex_key){v->shm, v->shm_off + (uaddr - v->start)};
    return (struct futex_key){task_mm(t), uaddr};
}

/* The address and bitset are also in wait_args. Waiters wake in the order
 * they started waiting. */
static int wake(struct task *t, struct futex_key k, int n, uint32_t bitset)
{
    int woken = 0;
    struct waiters w;
    waiters_get(&w, t->machine, k.obj, k.key);
    for (size_t i = 0; i < w.n && woken < n; i++) {
        struct task *o = w.task[i];
        if (o->state != TASK_BLOCKED || o->woken || !(o->wait_args[1] & bitset))
            continue;
        o->woken = true;
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
    return woken;
}

int futex_wake(struct task *t, uint64_t uaddr, int n)
{
    return wake(t, key_of(t, uaddr, false), n, FUTEX_BITSET_ANY);
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
    struct futex_key k = key_of(t, uaddr, private);
    t->wait_key = k.key;
    task_block(t, resume_wait, k.obj, deadline);
    return -EBLOCK;
}

int64_t do_futex(struct task *t, const uint64_t a[6], unsigned field)
{
    int op = (int)a[1] & FUTEX_CMD_MASK;
    bool private = (int)a[1] & FUTEX_PRIVATE_FLAG;
    uint64_t uaddr = a[0];
    struct futex_key k = key_of(t, uaddr, private);
    uint32_t val = (uint32_t)a[2], cur;
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
        uint64_t deadline = 0;
        if (a[3]) {
            int64_t ns = timespec_from_guest(t, a[3], field);
            if (ns < 0)
                return ns;
            /* FUTEX_WAIT takes a relative timeout, the bitset form an absolute one. */
            uint64_t offset = machine_realtime_ns(t->machine) - machine_now(t->machine);
            if (op == FUTEX_WAIT)
                deadline = machine_now(t->machine) + (uint64_t)ns;
            else if (!((int)a[1] & FUTEX_CLOCK_REALTIME))
                deadline = (uint64_t)ns;
            else
                deadline = (uint64_t)ns > offset ? (uint64_t)ns - offset : 0;
            if (!deadline)
                deadline = 1; /* already past: 0 would mean no timeout */
        }
        return wait_on(t, uaddr, private, val, bitset, deadline);
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
        /* Move up to val2 remaining waiters to the second futex. */
        int moved = 0, limit = (int)(uint32_t)a[3];
        struct futex_key k2 = key_of(t, a[4], private);
        struct waiters w;
        waiters_get(&w, t->machine, k.obj, k.key);
        for (size_t i = 0; i < w.n && moved < limit; i++) {
            struct task *o = w.task[i];
            if (o->woken)
                continue;
            o->wait_args[0] = a[4];
            o->wait_obj = k2.obj;
            o->wait_key = k2.key;
            waitq_update(o); /* onto the second futex's queue, at its end */
            moved++;
        }
        waiters_put(&w);
        return n + moved;
    }
    default:
        return -ENOSYS;
    }
}

SYSCALL_DECL(futex)
{
    return do_futex(t, a, task_abi(t)->word);
}
