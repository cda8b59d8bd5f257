/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cfs.c - the fair class's time sharing as Linux 5.15's kernel/sched/fair.c
 * keeps it (docs/scheduler.md, rules C1-C12): vruntime advanced by
 * calc_delta_fair() at the task's sched_prio_to_weight, the latency target
 * and granularities scaled by update_sysctl(), sched_slice(), preemption
 * at the tick (check_preempt_tick()) and at wake-up
 * (check_preempt_wakeup()), place_entity() for new and waking tasks, and
 * the pick of the leftmost vruntime. A runqueue's list holds its fair
 * tasks in vruntime order behind the higher classes; the one running
 * (rq->cfs_curr, cfs_rq->curr) stays at the head until it is preempted. */
#include "sched-int.h"
#include "sched_events.h"

/* sched_prio_to_weight[], nice -20..19 (kernel/sched/core.c). */
static const uint32_t prio_to_weight[40] = {
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904,
    3906,  3121,  2501,  1991,  1586,  1277,  1024,  820,   655,   526,   423,  335,  272,  215,
    172,   137,   110,   87,    70,    56,    45,    36,    29,    23,    18,   15,
};

#define NICE_0_LOAD 1024u
#define WMULT_CONST 0xffffffffu
#define WMULT_SHIFT 32

uint32_t sched_task_weight(const struct sched_task *t)
{
    return t->idle_policy ? SCHED_WEIGHT_IDLEPRIO : prio_to_weight[t->nice + 20];
}

static int fls32(uint32_t x)
{
    return x ? 32 - __builtin_clz(x) : 0;
}

uint64_t sched_calc_delta(uint64_t delta, uint32_t weight, uint64_t lw)
{
    /* __update_inv_weight() */
    uint32_t inv = lw >= WMULT_CONST ? 1 : lw ? (uint32_t)(WMULT_CONST / lw) : WMULT_CONST;
    uint64_t fact = weight;
    int shift = WMULT_SHIFT;
    uint32_t hi = (uint32_t)(fact >> 32);
    if (hi) {
        int fs = fls32(hi);
        shift -= fs;
        fact >>= fs;
    }
    fact = (uint64_t)(uint32_t)fact * inv;
    hi = (uint32_t)(fact >> 32);
    if (hi) {
        int fs = fls32(hi);
        shift -= fs;
        fact >>= fs;
    }
    /* mul_u64_u32_shr() */
    return (uint64_t)(((unsigned __int128)delta * (uint32_t)fact) >> shift);
}

uint64_t sched_calc_delta_fair(uint64_t delta, const struct sched_task *t)
{
    uint32_t w = sched_task_weight(t);
    return w == NICE_0_LOAD ? delta : sched_calc_delta(delta, NICE_0_LOAD, w);
}

void sched_cfs_init(struct sched *s, unsigned hz)
{
    s->hz = hz ? hz : SCHED_DEFAULT_HZ;
    s->tick_ns = UINT64_C(1000000000) / s->hz;
    /* get_update_sysctl_factor(), SCHED_TUNABLESCALING_LOG: 1 + ilog2(cpus),
     * cpus = min(online CPUs, 8). */
    unsigned cpus = s->nr_cpus < 8 ? s->nr_cpus : 8, factor = 1;
    while (cpus >>= 1)
        factor++;
    s->cfs_factor = factor;
    s->sched_latency_ns = SCHED_LATENCY_NS * factor;
    s->sched_min_gran_ns = SCHED_MIN_GRAN_NS * factor;
    s->sched_wakeup_gran_ns = SCHED_WAKEUP_GRAN_NS * factor;
}

uint64_t sched_period(const struct sched *s, unsigned nr_running)
{
    /* sched_nr_latency = latency / min_granularity = 8 whatever the factor */
    if (nr_running > SCHED_NR_LATENCY)
        return nr_running * s->sched_min_gran_ns;
    return s->sched_latency_ns;
}

/* The fair tasks queued on rq, running one included: their number and the
 * sum of their weights (cfs_rq->nr_running, cfs_rq->load). */
static unsigned cfs_load(const struct sched_cpu *rq, uint64_t *load, unsigned *idle)
{
    unsigned n = 0;
    *load = 0;
    *idle = 0;
    const struct sched_task *t = rq->head;
    if (!t)
        return 0;
    do {
        if (t->cls == SCHED_CLASS_FAIR) {
            n++;
            *load += sched_task_weight(t);
            *idle += t->idle_policy;
        }
        t = t->rq_next;
    } while (t != rq->head);
    return n;
}

uint64_t sched_slice(const struct sched *s, const struct sched_cpu *rq, const struct sched_task *t,
                     bool on_rq)
{
    uint64_t load;
    unsigned idle, nr = cfs_load(rq, &load, &idle);
    if (!on_rq) {
        load += sched_task_weight(t);
        nr++;
        idle += t->idle_policy;
    }
    /* ALT_PERIOD: the period of the runqueue's h_nr_running */
    uint64_t slice = sched_calc_delta(sched_period(s, nr), sched_task_weight(t), load);
    /* BASE_SLICE: at least the minimum granularity, SCHED_IDLE's among
     * non-idle tasks (sysctl_sched_idle_min_granularity, not scaled) */
    uint64_t min_gran = t->idle_policy && idle != nr ? SCHED_IDLE_MIN_GRAN_NS : s->sched_min_gran_ns;
    return slice > min_gran ? slice : min_gran;
}

uint64_t sched_rr_interval_fair(const struct sched *s, const struct sched_task *t)
{
    const struct sched_cpu *rq = &s->cpus[t->cpu < s->nr_cpus ? t->cpu : 0];
    uint64_t load;
    unsigned idle;
    if (!cfs_load(rq, &load, &idle) || !s->tick_ns)
        return 0;
    bool on_rq = t->state == SCHED_TASK_RUNNABLE && t->cls == SCHED_CLASS_FAIR;
    uint64_t slice = sched_slice(s, rq, t, on_rq);
    return slice / s->tick_ns * s->tick_ns;
}

/* The first fair task queued behind the running one: the tree's leftmost
 * (__pick_first_entity()). */
static struct sched_task *leftmost(const struct sched_cpu *rq)
{
    struct sched_task *t = rq->head;
    if (!t)
        return NULL;
    do {
        if (t->cls == SCHED_CLASS_FAIR && t != rq->cfs_curr)
            return t;
        t = t->rq_next;
    } while (t != rq->head);
    return NULL;
}

static bool vr_before(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b) < 0;
}

/* update_min_vruntime(): the smaller of the running task's and the
 * leftmost's vruntime, never going back. */
static void update_min_vruntime(struct sched_cpu *rq)
{
    uint64_t vr = rq->min_vruntime;
    struct sched_task *curr = rq->cfs_curr, *left = leftmost(rq);
    if (curr)
        vr = curr->vruntime;
    if (left)
        vr = curr && vr_before(vr, left->vruntime) ? vr : left->vruntime;
    if (vr_before(rq->min_vruntime, vr))
        rq->min_vruntime = vr;
}

/* The running fair task's time so far: its vCPU's time inside the running
 * slice (sched_note_time) or its clock between slices. */
static uint64_t cpu_now(const struct sched *s, unsigned cpu)
{
    const struct sched_cpu *rq = &s->cpus[cpu];
    if (s->in_slice && s->slice_cpu == cpu && s->slice_now_ns > rq->clock_ns)
        return s->slice_now_ns;
    return rq->clock_ns;
}

void sched__cfs_update_curr(struct sched *s, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    struct sched_task *curr = rq->cfs_curr;
    if (!curr)
        return;
    uint64_t now = cpu_now(s, cpu);
    if (now > curr->exec_start_ns) {
        uint64_t delta = now - curr->exec_start_ns;
        curr->exec_start_ns = now;
        curr->cfs_exec_ns += delta;
        curr->vruntime += sched_calc_delta_fair(delta, curr);
        sched_ev_stat_runtime(s, curr, cpu, now, delta);
    }
    update_min_vruntime(rq);
}

/* place_entity(): a new task starts a virtual slice after min_vruntime
 * (START_DEBIT); a waking one at most half the latency target before it
 * (GENTLE_FAIR_SLEEPERS), never earlier than its own vruntime. */
static void place_entity(struct sched *s, struct sched_cpu *rq, struct sched_task *t, bool initial)
{
    uint64_t vr = rq->min_vruntime;
    if (initial)
        vr += sched_calc_delta_fair(sched_slice(s, rq, t, false), t);
    else
        vr -= s->sched_latency_ns / 2;
    if (vr_before(t->vruntime, vr))
        t->vruntime = vr;
}

/* Takes the running fair task off its place at the head: it goes back
 * among the others by vruntime (put_prev_entity()), and ends its slice if
 * it is running. */
static void put_prev(struct sched *s, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    struct sched_task *curr = rq->cfs_curr;
    sched__cfs_update_curr(s, cpu);
    rq->cfs_curr = NULL;
    curr->need_resched = true;
    curr->cfs_repick = true;
    sched__requeue(rq, curr);
}

void sched__cfs_fork(struct sched *s, const struct sched_task *parent, struct sched_task *child)
{
    /* task_fork_fair(): the parent's vruntime, placed on the parent's
     * runqueue, kept relative to its min_vruntime until enqueued. */
    unsigned cpu = parent->cpu < s->nr_cpus ? parent->cpu : 0;
    struct sched_cpu *rq = &s->cpus[cpu];
    if (rq->cfs_curr == parent)
        sched__cfs_update_curr(s, cpu);
    child->vruntime = parent->cls == SCHED_CLASS_FAIR ? parent->vruntime : rq->min_vruntime;
    child->cfs_exec_ns = 0;
    if (child->cls == SCHED_CLASS_FAIR)
        place_entity(s, rq, child, true);
    child->vruntime -= rq->min_vruntime;
    child->vr_relative = true;
}

void sched__cfs_enqueue(struct sched *s, struct sched_task *t, unsigned cpu, enum sched_enqueue why)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    sched__cfs_update_curr(s, cpu);
    if (t->vr_relative) {
        t->vruntime += rq->min_vruntime;
        t->vr_relative = false;
    } else if (why == SCHED_ENQ_NEW) {
        /* A task not forked (the first one): at min_vruntime. */
        t->vruntime = rq->min_vruntime;
    } else if (t->cpu != cpu && t->cpu < s->nr_cpus) {
        /* migrate_task_rq_fair() and dequeue/enqueue: relative to each
         * runqueue's min_vruntime. */
        t->vruntime = t->vruntime - s->cpus[t->cpu].min_vruntime + rq->min_vruntime;
    }
    if (why == SCHED_ENQ_WAKE && t->cls == SCHED_CLASS_FAIR)
        place_entity(s, rq, t, false);
}

void sched__cfs_dequeue(struct sched *s, struct sched_task *t)
{
    struct sched_cpu *rq = &s->cpus[t->cpu];
    if (rq->cfs_curr == t) {
        sched__cfs_update_curr(s, t->cpu);
        rq->cfs_curr = NULL;
    }
}

void sched__cfs_dequeued(struct sched *s, unsigned cpu)
{
    update_min_vruntime(&s->cpus[cpu]);
}

/* wakeup_preempt_entity(): 1 when curr is ahead of se by more than the
 * wake-up granularity in se's virtual time (wakeup_gran()). */
int sched_wakeup_preempt_entity(const struct sched *s, const struct sched_task *curr,
                                const struct sched_task *se)
{
    int64_t vdiff = (int64_t)(curr->vruntime - se->vruntime);
    if (vdiff <= 0)
        return -1;
    if ((uint64_t)vdiff > sched_calc_delta_fair(s->sched_wakeup_gran_ns, se))
        return 1;
    return 0;
}

void sched__cfs_check_preempt(struct sched *s, struct sched_task *p, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    struct sched_task *curr = rq->cfs_curr;
    if (!curr || curr == p || p->cls != SCHED_CLASS_FAIR || rq->head != curr)
        return;
    /* Idle tasks are preempted by non-idle ones; idle ones never preempt
     * non-idle, nor SCHED_BATCH anything (check_preempt_wakeup()). */
    if (curr->idle_policy && !p->idle_policy) {
        put_prev(s, cpu);
        return;
    }
    if (p->idle_policy || p->batch_policy)
        return;
    sched__cfs_update_curr(s, cpu);
    if (sched_wakeup_preempt_entity(s, curr, p) == 1)
        put_prev(s, cpu);
}

void sched__cfs_displaced(struct sched *s, unsigned cpu)
{
    if (s->cpus[cpu].cfs_curr)
        put_prev(s, cpu);
}

void sched__cfs_pick(struct sched *s, struct sched_task *t, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    if (t->cls != SCHED_CLASS_FAIR) {
        rq->cfs_curr = NULL;
        return;
    }
    /* set_next_entity(): a new turn starts its slice's count. But the
     * task put back while it ran here (by the tick, a wake-up, a yield)
     * and picked again, nothing else having run here meanwhile
     * (!s->switched), keeps its count: 5.15's pick_next_task_fair() with
     * CONFIG_FAIR_GROUP_SCHED calls put_prev_entity()/set_next_entity()
     * only when it picks another task than prev (`if (prev != p)`), so
     * prev_sum_exec_runtime stays and check_preempt_tick() takes the CPU
     * from it at the next tick once another task is leftmost. Restarting
     * the count let a task whose slice ended at a tick while it was still
     * the leftmost run a whole slice more (two hogs pinned to vCPU 0 of an
     * 8-vCPU machine, 12 ms slices from time 0). */
    if (rq->cfs_curr != t || t->cfs_repick) {
        bool again = t->cfs_repick && !s->switched;
        rq->cfs_curr = t;
        t->cfs_repick = false;
        t->exec_start_ns = rq->clock_ns;
        if (!again)
            t->prev_sum_ns = t->cfs_exec_ns;
    }
}

/* check_preempt_tick(): the running task gives way when it has had its
 * slice, or when, past the minimum granularity, it is ahead of the
 * leftmost by more than its slice. */
static bool preempt_tick(struct sched *s, struct sched_cpu *rq, struct sched_task *curr)
{
    uint64_t ideal = sched_slice(s, rq, curr, true);
    uint64_t delta_exec = curr->cfs_exec_ns - curr->prev_sum_ns;
    if (delta_exec > ideal)
        return true;
    if (delta_exec < s->sched_min_gran_ns)
        return false;
    struct sched_task *left = leftmost(rq);
    if (!left)
        return false;
    int64_t delta = (int64_t)(curr->vruntime - left->vruntime);
    return delta > 0 && (uint64_t)delta > ideal;
}

void sched__tick(struct sched *s, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    struct sched_task *curr = rq->head;
    if (!curr)
        return;
    if (curr->rr) {
        /* task_tick_rt(): RR_TIMESLICE is HZ/10 ticks (100 ms). */
        if (++curr->rr_ticks >= s->hz / 10) {
            curr->rr_ticks = 0;
            curr->rr_left_ns = 0;
            if (curr->rq_next != curr && !sched__runs_before(curr, curr->rq_next))
                sched__requeue(rq, curr);
        }
        return;
    }
    if (curr != rq->cfs_curr)
        return;
    sched__cfs_update_curr(s, cpu);
    uint64_t load;
    unsigned idle;
    if (cfs_load(rq, &load, &idle) > 1 && preempt_tick(s, rq, curr))
        put_prev(s, cpu);
}
