/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futex_pi.c - priority-inheritance futexes as Linux 5.15's kernel/futex.c
 * does them over kernel/locking/rtmutex.c: FUTEX_LOCK_PI, FUTEX_LOCK_PI2,
 * FUTEX_TRYLOCK_PI, FUTEX_UNLOCK_PI, FUTEX_WAIT_REQUEUE_PI and
 * FUTEX_CMP_REQUEUE_PI, and the owner's boost.
 *
 * The futex word holds the owner's tid (bits 0-29), FUTEX_WAITERS when a
 * waiter is in the kernel (the owner's unlock must then come here) and
 * FUTEX_OWNER_DIED after the robust list of a dead owner named it. Linux
 * keeps a pi_state and an rt_mutex per contended futex; here each waiter
 * records the lock it waits for and its owner (task.h struct
 * futex_pi_wait), so the machine's task list is the rt_mutex's waiter
 * tree. The owner runs at its top waiter's priority while that is higher
 * than its own (rt_mutex_adjust_prio() -> rt_mutex_setprio()), up the
 * chain of owners that wait for other PI futexes
 * (rt_mutex_adjust_prio_chain()).
 *
 * One difference: Linux's unlock leaves the rt_mutex ownerless until the
 * woken top waiter takes it, where a higher-priority locker may steal it;
 * here the unlock hands the lock to the top waiter at once (the futex word
 * says so in both). A waiter of the deadline class does not boost (Linux
 * lends its deadline entity): it counts as its normal priority -1 and is
 * ignored for the boost. */
#include "futex.h"

#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "sched_attr.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "waitq.h"

#include <errno.h>
#include <stdlib.h>

/* kernel/locking/rtmutex.c's max_lock_depth: the longest chain walked. */
#define MAX_LOCK_DEPTH 1024
/* MAX_RT_PRIO: kernel priorities below it are real-time. */
#define MAX_RT_PRIO 100

static bool same_key(const void *obj, uint64_t key, struct futex_key k)
{
    return obj == k.obj && key == k.key;
}

/* Waiting for a lock (in its rt_mutex's waiter tree). */
static bool pi_waiting(const struct task *t)
{
    return t->pi.kind == FUTEX_PI_LOCK || t->pi.kind == FUTEX_PI_REQUEUED;
}

bool futex_pi_queued(const struct task *t)
{
    return t->pi.kind != FUTEX_PI_NONE;
}

/* normal_prio(): the kernel's scale, 0..98 real-time (99 - rt_priority),
 * 100..139 fair (120 + nice), -1 deadline. */
static int normal_prio(const struct task *t)
{
    if (t->sched_policy == SCHED_DEADLINE)
        return -1;
    if (t->sched_policy == SCHED_FIFO || t->sched_policy == SCHED_RR)
        return MAX_RT_PRIO - 1 - t->rt_priority;
    return 120 + t->se.nice;
}

int futex_pi_prio(const struct task *t)
{
    return t->pi.boosted ? t->pi.prio : normal_prio(t);
}

/* A waiter's place in the queue (__waiter_prio(), 5.15): its priority if
 * real-time, else DEFAULT_PRIO: fair waiters queue in arrival order
 * whatever their nice. */
static int waiter_prio(const struct task *t)
{
    int p = futex_pi_prio(t);
    return p < MAX_RT_PRIO ? p : 120;
}

/* rt_mutex_waiter_less(): the higher priority first, then who queued first. */
static bool waiter_before(const struct task *a, const struct task *b)
{
    int pa = waiter_prio(a), pb = waiter_prio(b);
    return pa != pb ? pa < pb : a->pi.seq < b->pi.seq;
}

/* rt_mutex_top_waiter() of the lock at k, NULL without waiters. */
static struct task *top_waiter(struct machine *m, struct futex_key k)
{
    struct task *top = NULL;
    for (struct task *o = m->tasks; o; o = o->next_all)
        if (pi_waiting(o) && same_key(o->pi.obj, o->pi.key, k) && (!top || waiter_before(o, top)))
            top = o;
    return top;
}

/* task_top_pi_waiter(): the first waiter of every lock owner holds. */
static struct task *top_waiter_of(struct task *owner)
{
    struct task *top = NULL;
    for (struct task *o = owner->machine->tasks; o; o = o->next_all)
        if (pi_waiting(o) && o->pi.owner == owner && (!top || waiter_before(o, top)))
            top = o;
    return top;
}

/* rt_mutex_setprio() (kernel/sched/core.c) as rt_mutex_adjust_prio()
 * calls it: t runs at its top waiter's priority (the task's p->prio, nice
 * included) when that is higher than its own, in the real-time class for a real-time one (a SCHED_RR owner
 * keeps its round robin, any other runs it as FIFO: task_tick_rt() looks
 * at p->policy). Its policy and rt_priority, what sched_getscheduler and
 * sched_getparam report, stay its own. */
static void setprio(struct task *t)
{
    if (t->state == TASK_DEAD)
        return;
    int own = normal_prio(t), prio = own;
    const struct task *w = top_waiter_of(t);
    if (w && futex_pi_prio(w) >= 0 && futex_pi_prio(w) < prio)
        prio = futex_pi_prio(w);
    t->pi.boosted = prio != own;
    t->pi.prio = prio;
    if (prio < 0)
        return; /* its own deadline class: nothing is above it */
    enum sched_class cls = prio < MAX_RT_PRIO ? SCHED_CLASS_RT : SCHED_CLASS_FAIR;
    int rt = prio < MAX_RT_PRIO ? MAX_RT_PRIO - 1 - prio : 0;
    bool rr = cls == SCHED_CLASS_RT && t->sched_policy == SCHED_RR;
    struct sched_task *se = &t->se;
    if (se->cls != cls || se->rt_prio != rt || se->rr != rr)
        sched_task_set_class(&t->machine->sched, se, cls, rt, rr);
}

/* rt_mutex_adjust_prio_chain(): a waiter came, left or changed priority:
 * the owner takes its new priority, and the owner of the lock that owner
 * waits for, up the chain. */
static void adjust_chain(struct task *owner)
{
    for (int depth = 0; owner && depth < MAX_LOCK_DEPTH; depth++) {
        setprio(owner);
        owner = pi_waiting(owner) ? owner->pi.owner : NULL;
    }
}

/* The chain walk's deadlock detection (rt_mutex_adjust_prio_chain() with
 * RT_MUTEX_FULL_CHAINWALK): who waiting for owner's lock would close a
 * cycle of waiters, or the chain is longer than max_lock_depth. */
static bool would_deadlock(const struct task *who, const struct task *owner)
{
    for (int depth = 0; owner; depth++) {
        if (owner == who || depth >= MAX_LOCK_DEPTH)
            return true;
        owner = pi_waiting(owner) ? owner->pi.owner : NULL;
    }
    return false;
}

void futex_pi_sched_changed(struct task *t)
{
    if (!t->machine->futex_pi_seq)
        return; /* no boost anywhere: the class set is the task's own */
    setprio(t);
    if (pi_waiting(t))
        adjust_chain(t->pi.owner);
    if (t->se.need_resched)
        t->stop = true;
}

void futex_pi_fork(struct task *child)
{
    child->pi = (struct futex_pi_wait){0};
    setprio(child);
}

/* t waits for owner's lock at k from now on. */
static void enqueue(struct task *t, enum futex_pi_kind kind, struct futex_key k, uint64_t uaddr,
                    struct task *owner)
{
    t->pi.kind = kind;
    t->pi.owner = owner;
    t->pi.obj = k.obj;
    t->pi.key = k.key;
    t->pi.uaddr = uaddr;
    t->pi.seq = ++t->machine->futex_pi_seq;
    t->pi.granted = false;
}

/* A waiter leaves (timeout, signal, exit): its owner may fall back. */
static void dequeue(struct task *t)
{
    struct task *owner = pi_waiting(t) ? t->pi.owner : NULL;
    t->pi.kind = FUTEX_PI_NONE;
    t->pi.owner = NULL;
    if (owner)
        adjust_chain(owner);
}

/* The lock at k goes to top, its top waiter: the others wait for top now
 * (wake_futex_pi(), rt_mutex_futex_unlock(), fixup_pi_state_owner()). */
static void hand_over(struct machine *m, struct futex_key k, struct task *top)
{
    for (struct task *o = m->tasks; o; o = o->next_all)
        if (o != top && pi_waiting(o) && same_key(o->pi.obj, o->pi.key, k))
            o->pi.owner = top;
    top->pi.kind = FUTEX_PI_NONE;
    top->pi.owner = NULL;
    top->pi.granted = true;
    task_wake(top);
    adjust_chain(top);
}

static int get_word(struct task *t, uint64_t uaddr, uint32_t *v)
{
    return copy_from_guest(task_mm(t), v, uaddr, sizeof *v) < 0 ? -EFAULT : 0;
}

static int put_word(struct task *t, uint64_t uaddr, uint32_t v)
{
    return copy_to_guest(task_mm(t), uaddr, &v, sizeof v) < 0 ? -EFAULT : 0;
}

/* futex_lock_pi_atomic(): t's futex at uaddr (key k) for who (t, or the
 * top waiter of a requeue). 1: who took it; 0: who must wait for *owner
 * (FUTEX_WAITERS is set); else an errno. */
static int lock_atomic(struct task *t, uint64_t uaddr, struct futex_key k, struct task *who,
                       bool set_waiters, struct task **owner)
{
    uint32_t uval;
    int err = get_word(t, uaddr, &uval);
    if (err)
        return err;
    if ((uval & FUTEX_TID_MASK) == (uint32_t)who->tid)
        return -EDEADLK;
    /* attach_to_pi_state(): with waiters in the kernel the word must name
     * the owner they wait for (user space fiddled with it otherwise). */
    struct task *top = top_waiter(t->machine, k);
    if (top) {
        if ((uval & FUTEX_TID_MASK) != (uint32_t)top->pi.owner->tid)
            return -EINVAL;
        *owner = top->pi.owner;
        return 0;
    }
    if (!(uval & FUTEX_TID_MASK)) {
        uint32_t nval = (uval & FUTEX_OWNER_DIED) | (uint32_t)who->tid;
        err = put_word(t, uaddr, nval | (set_waiters ? FUTEX_WAITERS : 0));
        return err ? err : 1;
    }
    if (!(uval & FUTEX_WAITERS) && (err = put_word(t, uaddr, uval | FUTEX_WAITERS)))
        return err;
    /* attach_to_pi_owner(): the tid must be a live task, else
     * handle_exit_race() says ESRCH (the word keeps FUTEX_WAITERS). */
    struct task *o = task_find(t->machine, (int)(uval & FUTEX_TID_MASK));
    if (!o || o->state == TASK_DEAD)
        return -ESRCH;
    *owner = o;
    return 0;
}

/* A lock waiter's wake-up: the lock given to it, its timeout, or a signal,
 * after which the call starts again (futex_lock_pi() turns the rt_mutex's
 * EINTR into ERESTARTNOINTR). A timed-out waiter given the lock before it
 * ran has it (rt_mutex_cleanup_proxy_lock()). */
static int64_t resume_lock(struct task *t)
{
    if (t->pi.granted) {
        t->pi.granted = false;
        return 0;
    }
    if (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns) {
        dequeue(t);
        return -ETIMEDOUT;
    }
    if (!signal_pending(t))
        return RESUME_BLOCK;
    dequeue(t);
    return -ERESTARTNOINTR;
}

/* futex_lock_pi(): FUTEX_LOCK_PI, FUTEX_LOCK_PI2, FUTEX_TRYLOCK_PI. */
static int64_t lock_pi(struct task *t, uint64_t uaddr, bool private, uint64_t deadline,
                       bool trylock)
{
    if (uaddr % 4)
        return -EINVAL;
    struct futex_key k = futex_key_of(t, uaddr, private);
    struct task *owner;
    int r = lock_atomic(t, uaddr, k, t, false, &owner);
    if (r)
        return r == 1 ? 0 : r;
    if (trylock)
        return -EAGAIN; /* rt_mutex_futex_trylock() fails: -EWOULDBLOCK */
    if (would_deadlock(t, owner))
        return -EDEADLK;
    if (deadline && deadline <= machine_now(t->machine))
        return -ETIMEDOUT;
    enqueue(t, FUTEX_PI_LOCK, k, uaddr, owner);
    t->wait_key = k.key;
    task_block(t, resume_lock, k.obj, deadline);
    adjust_chain(owner);
    return -EBLOCK;
}

/* futex_unlock_pi(): only the owner unlocks; the top waiter gets the lock
 * with FUTEX_WAITERS set whether or not others wait (wake_futex_pi());
 * without waiters the word becomes 0, FUTEX_OWNER_DIED dropped too. */
static int64_t unlock_pi(struct task *t, uint64_t uaddr, bool private)
{
    if (uaddr % 4)
        return -EINVAL;
    uint32_t uval;
    int err = get_word(t, uaddr, &uval);
    if (err)
        return err;
    if ((uval & FUTEX_TID_MASK) != (uint32_t)t->tid)
        return -EPERM;
    struct futex_key k = futex_key_of(t, uaddr, private);
    struct task *top = top_waiter(t->machine, k);
    if (!top)
        return put_word(t, uaddr, 0);
    if (top->pi.owner != t)
        return -EINVAL;
    if ((err = put_word(t, uaddr, FUTEX_WAITERS | (uint32_t)top->tid)))
        return err;
    hand_over(t->machine, k, top);
    setprio(t); /* rt_mutex_adjust_prio(): its boost ends with the lock */
    return 0;
}

/* A requeue-PI waiter's wake-up: before the requeue as a futex wait
 * (handle_early_requeue_pi_wakeup(): ETIMEDOUT, or ERESTARTNOINTR on a
 * signal), after it as a lock waiter whose signal is EWOULDBLOCK
 * (futex_wait_requeue_pi(): it cannot restart on the first futex). */
static int64_t resume_requeue(struct task *t)
{
    if (t->pi.granted) {
        t->pi.granted = false;
        return 0;
    }
    bool timeout = t->deadline_ns && machine_now(t->machine) >= t->deadline_ns;
    if (!timeout && !signal_pending(t))
        return RESUME_BLOCK;
    bool requeued = t->pi.kind == FUTEX_PI_REQUEUED;
    dequeue(t);
    if (timeout)
        return -ETIMEDOUT;
    return requeued ? -EAGAIN : -ERESTARTNOINTR;
}

/* futex_wait_requeue_pi(): wait on the plain futex uaddr (while it holds
 * val) until FUTEX_CMP_REQUEUE_PI gives this task the PI futex uaddr2 or
 * makes it wait for it. */
static int64_t wait_requeue_pi(struct task *t, uint64_t uaddr, bool private, uint32_t val,
                               uint64_t deadline, uint64_t uaddr2)
{
    if (uaddr == uaddr2 || uaddr % 4 || uaddr2 % 4)
        return -EINVAL;
    uint32_t cur;
    int err = get_word(t, uaddr, &cur);
    if (err)
        return err;
    if (cur != val)
        return -EAGAIN;
    struct futex_key k = futex_key_of(t, uaddr, private), k2 = futex_key_of(t, uaddr2, private);
    if (same_key(k.obj, k.key, k2)) /* shared futexes: two addresses, one futex */
        return -EINVAL;
    if (deadline && deadline <= machine_now(t->machine))
        return -ETIMEDOUT;
    t->pi = (struct futex_pi_wait){.kind = FUTEX_PI_REQUEUE_WAIT, .obj2 = k2.obj, .key2 = k2.key,
                                   .uaddr2 = uaddr2, .boosted = t->pi.boosted, .prio = t->pi.prio};
    t->wait_args[0] = uaddr;
    t->wait_args[1] = FUTEX_BITSET_ANY;
    t->wait_args[2] = val;
    t->wait_args[3] = private;
    t->wait_key = k.key;
    task_block(t, resume_requeue, k.obj, deadline);
    return -EBLOCK;
}

/* The futex hash bucket's order (a plist by min(normal_prio, MAX_RT_PRIO),
 * who came first among equals): the order a requeue takes waiters in. */
static int plist_prio(const struct task *t)
{
    int p = normal_prio(t);
    return p < MAX_RT_PRIO ? p : MAX_RT_PRIO;
}

static void plist_sort(struct task **w, size_t n)
{
    for (size_t i = 1; i < n; i++) /* insertion sort: stable */
        for (size_t j = i; j > 0 && plist_prio(w[j]) < plist_prio(w[j - 1]); j--) {
            struct task *x = w[j];
            w[j] = w[j - 1];
            w[j - 1] = x;
        }
}

/* futex_requeue() with requeue_pi: wake exactly one (nr_wake 1) by giving
 * it the PI futex uaddr2 when free (futex_proxy_trylock_atomic()), and
 * move up to nr_requeue (one more when none took it) to wait for the lock
 * (rt_mutex_start_proxy_lock()). Every waiter on uaddr must be in
 * FUTEX_WAIT_REQUEUE_PI to uaddr2, else EINVAL; an error ends the walk
 * and is the result, else the number woken and moved. */
static int64_t cmp_requeue_pi(struct task *t, uint64_t uaddr, bool private, int nr_wake,
                              int nr_requeue, uint64_t uaddr2, uint32_t cmpval)
{
    if (nr_wake < 0 || nr_requeue < 0 || uaddr == uaddr2 || nr_wake != 1)
        return -EINVAL;
    if (uaddr % 4 || uaddr2 % 4)
        return -EINVAL;
    struct futex_key k = futex_key_of(t, uaddr, private), k2 = futex_key_of(t, uaddr2, private);
    if (same_key(k.obj, k.key, k2))
        return -EINVAL;
    uint32_t cur;
    int err = get_word(t, uaddr, &cur);
    if (err)
        return err;
    if (cur != cmpval)
        return -EAGAIN;
    if ((err = get_word(t, uaddr2, &cur)))
        return err;
    struct waiters w;
    waiters_get(&w, t->machine, k.obj, k.key);
    plist_sort(w.task, w.n);
    int64_t ret = 0;
    int count = 0;
    struct task *owner = NULL, *top = w.n ? w.task[0] : NULL;
    if (top) {
        if (top->pi.kind != FUTEX_PI_REQUEUE_WAIT || !same_key(top->pi.obj2, top->pi.key2, k2))
            ret = -EINVAL;
        else
            ret = lock_atomic(t, uaddr2, k2, top, nr_requeue > 0, &owner);
        if (ret == 1) { /* requeue_pi_wake_futex(): it returns with the lock */
            top->pi.kind = FUTEX_PI_NONE;
            top->pi.granted = true;
            task_wake(top);
            owner = top;
            count = 1;
            ret = 0;
        }
    }
    for (size_t i = 0; i < w.n && !ret; i++) {
        struct task *o = w.task[i];
        if (count - nr_wake >= nr_requeue)
            break;
        if (o->pi.granted)
            continue;
        if (o->pi.kind != FUTEX_PI_REQUEUE_WAIT || !same_key(o->pi.obj2, o->pi.key2, k2)) {
            ret = -EINVAL;
            break;
        }
        if (would_deadlock(o, owner)) {
            ret = -EDEADLK;
            break;
        }
        enqueue(o, FUTEX_PI_REQUEUED, (struct futex_key){o->pi.obj2, o->pi.key2}, o->pi.uaddr2,
                owner);
        o->wait_args[0] = o->pi.uaddr2;
        o->wait_obj = o->pi.obj2;
        o->wait_key = o->pi.key2;
        waitq_update(o);
        adjust_chain(owner);
        count++;
    }
    waiters_put(&w);
    return ret ? ret : count;
}

int64_t futex_pi_op(struct task *t, int op, const uint64_t a[6], bool private, uint64_t deadline)
{
    int64_t r;
    switch (op) {
    case FUTEX_LOCK_PI:
    case FUTEX_LOCK_PI2:
        r = lock_pi(t, a[0], private, deadline, false);
        break;
    case FUTEX_TRYLOCK_PI:
        r = lock_pi(t, a[0], private, 0, true);
        break;
    case FUTEX_UNLOCK_PI:
        r = unlock_pi(t, a[0], private);
        break;
    case FUTEX_WAIT_REQUEUE_PI:
        r = wait_requeue_pi(t, a[0], private, (uint32_t)a[2], deadline, a[4]);
        break;
    case FUTEX_CMP_REQUEUE_PI:
        r = cmp_requeue_pi(t, a[0], private, (int)(uint32_t)a[2], (int)(uint32_t)a[3], a[4],
                           (uint32_t)a[5]);
        break;
    default:
        return -ENOSYS;
    }
    /* A boost or a hand-over may have put someone before t. */
    if (t->se.need_resched)
        t->stop = true;
    return r;
}

void futex_pi_exit(struct task *t)
{
    struct machine *m = t->machine;
    if (!m->futex_pi_seq)
        return; /* no PI lock was ever waited for: nothing to hand over */
    dequeue(t);
    /* exit_pi_state_list(): each lock t owns goes to its top waiter, which
     * writes its tid with FUTEX_WAITERS and, the pi_state having no owner,
     * FUTEX_OWNER_DIED, robust list or not (__fixup_pi_state_owner()). */
    for (;;) {
        struct task *top = top_waiter_of(t);
        if (!top)
            break;
        uint32_t uval = 0;
        if (get_word(top, top->pi.uaddr, &uval) == 0)
            put_word(top, top->pi.uaddr, FUTEX_OWNER_DIED | FUTEX_WAITERS | (uint32_t)top->tid);
        hand_over(m, (struct futex_key){top->pi.obj, top->pi.key}, top);
    }
    setprio(t); /* its own class again (exec goes on with it) */
}
