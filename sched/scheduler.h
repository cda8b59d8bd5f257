/* SPDX-License-Identifier: GPL-2.0-or-later */
/* scheduler.h - the scheduler core: vCPUs with virtual clocks, runqueues, task
 * affinity, the asymmetric-AArch32 policies, hotplug and the per-switch check
 * (spec: ../shared/spec/asymmetric-aarch32.md). Pure logic, no Unicorn. */
#ifndef ASYMU_SCHEDULER_H
#define ASYMU_SCHEDULER_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpumask.h"
#include "klog.h"
#include "mevent.h"
#include "sched_class.h"
#include "sched_energy.h"
#include "sched_fair.h"
#include "sched_policy.h"

/* Where a task is, when it is nowhere (and "no protected CPU"). */
#define SCHED_NO_CPU ((unsigned)NR_CPUS_MAX)
#define SCHED_COMM_LEN 16
#define SCHED_DEFAULT_SLICE_BLOCKS 10000u
#define SCHED_DEFAULT_NS_PER_BLOCK 10u
/* Instructions per ns (x1000) a capacity-1024 vCPU retires at its maximum
 * frequency (docs/timing.md, "The base rate"): --insn-rate. */
#define SCHED_DEFAULT_INSN_RATE_MILLI 500u
/* How far one vCPU's clock may run ahead of another's (docs/timing.md,
 * "One clock"): a batch ends at every multiple of it, and vCPUs take turns
 * there, the one behind first. */
#define SCHED_SYNC_QUANTUM_NS 100000u
/* CONFIG_HZ's default (--hz) */
#define SCHED_DEFAULT_HZ 250u
/* Every vCPU's maximum frequency, in kHz, until an energy model gives
 * others (cpufreq's cpuinfo_max_freq); only the ratio cur/max matters. */
#define SCHED_DEFAULT_MAX_FREQ_KHZ 2000000u
/* Deadline bandwidth releases waiting for a 0-lag time; more are released
 * at once. */
#define SCHED_DL_LAGGING_MAX 64u

/* The kernel log lines of spec section 6, as printf formats, with the
 * pr_fmt prefix of their source file (cpufeature.c's "CPU features: "). The two SIGKILL
 * lines are the seeds' pr_warn_once() sentences (Yousef RFC patch 2 for
 * kill, patch 3 for fixup): logged once per boot, whoever dies after. */
#define SCHED_MSG_OVERRIDE "Overriding affinity for process %d (%s) to CPUs %s"
#define SCHED_MSG_ASYM_DETECTED                                                                    \
    "CPU features: Asymmetric 32-bit EL0 support detected on CPU %u; "                             \
    "CPU hot-unplug disabled on CPU %u"
#define SCHED_MSG_NO_LONGER_AFFINE "process %d (%s) no longer affine to cpu%u"
#define SCHED_MSG_KILL "CPU affinity contains CPUs that are not capable of running 32-bit tasks"
#define SCHED_MSG_FIXUP_KILL "Failed to fixup affinity of running 32-bit task"

struct sched_config {
    unsigned nr_cpus;                /* 1..NR_CPUS_MAX */
    struct cpumask aarch32;          /* M: vCPUs that run AArch32 EL0 */
    bool allow_mismatched_32bit_el0; /* the boot parameter is on the command line */
    enum sched_policy_id policy;
    uint64_t seed;             /* seeds the slice jitter; same seed, same run */
    uint32_t slice_blocks;     /* guest blocks per slice at nice 0; 0: default */
    uint32_t ns_per_block;     /* virtual time per guest block; 0: default */
    unsigned slice_jitter_pct; /* 0..50: slices vary by up to this, from seed */
    struct klog *log;          /* required: where kernel messages go */
    /* Per vCPU 1..SCHED_CAPACITY_SCALE (--capacity); NULL or 0: 1024. */
    const uint16_t *capacity;
    uint32_t insn_rate_milli;  /* instructions per ns x1000 at capacity 1024; 0: default */
    unsigned hz;               /* CONFIG_HZ: 100, 250, 300 or 1000; 0: SCHED_DEFAULT_HZ */
    /* The performance domains (cpufreq policies with their OPPs, and an
     * energy model when they have power), every vCPU in one; NULL or none:
     * no governor, every vCPU at its maximum (sched_energy.h). */
    const struct sched_em *em;
    /* Per vCPU its cluster_id (--soc's cpu-map): the MC level of the
     * scheduling domains; NULL: one cluster. */
    const uint16_t *cluster;
};

enum sched_task_state {
    SCHED_TASK_RUNNABLE, /* on exactly one runqueue */
    SCHED_TASK_BLOCKED,  /* on none, waiting for sched_task_wake */
    SCHED_TASK_DEAD,     /* on none, forgotten by sched */
};

/* What emu does with the pair sched_pick returned. */
enum sched_decision {
    SCHED_RUN = 0,  /* enter the task's engine on the vCPU for a slice */
    SCHED_KILL,     /* deliver SIGKILL to its thread group; it must not run */
    SCHED_MIGRATED, /* the check moved it to task->cpu: just pick again */
};

/* A task as the scheduler sees it, embedded in emu's task. Emu reads any
 * field and writes none except through the functions below. */
struct sched_task {
    int tid, tgid;
    char comm[SCHED_COMM_LEN];
    bool compat; /* running an AArch32 image */
    enum sched_task_state state;
    unsigned cpu;              /* the vCPU it runs or last ran on (getcpu) */
    struct cpumask affinity;   /* A, may hold offline CPUs */
    /* The kernel's user_cpus_ptr: under upstream (U2) A before the first
     * 32-bit exec, under linux-6.6 the mask sched_setaffinity last asked for. */
    struct cpumask saved_mask;
    bool has_saved_mask;
    bool kill_pending;   /* a policy decided on SIGKILL (K2, K2f, H2) */
    bool need_resched;   /* emu must end the current slice after this syscall */
    bool check_pending;  /* K1: the check runs before the next return to user */
    bool switch_check;   /* K3: precomputed compat && mismatched && policy checks */
    bool affinity_in_m;  /* A is a subset of M, kept current for the O(1) check */
    int nice;            /* -20..19, scales the slice by the kernel's weights */
    uint32_t slice_left; /* blocks left in the current slice: emu's budget */
    uint64_t sum_exec_ns;
    uint64_t nr_switches, nr_migrations;

    /* The scheduling class (class.c, deadline.c). */
    enum sched_class cls;            /* the runqueue order: deadline, real-time, fair */
    int rt_prio;                     /* SCHED_FIFO/SCHED_RR priority 1..99 (higher runs first) */
    bool rr;                         /* SCHED_RR: takes turns with its priority every 100 ms */
    bool reset_on_fork;              /* SCHED_FLAG_RESET_ON_FORK: children start SCHED_OTHER */
    bool yielded;                    /* sched_yield: goes behind its equals (deadline: throttled) */
    uint64_t rr_left_ns;             /* SCHED_RR: what is left of its 100 ms turn */
    uint16_t util_min, util_max;     /* sched_attr's utilization clamps */
    bool util_min_set, util_max_set; /* set by the user: kept across class changes */
    struct sched_dl dl;              /* SCHED_DEADLINE parameters and CBS state */
    /* The fair class (fair.c, pelt.c). */
    bool idle_policy;       /* SCHED_IDLE: weight SCHED_WEIGHT_IDLEPRIO whatever nice says */
    bool batch_policy;      /* SCHED_BATCH: nice's weight, never preempts at wake-up */
    struct sched_pelt pelt; /* utilisation, in its runqueue's clock */
    /* Time sharing (cfs.c): the entity's vruntime, its running time as the
     * fair class counts it, where the running turn started (exec_start,
     * prev_sum_exec_runtime), the RR tick count. */
    uint64_t vruntime;
    uint64_t cfs_exec_ns, exec_start_ns, prev_sum_ns;
    bool vr_relative; /* vruntime is relative to a min_vruntime (fork) */
    bool rt_throttled; /* queued real-time task of a throttled runqueue (rt.c) */
    bool cfs_repick;  /* put back by preemption: the next pick starts a turn */
    unsigned rr_ticks;
    /* sched-private links */
    struct sched_task *rq_prev, *rq_next;   /* runqueue of cpu, when runnable */
    struct sched_task *all_prev, *all_next; /* every live task */
    unsigned check_mark;                    /* sched_check_invariants scratch */
};

struct sched_cpu {
    uint64_t clock_ns;       /* virtual time this vCPU has reached */
    uint64_t busy_ns;        /* of which running tasks (/proc/stat) */
    struct sched_task *head; /* runqueue in round-robin order; head runs */
    unsigned nr_running;
    const struct sched_task *last; /* the task that last ran here: a switch is a change */
    uint64_t nr_switches;
    /* Capacity and speed (docs/timing.md): work done at capacity 1024 and
     * maximum frequency takes time_scale/65536 times as long here. */
    unsigned capacity;                 /* arch_scale_cpu_capacity(): 1..1024 */
    uint32_t max_freq_khz, cur_freq_khz; /* cur: schedutil's choice, else max */
    uint64_t time_scale;               /* 1024 * max / (capacity * cur), 16.16 fixed point */
    /* The fair class (fair.c). */
    struct sched_pelt pelt;  /* the runqueue's utilisation (cfs_rq->avg) */
    uint32_t misfit_util;    /* rq->misfit_task_load: the misfit task's util, 0: none */
    unsigned nr_idle_policy; /* queued SCHED_IDLE tasks (sched_idle_cpu()) */
    uint64_t min_vruntime;        /* cfs_rq->min_vruntime (cfs.c) */
    uint64_t clock_fs_rem;        /* emu's time below a ns, carried to the next slice */
    struct sched_task *cfs_curr;  /* cfs_rq->curr: the fair task running here, at the head */
    /* RT throttling (rt.c): rt_rq->rt_time in this period, rt_throttled,
     * and the end of the bandwidth period this vCPU is in (its clock). */
    uint64_t rt_time_ns;
    bool rt_throttled;
    uint64_t rt_period_end_ns;
    /* Scheduling domains (topology.c), lowest first, and the vCPUs of its
     * cluster (the DIE level's group it is in). */
    struct sched_domain sd[SCHED_SD_LEVELS];
    unsigned nr_sd;
    struct cpumask cluster;
};

struct sched_policy;

struct sched {
    unsigned nr_cpus;
    struct cpumask possible;  /* 0..nr_cpus-1 */
    struct cpumask online;    /* also the active mask */
    struct cpumask aarch32;   /* M; CPUs stay in it when they go offline */
    struct cpumask busy;      /* vCPUs whose runqueue is not empty */
    bool allow_mismatched;    /* the boot parameter */
    bool aarch32_el0_allowed; /* spec 1.2: 32-bit exec and PER_LINUX32 work */
    bool mismatched;          /* parameter present, M neither empty nor all */
    bool switch_check;        /* mismatched and the policy has a per-switch check */
    unsigned protected_cpu;   /* U5, or SCHED_NO_CPU */
    enum sched_policy_id policy_id;
    const struct sched_policy *policy;
    struct klog *log;
    struct sched_cpu *cpus;
    struct sched_task *tasks; /* every live task, in creation order */
    unsigned nr_tasks;
    uint64_t now_ns; /* virtual time of the slice being run */
    uint64_t log_ns; /* time within the slice, for log timestamps (sched_note_time) */
    uint64_t rng;
    uint32_t slice_blocks, ns_per_block;
    uint32_t insn_rate_milli;
    /* The tick and the fair class's tunables (cfs.c): CONFIG_HZ, its
     * period, update_sysctl()'s factor and the scaled sysctls. */
    unsigned hz;
    uint64_t tick_ns;
    unsigned cfs_factor;
    uint64_t sched_latency_ns, sched_min_gran_ns, sched_wakeup_gran_ns;
    /* The slice running (sched_pick to sched_account_ns): its vCPU and the
     * time inside it emu last gave (sched_note_time). */
    bool in_slice;
    unsigned slice_cpu;
    uint64_t slice_now_ns;
    uint64_t insn_fs; /* femtoseconds per instruction at capacity 1024, maximum frequency */
    bool switched;    /* the last sched_pick changed the task its vCPU runs */
    unsigned slice_jitter_pct;
    bool balance_dirty; /* something moved since the last idle balance */
    bool in_exec;       /* a policy's exec hook runs: its moves are the exec's */
    bool asym_capacity; /* vCPUs differ in capacity: SD_ASYM_CPUCAPACITY */
    bool warned_once;   /* the policy's pr_warn_once() line is in the log */
    /* cpufreq and energy (schedutil.c, eas.c): the performance domains,
     * each vCPU's, schedutil's state per domain (sugov_policy:
     * last_freq_update_time, next_freq, need_freq_update), and whether
     * EAS runs (an energy model on an asymmetric machine: the kernel's
     * sched_energy_enabled()). */
    struct sched_em em;
    uint8_t pd_of[NR_CPUS_MAX];
    struct sched_su {
        uint64_t last_ns;
        uint32_t next_khz;
        bool need_update;
    } su[SCHED_EM_MAX_PDS];
    bool eas;
    /* printk_ratelimit()'s state, shared by the lines that use it. */
    struct sched_ratelimit {
        bool started;
        uint64_t begin_ns;
        unsigned printed, missed;
    } printk_ratelimit;

    /* Deadline admission control and throttling (deadline.c). */
    int64_t rt_runtime_us, rt_period_us; /* admission control, RT throttling; -1: off */
    uint64_t dl_total_bw;                /* admitted deadline bandwidth, << 20 */
    unsigned nr_dl_throttled;            /* deadline tasks waiting for their period */
    /* Bandwidth of tasks that left the class (or died) before their 0-lag
     * time: still in dl_total_bw until then (deadline.c). */
    struct sched_dl_lagging {
        uint64_t until_ns, bw;
    } dl_lagging[SCHED_DL_LAGGING_MAX];
    unsigned nr_dl_lagging;
    /* def_rt_bandwidth's period timer (rt.c): started by the first
     * real-time task; periods end at rt_period_start_ns + k * period. */
    bool rt_bw_active;
    uint64_t rt_period_start_ns;
    bool rt_throttle_logged; /* "sched: RT throttling activated", once */

    struct mevent_bus events; /* what happens, for traces and scenarios (mevent.h) */

    /* The kernel layer's cpusets (emu/kernel/cgroup.c), NULL for none. For a
     * task outside the top cpuset: cpuset_cpus_allowed() (what a 32-bit
     * exec's override gives, force_compatible_cpus_allowed_ptr()) and
     * cpuset_cpus_allowed_fallback() (select_fallback_rq()'s first resort);
     * false when the task is in the top cpuset or the hook has nothing. */
    bool (*cpuset_allowed)(void *arg, const struct sched_task *t, struct cpumask *out);
    bool (*cpuset_fallback)(void *arg, const struct sched_task *t, struct cpumask *out);
    void *cpuset_arg;
};

/* "upstream", "override", "kill", "fixup", "linux-6.6" -> id; -EINVAL otherwise. */

/* Boots the machine: every vCPU online at clock 0, computes
 * aarch32_el0_allowed and mismatched, and under upstream and linux-6.6 on a mismatched
 * machine protects a CPU and logs U5. Returns 0, -EINVAL for a bad config
 * (nr_cpus, M outside it, no log, unknown policy or jitter), -ENOMEM. */
int sched_init(struct sched *s, const struct sched_config *cfg);
void sched_destroy(struct sched *s);

static inline bool sched_cpu_is_online(const struct sched *s, unsigned cpu)
{
    return cpumask_test_cpu(cpu, &s->online);
}
static inline uint64_t sched_now(const struct sched *s)
{
    return s->now_ns;
}
/* RT throttling (rt.c): the end of the period that lets cpu's throttled
 * real-time tasks run again, UINT64_MAX when they are not throttled. (The
 * tick at which a running one exceeds the runtime is a tick, and every tick
 * ends a slice.) */
uint64_t sched_rt_period_end(const struct sched *s, unsigned cpu);
/* SCHED_DEADLINE (deadline.c): when the deadline task running on cpu has
 * spent its runtime, or a throttled one there gets it back, whichever
 * comes first; UINT64_MAX when neither. */
uint64_t sched_dl_next_event(const struct sched *s, unsigned cpu);
/* Where the slice running on cpu must end for the scheduler: its next tick
 * (every tick ends a slice, so what scheduler_tick() decides comes at its
 * time), or before it the end of an RT period that lets cpu's throttled
 * real-time tasks run again, or a deadline task's budget spent or given
 * back. UINT64_MAX: none. */
static inline uint64_t sched_next_event(const struct sched *s, unsigned cpu)
{
    const struct sched_cpu *rq = &s->cpus[cpu];
    uint64_t due = s->tick_ns ? (rq->clock_ns / s->tick_ns + 1) * s->tick_ns : UINT64_MAX;
    uint64_t rt = sched_rt_period_end(s, cpu);
    if (rt < due)
        due = rt;
    if (s->dl_total_bw) {
        uint64_t dl = sched_dl_next_event(s, cpu);
        if (dl < due)
            due = dl;
    }
    return due;
}

/* The first task: 64-bit, A = every CPU, runnable on the least loaded
 * online CPU. Emu then calls sched_task_exec for the image it loads. */
void sched_task_init(struct sched *s, struct sched_task *t, int tid, int tgid, const char *comm);
/* Sets comm (truncated to 15 bytes); execve does it before sched_task_exec so
 * the log names the new program, as the kernel does. */
void sched_task_set_comm(struct sched_task *t, const char *comm);

/* fork/clone (3.1): child gets parent's A, compat flag, saved mask, nice,
 * scheduling class (SCHED_OTHER at nice >= 0 if the parent resets on fork)
 * and comm, and is made runnable on the least loaded allowed online CPU
 * (ties: lowest id). Call it last, once nothing else in clone can fail.
 * 0/-ESRCH. */
int sched_task_fork(struct sched *s, const struct sched_task *parent, struct sched_task *child,
                    int tid, int tgid);

/* The binfmt check (the kernel's compat_elf_check_arch): 0, or -ENOEXEC for
 * a 32-bit image when the machine does not allow 32-bit EL0 (spec 1.2). Emu
 * calls it while probing the image, before execve's point of no return. */
static inline int sched_exec_check(const struct sched *s, bool compat_image)
{
    return compat_image && !s->aarch32_el0_allowed ? -ENOEXEC : 0;
}

/* execve past its point of no return (the kernel's setup_new_exec). Repeats
 * sched_exec_check (-ENOEXEC, nothing changed), so it cannot fail then for
 * a live task. Sets the compat flag and, on a mismatched machine, applies
 * the policy: O1/U1/U2 for a 32-bit image, U3 for a 64-bit one, K1. Sets
 * need_resched: emu ends the slice (it swaps engines anyway). */
int sched_task_exec(struct sched *s, struct sched_task *t, bool compat_image);

/* The task is gone: off its runqueue and out of every list. */
void sched_task_exit(struct sched *s, struct sched_task *t);

/* The running task sleeps (futex, wait4, read, nanosleep): off its runqueue,
 * need_resched set. 0, or -EINVAL if it was not runnable. */
int sched_task_block(struct sched *s, struct sched_task *t);
/* Makes a blocked task runnable: on its previous CPU if still allowed and
 * online, else the least loaded allowed online CPU (ties: lowest id), else
 * the U6 fallback. 0 (also when already runnable), -EINVAL for a dead task. */
int sched_task_wake(struct sched *s, struct sched_task *t);
/* sched_yield(2): ends the slice; the task goes behind the others of its
 * runqueue when emu accounts it. Always 0. */
int sched_task_yield(struct sched *s, struct sched_task *t);
/* nice/setpriority: -EINVAL outside -20..19. Takes effect next slice. */
int sched_task_set_nice(struct sched *s, struct sched_task *t, int nice);
/* fork/clone of a deadline task that does not reset on fork: -EAGAIN (the
 * kernel's sched_fork). Emu asks before anything else of the clone. */
static inline int sched_fork_check(const struct sched_task *parent)
{
    return parent->cls == SCHED_CLASS_DEADLINE && !parent->reset_on_fork ? -EAGAIN : 0;
}

/* sched_setaffinity(2) by caller (NULL: the kernel itself) on target. The
 * mask is cut to the possible CPUs, then the policy decides: K4 as given,
 * O2 -EINVAL unless within M for a compat target, U4/U8 trimmed to the
 * active CPUs (of M) and saved mask cleared unless A stays the same.
 * -EINVAL when no online CPU would be left, nothing changed. A dead target
 * (an unreaped zombie, spec 2.4) gets the new A too. Moves a runnable target
 * off a CPU no longer in A (need_resched set). */
int sched_task_setaffinity(struct sched *s, const struct sched_task *caller,
                           struct sched_task *target, const struct cpumask *mask);
/* set_cpus_allowed_ptr() as the cpuset code calls it (kernel/cgroup/cpuset.c):
 * -EINVAL with nothing changed when mask is not within the task's
 * task_cpu_possible_mask() (__set_cpus_allowed_ptr_locked()) or has no
 * online CPU of it; else A = mask, the saved mask untouched. */
int sched_task_set_cpus_allowed(struct sched *s, struct sched_task *t, const struct cpumask *mask);
/* task_cpu_possible_mask(): M for a compat task on a mismatched machine
 * under every policy that confines them, else every possible CPU. */
const struct cpumask *sched_task_possible_mask(const struct sched *s, const struct sched_task *t);
/* Whether the policy keeps sched_setaffinity()'s request as the user mask
 * with cpusets (linux-6.6; sched-int.h user_mask_with_cpusets): then the
 * syscall passes the request whole and the policy cuts it to the cpuset,
 * and a cpuset's masks take each task's possible CPUs among its own. */
bool sched_user_mask_with_cpusets(const struct sched *s);
/* sched_getaffinity(2): out = A & online (2.4), dead (zombie) tasks too. */
void sched_task_getaffinity(const struct sched *s, const struct sched_task *t, struct cpumask *out);

/* The machine loop's step: the vCPU with the smallest clock that has a
 * runnable task (ties: lowest id) and the task at the head of its runqueue,
 * after idle balancing. Runs the per-switch check (K1-K3, K2f) and returns
 * SCHED_RUN (run task->slice_left blocks at most), SCHED_KILL or
 * SCHED_MIGRATED (*cpu is where it was found). -EAGAIN: nothing runnable. */
int sched_pick(struct sched *s, struct sched_task **task, unsigned *cpu);
/* After a slice of `blocks` guest blocks that took ns of cpu's time: the
 * vCPU's clock and the task's runtime advance by ns; if the task used up its
 * slice (blocks, or yielded) it goes behind the others. */
void sched_account_ns(struct sched *s, struct sched_task *t, unsigned cpu, uint64_t blocks,
                      uint64_t ns);
/* The same at a flat ns_per_block per block (the scheduler's unit tests). */
static inline void sched_account(struct sched *s, struct sched_task *t, unsigned cpu,
                                 uint64_t blocks)
{
    sched_account_ns(s, t, cpu, blocks, blocks * s->ns_per_block);
}
/* How long work that takes fs femtoseconds on a capacity-1024 vCPU at its
 * maximum frequency takes on cpu now, in femtoseconds (docs/timing.md). */
static inline uint64_t sched_cpu_fs(const struct sched *s, unsigned cpu, uint64_t fs)
{
    return (uint64_t)(((unsigned __int128)fs * s->cpus[cpu].time_scale) >> 16);
}
/* cpufreq: cpu's current frequency (clamped to 1..max kHz); its speed follows. */
void sched_cpu_set_freq(struct sched *s, unsigned cpu, uint32_t khz);
/* arch_scale_cpu_capacity() times arch_scale_freq_capacity() (cur << 10 /
 * max, topology_set_freq_scale()): what a unit of running adds to PELT. */
static inline unsigned sched_cpu_pelt_scale(const struct sched_cpu *c)
{
    uint64_t freq_scale = ((uint64_t)c->cur_freq_khz << 10) / c->max_freq_khz;
    return (unsigned)((c->capacity * freq_scale) >> 10);
}
/* When the next slice will start (the smallest clock of a vCPU with work),
 * UINT64_MAX when nothing is runnable: emu fires timers due before it. */
uint64_t sched_next_time(struct sched *s);
/* Moves virtual time forward while idle (or to a timer's deadline); never
 * backward. Wake-ups after it start no earlier than ns. */
void sched_advance(struct sched *s, uint64_t ns);
/* The time inside the running slice (its start plus what it has used), for
 * the timestamps of what the scheduler logs now; placement is unchanged. */
static inline void sched_note_time(struct sched *s, uint64_t ns)
{
    if (s->in_slice && ns > s->slice_now_ns)
        s->slice_now_ns = ns;
    if (ns > s->log_ns)
        s->log_ns = ns;
}

/* Hotplug, the cpuN/online file (H1). Offline: -EINVAL for a bad cpu, 0 if
 * already offline, -EPERM for the U5 CPU (upstream, linux-6.6), -EBUSY for the last
 * online CPU (and under override the last online CPU of M); else migrates its
 * runnable tasks in U6/O3 order. Online: -EINVAL or 0. */
int sched_cpu_offline(struct sched *s, unsigned cpu);
int sched_cpu_online(struct sched *s, unsigned cpu);

/* A snapshot of t for an event of the machine's stream (mevent.h). */
void sched_event_task(const struct sched_task *t, struct mevent_task *out);

/* 3.3 and friends: no compat task placed outside M (except one the kill or
 * fixup check will see before it runs), every runnable task on one online
 * runqueue inside its affinity, counts right. 0, or -EINVAL with the first
 * violations described in report. */
int sched_check_invariants(const struct sched *s, char *report, size_t len);

#endif
