/* SPDX-License-Identifier: GPL-2.0-or-later */
/* process_mm.c - process_madvise and process_mrelease, calls on another
 * process's memory through a pidfd, as Linux 5.15's mm/madvise.c and
 * mm/oom_kill.c answer them. Guest memory is host memory asymu never
 * pages out, so MADV_COLD and MADV_PAGEOUT (the only advice 5.15 takes
 * here) change nothing but are checked as madvise checks them; and a
 * dying process's memory goes when its last thread does, so the reaper
 * has nothing left to do early. */
#include "abi.h"
#include "abi_user.h"
#include "cred.h"
#include "event.h"
#include "mm.h"
#include "page.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <string.h>

#define MADV_COLD 20
#define MADV_PAGEOUT 21
#define UIO_MAXIOV 1024

/* do_madvise() for MADV_COLD and MADV_PAGEOUT: a hole is ENOMEM (after
 * the rest is done), a locked mapping EINVAL (can_madv_lru_vma()). */
static int64_t advise_range(struct mm *mm, uint64_t start, uint64_t len)
{
    if (start % PAGE)
        return -EINVAL;
    uint64_t end = start + PAGE_UP(len);
    if ((len && !PAGE_UP(len)) || end < start)
        return -EINVAL;
    if (end == start)
        return 0;
    int64_t unmapped = 0;
    uint64_t at = start;
    const struct vma *v = mm_vma_from(mm, start);
    if (!v)
        return -ENOMEM;
    for (; v && v->start < end; v = v->next) {
        if (v->start > at)
            unmapped = -ENOMEM;
        if (v->fork & VMA_LOCKED)
            return -EINVAL;
        at = v->end;
    }
    return at < end ? -ENOMEM : unmapped;
}

SYSCALL_DECL(process_madvise)
{
    int behavior = (int)a[3];
    uint64_t vec = a[1], vlen = a[2];
    if ((uint32_t)a[4])
        return -EINVAL;
    /* import_iovec() */
    vlen = abi_ulong(task_abi(t), vlen); /* size_t vlen */
    if (vlen > UIO_MAXIOV)
        return -EINVAL;
    uint64_t base[UIO_MAXIOV], len[UIO_MAXIOV], total = 0;
    for (uint64_t i = 0; i < vlen; i++) {
        uint64_t iov[2]; /* iov_base, iov_len */
        if (get_user_ulongs(t, vec + abi_longs_size(t, 2 * (unsigned)i), iov, 2) < 0)
            return -EFAULT;
        base[i] = iov[0];
        len[i] = iov[1];
        if ((int64_t)len[i] < 0)
            return -EINVAL;
        total += len[i];
    }
    int err;
    struct process *p = pidfd_process(t, (int)a[0], &err);
    if (!p)
        return err;
    if (behavior != MADV_COLD && behavior != MADV_PAGEOUT)
        return -EINVAL;
    if (p->zombie || !p->mm)
        return -ESRCH;
    if (p != t->proc && !cred_may_access(t->proc, p)) /* mm_access() */
        return -EACCES;
    if (!capable(t, CAP_SYS_NICE))
        return -EPERM;
    uint64_t done = 0;
    for (uint64_t i = 0; i < vlen; i++) {
        int64_t r = advise_range(p->mm, base[i], len[i]);
        if (r < 0)
            return r;
        done += len[i];
    }
    return (int64_t)(done < total ? done : total);
}

/* process_mrelease(): only a process on its way out (exit_group or a
 * fatal signal: task_will_free_mem()) may be reaped, else EINVAL; one
 * whose memory is gone already is ESRCH (find_lock_task_mm()). */
SYSCALL_DECL(process_mrelease)
{
    if ((uint32_t)a[1])
        return -EINVAL;
    int err;
    struct process *p = pidfd_process(t, (int)a[0], &err);
    if (!p)
        return err;
    if (p->zombie || !p->mm || !p->live_threads)
        return -ESRCH;
    return p->exiting ? 0 : -EINVAL;
}
