/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stop_hooks.h - where a debugger stops a task or hears of an event: the
 * one interface the kernel layer calls at those points (stop_hooks.c), and
 * that each debugger implements.
 *
 * There are two debuggers. The guest's own tracer (ptrace(2), ptrace.c)
 * stops one task in a ptrace-stop and tells its tracer's wait. A debugger
 * of the host's (`--gdb`'s stub, emu/tools/) stops the whole machine at the
 * next slice boundary. Each registers a `struct stop_hooks` in its slot of
 * the machine (stop_hooks_set): the guest's at machine_boot, the host's
 * while it listens. The kernel layer asks the slots in their fixed order,
 * the guest's tracer first, so a tracee's tracer sees a signal or an event
 * before gdb does; it never names the host's debugger (e2e-house-kernel-
 * includes checks that no emu/kernel/ file includes an emu/tools/ header).
 *
 * A hook left NULL is one that debugger has no stop or event for. Each
 * hook is a no-op (false) for a task its debugger does not debug. The
 * state only ptrace has (ptrace_stopped, ptrace_hides_exit, ptrace_wait,
 * ...) stays ptrace.h's: those are Linux's rules of a tracee, which gdb,
 * holding the machine rather than the task, takes no part in. */
#ifndef ASYMU_STOP_HOOKS_H
#define ASYMU_STOP_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

struct machine;
struct process;
struct task;

struct stop_hooks {
    /* Whether the debugger sees t's signals before their handlers and
     * default actions: a fatal signal is not a group exit yet
     * (signal_fatal), a forced fault signal is queued rather than ending
     * the process (signal_force). Not asked for sig_discarded: only a
     * ptrace tracer keeps an ignored signal queued (Linux's
     * sig_task_ignored() looks at t->ptrace alone), so signal.c reads
     * t->ptrace there itself. */
    bool (*traces)(const struct task *t);
    /* signal_deliver took sig (its info in t->delivering): true when t
     * stops instead, the debugger deciding what is delivered on restart
     * (ptrace's signal-delivery-stop; gdb's stop reply `T<sig>`, the
     * signal passed when gdb continues with it). The first debugger that
     * stops t has it; the later ones are not asked. */
    bool (*signal_stop)(struct task *t, int sig);
    /* syscall_dispatch, before decoding: true when t stopped at syscall
     * entry (the svc runs again on restart). ptrace only (PTRACE_SYSCALL,
     * PTRACE_EVENT_EXIT of exit and exit_group): the gdb stub has no
     * syscall catchpoints. The first that stops t has it. */
    bool (*syscall_enter)(struct task *t, uint64_t nr, const uint64_t a[6]);
    /* A syscall finished with ret (in the registers already): ptrace's
     * syscall-exit and event stops. exec_done: a successful execve, whose
     * PTRACE_EVENT_EXEC (or legacy SIGTRAP) ptrace reports from here,
     * before its syscall-exit stop as Linux does. Every debugger is told. */
    void (*syscall_exit)(struct task *t, bool exec_done, int64_t ret);
    /* After syscall_exit of a successful execve: t's process runs a new
     * program. gdb's exec event (its breakpoints went with the old
     * program); NULL for ptrace, which reported it from syscall_exit.
     * Every debugger is told. */
    void (*exec)(struct task *t);
    /* do_clone made child from parent: ptrace's fork, vfork and clone
     * events (the child traced too, per the tracer's options); gdb's fork
     * and vfork events (not for threads: gdb debugs the child process).
     * Every debugger is told. */
    void (*clone)(struct task *parent, struct task *child, uint64_t flags);
    /* The default action of a signal ends t's process with wait status
     * `status`: true when t stops first (ptrace's PTRACE_EVENT_EXIT, not
     * for SIGKILL), the process ending on restart. ptrace only: gdb hears
     * of the end (process_exit). The first that stops t has it. */
    bool (*exit_stop)(struct task *t, int status);
    /* The default action of stop signal sig froze t's process: ptrace's
     * group-stop report. ptrace only: gdb does not stop for it. Every
     * debugger is told. */
    void (*group_stop)(struct task *t, int sig);
    /* p became a zombie (p->wait_status is its status): ptrace detaches
     * p's tracees and tells p's tracer; gdb hears p's exit (`W`/`X`).
     * Every debugger is told, before p's parent. */
    void (*process_exit)(struct process *p);
    /* The engine's block hook while m->watch_blocks (a step under way or
     * a host debugger listening): true when the debugger's single step of
     * m->current ended before this block, the run then stopping there
     * (ptrace's PTRACE_SINGLESTEP is the engine's step, engine_step.c;
     * gdb's is its own). Every debugger is asked: each ends its own step. */
    bool (*block)(struct machine *m);
};

/* The slots, in the order the kernel layer asks them. */
enum stop_hooks_slot {
    STOP_HOOKS_GUEST, /* the guest's ptrace(2) */
    STOP_HOOKS_HOST,  /* a debugger of the host's (--gdb) */
    STOP_HOOKS_N
};

/* Puts hooks (NULL: none) in slot of m. */
void stop_hooks_set(struct machine *m, enum stop_hooks_slot slot, const struct stop_hooks *hooks);

/* The kernel layer's calls: each asks the slots in order, as its hook's
 * comment says (the first true wins, or every debugger is told). */
bool stop_hooks_traces(const struct task *t);
bool stop_hooks_signal_stop(struct task *t, int sig);
bool stop_hooks_syscall_enter(struct task *t, uint64_t nr, const uint64_t a[6]);
void stop_hooks_syscall_exit(struct task *t, bool exec_done, int64_t ret);
void stop_hooks_exec(struct task *t);
void stop_hooks_clone(struct task *parent, struct task *child, uint64_t flags);
bool stop_hooks_exit_stop(struct task *t, int status);
void stop_hooks_group_stop(struct task *t, int sig);
void stop_hooks_process_exit(struct process *p);
bool stop_hooks_block(struct machine *m);

#endif
