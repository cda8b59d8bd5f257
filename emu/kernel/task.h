/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task.h - processes (thread groups) and tasks (threads) (task.c): their
 * state, signals pending and actions, blocking and waking, exit, clone. */
#ifndef ASYMU_TASK_H
#define ASYMU_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroup.h"
#include "cred.h"
#include "ktimer.h"
#include "mm.h"
#include "scheduler.h"
#include "uc_fwd.h"
#include "waitq.h"

struct abi;
struct fdtable;
struct machine;
struct proc_timers;
struct ptrace_link;
struct pty;
struct syscall_entry;

/* ---- processes and tasks (task.c) ---- */

#define NSIG_GUEST 64
#define PER_LINUX32 0x0008
#define COMM_LEN 16
#define SIGBIT(sig) (UINT64_C(1) << ((sig) - 1))

/* What a queued signal carries into its siginfo. */
struct siginfo_lite {
    int code; /* si_code */
    int pid;  /* sender (SI_USER, SI_TKILL) or child (SIGCHLD) */
    int status; /* SIGCHLD: exit code or signal */
    uint64_t addr; /* faults: si_addr */
    uint64_t value; /* SI_QUEUE and friends: si_value */
    int uid;
    int timerid, overrun; /* SI_TIMER: si_timerid, si_overrun */
    int syscall, err;     /* SIGSYS from seccomp: si_syscall, si_errno */
    uint32_t arch;        /* and si_arch */
};

/* A thread's timer slack until PR_SET_TIMERSLACK (INIT_TIMER_SLACK_NS). */
#define TIMER_SLACK_DEFAULT_NS 50000

#define SIGRTMIN_GUEST 32
#define RTQUEUE_MAX 64

/* Signals waiting for delivery: one instance of each standard signal, and
 * every instance of a real-time one, in order (the kernel's sigpending). */
struct sigpending {
    uint64_t set;
    struct siginfo_lite info[SIGRTMIN_GUEST]; /* standard signals */
    struct {
        int sig;
        struct siginfo_lite info;
    } rt[RTQUEUE_MAX];
    unsigned nrt;
};

/* A signal's action as the guest sets it (rt_sigaction). */
struct sigaction_guest {
    uint64_t handler, flags, restorer, mask;
};

struct sighand {
    int refs; /* processes sharing it (CLONE_SIGHAND) */
    struct sigaction_guest action[NSIG_GUEST + 1];
};

enum task_state {
    TASK_RUNNABLE,
    TASK_BLOCKED,
    TASK_DEAD, /* exited: a thread is freed soon after, a leader when reaped (lifetime.h) */
};

/* Re-evaluates a blocked syscall when its task is woken: the result for the
 * guest, or RESUME_BLOCK to keep waiting. Runs with the task's registers
 * loaded. */
typedef int64_t (*resume_fn)(struct task *t);
#define RESUME_BLOCK INT64_MIN
/* A resume that goes on in the task's next slice with the task runnable,
 * not blocked: work that outlasts a slice (a vCPU's KVM_RUN). Its handler
 * returns -ESLICE. */
#define RESUME_AGAIN (INT64_MIN + 1)
#define ESLICE 1001
/* Returned by a handler that blocked its task (task_block); a handler that
 * returns it without calling task_block is restarted whole when woken. */
#define EBLOCK 1000

/* One resource limit: soft and hard (rlimit.h). */
struct rlimit_pair {
    uint64_t cur, max;
};
#define GUEST_RLIM_NLIMITS 16

/* A task's side of the priority-inheritance futexes (futex_pi.c): the
 * lock it waits for, and the boost its own locks' waiters give it. */
enum futex_pi_kind {
    FUTEX_PI_NONE,
    FUTEX_PI_LOCK,         /* FUTEX_LOCK_PI(2): waits for owner's lock */
    FUTEX_PI_REQUEUE_WAIT, /* FUTEX_WAIT_REQUEUE_PI, not yet requeued */
    FUTEX_PI_REQUEUED,     /* ... requeued: waits for owner's lock */
};
struct futex_pi_wait {
    enum futex_pi_kind kind;
    struct task *owner;          /* LOCK, REQUEUED: the lock's owner */
    const void *obj;             /* the PI futex's key (futex.c) */
    uint64_t key, uaddr;         /* ... and its address in this task */
    const void *obj2;            /* REQUEUE_WAIT: the PI futex to requeue to */
    uint64_t key2, uaddr2;
    uint64_t seq;                /* when it queued: FIFO among equal priorities */
    bool granted;                /* an unlock, a requeue or the owner's exit gave it the lock */
    bool boosted;                /* prio below its own normal_prio (rt_mutex_setprio) */
    int prio;                    /* the kernel's p->prio while boosted */
};

/* A thread group: what clone without CLONE_THREAD creates. */
struct process {
    struct machine *machine;
    int pid, pgid, sid;
    struct process *parent;
    struct process *children, *next_sibling;
    struct mm *mm;
    struct fdtable *files;
    struct sighand *sighand;
    unsigned personality;
    char exe[4096]; /* guest path of the image, for /proc/self/exe */
    char cwd[4096]; /* guest path */
    /* its root directory (chroot(2)), a canonical guest path, "/" for the
     * guest's own: kept by fork and exec as Linux's fs_struct, per process
     * as cwd is (sys_proc.c, unshare) */
    char root[4096];
    unsigned umask;  /* applied to the modes of what it creates (fs_calls.h) */
    struct rlimit_pair rlim[GUEST_RLIM_NLIMITS]; /* setrlimit: kept by fork and exec */
    struct cred cred;        /* user and group ids (cred.h): kept by fork and exec */
    struct key *session_keyring, *process_keyring; /* keys.h: fork keeps the first */
    struct sigpending pending; /* process-directed signals */
    int exit_signal;         /* sent to the parent at exit (SIGCHLD) */
    struct task *threads;    /* every live thread, and the leader until reaped */
    int live_threads;
    bool exiting;            /* exit_group or a fatal signal is ending it */
    bool zombie;             /* every thread is dead: the parent may reap it */
    bool stopped;            /* a stop signal froze it until SIGCONT */
    int stop_report;         /* the stop signal waitpid(WUNTRACED) has yet to report */
    bool cont_report;        /* a continue waitpid(WCONTINUED) has yet to report */
    int wait_status;         /* Linux wait(2) status: code << 8, or the signal */
    struct task *vfork_waiter; /* the parent task blocked until exec or exit (lifetime.h) */
    struct proc_timers *timers; /* POSIX timers and itimers (timers.h), or NULL */
    bool child_subreaper;     /* PR_SET_CHILD_SUBREAPER: orphans below come here */
    bool has_child_subreaper; /* an ancestor is one: look for it when orphaning */
    bool thp_disabled;        /* PR_SET_THP_DISABLE: kept by fork and exec */
    bool undumpable;          /* PR_SET_DUMPABLE 0; exec makes it dumpable again */
    struct pty *ctty;        /* its controlling terminal if a pty (pty.h), NULL: the console */
    uint64_t child_cpu_ns, child_sys_ns; /* CPU time of reaped children (times, getrusage) */
    uint64_t exited_cpu_ns, exited_sys_ns; /* CPU time of its threads already freed */
};

struct task {
    int tid;
    struct process *proc;
    struct machine *machine;
    enum task_state state;
    uc_context *ctx;       /* registers while the engine holds another task's */
    uint64_t sigmask;
    struct sigpending pending; /* thread-directed signals */
    struct siginfo_lite delivering; /* info of the signal whose frame is being built */
    int restart_kind;     /* an interrupted syscall's ERESTART* code (restart.h), 0 if none */
    resume_fn restart_fn; /* what restart_syscall continues, with restart_args (restart.h) */
    uint64_t restart_args[4];
    uint64_t saved_sigmask; /* restored after a handler interrupted rt_sigsuspend */
    bool restore_sigmask;
    uint64_t altstack_sp, altstack_size;
    int altstack_flags;
    struct sched_task se; /* affinity, vCPU, compat flag: the scheduler's view */
    int cgroup[CGROUP_HIERS]; /* its group in each hierarchy (cgroup.h) */
    int cpuset_css;           /* the group whose cpuset it uses */
    int sched_policy, rt_priority; /* sched_setscheduler's class and priority */
    uint32_t mempolicy;       /* set_mempolicy's policy word (mempolicy.h), 0: default */
    int ioprio;               /* ioprio_set's value, 0: never set (ioprio.c) */
    struct key *thread_keyring; /* keys.h: not inherited by clone */
    int reqkey_defl;          /* KEYCTL_SET_REQKEY_KEYRING's default */
    uint64_t clear_child_tid;
    int seccomp_mode;       /* SECCOMP_MODE_* (guest_seccomp.h), with its filters: */
    struct seccomp_filter *seccomp;
    bool no_new_privs;      /* PR_SET_NO_NEW_PRIVS: kept by clone and execve */
    int pdeath_signal;      /* PR_SET_PDEATHSIG: sent when the parent process ends */
    uint64_t timer_slack_ns; /* PR_SET_TIMERSLACK (prctl.c), and what 0 restores: */
    uint64_t timer_slack_default_ns; /* the parent's slack when it was cloned */
    int mce_kill;           /* PR_MCE_KILL's policy: PR_MCE_KILL_DEFAULT (2) until set */
    bool io_flusher;        /* PR_SET_IO_FLUSHER */
    uint64_t robust_list;   /* set_robust_list's head, walked at exit (futex_robust.c) */
    struct futex_pi_wait pi; /* PI futexes (futex_pi.c) */
    uint64_t new_tls;      /* CLONE_SETTLS: applied when first loaded */
    bool has_new_tls;
    uint64_t fault_addr;   /* set by the memory fault hook */
    bool stop;             /* leave uc_emu_start after this syscall */
    bool control_held;     /* stopped by the control socket's `stop PID` (control.h) */
    resume_fn resume;      /* set while blocked in a syscall */
    const void *wait_obj;  /* what the blocked task waits on (task_wake_all) */
    uint64_t wait_key;     /* with wait_obj, its wait queue: a futex's address, else 0 */
    uint64_t wait_args[6]; /* a blocking handler's own state */
    uint64_t sys_args[6];  /* the blocked syscall's arguments (restart, strace) */
    const struct syscall_entry *sys_entry; /* the blocked syscall */
    char *strace_line;     /* its strace text, printed when it completes */
    uint64_t deadline_ns;  /* wake-up time of a timed wait, 0 if none */
    bool woken;            /* a futex wake (not a timeout or signal) ended the wait, */
    const void *woken_obj; /* and the queue it came from (futex_waitv) */
    uint64_t woken_key;
    uint64_t write_done;   /* bytes a blocking pipe write has written before it waited */
    bool sock_resuming;    /* a woken socket call runs again (socket.c's sock_resume), */
    uint64_t sock_resumed; /* ... with the bytes it had moved before it waited */
    bool fd_table_full;    /* this call's EMFILE is the process's own (fd_install) */
    uint64_t sys_ns;       /* CPU time spent in syscalls (system time) */
    struct process *vfork_child; /* the child this task waits for in vfork (lifetime.h) */
    struct task *next_thread, *next_all;
    /* The machine's indexes (waitq.h): its wait queue while blocked, the
     * timeout of a timed wait, the tid table, the task list. */
    struct wait_node wait_node;
    struct wait_node *extra_waits;
    struct ktimer timeout;
    struct task *next_tid, **prev_all;
    struct task *exited_next, **exited_pprev; /* machine->exited */
    struct ptrace_link *ptrace; /* its tracer and ptrace-stop (ptrace.h), NULL if untraced */
};

static inline struct mm *task_mm(struct task *t) { return t->proc->mm; }
static inline const struct abi *task_abi(struct task *t) { return t->proc->mm->abi; }

/* The first process (pid 1). */
struct task *task_create_init(struct machine *m);
/* Whether the machine may hold one more process, as copy_process checks
 * RLIMIT_NPROC: 0, -EAGAIN at --max-procs live processes, -ENOMEM when the
 * host is below --host-reserve. fork/clone and a scenario's tasks ask it. */
int process_limits_check(const struct machine *m);
struct task *task_find(struct machine *m, int tid);
/* task_find, and also a process leader that ended but is not reaped yet. */
struct task *task_find_unreaped(struct machine *m, int tid);
struct process *process_find(struct machine *m, int pid);
/* Blocks t in its current syscall until woken; resume decides the result. */
void task_block(struct task *t, resume_fn resume, const void *wait_obj, uint64_t deadline_ns);
void task_wake(struct task *t);
/* Wakes every task blocked on obj. */
void task_wake_all(struct machine *m, const void *obj);
/* Ends one thread (exit) or the whole group (exit_group, fatal signal). */
void task_exit(struct task *t, int code);
void process_exit_group(struct process *p, int wait_status);
/* Frees a zombie once its parent has collected its status. */
void process_reap(struct process *p);
/* The exit status of a shell: the code, or 128 + the signal. */
int wait_status_to_shell(int status);

/* The ioprio word (task->ioprio) a child gets from its parent's (ioprio.c). */
int ioprio_fork(int parent, uint64_t clone_flags);
/* clone/fork/vfork core: flags as clone(2); returns the child's tid or an errno. */
int64_t do_clone(struct task *t, uint64_t flags, uint64_t newsp, uint64_t parent_tid,
                 uint64_t tls, uint64_t child_tid);

#endif
