/* hotplug.c - CPU hotplug (H1): the cpuN/online file's offline and online,
 * with the policy's veto and migration in select_fallback_rq order (U6, O3). */
#include "sched-int.h"

#include <errno.h>

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
    cpumask_clear_cpu(cpu, &s->online);
    struct sched_cpu *rq = &s->cpus[cpu];
    rq->last = NULL;
    /* Runnable tasks move now; blocked ones find a CPU when they wake. */
    while (rq->head) {
        struct sched_task *t = rq->head;
        sched__move(s, t, sched__select_fallback(s, t, cpu));
    }
    s->balance_dirty = true;
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
    return 0;
}
