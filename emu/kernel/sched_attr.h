/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_attr.h - scheduling classes from the syscalls' side: sched_setattr
 * and sched_getattr (struct sched_attr, its size protocol and flags), the
 * shared setter behind sched_setscheduler/sched_setparam, and what a forked
 * task inherits. The class mechanics are sched/'s (sched_class.h). */
#ifndef ASYMU_SCHED_ATTR_H
#define ASYMU_SCHED_ATTR_H

#include "syscalls.h"

struct task;

/* The policies of sched_setscheduler(2)/sched_setattr(2). */
enum {
    SCHED_OTHER,
    SCHED_FIFO,
    SCHED_RR,
    SCHED_BATCH,
    SCHED_IDLE = 5,
    SCHED_DEADLINE = 6,
};
/* sched_setscheduler's policy bit for SCHED_FLAG_RESET_ON_FORK. */
#define SCHED_RESET_ON_FORK 0x40000000

/* sched_setscheduler (policy >= 0, may carry SCHED_RESET_ON_FORK) and
 * sched_setparam (policy -1): one priority read from uparam. */
int64_t sched_attr_setscheduler(struct task *t, int pid, int policy, uint64_t uparam);
/* The policy sched_getscheduler reports, reset-on-fork bit included. */
int sched_attr_policy_of(const struct task *target);
/* The priority range of a policy: -EINVAL for an unknown one. */
int sched_attr_priority_range(int policy, bool max);
/* clone: the child's policy and priority (SCHED_OTHER after a reset-on-fork
 * parent in a real-time or deadline class). The scheduler's side is
 * sched_task_fork's. */
void sched_attr_fork(struct task *child, const struct task *parent);

SYSCALL_DECL(sched_setattr);
SYSCALL_DECL(sched_getattr);

#endif
