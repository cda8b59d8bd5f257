/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kcmp.c - kcmp(2) as Linux 5.15's kernel/kcmp.c answers it: whether two
 * tasks share a kernel object. 0 is the same object; otherwise 1 or 2
 * order the two (kcmp_ptr()) by the objects' host addresses, an order that
 * holds within a run (so they sort, as on Linux) but need not be the same
 * from one run to the next: programs compare with 0. The objects are
 * asymu's: the address space (mm), the descriptor table, the signal
 * handlers, the process for KCMP_FS (cwd and root are per process), the
 * io_context ioprio_set creates (ioprio.c; none is one and the same NULL
 * object) and the SEM_UNDO list (none, or the process's). */
#include "cred.h"
#include "event.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "reopen.h"
#include "syscalls.h"
#include "sysv_ipc.h"
#include "task.h"

#include <errno.h>

#define KCMP_FILE 0
#define KCMP_VM 1
#define KCMP_FILES 2
#define KCMP_FS 3
#define KCMP_SIGHAND 4
#define KCMP_IO 5
#define KCMP_SYSVSEM 6
#define KCMP_EPOLL_TFD 7

static int64_t order(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return (x < y) | (x > y) << 1;
}

/* The fd'th open file of p (get_file_raw_ptr()). */
static struct file *file_of(struct task *t, struct process *p, uint64_t fd)
{
    return fd < FD_MAX ? file_of_process(t, p->pid, (int)fd) : NULL;
}

/* kcmp_epoll_target(): idx2 points to struct kcmp_epoll_slot
 * {u32 efd; u32 tfd; u64 toff}, a target of task2's epoll efd. */
static int64_t epoll_tfd(struct task *t, struct process *p1, struct process *p2, uint64_t idx1,
                         uint64_t slot_at)
{
    struct file *f = file_of(t, p1, idx1);
    if (!f)
        return -EBADF;
    struct {
        uint32_t efd, tfd;
        uint64_t toff;
    } slot;
    if (copy_from_guest(task_mm(t), &slot, slot_at, sizeof slot) < 0)
        return -EFAULT;
    struct file *ep = file_of(t, p2, slot.efd);
    if (!ep)
        return -EBADF;
    int err;
    struct file *target = epoll_target(ep, (int)slot.tfd, slot.toff, &err);
    return target ? order(f, target) : err;
}

static const void *io_context(const struct task *p)
{
    return p->ioprio ? (const void *)p : NULL;
}

SYSCALL_DECL(kcmp)
{
    struct task *t1 = task_find_unreaped(t->machine, (int)a[0]);
    struct task *t2 = task_find_unreaped(t->machine, (int)a[1]);
    if (!t1 || !t2)
        return -ESRCH;
    struct process *p1 = t1->proc, *p2 = t2->proc;
    if (!cred_may_access(t->proc, p1) || !cred_may_access(t->proc, p2))
        return -EPERM;
    switch ((int)a[2]) {
    case KCMP_FILE: {
        struct file *f1 = file_of(t, p1, a[3]), *f2 = file_of(t, p2, a[4]);
        return f1 && f2 ? order(f1, f2) : -EBADF;
    }
    case KCMP_VM:
        return order(p1->mm, p2->mm);
    case KCMP_FILES:
        return order(p1->files, p2->files);
    case KCMP_FS:
        return order(p1->zombie ? NULL : p1, p2->zombie ? NULL : p2);
    case KCMP_SIGHAND:
        return order(p1->zombie ? NULL : p1->sighand, p2->zombie ? NULL : p2->sighand);
    case KCMP_IO:
        return order(io_context(t1), io_context(t2));
    case KCMP_SYSVSEM:
        return order(sem_process_has_undo(p1) ? p1 : NULL, sem_process_has_undo(p2) ? p2 : NULL);
    case KCMP_EPOLL_TFD:
        return epoll_tfd(t, p1, p2, a[3], a[4]);
    default:
        return -EINVAL;
    }
}
