/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policy_upstream.c - Linux 5.15 as merged (U1-U8): 32-bit exec narrows A to
 * M and saves the old A, 64-bit exec restores it, sched_setaffinity(2) keeps
 * only active CPUs (of M for a compat task), one 32-bit CPU cannot go
 * offline, and nothing is ever SIGKILLed. The exec hooks run on a symmetric
 * machine with the parameter too (spec 1.2). */
#include "sched-int.h"

#include <errno.h>

/* U5: the first CPU whose 32-bit support differs from CPU 0's is where the
 * kernel detects the mismatch; the lowest 32-bit CPU becomes unpluggable. */
void upstream_boot(struct sched *s)
{
    bool cpu0_32bit = cpumask_test_cpu(0, &s->aarch32);
    unsigned detected = 1;
    while (cpumask_test_cpu(detected, &s->aarch32) == cpu0_32bit)
        detected++;
    s->protected_cpu = cpumask_first(&s->aarch32);
    sched__log(s, KLOG_INFO, SCHED_MSG_ASYM_DETECTED, detected, s->protected_cpu);
}

/* task_cpu_possible_mask(). */
const struct cpumask *upstream_fallback_mask(const struct sched *s, const struct sched_task *t)
{
    return t->compat ? &s->aarch32 : &s->possible;
}

/* __sched_setaffinity() with CONFIG_CPUSETS and every task in the root
 * cpuset (U4, U8): the mask is cut to the CPUs the task may run on that are
 * active now (M for a compat task). A result equal to A changes nothing and
 * keeps the saved mask (the early exit of __set_cpus_allowed_ptr_locked());
 * any other success clears it. */
static int upstream_setaffinity(struct sched *s, struct sched_task *t, const struct cpumask *mask)
{
    struct cpumask m;
    cpumask_and(&m, mask, &s->online);
    cpumask_and(&m, &m, upstream_fallback_mask(s, t));
    if (cpumask_equal(&m, &t->affinity))
        return 0;
    int err = sched__set_affinity(s, t, &m);
    if (err == 0)
        t->has_saved_mask = false;
    return err;
}

static void upstream_exec(struct sched *s, struct sched_task *t)
{
    if (t->compat) {
        sched__force_compatible(s, t, true); /* U1, U2 */
        return;
    }
    /* U3: restore as if by sched_setaffinity(2); a failure drops the saved
     * mask, a restore that leaves A as it is keeps it. */
    if (t->has_saved_mask) {
        struct cpumask saved = t->saved_mask;
        if (upstream_setaffinity(s, t, &saved) != 0)
            t->has_saved_mask = false;
    }
}

int upstream_cpu_offline(struct sched *s, unsigned cpu)
{
    return cpu == s->protected_cpu ? -EPERM : 0;
}

const struct sched_policy sched_policy_upstream = {
    .on_boot = upstream_boot,
    .on_exec = upstream_exec,
    .on_setaffinity = upstream_setaffinity,
    .on_cpu_offline = upstream_cpu_offline,
    .fallback_mask = upstream_fallback_mask,
    .exec_when_symmetric = true,
};
