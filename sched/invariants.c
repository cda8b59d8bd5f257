/* SPDX-License-Identifier: GPL-2.0-or-later */
/* invariants.c - the invariant checker (--check-invariants): compat tasks
 * only inside M (3.3), runnable tasks on exactly one online runqueue inside
 * their affinity, and runqueue bookkeeping that adds up. */
#include "sched-int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

struct report {
    char *buf;
    size_t len, used;
    unsigned count;
};

static void violation(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void violation(struct report *r, const char *fmt, ...)
{
    r->count++;
    if (!r->buf || r->used + 1 >= r->len)
        return;
    if (r->used > 0)
        r->buf[r->used++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->buf + r->used, r->len - r->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        r->used += (size_t)n < r->len - r->used ? (size_t)n : r->len - r->used - 1;
}

static void check_runqueues(const struct sched *s, struct report *r)
{
    for (unsigned cpu = 0; cpu < s->nr_cpus; cpu++) {
        const struct sched_cpu *rq = &s->cpus[cpu];
        unsigned n = 0, idle = 0;
        struct sched_task *t = rq->head;
        /* Bounded, so a corrupt ring is reported instead of looping. */
        while (t && n <= s->nr_tasks) {
            n++;
            idle += t->idle_policy;
            t->check_mark++;
            if (t->state != SCHED_TASK_RUNNABLE)
                violation(r, "cpu%u: task %d (%s) is on the runqueue but not runnable", cpu, t->tid,
                          t->comm);
            if (t->cpu != cpu)
                violation(r, "cpu%u: task %d (%s) is on the runqueue but says cpu%u", cpu, t->tid,
                          t->comm, t->cpu);
            t = t->rq_next;
            if (t == rq->head)
                break;
        }
        if (n != rq->nr_running)
            violation(r, "cpu%u: nr_running is %u but the runqueue holds %u", cpu, rq->nr_running,
                      n);
        if (idle != rq->nr_idle_policy)
            violation(r, "cpu%u: nr_idle_policy is %u but the runqueue holds %u SCHED_IDLE tasks",
                      cpu, rq->nr_idle_policy, idle);
        if (rq->misfit_util && !s->asym_capacity)
            violation(r, "cpu%u: a misfit task on a machine of one capacity", cpu);
        if (n > 0 && !sched_cpu_is_online(s, cpu))
            violation(r, "cpu%u: offline but holds %u runnable tasks", cpu, n);
        if ((n > 0) != cpumask_test_cpu(cpu, &s->busy))
            violation(r, "cpu%u: busy mask disagrees with the runqueue", cpu);
    }
}

/* 3.3: a compat task is never about to execute outside M. Under kill and
 * fixup it may sit there until the check, which runs when it is switched in
 * (it is not the last task that ran there) or when it is flagged. */
static void check_compat(const struct sched *s, const struct sched_task *t, struct report *r)
{
    if (!s->aarch32_el0_allowed) {
        violation(r, "task %d (%s) is 32-bit on a machine without 32-bit EL0", t->tid, t->comm);
        return;
    }
    if (t->state != SCHED_TASK_RUNNABLE || cpumask_test_cpu(t->cpu, &s->aarch32))
        return;
    bool checked_first =
        t->switch_check && (t->kill_pending || t->check_pending || s->cpus[t->cpu].last != t);
    if (!checked_first)
        violation(r, "task %d (%s) is 32-bit and placed on cpu%u, outside M", t->tid, t->comm,
                  t->cpu);
}

int sched_check_invariants(const struct sched *s, char *report, size_t len)
{
    struct report r = {report, len, 0, 0};
    if (report && len > 0)
        report[0] = '\0';
    struct sched_task *t = s->tasks;
    for (unsigned i = 0; t && i < s->nr_tasks; i++, t = t->all_next)
        t->check_mark = 0;
    check_runqueues(s, &r);

    unsigned n = 0;
    t = s->tasks;
    while (t && n <= s->nr_tasks) {
        n++;
        bool runnable = t->state == SCHED_TASK_RUNNABLE;
        if (runnable && t->check_mark != 1)
            violation(&r, "task %d (%s) is runnable but on %u runqueues", t->tid, t->comm,
                      t->check_mark);
        if (!runnable && t->check_mark != 0)
            violation(&r, "task %d (%s) is not runnable but on a runqueue", t->tid, t->comm);
        if (runnable && !cpumask_test_cpu(t->cpu, &t->affinity))
            violation(&r, "task %d (%s) is on cpu%u, outside its affinity", t->tid, t->comm,
                      t->cpu);
        if (t->compat)
            check_compat(s, t, &r);
        t = t->all_next;
        if (t == s->tasks)
            break;
    }
    if (n != s->nr_tasks)
        violation(&r, "the task list holds %u tasks, nr_tasks is %u", n, s->nr_tasks);
    return r.count ? -EINVAL : 0;
}
