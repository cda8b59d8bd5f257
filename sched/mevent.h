/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mevent.h - the machine's event stream: the one place where the scheduler
 * and the kernel layer report what happens (a task ran, switched, woke,
 * migrated, forked, exec'd, exited; an affinity changed and which rule did
 * it; a policy killed a task; a vCPU went offline or online; syscalls), with
 * virtual time and vCPU. Subscribers (trace writers, the scenario runner)
 * register a callback for the kinds they want; with none, each emission
 * point costs one predictable branch (mevent_wanted). Pure logic. */
#ifndef ASYMU_MEVENT_H
#define ASYMU_MEVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "cpumask.h"

#define MEVENT_NO_CPU ((unsigned)NR_CPUS_MAX)
#define MEVENT_COMM_LEN 16
#define MEVENT_SUBS_MAX 8

enum mevent_kind {
    MEVENT_RUN,             /* a task ran on a vCPU from ts to run.end_ns */
    MEVENT_SWITCH,          /* derived from MEVENT_RUN: the vCPU went from prev to task */
    MEVENT_WAKEUP,          /* a task became runnable on cpu (wakeup.new: a new task) */
    MEVENT_MIGRATE,         /* a runnable or waking task moved between vCPUs */
    MEVENT_FORK,            /* task forked or cloned fork.child */
    MEVENT_EXEC,            /* task's execve passed its point of no return */
    MEVENT_EXIT,            /* a thread ended */
    MEVENT_AFFINITY,        /* a task's affinity changed */
    MEVENT_KILL,            /* a policy decided to SIGKILL the task's thread group */
    MEVENT_HOTPLUG,         /* a vCPU went offline or online */
    MEVENT_RUNQUEUE,        /* the number of runnable tasks of a vCPU changed */
    MEVENT_SYSCALL_ENTER,   /* task entered a syscall */
    MEVENT_SYSCALL_EXIT,    /* ... and left it (not for one that blocked until it completes) */
    MEVENT_NEWTASK,         /* task's clone made newtask.tid (copy_process), before FORK */
    MEVENT_SIGNAL_GENERATE, /* a signal was sent to task (the sender runs on src_cpu) */
    MEVENT_SIGNAL_DELIVER,  /* task took a pending signal (get_signal), before its action */
    MEVENT_RENAME,          /* task's comm becomes rename.comm (exec, PR_SET_NAME, /proc) */
    MEVENT_FREE,            /* an exited task is freed (reaped, or at once for a thread) */
    MEVENT_PRINT,           /* the task wrote print.msg to tracefs's trace_marker */
    MEVENT_FREQUENCY,       /* cpu's frequency became frequency.khz (schedutil) */
    MEVENT_STAT_RUNTIME,    /* the fair class charged task stat.runtime_ns on cpu (update_curr) */
    MEVENT_KIND_COUNT,
};
#define MEVENT_BIT(kind) (UINT32_C(1) << (kind))
#define MEVENT_ALL ((UINT32_C(1) << MEVENT_KIND_COUNT) - 1)

/* A task as it was when the event happened (a snapshot: the task may be
 * gone by the time a subscriber looks). tid 0 is the idle task. */
struct mevent_task {
    int tid, tgid;
    char comm[MEVENT_COMM_LEN];
    bool compat; /* running an AArch32 image */
    int prio;    /* the kernel's p->prio: 120 + nice, 99 - rt_priority, -1 for deadline */
};

/* How a task left a vCPU, as sched_switch's prev_state tells it. */
enum mevent_run_end {
    MEVENT_END_RUNNABLE, /* still runnable: its slice ended (preempted) or it goes on */
    MEVENT_END_BLOCKED,  /* sleeps */
    MEVENT_END_DEAD,     /* exited */
    MEVENT_END_MOVED,    /* runnable, but moved to another vCPU */
};

/* Why the scheduler moved a task (its sched_migrate_task). */
enum mevent_migrate_reason {
    MEVENT_MIGRATE_WAKEUP,   /* placed where it wakes: select_task_rq() in try_to_wake_up() */
    MEVENT_MIGRATE_BALANCE,  /* balancing: load_balance(), RT push and pull */
    MEVENT_MIGRATE_MISFIT,   /* a misfit task pulled by a vCPU of greater capacity */
    MEVENT_MIGRATE_AFFINITY, /* its affinity lost its vCPU: __set_cpus_allowed_ptr() */
    MEVENT_MIGRATE_HOTPLUG,  /* its vCPU went offline: migrate_tasks() */
    MEVENT_MIGRATE_EXEC,     /* its exec narrowed its affinity off its vCPU (U1, O1, G3) */
};

/* Why an affinity changed. */
enum mevent_cause {
    MEVENT_CAUSE_SETAFFINITY, /* sched_setaffinity(2), or taskset -p from outside */
    MEVENT_CAUSE_EXEC,        /* execve's narrowing, fallback or restore */
    MEVENT_CAUSE_CHECK,       /* the return-to-user check (K2f) */
    MEVENT_CAUSE_HOTPLUG,     /* no online CPU left in it: the fallback mask (U6, O3) */
    MEVENT_CAUSE_FORK,        /* a child inherits its parent's mask (3.1) */
};

struct mevent {
    enum mevent_kind kind;
    uint64_t ts_ns; /* virtual time */
    unsigned cpu;   /* the vCPU it happened on, MEVENT_NO_CPU if none */
    /* WAKEUP, MIGRATE, AFFINITY, SIGNAL_GENERATE: the vCPU whose running
     * task caused it (the waker's, the caller's, the sender's),
     * MEVENT_NO_CPU when no slice runs. */
    unsigned src_cpu;
    struct mevent_task task; /* the task concerned (SWITCH: next; FORK: parent) */
    union {
        struct {
            uint64_t end_ns;
            enum mevent_run_end end;
        } run;
        struct {
            struct mevent_task prev;
            enum mevent_run_end prev_end;
        } sw;
        struct {
            bool new_task;
        } wakeup;
        struct {
            unsigned from, to;
            enum mevent_migrate_reason reason;
        } migrate;
        struct {
            struct mevent_task child;
            bool thread; /* CLONE_THREAD: a thread of the same process */
        } fork;
        struct {
            const char *path; /* the guest path execve was given */
            int old_tid;      /* the caller's tid before a non-leader's exec took the pid */
        } exec;
        struct {
            int wait_status; /* Linux wait(2) status: code << 8, or the signal */
        } exit;
        struct {
            const struct cpumask *old_mask, *new_mask;
            enum mevent_cause cause;
            const char *rule; /* docs/policies.md's id: "U1", "O2", "K2f", "3.1"... */
        } affinity;
        struct {
            const char *rule; /* "K2", "K2f", "H2" */
        } kill;
        struct {
            bool online;
        } hotplug;
        struct {
            unsigned nr_running;
        } runqueue;
        struct {
            uint64_t nr;
            const char *name; /* NULL for a number the ABI does not know */
            int64_t ret;      /* SYSCALL_EXIT */
        } syscall;
        struct {
            const char *msg; /* the bytes written, NUL-terminated, without a final '\n' */
            uint64_t ip;     /* the kernel address the print event shows (tracing_mark_write) */
        } print;
        struct {
            char comm[MEVENT_COMM_LEN]; /* the new one; task has the old */
        } rename;
        struct {
            uint32_t khz;
        } frequency;
        struct {
            uint64_t runtime_ns, vruntime;
        } stat;
        struct {
            int tid;              /* the new task's; it has task's comm */
            uint64_t clone_flags; /* as clone(2) was given them */
        } newtask;
        struct {
            int sig, code;           /* si_code */
            bool group;              /* GENERATE: sent to the thread group (kill), not a thread */
            int result;              /* GENERATE: include/trace/events/signal.h's TRACE_SIGNAL_* */
            uint64_t handler, flags; /* DELIVER: the sigaction's sa_handler and sa_flags */
        } signal;
    };
};

typedef void (*mevent_fn)(void *ctx, const struct mevent *ev);

struct mevent_sub {
    mevent_fn fn;
    void *ctx;
    uint32_t kinds; /* MEVENT_BIT()s it receives */
};

/* Where a vCPU stands: the task of the running slice as it was when the
 * slice started, and for switch derivation who ran last and how it left. */
struct mevent_cpu_state {
    struct mevent_task slice; /* mevent_slice_start's snapshot */
    struct mevent_task last;  /* tid 0: idle */
    enum mevent_run_end end;  /* how last left, if it has */
    uint64_t end_ns;
    bool left; /* last is off the vCPU; the switch is not reported yet */
};

struct mevent_bus {
    uint32_t wanted; /* union of the subscribers' kinds (MEVENT_RUN if SWITCH is wanted) */
    unsigned nsubs;
    struct mevent_sub subs[MEVENT_SUBS_MAX];
    /* The owner's clock for events inside a slice (emu: machine_now);
     * NULL: the scheduler's now. */
    uint64_t (*clock)(void *ctx);
    void *clock_ctx;
    /* ... and the vCPU running that slice (MEVENT_NO_CPU between slices);
     * NULL: unknown. Also given clock_ctx. */
    unsigned (*running_cpu)(void *ctx);
    unsigned nr_cpus;
    struct mevent_cpu_state *cpus; /* allocated with the first RUN or SWITCH subscriber */
};

/* The one branch an emission point pays when nobody listens. */
static inline bool mevent_wanted(const struct mevent_bus *bus, enum mevent_kind kind)
{
    return __builtin_expect((bus->wanted >> kind) & 1, 0);
}

/* Adds a subscriber for `kinds`: 0, -ENOSPC beyond MEVENT_SUBS_MAX, -ENOMEM. */
int mevent_subscribe(struct mevent_bus *bus, uint32_t kinds, mevent_fn fn, void *ctx);
/* A slice of task starts on cpu: the MEVENT_RUN that ends it shows the
 * task as it is now (a run that ends in execve is the caller's). */
void mevent_slice_start(struct mevent_bus *bus, unsigned cpu, const struct mevent_task *task);
/* The task a MEVENT_RUN of tid on cpu reports: the slice's snapshot, or
 * *now if the slice started unseen. */
const struct mevent_task *mevent_slice_task(const struct mevent_bus *bus, unsigned cpu,
                                            const struct mevent_task *now);
/* Delivers ev to the subscribers that want its kind; a MEVENT_RUN also
 * produces the MEVENT_SWITCH events it implies. */
void mevent_emit(struct mevent_bus *bus, const struct mevent *ev);
/* The end of the run: reports the switches to idle still pending, then
 * forgets the subscribers. */
void mevent_close(struct mevent_bus *bus);

/* Names for writers: "run", "exec", ...; "sched_setaffinity", "exec", ...;
 * the letter sched_switch shows for a task that left this way. */
const char *mevent_kind_name(enum mevent_kind kind);
const char *mevent_cause_name(enum mevent_cause cause);
/* "wakeup", "balance", "misfit", "affinity", "hotplug", "exec". */
const char *mevent_migrate_reason_name(enum mevent_migrate_reason reason);

#endif
