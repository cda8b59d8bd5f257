/* SPDX-License-Identifier: GPL-2.0-or-later */
/* task.c - processes and threads: creation (the first process, clone, fork,
 * vfork), blocking and waking, exit and exit_group, zombies and reaping. */
#include "kcost.h"
#include "cgroup.h"
#include "abi.h"
#include "cred.h"
#include "emu.h"
#include "machine_events.h"
#include "sched_attr.h"
#include "event.h"
#include "file.h"
#include "flock.h"
#include "futex.h"
#include "mqueue.h"
#include "lifetime.h"
#include "ptrace.h"
#include "machine.h"
#include "mm.h"
#include "pty.h"
#include "rlimit.h"
#include "sched_attr.h"
#include "scheduler.h"
#include "guest_seccomp.h"
#include "signals.h"
#include "stop_hooks.h"
#include "strace.h"
#include "sysv_ipc.h"
#include "keys.h"
#include "task.h"
#include "timers.h"
#include "waitq.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_PIDFD 0x00001000
#define CLONE_VFORK 0x00004000
#define CLONE_PARENT 0x00008000
#define CLONE_THREAD 0x00010000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000
#define CSIGNAL 0xff
/* What a new process costs the host at least: its engine and first code. */
#define HOST_COST_PER_PROCESS (4u << 20)

static struct task *task_alloc(struct machine *m, struct process *p)
{
    struct task *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (p->mm && uc_context_alloc(p->mm->uc, &t->ctx) != UC_ERR_OK) {
        free(t);
        return NULL;
    }
    t->tid = m->next_pid++;
    t->timer_slack_ns = t->timer_slack_default_ns = TIMER_SLACK_DEFAULT_NS;
    t->mce_kill = 2; /* PR_MCE_KILL_DEFAULT */
    t->proc = p;
    t->machine = m;
    t->state = TASK_BLOCKED; /* the scheduler places it (task_create_init, do_clone) */
    t->next_thread = p->threads;
    p->threads = t;
    p->live_threads++;
    task_index_add(t);
    return t;
}

static struct process *process_alloc(struct machine *m)
{
    struct process *p = calloc(1, sizeof *p);
    if (p) {
        p->machine = m;
        rlimit_init(p);
        p->umask = 022;
        p->exit_signal = SIGCHLD;
        m->nprocs++;
    }
    return p;
}

static void process_link_child(struct process *parent, struct process *child)
{
    child->parent = parent;
    child->next_sibling = parent->children;
    parent->children = child;
}

struct task *task_create_init(struct machine *m)
{
    struct process *p = process_alloc(m);
    if (!p)
        goto fail_process;
    struct sighand *sh = calloc(1, sizeof *sh);
    if (!sh)
        goto fail_sighand;
    struct fdtable *files = fdtable_new_console();
    if (!files)
        goto fail_files;
    sh->refs = 1;
    p->sighand = sh;
    p->files = files;
    cred_init_root(&p->cred);
    /* No address space until its first execve. */
    struct task *t = task_alloc(m, p);
    if (!t)
        return NULL;
    p->pid = p->pgid = p->sid = t->tid;
    snprintf(p->cwd, sizeof p->cwd, "/");
    snprintf(p->root, sizeof p->root, "/");
    m->init = p;
    t->state = TASK_RUNNABLE;
    sched_task_init(&m->sched, &t->se, t->tid, p->pid, "init");
    return t;

fail_files:
    free(sh);
fail_sighand:
    free(p);
fail_process:
    return NULL;
}

/* ---- blocking ---- */

void task_block(struct task *t, resume_fn resume, const void *wait_obj, uint64_t deadline_ns)
{
    if (t->state == TASK_RUNNABLE)
        sched_task_block(&t->machine->sched, &t->se);
    t->state = TASK_BLOCKED;
    t->resume = resume;
    t->wait_obj = wait_obj;
    t->deadline_ns = deadline_ns;
    t->woken = false;
    t->stop = true;
    waitq_update(t);
}

void task_wake(struct task *t)
{
    if (t->state != TASK_BLOCKED)
        return;
    t->state = TASK_RUNNABLE;
    waitq_update(t);
    /* It starts no earlier than the present of whoever woke it. */
    sched_advance(&t->machine->sched, machine_now(t->machine));
    sched_task_wake(&t->machine->sched, &t->se);
}

void task_wake_all(struct machine *m, const void *obj)
{
    struct waiters w;
    waiters_get(&w, m, obj, 0);
    for (size_t i = 0; i < w.n; i++)
        if (w.task[i]->resume)
            task_wake(w.task[i]);
    waiters_put(&w);
}

/* ---- clone ---- */

/* Undoes process_for_clone for a child that never ran. */
static void process_discard(struct process *cp, const struct process *p)
{
    if (cp->mm && cp->mm != p->mm)
        mm_put(cp->mm);
    if (cp->files && cp->files != p->files)
        fdtable_put(cp->files);
    if (cp->sighand && cp->sighand != p->sighand)
        free(cp->sighand);
    cred_release(&cp->cred);
    keys_process_exit(cp);
    cp->machine->nprocs--;
    free(cp);
}

/* The new thread group of a fork-style clone: shared or copied address
 * space, files and handlers as the flags say. NULL with *err on failure. */
static struct process *process_for_clone(struct process *p, uint64_t flags, int *err)
{
    struct process *cp = process_alloc(p->machine);
    if (!cp) {
        *err = -ENOMEM;
        return NULL;
    }
    *err = -ENOMEM;
    cp->mm = (flags & CLONE_VM) ? p->mm : mm_copy(p->mm, err);
    cp->files = (flags & CLONE_FILES) ? p->files : fdtable_copy(p->files);
    cp->sighand = (flags & CLONE_SIGHAND) ? p->sighand : malloc(sizeof *cp->sighand);
    if (!cp->mm || !cp->files || !cp->sighand) {
        process_discard(cp, p);
        return NULL;
    }
    if (cp->sighand != p->sighand) {
        *cp->sighand = *p->sighand;
        cp->sighand->refs = 0;
    }
    if (cp->mm == p->mm)
        cp->mm->refs++;
    if (cp->files == p->files)
        cp->files->refs++;
    cp->sighand->refs++;
    cp->personality = p->personality;
    memcpy(cp->exe, p->exe, sizeof cp->exe);
    memcpy(cp->cwd, p->cwd, sizeof cp->cwd);
    memcpy(cp->root, p->root, sizeof cp->root);
    cp->umask = p->umask;
    memcpy(cp->rlim, p->rlim, sizeof cp->rlim);
    cred_copy(&cp->cred, &p->cred);
    keys_fork(cp, p);
    cp->pgid = p->pgid;
    cp->sid = p->sid;
    cp->ctty = p->ctty;
    cp->exit_signal = (int)(flags & CSIGNAL);
    cp->has_child_subreaper = p->has_child_subreaper || p->child_subreaper;
    cp->thp_disabled = p->thp_disabled;
    cp->undumpable = p->undumpable;
    return cp;
}

int process_limits_check(const struct machine *m)
{
    if (m->nprocs >= (int)m->cfg->max_procs)
        return -EAGAIN;
    if (host_memory_low(m, HOST_COST_PER_PROCESS))
        return -ENOMEM;
    return 0;
}

int64_t do_clone(struct task *t, uint64_t flags, uint64_t newsp, uint64_t parent_tid,
                 uint64_t tls, uint64_t child_tid)
{
    struct machine *m = t->machine;
    struct process *p = t->proc;
    if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
        return -EINVAL;
    if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
        return -EINVAL;
    bool thread = flags & CLONE_THREAD;
    int refused = sched_fork_check(&t->se); /* a deadline task may not fork */
    if (refused)
        return refused;
    if (!thread && (refused = process_limits_check(m)) < 0)
        return refused;

    struct process *cp = p;
    int err;
    if (!thread && !(cp = process_for_clone(p, flags, &err)))
        return err;
    struct task *c = task_alloc(m, cp);
    if (!c) {
        if (!thread)
            process_discard(cp, p);
        return -ENOMEM;
    }
    if (!thread) {
        cp->pid = c->tid;
        process_link_child((flags & CLONE_PARENT) && p->parent ? p->parent : p, cp);
    }
    c->sigmask = t->sigmask;
    c->no_new_privs = t->no_new_privs;
    c->timer_slack_ns = c->timer_slack_default_ns = t->timer_slack_ns;
    c->mce_kill = t->mce_kill;
    guest_seccomp_fork(c, t);
    sched_attr_fork(c, t); /* the scheduling class is inherited */
    c->mempolicy = t->mempolicy; /* copy_process's mpol_dup */
    c->ioprio = ioprio_fork(t->ioprio, flags); /* copy_io (ioprio.c) */
    keys_clone_task(c, t, thread);

    /* The child starts from the parent's registers, returning 0. */
    const struct abi *abi = task_abi(t);
    /* A context is plain CPU state of the ISA: it moves to a copy's engine. */
    uc_context_save(p->mm->uc, c->ctx);
    abi->ctx_set_return(c->ctx, 0);
    if (newsp)
        abi->ctx_set_sp(c->ctx, newsp);
    if (flags & CLONE_SETTLS) {
        c->new_tls = tls;
        c->has_new_tls = true;
    }

    uint32_t ctid = (uint32_t)c->tid;
    if (flags & CLONE_PARENT_SETTID)
        copy_to_guest(p->mm, parent_tid, &ctid, sizeof ctid);
    if (flags & CLONE_CHILD_SETTID)
        copy_to_guest(cp->mm, child_tid, &ctid, sizeof ctid);
    if (flags & CLONE_CHILD_CLEARTID)
        c->clear_child_tid = child_tid;
    c->state = TASK_RUNNABLE;
    /* copy_process()'s work: the child is runnable once it is done. */
    kcost_charge(t, (flags & CLONE_VM) ? EMU_COST_CLONE : EMU_COST_FORK);
    sched_advance(&m->sched, machine_now(m));
    mev_newtask(t, c->tid, flags);
    cgroup_fork(t, c);
    sched_task_fork(&m->sched, &t->se, &c->se, c->tid, cp->pid);
    if (t->pi.boosted)
        futex_pi_fork(c); /* not its parent's boost */
    stop_hooks_clone(t, c, flags);

    if ((flags & CLONE_VFORK) && !thread)
        return vfork_wait(t, cp, c->tid);
    return c->tid;
}

/* ---- exit ---- */

/* find_new_reaper(): the nearest ancestor that made itself a child
 * subreaper and is not ending, else init; NULL when init itself ends. */
static struct process *new_reaper(struct process *p)
{
    struct process *init = p->machine->init;
    if (p->has_child_subreaper)
        for (struct process *a = p->parent; a && a != init; a = a->parent)
            if (a->child_subreaper && !a->exiting)
                return a;
    return init != p ? init : NULL;
}

/* forget_original_parent(): each thread of an orphan that asked with
 * PR_SET_PDEATHSIG gets its signal, as from the kernel. Linux sends it when
 * the thread that forked the child ends; asymu keeps children per process
 * and sends it when the parent process ends (docs/processes.md). */
static void send_pdeath_signals(struct process *c, const struct process *parent)
{
    struct siginfo_lite info = {.code = SI_USER, .pid = parent->pid};
    for (struct task *th = c->threads; th; th = th->next_thread)
        if (th->pdeath_signal && th->state != TASK_DEAD)
            signal_queue_process(c, th->pdeath_signal, &info);
}

/* Called when p's last thread is gone: children go to their reaper, the parent
 * hears SIGCHLD (or reaps it at once when SIGCHLD is ignored). */
static void process_became_zombie(struct process *p)
{
    struct machine *m = p->machine;
    strace_process_end(p);
    vfork_release(p);
    proc_timers_release(p);
    sysv_process_exit(p); /* SEM_UNDO */
    locks_process_closed(p, NULL);
    mq_process_closed(p, NULL); /* its mq_notify registrations */
    keys_process_exit(p);
    fdtable_put(p->files);
    p->files = NULL;
    mm_put(p->mm);
    p->mm = NULL;
    p->zombie = true;
    /* after its files, as Linux's do_exit: it signals no zombie */
    pty_session_leader_exit(p);
    m->nprocs--;
    pidfd_process_exited(p);
    struct process *reaper = new_reaper(p);
    while (p->children) {
        struct process *c = p->children;
        p->children = c->next_sibling;
        if (reaper) {
            process_link_child(reaper, c);
            if (c->zombie)
                task_wake_all(m, reaper);
        } else {
            c->parent = NULL;
        }
        send_pdeath_signals(c, p);
    }
    stop_hooks_process_exit(p);
    if (p->parent && !ptrace_hides_exit(p))
        process_notify_parent_exit(p);
}

void process_notify_parent_exit(struct process *p)
{
    /* clone accepts any exit signal up to 255; Linux sends only valid
     * ones, and wakes the parent either way. */
    if (p->exit_signal > 0 && p->exit_signal <= NSIG_GUEST) {
        int st = p->wait_status;
        bool exited = (st & 0x7f) == 0;
        struct siginfo_lite info = {
            .code = exited ? 1 /* CLD_EXITED */ : (st & 0x80) ? 3 /* CLD_DUMPED */ : 2,
            .pid = p->pid,
            .status = exited ? (st >> 8) & 0xff : st & 0x7f,
        };
        signal_queue_process(p->parent, p->exit_signal, &info);
    }
    task_wake_all(p->machine, p->parent);
}

void task_queue_free(struct task *t)
{
    /* Freed by the machine loop, once its engine has stopped. */
    struct machine *m = t->machine;
    t->exited_next = m->exited;
    if (m->exited)
        m->exited->exited_pprev = &t->exited_next;
    t->exited_pprev = &m->exited;
    m->exited = t;
}

void task_exit(struct task *t, int wait_status)
{
    struct process *p = t->proc;
    if (t->state == TASK_DEAD)
        return;
    /* exit_mm_release(): the robust list and PI locks, then the tid. */
    futex_exit_release(t);
    if (t->clear_child_tid && p->mm && p->mm->refs >= 1) {
        uint32_t zero = 0;
        if (copy_to_guest(p->mm, t->clear_child_tid, &zero, sizeof zero) == 0)
            futex_wake(t, t->clear_child_tid, 1);
    }
    sysv_cancel_wait(t); /* a semop, msgsnd/msgrcv or mq_timedsend/receive it was blocked in */
    t->state = TASK_DEAD;
    t->stop = true;
    t->resume = NULL;
    waitq_update(t);
    vfork_abandon(t);
    if (t->tid != p->pid)
        task_queue_free(t);
    mev_exit(t, wait_status);
    sched_task_exit(&t->machine->sched, &t->se);
    if (p->mm && p->mm->loaded == t)
        p->mm->loaded = NULL;
    if (--p->live_threads == 0) {
        if (!p->exiting)
            p->wait_status = wait_status;
        p->exiting = true;
        process_became_zombie(p);
    }
}

void process_exit_group(struct process *p, int wait_status)
{
    if (p->exiting)
        return;
    p->exiting = true;
    p->wait_status = wait_status;
    for (struct task *t = p->threads; t; t = t->next_thread)
        if (t->state != TASK_DEAD)
            task_exit(t, wait_status);
}

/* Takes t out of p's threads and every machine index, and frees it. */
static void task_free(struct task *t)
{
    struct process *p = t->proc;
    mev_free(t);
    struct task **th = &p->threads;
    while (*th != t)
        th = &(*th)->next_thread;
    *th = t->next_thread;
    if (t->exited_pprev) {
        *t->exited_pprev = t->exited_next;
        if (t->exited_next)
            t->exited_next->exited_pprev = t->exited_pprev;
    }
    task_index_remove(t);
    ptrace_task_free(t);
    keys_task_free(t);
    guest_seccomp_release(t);
    if (t->ctx)
        uc_context_free(t->ctx);
    free(t->strace_line);
    free(t);
}

void task_free_exited(struct machine *m)
{
    while (m->exited) {
        struct task *t = m->exited;
        t->proc->exited_cpu_ns += task_cpu_ns(t);
        t->proc->exited_sys_ns += task_sys_ns(t);
        task_free(t);
    }
}

void process_reap(struct process *p)
{
    pidfd_process_reaped(p);
    if (p->parent) {
        struct process **pp = &p->parent->children;
        while (*pp && *pp != p)
            pp = &(*pp)->next_sibling;
        if (*pp)
            *pp = p->next_sibling;
    }
    if (--p->sighand->refs == 0)
        free(p->sighand);
    /* Its leader, and threads the machine loop has not freed yet. */
    while (p->threads)
        task_free(p->threads);
    cred_release(&p->cred);
    free(p);
}

int wait_status_to_shell(int status)
{
    if ((status & 0x7f) == 0)
        return (status >> 8) & 0xff;
    return 128 + (status & 0x7f);
}
