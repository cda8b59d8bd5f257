/* SPDX-License-Identifier: GPL-2.0-or-later */
/* schedutil.c - the performance domains at boot and Linux 5.15's schedutil
 * governor (kernel/sched/cpufreq_schedutil.c): each domain runs at the
 * lowest OPP at or above 1.25 times its busiest CPU's share of the maximum
 * frequency, looked at again whenever PELT changes a CPU's utilisation, at
 * most once per rate limit. The vCPUs' speed follows (sched_cpu_set_freq()),
 * so guest code on a slowed domain takes longer (docs/timing.md). */
#include "sched-int.h"
#include "sched_events.h"

#include <string.h>

int sched__energy_init(struct sched *s, const struct sched_config *cfg)
{
    memset(s->pd_of, 0xff, sizeof s->pd_of);
    if (!cfg->em || !cfg->em->nr_pds)
        return 0;
    s->em = *cfg->em;
    for (unsigned d = 0; d < s->em.nr_pds; d++) {
        const struct sched_em_pd *pd = &s->em.pd[d];
        unsigned cpu;
        for_each_cpu(cpu, &pd->cpus) {
            if (cpu >= s->nr_cpus || s->pd_of[cpu] != 0xff)
                return -EINVAL;
            s->pd_of[cpu] = (uint8_t)d;
            /* cpuinfo.max_freq is the top OPP; the boot frequency too,
             * until the governor's first decision. */
            s->cpus[cpu].max_freq_khz = pd->khz[pd->nr - 1];
            sched_cpu_set_freq(s, cpu, pd->khz[pd->nr - 1]);
        }
        /* sugov_start(): need_freq_update, so the first call decides. */
        s->su[d].need_update = true;
        s->su[d].next_khz = pd->khz[pd->nr - 1];
    }
    for (unsigned cpu = 0; cpu < s->nr_cpus; cpu++)
        if (s->pd_of[cpu] == 0xff)
            return -EINVAL;
    /* sched_energy_enabled(): build_perf_domains() keeps the model only on
     * an asymmetric machine (SD_ASYM_CPUCAPACITY) under schedutil. */
    s->eas = s->em.has_power && s->asym_capacity;
    return 0;
}

/* rt_rq_is_runnable(): a real-time task is queued on cpu. */
static bool rt_runnable(const struct sched *s, unsigned cpu)
{
    const struct sched_task *h = s->cpus[cpu].head, *t = h;
    if (!h)
        return false;
    do {
        if (t->cls == SCHED_CLASS_RT)
            return true;
        t = t->rq_next;
    } while (t != h);
    return false;
}

unsigned long sched__cpu_util_now(const struct sched *s, unsigned cpu, uint64_t now)
{
    const struct sched_cpu *rq = &s->cpus[cpu];
    struct sched_pelt p = rq->pelt;
    /* An idle CPU's blocked utilisation decays meanwhile
     * (update_blocked_averages()). */
    if (!rq->nr_running)
        sched_pelt_update(&p, now, false, rq->capacity);
    return p.util_avg < rq->capacity ? p.util_avg : rq->capacity;
}

void sched__cpufreq_update(struct sched *s, unsigned cpu, uint64_t now)
{
    if (cpu >= s->nr_cpus || s->pd_of[cpu] == 0xff)
        return;
    unsigned d = s->pd_of[cpu];
    struct sched_su *su = &s->su[d];
    const struct sched_em_pd *pd = &s->em.pd[d];
    /* sugov_should_update_freq(): not within rate_limit_us of the last
     * change (vCPU clocks differ: an earlier time is within it too). */
    if (!su->need_update && (now < su->last_ns || now - su->last_ns < SCHED_SU_RATE_LIMIT_NS))
        return;
    /* sugov_next_freq_shared(): the CPU of the domain with the largest
     * util / capacity; sugov_get_util(): effective_cpu_util() with
     * FREQUENCY_UTIL, the full capacity while a real-time task is queued
     * (uclamp's rq aggregation is not modelled). */
    uint64_t util = 0, max = 1;
    unsigned j;
    for_each_cpu(j, &pd->cpus) {
        if (!sched_cpu_is_online(s, j))
            continue;
        uint64_t jmax = s->cpus[j].capacity;
        uint64_t jutil = rt_runnable(s, j) ? jmax : sched__cpu_util_now(s, j, now);
        if (jutil * max > jmax * util) {
            util = jutil;
            max = jmax;
        }
    }
    /* get_next_freq(): 1.25 * cpuinfo.max_freq * util / max (frequency
     * invariant), then cpufreq_driver_resolve_freq(). */
    uint32_t next = sched_em_resolve_freq(pd, sched_map_util_freq(util, pd->khz[pd->nr - 1], max));
    /* sugov_update_next_freq(): an unchanged frequency is no update. */
    if (!su->need_update && next == su->next_khz)
        return;
    su->need_update = false;
    su->next_khz = next;
    su->last_ns = now;
    for_each_cpu(j, &pd->cpus) {
        bool changed = s->cpus[j].cur_freq_khz != next;
        sched_cpu_set_freq(s, j, next);
        if (changed)
            sched_ev_frequency(s, j, s->cpus[j].cur_freq_khz);
    }
}
