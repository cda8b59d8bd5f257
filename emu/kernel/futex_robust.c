/* SPDX-License-Identifier: GPL-2.0-or-later */
/* futex_robust.c - the robust futex list a thread registered with
 * set_robust_list, walked when it exits or execs (Linux 5.15's
 * exit_robust_list() and compat_exit_robust_list()): each lock it still
 * holds gets FUTEX_OWNER_DIED, keeps FUTEX_WAITERS, and a plain (not PI)
 * one wakes a waiter, whose pthread_mutex_lock then says EOWNERDEAD. The
 * PI locks then go to their top waiters (futex_pi_exit). */
#include "futex.h"

#include "abi.h"
#include "mm.h"
#include "signals.h"
#include "task.h"

/* ROBUST_LIST_LIMIT: a circular or endless list ends here. */
#define ROBUST_LIST_LIMIT 2048

/* A user pointer or long of the task's ABI (compat_uptr_t and
 * compat_long_t for a 32-bit task). */
static int fetch(struct mm *mm, unsigned word, uint64_t addr, uint64_t *out)
{
    if (word == 8)
        return copy_from_guest(mm, out, addr, 8);
    uint32_t v;
    if (copy_from_guest(mm, &v, addr, 4) < 0)
        return -1;
    *out = v;
    return 0;
}

/* fetch_robust_entry(): bit 0 of a list pointer says the lock is PI. */
static int fetch_entry(struct mm *mm, unsigned word, uint64_t addr, uint64_t *entry, bool *pi)
{
    uint64_t v;
    if (fetch(mm, word, addr, &v) < 0)
        return -1;
    *entry = v & ~(uint64_t)1;
    *pi = v & 1;
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

/* The robust_list_head: the list (its next pointer), futex_offset (a
 * signed long from an entry to its futex word), list_op_pending. */
static void walk(struct task *t, uint64_t head)
{
    struct mm *mm = task_mm(t);
    unsigned word = task_abi(t)->word;
    uint64_t entry, pending, offset, next = 0;
    bool pi, pip, next_pi = false;
    if (fetch_entry(mm, word, head, &entry, &pi) < 0 ||
        fetch(mm, word, head + word, &offset) < 0 ||
        fetch_entry(mm, word, head + 2 * word, &pending, &pip) < 0)
        return;
    if (word == 4)
        offset = (uint64_t)(int64_t)(int32_t)offset;
    /* The futex of an entry; a 32-bit task's sum wraps at 4 GiB
     * (compat's futex_uaddr()). */
    uint64_t mask = word == 8 ? UINT64_MAX : UINT32_MAX;
    for (int limit = ROBUST_LIST_LIMIT; entry != head;) {
        int rc = fetch_entry(mm, word, entry, &next, &next_pi);
        if (entry != pending && futex_death(t, (entry + offset) & mask, pi, false) < 0)
            return;
        if (rc < 0)
            return;
        entry = next;
        pi = next_pi;
        if (!--limit)
            break;
    }
    if (pending)
        futex_death(t, (pending + offset) & mask, pip, true);
}

void futex_exit_release(struct task *t)
{
    struct process *p = t->proc;
    if (t->robust_list && p->mm && p->mm->refs >= 1)
        walk(t, t->robust_list);
    t->robust_list = 0;
    futex_pi_exit(t);
}
