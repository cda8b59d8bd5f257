/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fair.c - what Linux 5.15's kernel/sched/fair.c does with CPU capacities
 * and the fair policies: PELT utilisation kept per task and per runqueue,
 * uclamp'd capacity fit, misfit tasks pulled by bigger idle CPUs, wake-up
 * and fork placement with select_idle_capacity(), and SCHED_IDLE. On a
 * machine whose vCPUs all have the same capacity none of this decides
 * anything (sched_asym_cpucapacity is off), so placement stays as rq.c
 * and core.c make it. */
#include "sched-int.h"

/* uclamp_eff_value(): the user's clamp, else the default (an RT task is
 * boosted to the full scale; the system-wide limits are the defaults). */
unsigned sched__uclamp_min(const struct sched_task *t)
{
    if (t->util_min_set)
        return t->util_min;
    return t->cls == SCHED_CLASS_RT ? SCHED_CAPACITY_SCALE : 0;
}

unsigned sched__uclamp_max(const struct sched_task *t)
{
    return t->util_max_set ? t->util_max : SCHED_CAPACITY_SCALE;
}

unsigned sched_task_util(const struct sched_task *t)
{
    unsigned util = t->pelt.util_avg, lo = sched__uclamp_min(t), hi = sched__uclamp_max(t);
    if (util < lo)
        util = lo;
    return util > hi ? hi : util;
}

bool sched_task_fits_cpu(const struct sched *s, const struct sched_task *t, unsigned cpu)
{
    return sched_fits_capacity(sched_task_util(t), s->cpus[cpu].capacity);
}

bool sched_cpu_idle_for_fair(const struct sched *s, unsigned cpu)
{
    const struct sched_cpu *rq = &s->cpus[cpu];
    return rq->nr_running == rq->nr_idle_policy;
}

unsigned sched_select_idle_capacity(const struct sched *s, const struct sched_task *t,
                                    const struct cpumask *allowed, unsigned target)
{
    unsigned util = sched_task_util(t), best = SCHED_NO_CPU, best_cap = 0;
    /* for_each_cpu_wrap(cpu, allowed, target) */
    for (unsigned i = 0; i < s->nr_cpus; i++) {
        unsigned cpu = (target + i) % s->nr_cpus;
        if (!cpumask_test_cpu(cpu, allowed) || !sched_cpu_idle_for_fair(s, cpu))
            continue;
        unsigned cap = s->cpus[cpu].capacity;
        if (sched_fits_capacity(util, cap))
            return cpu;
        if (cap > best_cap) {
            best_cap = cap;
            best = cpu;
        }
    }
    return best;
}

unsigned sched__select_cpu_fair(const struct sched *s, const struct sched_task *t,
                                const struct cpumask *allowed, unsigned target)
{
    /* select_idle_sibling()'s sched_asym_cpucapacity path: target when it
     * is idle and fits (asym_fits_capacity()), else select_idle_capacity()
     * over the task's allowed CPUs, else target. allowed already holds only
     * CPUs of task_cpu_possible_mask(), so a 32-bit task stays on M. */
    if (!s->asym_capacity || t->cls != SCHED_CLASS_FAIR)
        return target;
    if (sched_cpu_idle_for_fair(s, target) && sched_task_fits_cpu(s, t, target))
        return target;
    unsigned cpu = sched_select_idle_capacity(s, t, allowed, target);
    return cpu == SCHED_NO_CPU ? target : cpu;
}

void sched_task_set_fair_policy(struct sched *s, struct sched_task *t, bool idle, bool batch)
{
    if (t->state == SCHED_TASK_RUNNABLE && t->idle_policy != idle) {
        s->cpus[t->cpu].nr_idle_policy += idle ? 1u : (unsigned)-1;
        s->balance_dirty = true;
    }
    t->idle_policy = idle;
    t->batch_policy = batch;
}

/* attach_entity_load_avg()/detach_entity_load_avg(): a task's utilisation
 * moves with it between runqueues. */
static void rq_util_add(struct sched_pelt *rq, const struct sched_pelt *se)
{
    rq->util_sum += se->util_sum;
    rq->util_avg += se->util_avg;
    if (rq->util_avg > SCHED_CAPACITY_SCALE)
        rq->util_avg = SCHED_CAPACITY_SCALE;
}

static void rq_util_sub(struct sched_pelt *rq, const struct sched_pelt *se)
{
    rq->util_sum -= se->util_sum < rq->util_sum ? se->util_sum : rq->util_sum;
    rq->util_avg -= se->util_avg < rq->util_avg ? se->util_avg : rq->util_avg;
}

void sched__fair_enqueue(struct sched *s, struct sched_task *t, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    rq->nr_idle_policy += t->idle_policy;
    if (!t->pelt.last_ns && !t->pelt.util_sum) {
        /* A new task's signal starts at its runqueue's clock. */
        t->pelt.last_ns = rq->clock_ns & ~UINT64_C(1023);
    } else if (t->cpu != cpu && t->cpu < s->nr_cpus) {
        /* Both signals first reach their clocks (update_load_avg() before
         * attaching or detaching), so idle time does not decay what moved. */
        struct sched_cpu *from = &s->cpus[t->cpu];
        sched_pelt_update(&from->pelt, from->clock_ns, false, from->capacity);
        sched_pelt_update(&rq->pelt, rq->clock_ns, false, rq->capacity);
        rq_util_sub(&from->pelt, &t->pelt);
        sched_pelt_update(&t->pelt, rq->clock_ns, false, rq->capacity);
        rq_util_add(&rq->pelt, &t->pelt);
        /* attach/detach_entity_load_avg() -> cpufreq_update_util(). */
        sched__cpufreq_update(s, t->cpu, from->clock_ns);
        sched__cpufreq_update(s, cpu, rq->clock_ns);
        return;
    }
    /* Time off the CPU (asleep or waiting) decays it. */
    sched_pelt_update(&t->pelt, rq->clock_ns, false, rq->capacity);
    /* enqueue_task_fair()'s update_load_avg() -> cpufreq_update_util(). */
    sched__cpufreq_update(s, cpu, rq->clock_ns);
}

void sched__fair_dequeue(struct sched *s, struct sched_task *t)
{
    struct sched_cpu *rq = &s->cpus[t->cpu];
    /* Waiting up to now decays it (a task blocking in its slice is at the
     * slice's start here; sched_account adds the running after). */
    sched_pelt_update(&t->pelt, rq->clock_ns, false, rq->capacity);
    rq->nr_idle_policy -= t->idle_policy;
    if (rq->misfit_util && rq->nr_running == 1)
        rq->misfit_util = 0;
}

void sched__fair_exit(struct sched *s, struct sched_task *t)
{
    /* remove_entity_load_avg(): a dead task's utilisation leaves its rq. */
    if (t->cpu < s->nr_cpus)
        rq_util_sub(&s->cpus[t->cpu].pelt, &t->pelt);
}

/* update_misfit_status(): on an asymmetric machine, the fair task that ran
 * on cpu is misfit when its clamped util does not fit cpu's capacity (on
 * the biggest CPUs too: only a bigger idle CPU will pull it). */
static void update_misfit_status(struct sched *s, struct sched_task *t, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    uint32_t misfit = 0;
    struct cpumask allowed;
    /* A task that may run on one CPU only is never misfit. */
    if (t && t->cls == SCHED_CLASS_FAIR && !sched_task_fits_cpu(s, t, cpu) &&
        sched__allowed(s, t, &allowed) && cpumask_weight(&allowed) > 1) {
        misfit = sched_task_util(t);
        misfit = misfit ? misfit : 1;
    }
    /* A new misfit task is a reason to balance (the tick's trigger_load_balance()). */
    if (misfit && !rq->misfit_util)
        s->balance_dirty = true;
    rq->misfit_util = misfit;
}

void sched__fair_account(struct sched *s, struct sched_task *t, unsigned cpu, uint64_t ns)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    uint64_t end = rq->clock_ns, start = end - ns;
    sched_pelt_update(&t->pelt, start, false, rq->capacity);
    /* Frequency invariance: at half the maximum frequency a unit counts half. */
    sched_pelt_update(&t->pelt, end, true, sched_cpu_pelt_scale(rq));
    sched_pelt_update(&rq->pelt, start, false, rq->capacity);
    sched_pelt_update(&rq->pelt, end, true, sched_cpu_pelt_scale(rq));
    /* cfs_rq_util_change() -> cpufreq_update_util(): schedutil looks again. */
    sched__cpufreq_update(s, cpu, end);
    if (!s->asym_capacity)
        return;
    bool still_here = t->state == SCHED_TASK_RUNNABLE && t->cpu == cpu;
    update_misfit_status(s, still_here ? t : NULL, cpu);
}

/* The first task queued on src that is misfit there and may run on dst
 * (detach_tasks() with migrate_misfit; the running one is moved by active
 * balancing, which here is the same between slices). */
static struct sched_task *misfit_task(const struct sched *s, unsigned src, unsigned dst)
{
    struct sched_task *head = s->cpus[src].head, *t = head;
    do {
        struct cpumask allowed;
        if (t->cls == SCHED_CLASS_FAIR && !sched_task_fits_cpu(s, t, src) &&
            sched__allowed(s, t, &allowed) && cpumask_test_cpu(dst, &allowed))
            return t;
        t = t->rq_next;
    } while (t != head);
    return NULL;
}

void sched__misfit_balance(struct sched *s, struct cpumask *idle)
{
    /* A copy: the moves below change the busy mask. */
    struct cpumask busy = s->busy;
    unsigned src;
    for_each_cpu(src, &busy)
    {
        struct sched_cpu *rq = &s->cpus[src];
        if (!rq->misfit_util)
            continue;
        /* update_sd_pick_busiest(): a misfit group is pulled only by a CPU
         * of clearly greater capacity; the biggest idle one pulls first
         * (ties: lowest id). The task's allowed CPUs (A, online, and
         * task_cpu_possible_mask()) are checked in misfit_task. */
        unsigned dst, best = SCHED_NO_CPU;
        struct sched_task *best_t = NULL;
        for_each_cpu(dst, idle)
        {
            if (!sched_capacity_greater(s->cpus[dst].capacity, rq->capacity) ||
                (best != SCHED_NO_CPU && s->cpus[dst].capacity <= s->cpus[best].capacity))
                continue;
            struct sched_task *t = misfit_task(s, src, dst);
            if (t) {
                best = dst;
                best_t = t;
            }
        }
        if (!best_t)
            continue;
        rq->misfit_util = 0;
        cpumask_clear_cpu(best, idle);
        sched__move(s, best_t, best, MEVENT_MIGRATE_MISFIT);
    }
}
