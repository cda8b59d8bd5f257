/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rt.c - the real-time class across vCPUs as Linux 5.15's kernel/sched/rt.c
 * and cpupri.c have it (docs/scheduler.md, rules R1-R8): wake-up and fork
 * placement (select_task_rq_rt(), find_lowest_rq(), with
 * rt_task_fits_capacity() on an asymmetric machine), push and pull of
 * waiting RT tasks to and from vCPUs running lower priorities, and RT
 * throttling (sched_rt_runtime_us of every sched_rt_period_us). Every
 * choice is among the task's allowed vCPUs (sched__allowed(): affinity,
 * online, task_cpu_possible_mask()), so a 32-bit task stays on M. */
#include "sched-int.h"
#include "sched_events.h"

/* cpupri's CPUPRI_NORMAL: a vCPU with no RT task queued, idle or running
 * fair tasks (5.15 has no separate CPUPRI_IDLE). */
#define CPUPRI_NORMAL 0

/* The vCPU's value in cpupri: rt_rq->highest_prio.curr, the highest
 * priority of the RT tasks queued there (running or not, throttled too),
 * as an rt_priority 1..99; CPUPRI_NORMAL without one. */
static int cpupri(const struct sched *s, unsigned cpu)
{
    const struct sched_task *h = s->cpus[cpu].head, *t = h;
    int best = CPUPRI_NORMAL;
    if (!t)
        return best;
    do {
        if (t->cls == SCHED_CLASS_RT && t->rt_prio > best)
            best = t->rt_prio;
        t = t->rq_next;
    } while (t != h);
    return best;
}

/* rt_task_fits_capacity(): on an asymmetric machine the vCPU's capacity
 * (capacity_orig_of()) must reach min(UCLAMP_MIN, UCLAMP_MAX); an RT task's
 * default UCLAMP_MIN is 1024, so by default only the biggest vCPUs fit. */
static bool rt_fits(const struct sched *s, const struct sched_task *t, unsigned cpu)
{
    if (!s->asym_capacity)
        return true;
    unsigned lo = sched__uclamp_min(t), hi = sched__uclamp_max(t);
    return s->cpus[cpu].capacity >= (lo < hi ? lo : hi);
}

/* cpupri_find_fitness(): the allowed vCPUs of the lowest cpupri below t's
 * priority (that t fits, on an asymmetric machine); failing any that fits,
 * the same search without the fitness (priority before capacity). */
static bool lowest_mask(const struct sched *s, const struct sched_task *t,
                        const struct cpumask *allowed, bool fitness, struct cpumask *out)
{
    int pri[NR_CPUS_MAX], low = t->rt_prio;
    unsigned cpu;
    for_each_cpu(cpu, allowed)
    {
        pri[cpu] = cpupri(s, cpu);
        if (pri[cpu] < low && (!fitness || rt_fits(s, t, cpu)))
            low = pri[cpu];
    }
    if (low == t->rt_prio)
        return fitness && lowest_mask(s, t, allowed, false, out);
    cpumask_clear(out);
    for_each_cpu(cpu, allowed)
    {
        if (pri[cpu] == low && (!fitness || rt_fits(s, t, cpu)))
            cpumask_set_cpu(cpu, out);
    }
    return true;
}

/* find_lowest_rq(): SCHED_NO_CPU for a task allowed on one vCPU only or
 * when no vCPU runs a lower priority; else t's own vCPU if it is among the
 * lowest, else the first of them (5.15's cpumask_any_and_distribute()
 * spreads; asymu takes the lowest id, for determinism). */
static unsigned find_lowest_rq(const struct sched *s, const struct sched_task *t,
                               const struct cpumask *allowed)
{
    struct cpumask lowest;
    if (cpumask_weight(allowed) < 2 || !lowest_mask(s, t, allowed, s->asym_capacity, &lowest))
        return SCHED_NO_CPU;
    if (t->cpu < s->nr_cpus && cpumask_test_cpu(t->cpu, &lowest))
        return t->cpu;
    return cpumask_first(&lowest);
}

/* The task's allowed vCPUs, and how many of its affinity (nr_cpus_allowed). */
static unsigned allowed_of(const struct sched *s, const struct sched_task *t, struct cpumask *out)
{
    sched__allowed(s, t, out);
    return cpumask_weight(out);
}

unsigned sched__select_cpu_rt(const struct sched *s, const struct sched_task *t,
                              const struct cpumask *allowed, unsigned target)
{
    /* select_task_rq_rt(): move away from target when what runs there is a
     * deadline task or an RT task of at least t's priority (or pinned), or
     * when t does not fit target's capacity; only to a vCPU running a lower
     * priority than t, and for the capacity alone only to one t fits. */
    const struct sched_task *curr = s->cpus[target].head;
    struct cpumask cm;
    bool test = curr && ((curr->cls == SCHED_CLASS_DEADLINE && !curr->dl.throttled) ||
                         (curr->cls == SCHED_CLASS_RT && !curr->rt_throttled &&
                          (allowed_of(s, curr, &cm) < 2 || curr->rt_prio >= t->rt_prio)));
    if (!test && rt_fits(s, t, target))
        return target;
    unsigned cpu = find_lowest_rq(s, t, allowed);
    if (cpu == SCHED_NO_CPU || (!test && !rt_fits(s, t, cpu)))
        return target;
    return t->rt_prio > cpupri(s, cpu) ? cpu : target;
}

/* A queued RT task that is not running and may run elsewhere: on the
 * pushable_tasks list. */
static bool pushable(const struct sched *s, const struct sched_task *t,
                     const struct sched_task *head)
{
    struct cpumask a;
    return t != head && t->cls == SCHED_CLASS_RT && allowed_of(s, t, &a) > 1;
}

/* rt_overloaded(): more than one RT task queued, one of them migratory. */
static bool overloaded(const struct sched *s, unsigned cpu)
{
    const struct sched_task *h = s->cpus[cpu].head, *t = h;
    unsigned nr = 0;
    bool migratory = false;
    if (!t || s->cpus[cpu].rt_throttled)
        return false;
    do {
        if (t->cls == SCHED_CLASS_RT) {
            struct cpumask a;
            nr++;
            migratory |= allowed_of(s, t, &a) > 1;
        }
        t = t->rq_next;
    } while (t != h);
    return nr > 1 && migratory;
}

/* push_rt_task(): the highest waiting pushable task of cpu goes to the
 * vCPU find_lowest_rq() gives, if that one runs a lower priority. */
static bool push_rt_task(struct sched *s, unsigned cpu)
{
    if (!overloaded(s, cpu))
        return false;
    struct sched_task *h = s->cpus[cpu].head, *t = h->rq_next, *next = NULL;
    for (; t != h; t = t->rq_next)
        if (pushable(s, t, h)) {
            next = t; /* the list is in priority order: the first is the highest */
            break;
        }
    if (!next)
        return false;
    struct cpumask allowed;
    sched__allowed(s, next, &allowed);
    unsigned dst = find_lowest_rq(s, next, &allowed);
    if (dst == SCHED_NO_CPU || cpupri(s, dst) >= next->rt_prio)
        return false;
    sched__move(s, next, dst, MEVENT_MIGRATE_BALANCE); /* push_rt_task() */
    return true;
}

/* The highest pushable task of src allowed on dst
 * (pick_highest_pushable_task()). */
static struct sched_task *highest_pushable(const struct sched *s, unsigned src, unsigned dst)
{
    struct sched_task *h = s->cpus[src].head;
    for (struct sched_task *t = h->rq_next; t != h; t = t->rq_next) {
        struct cpumask a;
        if (pushable(s, t, h) && allowed_of(s, t, &a) && cpumask_test_cpu(dst, &a))
            return t;
    }
    return NULL;
}

/* The second highest RT priority queued on cpu (rt_rq->highest_prio.next). */
static int next_prio(const struct sched *s, unsigned cpu)
{
    const struct sched_task *h = s->cpus[cpu].head, *t = h;
    int first = CPUPRI_NORMAL, second = CPUPRI_NORMAL;
    do {
        if (t->cls == SCHED_CLASS_RT) {
            if (t->rt_prio > first) {
                second = first;
                first = t->rt_prio;
            } else if (t->rt_prio > second) {
                second = t->rt_prio;
            }
        }
        t = t->rq_next;
    } while (t != h);
    return second;
}

/* pull_rt_task(): this vCPU takes, from every other overloaded one (rto),
 * a waiting task of a higher priority than its own highest. */
static bool pull_rt_task(struct sched *s, unsigned this_cpu, const struct cpumask *rto)
{
    unsigned cpu, nr_rto = cpumask_weight(rto);
    if (!nr_rto || (nr_rto == 1 && cpumask_test_cpu(this_cpu, rto)))
        return false;
    bool pulled = false;
    for_each_cpu(cpu, rto)
    {
        if (cpu == this_cpu || !overloaded(s, cpu) || next_prio(s, cpu) <= cpupri(s, this_cpu))
            continue;
        struct sched_task *p = highest_pushable(s, cpu, this_cpu);
        if (p && p->rt_prio > cpupri(s, this_cpu)) {
            sched__move(s, p, this_cpu, MEVENT_MIGRATE_BALANCE); /* pull_rt_task() */
            pulled = true;
        }
    }
    return pulled;
}

bool sched__rt_balance(struct sched *s)
{
    /* 5.15 pushes when an RT task wakes behind another and after each RT
     * pick, and pulls when a vCPU's priority drops; asymu does both where
     * it balances, between slices, until nothing moves: the state those
     * events lead to. Each move puts a task where a lower priority ran, so
     * this ends; the bound is a guard. Only overloaded vCPUs (rto_mask)
     * give tasks away, so without them nothing is done. */
    bool any = false;
    for (unsigned round = 0; round < s->nr_tasks + s->nr_cpus; round++) {
        struct cpumask rto;
        unsigned cpu;
        cpumask_clear(&rto);
        for_each_cpu(cpu, &s->busy)
        {
            if (overloaded(s, cpu))
                cpumask_set_cpu(cpu, &rto);
        }
        if (cpumask_empty(&rto))
            break;
        bool moved = false;
        for_each_cpu(cpu, &rto)
        {
            while (push_rt_task(s, cpu))
                moved = true;
        }
        for_each_cpu(cpu, &s->online)
        {
            moved |= pull_rt_task(s, cpu, &rto);
        }
        if (!moved)
            break;
        any = true;
    }
    return any;
}

/* ---- RT throttling: sched_rt_runtime_exceeded(), do_sched_rt_period_timer() ---- */

static bool throttling_on(const struct sched *s)
{
    /* RUNTIME_INF (-1) and a runtime of the whole period never throttle;
     * a runtime of 0 does not either (sched_rt_runtime_exceeded() then
     * forgets the time instead). */
    return s->rt_runtime_us > 0 && s->rt_runtime_us < s->rt_period_us;
}

static uint64_t runtime_ns(const struct sched *s)
{
    return (uint64_t)s->rt_runtime_us * 1000;
}

static uint64_t period_ns(const struct sched *s)
{
    return (uint64_t)s->rt_period_us * 1000;
}

/* Marks the RT tasks queued on cpu throttled or not and puts each where it
 * then belongs (behind the fair tasks when throttled: sched_rt_rq_dequeue()). */
static void set_throttled(struct sched *s, unsigned cpu, bool throttled)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    rq->rt_throttled = throttled;
    if (!rq->head)
        return;
    struct sched_task *old = rq->head;
    if (!throttled && rq->cfs_curr)
        sched__cfs_displaced(s, cpu);
    for (;;) {
        struct sched_task *t = rq->head, *found = NULL;
        do {
            if (t->cls == SCHED_CLASS_RT && t->rt_throttled != throttled)
                found = t;
            t = t->rq_next;
        } while (!found && t != rq->head);
        if (!found)
            break;
        found->rt_throttled = throttled;
        sched__requeue(rq, found);
    }
    if (rq->head != old) {
        old->need_resched = true;
        s->balance_dirty = true;
    }
}

void sched__rt_enqueue(struct sched *s, struct sched_task *t, unsigned cpu)
{
    t->rt_throttled = t->cls == SCHED_CLASS_RT && s->cpus[cpu].rt_throttled;
    if (t->cls != SCHED_CLASS_RT || s->rt_bw_active)
        return;
    /* start_rt_bandwidth(): the period timer starts with the first RT task
     * (it does not stop again here: 5.15 stops it while no vCPU has RT
     * tasks or time, and restarts it with a new phase). */
    uint64_t now = sched__event_time(s);
    if (s->cpus[cpu].clock_ns > now)
        now = s->cpus[cpu].clock_ns;
    s->rt_bw_active = true;
    s->rt_period_start_ns = now;
    for (unsigned c = 0; c < s->nr_cpus; c++)
        s->cpus[c].rt_period_end_ns = now + period_ns(s);
}

/* do_sched_rt_period_timer() for the periods that ended by `at` on cpu:
 * each gives back a runtime (all of it with RUNTIME_INF); a throttled
 * vCPU whose time fell below the runtime runs its RT tasks again. */
static void periods_until(struct sched *s, unsigned cpu, uint64_t at)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    if (!s->rt_bw_active || at < rq->rt_period_end_ns)
        return;
    uint64_t per = period_ns(s), n = (at - rq->rt_period_end_ns) / per + 1;
    rq->rt_period_end_ns += n * per;
    if (s->rt_runtime_us < 0) {
        rq->rt_time_ns = 0;
    } else {
        uint64_t back = n * runtime_ns(s);
        rq->rt_time_ns -= back < rq->rt_time_ns ? back : rq->rt_time_ns;
    }
    /* Throttling turned off (-1, 0, the whole period) ends it too. */
    if (rq->rt_throttled && (!throttling_on(s) || rq->rt_time_ns < runtime_ns(s)))
        set_throttled(s, cpu, false);
}

void sched__rt_period_due(struct sched *s, unsigned cpu)
{
    periods_until(s, cpu, s->cpus[cpu].clock_ns);
}

void sched__rt_charge(struct sched *s, unsigned cpu, uint64_t start, uint64_t end)
{
    /* update_curr_rt(): rt_time counts only while a runtime is set; time
     * on both sides of a period's end counts in its own period. */
    struct sched_cpu *rq = &s->cpus[cpu];
    periods_until(s, cpu, start);
    uint64_t at = start;
    while (s->rt_bw_active && rq->rt_period_end_ns <= end) {
        uint64_t edge = rq->rt_period_end_ns;
        if (s->rt_runtime_us >= 0)
            rq->rt_time_ns += edge - at;
        at = edge;
        periods_until(s, cpu, edge);
    }
    if (s->rt_runtime_us >= 0)
        rq->rt_time_ns += end - at;
}

void sched__rt_check_runtime(struct sched *s, unsigned cpu)
{
    /* sched_rt_runtime_exceeded(), at the tick and when the RT task stops
     * running: more than the runtime used in this period throttles the
     * vCPU's RT tasks until a period's end gives time back. */
    struct sched_cpu *rq = &s->cpus[cpu];
    if (rq->rt_throttled || !s->rt_bw_active || rq->rt_time_ns <= runtime_ns(s))
        return;
    if (s->rt_runtime_us == 0) {
        rq->rt_time_ns = 0;
        return;
    }
    if (!throttling_on(s))
        return;
    if (!s->rt_throttle_logged) {
        s->rt_throttle_logged = true;
        sched__log(s, KLOG_WARNING, "sched: RT throttling activated");
    }
    set_throttled(s, cpu, true);
}

uint64_t sched_rt_period_end(const struct sched *s, unsigned cpu)
{
    const struct sched_cpu *rq = &s->cpus[cpu];
    return s->rt_bw_active && rq->rt_throttled ? rq->rt_period_end_ns : UINT64_MAX;
}
