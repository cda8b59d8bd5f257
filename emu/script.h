/* SPDX-License-Identifier: GPL-2.0-or-later */
/* script.h - a machine driven by a script instead of one command line:
 * several top-level tasks started at virtual times, actions from outside
 * the machine at virtual times (sysfs/procfs writes, affinity changes as
 * `taskset -p` makes them, signals, stdin bytes, file reads), and what each
 * task left behind. The scenario runner (scenario/) fills one in. */
#ifndef ASYMU_SCRIPT_H
#define ASYMU_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpumask.h"
#include "emu.h"

struct machine;
struct script_watch;

/* A cgroup v2 group a script makes before its first task starts
 * (docs/scenarios.md "cgroup"), its missing ancestors with it, and the
 * values written to its files: each ancestor's cgroup.subtree_control
 * first enables the controllers of those files. */
#define SCRIPT_CGROUP_FILES 5 /* cpuset.cpus, cpu.weight, cpu.max, cpu.uclamp.{min,max} */
struct script_cgroup {
    const char *path;                         /* below the root, "bg/fg" */
    const char *file[SCRIPT_CGROUP_FILES];    /* "cpuset.cpus", ... */
    const char *value[SCRIPT_CGROUP_FILES];
    unsigned nfiles;
};

/* The kernel layer's bounds and checks, for the scenario's parser (script.c
 * asserts they are cgroup.h's): groups of the machine (the root is one), a
 * group's name (with its NUL), the v2 mount. */
#define SCRIPT_CGROUP_MAX 128
#define SCRIPT_CGROUP_NAME_MAX 64
#define SCRIPT_CGROUP_MOUNT "/sys/fs/cgroup"
/* 0 if a v2 group's file (cpu.weight, cpu.max, cpu.uclamp.min,
 * cpu.uclamp.max) takes value, else the -errno its write would give. */
int script_cgroup_check(const char *file, const char *value);
/* Whether every v2 group may show a file of this name (a group of that
 * name could not be made: EEXIST). */
bool script_cgroup_is_file(const char *name);

/* An affinity change of a task's main thread, from the event stream. */
struct script_affinity_change {
    uint64_t at_ns;
    struct cpumask old_mask, new_mask;
    const char *rule;  /* docs/policies.md's id (static text) */
    const char *cause; /* mevent_cause_name's */
};

/* The saved mask (the kernel's user_cpus_ptr) right after one execve. */
struct script_saved_mask {
    uint64_t at_ns;
    bool has_mask;
    struct cpumask mask;
};

struct script_task {
    /* What to start. */
    const char *name;       /* the scenario's name for it (not the comm) */
    const char *path;       /* host path of the ELF */
    const char *guest_path; /* path the guest knows it by (in VFS_PROGRAMS_DIR), or
                             * NULL: its host path as the guest sees it */
    int argc;
    char **argv;            /* argv[0] included */
    char **envp;
    const char *cgroup;     /* a group of cgroups below the root ("bg/fg") it
                             * joins before its execve, or NULL: the root */
    bool has_affinity;      /* set before its execve, as `taskset -c LIST PROG` */
    struct cpumask affinity;
    uint64_t start_ns;      /* virtual time it is started at */
    int program_fd;         /* path, opened before the emulator confines itself */
    char exe[4096];         /* path as the guest sees it, likewise found before */
    int stdout_fd, stderr_fd; /* host descriptors its fd 1 and 2 write to */
    /* What happened (filled by emu_run_script). */
    struct process *proc;
    struct file *stdin_writer; /* the write end of its stdin pipe, or NULL once closed */
    bool started;
    char start_error[256];  /* why it could not start, or "" */
    int pid;
    bool compat;            /* its last image was AArch32 */
    bool exited;
    int wait_status;        /* wait(2) status */
    struct cpumask final_affinity; /* the leader's affinity when the process ended */
    bool has_final_saved;          /* and its saved mask */
    struct cpumask final_saved;
    /* What the event stream told of its process (script_events.c). */
    struct cpumask cpus_used;      /* every vCPU one of its threads ran on */
    struct cpumask cpus_used_isa[2]; /* ... running AArch64 [0], AArch32 [1] code */
    struct script_affinity_change *affinity_history; /* the main thread's, malloc'ed */
    size_t naffinity;
    struct script_saved_mask *saved_history; /* one per execve of the main thread, malloc'ed */
    size_t nsaved;
};

/* A file placed in the guest's private /tmp before the first task starts. */
struct script_file {
    const char *name; /* no '/' */
    const char *data;
    size_t len;
};

/* A program shown to the guest in VFS_PROGRAMS_DIR: a copy of the host
 * file, made before the first task starts. */
struct script_program {
    const char *name; /* no '/' */
    const char *host_path;
};

enum script_action_kind {
    SCRIPT_WRITE,       /* write data to a /sys or /proc file */
    SCRIPT_READ,        /* read a /sys or /proc file (result) */
    SCRIPT_SETAFFINITY, /* sched_setaffinity of a task from outside */
    SCRIPT_SIGNAL,      /* kill(pid, sig) from outside */
    SCRIPT_STDIN,       /* bytes into a task's stdin */
};

/* When an action happens: at a virtual time, or at the next slice
 * boundary after the first event of the stream that matches its trigger. */
enum script_when {
    SCRIPT_AT,
    SCRIPT_ON_EXEC,    /* a matching task's execve (a task's own start excluded) */
    SCRIPT_ON_EXIT,    /* a matching task's main thread ends */
    SCRIPT_ON_SYSCALL, /* a matching task enters syscall on_syscall */
    SCRIPT_ON_RUNS,    /* a matching task runs on a vCPU of on_cpus */
};

struct script_action {
    enum script_action_kind kind;
    enum script_when when;
    uint64_t at_ns;        /* SCRIPT_AT's time; a trigger's: when it fired */
    int on_task;           /* trigger: the task (index in tasks) it watches, or -1: */
    const char *on_comm;   /* ... any process whose comm is this */
    const char *on_syscall; /* SCRIPT_ON_SYSCALL: the syscall's name */
    struct cpumask on_cpus; /* SCRIPT_ON_RUNS: the vCPUs */
    bool each;             /* a trigger that fires at each matching event, not once */
    uint64_t every_ns;     /* SCRIPT_AT: again every every_ns after at_ns (0: once) */
    int task;              /* index in tasks (setaffinity, signal, stdin) */
    const char *path;      /* write, read */
    const char *data;      /* write, stdin */
    size_t len;
    bool last_stdin;       /* stdin: closes the task's stdin after these bytes */
    struct cpumask mask;   /* setaffinity */
    int sig;               /* signal */
    /* Result. */
    bool triggered;        /* a trigger's event happened (at_ns is set) */
    bool fired;            /* false: every task had ended before at_ns */
    uint64_t fires;        /* how many times it happened (repeating: every, each) */
    uint64_t next_ns;      /* every: its next time */
    bool pending;          /* armed for the next slice boundary, not yet done */
    int err;               /* 0 or a negative errno (repeating: the first) */
    char *content;         /* read: the file's bytes (malloc'ed) */
    size_t content_len;
};

#define SCRIPT_DEADLOCK 1

/* One thread's scheduling as the event stream told it (script_events.c),
 * what the quantitative expectations measure (docs/scenarios.md). A tid
 * used again after its thread ended gets a record of its own. */
struct script_thread {
    int tid, tgid;
    char comm[16];           /* its last comm */
    uint64_t *run_ns;        /* time running per vCPU (ncpus entries, malloc'ed) */
    uint64_t migrations;     /* runs on another vCPU than its run before */
    uint64_t *latencies;     /* wake-up to running, ns, one per wake-up (malloc'ed) */
    size_t nlatencies;
    uint64_t runnable_wait_ns; /* runnable but not running (Linux's run_delay) */
    uint64_t runnable_since; /* with runnable: since when it waits */
    uint64_t woken_at;       /* with woken: its wake-up not yet followed by a run */
    unsigned last_cpu;       /* with ran: of its last run */
    bool runnable, woken, ran;
    /* Its trace_marker lines "asymu-workload: deadline miss" and
     * "asymu-workload: phase NAME" (examples/workload.c writes them). */
    uint64_t deadline_misses;
    struct script_mark *marks; /* per NAME (malloc'ed) */
    size_t nmarks;
};

struct script_mark {
    char name[65];
    uint64_t count;
};

/* At most this many wake-ups are kept over all threads; past it the
 * latencies stop (threads_truncated). 8 MiB. */
#define SCRIPT_MAX_LATENCIES (1u << 20)

struct machine_script {
    struct script_file *files;
    size_t nfiles;
    struct script_program *programs;
    size_t nprograms;
    struct script_task *tasks;
    size_t ntasks;
    struct script_cgroup *cgroups; /* made in this order */
    size_t ncgroups;
    struct script_action *actions; /* sorted by at_ns, stable */
    size_t nactions;
    uint64_t time_limit_ns; /* every task is SIGKILLed at this time */
    /* Results. */
    bool time_limit_hit;
    uint64_t end_ns;        /* virtual time when the last task ended */
    int status;             /* 0, 70 (an invariant failed), 128+N (a host signal),
                             * SCRIPT_DEADLOCK (every task blocked for good) */
    char *klog;             /* the kernel log (malloc'ed) */
    struct script_thread *threads; /* every thread that ran or woke, in order of appearance */
    size_t nthreads;
    unsigned ncpus;
    uint64_t *cpu_busy_ns;  /* per vCPU: time running a task (not idle) */
    bool threads_truncated; /* SCRIPT_MAX_LATENCIES was reached */
    struct script_watch *watch; /* the event stream's recorder (script_events.c) */
};

/* Boots cfg's machine (cfg->argv is not used), runs the script until every
 * task has ended, and fills in the results. Returns 0, or a negative errno
 * when the machine could not start (a message is on stderr). */
int emu_run_script(const struct emu_config *cfg, struct machine_script *s);
/* Frees the histories emu_run_script recorded into s's tasks and threads
 * (script_events.c), once the caller has read them. */
void script_events_free(struct machine_script *s);

/* The machine loop's end: pid 1 has exited, or, for a script, every task
 * has ended and none is still to start. */
bool script_machine_done(const struct machine *m);

/* machine.c's steps of a run, shared by emu_run and emu_run_script: the
 * host side (SIGPIPE, the crash guard, the janitor; a negative errno if the
 * janitor could not start), the sandbox and the machine loop (its status, or
 * a negative errno), and the end (every process freed). */
int machine_host_start(struct machine *m);
int machine_confine_and_run(struct machine *m);
void machine_host_stop(struct machine *m);
/* Writes data to a /sys or /proc file from outside the machine, as the
 * first task (a script action, a control request): 0 or a negative errno. */
int script_write_virtual(struct machine *m, const char *path, const char *data, size_t len);
/* The guest's view of a host path: relative to the sysroot when inside it. */
void guest_path_of(const char *sysroot, const char *host, char *out, size_t len);

#endif
