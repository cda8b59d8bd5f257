/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hotplug.c - CPU hotplug (H1): the cpuN/online file's offline and online,
 * with the policy's veto and migration in select_fallback_rq order (U6, O3). */
#include "sched-int.h"
#include "sched_events.h"

#include <errno.h>

/* Where a task of an offlined CPU goes, in U6 order for every policy (H1):
 * an online CPU of A, inside M for a compat task; else A becomes the
 * fallback mask, M for a compat task. Only when M has no online CPU left
 * (H2) does a compat task under kill or fixup land outside M, where the
 * check on its way back to user space kills it. */
static unsigned offline_target(struct sched *s, struct sched_task *t, unsigned from)
{
    struct cpumask in_m, m_online;
    if (t->compat && s->mismatched && cpumask_and(&m_online, &s->aarch32, &s->online)) {
        cpumask_and(&in_m, &t->affinity, &m_online);
        if (!cpumask_empty(&in_m))
            return cpumask_first(&in_m);
        sched__fallback_affinity(s, t, &s->aarch32, from);
        return cpumask_first(&m_online);
    }
    return sched__select_fallback(s, t, from);
}

int sched_cpu_offline(struct sched *s, unsigned cpu)
{
    if (cpu >= s->nr_cpus)
        return -EINVAL;
    if (!sched_cpu_is_online(s, cpu))
        return 0;
    /* The kernel checks offline_disabled (U5, -EPERM) before the last CPU. */
    if (s->policy->on_cpu_offline) {
        int err = s->policy->on_cpu_offline(s, cpu);
        if (err)
            return err;
    }
    if (cpumask_weight(&s->online) == 1)
        return -EBUSY;
    /* sched_cpu_deactivate() -> cpuset_cpu_inactive() -> dl_cpu_busy():
     * the admitted deadline bandwidth must fit on the CPUs left. */
    int err = sched__dl_cpu_offline_check(s);
    if (err)
        return err;
    cpumask_clear_cpu(cpu, &s->online);
    struct sched_cpu *rq = &s->cpus[cpu];
    rq->last = NULL;
    /* Runnable tasks move now; blocked ones find a CPU when they wake. */
    while (rq->head) {
        struct sched_task *t = rq->head;
        sched__move(s, t, offline_target(s, t, cpu), MEVENT_MIGRATE_HOTPLUG);
    }
    s->balance_dirty = true;
    sched_ev_hotplug(s, cpu, false);
    return 0;
}

int sched_cpu_online(struct sched *s, unsigned cpu)
{
    if (cpu >= s->nr_cpus)
        return -EINVAL;
    if (sched_cpu_is_online(s, cpu))
        return 0;
    cpumask_set_cpu(cpu, &s->online);
    struct sched_cpu *rq = &s->cpus[cpu];
    if (rq->clock_ns < s->now_ns)
        rq->clock_ns = s->now_ns;
    rq->last = NULL;
    s->balance_dirty = true;
    sched_ev_hotplug(s, cpu, true);
    return 0;
}
