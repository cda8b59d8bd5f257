/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futex_robust.c - the robust futex list a thread registered with
 * set_robust_list, walked when it exits or execs (Linux 5.15's
 * exit_robust_list() and compat_exit_robust_list()): each lock it still
 * holds gets FUTEX_OWNER_DIED, keeps FUTEX_WAITERS, and a plain (not PI)
 * one wakes a waiter, whose pthread_mutex_lock then says EOWNERDEAD. The
 * PI locks then go to their top waiters (futex_pi_exit). */
#include "futex.h"

#include "abi.h"
#include "abi_user.h"
#include "mm.h"
#include "signals.h"
#include "task.h"

/* ROBUST_LIST_LIMIT: a circular or endless list ends here. */
#define ROBUST_LIST_LIMIT 2048

/* fetch_robust_entry(): bit 0 of a list pointer (a compat_uptr_t for a
 * 32-bit task) says the lock is PI. */
static void split_entry(uint64_t v, uint64_t *entry, bool *pi)
{
    *entry = v & ~(uint64_t)1;
    *pi = v & 1;
}

static int fetch_entry(struct task *t, uint64_t addr, uint64_t *entry, bool *pi)
{
    uint64_t v;
    if (get_user_ulongs(t, addr, &v, 1) < 0)
        return -1;
    split_entry(v, entry, pi);
    return 0;
}

/* handle_futex_death(): -1 ends the walk (unaligned, unreadable). */
static int futex_death(struct task *t, uint64_t uaddr, bool pi, bool pending)
{
    struct mm *mm = task_mm(t);
    uint32_t uval;
    if (uaddr % 4 || copy_from_guest(mm, &uval, uaddr, sizeof uval) < 0)
        return -1;
    /* An unlock that had zeroed the word but not yet woken anyone. */
    if (pending && !pi && !uval) {
        futex_wake(t, uaddr, 1);
        return 0;
    }
    if ((uval & FUTEX_TID_MASK) != (uint32_t)t->tid)
        return 0;
    uint32_t mval = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
    if (copy_to_guest(mm, uaddr, &mval, sizeof mval) < 0)
        return -1;
    /* PI waiters get the lock in futex_pi_exit (exit_pi_state_list()). */
    if (!pi && (uval & FUTEX_WAITERS))
        futex_wake(t, uaddr, 1);
    return 0;
}

/* The futex of a list entry, a pointer of t's ABI: a 32-bit task's sum
 * wraps at 4 GiB (compat's futex_uaddr()). */
static uint64_t futex_of(struct task *t, uint64_t entry, int64_t offset)
{
    return abi_ulong(task_abi(t), entry + (uint64_t)offset);
}

/* The robust_list_head (futex.h): the list (its next pointer),
 * futex_offset (a signed long from an entry to its futex word),
 * list_op_pending. */
static void walk(struct task *t, uint64_t head)
{
    uint64_t h[ROBUST_LIST_HEAD_LONGS];
    if (get_user_ulongs(t, head, h, ROBUST_LIST_HEAD_LONGS) < 0)
        return;
    int64_t offset = abi_long(task_abi(t), h[1]);
    uint64_t entry, pending, next = 0;
    bool pi, pip, next_pi = false;
    split_entry(h[0], &entry, &pi);
    split_entry(h[2], &pending, &pip);
    for (int limit = ROBUST_LIST_LIMIT; entry != head;) {
        int rc = fetch_entry(t, entry, &next, &next_pi);
        if (entry != pending && futex_death(t, futex_of(t, entry, offset), pi, false) < 0)
            return;
        if (rc < 0)
            return;
        entry = next;
        pi = next_pi;
        if (!--limit)
            break;
    }
    if (pending)
        futex_death(t, futex_of(t, pending, offset), pip, true);
}

void futex_exit_release(struct task *t)
{
    struct process *p = t->proc;
    if (t->robust_list && p->mm && p->mm->refs >= 1)
        walk(t, t->robust_list);
    t->robust_list = 0;
    futex_pi_exit(t);
}
