/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_fair.h - the parts of Linux 5.15's fair class that capacities and
 * the fair policies need (docs/scheduler.md): PELT utilisation
 * (kernel/sched/pelt.c), capacity fit with uclamp, misfit tasks and
 * select_idle_capacity() (kernel/sched/fair.c), SCHED_IDLE's weight.
 * Included by scheduler.h; the code is in pelt.c and fair.c. */
#ifndef ASYMU_SCHED_FAIR_H
#define ASYMU_SCHED_FAIR_H

#include <stdbool.h>
#include <stdint.h>

/* SCHED_CAPACITY_SCALE: the capacity of the biggest CPU at full speed. */
#define SCHED_CAPACITY_SCALE 1024u
/* WEIGHT_IDLEPRIO (kernel/sched/sched.h): a SCHED_IDLE task's load weight,
 * whatever its nice value. */
#define SCHED_WEIGHT_IDLEPRIO 3u
/* PELT counts time in units of 1024 ns and periods of 1024 units; a
 * contribution halves every 32 periods (y^32 = 0.5). */
#define SCHED_PELT_PERIOD_NS (1024u * 1024u)
#define SCHED_PELT_HALFLIFE 32u
/* LOAD_AVG_MAX: the largest sum the series 1024 * (1 + y + y^2 + ...)
 * reaches in integer arithmetic with the table of sched_pelt_decay. */
#define SCHED_LOAD_AVG_MAX 47742u

/* A PELT utilisation signal (struct sched_avg, util part only). */
struct sched_pelt {
    uint64_t last_ns;        /* last_update_time, a multiple of 1024 ns */
    uint64_t util_sum;       /* running time, decayed, scaled by capacity << 10 */
    uint32_t period_contrib; /* units (1024 ns) already in the current period */
    uint32_t util_avg;       /* 0..1024: util_sum over the series' maximum */
};

/* decay_load(): val * y^periods. */
uint64_t sched_pelt_decay(uint64_t val, uint64_t periods);
/* ___update_load_sum() + ___update_load_avg() for the util signal: the time
 * from last_ns to now_ns was spent running (on a CPU of this capacity,
 * 1..1024) or not. A now_ns before last_ns (another vCPU's clock, which may
 * lag) adds nothing. util_avg changes when a period boundary is crossed. */
void sched_pelt_update(struct sched_pelt *a, uint64_t now_ns, bool running, unsigned capacity);

/* fits_capacity(): util fits a CPU of capacity cap with 20% to spare. */
static inline bool sched_fits_capacity(uint64_t util, uint64_t cap)
{
    return util * 1280 < cap * 1024;
}
/* capacity_greater(): cap1 is bigger than cap2 by more than ~5%. */
static inline bool sched_capacity_greater(uint64_t cap1, uint64_t cap2)
{
    return cap1 * 1024 > cap2 * 1078;
}


/* Scheduling domains (topology.c, Linux 5.15's kernel/sched/topology.c):
 * an MC level per cluster when the SoC has several clusters, a DIE level
 * spanning every vCPU; with one cluster (or none given) one MC level spans
 * them all. A level whose span is one vCPU is dropped (sd_degenerate()). */
#define SCHED_SD_LEVELS 2u
enum sched_sd_level { SCHED_SD_MC, SCHED_SD_DIE };
/* The flags balancing reads (include/linux/sched/sd_flags.h). */
#define SCHED_SD_SHARE_PKG_RESOURCES 0x1u /* MC: the vCPUs share a cache (sd_llc) */
#define SCHED_SD_ASYM_CPUCAPACITY 0x2u    /* the span sees more than one capacity */
#define SCHED_SD_PREFER_SIBLING 0x4u      /* spread tasks among the child's groups */
/* sysctl_sched_migration_cost: a task that ran this recently is cache hot. */
#define SCHED_MIGRATION_COST_NS UINT64_C(500000)
/* sched_nr_migrate: detach_tasks() looks at this many tasks at most. */
#define SCHED_NR_MIGRATE 32u

#include "cpumask.h"

/* One vCPU's sched_domain at one level (sd_init()): its span, flags and
 * the periodic balancing state, in ms (intervals) and ticks (last). */
struct sched_domain {
    struct cpumask span;
    enum sched_sd_level level;
    unsigned weight, flags;
    unsigned imbalance_pct;    /* 117 */
    unsigned cache_nice_tries; /* 1 */
    unsigned busy_factor;      /* 16 */
    unsigned min_interval, max_interval, balance_interval; /* ms: weight, 2 * weight */
    unsigned nr_balance_failed;
    uint64_t last_balance; /* in ticks of its vCPU's clock (jiffies) */
};

struct sched;
struct sched_task;

/* uclamp_task_util(): the task's util_avg clamped to its effective
 * util_min/util_max (sched_attr; an RT task's default minimum is 1024). */
unsigned sched_task_util(const struct sched_task *t);
/* task_fits_capacity(): the clamped util fits cpu's capacity. */
bool sched_task_fits_cpu(const struct sched *s, const struct sched_task *t, unsigned cpu);
/* sched_idle_cpu() or available_idle_cpu(): nothing runs on cpu but
 * SCHED_IDLE tasks. */
bool sched_cpu_idle_for_fair(const struct sched *s, unsigned cpu);
/* select_idle_capacity(): from target, wrapping, the first idle CPU of
 * allowed whose capacity fits t, else the idle one of the biggest capacity
 * (ties: first found), else SCHED_NO_CPU. */
unsigned sched_select_idle_capacity(const struct sched *s, const struct sched_task *t,
                                    const struct cpumask *allowed, unsigned target);
/* The fair policies: SCHED_IDLE (weight 3) and SCHED_BATCH (nice's weight;
 * no wake-up preemption, which the fair class does not do yet anyway). */
void sched_task_set_fair_policy(struct sched *s, struct sched_task *t, bool idle, bool batch);

/* Time sharing (cfs.c), Linux 5.15's defaults before update_sysctl()
 * scales them by 1 + ilog2(min(CPUs, 8)): sysctl_sched_latency,
 * sysctl_sched_min_granularity, sysctl_sched_wakeup_granularity;
 * sched_nr_latency; sysctl_sched_idle_min_granularity (not scaled). */
#define SCHED_LATENCY_NS UINT64_C(6000000)
#define SCHED_MIN_GRAN_NS UINT64_C(750000)
#define SCHED_WAKEUP_GRAN_NS UINT64_C(1000000)
#define SCHED_NR_LATENCY 8u
#define SCHED_IDLE_MIN_GRAN_NS UINT64_C(750000)

struct sched_cpu;
/* The load weight: SCHED_IDLE's WEIGHT_IDLEPRIO, else sched_prio_to_weight
 * of its nice (set_load_weight()). */
uint32_t sched_task_weight(const struct sched_task *t);
/* __calc_delta(): delta * weight / lw in the kernel's fixed point (the
 * inverse weight 2^32-1 / lw, shifts kept within 32 bits). */
uint64_t sched_calc_delta(uint64_t delta, uint32_t weight, uint64_t lw);
/* calc_delta_fair(): delta in t's virtual time (NICE_0_LOAD / weight). */
uint64_t sched_calc_delta_fair(uint64_t delta, const struct sched_task *t);
/* The tick (hz, 0: 250) and update_sysctl() for s->nr_cpus. */
void sched_cfs_init(struct sched *s, unsigned hz);
/* __sched_period() for nr_running fair tasks. */
uint64_t sched_period(const struct sched *s, unsigned nr_running);
/* sched_rr_get_interval of a fair task (get_rr_interval_fair()): its
 * sched_slice() on its runqueue in whole jiffies (NS_TO_JIFFIES()), 0 when
 * no fair task is queued there; in ns. */
uint64_t sched_rr_interval_fair(const struct sched *s, const struct sched_task *t);
/* sched_slice(): t's share of the period on rq (on_rq: t is queued there). */
uint64_t sched_slice(const struct sched *s, const struct sched_cpu *rq, const struct sched_task *t,
                     bool on_rq);
/* sd_llc of cpu (its MC level), NULL when it has none; cpus_share_cache(). */
const struct sched_domain *sched_cpu_llc(const struct sched *s, unsigned cpu);
bool sched_cpus_share_cache(const struct sched *s, unsigned a, unsigned b);
/* get_sd_balance_interval(): sd's periodic balancing interval in ticks. */
uint64_t sched_balance_interval(const struct sched *s, const struct sched_domain *sd, bool busy);

/* wakeup_preempt_entity(): -1, 0 or 1. */
int sched_wakeup_preempt_entity(const struct sched *s, const struct sched_task *curr,
                                const struct sched_task *se);

#endif
