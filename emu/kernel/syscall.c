/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syscall.c - syscall entry: decode the number through the task's ABI table,
 * run the handler inside the interrupt hook, write the result back, trace it
 * with --strace, and park and later complete syscalls that block. */
#include "abi.h"
#include "emu.h"
#include "machine_events.h"
#include "waitq.h"
#include "lifetime.h"
#include "kcost.h"
#include "machine.h"
#include "mm.h"
#include "restart.h"
#include "scheduler.h"
#include "guest_seccomp.h"
#include "signals.h"
#include "stop_hooks.h"
#include "strace.h"
#include "syscalls.h"
#include "task.h"
#include "waitq.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A syscall uses up 100 blocks of its slice's budget, as it always has (the
 * slice's length in blocks is the emulator's batch); its virtual time is
 * the cost table's (kcost.h). */
#define SYSCALL_COST_BLOCKS 100

const struct syscall_entry *syscall_lookup(const struct abi *abi, uint64_t nr)
{
    if (nr < abi->table_len && abi->table[nr].fn)
        return &abi->table[nr];
    return abi->lookup_private ? abi->lookup_private(nr) : NULL;
}

void syscall_report_unknown(struct task *t, uint64_t nr)
{
    struct machine *m = t->machine;
    for (unsigned i = 0; i < m->nunknown; i++)
        if (m->unknown_reported[i] == nr)
            return;
    if (m->nunknown < sizeof m->unknown_reported / sizeof *m->unknown_reported)
        m->unknown_reported[m->nunknown++] = nr;
    const char *name = task_abi(t)->syscall_name(nr);
    fprintf(stderr, "asymu: [pid %d] unsupported %s syscall %s (%llu): returning ENOSYS\n",
            t->proc->pid, task_abi(t)->name, name ? name : "unknown", (unsigned long long)nr);
}

static void trace_unknown(struct task *t, uint64_t nr)
{
    const char *name = task_abi(t)->syscall_name(nr);
    if (name)
        fprintf(stderr, "[pid %d] %s(...) = -1 ENOSYS (Function not implemented)\n", t->tid, name);
    else
        fprintf(stderr, "[pid %d] syscall_%#llx(...) = -1 ENOSYS (Function not implemented)\n",
                t->tid, (unsigned long long)nr);
}

/* Re-runs a handler that blocked without a resume function of its own;
 * a signal interrupts it with -ERESTARTSYS (restart.h). */
static int64_t resume_restart(struct task *t)
{
    int64_t r = t->sys_entry->fn(t, t->sys_args);
    if (r == -ESLICE)
        return RESUME_AGAIN;
    if (r != -EBLOCK)
        return r;
    return signal_pending(t) ? -ERESTARTSYS : RESUME_BLOCK;
}

/* The host's descriptors are the whole machine's: asymu raises its soft
 * RLIMIT_NOFILE to the hard limit at start (machine.c), and each guest
 * process has its own RLIMIT_NOFILE (1024 by default, as Linux) for its own
 * table, whose EMFILE fd_install reports. An EMFILE of the host's instead
 * means the machine as a whole ran out, which Linux says with ENFILE (the
 * system-wide file table, alloc_empty_file): never EMFILE for descriptors
 * other processes hold (issue 24, item 8). */
static int64_t host_table_errno(const struct task *t, int64_t r)
{
    return r == -EMFILE && !t->fd_table_full ? -ENFILE : r;
}

/* A seccomp filter or strict mode decides first (after the tracer's
 * syscall-enter stop, as Linux 5.15's syscall_trace_enter()): true when
 * the call does not run, its result, if any, already set. */
static bool seccomp_refuses(struct task *t, const struct syscall_entry *e, uint64_t nr,
                            const uint64_t a[6])
{
    int64_t ret = 0;
    int fate = guest_seccomp_check(t, nr, a, &ret);
    if (fate == SECCOMP_RUN)
        return false;
    if (fate == SECCOMP_SKIP) {
        if (t->machine->cfg->strace && e) {
            char enter[512];
            strace_enter(t, e, a, enter, sizeof enter);
            strace_exit(t, e, a, ret, enter);
        }
        task_abi(t)->set_return(task_mm(t)->uc, ret);
        stop_hooks_syscall_exit(t, false, ret);
    }
    return true;
}

bool syscall_resume(struct task *t)
{
    /* Every wait is killable, whatever its resume function checks: the
     * process dies now and the call never returns (strace shows "= ?",
     * then the "+++ killed" line). */
    int fatal = signal_fatal(t);
    int64_t r = 0;
    if (fatal) {
        t->machine->in_syscall = t->strace_line != NULL;
        signal_kill_process(t, fatal);
        t->machine->in_syscall = false;
    } else if ((t->fd_table_full = false, r = host_table_errno(t, t->resume(t))) == RESUME_BLOCK) {
        t->state = TASK_BLOCKED;
        sched_task_block(&t->machine->sched, &t->se);
        waitq_update(t);
        return false;
    } else if (r == RESUME_AGAIN) {
        return false; /* runnable: the call goes on in its next slice */
    }
    t->resume = NULL;
    t->wait_obj = NULL;
    t->wait_key = 0;
    t->deadline_ns = 0;
    waitq_update(t);
    if (t->strace_line) {
        strace_exit(t, t->sys_entry, t->sys_args, r, t->strace_line);
        free(t->strace_line);
        t->strace_line = NULL;
    }
    if (t->state != TASK_DEAD)
        task_abi(t)->set_return(task_mm(t)->uc, restart_note(t, t->sys_args, r));
    stop_hooks_syscall_exit(t, false, r);
    return true;
}

void syscall_dispatch(struct task *t)
{
    const struct abi *abi = task_abi(t);
    uc_engine *uc = task_mm(t)->uc;
    uint64_t nr, a[6];
    abi->get_syscall(uc, &nr, a);
    if (stop_hooks_syscall_enter(t, nr, a))
        return; /* its tracer looks first; the svc runs again when restarted */
    t->machine->last_syscall_abi = abi;
    t->machine->last_syscall_nr = nr;
    t->machine->slice_used += SYSCALL_COST_BLOCKS;
    kcost_charge(t, EMU_COST_SYSCALL);
    sched_note_time(&t->machine->sched, machine_now(t->machine));
    mev_syscall_enter(t, nr);

    t->write_done = 0;
    const struct syscall_entry *e = syscall_lookup(abi, nr);
    if (t->seccomp_mode && seccomp_refuses(t, e, nr, a))
        return;
    if (!e) {
        if (!syscall_linux_enosys(abi, nr))
            syscall_report_unknown(t, nr);
        if (t->machine->cfg->strace)
            trace_unknown(t, nr);
        abi->set_return(uc, -ENOSYS);
        stop_hooks_syscall_exit(t, false, -ENOSYS);
        return;
    }
    char enter[512];
    bool trace = t->machine->cfg->strace;
    if (trace)
        strace_enter(t, e, a, enter, sizeof enter);
    t->machine->in_syscall = trace;
    t->fd_table_full = false;
    int64_t ret = host_table_errno(t, e->fn(t, a));
    t->machine->in_syscall = false;
    if (ret == -EBLOCK) {
        memcpy(t->sys_args, a, sizeof t->sys_args);
        t->sys_entry = e;
        if (t->state != TASK_BLOCKED)
            task_block(t, resume_restart, t->wait_obj, t->deadline_ns);
        if (trace)
            t->strace_line = strdup(enter);
        return;
    }
    if (trace)
        strace_exit(t, e, a, ret, enter);
    mev_syscall_exit(t, nr, ret);
    if (t->state == TASK_DEAD)
        return;
    /* The engine of a successful execve is new: its registers are set. */
    /* sigreturn hands back the interrupted context's x0/r0 whatever its
     * value: never a restart code. */
    if (e->fn != sys_rt_sigreturn && e->fn != sys_sigreturn)
        ret = restart_note(t, a, ret);
    if (!(e->fn == sys_execve && ret == 0))
        abi->set_return(task_mm(t)->uc, ret);
    /* A wake-up, fork or class change preempted it (check_preempt_curr()):
     * the CPU goes to the task now at the head of its runqueue. */
    if (t->se.need_resched)
        t->stop = true;
    if (signal_pending(t))
        t->stop = true; /* deliver before the next user instruction */
    else if (t->restore_sigmask) {
        /* ppoll/pselect6 returned with nothing to deliver: their mask ends. */
        t->sigmask = t->saved_sigmask;
        t->restore_sigmask = false;
    }
    bool exec_done = e->fn == sys_execve && ret == 0;
    stop_hooks_syscall_exit(t, exec_done, ret);
    if (exec_done)
        stop_hooks_exec(t);
}
