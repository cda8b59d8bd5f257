/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_mlock.c - mlock(2), mlock2, munlock, mlockall and munlockall as
 * Linux 5.15's mm/mlock.c answers them. Guest memory is host memory that
 * asymu never swaps, so locking changes no residency: it marks the
 * mappings (VMA_LOCKED), counted in /proc/PID/status's VmLck and against
 * RLIMIT_MEMLOCK for a process without CAP_IPC_LOCK (cred.h). A forked child does not inherit the locks
 * (dup_mmap() clears VM_LOCKED). MCL_FUTURE is accepted and kept with the
 * address space; new mappings are not locked by it (docs/processes.md). */
#include "abi.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"
#include "page.h"

#include <errno.h>

#define GUEST_MLOCK_ONFAULT 1
#define GUEST_MCL_CURRENT 1
#define GUEST_MCL_FUTURE 2
#define GUEST_MCL_ONFAULT 4
#define GUEST_RLIMIT_MEMLOCK 8

uint64_t mm_locked_bytes(const struct mm *mm)
{
    uint64_t n = 0;
    for (const struct vma *v = mm->vmas; v; v = v->next)
        if (v->fork & VMA_LOCKED)
            n += v->end - v->start;
    return n;
}

/* Bytes of [start, end) already locked (count_mm_mlocked_page_nr()). */
static uint64_t locked_within(const struct mm *mm, uint64_t start, uint64_t end)
{
    uint64_t n = 0;
    for (const struct vma *v = mm_vma_from(mm, start); v && v->start < end; v = v->next)
        if (v->fork & VMA_LOCKED)
            n += (v->end < end ? v->end : end) - (v->start > start ? v->start : start);
    return n;
}

static bool cap_ipc_lock(const struct task *t)
{
    return capable(t, CAP_IPC_LOCK);
}

/* can_do_mlock(): CAP_IPC_LOCK or a limit above 0. */
static bool can_do_mlock(const struct task *t)
{
    return cap_ipc_lock(t) || t->proc->rlim[GUEST_RLIMIT_MEMLOCK].cur != 0;
}

/* Where the first hole of [start, end) begins, end if none. */
static uint64_t mapped_until(const struct mm *mm, uint64_t start, uint64_t end)
{
    uint64_t at = start;
    for (const struct vma *v = mm_vma_from(mm, start); v && v->start <= at && at < end; v = v->next)
        at = v->end;
    return at < end ? at : end;
}

/* apply_vma_lock_flags(): the flag on each mapping from start to the first
 * hole, which is -ENOMEM. */
static int64_t apply(struct mm *mm, uint64_t start, uint64_t end, bool lock)
{
    uint64_t until = mapped_until(mm, start, end);
    int err = until > start ? mm_set_fork(mm, start, until - start, lock ? VMA_LOCKED : 0,
                                          lock ? 0 : VMA_LOCKED)
                            : 0;
    return err < 0 ? err : until < end ? -ENOMEM : 0;
}

/* [start, start+len) widened to pages (len counted from start's page), or
 * false when it wraps the guest's unsigned long (its last byte past it). */
static bool page_range(struct task *t, uint64_t start, uint64_t len, uint64_t *s,
                       uint64_t *e)
{
    *s = start & ~(uint64_t)(PAGE - 1);
    uint64_t n = len + (start - *s);
    uint64_t aligned = (n + PAGE - 1) & ~(uint64_t)(PAGE - 1);
    *e = *s + aligned;
    return n >= len && aligned >= n && *e >= *s &&
           !(*e && *e - 1 > abi_ulong_max(task_abi(t)));
}

/* do_mlock(). */
static int64_t do_mlock(struct task *t, uint64_t start, uint64_t len)
{
    if (!can_do_mlock(t))
        return -EPERM;
    uint64_t s, e;
    if (!page_range(t, start, len, &s, &e))
        return -ENOMEM;
    struct mm *mm = task_mm(t);
    uint64_t limit = t->proc->rlim[GUEST_RLIMIT_MEMLOCK].cur;
    uint64_t locked = (e - s) + mm_locked_bytes(mm);
    if (!cap_ipc_lock(t) && locked > limit)
        locked -= locked_within(mm, s, e);
    if (!cap_ipc_lock(t) && locked > limit)
        return -ENOMEM;
    return apply(mm, s, e, true);
}

SYSCALL_DECL(mlock)
{
    return do_mlock(t, a[0], a[1]);
}

SYSCALL_DECL(mlock2)
{
    if (a[2] & ~(uint64_t)GUEST_MLOCK_ONFAULT)
        return -EINVAL;
    return do_mlock(t, a[0], a[1]);
}

SYSCALL_DECL(munlock)
{
    uint64_t s, e;
    if (!page_range(t, a[0], a[1], &s, &e))
        return -ENOMEM;
    return apply(task_mm(t), s, e, false);
}

/* Every mapping's flag (apply_mlockall_flags()): one call over the whole
 * mapped span, since setting the flag merges and frees VMAs. */
static int lock_all(struct mm *mm, bool lock)
{
    const struct vma *last = mm->vmas;
    while (last && last->next)
        last = last->next;
    if (!last)
        return 0;
    uint64_t start = mm->vmas->start;
    return mm_set_fork(mm, start, last->end - start, lock ? VMA_LOCKED : 0, lock ? 0 : VMA_LOCKED);
}

SYSCALL_DECL(mlockall)
{
    uint64_t flags = a[0];
    const uint64_t known = GUEST_MCL_CURRENT | GUEST_MCL_FUTURE | GUEST_MCL_ONFAULT;
    if (!flags || (flags & ~known) || flags == GUEST_MCL_ONFAULT)
        return -EINVAL;
    if (!can_do_mlock(t))
        return -EPERM;
    struct mm *mm = task_mm(t);
    uint64_t total = 0;
    for (const struct vma *v = mm->vmas; v; v = v->next)
        total += v->end - v->start;
    if ((flags & GUEST_MCL_CURRENT) && !cap_ipc_lock(t) &&
        total > t->proc->rlim[GUEST_RLIMIT_MEMLOCK].cur)
        return -ENOMEM;
    mm->mlock_future = flags & GUEST_MCL_FUTURE;
    return flags & GUEST_MCL_CURRENT ? lock_all(mm, true) : 0;
}

SYSCALL_DECL(munlockall)
{
    (void)a;
    task_mm(t)->mlock_future = false;
    return lock_all(task_mm(t), false);
}
