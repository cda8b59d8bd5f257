/* SPDX-License-Identifier: GPL-2.0-or-later */
/* policy_fixup.c - Yousef RFC patch 3 (K1, K2f, K3, K4, H2): the kill
 * policy's check, but a compat task whose A is not within M has A narrowed
 * to A & M and is moved there; SIGKILL only when that leaves no CPU. */
#include "sched-int.h"

/* K1 (Yousef RFC, seeds 010/011): the context-switch hook flags a compat
 * task only when it lands on a vCPU outside M; a switch onto M leaves A as
 * it is, even if A reaches outside M. */
static void fixup_switch_in(struct sched *s, struct sched_task *t, unsigned cpu)
{
    if (!cpumask_test_cpu(cpu, &s->aarch32))
        t->check_pending = true;
}

/* K1: every 32-bit exec is checked, wherever the task is. */
static void fixup_exec(struct sched *s, struct sched_task *t)
{
    (void)s;
    if (t->compat)
        t->check_pending = true;
}

static int fixup_setaffinity(struct sched *s, struct sched_task *t, const struct cpumask *mask)
{
    return sched__set_affinity(s, t, mask); /* K4 */
}

/* K2f: affinity_in_m is kept current, so a task already within M costs one
 * flag test. */
static enum sched_decision fixup_return_to_user(struct sched *s, struct sched_task *t, unsigned cpu)
{
    if (!t->affinity_in_m) {
        struct cpumask m;
        cpumask_and(&m, &t->affinity, &s->aarch32);
        if (sched__set_affinity(s, t, &m) != 0) {
            sched__warn_once(s, SCHED_MSG_FIXUP_KILL);
            return sched__kill(t);
        }
        if (t->cpu != cpu)
            return SCHED_MIGRATED;
    }
    /* A within M keeps the task inside M; this only guards 3.3. */
    if (!cpumask_test_cpu(cpu, &s->aarch32)) {
        sched__warn_once(s, SCHED_MSG_FIXUP_KILL);
        return sched__kill(t);
    }
    return SCHED_RUN;
}

static const struct cpumask *fixup_fallback_mask(const struct sched *s, const struct sched_task *t)
{
    (void)t;
    return &s->possible;
}

const struct sched_policy sched_policy_fixup = {
    .on_exec = fixup_exec,
    .on_setaffinity = fixup_setaffinity,
    .on_switch_in = fixup_switch_in,
    .on_return_to_user = fixup_return_to_user,
    .fallback_mask = fixup_fallback_mask,
};
