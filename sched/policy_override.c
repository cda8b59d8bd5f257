/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policy_override.c - Deacon v3, the design the article describes (O1-O3):
 * 32-bit exec narrows A to M or overrides it with the fallback mask; a
 * compat task cannot be given a CPU outside M; no saved mask, no SIGKILL. */
#include "sched-int.h"

#include <errno.h>

static void override_exec(struct sched *s, struct sched_task *t)
{
    if (t->compat)
        sched__force_compatible(s, t, false); /* O1 */
}

static int override_setaffinity(struct sched *s, struct sched_task *t, const struct cpumask *mask)
{
    if (t->compat && !cpumask_subset(mask, &s->aarch32))
        return -EINVAL; /* O2 */
    return sched__set_affinity(s, t, mask);
}

/* The series left this case open: with the last online 32-bit CPU gone a
 * compat task would have nowhere to run (O3 needs M & online), so asymu
 * refuses, as it does for the last online CPU. */
static int override_cpu_offline(struct sched *s, unsigned cpu)
{
    struct cpumask m;
    cpumask_and(&m, &s->aarch32, &s->online);
    return cpumask_test_cpu(cpu, &m) && cpumask_weight(&m) == 1 ? -EBUSY : 0;
}

static const struct cpumask *override_fallback_mask(const struct sched *s,
                                                    const struct sched_task *t)
{
    return t->compat ? &s->aarch32 : &s->possible;
}

const struct sched_policy sched_policy_override = {
    .on_exec = override_exec,
    .on_setaffinity = override_setaffinity,
    .on_cpu_offline = override_cpu_offline,
    .fallback_mask = override_fallback_mask,
};
