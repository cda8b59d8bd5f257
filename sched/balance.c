/* SPDX-License-Identifier: GPL-2.0-or-later */
/* balance.c - periodic load balancing over the scheduling domains as Linux
 * 5.15's kernel/sched/fair.c does it at the tick (rebalance_domains(),
 * load_balance(), find_busiest_group(), calculate_imbalance(),
 * find_busiest_queue(), detach_tasks(), can_migrate_task()), docs/
 * scheduler.md rules B2-B6. Idle vCPUs are balanced by rq.c's idle balance
 * (B7); wake-up and fork placement is in place.c.
 *
 * asymu's PELT keeps utilisation only, so a runqueue's load (cpu_load()) is
 * the sum of the weights of its queued fair tasks (cfs_rq->load.weight, the
 * instantaneous runnable load) and its runnable_avg is taken as 1024 per
 * queued fair task. */
#include "sched-int.h"

uint64_t sched__cpu_load(const struct sched *s, unsigned cpu)
{
    uint64_t load = 0;
    const struct sched_task *h = s->cpus[cpu].head, *t = h;
    if (!h)
        return 0;
    do {
        if (t->cls == SCHED_CLASS_FAIR)
            load += sched_task_weight(t);
        t = t->rq_next;
    } while (t != h);
    return load;
}

unsigned sched__nr_fair(const struct sched *s, unsigned cpu)
{
    unsigned n = 0;
    const struct sched_task *h = s->cpus[cpu].head, *t = h;
    if (!h)
        return 0;
    do {
        n += t->cls == SCHED_CLASS_FAIR;
        t = t->rq_next;
    } while (t != h);
    return n;
}

/* cpu_util(): the runqueue's utilisation, at most its capacity. */
static uint64_t cpu_util(const struct sched *s, unsigned cpu)
{
    const struct sched_cpu *rq = &s->cpus[cpu];
    return rq->pelt.util_avg < rq->capacity ? rq->pelt.util_avg : rq->capacity;
}

/* group_is_overloaded(), group_has_capacity(), group_classify() without
 * the imbalanced and asym-packing types (no SD_ASYM_PACKING, no
 * LBF_SOME_PINNED bookkeeping). */
static bool group_is_overloaded(unsigned pct, const struct sched_sg_stats *g)
{
    if (g->nr_running <= g->weight)
        return false;
    return g->capacity * 100 < g->util * pct || g->capacity * pct < g->runnable * 100;
}

static bool group_has_capacity(unsigned pct, const struct sched_sg_stats *g)
{
    if (g->nr_running < g->weight)
        return true;
    if (g->capacity * pct < g->runnable * 100)
        return false;
    return g->capacity * 100 > g->util * pct;
}

enum sched_group_type sched__group_classify(unsigned pct, const struct sched_sg_stats *g)
{
    if (group_is_overloaded(pct, g))
        return SCHED_GROUP_OVERLOADED;
    if (g->misfit)
        return SCHED_GROUP_MISFIT;
    if (!group_has_capacity(pct, g))
        return SCHED_GROUP_FULLY_BUSY;
    return SCHED_GROUP_HAS_SPARE;
}

/* update_sg_lb_stats(): a group's load, utilisation, tasks, idle vCPUs and
 * type. Misfit tasks are left to the idle balance (F8), so the periodic
 * balance classifies no group as misfit. */
static void sg_lb_stats(const struct sched *s, const struct sched_domain *sd,
                        const struct cpumask *span, struct sched_sg_stats *g)
{
    unsigned cpu;
    *g = (struct sched_sg_stats){0};
    g->min_capacity = UINT32_MAX;
    for_each_cpu(cpu, span)
    {
        const struct sched_cpu *rq = &s->cpus[cpu];
        unsigned nr_fair = sched__nr_fair(s, cpu);
        g->load += sched__cpu_load(s, cpu);
        g->util += cpu_util(s, cpu);
        g->runnable += (uint64_t)nr_fair * SCHED_CAPACITY_SCALE;
        g->h_nr_running += nr_fair;
        g->nr_running += rq->nr_running;
        g->capacity += rq->capacity;
        g->weight++;
        if (rq->capacity < g->min_capacity)
            g->min_capacity = rq->capacity;
        if (rq->capacity > g->max_capacity)
            g->max_capacity = rq->capacity;
        if (!rq->nr_running)
            g->idle_cpus++;
    }
    g->type = sched__group_classify(sd->imbalance_pct, g);
    if (g->type == SCHED_GROUP_OVERLOADED)
        g->avg_load = g->load * SCHED_CAPACITY_SCALE / g->capacity;
}

enum lb_idle { CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE };
enum migration_type { MIGRATE_LOAD, MIGRATE_UTIL, MIGRATE_TASK };

struct lb_env {
    struct sched *s;
    struct sched_domain *sd;
    unsigned dst, src;
    enum lb_idle idle;
    enum migration_type type;
    int64_t imbalance;
    struct cpumask cpus; /* the vCPUs still looked at (all pinned ones drop out) */
    bool all_pinned;
};

/* update_sd_pick_busiest() */
static bool pick_busiest(const struct lb_env *env, const struct sched_sg_stats *sg,
                         const struct sched_sg_stats *busiest)
{
    if (!sg->h_nr_running)
        return false;
    if (sg->type != busiest->type)
        return sg->type > busiest->type;
    switch (sg->type) {
    case SCHED_GROUP_OVERLOADED:
    case SCHED_GROUP_FULLY_BUSY:
        /* avg_load is 0 for a fully busy group: the first one stays. */
        if (sg->avg_load <= busiest->avg_load)
            return false;
        break;
    case SCHED_GROUP_MISFIT:
        return false;
    case SCHED_GROUP_HAS_SPARE:
        if (sg->idle_cpus > busiest->idle_cpus ||
            (sg->idle_cpus == busiest->idle_cpus && sg->nr_running <= busiest->nr_running))
            return false;
        break;
    }
    /* No more than one task per vCPU on bigger vCPUs: leave them there. */
    if ((env->sd->flags & SCHED_SD_ASYM_CPUCAPACITY) && sg->type <= SCHED_GROUP_FULLY_BUSY &&
        sched_capacity_greater(sg->min_capacity, env->s->cpus[env->dst].capacity))
        return false;
    return true;
}

struct sd_lb_stats {
    struct sched_sg_stats local, busiest;
    struct cpumask busiest_span;
    bool have_busiest, prefer_sibling;
    uint64_t total_load, total_capacity, avg_load;
};

/* update_sd_lb_stats(): the groups from the local one, wrapping by vCPU. */
static void sd_lb_stats(struct lb_env *env, struct sd_lb_stats *sds)
{
    const struct sched *s = env->s;
    struct cpumask seen, span;
    cpumask_clear(&seen);
    *sds = (struct sd_lb_stats){0};
    sds->busiest.idle_cpus = UINT32_MAX;
    sds->busiest.type = SCHED_GROUP_HAS_SPARE;
    /* The child's SD_PREFER_SIBLING; the lowest level has no child. */
    struct sched_cpu *rq = &s->cpus[env->dst];
    if (env->sd != &rq->sd[0])
        sds->prefer_sibling = (env->sd - 1)->flags & SCHED_SD_PREFER_SIBLING;
    for (unsigned i = 0; i < s->nr_cpus; i++) {
        unsigned cpu = (env->dst + i) % s->nr_cpus;
        if (!cpumask_test_cpu(cpu, &env->sd->span) || !cpumask_test_cpu(cpu, &env->cpus) ||
            cpumask_test_cpu(cpu, &seen))
            continue;
        sched__group_span(s, env->sd, cpu, &span);
        cpumask_and(&span, &span, &env->cpus);
        cpumask_or(&seen, &seen, &span);
        struct sched_sg_stats g;
        sg_lb_stats(s, env->sd, &span, &g);
        sds->total_load += g.load;
        sds->total_capacity += g.capacity;
        if (i == 0) {
            sds->local = g;
        } else if (pick_busiest(env, &g, &sds->busiest)) {
            sds->busiest = g;
            sds->busiest_span = span;
            sds->have_busiest = true;
        }
    }
}

/* calculate_imbalance() */
static void calculate_imbalance(struct lb_env *env, struct sd_lb_stats *sds)
{
    struct sched_sg_stats *local = &sds->local, *busiest = &sds->busiest;
    if (local->type == SCHED_GROUP_HAS_SPARE) {
        if (busiest->type > SCHED_GROUP_FULLY_BUSY &&
            !(env->sd->flags & SCHED_SD_SHARE_PKG_RESOURCES)) {
            /* Fill the local group's spare capacity. */
            env->type = MIGRATE_UTIL;
            uint64_t cap = local->capacity > local->util ? local->capacity : local->util;
            env->imbalance = (int64_t)(cap - local->util);
            if (env->idle != CPU_NOT_IDLE && env->imbalance == 0) {
                env->type = MIGRATE_TASK;
                env->imbalance = 1;
            }
            return;
        }
        env->type = MIGRATE_TASK;
        if (busiest->weight == 1 || sds->prefer_sibling) {
            /* Spread the running tasks evenly. */
            unsigned diff = busiest->nr_running > local->nr_running
                                ? busiest->nr_running - local->nr_running
                                : 0;
            env->imbalance = diff >> 1;
        } else {
            /* Even out the idle vCPUs. */
            env->imbalance = local->idle_cpus > busiest->idle_cpus
                                 ? (local->idle_cpus - busiest->idle_cpus) >> 1
                                 : 0;
        }
        return;
    }
    if (local->type < SCHED_GROUP_OVERLOADED) {
        /* The local group will be overloaded: avg_load is needed now. */
        local->avg_load = local->load * SCHED_CAPACITY_SCALE / local->capacity;
        sds->avg_load = sds->total_load * SCHED_CAPACITY_SCALE / sds->total_capacity;
        if (local->avg_load >= busiest->avg_load) {
            env->imbalance = 0;
            return;
        }
    }
    /* Bring both towards the domain's average load, no further (nothing
     * when either is already past it: a heavy task elsewhere raised the
     * average; 5.15's unsigned arithmetic would wrap there). */
    env->type = MIGRATE_LOAD;
    if (busiest->avg_load <= sds->avg_load || local->avg_load >= sds->avg_load) {
        env->imbalance = 0;
        return;
    }
    uint64_t a = (busiest->avg_load - sds->avg_load) * busiest->capacity;
    uint64_t b = (sds->avg_load - local->avg_load) * local->capacity;
    env->imbalance = (int64_t)((a < b ? a : b) / SCHED_CAPACITY_SCALE);
}

/* find_busiest_group(): whether to pull, and how much (env->imbalance). */
static bool find_busiest_group(struct lb_env *env, struct sd_lb_stats *sds)
{
    sd_lb_stats(env, sds);
    struct sched_sg_stats *local = &sds->local, *busiest = &sds->busiest;
    if (!sds->have_busiest)
        return false;
    if (local->type > busiest->type)
        return false;
    if (local->type == SCHED_GROUP_OVERLOADED) {
        if (local->avg_load >= busiest->avg_load)
            return false;
        sds->avg_load = sds->total_load * SCHED_CAPACITY_SCALE / sds->total_capacity;
        if (local->avg_load >= sds->avg_load)
            return false;
        if (100 * busiest->avg_load <= env->sd->imbalance_pct * local->avg_load)
            return false;
    }
    bool force = sds->prefer_sibling && local->type == SCHED_GROUP_HAS_SPARE &&
                 busiest->nr_running > local->nr_running + 1;
    if (!force && busiest->type != SCHED_GROUP_OVERLOADED) {
        if (env->idle == CPU_NOT_IDLE)
            return false;
        if (busiest->weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1)
            return false;
        if (busiest->h_nr_running == 1)
            return false;
    }
    calculate_imbalance(env, sds);
    return env->imbalance > 0;
}

/* find_busiest_queue() */
static unsigned find_busiest_queue(const struct lb_env *env, const struct cpumask *span)
{
    const struct sched *s = env->s;
    unsigned cpu, busiest = SCHED_NO_CPU, busiest_nr = 0;
    uint64_t busiest_load = 0, busiest_cap = 1, busiest_util = 0;
    for_each_cpu(cpu, span)
    {
        const struct sched_cpu *rq = &s->cpus[cpu];
        unsigned nr = sched__nr_fair(s, cpu);
        if (!nr)
            continue;
        /* Never by active balancing from a bigger vCPU to a smaller one. */
        if ((env->sd->flags & SCHED_SD_ASYM_CPUCAPACITY) &&
            !sched_capacity_greater(s->cpus[env->dst].capacity, rq->capacity) && nr == 1)
            continue;
        switch (env->type) {
        case MIGRATE_LOAD: {
            uint64_t load = sched__cpu_load(s, cpu);
            if (nr == 1 && load > (uint64_t)env->imbalance)
                break;
            if (load * busiest_cap > busiest_load * rq->capacity) {
                busiest_load = load;
                busiest_cap = rq->capacity;
                busiest = cpu;
            }
            break;
        }
        case MIGRATE_UTIL:
            if (nr <= 1)
                continue;
            if (busiest_util < cpu_util(s, cpu) || busiest == SCHED_NO_CPU) {
                busiest_util = cpu_util(s, cpu);
                busiest = cpu;
            }
            break;
        case MIGRATE_TASK:
            if (busiest_nr < nr) {
                busiest_nr = nr;
                busiest = cpu;
            }
            break;
        }
    }
    return busiest;
}

/* task_hot(): ran on src less than sysctl_sched_migration_cost ago. */
static bool task_hot(const struct lb_env *env, const struct sched_task *t)
{
    if (t->idle_policy)
        return false;
    uint64_t now = env->s->cpus[env->src].clock_ns;
    return now < t->exec_start_ns + SCHED_MIGRATION_COST_NS;
}

/* can_migrate_task(): allowed on dst (affinity, online and
 * task_cpu_possible_mask(): a 32-bit task never leaves M), not running,
 * not cache hot unless balancing failed more than cache_nice_tries times. */
static bool can_migrate_task(struct lb_env *env, const struct sched_task *t)
{
    struct cpumask allowed;
    if (!sched__allowed(env->s, t, &allowed) || !cpumask_test_cpu(env->dst, &allowed))
        return false;
    env->all_pinned = false;
    if (t == env->s->cpus[env->src].head)
        return false;
    /* vCPUs run ahead of each other by up to a batch: a task that ran on
     * src later than dst's clock cannot run on dst before then. */
    if (t->exec_start_ns > env->s->cpus[env->dst].clock_ns)
        return false;
    return !task_hot(env, t) || env->sd->nr_balance_failed > env->sd->cache_nice_tries;
}

/* detach_tasks() + attach_tasks(): the queued fair tasks of src, the one
 * that ran least recently first (the tail of rq->cfs_tasks). */
static unsigned detach_tasks(struct lb_env *env)
{
    struct sched *s = env->s;
    struct sched_task *cand[SCHED_NR_MIGRATE];
    unsigned n = 0, moved = 0;
    struct sched_task *h = s->cpus[env->src].head, *t = h;
    if (env->imbalance <= 0 || !h)
        return 0;
    do {
        if (t->cls == SCHED_CLASS_FAIR && n < SCHED_NR_MIGRATE)
            cand[n++] = t;
        t = t->rq_next;
    } while (t != h);
    /* Least recently run first; a stable insertion sort keeps rq order. */
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && cand[j]->exec_start_ns < cand[j - 1]->exec_start_ns; j--) {
            struct sched_task *x = cand[j];
            cand[j] = cand[j - 1];
            cand[j - 1] = x;
        }
    for (unsigned i = 0; i < n; i++) {
        if (env->idle != CPU_NOT_IDLE && s->cpus[env->src].nr_running <= 1)
            break;
        t = cand[i];
        if (!can_migrate_task(env, t))
            continue;
        switch (env->type) {
        case MIGRATE_LOAD: {
            uint64_t load = sched_task_weight(t);
            unsigned shift = env->sd->nr_balance_failed;
            if ((shift < 64 ? load >> shift : 0) > (uint64_t)env->imbalance)
                continue;
            env->imbalance -= (int64_t)load;
            break;
        }
        case MIGRATE_UTIL:
            if (t->pelt.util_avg > (uint64_t)env->imbalance)
                continue;
            env->imbalance -= t->pelt.util_avg;
            break;
        case MIGRATE_TASK:
            env->imbalance--;
            break;
        }
        sched__move(s, t, env->dst, MEVENT_MIGRATE_BALANCE);
        moved++;
        if (env->idle == CPU_NEWLY_IDLE || env->imbalance <= 0)
            break;
    }
    return moved;
}

/* should_we_balance(): at each level one vCPU of the local group balances,
 * its first idle one, else its first. */
static bool should_we_balance(const struct lb_env *env)
{
    struct cpumask span, idle;
    if (env->idle == CPU_NEWLY_IDLE)
        return true;
    sched__group_span(env->s, env->sd, env->dst, &span);
    if (cpumask_andnot(&idle, &span, &env->s->busy))
        return cpumask_first(&idle) == env->dst;
    return cpumask_first(&span) == env->dst;
}

/* load_balance(): returns the number of tasks pulled to dst; false in
 * *cont when another vCPU balances this level. Without active balancing. */
static unsigned load_balance(struct sched *s, unsigned dst, struct sched_domain *sd,
                             enum lb_idle idle, bool *cont)
{
    struct lb_env env = {.s = s, .sd = sd, .dst = dst, .idle = idle};
    struct sd_lb_stats sds;
    unsigned moved = 0;
    cpumask_and(&env.cpus, &sd->span, &s->online);
    if (!should_we_balance(&env)) {
        *cont = false;
        goto out_balanced;
    }
    for (;;) {
        if (!find_busiest_group(&env, &sds))
            goto out_balanced;
        env.src = find_busiest_queue(&env, &sds.busiest_span);
        if (env.src == SCHED_NO_CPU)
            goto out_balanced;
        env.all_pinned = true;
        if (s->cpus[env.src].nr_running > 1) {
            moved = detach_tasks(&env);
            if (env.all_pinned) {
                /* Every task there is pinned: look again without it. */
                cpumask_clear_cpu(env.src, &env.cpus);
                struct cpumask dst_group, rest;
                sched__group_span(s, sd, dst, &dst_group);
                if (cpumask_andnot(&rest, &env.cpus, &dst_group))
                    continue;
                goto out_all_pinned;
            }
        }
        break;
    }
    if (!moved) {
        if (idle != CPU_NEWLY_IDLE)
            sd->nr_balance_failed++;
    } else {
        sd->nr_balance_failed = 0;
    }
    sd->balance_interval = sd->min_interval;
    return moved;

out_balanced:
out_all_pinned:
    sd->nr_balance_failed = 0;
    if (idle == CPU_NEWLY_IDLE)
        return 0;
    /* Balanced: balance less often, up to max_interval (MAX_PINNED_INTERVAL
     * 512 ms when every task was pinned). */
    if ((env.all_pinned && sd->balance_interval < 512) || sd->balance_interval < sd->max_interval)
        sd->balance_interval *= 2;
    return 0;
}

uint64_t sched_balance_interval(const struct sched *s, const struct sched_domain *sd, bool busy)
{
    /* get_sd_balance_interval(): ms to jiffies (msecs_to_jiffies() rounds
     * up), one less when busy so levels do not balance in step, within
     * 1 .. max_load_balance_interval (HZ * online CPUs / 10). */
    uint64_t ms = sd->balance_interval * (busy ? (uint64_t)sd->busy_factor : 1);
    uint64_t j = (ms * s->hz + 999) / 1000;
    if (busy)
        j -= 1;
    uint64_t max = (uint64_t)s->hz * cpumask_weight(&s->online) / 10;
    if (j > max)
        j = max;
    return j < 1 ? 1 : j;
}

void sched__rebalance_domains(struct sched *s, unsigned cpu)
{
    struct sched_cpu *rq = &s->cpus[cpu];
    if (!s->tick_ns || !cpumask_test_cpu(cpu, &s->online))
        return;
    uint64_t jiffies = rq->clock_ns / s->tick_ns;
    enum lb_idle idle = rq->nr_running ? CPU_NOT_IDLE : CPU_IDLE;
    bool busy = idle != CPU_IDLE && !sched_cpu_idle_for_fair(s, cpu), cont = true;
    for (unsigned i = 0; i < rq->nr_sd && cont; i++) {
        struct sched_domain *sd = &rq->sd[i];
        if (jiffies < sd->last_balance + sched_balance_interval(s, sd, busy))
            continue;
        if (load_balance(s, cpu, sd, idle, &cont)) {
            idle = rq->nr_running ? CPU_NOT_IDLE : CPU_IDLE;
            busy = idle != CPU_IDLE && !sched_cpu_idle_for_fair(s, cpu);
        }
        sd->last_balance = jiffies;
    }
}
