/* SPDX-License-Identifier: GPL-2.0-or-later */
/* topology.c - the scheduling domains Linux 5.15's kernel/sched/topology.c
 * builds from the CPU topology (docs/scheduler.md, B1): per vCPU an MC
 * level over its cluster and a DIE level over every vCPU when the SoC has
 * several clusters (--soc gs201), else one MC level over every vCPU. A
 * level spanning one vCPU, or the same vCPUs as the one below it, is
 * dropped (sd_degenerate(), sd_parent_degenerate()). */
#include "sched-int.h"

/* asym_cpu_capacity_classify(): the span sees more than one capacity. */
static bool span_asym(const struct sched *s, const struct cpumask *span)
{
    unsigned cpu, first = cpumask_first(span);
    for_each_cpu(cpu, span)
    {
        if (s->cpus[cpu].capacity != s->cpus[first].capacity)
            return true;
    }
    return false;
}

/* sd_init(): the defaults of every level, then the MC level's cache sharing. */
static void sd_init(const struct sched *s, struct sched_domain *sd, enum sched_sd_level level,
                    const struct cpumask *span)
{
    sd->span = *span;
    sd->level = level;
    sd->weight = cpumask_weight(span);
    sd->min_interval = sd->weight;
    sd->max_interval = 2 * sd->weight;
    sd->balance_interval = sd->weight;
    sd->busy_factor = 16;
    sd->imbalance_pct = 117;
    /* Both branches sd_init() can take here set cache_nice_tries to 1
     * (SD_SHARE_PKG_RESOURCES, and the one with no flag). */
    sd->cache_nice_tries = 1;
    sd->nr_balance_failed = 0;
    sd->last_balance = 0;
    sd->flags = SCHED_SD_PREFER_SIBLING;
    if (level == SCHED_SD_MC)
        sd->flags |= SCHED_SD_SHARE_PKG_RESOURCES;
    if (span_asym(s, span))
        sd->flags |= SCHED_SD_ASYM_CPUCAPACITY;
}

void sched__topology_init(struct sched *s, const uint16_t *cluster)
{
    for (unsigned cpu = 0; cpu < s->nr_cpus; cpu++) {
        struct sched_cpu *rq = &s->cpus[cpu];
        cpumask_clear(&rq->cluster);
        for (unsigned o = 0; o < s->nr_cpus; o++)
            if (!cluster || cluster[o] == cluster[cpu])
                cpumask_set_cpu(o, &rq->cluster);
        rq->nr_sd = 0;
        /* The MC level (cpu_coregroup_mask()): its cluster, unless it is
         * the vCPU alone. */
        if (cpumask_weight(&rq->cluster) > 1)
            sd_init(s, &rq->sd[rq->nr_sd++], SCHED_SD_MC, &rq->cluster);
        /* The DIE level (cpu_cpu_mask()), unless it adds nothing. */
        if (!cpumask_equal(&rq->cluster, &s->possible))
            sd_init(s, &rq->sd[rq->nr_sd++], SCHED_SD_DIE, &s->possible);
        /* Don't attempt to spread across CPUs of different capacities:
         * an asymmetric parent clears its child's SD_PREFER_SIBLING. */
        if (rq->nr_sd == 2 && (rq->sd[1].flags & SCHED_SD_ASYM_CPUCAPACITY))
            rq->sd[0].flags &= ~SCHED_SD_PREFER_SIBLING;
    }
}

const struct sched_domain *sched_cpu_llc(const struct sched *s, unsigned cpu)
{
    /* sd_llc: the highest level sharing the cache, the MC one. */
    const struct sched_cpu *rq = &s->cpus[cpu];
    return rq->nr_sd && (rq->sd[0].flags & SCHED_SD_SHARE_PKG_RESOURCES) ? &rq->sd[0] : NULL;
}

bool sched_cpus_share_cache(const struct sched *s, unsigned a, unsigned b)
{
    if (a == b)
        return true;
    const struct sched_domain *sd = sched_cpu_llc(s, a);
    return sd && cpumask_test_cpu(b, &sd->span);
}

void sched__group_span(const struct sched *s, const struct sched_domain *sd, unsigned cpu,
                       struct cpumask *out)
{
    /* build_sched_groups(): the child domain's span, each vCPU at MC. */
    if (sd->level == SCHED_SD_DIE) {
        cpumask_and(out, &s->cpus[cpu].cluster, &s->online);
    } else {
        cpumask_clear(out);
        cpumask_set_cpu(cpu, out);
    }
}
