/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrace.c - guest ptrace(2): attaching (TRACEME, ATTACH, SEIZE), the
 * ptrace-stops of a tracee and their reports to the tracer's wait, and the
 * requests a tracer makes of a stopped tracee (restart, registers, memory,
 * siginfo, options, syscall info). Design in ptrace.h and docs/ptrace.md. */
#include "ptrace.h"
#include "abi.h"
#include "abi_user.h"
#include "breakpoint.h"
#include "file.h"
#include "iovec.h"
#include "machine.h"
#include "mm.h"
#include "procmem.h"
#include "signals.h"
#include "stop_hooks.h"
#include "task.h"
#include "lifetime.h"
#include "restart.h"
#include "waitq.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The requests of every ABI; an ABI's own (arm's user area, GETREGS, ...)
 * are its abi->arch_ptrace's. */
enum {
    PT_TRACEME = 0, PT_PEEKTEXT = 1, PT_PEEKDATA = 2, PT_POKETEXT = 4, PT_POKEDATA = 5,
    PT_CONT = 7, PT_KILL = 8, PT_SINGLESTEP = 9, PT_ATTACH = 16, PT_DETACH = 17, PT_SYSCALL = 24,
    PT_SETOPTIONS = 0x4200, PT_GETEVENTMSG = 0x4201, PT_GETSIGINFO = 0x4202,
    PT_SETSIGINFO = 0x4203, PT_GETREGSET = 0x4204, PT_SETREGSET = 0x4205, PT_SEIZE = 0x4206,
    PT_INTERRUPT = 0x4207, PT_LISTEN = 0x4208, PT_PEEKSIGINFO = 0x4209, PT_GETSIGMASK = 0x420a,
    PT_SETSIGMASK = 0x420b, PT_GET_SYSCALL_INFO = 0x420e,
};

#define O_TRACESYSGOOD 0x1
#define O_TRACEFORK 0x2
#define O_TRACEVFORK 0x4
#define O_TRACECLONE 0x8
#define O_TRACEEXEC 0x10
#define O_TRACEEXIT 0x40
#define O_MASK 0x3000ff /* every PTRACE_O_* of 5.15 (EXITKILL, SUSPEND_SECCOMP too) */
#define O_EXITKILL 0x100000

#define EV_FORK 1
#define EV_VFORK 2
#define EV_CLONE 3
#define EV_EXEC 4
#define EV_EXIT 6
#define EV_STOP 128

#define CLONE_VFORK_ 0x4000
#define CLONE_UNTRACED_ 0x00800000
#define CLD_TRAPPED_ 4
#define GUEST_WNOWAIT 0x01000000
#define GUEST_SA_NOCLDSTOP 1

enum pstop { PS_NONE, PS_SIGNAL, PS_SYSCALL_ENTER, PS_SYSCALL_EXIT, PS_EVENT, PS_GROUP };

struct ptrace_link {
    struct process *tracer;
    unsigned options;
    bool seized;
    enum pstop stop;
    int report;          /* wait status the tracer has yet to collect, 0 if none */
    bool resumed;        /* the tracer restarted it: applied at its next run */
    bool syscall_trace;  /* restarted with PTRACE_SYSCALL */
    bool stepping;       /* restarted with PTRACE_SINGLESTEP: one instruction */
    bool running_in_group_stop; /* restarted while its process is group-stopped */
    bool interrupt;      /* PTRACE_INTERRUPT (or a new seized child) waits to trap */
    bool rerun;          /* stopped before its syscall ran: the svc runs again */
    bool skip_enter;     /* re-executing that svc: no second syscall-enter-stop */
    bool exit_event_done; /* ... nor a second PTRACE_EVENT_EXIT stop */
    int dying_status;    /* stopped at PTRACE_EVENT_EXIT on its way to this death */
    bool exit_stop_after_event; /* the syscall-exit-stop follows the event stop */
    bool exit_report;    /* its exit is for the tracer (not its parent) to collect */
    int event;           /* PTRACE_EVENT_* of the syscall in progress, 0 if none */
    int resume_sig;      /* what a signal-delivery-stop delivers when restarted */
    int inject;          /* that signal, queued again: delivered without a stop */
    int stop_sig;        /* si_signo of the stop (GETSIGINFO) */
    struct siginfo_lite info; /* its siginfo */
    uint64_t event_msg;
    uint64_t sc_nr, sc_args[6];
    int64_t sc_ret;
};

static struct machine *mach(const struct task *t) { return t->machine; }

/* ---- stops ---- */

static void take_off_runqueue(struct task *t)
{
    if (t->state != TASK_RUNNABLE)
        return;
    t->state = TASK_BLOCKED;
    sched_task_block(&mach(t)->sched, &t->se);
    waitq_update(t);
}

/* The tracer hears of a stop: SIGCHLD with CLD_TRAPPED (unless it asked
 * SA_NOCLDSTOP), and its waits look again. */
static void notify_tracer(struct task *t, int code, int status)
{
    struct process *tracer = t->ptrace->tracer;
    if (!(tracer->sighand->action[SIGCHLD].flags & GUEST_SA_NOCLDSTOP)) {
        struct siginfo_lite info = {.code = code, .pid = t->tid, .status = status};
        signal_queue_process(tracer, SIGCHLD, &info);
    }
    task_wake_all(mach(t), tracer);
}

/* t enters a ptrace-stop whose wait status is `status` and whose siginfo
 * is si_signo/info. */
static void enter_stop(struct task *t, enum pstop kind, int status, int si_signo,
                       const struct siginfo_lite *info)
{
    struct ptrace_link *l = t->ptrace;
    l->stop = kind;
    l->report = status;
    l->resumed = false;
    l->running_in_group_stop = false;
    l->stop_sig = si_signo;
    l->info = *info;
    take_off_runqueue(t);
    t->stop = true;
    notify_tracer(t, CLD_TRAPPED_, (status >> 8) & 0xff);
}

static int trap_status(int code) { return (code << 8) | 0x7f; }

/* A stop reporting SIGTRAP with si_code (event << 8) | SIGTRAP. */
static void event_stop(struct task *t, int event)
{
    struct siginfo_lite info = {.code = (event << 8) | SIGTRAP};
    enter_stop(t, PS_EVENT, trap_status((event << 8) | SIGTRAP), SIGTRAP, &info);
}

static void syscall_stop(struct task *t, enum pstop kind)
{
    int sig = (t->ptrace->options & O_TRACESYSGOOD) ? 0x80 | SIGTRAP : SIGTRAP;
    struct siginfo_lite info = {.code = sig};
    enter_stop(t, kind, trap_status(sig), SIGTRAP, &info);
}

/* PTRACE_INTERRUPT's stop, and a seized child's first: PTRACE_EVENT_STOP
 * with the group's stop signal if its process is stopped, else SIGTRAP. */
static void interrupt_stop(struct task *t)
{
    int sig = t->proc->stopped ? (t->proc->stop_report ? t->proc->stop_report : SIGSTOP) : SIGTRAP;
    struct siginfo_lite info = {.code = (EV_STOP << 8) | sig};
    t->ptrace->interrupt = false;
    enter_stop(t, PS_EVENT, trap_status((EV_STOP << 8) | sig), sig, &info);
}

bool ptrace_stopped(const struct task *t)
{
    return t->ptrace && t->ptrace->stop != PS_NONE;
}

bool ptrace_interrupt_pending(const struct task *t)
{
    return t->ptrace && t->ptrace->interrupt;
}

bool ptrace_overrides_group_stop(const struct task *t)
{
    return t->ptrace && t->ptrace->running_in_group_stop && t->proc->stopped;
}

/* exit and exit_group: what PTRACE_EVENT_EXIT stops before. */
static bool ends_task(struct task *t, uint64_t nr)
{
    const struct abi *abi = task_abi(t);
    return nr < abi->table_len && (abi->table[nr].fn == sys_exit_group || abi->table[nr].fn == sys_exit);
}

static void record_syscall(struct ptrace_link *l, uint64_t nr, const uint64_t a[6])
{
    l->sc_nr = nr;
    memcpy(l->sc_args, a, sizeof l->sc_args);
}

/* syscall_dispatch, before decoding: true when t stopped at syscall entry
 * (it re-executes the svc when restarted, with what the tracer changed). */
static bool ptrace_syscall_enter(struct task *t, uint64_t nr, const uint64_t a[6])
{
    struct ptrace_link *l = t->ptrace;
    if (!l)
        return false;
    record_syscall(l, nr, a);
    l->event = 0;
    if (!l->skip_enter && l->syscall_trace) {
        syscall_stop(t, PS_SYSCALL_ENTER);
        l->rerun = true;
        return true;
    }
    l->skip_enter = false;
    if ((l->options & O_TRACEEXIT) && !l->exit_event_done && ends_task(t, nr)) {
        /* PTRACE_EVENT_EXIT: the tracer sees it before it is gone. */
        l->event_msg = (a[0] & 0xff) << 8;
        l->exit_event_done = true;
        event_stop(t, EV_EXIT);
        l->rerun = true;
        return true;
    }
    l->exit_event_done = false;
    return false;
}

/* A syscall finished with ret (its result is in the registers): event and
 * syscall-exit stops. From syscall_dispatch and syscall_resume. */
static void ptrace_syscall_exit(struct task *t, bool exec_done, int64_t ret)
{
    struct ptrace_link *l = t->ptrace;
    if (!l || t->state == TASK_DEAD)
        return;
    l->sc_ret = ret;
    if (l->stepping) {
        /* A stepped svc traps once the call is done, with the SIGTRAP
         * Linux's syscall exit sends a stepping task (SI_USER, no sender). */
        struct siginfo_lite info = {.code = SI_USER};
        l->stepping = false;
        signal_queue_task(t, SIGTRAP, &info);
    }
    if (exec_done) {
        l->event_msg = (uint64_t)t->tid;
        if (l->options & O_TRACEEXEC) {
            l->event = EV_EXEC;
        } else if (!l->seized) {
            struct siginfo_lite info = {.code = SI_USER};
            signal_queue_task(t, SIGTRAP, &info); /* the legacy post-exec SIGTRAP */
        }
    }
    if (l->event) {
        int event = l->event;
        l->event = 0;
        l->exit_stop_after_event = l->syscall_trace;
        event_stop(t, event);
    } else if (l->syscall_trace) {
        syscall_stop(t, PS_SYSCALL_EXIT);
    } else if (l->interrupt) {
        interrupt_stop(t);
    }
}

/* signal_deliver took sig (info in t->delivering): true when t entered a
 * signal-delivery-stop instead (the tracer decides what is delivered). */
static bool ptrace_signal_stop(struct task *t, int sig)
{
    struct ptrace_link *l = t->ptrace;
    if (!l || sig == SIGKILL)
        return false;
    if (l->inject == sig) {
        l->inject = 0;
        return false;
    }
    l->resume_sig = sig;
    enter_stop(t, PS_SIGNAL, trap_status(sig), sig, &t->delivering);
    return true;
}

/* The default action of a signal is to end t's process with wait status
 * `status`: true when t stops at PTRACE_EVENT_EXIT first (TRACEEXIT; not
 * for SIGKILL), the process ending when its tracer restarts it. */
static bool ptrace_exit_stop(struct task *t, int status)
{
    struct ptrace_link *l = t->ptrace;
    if (!l || !(l->options & O_TRACEEXIT) || (status & 0x7f) == SIGKILL || l->dying_status)
        return false;
    l->event_msg = (uint64_t)status;
    l->dying_status = status;
    event_stop(t, EV_EXIT);
    return true;
}

/* The default action of stop signal sig froze t's process: t reports it. */
static void ptrace_group_stop(struct task *t, int sig)
{
    struct ptrace_link *l = t->ptrace;
    if (!l)
        return;
    struct siginfo_lite info = {.code = SI_USER};
    int status = l->seized ? trap_status((EV_STOP << 8) | sig) : trap_status(sig);
    enter_stop(t, PS_GROUP, status, sig, &info);
}

static bool kill_pending(const struct task *t)
{
    return t->proc->exiting || ((t->pending.set | t->proc->pending.set) & SIGBIT(SIGKILL));
}

/* run_slice, registers loaded (stop_hooks' hold_task): carries out the
 * tracer's restart, or keeps t stopped (true: it does not run now). */
static bool ptrace_hold(struct task *t)
{
    struct ptrace_link *l = t->ptrace;
    if (!l)
        return false;
    if (kill_pending(t)) {
        l->stop = PS_NONE; /* SIGKILL ends every stop */
        return false;
    }
    if (l->stop != PS_NONE) {
        if (!l->resumed) {
            take_off_runqueue(t);
            return true;
        }
        enum pstop was = l->stop;
        l->stop = PS_NONE;
        l->resumed = false;
        l->running_in_group_stop = t->proc->stopped;
        if (l->dying_status) {
            process_exit_group(t->proc, l->dying_status);
            return true;
        }
        if (l->rerun) {
            /* The syscall runs now, as the registers say: the svc again. */
            l->rerun = false;
            syscall_rewind_pc(t);
            l->skip_enter = true;
        } else if (was == PS_SIGNAL && l->resume_sig) {
            /* Another signal than the one stopped for comes from the tracer. */
            if (l->resume_sig != l->stop_sig)
                l->info = (struct siginfo_lite){.code = SI_USER, .pid = l->tracer->pid};
            l->inject = l->resume_sig;
            signal_queue_task(t, l->resume_sig, &l->info);
        } else if (was == PS_EVENT && l->exit_stop_after_event) {
            l->exit_stop_after_event = false;
            if (l->syscall_trace) {
                syscall_stop(t, PS_SYSCALL_EXIT);
                return true;
            }
        }
    }
    if (l->interrupt) {
        if (t->resume)
            return false; /* its wait ends as for a signal: the stop comes at its exit */
        interrupt_stop(t);
        return true;
    }
    return false;
}

/* run_slice: t runs a single instruction (PTRACE_SINGLESTEP), after which
 * ptrace_step_done queues the step's SIGTRAP (TRAP_TRACE, si_addr the
 * next pc) unless the instruction raised its own signal or blocks. */
static bool ptrace_single_step(const struct task *t)
{
    return t->ptrace && t->ptrace->stepping;
}

static void ptrace_step_done(struct task *t)
{
    struct ptrace_link *l = t->ptrace;
    /* Not when the instruction faulted or trapped (its own signal is the
     * report), stopped the task, or is a call still blocked (it traps
     * when done, ptrace_syscall_exit). */
    if (!l || !l->stepping || t->stop || t->resume || t->state != TASK_RUNNABLE)
        return;
    struct siginfo_lite info = {.code = TRAP_TRACE_, .addr = ptrace_pc(t) & ~UINT64_C(1)};
    l->stepping = false;
    signal_queue_task(t, SIGTRAP, &info);
}

/* ---- attaching and detaching ---- */

static struct ptrace_link *link_new(struct task *t, struct process *tracer, unsigned options,
                                    bool seized)
{
    struct ptrace_link *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->tracer = tracer;
    l->options = options;
    l->seized = seized;
    t->ptrace = l;
    return l;
}

/* The exit the tracer collected (or no longer will): now the parent's. */
static void hand_exit_to_parent(struct task *t)
{
    struct process *p = t->proc;
    if (p->zombie && t->tid == p->pid && p->parent)
        process_notify_parent_exit(p);
}

static void detach(struct task *t, int sig)
{
    struct ptrace_link *l = t->ptrace;
    bool was_stopped = l->stop != PS_NONE, exit_report = l->exit_report;
    int resume_sig = l->stop == PS_SIGNAL ? sig : 0;
    struct siginfo_lite info = l->info;
    free(l);
    t->ptrace = NULL;
    if (exit_report)
        hand_exit_to_parent(t);
    if (t->state == TASK_DEAD)
        return;
    if (resume_sig)
        signal_queue_task(t, resume_sig, &info);
    if (was_stopped)
        task_wake(t);
}

/* do_clone made child from parent: the fork/vfork/clone events. */
static void ptrace_clone(struct task *parent, struct task *child, uint64_t flags)
{
    struct ptrace_link *l = parent->ptrace;
    if (!l || (flags & CLONE_UNTRACED_))
        return;
    int event = (flags & CLONE_VFORK_) ? EV_VFORK : (flags & 0xff) == SIGCHLD ? EV_FORK : EV_CLONE;
    unsigned want = event == EV_VFORK ? O_TRACEVFORK : event == EV_FORK ? O_TRACEFORK : O_TRACECLONE;
    if (!(l->options & want))
        return;
    struct ptrace_link *cl = link_new(child, l->tracer, l->options, l->seized);
    if (!cl)
        return;
    l->event = event;
    l->event_msg = (uint64_t)child->tid;
    if (l->seized) {
        cl->interrupt = true;
    } else {
        struct siginfo_lite info = {.code = SI_USER};
        signal_queue_task(child, SIGSTOP, &info);
    }
}

/* p became a zombie: its tracees are detached (or killed with EXITKILL),
 * its tracer hears of its exit. */
static void ptrace_process_exit(struct process *p)
{
    struct machine *m = p->machine;
    for (struct task *t = m->tasks; t; t = t->next_all) {
        if (!t->ptrace)
            continue;
        if (t->ptrace->tracer == p) {
            /* Its tracer is gone: detached, or killed with EXITKILL. */
            if ((t->ptrace->options & O_EXITKILL) && t->state != TASK_DEAD) {
                struct siginfo_lite info = {.code = SI_USER};
                signal_queue_process(t->proc, SIGKILL, &info);
            }
            detach(t, 0);
        } else if (t->proc == p && t->tid == p->pid) {
            struct ptrace_link *l = t->ptrace;
            l->stop = PS_NONE;
            l->exit_report = l->tracer != p->parent;
            int st = p->wait_status;
            notify_tracer(t, (st & 0x7f) == 0 ? CLD_EXITED : CLD_KILLED,
                          (st & 0x7f) == 0 ? (st >> 8) & 0xff : st & 0x7f);
        }
    }
}

void ptrace_task_free(struct task *t)
{
    free(t->ptrace);
    t->ptrace = NULL;
}

bool ptrace_hides_exit(const struct process *c)
{
    for (const struct task *t = c->threads; t; t = t->next_thread)
        if (t->tid == c->pid && t->ptrace && t->ptrace->exit_report)
            return true;
    return false;
}

int ptrace_tracer_pid(const struct task *t)
{
    return t->ptrace ? t->ptrace->tracer->pid : 0;
}

static bool ptrace_traces(const struct task *t)
{
    return t->ptrace != NULL;
}

const struct stop_hooks ptrace_stop_hooks = {
    .traces = ptrace_traces,
    .signal_stop = ptrace_signal_stop,
    .syscall_enter = ptrace_syscall_enter,
    .syscall_exit = ptrace_syscall_exit,
    .clone = ptrace_clone,
    .exit_stop = ptrace_exit_stop,
    .group_stop = ptrace_group_stop,
    .process_exit = ptrace_process_exit,
    .block = engine_step_block, /* PTRACE_SINGLESTEP's step is the engine's */
    .hold_task = ptrace_hold,
    .single_step = ptrace_single_step,
    .step_done = ptrace_step_done,
};

/* ---- wait ---- */

static bool wait_matches(const struct task *t, int idtype, int id)
{
    return idtype == P_ALL || (idtype == P_PID && t->tid == id) ||
           (idtype == P_PGID && t->proc->pgid == id);
}

int ptrace_wait(struct task *w, int idtype, int id, int options, struct ptrace_report *r)
{
    bool any = false;
    for (struct task *t = mach(w)->tasks; t; t = t->next_all) {
        struct ptrace_link *l = t->ptrace;
        if (!l || l->tracer != w->proc || !wait_matches(t, idtype, id))
            continue;
        any = true;
        if (l->report && l->stop != PS_NONE && t->state != TASK_DEAD) {
            r->pid = t->tid;
            r->status = l->report;
            r->code = CLD_TRAPPED_;
            r->child_status = (l->report >> 8) & 0xff;
            if (!(options & GUEST_WNOWAIT))
                l->report = 0;
            return 1;
        }
        if (l->exit_report) {
            int st = t->proc->wait_status;
            bool exited = (st & 0x7f) == 0;
            r->pid = t->tid;
            r->status = st;
            r->code = exited ? CLD_EXITED : (st & 0x80) ? CLD_DUMPED : CLD_KILLED;
            r->child_status = exited ? (st >> 8) & 0xff : st & 0x7f;
            if (!(options & GUEST_WNOWAIT))
                detach(t, 0);
            return 1;
        }
    }
    return any ? 0 : -ECHILD;
}

/* ---- requests ---- */

/* The tracee `pid` of t, stopped unless any_state: else -ESRCH. */
static struct task *tracee_of(struct task *t, int pid, bool any_state)
{
    struct task *c = task_find(mach(t), pid);
    if (!c || !c->ptrace || c->ptrace->tracer != t->proc || c->state == TASK_DEAD)
        return NULL;
    if (!any_state && c->ptrace->stop == PS_NONE)
        return NULL;
    return c;
}

static int64_t attach(struct task *t, int pid, bool seize, uint64_t flags)
{
    if (seize && (flags & ~(uint64_t)O_MASK))
        return -EINVAL;
    struct task *c = task_find(mach(t), pid);
    if (!c || c->state == TASK_DEAD)
        return -ESRCH;
    /* Linux (kernel/ptrace.c ptrace_attach) refuses the caller's own
     * thread group, a traced task, and one __ptrace_may_access() denies
     * (cred_may_access()): root may attach to init, and LeakSanitizer's
     * tracer attaches to every thread of the program it checks at exit,
     * which under asymu is often pid 1. */
    if (c->proc == t->proc || c->ptrace || !cred_may_access(t->proc, c->proc))
        return -EPERM;
    if (!link_new(c, t->proc, seize ? (unsigned)flags : 0, seize))
        return -ENOMEM;
    if (!seize) {
        struct siginfo_lite info = {.code = SI_USER, .pid = t->proc->pid};
        signal_queue_task(c, SIGSTOP, &info);
    }
    return 0;
}

static int64_t restart(struct task *c, uint64_t sig, bool syscall_trace, bool step)
{
    if (sig > NSIG_GUEST)
        return -EIO;
    struct ptrace_link *l = c->ptrace;
    l->syscall_trace = syscall_trace;
    l->stepping = step;
    l->resume_sig = (int)sig;
    l->resumed = true;
    task_wake(c);
    return 0;
}

/* Reads or writes one word of the tracee's memory (procmem.h). */
static int poke_peek(struct task *c, uint64_t addr, void *word, unsigned size, bool write)
{
    return procmem_access(task_mm(c), addr, word, size, write) == size ? 0 : -EIO;
}

int ptrace_stop_regset(struct task *c, unsigned type, uint8_t *buf)
{
    const struct ptrace_link *l = c->ptrace;
    return ptrace_regset_get(c, type, buf, l->sc_args[0], (int)l->sc_nr);
}

static int syscall_info(struct task *t, struct task *c, uint64_t size, uint64_t uaddr)
{
    struct ptrace_link *l = c->ptrace;
    uint8_t buf[88] = {0};
    uint32_t arch = task_abi(c)->audit_arch;
    uint64_t pc = ptrace_pc(c) & ~UINT64_C(1), sp = ptrace_sp(c);
    uint8_t op = 0;
    unsigned len = 24;
    if (l->stop == PS_SYSCALL_ENTER) {
        op = 1;
        memcpy(buf + 24, &l->sc_nr, 8);
        memcpy(buf + 32, l->sc_args, 48);
        len = 80;
    } else if (l->stop == PS_SYSCALL_EXIT) {
        op = 2;
        /* syscall_get_return_value(): a compat task's r0 sign-extended */
        int64_t rval = abi_long(task_abi(c), (uint64_t)l->sc_ret);
        uint8_t is_error = rval < 0 && rval >= -4095;
        memcpy(buf + 24, &rval, 8);
        buf[32] = is_error;
        len = 33;
    }
    buf[0] = op;
    memcpy(buf + 4, &arch, 4);
    memcpy(buf + 8, &pc, 8);
    memcpy(buf + 16, &sp, 8);
    uint64_t n = size < len ? size : len;
    if (n && copy_to_guest(task_mm(t), uaddr, buf, n) < 0)
        return -EFAULT;
    return (int)len;
}


static int64_t get_siginfo(struct task *t, struct task *c, uint64_t uaddr)
{
    struct ptrace_link *l = c->ptrace;
    uint8_t info[128];
    signal_fill_info(t, l->stop_sig, &l->info, info); /* as the tracer reads it */
    return copy_to_guest(task_mm(t), uaddr, info, sizeof info);
}

/* The n-th signal of a pending queue: the standard signals by number (one
 * instance each; their order of arrival is not kept), then the real-time
 * ones in order. 0 when the queue is shorter. */
static int pending_nth(const struct sigpending *sp, uint64_t n, struct siginfo_lite *info)
{
    for (int sig = 1; sig < SIGRTMIN_GUEST; sig++)
        if ((sp->set & SIGBIT(sig)) && n-- == 0) {
            *info = sp->info[sig];
            return sig;
        }
    if (n >= sp->nrt)
        return 0;
    *info = sp->rt[n].info;
    return sp->rt[n].sig;
}

#define PEEKSIGINFO_SHARED 1

/* PEEKSIGINFO: struct ptrace_peeksiginfo_args {u64 off; u32 flags; s32 nr}
 * at uargs; up to nr siginfo_t from the thread's queue (or its process's
 * with PEEKSIGINFO_SHARED) from position off into ubuf: how many. */
static int64_t peek_siginfo(struct task *t, struct task *c, uint64_t uargs, uint64_t ubuf)
{
    uint8_t raw[16];
    if (copy_from_guest(task_mm(t), raw, uargs, sizeof raw) < 0)
        return -EFAULT;
    uint64_t off;
    uint32_t flags;
    int32_t nr;
    memcpy(&off, raw, 8);
    memcpy(&flags, raw + 8, 4);
    memcpy(&nr, raw + 12, 4);
    if ((flags & ~PEEKSIGINFO_SHARED) || nr < 0)
        return -EINVAL;
    const struct sigpending *sp = (flags & PEEKSIGINFO_SHARED) ? &c->proc->pending : &c->pending;
    int32_t i = 0;
    for (; i < nr; i++) {
        struct siginfo_lite info;
        int sig = pending_nth(sp, off + (uint64_t)i, &info);
        if (!sig)
            break;
        uint8_t out[128];
        signal_fill_info(t, sig, &info, out);
        if (copy_to_guest(task_mm(t), ubuf + (uint64_t)i * sizeof out, out, sizeof out) < 0)
            return i ? i : -EFAULT;
    }
    return i;
}

/* GETSIGMASK/SETSIGMASK: a sigset_t of exactly 8 bytes (`size`). */
static int64_t sigmask_request(struct task *t, struct task *c, uint64_t size, uint64_t uset,
                               bool set)
{
    if (size != 8)
        return -EINVAL;
    if (!set)
        return copy_to_guest(task_mm(t), uset, &c->sigmask, 8);
    uint64_t mask;
    if (copy_from_guest(task_mm(t), &mask, uset, 8) < 0)
        return -EFAULT;
    c->sigmask = mask & ~(SIGBIT(SIGKILL) | SIGBIT(SIGSTOP));
    c->restore_sigmask = false; /* the tracer's mask is the one it returns with */
    return 0;
}

/* GETREGSET/SETREGSET: the tracer's struct iovec {base, len}, two longs of
 * its ABI; len becomes what was copied. */
static int64_t regset(struct task *t, struct task *c, unsigned type, uint64_t uiov, bool set)
{
    uint64_t iov[2];
    if (get_user_ulongs(t, uiov, iov, 2) < 0)
        return -EFAULT;
    if (!ptrace_regset_in_view(t, type))
        return -EINVAL;
    uint8_t buf[528];
    int size = ptrace_stop_regset(c, type, buf);
    if (size < 0)
        return size;
    /* ptrace_regset: a length that is not a whole number of registers. */
    if (iov[1] % ptrace_regset_unit(c, type))
        return -EINVAL;
    uint64_t n = iov[1] < (uint64_t)size ? iov[1] : (uint64_t)size;
    if (set) {
        if (copy_from_guest(task_mm(t), buf, iov[0], n) < 0)
            return -EFAULT;
        int err = ptrace_regset_set(c, type, buf, n);
        if (err < 0)
            return err;
    } else if (copy_to_guest(task_mm(t), iov[0], buf, n) < 0) {
        return -EFAULT;
    }
    int64_t len = (int64_t)n;
    return put_user_longs(t, uiov + abi_longs_size(t, 1), &len, 1);
}

SYSCALL_DECL(ptrace)
{
    long req = (long)(int32_t)a[0];
    int pid = (int)a[1];
    uint64_t addr = a[2], data = a[3];
    if (req == PT_TRACEME) {
        /* cap_ptrace_traceme(): the parent holds every permitted
         * capability of the caller, or CAP_SYS_PTRACE. */
        const struct process *pp = t->proc->parent;
        if (t->ptrace || !pp ||
            ((t->proc->cred.cap.prm & ~pp->cred.cap.prm) &&
             !cred_capable(&pp->cred, CAP_SYS_PTRACE)))
            return -EPERM;
        return link_new(t, t->proc->parent, 0, false) ? 0 : -ENOMEM;
    }
    if (req == PT_ATTACH || req == PT_SEIZE)
        return attach(t, pid, req == PT_SEIZE, data);
    bool any_state = req == PT_KILL || req == PT_INTERRUPT;
    struct task *c = tracee_of(t, pid, any_state);
    if (!c)
        return -ESRCH;
    struct ptrace_link *l = c->ptrace;
    size_t word_size = abi_longs_size(t, 1); /* PEEK and POKE move a long of the tracer's */
    switch (req) {
    case PT_PEEKTEXT:
    case PT_PEEKDATA: {
        uint64_t word = 0;
        int err = poke_peek(c, addr, &word, word_size, false);
        return err < 0 ? err : copy_to_guest(task_mm(t), data, &word, word_size);
    }
    case PT_POKETEXT:
    case PT_POKEDATA:
        return poke_peek(c, addr, &data, word_size, true);
    case PT_GETREGSET:
    case PT_SETREGSET:
        return regset(t, c, (unsigned)addr, data, req == PT_SETREGSET);
    case PT_CONT:
    case PT_SYSCALL:
    case PT_SINGLESTEP:
        return restart(c, data, req == PT_SYSCALL, req == PT_SINGLESTEP);
    case PT_LISTEN:
        if (!l->seized || l->stop != PS_EVENT || !c->proc->stopped)
            return -EIO;
        /* Stays in its group-stop, no longer trapped: SIGCONT resumes it. */
        l->stop = PS_NONE;
        l->report = 0;
        return 0;
    case PT_DETACH:
        if (data > NSIG_GUEST)
            return -EIO;
        detach(c, (int)data);
        return 0;
    case PT_KILL: {
        struct siginfo_lite info = {.code = SI_USER, .pid = t->proc->pid};
        signal_queue_process(c->proc, SIGKILL, &info);
        return 0;
    }
    case PT_INTERRUPT:
        if (!l->seized)
            return -EIO;
        if (l->stop == PS_NONE) {
            l->interrupt = true;
            if (c->state == TASK_BLOCKED)
                task_wake(c);
        }
        return 0;
    case PT_SETOPTIONS:
        if (data & ~(uint64_t)O_MASK)
            return -EINVAL;
        l->options = (unsigned)data;
        return 0;
    case PT_GETEVENTMSG: {
        int64_t msg = (int64_t)l->event_msg; /* an unsigned long of the tracer's */
        return put_user_longs(t, data, &msg, 1);
    }
    case PT_GETSIGINFO:
        return get_siginfo(t, c, data);
    case PT_SETSIGINFO: {
        int signo;
        struct siginfo_lite info;
        if (siginfo_from_guest(t, data, &signo, &info) < 0)
            return -EFAULT;
        l->info = info;
        return 0;
    }
    case PT_GET_SYSCALL_INFO:
        return syscall_info(t, c, addr, data);
    case PT_PEEKSIGINFO:
        return peek_siginfo(t, c, addr, data);
    case PT_GETSIGMASK:
    case PT_SETSIGMASK:
        return sigmask_request(t, c, addr, data, req == PT_SETSIGMASK);
    default: {
        /* arch_ptrace() or arm64's compat_arch_ptrace(): the tracer's ABI's
         * own requests. */
        const struct abi *abi = task_abi(t);
        return abi->arch_ptrace ? abi->arch_ptrace(t, c, req, addr, data) : -EIO;
    }
    }
}

/* ---- process_vm_readv / process_vm_writev ---- */

/* Copies between the caller's local iovecs and pid's remote ones, in
 * order, until either runs out or a remote address faults: the bytes
 * copied, or the error when nothing was. Linux's order: the local vector
 * checked whole (import_iovec), nothing to copy is 0, then the remote
 * vector (lengths only), then the process. */
static int64_t process_vm(struct task *t, const uint64_t a[6], bool write)
{
    uint64_t nl = a[2], nr = a[4];
    if (a[5])
        return -EINVAL;
    struct iov_list *l = malloc(sizeof *l), *r = malloc(sizeof *r);
    struct process *p = NULL;
    int64_t done = !l || !r           ? -ENOMEM
                   : nl > UIO_MAXIOV ? -EINVAL
                                     : iov_import(t, a[1], nl, l);
    if (done < 0 || l->total == 0)
        goto out;
    done = nr > UIO_MAXIOV ? -EINVAL : iov_read(t, a[3], nr, r);
    if (done == 0 && (!(p = process_find(mach(t), (int)a[0])) || !p->mm))
        done = -ESRCH;
    /* mm_access(PTRACE_MODE_ATTACH_REALCREDS): EACCES, returned as EPERM. */
    if (done == 0 && p->mm != task_mm(t) && !cred_may_access(t->proc, p))
        done = -EPERM;
    if (done < 0)
        goto out;
    uint64_t li = 0, loff = 0, ri = 0, roff = 0;
    uint8_t buf[4096];
    while (li < l->n && ri < r->n) {
        uint64_t n = l->v[li].len - loff;
        if (r->v[ri].len - roff < n)
            n = r->v[ri].len - roff;
        if (n > sizeof buf)
            n = sizeof buf;
        if (n) {
            uint64_t la = l->v[li].base + loff, ra = r->v[ri].base + roff;
            int err = write ? copy_from_guest(task_mm(t), buf, la, n) : copy_from_guest(p->mm, buf, ra, n);
            if (!err)
                err = write ? copy_to_guest(p->mm, ra, buf, n) : copy_to_guest(task_mm(t), la, buf, n);
            if (err) {
                if (!done)
                    done = -EFAULT;
                break;
            }
            done += (int64_t)n;
            loff += n;
            roff += n;
        }
        if (loff == l->v[li].len)
            li++, loff = 0;
        if (roff == r->v[ri].len)
            ri++, roff = 0;
    }
out:
    free(l);
    free(r);
    return done;
}

SYSCALL_DECL(process_vm_readv)
{
    return process_vm(t, a, false);
}

SYSCALL_DECL(process_vm_writev)
{
    return process_vm(t, a, true);
}
