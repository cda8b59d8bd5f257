/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched-int.h - sched/'s private interface: the policy hook table and the
 * core mechanisms policies are built from. Nothing outside sched/ includes it. */
#ifndef ASYMU_SCHED_INT_H
#define ASYMU_SCHED_INT_H

#include "scheduler.h"

/* A policy: the hooks the policy-free core calls. The core calls on_exec
 * (but see exec_when_symmetric), on_switch_in and on_return_to_user only on
 * a mismatched machine, so a symmetric one behaves the same under every
 * policy (spec 1.2). */
struct sched_policy {
    /* End of sched_init on a mismatched machine (U5). May be NULL. */
    void (*on_boot)(struct sched *s);
    /* execve; t->compat already says which image. */
    void (*on_exec)(struct sched *s, struct sched_task *t);
    /* sched_setaffinity(2) for t, mask already cut to the possible CPUs. Applies
     * it through sched__set_affinity; returns 0 or -EINVAL. */
    int (*on_setaffinity)(struct sched *s, struct sched_task *t, const struct cpumask *mask);
    /* K1, on a switch that puts a compat task on cpu. NULL for policies
     * that never place a compat task outside M: then no task pays for a
     * check at all (K3). */
    void (*on_switch_in)(struct sched *s, struct sched_task *t, unsigned cpu);
    /* K2/K2f: runs when t->check_pending, before t executes on cpu. */
    enum sched_decision (*on_return_to_user)(struct sched *s, struct sched_task *t, unsigned cpu);
    /* May veto offlining an online cpu that is not the last one: 0, -EPERM,
     * -EBUSY. NULL: never. */
    int (*on_cpu_offline)(struct sched *s, unsigned cpu);
    /* The kernel's task_cpu_possible_mask(): t is never placed outside it,
     * and A is reset to it when nothing in A is online (U6 step 2). */
    const struct cpumask *(*fallback_mask)(const struct sched *s, const struct sched_task *t);
    /* select_fallback_rq()'s reset of A also drops the user mask (6.2+:
     * do_set_cpus_allowed() with SCA_USER). */
    bool fallback_drops_user_mask;
    /* 6.2's "Always preserve the user requested cpumask" with cpusets:
     * on_setaffinity gets the request whole and cuts it to the cpuset
     * itself (the request is the user mask); a cpuset's set_cpus_allowed_ptr()
     * is cut to the user mask where they meet; update_tasks_cpumask() gives
     * the task's possible CPUs among the cpuset's (6.1's). */
    bool user_mask_with_cpusets;
    /* on_exec also runs when every CPU is in M and the parameter is given:
     * Linux 5.15 turns its mismatched-32-bit switch on whenever some CPU
     * runs 32-bit code, so the exec-time save and restore still happen. */
    bool exec_when_symmetric;
};

extern const struct sched_policy sched_policy_upstream;
extern const struct sched_policy sched_policy_override;
extern const struct sched_policy sched_policy_kill;
extern const struct sched_policy sched_policy_fixup;
extern const struct sched_policy sched_policy_linux66;

/* What every Linux generation shares (policy_upstream.c): U5's protected CPU
 * and boot line, its veto, and task_cpu_possible_mask() (M for compat tasks). */
void upstream_boot(struct sched *s);
int upstream_cpu_offline(struct sched *s, unsigned cpu);
const struct cpumask *upstream_fallback_mask(const struct sched *s, const struct sched_task *t);

/* pr_warn_once(): logs msg at KLOG_WARNING the first time only. */
void sched__warn_once(struct sched *s, const char *msg);

/* Logs one kernel message at the current virtual time. */
void sched__log(struct sched *s, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* set_cpus_allowed_ptr(): A = mask if some online CPU of mask is in the
 * fallback mask (else -EINVAL, nothing changed); a runnable task on a CPU
 * outside the new A moves to the least loaded allowed one. */
int sched__set_affinity(struct sched *s, struct sched_task *t, const struct cpumask *mask);

/* force_compatible_cpus_allowed_ptr() (O1, U1): A = A & M, saving the old A
 * first when save_user_mask and none is saved (U2); if that leaves no online
 * CPU, A = M & online and the "Overriding affinity" line is logged. With
 * save_user_mask (Linux 5.15) a deadline task is not narrowed but
 * overridden (sched__dl_refuses_restrict). */
void sched__force_compatible(struct sched *s, struct sched_task *t, bool save_user_mask);
/* force_compatible_cpus_allowed_ptr()'s override: logs "Overriding
 * affinity ... to CPUs <mask>" (sched__log_override) and sets A = mask. */
void sched__override_affinity(struct sched *s, struct sched_task *t, const struct cpumask *mask);
void sched__log_override(struct sched *s, const struct sched_task *t, const struct cpumask *mask);
/* printk_ratelimit() called from the kernel function func: whether a
 * message may go to the log now (10 every 5 s, all callers together); the
 * first call after a suppressed stretch logs "func: N callbacks suppressed". */
bool sched__printk_ratelimit(struct sched *s, const char *func);
/* restrict_cpus_allowed_ptr() (5.15 and 6.6) fails with -EPERM for a
 * deadline task while admission control is on (U9): the 32-bit exec then
 * overrides A instead of narrowing it. */
bool sched__dl_refuses_restrict(const struct sched *s, const struct sched_task *t);

/* Recomputes the flags derived from compat and A (affinity_in_m, K3's
 * switch_check) after either changed. */
void sched__update_flags(const struct sched *s, struct sched_task *t);

/* Sets t->kill_pending and returns SCHED_KILL. */
enum sched_decision sched__kill(struct sched_task *t);

/* The child's scheduling class and parameters at fork (class.c). */
void sched__fork_class(const struct sched_task *parent, struct sched_task *child);
/* Whether a runs before b on a runqueue (class.c): a deadline task that is
 * not throttled by the earliest deadline, then real-time by priority, then
 * fair, then throttled deadline tasks by replenishment time. */
bool sched__runs_before(const struct sched_task *a, const struct sched_task *b);
/* Puts t (on rq's list) behind every task it does not run before. */
void sched__requeue(struct sched_cpu *rq, struct sched_task *t);
/* Deadline bookkeeping (deadline.c): the CBS state of t starting at now,
 * for a new deadline task or one waking up; the budget spent after a slice
 * (throttling it); the throttled tasks of cpu whose period began by its
 * clock; the bandwidth of a task leaving the class or dying, given back at
 * its 0-lag time if it was queued (task_non_contending()). */
void sched__dl_start(struct sched_task *t, uint64_t now, bool waking);
void sched__dl_charge(struct sched *s, struct sched_task *t, unsigned cpu, uint64_t ns);
void sched__dl_replenish_due(struct sched *s, unsigned cpu);
/* When cpu can next run a task: its clock, or later if all it has are
 * throttled deadline tasks. */
uint64_t sched__cpu_ready_time(const struct sched *s, unsigned cpu);
/* dl_cpu_busy(): -EBUSY if the admitted deadline bandwidth would not fit
 * on the active CPUs without one more, else 0. */
int sched__dl_cpu_offline_check(struct sched *s);
void sched__dl_release(struct sched *s, struct sched_task *t, bool queued);

/* The fair class's hooks (fair.c): the enqueue (before t->cpu is set to
 * cpu) and dequeue bookkeeping, PELT and update_misfit_status() after ns of
 * running on cpu (its clock already advanced), a dead task leaving its
 * runqueue's utilisation, misfit migration to bigger idle CPUs (taken out
 * of idle), and select_idle_sibling()'s capacity-aware choice from target. */
void sched__fair_enqueue(struct sched *s, struct sched_task *t, unsigned cpu);
void sched__fair_dequeue(struct sched *s, struct sched_task *t);
void sched__fair_account(struct sched *s, struct sched_task *t, unsigned cpu, uint64_t ns);
void sched__fair_exit(struct sched *s, struct sched_task *t);
void sched__misfit_balance(struct sched *s, struct cpumask *idle);
unsigned sched__select_cpu_fair(const struct sched *s, const struct sched_task *t,
                                const struct cpumask *allowed, unsigned target);

/* cpufreq and EAS (schedutil.c, eas.c). The domains from cfg->em at boot
 * (-EINVAL for a vCPU in none). cpufreq_update_util(): schedutil's
 * decision for cpu's domain at now (cpu's clock). find_energy_efficient_
 * cpu(): the CPU of allowed where waking t costs least energy, prev kept
 * unless another saves more than 1/16; SCHED_NO_CPU when the root domain
 * is overutilized (the usual path decides then). */
int sched__energy_init(struct sched *s, const struct sched_config *cfg);
void sched__cpufreq_update(struct sched *s, unsigned cpu, uint64_t now);
/* cpu's runqueue utilisation (cpu_util()), an idle one's decayed to now,
 * at most its capacity. */
unsigned long sched__cpu_util_now(const struct sched *s, unsigned cpu, uint64_t now);
unsigned sched__feec(const struct sched *s, const struct sched_task *t,
                     const struct cpumask *allowed, unsigned prev);

/* The real-time class on several vCPUs (rt.c): select_task_rq_rt() from
 * target among allowed; push and pull between runqueues (between slices,
 * from balance()); RT throttling: the bandwidth timer started by an RT
 * task joining cpu, the running time of an RT task charged over
 * [start, end) of cpu's clock, the runtime check (at ticks and when the
 * task stops), and the periods that ended by cpu's clock. */
unsigned sched__select_cpu_rt(const struct sched *s, const struct sched_task *t,
                              const struct cpumask *allowed, unsigned target);
bool sched__rt_balance(struct sched *s);
void sched__rt_enqueue(struct sched *s, struct sched_task *t, unsigned cpu);
void sched__rt_charge(struct sched *s, unsigned cpu, uint64_t start, uint64_t end);
void sched__rt_check_runtime(struct sched *s, unsigned cpu);
void sched__rt_period_due(struct sched *s, unsigned cpu);
/* uclamp_eff_value() of t (fair.c): UCLAMP_MIN (1024 for an RT task by
 * default) and UCLAMP_MAX. */
unsigned sched__uclamp_min(const struct sched_task *t);
unsigned sched__uclamp_max(const struct sched_task *t);

/* Scheduling domains (topology.c): built at boot from the clusters (NULL:
 * one); the vCPUs of the group of cpu at sd's level (itself at MC, its
 * cluster at DIE), online ones only. */
void sched__topology_init(struct sched *s, const uint16_t *cluster);
void sched__group_span(const struct sched *s, const struct sched_domain *sd, unsigned cpu,
                       struct cpumask *out);

/* Load balancing (balance.c): group types in the order of
 * enum group_type; a group's statistics (struct sg_lb_stats). */
enum sched_group_type {
    SCHED_GROUP_HAS_SPARE,
    SCHED_GROUP_FULLY_BUSY,
    SCHED_GROUP_MISFIT,
    SCHED_GROUP_OVERLOADED,
};
struct sched_sg_stats {
    uint64_t load, util, runnable, capacity, avg_load;
    unsigned nr_running, h_nr_running, idle_cpus, weight, misfit;
    unsigned min_capacity, max_capacity;
    enum sched_group_type type;
};
enum sched_group_type sched__group_classify(unsigned imbalance_pct, const struct sched_sg_stats *g);
/* cpu_load(): the weights of cpu's queued fair tasks; their number. */
uint64_t sched__cpu_load(const struct sched *s, unsigned cpu);
unsigned sched__nr_fair(const struct sched *s, unsigned cpu);
/* rebalance_domains() at cpu's tick. */
void sched__rebalance_domains(struct sched *s, unsigned cpu);

/* Placement (place.c): wake_affine(); select_idle_sibling(); a fair
 * task's wake-up vCPU (select_task_rq_fair() with WF_TTWU), prev allowed;
 * find_idlest_cpu() from cpu for a fork. */
unsigned sched__wake_affine(const struct sched *s, const struct sched_domain *sd,
                            const struct sched_task *t, unsigned this_cpu, unsigned prev);
unsigned sched__select_idle_sibling(const struct sched *s, const struct sched_task *t,
                                    const struct cpumask *allowed, unsigned prev, unsigned target);
unsigned sched__select_wake_cpu(const struct sched *s, const struct sched_task *t,
                                const struct cpumask *allowed, unsigned prev);
unsigned sched__find_idlest_cpu(const struct sched *s, const struct sched_task *t,
                                const struct cpumask *allowed, unsigned cpu);

/* Why a task joins a runqueue: fork, wake-up, migration (cfs.c places it). */
enum sched_enqueue { SCHED_ENQ_NEW, SCHED_ENQ_WAKE, SCHED_ENQ_MOVE };
/* Time sharing (cfs.c): update_curr(); the child's vruntime at fork; the
 * enqueue's vruntime (before t->cpu is set); the dequeue before and after
 * the unlinking; check_preempt_wakeup() once p is queued on cpu; the
 * running fair task put back when a higher class takes the head; the pick
 * (set_next_entity()); the tick (check_preempt_tick(), RR turns); a fair
 * task's sched_yield. */
void sched__cfs_update_curr(struct sched *s, unsigned cpu);
void sched__cfs_fork(struct sched *s, const struct sched_task *parent, struct sched_task *child);
void sched__cfs_enqueue(struct sched *s, struct sched_task *t, unsigned cpu, enum sched_enqueue why);
void sched__cfs_dequeue(struct sched *s, struct sched_task *t);
void sched__cfs_dequeued(struct sched *s, unsigned cpu);
void sched__cfs_check_preempt(struct sched *s, struct sched_task *p, unsigned cpu);
void sched__cfs_displaced(struct sched *s, unsigned cpu);
void sched__cfs_pick(struct sched *s, struct sched_task *t, unsigned cpu);
void sched__tick(struct sched *s, unsigned cpu);
void sched__cfs_yield(struct sched *s, struct sched_task *t, unsigned cpu);

/* Runqueue mechanics (rq.c). */
void sched__enqueue(struct sched *s, struct sched_task *t, unsigned cpu, enum sched_enqueue why);
void sched__dequeue(struct sched *s, struct sched_task *t);
/* Moves a runnable task to cpu's runqueue (a migration, for reason). */
void sched__move(struct sched *s, struct sched_task *t, unsigned cpu,
                 enum mevent_migrate_reason reason);
/* The least loaded CPU of mask (ties: lowest id), SCHED_NO_CPU if empty. */
unsigned sched__least_loaded(const struct sched *s, const struct cpumask *mask);
/* select_fallback_rq() (U6): the lowest online CPU of A allowed for t, else
 * A = fallback mask with "no longer affine to cpu<from>" logged, then the
 * lowest online CPU of that. */
unsigned sched__select_fallback(struct sched *s, struct sched_task *t, unsigned from);
/* select_fallback_rq()'s last resort (U6): A = mask, "no longer affine to
 * cpu<from>" logged. */
void sched__fallback_affinity(struct sched *s, struct sched_task *t, const struct cpumask *mask,
                              unsigned from);
/* allowed = A & online & fallback mask; returns whether non-empty. */
bool sched__allowed(const struct sched *s, const struct sched_task *t, struct cpumask *allowed);

#endif
