/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futex.h - what the futex files share: futex keys (futex.c), the
 * priority-inheritance operations and boost (futex_pi.c), and the robust
 * list walk at exit and exec (futex_robust.c). */
#ifndef ASYMU_FUTEX_H
#define ASYMU_FUTEX_H

#include <stdbool.h>
#include <stdint.h>

struct task;

#define FUTEX_LOCK_PI 6
#define FUTEX_UNLOCK_PI 7
#define FUTEX_TRYLOCK_PI 8
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_CMP_REQUEUE_PI 12
#define FUTEX_LOCK_PI2 13
#define FUTEX_BITSET_ANY 0xffffffffu

/* The futex word of a PI or robust lock (include/uapi/linux/futex.h). */
#define FUTEX_WAITERS 0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK 0x3fffffffu

/* struct robust_list_head (include/uapi/linux/futex.h; compat_robust_list_head
 * on arm): the list's next pointer, futex_offset (a long), list_op_pending.
 * Three longs of the ABI, which is also the size set_robust_list wants. */
#define ROBUST_LIST_HEAD_LONGS 3

/* A futex's wait queue: (the address space, the address), or for one in
 * shared memory that is not FUTEX_PRIVATE_FLAG (the shared object, the
 * offset in it). */
struct futex_key {
    const void *obj;
    uint64_t key;
};
struct futex_key futex_key_of(struct task *t, uint64_t uaddr, bool private);

/* The PI operations of do_futex: a[] as the syscall's, deadline the
 * absolute virtual time of the timeout (0: none). */
int64_t futex_pi_op(struct task *t, int op, const uint64_t a[6], bool private, uint64_t deadline);
/* Whether a waiter on a plain futex is one of the PI operations' (a plain
 * wake or requeue of it is EINVAL, as Linux's futex_wake). */
bool futex_pi_queued(const struct task *t);
/* The kernel's p->prio of t: its normal_prio, or its top PI waiter's when
 * that is higher (/proc/PID/stat's priority field, task_prio()). */
int futex_pi_prio(const struct task *t);
/* After sched_setscheduler/sched_setattr or nice changed t's own
 * priority: its boost again, and the chain it waits in
 * (__sched_setscheduler()'s rt_mutex_adjust_pi()). */
void futex_pi_sched_changed(struct task *t);
/* clone: a child starts at its parent's normal priority, never its
 * boost (sched_fork()'s p->prio = current->normal_prio). */
void futex_pi_fork(struct task *child);
/* exit_pi_state_list(): t is gone: it leaves the lock it waits for and
 * each lock it owns goes to its top waiter. */
void futex_pi_exit(struct task *t);

/* futex_exit_release()/futex_exec_release(): the robust list walked
 * (exit_robust_list(), its compat twin for a 32-bit task), then
 * futex_pi_exit. */
void futex_exit_release(struct task *t);

#endif
