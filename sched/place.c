/* SPDX-License-Identifier: GPL-2.0-or-later */
/* place.c - where a fair task goes when it wakes or is forked, as Linux
 * 5.15's select_task_rq_fair() decides it (docs/scheduler.md, B8-B11):
 * wake_affine() between the waker's vCPU and the previous one, then
 * select_idle_sibling() (select_idle_capacity() on an asymmetric machine,
 * select_idle_cpu() over the cache domain on a symmetric one); at fork
 * find_idlest_cpu() down the domains. Every choice is among the task's
 * allowed vCPUs (sched__allowed()), so a 32-bit task stays on M. */
#include "sched-int.h"

static bool idle_for_fair(const struct sched *s, unsigned cpu)
{
    return sched_cpu_idle_for_fair(s, cpu);
}

/* asym_fits_capacity(): on an asymmetric machine the task must fit. */
static bool asym_fits(const struct sched *s, const struct sched_task *t, unsigned cpu)
{
    return !s->asym_capacity || sched_task_fits_cpu(s, t, cpu);
}

/* wake_affine_idle() without sync wake-ups (asymu does not know them):
 * an idle waker's vCPU sharing the cache, else an idle previous vCPU. */
static unsigned wake_affine_idle(const struct sched *s, unsigned this_cpu, unsigned prev)
{
    if (idle_for_fair(s, this_cpu) && sched_cpus_share_cache(s, this_cpu, prev))
        return idle_for_fair(s, prev) ? prev : this_cpu;
    if (idle_for_fair(s, prev))
        return prev;
    return SCHED_NO_CPU;
}

/* wake_affine_weight() with cpu_load() the queued fair weight (the waking
 * task is on no runqueue, so the previous vCPU's load has nothing of it to
 * take away), WA_BIAS on: the waker's vCPU when its load with the task,
 * scaled by the previous vCPU's capacity, is below the previous vCPU's
 * load scaled by this one's and by half the domain's imbalance_pct. */
static unsigned wake_affine_weight(const struct sched *s, const struct sched_domain *sd,
                                   const struct sched_task *t, unsigned this_cpu, unsigned prev)
{
    uint64_t this_eff = sched__cpu_load(s, this_cpu) + sched_task_weight(t);
    this_eff *= 100;
    this_eff *= s->cpus[prev].capacity;
    uint64_t prev_eff = sched__cpu_load(s, prev);
    prev_eff *= 100 + (sd->imbalance_pct - 100) / 2;
    prev_eff *= s->cpus[this_cpu].capacity;
    return this_eff < prev_eff ? this_cpu : SCHED_NO_CPU;
}

unsigned sched__wake_affine(const struct sched *s, const struct sched_domain *sd,
                            const struct sched_task *t, unsigned this_cpu, unsigned prev)
{
    unsigned target = wake_affine_idle(s, this_cpu, prev);
    if (target == SCHED_NO_CPU)
        target = wake_affine_weight(s, sd, t, this_cpu, prev);
    return target == SCHED_NO_CPU ? prev : target;
}

/* select_idle_cpu() without SIS_PROP's scan limit: the first idle vCPU of
 * the cache domain the task may use, from target + 1, wrapping. */
static unsigned select_idle_cpu(const struct sched *s, const struct cpumask *span,
                                const struct cpumask *allowed, unsigned target)
{
    for (unsigned i = 1; i <= s->nr_cpus; i++) {
        unsigned cpu = (target + i) % s->nr_cpus;
        if (cpumask_test_cpu(cpu, span) && cpumask_test_cpu(cpu, allowed) && idle_for_fair(s, cpu))
            return cpu;
    }
    return SCHED_NO_CPU;
}

unsigned sched__select_idle_sibling(const struct sched *s, const struct sched_task *t,
                                    const struct cpumask *allowed, unsigned prev, unsigned target)
{
    if (idle_for_fair(s, target) && asym_fits(s, t, target))
        return target;
    /* The previous vCPU, cache affine and idle. */
    if (prev != target && prev < s->nr_cpus && cpumask_test_cpu(prev, allowed) &&
        sched_cpus_share_cache(s, prev, target) && idle_for_fair(s, prev) && asym_fits(s, t, prev))
        return prev;
    if (s->asym_capacity) {
        /* sd_asym_cpucapacity: every vCPU here (one root domain). */
        unsigned cpu = sched_select_idle_capacity(s, t, allowed, target);
        return cpu == SCHED_NO_CPU ? target : cpu;
    }
    const struct sched_domain *llc = sched_cpu_llc(s, target);
    if (!llc)
        return target;
    unsigned cpu = select_idle_cpu(s, &llc->span, allowed, target);
    return cpu == SCHED_NO_CPU ? target : cpu;
}

unsigned sched__select_wake_cpu(const struct sched *s, const struct sched_task *t,
                                const struct cpumask *allowed, unsigned prev)
{
    /* select_task_rq_fair() for a wake-up: want_affine when the waker's
     * vCPU is allowed (no wake_wide(): asymu keeps no wakee flips); the
     * lowest domain of the waker's vCPU spanning prev chooses between them. */
    unsigned new_cpu = prev;
    unsigned this_cpu = s->in_slice ? s->slice_cpu : SCHED_NO_CPU;
    if (this_cpu != SCHED_NO_CPU && this_cpu != prev && cpumask_test_cpu(this_cpu, allowed)) {
        const struct sched_cpu *rq = &s->cpus[this_cpu];
        for (unsigned i = 0; i < rq->nr_sd; i++)
            if (cpumask_test_cpu(prev, &rq->sd[i].span)) {
                new_cpu = sched__wake_affine(s, &rq->sd[i], t, this_cpu, prev);
                break;
            }
    }
    return sched__select_idle_sibling(s, t, allowed, prev, new_cpu);
}

/* update_sg_wakeup_stats(): a group's stats for placing t (not queued). */
static void sg_wakeup_stats(const struct sched *s, const struct sched_domain *sd,
                            const struct cpumask *span, const struct sched_task *t,
                            struct sched_sg_stats *g)
{
    unsigned cpu;
    *g = (struct sched_sg_stats){0};
    g->min_capacity = UINT32_MAX;
    for_each_cpu(cpu, span)
    {
        const struct sched_cpu *rq = &s->cpus[cpu];
        unsigned nr_fair = sched__nr_fair(s, cpu);
        g->load += sched__cpu_load(s, cpu);
        g->util += rq->pelt.util_avg < rq->capacity ? rq->pelt.util_avg : rq->capacity;
        g->runnable += (uint64_t)nr_fair * SCHED_CAPACITY_SCALE;
        g->h_nr_running += nr_fair;
        g->nr_running += rq->nr_running;
        g->capacity += rq->capacity;
        g->weight++;
        if (rq->capacity > g->max_capacity)
            g->max_capacity = rq->capacity;
        if (rq->capacity < g->min_capacity)
            g->min_capacity = rq->capacity;
        if (!rq->nr_running)
            g->idle_cpus++;
    }
    /* The task does not fit the group's biggest vCPU. */
    if ((sd->flags & SCHED_SD_ASYM_CPUCAPACITY) &&
        !sched_fits_capacity(sched_task_util(t), g->max_capacity))
        g->misfit = 1;
    g->type = sched__group_classify(sd->imbalance_pct, g);
    if (g->type == SCHED_GROUP_FULLY_BUSY || g->type == SCHED_GROUP_OVERLOADED)
        g->avg_load = g->load * SCHED_CAPACITY_SCALE / g->capacity;
}

/* update_pick_idlest() */
static bool pick_idlest(const struct sched_sg_stats *idlest, const struct sched_sg_stats *g)
{
    if (g->type != idlest->type)
        return g->type < idlest->type;
    switch (g->type) {
    case SCHED_GROUP_OVERLOADED:
    case SCHED_GROUP_FULLY_BUSY:
        return idlest->avg_load > g->avg_load;
    case SCHED_GROUP_MISFIT:
        return idlest->max_capacity < g->max_capacity;
    case SCHED_GROUP_HAS_SPARE:
        if (idlest->idle_cpus > g->idle_cpus)
            return false;
        return !(idlest->idle_cpus == g->idle_cpus && idlest->util <= g->util);
    }
    return false;
}

/* find_idlest_group(): false to stay in the local group. */
static bool find_idlest_group(const struct sched *s, const struct sched_domain *sd,
                              const struct sched_task *t, const struct cpumask *allowed,
                              unsigned this_cpu, struct cpumask *out)
{
    struct sched_sg_stats local = {0},
                          idlest = {.type = SCHED_GROUP_OVERLOADED, .avg_load = UINT64_MAX};
    bool have_local = false, have_idlest = false;
    struct cpumask seen, span;
    cpumask_clear(&seen);
    for (unsigned i = 0; i < s->nr_cpus; i++) {
        unsigned cpu = (this_cpu + i) % s->nr_cpus;
        if (!cpumask_test_cpu(cpu, &sd->span) || !cpumask_test_cpu(cpu, &s->online) ||
            cpumask_test_cpu(cpu, &seen))
            continue;
        sched__group_span(s, sd, cpu, &span);
        cpumask_and(&span, &span, &s->online);
        cpumask_or(&seen, &seen, &span);
        if (!cpumask_intersects(&span, allowed))
            continue;
        struct sched_sg_stats g;
        sg_wakeup_stats(s, sd, &span, t, &g);
        if (cpumask_test_cpu(this_cpu, &span)) {
            local = g;
            have_local = true;
        } else if (!have_idlest || pick_idlest(&idlest, &g)) {
            idlest = g;
            *out = span;
            have_idlest = true;
        }
    }
    if (!have_idlest)
        return false;
    if (!have_local)
        return true;
    if (local.type != idlest.type)
        return local.type > idlest.type;
    switch (local.type) {
    case SCHED_GROUP_OVERLOADED:
    case SCHED_GROUP_FULLY_BUSY: {
        /* NICE_0_LOAD's share of imbalance_pct. */
        uint64_t imbalance = 1024 * (sd->imbalance_pct - 100) / 100;
        if (idlest.avg_load >= local.avg_load + imbalance)
            return false;
        if (100 * local.avg_load <= sd->imbalance_pct * idlest.avg_load)
            return false;
        return true;
    }
    case SCHED_GROUP_MISFIT:
        return local.max_capacity < idlest.max_capacity;
    case SCHED_GROUP_HAS_SPARE:
        return local.idle_cpus < idlest.idle_cpus;
    }
    return false;
}

/* find_idlest_group_cpu() without idle states or idle stamps: a vCPU
 * running only SCHED_IDLE tasks, else the first idle one, else the least
 * loaded (ties: the first). */
static unsigned find_idlest_group_cpu(const struct sched *s, const struct cpumask *span,
                                      const struct cpumask *allowed)
{
    unsigned cpu, idle = SCHED_NO_CPU, least = SCHED_NO_CPU;
    uint64_t min_load = UINT64_MAX;
    if (cpumask_weight(span) == 1)
        return cpumask_first(span);
    for_each_cpu(cpu, span)
    {
        if (!cpumask_test_cpu(cpu, allowed))
            continue;
        const struct sched_cpu *rq = &s->cpus[cpu];
        if (rq->nr_running && rq->nr_running == rq->nr_idle_policy)
            return cpu;
        if (!rq->nr_running) {
            if (idle == SCHED_NO_CPU)
                idle = cpu;
        } else if (idle == SCHED_NO_CPU) {
            uint64_t load = sched__cpu_load(s, cpu);
            if (load < min_load) {
                min_load = load;
                least = cpu;
            }
        }
    }
    return idle != SCHED_NO_CPU ? idle : least;
}

unsigned sched__find_idlest_cpu(const struct sched *s, const struct sched_task *t,
                                const struct cpumask *allowed, unsigned cpu)
{
    /* find_idlest_cpu() from the highest domain of cpu (every level has
     * SD_BALANCE_FORK), down to the chosen vCPU's lower levels. */
    const struct sched_cpu *rq = &s->cpus[cpu];
    unsigned new_cpu = cpu;
    if (!rq->nr_sd)
        return cpu;
    const struct sched_domain *sd = &rq->sd[rq->nr_sd - 1];
    if (!cpumask_intersects(&sd->span, allowed))
        return cpu;
    while (sd) {
        struct cpumask group;
        const struct sched_cpu *crq = &s->cpus[cpu];
        unsigned level = (unsigned)(sd - crq->sd);
        if (!find_idlest_group(s, sd, t, allowed, cpu, &group)) {
            sd = level ? sd - 1 : NULL;
            continue;
        }
        new_cpu = find_idlest_group_cpu(s, &group, allowed);
        if (new_cpu == cpu || new_cpu == SCHED_NO_CPU) {
            new_cpu = new_cpu == SCHED_NO_CPU ? cpu : new_cpu;
            sd = level ? sd - 1 : NULL;
            continue;
        }
        /* Go on at new_cpu's levels below the one just used. */
        unsigned weight = sd->weight;
        cpu = new_cpu;
        sd = NULL;
        const struct sched_cpu *nrq = &s->cpus[cpu];
        for (unsigned i = 0; i < nrq->nr_sd && nrq->sd[i].weight < weight; i++)
            sd = &nrq->sd[i];
    }
    return new_cpu;
}
