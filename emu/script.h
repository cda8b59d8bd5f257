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

struct script_task {
    /* What to start. */
    const char *name;       /* the scenario's name for it (not the comm) */
    const char *path;       /* host path of the ELF */
    int argc;
    char **argv;            /* argv[0] included */
    char **envp;
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
};

/* A file placed in the guest's private /tmp before the first task starts. */
struct script_file {
    const char *name; /* no '/' */
    const char *data;
    size_t len;
};

enum script_action_kind {
    SCRIPT_WRITE,       /* write data to a /sys or /proc file */
    SCRIPT_READ,        /* read a /sys or /proc file (result) */
    SCRIPT_SETAFFINITY, /* sched_setaffinity of a task from outside */
    SCRIPT_SIGNAL,      /* kill(pid, sig) from outside */
    SCRIPT_STDIN,       /* bytes into a task's stdin */
};

struct script_action {
    enum script_action_kind kind;
    uint64_t at_ns;
    int task;              /* index in tasks (setaffinity, signal, stdin) */
    const char *path;      /* write, read */
    const char *data;      /* write, stdin */
    size_t len;
    bool last_stdin;       /* stdin: closes the task's stdin after these bytes */
    struct cpumask mask;   /* setaffinity */
    int sig;               /* signal */
    /* Result. */
    bool fired;            /* false: every task had ended before at_ns */
    int err;               /* 0 or a negative errno */
    char *content;         /* read: the file's bytes (malloc'ed) */
    size_t content_len;
};

#define SCRIPT_DEADLOCK 1

struct machine_script {
    struct script_file *files;
    size_t nfiles;
    struct script_task *tasks;
    size_t ntasks;
    struct script_action *actions; /* sorted by at_ns, stable */
    size_t nactions;
    uint64_t time_limit_ns; /* every task is SIGKILLed at this time */
    /* Results. */
    bool time_limit_hit;
    uint64_t end_ns;        /* virtual time when the last task ended */
    int status;             /* 0, 70 (an invariant failed), 128+N (a host signal),
                             * SCRIPT_DEADLOCK (every task blocked for good) */
    char *klog;             /* the kernel log (malloc'ed) */
};

/* Boots cfg's machine (cfg->argv is not used), runs the script until every
 * task has ended, and fills in the results. Returns 0, or a negative errno
 * when the machine could not start (a message is on stderr). */
int emu_run_script(const struct emu_config *cfg, struct machine_script *s);

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
