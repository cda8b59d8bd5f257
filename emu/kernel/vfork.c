/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vfork.c - the parent's wait in vfork (CLONE_VFORK): it sleeps until the
 * child execs or exits, and only a fatal signal ends the sleep earlier
 * (Linux's wait_for_vfork_done is killable, not interruptible: other
 * signals stay pending until vfork returns). The two links between parent
 * and child are cleared by whichever side goes first (lifetime.h). */
#include "lifetime.h"
#include "task.h"

static int64_t resume_vfork(struct task *t)
{
    /* vfork_release clears vfork_child; the child's tid is the result. */
    return t->vfork_child ? RESUME_BLOCK : (int64_t)t->wait_args[0];
}

int64_t vfork_wait(struct task *t, struct process *child, int child_tid)
{
    child->vfork_waiter = t;
    t->vfork_child = child;
    t->wait_args[0] = (uint64_t)child_tid;
    task_block(t, resume_vfork, child, 0);
    return -EBLOCK;
}

void vfork_release(struct process *child)
{
    struct task *w = child->vfork_waiter;
    child->vfork_waiter = NULL;
    if (w) {
        w->vfork_child = NULL;
        task_wake(w);
    }
}

void vfork_abandon(struct task *t)
{
    if (t->vfork_child)
        t->vfork_child->vfork_waiter = NULL;
    t->vfork_child = NULL;
}
