/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policy_linux66.c - Linux 6.6 (G1-G6 in docs/policies.md), the rules of
 * 6.2's "sched: Always preserve the user requested cpumask": the kernel's
 * user_cpus_ptr (t->saved_mask here) is the mask sched_setaffinity(2) last
 * asked for, whatever it was trimmed to. A 32-bit exec narrows that mask to
 * M, a 64-bit exec applies it again, and tasks of the root cpuset keep
 * offline CPUs in A. Boot (U5), the hotplug veto, the possible mask and
 * the exec hooks' switch (on with the parameter whenever some CPU runs
 * 32-bit code, spec 1.2) are upstream's: 6.6 did not change them. */
#include "sched-int.h"

/* task_user_cpus() (kernel/sched/sched.h): every CPU if the user never asked. */
static const struct cpumask *user_cpus(const struct sched *s, const struct sched_task *t)
{
    return t->has_saved_mask ? &t->saved_mask : &s->possible;
}

/* cpuset_cpus_allowed() (kernel/cgroup/cpuset.c): for a task of the root
 * cpuset the task's possible mask, offline CPUs included (6.4's "Include
 * offline CPUs when tasks' cpumasks in top_cpuset are updated"); in
 * another, guarantee_online_cpus() (the cgroup hook, docs/cgroups.md). */
static const struct cpumask *cpuset_cpus(const struct sched *s, const struct sched_task *t,
                                         struct cpumask *in_cpuset)
{
    if (s->cpuset_allowed && s->cpuset_allowed(s->cpuset_arg, t, in_cpuset) &&
        !cpumask_empty(in_cpuset))
        return in_cpuset;
    return upstream_fallback_mask(s, t);
}

/* __set_cpus_allowed_ptr_locked() (kernel/sched/core.c): a mask equal to A
 * succeeds at once, even without an active CPU; another needs one (else
 * -EINVAL). A sched_setaffinity(2) request (SCA_USER) becomes the user mask
 * on success, equal mask included. */
static int set_cpus_allowed(struct sched *s, struct sched_task *t, const struct cpumask *mask,
                            const struct cpumask *user_request)
{
    if (!cpumask_equal(&t->affinity, mask)) {
        int err = sched__set_affinity(s, t, mask);
        if (err)
            return err;
    }
    if (user_request) {
        t->saved_mask = *user_request;
        t->has_saved_mask = true;
    }
    return 0;
}

/* G2, G4: __sched_setaffinity(): the request cut to the cpuset (M for a
 * compat task, offline CPUs kept); -EINVAL if no active CPU is left. */
static int linux66_setaffinity(struct sched *s, struct sched_task *t, const struct cpumask *mask)
{
    struct cpumask m, cs;
    cpumask_and(&m, mask, cpuset_cpus(s, t, &cs));
    return set_cpus_allowed(s, t, &m, mask);
}

/* G1, G3: force_compatible_cpus_allowed_ptr(). restrict_cpus_allowed_ptr()
 * refuses a deadline task (U9) and otherwise narrows the user mask, not A,
 * and saves nothing. If that fails the override is the cpuset's mask: all
 * of M, offline CPUs included, which set_cpus_allowed_ptr() cuts to the
 * user mask when they overlap (G7). */
static void linux66_force_compatible(struct sched *s, struct sched_task *t)
{
    struct cpumask m, cs;
    if (!sched__dl_refuses_restrict(s, t) && cpumask_and(&m, user_cpus(s, t), &s->aarch32) &&
        set_cpus_allowed(s, t, &m, NULL) == 0)
        return;
    const struct cpumask *override = cpuset_cpus(s, t, &cs);
    sched__log_override(s, t, override);
    if (t->has_saved_mask && cpumask_and(&m, override, &t->saved_mask) &&
        set_cpus_allowed(s, t, &m, NULL) == 0)
        return;
    /* The kernel WARNs and leaves A when the cut mask has no active CPU;
     * asymu takes M (U5's CPU is always online) so the task never runs
     * outside M (3.3). */
    set_cpus_allowed(s, t, override, NULL);
}

static void linux66_exec(struct sched *s, struct sched_task *t)
{
    if (t->compat) {
        linux66_force_compatible(s, t);
        return;
    }
    /* G1, G5: relax_compatible_cpus_allowed_ptr() on every 64-bit exec: the
     * user mask (every CPU if none) within the cpuset. A failure only WARNs:
     * A and the user mask stay. */
    struct cpumask m, cs;
    cpumask_and(&m, user_cpus(s, t), cpuset_cpus(s, t, &cs));
    set_cpus_allowed(s, t, &m, NULL);
}

const struct sched_policy sched_policy_linux66 = {
    .on_boot = upstream_boot,
    .on_exec = linux66_exec,
    .on_setaffinity = linux66_setaffinity,
    .on_cpu_offline = upstream_cpu_offline,
    .fallback_mask = upstream_fallback_mask,
    .fallback_drops_user_mask = true,
    .user_mask_with_cpusets = true,
    .exec_when_symmetric = true,
};
