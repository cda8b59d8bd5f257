/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_energy.h - performance domains, the energy model and the schedutil
 * governor of Linux 5.15 (docs/scheduler.md, rules E1-E9; docs/socs.md,
 * "Energy model"): include/linux/energy_model.h and kernel/power/
 * energy_model.c (the model), kernel/sched/cpufreq_schedutil.c (the
 * governor), find_energy_efficient_cpu() of kernel/sched/fair.c (EAS).
 * Included by scheduler.h; the code is in energy_model.c, schedutil.c and
 * eas.c. */
#ifndef ASYMU_SCHED_ENERGY_H
#define ASYMU_SCHED_ENERGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpumask.h"

#define SCHED_EM_MAX_PDS 8u
#define SCHED_EM_MAX_OPPS 64u
/* EM_MAX_POWER (energy_model.h, 5.15): power is in mW and fits 16 bits. */
#define SCHED_EM_MAX_POWER 0xffffu
/* schedutil's rate_limit_us: cpufreq_policy_transition_delay_us() gives
 * LATENCY_MULTIPLIER (1000 us) when the driver states no transition
 * latency, which is what asymu's cpufreq drivers are taken to do. */
#define SCHED_SU_RATE_LIMIT_NS UINT64_C(1000000)

/* One performance domain (a cpufreq policy, struct em_perf_domain): its
 * CPUs and its OPPs, ascending; power 0 everywhere when only the
 * frequencies are known (a governor without an energy model). */
struct sched_em_pd {
    struct cpumask cpus;
    unsigned nr;
    uint32_t khz[SCHED_EM_MAX_OPPS];
    uint32_t mw[SCHED_EM_MAX_OPPS];
    uint64_t cost[SCHED_EM_MAX_OPPS]; /* em_perf_state.cost: power * max_freq / freq */
};

/* The machine's performance domains. nr_pds 0: no cpufreq governor. */
struct sched_em {
    unsigned nr_pds;
    bool has_power; /* an energy model (mW for every OPP): EAS may run */
    struct sched_em_pd pd[SCHED_EM_MAX_PDS];
};

/* Adds a domain: cpus (no CPU in two domains), n OPPs of ascending khz with
 * mw (NULL: no power). em_create_perf_table()'s checks: frequencies
 * strictly increasing, power 1..EM_MAX_POWER. 0, or -1 with why. */
int sched_em_add_pd(struct sched_em *em, const struct cpumask *cpus, const uint32_t *khz,
                    const uint32_t *mw, unsigned n, char *why, size_t whylen);
/* Parses an --energy-model file's text (docs/socs.md, "Energy model") for a
 * machine of nr_cpus: every CPU in one domain. 0, or -1 with
 * "NAME:LINE: reason" (or "NAME: reason") in why. */
int sched_em_parse(const char *text, const char *name, unsigned nr_cpus, struct sched_em *em,
                   char *why, size_t whylen);
/* em_dev_register_perf_domain()'s rule: the CPUs of a domain have one
 * capacity. 0, or -1 with why. */
int sched_em_check_capacity(const struct sched_em *em, const uint16_t *capacity, char *why,
                            size_t whylen);
/* The dynamic power of an OPP as drivers/opp/of.c's _get_power() computes
 * it from a device tree's dynamic-power-coefficient: coeff * mV^2 * MHz /
 * 10^9 mW. */
uint32_t sched_em_dt_power(uint32_t coeff, uint32_t khz, uint32_t mv);

/* map_util_freq() / get_next_freq()'s raw frequency: 1.25 * max * util / cap. */
static inline uint64_t sched_map_util_freq(uint64_t util, uint64_t max_khz, uint64_t cap)
{
    return (max_khz + (max_khz >> 2)) * util / cap;
}
/* cpufreq_driver_resolve_freq() with CPUFREQ_RELATION_L: the lowest OPP at
 * or above khz, the highest when none is. */
uint32_t sched_em_resolve_freq(const struct sched_em_pd *pd, uint64_t khz);
/* em_cpu_energy(): the domain's energy for the utilisation of its busiest
 * CPU (max_util, which picks the OPP as schedutil would) and the sum of
 * its CPUs' (sum_util), on CPUs of capacity scale_cpu. */
uint64_t sched_em_cpu_energy(const struct sched_em_pd *pd, uint64_t max_util, uint64_t sum_util,
                             uint64_t scale_cpu);

struct sched;
struct sched_task;
/* compute_energy() (fair.c): the energy of domain d with t (util tutil)
 * on dst, SCHED_NO_CPU for nowhere, at time now (eas.c). */
uint64_t sched_eas_compute_energy(const struct sched *s, unsigned d, const struct sched_task *t,
                                  uint64_t tutil, unsigned dst, uint64_t now);
/* The root domain is overutilized: some online CPU's utilisation does not
 * fit its capacity (cpu_overutilized()). */
bool sched_eas_overutilized(const struct sched *s, uint64_t now);

#endif
