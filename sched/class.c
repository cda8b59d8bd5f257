/* SPDX-License-Identifier: GPL-2.0-or-later */
/* class.c - the order of the scheduling classes on a runqueue (deadline by
 * earliest deadline, then real-time by priority, then fair), class changes
 * and what a child inherits. */
#include "sched-int.h"

/* Higher runs first; a throttled deadline task runs after everything but
 * the real-time tasks of a throttled runqueue (rt.c). */
static int rank(const struct sched_task *t)
{
    if (t->cls == SCHED_CLASS_DEADLINE && t->dl.throttled)
        return -1;
    if (t->cls == SCHED_CLASS_RT && t->rt_throttled)
        return -2;
    return (int)t->cls;
}

bool sched__runs_before(const struct sched_task *a, const struct sched_task *b)
{
    int ra = rank(a), rb = rank(b);
    if (ra != rb)
        return ra > rb;
    switch (ra) {
    case SCHED_CLASS_DEADLINE:
        return a->dl.abs_deadline < b->dl.abs_deadline;
    case SCHED_CLASS_RT:
    case -2:
        /* FIFO and RR share the priorities: only the number counts. */
        return a->rt_prio > b->rt_prio;
    case -1:
        return a->dl.replenish_at < b->dl.replenish_at;
    default:
        /* The fair class: the smaller vruntime (entity_before()). */
        return (int64_t)(a->vruntime - b->vruntime) < 0;
    }
}

void sched_task_set_class(struct sched *s, struct sched_task *t, enum sched_class cls, int prio,
                          bool rr)
{
    sched__dl_release(s, t, t->state == SCHED_TASK_RUNNABLE);
    t->cls = cls;
    t->rt_prio = cls == SCHED_CLASS_RT ? prio : 0;
    t->rr = cls == SCHED_CLASS_RT && rr;
    t->rr_left_ns = SCHED_RR_TIMESLICE_NS;
    t->rr_ticks = 0;
    if (t->state != SCHED_TASK_RUNNABLE)
        return;
    struct sched_cpu *rq = &s->cpus[t->cpu];
    struct sched_task *head = rq->head;
    /* The running fair task leaving the class (or another class taking the
     * head) is put back first (put_prev_task_fair()). */
    if (rq->cfs_curr)
        sched__cfs_displaced(s, t->cpu);
    /* Joining RT on a throttled runqueue: throttled too (rt.c). */
    sched__rt_enqueue(s, t, t->cpu);
    sched__requeue(rq, t);
    /* A priority that rose or fell may push or pull (switched_to_rt(),
     * prio_changed_rt()). */
    s->balance_dirty = true;
    /* Whoever ran there before a change of order gives the CPU up. */
    head->need_resched = true;
    t->need_resched = true;
}

void sched__fork_class(const struct sched_task *parent, struct sched_task *child)
{
    child->cls = parent->cls;
    child->rt_prio = parent->rt_prio;
    child->rr = parent->rr;
    child->rr_left_ns = SCHED_RR_TIMESLICE_NS;
    child->rr_ticks = 0;
    child->util_min = parent->util_min;
    child->util_max = parent->util_max;
    child->util_min_set = parent->util_min_set;
    child->util_max_set = parent->util_max_set;
    /* SCHED_IDLE and SCHED_BATCH survive reset-on-fork (sched_fork() resets
     * only real-time and deadline policies). */
    child->idle_policy = parent->idle_policy;
    child->batch_policy = parent->batch_policy;
    if (!parent->reset_on_fork)
        return;
    /* SCHED_FLAG_RESET_ON_FORK: the child is SCHED_OTHER without negative
     * nice and default clamps, and does not reset its own children. */
    if (child->cls != SCHED_CLASS_FAIR || child->nice < 0)
        child->nice = 0;
    child->cls = SCHED_CLASS_FAIR;
    child->rt_prio = 0;
    child->rr = false;
    child->util_min_set = child->util_max_set = false;
}
