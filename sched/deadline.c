/* SPDX-License-Identifier: GPL-2.0-or-later */
/* deadline.c - SCHED_DEADLINE: parameter checks, admission control over the
 * root domain (every active vCPU), and the constant bandwidth server that
 * gives a task `runtime` of every `period`, its jobs ordered by absolute
 * deadline (Linux 5.15's behaviour, written from its documentation). */
#include "sched-int.h"

#include <errno.h>

#define DL_MIN_RUNTIME_NS (UINT64_C(1) << 10)         /* 2^DL_SCALE */
#define DL_PERIOD_MIN_NS (UINT64_C(100) * 1000)       /* sched_deadline_period_min_us */
#define DL_PERIOD_MAX_NS ((UINT64_C(1) << 22) * 1000) /* sched_deadline_period_max_us */
#define DL_SIGN_BIT (UINT64_C(1) << 63)

static uint64_t bw_of(uint64_t runtime, uint64_t period)
{
    return period ? (runtime << SCHED_BW_SHIFT) / period : 0;
}

bool sched_dl_params_valid(uint64_t runtime, uint64_t deadline, uint64_t period)
{
    if (deadline == 0 || runtime < DL_MIN_RUNTIME_NS)
        return false;
    if ((deadline | period) & DL_SIGN_BIT)
        return false;
    if (!period)
        period = deadline;
    return runtime <= deadline && deadline <= period && period >= DL_PERIOD_MIN_NS &&
           period <= DL_PERIOD_MAX_NS;
}

/* The root domain: every active vCPU (asymu has no cpuset partitions). */
static unsigned root_domain_cpus(const struct sched *s)
{
    return cpumask_weight(&s->online);
}

/* inactive_task_timer(): the bandwidth of tasks whose 0-lag time has come
 * leaves the total. */
static void release_lagging(struct sched *s)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < s->nr_dl_lagging; i++) {
        if (s->dl_lagging[i].until_ns <= s->now_ns)
            s->dl_total_bw -= s->dl_lagging[i].bw;
        else
            s->dl_lagging[kept++] = s->dl_lagging[i];
    }
    s->nr_dl_lagging = kept;
}

/* Would total - old + new exceed rt_runtime/rt_period of cpus CPUs
 * (__dl_overflow())? */
static bool overflows_on(struct sched *s, unsigned cpus, uint64_t old_bw, uint64_t new_bw)
{
    if (!sched_dl_admission_on(s->rt_runtime_us))
        return false;
    release_lagging(s);
    uint64_t cap = bw_of((uint64_t)s->rt_runtime_us, (uint64_t)s->rt_period_us);
    return cap * cpus < s->dl_total_bw - old_bw + new_bw;
}

static bool overflows(struct sched *s, uint64_t old_bw, uint64_t new_bw)
{
    return overflows_on(s, root_domain_cpus(s), old_bw, new_bw);
}

int sched__dl_cpu_offline_check(struct sched *s)
{
    return overflows_on(s, root_domain_cpus(s) - 1, 0, 0) ? -EBUSY : 0;
}

int sched_dl_set_global(struct sched *s, bool period, int64_t value)
{
    release_lagging(s);
    int64_t runtime = period ? s->rt_runtime_us : value;
    int64_t per = period ? value : s->rt_period_us;
    if (per < 1 || per > INT32_MAX || runtime < -1 || runtime > per)
        return -EINVAL;
    if (sched_dl_admission_on(runtime) &&
        bw_of((uint64_t)runtime, (uint64_t)per) * root_domain_cpus(s) < s->dl_total_bw)
        return -EBUSY;
    s->rt_runtime_us = runtime;
    s->rt_period_us = per;
    return 0;
}

int sched_task_set_deadline(struct sched *s, struct sched_task *t, uint64_t runtime,
                            uint64_t deadline, uint64_t period, uint32_t flags)
{
    if (!period)
        period = deadline;
    bool was_dl = t->cls == SCHED_CLASS_DEADLINE;
    if (sched_dl_admission_on(s->rt_runtime_us) && !cpumask_subset(&s->online, &t->affinity))
        return -EPERM;
    uint64_t bw = bw_of(runtime, period);
    uint64_t old_bw = was_dl ? t->dl.bw : 0;
    if (!(was_dl && bw == old_bw) && overflows(s, old_bw, bw))
        return -EBUSY;
    if (!was_dl)
        sched_task_set_class(s, t, SCHED_CLASS_DEADLINE, 0, false);
    s->dl_total_bw = s->dl_total_bw - old_bw + bw;
    t->dl.bw = bw;
    t->dl.runtime = runtime;
    t->dl.deadline = deadline;
    t->dl.period = period;
    t->dl.flags = flags;
    if (t->dl.throttled) {
        t->dl.throttled = false;
        s->nr_dl_throttled--;
    }
    uint64_t now = s->now_ns;
    if (t->cpu < s->nr_cpus && s->cpus[t->cpu].clock_ns > now)
        now = s->cpus[t->cpu].clock_ns;
    sched__dl_start(t, now, false);
    if (t->state == SCHED_TASK_RUNNABLE) {
        struct sched_cpu *rq = &s->cpus[t->cpu];
        rq->head->need_resched = true;
        sched__requeue(rq, t);
        t->need_resched = true;
    }
    return 0;
}

/* When a task's lag is 0: the absolute deadline minus the time its budget
 * left lasts at its bandwidth (later than the deadline for an overrun). */
static uint64_t zero_lag_time(const struct sched_task *t)
{
    __int128 left = (__int128)t->dl.budget * (__int128)t->dl.period / (__int128)t->dl.runtime;
    __int128 at = (__int128)t->dl.abs_deadline - left;
    return at < 0 ? 0 : (uint64_t)at;
}

void sched__dl_release(struct sched *s, struct sched_task *t, bool queued)
{
    if (t->cls != SCHED_CLASS_DEADLINE)
        return;
    uint64_t now = t->cpu < s->nr_cpus && s->cpus[t->cpu].clock_ns > s->now_ns
                       ? s->cpus[t->cpu].clock_ns
                       : s->now_ns;
    uint64_t until = zero_lag_time(t);
    /* task_non_contending(): a queued task with lag keeps its share in
     * the total until its 0-lag time. */
    if (queued && until > now && s->nr_dl_lagging < SCHED_DL_LAGGING_MAX)
        s->dl_lagging[s->nr_dl_lagging++] = (struct sched_dl_lagging){until, t->dl.bw};
    else
        s->dl_total_bw -= t->dl.bw;
    if (t->dl.throttled)
        s->nr_dl_throttled--;
    t->dl = (struct sched_dl){0};
    /* Not a deadline task any more, also for the slice a dying one ends. */
    t->cls = SCHED_CLASS_FAIR;
}

/* The CBS wake-up rule: keep the current deadline and budget unless the
 * deadline has passed or the budget left would use more than the task's
 * bandwidth until it (runtime_left / (deadline - now) > runtime / deadline). */
static bool must_renew(const struct sched_task *t, uint64_t now)
{
    if (t->dl.abs_deadline <= now)
        return true;
    if (t->dl.budget <= 0)
        return false;
    unsigned __int128 left = (unsigned __int128)(uint64_t)t->dl.budget * t->dl.deadline;
    unsigned __int128 right = (unsigned __int128)(t->dl.abs_deadline - now) * t->dl.runtime;
    return left > right;
}

void sched__dl_start(struct sched_task *t, uint64_t now, bool waking)
{
    if (!waking || must_renew(t, now)) {
        t->dl.abs_deadline = now + t->dl.deadline;
        t->dl.budget = (int64_t)t->dl.runtime;
    }
}

/* A new period: budget and deadline move on until the budget is positive;
 * a task that fell behind starts afresh from now. */
static void replenish(struct sched_task *t, uint64_t now)
{
    while (t->dl.budget <= 0) {
        t->dl.abs_deadline += t->dl.period;
        t->dl.budget += (int64_t)t->dl.runtime;
    }
    if (t->dl.abs_deadline <= now) {
        t->dl.abs_deadline = now + t->dl.deadline;
        t->dl.budget = (int64_t)t->dl.runtime;
    }
    t->slice_left = 0;
}

void sched__dl_charge(struct sched *s, struct sched_task *t, unsigned cpu, uint64_t ns)
{
    t->dl.budget -= (int64_t)ns;
    if (t->yielded && t->dl.budget > 0)
        t->dl.budget = 0; /* sched_yield gives up the rest of this period */
    if (t->dl.budget > 0)
        return;
    uint64_t now = s->cpus[cpu].clock_ns;
    t->dl.replenish_at = t->dl.abs_deadline - t->dl.deadline + t->dl.period;
    if (t->dl.replenish_at <= now) {
        replenish(t, now);
    } else {
        t->dl.throttled = true;
        s->nr_dl_throttled++;
        t->need_resched = true;
    }
    if (t->state == SCHED_TASK_RUNNABLE && t->cpu == cpu)
        sched__requeue(&s->cpus[cpu], t);
}

/* The slice of the task that spends its budget ends exactly there, as
 * 5.15 does with sched_feat(HRTICK_DL) (start_hrtick_dl() arms an hrtimer
 * for the budget's end; without it update_curr_dl() notices at the next
 * tick and the overrun is paid from the next period: docs/scheduler.md);
 * a throttled task's replenishment ends the slice of what runs
 * meanwhile (the dl_timer: dl_task_timer()). */
uint64_t sched_dl_next_event(const struct sched *s, unsigned cpu)
{
    const struct sched_cpu *rq = &s->cpus[cpu];
    const struct sched_task *head = rq->head;
    if (!head)
        return UINT64_MAX;
    uint64_t due = UINT64_MAX;
    if (head->cls == SCHED_CLASS_DEADLINE && !head->dl.throttled && head->dl.budget > 0)
        due = rq->clock_ns + (uint64_t)head->dl.budget;
    if (!s->nr_dl_throttled)
        return due;
    const struct sched_task *pos = head;
    do {
        if (pos->dl.throttled && pos->dl.replenish_at < due)
            due = pos->dl.replenish_at;
        pos = pos->rq_next;
    } while (pos != head);
    return due;
}

void sched__dl_replenish_due(struct sched *s, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    for (;;) {
        struct sched_task *due = NULL, *pos = rq->head;
        do {
            if (pos->dl.throttled && pos->dl.replenish_at <= rq->clock_ns)
                due = pos;
            pos = pos->rq_next;
        } while (!due && pos != rq->head);
        if (!due)
            return;
        due->dl.throttled = false;
        s->nr_dl_throttled--;
        replenish(due, rq->clock_ns);
        sched__requeue(rq, due);
    }
}

uint64_t sched__cpu_ready_time(const struct sched *s, unsigned cpu)
{
    const struct sched_cpu *rq = &s->cpus[cpu];
    const struct sched_task *head = rq->head;
    uint64_t ready = rq->clock_ns;
    if (head && head->dl.throttled && head->dl.replenish_at > ready)
        ready = head->dl.replenish_at;
    /* Throttled deadline or real-time tasks only (rt.c): the first of the
     * deadline task's period and the RT bandwidth period. */
    if (head && rq->rt_throttled && (head->dl.throttled || head->rt_throttled) &&
        rq->rt_period_end_ns > rq->clock_ns && (head->rt_throttled || rq->rt_period_end_ns < ready))
        ready = rq->rt_period_end_ns;
    return ready;
}

int sched_dl_check_affinity(const struct sched *s, const struct sched_task *t,
                            const struct cpumask *mask)
{
    if (t->cls != SCHED_CLASS_DEADLINE || !sched_dl_admission_on(s->rt_runtime_us))
        return 0;
    /* What the task could use of the mask: its active CPUs it may run on. */
    struct cpumask usable;
    cpumask_and(&usable, mask, &s->online);
    cpumask_and(&usable, &usable, s->policy->fallback_mask(s, t));
    return cpumask_subset(&s->online, &usable) ? 0 : -EBUSY;
}

int sched_dl_exec_check(const struct sched *s, const struct sched_task *t, bool compat_image)
{
    if (!compat_image || !s->mismatched ||
        (s->policy_id != SCHED_POLICY_UPSTREAM && s->policy_id != SCHED_POLICY_LINUX66))
        return 0;
    if (t->cls != SCHED_CLASS_DEADLINE || !sched_dl_admission_on(s->rt_runtime_us))
        return 0;
    return cpumask_subset(&s->online, &s->aarch32) ? 0 : -ENOEXEC;
}
