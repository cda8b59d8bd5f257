/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_events.c - builds the scheduler's events (sched_events.h), and names
 * the rule of docs/policies.md behind each affinity change and kill. */
#include "sched_events.h"

#include <string.h>

void sched_event_task(const struct sched_task *t, struct mevent_task *out)
{
    out->tid = t->tid;
    out->tgid = t->tgid;
    memcpy(out->comm, t->comm, sizeof(out->comm));
    out->compat = t->compat;
    if (t->cls == SCHED_CLASS_DEADLINE)
        out->prio = -1;
    else if (t->cls == SCHED_CLASS_RT)
        out->prio = 99 - t->rt_prio;
    else
        out->prio = 120 + t->nice;
}

uint64_t sched__event_time(const struct sched *s)
{
    return s->events.clock ? s->events.clock(s->events.clock_ctx) : s->now_ns;
}

/* The vCPU whose running task causes an event now (mevent's src_cpu). */
static unsigned event_cpu(const struct sched *s)
{
    return s->events.running_cpu ? s->events.running_cpu(s->events.clock_ctx) : MEVENT_NO_CPU;
}

static void emit(struct sched *s, struct mevent *ev, const struct sched_task *t)
{
    if (t)
        sched_event_task(t, &ev->task);
    mevent_emit(&s->events, ev);
}

void sched__emit_run(struct sched *s, const struct sched_task *t, unsigned cpu, uint64_t ns)
{
    uint64_t end = s->cpus[cpu].clock_ns;
    struct mevent ev = {.kind = MEVENT_RUN, .ts_ns = end - ns, .cpu = cpu};
    ev.run.end_ns = end;
    if (t->state == SCHED_TASK_DEAD)
        ev.run.end = MEVENT_END_DEAD;
    else if (t->state == SCHED_TASK_BLOCKED)
        ev.run.end = MEVENT_END_BLOCKED;
    else
        ev.run.end = t->cpu == cpu ? MEVENT_END_RUNNABLE : MEVENT_END_MOVED;
    sched_event_task(t, &ev.task);
    ev.task = *mevent_slice_task(&s->events, cpu, &ev.task);
    mevent_emit(&s->events, &ev);
}

void sched__emit_slice_start(struct sched *s, const struct sched_task *t, unsigned cpu)
{
    struct mevent_task snap;
    sched_event_task(t, &snap);
    mevent_slice_start(&s->events, cpu, &snap);
}

void sched__emit_migrate(struct sched *s, const struct sched_task *t, unsigned from, unsigned to,
                         enum mevent_migrate_reason reason)
{
    struct mevent ev = {.kind = MEVENT_MIGRATE, .ts_ns = sched__event_time(s), .cpu = to};
    ev.src_cpu = event_cpu(s);
    ev.migrate.from = from;
    ev.migrate.to = to;
    ev.migrate.reason = reason;
    emit(s, &ev, t);
}

void sched__emit_wakeup(struct sched *s, const struct sched_task *t, unsigned cpu, bool new_task)
{
    /* The kernel's try_to_wake_up() moves the task (sched_migrate_task)
     * before it reports the wake-up; a new task's first CPU is no move. */
    if (!new_task)
        sched_ev_migrate(s, t, t->cpu, cpu, MEVENT_MIGRATE_WAKEUP);
    if (!mevent_wanted(&s->events, MEVENT_WAKEUP))
        return;
    struct mevent ev = {.kind = MEVENT_WAKEUP, .ts_ns = sched__event_time(s), .cpu = cpu};
    ev.src_cpu = event_cpu(s);
    ev.wakeup.new_task = new_task;
    emit(s, &ev, t);
}

void sched__emit_fork(struct sched *s, const struct sched_task *parent,
                      const struct sched_task *child)
{
    if (mevent_wanted(&s->events, MEVENT_FORK)) {
        struct mevent ev = {.kind = MEVENT_FORK, .ts_ns = sched__event_time(s), .cpu = parent->cpu};
        sched_event_task(child, &ev.fork.child);
        ev.fork.thread = child->tgid == parent->tgid;
        emit(s, &ev, parent);
    }
    /* 3.1: the child starts with its parent's mask; shown as a change from
     * what a new task would have (every CPU) when it is narrower. */
    sched_ev_affinity(s, child, &s->possible, &child->affinity, MEVENT_CAUSE_FORK);
}

/* The rule of docs/policies.md that changed an affinity, for t under s's policy. */
static const char *affinity_rule(const struct sched *s, const struct sched_task *t,
                                 enum mevent_cause cause)
{
    enum sched_policy_id p = s->policy_id;
    switch (cause) {
    case MEVENT_CAUSE_EXEC:
        if (p == SCHED_POLICY_OVERRIDE)
            return "O1";
        if (p == SCHED_POLICY_LINUX66)
            return t->compat ? "G3" : "G5";
        return t->compat ? "U1" : "U3";
    case MEVENT_CAUSE_SETAFFINITY:
        if (p == SCHED_POLICY_KILL || p == SCHED_POLICY_FIXUP)
            return "K4";
        if (p == SCHED_POLICY_LINUX66)
            return "G2";
        if (p == SCHED_POLICY_OVERRIDE)
            return t->compat ? "O2" : "2.4";
        return t->compat ? "U4" : "U8";
    case MEVENT_CAUSE_CHECK:
        return "K2f";
    case MEVENT_CAUSE_HOTPLUG:
        if (p == SCHED_POLICY_OVERRIDE)
            return "O3";
        return p == SCHED_POLICY_KILL || p == SCHED_POLICY_FIXUP ? "H1" : "U6";
    case MEVENT_CAUSE_FORK:
        return "3.1";
    }
    return "?";
}

void sched__emit_affinity(struct sched *s, const struct sched_task *t, const struct cpumask *old,
                          const struct cpumask *new_mask, enum mevent_cause cause)
{
    struct mevent ev = {.kind = MEVENT_AFFINITY, .ts_ns = sched__event_time(s), .cpu = t->cpu};
    ev.src_cpu = event_cpu(s);
    ev.affinity.old_mask = old;
    ev.affinity.new_mask = new_mask;
    ev.affinity.cause = cause;
    ev.affinity.rule = affinity_rule(s, t, cause);
    emit(s, &ev, t);
}

void sched__emit_kill(struct sched *s, const struct sched_task *t, unsigned cpu)
{
    struct cpumask m_online;
    bool m_left = cpumask_and(&m_online, &s->aarch32, &s->online);
    struct mevent ev = {.kind = MEVENT_KILL, .ts_ns = s->cpus[cpu].clock_ns, .cpu = cpu};
    /* H2: M has no online CPU left; else the policy's own check. */
    ev.kill.rule = !m_left ? "H2" : s->policy_id == SCHED_POLICY_FIXUP ? "K2f" : "K2";
    emit(s, &ev, t);
}

enum sched_decision sched__return_to_user_traced(struct sched *s, struct sched_task *t,
                                                 unsigned cpu)
{
    struct cpumask old = t->affinity;
    enum sched_decision d = s->policy->on_return_to_user(s, t, cpu);
    sched_ev_affinity(s, t, &old, &t->affinity, MEVENT_CAUSE_CHECK);
    if (d == SCHED_KILL && mevent_wanted(&s->events, MEVENT_KILL))
        sched__emit_kill(s, t, cpu);
    return d;
}

void sched__emit_hotplug(struct sched *s, unsigned cpu, bool online)
{
    struct mevent ev = {.kind = MEVENT_HOTPLUG, .ts_ns = sched__event_time(s), .cpu = cpu};
    ev.hotplug.online = online;
    emit(s, &ev, NULL);
}

void sched__emit_frequency(struct sched *s, unsigned cpu, uint32_t khz)
{
    struct mevent ev = {.kind = MEVENT_FREQUENCY, .ts_ns = sched__event_time(s), .cpu = cpu,
                        .src_cpu = event_cpu(s)};
    ev.frequency.khz = khz;
    emit(s, &ev, NULL);
}

void sched__emit_stat_runtime(struct sched *s, const struct sched_task *t, unsigned cpu,
                              uint64_t now, uint64_t delta)
{
    struct mevent ev = {.kind = MEVENT_STAT_RUNTIME, .ts_ns = now, .cpu = cpu};
    ev.stat.runtime_ns = delta;
    ev.stat.vruntime = t->vruntime;
    emit(s, &ev, t);
}

void sched__emit_runqueue(struct sched *s, unsigned cpu)
{
    uint64_t now = sched__event_time(s);
    /* An idle vCPU's clock may be behind: the count changes when it wakes. */
    struct mevent ev = {.kind = MEVENT_RUNQUEUE,
                        .cpu = cpu,
                        .ts_ns = now > s->cpus[cpu].clock_ns ? now : s->cpus[cpu].clock_ns};
    ev.runqueue.nr_running = s->cpus[cpu].nr_running;
    emit(s, &ev, NULL);
}
