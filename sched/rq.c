/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rq.c - runqueues and virtual time: round-robin per vCPU, placement, idle
 * balancing within affinity, and the machine loop's pick/account with the
 * per-switch check. */
#include "sched-int.h"
#include "sched_events.h"

#include <errno.h>

/* Compiling with -DSCHED_SWITCH_CHECK=0 removes the per-switch check so
 * bench/ can measure what it costs (K3); the policies need it otherwise. */
#ifndef SCHED_SWITCH_CHECK
#define SCHED_SWITCH_CHECK 1
#endif

static void wake_cpu(struct sched *s, unsigned cpu)
{
    /* An idle vCPU's clock stood still: work given to it starts now, at
     * the moment of the wake-up or move inside the running slice (not at
     * that slice's start, which would run it before it was woken: a task
     * on two vCPUs at once in a trace, time going back between vCPUs). */
    uint64_t now = sched__event_time(s);
    if (s->cpus[cpu].clock_ns < now)
        s->cpus[cpu].clock_ns = now;
}

static void insert_before(struct sched_task *pos, struct sched_task *t)
{
    t->rq_next = pos;
    t->rq_prev = pos->rq_prev;
    t->rq_prev->rq_next = t;
    pos->rq_prev = t;
}

/* Links t into rq's non-empty list behind every task it does not run
 * before (so behind its equals: round robin within a real-time priority,
 * fair tasks in vruntime order). A fair task never goes before the fair
 * task running at the head: only preemption (cfs.c) puts that one back. */
static void insert_sorted(struct sched_cpu *rq, struct sched_task *t)
{
    struct sched_task *pos = rq->head;
    bool keep_head = rq->cfs_curr == pos && t->cls == SCHED_CLASS_FAIR;
    bool first = true;
    do {
        if (!(first && keep_head) && sched__runs_before(t, pos))
            break;
        first = false;
        pos = pos->rq_next;
    } while (pos != rq->head);
    insert_before(pos, t);
    if (pos == rq->head && !keep_head && sched__runs_before(t, pos))
        rq->head = t;
}

/* sched_yield of the running fair task: behind every fair task queued
 * (yield_task_fair()'s skip buddy, for one pick). */
void sched__cfs_yield(struct sched *s, struct sched_task *t, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    sched__cfs_update_curr(s, cpu);
    rq->cfs_curr = NULL;
    t->cfs_repick = true;
    if (t->rq_next == t)
        return;
    t->rq_prev->rq_next = t->rq_next;
    t->rq_next->rq_prev = t->rq_prev;
    if (rq->head == t)
        rq->head = t->rq_next;
    struct sched_task *pos = rq->head;
    bool before = false;
    do {
        if (pos->cls != SCHED_CLASS_FAIR && sched__runs_before(t, pos)) {
            before = true;
            break;
        }
        pos = pos->rq_next;
    } while (pos != rq->head);
    insert_before(pos, t);
    /* Only a throttled deadline task is behind it: t is the head only if
     * nothing else but those is queued. */
    if (before && pos == rq->head)
        rq->head = t;
}

void sched__requeue(struct sched_cpu *rq, struct sched_task *t)
{
    if (t->rq_next == t)
        return;
    t->rq_prev->rq_next = t->rq_next;
    t->rq_next->rq_prev = t->rq_prev;
    if (rq->head == t)
        rq->head = t->rq_next;
    insert_sorted(rq, t);
}

void sched__enqueue(struct sched *s, struct sched_task *t, unsigned cpu, enum sched_enqueue why)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    if (!rq->head)
        wake_cpu(s, cpu);
    sched__fair_enqueue(s, t, cpu);
    sched__cfs_enqueue(s, t, cpu, why);
    sched__rt_enqueue(s, t, cpu);
    if (!rq->head) {
        t->rq_next = t->rq_prev = t;
        rq->head = t;
        cpumask_set_cpu(cpu, &s->busy);
    } else {
        struct sched_task *old = rq->head;
        insert_sorted(rq, t);
        if (rq->head != old) {
            /* check_preempt_curr(): a higher class takes the CPU at once. */
            old->need_resched = true;
            if (old == rq->cfs_curr)
                sched__cfs_displaced(s, cpu);
        }
    }
    rq->nr_running++;
    t->cpu = cpu;
    s->balance_dirty = true;
    sched__cfs_check_preempt(s, t, cpu);
    sched_ev_runqueue(s, cpu);
}

void sched__dequeue(struct sched *s, struct sched_task *t)
{
    struct sched_cpu *rq = &s->cpus[t->cpu];
    sched__fair_dequeue(s, t);
    sched__cfs_dequeue(s, t);
    if (t->rq_next == t) {
        rq->head = NULL;
        cpumask_clear_cpu(t->cpu, &s->busy);
    } else {
        t->rq_prev->rq_next = t->rq_next;
        t->rq_next->rq_prev = t->rq_prev;
        if (rq->head == t)
            rq->head = t->rq_next;
    }
    t->rq_next = t->rq_prev = NULL;
    rq->nr_running--;
    sched__cfs_dequeued(s, t->cpu);
    s->balance_dirty = true;
    sched_ev_runqueue(s, t->cpu);
}

void sched__move(struct sched *s, struct sched_task *t, unsigned cpu,
                 enum mevent_migrate_reason reason)
{
    if (s->cpus[t->cpu].last == t)
        s->cpus[t->cpu].last = NULL;
    sched_ev_migrate(s, t, t->cpu, cpu, reason);
    sched__dequeue(s, t);
    sched__enqueue(s, t, cpu, SCHED_ENQ_MOVE);
    t->nr_migrations++;
    t->need_resched = true;
}

unsigned sched__least_loaded(const struct sched *s, const struct cpumask *mask)
{
    unsigned best = SCHED_NO_CPU, cpu;
    for_each_cpu(cpu, mask)
    {
        if (best == SCHED_NO_CPU || s->cpus[cpu].nr_running < s->cpus[best].nr_running)
            best = cpu;
    }
    return best;
}

void sched__fallback_affinity(struct sched *s, struct sched_task *t, const struct cpumask *mask,
                              unsigned from)
{
    sched_ev_affinity(s, t, &t->affinity, mask, MEVENT_CAUSE_HOTPLUG);
    t->affinity = *mask;
    if (s->policy->fallback_drops_user_mask)
        t->has_saved_mask = false;
    sched__update_flags(s, t);
    if (sched__printk_ratelimit(s, "select_fallback_rq"))
        sched__log(s, KLOG_DEFAULT_LEVEL, SCHED_MSG_NO_LONGER_AFFINE, t->tid, t->comm, from);
}

unsigned sched__select_fallback(struct sched *s, struct sched_task *t, unsigned from)
{
    struct cpumask allowed;
    if (sched__allowed(s, t, &allowed))
        return cpumask_first(&allowed);
    /* select_fallback_rq()'s cpuset state (CG8): cpuset_cpus_allowed_fallback()
     * first; the message is logged once whichever resort is taken. */
    struct cpumask cs;
    if (s->cpuset_fallback && s->cpuset_fallback(s->cpuset_arg, t, &cs)) {
        struct cpumask old = t->affinity;
        t->affinity = cs;
        sched__update_flags(s, t);
        if (sched__allowed(s, t, &allowed)) {
            t->affinity = old;
            sched__fallback_affinity(s, t, &cs, from);
            return cpumask_first(&allowed);
        }
        t->affinity = old;
        sched__update_flags(s, t);
    }
    sched__fallback_affinity(s, t, s->policy->fallback_mask(s, t), from);
    if (sched__allowed(s, t, &allowed))
        return cpumask_first(&allowed);
    /* Unreachable while the policies keep a CPU for every task online;
     * sched_check_invariants reports it if not. */
    return cpumask_first(&s->online);
}

/* The first waiting task of cpu's runqueue (not the head, which is the one
 * running there) that may run on dst. */
static struct sched_task *pullable(const struct sched *s, unsigned cpu, unsigned dst)
{
    struct sched_task *head = s->cpus[cpu].head;
    for (struct sched_task *t = head->rq_next; t != head; t = t->rq_next) {
        struct cpumask allowed;
        sched__allowed(s, t, &allowed);
        if (!t->dl.throttled && cpumask_test_cpu(dst, &allowed))
            return t;
    }
    return NULL;
}

/* Idle balancing: every idle online vCPU, lowest first, pulls one waiting
 * task allowed on it from the busiest runqueue that has one (ties: lowest
 * id). Runs only after something changed, so pinned tasks cost nothing. */
static void balance(struct sched *s)
{
    s->balance_dirty = false;
    /* RT push and pull first (rt.c): they move RT tasks to vCPUs running
     * lower priorities, idle ones among them. */
    sched__rt_balance(s);
    struct cpumask idle, wanted;
    if (!cpumask_andnot(&idle, &s->online, &s->busy))
        return;
    /* Misfit tasks first (load_balance()'s migrate_misfit): only on an
     * asymmetric machine, where some vCPU's capacity is bigger. */
    if (s->asym_capacity)
        sched__misfit_balance(s, &idle);
    cpumask_clear(&wanted);
    unsigned cpu, dst;
    for_each_cpu(cpu, &s->busy)
    {
        struct sched_task *head = s->cpus[cpu].head;
        for (struct sched_task *t = head->rq_next; t != head; t = t->rq_next) {
            struct cpumask allowed;
            sched__allowed(s, t, &allowed);
            cpumask_or(&wanted, &wanted, &allowed);
        }
    }
    if (!cpumask_and(&idle, &idle, &wanted))
        return;
    for_each_cpu(dst, &idle)
    {
        struct sched_task *best = NULL;
        unsigned best_nr = 1;
        for_each_cpu(cpu, &s->busy)
        {
            if (s->cpus[cpu].nr_running <= best_nr)
                continue;
            struct sched_task *t = pullable(s, cpu, dst);
            if (t) {
                best = t;
                best_nr = s->cpus[cpu].nr_running;
            }
        }
        if (best)
            sched__move(s, best, dst, MEVENT_MIGRATE_BALANCE);
    }
    /* Every idle vCPU has had its chance: the moves above open no new one. */
    s->balance_dirty = false;
}

static uint64_t next_random(struct sched *s)
{
    /* splitmix64: small, and the same seed gives the same sequence. */
    uint64_t z = (s->rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The emulator's batch (--slice blocks), jittered; a deadline task's ends
 * when its budget does. Who runs is decided at ticks, wake-ups and blocks
 * (cfs.c), never by where a batch ends. */
static uint32_t new_slice(struct sched *s, const struct sched_task *t)
{
    uint64_t slice = s->slice_blocks;
    if (s->slice_jitter_pct) {
        uint64_t span = 2 * (uint64_t)s->slice_jitter_pct + 1;
        int64_t pct = (int64_t)(next_random(s) % span) - (int64_t)s->slice_jitter_pct;
        slice = (uint64_t)((int64_t)slice + (int64_t)slice * pct / 100);
    }
    if (t->cls == SCHED_CLASS_DEADLINE) {
        uint64_t budget = ((uint64_t)t->dl.budget + s->ns_per_block - 1) / s->ns_per_block;
        slice = budget < slice ? budget : slice;
    }
    if (slice < 1)
        slice = 1;
    return slice > UINT32_MAX ? UINT32_MAX : (uint32_t)slice;
}

static unsigned earliest_busy_cpu(const struct sched *s)
{
    unsigned best = SCHED_NO_CPU, cpu;
    uint64_t best_time = 0;
    for_each_cpu(cpu, &s->busy)
    {
        uint64_t time = sched__cpu_ready_time(s, cpu);
        if (best == SCHED_NO_CPU || time < best_time) {
            best = cpu;
            best_time = time;
        }
    }
    return best;
}

#if SCHED_SWITCH_CHECK
/* The seeds' context-switch hook and return-to-user check, for a compat task
 * on a mismatched machine under kill or fixup. */
static enum sched_decision switch_in_check(struct sched *s, struct sched_task *t, unsigned cpu)
{
    if (t->kill_pending)
        return SCHED_KILL;
    if (s->cpus[cpu].last != t)
        s->policy->on_switch_in(s, t, cpu);
    if (!t->check_pending)
        return SCHED_RUN;
    t->check_pending = false;
    if (sched_ev_check_wanted(s))
        return sched__return_to_user_traced(s, t, cpu);
    return s->policy->on_return_to_user(s, t, cpu);
}
#endif

int sched_pick(struct sched *s, struct sched_task **task, unsigned *cpu)
{
    if (s->balance_dirty)
        balance(s);
    unsigned c = earliest_busy_cpu(s);
    if (c == SCHED_NO_CPU)
        return -EAGAIN;
    struct sched_cpu *rq = &s->cpus[c];
    /* Only throttled deadline tasks: the vCPU idles until a period starts. */
    rq->clock_ns = sched__cpu_ready_time(s, c);
    if (s->nr_dl_throttled)
        sched__dl_replenish_due(s, c);
    /* Periods that ended give throttled RT tasks their time back; with
     * nothing else to run the vCPU idles until one does. */
    sched__rt_period_due(s, c);
    while (rq->head->rt_throttled) {
        rq->clock_ns = rq->rt_period_end_ns;
        sched__rt_period_due(s, c);
    }
    struct sched_task *t = rq->head;
    if (rq->clock_ns > s->now_ns)
        s->now_ns = rq->clock_ns;
    *task = t;
    *cpu = c;
#if SCHED_SWITCH_CHECK
    /* K3: the only cost for 64-bit tasks and symmetric machines. */
    if (__builtin_expect(t->switch_check, 0)) {
        enum sched_decision d = switch_in_check(s, t, c);
        if (d != SCHED_RUN)
            return (int)d;
    }
#endif
    s->switched = rq->last != t;
    if (rq->last != t) {
        rq->last = t;
        rq->nr_switches++;
        t->nr_switches++;
    }
    if (t->slice_left == 0 || t->cls == SCHED_CLASS_DEADLINE)
        t->slice_left = new_slice(s, t);
    t->need_resched = false;
    sched__cfs_pick(s, t, c);
    s->in_slice = true;
    s->slice_cpu = c;
    s->slice_now_ns = rq->clock_ns;
    sched_ev_slice_start(s, t, c);
    return SCHED_RUN;
}

void sched_account_ns(struct sched *s, struct sched_task *t, unsigned cpu, uint64_t blocks,
                      uint64_t ns)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    uint64_t start = rq->clock_ns;
    rq->clock_ns += ns;
    rq->busy_ns += ns;
    s->in_slice = false;
    sched_ev_run(s, t, cpu, ns);
    t->sum_exec_ns += ns;
    sched__fair_account(s, t, cpu, ns);
    if (t->cls == SCHED_CLASS_DEADLINE)
        sched__dl_charge(s, t, cpu, ns);
    /* RT bandwidth (rt.c): the RT task's time in this period; the runtime
     * is checked at the tick and when the task stops running here. */
    bool tick = s->tick_ns && rq->clock_ns / s->tick_ns > start / s->tick_ns;
    if (t->cls == SCHED_CLASS_RT)
        sched__rt_charge(s, cpu, start, rq->clock_ns);
    sched__rt_period_due(s, cpu);
    if (t->cls == SCHED_CLASS_RT &&
        (tick || t->state != SCHED_TASK_RUNNABLE || t->cpu != cpu || rq->head != t))
        sched__rt_check_runtime(s, cpu);
    /* A task that blocked, exited, moved or was throttled during the slice
     * is already where it belongs; only the one still at the head may go
     * behind its equals, when it yielded. */
    if (t->state != SCHED_TASK_RUNNABLE || t->cpu != cpu || rq->head != t) {
        t->yielded = false;
        /* A task that moved itself (sched_setaffinity, a 32-bit exec's
         * narrowing) leaves this vCPU when its slice ends, as the kernel's
         * migration stopper moves it once it is off the CPU: it cannot
         * start on the vCPU it goes to (idle until now: t is its head)
         * before then, or it would run on two vCPUs at once. */
        struct sched_cpu *to = t->cpu < s->nr_cpus ? &s->cpus[t->cpu] : NULL;
        if (t->state == SCHED_TASK_RUNNABLE && to && to != rq && to->head == t &&
            to->clock_ns < rq->clock_ns)
            to->clock_ns = rq->clock_ns;
    } else if (blocks >= t->slice_left || t->yielded) {
        t->slice_left = 0;
        if (t->yielded && t == rq->cfs_curr)
            sched__cfs_yield(s, t, cpu);
        else if (t->yielded)
            sched__requeue(rq, t);
        t->yielded = false;
    } else {
        t->slice_left -= (uint32_t)blocks;
    }
    /* The tick (scheduler_tick()), when the slice reached one: emu ends
     * every slice at the next tick (sched_next_event), so it comes at its
     * time whatever --slice is. */
    if (tick && rq->head) {
        sched__tick(s, cpu);
        /* trigger_load_balance(): the periodic balance of its domains. */
        sched__rebalance_domains(s, cpu);
    }
    /* Tasks waiting here may be pulled by an idle vCPU at every sync
     * quantum (Linux's nohz idle balance waits for this CPU's tick:
     * nohz_balancer_kick(); docs/scheduler.md B7). */
    bool quantum = rq->clock_ns / SCHED_SYNC_QUANTUM_NS > start / SCHED_SYNC_QUANTUM_NS;
    if ((tick || quantum) && rq->head && rq->nr_running > 1)
        s->balance_dirty = true;
}

uint64_t sched_next_time(struct sched *s)
{
    if (s->balance_dirty)
        balance(s);
    unsigned c = earliest_busy_cpu(s);
    /* When it runs: a vCPU with only throttled tasks waits for a period,
     * and timers due before then fire first. */
    return c == SCHED_NO_CPU ? UINT64_MAX : sched__cpu_ready_time(s, c);
}

void sched_advance(struct sched *s, uint64_t ns)
{
    if (ns > s->now_ns)
        s->now_ns = ns;
}
