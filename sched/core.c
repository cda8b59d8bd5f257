/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core.c - the policy-free scheduler core: boot, task lifecycle (init, fork,
 * exec, exit, block, wake), affinity syscalls and the kernel log hook. */
#include "sched-int.h"
#include "sched_events.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void sched__log(struct sched *s, int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    klog_vprintf(s->log, s->log_ns > s->now_ns ? s->log_ns : s->now_ns, level, fmt, ap);
    va_end(ap);
}

/* lib/ratelimit.c's ___ratelimit() with printk_ratelimit_state
 * (DEFAULT_RATELIMIT_INTERVAL 5 s, DEFAULT_RATELIMIT_BURST 10). */
#define PRINTK_RATELIMIT_NS (UINT64_C(5) * 1000000000u)
#define PRINTK_RATELIMIT_BURST 10u

bool sched__printk_ratelimit(struct sched *s, const char *func)
{
    struct sched_ratelimit *rs = &s->printk_ratelimit;
    uint64_t now = s->log_ns > s->now_ns ? s->log_ns : s->now_ns;
    if (!rs->started) {
        rs->started = true;
        rs->begin_ns = now;
    }
    if (now > rs->begin_ns + PRINTK_RATELIMIT_NS) {
        if (rs->missed)
            sched__log(s, KLOG_WARNING, "%s: %u callbacks suppressed", func, rs->missed);
        rs->missed = 0;
        rs->begin_ns = now;
        rs->printed = 0;
    }
    if (rs->printed < PRINTK_RATELIMIT_BURST) {
        rs->printed++;
        return true;
    }
    rs->missed++;
    return false;
}

void sched__warn_once(struct sched *s, const char *msg)
{
    if (s->warned_once)
        return;
    s->warned_once = true;
    sched__log(s, KLOG_WARNING, "%s", msg);
}

/* Every CPU runs 32-bit code. */
static bool symmetric_32bit(const struct sched *s)
{
    return cpumask_equal(&s->aarch32, &s->possible);
}

int sched_init(struct sched *s, const struct sched_config *cfg)
{
    if (cfg->nr_cpus < 1 || cfg->nr_cpus > NR_CPUS_MAX || !cfg->log ||
        (cfg->hz && cfg->hz != 100 && cfg->hz != 250 && cfg->hz != 300 && cfg->hz != 1000) ||
        (unsigned)cfg->policy >= SCHED_NR_POLICIES || cfg->slice_jitter_pct > 50)
        return -EINVAL;
    for (unsigned cpu = 0; cfg->capacity && cpu < cfg->nr_cpus; cpu++)
        if (cfg->capacity[cpu] > SCHED_CAPACITY_SCALE)
            return -EINVAL;
    memset(s, 0, sizeof(*s));
    s->nr_cpus = cfg->nr_cpus;
    cpumask_setall(&s->possible, cfg->nr_cpus);
    if (!cpumask_subset(&cfg->aarch32, &s->possible))
        return -EINVAL;
    s->cpus = calloc(cfg->nr_cpus, sizeof(*s->cpus));
    if (!s->cpus)
        return -ENOMEM;
    s->online = s->possible;
    s->aarch32 = cfg->aarch32;
    s->allow_mismatched = cfg->allow_mismatched_32bit_el0;
    s->policy_id = cfg->policy;
    s->policy = sched_policies[cfg->policy].ops;
    s->log = cfg->log;
    s->protected_cpu = SCHED_NO_CPU;
    s->rng = cfg->seed;
    s->slice_blocks = cfg->slice_blocks ? cfg->slice_blocks : SCHED_DEFAULT_SLICE_BLOCKS;
    s->ns_per_block = cfg->ns_per_block ? cfg->ns_per_block : SCHED_DEFAULT_NS_PER_BLOCK;
    s->slice_jitter_pct = cfg->slice_jitter_pct;
    s->insn_rate_milli = cfg->insn_rate_milli ? cfg->insn_rate_milli : SCHED_DEFAULT_INSN_RATE_MILLI;
    /* 1e6 fs per ns over (rate / 1000) instructions per ns. */
    s->insn_fs = UINT64_C(1000000000) / s->insn_rate_milli;
    for (unsigned cpu = 0; cpu < cfg->nr_cpus; cpu++) {
        /* 0 reads as the full scale, as in emu's config. */
        uint16_t cap = cfg->capacity ? cfg->capacity[cpu] : 0;
        s->cpus[cpu].capacity = cap ? cap : SCHED_CAPACITY_SCALE;
        s->cpus[cpu].max_freq_khz = SCHED_DEFAULT_MAX_FREQ_KHZ;
        sched_cpu_set_freq(s, cpu, SCHED_DEFAULT_MAX_FREQ_KHZ);
        /* asym_cpu_capacity_scan(): more than one capacity, SD_ASYM_CPUCAPACITY. */
        if (s->cpus[cpu].capacity != s->cpus[0].capacity)
            s->asym_capacity = true;
    }
    if (sched__energy_init(s, cfg) < 0) {
        sched_destroy(s);
        return -EINVAL;
    }
    s->rt_runtime_us = SCHED_RT_RUNTIME_US;
    s->rt_period_us = SCHED_RT_PERIOD_US;
    s->events.nr_cpus = cfg->nr_cpus;
    sched_cfs_init(s, cfg->hz);
    sched__topology_init(s, cfg->cluster);

    /* Spec 1.2: without the parameter a mixed machine is 64-bit only for
     * user space; with it, and some but not all CPUs 32-bit, it is mismatched. */
    bool symmetric = symmetric_32bit(s);
    bool some = !cpumask_empty(&s->aarch32);
    s->mismatched = s->allow_mismatched && some && !symmetric;
    s->aarch32_el0_allowed = symmetric || s->mismatched;
    s->switch_check = s->mismatched && s->policy->on_switch_in;
    if (s->mismatched && s->policy->on_boot)
        s->policy->on_boot(s);
    return 0;
}

void sched_cpu_set_freq(struct sched *s, unsigned cpu, uint32_t khz)
{
    struct sched_cpu *c = &s->cpus[cpu];
    if (khz < 1)
        khz = 1;
    if (khz > c->max_freq_khz)
        khz = c->max_freq_khz;
    c->cur_freq_khz = khz;
    /* Time is inversely proportional to capacity and to the frequency's
     * share of the maximum (the kernel's arch_scale_cpu_capacity() and
     * arch_scale_freq_capacity() scale utilisation the same way). */
    c->time_scale = ((uint64_t)SCHED_CAPACITY_SCALE * c->max_freq_khz << 16) /
                    ((uint64_t)c->capacity * khz);
}

void sched_destroy(struct sched *s)
{
    free(s->cpus);
    s->cpus = NULL;
    mevent_close(&s->events);
}

static void tasks_add(struct sched *s, struct sched_task *t)
{
    if (!s->tasks) {
        t->all_next = t->all_prev = t;
        s->tasks = t;
    } else {
        t->all_next = s->tasks;
        t->all_prev = s->tasks->all_prev;
        t->all_prev->all_next = t;
        s->tasks->all_prev = t;
    }
    s->nr_tasks++;
}

static void tasks_remove(struct sched *s, struct sched_task *t)
{
    if (t->all_next == t) {
        s->tasks = NULL;
    } else {
        t->all_prev->all_next = t->all_next;
        t->all_next->all_prev = t->all_prev;
        if (s->tasks == t)
            s->tasks = t->all_next;
    }
    t->all_next = t->all_prev = NULL;
    s->nr_tasks--;
}

void sched__update_flags(const struct sched *s, struct sched_task *t)
{
    t->affinity_in_m = cpumask_subset(&t->affinity, &s->aarch32);
    t->switch_check = t->compat && s->switch_check;
}

void sched_task_set_comm(struct sched_task *t, const char *comm)
{
    strncpy(t->comm, comm, sizeof(t->comm) - 1);
    t->comm[sizeof(t->comm) - 1] = '\0';
}

/* select_task_rq() of t's class from target, among the allowed CPUs. */
static unsigned select_cpu(const struct sched *s, const struct sched_task *t,
                           const struct cpumask *allowed, unsigned target)
{
    if (t->cls == SCHED_CLASS_RT)
        return sched__select_cpu_rt(s, t, allowed, target);
    return sched__select_cpu_fair(s, t, allowed, target);
}

/* Puts a new task on the least loaded CPU it may use, like the kernel's
 * fork balancing; a real-time one from its parent's CPU
 * (select_task_rq_rt() with SD_BALANCE_FORK starts at task_cpu()). */
static void start_task(struct sched *s, struct sched_task *t)
{
    tasks_add(s, t);
    struct cpumask allowed;
    unsigned cpu;
    if (sched__allowed(s, t, &allowed)) {
        /* A fair task: find_idlest_cpu() from the parent's vCPU (B11); a
         * real-time one select_task_rq_rt() from it; others, and a choice
         * outside allowed, from the least loaded. */
        cpu = SCHED_NO_CPU;
        if (t->cls == SCHED_CLASS_FAIR && t->cpu < s->nr_cpus)
            cpu = sched__find_idlest_cpu(s, t, &allowed, t->cpu);
        else if (t->cls == SCHED_CLASS_RT)
            cpu = t->cpu;
        if (!cpumask_test_cpu(cpu, &allowed))
            cpu = sched__least_loaded(s, &allowed);
        cpu = select_cpu(s, t, &allowed, cpu);
    } else
        cpu = sched__select_fallback(s, t, t->cpu);
    t->state = SCHED_TASK_RUNNABLE;
    sched__enqueue(s, t, cpu, SCHED_ENQ_NEW);
    sched_ev_wakeup(s, t, cpu, true);
}

void sched_task_init(struct sched *s, struct sched_task *t, int tid, int tgid, const char *comm)
{
    memset(t, 0, sizeof(*t));
    t->tid = tid;
    t->tgid = tgid;
    sched_task_set_comm(t, comm);
    t->affinity = s->possible;
    t->cpu = 0;
    sched__update_flags(s, t);
    start_task(s, t);
}

int sched_task_fork(struct sched *s, const struct sched_task *parent, struct sched_task *child,
                    int tid, int tgid)
{
    if (parent->state == SCHED_TASK_DEAD)
        return -ESRCH;
    memset(child, 0, sizeof(*child));
    child->tid = tid;
    child->tgid = tgid;
    memcpy(child->comm, parent->comm, sizeof(child->comm));
    child->compat = parent->compat;
    child->affinity = parent->affinity;
    child->saved_mask = parent->saved_mask;
    child->has_saved_mask = parent->has_saved_mask;
    child->nice = parent->nice;
    sched__fork_class(parent, child);
    child->cpu = parent->cpu; /* where the kernel starts placing it from */
    sched__update_flags(s, child);
    sched_ev_fork(s, parent, child);
    sched__cfs_fork(s, parent, child);
    start_task(s, child);
    return 0;
}

int sched_task_exec(struct sched *s, struct sched_task *t, bool compat_image)
{
    if (t->state == SCHED_TASK_DEAD)
        return -ESRCH;
    int err = sched_exec_check(s, compat_image);
    if (err)
        return err;
    t->compat = compat_image;
    t->check_pending = false;
    sched__update_flags(s, t);
    struct cpumask old = t->affinity;
    if (s->mismatched ||
        (s->allow_mismatched && symmetric_32bit(s) && s->policy->exec_when_symmetric)) {
        s->in_exec = true; /* a move now is the exec's (sched__set_affinity) */
        s->policy->on_exec(s, t);
        s->in_exec = false;
    }
    sched_ev_affinity(s, t, &old, &t->affinity, MEVENT_CAUSE_EXEC);
    t->need_resched = true;
    return 0;
}

void sched_task_exit(struct sched *s, struct sched_task *t)
{
    if (t->state == SCHED_TASK_DEAD)
        return;
    bool queued = t->state == SCHED_TASK_RUNNABLE;
    if (queued)
        sched__dequeue(s, t);
    sched__fair_exit(s, t);
    sched__dl_release(s, t, queued);
    if (t->cpu < s->nr_cpus && s->cpus[t->cpu].last == t)
        s->cpus[t->cpu].last = NULL;
    tasks_remove(s, t);
    t->state = SCHED_TASK_DEAD;
    t->kill_pending = false;
    t->check_pending = false;
}

int sched_task_block(struct sched *s, struct sched_task *t)
{
    if (t->state != SCHED_TASK_RUNNABLE)
        return -EINVAL;
    sched__dequeue(s, t);
    /* Waking later is a switch from idle: K1 flags a compat task again. */
    if (s->cpus[t->cpu].last == t)
        s->cpus[t->cpu].last = NULL;
    t->state = SCHED_TASK_BLOCKED;
    t->need_resched = true;
    return 0;
}

int sched_task_wake(struct sched *s, struct sched_task *t)
{
    if (t->state == SCHED_TASK_DEAD)
        return -EINVAL;
    if (t->state == SCHED_TASK_RUNNABLE)
        return 0;
    struct cpumask allowed;
    unsigned cpu;
    if (!sched__allowed(s, t, &allowed))
        cpu = sched__select_fallback(s, t, t->cpu);
    else {
        unsigned prev =
            cpumask_test_cpu(t->cpu, &allowed) ? t->cpu : sched__least_loaded(s, &allowed);
        /* A fair task: with EAS on, the energy-aware choice first (E1-E9;
         * it declines on an overutilized machine), else wake_affine() and
         * select_idle_sibling() (B8-B10); a real-time one select_task_rq_rt(). */
        cpu = SCHED_NO_CPU;
        if (t->cls == SCHED_CLASS_FAIR && s->eas && prev == t->cpu)
            cpu = sched__feec(s, t, &allowed, prev);
        if (cpu == SCHED_NO_CPU)
            cpu = t->cls == SCHED_CLASS_FAIR ? sched__select_wake_cpu(s, t, &allowed, prev)
                                             : select_cpu(s, t, &allowed, prev);
    }
    sched_ev_wakeup(s, t, cpu, false);
    t->state = SCHED_TASK_RUNNABLE;
    t->slice_left = 0;
    if (t->cls == SCHED_CLASS_DEADLINE) {
        uint64_t now = s->cpus[cpu].clock_ns > s->now_ns ? s->cpus[cpu].clock_ns : s->now_ns;
        sched__dl_start(t, now, true);
    }
    sched__enqueue(s, t, cpu, SCHED_ENQ_WAKE);
    return 0;
}

int sched_task_yield(struct sched *s, struct sched_task *t)
{
    (void)s;
    t->slice_left = 0;
    t->yielded = true;
    t->need_resched = true;
    return 0;
}

int sched_task_set_nice(struct sched *s, struct sched_task *t, int nice)
{
    (void)s;
    if (nice < -20 || nice > 19)
        return -EINVAL;
    t->nice = nice;
    return 0;
}

bool sched__allowed(const struct sched *s, const struct sched_task *t, struct cpumask *allowed)
{
    cpumask_and(allowed, &t->affinity, &s->online);
    return cpumask_and(allowed, allowed, s->policy->fallback_mask(s, t));
}

int sched__set_affinity(struct sched *s, struct sched_task *t, const struct cpumask *mask)
{
    struct cpumask allowed;
    cpumask_and(&allowed, mask, &s->online);
    if (!cpumask_and(&allowed, &allowed, s->policy->fallback_mask(s, t)))
        return -EINVAL;
    t->affinity = *mask;
    sched__update_flags(s, t);
    s->balance_dirty = true;
    /* A blocked task keeps its old cpu until it wakes, as in the kernel. */
    if (t->state == SCHED_TASK_RUNNABLE && !cpumask_test_cpu(t->cpu, &allowed))
        sched__move(s, t, sched__least_loaded(s, &allowed),
                    s->in_exec ? MEVENT_MIGRATE_EXEC : MEVENT_MIGRATE_AFFINITY);
    return 0;
}

void sched__log_override(struct sched *s, const struct sched_task *t, const struct cpumask *mask)
{
    if (!sched__printk_ratelimit(s, "force_compatible_cpus_allowed_ptr"))
        return;
    char list[KLOG_TEXT_MAX];
    cpulist_format(mask, list, sizeof(list));
    sched__log(s, KLOG_DEFAULT_LEVEL, SCHED_MSG_OVERRIDE, t->tid, t->comm, list);
}

void sched__override_affinity(struct sched *s, struct sched_task *t, const struct cpumask *mask)
{
    sched__log_override(s, t, mask);
    sched__set_affinity(s, t, mask);
}

bool sched__dl_refuses_restrict(const struct sched *s, const struct sched_task *t)
{
    return t->cls == SCHED_CLASS_DEADLINE && sched_dl_admission_on(s->rt_runtime_us);
}

void sched__force_compatible(struct sched *s, struct sched_task *t, bool save_user_mask)
{
    struct cpumask mask;
    /* Linux 5.15 refuses to narrow a deadline task (U9) before it saves. */
    bool refused = save_user_mask && sched__dl_refuses_restrict(s, t);
    if (!refused && cpumask_and(&mask, &t->affinity, &s->aarch32)) {
        /* The kernel saves before trying, so a narrowing that fails for
         * want of an online CPU still leaves the old A saved. */
        if (save_user_mask && !t->has_saved_mask) {
            t->saved_mask = t->affinity;
            t->has_saved_mask = true;
        }
        if (sched__set_affinity(s, t, &mask) == 0)
            return;
    }
    /* The override is cpuset_cpus_allowed(): M & online in the top cpuset,
     * what guarantee_online_cpus() gives in another (CG6). */
    if (!s->cpuset_allowed || !s->cpuset_allowed(s->cpuset_arg, t, &mask))
        cpumask_and(&mask, &s->aarch32, &s->online);
    sched__override_affinity(s, t, &mask);
}

enum sched_decision sched__kill(struct sched_task *t)
{
    t->kill_pending = true;
    return SCHED_KILL;
}

int sched_task_setaffinity(struct sched *s, const struct sched_task *caller,
                           struct sched_task *target, const struct cpumask *mask)
{
    /* Permission (EPERM across users) is emu's; the rules here depend only
     * on the target, as the kernel's do. */
    (void)caller;
    struct cpumask m, old = target->affinity;
    cpumask_and(&m, mask, &s->possible);
    int err = s->policy->on_setaffinity(s, target, &m);
    sched_ev_affinity(s, target, &old, &target->affinity, MEVENT_CAUSE_SETAFFINITY);
    return err;
}

int sched_task_set_cpus_allowed(struct sched *s, struct sched_task *t, const struct cpumask *mask)
{
    struct cpumask old = t->affinity, cut;
    /* 6.2+: __set_cpus_allowed_ptr() keeps to the user's request where the
     * new mask meets it. */
    if (s->policy->user_mask_with_cpusets && t->has_saved_mask &&
        cpumask_and(&cut, mask, &t->saved_mask))
        mask = &cut;
    if (!cpumask_subset(mask, sched_task_possible_mask(s, t)))
        return -EINVAL;
    int err = sched__set_affinity(s, t, mask);
    if (err == 0)
        sched_ev_affinity(s, t, &old, &t->affinity, MEVENT_CAUSE_SETAFFINITY);
    return err;
}

bool sched_user_mask_with_cpusets(const struct sched *s)
{
    return s->policy->user_mask_with_cpusets;
}

const struct cpumask *sched_task_possible_mask(const struct sched *s, const struct sched_task *t)
{
    return s->policy->fallback_mask(s, t);
}

void sched_task_getaffinity(const struct sched *s, const struct sched_task *t, struct cpumask *out)
{
    cpumask_and(out, &t->affinity, &s->online);
}
