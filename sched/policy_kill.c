/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policy_kill.c - Deacon v1 / Yousef RFC patch 2 (K1-K4, H2): affinity is
 * the user's business; a compat task found on a CPU outside M when it is
 * about to return to user space is SIGKILLed. */
#include "sched-int.h"

/* K1: after a 32-bit exec and on every switch, check before user mode. */
static void kill_flag_check(struct sched *s, struct sched_task *t, unsigned cpu)
{
    (void)s;
    (void)cpu;
    t->check_pending = true;
}

static void kill_exec(struct sched *s, struct sched_task *t)
{
    if (t->compat)
        kill_flag_check(s, t, t->cpu);
}

static int kill_setaffinity(struct sched *s, struct sched_task *t, const struct cpumask *mask)
{
    return sched__set_affinity(s, t, mask); /* K4 */
}

/* K2: one bit test. */
static enum sched_decision kill_return_to_user(struct sched *s, struct sched_task *t, unsigned cpu)
{
    if (cpumask_test_cpu(cpu, &s->aarch32))
        return SCHED_RUN;
    sched__warn_once(s, SCHED_MSG_KILL);
    return sched__kill(t);
}

static const struct cpumask *kill_fallback_mask(const struct sched *s, const struct sched_task *t)
{
    (void)t;
    return &s->possible;
}

const struct sched_policy sched_policy_kill = {
    .on_exec = kill_exec,
    .on_setaffinity = kill_setaffinity,
    .on_switch_in = kill_flag_check,
    .on_return_to_user = kill_return_to_user,
    .fallback_mask = kill_fallback_mask,
};
