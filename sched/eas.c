/* SPDX-License-Identifier: GPL-2.0-or-later */
/* eas.c - energy-aware wake-up placement, Linux 5.15's
 * find_energy_efficient_cpu() and compute_energy() (kernel/sched/fair.c)
 * over the energy model (energy_model.c). It runs only when
 * sched_energy_enabled() (an energy model on an asymmetric machine,
 * s->eas) and the root domain is not overutilized; every CPU it may pick
 * is in the task's allowed CPUs (sched__allowed(): a 32-bit task's are in
 * M). docs/scheduler.md, rules E1-E9. */
#include "sched-int.h"

/* sync_entity_load_avg(): the sleeping task's util decayed to its old
 * runqueue's last update. */
static uint64_t task_util(const struct sched *s, const struct sched_task *t)
{
    struct sched_pelt p = t->pelt;
    if (t->cpu < s->nr_cpus)
        sched_pelt_update(&p, s->cpus[t->cpu].pelt.last_ns, false, 1);
    return p.util_avg;
}

/* The time the decision is made at: the waker's, or the timer's. */
static uint64_t eas_now(const struct sched *s)
{
    return s->in_slice && s->slice_now_ns > s->now_ns ? s->slice_now_ns : s->now_ns;
}

/* cpu_util_next(): cpu's utilisation if t (of util tutil) ran on dst
 * (SCHED_NO_CPU: nowhere), at most cpu's capacity. */
static uint64_t cpu_util_next(const struct sched *s, unsigned cpu, const struct sched_task *t,
                              uint64_t tutil, unsigned dst, uint64_t now)
{
    uint64_t util = sched__cpu_util_now(s, cpu, now);
    if (t->cpu == cpu && dst != cpu)
        util = util > tutil ? util - tutil : 0; /* lsub_positive() */
    else if (t->cpu != cpu && dst == cpu)
        util += tutil;
    return util < s->cpus[cpu].capacity ? util : s->cpus[cpu].capacity;
}

/* uclamp_rq_util_with() for the waking task: its own clamps (the
 * runqueue's aggregated clamps are not modelled). */
static uint64_t clamp_task(const struct sched_task *t, uint64_t util)
{
    uint64_t lo = t->util_min_set ? t->util_min : 0;
    uint64_t hi = t->util_max_set ? t->util_max : SCHED_CAPACITY_SCALE;
    if (util < lo)
        util = lo;
    return util > hi ? hi : util;
}

uint64_t sched_eas_compute_energy(const struct sched *s, unsigned d, const struct sched_task *t,
                                  uint64_t tutil, unsigned dst, uint64_t now)
{
    const struct sched_em_pd *pd = &s->em.pd[d];
    uint64_t cap = s->cpus[cpumask_first(&pd->cpus)].capacity;
    uint64_t max_util = 0, sum_util = 0;
    unsigned cpu;
    for_each_cpu(cpu, &pd->cpus) {
        if (!sched_cpu_is_online(s, cpu))
            continue;
        uint64_t util_freq = cpu_util_next(s, cpu, t, tutil, dst, now);
        uint64_t util_running = util_freq;
        if (cpu == dst)
            util_running = cpu_util_next(s, cpu, t, tutil, SCHED_NO_CPU, now) + tutil;
        /* effective_cpu_util(ENERGY_UTIL): the busy time, at most the
         * capacity. */
        sum_util += util_running < cap ? util_running : cap;
        /* effective_cpu_util(FREQUENCY_UTIL, tsk): what sets the OPP; the
         * full capacity with a real-time task queued. */
        uint64_t f = util_freq;
        if (cpu == dst)
            f = clamp_task(t, f);
        const struct sched_task *h = s->cpus[cpu].head;
        if (h && h->cls == SCHED_CLASS_RT)
            f = cap;
        f = f < cap ? f : cap;
        max_util = f > max_util ? f : max_util;
    }
    return sched_em_cpu_energy(pd, max_util, sum_util, cap);
}

bool sched_eas_overutilized(const struct sched *s, uint64_t now)
{
    /* cpu_overutilized(): !fits_capacity(cpu_util(), capacity_of()) on some
     * CPU of the root domain. */
    unsigned cpu;
    for_each_cpu(cpu, &s->online)
        if (!sched_fits_capacity(sched__cpu_util_now(s, cpu, now), s->cpus[cpu].capacity))
            return true;
    return false;
}

unsigned sched__feec(const struct sched *s, const struct sched_task *t,
                     const struct cpumask *allowed, unsigned prev)
{
    uint64_t now = eas_now(s);
    if (!s->eas || sched_eas_overutilized(s, now))
        return SCHED_NO_CPU;
    /* A task without utilisation goes back where it was. */
    uint64_t tutil = task_util(s, t);
    if (!tutil)
        return prev;
    uint64_t prev_delta = UINT64_MAX, best_delta = UINT64_MAX, base_energy = 0;
    unsigned best = prev;
    for (unsigned d = 0; d < s->em.nr_pds; d++) {
        uint64_t max_spare = 0;
        unsigned max_spare_cpu = SCHED_NO_CPU, cpu;
        bool compute_prev = false;
        for_each_cpu(cpu, &s->em.pd[d].cpus) {
            if (!cpumask_test_cpu(cpu, allowed))
                continue;
            uint64_t util = cpu_util_next(s, cpu, t, tutil, cpu, now);
            uint64_t cap = s->cpus[cpu].capacity;
            uint64_t spare = cap > util ? cap - util : 0;
            /* A CPU the task would overutilize is no candidate. */
            if (!sched_fits_capacity(clamp_task(t, util), cap))
                continue;
            if (cpu == prev) {
                compute_prev = true;
            } else if (spare > max_spare) {
                max_spare = spare;
                max_spare_cpu = cpu;
            }
        }
        if (max_spare_cpu == SCHED_NO_CPU && !compute_prev)
            continue;
        uint64_t base_pd = sched_eas_compute_energy(s, d, t, tutil, SCHED_NO_CPU, now);
        base_energy += base_pd;
        if (compute_prev) {
            uint64_t e = sched_eas_compute_energy(s, d, t, tutil, prev, now);
            if (e < base_pd)
                return prev;
            prev_delta = e - base_pd;
            best_delta = prev_delta < best_delta ? prev_delta : best_delta;
        }
        if (max_spare_cpu != SCHED_NO_CPU) {
            uint64_t e = sched_eas_compute_energy(s, d, t, tutil, max_spare_cpu, now);
            if (e < base_pd)
                return prev;
            e -= base_pd;
            if (e < best_delta) {
                best_delta = e;
                best = max_spare_cpu;
            }
        }
    }
    /* "Pick the best CPU if prev_cpu cannot be used, or if it saves at
     * least 6% of the energy used by prev_cpu": 1/16 of prev's delta plus
     * the domains' base energy (removed in 5.19). */
    if (prev_delta == UINT64_MAX || prev_delta - best_delta > ((prev_delta + base_energy) >> 4))
        return best;
    return prev;
}
