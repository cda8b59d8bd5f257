/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ioprio.c - ioprio_set and ioprio_get as Linux 5.15's block/ioprio.c
 * answers them. The machine has no block device and no I/O scheduler,
 * so a priority is only kept and reported: per thread, in what Linux
 * keeps in the task's io_context. A task has none until ioprio_set gives
 * it one, and get_task_ioprio() then reports IOPRIO_CLASS_NONE with
 * IOPRIO_NORM (4) whatever its nice; fork copies a priority of a real
 * class (copy_io()), or the context itself with CLONE_IO. */
#include "cred.h"
#include "machine.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>

#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_PRIO_MASK ((1 << IOPRIO_CLASS_SHIFT) - 1)
#define IOPRIO_CLASS_NONE 0
#define IOPRIO_CLASS_RT 1
#define IOPRIO_CLASS_BE 2
#define IOPRIO_CLASS_IDLE 3
#define IOPRIO_BE_NR 8
#define IOPRIO_NORM 4
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_WHO_PGRP 2
#define IOPRIO_WHO_USER 3
#define CLONE_IO 0x80000000ull

/* task->ioprio holds the value with this bit: the task has an io_context. */
#define IOC_SET 0x40000000

static int class_of(int prio) { return prio >> IOPRIO_CLASS_SHIFT; }

int ioprio_fork(int parent, uint64_t clone_flags)
{
    if (clone_flags & CLONE_IO)
        return parent;
    return (parent & IOC_SET) && class_of(parent & ~IOC_SET) != IOPRIO_CLASS_NONE ? parent : 0;
}

/* ioprio_check_cap() */
static int check(struct task *t, int prio)
{
    int data = prio & IOPRIO_PRIO_MASK;
    switch (class_of(prio)) {
    case IOPRIO_CLASS_RT:
        if (!(capable(t, CAP_SYS_NICE) || capable(t, CAP_SYS_ADMIN)))
            return -EPERM;
        __attribute__((fallthrough)); /* RT has a level too */
    case IOPRIO_CLASS_BE:
        return data >= IOPRIO_BE_NR || data < 0 ? -EINVAL : 0;
    case IOPRIO_CLASS_IDLE:
        return 0;
    case IOPRIO_CLASS_NONE:
        return data ? -EINVAL : 0;
    default:
        return -EINVAL;
    }
}

/* set_task_ioprio(): the caller's real or effective uid must be the
 * target's real uid, or CAP_SYS_NICE. */
static int set_one(struct task *t, struct task *p, int prio)
{
    uint32_t uid = p->proc->cred.u.real;
    if (uid != t->proc->cred.u.eff && uid != t->proc->cred.u.real &&
        !capable(t, CAP_SYS_NICE))
        return -EPERM;
    p->ioprio = prio | IOC_SET;
    return 0;
}

/* get_task_ioprio() */
static int get_one(const struct task *p)
{
    return (p->ioprio & IOC_SET) ? p->ioprio & ~IOC_SET : IOPRIO_NORM; /* NONE, NORM */
}

/* ioprio_best(): a priority of class NONE counts as BE at IOPRIO_NORM. */
static int best(int a, int b)
{
    int be_norm = IOPRIO_CLASS_BE << IOPRIO_CLASS_SHIFT | IOPRIO_NORM;
    a = class_of(a) == IOPRIO_CLASS_NONE ? be_norm : a;
    b = class_of(b) == IOPRIO_CLASS_NONE ? be_norm : b;
    return a < b ? a : b;
}

static bool alive(const struct task *p)
{
    return p->state != TASK_DEAD && !p->proc->zombie;
}

/* Whether thread p is one that which/who names (PGRP and USER; for USER,
 * who is a real uid). */
static bool named(const struct task *t, const struct task *p, int which, int who)
{
    if (!alive(p))
        return false;
    if (which == IOPRIO_WHO_PGRP)
        return p->proc->pgid == (who ? who : t->proc->pgid);
    return p->proc->cred.u.real == (uint32_t)who;
}

SYSCALL_DECL(ioprio_set)
{
    int which = (int)a[0], who = (int)a[1], prio = (int)a[2];
    int err = check(t, prio);
    if (err)
        return err;
    if (which == IOPRIO_WHO_PROCESS) {
        struct task *p = who ? task_find_unreaped(t->machine, who) : t;
        return p ? set_one(t, p, prio) : -ESRCH;
    }
    if (which != IOPRIO_WHO_PGRP && which != IOPRIO_WHO_USER)
        return -EINVAL;
    if (which == IOPRIO_WHO_USER && who == -1)
        return -ESRCH; /* make_kuid: not a valid uid */
    if (which == IOPRIO_WHO_USER && !who)
        who = (int)t->proc->cred.u.real;
    int ret = -ESRCH;
    for (struct task *p = t->machine->tasks; p; p = p->next_all) {
        if (!named(t, p, which, who))
            continue;
        if ((ret = set_one(t, p, prio)))
            return ret;
    }
    return ret;
}

SYSCALL_DECL(ioprio_get)
{
    int which = (int)a[0], who = (int)a[1];
    if (which == IOPRIO_WHO_PROCESS) {
        struct task *p = who ? task_find_unreaped(t->machine, who) : t;
        return p ? get_one(p) : -ESRCH;
    }
    if (which != IOPRIO_WHO_PGRP && which != IOPRIO_WHO_USER)
        return -EINVAL;
    if (which == IOPRIO_WHO_USER && !who)
        who = (int)t->proc->cred.u.real;
    int ret = -ESRCH;
    for (struct task *p = t->machine->tasks; p; p = p->next_all)
        if (named(t, p, which, who))
            ret = ret == -ESRCH ? get_one(p) : best(ret, get_one(p));
    return ret;
}
